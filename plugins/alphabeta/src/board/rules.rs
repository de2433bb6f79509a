//! What the board search needs from a game's rules: the one interface through
//! which xiangqi and every variant defined as data are searched by the same
//! loop.

use std::fmt::Debug;

use plugboard_plugin_api::{self as api, BoardPosition};

use crate::tt::TtMove;

/// A game's rules and position, played and taken back in place.
pub(crate) trait Rules: Clone + Send + Sync + Sized {
    type Move: Copy + Eq + Debug + Send + Sync + TtMove;
    type Undo: Copy;
    type NullUndo: Copy;

    fn hash(&self) -> u64;
    /// Whether the pieces stand as in `other`, whoever is to move.
    fn same_placement(&self, other: &Self) -> bool;
    /// Whether this is the game's usual start position.
    fn is_opening(&self) -> bool;
    fn halfmoves(&self) -> u32;
    fn fullmoves(&self) -> u32;
    fn is_check(&self) -> bool;
    fn legal_moves(&mut self, out: &mut Vec<Self::Move>);
    /// The legal moves that take a piece, for the capture search.
    fn legal_captures(&mut self, out: &mut Vec<Self::Move>);
    fn is_legal(&mut self, m: Self::Move) -> bool;
    /// The legal move a table entry's `m` stands for, if any.
    fn resolve(&mut self, m: Self::Move) -> Option<Self::Move> {
        self.is_legal(m).then_some(m)
    }
    /// Whether a table entry's `packed` stands for the legal move `legal`
    /// (the first of the legal moves it names, where it names several).
    fn names(packed: Self::Move, legal: Self::Move) -> bool {
        packed == legal
    }
    fn is_capture(&self, m: Self::Move) -> bool;
    fn gives_check(&mut self, m: Self::Move) -> bool;
    fn play(&mut self, m: Self::Move) -> Self::Undo;
    fn undo(&mut self, m: Self::Move, undo: Self::Undo);
    fn play_null(&mut self) -> Self::NullUndo;
    fn undo_null(&mut self, undo: Self::NullUndo);
    /// Whether passing is a fair test here: the side to move has pieces that
    /// make zugzwang unlikely.
    fn null_move_allowed(&self) -> bool;
    /// Rough value of what `m` takes, for ordering and delta pruning.
    fn victim_value(&self, m: Self::Move) -> Option<i32>;
    /// Rough value of the piece that moves.
    fn mover_value(&self, m: Self::Move) -> i32;
    /// Whether `m` takes a man worth clearly less than the one that takes, on
    /// a square the other side guards: a capture the capture search passes
    /// over (it loses the difference, or more). Games that do not say keep
    /// every capture.
    fn loses_material(&self, _m: Self::Move) -> bool {
        false
    }
    /// Which history slot the moving piece uses (below [`MOVERS`]).
    fn mover_index(&self, m: Self::Move) -> usize;
    fn to_square(m: Self::Move) -> u8;
    /// The score of a node without legal moves (or whose game the rules have
    /// ended), for the side to move, `ply` plies from the root.
    fn score_of_end(&mut self, ply: usize) -> i32;
    /// Whether the rules have ended the game here before any move is looked at
    /// (a variant whose side has run out of pieces).
    fn has_ended(&self) -> bool {
        false
    }
    /// The score of a repetition inside the search: `mover_checked` when every
    /// move of the side that just moved gave check since, `other_checked` the same
    /// for the side to move.
    fn repetition_score(&self, mover_checked: bool, other_checked: bool, ply: usize) -> i32;
    /// Brings `board`, the evaluation's view of the position before `m`, to the
    /// position after it; `self` is the position before.
    fn update_board(&self, board: &mut BoardPosition, m: Self::Move);
    /// Completes `board` from the position after a move (what the pieces alone
    /// do not say, such as castling rights); `self` is the position after.
    fn finish_board(&self, _board: &mut BoardPosition) {}
    fn board(&self) -> BoardPosition;
    /// The position a board of the same game holds (`like` gives the game).
    fn from_board_of(like: &Self, board: &BoardPosition) -> Option<Self>;
    fn to_api(m: Self::Move) -> api::Move;
    fn legal_from_api(&mut self, m: api::Move) -> Option<Self::Move>;
    /// Whether playing `m` at the root would lose by a repetition rule, given the
    /// game so far (xboard's perpetual check and chase in xiangqi).
    fn loses_by_repetition(&self, _history: &super::History<Self>, _m: Self::Move) -> bool {
        false
    }
}

/// History slots: colour × kind, for every game.
pub(crate) const MOVERS: usize = 256;
