//! Moves and a list of them that lives on the stack.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::str::FromStr;

use crate::Square;

/// A move from one point to another. Xiangqi has no promotions, drops or
/// castling, so the two points say everything; whether it captures depends on
/// the position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    /// A move from `from` to `to`.
    #[must_use]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Text that is not a move in coordinates (`h2e2`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError;

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a move in coordinates such as h2e2")
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        if s.len() != 4 || !s.is_ascii() {
            return Err(ParseMoveError);
        }
        let from = s[..2].parse().map_err(|_| ParseMoveError)?;
        let to = s[2..].parse().map_err(|_| ParseMoveError)?;
        Ok(Move { from, to })
    }
}

/// As many moves as any position can have, with room to spare: two chariots
/// and two cannons reach at most 17 points each, the rest of an army 51.
pub const MAX_MOVES: usize = 128;

/// The moves of a position, in a fixed array: filling one never allocates.
/// It reads as a slice of moves (`len`, `iter`, `contains`, `sort_by_key` …).
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
}

impl MoveList {
    /// An empty list.
    #[must_use]
    pub const fn new() -> MoveList {
        MoveList { len: 0, moves: [Move { from: Square(0), to: Square(0) }; MAX_MOVES] }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// Past `MAX_MOVES`, which no position reaches.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Removes the move at `index`, putting the last one in its place.
    ///
    /// # Panics
    /// If `index` is out of range.
    pub fn swap_remove(&mut self, index: usize) -> Move {
        assert!(index < self.len, "index out of range");
        let m = self.moves[index];
        self.len -= 1;
        self.moves[index] = self.moves[self.len];
        m
    }

    /// Keeps only the moves for which `keep` holds, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[kept] = m;
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter().map(ToString::to_string)).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates() {
        let m: Move = "h2e2".parse().unwrap();
        assert_eq!(m, Move::new(Square::new(7, 2), Square::new(4, 2)));
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!("b0c2".parse::<Move>().unwrap().to_string(), "b0c2");
        for bad in ["", "h2e", "h2e10", "h2j2", "h2e2q", "é2e2"] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }

    #[test]
    fn list_is_a_slice() {
        let mut list = MoveList::new();
        assert!(list.is_empty());
        list.push("h2e2".parse().unwrap());
        list.push("b0c2".parse().unwrap());
        assert_eq!(list.len(), 2);
        assert!(list.contains(&"b0c2".parse().unwrap()));
        list.retain(|m| m.from.file() == 1);
        assert_eq!(format!("{list:?}"), "[\"b0c2\"]");
    }
}
