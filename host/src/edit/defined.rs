//! `edit` on the board of a variant defined as data: the variant's own piece
//! letters on its squares (files a…, ranks as CECP numbers them; `Pe5+` for a
//! piece in its promoted form, as the documents write it), castling
//! rights where kings and rooks stand ready, as protocol 1's chess `edit` does.

use std::sync::Arc;

use plugboard_variants::{Position, Variant, piece_code, square::read_square};

use super::EditStep;

/// A position of a defined variant being set up.
#[derive(Debug, Clone)]
pub struct DefinedEdit {
    variant: Arc<Variant>,
    squares: [u8; 256],
    /// The colour of the pieces the next lines place: 0 White.
    placing: u8,
    /// The side to move stays what it was when `edit` began.
    turn: u8,
}

impl DefinedEdit {
    pub fn start(position: &Position) -> DefinedEdit {
        DefinedEdit {
            variant: position.variant().clone(),
            squares: *position.squares(),
            placing: 0,
            turn: position.turn(),
        }
    }

    pub fn line(&mut self, line: &str) -> EditStep<Position> {
        match line.trim() {
            "." => EditStep::Done(self.position()),
            "#" => {
                self.squares = [0; 256];
                EditStep::Continue
            }
            "c" | "C" => {
                self.placing ^= 1;
                EditStep::Continue
            }
            text => self.place(text),
        }
    }

    fn place(&mut self, text: &str) -> EditStep<Position> {
        // `P<sqr>+`: the piece in its promoted form (shogi's `+P`).
        let (text, promoted) = match text.strip_suffix('+') {
            Some(piece_and_square) => (piece_and_square, true),
            None => (text, false),
        };
        let mut chars = text.chars();
        let Some(letter) = chars.next() else { return EditStep::Refused("expected a piece letter and a square") };
        let rest = chars.as_str().as_bytes();
        let square = read_square(rest, self.variant.files, self.variant.ranks).filter(|&(_, used)| used == rest.len());
        let Some((square, _)) = square else {
            return EditStep::Refused("expected a piece letter and a square of this board, like Ne4 or xe4");
        };
        if letter == 'x' || letter == 'X' {
            self.squares[usize::from(square)] = 0;
            return EditStep::Continue;
        }
        let kind = self.variant.kind_of_letter(letter).filter(|_| letter.is_ascii_alphabetic());
        let kind = match (kind, promoted) {
            (Some(kind), true) => match self.variant.kinds[kind].promotes_to {
                Some(promoted_kind) => Some(promoted_kind),
                None => return EditStep::Refused("that piece has no promoted form in this variant"),
            },
            (kind, _) => kind,
        };
        match kind {
            Some(kind) => {
                self.squares[usize::from(square)] = piece_code(kind, self.placing);
                EditStep::Continue
            }
            None => EditStep::Refused("no piece of this variant has that letter"),
        }
    }

    /// The position set up, by way of its FEN, so the same checks apply.
    fn position(&self) -> Result<Position, String> {
        let variant = &self.variant;
        let mut fen = plugboard_variants::placement(variant, &self.squares);
        // Rights for every king and rook that stand where castling starts.
        fen.push_str(if self.turn == 0 { " w KQkq - 0 1" } else { " b KQkq - 0 1" });
        Position::from_fen(variant.clone(), &fen).map_err(|error| error.to_string())
    }
}
