//! The game: where it started, the moves since, result claims, and the
//! translation between shakmaty's types and the plugin API's plain data.

use plugboard_plugin_api as api;
use shakmaty::{
    CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Move, Position, Role, Square, fen::Fen, san::San,
    uci::UciMove, zobrist::Zobrist64,
};

/// A finished game as the engine claims it: `RESULT {REASON}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameEnd {
    pub result: &'static str,
    pub reason: &'static str,
}

#[derive(Debug, Clone)]
pub struct Game {
    start: Chess,
    mode: CastlingMode,
    /// `positions[0]` is `start`; `positions[i]` follows `moves[i - 1]`.
    positions: Vec<Chess>,
    moves: Vec<Move>,
    hashes: Vec<u64>,
}

impl Default for Game {
    fn default() -> Game {
        Game::from_position(Chess::default(), CastlingMode::Standard)
    }
}

impl Game {
    /// A game starting from `start`, with castling written as `mode` prescribes.
    pub fn from_position(start: Chess, mode: CastlingMode) -> Game {
        let hash = hash_of(&start);
        Game { positions: vec![start.clone()], start, mode, moves: Vec::new(), hashes: vec![hash] }
    }

    /// A game from a FEN (X-FEN or Shredder-FEN castling for Chess960 starts).
    pub fn from_fen(fen: &str) -> Result<Game, String> {
        Game::from_fen_in(fen, CastlingMode::Standard)
    }

    /// As [`Game::from_fen`]; in a Chess960 game castling is always read and written
    /// the Chess960 way, even from a start that looks standard.
    pub fn from_fen_in(fen: &str, mode: CastlingMode) -> Result<Game, String> {
        let parsed: Fen = fen.parse().map_err(|e| format!("{e}"))?;
        if mode == CastlingMode::Chess960 {
            let position = parsed.into_position::<Chess>(mode).map_err(|e| format!("{e}"))?;
            return Ok(Game::from_position(position, mode));
        }
        let standard = parsed.clone().into_position::<Chess>(CastlingMode::Standard);
        let (position, mode) = match standard {
            Ok(position) => (position, CastlingMode::Standard),
            Err(_) => (
                parsed.into_position::<Chess>(CastlingMode::Chess960).map_err(|e| format!("{e}"))?,
                CastlingMode::Chess960,
            ),
        };
        Ok(Game::from_position(position, mode))
    }

    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    pub fn position(&self) -> &Chess {
        self.positions.last().unwrap_or(&self.start)
    }

    pub fn start(&self) -> &Chess {
        &self.start
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn turn(&self) -> Color {
        self.position().turn()
    }

    pub fn fen(&self) -> String {
        Fen::from_position(self.position(), EnPassantMode::Legal).to_string()
    }

    /// Reads a move in coordinate notation (`e2e4`, `e7e8q`, `e1g1` or king-takes-rook
    /// castling) or `O-O`/`O-O-O`; `Err` is the reason it is illegal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, &'static str> {
        let position = self.position();
        let castling = match text {
            "O-O" | "o-o" | "0-0" => Some(CastlingSide::KingSide),
            "O-O-O" | "o-o-o" | "0-0-0" => Some(CastlingSide::QueenSide),
            _ => None,
        };
        if let Some(side) = castling {
            return position.castling_moves(side).first().copied().ok_or("castling not allowed");
        }
        let normalized: String = text.chars().filter(|&c| c != '=').collect::<String>().to_ascii_lowercase();
        let Ok(uci) = normalized.parse::<UciMove>() else {
            // Not coordinates: SAN, which GUIs send after `san=1` and people type anyway.
            let san: San = text.parse().map_err(|_| "not a move")?;
            return san.to_move(position).map_err(|_| "not legal in this position");
        };
        if let Ok(m) = uci.to_move(position) {
            return Ok(m);
        }
        // GUIs write Chess960 castling either way; accept king-takes-rook in standard games too.
        if let UciMove::Normal { from, to, promotion: None } = uci
            && let Some(m) = position
                .legal_moves()
                .into_iter()
                .find(|m| matches!(m, Move::Castle { king, rook } if *king == from && *rook == to))
        {
            return Ok(m);
        }
        if position.is_game_over() { Err("game is over") } else { Err("not legal in this position") }
    }

