//! Lazy SMP: several threads search the same root at once and share nothing but
//! the transposition table, a node count and a stop signal.
//!
//! The helpers find nothing the main thread is told about directly; what they
//! store in the table makes its search cheaper, and a helper one ply deeper
//! often has the main thread's next iteration half done. Only the main thread
//! reports and chooses the move, so one thread or many, the host sees one search.

use std::{
    sync::atomic::{AtomicBool, AtomicU64, Ordering},
    thread,
};

use cozy_chess::{Board, Move};
use plugboard_plugin_api::{EVAL_FAILURE_PREFIX, Reporter, SearchOutcome};

use super::{Searcher, Setup};
use crate::eval::Evaluation;

/// Nodes a thread counts on its own before adding them to the team's count,
/// which bounds how far a node limit can be overrun: this much per thread.
pub(super) const NODE_BATCH: u64 = 64;

/// What the threads of one parallel search share besides the table.
pub(super) struct Team {
    /// 0 for none; counts every thread's nodes.
    node_limit: u64,
    nodes: AtomicU64,
    stop: AtomicBool,
    eval_failed: AtomicBool,
}

impl Team {
    fn new(node_limit: u64) -> Team {
        Team { node_limit, nodes: AtomicU64::new(0), stop: AtomicBool::new(false), eval_failed: AtomicBool::new(false) }
    }

    /// Adds a thread's nodes to the count; whether every thread is to stop.
    pub(super) fn count(&self, nodes: u64) -> bool {
        let total = self.nodes.fetch_add(nodes, Ordering::Relaxed) + nodes;
        if self.node_limit != 0 && total >= self.node_limit {
            self.stop_all();
        }
        self.stop.load(Ordering::Relaxed)
    }

    pub(super) fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    fn stop_all(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Searches with `threads` threads: the calling one is the main thread, with
/// `eval`; each helper makes its own evaluation with `new_eval`.
pub(super) fn search<E, F>(
    setup: &Setup<'_>,
    eval: E,
    new_eval: &F,
    reporter: Reporter<'_>,
    threads: u32,
) -> Result<SearchOutcome, String>
where
    E: Evaluation,
    F: Fn() -> Result<E, String> + Sync,
{
    let team = Team::new(setup.request.nodes);
    let outcome = thread::scope(|scope| {
        for id in 1..threads {
            let team = &team;
            let spawned = thread::Builder::new()
                .name(format!("alphabeta-{id}"))
                .spawn_scoped(scope, move || help(setup, new_eval, team, id));
            // Fewer threads than asked for still make a search.
            if spawned.is_err() {
                break;
            }
        }
        let outcome =
            Searcher::new(setup, eval, Some(reporter), Some(&team)).iterate(&setup.root, setup.root_moves.clone());
        team.stop_all();
        outcome
    });
    if team.eval_failed.load(Ordering::Relaxed) {
        return Err(format!("{EVAL_FAILURE_PREFIX}: the evaluation panicked"));
    }
    outcome
}

/// One helper thread, from making its evaluation to its last iteration.
fn help<E, F>(setup: &Setup<'_>, new_eval: &F, team: &Team, id: u32)
where
    E: Evaluation,
    F: Fn() -> Result<E, String> + Sync,
{
    // The main thread's evaluation was made; a helper that cannot make one
    // leaves the search to the others rather than fail it.
    let Ok(eval) = new_eval() else { return };
    let mut helper = Searcher::new(setup, eval, None, Some(team));
    // Every other helper a ply ahead, so the threads do not all search one depth.
    let first_depth = 1 + (id % 2) as i32;
    helper.help(&setup.root, setup.root_moves.clone(), first_depth);
    if helper.eval_failed {
        team.eval_failed.store(true, Ordering::Relaxed);
        team.stop_all();
    }
}

impl<E: Evaluation> Searcher<'_, E> {
    /// A helper's iterative deepening: no reports and no decisions, only what
    /// it leaves in the table. It ends at the depth limit or when stopped.
    fn help(&mut self, root: &Board, mut root_moves: Vec<Move>, first_depth: i32) {
        self.prepare_root(root, &mut root_moves);
        let mut previous = vec![0; self.multipv.min(root_moves.len())];
        for depth in first_depth..=self.max_depth {
            match self.search_lines(root, &mut root_moves, depth, &previous) {
                Some(lines) => previous = lines.iter().map(|line| line.score).collect(),
                None => break,
            }
        }
    }
}
