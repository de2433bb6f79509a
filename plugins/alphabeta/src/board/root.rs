//! The root: iterative deepening with aspiration windows, several lines when
//! asked, root moves that would lose by a repetition rule put last, and what
//! the host is told.

use std::cmp::Reverse;

use plugboard_plugin_api::{NO_DEADLINE, Score, SearchInfo, SearchOutcome, abi_stable::std_types::ROption};

use super::{Rules, search::Searcher};
use crate::{
    early_stop::EarlyStop,
    eval::BoardEvaluation,
    score::{INFINITY, MATE, MATE_BOUND, TABLEBASE_WIN, shown_score},
};

const PROGRESS_INTERVAL_MS: u64 = 100;
/// The first aspiration window, either side of the last iteration's score.
const WINDOW: i32 = 25;

/// How settled the search's choice is, from iteration to iteration: the next
/// iteration is begun later into the move's time when the best move has just
/// changed or the score has just fallen (the search is finding something out),
/// sooner when the same move has come out best again and again.
#[derive(Default)]
struct Steadiness {
    /// Iterations in a row that kept the best move.
    kept: u32,
    changed: bool,
    fell: bool,
}

/// A score this far below the last iteration's has found a threat.
const FALL: i32 = 30;

impl Steadiness {
    /// An iteration finished with `score`; `previous` is the last one's score
    /// and whether its best move was the same.
    fn note(&mut self, previous: Option<(i32, bool)>, score: i32) {
        let Some((previous, same)) = previous else { return };
        self.changed = !same;
        self.kept = if same { self.kept + 1 } else { 0 };
        self.fell = score <= previous - FALL;
    }

    /// How far into the soft deadline, in 32nds, a new iteration may still begin.
    fn share(&self) -> u64 {
        let base = match (self.changed, self.kept) {
            (true, _) => 24,
            (false, kept) if kept >= 4 => 12,
            _ => 16,
        };
        base + if self.fell { 6 } else { 0 }
    }
}

/// A root move and what is known of it.
#[derive(Clone, Copy)]
struct RootMove<M> {
    m: M,
    /// Repeating with it would lose the game by a repetition rule (xboard's
    /// perpetual check or chase in xiangqi).
    forbidden: bool,
}

