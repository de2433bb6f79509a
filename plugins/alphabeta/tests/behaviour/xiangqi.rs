//! The xiangqi search through its public entry, with the bundled xiangqi
//! evaluation linked directly.

use std::{sync::Mutex, time::Instant};

use plugboard_alphabeta::{
    BoardEvaluation, Direct,
    xiangqi::{from_api, run, to_api, to_board},
};
use plugboard_eval_xiangqi::XiangqiEvaluator;
use plugboard_plugin_api::{
    BoardPosition, BoardSearchRequest, EVAL_FAILED, EVAL_FAILURE_PREFIX, Move, NO_DEADLINE, Reporter, Score,
    SearchControl, SearchInfo, SearchOutcome,
};
use plugboard_xiangqi::{MoveList, Position};

struct Setup<'a> {
    start: &'a str,
    moves: &'a [&'a str],
    depth: u32,
    threads: u32,
    root_moves: &'a [&'a str],
    control: SearchControl,
}

impl Default for Setup<'_> {
    fn default() -> Self {
        Setup {
            start: plugboard_xiangqi::START,
            moves: &[],
            depth: 0,
            threads: 1,
            root_moves: &[],
            control: SearchControl::new(NO_DEADLINE, NO_DEADLINE, false),
        }
    }
}

struct Searched {
    outcome: SearchOutcome,
    /// The last line reported: its score and moves.
    last: Option<(Score, Vec<Move>)>,
    root: Position,
}

fn parse(text: &str) -> Move {
    to_api(text.parse().unwrap())
}

fn search_with<E: BoardEvaluation>(
    setup: &Setup<'_>,
    new_eval: impl Fn() -> Result<E, String> + Sync,
) -> Result<Searched, String> {
    let start = Position::from_fen(setup.start).unwrap();
    let moves: Vec<Move> = setup.moves.iter().map(|m| parse(m)).collect();
    let mut root = start.clone();
    for &m in &moves {
        let _ = root.play(from_api(m));
    }
    let root_moves: Vec<Move> = setup.root_moves.iter().map(|m| parse(m)).collect();
    let request = request(&start, &root, &moves, &root_moves, setup.depth, setup.threads, &setup.control);
    let last = Mutex::new(None);
    let record = |info: &SearchInfo<'_>| {
        if !info.pv.is_empty() {
            *last.lock().unwrap() = Some((info.score, info.pv.to_vec()));
        }
    };
    let outcome = run(&request, new_eval, Reporter::new(&record))?;
    Ok(Searched { outcome, last: last.into_inner().unwrap(), root })
}

fn request<'a>(
    start: &Position,
    root: &Position,
    moves: &'a [Move],
    root_moves: &'a [Move],
    depth: u32,
    threads: u32,
    control: &'a SearchControl,
) -> BoardSearchRequest<'a> {
    BoardSearchRequest {
        game_start: to_board(start),
        moves: moves.into(),
        root: to_board(root),
        root_moves: root_moves.into(),
        depth,
        threads,
        nodes: 0,
        hash_mb: 16,
        multipv: 1,
        preset_scores: (&[][..]).into(),
        eval_noise: 0,
        clear_hash: true,
        reserved8: [0; 3],
        noise_seed: 0,
        control,
        reserved: [0; 4],
    }
}

fn search(setup: &Setup<'_>) -> Searched {
    search_with(setup, || Ok(Direct(XiangqiEvaluator))).unwrap()
}

fn assert_legal(searched: &Searched) {
    let best = from_api(searched.outcome.best.into_option().expect("a move"));
    assert!(searched.root.is_legal(best), "{best} is not legal");
}

#[test]
fn a_line_cut_short_still_names_a_reply_to_ponder_on() {
    // At depth 1 the line is the root move alone: the reply comes from elsewhere.
    let searched = search(&Setup { depth: 1, ..Setup::default() });
    assert_eq!(searched.last.as_ref().unwrap().1.len(), 1);
    let best = from_api(searched.outcome.best.into_option().unwrap());
    let reply = from_api(searched.outcome.ponder.into_option().expect("a reply to ponder on"));
    assert!(searched.root.after(best).is_legal(reply), "{reply} is not legal after {best}");
}

#[test]
fn finds_mate_in_one() {
    // The chariot on a8 holds rank 8 and the generals' file is open: b0b9 and b0d0 mate.
    let searched = search(&Setup { start: "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1", depth: 4, ..Setup::default() });
    let best = from_api(searched.outcome.best.into_option().unwrap());
    assert!(["b0b9", "b0d0"].contains(&best.to_string().as_str()), "{best}");
    let after = searched.root.after(best);
    assert!(after.is_check() && after.outcome().is_some());
    assert_eq!(searched.last.unwrap().0, Score::mate_in(1));
}

