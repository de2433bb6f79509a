//! Makruk's and ASEAN chess's counting rules, as Fairy-Stockfish keeps them
//! (`countingRule = makruk | asean`): once no pawn is left, a count starts, and
//! when it passes its limit the game is drawn unless the side to move is mated.
//! The board's honour gives 64 moves; when one side is down to its king alone,
//! the pieces' honour gives fewer, set by what the other side still has, and
//! counts from the number of pieces on the board.

use super::Position;
use crate::definition::rules::Counting;

/// A count in progress: its limit and the plies counted so far, both in plies
/// (0 for the limit: no count running).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Count {
    pub limit: u16,
    pub plies: u16,
}

impl Count {
    /// One more ply for a running count.
    pub(super) fn tick(&mut self) {
        if self.limit != 0 {
            self.plies = self.plies.saturating_add(1);
        }
    }
}

impl Position {
    /// Every piece `color` has on the board, its king included.
    fn men(&self, color: u8) -> u32 {
        self.occupied_by(color).len()
    }

    fn count_of(&self, color: u8, kind: Option<usize>) -> u32 {
        kind.map_or(0, |kind| u32::from(self.count(color, kind)))
    }

    fn pawns_on_board(&self) -> u32 {
        let pawn = self.variant.counted.pawn;
        self.count_of(0, pawn) + self.count_of(1, pawn)
    }

    /// The limit, in full moves, of a count `side` would start now; 0 for none.
    fn count_limit(&self, side: u8) -> u16 {
        let counted = self.variant.counted;
        let theirs = |kind| self.count_of(side ^ 1, kind);
        match self.variant.counting {
            Counting::None => 0,
            Counting::Makruk => {
                if self.pawns_on_board() > 0 || self.men(side ^ 1) == 1 {
                    0
                } else if self.men(side) > 1 {
                    64
                } else if theirs(counted.rook) > 1 {
                    8
                } else if theirs(counted.rook) == 1 {
                    16
                } else if theirs(counted.khon) > 1 {
                    22
                } else if theirs(counted.knight) > 1 {
                    32
                } else if theirs(counted.khon) == 1 {
                    44
                } else {
                    64
                }
            }
            Counting::Asean => {
                if self.pawns_on_board() > 0 || self.men(side) > 1 {
                    0
                } else if theirs(counted.rook) > 0 {
                    16
                } else if theirs(counted.khon) > 0 {
                    44
                } else if theirs(counted.knight) > 0 {
                    64
                } else {
                    0
                }
            }
        }
    }

    /// Brings the count up to date after a move (the turn already passed):
    /// `captured` the kind it took, `promoted` whether it promoted.
    pub(super) fn update_count(&mut self, captured: Option<usize>, promoted: bool) {
        self.count.tick();
        let to_move = self.turn;
        let mover = to_move ^ 1;
        let everyone = self.men(0) + self.men(1);
        let plies = |n: u32| u16::try_from(n).unwrap_or(u16::MAX);
        // A lone king that took the last pawn starts the pieces' honour count itself.
        if self.variant.counting != Counting::Asean
            && captured.is_some()
            && captured == self.variant.counted.pawn
            && self.men(mover) == 1
            && self.pawns_on_board() == 0
        {
            let limit = self.count_limit(mover);
            if limit > 0 {
                self.count = Count { limit: 2 * limit, plies: plies(2 * everyone).saturating_sub(1) };
            }
        }
        // A count starts once the pawns are gone, and starts again (shorter)
        // when a capture or promotion leaves the side to move with its king alone.
        if self.count.limit == 0 || ((captured.is_some() || promoted) && self.men(to_move) == 1) {
            let limit = self.count_limit(to_move);
            if limit > 0 {
                let start =
                    if self.variant.counting == Counting::Asean || self.men(to_move) > 1 { 0 } else { 2 * everyone };
                self.count = Count { limit: 2 * limit, plies: plies(start) };
            }
        }
    }

    /// The count running, if any.
    #[must_use]
    pub fn count_state(&self) -> Count {
        self.count
    }

    /// Sets the count, as a board handed across the plugin boundary carries it.
    pub fn set_count(&mut self, count: Count) {
        self.count = count;
    }

    /// Whether the count has run past its limit: the game is drawn, unless the
    /// side to move is mated.
    #[must_use]
    pub fn count_ran_out(&self) -> bool {
        self.count.limit != 0 && self.count.plies > self.count.limit
    }
}
