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
use crate::{eval::Evaluation, score::MAX_PLY};

/// Nodes a thread counts on its own before adding them to the team's count,
/// which bounds how far a node limit can be overrun: this much per thread.
pub(super) const NODE_BATCH: u64 = 64;

/// What the threads of one parallel search share besides the table.
pub(super) struct Team {
    /// 0 for none; counts every thread's nodes.
    node_limit: u64,
    nodes: AtomicU64,
    /// Tablebase probes that answered, by every thread.
    tbhits: AtomicU64,
    stop: AtomicBool,
    eval_failed: AtomicBool,
}

impl Team {
    fn new(node_limit: u64) -> Team {
        Team {
            node_limit,
            nodes: AtomicU64::new(0),
            tbhits: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            eval_failed: AtomicBool::new(false),
        }
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

    pub(super) fn count_tbhit(&self) {
        self.tbhits.fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn tbhits(&self) -> u64 {
        self.tbhits.load(Ordering::Relaxed)
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
            // Hundreds of helpers take a while to start on a few cores; a
            // search stopped meanwhile starts no more of them.
            if setup.request.control.stop_requested() {
                break;
            }
            let team = &team;
            let spawned = thread::Builder::new()
                .name(format!("alphabeta-{id}"))
                .spawn_scoped(scope, move || help(setup, new_eval, team, id, threads - 1));
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

/// Helper `id` of `helpers` (from 1), from making its evaluation to its last iteration.
fn help<E, F>(setup: &Setup<'_>, new_eval: &F, team: &Team, id: u32, helpers: u32)
where
    E: Evaluation,
    F: Fn() -> Result<E, String> + Sync,
{
    // The main thread's evaluation was made; a helper that cannot make one
    // leaves the search to the others rather than fail it.
    let Ok(eval) = new_eval() else { return };
    let mut helper = Searcher::new(setup, eval, None, Some(team));
    let mut root_moves = setup.root_moves.clone();
    helper.prepare_root(&setup.root, &mut root_moves);
    // Threads that search the same moves in the same order at the same depth
    // duplicate each other's work. Every other helper runs a ply ahead, and each
    // takes the root moves after the first few (the expected best, which give
    // it a good bound) from its own point of the list, least promising first:
    // what it stores there the main thread finds when it gets that far.
    let first_depth = 1 + (id % 2) as i32;
    let lines = helper.multipv.min(root_moves.len());
    let rest = &mut root_moves[lines..];
    rest.reverse();
    rest.rotate_left(rest.len() * (id as usize - 1) / helpers as usize);
    helper.help(&setup.root, root_moves, first_depth);
    if helper.eval_failed {
        team.eval_failed.store(true, Ordering::Relaxed);
        team.stop_all();
    }
}

impl<E: Evaluation> Searcher<'_, E> {
    /// A helper's iterative deepening: no reports and no decisions, only what
    /// it leaves in the table. It ends when stopped, and goes on past a depth
    /// limit: the main thread's last iteration is its longest, and a helper
    /// that stopped at the limit would leave its core idle through it.
    fn help(&mut self, root: &Board, mut root_moves: Vec<Move>, first_depth: i32) {
        let mut previous = vec![0; self.multipv.min(root_moves.len())];
        for depth in first_depth..MAX_PLY as i32 {
            match self.search_lines(root, &mut root_moves, depth, &previous) {
                Some(lines) => previous = lines.iter().map(|line| line.score).collect(),
                None => break,
            }
        }
    }
}
