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

use plugboard_plugin_api::{BoardEvaluate, BoardPosition, Evaluate, Move, Position};

use crate::{
    features::{self, MAX_ACTIVE, Pieces},
    kernels::Kernels,
    network::{self, Network, QA, QB},
    xiangqi::features::{self as points, Points},
};

/// The deepest stack of accumulators kept; deeper than any search goes.
const MAX_ENTRIES: usize = 1024;

/// How a game's boards become a network's inputs: what one board is, and which
/// inputs change from one board to another.
pub trait Features {
    /// A board as the inputs see it: pieces and squares, nothing else.
    type Board: Copy + PartialEq;
    const EMPTY: Self::Board;
    /// Pieces on the board, kings or generals included.
    fn pieces(board: &Self::Board) -> u32;
    /// How many (piece, square) pairs differ between two boards.
    fn changed(old: &Self::Board, new: &Self::Board) -> u32;
    /// The inputs of `perspective` that going from `old` to `new` adds and takes away.
    fn changes(old: &Self::Board, new: &Self::Board, perspective: usize, changes: &mut Changes);
}

/// Chess: [`features`].
pub struct Chess;
/// Xiangqi: [`crate::xiangqi::features`].
pub struct Xiangqi;

/// The chess evaluator.
pub type NnueEvaluator = Evaluator<Chess>;
/// The xiangqi evaluator.
pub type XiangqiEvaluator = Evaluator<Xiangqi>;

pub struct Evaluator<F: Features> {
    network: Arc<Network>,
    kernels: Kernels,
    /// Entry `n` is `2 × hidden` values: the first player's perspective, then the second's.
    accumulators: Vec<i16>,
    boards: Vec<F::Board>,
    /// Whether entry `n`'s accumulators are those of `boards[n]`.
    filled: Vec<bool>,
    top: usize,
}

/// The inputs one board change adds and takes away, for one perspective.
pub struct Changes {
    adds: [usize; 2 * MAX_ACTIVE],
    subs: [usize; 2 * MAX_ACTIVE],
    added: usize,
    removed: usize,
}

impl Changes {
    fn new() -> Changes {
        Changes { adds: [0; 2 * MAX_ACTIVE], subs: [0; 2 * MAX_ACTIVE], added: 0, removed: 0 }
    }

    fn add(&mut self, input: usize) {
        if self.added < self.adds.len() {
            self.adds[self.added] = input;
            self.added += 1;
        }
    }

    fn take(&mut self, input: usize) {
        if self.removed < self.subs.len() {
            self.subs[self.removed] = input;
            self.removed += 1;
        }
    }
}

impl<F: Features> Evaluator<F> {
    pub fn new(network: Arc<Network>) -> Evaluator<F> {
        Evaluator::with_kernels(network, Kernels::detect())
    }

