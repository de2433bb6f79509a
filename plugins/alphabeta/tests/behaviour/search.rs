//! Behaviour of the search through its public API, with PeSTO linked directly.

use std::{
    thread,
    time::{Duration, Instant},
};

use cozy_chess::Board;
use plugboard_alphabeta::{AlphaBeta, Direct, Evaluation, board_from_fen, board_to_position, perft, search};
use plugboard_eval_pesto::{Pesto, PestoEvaluator};
use plugboard_plugin_api::{
    EVAL_FAILED, EVAL_FAILURE_PREFIX, EvalPlugin, Evaluate, Evaluator, NO_DEADLINE, Position, Reporter, Score,
    ScoreKind, SearchControl, SearchPlugin, SearchRequest, abi_stable::std_types::RSlice,
};

use crate::common;

use common::{KIWIPETE, START, Setup, assert_legal, mv, pesto, run, run_with};

#[test]
fn perft_counts() {
    let start = Board::default();
    assert_eq!(perft(&start, 1), 20);
    assert_eq!(perft(&start, 4), 197_281);
    assert_eq!(perft(&board_from_fen(KIWIPETE).unwrap(), 3), 97_862);
    // Chess960 castling through the X-FEN/Shredder parser.
    let chess960 = board_from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9").unwrap();
    assert_eq!(perft(&chess960, 3), 12_189);
}

#[test]
fn a_line_cut_short_still_names_a_reply_to_ponder_on() {
    // At depth 1 the line is the root move alone: the reply comes from elsewhere.
    let result = run(Setup { depth: 1, ..Setup::default() });
    assert_eq!(result.lines.last().unwrap().pv.len(), 1, "{result:?}");
    assert!(result.outcome.ponder.is_some(), "no reply to ponder on: {result:?}");
    assert_legal(START, &result.outcome);
}

#[test]
fn finds_mate_in_one() {
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let result = run(Setup { fen, depth: 4, ..Setup::default() });
    assert_eq!(result.outcome.best.into_option(), Some(mv("a1a8")));
    assert_eq!(result.score, Some(Score::mate_in(1)));
}

#[test]
fn finds_mate_in_two() {
    let fen = "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1";
    let result = run(Setup { fen, depth: 6, ..Setup::default() });
    assert_eq!(result.score, Some(Score::mate_in(2)));
    assert_legal(fen, &result.outcome);
}

#[test]
fn reports_being_mated() {
    let fen = "k7/8/1K6/8/8/8/8/7R b - - 0 1";
    let result = run(Setup { fen, depth: 5, ..Setup::default() });
    assert_eq!(result.outcome.best.into_option(), Some(mv("a8b8")));
    assert_eq!(result.score, Some(Score::mate_in(-1)));
}

