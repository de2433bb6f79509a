//! Iterative-deepening principal-variation search with quiescence search.
//!
//! One [`Searcher`] runs one search on one thread. It is generic over the
//! [`Evaluation`] so plugin and statically linked evaluations share this code.
//! This file holds the search below the root, [`quiescence`] the capture
//! search below its horizon and [`node`] what a node carries; [`root`] deepens
//! and reports, and [`threads`] runs several searchers at once (lazy SMP).

mod node;
mod quiescence;
mod root;
mod threads;

use std::time::{Duration, Instant};

use cozy_chess::{Board, Move};
use plugboard_plugin_api::{
    Bound, Reporter, SearchControl, SearchOutcome, SearchRequest, TablebaseProbe, Wdl, abi_stable::std_types::ROption,
};

use crate::{
    convert::{board_to_position, move_from_cozy, move_to_cozy, position_to_board},
    early_stop::EarlyStop,
    eval::{self, Evaluation, SearchEval},
    ordering::{self, Heuristics, PieceTo, ScoredMove},
    repetition::{self, Replay},
    score::{DRAW, INFINITY, MATE, MAX_PLY, TABLEBASE_BOUND, TABLEBASE_WIN},
    tt::{TranspositionTable, with_shared_table},
};
pub(crate) use node::late_move_reduction;
use node::{Node, bound_of, has_pieces};
use threads::{NODE_BATCH, Team};

/// How often, in nodes, the clock and the stop flag are read: every 128 nodes
/// is 0.07 ms at 1.8 million nodes a second, so `?` and `force` are answered at
/// once, and the reading (two atomic loads and the time) costs under 0.1 % of
/// the nodes per second.
pub(crate) const CHECK_EVERY: u64 = 128;
const PROGRESS_INTERVAL_MS: u64 = 100;
const ASPIRATION_WINDOW: i32 = 30;
/// No score: the static evaluation of a position in check.
const NO_SCORE: i32 = -INFINITY;
/// Centipawns per ply of depth by which reverse futility pruning trusts the evaluation.
const FUTILITY_MARGIN: i32 = 80;
/// The least depth at which the hash move is tested for being the only good move.
const SINGULAR_DEPTH: i32 = 7;

/// What the singular test says about the hash move.
enum Singular {
    No,
    Extend(i32),
    Cut(i32),
}
/// The most threads one search runs, whatever the host asks for.
const MAX_THREADS: u32 = 256;

/// Settings a user or the host can change between searches.
#[derive(Clone, Copy, Debug)]
pub struct SearchOptions {
    pub null_move: bool,
    /// The host's tablebases, probed after captures and pawn moves.
    pub tablebases: Option<TablebaseProbe>,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions { null_move: true, tablebases: None }
    }
}

/// Runs one search: sets up the root and the repetition history, borrows the
/// shared transposition table, and deepens until a limit says stop, on
/// `request.threads` threads. `new_eval` makes each thread's evaluation; the
/// calling thread's first, where a failure ends the search before it starts.
pub fn run<E, F>(
    request: &SearchRequest<'_>,
    new_eval: F,
    reporter: Reporter<'_>,
    options: SearchOptions,
) -> Result<SearchOutcome, String>
where
    E: Evaluation,
    F: Fn() -> Result<E, String> + Sync,
{
    let start = Instant::now();
    let eval = eval::create(&new_eval)?;
    let root = position_to_board(&request.root)?;
    let history = repetition::game_history(position_to_board(&request.game_start).ok(), &request.moves, &root);
    let root_moves = root_moves(&root, request)?;
    if root_moves.is_empty() {
        return Ok(SearchOutcome { best: ROption::RNone, ponder: ROption::RNone });
    }
    let preset_scores = request
        .preset_scores
        .iter()
        .filter_map(|preset| Some((position_to_board(&preset.position).ok()?.hash(), preset.centipawns)))
        .collect();
    with_shared_table(request.hash_mb, request.clear_hash, |tt| {
        let setup = Setup { request, options, tt, start, root, root_moves, history, preset_scores };
        match request.threads.min(MAX_THREADS) {
            0 | 1 => Searcher::new(&setup, eval, Some(reporter), None).iterate(&setup.root, setup.root_moves.clone()),
            threads => threads::search(&setup, eval, &new_eval, reporter, threads),
        }
    })
}

