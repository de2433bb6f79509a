//! Points of the 9 × 10 board.

use std::fmt;
use std::str::FromStr;

use crate::Color;

/// A point of the board: `rank * 16 + file`, files a–i = 0–8, ranks 0–9 with
/// Red's back rank at 0, as CECP writes them (`a0` … `i9`).
///
/// The stride of 16 is the plugin ABI's square numbering, so a square crosses
/// the boundary unchanged, and it lets the board keep off-board guard points
/// around the playing area (see `board.rs`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// Number of files.
    pub const FILES: u8 = 9;
    /// Number of ranks.
    pub const RANKS: u8 = 10;

    /// The square on `file` (0–8) and `rank` (0–9).
    ///
    /// # Panics
    /// If either is off the board: that is a bug in the caller, not input to report.
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Square {
        assert!(file < Self::FILES && rank < Self::RANKS, "square off the board");
        Square(rank * 16 + file)
    }

    /// The square on `file` and `rank`, or `None` off the board.
    #[must_use]
    pub const fn try_new(file: u8, rank: u8) -> Option<Square> {
        if file < Self::FILES && rank < Self::RANKS { Some(Square(rank * 16 + file)) } else { None }
    }

    /// File, 0 (a) to 8 (i).
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 & 15
    }

    /// Rank, 0 (Red's back rank) to 9 (Black's).
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 >> 4
    }

    /// Whether the index names a point of the board (the 16-stride leaves gaps).
    #[must_use]
    pub const fn is_valid(self) -> bool {
        self.file() < Self::FILES && self.rank() < Self::RANKS
    }

    /// All 90 points, a0, b0, … i9.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..Self::RANKS).flat_map(|rank| (0..Self::FILES).map(move |file| Square::new(file, rank)))
    }

    /// The same point seen from the other side of the board.
    #[must_use]
    pub const fn flip(self) -> Square {
        Square::new(8 - self.file(), 9 - self.rank())
    }

    /// Whether the point is on `color`'s own side of the river.
    #[must_use]
    pub const fn is_home_of(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// Whether the point is inside `color`'s palace (files d–f, ranks 0–2 or 7–9).
    #[must_use]
    pub const fn is_palace_of(self, color: Color) -> bool {
        let file = self.file();
        let rank = self.rank();
        let rank_ok = match color {
            Color::Red => rank <= 2,
            Color::Black => rank >= 7 && rank <= 9,
        };
        file >= 3 && file <= 5 && rank_ok
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file()), self.rank())
    }
}

// The index alone (`Square(118)`) says little in a failed assertion; the
// name does, and the index is kept for the gaps of the 16-stride.
impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_valid() { write!(f, "{self}") } else { write!(f, "Square({})", self.0) }
    }
}

/// A square name that is not `a0` … `i9`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a square from a0 to i9")
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match *s.as_bytes() {
            [file @ b'a'..=b'i', rank @ b'0'..=b'9'] => Ok(Square::new(file - b'a', rank - b'0')),
            _ => Err(ParseSquareError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_cecp() {
        assert_eq!(Square::new(4, 2).to_string(), "e2");
        assert_eq!(Square::new(1, 0).to_string(), "b0");
        assert_eq!("i9".parse(), Ok(Square(152)));
        assert_eq!("a0".parse(), Ok(Square(0)));
        assert!("j0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
        assert_eq!(format!("{:?}", Square(118)), "g7");
        assert_eq!(format!("{:?}", Square(9)), "Square(9)");
        assert_eq!(Square::all().count(), 90);
        assert!(Square::all().all(Square::is_valid));
    }

    #[test]
    fn palaces_and_river() {
        let palace = |c| Square::all().filter(|s| s.is_palace_of(c)).count();
        assert_eq!(palace(Color::Red), 9);
        assert_eq!(palace(Color::Black), 9);
        assert!("e1".parse::<Square>().unwrap().is_palace_of(Color::Red));
        assert!("d9".parse::<Square>().unwrap().is_palace_of(Color::Black));
        assert!(!"c1".parse::<Square>().unwrap().is_palace_of(Color::Red));
        assert!("a4".parse::<Square>().unwrap().is_home_of(Color::Red));
        assert!("a5".parse::<Square>().unwrap().is_home_of(Color::Black));
        assert_eq!("a0".parse::<Square>().unwrap().flip().to_string(), "i9");
    }
}
