//! Zobrist keys: one random number per piece and point, one for Black to move.
//!
//! There is no agreed key set for xiangqi (as Polyglot's is for chess), so
//! the keys are this crate's own, drawn at compile time from a fixed seed:
//! the same position hashes the same in every build and on every machine.

use crate::Color;

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Keys by piece byte's index (`color * 7 + role - 1`) and point.
static PIECE_KEYS: [[u64; 160]; 14] = {
    let mut keys = [[0; 160]; 14];
    let mut state = 0x5869_616e_6771_6921; // "Xiangqi!"
    let mut piece = 0;
    while piece < 14 {
        let mut sq = 0;
        while sq < 160 {
            keys[piece][sq] = splitmix(&mut state);
            sq += 1;
        }
        piece += 1;
    }
    keys
};

/// Xored in when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = 0x2d35_8dcc_aa6c_78a5;

/// The key of a piece byte (not empty) on a point of the board.
#[inline]
pub(crate) fn piece_key(code: u8, sq: u8) -> u64 {
    let index = usize::from(code >> 7) * 7 + usize::from(code & 0x7f) - 1;
    PIECE_KEYS[index][usize::from(sq)]
}

/// The key of the side to move.
#[inline]
pub(crate) const fn turn_key(turn: Color) -> u64 {
    match turn {
        Color::Red => 0,
        Color::Black => BLACK_TO_MOVE,
    }
}
