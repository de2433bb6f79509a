//! The game on the core's board and how it is set up: a new game, a variant, a
//! FEN or an edited board, protocol 1's turn flips, holdings, takebacks, and the
//! settings that belong to one position (excluded root moves, preset scores).

use shakmaty::Color;

use crate::game::{EditedPosition, Game, GameEnd, GameMove, PluginPosition};

/// Every search hands the plugin each preset score: enough for an analysis
/// session's worth, few enough to cost nothing.
pub const MAX_PRESET_SCORES: usize = 256;

#[derive(Default)]
pub struct Setup {
    game: Game,
    /// Set after a position we could not accept: moves are refused until the next one.
    invalid: bool,
    /// The result of the current position was already announced.
    claimed: bool,
    /// The game ended (a claim, a resignation, or `result`): the engine waits for `new`.
    pub over: bool,
    /// The game as it was before a turn flip, which flipping back restores.
    before_turn_flip: Option<Game>,
    /// `variant bughouse`: crazyhouse rules, with the holdings from the server.
    bughouse: bool,
    /// Root moves left out of the analysis (`exclude`), for the current position.
    excluded: Vec<GameMove>,
    /// Scores fixed with `setscore`, for the current game.
    /// Positions and the centipawns they are to have.
    preset_scores: Vec<(PluginPosition, i32)>,
}

/// A variant the core cannot set up.
#[derive(Debug)]
pub struct UnknownVariant;

impl Setup {
    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn is_valid(&self) -> bool {
        !self.invalid
    }

    pub fn is_bughouse(&self) -> bool {
        self.bughouse
    }

    pub fn excluded(&self) -> &[GameMove] {
        &self.excluded
    }

    pub fn preset_scores(&self) -> &[(PluginPosition, i32)] {
        &self.preset_scores
    }

    pub fn new_game(&mut self) {
        self.set_game(Game::default());
        self.bughouse = false;
        // Preset scores belong to the game they were set in.
        self.preset_scores.clear();
    }

    /// `variant NAME`: the rules and start position of the next game.
    pub fn set_variant(&mut self, name: &str) -> Result<(), UnknownVariant> {
        let game = crate::game::variant_start(name).ok_or(UnknownVariant)?;
        self.set_game(game);
        self.preset_scores.clear();
        self.bughouse = name == "bughouse";
        Ok(())
    }

    /// A position in FEN, in the current variant; when it is refused, moves are
    /// refused until the next position.
    pub fn set_fen(&mut self, fen: &str) -> Result<(), String> {
        match self.game.same_rules_from_fen(fen) {
            Ok(game) => {
                self.preset_scores.clear();
                self.set_game(game);
                Ok(())
            }
            Err(why) => {
                self.invalid = true;
                Err(why)
            }
        }
    }

    /// A board set up piece by piece: orthodox pieces, under the variant's rules.
    pub fn set_edited(&mut self, edited: Result<EditedPosition, String>) -> Result<(), String> {
        match edited.and_then(|position| self.game.with_edited(&position)) {
            Ok(game) => {
                self.set_game(game);
                Ok(())
            }
            Err(why) => {
                self.invalid = true;
                Err(why)
            }
        }
    }

    /// Protocol 1's `white`/`black`: the side to move changes, the pieces do not.
    pub fn set_turn(&mut self, turn: Color) {
        if self.game.turn() == turn {
            return;
        }
        // xboard's protocol-1 clock idiom flips the side to move and straight back:
        // going back restores the game as it was, history and en passant included.
        if let Some(before) = self.before_turn_flip.take()
            && before.turn() == turn
            && before.same_board(&self.game)
        {
            self.set_game(before);
            return;
        }
        let before = self.game.clone();
        if let Some(game) = self.game.with_turn(turn) {
            self.set_game(game);
            self.before_turn_flip = Some(before);
        }
    }

    /// `holding [WHITE] [BLACK]`: the pockets, from the server.
    pub fn set_pockets(&mut self, white: &str, black: &str) -> Result<(), String> {
        self.game.set_pockets(white, black)
    }

    pub fn play(&mut self, m: GameMove) {
        self.game.play(m);
        self.claimed = false;
        self.excluded.clear();
    }

    /// Takes back `count` moves (as far as there are any); the game goes on.
    pub fn undo(&mut self, count: usize) {
        for _ in 0..count {
            self.game.undo();
        }
        self.excluded.clear();
        self.claimed = false;
        self.over = false;
    }

    /// `exclude`/`include`: one root move, or all of them (`None`).
    pub fn exclude(&mut self, exclude: bool, m: Option<GameMove>) {
        match m {
            None if exclude => self.excluded = self.game.legal_moves(),
            None => self.excluded.clear(),
            Some(m) if exclude => {
                if !self.excluded.contains(&m) {
                    self.excluded.push(m);
                }
            }
            Some(m) => self.excluded.retain(|&x| x != m),
        }
    }

    /// Whether every legal move is excluded: there is nothing to analyse.
    pub fn all_excluded(&self) -> bool {
        self.game.legal_moves().iter().all(|m| self.excluded.contains(m))
    }

    /// `setscore`: the score of the current position, for the searches to come.
    pub fn set_score(&mut self, centipawns: i32) -> Result<(), String> {
        let position = self.game.plugin_root();
        self.preset_scores.retain(|(preset, _)| *preset != position);
        if self.preset_scores.len() >= MAX_PRESET_SCORES {
            return Err(format!("at most {MAX_PRESET_SCORES} positions may have a preset score"));
        }
        self.preset_scores.push((position, centipawns));
        Ok(())
    }

    /// The result of the position, the first time it is asked for; `None` when
    /// the rules do not end the game here or it was announced already.
    pub fn claim_once(&mut self) -> Option<GameEnd> {
        let end = self.game.claim()?;
        (!std::mem::replace(&mut self.claimed, true)).then_some(end)
    }

    fn set_game(&mut self, game: Game) {
        self.game = game;
        self.before_turn_flip = None;
        self.invalid = false;
        self.claimed = false;
        self.over = false;
        self.excluded.clear();
    }
}
