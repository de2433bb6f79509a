//! The xiangqi search: iterative-deepening PVS over `plugboard-xiangqi`'s rules,
//! the same rules the host judges the game by, with the chess search's
//! transposition table and score layout, and Lazy SMP threads.
//!
//! Positions cross the boundary as [`BoardPosition`]s; the search keeps one in
//! step with its own board, so evaluating a node costs no conversion.

mod ordering;
mod root;
mod search;

use std::{
    sync::atomic::{AtomicBool, AtomicU64, Ordering},
    thread,
};

use plugboard_plugin_api::{
    self as api, BoardPosition, BoardSearchRequest, EVAL_FAILURE_PREFIX, Reporter, SearchOutcome, Variant,
};
use plugboard_xiangqi::{Move, MoveList, Position};

use crate::{eval::BoardEvaluation, tt::with_shared_table};
use search::{Searcher, Team};

/// Searches `request.root`, a xiangqi position, with `request.threads` threads,
/// each with an evaluation from `new_eval`.
pub fn run<E, F>(request: &BoardSearchRequest<'_>, new_eval: F, reporter: Reporter<'_>) -> Result<SearchOutcome, String>
where
    E: BoardEvaluation,
    F: Fn() -> Result<E, String> + Sync,
{
    if request.root.variant != Variant::XIANGQI {
        return Err(format!("this search plays xiangqi boards, not {}", request.root.variant.cecp_name()));
    }
    let root = from_board(&request.root)?;
    let mut legal = MoveList::new();
    root.legal_moves(&mut legal);
    let mut root_moves: Vec<Move> =
        request.root_moves.iter().map(|&m| from_api(m)).filter(|m| legal.contains(m)).collect();
    root_moves.dedup();
    if root_moves.is_empty() {
        root_moves = legal.to_vec();
    }
    if root_moves.is_empty() {
        return Ok(SearchOutcome { best: None.into(), ponder: None.into() });
    }
    let history = History::of_game(request, &root);
    let first_eval = crate::eval::create(&new_eval)?;
    let team = Team::new(request.nodes);
    let threads = request.threads.clamp(1, 256) as usize;
    let outcome = with_shared_table(request.hash_mb.max(1), request.clear_hash, |table| {
        thread::scope(|scope| {
            for helper in 1..threads {
                // A search stopped while its helpers start starts no more of them.
                if request.control.stop_requested() {
                    break;
                }
                let (new_eval, team, history, root, root_moves) = (&new_eval, &team, &history, &root, &root_moves);
                scope.spawn(move || {
                    // A helper whose evaluation cannot be made just does not help.
                    if let Ok(eval) = new_eval() {
                        let mut searcher = Searcher::new(request, table, team, eval, root, history, None);
                        searcher.help(root_moves.clone(), helper);
                    }
                });
            }
            let mut main = Searcher::new(request, table, &team, first_eval, &root, &history, Some(reporter));
            let outcome = main.iterate(root_moves.clone());
            team.stop_all();
            outcome
        })
    });
    if team.eval_failed() {
        return Err(format!("{EVAL_FAILURE_PREFIX}: the evaluation panicked"));
    }
    Ok(outcome)
}

/// The game before the root: the keys of its positions and whether each move
/// gave check, for repetitions; and the positions themselves, for judging a
/// root move that would repeat one as xboard will.
pub(super) struct History {
    pub keys: Vec<u64>,
    pub checks: Vec<bool>,
    /// The game's positions up to and including the root, and the moves between.
    pub positions: Vec<Position>,
    pub moves: Vec<Move>,
    /// Whether the game began from the opening position (xboard then counts it).
    pub from_start: bool,
}

impl History {
    /// Replays the request's moves from its game start; if they do not lead to
    /// the root (a `setboard`, or a host bug), the root alone.
    fn of_game(request: &BoardSearchRequest<'_>, root: &Position) -> History {
        let replay = || -> Option<History> {
            let mut position = from_board(&request.game_start).ok()?;
            let from_start = position.same_placement(&Position::start()) && position.fullmoves() == 1;
            let mut history = History {
                keys: vec![position.hash()],
                checks: vec![false],
                positions: vec![position.clone()],
                moves: Vec::new(),
                from_start,
            };
            for &m in request.moves.iter() {
                let m = from_api(m);
                if !position.is_legal(m) {
                    return None;
                }
                let _ = position.play(m);
                history.keys.push(position.hash());
                history.checks.push(position.is_check());
                history.positions.push(position.clone());
                history.moves.push(m);
            }
            position.same_placement(root).then_some(history)
        };
        replay().unwrap_or_else(|| History {
            keys: vec![root.hash()],
            checks: vec![root.is_check()],
            positions: vec![root.clone()],
            moves: Vec::new(),
            from_start: false,
        })
    }
}

/// The rules' position for a board position of xiangqi.
pub fn from_board(board: &BoardPosition) -> Result<Position, String> {
    Position::from_board_position(board).map_err(|error| format!("not a xiangqi position: {error}"))
}

/// The board position of a xiangqi position.
pub fn to_board(position: &Position) -> BoardPosition {
    position.to_board_position()
}

pub fn from_api(m: api::Move) -> Move {
    Move::from_plugin(m)
}

pub fn to_api(m: Move) -> api::Move {
    m.to_plugin()
}

impl Team {
    pub(super) fn new(node_limit: u64) -> Team {
        Team { node_limit, nodes: AtomicU64::new(0), stop: AtomicBool::new(false), eval_failed: AtomicBool::new(false) }
    }

    pub(super) fn stop_all(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    fn eval_failed(&self) -> bool {
        self.eval_failed.load(Ordering::Relaxed)
    }
}