    pub fn play(&mut self, m: Move) {
        let mut next = self.position().clone();
        next.play_unchecked(m);
        self.hashes.push(hash_of(&next));
        self.positions.push(next);
        self.moves.push(m);
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.positions.pop();
        self.hashes.pop();
        true
    }

    /// How the GUI should see `m`: coordinates, and `O-O`/`O-O-O` in Chess960.
    pub fn move_text(&self, m: Move) -> String {
        match (self.mode, m) {
            (CastlingMode::Chess960, Move::Castle { king, rook }) => {
                if rook.file() > king.file() {
                    "O-O".into()
                } else {
                    "O-O-O".into()
                }
            }
            _ => UciMove::from_move(m, self.mode).to_string(),
        }
    }

    /// Whether playing `m` makes a draw claimable (threefold repetition or fifty
    /// moves) without ending the game by itself: such a draw is claimed with
    /// `offer draw` before the move.
    pub fn claimable_after(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.play(m);
        matches!(after.claim(), Some(GameEnd { reason: "Draw by repetition" | "50 move rule", .. }))
    }

    /// `highlight` for a piece lifted from `square`: its legal destinations in
    /// capitals (yellow; red for captures, magenta for promotions), the rest empty.
    pub fn highlight(&self, square: &str) -> Option<String> {
        let from: Square = square.parse().ok()?;
        let position = self.position();
        let mut marks = [None::<char>; 64];
        for m in position.legal_moves().iter().filter(|m| m.from() == Some(from)) {
            let to = match *m {
                Move::Castle { king, rook } => {
                    let side = if rook.file() > king.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide };
                    side.king_to(position.turn())
                }
                other => other.to(),
            };
            let mark = if m.is_promotion() {
                'M'
            } else if m.is_capture() {
                'R'
            } else {
                'Y'
            };
            marks[to as usize] = Some(mark);
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0u8;
            for file in 0..8 {
                match marks[rank * 8 + file] {
                    Some(mark) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(mark);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        Some(fen)
    }

    /// The result the rules give the current position, if the game is over.
    pub fn claim(&self) -> Option<GameEnd> {
        let position = self.position();
        if position.is_checkmate() {
            return Some(match position.turn() {
                Color::White => GameEnd { result: "0-1", reason: "Black mates" },
                Color::Black => GameEnd { result: "1-0", reason: "White mates" },
            });
        }
        if position.is_stalemate() {
            return Some(GameEnd { result: "1/2-1/2", reason: "Stalemate" });
        }
        if position.is_insufficient_material() {
            return Some(GameEnd { result: "1/2-1/2", reason: "Insufficient material" });
        }
        if position.halfmoves() >= 100 {
            return Some(GameEnd { result: "1/2-1/2", reason: "50 move rule" });
        }
        if self.repetitions() >= 3 {
            return Some(GameEnd { result: "1/2-1/2", reason: "Draw by repetition" });
        }
        None
    }

    /// How often the current position has occurred, itself included.
    fn repetitions(&self) -> usize {
        let Some(&current) = self.hashes.last() else { return 0 };
        let reversible = self.position().halfmoves() as usize;
        self.hashes.iter().rev().take(reversible + 1).filter(|&&h| h == current).count()
    }

    /// The plugin API's view of the moves since the start.
    pub fn plugin_moves(&self) -> Vec<api::Move> {
        self.moves.iter().map(|&m| to_plugin_move(m)).collect()
    }

    /// A legal move of the current position from the plugin API's encoding.
    pub fn from_plugin_move(&self, m: api::Move) -> Option<Move> {
        let position = self.position();
        let promotion = m.promotion().map(role_of);
        position.legal_moves().into_iter().find(|candidate| {
            let from = candidate.from().map(|s| s as u8);
            from == Some(m.from) && candidate.to() as u8 == m.to && candidate.promotion() == promotion
        })
    }
}

fn hash_of(position: &Chess) -> u64 {
    position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

fn role_of(kind: api::PieceKind) -> Role {
    match kind {
        api::PieceKind::Pawn => Role::Pawn,
        api::PieceKind::Knight => Role::Knight,
        api::PieceKind::Bishop => Role::Bishop,
        api::PieceKind::Rook => Role::Rook,
        api::PieceKind::Queen => Role::Queen,
        api::PieceKind::King => Role::King,
    }
}

fn kind_of(role: Role) -> api::PieceKind {
    match role {
        Role::Pawn => api::PieceKind::Pawn,
        Role::Knight => api::PieceKind::Knight,
        Role::Bishop => api::PieceKind::Bishop,
        Role::Rook => api::PieceKind::Rook,
        Role::Queen => api::PieceKind::Queen,
        Role::King => api::PieceKind::King,
    }
}

/// Castling becomes king-onto-rook, as the plugin API writes it.
pub fn to_plugin_move(m: Move) -> api::Move {
    let from = m.from().map_or(api::Position::NO_SQUARE, |s| s as u8);
    api::Move::new(from, m.to() as u8, m.promotion().map(kind_of))
}

pub fn to_plugin_position(position: &Chess) -> api::Position {
    let board = position.board();
    let mut pieces = [0u64; 6];
    for (index, role) in Role::ALL.iter().enumerate() {
        pieces[index] = board.by_role(*role).0;
    }
    // shakmaty keeps the en-passant square only while a capture is possible; plugins
    // are told it after every double push so their hashes match Polyglot's.
    let en_passant = position.ep_square(EnPassantMode::Always).map_or(api::Position::NO_SQUARE, |s| s as u8);
    api::Position {
        colors: [board.by_color(Color::White).0, board.by_color(Color::Black).0],
        pieces,
        castling_rooks: position.castles().castling_rights().0,
        side_to_move: if position.turn() == Color::White { 0 } else { 1 },
        en_passant,
        halfmove_clock: position.halfmoves().min(u32::from(u16::MAX)) as u16,
        fullmove_number: position.fullmoves().get(),
        reserved: [0; 2],
    }
}

/// The square name for diagnostics.
pub fn square_name(square: u8) -> String {
    Square::try_from(u32::from(square)).map_or_else(|_| "-".into(), |s| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_in_both_spellings() {
        let mut game = Game::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let king_move = game.parse_move("e1g1").unwrap();
        let king_takes_rook = game.parse_move("e1h1").unwrap();
        assert_eq!(king_move, king_takes_rook);
        assert_eq!(game.move_text(king_move), "e1g1");
        game.play(king_move);
        assert_eq!(game.parse_move("O-O-O").map(|m| game.move_text(m)), Ok("e8c8".into()));
    }

    #[test]
    fn san_is_read_too() {
        let game = Game::default();
        assert_eq!(game.parse_move("Nf3").map(|m| game.move_text(m)), Ok("g1f3".into()));
        assert_eq!(game.parse_move("e4").map(|m| game.move_text(m)), Ok("e2e4".into()));
        assert!(game.parse_move("Nf4").is_err());
    }

    #[test]
    fn highlight_marks_destinations() {
        let game = Game::default();
        assert_eq!(game.highlight("g1").as_deref(), Some("8/8/8/8/8/5Y1Y/8/8"));
        assert_eq!(game.highlight("e4").as_deref(), Some("8/8/8/8/8/8/8/8"));
        let game = Game::from_fen("4k3/1P6/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        assert_eq!(game.highlight("b7").as_deref(), Some("1M6/8/8/8/8/8/8/8"));
        assert_eq!(game.highlight("e1").as_deref(), Some("8/8/8/8/8/8/3YYY2/3Y1YY1"));
    }

    #[test]
    fn illegal_moves_are_refused() {
        let game = Game::default();
        assert!(game.parse_move("e2e5").is_err());
        assert!(game.parse_move("e7e5").is_err());
        assert!(game.parse_move("zz").is_err());
    }

    #[test]
    fn claims_mate_and_repetition() {
        let mut game = Game::default();
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let m = game.parse_move(m).unwrap();
            game.play(m);
        }
        assert_eq!(game.claim(), Some(GameEnd { result: "0-1", reason: "Black mates" }));

        let mut game = Game::default();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
            let m = game.parse_move(m).unwrap();
            game.play(m);
            assert_eq!(game.claim(), None);
        }
        let m = game.parse_move("f6g8").unwrap();
        game.play(m);
        assert_eq!(game.claim().map(|e| e.reason), Some("Draw by repetition"));
    }

    #[test]
    fn plugin_moves_round_trip() {
        let game = Game::from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        for m in game.position().legal_moves() {
            assert_eq!(game.from_plugin_move(to_plugin_move(m)), Some(m));
        }
    }
}
