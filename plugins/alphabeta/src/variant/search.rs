//! Iterative-deepening principal-variation search over shakmaty's variant positions.

use std::time::{Duration, Instant};

use plugboard_plugin_api::{
    Bound, EVAL_FAILURE_PREFIX, InfoKind, NO_DEADLINE, Reporter, Score, SearchControl, SearchInfo, SearchOutcome,
    SearchRequest, Variant,
    abi_stable::std_types::{ROption, RSlice},
};
use plugboard_shakmaty::{from_plugin_move, from_plugin_position, outcome, to_plugin_move, to_plugin_position};
use shakmaty::{EnPassantMode, KnownOutcome, Move, Position, Role, variant::VariantPosition, zobrist::Zobrist64};

use super::terms;
use crate::{
    early_stop::EarlyStop,
    eval::{self, Evaluation, SearchEval},
    repetition::{self, Replay},
    score::{DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY, to_score},
    search::CHECK_EVERY,
};

/// The last best move scoring this far below the last iteration's score has met a threat.
const FALL: i32 = 30;

const PROGRESS_INTERVAL_MS: u64 = 100;
/// The table is built afresh for each search, so it stays small enough to allocate at once.
const MAX_TABLE_MB: u32 = 16;

/// Searches `request.root`, whose `variant` is not orthodox chess, on one
/// thread with one evaluation.
pub fn run<E: Evaluation>(
    request: &SearchRequest<'_>,
    new_eval: impl FnOnce() -> Result<E, String>,
    reporter: Reporter<'_>,
) -> Result<SearchOutcome, String> {
    let eval = eval::create(new_eval)?;
    let start = Instant::now();
    let variant = request.root.variant;
    let root = from_plugin_position(&request.root)?;
    let legal = root.legal_moves();
    let mut root_moves: Vec<Move> =
        request.root_moves.iter().filter_map(|&m| from_plugin_move(&root, m)).filter(|m| legal.contains(m)).collect();
    root_moves.dedup();
    if root_moves.is_empty() {
        root_moves = legal.to_vec();
    }
    if root_moves.is_empty() {
        return Ok(SearchOutcome { best: ROption::RNone, ponder: ROption::RNone });
    }
    let history = repetition::game_history(from_plugin_position(&request.game_start).ok(), &request.moves, &root);
    let mut searcher = Searcher::new(request, variant, eval, reporter, start, history);
    searcher.iterate(&root, root_moves)
}

fn hash_of(position: &VariantPosition) -> u64 {
    position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    mv: Option<Move>,
    /// Mates counted from this node, not from the root.
    score: i32,
    depth: i32,
    bound: Bound,
}

struct Searcher<'a, E> {
    eval: SearchEval<E>,
    variant: Variant,
    control: &'a SearchControl,
    reporter: Reporter<'a>,
    table: Vec<Option<Entry>>,
    killers: Vec<[Option<Move>; 2]>,
    start: Instant,
    paused: Duration,
    max_depth: i32,
    node_limit: u64,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    eval_failed: bool,
    /// The game before the root, then the root, then the search path.
    hashes: Vec<u64>,
    root_index: usize,
    pv: Vec<Vec<Move>>,
    last_progress_ms: u64,
    iteration_best: Option<(Move, i32)>,
    /// Whether the iteration in progress may be left unfinished.
    early_stop: EarlyStop,
    preset_scores: Vec<(u64, i32)>,
}

