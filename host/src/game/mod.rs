//! The game: its rules, where it started, the moves since, and result claims.
//! [`Game`] is what the rest of the host sees, the same for every rule set;
//! each rule set keeps its own positions and moves (`chess.rs`: shakmaty's).
//! What only chess has (pockets, the book's and tablebases' positions, Chess960
//! castling, `edit`'s board) comes as an `Option`, `None` under other rules.

mod chess;
pub mod defined;
mod moves;
mod xiangqi;

use plugboard_plugin_api as api;
use shakmaty::{CastlingMode, Color, Position, variant::VariantPosition};

use self::{chess::ChessGame, defined::DefinedGame, xiangqi::XiangqiGame};
pub use self::{chess::square_name, moves::GameMove};

/// A finished game as the engine claims it: `RESULT {REASON}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameEnd {
    pub result: &'static str,
    pub reason: &'static str,
}

#[derive(Debug, Clone, Default)]
pub struct Game {
    rules: Rules,
}

/// A second rule set is a second arm: every method of [`Game`] matches on it,
/// so the compiler lists what the new rules must answer.
#[derive(Debug, Clone)]
enum Rules {
    Chess(ChessGame),
    Xiangqi(XiangqiGame),
    Defined(DefinedGame),
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::Chess(ChessGame::default())
    }
}

impl From<ChessGame> for Game {
    fn from(game: ChessGame) -> Game {
        Game { rules: Rules::Chess(game) }
    }
}

impl From<XiangqiGame> for Game {
    fn from(game: XiangqiGame) -> Game {
        Game { rules: Rules::Xiangqi(game) }
    }
}

impl From<DefinedGame> for Game {
    fn from(game: DefinedGame) -> Game {
        Game { rules: Rules::Defined(game) }
    }
}

/// A position set up piece by piece (`edit`), under the rules of the game edited.
// Made once per `edit`: the size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditedPosition {
    Chess(shakmaty::Chess),
    Xiangqi(plugboard_xiangqi::Position),
    Defined(plugboard_variants::Position),
}

/// A position as the plugin API hands it to a search: an 8×8 [`api::Position`]
/// for chess and its variants, a [`api::BoardPosition`] for other boards.
// Copied a few times per search, never per node: plain data beats a box here.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PluginPosition {
    Chess(api::Position),
    Board(api::BoardPosition),
}

impl PluginPosition {
    /// The 8×8 position, for what only chess has (the tablebases, `bench`).
    pub fn chess(self) -> Option<api::Position> {
        match self {
            PluginPosition::Chess(position) => Some(position),
            PluginPosition::Board(_) => None,
        }
    }
}

impl Game {
    /// A game of `variant` from its usual start, with castling written as `mode` prescribes.
    pub fn new(variant: api::Variant, mode: CastlingMode) -> Game {
        ChessGame::new(variant, mode).into()
    }

    /// An orthodox game from a FEN (X-FEN or Shredder-FEN castling for Chess960 starts).
    pub fn from_fen(fen: &str) -> Result<Game, String> {
        ChessGame::from_fen(fen).map(Game::from)
    }

    /// A game of `variant` from a FEN (with holdings in brackets or as a ninth rank
    /// for crazyhouse, check counts for three-check). In a Chess960 game castling
    /// is always read and written the Chess960 way, even from a start that looks standard.
    pub fn from_fen_in(fen: &str, variant: api::Variant, mode: CastlingMode) -> Result<Game, String> {
        ChessGame::from_fen_in(fen, variant, mode).map(Game::from)
    }

    /// A game under the same rules (variant, castling) from a FEN.
    pub fn same_rules_from_fen(&self, fen: &str) -> Result<Game, String> {
        match &self.rules {
            Rules::Chess(game) => game.same_rules_from_fen(fen).map(Game::from),
            Rules::Xiangqi(_) => XiangqiGame::from_fen(fen).map(Game::from),
            Rules::Defined(game) => game.from_fen(fen).map(Game::from),
        }
    }

