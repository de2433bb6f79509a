//! The root: iterative deepening, multi-PV, aspiration windows, the root move
//! loop and what the search tells the host about them.

use std::cmp::Reverse;

use cozy_chess::{Board, Move};
use plugboard_plugin_api::{
    Bound, EVAL_FAILURE_PREFIX, InfoKind, NO_DEADLINE, Score, SearchInfo, SearchOutcome,
    abi_stable::std_types::{ROption, RSlice},
};

use super::{ASPIRATION_WINDOW, PROGRESS_INTERVAL_MS, Searcher, node::bound_of};
use crate::{
    convert::{board_to_position, move_from_cozy},
    early_stop::EarlyStop,
    eval::Evaluation,
    ordering::{self, Heuristics},
    score::{INFINITY, MATE, MATE_BOUND, shown_score},
};

/// One principal variation of a finished (or cut short) iteration.
pub(super) struct Line {
    pub(super) score: i32,
    bound: Bound,
    moves: Vec<Move>,
}

impl<E: Evaluation> Searcher<'_, E> {
    /// Puts the root on the path and orders its moves for the first iteration.
    pub(super) fn prepare_root(&mut self, root: &Board, root_moves: &mut [Move]) {
        self.hashes.push(root.hash());
        order_root_moves(root, root_moves, self.tt.probe(root.hash(), 0).and_then(|e| e.mv), &self.heuristics);
    }

    /// The main thread's iterative deepening: each depth seeds the next with its
    /// move order and TT. Reports every line, decides when to stop and what to play.
    pub(super) fn iterate(&mut self, root: &Board, mut root_moves: Vec<Move>) -> Result<SearchOutcome, String> {
        self.prepare_root(root, &mut root_moves);
        let mut previous = vec![0; self.multipv.min(root_moves.len())];
        let mut best: Option<Line> = None;
        let soft = self.control.soft_deadline_ms();
        for depth in 1..=self.max_depth {
            // With a move to fall back on, the iteration may end at the soft deadline.
            self.early_stop = if self.control.is_infinite() || soft == NO_DEADLINE || best.is_none() {
                EarlyStop::NEVER
            } else {
                EarlyStop::iteration(soft)
            };
            self.root_depth = depth;
            let lines = self.search_lines(root, &mut root_moves, depth, &previous);
            if self.eval_failed {
                return Err(format!("{EVAL_FAILURE_PREFIX}: the evaluation panicked"));
            }
            let Some(lines) = lines else {
                // A root move searched to the end in the unfinished iteration beats the old line.
                if let Some((mv, score)) = self.iteration_best {
                    let ponder = best
                        .as_ref()
                        .filter(|line| line.moves.first() == Some(&mv))
                        .and_then(|line| line.moves.get(1).copied());
                    let line = Line { score, bound: Bound::Exact, moves: std::iter::once(mv).chain(ponder).collect() };
                    // Told, so that the move played is the last line's.
                    self.report_line(depth, &line, 1, root_moves.len());
                    best = Some(line);
                }
                break;
            };
            for (index, line) in lines.iter().enumerate() {
                self.report_line(depth, line, index + 1, root_moves.len());
            }
            previous = lines.iter().map(|line| line.score).collect();
            let Some(line) = lines.into_iter().next() else { break };
            let score = line.score;
            best = Some(line);

            if !self.control.is_infinite() {
                let elapsed = self.elapsed_ms();
                // Another iteration takes longer than all the previous ones together.
                if elapsed > self.control.soft_deadline_ms() / 2 {
                    break;
                }
                // A forced move needs no thought in a timed game; a depth request still gets its depth.
                if root_moves.len() == 1 && self.control.soft_deadline_ms() != NO_DEADLINE {
                    break;
                }
                let mate_plies = MATE - score.abs();
                if score.abs() >= MATE_BOUND && depth > mate_plies + 2 {
                    break;
                }
            }
        }

        let line = best.filter(|line| !line.moves.is_empty());
        let (best, ponder) = match line {
            Some(line) => (line.moves[0], line.moves.get(1).copied()),
            // Stopped before any root move was finished: hash move if legal, else the first.
            None => {
                let hash_move = self.tt.probe(root.hash(), 0).and_then(|e| e.mv).filter(|mv| root_moves.contains(mv));
                (hash_move.unwrap_or(root_moves[0]), None)
            }
        };
        let ponder = ponder.or_else(|| self.guess_reply(root, best));
        Ok(SearchOutcome { best: ROption::RSome(move_from_cozy(best)), ponder: ponder.map(move_from_cozy).into() })
    }

    /// The reply to ponder on when the line ends at `best` (cut short by the
    /// table or the clock): the table's move after it, else its first legal
    /// reply, since pondering on any reply beats not pondering at all.
    fn guess_reply(&self, root: &Board, best: Move) -> Option<Move> {
        let mut after = root.clone();
        after.play_unchecked(best);
        let mut replies = Vec::new();
        after.generate_moves(|moves| {
            replies.extend(moves);
            false
        });
        let hash_move = self.tt.probe(after.hash(), 1).and_then(|entry| entry.mv).filter(|m| replies.contains(m));
        hash_move.or_else(|| replies.first().copied())
    }

    /// One iteration: the best `previous.len()` root moves, line by line, each
    /// line leaving out the root moves of the lines before it (multi-PV);
    /// `previous` holds the lines' scores from the iteration before, for the
    /// aspiration windows. The lines come back best first, with the root moves
    /// in the same order; `None` if the search stopped first.
    pub(super) fn search_lines(
        &mut self,
        root: &Board,
        root_moves: &mut [Move],
        depth: i32,
        previous: &[i32],
    ) -> Option<Vec<Line>> {
        self.seldepth = 0;
        self.iteration_best = None;
        self.eval.reset(|| board_to_position(root));
        let mut lines = Vec::with_capacity(previous.len());
        for (index, &previous_score) in previous.iter().enumerate() {
            self.line_index = index;
            let (score, bound) = self.aspiration(root, &mut root_moves[index..], depth, previous_score);
            if self.stopped {
                return None;
            }
            lines.push((Line { score, bound, moves: self.root_pv(root) }, root_moves[index]));
        }
        // An unstable search can score a later line above an earlier one; the best
        // is reported first and leads the next iteration all the same.
        lines.sort_by_key(|(line, _)| Reverse(line.score));
        for (slot, (_, mv)) in root_moves.iter_mut().zip(&lines) {
            *slot = *mv;
        }
        Some(lines.into_iter().map(|(line, _)| line).collect())
    }

    /// Searches the root with a narrow window around the last score, widening on failure.
    fn aspiration(&mut self, root: &Board, root_moves: &mut [Move], depth: i32, previous: i32) -> (i32, Bound) {
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if depth >= 5 && previous.abs() < MATE_BOUND {
            (previous - delta, previous + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.search_root(root, root_moves, depth, alpha, beta);
            if self.stopped {
                return (score, Bound::Exact);
            }
            if score <= alpha {
                alpha = (score - delta).max(-INFINITY);
                if self.line_index == 0 {
                    self.early_stop.failed_low();
                }
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
                if self.line_index == 0 {
                    self.early_stop.holds();
                }
            } else {
                return (score, Bound::Exact);
            }
            delta *= 2;
        }
    }

    /// The root move loop over `root_moves`, which are all the root moves but
    /// those of the principal variations before this one.
    fn search_root(&mut self, root: &Board, root_moves: &mut [Move], depth: i32, mut alpha: i32, beta: i32) -> i32 {
        self.pv_len[0] = 0;
        let in_check = !root.checkers().is_empty();
        let depth = depth + i32::from(in_check);
        let mut best_score = -INFINITY;
        let mut best_index = 0;
        let original_alpha = alpha;
        for index in 0..root_moves.len() {
            let mv = root_moves[index];
            self.report_progress(mv, self.line_index + index, self.line_index + root_moves.len(), depth);
            let mut child = root.clone();
            child.play_unchecked(mv);
            self.make(mv, &child);
            self.played[0] = Some(mv);
            self.played_pieces[0] = Some(ordering::PieceTo::of(root, mv));
            let score = if index == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1, true)
            } else {
                let mut score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, true);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(&child, depth - 1, -beta, -alpha, 1, true);
                }
                score
            };
            self.unmake();
            if self.stopped {
                break;
            }
            if index == 0 && score <= original_alpha && self.line_index == 0 {
                self.early_stop.failed_low();
            }
            if score > best_score {
                best_score = score;
                best_index = index;
                if score > alpha {
                    alpha = score;
                    self.update_pv(0, mv);
                    if self.line_index == 0 {
                        self.iteration_best = Some((mv, score));
                        self.early_stop.holds();
                    }
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if self.stopped {
            return best_score;
        }
        // The next iteration starts with this one's best; the rest keep their order.
        root_moves[..=best_index].rotate_right(1);
        let bound = bound_of(best_score, original_alpha, beta);
        // A later line left the better moves out: its result is not the root's.
        if self.line_index == 0 {
            let best_move = (bound != Bound::Upper).then_some(root_moves[0]);
            self.tt.store(root.hash(), best_move, best_score, depth, bound, 0, None);
        }
        best_score
    }

    /// The root principal variation, cut at the first move that is not legal
    /// (it cannot happen, but a report must never carry an illegal move).
    fn root_pv(&self, root: &Board) -> Vec<Move> {
        let mut board = root.clone();
        let mut line = Vec::with_capacity(self.pv_len[0]);
        for &mv in &self.pv[0][..self.pv_len[0]] {
            if board.try_play(mv).is_err() {
                break;
            }
            line.push(mv);
        }
        line
    }

    /// Reports principal variation number `multipv` (from 1) of an iteration.
    fn report_line(&self, depth: i32, line: &Line, multipv: usize, root_move_count: usize) {
        let Some(reporter) = self.reporter else { return };
        let pv: Vec<plugboard_plugin_api::Move> = line.moves.iter().map(|&mv| move_from_cozy(mv)).collect();
        let mut score = shown_score(line.score);
        score.bound = line.bound;
        self.tt.publish_fill();
        reporter.report(&SearchInfo {
            kind: InfoKind::Line,
            depth: depth as u32,
            seldepth: self.seldepth as u32,
            score,
            nodes: self.total_nodes(),
            time_ms: self.elapsed_ms(),
            tbhits: self.total_tbhits(),
            pv: RSlice::from_slice(&pv),
            current_move: ROption::RNone,
            current_move_number: 0,
            root_move_count: root_move_count as u32,
            multipv: multipv as u32,
        });
    }

    /// Tells the GUI which root move is being searched, at most every `PROGRESS_INTERVAL_MS`.
    fn report_progress(&mut self, mv: Move, index: usize, count: usize, depth: i32) {
        let Some(reporter) = self.reporter else { return };
        let now = self.elapsed_ms();
        if now < self.last_progress_ms + PROGRESS_INTERVAL_MS {
            return;
        }
        self.last_progress_ms = now;
        reporter.report(&SearchInfo {
            kind: InfoKind::Progress,
            depth: depth.max(0) as u32,
            seldepth: self.seldepth as u32,
            score: Score::centipawns(0),
            nodes: self.total_nodes(),
            time_ms: now,
            tbhits: self.total_tbhits(),
            pv: RSlice::from_slice(&[]),
            current_move: ROption::RSome(move_from_cozy(mv)),
            current_move_number: index as u32 + 1,
            root_move_count: count as u32,
            multipv: self.line_index as u32 + 1,
        });
    }
}

/// Orders the root moves for the first iteration the way inner nodes are ordered.
fn order_root_moves(root: &Board, root_moves: &mut [Move], hash_move: Option<Move>, heuristics: &Heuristics) {
    let mut scored = Vec::new();
    ordering::generate(root, false, hash_move, ordering::Refutations::default(), heuristics, &mut scored);
    let score_of = |mv: &Move| scored.iter().find(|s| s.mv == *mv).map_or(i32::MIN, |s| s.score);
    // Stable, so equal scores keep move-generator order and the search stays deterministic.
    root_moves.sort_by_key(|mv| std::cmp::Reverse(score_of(mv)));
}
