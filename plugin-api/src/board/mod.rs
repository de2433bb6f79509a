//! Boards other than 8×8: the position that crosses the boundary for them.
//!
//! A [`BoardPosition`] holds any board up to 16 files × 16 ranks (xiangqi's 9×10
//! today; shogi's 9×9 or Capablanca's 10×8 fit as they are). Squares are
//! `rank * 16 + file` ([`BoardSquare`]), so a square's file and rank are its low and
//! high four bits whatever the board's size, and a0 = 0, i0 = 8, a9 = 144.
//!
//! It is an addition beside the 8×8 [`Position`](crate::Position), which keeps its
//! bitboards for chess: a plugin lists the variants it plays (see
//! [`PluginInfo::variants`](crate::PluginInfo::variants)), and the host hands a
//! board position only to a plugin that listed its variant and has the entries for
//! it ([`SearchPlugin::search_board`](crate::SearchPlugin::search_board),
//! [`EvalPlugin::new_board_evaluator`](crate::EvalPlugin::new_board_evaluator)).
//!
//! Moves on these boards are the same [`Move`](crate::Move) as in chess, read
//! differently: `from` and `to` are [`BoardSquare`]s, `promotion` is a
//! [`BoardKind`] code or [`Move::NO_PROMOTION`](crate::Move::NO_PROMOTION), and
//! `reserved` is zero, but for a drop from the hand in games with pieces in
//! hand: bit 0 set, `from` then being the dropped piece's [`BoardKind`] code
//! ([`Move::board_drop`](crate::Move::board_drop)).

pub mod eval;
pub mod search;

use abi_stable::StableAbi;

use crate::Variant;

/// A square of a [`BoardPosition`]: `rank * 16 + file`, both counted from 0
/// (a0 = 0, the first player's left corner).
pub type BoardSquare = u8;

/// A kind of piece on a [`BoardPosition`]; the codes depend on the variant.
///
/// A byte rather than a Rust enum, so that a plugin built before a game's pieces
/// were added reads an unknown value instead of undefined behaviour.
#[repr(transparent)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct BoardKind(pub u8);

impl BoardKind {
    /// Xiangqi's soldier (pawn): forward one step, and sideways too once across the river.
    pub const SOLDIER: BoardKind = BoardKind(1);
    /// Xiangqi's advisor: one diagonal step inside the palace.
    pub const ADVISOR: BoardKind = BoardKind(2);
    /// Xiangqi's elephant: two diagonal steps, never across the river, blocked by a piece between.
    pub const ELEPHANT: BoardKind = BoardKind(3);
    /// Xiangqi's horse: one step straight then one diagonally, blocked by a piece on the first step.
    pub const HORSE: BoardKind = BoardKind(4);
    /// Xiangqi's cannon: moves as a chariot, captures by jumping exactly one piece.
    pub const CANNON: BoardKind = BoardKind(5);
    /// Xiangqi's chariot: a rook.
    pub const CHARIOT: BoardKind = BoardKind(6);
    /// Xiangqi's general: one orthogonal step inside the palace; the generals may never
    /// face each other on an open file.
    pub const GENERAL: BoardKind = BoardKind(7);
}

/// A piece: its [`BoardKind`] in the low seven bits and its colour in the high one
/// (0 for the first player: White, Red). Code 0 is an empty square.
#[repr(transparent)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct BoardPiece(pub u8);

impl BoardPiece {
    pub const EMPTY: BoardPiece = BoardPiece(0);

    pub const fn new(kind: BoardKind, color: u8) -> BoardPiece {
        BoardPiece(kind.0 & 0x7F | (color & 1) << 7)
    }

    #[inline]
    pub const fn kind(self) -> BoardKind {
        BoardKind(self.0 & 0x7F)
    }

