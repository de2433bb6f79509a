//! Moves as CECP writes them on any board: `e2e4`, `a7a8q` (the promotion's
//! letter), `e6e7p` (a pawn in its zone that stays one, as xboard writes it),
//! `d12d11`, `e0e1` on ten ranks; castling as the king's move, or `O-O`/`O-O-O`
//! where xboard writes it so (Chess960-style variants).

use super::{Position, color_of, kind_of};
use crate::moves::{Move, MoveList, Special};
use crate::square::{file_of, read_square, write_square};

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
        write_square(&mut text, m.from, variant.ranks);
        write_square(&mut text, m.to, variant.ranks);
        if let Some(kind) = m.promotion_kind() {
            text.push(variant.kinds[kind].letter);
        } else if self.defers_promotion(m) {
            // xboard takes a pawn's move into its zone with no letter for a
            // promotion to its default piece; the pawn's own letter keeps it.
            text.push(variant.kinds[kind_of(self.piece_at(m.from))].letter);
        }
        text
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
        let found = legal.iter().copied().find(|&m| wanted(self, m));
        match found {
            Some(m) => Ok(m),
            None if legal.is_empty() => Err("game is over"),
            None => Err("not legal in this position"),
        }
    }

    /// A test that picks the move `text` names out of the legal ones.
    #[allow(clippy::type_complexity)]
    fn read_move(&self, text: &str) -> Result<Box<dyn Fn(&Position, Move) -> bool>, &'static str> {
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
        let (from, used) = read_square(bytes, variant.files, variant.ranks).ok_or("not a move")?;
        let (to, used_to) = read_square(&bytes[used..], variant.files, variant.ranks).ok_or("not a move")?;
        let suffix = &text[used + used_to..];
        let promotion = match suffix.strip_prefix('=').unwrap_or(suffix).as_bytes() {
            [] => None,
            [letter] => Some(variant.kind_of_letter(char::from(*letter)).ok_or("not a move")?),
            _ => return Err("not a move"),
        };
        Ok(Box::new(move |position: &Position, m: Move| {
            let castle_by_rook = matches!(m.special, Special::Castle { rook } if rook == to);
            // A pawn's own letter, as xboard writes a promotion deferred.
            let stays = m.promotion_kind().is_none()
                && promotion == Some(kind_of(position.piece_at(m.from)))
                && position.defers_promotion(m);
            m.from == from && (m.to == to || castle_by_rook) && (m.promotion_kind() == promotion || stays)
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