#[test]
fn no_legal_move_means_no_best_move() {
    let mated = run(Setup { fen: "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", depth: 3, ..Setup::default() });
    assert!(mated.outcome.best.is_none());
    let stalemate = run(Setup { fen: "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth: 3, ..Setup::default() });
    assert!(stalemate.outcome.best.is_none());
}

#[test]
fn fifty_move_rule_draws_unless_mate() {
    // The clock is at 99: every move but mate draws by the fifty-move rule.
    let fen = "7k/8/6QK/8/8/8/8/8 w - - 99 80";
    let result = run(Setup { fen, depth: 4, ..Setup::default() });
    assert_legal(fen, &result.outcome);
    // With the clock at 99 any non-mating move draws at once; mate is still found first.
    assert_eq!(result.score, Some(Score::mate_in(1)), "Qg7# beats the fifty-move draw");
    let bare = "7k/8/8/8/8/8/8/K5R1 w - - 99 80";
    let result = run(Setup { fen: bare, depth: 4, ..Setup::default() });
    assert_eq!(result.score, Some(Score::centipawns(0)));
}

#[test]
fn perpetual_check_saves_the_lost_side() {
    // White is a queen and two rooks down for a queen, but Qe8+ Kh7 Qh5+ repeats forever.
    let fen = "6k1/6p1/8/7Q/8/1rrq4/8/K7 w - - 0 1";
    let result = run(Setup { fen, depth: 8, ..Setup::default() });
    assert_eq!(result.score, Some(Score::centipawns(0)), "expected a draw score");
    assert_legal(fen, &result.outcome);
}

#[test]
fn game_history_counts_for_repetition() {
    // Black, a queen down, can return to a position that already occurred twice:
    // that third occurrence is a draw, but only the game history shows it.
    let fen = "6k1/5ppp/8/8/8/8/8/K2Q4 w - - 0 1";
    let shuffle = ["d1d2", "g8h8", "d2d1", "h8g8", "d1d2", "g8h8", "d2d1"].map(mv);
    let result = run(Setup { fen, moves: &shuffle, depth: 5, ..Setup::default() });
    assert_eq!(result.outcome.best.into_option(), Some(mv("h8g8")));
    assert_eq!(result.score, Some(Score::centipawns(0)));

    // The same root without its history is simply lost.
    let root = "7k/5ppp/8/8/8/8/8/K2Q4 b - - 7 4";
    let result = run(Setup { fen: root, depth: 5, ..Setup::default() });
    assert!(
        matches!(result.score, Some(Score { kind: ScoreKind::Centipawns, value, .. }) if value < -500)
            || matches!(result.score, Some(Score { kind: ScoreKind::Mate, .. })),
        "{:?}",
        result.score
    );
}

#[test]
fn respects_root_moves_and_node_limits() {
    let only = [mv("a2a3")];
    let result = run(Setup { root_moves: &only, depth: 4, ..Setup::default() });
    assert_eq!(result.outcome.best.into_option(), Some(mv("a2a3")));
    for nodes in [1, 10, 100, 1_000, 10_000] {
        for fen in [START, KIWIPETE, "8/2k5/8/8/8/8/2K5/8 w - - 0 1", "4k3/8/4K3/4P3/8/8/8/8 b - - 0 1"] {
            let result = run(Setup { fen, nodes, ..Setup::default() });
            assert_legal(fen, &result.outcome);
        }
    }
}

#[test]
fn never_returns_an_illegal_move() {
    let fens = [
        START,
        KIWIPETE,
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ];
    for fen in fens {
        for depth in 1..=4 {
            let result = run(Setup { fen, depth, ..Setup::default() });
            assert_legal(fen, &result.outcome);
            assert_eq!(result.depth, depth);
        }
    }
}

#[test]
fn stops_promptly_when_told() {
    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, true);
    let (result, stop_delay) = thread::scope(|scope| {
        let handle = scope.spawn(|| {
            let result = run_with(Setup { fen: KIWIPETE, ..Setup::default() }, &control, pesto);
            (result, Instant::now())
        });
        thread::sleep(Duration::from_millis(300));
        let raised = Instant::now();
        control.request_stop();
        let (result, returned) = handle.join().unwrap();
        (result, returned.duration_since(raised))
    });
    let result = result.unwrap();
    assert_legal(KIWIPETE, &result.outcome);
    assert!(stop_delay < Duration::from_millis(50), "took {stop_delay:?} to stop");
}

#[test]
fn honours_the_hard_deadline() {
    let control = SearchControl::new(NO_DEADLINE, 100, false);
    let started = Instant::now();
    let result = run_with(Setup { fen: KIWIPETE, ..Setup::default() }, &control, pesto).unwrap();
    assert!(started.elapsed() < Duration::from_millis(300), "took {:?}", started.elapsed());
    assert_legal(KIWIPETE, &result.outcome);
}

#[test]
fn single_legal_move_returns_at_once() {
    // White is in check with one way out.
    let fen = "k7/8/8/8/8/1p6/1R6/K6r w - - 0 1";
    let control = SearchControl::new(10_000, 20_000, false);
    let result = run_with(Setup { fen, ..Setup::default() }, &control, pesto).unwrap();
    assert_eq!(result.outcome.best.into_option(), Some(mv("b2b1")));
    assert_eq!(result.depth, 1);
}

#[test]
fn is_deterministic() {
    let a = run(Setup { fen: KIWIPETE, depth: 6, ..Setup::default() });
    let b = run(Setup { fen: KIWIPETE, depth: 6, ..Setup::default() });
    assert_eq!(a.outcome, b.outcome);
    assert_eq!(a.nodes, b.nodes);
}

/// An evaluation that breaks after a number of calls.
struct Faulty(u32);

impl Evaluate for Faulty {
    fn evaluate(&mut self, _position: &Position) -> i32 {
        self.0 = self.0.saturating_sub(1);
        if self.0 == 0 {
            panic!("deliberate failure");
        }
        0
    }
}

#[test]
fn a_panicking_evaluation_aborts_the_search() {
    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
    // Through the plugin boundary the panic becomes EVAL_FAILED.
    let error = run_with(Setup { depth: 5, ..Setup::default() }, &control, || Ok(Evaluator::from_rust(Faulty(100))))
        .expect_err("the search should fail");
    assert!(error.starts_with(EVAL_FAILURE_PREFIX), "{error}");

    struct Fails;
    impl Evaluation for Fails {
        fn evaluate(&mut self, _: &Position) -> i32 {
            EVAL_FAILED
        }
    }
    assert!(run_with(Setup { depth: 3, ..Setup::default() }, &control, || Ok(Fails)).is_err());
}

#[test]
fn plugin_boundary_matches_direct_linking() {
    // Same evaluation through function pointers: same tree, same nodes.
    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
    let setup = || Setup { fen: KIWIPETE, depth: 5, ..Setup::default() };
    let direct = run_with(setup(), &control, pesto).unwrap();
    let ffi = run_with(setup(), &control, || Ok(Evaluator::from_rust(PestoEvaluator::with_tempo(10)))).unwrap();
    assert_eq!(direct.nodes, ffi.nodes);
    assert_eq!(direct.outcome, ffi.outcome);
}

#[test]
fn search_plugin_entry_point_works() {
    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
    let root = board_to_position(&Board::default());
    let request = SearchRequest {
        game_start: root,
        moves: RSlice::from_slice(&[]),
        root,
        root_moves: RSlice::from_slice(&[]),
        depth: 3,
        nodes: 0,
        threads: 1,
        hash_mb: 1,
        multipv: 1,
        clear_hash: false,
        preset_scores: RSlice::from_slice(&[]),
        eval_noise: 0,
        noise_seed: 0,
        control: &control,
    };
    let callback = |_: &plugboard_plugin_api::SearchInfo<'_>| {};
    let source = Pesto::module().source();
    let outcome = AlphaBeta::search(&request, source, Reporter::new(&callback)).unwrap();
    assert_legal(START, &outcome);
    assert!(AlphaBeta::set_option("Null move pruning", "0").is_ok());
    assert!(AlphaBeta::set_option("Null move pruning", "maybe").is_err());
    assert!(AlphaBeta::set_option("Null move pruning", "1").is_ok());
    assert!(AlphaBeta::set_option("Hash", "1").is_err());
}

#[test]
fn rejects_invalid_positions() {
    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
    let mut root = board_to_position(&Board::default());
    root.pieces[5] = 0; // no kings
    root.colors =
        [root.pieces.iter().fold(0, |a, b| a | b) & 0xFFFF, root.pieces.iter().fold(0, |a, b| a | b) >> 48 << 48];
    let request = SearchRequest {
        game_start: root,
        moves: RSlice::from_slice(&[]),
        root,
        root_moves: RSlice::from_slice(&[]),
        depth: 3,
        nodes: 0,
        threads: 1,
        hash_mb: 1,
        multipv: 1,
        clear_hash: false,
        preset_scores: RSlice::from_slice(&[]),
        eval_noise: 0,
        noise_seed: 0,
        control: &control,
    };
    let callback = |_: &plugboard_plugin_api::SearchInfo<'_>| {};
    let error = search(&request, || Ok(Direct(PestoEvaluator::with_tempo(0))), Reporter::new(&callback)).unwrap_err();
    assert!(error.contains("invalid position"), "{error}");
}

/// An evaluation plugin that cannot make evaluators.
struct Unavailable;

impl EvalPlugin for Unavailable {
    type Evaluator = PestoEvaluator;

    fn info() -> plugboard_plugin_api::PluginInfo {
        plugboard_plugin_api::PluginInfo::new("unavailable", "0")
    }

    fn new_evaluator() -> std::result::Result<PestoEvaluator, String> {
        Err("no weights file".into())
    }
}

#[test]
fn an_evaluator_that_cannot_be_made_is_an_evaluation_error() {
    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
    let root = board_to_position(&Board::default());
    let request = SearchRequest {
        game_start: root,
        moves: RSlice::from_slice(&[]),
        root,
        root_moves: RSlice::from_slice(&[]),
        depth: 3,
        nodes: 0,
        threads: 1,
        hash_mb: 1,
        multipv: 1,
        clear_hash: false,
        preset_scores: RSlice::from_slice(&[]),
        eval_noise: 0,
        noise_seed: 0,
        control: &control,
    };
    let callback = |_: &plugboard_plugin_api::SearchInfo<'_>| {};
    let error = AlphaBeta::search(&request, Unavailable::module().source(), Reporter::new(&callback)).unwrap_err();
    assert!(error.starts_with(EVAL_FAILURE_PREFIX) && error.contains("no weights file"), "{error}");
}

#[test]
fn random_mode_noise_varies_the_search_by_seed_and_only_then() {
    let plain = |_| run(Setup { depth: 5, ..Setup::default() });
    let noisy = |seed| run(Setup { depth: 5, noise: (30, seed), ..Setup::default() });
    // Without noise the search is repeatable; with it each seed sees other scores.
    assert_eq!(plain(1).nodes, plain(2).nodes);
    assert_eq!(noisy(7).nodes, noisy(7).nodes);
    let scores: Vec<_> = (1..=4).map(|seed| noisy(seed).score).collect();
    assert!(scores.windows(2).any(|pair| pair[0] != pair[1]), "noise changed nothing: {scores:?}");
}
