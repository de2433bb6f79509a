//! A game of a variant defined as data, by the rules of `plugboard-variants`:
//! where it started, the moves since, and the results the host claims (the
//! board's: checkmate, stalemate and a side's pieces run out, each valued as
//! the variant says; the move-count rule and repetitions from the history).

use std::sync::{Arc, OnceLock, RwLock};

use plugboard_plugin_api::{self as api, BoardPosition};
use plugboard_variants::{Catalog, Move, MoveList, Outcome, Position, Reason, Value, Variant, square::Square};

use super::GameEnd;

/// The variants there are to play: the built-in definitions, and those of the
/// user's files once read.
pub fn catalog() -> &'static RwLock<Catalog> {
    static CATALOG: OnceLock<RwLock<Catalog>> = OnceLock::new();
    CATALOG.get_or_init(|| RwLock::new(Catalog::builtin()))
}

/// The variant called `name`, if one is defined.
pub fn variant(name: &str) -> Option<Arc<Variant>> {
    catalog().read().ok()?.get(name).cloned()
}

/// The names of every variant defined as data.
pub fn names() -> Vec<String> {
    catalog().read().map(|catalog| catalog.names().map(str::to_owned).collect()).unwrap_or_default()
}

#[derive(Debug, Clone)]
pub struct DefinedGame {
    /// `positions[0]` is the start; `positions[i]` follows `moves[i - 1]`.
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl DefinedGame {
    /// A game of `variant` from its start position.
    pub fn new(variant: Arc<Variant>) -> Result<DefinedGame, String> {
        Position::start(variant).map(DefinedGame::from_start).map_err(|error| error.to_string())
    }

    pub fn from_start(start: Position) -> DefinedGame {
        DefinedGame { positions: vec![start], moves: Vec::new() }
    }

    /// A game of the same variant from a FEN.
    pub fn from_fen(&self, fen: &str) -> Result<DefinedGame, String> {
        Position::from_fen(self.variant().clone(), fen).map(DefinedGame::from_start).map_err(|error| error.to_string())
    }

    pub fn variant(&self) -> &Arc<Variant> {
        self.position().variant()
    }

    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a position")
    }

    /// The current position with the first player (or the second) to move, and no history.
    pub fn with_turn(&self, first: bool) -> Option<DefinedGame> {
        let fen = self.position().fen();
        let mut fields: Vec<&str> = fen.split(' ').collect();
        fields[1] = if first { "w" } else { "b" };
        self.from_fen(&fields.join(" ")).ok()
    }

    pub fn first_to_move(&self) -> bool {
        self.position().turn() == 0
    }

    pub fn fullmoves(&self) -> u32 {
        self.position().fullmoves()
    }

    pub fn fen(&self) -> String {
        self.position().fen()
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = MoveList::new();
        self.position().clone().legal_moves(&mut moves);
        moves
    }

    pub fn is_legal(&self, m: Move) -> bool {
        self.position().clone().is_legal(m)
    }

    /// Whether neither side has anything but royal pieces.
    pub fn is_insufficient_material(&self) -> bool {
        let position = self.position();
        let variant = position.variant();
        (0..2).all(|color| {
            (0..variant.kinds.len()).all(|kind| variant.kinds[kind].royal || position.count(color, kind) == 0)
        })
    }

    /// Whether no piece that promotes is left.
    pub fn has_pawns(&self) -> bool {
        let position = self.position();
        let variant = position.variant();
        (0..2u8).any(|color| {
            (0..variant.kinds.len()).any(|kind| {
                variant.promotion_pawns[usize::from(color)] >> kind & 1 != 0 && position.count(color, kind) > 0
            })
        })
    }

    pub fn same_board(&self, other: &DefinedGame) -> bool {
        self.position().same_placement(other.position())
    }

