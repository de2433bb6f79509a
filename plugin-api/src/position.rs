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
    /// Which rules apply. Chess960 is [`Variant::CHESS`]: castling rooks say it all.
    pub variant: Variant,
    /// Checks each side still has to give to win ([`Variant::THREE_CHECK`]; 0 elsewhere).
    pub remaining_checks: [u8; 2],
    /// Pieces in hand ([`Variant::CRAZYHOUSE`]): `pockets[colour][kind]` for pawn to queen.
    pub pockets: [[u8; 5]; 2],
    /// Pieces that were pawns ([`Variant::CRAZYHOUSE`]): captured, they go to the hand as pawns.
    pub promoted: u64,
    /// Zero; later minor versions may give it meaning.
    pub reserved: [u64; 2],
}

/// The rules a [`Position`] is played by.
///
/// A byte rather than a Rust enum, so that a plugin built before a variant was
/// added reads an unknown value instead of undefined behaviour.
#[repr(transparent)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Variant(pub u8);

impl Variant {
    /// Orthodox chess, and Chess960 (`fischerandom`).
    pub const CHESS: Variant = Variant(0);
    /// Captures explode, taking every piece but pawns around them.
    pub const ATOMIC: Variant = Variant(1);
    /// FICS suicide: captures compulsory, no royal king, no castling; whoever loses
    /// every piece wins, and with no move left the side with fewer pieces wins.
    pub const SUICIDE: Variant = Variant(2);
    /// ICC giveaway: as suicide, but with no move left the side to move wins.
    pub const GIVEAWAY: Variant = Variant(3);
    /// A king reaching d4, e4, d5 or e5 wins.
    pub const KING_OF_THE_HILL: Variant = Variant(4);
    /// The third check wins.
    pub const THREE_CHECK: Variant = Variant(5);
    /// Captured pieces change sides and may be dropped back onto the board.
    pub const CRAZYHOUSE: Variant = Variant(6);
    /// No checks allowed; the first king on the eighth rank wins.
    pub const RACING_KINGS: Variant = Variant(7);
    /// White has 36 pawns and no king, and wins by mating; Black wins by taking them all.
    pub const HORDE: Variant = Variant(8);

    /// Xiangqi (Chinese chess), on a 9 × 10 [`crate::BoardPosition`].
    pub const XIANGQI: Variant = Variant(9);

    /// Any variant defined as data (a `variants.ini` definition, read with the
    /// `plugboard-variants` crate), on a [`crate::BoardPosition`] of its size.
    /// The definition comes with each search request; a plugin that lists
    /// `defined` plays every such variant, including ones written after it was built.
    pub const DEFINED: Variant = Variant(10);

    /// The variants played on 8 × 8 with a [`Position`]: not [`Variant::BOARDS`].
    pub const ALL: [Variant; 9] = [
        Variant::CHESS,
        Variant::ATOMIC,
        Variant::SUICIDE,
        Variant::GIVEAWAY,
        Variant::KING_OF_THE_HILL,
        Variant::THREE_CHECK,
        Variant::CRAZYHOUSE,
        Variant::RACING_KINGS,
        Variant::HORDE,
    ];

    /// The variants played on other boards, with a [`crate::BoardPosition`].
    pub const BOARDS: [Variant; 2] = [Variant::XIANGQI, Variant::DEFINED];

    /// Whether positions of this variant are 8 × 8 [`Position`]s.
    pub fn is_8x8(self) -> bool {
        Variant::ALL.contains(&self)
    }

    /// The name in the protocol's `variant` command; engine-defined for the
    /// variants the protocol does not name.
    pub fn cecp_name(self) -> &'static str {
        match self.0 {
            0 => "normal",
            1 => "atomic",
            2 => "suicide",
            3 => "giveaway",
            4 => "kingofthehill",
            5 => "3check",
            6 => "crazyhouse",
            7 => "racingkings",
            8 => "horde",
            9 => "xiangqi",
            10 => "defined",
            _ => "unknown",
        }
    }

    /// The variant CECP calls `name`, on any board.
    pub fn from_cecp_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().chain(Variant::BOARDS).find(|variant| variant.cecp_name() == name)
    }
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
/// Chess960), so one encoding serves every start position. A drop (crazyhouse)
/// has `from` = [`Move::DROP`] + the [`PieceKind`] index of the dropped piece.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    /// [`PieceKind`] index of the promotion piece, or [`Move::NO_PROMOTION`].
    pub promotion: u8,
    /// Zero in chess. On a [`BoardPosition`](crate::BoardPosition): bit 0
    /// marks a drop ([`Move::board_drop`]), bits 1–7 the first leg of a move
    /// of two legs ([`Move::board_leg`]).
    pub reserved: u8,
}

