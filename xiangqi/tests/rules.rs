//! The rules one at a time, each on a small position, plus FEN round trips,
//! refused positions, and the consistency of the fast paths with slow ones.

use plugboard_xiangqi::{Color, FenError, Lettering, Move, MoveList, Outcome, Position, Role, Square};

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// The legal moves of the piece on `from`, as sorted target names.
fn targets(position: &Position, from: &str) -> Vec<String> {
    let from: Square = from.parse().unwrap();
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    let mut names: Vec<String> = moves.iter().filter(|m| m.from == from).map(|m| m.to.to_string()).collect();
    names.sort();
    names
}

#[test]
fn fen_round_trips_in_both_letterings() {
    for fen in [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K4/2BA5 w - - 0 1",
        "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3",
        "4k2n1/9/9/9/9/9/9/9/9/5K1R1 b - - 7 40",
    ] {
        let standard = position(fen);
        assert_eq!(standard.fen(Lettering::Standard), fen);
        let xboard = standard.fen(Lettering::Xboard);
        assert!(!xboard.contains('n') && !xboard.contains('B') && !xboard.contains(" - - "), "{xboard}");
        let again = position(&xboard);
        assert_eq!(again.fen(Lettering::Standard), fen);
        assert_eq!(again.hash(), standard.hash());
    }
    assert_eq!(
        Position::start().fen(Lettering::Xboard),
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1"
    );
}

#[test]
fn fen_fields_gui_writers_use() {
    let start = Position::start();
    for fen in [
        // xboard's setboard: no castling or e.p. fields.
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1",
        // cxboard's CFEN: side r, then only the move number.
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r 1",
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - -",
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w",
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR",
        // Mixed letters read too.
        "rhbakaenr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNEAKABHR w - - 0 1",
    ] {
        let read = position(fen);
        assert!(read.same_placement(&start), "{fen}");
        assert_eq!((read.halfmoves(), read.fullmoves()), (0, 1), "{fen}");
    }
    let cfen = position("4k4/9/9/9/9/9/9/9/9/3K5 b 12");
    assert_eq!((cfen.turn(), cfen.halfmoves(), cfen.fullmoves()), (Color::Black, 0, 12));
    let counters = position("4k4/9/9/9/9/9/9/9/9/3K5 b 3 12");
    assert_eq!((counters.halfmoves(), counters.fullmoves()), (3, 12));
}

#[test]
fn refused_positions_say_why() {
    let refused = |fen: &str| Position::from_fen(fen).expect_err(fen);
    assert_eq!(refused(""), FenError::Empty);
    assert_eq!(refused("4k4/9/9/9/9/9/9/9/3K5 w"), FenError::RankCount(9));
    assert_eq!(refused("4k4/9/9/9/9/9/9/9/8/3K5 w"), FenError::RankWidth(1));
    assert_eq!(refused("4k4/9/9/9/9/9/9/9/9/3K6 w"), FenError::RankWidth(0));
    assert_eq!(refused("4k4/9/9/9/9/9/9/9/9/3K4Q w"), FenError::Letter('Q'));
    assert_eq!(refused("4k4/9/9/9/9/9/9/9/9/3K5 x"), FenError::Side("x".into()));
    assert_eq!(refused("4k4/9/9/9/9/9/9/9/9/3K5 w KQkq - 0 1"), FenError::Castling("KQkq".into()));
    assert_eq!(refused("4k4/9/9/9/9/9/9/9/9/3K5 w - - x 1"), FenError::Counter("x".into()));
    assert_eq!(refused("4k4/9/9/9/9/9/9/9/9/3K5 w 0 1 2"), FenError::ExtraFields);
    assert_eq!(refused("9/9/9/9/9/9/9/9/9/3K5 w"), FenError::NoGeneral(Color::Black));
    assert_eq!(refused("4k4/9/9/9/9/9/9/9/9/9 w"), FenError::NoGeneral(Color::Red));
    assert_eq!(refused("4k4/9/9/9/9/9/9/9/4K4/3K5 w"), FenError::TwoGenerals(Color::Red));
    assert_eq!(refused("4k4/9/9/9/9/9/9/9/9/4K4 w"), FenError::GeneralsFacing);
    assert_eq!(refused("4k3R/9/9/9/9/9/9/9/9/3K5 w"), FenError::OpponentInCheck);
    assert_eq!(refused("4k4/9/9/9/9/9/3K5/9/9/9 w"), FenError::GeneralOutsidePalace("d3".parse().unwrap()));
    assert_eq!(refused("4k4/9/9/9/9/9/9/9/9/3KA4 w"), FenError::AdvisorOffSquares("e0".parse().unwrap()));
    assert_eq!(refused("4k4/9/9/9/2B6/9/9/9/9/3K5 w"), FenError::ElephantOffSquares("c5".parse().unwrap()));
    assert_eq!(refused("4k4/9/9/9/9/9/4B4/9/9/3K5 w"), FenError::ElephantOffSquares("e3".parse().unwrap()));
    assert_eq!(refused("4k4/9/9/9/9/9/9/P8/9/3K5 w"), FenError::SoldierBehindStart("a2".parse().unwrap()));
    assert_eq!(refused("4k4/9/9/9/9/9/1P7/9/9/3K5 w"), FenError::SoldierOffFile("b3".parse().unwrap()));
    assert_eq!(refused("4k4/9/9/9/9/9/9/9/9/NNNK5 w"), FenError::TooMany { color: Color::Red, role: Role::Horse });
    assert_eq!(FenError::GeneralsFacing.to_string(), "generals face each other on an open file");
    assert_eq!(FenError::ElephantOffSquares("c5".parse().unwrap()).to_string(), "elephant off its squares (c5)");
}

