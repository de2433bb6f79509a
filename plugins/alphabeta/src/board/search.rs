//! One thread's search of a board position: negamax with principal-variation
//! windows, the table, null-move and futility pruning, late-move reductions
//! (less where the evaluation rises or history favours the move), internal
//! iterative reduction, check extension and a capture search (which passes
//! over the captures the rules call losing), over a position played and taken
//! back in place by the game's [`Rules`].

use std::{
    sync::atomic::{AtomicBool, AtomicU64, Ordering},
    time::{Duration, Instant},
};

use plugboard_plugin_api::{BoardPosition, BoardSearchRequest, Bound, Reporter, SearchControl};

use super::{
    History, Rules,
    ordering::{HISTORY_LIMIT, Ordering as MoveOrder},
};
use crate::{
    early_stop::EarlyStop,
    eval::{BoardEvaluation, noise},
    score::{DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY, TABLEBASE_BOUND},
    search::{CHECK_EVERY, late_move_reduction},
    tt::TranspositionTable,
};

/// Nodes a thread counts on its own before adding them to the team's count.
const NODE_BATCH: u64 = 64;
/// Entries of each thread's evaluation cache (a power of two): 1 MiB.
const EVAL_CACHE_SIZE: usize = 1 << 16;
/// No score: the static evaluation of a position in check.
const NO_SCORE: i32 = -INFINITY;

/// What the threads of one search share besides the table.
pub(crate) struct Team {
    /// 0 for none; counts every thread's nodes.
    pub(super) node_limit: u64,
    pub(super) nodes: AtomicU64,
    pub(super) stop: AtomicBool,
    pub(super) eval_failed: AtomicBool,
}

pub(super) struct Searcher<'a, R: Rules, E> {
    pub(super) position: R,
    /// `position` as the evaluation sees it, kept in step.
    board: BoardPosition,
    /// The boards before each move of the path, to take moves back.
    boards: Vec<BoardPosition>,
    /// Reused move lists and ordering scores, one of each per ply.
    pub(super) lists: Vec<Vec<R::Move>>,
    pub(super) scores: Vec<Vec<i32>>,
    /// The static evaluation at each ply of the path ([`NO_SCORE`] in check).
    static_evals: Vec<i32>,
    eval: E,
    /// The evaluation's scores by position key, [`EVAL_CACHE_SIZE`] of them:
    /// the capture search meets the same positions by many orders of captures,
    /// and the table keeps no evaluation of them.
    eval_cache: Vec<(u64, i32)>,
    notify: bool,
    noise: u32,
    noise_seed: u64,
    pub(super) table: &'a TranspositionTable,
    pub(super) team: &'a Team,
    pub(super) control: &'a SearchControl,
    pub(super) reporter: Option<Reporter<'a>>,
    pub(super) start: Instant,
    pub(super) paused: Duration,
    pub(super) max_depth: i32,
    /// Principal variations to report, 1 in play.
    pub(super) multipv_lines: u32,
    /// Nodes of this thread, and those not yet added to the team's count.
    pub(super) nodes: u64,
    unreported: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    /// Whether the main thread may leave the iteration in progress unfinished.
    pub(super) early_stop: EarlyStop,
    /// The best root move of the iteration in progress, once one is searched
    /// to the end above the window's floor, with its score.
    pub(super) iteration_best: Option<(R::Move, i32)>,
    /// Keys of the game's positions, then the root's, then one per ply of the path.
    keys: Vec<u64>,
    /// Whether the move into the position of the same index gave check.
    checks: Vec<bool>,
    /// No repetition reaches back past a null move: the index after it.
    barrier: usize,
    pub(super) order: MoveOrder<R>,
    pub(super) pv: Vec<Vec<R::Move>>,
    preset_scores: Vec<(u64, i32)>,
    /// The game up to the root, for judging root moves by the game's rules.
    pub(super) history: &'a History<R>,
}

