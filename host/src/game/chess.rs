//! Chess and the variants shakmaty knows: where the game started, the moves
//! since, how moves are read and written, and the plugin API's view of it all.

mod claims;

use plugboard_plugin_api as api;
use plugboard_shakmaty::{from_plugin_move, rules_of, to_plugin_move};
use shakmaty::{
    CastlingMode, CastlingSide, Color, EnPassantMode, Move, Position, Square, fen::Fen, san::San, uci::UciMove,
    variant::VariantPosition, zobrist::Zobrist64,
};

#[derive(Debug, Clone)]
pub struct ChessGame {
    variant: api::Variant,
    start: VariantPosition,
    mode: CastlingMode,
    /// `positions[0]` is `start`; `positions[i]` follows `moves[i - 1]`.
    positions: Vec<VariantPosition>,
    moves: Vec<Move>,
    hashes: Vec<u64>,
}

impl Default for ChessGame {
    fn default() -> ChessGame {
        ChessGame::new(api::Variant::CHESS, CastlingMode::Standard)
    }
}

impl ChessGame {
    /// A game of `variant` from its usual start, with castling written as `mode` prescribes.
    pub fn new(variant: api::Variant, mode: CastlingMode) -> ChessGame {
        let rules = rules_of(variant).unwrap_or(shakmaty::variant::Variant::Chess);
        ChessGame::from_position(variant, VariantPosition::new(rules), mode)
    }

    fn from_position(variant: api::Variant, start: VariantPosition, mode: CastlingMode) -> ChessGame {
        let hash = hash_of(&start);
        ChessGame { variant, positions: vec![start.clone()], start, mode, moves: Vec::new(), hashes: vec![hash] }
    }

    /// An orthodox game from a FEN (X-FEN or Shredder-FEN castling for Chess960 starts).
    pub fn from_fen(fen: &str) -> Result<ChessGame, String> {
        ChessGame::from_fen_in(fen, api::Variant::CHESS, CastlingMode::Standard)
    }

    /// A game of `variant` from a FEN (with holdings in brackets or as a ninth rank
    /// for crazyhouse, check counts for three-check). In a Chess960 game castling
    /// is always read and written the Chess960 way, even from a start that looks standard.
    pub fn from_fen_in(fen: &str, variant: api::Variant, mode: CastlingMode) -> Result<ChessGame, String> {
        let rules = rules_of(variant).ok_or("unknown variant")?;
        let parsed: Fen = fen.parse().map_err(|e| format!("{e}"))?;
        // shakmaty says "illegal position: ..."; the core says that already.
        let why = |error: &dyn std::fmt::Display| error.to_string().trim_start_matches("illegal position: ").to_owned();
        let read = |mode: CastlingMode| match VariantPosition::from_setup(rules, parsed.clone().into_setup(), mode) {
            Ok(position) => Ok(position),
            // Suicide has no castling: rights a GUI sends anyway mean nothing.
            Err(error) if rules == shakmaty::variant::Variant::Antichess => {
                error.ignore_invalid_castling_rights().map_err(|e| why(&e))
            }
            // Holdings as a chess server counts them (bughouse) may exceed one set's material.
            Err(error) if rules == shakmaty::variant::Variant::Crazyhouse => {
                error.ignore_too_much_material().map_err(|e| why(&e))
            }
            Err(error) => Err(why(&error)),
        };
        if mode == CastlingMode::Chess960 {
            return Ok(ChessGame::from_position(variant, read(mode)?, mode));
        }
        match read(CastlingMode::Standard) {
            Ok(position) => Ok(ChessGame::from_position(variant, position, CastlingMode::Standard)),
            Err(_) => Ok(ChessGame::from_position(variant, read(CastlingMode::Chess960)?, CastlingMode::Chess960)),
        }
    }

    pub fn variant(&self) -> api::Variant {
        self.variant
    }