    /// A game under these rules from a board `edit` set up: chess pieces only.
    pub fn with_edited(&self, edited: &EditedPosition) -> Result<Game, String> {
        match (&self.rules, edited) {
            (Rules::Chess(game), EditedPosition::Chess(position)) => game.with_edited_board(position).map(Game::from),
            (Rules::Xiangqi(_), EditedPosition::Xiangqi(position)) => {
                Ok(XiangqiGame::from_start(position.clone()).into())
            }
            (Rules::Defined(game), EditedPosition::Defined(position))
                if std::sync::Arc::ptr_eq(game.variant(), position.variant()) =>
            {
                Ok(DefinedGame::from_start(position.clone()).into())
            }
            _ => Err("the board set up is not this game's".into()),
        }
    }

    /// The xiangqi position, for `edit`.
    pub fn xiangqi_position(&self) -> Option<&plugboard_xiangqi::Position> {
        match &self.rules {
            Rules::Xiangqi(game) => Some(game.position()),
            Rules::Chess(_) | Rules::Defined(_) => None,
        }
    }

    /// The position of a variant defined as data, for `edit`.
    pub fn defined_position(&self) -> Option<&plugboard_variants::Position> {
        match &self.rules {
            Rules::Defined(game) => Some(game.position()),
            Rules::Chess(_) | Rules::Xiangqi(_) => None,
        }
    }

    /// The definition of a variant defined as data, which a search of it needs.
    pub fn definition(&self) -> Option<&std::sync::Arc<plugboard_variants::Variant>> {
        match &self.rules {
            Rules::Defined(game) => Some(game.variant()),
            Rules::Chess(_) | Rules::Xiangqi(_) => None,
        }
    }

    /// The current position with `turn` to move and no history: protocol 1's
    /// `white`/`black`. `None` when the rules refuse it.
    pub fn with_turn(&self, turn: Color) -> Option<Game> {
        match &self.rules {
            Rules::Chess(game) => game.with_turn(turn).map(Game::from),
            Rules::Xiangqi(game) => game.with_turn(turn == Color::White).map(Game::from),
            Rules::Defined(game) => game.with_turn(turn == Color::White).map(Game::from),
        }
    }

    pub fn variant(&self) -> api::Variant {
        match &self.rules {
            Rules::Chess(game) => game.variant(),
            Rules::Xiangqi(_) => api::Variant::XIANGQI,
            Rules::Defined(_) => api::Variant::DEFINED,
        }
    }

    /// The name plugins list for these rules: the CECP name, or `defined` for
    /// every variant defined as data.
    pub fn plugin_variant(&self) -> &str {
        match &self.rules {
            Rules::Defined(_) => api::Variant::DEFINED.cecp_name(),
            Rules::Chess(_) | Rules::Xiangqi(_) => self.cecp_name(),
        }
    }

    /// The most legs a move of the variant has: 2 where a piece moves as the lion.
    pub fn move_legs(&self) -> u32 {
        match &self.rules {
            Rules::Defined(game) if game.variant().kinds.iter().any(|kind| !kind.legs.is_empty()) => 2,
            _ => 1,
        }
    }

    /// The variant's name in the protocol.
    pub fn cecp_name(&self) -> &str {
        match &self.rules {
            Rules::Chess(game) => game.cecp_name(),
            Rules::Xiangqi(_) => api::Variant::XIANGQI.cecp_name(),
            Rules::Defined(game) => &game.variant().name,
        }
    }

    /// The current position with these pockets (CECP `holding`, crazyhouse only);
    /// `white` and `black` are piece letters, as in `holding [PPN] [q]`.
    pub fn set_pockets(&mut self, white: &str, black: &str) -> Result<(), String> {
        match &mut self.rules {
            Rules::Chess(game) => game.set_pockets(white, black),
            Rules::Xiangqi(_) | Rules::Defined(_) => Err("holdings exist only in crazyhouse".into()),
        }
    }

    /// How castling is written; `None` for rules without castling.
    pub fn castling_mode(&self) -> Option<CastlingMode> {
        match &self.rules {
            Rules::Chess(game) => Some(game.castling_mode()),
            Rules::Xiangqi(_) | Rules::Defined(_) => None,
        }
    }

    /// The shakmaty position, for what only chess has (bughouse drops).
    pub fn chess_position(&self) -> Option<&VariantPosition> {
        match &self.rules {
            Rules::Chess(game) => Some(game.position()),
            Rules::Xiangqi(_) | Rules::Defined(_) => None,
        }
    }

