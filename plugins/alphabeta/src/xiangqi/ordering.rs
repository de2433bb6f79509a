//! Move ordering: the table's move, captures by most valuable victim and least
//! valuable attacker, the killers of the ply, then quiet moves by history.

use plugboard_xiangqi::{MAX_MOVES, Move, MoveList, Position, Role};

use crate::score::MAX_PLY;

const HASH_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
/// History scores stay within this, either way, below the killers.
const HISTORY_LIMIT: i32 = 1 << 20;

/// Rough piece values for ordering and pruning, in centipawns.
pub(super) fn value(role: Role) -> i32 {
    match role {
        Role::Soldier => 100,
        Role::Advisor | Role::Elephant => 200,
        Role::Horse => 400,
        Role::Cannon => 450,
        Role::Chariot => 900,
        Role::General => 5000,
    }
}

/// What one search thread has learnt about quiet moves.
pub(crate) struct Ordering {
    killers: Vec<[Option<Move>; 2]>,
    /// By mover (colour × 8 + role) and destination point.
    history: Box<[[i32; 256]; 16]>,
}

impl Ordering {
    pub(super) fn new() -> Ordering {
        Ordering { killers: vec![[None; 2]; MAX_PLY + 2], history: Box::new([[0; 256]; 16]) }
    }

    /// Ordering scores for `moves`, in the same order.
    pub(super) fn score(
        &self,
        position: &Position,
        moves: &MoveList,
        hash_move: Option<Move>,
        ply: usize,
    ) -> [i32; MAX_MOVES] {
        let mut scores = [0; MAX_MOVES];
        let killers = self.killers[ply.min(MAX_PLY)];
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            *score = if Some(m) == hash_move {
                HASH_MOVE
            } else if let Some(victim) = position.piece_at(m.to) {
                let attacker = position.piece_at(m.from).map_or(0, |piece| value(piece.role));
                CAPTURE + 16 * value(victim.role) - attacker / 10
            } else if killers[0] == Some(m) {
                KILLER + 1
            } else if killers[1] == Some(m) {
                KILLER
            } else {
                self.history[mover(position, m)][usize::from(m.to.0)]
            };
        }
        scores
    }

    /// A quiet move `m` refuted the node at `ply`: it becomes a killer and
    /// gains history, and the quiet moves tried before it lose some.
    pub(super) fn reward(&mut self, position: &Position, m: Move, tried: &[Move], depth: i32, ply: usize) {
        let killers = &mut self.killers[ply.min(MAX_PLY)];
        if killers[0] != Some(m) {
            *killers = [Some(m), killers[0]];
        }
        let bonus = (depth * depth).min(400);
        let mut update = |m: Move, delta: i32| {
            let slot = &mut self.history[mover(position, m)][usize::from(m.to.0)];
            // Gravity: a score near the limit moves less, so old lessons fade.
            *slot += delta - *slot * delta.abs() / HISTORY_LIMIT;
        };
        update(m, bonus);
        for &other in tried {
            update(other, -bonus);
        }
    }
}

fn mover(position: &Position, m: Move) -> usize {
    position.piece_at(m.from).map_or(0, |piece| piece.color.index() * 8 + piece.role as usize)
}

/// Moves the best-scored of `moves[index..]` to `index` and returns it.
pub(super) fn pick(moves: &mut MoveList, scores: &mut [i32; MAX_MOVES], index: usize) -> Move {
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