impl<R: Rules, E: BoardEvaluation> Searcher<'_, R, E> {
    /// The main thread: deepens until a limit, reporting each finished iteration.
    pub(super) fn iterate(&mut self, moves: Vec<R::Move>) -> SearchOutcome {
        let mut root_moves = self.judge_root_moves(moves);
        let lines = (self.multipv() as usize).clamp(1, root_moves.len());
        let mut best: Option<(i32, Vec<R::Move>)> = None;
        let mut last_progress = 0;
        let mut steadiness = Steadiness::default();
        let soft = self.control.soft_deadline_ms();
        for depth in 1..=self.max_depth {
            self.seldepth = 0;
            self.iteration_best = None;
            // With a move to fall back on, the iteration may end once the move's
            // time (more of it while the choice is unsettled) is spent.
            self.early_stop = if self.control.is_infinite() || soft == NO_DEADLINE || best.is_none() {
                EarlyStop::NEVER
            } else {
                EarlyStop::iteration(soft.saturating_mul(steadiness.share()) / 16)
            };
            let mut chosen: Vec<R::Move> = Vec::new();
            for line in 1..=lines {
                let previous = if line == 1 { best.as_ref().map(|(score, _)| *score) } else { None };
                let (score, finished) = self.aspirate(&mut root_moves, &chosen, depth, previous, &mut last_progress);
                if !finished {
                    // A root move searched to the end in the unfinished iteration beats
                    // the old line; it is told, so that the move played is the last line's.
                    if let Some((m, score)) = self.iteration_best.filter(|_| line == 1) {
                        let pv = if self.pv[0].first() == Some(&m) {
                            self.pv[0].clone()
                        } else {
                            let ponder =
                                best.as_ref().filter(|(_, pv)| pv.first() == Some(&m)).and_then(|(_, pv)| pv.get(1));
                            std::iter::once(m).chain(ponder.copied()).collect()
                        };
                        self.report_line(depth, score, &pv, 1, root_moves.len());
                        best = Some((score, pv));
                    }
                    break;
                }
                let pv = self.pv[0].clone();
                let Some(&first) = pv.first() else { break };
                self.report_line(depth, score, &pv, line, root_moves.len());
                chosen.push(first);
                if line == 1 {
                    steadiness.note(best.as_ref().map(|(score, pv)| (*score, pv[0] == first)), score);
                    best = Some((score, pv));
                }
            }
            if self.stopped {
                break;
            }
            let Some((score, _)) = best else { break };
            if !self.control.is_infinite() {
                let soft = self.control.soft_deadline_ms();
                if self.elapsed_ms() > soft.saturating_mul(steadiness.share()) / 32
                    || (root_moves.len() == 1 && soft != NO_DEADLINE)
                    || (score.abs() >= MATE_BOUND && depth > MATE - score.abs() + 2)
                {
                    break;
                }
            }
        }
        // Analysis and pondering go on until the host says stop.
        while self.control.is_infinite() && !self.control.stop_requested() && !self.stopped {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let (best, ponder) = match best.filter(|(_, line)| !line.is_empty()) {
            Some((_, line)) => (line[0], line.get(1).copied()),
            None => (root_moves[0].m, None),
        };
        let ponder = ponder.or_else(|| self.guess_reply(best));
        SearchOutcome { best: ROption::RSome(R::to_api(best)), ponder: ponder.map(R::to_api).into() }
    }

    /// The reply to ponder on when the line ends at `best` (cut short by the
    /// table or the clock): the table's move after it, else its first legal
    /// reply, since pondering on any reply beats not pondering at all.
    fn guess_reply(&mut self, best: R::Move) -> Option<R::Move> {
        let undo = self.position.play(best);
        let hash_move = self.table.probe::<R::Move>(self.position.hash(), 1).and_then(|entry| entry.mv);
        let reply = hash_move.and_then(|m| self.position.resolve(m)).or_else(|| {
            let mut replies = Vec::new();
            if !self.position.has_ended() {
                self.position.legal_moves(&mut replies);
            }
            replies.first().copied()
        });
        self.position.undo(best, undo);
        reply
    }

    /// A helper thread: deepens without reporting until the main thread stops,
    /// starting one ply deeper every other helper so they spread out.
    pub(super) fn help(&mut self, moves: Vec<R::Move>, helper: usize) {
        let mut root_moves = self.judge_root_moves(moves);
        let mut previous = None;
        let mut ignored = u64::MAX;
        for depth in (1 + (helper % 2) as i32)..=self.max_depth {
            let (score, finished) = self.aspirate(&mut root_moves, &[], depth, previous, &mut ignored);
            if !finished {
                return;
            }
            previous = Some(score);
        }
    }

    fn multipv(&self) -> u32 {
        self.multipv_lines
    }

    /// The root moves in their first order, those that would lose by repetition last.
    fn judge_root_moves(&mut self, moves: Vec<R::Move>) -> Vec<RootMove<R::Move>> {
        let hash_move = self.table.probe::<R::Move>(self.position.hash(), 0).and_then(|entry| entry.mv);
        let mut scores = Vec::new();
        self.order.score(&self.position, &moves, hash_move, 0, true, &mut scores);
        let mut root_moves: Vec<(RootMove<R::Move>, i32)> = moves
            .iter()
            .zip(scores)
            .map(|(&m, score)| (RootMove { m, forbidden: self.position.loses_by_repetition(self.history, m) }, score))
            .collect();
        root_moves.sort_by_key(|&(root_move, score)| (root_move.forbidden, Reverse(score)));
        root_moves.into_iter().map(|(root_move, _)| root_move).collect()
    }

    /// One iteration at `depth` for one line, within a window around `previous`
    /// widened until the score falls inside; the score, and whether the search
    /// finished (was not stopped).
    fn aspirate(
        &mut self,
        root_moves: &mut [RootMove<R::Move>],
        excluded: &[R::Move],
        depth: i32,
        previous: Option<i32>,
        last_progress: &mut u64,
    ) -> (i32, bool) {
        let mut window = WINDOW;
        let (mut alpha, mut beta) = match previous {
            Some(score) if depth >= 5 && score.abs() < MATE_BOUND => (score - window, score + window),
            _ => (-INFINITY, INFINITY),
        };
        loop {
            let score = self.search_root(root_moves, excluded, depth, alpha, beta, last_progress);
            if self.stopped {
                return (score, false);
            }
            if score <= alpha && alpha > -INFINITY {
                alpha = (alpha - window).max(-INFINITY);
                if excluded.is_empty() {
                    self.early_stop.failed_low();
                }
            } else if score >= beta && beta < INFINITY {
                beta = (beta + window).min(INFINITY);
                if excluded.is_empty() {
                    self.early_stop.holds();
                }
            } else {
                return (score, true);
            }
            window *= 2;
        }
    }

    fn search_root(
        &mut self,
        root_moves: &mut [RootMove<R::Move>],
        excluded: &[R::Move],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        last_progress: &mut u64,
    ) -> i32 {
        self.pv[0].clear();
        self.reset_eval();
        let all_forbidden = root_moves.iter().all(|root_move| root_move.forbidden);
        let mut best_score = -INFINITY;
        let mut best_index = None;
        let mut searched = 0;
        let count = root_moves.len();
        for (index, &RootMove { m, forbidden }) in root_moves.iter().enumerate() {
            if excluded.contains(&m) {
                continue;
            }
            self.report_progress(m, index, count, depth, last_progress);
            let score = if forbidden && !all_forbidden {
                // Lost by rule: only better than being mated.
                -(TABLEBASE_WIN - 1)
            } else {
                let undo = self.make(m);
                let score = if searched == 0 {
                    -self.negamax(depth - 1, -beta, -alpha, 1)
                } else {
                    let score = -self.negamax(depth - 1, -alpha - 1, -alpha, 1);
                    if score > alpha && score < beta && !self.stopped {
                        -self.negamax(depth - 1, -beta, -alpha, 1)
                    } else {
                        score
                    }
                };
                self.unmake(m, undo);
                score
            };
            searched += 1;
            if self.stopped {
                break;
            }
            let first_line = excluded.is_empty();
            if searched == 1 && score <= alpha && first_line {
                self.early_stop.failed_low();
            }
            if score > best_score {
                best_score = score;
                if score > alpha || best_index.is_none() {
                    best_index = Some(index);
                    self.update_pv(0, m);
                }
                if score > alpha && first_line {
                    self.iteration_best = Some((m, score));
                    self.early_stop.holds();
                }
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        // The best move leads the next search; the rest keep their order.
        if let Some(best_index) = best_index {
            root_moves[..=best_index].rotate_right(1);
        }
        best_score
    }

    fn report_line(&self, depth: i32, score: i32, pv: &[R::Move], line: usize, root_move_count: usize) {
        let Some(reporter) = self.reporter else { return };
        let pv: Vec<plugboard_plugin_api::Move> = pv.iter().map(|&m| R::to_api(m)).collect();
        let nodes = self.team.nodes.load(std::sync::atomic::Ordering::Relaxed).max(self.nodes);
        self.table.publish_fill();
        let info = SearchInfo::line(depth as u32, shown_score(score), nodes, self.elapsed_ms(), &pv)
            .with_seldepth(self.seldepth as u32)
            .with_multipv(line as u32);
        reporter.report(&SearchInfo { root_move_count: root_move_count as u32, ..info });
    }

    fn report_progress(&mut self, m: R::Move, index: usize, count: usize, depth: i32, last_progress: &mut u64) {
        let Some(reporter) = self.reporter else { return };
        let now = self.elapsed_ms();
        if now < last_progress.saturating_add(PROGRESS_INTERVAL_MS) {
            return;
        }
        *last_progress = now;
        let nodes = self.team.nodes.load(std::sync::atomic::Ordering::Relaxed).max(self.nodes);
        let info = SearchInfo::progress(depth as u32, nodes, now).with_current_move(
            R::to_api(m),
            index as u32 + 1,
            count as u32,
        );
        reporter.report(&SearchInfo { seldepth: self.seldepth as u32, score: Score::centipawns(0), ..info });
    }
}

#[cfg(test)]
mod tests {
    use super::Steadiness;

    #[test]
    fn an_unsettled_choice_gets_more_of_the_move_s_time() {
        let mut steadiness = Steadiness::default();
        steadiness.note(None, 20);
        assert_eq!(steadiness.share(), 16, "the first iteration has nothing to compare");
        steadiness.note(Some((20, false)), 25);
        let changed = steadiness.share();
        steadiness.note(Some((25, true)), 20);
        let kept_once = steadiness.share();
        for _ in 0..4 {
            steadiness.note(Some((20, true)), 20);
        }
        let kept_long = steadiness.share();
        assert!(changed > kept_once && kept_once > kept_long, "{changed} {kept_once} {kept_long}");
        steadiness.note(Some((20, true)), -40);
        assert!(steadiness.share() > kept_long, "a falling score finds a threat: {}", steadiness.share());
    }
}
