//! How a game of a variant ends on the board: checkmate and stalemate with the
//! values the variant gives them, and a side's pieces run out (bare king in
//! shatranj, all pieces lost in losers), makruk's count run out. Repetition
//! and move counts need the game's history and are the host's to judge.

use super::Position;
use crate::definition::rules::Value;
use crate::moves::MoveList;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    Checkmate,
    Stalemate,
    /// A side ran out of the pieces the variant counts (bare king, all pieces lost).
    Extinction,
    /// Makruk's count ran past its limit.
    Counting,
}

/// The end of a game: the winner (0 first player, 1 second; `None` a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<u8>,
    pub reason: Reason,
}

impl Outcome {
    /// The outcome of `value` happening to `side`.
    #[must_use]
    pub fn of(value: Value, side: u8, reason: Reason) -> Outcome {
        let winner = match value {
            Value::Win => Some(side),
            Value::Loss => Some(side ^ 1),
            Value::Draw => None,
        };
        Outcome { winner, reason }
    }
}

impl Position {
    /// The end of the game by a rule that needs no look at the moves: a side
    /// that has run out of the pieces the variant counts.
    #[must_use]
    pub fn immediate_end(&self) -> Option<Outcome> {
        let extinction = self.variant.extinction?;
        // Pieces in holdings are not on the board: a king with only those is bare.
        let total = |color: u8, kind: usize| u32::from(self.count(color, kind));
        for color in [self.turn ^ 1, self.turn] {
            // A side bared with its move still to make may yet bare the other
            // back: xboard judges shatranj's bare king only after that answer
            // (Fairy-Stockfish ends it a ply sooner where no answer can help,
            // a claim xboard would call false).
            if extinction.claim && color == self.turn {
                continue;
            }
            // Every kind at once counts all the side's pieces together, as
            // Fairy-Stockfish's `*` does.
            let (mine, theirs) = if extinction.all_pieces {
                let sum = |side: u8| (0..self.variant.kinds.len()).map(|kind| total(side, kind)).sum::<u32>();
                (sum(color), sum(color ^ 1))
            } else {
                // A promoted form counts as the type it moves as (sho shogi's
                // crown prince as a king), as Fairy-Stockfish counts it.
                let kinds = &self.variant.kinds;
                let of_type = |color: u8, kind: usize| {
                    (0..kinds.len())
                        .filter(|&other| other == kind || kinds[other].moves_as == Some(kind))
                        .map(|other| total(color, other))
                        .sum::<u32>()
                };
                let kind = (0..kinds.len()).find(|&kind| {
                    extinction.kinds >> kind & 1 != 0
                        && kinds[kind].moves_as.is_none()
                        && of_type(color, kind) <= extinction.count
                        && of_type(color ^ 1, kind) >= extinction.opponent_count
                });
                match kind {
                    Some(kind) => (of_type(color, kind), of_type(color ^ 1, kind)),
                    None => continue,
                }
            };
            if mine <= extinction.count && theirs >= extinction.opponent_count {
                return Some(Outcome::of(extinction.value, color, Reason::Extinction));
            }
        }
        None
    }

    /// How the game has ended on the board, if it has.
    pub fn outcome(&mut self) -> Option<Outcome> {
        if let Some(end) = self.immediate_end() {
            return Some(end);
        }
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        if !moves.is_empty() {
            return self.count_ran_out().then_some(Outcome { winner: None, reason: Reason::Counting });
        }
        let side = self.turn;
        Some(if self.in_check() {
            Outcome::of(self.variant.checkmate_value, side, Reason::Checkmate)
        } else {
            Outcome::of(self.variant.stalemate_value, side, Reason::Stalemate)
        })
    }
}