    /// The position when the rules are orthodox chess (Chess960 included), for the
    /// opening book and the tablebases.
    pub fn orthodox_position(&self) -> Option<&shakmaty::Chess> {
        match &self.rules {
            Rules::Chess(game) => game.orthodox_position(),
            Rules::Xiangqi(_) | Rules::Defined(_) => None,
        }
    }

    /// The board for protocol 1's `edit`, which sets up chess pieces only.
    pub fn chess_board(&self) -> Option<shakmaty::Board> {
        match &self.rules {
            Rules::Chess(game) => Some(game.position().board().clone()),
            Rules::Xiangqi(_) | Rules::Defined(_) => None,
        }
    }

    /// The side to move; White is the side that moves first.
    pub fn turn(&self) -> Color {
        match &self.rules {
            Rules::Chess(game) => game.turn(),
            Rules::Xiangqi(game) => {
                if game.red_to_move() {
                    Color::White
                } else {
                    Color::Black
                }
            }
            Rules::Defined(game) => {
                if game.first_to_move() {
                    Color::White
                } else {
                    Color::Black
                }
            }
        }
    }

    /// The number of the current full move, from 1; counted on from a FEN's.
    pub fn fullmoves(&self) -> u32 {
        match &self.rules {
            Rules::Chess(game) => game.fullmoves(),
            Rules::Xiangqi(game) => game.fullmoves(),
            Rules::Defined(game) => game.fullmoves(),
        }
    }

    pub fn fen(&self) -> String {
        match &self.rules {
            Rules::Chess(game) => game.fen(),
            Rules::Xiangqi(game) => game.fen(),
            Rules::Defined(game) => game.fen(),
        }
    }

    pub fn legal_moves(&self) -> Vec<GameMove> {
        match &self.rules {
            Rules::Chess(game) => game.legal_moves().into_iter().map(GameMove::Chess).collect(),
            Rules::Xiangqi(game) => game.legal_moves().into_iter().map(GameMove::Xiangqi).collect(),
            Rules::Defined(game) => game.legal_moves().into_iter().map(GameMove::Defined).collect(),
        }
    }

    pub fn is_legal(&self, m: GameMove) -> bool {
        match (&self.rules, m) {
            (Rules::Chess(game), GameMove::Chess(m)) => game.is_legal(m),
            (Rules::Xiangqi(game), GameMove::Xiangqi(m)) => game.is_legal(m),
            (Rules::Defined(game), GameMove::Defined(m)) => game.is_legal(m),
            _ => false,
        }
    }

    /// Whether neither side has the material left to win, so a draw offer is taken.
    pub fn is_insufficient_material(&self) -> bool {
        match &self.rules {
            Rules::Chess(game) => game.is_insufficient_material(),
            Rules::Xiangqi(game) => game.is_insufficient_material(),
            Rules::Defined(game) => game.is_insufficient_material(),
        }
    }

    /// Whether no pawns are left, for judging how drawn an endgame is.
    pub fn is_pawnless(&self) -> bool {
        match &self.rules {
            Rules::Chess(game) => game.is_pawnless(),
            Rules::Xiangqi(game) => !game.has_soldiers(),
            Rules::Defined(game) => !game.has_pawns(),
        }
    }

    /// Whether the pieces stand as in `other`, whoever is to move.
    pub fn same_board(&self, other: &Game) -> bool {
        match (&self.rules, &other.rules) {
            (Rules::Chess(game), Rules::Chess(other)) => game.same_board(other),
            (Rules::Xiangqi(game), Rules::Xiangqi(other)) => game.same_board(other),
            (Rules::Defined(game), Rules::Defined(other)) => game.same_board(other),
            _ => false,
        }
    }

