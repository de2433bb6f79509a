//! The network's inputs: one per (colour, piece kind, square), 768 in all, seen
//! from each side. From Black's side the board is mirrored top to bottom and the
//! colours swapped, so one set of weights serves both perspectives.

use plugboard_plugin_api::Position;

/// Inputs per perspective: 2 colours × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;

/// The most pieces a chess position can hold, and so the most active inputs.
pub const MAX_ACTIVE: usize = 32;

/// The input for a `color` (0 White, 1 Black) piece of `kind` (pawn 0 … king 5,
/// as [`plugboard_plugin_api::PieceKind`]) on `square` (a1 = 0), seen by
/// `perspective` (0 White, 1 Black).
#[inline(always)]
pub fn index(perspective: usize, color: usize, kind: usize, square: usize) -> usize {
    let (own, square) = if perspective == 0 { (color, square) } else { (color ^ 1, square ^ 56) };
    own * 384 + kind * 64 + square
}

/// The bitboards a position's inputs are read from: White's and Black's
/// pieces, then each kind of either colour ([`Position::colors`] and
/// [`Position::pieces`] side by side).
pub type Pieces = [u64; 8];

pub fn pieces_of(position: &Position) -> Pieces {
    let [white, black] = position.colors;
    let [p, n, b, r, q, k] = position.pieces;
    [white, black, p, n, b, r, q, k]
}

/// A position with these pieces and side to move, and nothing else known: no
/// castling rights, no en-passant square, the counters at their start.
pub fn position_of(pieces: &Pieces, side_to_move: u8) -> Position {
    let [white, black, pawns, knights, bishops, rooks, queens, kings] = *pieces;
    Position {
        colors: [white, black],
        pieces: [pawns, knights, bishops, rooks, queens, kings],
        castling_rooks: 0,
        side_to_move,
        en_passant: Position::NO_SQUARE,
        halfmove_clock: 0,
        fullmove_number: 1,
        variant: Default::default(),
        remaining_checks: [0; 2],
        pockets: [[0; 5]; 2],
        promoted: 0,
        reserved: [0; 2],
    }
}

/// Every piece of `pieces` as (colour, kind, square).
pub fn each_piece(pieces: &Pieces) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    (0..2).flat_map(move |color| {
        (0..6).flat_map(move |kind| squares(pieces[color] & pieces[2 + kind]).map(move |square| (color, kind, square)))
    })
}

/// The squares of a bitboard, lowest first.
pub fn squares(mut bitboard: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bitboard != 0).then(|| {
            let square = bitboard.trailing_zeros() as usize;
            bitboard &= bitboard - 1;
            square
        })
    })
}

/// The start position's pieces, for tests.
#[cfg(test)]
pub(crate) const START: Pieces = {
    const fn rank(r: u64) -> u64 {
        0xFF << (8 * r)
    }
    [
        rank(0) | rank(1),
        rank(6) | rank(7),
        rank(1) | rank(6),
        0x42 | 0x42 << 56,
        0x24 | 0x24 << 56,
        0x81 | 0x81 << 56,
        0x08 | 0x08 << 56,
        0x10 | 0x10 << 56,
    ]
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_sees_the_board_as_white_does_with_the_colours_swapped() {
        // White's king on e1 for White is Black's king on e8 for Black.
        assert_eq!(index(0, 0, 5, 4), index(1, 1, 5, 60));
        // A white pawn on e4 is, for Black, an enemy pawn on e5.
        assert_eq!(index(1, 0, 0, 28), 384 + 36);
        let all: std::collections::HashSet<usize> =
            (0..2).flat_map(|c| (0..6).flat_map(move |k| (0..64).map(move |s| index(1, c, k, s)))).collect();
        assert_eq!(all.len(), INPUTS);
        assert!(all.iter().all(|&i| i < INPUTS));
    }
}
