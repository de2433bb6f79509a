//! One search thread's evaluator: a stack of accumulators that follows the
//! search's moves.
//!
//! Each entry holds both perspectives' accumulators and the board they are for.
//! Entries are filled lazily: a move only records its board, and `evaluate`
//! fills the entries up to the top from the nearest one filled, so the moves of
//! nodes the search leaves without evaluating (cutoffs from the hash table,
//! repetitions) cost nothing. An entry is filled from its parent by the
//! difference between their boards (pieces gone, pieces come), so captures,
//! castling, en passant and promotion need no cases of their own. `evaluate`
//! checks the board it is given against the top entry and refills the entry if
//! they differ, so a search that never notifies, or notifies wrongly, gets
//! slower scores, never wrong ones.

use std::sync::Arc;

use plugboard_plugin_api::{Evaluate, Move, Position};

use crate::{
    features::{self, INPUTS, MAX_ACTIVE, Pieces},
    kernels::Kernels,
    network::{self, Network, QA, QB},
};

/// The deepest stack of accumulators kept; deeper than any search goes.
const MAX_ENTRIES: usize = 1024;

pub struct NnueEvaluator {
    network: Arc<Network>,
    kernels: Kernels,
    /// Entry `n` is `2 × hidden` values: White's perspective, then Black's.
    accumulators: Vec<i16>,
    boards: Vec<Pieces>,
    /// Whether entry `n`'s accumulators are those of `boards[n]`.
    filled: Vec<bool>,
    top: usize,
}

/// The inputs one board change adds and takes away, for one perspective.
struct Changes {
    adds: [usize; 2 * MAX_ACTIVE],
    subs: [usize; 2 * MAX_ACTIVE],
    added: usize,
    removed: usize,
}

impl NnueEvaluator {
    pub fn new(network: Arc<Network>) -> NnueEvaluator {
        NnueEvaluator::with_kernels(network, Kernels::detect())
    }