/// What every thread of one search starts from.
struct Setup<'a> {
    request: &'a SearchRequest<'a>,
    options: SearchOptions,
    tt: &'a TranspositionTable,
    start: Instant,
    root: Board,
    root_moves: Vec<Move>,
    /// Hashes of the game's positions before the root.
    history: Vec<u64>,
    /// Hashes of the positions scored by `setscore`, with their scores.
    preset_scores: Vec<(u64, i32)>,
}

/// The legal root moves the request allows. A restriction naming no legal move
/// is ignored rather than leaving the search with nothing to play.
fn root_moves(root: &Board, request: &SearchRequest<'_>) -> Result<Vec<Move>, String> {
    let mut legal = Vec::new();
    root.generate_moves(|moves| {
        legal.extend(moves);
        false
    });
    if request.root_moves.is_empty() {
        return Ok(legal);
    }
    let mut allowed = Vec::new();
    for &mv in request.root_moves.iter() {
        let mv = move_to_cozy(mv)?;
        if legal.contains(&mv) && !allowed.contains(&mv) {
            allowed.push(mv);
        }
    }
    Ok(if allowed.is_empty() { legal } else { allowed })
}

struct Searcher<'a, E> {
    eval: SearchEval<E>,
    options: SearchOptions,
    control: &'a SearchControl,
    /// Only the main thread reports; helpers have none.
    reporter: Option<Reporter<'a>>,
    /// What the threads of a parallel search share; `None` when this is the only thread.
    team: Option<&'a Team>,
    tt: &'a TranspositionTable,
    heuristics: Heuristics,
    start: Instant,
    /// Time spent paused, which does not count as search time.
    paused: Duration,
    max_depth: i32,
    node_limit: u64,
    nodes: u64,
    /// Tablebase probes that answered.
    tbhits: u64,
    seldepth: usize,
    stopped: bool,
    eval_failed: bool,
    /// Position hashes: the game before the root, then the root, then the search path.
    hashes: Vec<u64>,
    root_index: usize,
    /// Repetition scans stop here, the ply after the last null move.
    null_barrier: usize,
    pv: Vec<[Move; MAX_PLY + 1]>,
    /// The static evaluation at each ply of the path, or [`NO_SCORE`] in check.
    static_evals: [i32; MAX_PLY + 1],
    /// The depth of the iteration in progress.
    root_depth: i32,
    /// The move a singular-extension search at each ply leaves out.
    excluded: [Option<Move>; MAX_PLY + 1],
    /// The move played at each ply of the path (`None` for a null move).
    played: [Option<Move>; MAX_PLY + 1],
    /// The same moves as continuation history knows them.
    played_pieces: [Option<PieceTo>; MAX_PLY + 1],
    pv_len: [usize; MAX_PLY + 1],
    move_lists: Vec<Vec<ScoredMove>>,
    quiet_lists: Vec<Vec<Move>>,
    last_progress_ms: u64,
    /// The best root move of the iteration in progress, once one is fully searched.
    iteration_best: Option<(Move, i32)>,
    /// Whether the main thread may leave the iteration in progress unfinished.
    early_stop: EarlyStop,
    /// How many principal variations each iteration finds (multi-PV).
    multipv: usize,
    /// The principal variation being searched, from 0; it leaves out the root
    /// moves of the ones before it.
    line_index: usize,
    /// Hashes of the positions scored by `setscore`, with their scores.
    preset_scores: Vec<(u64, i32)>,
}

