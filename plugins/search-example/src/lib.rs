//! The search plugin to copy: iterative deepening over a plain alpha-beta, with
//! the evaluation the user chose in the engine's menu.
//!
//! The plugin API hands a search positions and moves as plain data and no move
//! generator: a search brings its own. This one uses shakmaty through
//! `plugboard-shakmaty` (which converts the API's positions and moves), so it is
//! GPL-3.0-or-later like shakmaty; a search built on cozy-chess (MIT) or its own
//! generator may take any licence.

use std::time::Instant;

use plugboard_plugin_api::{
    EVAL_FAILED, EVAL_FAILURE_PREFIX, Evaluator, EvaluatorSource, Move, PluginInfo, Reporter, Score, SearchControl,
    SearchInfo, SearchOutcome, SearchPlugin, SearchRequest, Variant,
};
use shakmaty::{Position, variant::VariantPosition};

/// Above every evaluation (the API clamps them to ±20,000): a mate in N plies
/// scores `MATE - N`.
const MATE: i32 = 30_000;

pub struct Example;

impl SearchPlugin for Example {
    fn info() -> PluginInfo {
        PluginInfo::new("example", "0.1.0")
            .author("The Plugboard authors")
            .description("A small alpha-beta search, the one to copy")
            .variants("normal")
    }

    fn search(
        request: &SearchRequest<'_>,
        eval: EvaluatorSource,
        reporter: Reporter<'_>,
    ) -> Result<SearchOutcome, String> {
        let root = plugboard_shakmaty::from_plugin_position(&request.root)?;
        let mut search = Search {
            evaluator: eval.create().map_err(|why| format!("{EVAL_FAILURE_PREFIX}: {why}"))?,
            variant: request.root.variant,
            control: request.control,
            started: Instant::now(),
            nodes: 0,
            aborted: false,
            eval_failed: false,
        };
        // The host may restrict the root to some moves (analysis `exclude`, the
        // tablebases' drawing moves); empty means all of them.
        let mut root_moves: Vec<shakmaty::Move> = root.legal_moves().into_iter().collect();
        if !request.root_moves.is_empty() {
            root_moves.retain(|m| request.root_moves.contains(&plugboard_shakmaty::to_plugin_move(*m)));
        }
        let mut best: Vec<Move> = Vec::new();
        let max_depth = if request.depth == 0 { 64 } else { request.depth };
        for depth in 1..=max_depth {
            let mut pv = Vec::new();
            let score = search.root(&root, &root_moves, depth, &mut pv);
            if search.eval_failed {
                return Err(format!("{EVAL_FAILURE_PREFIX}: the evaluation panicked"));
            }
            // An iteration cut short proves nothing: keep the last whole one.
            if search.aborted {
                break;
            }
            best = pv;
            let elapsed = search.elapsed_ms();
            reporter.report(&SearchInfo::line(depth, score_of(score), search.nodes, elapsed, &best));
            // Half the soft limit gone: the next iteration would likely not finish.
            let out_of_time =
                !search.control.is_infinite() && elapsed.saturating_mul(2) >= search.control.soft_deadline_ms();
            if out_of_time || (request.nodes > 0 && search.nodes >= request.nodes) || score.abs() >= MATE - 64 {
                break;
            }
        }
        // Analysis and pondering go on until the host says stop.
        while search.control.is_infinite() && !search.control.stop_requested() {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let first =
            best.first().copied().or_else(|| root_moves.first().map(|m| plugboard_shakmaty::to_plugin_move(*m)));
        Ok(SearchOutcome { best: first.into(), ponder: best.get(1).copied().into() })
    }
}

struct Search<'a> {
    evaluator: Evaluator,
    variant: Variant,
    control: &'a SearchControl,
    started: Instant,
    nodes: u64,
    aborted: bool,
    eval_failed: bool,
}

impl Search<'_> {
    fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// The host's stop flag and hard deadline, looked at every thousand nodes.
    fn must_stop(&mut self) -> bool {
        if self.nodes.is_multiple_of(1024) {
            self.control.wait_while_paused();
            let late = !self.control.is_infinite() && self.elapsed_ms() >= self.control.hard_deadline_ms();
            self.aborted |= self.control.stop_requested() || late;
        }
        self.aborted
    }

    fn root(&mut self, position: &VariantPosition, moves: &[shakmaty::Move], depth: u32, pv: &mut Vec<Move>) -> i32 {
        let mut alpha = -MATE - 1;
        for &m in moves {
            let mut after = position.clone();
            after.play_unchecked(m);
            let mut line = Vec::new();
            let score = -self.negamax(&after, depth - 1, 1, -MATE - 1, -alpha, &mut line);
            if self.aborted {
                break;
            }
            if score > alpha {
                alpha = score;
                pv.clear();
                pv.push(plugboard_shakmaty::to_plugin_move(m));
                pv.extend(line);
            }
        }
        alpha
    }

    fn negamax(
        &mut self,
        position: &VariantPosition,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        pv: &mut Vec<Move>,
    ) -> i32 {
        self.nodes += 1;
        if self.must_stop() {
            return 0;
        }
        let moves = position.legal_moves();
        if moves.is_empty() {
            return if position.is_check() { -MATE + ply } else { 0 };
        }
        if depth == 0 {
            let score = self.evaluator.evaluate(&plugboard_shakmaty::to_plugin_position(position, self.variant));
            self.eval_failed |= score == EVAL_FAILED;
            return if score == EVAL_FAILED { 0 } else { score };
        }
        for m in moves {
            let mut after = position.clone();
            after.play_unchecked(m);
            let mut line = Vec::new();
            let score = -self.negamax(&after, depth - 1, ply + 1, -beta, -alpha, &mut line);
            if self.aborted || self.eval_failed {
                return 0;
            }
            if score > alpha {
                alpha = score;
                pv.clear();
                pv.push(plugboard_shakmaty::to_plugin_move(m));
                pv.extend(line);
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }
}

/// Mates as moves to mate, the rest as centipawns, for the host to show.
fn score_of(score: i32) -> Score {
    if score >= MATE - 256 {
        Score::mate_in((MATE - score + 1) / 2)
    } else if score <= -MATE + 256 {
        Score::mate_in(-(MATE + score) / 2)
    } else {
        Score::centipawns(score)
    }
}

plugboard_plugin_api::export_search_plugin!(Example);
