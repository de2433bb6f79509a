//! Positions and moves as they cross the plugin boundary: a
//! [`BoardPosition`] of [`Variant::XIANGQI`] and the API's [`api::Move`].
//! The host hands searches these, and the bundled search reads them back, so
//! the conversion is written here once.

use plugboard_plugin_api::{self as api, BoardPiece, BoardPosition, Variant};

use crate::{Color, FenError, Move, Position, Square};

impl Position {
    /// The board position a search or an evaluation plugin is handed.
    #[must_use]
    pub fn to_board_position(&self) -> BoardPosition {
        let mut board = BoardPosition::empty(Variant::XIANGQI, Square::FILES, Square::RANKS);
        for color in Color::ALL {
            for (square, piece) in self.pieces(color) {
                board.put(square.0, Some(BoardPiece(piece.code())));
            }
        }
        board.side_to_move = self.turn() as u8;
        board.halfmove_clock = u16::try_from(self.halfmoves()).unwrap_or(u16::MAX);
        board.fullmove_number = self.fullmoves();
        board
    }

    /// The position a board position of xiangqi holds.
    ///
    /// # Errors
    /// When it is not a xiangqi board, or not a position that could arise in a game.
    pub fn from_board_position(board: &BoardPosition) -> Result<Position, String> {
        if board.variant != Variant::XIANGQI || board.files != Square::FILES || board.ranks != Square::RANKS {
            return Err(format!(
                "not a xiangqi board: {} on {}×{}",
                board.variant.cecp_name(),
                board.files,
                board.ranks
            ));
        }
        let turn = if board.side_to_move == 0 { Color::Red } else { Color::Black };
        Position::from_squares(&board.squares, turn, u32::from(board.halfmove_clock), board.fullmove_number)
            .map_err(|error: FenError| error.to_string())
    }
}

impl Move {
    /// The plugin API's encoding: the two points, no promotion.
    #[must_use]
    pub fn to_plugin(self) -> api::Move {
        api::Move::new(self.from.0, self.to.0, None)
    }

    /// A move from the plugin API's encoding (whether it is legal is the position's to say).
    #[must_use]
    pub fn from_plugin(m: api::Move) -> Move {
        Move::new(Square(m.from), Square(m.to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_crosses_the_boundary_and_back_unchanged() {
        let position =
            Position::from_fen("rheakae1r/9/1c4hc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR w 4 3").unwrap();
        let board = position.to_board_position();
        assert!(board.is_consistent());
        assert_eq!(board.squares, position.squares());
        assert_eq!((board.side_to_move, board.halfmove_clock, board.fullmove_number), (0, 4, 3));
        let back = Position::from_board_position(&board).unwrap();
        assert!(back.same_placement(&position));
        assert_eq!(back.fen(crate::Lettering::Xboard), position.fen(crate::Lettering::Xboard));
        let mut chess = board;
        chess.variant = Variant::CHESS;
        assert!(Position::from_board_position(&chess).is_err());
        let m: Move = "h2e2".parse().unwrap();
        assert_eq!(Move::from_plugin(m.to_plugin()), m);
    }
}
