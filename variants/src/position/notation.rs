//! Moves as CECP writes them on any board: `e2e4`, `a7a8q` (the promotion's
//! letter), `e6e7p` (a pawn in its zone that stays one, as xboard writes it),
//! `P@e5` (a drop), `c7c8+` (a shogi-style promotion; `c7c8=` or no suffix
//! declines it, as xboard sends and reads it),
//! `d12d11`, `e0e1` on ten ranks; castling as the king's move, or `O-O`/`O-O-O`
//! where xboard writes it so (Chess960-style variants); a move of two legs
//! as the documents write it, legs apart by a comma (`d4c3,c3d4`); a pass
//! also as their null move, `@@@@`, or as xboard relays a black one.

use super::{Position, color_of, kind_of};
use crate::moves::{Move, MoveList, Special};
use crate::square::{Square, file_of, read_square, write_square};

impl Position {
    /// `m` as CECP writes it.
    #[must_use]
    pub fn move_text(&self, m: Move) -> String {
        let variant = &self.variant;
        if let Special::Castle { rook } = m.special
            && variant.chess960
        {
            return if file_of(rook) > file_of(m.from) { "O-O" } else { "O-O-O" }.to_string();
        }
        let mut text = String::with_capacity(6);
        if let Some(kind) = m.dropped() {
            text.push(variant.kinds[kind].letter.to_ascii_uppercase());
            text.push('@');
            write_square(&mut text, m.to, variant.ranks);
            return text;
        }
        write_square(&mut text, m.from, variant.ranks);
        if let Some(via) = m.via() {
            write_square(&mut text, via, variant.ranks);
            text.push(',');
            write_square(&mut text, via, variant.ranks);
        }
        write_square(&mut text, m.to, variant.ranks);
        if let Some(kind) = m.promotion_kind() {
            // A shogi-style promotion is `+`; a pawn's names the piece it becomes.
            let letter = if m.is_piece_promotion() { '+' } else { variant.kinds[kind].letter };
            text.push(letter);
        } else if self.defers_promotion(m) {
            // xboard takes a pawn's move into its zone with no letter for a
            // promotion to its default piece; the pawn's own letter keeps it.
            text.push(variant.kinds[kind_of(self.piece_at(m.from))].letter);
        }
        text
    }

    /// `m` as a UCI GUI writes it: as [`Position::move_text`], but a Chess960
    /// castling is the king's move onto its own rook, not `O-O`.
    #[must_use]
    pub fn uci_move_text(&self, m: Move) -> String {
        match m.special {
            Special::Castle { rook } if self.variant.chess960 => {
                let mut text = String::with_capacity(4);
                write_square(&mut text, m.from, self.variant.ranks);
                write_square(&mut text, rook, self.variant.ranks);
                text
            }
            _ => self.move_text(m),
        }
    }

    /// Whether `m` takes a pawn into its promotion zone without promoting,
    /// short of the last rank (grand's pawn on the eighth or ninth rank): xboard
    /// lets no pawn stay one on the last rank, whatever its letter says.
    fn defers_promotion(&self, m: Move) -> bool {
        let code = self.piece_at(m.from);
        let color = color_of(code);
        code != 0
            && self.variant.promotion_pawns[usize::from(color)] >> kind_of(code) & 1 != 0
            && self.variant.promotion_region[usize::from(color)].contains(m.to)
            && self.relative_rank(m.to, color) + 1 < self.variant.ranks
    }

