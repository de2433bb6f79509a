//! FEN for boards of any size, in the forms xboard sends: ranks top first with
//! empty runs of any length (`10`, `12`), holdings in brackets after the board
//! (`…/RNBQKBNR[NRRQnrrq]`), castling as `KQkq` or Shredder file letters
//! (`EBeb`), and fields left out (xboard's `nocastle` FEN has no castling field).

use std::fmt;
use std::sync::Arc;

use super::{Count, Position, color_of, kind_of, piece_code};
use crate::definition::Variant;
use crate::definition::rules::{Counting, RoyalRule};
use crate::square::{Square, file_of, rank_of, read_square, square, write_square};

/// A FEN that is not a position of the variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FenError {}

fn fail<T>(why: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(why.into()))
}

impl Position {
    /// The position `fen` describes.
    ///
    /// # Errors
    /// With the reason: a board of the wrong size, a letter that is no piece of
    /// the variant, a side to move other than `w` or `b`, a side without its
    /// royal piece, a bad field.
    pub fn from_fen(variant: Arc<Variant>, fen: &str) -> Result<Position, FenError> {
        let mut position = Position::empty(variant.clone());
        let mut fields = fen.split_whitespace().peekable();
        let Some(placement) = fields.next() else { return fail("the FEN is empty") };
        // Sjaak II writes the holdings as a field of their own: `… [Sbgnppp] b 0 62`.
        let separate_holdings;
        let placement = match fields.peek() {
            Some(next) if next.starts_with('[') && !placement.contains('[') => {
                separate_holdings = format!("{placement}{next}");
                fields.next();
                separate_holdings.as_str()
            }
            _ => placement,
        };
        let (board, holdings) = match placement.split_once('[') {
            Some((board, rest)) => match rest.strip_suffix(']') {
                Some(holdings) => (board, Some(holdings)),
                None => return fail("holdings open with [ but do not close with ]"),
            },
            None => (placement, None),
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != usize::from(variant.ranks) {
            return fail(format!("the board has {} ranks; {} has {}", rows.len(), variant.name, variant.ranks));
        }
        for (index, row) in rows.iter().enumerate() {
            let rank = variant.ranks - 1 - index as u8;
            let mut file: u32 = 0;
            let mut run: u32 = 0;
            let mut promoted = false;
            for c in row.chars() {
                if let Some(digit) = c.to_digit(10) {
                    run = run * 10 + digit;
                    if run > 16 {
                        return fail(format!("rank {} has a run of more than 16 empty squares", rank + 1));
                    }
                    continue;
                }
                file += run;
                run = 0;
                if c == '+' && !promoted {
                    promoted = true;
                    continue;
                }
                let Some(mut kind) = variant.kind_of_letter(c).filter(|_| c.is_ascii_alphabetic()) else {
                    return fail(format!("'{c}' is no piece of {}", variant.name));
                };
                if std::mem::take(&mut promoted) {
                    let Some(promoted_kind) = variant.kinds[kind].promotes_to else {
                        return fail(format!("'+{c}': {c} does not promote in {}", variant.name));
                    };
                    kind = promoted_kind;
                }
                if file >= u32::from(variant.files) {
                    return fail(format!("rank {} is longer than {} files", rank + 1, variant.files));
                }
                let color = u8::from(c.is_ascii_lowercase());
                position.put(square(file as u8, rank), piece_code(kind, color));
                file += 1;
            }
            file += run;
            if promoted {
                return fail(format!("rank {} ends with a + and no piece", rank + 1));
            }
            if file != u32::from(variant.files) {
                return fail(format!("rank {} has {file} files; {} has {}", rank + 1, variant.name, variant.files));
            }
        }
        if let Some(holdings) = holdings {
            for c in holdings.chars().filter(|&c| c != '-') {
                let Some(kind) = variant.kind_of_letter(c).filter(|_| c.is_ascii_alphabetic()) else {
                    return fail(format!("'{c}' in the holdings is no piece of {}", variant.name));
                };
                let hand = &mut position.hands[usize::from(c.is_ascii_lowercase())][kind];
                *hand = hand.saturating_add(1);
            }
        }
        position.check.forget();
        position.turn = match fields.next() {
            Some("w") | None => 0,
            Some("b") => 1,
            Some(other) => return fail(format!("'{other}' is not a side to move (w or b)")),
        };
        // Then castling, en passant and the two counters, any of them left out:
        // numbers are the counters, a square is the en-passant square.
        let rest: Vec<&str> = fields.collect();
        let counters: Vec<&str> =
            rest.iter().copied().filter(|word| word.bytes().all(|b| b.is_ascii_digit())).collect();
        let words: Vec<&str> = rest.iter().copied().filter(|word| !word.bytes().all(|b| b.is_ascii_digit())).collect();
        let number = |word: &str| word.parse::<u32>().map_err(|_| FenError(format!("'{word}' is too large a counter")));
        // Fairy-Stockfish writes a running count as its limit and plies in
        // place of the en-passant square and the halfmove counter.
        let counters = if variant.counting != Counting::None && counters.len() >= 3 {
            let small =
                |word: &str| word.parse::<u16>().map_err(|_| FenError(format!("'{word}' is too large a count")));
            position.count = Count { limit: small(counters[0])?, plies: small(counters[1])? };
            &counters[1..]
        } else {
            &counters[..]
        };
        if let Some(half) = counters.first() {
            position.halfmoves = number(half)?;
        }
        if let Some(full) = counters.get(1) {
            position.fullmoves = number(full)?.max(1);
        }
        let (castling, en_passant) = match words.as_slice() {
            [] => ("-", "-"),
            [one] if read_square(one.as_bytes(), variant.files, variant.ranks).is_some() => ("-", *one),
            [one] => (*one, "-"),
            [castling, en_passant, ..] => (*castling, *en_passant),
        };
        position.read_castling_field(castling)?;
        position.read_en_passant_field(en_passant)?;
        for color in [0, 1] {
            let royal = variant.royal_kinds != 0 && variant.royal_rule != RoyalRule::LastOne;
            if royal && position.royal_squares(color).is_empty() {
                return fail(format!("{} has no king", if color == 0 { "White" } else { "Black" }));
            }
        }
        if position.in_check_of(position.turn ^ 1) {
            return fail("the side not to move is in check");
        }
        Ok(position)
    }

    pub(crate) fn read_castling_field(&mut self, field: &str) -> Result<(), FenError> {
        if field == "-" || !self.variant.castling {
            return Ok(());
        }
        let variant = self.variant.clone();
        for c in field.chars() {
            let color = u8::from(c.is_ascii_lowercase());
            let Some(king) = self.castling_king(color) else { continue };
            let rank = rank_of(king);
            let rooks = variant.castling_rook_kinds[usize::from(color)];
            let is_rook = |at: Square| {
                let code = self.piece_at(at);
                code != 0 && color_of(code) == color && rooks >> kind_of(code) & 1 != 0
            };
            let upper = c.to_ascii_uppercase();
            let rook = match upper {
                'K' => (file_of(king) + 1..variant.files).rev().map(|file| square(file, rank)).find(|&at| is_rook(at)),
                'Q' => (0..file_of(king)).map(|file| square(file, rank)).find(|&at| is_rook(at)),
                'A'..='P' => Some(square(upper as u8 - b'A', rank)).filter(|&at| is_rook(at)),
                _ => return fail(format!("'{c}' is not a castling right")),
            };
            // A right with no rook to go with it is dropped, as GUIs do.
            if let Some(rook) = rook {
                let side = usize::from(file_of(rook) < file_of(king));
                self.castling[usize::from(color)][side] = Some(rook);
            }
        }
        Ok(())
    }

    /// The en-passant field: the square passed, or (Fairy-Stockfish's form for
    /// pieces that step diagonally) that square and the piece's, in either order.
    pub(crate) fn read_en_passant_field(&mut self, field: &str) -> Result<(), FenError> {
        if field == "-" {
            return Ok(());
        }
        let variant = self.variant.clone();
        let mut squares = Vec::new();
        let mut rest = field.as_bytes();
        while !rest.is_empty() {
            let Some((at, used)) = read_square(rest, variant.files, variant.ranks) else {
                return fail(format!("'{field}' is not an en-passant square"));
            };
            squares.push(at);
            rest = &rest[used..];
        }
        let enemy_passer = |at: Square| {
            let code = self.piece_at(at);
            code != 0
                && color_of(code) != self.turn
                && variant.en_passant_kinds[usize::from(color_of(code))] >> kind_of(code) & 1 != 0
        };
        let Some(&passed) = squares.iter().find(|&&at| self.piece_at(at) == 0) else { return Ok(()) };
        let back = if self.turn == 0 { -1 } else { 1 };
        // The piece that passed it stands one step beyond, straight or aslant.
        let victim = squares.iter().copied().find(|&at| enemy_passer(at)).or_else(|| {
            [0, -1, 1].into_iter().filter_map(|df| self.offset(passed, df, back, false)).find(|&at| enemy_passer(at))
        });
        if let Some(victim) = victim {
            self.en_passant = Some((passed, victim));
        }
        Ok(())
    }

    /// The position in FEN, as xboard writes it for the variant.
    #[must_use]
    pub fn fen(&self) -> String {
        let variant = &self.variant;
        let mut out = placement(variant, &self.board);
        if variant.has_hands() {
            out.push('[');
            let before = out.len();
            for color in [0u8, 1] {
                for (kind, &count) in self.hands[usize::from(color)].iter().enumerate().take(variant.kinds.len()) {
                    for _ in 0..count {
                        out.push(letter(variant, piece_code(kind, color)));
                    }
                }
            }
            if out.len() == before {
                out.push('-');
            }
            out.push(']');
        }
        out.push_str(if self.turn == 0 { " w " } else { " b " });
        let rights = self.castling_field();
        out.push_str(if rights.is_empty() { "-" } else { &rights });
        out.push(' ');
        match self.en_passant {
            Some((passed, _)) => write_square(&mut out, passed, variant.ranks),
            None if self.count.limit != 0 => out.push_str(&format!("{} {}", self.count.limit, self.count.plies)),
            None => out.push('-'),
        }
        if self.count.limit == 0 || self.en_passant.is_some() {
            out.push_str(&format!(" {}", self.halfmoves));
        }
        out.push_str(&format!(" {}", self.fullmoves));
        out
    }

    /// `KQkq` where each rook is the outermost on its side, file letters otherwise.
    fn castling_field(&self) -> String {
        let mut field = String::new();
        for color in [0u8, 1] {
            let Some(king) = self.castling_king(color) else { continue };
            for (side, rook) in self.castling[usize::from(color)].into_iter().enumerate() {
                let Some(rook) = rook else { continue };
                let outermost = if side == 0 {
                    (file_of(rook) + 1..self.variant.files).all(|file| {
                        let code = self.piece_at(square(file, rank_of(king)));
                        code == 0 || code != self.piece_at(rook)
                    })
                } else {
                    (0..file_of(rook)).all(|file| {
                        let code = self.piece_at(square(file, rank_of(king)));
                        code == 0 || code != self.piece_at(rook)
                    })
                };
                let c = match (outermost && !self.variant.chess960, side) {
                    (true, 0) => 'K',
                    (true, _) => 'Q',
                    (false, _) => char::from(b'A' + file_of(rook)),
                };
                field.push(if color == 0 { c } else { c.to_ascii_lowercase() });
            }
        }
        field
    }
}

/// The board part of a FEN: ranks from the top, empty runs counted, for
/// `squares` (piece codes by square) of a board of `variant`.
#[must_use]
pub fn placement(variant: &Variant, squares: &[u8; 256]) -> String {
    let mut out = String::new();
    for rank in (0..variant.ranks).rev() {
        let mut run = 0;
        for file in 0..variant.files {
            let code = squares[usize::from(square(file, rank))];
            if code == 0 {
                run += 1;
                continue;
            }
            if run > 0 {
                out.push_str(&run.to_string());
                run = 0;
            }
            if variant.kinds[kind_of(code)].promoted_from.is_some() {
                out.push('+');
            }
            out.push(letter(variant, code));
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// The FEN letter of a piece code: uppercase for the first player.
#[must_use]
pub fn letter(variant: &Variant, code: u8) -> char {
    let letter = variant.kinds[kind_of(code)].letter;
    if color_of(code) == 0 { letter.to_ascii_uppercase() } else { letter }
}
