//! The capture search below the main search's horizon.

use cozy_chess::{Board, Move};
use plugboard_plugin_api::Bound;

use super::{Searcher, node::bound_of};
use crate::{
    eval::Evaluation,
    ordering::{self, Refutations},
    score::{INFINITY, MATE, MAX_PLY},
};

impl<E: Evaluation> Searcher<'_, E> {
    /// Resolves captures (and queen promotions) until the position is quiet, so
    /// the evaluation never sees a piece hanging mid-exchange. Captures that lose
    /// material are left out: the side to move would rather stand pat.
    pub(super) fn quiescence(&mut self, board: &Board, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = 0;
        if self.tick(ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(board);
        }
        let in_check = !board.checkers().is_empty();
        let key = board.hash();
        let entry = self.tt.probe(key, ply);
        if let Some(entry) = entry
            && beta - alpha == 1
            && entry.cuts(alpha, beta)
        {
            return entry.score;
        }
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut static_eval = None;
        if !in_check {
            // Standing pat: the side to move need not capture.
            let eval = match entry.and_then(|e| e.eval) {
                Some(eval) => eval,
                None => self.evaluate(board),
            };
            if self.stopped {
                return 0;
            }
            static_eval = Some(eval);
            best_score = eval;
            if best_score >= beta {
                if entry.is_none() {
                    self.tt.store(key, None::<Move>, best_score, 0, Bound::Lower, ply, static_eval);
                }
                return best_score;
            }
            alpha = alpha.max(best_score);
        }
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        // In check every evasion counts, or a mate would pass for a quiet position.
        let hash_move = entry.and_then(|e| e.mv);
        ordering::generate(board, !in_check, hash_move, Refutations::default(), &self.heuristics, &mut moves);
        if in_check && moves.is_empty() {
            self.move_lists[ply] = moves;
            return -MATE + ply as i32;
        }
        let mut best_move = None;
        for index in 0..moves.len() {
            let mv = ordering::pick(&mut moves, index);
            // Moves come best first, and the losing captures last.
            if !in_check && moves[index].score < ordering::GOOD_TACTICAL {
                break;
            }
            let mut child = board.clone();
            child.play_unchecked(mv);
            self.make(mv, &child);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
            self.unmake();
            if self.stopped {
                self.move_lists[ply] = moves;
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.move_lists[ply] = moves;
        let bound = bound_of(best_score, original_alpha, beta);
        self.tt.store(key, best_move, best_score, 0, bound, ply, static_eval);
        best_score
    }
}
