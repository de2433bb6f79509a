//! Move ordering: the table's move, captures by most valuable victim and least
//! valuable attacker, the killers of the ply, then quiet moves by history.

use super::{Rules, rules::MOVERS};
use crate::score::MAX_PLY;

const HASH_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
/// History scores stay within this, either way, below the killers.
const HISTORY_LIMIT: i32 = 1 << 20;

/// What one search thread has learnt about quiet moves.
pub(crate) struct Ordering<R: Rules> {
    killers: Vec<[Option<R::Move>; 2]>,
    /// By mover ([`Rules::mover_index`]) and destination square.
    history: Vec<[i32; 256]>,
}

impl<R: Rules> Ordering<R> {
    pub(super) fn new() -> Ordering<R> {
        Ordering { killers: vec![[None; 2]; MAX_PLY + 2], history: vec![[0; 256]; MOVERS] }
    }

    /// Ordering scores for `moves`, in the same order, into `scores`.
    pub(super) fn score(
        &self,
        position: &R,
        moves: &[R::Move],
        hash_move: Option<R::Move>,
        ply: usize,
        scores: &mut Vec<i32>,
    ) {
        scores.clear();
        let killers = self.killers[ply.min(MAX_PLY)];
        scores.extend(moves.iter().map(|&m| {
            if Some(m) == hash_move {
                HASH_MOVE
            } else if let Some(victim) = position.victim_value(m) {
                CAPTURE + 16 * victim - position.mover_value(m) / 10
            } else if killers[0] == Some(m) {
                KILLER + 1
            } else if killers[1] == Some(m) {
                KILLER
            } else {
                self.history[position.mover_index(m)][usize::from(R::to_square(m))]
            }
        }));
    }

    /// A quiet move `m` refuted the node at `ply`: it becomes a killer and
    /// gains history, and the quiet moves tried before it lose some.
    pub(super) fn reward(&mut self, position: &R, m: R::Move, tried: &[R::Move], depth: i32, ply: usize) {
        let killers = &mut self.killers[ply.min(MAX_PLY)];
        if killers[0] != Some(m) {
            *killers = [Some(m), killers[0]];
        }
        let bonus = (depth * depth).min(400);
        let mut update = |m: R::Move, delta: i32| {
            let slot = &mut self.history[position.mover_index(m)][usize::from(R::to_square(m))];
            // Gravity: a score near the limit moves less, so old lessons fade.
            *slot += delta - *slot * delta.abs() / HISTORY_LIMIT;
        };
        update(m, bonus);
        for &other in tried {
            update(other, -bonus);
        }
    }
}

/// Moves the best-scored of `moves[index..]` to `index` and returns it.
pub(super) fn pick<M: Copy>(moves: &mut [M], scores: &mut [i32], index: usize) -> M {
    let mut best = index;
    for candidate in index + 1..moves.len() {
        if scores[candidate] > scores[best] {
            best = candidate;
        }
    }
    moves.swap(index, best);
    scores.swap(index, best);
    moves[index]
}