impl<'a, R: Rules, E: BoardEvaluation> Searcher<'a, R, E> {
    pub(super) fn new(
        request: &BoardSearchRequest<'a>,
        table: &'a TranspositionTable,
        team: &'a Team,
        eval: E,
        root: &R,
        history: &'a History<R>,
        reporter: Option<Reporter<'a>>,
    ) -> Searcher<'a, R, E> {
        let max_depth = match request.depth {
            0 => MAX_PLY as i32 - 1,
            depth => depth.min(MAX_PLY as u32 - 1) as i32,
        };
        let mut keys = Vec::with_capacity(history.keys.len() + MAX_PLY + 2);
        keys.extend_from_slice(&history.keys);
        let mut checks = Vec::with_capacity(keys.capacity());
        checks.extend_from_slice(&history.checks);
        Searcher {
            board: root.board(),
            boards: Vec::with_capacity(MAX_PLY + 2),
            lists: vec![Vec::new(); MAX_PLY + 2],
            scores: vec![Vec::new(); MAX_PLY + 2],
            static_evals: vec![NO_SCORE; MAX_PLY + 2],
            eval_cache: vec![(0, 0); EVAL_CACHE_SIZE],
            position: root.clone(),
            notify: eval.wants_notifications(),
            eval,
            noise: request.eval_noise,
            noise_seed: request.noise_seed,
            table,
            team,
            control: request.control,
            reporter,
            start: Instant::now(),
            paused: Duration::ZERO,
            max_depth,
            multipv_lines: request.multipv.max(1),
            nodes: 0,
            unreported: 0,
            seldepth: 0,
            stopped: false,
            early_stop: EarlyStop::NEVER,
            iteration_best: None,
            barrier: 0,
            keys,
            checks,
            order: MoveOrder::new(),
            pv: vec![Vec::new(); MAX_PLY + 2],
            preset_scores: request
                .preset_scores
                .iter()
                .filter_map(|preset| Some((R::from_board_of(root, &preset.position)?.hash(), preset.centipawns)))
                .collect(),
            history,
        }
    }

    pub(super) fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().saturating_sub(self.paused).as_millis() as u64
    }

    pub(super) fn reset_eval(&mut self) {
        if self.notify {
            self.eval.reset(&self.board);
        }
    }

    /// Plays `m` on the position, the board and the path.
    pub(super) fn make(&mut self, m: R::Move) -> R::Undo {
        self.boards.push(self.board);
        self.position.update_board(&mut self.board, m);
        let undo = self.position.play(m);
        self.position.finish_board(&mut self.board);
        self.board.side_to_move ^= 1;
        self.board.halfmove_clock = self.position.halfmoves().min(u32::from(u16::MAX)) as u16;
        self.board.fullmove_number = self.position.fullmoves();
        self.keys.push(self.position.hash());
        self.checks.push(self.position.is_check());
        if self.notify {
            self.eval.on_make(R::to_api(m), &self.board);
        }
        undo
    }

    pub(super) fn unmake(&mut self, m: R::Move, undo: R::Undo) {
        self.position.undo(m, undo);
        self.board = self.boards.pop().expect("a board for each move made");
        self.keys.pop();
        self.checks.pop();
        if self.notify {
            self.eval.on_unmake();
        }
    }

    /// The static evaluation of the current position, noise included; `None`
    /// when the evaluation failed, which stops every thread.
    fn evaluate(&mut self) -> Option<i32> {
        let key = self.position.hash();
        let slot = (key as usize) & (EVAL_CACHE_SIZE - 1);
        let score = match self.eval_cache[slot] {
            (cached_key, score) if cached_key == key && key != 0 => score,
            _ => {
                let score = self.eval.evaluate(&self.board);
                if score != plugboard_plugin_api::EVAL_FAILED {
                    self.eval_cache[slot] = (key, score);
                }
                score
            }
        };
        if score == plugboard_plugin_api::EVAL_FAILED {
            self.team.eval_failed.store(true, Ordering::Relaxed);
            self.team.stop_all();
            self.stopped = true;
            return None;
        }
        Some(
            (score + noise(self.position.hash(), self.noise, self.noise_seed))
                .clamp(-(TABLEBASE_BOUND - 1), TABLEBASE_BOUND - 1),
        )
    }

    /// Counts a node; whether the search must stop now.
    pub(super) fn tick(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.unreported += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.stopped {
            return true;
        }
        if self.unreported >= NODE_BATCH {
            let total = self.team.nodes.fetch_add(self.unreported, Ordering::Relaxed) + self.unreported;
            self.unreported = 0;
            if self.team.node_limit != 0 && total >= self.team.node_limit {
                self.team.stop_all();
            }
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            if self.reporter.is_some() {
                let control = self.control;
                if control.is_paused() {
                    self.paused += control.wait_while_paused();
                }
                let elapsed = self.elapsed_ms();
                let out_of_time =
                    !control.is_infinite() && (elapsed >= control.hard_deadline_ms() || self.early_stop.due(elapsed));
                if control.stop_requested() || out_of_time {
                    self.team.stop_all();
                }
            }
            self.stopped = self.team.stop.load(Ordering::Relaxed);
        }
        self.stopped
    }

    /// The score of the current position if it repeats an earlier one within
    /// reach: lost for a side that gave check with every move since, else a draw.
    fn repetition(&self, ply: usize) -> Option<i32> {
        let current = self.keys.len() - 1;
        let oldest = current.saturating_sub(self.position.halfmoves() as usize).max(self.barrier);
        let key = self.keys[current];
        let mut index = current;
        while index >= oldest + 2 {
            index -= 2;
            if self.keys[index] != key {
                continue;
            }
            // Moves into current, current - 2, … are the last mover's; the others the side to move's.
            let mover_checked = (index + 2..=current).step_by(2).all(|i| self.checks[i]);
            let other_checked = (index + 1..current).step_by(2).all(|i| self.checks[i]);
            return Some(self.position.repetition_score(mover_checked, other_checked, ply));
        }
        None
    }

    fn preset_score(&self, key: u64) -> Option<i32> {
        self.preset_scores.iter().find(|&&(k, _)| k == key).map(|&(_, score)| score)
    }

    pub(super) fn negamax(&mut self, depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.tick(ply) {
            return DRAW;
        }
        let in_check = self.position.is_check();
        if self.position.has_ended() {
            return self.position.score_of_end(ply);
        }
        if ply > 0 {
            if let Some(score) = self.repetition(ply) {
                return score;
            }
            if let Some(score) = self.preset_score(self.position.hash()) {
                return score;
            }
            // Mate-distance pruning: nothing here beats a mate already found nearer the root.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let depth = depth + i32::from(in_check);
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(alpha, beta, ply);
        }
        let pv_node = beta - alpha > 1;
        let key = self.position.hash();
        let entry = self.table.probe::<R::Move>(key, ply);
        if let Some(entry) = entry
            && !pv_node
            && entry.depth >= depth
        {
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => entry.score >= beta,
                Bound::Upper => entry.score <= alpha,
            };
            if usable {
                return entry.score;
            }
        }
        let static_eval = if in_check {
            None
        } else {
            match entry.and_then(|entry| entry.eval) {
                Some(eval) => Some(eval),
                None => Some(match self.evaluate() {
                    Some(eval) => eval,
                    None => return DRAW,
                }),
            }
        };
        self.static_evals[ply] = static_eval.unwrap_or(NO_SCORE);
        // Better than two plies ago: pruning on a rising evaluation is riskier.
        let improving = static_eval.is_some() && ply >= 2 && self.static_evals[ply] > self.static_evals[ply - 2];
        // A stored bound on the score guesses better than the evaluation.
        let eval = match (static_eval, entry) {
            (Some(eval), Some(entry)) if entry.score.abs() < TABLEBASE_BOUND && entry.bounds_better(eval) => {
                Some(entry.score)
            }
            (eval, _) => eval,
        };

        if let Some(eval) = eval
            && !pv_node
            && beta.abs() < MATE_BOUND
        {
            // Reverse futility: far above beta with little depth left.
            if depth <= 6 && eval - 90 * (depth - i32::from(improving)) >= beta {
                return eval;
            }
            // Null move: if passing still holds beta, a real move will.
            if depth >= 3 && eval >= beta && self.position.null_move_allowed() && self.barrier != self.keys.len() {
                let reduction = 3 + depth / 4 + ((eval - beta) / 200).min(2);
                let undo = self.position.play_null();
                let board = self.board;
                self.board.side_to_move ^= 1;
                self.keys.push(self.position.hash());
                self.checks.push(false);
                let barrier = std::mem::replace(&mut self.barrier, self.keys.len());
                let score = -self.negamax(depth - 1 - reduction, -beta, -beta + 1, ply + 1);
                self.barrier = barrier;
                self.keys.pop();
                self.checks.pop();
                self.board = board;
                self.position.undo_null(undo);
                if self.stopped {
                    return DRAW;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        let mut moves = std::mem::take(&mut self.lists[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.position.legal_moves(&mut moves);
        if moves.is_empty() {
            self.lists[ply] = moves;
            self.scores[ply] = scores;
            return self.position.score_of_end(ply);
        }
        // The table's move, as the legal move it names (found among them, not generated again).
        let hash_move =
            entry.and_then(|entry| entry.mv).and_then(|m| moves.iter().copied().find(|&legal| R::names(m, legal)));
        // Internal iterative reduction: with no move from an earlier search to
        // try first, a shallower search orders this node's moves for next time.
        let depth = if hash_move.is_none() && depth >= 4 { depth - 1 } else { depth };
        self.order.score(&self.position, &moves, hash_move, ply, true, &mut scores);
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut quiets_tried: Vec<R::Move> = Vec::new();
        let late_move_limit = (4 + 3 * depth as usize) / (2 - usize::from(improving));
        for index in 0..moves.len() {
            let m = super::ordering::pick(&mut moves, &mut scores, index);
            let capture = self.position.is_capture(m);
            // Near the horizon, once a move has saved us from being mated: a
            // quiet move this far below alpha or this late, or a capture the
            // rules call losing, will not reach it.
            let prunable = index > 0 && !in_check && best_score > -MATE_BOUND && depth <= 3;
            let quiet_prunable = prunable
                && !capture
                && eval.is_some_and(|eval| {
                    !pv_node && (eval + 120 * depth <= alpha || quiets_tried.len() >= late_move_limit)
                });
            if prunable && capture && !pv_node && self.position.loses_material(m) && !self.position.gives_check(m) {
                continue;
            }
            let reducible = depth >= 3 && index >= 3 && !in_check;
            // Whether it checks is asked only where the answer is used: it costs a move played out.
            let quiet = !capture && (quiet_prunable || reducible) && !self.position.gives_check(m);
            if quiet_prunable && quiet {
                quiets_tried.push(m);
                continue;
            }
            let undo = self.make(m);
            let score = if index == 0 {
                -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            } else {
                let reduction = if quiet && reducible {
                    let base = late_move_reduction(depth, index) - i32::from(pv_node) + i32::from(!improving)
                        - i32::from(self.order.is_killer(m, ply))
                        - self.order.history(&self.position, m) / (HISTORY_LIMIT / 2);
                    base.clamp(0, depth - 2)
                } else {
                    0
                };
                let mut score = -self.negamax(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
                if score > alpha && reduction > 0 && !self.stopped {
                    score = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(depth - 1, -beta, -alpha, ply + 1);
                }
                score
            };
            self.unmake(m, undo);
            if self.stopped {
                self.lists[ply] = moves;
                self.scores[ply] = scores;
                return DRAW;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        if !capture {
                            self.order.reward(&self.position, m, &quiets_tried, depth, ply);
                        }
                        break;
                    }
                }
            }
            if !capture {
                quiets_tried.push(m);
            }
        }
        self.lists[ply] = moves;
        self.scores[ply] = scores;
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(key, best_move, best_score, depth, bound, ply, static_eval);
        best_score
    }

    pub(super) fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply.min(MAX_PLY)].clear();
        if ply >= MAX_PLY {
            return self.evaluate().unwrap_or(DRAW);
        }
        if self.tick(ply) {
            return DRAW;
        }
        if self.position.has_ended() {
            return self.position.score_of_end(ply);
        }
        let in_check = self.position.is_check();
        let mut moves = std::mem::take(&mut self.lists[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        let mut best = -INFINITY;
        let mut stand_pat = 0;
        let mut result = None;
        if in_check {
            self.position.legal_moves(&mut moves);
            if moves.is_empty() {
                result = Some(self.position.score_of_end(ply));
            }
        } else {
            match self.evaluate() {
                None => result = Some(DRAW),
                Some(eval) if eval >= beta => result = Some(eval),
                Some(eval) => {
                    stand_pat = eval;
                    alpha = alpha.max(stand_pat);
                    best = stand_pat;
                    self.position.legal_captures(&mut moves);
                }
            }
        }
        if let Some(result) = result {
            self.lists[ply] = moves;
            self.scores[ply] = scores;
            return result;
        }
        self.order.score(&self.position, &moves, None, ply, false, &mut scores);
        for index in 0..moves.len() {
            let m = super::ordering::pick(&mut moves, &mut scores, index);
            // Delta pruning: even the piece taken would not lift the score to alpha.
            if !in_check
                && let Some(victim) = self.position.victim_value(m)
                && stand_pat + victim + 150 <= alpha
            {
                continue;
            }
            if !in_check && self.position.loses_material(m) {
                continue;
            }
            let undo = self.make(m);
            let score = -self.quiescence(-beta, -alpha, ply + 1);
            self.unmake(m, undo);
            if self.stopped {
                self.lists[ply] = moves;
                self.scores[ply] = scores;
                return DRAW;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = moves;
        self.scores[ply] = scores;
        best
    }

    pub(super) fn update_pv(&mut self, ply: usize, m: R::Move) {
        let (parents, children) = self.pv.split_at_mut(ply + 1);
        let line = &mut parents[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&children[0]);
    }
}