#[test]
fn a_side_without_a_legal_move_has_lost_and_no_move() {
    // Black's general on d9 is stalemated: d8 and e9 are covered, and it is not in check.
    let stalemated = "3k5/R8/9/9/9/9/9/9/9/4K3R b - - 0 1";
    let position = Position::from_fen(stalemated).unwrap();
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    assert!(moves.is_empty() && !position.is_check());
    let searched = search(&Setup { start: stalemated, depth: 3, ..Setup::default() });
    assert!(searched.outcome.best.is_none());
}

#[test]
fn stalemating_the_other_side_is_a_win_it_looks_for() {
    // Several moves leave Black's general on d9 no move (i1i9 mates; others stalemate): each wins at once.
    let start = "3k5/R8/9/9/9/9/9/9/8R/4K4 w - - 0 1";
    let searched = search(&Setup { start, depth: 4, ..Setup::default() });
    let (score, _) = searched.last.clone().unwrap();
    assert_eq!(score, Score::mate_in(1), "a move that leaves Black no move wins at once");
    assert_legal(&searched);
}

#[test]
fn perpetual_check_is_not_repeated_when_the_checker_would_lose() {
    // Red has checked with every move since the set-up: Rd5+ now would repeat
    // the position after Red's first check, and xboard would call it Red's loss.
    let searched = search(&Setup {
        start: "4k4/9/9/9/4R4/9/9/9/9/5K3 b - - 0 1",
        moves: &["e9d9", "e5d5", "d9e9", "d5e5", "e9d9"],
        depth: 5,
        ..Setup::default()
    });
    assert_legal(&searched);
    assert_ne!(searched.outcome.best.into_option(), Some(parse("e5d5")));
}

#[test]
fn only_the_root_moves_asked_for_are_searched() {
    let searched = search(&Setup { depth: 3, root_moves: &["a3a4", "i0i1"], ..Setup::default() });
    let best = searched.outcome.best.into_option().unwrap();
    assert!([parse("a3a4"), parse("i0i1")].contains(&best), "{best:?}");
}

#[test]
fn the_hard_deadline_ends_the_search_with_a_legal_move() {
    let setup = Setup { threads: 2, control: SearchControl::new(100, 150, false), ..Setup::default() };
    let started = Instant::now();
    let searched = search(&setup);
    assert_legal(&searched);
    // The deadline is the search's to keep; a generous bound only catches a search that ignores it.
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    let (_, line) = searched.last.expect("a line before the deadline");
    assert_eq!(Some(line[0]), searched.outcome.best.into_option());
}

#[test]
fn a_stop_before_the_start_still_gives_a_legal_move() {
    let setup = Setup::default();
    setup.control.request_stop();
    assert_legal(&search(&setup));
}

struct Broken;

impl BoardEvaluation for Broken {
    fn evaluate(&mut self, _position: &BoardPosition) -> i32 {
        EVAL_FAILED
    }
}

#[test]
fn a_failing_evaluation_fails_the_search_as_the_evaluations_fault() {
    let error = search_with(&Setup { depth: 3, ..Setup::default() }, || Ok(Broken)).err().unwrap();
    assert!(error.starts_with(EVAL_FAILURE_PREFIX), "{error}");
    let error =
        search_with(&Setup { depth: 3, ..Setup::default() }, || Err::<Broken, _>("no".to_string())).err().unwrap();
    assert!(error.starts_with(EVAL_FAILURE_PREFIX), "{error}");
}

#[test]
fn the_search_wins_material_left_hanging() {
    // Black's chariot on e5 is unprotected and Red's chariot on a5 takes it.
    let searched = search(&Setup { start: "4k4/9/9/9/R3r4/9/9/9/9/3K5 w - - 0 1", depth: 4, ..Setup::default() });
    assert_eq!(searched.outcome.best.into_option(), Some(parse("a5e5")));
}

#[test]
#[ignore = "a measurement, not a test"]
fn depth_reached_in_five_seconds() {
    let setup = Setup { control: SearchControl::new(10_000, 5_000, false), ..Setup::default() };
    let start = Position::from_fen(setup.start).unwrap();
    let request = request(&start, &start, &[], &[], 0, 1, &setup.control);
    let print = |info: &SearchInfo<'_>| {
        if !info.pv.is_empty() {
            let pv: Vec<String> = info.pv.iter().map(|&m| from_api(m).to_string()).collect();
            println!("{} {:?} {} {} {}", info.depth, info.score, info.nodes, info.time_ms, pv.join(" "));
        }
    };
    run(&request, || Ok(Direct(XiangqiEvaluator)), Reporter::new(&print)).unwrap();
}
