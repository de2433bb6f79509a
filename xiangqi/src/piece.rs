//! Sides, piece kinds, pieces, and the letters FENs write them with.

use std::fmt;
use std::ops::Not;

/// A side. Red moves first and is "White" to xboard.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[repr(u8)]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    /// Both sides, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// 0 for Red, 1 for Black: an index into per-side arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `"Red"` or `"Black"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::Black => "Black",
        }
    }
}

impl Not for Color {
    type Output = Color;

    fn not(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind of piece. The numbers are the plugin ABI's piece-kind codes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[repr(u8)]
pub enum Role {
    Soldier = 1,
    Advisor = 2,
    Elephant = 3,
    Horse = 4,
    Cannon = 5,
    Chariot = 6,
    General = 7,
}

impl Role {
    /// Every kind, in code order.
    pub const ALL: [Role; 7] =
        [Role::Soldier, Role::Advisor, Role::Elephant, Role::Horse, Role::Cannon, Role::Chariot, Role::General];

    /// The kind with ABI code `code` (1–7).
    #[must_use]
    pub const fn from_code(code: u8) -> Option<Role> {
        Some(match code {
            1 => Role::Soldier,
            2 => Role::Advisor,
            3 => Role::Elephant,
            4 => Role::Horse,
            5 => Role::Cannon,
            6 => Role::Chariot,
            7 => Role::General,
            _ => return None,
        })
    }

    /// The lower-case English name, for messages.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Role::Soldier => "soldier",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Horse => "horse",
            Role::Cannon => "cannon",
            Role::Chariot => "chariot",
            Role::General => "general",
        }
    }

    /// How many of this kind a side starts with; there is no promotion, so
    /// also how many it can ever have.
    #[must_use]
    pub const fn start_count(self) -> usize {
        match self {
            Role::Soldier => 5,
            Role::General => 1,
            _ => 2,
        }
    }

    /// The upper-case letter in `lettering`.
    #[must_use]
    pub const fn letter(self, lettering: Lettering) -> char {
        match (self, lettering) {
            (Role::Soldier, _) => 'P',
            (Role::Advisor, _) => 'A',
            (Role::Elephant, Lettering::Standard) => 'B',
            (Role::Elephant, Lettering::Xboard) => 'E',
            (Role::Horse, Lettering::Standard) => 'N',
            (Role::Horse, Lettering::Xboard) => 'H',
            (Role::Cannon, _) => 'C',
            (Role::Chariot, _) => 'R',
            (Role::General, _) => 'K',
        }
    }

    /// The kind an upper-case letter names in either lettering.
    #[must_use]
    pub const fn from_letter(letter: char) -> Option<Role> {
        Some(match letter {
            'P' => Role::Soldier,
            'A' => Role::Advisor,
            'B' | 'E' => Role::Elephant,
            'N' | 'H' => Role::Horse,
            'C' => Role::Cannon,
            'R' => Role::Chariot,
            'K' => Role::General,
            _ => return None,
        })
    }
}

/// Which letters a FEN uses for elephants and horses, and which fields it writes.
///
/// Both are in use and both are read; the choice matters only for writing.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Lettering {
    /// `K A B N R C P`, as Fairy-Stockfish and UCCI engines write
    /// (`rnbakabnr/… w - - 0 1`, with the empty castling and en-passant fields).
    Standard,
    /// `K A E H R C P`, as xboard 4.9 writes and sends with `setboard`
    /// (`rheakaehr/… w 0 1`, with no castling or en-passant fields).
    Xboard,
}

/// A piece: a kind and a side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    /// A new piece.
    #[must_use]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The ABI's byte: `role | color << 7`; 0 is reserved for an empty square.
    #[must_use]
    pub const fn code(self) -> u8 {
        self.role as u8 | (self.color as u8) << 7
    }

    /// The piece an ABI byte names; `None` for 0 (empty) and for bytes that name no piece.
    #[must_use]
    pub const fn from_code(code: u8) -> Option<Piece> {
        let color = if code & 0x80 == 0 { Color::Red } else { Color::Black };
        match Role::from_code(code & 0x7f) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }

    /// The FEN letter: upper case for Red, lower case for Black.
    #[must_use]
    pub const fn char(self, lettering: Lettering) -> char {
        let upper = self.role.letter(lettering);
        match self.color {
            Color::Red => upper,
            Color::Black => upper.to_ascii_lowercase(),
        }
    }

    /// The piece a FEN letter names in either lettering.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::Red } else { Color::Black };
        match Role::from_letter(c.to_ascii_uppercase()) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_the_abis() {
        assert_eq!(Piece::new(Color::Red, Role::Soldier).code(), 1);
        assert_eq!(Piece::new(Color::Red, Role::General).code(), 7);
        assert_eq!(Piece::new(Color::Black, Role::Chariot).code(), 0x86);
        assert_eq!(Piece::from_code(0), None);
        assert_eq!(Piece::from_code(8), None);
        assert_eq!(Piece::from_code(0x80), None);
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                assert_eq!(Piece::from_code(piece.code()), Some(piece));
                for lettering in [Lettering::Standard, Lettering::Xboard] {
                    assert_eq!(Piece::from_char(piece.char(lettering)), Some(piece));
                }
            }
        }
    }

    #[test]
    fn letters() {
        assert_eq!(Piece::from_char('h'), Some(Piece::new(Color::Black, Role::Horse)));
        assert_eq!(Piece::from_char('N'), Some(Piece::new(Color::Red, Role::Horse)));
        assert_eq!(Piece::from_char('e'), Some(Piece::new(Color::Black, Role::Elephant)));
        assert_eq!(Piece::from_char('Q'), None);
        assert_eq!(Role::Elephant.letter(Lettering::Xboard), 'E');
        assert_eq!(Role::Horse.letter(Lettering::Standard), 'N');
    }
}
