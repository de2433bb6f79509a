//! The harness the search tests share: a request built from a few settings, run
//! with PeSTO linked directly, every line report kept.
// Each test binary uses part of it.
#![allow(dead_code)]

use std::sync::Mutex;

use plugboard_alphabeta::{
    AlphaBeta, Direct, Evaluation, SearchOptions, board_from_fen, board_to_position, move_to_cozy, search_with,
};
use plugboard_eval_pesto::PestoEvaluator;
use plugboard_plugin_api::{
    InfoKind, Move, NO_DEADLINE, Reporter, Score, SearchControl, SearchOutcome, SearchRequest, TablebaseProbe,
    abi_stable::std_types::RSlice,
};

pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The last line reported, with everything a test wants from the outcome.
#[derive(Debug)]
pub struct Result {
    pub outcome: SearchOutcome,
    pub score: Option<Score>,
    pub depth: u32,
    pub nodes: u64,
    /// Every line reported, in order.
    pub lines: Vec<Line>,
}

/// One `InfoKind::Line` report.
#[derive(Clone, Debug)]
pub struct Line {
    pub depth: u32,
    pub multipv: u32,
    pub score: Score,
    pub nodes: u64,
    pub tbhits: u64,
    pub pv: Vec<Move>,
}

pub struct Setup<'a> {
    pub fen: &'a str,
    pub moves: &'a [Move],
    pub root_moves: &'a [Move],
    pub depth: u32,
    pub nodes: u64,
    pub noise: (u32, u64),
    pub threads: u32,
    pub multipv: u32,
    pub clear_hash: bool,
    /// The host's tablebases, if it lends any.
    pub tablebases: Option<TablebaseProbe>,
}

impl Default for Setup<'_> {
    fn default() -> Self {
        Setup {
            fen: START,
            moves: &[],
            root_moves: &[],
            depth: 0,
            nodes: 0,
            noise: (0, 0),
            threads: 1,
            multipv: 1,
            clear_hash: true,
            tablebases: None,
        }
    }
}

/// The evaluation most tests use, one for each search thread.
pub fn pesto() -> std::result::Result<Direct<PestoEvaluator>, String> {
    Ok(Direct(PestoEvaluator::with_tempo(10)))
}

pub fn run_with<E: Evaluation>(
    setup: Setup<'_>,
    control: &SearchControl,
    new_eval: impl Fn() -> std::result::Result<E, String> + Sync,
) -> std::result::Result<Result, String> {
    let start = board_to_position(&board_from_fen(setup.fen)?);
    let mut root_board = board_from_fen(setup.fen)?;
    for &mv in setup.moves {
        root_board.play(move_to_cozy(mv)?);
    }
    let request = SearchRequest {
        game_start: start,
        moves: RSlice::from_slice(setup.moves),
        root: board_to_position(&root_board),
        root_moves: RSlice::from_slice(setup.root_moves),
        depth: setup.depth,
        nodes: setup.nodes,
        threads: setup.threads,
        hash_mb: 8,
        multipv: setup.multipv,
        clear_hash: setup.clear_hash,
        preset_scores: RSlice::from_slice(&[]),
        eval_noise: setup.noise.0,
        noise_seed: setup.noise.1,
        control,
    };
    let lines = Mutex::new(Vec::new());
    let callback = |info: &plugboard_plugin_api::SearchInfo<'_>| {
        if info.kind == InfoKind::Line {
            assert!(!info.pv.is_empty(), "a line report without a pv");
            let line = Line {
                depth: info.depth,
                multipv: info.multipv,
                score: info.score,
                nodes: info.nodes,
                tbhits: info.tbhits,
                pv: info.pv.to_vec(),
            };
            lines.lock().unwrap().push(line);
        }
    };
    let options = SearchOptions { tablebases: setup.tablebases, ..AlphaBeta::options() };
    let outcome = search_with(&request, new_eval, Reporter::new(&callback), options)?;
    let lines = lines.into_inner().unwrap();
    // The main line of the last iteration: the last line numbered 1.
    let last = lines.iter().rev().find(|line| line.multipv == 1);
    Ok(Result {
        outcome,
        score: last.map(|line| line.score),
        depth: last.map_or(0, |line| line.depth),
        nodes: lines.last().map_or(0, |line| line.nodes),
        lines,
    })
}

pub fn run(setup: Setup<'_>) -> Result {
    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
    run_with(setup, &control, pesto).expect("search failed")
}

pub fn mv(text: &str) -> Move {
    let m: cozy_chess::Move = text.parse().unwrap();
    plugboard_alphabeta::move_from_cozy(m)
}

pub fn assert_legal(fen: &str, outcome: &SearchOutcome) {
    let board = board_from_fen(fen).unwrap();
    let best = outcome.best.into_option().expect("no best move");
    let best = move_to_cozy(best).unwrap();
    assert!(board.is_legal(best), "illegal best move {best} in {fen}");
    if let Some(ponder) = outcome.ponder.into_option() {
        let mut after = board.clone();
        after.play(best);
        assert!(after.is_legal(move_to_cozy(ponder).unwrap()), "illegal ponder move in {fen}");
    }
}
