//! Results under chess rules: mate, the variants' own goals, and the draws a
//! player may claim (repetition, fifty moves).

use plugboard_plugin_api as api;
use plugboard_shakmaty::outcome;
use shakmaty::{Color, KnownOutcome, Move, Position};

use super::ChessGame;
use crate::game::GameEnd;

impl ChessGame {
    /// The result the rules give the current position, if the game is over.
    pub fn claim(&self) -> Option<GameEnd> {
        let position = self.position();
        match outcome(position, self.variant) {
            Some(KnownOutcome::Decisive { winner }) => return Some(self.win(winner)),
            Some(KnownOutcome::Draw) => {
                let reason = if position.is_insufficient_material() { "Insufficient material" } else { "Stalemate" };
                return Some(GameEnd { result: "1/2-1/2", reason });
            }
            None => {}
        }
        if position.halfmoves() >= 100 {
            return Some(GameEnd { result: "1/2-1/2", reason: "50 move rule" });
        }
        if self.repetitions() >= 3 {
            return Some(GameEnd { result: "1/2-1/2", reason: "Draw by repetition" });
        }
        None
    }

    /// Whether the game may only be claimed drawn here (repetition, fifty
    /// moves), and the side to move could play on.
    pub fn is_claimable_draw(&self) -> bool {
        let position = self.position();
        outcome(position, self.variant).is_none()
            && !position.legal_moves().is_empty()
            && (position.halfmoves() >= 100 || self.repetitions() >= 3)
    }

    /// How `winner` won the current position, in the variant's own words.
    fn win(&self, winner: Color) -> GameEnd {
        let position = self.position();
        let result = if winner == Color::White { "1-0" } else { "0-1" };
        let white = winner == Color::White;
        // A variant's goal first: once reached, shakmaty lists no moves, which looks like mate.
        let reason = if position.is_variant_end() || !position.is_checkmate() {
            match self.variant {
                api::Variant::KING_OF_THE_HILL if white => "White's king reached the hill",
                api::Variant::KING_OF_THE_HILL => "Black's king reached the hill",
                api::Variant::THREE_CHECK if white => "White gave the third check",
                api::Variant::THREE_CHECK => "Black gave the third check",
                api::Variant::RACING_KINGS if white => "White's king reached the eighth rank",
                api::Variant::RACING_KINGS => "Black's king reached the eighth rank",
                api::Variant::ATOMIC if white => "White exploded the king",
                api::Variant::ATOMIC => "Black exploded the king",
                api::Variant::HORDE => "Black captured the horde",
                api::Variant::SUICIDE | api::Variant::GIVEAWAY => {
                    match (white, position.board().by_color(winner).is_empty()) {
                        (true, true) => "White lost all pieces",
                        (false, true) => "Black lost all pieces",
                        (true, false) => "White wins with no moves left",
                        (false, false) => "Black wins with no moves left",
                    }
                }
                _ if white => "White wins",
                _ => "Black wins",
            }
        } else if white {
            "White mates"
        } else {
            "Black mates"
        };
        GameEnd { result, reason }
    }

    /// How often the current position has occurred, itself included.
    fn repetitions(&self) -> usize {
        let Some(&current) = self.hashes.last() else { return 0 };
        let reversible = self.position().halfmoves() as usize;
        self.hashes.iter().rev().take(reversible + 1).filter(|&&h| h == current).count()
    }

    /// Whether playing `m` makes a draw claimable (threefold repetition or fifty
    /// moves) without ending the game by itself: such a draw is claimed with
    /// `offer draw` before the move.
    pub fn claimable_after(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.play(m);
        matches!(after.claim(), Some(GameEnd { reason: "Draw by repetition" | "50 move rule", .. }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_mate_and_repetition() {
        let mut game = ChessGame::default();
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let m = game.parse_move(m).unwrap();
            game.play(m);
        }
        assert_eq!(game.claim(), Some(GameEnd { result: "0-1", reason: "Black mates" }));

        let mut game = ChessGame::default();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
            let m = game.parse_move(m).unwrap();
            game.play(m);
            assert_eq!(game.claim(), None);
        }
        let m = game.parse_move("f6g8").unwrap();
        game.play(m);
        assert_eq!(game.claim().map(|e| e.reason), Some("Draw by repetition"));
    }
}
