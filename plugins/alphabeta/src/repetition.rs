//! Repetitions, for the orthodox and the variant search alike.
//!
//! Both searches keep the same record: the hash of every position of the game
//! before the root, then the root's, then one for each ply of the search path.
//! Only their boards differ, so each brings its board as a [`Replay`] and the
//! record is built and scanned here.

use plugboard_plugin_api::Move;

use crate::score::MAX_PLY;

/// A board the game's moves can be replayed on.
pub trait Replay {
    /// The hash the search keys repetitions by.
    fn key(&self) -> u64;
    /// Plays one of the game's moves; `None` if it cannot be played here.
    fn replay(&mut self, mv: Move) -> Option<()>;
}

/// The hashes of the game's positions before the root, oldest first, with room
/// for the search path. If the moves do not lead from `start` to `root` (a host
/// bug or a `setboard`), they are ignored: better no history than a wrong one.
pub fn game_history<B: Replay>(start: Option<B>, moves: &[Move], root: &B) -> Vec<u64> {
    let replay = || -> Option<Vec<u64>> {
        let mut board = start?;
        let mut hashes = Vec::with_capacity(moves.len() + MAX_PLY + 2);
        for &mv in moves {
            hashes.push(board.key());
            board.replay(mv)?;
        }
        (board.key() == root.key()).then_some(hashes)
    };
    replay().unwrap_or_else(|| Vec::with_capacity(MAX_PLY + 2))
}

/// Whether the last position of `hashes` repeats an earlier one: any since the
/// root, at `root_index` (twofold is enough, as the side that can repeat once can
/// repeat again), or one that already occurred twice in the game before the
/// root. Only the last `reversible` plies (the halfmove clock) can hold the same
/// position, and none before `barrier` (the ply after a null move) counts.
#[inline]
pub fn repeats(hashes: &[u64], root_index: usize, reversible: usize, barrier: usize) -> bool {
    let current = hashes.len() - 1;
    let key = hashes[current];
    let oldest = current.saturating_sub(reversible).max(barrier);
    let mut earlier = 0;
    let mut index = current;
    while index >= oldest + 2 {
        index -= 2;
        if hashes[index] == key {
            if index >= root_index {
                return true;
            }
            earlier += 1;
            if earlier >= 2 {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repetition_counts_once_since_the_root_and_twice_before_it() {
        let (a, b) = (1, 2);
        // The game went A B, and the root is A again: once before is not yet a draw.
        assert!(!repeats(&[a, b, a], 2, 100, 0));
        // From that root, the search goes B A: a repetition since the root.
        assert!(repeats(&[a, b, a, b, a], 2, 100, 0));
        // The game went A B A B, and the root is A: a third time.
        assert!(repeats(&[a, b, a, b, a], 4, 100, 0));
        // A capture or pawn move since makes the earlier positions another game,
        assert!(!repeats(&[a, b, a, b, a], 2, 1, 0));
        // and so does a null move.
        assert!(!repeats(&[a, b, a, b, a], 2, 100, 3));
    }
}
