//! The search of every board that is not 8×8 (xiangqi, and each variant
//! defined as data): iterative-deepening PVS over the game's own rules (the
//! same the host judges the game by), with the chess search's transposition
//! table and score layout, and Lazy SMP threads. The rules come through
//! [`Rules`]; the loop is written once.
//!
//! Positions cross the boundary as [`BoardPosition`]s; the search keeps one in
//! step with its own position, so evaluating a node costs no conversion.

mod ordering;
mod root;
pub(crate) mod rules;
mod search;

use std::{
    sync::atomic::{AtomicBool, AtomicU64, Ordering},
    thread,
};

use plugboard_plugin_api::{BoardSearchRequest, EVAL_FAILURE_PREFIX, Reporter, SearchOutcome};

use crate::{eval::BoardEvaluation, tt::with_shared_table};
pub(crate) use rules::Rules;
use search::{Searcher, Team};

/// Searches `root` (the request's root, read by the caller) with
/// `request.threads` threads, each with an evaluation from `new_eval`;
/// `game_start` is the request's game start read the same way, if it reads.
pub(crate) fn run<R, E, F>(
    request: &BoardSearchRequest<'_>,
    mut root: R,
    game_start: Option<R>,
    new_eval: F,
    reporter: Reporter<'_>,
) -> Result<SearchOutcome, String>
where
    R: Rules,
    E: BoardEvaluation,
    F: Fn() -> Result<E, String> + Sync,
{
    let mut legal = Vec::new();
    root.legal_moves(&mut legal);
    let mut root_moves: Vec<R::Move> = Vec::new();
    for &wanted in request.root_moves.iter() {
        if let Some(m) = root.legal_from_api(wanted).filter(|m| legal.contains(m))
            && !root_moves.contains(&m)
        {
            root_moves.push(m);
        }
    }
    if root_moves.is_empty() {
        root_moves = legal;
    }
    if root_moves.is_empty() {
        return Ok(SearchOutcome { best: None.into(), ponder: None.into() });
    }
    let history = History::of_game(request, game_start, &root);
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
/// root move that would repeat one by the game's rules.
pub(crate) struct History<R: Rules> {
    pub keys: Vec<u64>,
    pub checks: Vec<bool>,
    /// The game's positions up to and including the root, and the moves between.
    pub positions: Vec<R>,
    pub moves: Vec<R::Move>,
    /// Whether the game began from the opening position (xboard then counts it).
    pub from_start: bool,
}

impl<R: Rules> History<R> {
    /// Replays the request's moves from its game start; if they do not lead to
    /// the root (a `setboard`, or a host bug), the root alone.
    fn of_game(request: &BoardSearchRequest<'_>, game_start: Option<R>, root: &R) -> History<R> {
        let replay = || -> Option<History<R>> {
            let mut position = game_start?;
            let from_start = request.game_start.fullmove_number == 1 && R::is_opening(&position);
            let mut history = History {
                keys: vec![position.hash()],
                checks: vec![false],
                positions: vec![position.clone()],
                moves: Vec::new(),
                from_start,
            };
            for &wanted in request.moves.iter() {
                let m = position.legal_from_api(wanted)?;
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
