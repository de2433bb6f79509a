//! A game of xiangqi, by the rules of `plugboard-xiangqi`: where it started,
//! the moves since, and the results the host claims.
//!
//! The host claims only what the board decides: a side with no legal move
//! loses, checkmated or stalemated. Repetitions (perpetual check and chase
//! lose, others draw) are xboard's to adjudicate: it counts six occurrences,
//! and a draw claimed any earlier is a false claim that forfeits the game.

use plugboard_plugin_api::{self as api, BoardPosition};
use plugboard_xiangqi::{Color, Lettering, Move, MoveList, Outcome, Piece, Position, Role, Square};

use super::GameEnd;

#[derive(Debug, Clone)]
pub struct XiangqiGame {
    /// `positions[0]` is the start; `positions[i]` follows `moves[i - 1]`.
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Default for XiangqiGame {
    fn default() -> XiangqiGame {
        XiangqiGame::from_start(Position::start())
    }
}

impl XiangqiGame {
    /// A game from `start`, with no moves yet.
    pub fn from_start(start: Position) -> XiangqiGame {
        XiangqiGame { positions: vec![start], moves: Vec::new() }
    }

    /// A game from a FEN in either lettering (`rnbakabnr/…` or xboard's
    /// `rheakaehr/…`), with or without the castling and en-passant fields.
    pub fn from_fen(fen: &str) -> Result<XiangqiGame, String> {
        Position::from_fen(fen).map(XiangqiGame::from_start).map_err(|error| error.to_string())
    }

    /// The current position with `red` (or Black) to move and no history.
    pub fn with_turn(&self, red: bool) -> Option<XiangqiGame> {
        let position = self.position();
        let turn = if red { Color::Red } else { Color::Black };
        Position::from_squares(&position.squares(), turn, 0, position.fullmoves()).ok().map(XiangqiGame::from_start)
    }

    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a position")
    }

    /// Whether Red, the side that moves first, is to move.
    pub fn red_to_move(&self) -> bool {
        self.position().turn() == Color::Red
    }

    pub fn fullmoves(&self) -> u32 {
        self.position().fullmoves()
    }

    /// The FEN as xboard writes xiangqi (`rheakaehr/… w 0 1`).
    pub fn fen(&self) -> String {
        self.position().fen(Lettering::Xboard)
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = MoveList::new();
        self.position().legal_moves(&mut moves);
        moves.to_vec()
    }

    pub fn is_legal(&self, m: Move) -> bool {
        self.position().is_legal(m)
    }

    /// Whether neither side has a piece that can cross the river to attack:
    /// generals, advisors and elephants alone can never mate.
    pub fn is_insufficient_material(&self) -> bool {
        let attacks = |color| {
            self.position().pieces(color).any(|(_, piece): (Square, Piece)| {
                !matches!(piece.role, Role::General | Role::Advisor | Role::Elephant)
            })
        };
        !attacks(Color::Red) && !attacks(Color::Black)
    }

    pub fn has_soldiers(&self) -> bool {
        Color::ALL.iter().any(|&color| self.position().pieces(color).any(|(_, piece)| piece.role == Role::Soldier))
    }

    /// Whether the pieces stand as in `other`, whoever is to move.
    pub fn same_board(&self, other: &XiangqiGame) -> bool {
        self.position().squares() == other.position().squares()
    }

