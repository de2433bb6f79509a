//! The crate-neutral board that crosses the boundary.
//!
//! Squares are numbered a1 = 0, b1 = 1, … h8 = 63, so bit `n` of a bitboard is
//! square `n`. Nothing here depends on a chess crate: a plugin converts to
//! whatever move generator it likes.

use abi_stable::StableAbi;

/// A square index, a1 = 0 … h8 = 63.
pub type Square = u8;

/// Piece kinds in the order of [`Position::pieces`].
#[repr(u8)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceKind {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl PieceKind {
    pub const ALL: [PieceKind; 6] =
        [PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen, PieceKind::King];

    pub fn from_index(index: u8) -> Option<PieceKind> {
        PieceKind::ALL.get(usize::from(index)).copied()
    }
}

/// A position as plain data.
///
/// `colors[0]` holds White's pieces, `colors[1]` Black's; `pieces[k]` holds every
/// piece of kind `k` (see [`PieceKind`]) of either colour.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub colors: [u64; 2],
    pub pieces: [u64; 6],
    /// Rooks that may still castle, both colours; a bitboard so Chess960 fits.
    pub castling_rooks: u64,
    /// 0 = White to move, 1 = Black.
    pub side_to_move: u8,
    /// The square a pawn may capture onto en passant, or [`Position::NO_SQUARE`].
    /// Set whenever the last move was a double pawn push (even if no capture is legal).
    pub en_passant: u8,
    pub halfmove_clock: u16,
    pub fullmove_number: u32,
    /// Zero for now; later minor versions may give it meaning (holdings, check counts).
    pub reserved: [u64; 2],
}

impl Position {
    pub const NO_SQUARE: u8 = 64;
    pub const WHITE: u8 = 0;
    pub const BLACK: u8 = 1;

    /// The piece kind and colour (0 White, 1 Black) on `square`, if any.
    pub fn piece_at(&self, square: Square) -> Option<(PieceKind, u8)> {
        let bit = 1u64 << (square & 63);
        let color = if self.colors[0] & bit != 0 {
            0
        } else if self.colors[1] & bit != 0 {
            1
        } else {
            return None;
        };
        let kind = self.pieces.iter().position(|&bb| bb & bit != 0)?;
        Some((PieceKind::ALL[kind], color))
    }

    /// Pieces of one kind and one colour.
    #[inline]
    pub fn bitboard(&self, kind: PieceKind, color: u8) -> u64 {
        self.pieces[kind as usize] & self.colors[usize::from(color & 1)]
    }
}

/// A move as plain data.
///
/// Castling is written as the king moving onto its own rook's square (as in
/// Chess960), so one encoding serves every start position.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    /// [`PieceKind`] index of the promotion piece, or [`Move::NO_PROMOTION`].
    pub promotion: u8,
    /// Zero for now; room for drops in later minor versions.
    pub reserved: u8,
}

impl Move {
    pub const NO_PROMOTION: u8 = 255;

    pub fn new(from: Square, to: Square, promotion: Option<PieceKind>) -> Move {
        Move { from, to, promotion: promotion.map_or(Move::NO_PROMOTION, |p| p as u8), reserved: 0 }
    }

    pub fn promotion(&self) -> Option<PieceKind> {
        PieceKind::from_index(self.promotion)
    }
}
