//! Moves on a variant's board, and a list of them.

use crate::square::Square;

/// What a move does beyond taking what stands on its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    None,
    /// The king goes to `to`, the rook on `rook` beside it.
    Castle {
        rook: Square,
    },
    /// Takes the piece on `victim`, which has just passed `to`.
    EnPassant {
        victim: Square,
    },
    /// A first move that passes `passed`, where an enemy may take it en passant.
    DoubleStep {
        passed: Square,
    },
    /// A piece of `kind` from the hand onto the empty `to` (`from` is `to`).
    Drop {
        kind: u8,
    },
    /// A move of two legs: the first ends on `via`, taking what stands
    /// there, the second on `to` (which is `from` when it comes back home).
    Leg {
        via: Square,
    },
}

impl Special {
    /// Where the first leg of a move of two legs ends.
    #[must_use]
    pub const fn via(&self) -> Option<Square> {
        match *self {
            Special::Leg { via } => Some(via),
            _ => None,
        }
    }
}

/// A move of one piece from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    /// The kind it becomes, plus one; 0 when it stays what it is. With
    /// [`Move::PIECE_PROMOTION`] set, the piece becomes its own promoted kind
    /// (written `+`), as opposed to a pawn choosing what to become.
    pub promotion: u8,
    pub special: Special,
}

impl Move {
    #[must_use]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to, promotion: 0, special: Special::None }
    }

    /// The bit of `promotion` that marks a shogi-style promotion: the move's
    /// text must not depend on the board (a line of moves is written from one
    /// position), and elven's knight becomes the same lion a pawn may choose.
    pub const PIECE_PROMOTION: u8 = 0x80;

    /// The kind it promotes to.
    #[must_use]
    pub const fn promotion_kind(&self) -> Option<usize> {
        match self.promotion & !Move::PIECE_PROMOTION {
            0 => None,
            code => Some(code as usize - 1),
        }
    }

    /// Whether the piece becomes its own promoted kind (written `+`).
    #[must_use]
    pub const fn is_piece_promotion(&self) -> bool {
        self.promotion & Move::PIECE_PROMOTION != 0
    }

    /// A piece of `kind` from the hand onto `to`.
    #[must_use]
    pub const fn drop(kind: usize, to: Square) -> Move {
        Move { from: to, to, promotion: 0, special: Special::Drop { kind: kind as u8 } }
    }

    /// The kind it drops, if it is a drop.
    #[must_use]
    pub const fn dropped(&self) -> Option<usize> {
        match self.special {
            Special::Drop { kind } => Some(kind as usize),
            _ => None,
        }
    }

    /// Where the first leg of a move of two legs ends.
    #[must_use]
    pub const fn via(&self) -> Option<Square> {
        self.special.via()
    }

    #[must_use]
    pub const fn is_castle(&self) -> bool {
        matches!(self.special, Special::Castle { .. })
    }
}

/// The moves of a position.
pub type MoveList = Vec<Move>;