    /// The variant's name in the protocol: Chess960 is a way of castling here, `fischerandom` there.
    pub fn cecp_name(&self) -> &'static str {
        if self.variant == api::Variant::CHESS && self.mode == CastlingMode::Chess960 {
            "fischerandom"
        } else {
            self.variant.cecp_name()
        }
    }

    /// The current position with these pockets (CECP `holding`, crazyhouse only);
    /// `white` and `black` are piece letters, as in `holding [PPN] [q]`.
    pub fn set_pockets(&mut self, white: &str, black: &str) -> Result<(), String> {
        if self.variant != api::Variant::CRAZYHOUSE {
            return Err("holdings exist only in crazyhouse".into());
        }
        let fen = self.fen();
        let mut fields: Vec<String> = fen.split(' ').map(str::to_owned).collect();
        let board = fields[0].split('[').next().unwrap_or_default().to_owned();
        // Black's holdings in lower case, as FEN writes them.
        fields[0] = format!("{board}[{}{}]", white.to_ascii_uppercase(), black.to_ascii_lowercase());
        let fen: Fen = fields.join(" ").parse().map_err(|e| format!("{e}"))?;
        let position =
            match VariantPosition::from_setup(shakmaty::variant::Variant::Crazyhouse, fen.into_setup(), self.mode) {
                Ok(position) => position,
                // The server's word on holdings wins over our count of material.
                Err(error) => error.ignore_too_much_material().map_err(|e| format!("{e}"))?,
            };
        let hash = hash_of(&position);
        match (self.positions.last_mut(), self.hashes.last_mut()) {
            (Some(last), Some(last_hash)) if !self.moves.is_empty() => {
                *last = position;
                *last_hash = hash;
            }
            _ => *self = ChessGame::from_position(self.variant, position, self.mode),
        }
        Ok(())
    }

    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    pub fn position(&self) -> &VariantPosition {
        self.positions.last().unwrap_or(&self.start)
    }

    /// The position when the rules are orthodox chess (Chess960 included), for the
    /// opening book and the tablebases.
    pub fn orthodox_position(&self) -> Option<&shakmaty::Chess> {
        match self.position() {
            VariantPosition::Chess(position) => Some(position),
            _ => None,
        }
    }

    pub fn turn(&self) -> Color {
        self.position().turn()
    }

    /// The number of the current full move, from 1; counted on from a FEN's.
    pub fn fullmoves(&self) -> u32 {
        self.position().fullmoves().get()
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        self.position().legal_moves().to_vec()
    }

    pub fn is_legal(&self, m: Move) -> bool {
        self.position().is_legal(m)
    }

    /// How people write `m`, a move of the current position: SAN.
    pub fn notation(&self, m: Move) -> String {
        San::from_move(self.position(), m).to_string()
    }

    /// Whether neither side has the material left to win, so a draw offer is taken.
    pub fn is_insufficient_material(&self) -> bool {
        self.position().is_insufficient_material()
    }

    /// Whether no pawns are left, for judging how drawn an endgame is.
    pub fn is_pawnless(&self) -> bool {
        self.position().board().pawns().is_empty()
    }

    /// Whether the pieces stand as in `other`, whoever is to move.
    pub fn same_board(&self, other: &ChessGame) -> bool {
        self.position().board() == other.position().board()
    }

    /// The current position with `turn` to move and no history: protocol 1's
    /// `white`/`black`. `None` when the rules refuse it.
    pub fn with_turn(&self, turn: Color) -> Option<ChessGame> {
        let fen = self.fen();
        let mut fields: Vec<&str> = fen.split(' ').collect();
        if fields.len() > 3 {
            fields[1] = if turn == Color::White { "w" } else { "b" };
            fields[3] = "-";
        }
        self.same_rules_from_fen(&fields.join(" ")).ok()
    }

    /// A game of this variant from a board set up piece by piece (`edit`), with
    /// castling read as from a FEN.
    pub fn with_edited_board(&self, position: &shakmaty::Chess) -> Result<ChessGame, String> {
        let fen = Fen::from_position(position, EnPassantMode::Legal).to_string();
        ChessGame::from_fen_in(&fen, self.variant, CastlingMode::Standard)
    }

    /// A game under the same rules (variant, castling) from a FEN.
    pub fn same_rules_from_fen(&self, fen: &str) -> Result<ChessGame, String> {
        ChessGame::from_fen_in(fen, self.variant, self.mode)
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
        let mut normalized: String = text.chars().filter(|&c| c != '=').collect::<String>().to_ascii_lowercase();
        if normalized.as_bytes().get(1) == Some(&b'@') {
            // A drop names its piece in capitals: `N@f3`.
            normalized[..1].make_ascii_uppercase();
        }
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

    /// How the GUI should see `m`: see [`move_text`].
    pub fn move_text(&self, m: Move) -> String {
        move_text(self.mode, m)
    }

    /// `m` in UCI's coordinates: a Chess960 castling is the king onto its rook.
    pub fn uci_text(&self, m: Move) -> String {
        UciMove::from_move(m, self.mode).to_string()
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
        Some(super::highlight_text(8, 8, |file, rank| marks[usize::from(rank) * 8 + usize::from(file)]))
    }

    /// `highlight` for the piece lifted from `from` hovering over `to`, in
    /// atomic chess: in red, the squares a capture there empties (the two
    /// pieces and every piece but a pawn beside them). `None` where the move
    /// is no capture, or the variant has no side effects.
    pub fn explosion(&self, from: &str, to: &str) -> Option<String> {
        if self.variant != api::Variant::ATOMIC {
            return None;
        }
        let (from, to): (Square, Square) = (from.parse().ok()?, to.parse().ok()?);
        let position = self.position();
        let capture =
            position.legal_moves().into_iter().find(|m| m.from() == Some(from) && m.to() == to && m.is_capture())?;
        let board = position.board();
        let mut marks = [None::<char>; 64];
        marks[to as usize] = Some('R');
        if let Move::EnPassant { .. } = capture {
            let victim = Square::from_coords(to.file(), from.rank());
            marks[victim as usize] = Some('R');
        }
        for beside in shakmaty::attacks::king_attacks(to) {
            let blown = board.piece_at(beside).is_some_and(|piece| piece.role != shakmaty::Role::Pawn);
            if blown && beside != from {
                marks[beside as usize] = Some('R');
            }
        }
        Some(super::highlight_text(8, 8, |file, rank| marks[usize::from(rank) * 8 + usize::from(file)]))
    }

    /// The plugin API's view of the moves since the start.
    pub fn plugin_moves(&self) -> Vec<api::Move> {
        self.moves.iter().map(|&m| to_plugin_move(m)).collect()
    }

    /// A legal move of the current position from the plugin API's encoding.
    pub fn legal_plugin_move(&self, m: api::Move) -> Option<Move> {
        from_plugin_move(self.position(), m)
    }

    /// The legal start of a line of plugin moves from the current position.
    pub fn legal_start(&self, line: &[api::Move]) -> Vec<Move> {
        let mut game = self.clone();
        let mut moves = Vec::with_capacity(line.len());
        for &m in line {
            let Some(m) = game.legal_plugin_move(m) else { break };
            moves.push(m);
            game.play(m);
        }
        moves
    }

    /// The plugin API's view of the current position.
    pub fn plugin_root(&self) -> api::Position {
        plugboard_shakmaty::to_plugin_position(self.position(), self.variant)
    }

    /// The plugin API's view of where the game started.
    pub fn plugin_start(&self) -> api::Position {
        plugboard_shakmaty::to_plugin_position(&self.start, self.variant)
    }
}

