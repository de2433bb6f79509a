//! Zobrist keys: a 64-bit hash of a position (pieces, hands, side to move,
//! castling rooks, en-passant square) kept up to date as moves are played, for
//! repetitions and transposition tables.

use std::sync::OnceLock;

/// SplitMix64: a fixed sequence, so keys are the same in every process.
const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The keys of every piece code on every square.
fn table() -> &'static [u64] {
    static TABLE: OnceLock<Vec<u64>> = OnceLock::new();
    TABLE.get_or_init(|| (0..256 * 256).map(|index| mix(index as u64)).collect())
}

/// The key of piece `code` on `square`.
#[inline]
pub(crate) fn piece(code: u8, square: u8) -> u64 {
    table()[usize::from(code) << 8 | usize::from(square)]
}

/// The key of the second player to move.
pub(crate) const TURN: u64 = mix(0x5EED_0001);

/// The key of a position where no lion may be taken (a lion has just been
/// taken by another piece).
pub(crate) const LION_SHIELD: u64 = mix(0x5EED_0002);

/// The key of a castling rook on `square` (`castling` distinguishes it from the piece).
#[inline]
pub(crate) fn castling(square: u8) -> u64 {
    mix(0x5EED_1000 + u64::from(square))
}

/// The key of the square passed by a double step.
#[inline]
pub(crate) fn en_passant(square: u8) -> u64 {
    mix(0x5EED_2000 + u64::from(square))
}

/// The key of holding `count` pieces of `code` in hand.
#[inline]
pub(crate) fn hand(code: u8, count: u8) -> u64 {
    mix(0x5EED_3000 + (u64::from(code) << 8 | u64::from(count)))
}