impl<'a, E: Evaluation> Searcher<'a, E> {
    fn new(
        request: &SearchRequest<'a>,
        variant: Variant,
        eval: E,
        reporter: Reporter<'a>,
        start: Instant,
        hashes: Vec<u64>,
    ) -> Searcher<'a, E> {
        let max_depth = match request.depth {
            0 => MAX_PLY as i32 - 1,
            depth => depth.min(MAX_PLY as u32 - 1) as i32,
        };
        // `memory` counts one table: the chess one, kept between searches, goes.
        crate::tt::release_shared_table();
        crate::tt::forget_fill();
        let bytes = (request.hash_mb.clamp(1, MAX_TABLE_MB) as usize) << 20;
        let slots = (bytes / size_of::<Option<Entry>>()).next_power_of_two() / 2;
        Searcher {
            eval: SearchEval::new(eval, request),
            variant,
            control: request.control,
            reporter,
            table: vec![None; slots.max(1024)],
            killers: vec![[None; 2]; MAX_PLY + 1],
            start,
            paused: Duration::ZERO,
            max_depth,
            node_limit: request.nodes,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            eval_failed: false,
            root_index: hashes.len(),
            hashes,
            pv: vec![Vec::new(); MAX_PLY + 2],
            last_progress_ms: 0,
            iteration_best: None,
            early_stop: EarlyStop::NEVER,
            preset_scores: request
                .preset_scores
                .iter()
                .filter_map(|preset| Some((hash_of(&from_plugin_position(&preset.position).ok()?), preset.centipawns)))
                .collect(),
        }
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().saturating_sub(self.paused).as_millis() as u64
    }

    fn iterate(&mut self, root: &VariantPosition, mut root_moves: Vec<Move>) -> Result<SearchOutcome, String> {
        self.hashes.push(hash_of(root));
        root_moves.sort_by_key(|m| std::cmp::Reverse(self.order_score(m, None, 0)));
        let mut best: Option<(i32, Vec<Move>)> = None;
        let soft = self.control.soft_deadline_ms();
        for depth in 1..=self.max_depth {
            self.seldepth = 0;
            self.iteration_best = None;
            self.early_stop = if self.control.is_infinite() || soft == NO_DEADLINE || best.is_none() {
                EarlyStop::NEVER
            } else {
                EarlyStop::iteration(soft)
            };
            self.eval.reset(|| to_plugin_position(root, self.variant));
            let last_score = best.as_ref().map(|(score, _)| *score);
            let score = self.search_root(root, &mut root_moves, depth, last_score);
            if self.eval_failed {
                return Err(format!("{EVAL_FAILURE_PREFIX}: the evaluation panicked"));
            }
            if self.stopped {
                if let Some((m, score)) = self.iteration_best {
                    let ponder =
                        best.as_ref().filter(|(_, line)| line.first() == Some(&m)).and_then(|(_, line)| line.get(1));
                    best = Some((score, std::iter::once(m).chain(ponder.copied()).collect()));
                }
                break;
            }
            let line = self.pv[0].clone();
            self.report_line(depth, score, &line, root_moves.len());
            best = Some((score, line));
            if !self.control.is_infinite() {
                if self.elapsed_ms() > self.control.soft_deadline_ms() / 2 {
                    break;
                }
                if root_moves.len() == 1 && self.control.soft_deadline_ms() != NO_DEADLINE {
                    break;
                }
                if score.abs() >= MATE_BOUND && depth > MATE - score.abs() + 2 {
                    break;
                }
            }
        }
        let (best, ponder) = match best.filter(|(_, line)| !line.is_empty()) {
            Some((_, line)) => (line[0], line.get(1).copied()),
            None => (root_moves[0], None),
        };
        let ponder = ponder.or_else(|| self.guess_reply(root, best));
        Ok(SearchOutcome { best: ROption::RSome(to_plugin_move(best)), ponder: ponder.map(to_plugin_move).into() })
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.table.len() - 1)
    }

    /// The table's entry for the position `key`, if it holds one.
    fn stored(&self, key: u64) -> Option<Entry> {
        self.table[self.slot(key)].filter(|entry| entry.key == key)
    }

    /// The reply to ponder on when the line ends at `best` (cut short by the
    /// table or the clock): the table's move after it, else its first legal
    /// reply, since pondering on any reply beats not pondering at all.
    fn guess_reply(&self, root: &VariantPosition, best: Move) -> Option<Move> {
        let mut after = root.clone();
        after.play_unchecked(best);
        if after.is_variant_end() {
            return None;
        }
        let replies = after.legal_moves();
        let hash_move = self.stored(hash_of(&after)).and_then(|entry| entry.mv);
        hash_move.filter(|m| replies.contains(m)).or_else(|| replies.first().cloned())
    }

    /// One iteration over the root moves; `last_score` is the last iteration's,
    /// which the first move (the last best) falling well below is a threat.
    fn search_root(
        &mut self,
        root: &VariantPosition,
        root_moves: &mut [Move],
        depth: i32,
        last_score: Option<i32>,
    ) -> i32 {
        self.pv[0].clear();
        let depth = depth + i32::from(root.is_check());
        let (mut alpha, beta) = (-INFINITY, INFINITY);
        let mut best_index = 0;
        for index in 0..root_moves.len() {
            let m = root_moves[index];
            self.report_progress(m, index, root_moves.len(), depth);
            let score = self.search_move(root, m, depth, alpha, beta, 0, index == 0);
            if self.stopped {
                break;
            }
            if index == 0 && last_score.is_some_and(|last| score <= last - FALL) {
                self.early_stop.failed_low();
            } else if score > alpha && index > 0 {
                self.early_stop.holds();
            }
            if score > alpha {
                alpha = score;
                best_index = index;
                self.update_pv(0, m);
                self.iteration_best = Some((m, score));
            }
        }
        // The best move leads the next iteration; the rest keep their order.
        root_moves[..=best_index].rotate_right(1);
        alpha
    }

    /// Plays `m`, searches the reply with a null window unless `first`, and
    /// re-searches with the full window when the null window fails high.
    #[allow(clippy::too_many_arguments)]
    fn search_move(
        &mut self,
        position: &VariantPosition,
        m: Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        first: bool,
    ) -> i32 {
        let mut child = position.clone();
        child.play_unchecked(m);
        self.hashes.push(hash_of(&child));
        self.eval.on_make(|| (to_plugin_move(m), to_plugin_position(&child, self.variant)));
        let score = if first {
            -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
        } else {
            let score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
            if score > alpha && score < beta && !self.stopped {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                score
            }
        };
        self.hashes.pop();
        self.eval.on_unmake();
        score
    }

    fn negamax(&mut self, position: &VariantPosition, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.tick(ply) {
            return DRAW;
        }
        let key = *self.hashes.last().unwrap_or(&0);
        if let Some(score) = self.preset_score(key) {
            return score;
        }
        if self.is_draw(position) {
            return DRAW;
        }
        let moves = if position.is_variant_end() { Default::default() } else { position.legal_moves() };
        if moves.is_empty() {
            return self.end_score(position, ply);
        }
        if position.is_insufficient_material() {
            return DRAW;
        }
        let depth = depth + i32::from(position.is_check());
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(position, alpha, beta, ply);
        }
        let slot = self.slot(key);
        let stored = self.stored(key);
        if let Some(entry) = stored
            && entry.depth >= depth
        {
            let score = from_table(entry.score, ply);
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if usable {
                return score;
            }
        }
        let hash_move = stored.and_then(|entry| entry.mv);
        let mut ordered: Vec<Move> = moves.to_vec();
        ordered.sort_by_key(|m| std::cmp::Reverse(self.order_score(m, hash_move, ply)));

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        for (index, &m) in ordered.iter().enumerate() {
            let score = self.search_move(position, m, depth, alpha, beta, ply, index == 0);
            if self.stopped {
                return DRAW;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        if !m.is_capture() && self.killers[ply][0] != Some(m) {
                            self.killers[ply] = [Some(m), self.killers[ply][0]];
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table[slot] = Some(Entry { key, mv: best_move, score: to_table(best_score, ply), depth, bound });
        best_score
    }

    fn quiescence(&mut self, position: &VariantPosition, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        // Checks and replies can chain on without end; the tables stop at MAX_PLY.
        if ply >= MAX_PLY {
            return self.evaluate(position);
        }
        self.pv[ply].clear();
        if self.tick(ply) {
            return DRAW;
        }
        if position.is_variant_end() {
            return self.end_score(position, ply);
        }
        let in_check = position.is_check();
        let moves = if in_check { position.legal_moves() } else { position.capture_moves() };
        if in_check && moves.is_empty() {
            return self.end_score(position, ply);
        }
        let mut best = -INFINITY;
        if !in_check {
            best = self.evaluate(position);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut ordered: Vec<Move> = moves.to_vec();
        ordered.sort_by_key(|m| std::cmp::Reverse(self.order_score(m, None, ply)));
        for m in ordered {
            let mut child = position.clone();
            child.play_unchecked(m);
            self.hashes.push(hash_of(&child));
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
            self.hashes.pop();
            if self.stopped {
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
        best
    }

    /// The score of a position the rules have ended, for its side to move.
    fn end_score(&self, position: &VariantPosition, ply: usize) -> i32 {
        match outcome(position, self.variant) {
            Some(KnownOutcome::Decisive { winner }) if winner == position.turn() => MATE - ply as i32,
            Some(KnownOutcome::Decisive { .. }) => -(MATE - ply as i32),
            Some(KnownOutcome::Draw) | None => DRAW,
        }
    }

    fn order_score(&self, m: &Move, hash_move: Option<Move>, ply: usize) -> i32 {
        if Some(*m) == hash_move {
            return 1_000_000;
        }
        let value = |role: Role| match role {
            Role::Pawn => 1,
            Role::Knight | Role::Bishop => 3,
            Role::Rook => 5,
            Role::Queen => 9,
            Role::King => 10,
        };
        if let Some(victim) = m.capture() {
            return 100_000 + 100 * value(victim) - value(m.role());
        }
        if m.is_promotion() {
            return 90_000;
        }
        match self.killers[ply.min(MAX_PLY)] {
            [Some(killer), _] if killer == *m => 80_000,
            [_, Some(killer)] if killer == *m => 79_999,
            // Drops of bigger pieces first: they are the threats in crazyhouse.
            _ if matches!(m, Move::Put { .. }) => value(m.role()),
            _ => 0,
        }
    }

    fn tick(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply + 1);
        if self.stopped {
            return true;
        }
        if self.node_limit != 0 && self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(CHECK_EVERY) {
            let control = self.control;
            if control.is_paused() {
                self.paused += control.wait_while_paused();
            }
            let elapsed = self.elapsed_ms();
            let out_of_time =
                !control.is_infinite() && (elapsed >= control.hard_deadline_ms() || self.early_stop.due(elapsed));
            if control.stop_requested() || out_of_time {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn preset_score(&self, key: u64) -> Option<i32> {
        self.preset_scores.iter().find(|(hash, _)| *hash == key).map(|&(_, score)| score)
    }

    /// Fifty moves, a repetition since the root, or a third occurrence in the game.
    fn is_draw(&self, position: &VariantPosition) -> bool {
        position.halfmoves() >= 100
            || repetition::repeats(&self.hashes, self.root_index, position.halfmoves() as usize, 0)
    }

    fn evaluate(&mut self, position: &VariantPosition) -> i32 {
        let mut score = terms::score(position, self.variant);
        if !terms::replaces_evaluation(self.variant) {
            let Some(base) = self.eval.evaluate(&to_plugin_position(position, self.variant)) else {
                self.eval_failed = true;
                self.stopped = true;
                return DRAW;
            };
            score += base;
        }
        score += self.eval.noise(self.hashes.last().copied().unwrap_or(0));
        // Room must stay between the largest evaluation and the smallest mate.
        score.clamp(-(MATE_BOUND - 1), MATE_BOUND - 1)
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (parents, children) = self.pv.split_at_mut(ply + 1);
        let line = &mut parents[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&children[0]);
    }

    fn report_line(&self, depth: i32, score: i32, line: &[Move], root_move_count: usize) {
        let pv: Vec<plugboard_plugin_api::Move> = line.iter().map(|&m| to_plugin_move(m)).collect();
        self.reporter.report(&SearchInfo {
            kind: InfoKind::Line,
            depth: depth as u32,
            seldepth: self.seldepth as u32,
            score: to_score(score),
            nodes: self.nodes,
            time_ms: self.elapsed_ms(),
            tbhits: 0,
            pv: RSlice::from_slice(&pv),
            current_move: ROption::RNone,
            current_move_number: 0,
            root_move_count: root_move_count as u32,
            multipv: 1,
        });
    }

    fn report_progress(&mut self, m: Move, index: usize, count: usize, depth: i32) {
        let now = self.elapsed_ms();
        if now < self.last_progress_ms + PROGRESS_INTERVAL_MS {
            return;
        }
        self.last_progress_ms = now;
        self.reporter.report(&SearchInfo {
            kind: InfoKind::Progress,
            depth: depth.max(0) as u32,
            seldepth: self.seldepth as u32,
            score: Score::centipawns(0),
            nodes: self.nodes,
            time_ms: now,
            tbhits: 0,
            pv: RSlice::from_slice(&[]),
            current_move: ROption::RSome(to_plugin_move(m)),
            current_move_number: index as u32 + 1,
            root_move_count: count as u32,
            multipv: 1,
        });
    }
}

/// Mate scores go into the table as distances from the node that stores them.
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl Replay for VariantPosition {
    fn key(&self) -> u64 {
        hash_of(self)
    }

    fn replay(&mut self, m: plugboard_plugin_api::Move) -> Option<()> {
        let m = from_plugin_move(self, m)?;
        self.play_unchecked(m);
        Some(())
    }
}