fn hash_of(position: &VariantPosition) -> u64 {
    position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// How the GUI should see `m` in a game castling as `mode`: coordinates, and
/// `O-O`/`O-O-O` in Chess960.
fn move_text(mode: CastlingMode, m: Move) -> String {
    match (mode, m) {
        (CastlingMode::Chess960, Move::Castle { king, rook }) => {
            if rook.file() > king.file() {
                "O-O".into()
            } else {
                "O-O-O".into()
            }
        }
        _ => UciMove::from_move(m, mode).to_string(),
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
        let mut game = ChessGame::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let king_move = game.parse_move("e1g1").unwrap();
        let king_takes_rook = game.parse_move("e1h1").unwrap();
        assert_eq!(king_move, king_takes_rook);
        assert_eq!(game.move_text(king_move), "e1g1");
        game.play(king_move);
        assert_eq!(game.parse_move("O-O-O").map(|m| game.move_text(m)), Ok("e8c8".into()));
    }

    #[test]
    fn san_is_read_too() {
        let game = ChessGame::default();
        assert_eq!(game.parse_move("Nf3").map(|m| game.move_text(m)), Ok("g1f3".into()));
        assert_eq!(game.parse_move("e4").map(|m| game.move_text(m)), Ok("e2e4".into()));
        assert!(game.parse_move("Nf4").is_err());
    }

    #[test]
    fn highlight_marks_destinations() {
        let game = ChessGame::default();
        assert_eq!(game.highlight("g1").as_deref(), Some("8/8/8/8/8/5Y1Y/8/8"));
        assert_eq!(game.highlight("e4").as_deref(), Some("8/8/8/8/8/8/8/8"));
        let game = ChessGame::from_fen("4k3/1P6/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        assert_eq!(game.highlight("b7").as_deref(), Some("1M6/8/8/8/8/8/8/8"));
        assert_eq!(game.highlight("e1").as_deref(), Some("8/8/8/8/8/8/3YYY2/3Y1YY1"));
    }

    #[test]
    fn illegal_moves_are_refused() {
        let game = ChessGame::default();
        assert!(game.parse_move("e2e5").is_err());
        assert!(game.parse_move("e7e5").is_err());
        assert!(game.parse_move("zz").is_err());
    }

    #[test]
    fn plugin_moves_round_trip() {
        let game = ChessGame::from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        for m in game.position().legal_moves() {
            assert_eq!(game.legal_plugin_move(to_plugin_move(m)), Some(m));
        }
    }
}