    /// An evaluator with the given kernels (tests compare them).
    pub fn with_kernels(network: Arc<Network>, kernels: Kernels) -> Evaluator<F> {
        let hidden = network.hidden;
        // The empty board's accumulators are the biases.
        let mut accumulators = Vec::with_capacity(2 * hidden * 64);
        accumulators.extend_from_slice(&network.input_bias);
        accumulators.extend_from_slice(&network.input_bias);
        Evaluator { network, kernels, accumulators, boards: vec![F::EMPTY], filled: vec![true], top: 0 }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// The score, in centipawns for the side to move, of the board the top entry holds.
    fn output(&self, side_to_move: u8) -> i32 {
        let hidden = self.network.hidden;
        let entry = &self.accumulators[self.top * 2 * hidden..(self.top + 1) * 2 * hidden];
        let (first, second) = entry.split_at(hidden);
        let (us, them) = if side_to_move == 0 { (first, second) } else { (second, first) };
        let network = &*self.network;
        let bucket = network::bucket(F::pieces(&self.boards[self.top]), network.buckets);
        let weights = &network.output_weights[bucket * 2 * hidden..(bucket + 1) * 2 * hidden];
        let sum = (self.kernels.output)(us, them, weights);
        let raw = sum / i64::from(QA) + i64::from(network.output_bias[bucket]);
        let centipawns = raw * i64::from(network.scale) / i64::from(QA * QB);
        centipawns.clamp(-i64::from(i32::MAX), i64::from(i32::MAX)) as i32
    }

    /// Scores `board` as the top entry: refilled if it is not the board the top holds.
    fn score(&mut self, board: F::Board, side_to_move: u8) -> i32 {
        if self.boards[self.top] != board {
            self.boards[self.top] = board;
            self.filled[self.top] = false;
        }
        self.fill_to_top();
        self.output(side_to_move)
    }

    fn reset_to(&mut self, board: F::Board) {
        self.top = 0;
        self.boards[0] = board;
        self.fill(0, None);
    }

    fn pop(&mut self) {
        // Never below the root: a search that unmakes more than it made gets
        // its boards checked in `score` instead.
        self.top = self.top.saturating_sub(1);
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
        let board = self.boards[n];
        let parent = parent.filter(|&p| F::changed(&self.boards[p], &board) <= F::pieces(&board));
        let (below, rest) = self.accumulators.split_at_mut(n * 2 * hidden);
        let entry = &mut rest[..2 * hidden];
        let (base_board, base) = match parent {
            Some(p) => (self.boards[p], &below[p * 2 * hidden..(p + 1) * 2 * hidden]),
            None => (F::EMPTY, &[][..]),
        };
        for (perspective, accumulator) in entry.chunks_exact_mut(hidden).enumerate() {
            let mut changes = Changes::new();
            F::changes(&base_board, &board, perspective, &mut changes);
            debug_assert!(
                changes.adds[..changes.added]
                    .iter()
                    .chain(&changes.subs[..changes.removed])
                    .all(|&i| i < self.network.game.inputs())
            );
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
    fn push(&mut self, board: F::Board) {
        if self.top + 1 >= MAX_ENTRIES {
            // A search that makes moves without taking them back: the top entry
            // follows it in place, and `score` mends what unmaking then gets wrong.
            self.boards[self.top] = board;
            self.filled[self.top] = false;
            return;
        }
        self.top += 1;
        if self.boards.len() == self.top {
            let size = 2 * self.network.hidden;
            self.boards.push(board);
            self.filled.push(false);
            self.accumulators.resize(self.accumulators.len() + size, 0);
        } else {
            self.boards[self.top] = board;
            self.filled[self.top] = false;
        }
    }
}

impl Features for Chess {
    type Board = Pieces;
    const EMPTY: Pieces = [0; 8];

    fn pieces(board: &Pieces) -> u32 {
        (board[0] | board[1]).count_ones()
    }

    fn changed(old: &Pieces, new: &Pieces) -> u32 {
        (0..2)
            .flat_map(|color| (0..6).map(move |kind| (color, kind)))
            .map(|(color, kind)| ((old[color] & old[2 + kind]) ^ (new[color] & new[2 + kind])).count_ones())
            .sum()
    }

    fn changes(old: &Pieces, new: &Pieces, perspective: usize, changes: &mut Changes) {
        for color in 0..2 {
            for kind in 0..6 {
                let before = old[color] & old[2 + kind];
                let after = new[color] & new[2 + kind];
                for square in features::squares(after & !before) {
                    changes.add(features::index(perspective, color, kind, square));
                }
                for square in features::squares(before & !after) {
                    changes.take(features::index(perspective, color, kind, square));
                }
            }
        }
    }
}

impl Features for Xiangqi {
    type Board = Points;
    const EMPTY: Points = [0; points::POINTS];

    fn pieces(board: &Points) -> u32 {
        board.iter().filter(|&&code| code != 0).count() as u32
    }

    fn changed(old: &Points, new: &Points) -> u32 {
        old.iter().zip(new).map(|(a, b)| u32::from(a != b) * (u32::from(*a != 0) + u32::from(*b != 0))).sum()
    }

    fn changes(old: &Points, new: &Points, perspective: usize, changes: &mut Changes) {
        for (point, (&before, &after)) in old.iter().zip(new).enumerate() {
            if before == after {
                continue;
            }
            if let Some((color, kind)) = points::decode(before) {
                changes.take(points::index(perspective, color, kind, point));
            }
            if let Some((color, kind)) = points::decode(after) {
                changes.add(points::index(perspective, color, kind, point));
            }
        }
    }
}

impl Evaluate for Evaluator<Chess> {
    const INCREMENTAL: bool = true;

    fn evaluate(&mut self, position: &Position) -> i32 {
        self.score(features::pieces_of(position), position.side_to_move)
    }

    fn reset(&mut self, root: &Position) {
        self.reset_to(features::pieces_of(root));
    }

    fn on_make(&mut self, _mv: Move, after: &Position) {
        self.push(features::pieces_of(after));
    }

    fn on_unmake(&mut self) {
        self.pop();
    }
}

impl BoardEvaluate for Evaluator<Xiangqi> {
    const INCREMENTAL: bool = true;

    fn evaluate(&mut self, position: &BoardPosition) -> i32 {
        self.score(points::points_of(position), position.side_to_move & 1)
    }

    fn reset(&mut self, root: &BoardPosition) {
        self.reset_to(points::points_of(root));
    }

    fn on_make(&mut self, _mv: Move, after: &BoardPosition) {
        self.push(points::points_of(after));
    }

    fn on_unmake(&mut self) {
        self.pop();
    }
}
