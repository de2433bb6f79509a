//! What a node of the search carries into its move loop, what a window's result
//! and a table entry's bound settle, how much a late move is reduced, and
//! whether the side to move may pass (null move).

use cozy_chess::{Board, Piece};
use plugboard_plugin_api::Bound;

use crate::{ordering::Refutations, tt::TtEntry};

/// What [`Searcher::negamax`] hands its move loop.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) depth: i32,
    pub(super) alpha: i32,
    pub(super) beta: i32,
    pub(super) ply: usize,
    pub(super) in_check: bool,
    pub(super) pv_node: bool,
    pub(super) static_eval: Option<i32>,
    /// The static evaluation, or a stored score that bounds it better.
    pub(super) eval: i32,
    pub(super) improving: bool,
    pub(super) refutations: Refutations,
    pub(super) hash_move: Option<cozy_chess::Move>,
    /// Plies more for the hash move when it is the only good move.
    pub(super) hash_move_extension: i32,
}

impl<M> TtEntry<M> {
    /// Whether the stored bound settles a search with this window.
    pub(super) fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }

    /// Whether the stored score says more about the position than `eval` does.
    pub(crate) fn bounds_better(&self, eval: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score > eval,
            Bound::Upper => self.score < eval,
        }
    }
}

/// How many plies a late quiet move is searched shallower: more the deeper the
/// node and the later the move (moves counted from 0).
pub(crate) fn late_move_reduction(depth: i32, moves_searched: usize) -> i32 {
    static TABLE: std::sync::OnceLock<[[u8; 64]; 64]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = [[0; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, cell) in row.iter_mut().enumerate().skip(1) {
                *cell = (0.75 + (depth as f64).ln() * (moves as f64).ln() / 2.25) as u8;
            }
        }
        table
    });
    i32::from(table[depth.clamp(0, 63) as usize][moves_searched.min(63)])
}

/// Whether the side to move has anything besides pawns and king.
pub(super) fn has_pieces(board: &Board) -> bool {
    let us = board.colors(board.side_to_move());
    let pieces = board.pieces(Piece::Knight)
        | board.pieces(Piece::Bishop)
        | board.pieces(Piece::Rook)
        | board.pieces(Piece::Queen);
    !(us & pieces).is_empty()
}

/// What a search window's result says about the true score.
pub(super) fn bound_of(score: i32, alpha: i32, beta: i32) -> Bound {
    if score >= beta {
        Bound::Lower
    } else if score > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}