    /// 0 for the first player, 1 for the second.
    #[inline]
    pub const fn color(self) -> u8 {
        self.0 >> 7
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// A position on a board of up to 16 × 16 squares, as plain data.
///
/// `squares` is the board itself; `occupied` repeats it as one 256-bit set per
/// colour (bit `s` of word `s / 64`), so an evaluation can walk a side's pieces
/// without reading every square. [`BoardPosition::put`] keeps the two in step.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardPosition {
    /// The squares of each colour's pieces: `occupied[colour][square / 64]`, bit `square % 64`.
    pub occupied: [[u64; 4]; 2],
    /// [`BoardPiece`] codes by [`BoardSquare`]; squares off the board stay 0.
    pub squares: [u8; 256],
    /// Pieces in hand by colour and [`BoardKind`] code (games with drops; zero in xiangqi).
    pub hands: [[u8; 16]; 2],
    pub fullmove_number: u32,
    /// Plies since the last capture or irreversible move, as the variant counts them.
    pub halfmove_clock: u16,
    pub variant: Variant,
    pub files: u8,
    pub ranks: u8,
    /// 0 = the first player (White, Red) to move, 1 = the second.
    pub side_to_move: u8,
    /// Zero; later minor versions may give these meaning.
    pub reserved8: [u8; 2],
    pub reserved32: u32,
    pub reserved: [u64; 4],
}

impl BoardPosition {
    /// An empty board of `files` × `ranks` (each at most 16), the first player to move.
    pub const fn empty(variant: Variant, files: u8, ranks: u8) -> BoardPosition {
        // No castling rooks and no en-passant square, for a defined variant.
        let no_rights = if variant.0 == Variant::DEFINED.0 { u64::MAX } else { 0 };
        BoardPosition {
            occupied: [[0; 4]; 2],
            squares: [0; 256],
            hands: [[0; 16]; 2],
            fullmove_number: 1,
            halfmove_clock: 0,
            variant,
            files,
            ranks,
            side_to_move: 0,
            reserved8: [0; 2],
            reserved32: 0,
            reserved: [no_rights, 0, 0, 0],
        }
    }

    /// The square on `file` and `rank`, both from 0.
    #[inline]
    pub const fn square(file: u8, rank: u8) -> BoardSquare {
        (rank << 4) | (file & 15)
    }

    #[inline]
    pub const fn file_of(square: BoardSquare) -> u8 {
        square & 15
    }

    #[inline]
    pub const fn rank_of(square: BoardSquare) -> u8 {
        square >> 4
    }

    /// Whether `square` lies on this position's board.
    #[inline]
    pub const fn is_on_board(&self, square: BoardSquare) -> bool {
        BoardPosition::file_of(square) < self.files && BoardPosition::rank_of(square) < self.ranks
    }

    #[inline]
    pub const fn piece_at(&self, square: BoardSquare) -> Option<BoardPiece> {
        match self.squares[square as usize] {
            0 => None,
            code => Some(BoardPiece(code)),
        }
    }

    /// Puts `piece` on `square` (or empties it), keeping `occupied` in step.
    #[inline]
    pub fn put(&mut self, square: BoardSquare, piece: Option<BoardPiece>) {
        let (word, bit) = (usize::from(square >> 6), 1u64 << (square & 63));
        if let Some(old) = self.piece_at(square) {
            self.occupied[usize::from(old.color())][word] &= !bit;
        }
        match piece.filter(|piece| !piece.is_empty()) {
            Some(piece) => {
                self.squares[usize::from(square)] = piece.0;
                self.occupied[usize::from(piece.color())][word] |= bit;
            }
            None => self.squares[usize::from(square)] = 0,
        }
    }