impl<'a, E: Evaluation> Searcher<'a, E> {
    fn new(setup: &Setup<'a>, eval: E, reporter: Option<Reporter<'a>>, team: Option<&'a Team>) -> Searcher<'a, E> {
        let request = setup.request;
        let max_depth = match request.depth {
            0 => MAX_PLY as i32 - 1,
            depth => depth.min(MAX_PLY as u32 - 1) as i32,
        };
        let filler = Move { from: cozy_chess::Square::A1, to: cozy_chess::Square::A1, promotion: None };
        Searcher {
            eval: SearchEval::new(eval, request),
            options: setup.options,
            control: request.control,
            reporter,
            team,
            tt: setup.tt,
            heuristics: Heuristics::default(),
            start: setup.start,
            paused: Duration::ZERO,
            max_depth,
            node_limit: request.nodes,
            nodes: 0,
            tbhits: 0,
            seldepth: 0,
            stopped: false,
            eval_failed: false,
            root_index: setup.history.len(),
            null_barrier: 0,
            hashes: setup.history.clone(),
            pv: vec![[filler; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            static_evals: [NO_SCORE; MAX_PLY + 1],
            played: [None; MAX_PLY + 1],
            excluded: [None; MAX_PLY + 1],
            root_depth: 0,
            played_pieces: [None; MAX_PLY + 1],
            move_lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            quiet_lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            last_progress_ms: 0,
            iteration_best: None,
            early_stop: EarlyStop::NEVER,
            multipv: request.multipv.max(1) as usize,
            line_index: 0,
            preset_scores: setup.preset_scores.clone(),
        }
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().saturating_sub(self.paused).as_millis() as u64
    }

    /// Nodes searched so far by every thread of the search, as far as this one knows.
    fn total_nodes(&self) -> u64 {
        match self.team {
            None => self.nodes,
            Some(team) => team.nodes() + self.nodes % NODE_BATCH,
        }
    }

    /// Tablebase probes that answered, by every thread of the search.
    fn total_tbhits(&self) -> u64 {
        match self.team {
            None => self.tbhits,
            Some(team) => team.tbhits(),
        }
    }

    /// The tables' score of a position a capture or pawn move just reached, if they
    /// cover it: a win by the tables, nearer wins scoring higher.
    fn probe_tablebases(&mut self, board: &Board, ply: usize) -> Option<i32> {
        let tables = self.options.tablebases?;
        if board.halfmove_clock() != 0 || board.occupied().len() > tables.max_pieces || has_castling_rights(board) {
            return None;
        }
        let wdl = tables.probe_wdl(&board_to_position(board))?;
        match self.team {
            None => self.tbhits += 1,
            Some(team) => team.count_tbhit(),
        }
        Some(match wdl {
            Wdl::WIN => TABLEBASE_WIN - ply as i32,
            Wdl::LOSS => -TABLEBASE_WIN + ply as i32,
            // Won or lost but for the fifty-move rule: a draw, by a hair.
            Wdl::CURSED_WIN => DRAW + 1,
            Wdl::BLESSED_LOSS => DRAW - 1,
            _ => DRAW,
        })
    }

    fn negamax(
        &mut self,
        board: &Board,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        let in_check = !board.checkers().is_empty();
        if self.is_draw(board, in_check) {
            return DRAW;
        }
        if depth + i32::from(in_check) <= 0 {
            return self.quiescence(board, alpha, beta, ply);
        }
        if self.tick(ply) {
            return 0;
        }
        if let Some(score) = self.preset_score(board) {
            return score;
        }
        // Mate distance pruning: no line from here can beat a shorter mate already found.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(board);
        }
        // Check extension: never stop the search while the king is attacked.
        if in_check {
            depth += 1;
        }
        let pv_node = beta - alpha > 1;
        let key = board.hash();
        let entry = self.tt.probe(key, ply);
        let hash_move = entry.and_then(|e| e.mv).filter(|&mv| board.is_legal(mv));
        let excluded = self.excluded[ply];
        if let Some(entry) = entry
            && !pv_node
            && excluded.is_none()
            && entry.depth >= depth
            && entry.cuts(alpha, beta)
        {
            return entry.score;
        }

        // The tables' verdict is the game's result: taken as exact, so a capture into a
        // won ending scores as won at once (the host plays won endings from the root,
        // so a mate inside one is not worth searching for). Stored as deep as can be:
        // no deeper search would change it.
        if ply > 0
            && excluded.is_none()
            && let Some(score) = self.probe_tablebases(board, ply)
        {
            self.tt.store(key, None::<Move>, score, MAX_PLY as i32, Bound::Exact, ply, None);
            return score;
        }

        // The static evaluation, as stored with the position if it was; none in check.
        let static_eval = if in_check {
            None
        } else {
            let eval = match entry.and_then(|e| e.eval) {
                Some(eval) => eval,
                None => self.evaluate(board),
            };
            if self.stopped {
                return 0;
            }
            Some(eval)
        };
        self.static_evals[ply] = static_eval.unwrap_or(NO_SCORE);
        // Better than two plies ago: pruning on a rising evaluation is riskier.
        let improving = static_eval.is_some() && ply >= 2 && self.static_evals[ply] > self.static_evals[ply - 2];
        // A stored bound on the score guesses better than the evaluation.
        let eval = match (static_eval, entry) {
            (Some(eval), Some(entry)) if entry.score.abs() < TABLEBASE_BOUND && entry.bounds_better(eval) => {
                entry.score
            }
            (Some(eval), _) => eval,
            (None, _) => NO_SCORE,
        };

        if !pv_node && !in_check && excluded.is_none() && eval.abs() < TABLEBASE_BOUND && beta.abs() < TABLEBASE_BOUND {
            // Reverse futility: so far above beta so near the horizon that no
            // reply will bring the score back down.
            if depth <= 8 && eval - FUTILITY_MARGIN * (depth - i32::from(improving)) >= beta {
                return eval;
            }
            // Null move: if passing still fails high, a real move will too. Not
            // with pawns only, where zugzwang makes passing a lie.
            if self.options.null_move && allow_null && depth >= 3 && eval >= beta && has_pieces(board) {
                if let Some(score) = self.null_move_search(board, depth, eval, beta, ply) {
                    return score;
                }
                if self.stopped {
                    return 0;
                }
            }
        }
        // Internal iterative reduction: with no move from an earlier search to
        // try first, a shallower search orders this node's moves for next time.
        if hash_move.is_none() && depth >= 4 {
            depth -= 1;
        }
        let hash_move_extension = match (hash_move, entry) {
            (Some(mv), Some(entry)) if excluded.is_none() && ply > 0 => {
                match self.singular_extension(board, mv, &entry, depth, beta, ply) {
                    Singular::Extend(plies) => plies,
                    Singular::No => 0,
                    Singular::Cut(score) => return score,
                }
            }
            _ => 0,
        };

        let previous = ply.checked_sub(1).and_then(|parent| self.played[parent]);
        let earlier = [1, 2].map(|back| ply.checked_sub(back).and_then(|earlier| self.played_pieces[earlier]));
        let refutations = self.heuristics.refutations(board.side_to_move(), ply, previous, earlier);
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        let mut quiets = std::mem::take(&mut self.quiet_lists[ply]);
        quiets.clear();
        ordering::generate(board, false, hash_move, refutations, &self.heuristics, &mut moves);
        let result = if moves.is_empty() {
            if in_check { -MATE + ply as i32 } else { DRAW }
        } else {
            let node = Node {
                depth,
                alpha,
                beta,
                ply,
                in_check,
                pv_node,
                static_eval,
                eval,
                improving,
                refutations,
                hash_move,
                hash_move_extension,
            };
            self.search_moves(board, &mut moves, &mut quiets, node)
        };
        self.move_lists[ply] = moves;
        self.quiet_lists[ply] = quiets;
        result
    }

    /// Whether the hash move is the only good move here (singular): searched
    /// without it, shallower, against a bar a little below its stored score.
    /// A forced move is worth a ply more; if other moves clear the bar too and
    /// the bar is above beta, several moves fail high and the node is cut
    /// (multi-cut).
    fn singular_extension(
        &mut self,
        board: &Board,
        hash_move: Move,
        entry: &crate::tt::TtEntry,
        depth: i32,
        beta: i32,
        ply: usize,
    ) -> Singular {
        // Extensions stop at twice the iteration's depth, so that a line of
        // forced moves cannot run the search away.
        if depth < SINGULAR_DEPTH
            || ply as i32 >= 2 * self.root_depth
            || entry.depth < depth - 3
            || entry.bound == Bound::Upper
            || entry.score.abs() >= TABLEBASE_BOUND
        {
            return Singular::No;
        }
        let singular_beta = entry.score - 2 * depth;
        self.excluded[ply] = Some(hash_move);
        let score = self.negamax(board, (depth - 1) / 2, singular_beta - 1, singular_beta, ply, false);
        self.excluded[ply] = None;
        // That search's line is not this node's: left in place, a node that
        // then fails low would hand it up as its principal variation.
        self.pv_len[ply] = 0;
        if self.stopped {
            Singular::No
        } else if score < singular_beta {
            Singular::Extend(1)
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else {
            Singular::No
        }
    }

    /// Passes the move and searches the opponent's reply shallower: the score if
    /// it still fails high (a mate found that way is not trusted, so beta then).
    fn null_move_search(&mut self, board: &Board, depth: i32, eval: i32, beta: i32, ply: usize) -> Option<i32> {
        let null = board.null_move()?;
        let reduction = 3 + depth / 3 + ((eval - beta) / 200).min(3);
        self.hashes.push(null.hash());
        self.played[ply] = None;
        self.played_pieces[ply] = None;
        let saved_barrier = std::mem::replace(&mut self.null_barrier, self.hashes.len() - 1);
        let score = -self.negamax(&null, depth - 1 - reduction, -beta, -beta + 1, ply + 1, false);
        self.null_barrier = saved_barrier;
        self.hashes.pop();
        if self.stopped || score < beta {
            return None;
        }
        Some(if score >= TABLEBASE_BOUND { beta } else { score })
    }

    /// The move loop of [`Self::negamax`]: PVS, late move reductions, and the
    /// pruning of moves unlikely to matter near the horizon.
    fn search_moves(&mut self, board: &Board, moves: &mut [ScoredMove], quiets: &mut Vec<Move>, node: Node) -> i32 {
        let Node {
            depth,
            mut alpha,
            beta,
            ply,
            in_check,
            pv_node,
            static_eval,
            eval,
            improving,
            refutations,
            hash_move,
            hash_move_extension,
        } = node;
        let excluded = self.excluded[ply];
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        let mut skip_quiets = false;
        let late_move_limit = (3 + depth * depth) / (2 - i32::from(improving));
        let can_prune = has_pieces(board);
        for index in 0..moves.len() {
            let mv = ordering::pick(moves, index);
            if Some(mv) == excluded {
                continue;
            }
            let tactical = ordering::is_tactical(board, mv);
            let gives_check = ordering::gives_check(board, mv);
            // Checks are never pruned by move count: a mate in one may come late.
            if skip_quiets && !tactical && !gives_check {
                continue;
            }
            let history = if tactical { 0 } else { self.heuristics.history(board, mv, &refutations) };
            let reduction = late_move_reduction(depth, searched);

            // Once a move has saved us from being mated, moves that can hardly
            // matter this near the horizon are not searched.
            if best_score > -TABLEBASE_BOUND && can_prune {
                if !tactical {
                    let reduced_depth = (depth - 1 - reduction).max(0);
                    if !in_check && !gives_check && depth <= 8 && quiets.len() as i32 >= late_move_limit {
                        skip_quiets = true;
                        continue;
                    }
                    if !in_check && !gives_check && reduced_depth <= 8 && eval + 100 + 100 * reduced_depth <= alpha {
                        continue;
                    }
                    if !gives_check
                        && reduced_depth <= 8
                        && !ordering::see_ge(board, mv, -30 * reduced_depth * reduced_depth)
                    {
                        continue;
                    }
                } else if depth <= 8 && !ordering::see_ge(board, mv, -100 * depth) {
                    continue;
                }
            }

            let mut child = board.clone();
            child.play_unchecked(mv);
            self.make(mv, &child);
            self.played[ply] = Some(mv);
            self.played_pieces[ply] = Some(PieceTo::of(board, mv));
            let extension = if Some(mv) == hash_move { hash_move_extension } else { 0 };
            let score = if searched == 0 {
                -self.negamax(&child, depth - 1 + extension, -beta, -alpha, ply + 1, true)
            } else {
                // Late quiet moves are rarely best: try them shallower first.
                let reduction = if depth >= 3 && !tactical {
                    let adjusted = reduction - i32::from(pv_node) + i32::from(!improving)
                        - i32::from(refutations.contains(mv))
                        - i32::from(gives_check)
                        - history / 16384;
                    adjusted.clamp(0, depth - 2)
                } else {
                    0
                };
                let mut score = -self.negamax(&child, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, true);
                if score > alpha && reduction > 0 {
                    score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, true);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
                }
                score
            };
            self.unmake();
            searched += 1;
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if !tactical {
                            self.heuristics.cutoff(board, &refutations, ply, mv, depth, quiets);
                        }
                        break;
                    }
                }
            }
            if !tactical {
                quiets.push(mv);
            }
        }
        if excluded.is_some() {
            // A score without the best move is no score of the position, so it
            // is not stored; with no other move, it fails low.
            return if searched == 0 { original_alpha } else { best_score };
        }
        let bound = bound_of(best_score, original_alpha, beta);
        self.tt.store(board.hash(), best_move, best_score, depth, bound, ply, static_eval);
        best_score
    }

    /// Counts a node and decides whether to stop; the clock and the stop flag
    /// are read every `CHECK_EVERY` nodes, which keeps the reaction well under 1 ms,
    /// and in a parallel search the team's count and stop every `NODE_BATCH`.
    #[inline]
    fn tick(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply + 1);
        if self.stopped {
            return true;
        }
        let stop = match self.team {
            None => self.node_limit != 0 && self.nodes >= self.node_limit,
            // A shared counter touched at every node would cost more than it is worth.
            Some(team) => self.nodes.is_multiple_of(NODE_BATCH) && team.count(NODE_BATCH),
        };
        if stop {
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

    /// The score the user fixed for this position with `setscore`, if any.
    #[inline]
    fn preset_score(&self, board: &Board) -> Option<i32> {
        if self.preset_scores.is_empty() {
            return None;
        }
        let key = board.hash();
        self.preset_scores.iter().find(|(hash, _)| *hash == key).map(|&(_, score)| score)
    }

    /// Fifty-move rule, or a repetition as [`repetition::repeats`] counts them.
    fn is_draw(&mut self, board: &Board, in_check: bool) -> bool {
        if board.halfmove_clock() >= 100 {
            // Checkmate on the hundredth half-move still wins.
            return !in_check || board.generate_moves(|_| true);
        }
        repetition::repeats(&self.hashes, self.root_index, usize::from(board.halfmove_clock()), self.null_barrier)
    }

    fn evaluate(&mut self, board: &Board) -> i32 {
        let Some(score) = self.eval.evaluate(&board_to_position(board)) else {
            self.eval_failed = true;
            self.stopped = true;
            return 0;
        };
        score + self.eval.noise(board.hash())
    }

    #[inline]
    fn make(&mut self, mv: Move, child: &Board) {
        self.hashes.push(child.hash());
        self.eval.on_make(|| (move_from_cozy(mv), board_to_position(child)));
    }

    #[inline]
    fn unmake(&mut self) {
        self.hashes.pop();
        self.eval.on_unmake();
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1];
        let (parents, children) = self.pv.split_at_mut(ply + 1);
        let line = &mut parents[ply];
        line[0] = mv;
        line[1..=child_len].copy_from_slice(&children[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }
}

/// Whether either side may still castle; the tables know no castling.
fn has_castling_rights(board: &Board) -> bool {
    [cozy_chess::Color::White, cozy_chess::Color::Black].into_iter().any(|color| {
        let rights = board.castle_rights(color);
        rights.short.is_some() || rights.long.is_some()
    })
}

impl Replay for Board {
    fn key(&self) -> u64 {
        self.hash()
    }

    fn replay(&mut self, mv: plugboard_plugin_api::Move) -> Option<()> {
        self.try_play(move_to_cozy(mv).ok()?).ok()
    }
}