    /// Reads a move in coordinate notation or SAN; `Err` is the reason it is
    /// illegal here.
    pub fn parse_move(&self, text: &str) -> Result<GameMove, &'static str> {
        match &self.rules {
            Rules::Chess(game) => game.parse_move(text).map(GameMove::Chess),
            Rules::Xiangqi(game) => game.parse_move(text).map(GameMove::Xiangqi),
            Rules::Defined(game) => game.parse_move(text).map(GameMove::Defined),
        }
    }

    /// How the GUI should see `m`: coordinates, and `O-O`/`O-O-O` in Chess960.
    /// Only the rules matter, not the position, so a line of moves from another
    /// position of this game is written the same way.
    pub fn move_text(&self, m: GameMove) -> String {
        match (&self.rules, m) {
            (Rules::Chess(game), GameMove::Chess(m)) => game.move_text(m),
            (_, GameMove::Xiangqi(m)) => m.to_string(),
            (Rules::Defined(game), GameMove::Defined(m)) => game.move_text(m),
            (_, GameMove::Defined(m)) => format!("{}{}", m.from, m.to),
            // A chess move has no text under other rules; coordinates say what it was.
            (_, GameMove::Chess(m)) => m.to_uci(CastlingMode::Standard).to_string(),
        }
    }

    /// How a UCI GUI reads `m`: as [`Game::move_text`], but castling is the
    /// king's move in coordinates, onto its own rook in Chess960.
    pub fn uci_move_text(&self, m: GameMove) -> String {
        match (&self.rules, m) {
            (Rules::Chess(game), GameMove::Chess(m)) => game.uci_text(m),
            (Rules::Defined(game), GameMove::Defined(m)) => game.uci_text(m),
            _ => self.move_text(m),
        }
    }

    /// How people write `m`, a move of the current position: SAN for chess.
    pub fn notation(&self, m: GameMove) -> String {
        match (&self.rules, m) {
            (Rules::Chess(game), GameMove::Chess(m)) => game.notation(m),
            // Xiangqi moves are written as xboard writes them to engines: coordinates.
            (_, m) => self.move_text(m),
        }
    }

    /// Plays `m`, a legal move of the current position.
    pub fn play(&mut self, m: GameMove) {
        match (&mut self.rules, m) {
            (Rules::Chess(game), GameMove::Chess(m)) => game.play(m),
            (Rules::Xiangqi(game), GameMove::Xiangqi(m)) => game.play(m),
            (Rules::Defined(game), GameMove::Defined(m)) => game.play(m),
            (_, m) => debug_assert!(false, "{m:?} belongs to other rules"),
        }
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        match &mut self.rules {
            Rules::Chess(game) => game.undo(),
            Rules::Xiangqi(game) => game.undo(),
            Rules::Defined(game) => game.undo(),
        }
    }

    /// Whether playing `m` makes a draw claimable without ending the game by
    /// itself: such a draw is claimed with `offer draw` before the move.
    pub fn claimable_after(&self, m: GameMove) -> bool {
        match (&self.rules, m) {
            (Rules::Chess(game), GameMove::Chess(m)) => game.claimable_after(m),
            // Makruk's count, which xboard does not keep.
            (Rules::Defined(game), GameMove::Defined(m)) => game.claimable_after(m),
            // Xiangqi repetitions are xboard's to adjudicate, never ours to claim.
            _ => false,
        }
    }

    /// `highlight` for a piece lifted from `square`: its legal destinations.
    pub fn highlight(&self, square: &str) -> Option<String> {
        match &self.rules {
            Rules::Chess(game) => game.highlight(square),
            Rules::Xiangqi(game) => game.highlight(square),
            Rules::Defined(game) => game.highlight(square),
        }
    }

    /// `highlight` in answer to `hover`: the squares a capture by the piece
    /// lifted from `from` on `to` would empty besides its own (atomic chess).
    pub fn hover(&self, from: &str, to: &str) -> Option<String> {
        match &self.rules {
            Rules::Chess(game) => game.explosion(from, to),
            Rules::Xiangqi(_) | Rules::Defined(_) => None,
        }
    }

    /// `highlight` for the second leg of a move of the piece lifted from
    /// `from`, its first leg put down on `via`: where it may end.
    pub fn highlight_second_leg(&self, from: &str, via: &str) -> Option<String> {
        match &self.rules {
            Rules::Defined(game) => game.highlight_second_leg(from, via),
            // No move of legs: the piece lifted from where it was put.
            Rules::Chess(_) | Rules::Xiangqi(_) => self.highlight(via),
        }
    }

    /// The result the rules give the current position, if the game is over.
    pub fn claim(&self) -> Option<GameEnd> {
        match &self.rules {
            Rules::Chess(game) => game.claim(),
            Rules::Xiangqi(game) => game.claim(),
            Rules::Defined(game) => game.claim(),
        }
    }

    /// Whether the game may only be claimed drawn here, and the side to move could play on.
    pub fn is_claimable_draw(&self) -> bool {
        match &self.rules {
            Rules::Chess(game) => game.is_claimable_draw(),
            Rules::Xiangqi(_) | Rules::Defined(_) => false,
        }
    }

    /// The plugin API's view of the moves since the start.
    pub fn plugin_moves(&self) -> Vec<api::Move> {
        match &self.rules {
            Rules::Chess(game) => game.plugin_moves(),
            Rules::Xiangqi(game) => game.plugin_moves(),
            Rules::Defined(game) => game.plugin_moves(),
        }
    }

    /// A legal move of the current position from the plugin API's encoding.
    pub fn from_plugin_move(&self, m: api::Move) -> Option<GameMove> {
        match &self.rules {
            Rules::Chess(game) => game.legal_plugin_move(m).map(GameMove::Chess),
            Rules::Xiangqi(game) => game.legal_plugin_move(m).map(GameMove::Xiangqi),
            Rules::Defined(game) => game.legal_plugin_move(m).map(GameMove::Defined),
        }
    }

    /// The legal start of a line of plugin moves from the current position.
    pub fn legal_start(&self, line: &[api::Move]) -> Vec<GameMove> {
        match &self.rules {
            Rules::Chess(game) => game.legal_start(line).into_iter().map(GameMove::Chess).collect(),
            Rules::Xiangqi(game) => game.legal_start(line).into_iter().map(GameMove::Xiangqi).collect(),
            Rules::Defined(game) => game.legal_start(line).into_iter().map(GameMove::Defined).collect(),
        }
    }

    /// The plugin API's view of the current position.
    pub fn plugin_root(&self) -> PluginPosition {
        match &self.rules {
            Rules::Chess(game) => PluginPosition::Chess(game.plugin_root()),
            Rules::Xiangqi(game) => PluginPosition::Board(game.plugin_root()),
            Rules::Defined(game) => PluginPosition::Board(game.plugin_root()),
        }
    }

    /// The plugin API's view of where the game started.
    pub fn plugin_start(&self) -> PluginPosition {
        match &self.rules {
            Rules::Chess(game) => PluginPosition::Chess(game.plugin_start()),
            Rules::Xiangqi(game) => PluginPosition::Board(game.plugin_start()),
            Rules::Defined(game) => PluginPosition::Board(game.plugin_start()),
        }
    }
}

