//! Repetitions and chases, first as xboard 4.9.1 judged them in the runs of
//! plan 17 section 0 and in 181 games recorded in `data/xboard_repetitions.txt`
//! (scripted engines under xvfb-run), then the chase rule case by case.

use plugboard_xiangqi::chase::{chases, is_chase};
use plugboard_xiangqi::repetition::{Rule, Verdict, earlier_occurrences, judge};
use plugboard_xiangqi::{Color, Move, Position};

/// Plays `cycle` over and over from `fen` and returns the first verdict
/// with the ply it came at (1 = after the first move), judging after each
/// move as xboard does.
fn first_verdict(fen: &str, cycle: &[&str], rule: Rule) -> Option<(usize, Verdict)> {
    let mut positions = vec![Position::from_fen(fen).unwrap()];
    let mut moves = Vec::new();
    for ply in 1..=60 {
        let m: Move = cycle[(ply - 1) % cycle.len()].parse().unwrap();
        let last = positions.last().unwrap();
        assert!(last.is_legal(m), "{m} at ply {ply}");
        positions.push(last.after(m));
        moves.push(m);
        if let Some(verdict) = judge(&positions, &moves, rule) {
            return Some((ply, verdict));
        }
    }
    None
}

/// Plays each side's cycle of moves in turn from `fen` until the first
/// verdict, as two scripted engines did under xboard.
fn scripted_verdict(fen: &str, red: &[Move], black: &[Move]) -> Option<(usize, Verdict)> {
    let mut positions = vec![Position::from_fen(fen).unwrap()];
    let mut moves = Vec::new();
    let mut played = [0, 0];
    for ply in 1..=60 {
        let last = positions.last().unwrap();
        let side = last.turn();
        let script = if side == Color::Red { red } else { black };
        let m = script[played[side.index()] % script.len()];
        played[side.index()] += 1;
        assert!(last.is_legal(m), "{m} at ply {ply} from {fen}");
        positions.push(last.after(m));
        moves.push(m);
        if let Some(verdict) = judge(&positions, &moves, Rule::XBOARD) {
            return Some((ply, verdict));
        }
    }
    None
}

/// xboard's adjudication text for a verdict, with the result.
fn xboard_words(verdict: Verdict) -> String {
    let result = match verdict.winner() {
        Some(Color::Red) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    };
    format!("{verdict} {result}")
}

#[test]
fn games_xboard_adjudicated() {
    let mut games = 0;
    for line in include_str!("data/xboard_repetitions.txt").lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let [fen, red, black, plies, adjudication] = fields[..] else { panic!("bad line: {line}") };
        let script = |moves: &str| -> Vec<Move> { moves.split(',').map(|m| m.parse().unwrap()).collect() };
        let (ply, verdict) = scripted_verdict(fen, &script(red), &script(black)).expect(line);
        assert_eq!((ply.to_string(), xboard_words(verdict)), (plies.to_string(), adjudication.to_string()), "{line}");
        games += 1;
    }
    assert_eq!(games, 181);
}

#[test]
fn xboard_perpetual_check() {
    // "{Xboard adjudication: perpetual checking} 0-1": the checker loses on
    // the 6th occurrence, the set-up position not counted. Black's king moves
    // complete a sixth occurrence first (ply 21) but Black is the one checked:
    // nothing is decided until Red's check repeats.
    let verdict = first_verdict("4k4/9/9/9/4R4/9/9/9/9/5K3 b", &["e9d9", "e5d5", "d9e9", "d5e5"], Rule::XBOARD);
    assert_eq!(verdict, Some((22, Verdict::PerpetualCheck { loser: Color::Red })));
}

#[test]
fn xboard_perpetual_chase() {
    // "{Xboard adjudication: perpetual chasing of g7} 0-1": the chariot
    // follows an unprotected horse between h9 and g7.
    let verdict = first_verdict("4k2h1/9/9/9/9/9/9/9/9/5K1R1 b", &["h9g7", "h0g0", "g7h9", "g0h0"], Rule::XBOARD);
    assert_eq!(verdict, Some((22, Verdict::PerpetualChase { loser: Color::Red, chased: "g7".parse().unwrap() })));
}

#[test]
fn xboard_repetition_draw() {
    // "{XBoard adjudication: repetition draw} 1/2-1/2" on the 6th occurrence.
    let verdict = first_verdict("4k4/9/9/9/9/9/9/9/9/5K2R b", &["e9e8", "i0i1", "e8e9", "i1i0"], Rule::XBOARD);
    assert_eq!(verdict, Some((21, Verdict::Draw)));
    // Counting the first position makes the sixth occurrence come a cycle
    // sooner for it (ply 20), when the game began from the opening position.
    let counted = Rule { first_position_counts: true, ..Rule::XBOARD };
    assert_eq!(
        first_verdict("4k4/9/9/9/9/9/9/9/9/5K2R b", &["e9e8", "i0i1", "e8e9", "i1i0"], counted),
        Some((20, Verdict::Draw))
    );
}