#[test]
fn flying_general() {
    // The red general may not step onto the black general's open file.
    let open = position("3k5/9/9/9/9/9/9/9/9/4K4 w");
    assert_eq!(targets(&open, "e0"), ["e1", "f0"]);
    // A lone screen between the generals is pinned to the file.
    let pinned = position("4k4/9/9/9/9/9/4C4/9/9/4K4 w");
    assert_eq!(targets(&pinned, "e3"), ["e1", "e2", "e4", "e5", "e6", "e7", "e8"]);
    let black = position("3k5/9/9/9/9/9/9/9/9/4K4 b");
    assert_eq!(targets(&black, "d9"), ["d8"]);
    let last_screen = position("4k4/4a4/9/9/9/9/9/9/9/4K4 b");
    assert!(targets(&last_screen, "e8").is_empty());
}

#[test]
fn horse_leg() {
    let free = position("4k4/9/9/9/9/4N4/9/9/9/3K5 w");
    assert_eq!(targets(&free, "e4"), ["c3", "c5", "d2", "d6", "f2", "f6", "g3", "g5"]);
    // A piece of either side on a leg blocks both jumps through it.
    let blocked = position("4k4/9/9/9/4p4/4N4/9/9/9/3K5 w");
    assert_eq!(targets(&blocked, "e4"), ["c3", "c5", "d2", "f2", "g3", "g5"]);
    // The blocked horse gives no check either.
    let check = position("3k5/9/2N6/9/9/9/9/9/9/4K4 b");
    assert!(check.is_check());
    let no_check = position("3k5/2P6/2N6/9/9/9/9/9/9/4K4 b");
    assert!(!no_check.is_check());
}

#[test]
fn elephant_eye_and_river() {
    let free = position("4k4/9/9/9/9/2B6/9/9/9/3K5 w");
    assert_eq!(targets(&free, "c4"), ["a2", "e2"]);
    let blocked = position("4k4/9/9/9/9/2B6/3p5/9/9/3K5 w");
    assert_eq!(targets(&blocked, "c4"), ["a2"]);
    let black = position("2b1k4/9/9/9/9/9/9/9/9/3K5 b");
    assert_eq!(targets(&black, "c9"), ["a7", "e7"]);
}

#[test]
fn cannon_screen() {
    // Moves like a chariot, captures over exactly one screen of either side.
    let cannon = position("4k4/9/9/9/4r4/9/4P4/9/4C4/3K5 w");
    assert_eq!(targets(&cannon, "e1"), ["a1", "b1", "c1", "d1", "e0", "e2", "e5", "f1", "g1", "h1", "i1"]);
    let no_screen = position("3k5/9/9/9/4r4/9/9/9/4C4/5K3 w");
    assert!(!targets(&no_screen, "e1").contains(&"e5".to_string()));
    let two_screens = position("3k5/9/9/9/4r4/4p4/4P4/9/4C4/5K3 w");
    assert!(!targets(&two_screens, "e1").contains(&"e5".to_string()));
    // A piece may not become the screen between a cannon and its own general.
    let screen = position("3k5/9/9/9/4c4/9/R8/9/9/4K4 w");
    let chariot = targets(&screen, "a3");
    assert!(chariot.contains(&"d3".to_string()) && !chariot.contains(&"e3".to_string()));
    // A screen gives check; it escapes by leaving the line or taking the cannon.
    let check = position("3k5/9/9/9/4c4/4R4/9/9/9/4K4 w");
    assert!(check.is_check());
    let chariot = targets(&check, "e4");
    assert!(chariot.contains(&"d4".to_string()) && chariot.contains(&"e5".to_string()));
    assert!(!chariot.contains(&"e3".to_string()));
}

#[test]
fn soldier_sideways_after_the_river() {
    let home = position("4k4/9/9/9/9/9/4P4/9/9/3K5 w");
    assert_eq!(targets(&home, "e3"), ["e4"]);
    let crossed = position("4k4/9/9/9/4P4/9/9/9/9/3K5 w");
    assert_eq!(targets(&crossed, "e5"), ["d5", "e6", "f5"]);
    let last_rank = position("3k4P/9/9/9/9/9/9/9/9/4K4 w");
    assert_eq!(targets(&last_rank, "i9"), ["h9"]);
    let black = position("4k4/9/9/9/9/4p4/9/9/9/3K5 b");
    assert_eq!(targets(&black, "e4"), ["d4", "e3", "f4"]);
}