/// `highlight`'s board: FEN-like ranks from the far side, a mark (`Y`, `R`, …)
/// where `mark` gives one and counted empty squares elsewhere.
fn highlight_text(files: u8, ranks: u8, mark: impl Fn(u8, u8) -> Option<char>) -> String {
    let rows: Vec<String> = (0..ranks)
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut empty = 0u8;
            for file in 0..files {
                match mark(file, rank) {
                    Some(mark) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(mark);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    rows.join("/")
}

/// The start of a game of the variant CECP calls `name`, if the host knows its rules.
pub fn variant_start(name: &str) -> Option<Game> {
    Some(match name {
        "fischerandom" => Game::new(api::Variant::CHESS, CastlingMode::Chess960),
        // The board's rules are crazyhouse's; a bughouse partner's captures arrive with `holding`.
        "bughouse" => Game::new(api::Variant::CRAZYHOUSE, CastlingMode::Standard),
        "xiangqi" => XiangqiGame::default().into(),
        _ if defined::variant(name).is_some() => DefinedGame::new(defined::variant(name)?).ok()?.into(),
        // Only the variants whose rules shakmaty has; `from_cecp_name` knows other boards too.
        _ => Game::new(
            api::Variant::from_cecp_name(name).filter(|&v| plugboard_shakmaty::rules_of(v).is_some())?,
            CastlingMode::Standard,
        ),
    })
}

/// Whether `variant NAME` can set up a game of these rules.
pub fn knows_variant(name: &str) -> bool {
    variant_start(name).is_some()
}