    /// Reads a move in coordinates, ranks counted from 0 (`h2e2`, `b0c2`).
    pub fn parse_move(&self, text: &str) -> Result<Move, &'static str> {
        let m: Move = text.to_ascii_lowercase().parse().map_err(|_| "not a move")?;
        if self.position().is_legal(m) {
            Ok(m)
        } else if !self.position().has_legal_move() {
            Err("game is over")
        } else {
            Err("not legal in this position")
        }
    }

    pub fn play(&mut self, m: Move) {
        let after = self.position().after(m);
        self.positions.push(after);
        self.moves.push(m);
    }

    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.positions.pop();
        true
    }

    /// The result the board gives: a side with no legal move loses.
    pub fn claim(&self) -> Option<GameEnd> {
        let (winner, reason) = match self.position().outcome()? {
            Outcome::Checkmate { winner: Color::Red } => (Color::Red, "Red mates"),
            Outcome::Checkmate { winner: Color::Black } => (Color::Black, "Black mates"),
            Outcome::Stalemate { winner: Color::Red } => (Color::Red, "Black has no legal move"),
            Outcome::Stalemate { winner: Color::Black } => (Color::Black, "Red has no legal move"),
        };
        Some(GameEnd { result: if winner == Color::Red { "1-0" } else { "0-1" }, reason })
    }

    /// `highlight` for a piece lifted from `square`: its legal destinations on
    /// xboard's 9 × 10 board, captures red, other moves yellow.
    pub fn highlight(&self, square: &str) -> Option<String> {
        let from: Square = square.parse().ok()?;
        let position = self.position();
        let mut marks = [None::<char>; 256];
        for m in self.legal_moves().into_iter().filter(|m| m.from == from) {
            marks[usize::from(m.to.0)] = Some(if position.is_capture(m) { 'R' } else { 'Y' });
        }
        Some(super::highlight_text(Square::FILES, Square::RANKS, |file, rank| {
            marks[usize::from(Square::new(file, rank).0)]
        }))
    }

    pub fn plugin_moves(&self) -> Vec<api::Move> {
        self.moves.iter().map(|&m| m.to_plugin()).collect()
    }

    /// A legal move of the current position from the plugin API's encoding.
    pub fn legal_plugin_move(&self, m: api::Move) -> Option<Move> {
        // Xiangqi has no promotions or drops: a move that names one is no move here.
        let plain = m.promotion == api::Move::NO_PROMOTION && m.reserved == 0;
        let m = Move::from_plugin(m);
        (plain && self.is_legal(m)).then_some(m)
    }

    /// The legal start of a line of plugin moves from the current position.
    pub fn legal_start(&self, line: &[api::Move]) -> Vec<Move> {
        let mut position = self.position().clone();
        let mut legal = Vec::new();
        for &m in line {
            let plain = m.promotion == api::Move::NO_PROMOTION && m.reserved == 0;
            let m = Move::from_plugin(m);
            if !plain || !position.is_legal(m) {
                break;
            }
            let _ = position.play(m);
            legal.push(m);
        }
        legal
    }

    pub fn plugin_root(&self) -> BoardPosition {
        self.position().to_board_position()
    }

    pub fn plugin_start(&self) -> BoardPosition {
        self.positions[0].to_board_position()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(moves: &[&str]) -> XiangqiGame {
        let mut game = XiangqiGame::default();
        for text in moves {
            let m = game.parse_move(text).unwrap();
            game.play(m);
        }
        game
    }

    #[test]
    fn moves_are_coordinates_with_ranks_from_zero() {
        let game = played(&["h2e2", "h9g7"]);
        assert_eq!(game.fen(), "rheakae1r/9/1c4hc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR w 2 2");
        assert_eq!(game.parse_move("b0c2").map(|m| m.to_string()), Ok("b0c2".to_owned()));
        assert_eq!(game.parse_move("b1c3"), Err("not legal in this position"));
        assert_eq!(game.parse_move("b0c10"), Err("not a move"));
        assert_eq!(game.parse_move("e2e4"), Err("not legal in this position"));
    }

    #[test]
    fn mate_and_stalemate_lose_and_nothing_else_is_claimed() {
        let mut mate = XiangqiGame::from_fen("3k5/R8/9/9/9/9/9/9/9/1R2K4 w").unwrap();
        assert_eq!(mate.claim(), None);
        mate.play(mate.parse_move("b0b9").unwrap());
        assert_eq!(mate.claim(), Some(GameEnd { result: "1-0", reason: "Red mates" }));
        let stalemate = XiangqiGame::from_fen("3k5/R8/9/9/9/9/9/9/9/4K3R b").unwrap();
        assert_eq!(stalemate.claim(), Some(GameEnd { result: "1-0", reason: "Black has no legal move" }));
        // Four times the same position: xboard's to judge, not ours.
        let repeated = played(&["b0c2", "b9c7", "c2b0", "c7b9", "b0c2", "b9c7", "c2b0", "c7b9", "b0c2", "b9c7"]);
        assert_eq!(repeated.claim(), None);
    }

    #[test]
    fn a_plugin_move_naming_a_promotion_or_a_drop_is_no_xiangqi_move() {
        let game = XiangqiGame::default();
        let m = api::Move::new(BoardPosition::square(7, 2), BoardPosition::square(4, 2), None);
        assert!(game.legal_plugin_move(m).is_some());
        assert!(game.legal_plugin_move(api::Move { promotion: 4, ..m }).is_none());
        assert!(game.legal_plugin_move(api::Move { reserved: 1, ..m }).is_none());
        let reply = api::Move::new(BoardPosition::square(7, 9), BoardPosition::square(6, 7), None);
        assert_eq!(game.legal_start(&[m, reply]).len(), 2);
        assert_eq!(game.legal_start(&[m, api::Move { reserved: 1, ..reply }]).len(), 1);
    }

    #[test]
    fn a_lifted_piece_shows_where_it_may_go() {
        let game = XiangqiGame::default();
        // The cannon on b2: along its rank and file, and over Black's cannon on b7 onto the horse on b9.
        assert_eq!(game.highlight("b2").unwrap(), "1R7/9/9/1Y7/1Y7/1Y7/1Y7/Y1YYYYY2/1Y7/9");
        assert_eq!(game.highlight("z9"), None);
    }
}