    pub fn parse_move(&self, text: &str) -> Result<Move, &'static str> {
        self.position().clone().parse_move(text)
    }

    pub fn move_text(&self, m: Move) -> String {
        self.position().move_text(m)
    }

    pub fn uci_text(&self, m: Move) -> String {
        self.position().uci_move_text(m)
    }

    pub fn play(&mut self, m: Move) {
        let mut after = self.position().clone();
        after.play(m);
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

    /// How many times the current position has stood since the last irreversible move.
    fn repetitions(&self) -> usize {
        let current = self.position();
        let key = current.hash();
        let reach = (current.halfmoves() as usize).min(self.positions.len() - 1);
        self.positions.iter().rev().take(reach + 1).filter(|position| position.hash() == key).count()
    }

    /// In a repetition, the side that gave check with every move since the
    /// current position first stood, if one side alone did.
    fn perpetual_checker(&self) -> Option<u8> {
        let current = self.position();
        let last = self.positions.len() - 1;
        let reach = (current.halfmoves() as usize).min(last);
        let first = (last - reach..last).find(|&index| self.positions[index].hash() == current.hash())?;
        // A position with side S to move was reached by a move of the other side.
        let checked_throughout = |checker: u8| {
            self.positions[first + 1..=last]
                .iter()
                .filter(|position| position.turn() != checker)
                .all(Position::in_check)
        };
        match (checked_throughout(0), checked_throughout(1)) {
            (true, false) => Some(0),
            (false, true) => Some(1),
            _ => None,
        }
    }

    /// The result the rules give the current position, if the game is over.
    /// A count run out is no result to claim: xboard knows no counting rule and
    /// would call the claim false, so the draw is offered instead
    /// ([`DefinedGame::claimable_after`]).
    pub fn claim(&self) -> Option<GameEnd> {
        let mut position = self.position().clone();
        let variant = position.variant().clone();
        if let Some(outcome) = position.outcome().filter(|outcome| outcome.reason != Reason::Counting) {
            return Some(game_end(outcome, position.turn()));
        }
        if variant.n_fold_rule > 0 && self.repetitions() >= variant.n_fold_rule as usize {
            if variant.perpetual_check_illegal
                && let Some(checker) = self.perpetual_checker()
            {
                return Some(GameEnd { result: result_text(Some(checker ^ 1)), reason: "perpetual check" });
            }
            let side = if variant.n_fold_value_absolute { 0 } else { position.turn() };
            return Some(valued(variant.n_fold_value, side, "repetition"));
        }
        if variant.n_move_rule > 0 && position.halfmoves() >= 2 * variant.n_move_rule {
            return Some(GameEnd { result: "1/2-1/2", reason: "move-count rule" });
        }
        None
    }

    /// Whether our move `m` comes just as the count has run out (by it, or by
    /// the opponent's move before it): the draw the counting rule gives is
    /// offered with `offer draw` before the move, once.
    pub fn claimable_after(&self, m: Move) -> bool {
        let current = self.position();
        let mut after = current.clone();
        after.play(m);
        let before_last = self.positions.len().checked_sub(2).map(|index| &self.positions[index]);
        (after.count_ran_out() && !current.count_ran_out())
            || (current.count_ran_out() && before_last.is_some_and(|position| !position.count_ran_out()))
    }

    /// The square `text` names on this board.
    fn square_named(&self, text: &str) -> Option<Square> {
        let variant = self.position().variant();
        let (square, used) = plugboard_variants::square::read_square(text.as_bytes(), variant.files, variant.ranks)?;
        (used == text.len()).then_some(square)
    }

    /// `highlight`'s colours where `mark` gives one.
    fn marked(&self, marks: &[Option<char>; 256]) -> String {
        let variant = self.position().variant();
        super::highlight_text(variant.files, variant.ranks, |file, rank| {
            marks[usize::from(plugboard_variants::square::square(file, rank))]
        })
    }

    /// `highlight` for a piece lifted from `square`: its legal destinations,
    /// and in cyan the pieces a first leg may take and go on from (the lion's).
    pub fn highlight(&self, square: &str) -> Option<String> {
        let from = self.square_named(square)?;
        let position = self.position();
        let mut marks = [None::<char>; 256];
        for m in self.legal_moves().into_iter().filter(|m| m.from == from) {
            match m.via() {
                // A pass's empty square stays a plain step's: a pass is entered by hand as `a,b`.
                Some(via) if position.piece_at(via) != 0 => marks[usize::from(via)] = Some('C'),
                Some(_) => {}
                None if marks[usize::from(m.to)] != Some('C') => {
                    marks[usize::from(m.to)] = Some(if position.is_capture(m) { 'R' } else { 'Y' });
                }
                None => {}
            }
        }
        Some(self.marked(&marks))
    }

    /// `highlight` for the second leg of a move from `from` whose first leg
    /// was put down on `via`: where it may end, `via` itself for the move
    /// that stops there.
    pub fn highlight_second_leg(&self, from: &str, via: &str) -> Option<String> {
        let (via_text, from, via) = (via, self.square_named(from)?, self.square_named(via)?);
        let legal = self.legal_moves();
        // A piece put down where no first leg ends (a move made, then another
        // piece lifted there) is lifted afresh.
        if !legal.iter().any(|m| m.from == from && m.via() == Some(via)) {
            return self.highlight(via_text);
        }
        let position = self.position();
        let mut marks = [None::<char>; 256];
        for m in legal.into_iter().filter(|m| m.from == from) {
            let ends_here = m.via().is_none() && m.to == via;
            if m.via() == Some(via) || ends_here {
                let takes_at_end = m.to != m.from && position.piece_at(m.to) != 0;
                marks[usize::from(m.to)] = Some(if takes_at_end || ends_here { 'R' } else { 'Y' });
            }
        }
        Some(self.marked(&marks))
    }

    pub fn plugin_moves(&self) -> Vec<api::Move> {
        self.moves.iter().map(|&m| m.to_plugin()).collect()
    }

    /// A legal move of the current position from the plugin API's encoding.
    pub fn legal_plugin_move(&self, m: api::Move) -> Option<Move> {
        self.position().clone().legal_from_plugin(m)
    }

    /// The legal start of a line of plugin moves from the current position.
    pub fn legal_start(&self, line: &[api::Move]) -> Vec<Move> {
        let mut position = self.position().clone();
        let mut legal = Vec::new();
        for &wanted in line {
            let Some(m) = position.legal_from_plugin(wanted) else { break };
            position.play(m);
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

fn valued(value: Value, side: u8, reason: &'static str) -> GameEnd {
    let winner = match value {
        Value::Win => Some(side),
        Value::Loss => Some(side ^ 1),
        Value::Draw => None,
    };
    GameEnd { result: result_text(winner), reason }
}

fn result_text(winner: Option<u8>) -> &'static str {
    match winner {
        Some(0) => "1-0",
        Some(_) => "0-1",
        None => "1/2-1/2",
    }
}

/// The claim for `outcome`, `to_move` being the side to move when it happened.
fn game_end(outcome: Outcome, to_move: u8) -> GameEnd {
    let reason = match (outcome.reason, outcome.winner) {
        (Reason::Checkmate, Some(winner)) if winner != to_move => {
            if winner == 0 {
                "White mates"
            } else {
                "Black mates"
            }
        }
        (Reason::Checkmate, _) => {
            if to_move == 0 {
                "White is checkmated and wins"
            } else {
                "Black is checkmated and wins"
            }
        }
        (Reason::Stalemate, None) => "Stalemate",
        (Reason::Stalemate, Some(winner)) if winner == to_move => {
            if to_move == 0 {
                "White is stalemated and wins"
            } else {
                "Black is stalemated and wins"
            }
        }
        (Reason::Stalemate, Some(_)) => {
            if to_move == 0 {
                "White is stalemated and loses"
            } else {
                "Black is stalemated and loses"
            }
        }
        (Reason::Extinction, Some(0)) => "White wins: Black has run out of pieces",
        (Reason::Extinction, Some(_)) => "Black wins: White has run out of pieces",
        (Reason::Extinction, None) => "Both sides have run out of pieces",
        (Reason::Counting, _) => "Draw by the counting rule",
    };
    GameEnd { result: result_text(outcome.winner), reason }
}
