//! The pieces on the points, without whose turn it is.

use crate::{Color, Piece, Role, Square};

/// An empty point.
pub(crate) const EMPTY: u8 = 0;
/// A guard point outside the board. Files 9–15 of every rank and ranks 10–15
/// hold it, so a ray or a jump that leaves the board (the index wraps in
/// `u8`) lands on a guard and stops without any bounds arithmetic.
pub(crate) const OFF: u8 = 0x40;

/// The ABI byte of a piece, usable in `const` patterns.
pub(crate) const fn code(color: Color, role: Role) -> u8 {
    role as u8 | (color as u8) << 7
}

/// Whether `code` is a piece of the side other than `us`: not empty, not a guard.
#[inline]
pub(crate) const fn is_enemy(code: u8, us: Color) -> bool {
    match us {
        Color::Red => code >= 0x80,
        Color::Black => code.wrapping_sub(1) < 7,
    }
}

/// Whether a piece of `us` may step onto a point holding `code` (empty or enemy).
#[inline]
pub(crate) const fn can_land(code: u8, us: Color) -> bool {
    match us {
        Color::Red => code == EMPTY || code >= 0x80,
        Color::Black => code < 8,
    }
}

const GUARDED: [u8; 256] = {
    let mut squares = [OFF; 256];
    let mut i = 0;
    while i < 256 {
        if Square(i as u8).is_valid() {
            squares[i] = EMPTY;
        }
        i += 1;
    }
    squares
};

/// A mailbox of ABI piece bytes indexed by `Square`, with each side's points
/// as a bitset (for walking one side's pieces) and both generals' points.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Board {
    squares: [u8; 256],
    occupied: [[u64; 4]; 2],
    generals: [u8; 2],
}

/// In `generals`, a side without a general (only while a FEN is checked).
const NO_GENERAL: u8 = 0xff;

impl Board {
    pub(crate) const fn empty() -> Board {
        Board { squares: GUARDED, occupied: [[0; 4]; 2], generals: [NO_GENERAL; 2] }
    }

    /// The byte at a point: a piece, `EMPTY`, or `OFF` outside the board.
    #[inline]
    pub(crate) fn at(&self, sq: u8) -> u8 {
        self.squares[usize::from(sq)]
    }

    pub(crate) fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.at(sq.0))
    }

    /// The mailbox, guards included.
    pub(crate) fn squares(&self) -> &[u8; 256] {
        &self.squares
    }

    /// The point of `color`'s general. Every `Position` has both.
    #[inline]
    pub(crate) fn general(&self, color: Color) -> u8 {
        self.generals[color.index()]
    }

    /// Points of `color`'s pieces as a bitset, bit = `Square` index.
    pub(crate) fn occupied(&self, color: Color) -> [u64; 4] {
        self.occupied[color.index()]
    }

    /// `color`'s points, lowest first.
    pub(crate) fn points(&self, color: Color) -> Points {
        Points { words: self.occupied[color.index()], word: 0 }
    }

    /// Puts a piece on an empty point.
    pub(crate) fn put(&mut self, sq: u8, code: u8) {
        debug_assert_eq!(self.at(sq), EMPTY);
        self.squares[usize::from(sq)] = code;
        let color = color_of(code);
        self.occupied[color.index()][usize::from(sq >> 6)] ^= 1 << (sq & 63);
        if code & 0x7f == Role::General as u8 {
            self.generals[color.index()] = sq;
        }
    }

    /// Moves the piece on `from` to `to` and returns what stood there.
    #[inline]
    pub(crate) fn shift(&mut self, from: u8, to: u8) -> u8 {
        let moving = self.at(from);
        let captured = self.at(to);
        let us = color_of(moving).index();
        self.squares[usize::from(from)] = EMPTY;
        self.squares[usize::from(to)] = moving;
        self.occupied[us][usize::from(from >> 6)] ^= 1 << (from & 63);
        self.occupied[us][usize::from(to >> 6)] ^= 1 << (to & 63);
        if captured != EMPTY {
            self.occupied[us ^ 1][usize::from(to >> 6)] ^= 1 << (to & 63);
        }
        if moving & 0x7f == Role::General as u8 {
            self.generals[us] = to;
        }
        captured
    }

    /// Takes back `shift(from, to)` that captured `captured`.
    #[inline]
    pub(crate) fn unshift(&mut self, from: u8, to: u8, captured: u8) {
        let moving = self.at(to);
        let us = color_of(moving).index();
        self.squares[usize::from(to)] = captured;
        self.squares[usize::from(from)] = moving;
        self.occupied[us][usize::from(from >> 6)] ^= 1 << (from & 63);
        self.occupied[us][usize::from(to >> 6)] ^= 1 << (to & 63);
        if captured != EMPTY {
            self.occupied[us ^ 1][usize::from(to >> 6)] ^= 1 << (to & 63);
        }
        if moving & 0x7f == Role::General as u8 {
            self.generals[us] = from;
        }
    }
}

/// The side of a piece byte (not `EMPTY`, not `OFF`).
#[inline]
pub(crate) const fn color_of(code: u8) -> Color {
    if code & 0x80 == 0 { Color::Red } else { Color::Black }
}

/// The points of one side's pieces, from a copy of its bitset.
pub(crate) struct Points {
    words: [u64; 4],
    word: usize,
}

impl Iterator for Points {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        while self.word < 3 {
            let bits = self.words[self.word];
            if bits != 0 {
                self.words[self.word] = bits & (bits - 1);
                // Points stop at i9 = 152, so three words hold them all and
                // the index fits in a byte.
                #[allow(clippy::cast_possible_truncation)]
                return Some((self.word * 64) as u8 + bits.trailing_zeros() as u8);
            }
            self.word += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guards_surround_the_board() {
        let board = Board::empty();
        assert_eq!(board.squares.iter().filter(|&&b| b == EMPTY).count(), 90);
        // Leaving the board from a corner in any direction, even by two
        // ranks, lands on a guard.
        for (from, step) in [(0u8, -1i16), (0, -16), (0, -33), (8, 1), (8, 18), (152, 16), (152, 1), (144, 31)] {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let to = from.wrapping_add(step as u8);
            assert_eq!(board.at(to), OFF, "{from} {step}");
        }
    }

    #[test]
    fn shift_and_unshift_restore_everything() {
        let mut board = Board::empty();
        board.put(4, code(Color::Red, Role::General));
        board.put(20, code(Color::Red, Role::Chariot));
        board.put(148, code(Color::Black, Role::General));
        board.put(36, code(Color::Black, Role::Horse));
        let before = board.clone();
        let captured = board.shift(20, 36);
        assert_eq!(captured, code(Color::Black, Role::Horse));
        assert_eq!(board.points(Color::Black).collect::<Vec<_>>(), [148]);
        assert_eq!(board.points(Color::Red).collect::<Vec<_>>(), [4, 36]);
        board.unshift(20, 36, captured);
        assert_eq!(board, before);
        board.shift(4, 5);
        assert_eq!(board.general(Color::Red), 5);
        assert!(is_enemy(code(Color::Black, Role::Soldier), Color::Red));
        assert!(!is_enemy(OFF, Color::Red) && !is_enemy(OFF, Color::Black));
        assert!(!can_land(OFF, Color::Red) && !can_land(OFF, Color::Black));
        assert!(can_land(EMPTY, Color::Black) && !can_land(code(Color::Black, Role::Cannon), Color::Black));
    }
}