    /// The legal move `text` names; `Err` says why there is none.
    ///
    /// # Errors
    /// `"not a move"` for text that is no move on this board, `"game is over"`
    /// when there are no legal moves, `"not legal in this position"` otherwise.
    pub fn parse_move(&mut self, text: &str) -> Result<Move, &'static str> {
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        let wanted = self.read_move(text)?;
        let mut found = legal.iter().copied().find(|&m| wanted(self, m));
        // A piece that must promote (a shogi pawn to the last rank) may be
        // named without the `+`, as xboard takes it from a user.
        if found.is_none() && text.bytes().last().is_some_and(|b| b.is_ascii_digit()) && !text.contains('@') {
            let promoting = self.read_move(&format!("{text}+"))?;
            found = legal.iter().copied().find(|&m| promoting(self, m));
        }
        match found {
            Some(m) => Ok(m),
            None if legal.is_empty() => Err("game is over"),
            None => Err("not legal in this position"),
        }
    }

    /// A test that picks the move `text` names out of the legal ones.
    #[allow(clippy::type_complexity)]
    fn read_move(&self, text: &str) -> Result<Box<dyn Fn(&Position, Move) -> bool>, &'static str> {
        // The documents' null move: a pass, where the variant has one (the lion's).
        if text == "@@@@" {
            return Ok(Box::new(|position: &Position, m: Move| {
                m.from == m.to && m.via().is_some_and(|via| position.piece_at(via) == 0)
            }));
        }
        let variant = &self.variant;
        let Some((first, second)) = text.split_once(',') else {
            let plain = self.read_one_leg(text)?;
            return Ok(Box::new(move |position: &Position, m: Move| m.via().is_none() && plain(position, m)));
        };
        // The first leg's end is where the second starts; from the first's
        // start to the second's end (and its suffix) is read as one leg.
        let first = first.as_bytes();
        let (_, used) = read_square(first, variant.files, variant.ranks).ok_or("not a move")?;
        let (via, used_via) = read_square(&first[used..], variant.files, variant.ranks).ok_or("not a move")?;
        let (start, used_start) = read_square(second.as_bytes(), variant.files, variant.ranks).ok_or("not a move")?;
        if used + used_via != first.len() {
            return Err("not a move");
        }
        if start != via {
            return self.read_relayed_pass(first, start, via);
        }
        let mut whole = first[..used].to_vec();
        whole.extend_from_slice(&second.as_bytes()[used_start..]);
        let whole = self.read_one_leg(std::str::from_utf8(&whole).map_err(|_| "not a move")?)?;
        // A pass goes out to any empty square and back: the one named stands for all.
        let pass = self.piece_at(via) == 0;
        Ok(Box::new(move |position: &Position, m: Move| {
            (m.via() == Some(via) || (pass && m.from == m.to && m.via().is_some_and(|at| position.piece_at(at) == 0)))
                && whole(position, m)
        }))
    }

    /// xboard 4.9.1 relays a black piece's pass as if it were castling
    /// (`c5c5,c4b5` for `c5c4,c4c5`): the first leg stays where it starts, the
    /// second starts on the empty square gone out to and ends beside it.
    /// Read so, it is that piece's pass; nothing else is written that way.
    #[allow(clippy::type_complexity)]
    fn read_relayed_pass(
        &self,
        first: &[u8],
        out_to: Square,
        first_leg_end: Square,
    ) -> Result<Box<dyn Fn(&Position, Move) -> bool>, &'static str> {
        let (from, _) = read_square(first, self.variant.files, self.variant.ranks).ok_or("not a move")?;
        if from != first_leg_end || self.piece_at(out_to) != 0 || self.piece_at(from) == 0 {
            return Err("not a move");
        }
        Ok(Box::new(move |position: &Position, m: Move| {
            m.from == from && m.to == from && m.via().is_some_and(|at| position.piece_at(at) == 0)
        }))
    }

    /// [`Position::read_move`] for text of one leg, whatever the move's legs.
    #[allow(clippy::type_complexity)]
    fn read_one_leg(&self, text: &str) -> Result<Box<dyn Fn(&Position, Move) -> bool>, &'static str> {
        let castle_side = match text {
            "O-O" | "0-0" => Some(true),
            "O-O-O" | "0-0-0" => Some(false),
            _ => None,
        };
        if let Some(king_side) = castle_side {
            return Ok(Box::new(move |_, m: Move| match m.special {
                Special::Castle { rook } => (file_of(rook) > file_of(m.from)) == king_side,
                _ => false,
            }));
        }
        let variant = &self.variant;
        let bytes = text.as_bytes();
        if let [letter, b'@', square @ ..] = bytes {
            let kind = variant.kind_of_letter(char::from(*letter)).filter(|_| letter.is_ascii_alphabetic());
            let (to, used) = read_square(square, variant.files, variant.ranks).ok_or("not a move")?;
            if kind.is_none() || used != square.len() {
                return Err("not a move");
            }
            return Ok(Box::new(move |_, m: Move| m.dropped() == kind && m.to == to));
        }
        let (from, used) = read_square(bytes, variant.files, variant.ranks).ok_or("not a move")?;
        let (to, used_to) = read_square(&bytes[used..], variant.files, variant.ranks).ok_or("not a move")?;
        let suffix = &text[used + used_to..];
        // `+`: the moving piece's promoted form (shogi); `=` alone: it stays
        // what it is (xboard's deferral in shogi).
        let promotes_shogi_style = suffix == "+";
        let promotion = match suffix.strip_prefix('=').unwrap_or(suffix).as_bytes() {
            [] | [b'+'] => None,
            [letter] => Some(variant.kind_of_letter(char::from(*letter)).ok_or("not a move")?),
            _ => return Err("not a move"),
        };
        Ok(Box::new(move |position: &Position, m: Move| {
            let castle_by_rook = matches!(m.special, Special::Castle { rook } if rook == to);
            // A pawn's own letter, as xboard writes a promotion deferred.
            let stays = m.promotion_kind().is_none()
                && promotion == Some(kind_of(position.piece_at(m.from)))
                && position.defers_promotion(m);
            let promotion_matches = if promotes_shogi_style {
                m.is_piece_promotion()
            } else {
                (m.promotion_kind() == promotion && !m.is_piece_promotion()) || stays
            };
            m.dropped().is_none() && m.from == from && (m.to == to || castle_by_rook) && promotion_matches
        }))
    }

    /// Whether `m` is one of the legal moves.
    pub fn is_legal(&mut self, m: Move) -> bool {
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        legal.contains(&m)
    }

    /// Whether `m`, a legal move, gives check.
    pub fn gives_check(&mut self, m: Move) -> bool {
        let undo = self.play(m);
        let check = self.in_check();
        self.undo(m, undo);
        check
    }
}