    /// An evaluator with the given kernels (tests compare them).
    pub fn with_kernels(network: Arc<Network>, kernels: Kernels) -> NnueEvaluator {
        let hidden = network.hidden;
        // The empty board's accumulators are the biases.
        let mut accumulators = Vec::with_capacity(2 * hidden * 64);
        accumulators.extend_from_slice(&network.input_bias);
        accumulators.extend_from_slice(&network.input_bias);
        NnueEvaluator { network, kernels, accumulators, boards: vec![[0; 8]], filled: vec![true], top: 0 }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// The score, in centipawns for the side to move, of the board the top entry holds.
    fn output(&self, side_to_move: u8) -> i32 {
        let hidden = self.network.hidden;
        let entry = &self.accumulators[self.top * 2 * hidden..(self.top + 1) * 2 * hidden];
        let (white, black) = entry.split_at(hidden);
        let (us, them) = if side_to_move == 0 { (white, black) } else { (black, white) };
        let network = &*self.network;
        let bucket = network::bucket(occupied(&self.boards[self.top]), network.buckets);
        let weights = &network.output_weights[bucket * 2 * hidden..(bucket + 1) * 2 * hidden];
        let sum = (self.kernels.output)(us, them, weights);
        let raw = sum / i64::from(QA) + i64::from(network.output_bias[bucket]);
        let centipawns = raw * i64::from(network.scale) / i64::from(QA * QB);
        centipawns.clamp(-i64::from(i32::MAX), i64::from(i32::MAX)) as i32
    }

    /// Fills the entries from the nearest filled one below the top up to the top.
    fn fill_to_top(&mut self) {
        let mut base = self.top;
        while !self.filled[base] && base > 0 {
            base -= 1;
        }
        if !self.filled[base] {
            self.fill(base, None);
        }
        for entry in base + 1..=self.top {
            self.fill(entry, Some(entry - 1));
        }
    }

    /// Fills entry `n` from the filled entry `n - 1` (`parent`), or from the
    /// empty board when there is none or when the two boards differ by more
    /// than the board holds.
    fn fill(&mut self, n: usize, parent: Option<usize>) {
        let hidden = self.network.hidden;
        let pieces = self.boards[n];
        let parent = parent.filter(|&p| changed_squares(&self.boards[p], &pieces) <= occupied(&pieces));
        let (below, rest) = self.accumulators.split_at_mut(n * 2 * hidden);
        let entry = &mut rest[..2 * hidden];
        let (base_board, base) = match parent {
            Some(p) => (self.boards[p], &below[p * 2 * hidden..(p + 1) * 2 * hidden]),
            None => ([0; 8], &[][..]),
        };
        for (perspective, accumulator) in entry.chunks_exact_mut(hidden).enumerate() {
            let changes = Changes::between(&base_board, &pieces, perspective);
            let from = if parent.is_some() {
                &base[perspective * hidden..(perspective + 1) * hidden]
            } else {
                &self.network.input_bias[..]
            };
            (self.kernels.apply)(
                accumulator,
                from,
                &self.network.input_weights,
                &changes.adds[..changes.added],
                &changes.subs[..changes.removed],
            );
        }
        self.filled[n] = true;
    }

    /// Records the board a move led to as a new top entry, to be filled when
    /// it is evaluated.
    fn push(&mut self, pieces: Pieces) {
        if self.top + 1 >= MAX_ENTRIES {
            // A search that makes moves without taking them back: the top entry
            // follows it in place, and `evaluate` mends what unmaking then gets wrong.
            self.boards[self.top] = pieces;
            self.filled[self.top] = false;
            return;
        }
        self.top += 1;
        if self.boards.len() == self.top {
            let size = 2 * self.network.hidden;
            self.boards.push(pieces);
            self.filled.push(false);
            self.accumulators.resize(self.accumulators.len() + size, 0);
        } else {
            self.boards[self.top] = pieces;
            self.filled[self.top] = false;
        }
    }
}

fn occupied(pieces: &Pieces) -> u32 {
    (pieces[0] | pieces[1]).count_ones()
}

/// How many (piece, square) pairs differ between two boards.
fn changed_squares(old: &Pieces, new: &Pieces) -> u32 {
    (0..2)
        .flat_map(|color| (0..6).map(move |kind| (color, kind)))
        .map(|(color, kind)| ((old[color] & old[2 + kind]) ^ (new[color] & new[2 + kind])).count_ones())
        .sum()
}

impl Changes {
    fn between(old: &Pieces, new: &Pieces, perspective: usize) -> Changes {
        let mut changes = Changes { adds: [0; 2 * MAX_ACTIVE], subs: [0; 2 * MAX_ACTIVE], added: 0, removed: 0 };
        for color in 0..2 {
            for kind in 0..6 {
                let before = old[color] & old[2 + kind];
                let after = new[color] & new[2 + kind];
                for square in features::squares(after & !before) {
                    if changes.added < changes.adds.len() {
                        changes.adds[changes.added] = features::index(perspective, color, kind, square);
                        changes.added += 1;
                    }
                }
                for square in features::squares(before & !after) {
                    if changes.removed < changes.subs.len() {
                        changes.subs[changes.removed] = features::index(perspective, color, kind, square);
                        changes.removed += 1;
                    }
                }
            }
        }
        debug_assert!(
            changes.adds[..changes.added].iter().chain(&changes.subs[..changes.removed]).all(|&i| i < INPUTS)
        );
        changes
    }
}

impl Evaluate for NnueEvaluator {
    const INCREMENTAL: bool = true;

    fn evaluate(&mut self, position: &Position) -> i32 {
        let pieces = features::pieces_of(position);
        if self.boards[self.top] != pieces {
            self.boards[self.top] = pieces;
            self.filled[self.top] = false;
        }
        self.fill_to_top();
        self.output(position.side_to_move)
    }

    fn reset(&mut self, root: &Position) {
        self.top = 0;
        self.boards[0] = features::pieces_of(root);
        self.fill(0, None);
    }

    fn on_make(&mut self, _mv: Move, after: &Position) {
        self.push(features::pieces_of(after));
    }

    fn on_unmake(&mut self) {
        // Never below the root: a search that unmakes more than it made gets
        // its boards checked in `evaluate` instead.
        self.top = self.top.saturating_sub(1);
    }
}