#[test]
fn general_and_advisor_stay_in_the_palace() {
    let p = position("5k3/9/9/9/9/9/9/3A5/3K5/9 w");
    assert_eq!(targets(&p, "d1"), ["d0", "e1"]);
    assert_eq!(targets(&p, "d2"), ["e1"]);
}

#[test]
fn no_legal_move_loses_checkmate_and_stalemate_alike() {
    // Two chariots mate on the back rank.
    assert_eq!(Position::start().outcome(), None);
    let mated = position("3k5/R8/1R7/9/9/9/9/9/9/4K4 w").after(mv("b7b9"));
    assert!(mated.is_check());
    assert_eq!(mated.outcome(), Some(Outcome::Checkmate { winner: Color::Red }));
    // xboard's stalemate of plan 17: Ra8 leaves Black no move, Black loses.
    let stalemated = position("4k4/9/R8/9/9/9/9/9/5R3/3K5 w").after(mv("a7a8"));
    assert!(!stalemated.is_check());
    assert_eq!(stalemated.outcome(), Some(Outcome::Stalemate { winner: Color::Red }));
    assert_eq!(stalemated.outcome().map(Outcome::winner), Some(Color::Red));
}

#[test]
fn counters_follow_xboard() {
    let mut p = Position::start();
    for (m, halfmoves, fullmoves) in
        [("h2e2", 1, 1), ("h9g7", 2, 2), ("e3e4", 0, 2), ("g6g5", 0, 3), ("e2e6", 0, 3), ("a6a5", 0, 4)]
    {
        let m = mv(m);
        assert!(p.is_legal(m), "{m}");
        let _ = p.play(m);
        assert_eq!((p.halfmoves(), p.fullmoves()), (halfmoves, fullmoves), "after {m}");
    }
    // A crossed soldier's sideways step does not restart the clock; its forward step does.
    let mut p = position("4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 5 10");
    let _ = p.play(mv("e5d5"));
    assert_eq!(p.halfmoves(), 6);
    let _ = p.play(mv("e9f9"));
    let _ = p.play(mv("d5d6"));
    assert_eq!((p.halfmoves(), p.fullmoves()), (0, 11));
}

/// Every fast path agrees with a slow one along random games: the
/// incremental hash with a fresh one, `keeps_general_safe` with playing the
/// move and looking, `is_pseudo_legal` with generation, `gives_check` and
/// `undo` with what `play` did.
#[test]
fn fast_paths_agree_with_slow_ones() {
    let mut seed = 0x1234_5678_9abc_def1_u64;
    let mut random = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        usize::try_from(seed % n as u64).unwrap()
    };
    // The whole-board pseudo-legality sweep is slow unoptimised.
    let games = if cfg!(debug_assertions) { 4 } else { 40 };
    for _game in 0..games {
        let mut p = Position::start();
        for _ply in 0..150 {
            let mut pseudo = MoveList::new();
            p.pseudo_legal_moves(&mut pseudo);
            let mut legal = MoveList::new();
            p.legal_moves(&mut legal);
            for &m in pseudo.iter() {
                assert!(p.is_pseudo_legal(m), "{m} in {}", p.fen(Lettering::Standard));
                let mut after = p.clone();
                let undo = after.play(m);
                let own_attacked = Position::from_fen(&after.fen(Lettering::Standard)).is_err();
                assert_eq!(p.keeps_general_safe(m), !own_attacked, "{m} in {}", p.fen(Lettering::Standard));
                if !own_attacked {
                    assert_eq!(p.gives_check(m), after.is_check(), "{m} in {}", p.fen(Lettering::Standard));
                    let fresh = position(&after.fen(Lettering::Standard));
                    assert_eq!(fresh.hash(), after.hash());
                    assert_eq!(fresh.is_check(), after.is_check());
                }
                after.undo(m, undo);
                assert_eq!(after.fen(Lettering::Standard), p.fen(Lettering::Standard));
                assert_eq!(after.hash(), p.hash());
            }
            let mut captures = MoveList::new();
            p.captures(&mut captures);
            let expected: Vec<Move> = pseudo.iter().copied().filter(|&m| p.is_capture(m)).collect();
            assert_eq!(captures.to_vec(), expected);
            for from in Square::all() {
                for to in Square::all() {
                    let m = Move::new(from, to);
                    assert_eq!(p.is_pseudo_legal(m), pseudo.contains(&m), "{m} in {}", p.fen(Lettering::Standard));
                }
            }
            if legal.is_empty() {
                assert!(p.outcome().is_some());
                break;
            }
            let m = legal[random(legal.len())];
            let _ = p.play(m);
        }
    }
}
