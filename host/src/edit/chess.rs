//! `edit` on a chess board.
//!
//! Castling and en passant cannot be stated in `edit`; as the protocol says, a
//! king and rook standing on their starting squares are taken to be unmoved, and
//! no en-passant capture is possible.

use shakmaty::{Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Piece, Role, Setup, Square};

use super::EditStep;

/// A chess position being set up.
#[derive(Debug, Clone)]
pub struct ChessEdit {
    board: Board,
    /// The colour of the pieces the next lines place.
    placing: Color,
    /// The side to move stays what it was when `edit` began (the black-to-move kludge).
    turn: Color,
}

impl ChessEdit {
    pub fn start(board: Board, turn: Color) -> ChessEdit {
        ChessEdit { board, placing: Color::White, turn }
    }

    pub fn line(&mut self, line: &str) -> EditStep<Chess> {
        match line.trim() {
            "." => EditStep::Done(self.finish()),
            "#" => {
                self.board = Board::empty();
                EditStep::Continue
            }
            "c" | "C" => {
                self.placing = !self.placing;
                EditStep::Continue
            }
            text => self.place(text),
        }
    }

    fn place(&mut self, text: &str) -> EditStep<Chess> {
        let mut chars = text.chars();
        let (Some(letter), Ok(square)) = (chars.next(), chars.as_str().parse::<Square>()) else {
            return EditStep::Refused("expected a piece letter and a square, like Pe4 or xe4");
        };
        if letter == 'x' || letter == 'X' {
            self.board.discard_piece_at(square);
            return EditStep::Continue;
        }
        match Role::from_char(letter.to_ascii_lowercase()) {
            Some(role) => {
                self.board.set_piece_at(square, Piece { color: self.placing, role });
                EditStep::Continue
            }
            None => EditStep::Refused("unknown piece letter"),
        }
    }

    fn finish(&self) -> Result<Chess, String> {
        let setup = Setup {
            board: self.board.clone(),
            turn: self.turn,
            castling_rights: self.unmoved_rooks(),
            ..Setup::empty()
        };
        // shakmaty says "illegal position: ..."; the core says that already.
        Chess::from_setup(setup, CastlingMode::Standard)
            .map_err(|e| e.to_string().trim_start_matches("illegal position: ").to_owned())
    }

    /// Rooks in their corners beside a king on its own square.
    fn unmoved_rooks(&self) -> Bitboard {
        let mut rooks = Bitboard::EMPTY;
        for (color, king, corners) in
            [(Color::White, Square::E1, [Square::A1, Square::H1]), (Color::Black, Square::E8, [Square::A8, Square::H8])]
        {
            if self.board.piece_at(king) != Some(Piece { color, role: Role::King }) {
                continue;
            }
            for corner in corners {
                if self.board.piece_at(corner) == Some(Piece { color, role: Role::Rook }) {
                    rooks.add(corner);
                }
            }
        }
        rooks
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{EnPassantMode, Position, fen::Fen};

    use super::*;

    fn run(edit: &mut ChessEdit, lines: &[&str]) -> Result<Chess, String> {
        for line in lines {
            if let EditStep::Done(result) = edit.line(line) {
                return result;
            }
        }
        panic!("edit did not finish");
    }

    #[test]
    fn builds_a_position_with_assumed_castling_rights() {
        let mut edit = ChessEdit::start(Board::default(), Color::White);
        let position = run(&mut edit, &["#", "Ke1", "Rh1", "Pa2", "c", "ke8", "ra8", "Rh8", "xh8", "."]).unwrap();
        assert_eq!(
            Fen::from_position(&position, EnPassantMode::Legal).to_string(),
            "r3k3/8/8/8/8/8/P7/4K2R w Kq - 0 1"
        );
    }

    #[test]
    fn keeps_the_side_to_move_and_refuses_nonsense() {
        let mut edit = ChessEdit::start(Board::default(), Color::Black);
        assert_eq!(edit.line("Zz9"), EditStep::Refused("expected a piece letter and a square, like Pe4 or xe4"));
        assert_eq!(edit.line("Qe9"), EditStep::Refused("expected a piece letter and a square, like Pe4 or xe4"));
        let position = run(&mut edit, &["."]).unwrap();
        assert_eq!(position.turn(), Color::Black);
    }

    #[test]
    fn an_impossible_position_is_an_error() {
        let mut edit = ChessEdit::start(Board::default(), Color::White);
        assert!(run(&mut edit, &["#", "Ke1", "."]).is_err());
    }
}
