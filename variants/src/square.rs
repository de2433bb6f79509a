//! Squares of boards up to 16 files × 16 ranks, sets of them, and the two ways
//! they are written: CECP's (ranks from 0 on a board of exactly 10 ranks, from 1
//! otherwise) and variants.ini's (ranks always from 1).

use std::fmt::Write as _;

/// A square: `rank * 16 + file`, both from 0, as the plugin API's `BoardSquare`.
pub type Square = u8;

/// The square on `file` and `rank`, both from 0.
#[inline]
#[must_use]
pub const fn square(file: u8, rank: u8) -> Square {
    (rank << 4) | (file & 15)
}

#[inline]
#[must_use]
pub const fn file_of(square: Square) -> u8 {
    square & 15
}

#[inline]
#[must_use]
pub const fn rank_of(square: Square) -> u8 {
    square >> 4
}

/// A set of squares, bit `square` of 256.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct SquareSet(pub [u64; 4]);

impl SquareSet {
    pub const EMPTY: SquareSet = SquareSet([0; 4]);

    #[inline]
    #[must_use]
    pub const fn contains(&self, square: Square) -> bool {
        self.0[(square >> 6) as usize] >> (square & 63) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, square: Square) {
        self.0[usize::from(square >> 6)] |= 1 << (square & 63);
    }

    #[inline]
    pub fn remove(&mut self, square: Square) {
        self.0[usize::from(square >> 6)] &= !(1 << (square & 63));
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    #[must_use]
    pub fn len(&self) -> u32 {
        self.0.iter().map(|word| word.count_ones()).sum()
    }

    /// Every square of `rank` on a board `files` wide.
    #[must_use]
    pub fn rank(rank: u8, files: u8) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        for file in 0..files {
            set.insert(square(file, rank));
        }
        set
    }

    /// Every square of `file` on a board `ranks` high.
    #[must_use]
    pub fn file(file: u8, ranks: u8) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        for rank in 0..ranks {
            set.insert(square(file, rank));
        }
        set
    }

    /// Every square of a board `files` × `ranks`.
    #[must_use]
    pub fn board(files: u8, ranks: u8) -> SquareSet {
        (0..ranks).fold(SquareSet::EMPTY, |set, rank| set.union(SquareSet::rank(rank, files)))
    }

    /// The squares of this set not in `other`.
    #[must_use]
    pub fn difference(mut self, other: SquareSet) -> SquareSet {
        for (word, other) in self.0.iter_mut().zip(other.0) {
            *word &= !other;
        }
        self
    }

    #[must_use]
    pub fn union(mut self, other: SquareSet) -> SquareSet {
        for (word, other) in self.0.iter_mut().zip(other.0) {
            *word |= other;
        }
        self
    }

    /// The squares in increasing order.
    pub fn iter(self) -> impl Iterator<Item = Square> {
        self.0.into_iter().enumerate().flat_map(|(word, bits)| {
            let mut rest = bits;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros();
                rest &= rest - 1;
                // At most 255: four words of 64 bits.
                Some((word as u32 * 64 + bit) as Square)
            })
        })
    }
}

/// How CECP writes a rank: from 0 on a board of exactly 10 ranks (xiangqi,
/// grand), from 1 on every other.
#[must_use]
pub const fn cecp_rank_base(ranks: u8) -> u8 {
    if ranks == 10 { 0 } else { 1 }
}

/// `square` as CECP writes it on a board `ranks` high: `e2`, `d12`, `e0`.
pub fn write_square(out: &mut String, square: Square, ranks: u8) {
    out.push(char::from(b'a' + file_of(square)));
    let _ = write!(out, "{}", rank_of(square) + cecp_rank_base(ranks));
}

/// The square at the start of `text` as CECP writes it, and how many bytes it
/// took; `None` when `text` does not start with a square of a `files` × `ranks` board.
#[must_use]
pub fn read_square(text: &[u8], files: u8, ranks: u8) -> Option<(Square, usize)> {
    let (&letter, rest) = text.split_first()?;
    let file = letter.checked_sub(b'a')?;
    let digits = rest.iter().take_while(|byte| byte.is_ascii_digit()).count().min(2);
    if file >= files || digits == 0 {
        return None;
    }
    // Two digits only where such a rank exists, so `a10` is not `a1` then `0…`.
    let number = |n: usize| rest[..n].iter().fold(0u32, |acc, &d| acc * 10 + u32::from(d - b'0'));
    let base = u32::from(cecp_rank_base(ranks));
    for n in (1..=digits).rev() {
        let written = number(n);
        if n == 2 && rest[0] == b'0' {
            continue;
        }
        if let Some(rank) = written.checked_sub(base).filter(|&rank| rank < u32::from(ranks)) {
            return Some((square(file, rank as u8), 1 + n));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_count_from_zero_only_on_ten_rank_boards() {
        let mut text = String::new();
        write_square(&mut text, square(4, 0), 10);
        text.push(' ');
        write_square(&mut text, square(3, 11), 12);
        text.push(' ');
        write_square(&mut text, square(0, 9), 10);
        assert_eq!(text, "e0 d12 a9");
        assert_eq!(read_square(b"e0", 10, 10), Some((square(4, 0), 2)));
        assert_eq!(read_square(b"e0", 8, 8), None);
        assert_eq!(read_square(b"d12d11", 12, 12), Some((square(3, 11), 3)));
        assert_eq!(read_square(b"a10a9", 10, 12), Some((square(0, 9), 3)));
        assert_eq!(read_square(b"a10", 10, 10), Some((square(0, 1), 2)), "a1 then 0: rank 10 is off a 0–9 board");
        assert_eq!(read_square(b"k1", 10, 8), None);
    }

    #[test]
    fn sets_hold_any_of_the_256_squares() {
        let mut set = SquareSet::rank(7, 10);
        set.insert(255);
        assert!(set.contains(square(9, 7)) && set.contains(255) && !set.contains(square(10, 7)));
        assert_eq!(set.len(), 11);
        set.remove(255);
        assert_eq!(set.iter().collect::<Vec<_>>(), (112..122).collect::<Vec<_>>());
    }
}