impl Move {
    pub const NO_PROMOTION: u8 = 255;
    /// `from` of a drop is this plus the dropped piece's kind.
    pub const DROP: u8 = 64;

    pub fn new(from: Square, to: Square, promotion: Option<PieceKind>) -> Move {
        Move { from, to, promotion: promotion.map_or(Move::NO_PROMOTION, |p| p as u8), reserved: 0 }
    }

    /// A piece of `kind` from the hand onto `to`.
    pub fn drop(kind: PieceKind, to: Square) -> Move {
        Move { from: Move::DROP + kind as u8, to, promotion: Move::NO_PROMOTION, reserved: 0 }
    }

    pub fn promotion(&self) -> Option<PieceKind> {
        PieceKind::from_index(self.promotion)
    }

    /// The piece dropped, if this is a drop.
    pub fn dropped(&self) -> Option<PieceKind> {
        self.from.checked_sub(Move::DROP).and_then(PieceKind::from_index)
    }

    /// `reserved`'s bit that marks a drop on a [`BoardPosition`](crate::BoardPosition).
    pub const BOARD_DROP: u8 = 1;

    /// On a [`BoardPosition`](crate::BoardPosition): a piece of `kind` from
    /// the hand onto `to`.
    pub fn board_drop(kind: crate::BoardKind, to: u8) -> Move {
        Move { from: kind.0, to, promotion: Move::NO_PROMOTION, reserved: Move::BOARD_DROP }
    }

    /// On a [`BoardPosition`](crate::BoardPosition): the kind dropped, if this is a drop.
    pub fn board_dropped(&self) -> Option<crate::BoardKind> {
        (self.reserved & Move::BOARD_DROP != 0).then_some(crate::BoardKind(self.from))
    }

    /// The farthest, in files or ranks, that the first leg of a move of two
    /// legs may end from where it starts ([`Move::board_leg`]).
    pub const MAX_LEG_REACH: i8 = 5;

    /// On a [`BoardPosition`](crate::BoardPosition): a move of two legs, the
    /// first from `from` to `via` (taking what stands there), the second on to
    /// `to` (`from` itself for a piece that comes back home). `reserved`'s
    /// bits 1–7 hold `via` as files and ranks from `from`, each at most
    /// [`Move::MAX_LEG_REACH`]; `None` when it lies farther.
    pub fn board_leg(from: u8, via: u8, to: u8, promotion: u8) -> Option<Move> {
        let files = i16::from(via & 15) - i16::from(from & 15);
        let ranks = i16::from(via >> 4) - i16::from(from >> 4);
        let reach = i16::from(Move::MAX_LEG_REACH);
        if files.abs() > reach || ranks.abs() > reach || (files, ranks) == (0, 0) {
            return None;
        }
        let code = 1 + (files + reach) + (2 * reach + 1) * (ranks + reach);
        Some(Move { from, to, promotion, reserved: (code as u8) << 1 })
    }

    /// On a [`BoardPosition`](crate::BoardPosition): where the first leg of a
    /// move of two legs ends, if it is one.
    pub fn board_via(&self) -> Option<u8> {
        let code = i16::from(self.reserved >> 1);
        if code == 0 || self.reserved & Move::BOARD_DROP != 0 {
            return None;
        }
        let reach = i16::from(Move::MAX_LEG_REACH);
        let width = 2 * reach + 1;
        let (files, ranks) = ((code - 1) % width - reach, (code - 1) / width - reach);
        let file = i16::from(self.from & 15) + files;
        let rank = i16::from(self.from >> 4) + ranks;
        ((0..16).contains(&file) && (0..16).contains(&rank)).then_some((rank * 16 + file) as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::Move;

    #[test]
    fn a_first_leg_round_trips_through_the_reserved_bits() {
        // d4 = rank 3, file 3 on the 16-wide grid; every square within reach.
        let from = 3 * 16 + 3;
        for ranks in -3i16..=5 {
            for files in -3i16..=5 {
                let via = (from as i16 + ranks * 16 + files) as u8;
                let leg = Move::board_leg(from, via, from, Move::NO_PROMOTION);
                if (files, ranks) == (0, 0) {
                    assert_eq!(leg, None, "a first leg goes somewhere");
                    continue;
                }
                let leg = leg.unwrap();
                assert_eq!(leg.board_via(), Some(via), "{files} {ranks}");
                assert_eq!(leg.board_dropped(), None);
                assert_eq!((leg.from, leg.to), (from, from));
            }
        }
        assert_eq!(Move::board_leg(0, 6, 0, Move::NO_PROMOTION), None, "six files away is out of reach");
        assert_eq!(Move::board_drop(crate::BoardKind(3), 40).board_via(), None);
        assert_eq!(Move { from: 1, to: 2, promotion: Move::NO_PROMOTION, reserved: 0 }.board_via(), None);
    }
}
