//! Move ordering: the table's move, captures by most valuable victim and least
//! valuable attacker, the killers of the ply, then quiet moves by history, and
//! last the captures the rules call losing (where the search asks for that).

use super::{Rules, rules::MOVERS};
use crate::score::MAX_PLY;

const HASH_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
/// History scores stay within this, either way, below the killers.
pub(super) const HISTORY_LIMIT: i32 = 16_384;
/// Captures that lose material come after every quiet move.
const LOSING_CAPTURE: i32 = -HISTORY_LIMIT - 1024;

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

    /// Ordering scores for `moves`, in the same order, into `scores`; with
    /// `demote_losing`, the captures the rules call losing go after the quiet
    /// moves (the capture search passes over those anyway, so it does not ask).
    pub(super) fn score(
        &self,
        position: &R,
        moves: &[R::Move],
        hash_move: Option<R::Move>,
        ply: usize,
        demote_losing: bool,
        scores: &mut Vec<i32>,
    ) {
        scores.clear();
        let killers = self.killers[ply.min(MAX_PLY)];
        scores.extend(moves.iter().map(|&m| {
            if Some(m) == hash_move {
                HASH_MOVE
            } else if let Some(victim) = position.victim_value(m) {
                let base = if demote_losing && position.loses_material(m) { LOSING_CAPTURE } else { CAPTURE };
                base + 16 * victim - position.mover_value(m) / 10
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
        let bonus = (16 * depth * depth + 32 * depth).min(1600);
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

    /// How often the quiet move `m` has refuted a position lately, within
    /// `-HISTORY_LIMIT..=HISTORY_LIMIT`.
    pub(super) fn history(&self, position: &R, m: R::Move) -> i32 {
        self.history[position.mover_index(m)][usize::from(R::to_square(m))]
    }

    /// Whether `m` is one of the killers of `ply`.
    pub(super) fn is_killer(&self, m: R::Move, ply: usize) -> bool {
        self.killers[ply.min(MAX_PLY)].contains(&Some(m))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defined::Defined;

    #[test]
    fn losing_captures_come_after_quiet_moves_where_the_search_asks() {
        // Capablanca: White's rook may take a knight on d5 that a pawn guards.
        let mut position = Defined::for_tests("capablanca", "9k/n9/4pp4/3n2b3/10/5N4/10/R2R5K w - - 0 1");
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        let ordering = Ordering::<Defined>::new();
        let index_of = |text: &str| {
            let wanted = position.move_for_tests(text);
            moves.iter().position(|&m| m == wanted).unwrap()
        };
        let (rook_takes, knight_takes, quiet) = (index_of("d1d5"), index_of("f3g5"), index_of("a1b1"));
        let mut scores = Vec::new();
        ordering.score(&position, &moves, None, 1, true, &mut scores);
        assert!(scores[rook_takes] < scores[quiet], "the rook for a guarded knight after a quiet rook move");
        assert!(scores[knight_takes] > scores[quiet], "a knight for a bishop before it");
        ordering.score(&position, &moves, None, 1, false, &mut scores);
        assert!(scores[rook_takes] > scores[quiet], "every capture first in the capture search's order");
    }
}