#[test]
fn draw_claims_count_as_xboard_does() {
    // xboard accepts a repetition claim at the third occurrence not counting
    // the set-up position: after 8 plies the start has recurred twice, but
    // only one earlier occurrence counts.
    let mut positions = vec![Position::from_fen("4k4/9/9/9/9/9/9/9/9/5K2R b").unwrap()];
    let mut moves = Vec::new();
    for m in ["e9e8", "i0i1", "e8e9", "i1i0"].iter().cycle().take(8) {
        let m: Move = m.parse().unwrap();
        positions.push(positions.last().unwrap().after(m));
        moves.push(m);
    }
    assert_eq!(earlier_occurrences(&positions, &moves, false), 1);
    assert_eq!(earlier_occurrences(&positions, &moves, true), 2);
    // The history looked at stops at a capture or a forward soldier step;
    // the position that step made is the first that may recur.
    let soldier = Position::from_fen("4k4/9/9/9/9/9/P8/9/9/5K3 w").unwrap();
    let mut positions = vec![soldier];
    let mut moves = Vec::new();
    for m in ["f0f1", "e9e8", "f1f0", "e8e9", "a3a4", "e9e8", "f0f1", "e8e9", "f1f0"] {
        let m: Move = m.parse().unwrap();
        let last = positions.last().unwrap();
        assert!(last.is_legal(m), "{m}");
        positions.push(last.after(m));
        moves.push(m);
    }
    assert_eq!(earlier_occurrences(&positions, &moves, true), 1);
}

#[test]
fn black_checking_loses_too() {
    let verdict = first_verdict("5k3/9/9/9/9/4r4/9/9/9/4K4 w", &["e0d0", "e4d4", "d0e0", "d4e4"], Rule::XBOARD);
    assert_eq!(verdict, Some((22, Verdict::PerpetualCheck { loser: Color::Black })));
}

#[test]
fn a_search_may_ask_at_the_first_repeat() {
    let rule = Rule { occurrences: 2, first_position_counts: true };
    let verdict = first_verdict("4k2h1/9/9/9/9/9/9/9/9/5K1R1 b", &["h9g7", "h0g0", "g7h9", "g0h0"], rule);
    // Red's h0 repeats the first position at ply 4, after it chased h9 and g7.
    assert_eq!(verdict, Some((4, Verdict::PerpetualChase { loser: Color::Red, chased: "h9".parse().unwrap() })));
}

fn chased(fen: &str, m: &str) -> Vec<String> {
    let position = Position::from_fen(fen).unwrap();
    let m: Move = m.parse().unwrap();
    assert!(position.is_legal(m), "{m}");
    let mut names: Vec<String> = chases(&position, m).iter().map(|c| c.to.to_string()).collect();
    names.sort();
    names
}

#[test]
fn what_chases() {
    let none = Vec::<String>::new();
    // A chariot newly attacking an unprotected horse chases it …
    assert_eq!(chased("4k4/9/9/9/9/6h2/9/9/9/R2K5 w", "a0a4"), ["g4"]);
    // … not when the horse is protected …
    assert_eq!(chased("4k1r2/9/9/9/9/6h2/9/9/9/R2K5 w", "a0a4"), none);
    // … nor when it attacked the horse before moving already.
    assert_eq!(chased("4k4/9/9/9/9/R5h2/9/9/9/3K5 w", "a4b4"), none);
    // A horse on a chariot is a chase even when the chariot is protected.
    assert_eq!(chased("3k5/9/9/9/9/9/9/2r6/2r2N3/4K4 w", "f1e3"), ["c2"]);
    // A chariot offering an exchange to a chariot that can take back is no chase.
    assert_eq!(chased("4k4/9/9/9/9/r8/9/9/9/1R1K5 w", "b0b4"), none);
    // Soldiers may attack; a soldier on its own side of the river may be attacked.
    assert_eq!(chased("4k4/9/9/9/4P1h2/9/9/9/9/3K5 w", "e5f5"), none);
    assert_eq!(chased("4k4/9/9/2p6/9/9/9/9/9/R2K5 w", "a0a6"), none);
    assert_eq!(chased("4k4/9/9/9/9/2p6/9/9/9/R2K5 w", "a0a4"), ["c4"]);
    let position = Position::from_fen("4k4/9/9/9/9/6h2/9/9/9/R2K5 w").unwrap();
    assert!(is_chase(&position, "a0a4".parse().unwrap()) && !is_chase(&position, "a0a1".parse().unwrap()));
    // A cannon chases over a screen of either side, not without one.
    assert_eq!(chased("4k4/9/9/9/9/6h2/9/9/9/C2K5 w", "a0a4"), none);
    assert_eq!(chased("4k4/9/9/9/9/3p2h2/9/9/9/C2K5 w", "a0a4"), ["g4"]);
}