    /// The squares of `color`'s pieces, in increasing order.
    pub fn squares_of(&self, color: u8) -> impl Iterator<Item = BoardSquare> + '_ {
        self.occupied[usize::from(color & 1)].iter().enumerate().flat_map(|(word, &bits)| {
            let mut rest = bits;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros();
                rest &= rest - 1;
                // At most 255: four words of 64 bits.
                Some((word as u32 * 64 + bit) as BoardSquare)
            })
        })
    }

    /// For [`Variant::DEFINED`](crate::Variant::DEFINED): the rooks each side may
    /// still castle with (`[colour][king side, queen side]`) and the square a
    /// double step has just passed, kept in `reserved[0]` (a byte each, 255 for
    /// none) so that the layout stays the one plugins were built against.
    pub fn set_defined_rights(&mut self, castling: [[Option<BoardSquare>; 2]; 2], en_passant: Option<BoardSquare>) {
        let bytes = [castling[0][0], castling[0][1], castling[1][0], castling[1][1], en_passant];
        let mut word = u64::MAX;
        for (index, square) in bytes.iter().enumerate() {
            word &= !(0xFF << (8 * index));
            word |= u64::from(square.unwrap_or(u8::MAX)) << (8 * index);
        }
        self.reserved[0] = word;
    }

    /// The castling rooks and en-passant square [`BoardPosition::set_defined_rights`] kept.
    pub fn defined_rights(&self) -> ([[Option<BoardSquare>; 2]; 2], Option<BoardSquare>) {
        let byte = |index: usize| match (self.reserved[0] >> (8 * index)) as u8 {
            u8::MAX => None,
            square => Some(square),
        };
        ([[byte(0), byte(1)], [byte(2), byte(3)]], byte(4))
    }

    /// For [`Variant::DEFINED`](crate::Variant::DEFINED): a counting rule's count
    /// in progress (makruk's), its limit and the plies counted, both in plies (a
    /// limit of 0: none running), kept in `reserved32`.
    pub fn set_defined_count(&mut self, limit: u16, plies: u16) {
        self.reserved32 = u32::from(limit) | u32::from(plies) << 16;
    }

    /// The count [`BoardPosition::set_defined_count`] kept: (limit, plies).
    pub fn defined_count(&self) -> (u16, u16) {
        (self.reserved32 as u16, (self.reserved32 >> 16) as u16)
    }

    /// For [`Variant::DEFINED`](crate::Variant::DEFINED): whether a lion has
    /// just been taken by another piece, so that none may be taken now (chu's
    /// lion-trading rule), kept in bit 0 of `reserved8[0]`.
    pub fn set_defined_lion_shield(&mut self, shielded: bool) {
        self.reserved8[0] = (self.reserved8[0] & !1) | u8::from(shielded);
    }

    /// What [`BoardPosition::set_defined_lion_shield`] kept.
    pub fn defined_lion_shield(&self) -> bool {
        self.reserved8[0] & 1 != 0
    }

    /// Whether `occupied` agrees with `squares` and every piece is on the board.
    pub fn is_consistent(&self) -> bool {
        let mut occupied = [[0u64; 4]; 2];
        for (square, &code) in self.squares.iter().enumerate() {
            if code == 0 {
                continue;
            }
            if !self.is_on_board(square as BoardSquare) {
                return false;
            }
            occupied[usize::from(code >> 7)][square / 64] |= 1 << (square % 64);
        }
        occupied == self.occupied && self.files <= 16 && self.ranks <= 16 && self.side_to_move <= 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_has_no_padding_and_its_size_is_fixed() {
        assert_eq!(std::mem::size_of::<BoardPosition>(), 400);
        assert_eq!(std::mem::align_of::<BoardPosition>(), 8);
    }

    #[test]
    fn squares_count_ranks_in_the_high_bits_whatever_the_board() {
        assert_eq!(BoardPosition::square(0, 0), 0);
        assert_eq!(BoardPosition::square(8, 0), 8);
        assert_eq!(BoardPosition::square(0, 9), 144);
        assert_eq!(BoardPosition::square(8, 9), 152);
        assert_eq!((BoardPosition::file_of(152), BoardPosition::rank_of(152)), (8, 9));
        let board = BoardPosition::empty(Variant::XIANGQI, 9, 10);
        assert!(board.is_on_board(152));
        assert!(!board.is_on_board(9));
        assert!(!board.is_on_board(160));
    }

    #[test]
    fn putting_pieces_keeps_the_colour_sets_in_step() {
        let red_general = BoardPiece::new(BoardKind::GENERAL, 0);
        let black_cannon = BoardPiece::new(BoardKind::CANNON, 1);
        assert_eq!((black_cannon.kind(), black_cannon.color()), (BoardKind::CANNON, 1));
        let mut board = BoardPosition::empty(Variant::XIANGQI, 9, 10);
        board.put(4, Some(red_general));
        board.put(BoardPosition::square(7, 7), Some(black_cannon));
        board.put(BoardPosition::square(1, 7), Some(black_cannon));
        assert!(board.is_consistent());
        assert_eq!(board.squares_of(0).collect::<Vec<_>>(), [4]);
        assert_eq!(board.squares_of(1).collect::<Vec<_>>(), [113, 119]);
        // A capture: the square changes colour.
        board.put(113, Some(red_general));
        board.put(4, None);
        assert!(board.is_consistent());
        assert_eq!(board.squares_of(0).collect::<Vec<_>>(), [113]);
        assert_eq!(board.squares_of(1).collect::<Vec<_>>(), [119]);
        assert_eq!(board.piece_at(4), None);
        board.squares[200] = red_general.0;
        assert!(!board.is_consistent(), "a piece off the board");
    }
}
