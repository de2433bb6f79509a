//! The core's decisions about moves: the opponent's move and a ponder hit, when
//! to think and on what, what a search's outcome means (our move, a fault to
//! recover from, a move made without it), and our move with what goes with it
//! (a claim, a draw offer, a resignation, the commentary on a server).

use plugboard_plugin_api::{EVAL_FAILURE_PREFIX, NO_DEADLINE, Score, ScoreKind, SearchOutcome};
use plugboard_variants::Special;

use super::{
    Core, Note,
    note::{Known, Thought},
    searches::{Culprits, Purpose, Reported, Running},
};
use crate::{
    clock::Budget,
    event::Progress,
    game::{Game, GameMove},
    ics::{self, Judged, Limits, Verdict},
    known_moves::{Advice, BookUse, KnownMove},
    plugins::Kind,
    search::SearchSpec,
};

/// How much `random` shakes the evaluation: enough to vary play, too little to spoil it.
const RANDOM_NOISE_CP: u32 = 10;
/// Open-ended: analysis and pondering end when told to.
const UNLIMITED: Budget = Budget { soft_ms: u64::MAX, hard_ms: u64::MAX };
/// The root move being searched is told once a search has run this long.
const CURRENT_MOVE_AFTER: std::time::Duration = std::time::Duration::from_secs(1);

/// How the move we play was found.
pub(super) enum Found<'a> {
    Searched(&'a Running),
    /// Without a search: the note says how (`no search`, `book 42%`, …).
    Unsearched(&'a str),
}

impl Core {
    /// The opponent's move (or ours, in force mode), legal in the position.
    pub fn user_move(&mut self, m: GameMove) {
        if self.searches.is_running(|purpose| purpose == Purpose::Ponder { expected: m }) {
            return self.ponder_hit(m);
        }
        self.discard_search();
        self.setup.play(m);
        // A draw we may claim with our move to come is claimed by `think`, which moves all the same.
        let ours_to_play = !self.analyzing && self.engine_side == Some(self.game().turn());
        if !(ours_to_play && self.game().is_claimable_draw()) && self.claim_if_over() {
            return;
        }
        if self.analyzing {
            self.restart_analysis();
        } else if ours_to_play {
            self.think();
        }
    }

    /// As [`Core::claim_if_over`], but a draw the rules only let a player claim
    /// (repetition, fifty moves) is claimed and the game goes on: a server that
    /// does not end the game on a claim waits for our move.
    fn claim_unless_playable(&mut self) -> bool {
        if !self.game().is_claimable_draw() {
            return self.claim_if_over();
        }
        if let Some(end) = self.setup.claim_once() {
            self.note(Note::Result(end));
        }
        false
    }

    /// Announces the result if the rules end the game here; true if they do.
    pub(super) fn claim_if_over(&mut self) -> bool {
        if self.game().claim().is_none() {
            return false;
        }
        if let Some(end) = self.setup.claim_once() {
            self.note(Note::Result(end));
        }
        // A draw that is only claimable leaves the game open: a server that does
        // not end it on the claim will still ask for our move.
        if !self.analyzing && !self.game().is_claimable_draw() {
            self.setup.over = true;
        }
        true
    }

    /// Stops the running search and forgets it: its move will not be played.
    pub(super) fn discard_search(&mut self) {
        self.score_search_ends_early();
        self.searches.discard();
        self.note(Note::MoveSearchOver);
    }

    /// The opponent played the move we were pondering on: the search goes on, now on our clock.
    fn ponder_hit(&mut self, m: GameMove) {
        self.setup.play(m);
        if self.claim_if_over() {
            return self.discard_search();
        }
        self.ask_partner();
        // The ponder search looked at every move; the book and the tables know better.
        match self.advice() {
            Advice::Play(known) => {
                self.discard_search();
                return self.play_without_search(known);
            }
            Advice::SearchAmong(moves) => {
                self.discard_search();
                self.drawing_moves = moves;
                return self.start_search(Purpose::Move, self.move_budget());
            }
            Advice::Search => {}
        }
        let budget = self.move_budget();
        let Some(running) = self.searches.running_mut() else { return };
        tracing::info!(job = running.id, "ponder hit");
        running.purpose = Purpose::Move;
        running.budget = running.job.set_timed(budget);
        // Until now the time was the opponent's.
        running.clock_from = running.job.elapsed();
        if let Some(outcome) = running.ponder_outcome.take()
            && let Some(running) = self.searches.take()
        {
            self.conclude(running, outcome);
        }
    }

    pub(super) fn move_budget(&self) -> Budget {
        self.clock.budget(self.game().fullmoves())
    }

    /// After our move, think on the reply we expect, if pondering is on.
    pub(super) fn start_pondering(&mut self) {
        if !self.ponder || self.setup.over || self.analyzing || self.engine_side != Some(!self.game().turn()) {
            return;
        }
        let Some(expected) = self.hint() else { return };
        self.note(Note::Hint(expected));
        let mut after = self.game().clone();
        after.play(expected);
        if after.claim().is_some() {
            return;
        }
        self.start_search_on(after, Purpose::Ponder { expected }, UNLIMITED);
    }

    pub(super) fn think(&mut self) {
        if self.setup.over || !self.position_valid() || self.claim_unless_playable() {
            return;
        }
        self.ask_partner();
        match self.advice() {
            Advice::Play(known) => return self.play_without_search(known),
            Advice::SearchAmong(moves) => self.drawing_moves = moves,
            Advice::Search => {}
        }
        self.start_search(Purpose::Move, self.move_budget());
    }

    /// The legal moves in `game` that the GUI refereeing it would carry out
    /// otherwise than the rules do, or that let the opponent make such a move
    /// next, so that our own move must not be one of them while another is at
    /// hand (xboard's berolina en passant: once its board and ours part, it
    /// forfeits whichever side later moves across the square it got wrong).
    fn moves_the_gui_misapplies(&self, game: &Game) -> Vec<GameMove> {
        let (Some(misapplies), Some(variant)) = (self.gui_misapplies, game.definition()) else {
            return Vec::new();
        };
        let misapplied = |m: &GameMove| matches!(m, GameMove::Defined(m) if misapplies(variant, m));
        let mut moves = game.legal_moves();
        moves.retain(|&m| {
            misapplied(&m)
                // Only a double step opens a capture that was not there before.
                || matches!(m, GameMove::Defined(d) if matches!(d.special, Special::DoubleStep { .. })) && {
                    let mut after = game.clone();
                    after.play(m);
                    after.legal_moves().iter().any(misapplied)
                }
        });
        moves
    }

    /// What the book and the tablebases say of the position we are to move in.
    pub(super) fn advice(&mut self) -> Advice {
        self.drawing_moves.clear();
        let options = &self.options.host;
        let book_use = BookUse { enabled: options.use_book, depth: options.book_depth, choice: options.book_choice };
        let (advice, failure) = self.knowledge.advise(self.setup.game(), book_use);
        if let Some(why) = failure {
            self.note(Note::Tell(format!("Syzygy tablebases: {why}; the search plays on without that table")));
        }
        advice
    }

    fn play_without_search(&mut self, known: KnownMove) {
        tracing::info!(mv = %self.game().move_text(known.m), how = %known.thinking, "move known without search");
        self.note(Note::Known(Known::from(&known)));
        self.expected_reply = known.expected_reply;
        self.last_score = Some(known.score);
        self.play_engine_move(known.m, Found::Unsearched(&known.note));
    }

    pub(super) fn restart_analysis(&mut self) {
        if !self.analyzing || !self.position_valid() {
            return;
        }
        self.discard_search();
        if self.setup.all_excluded() {
            return;
        }
        self.start_search_on(self.game().clone(), Purpose::Analysis, UNLIMITED);
    }

    pub(super) fn start_search(&mut self, purpose: Purpose, budget: Budget) {
        self.start_search_on(self.game().clone(), purpose, budget);
    }

    fn start_search_on(&mut self, game: Game, purpose: Purpose, mut budget: Budget) {
        self.score_owed_elsewhere(game.plugin_root());
        // On a node clock the budget is spent in nodes, and the wall clock has no say.
        let mut node_limit = 0;
        if let Some(rate) = self.clock.nodes_per_second.filter(|&rate| rate > 0)
            && purpose == Purpose::Move
        {
            node_limit = (budget.soft_ms.saturating_mul(rate) / 1000).max(1);
            budget = Budget { soft_ms: NO_DEADLINE, hard_ms: NO_DEADLINE };
        }
        let (module, search_plugin) = self.plugins.search_module(game.plugin_variant(), game.move_legs());
        let search_culprit = (search_plugin.origin.clone(), search_plugin.name().to_owned());
        let (eval, eval_plugin) = self.plugins.evaluator_for(game.plugin_variant());
        let eval_culprit = (eval_plugin.origin.clone(), eval_plugin.name().to_owned());
        let excluded = self.setup.excluded();
        // Our own moves only: analysis shows every move, and the opponent's are the opponent's.
        let avoided = match purpose {
            Purpose::Move | Purpose::Ponder { .. } => self.moves_the_gui_misapplies(&game),
            Purpose::Analysis | Purpose::Answer { .. } | Purpose::Score => Vec::new(),
        };
        let answer = self.answer_request().filter(|_| matches!(purpose, Purpose::Answer { .. }));
        let id = self.searches.next_id();
        let spec = SearchSpec {
            module,
            search_name: search_culprit.1.clone(),
            eval,
            game_start: game.plugin_start(),
            definition: game.definition().map(|variant| variant.definition.clone()),
            moves: game.plugin_moves(),
            root: game.plugin_root(),
            // Exclusions apply to the current position; a ponder search looks at another.
            // Empty means every legal move, which is also what a search for our move
            // falls back to when everything was excluded.
            root_moves: if let Some(answer) = answer {
                answer.searchmoves.iter().map(|&m| m.to_plugin()).collect()
            } else if purpose == Purpose::Move && !self.drawing_moves.is_empty() {
                preferring_others(self.drawing_moves.clone(), &avoided).into_iter().map(GameMove::to_plugin).collect()
            } else if (matches!(purpose, Purpose::Ponder { .. }) || excluded.is_empty()) && avoided.is_empty() {
                Vec::new()
            } else {
                let excluded = if matches!(purpose, Purpose::Ponder { .. }) { &[] } else { excluded };
                let allowed: Vec<GameMove> = game.legal_moves().into_iter().filter(|m| !excluded.contains(m)).collect();
                preferring_others(allowed, &avoided).into_iter().map(GameMove::to_plugin).collect()
            },
            depth: match (purpose, answer) {
                (_, Some(answer)) => answer.limits.plies().unwrap_or(0),
                (Purpose::Score, _) => 1,
                _ => self.clock.depth_limit.unwrap_or(0),
            },
            nodes: answer.and_then(|answer| answer.limits.nodes).unwrap_or(node_limit),
            threads: self.options.host.threads,
            hash_mb: self.search_hash_mb(),
            // Extra lines cost strength; they are for analysis, not for play.
            multipv: if matches!(purpose, Purpose::Analysis | Purpose::Answer { .. }) {
                self.options.host.multipv
            } else {
                1
            },
            clear_hash: std::mem::take(&mut self.clear_hash),
            soft_ms: budget.soft_ms,
            hard_ms: budget.hard_ms,
            infinite: match purpose {
                Purpose::Move | Purpose::Score => false,
                Purpose::Answer { held } => held,
                Purpose::Analysis | Purpose::Ponder { .. } => true,
            },
            cpu_clock: self.clock.nodes_per_second == Some(0),
            preset_scores: self.setup.preset_scores().to_vec(),
            tables: self.knowledge.tables().cloned(),
            eval_noise: if self.random { RANDOM_NOISE_CP } else { 0 },
            noise_seed: self.wall_clock.entropy() ^ id,
        };
        tracing::info!(
            job = id,
            ?purpose,
            search = %search_culprit.1,
            eval = %eval_culprit.1,
            soft_ms = budget.soft_ms,
            hard_ms = budget.hard_ms,
            fen = %game.fen(),
            "search started"
        );
        let culprits = Culprits { search: search_culprit, eval: eval_culprit };
        self.searches.start(spec, purpose, game, culprits, budget);
    }

    pub(super) fn on_progress(&mut self, job: u64, progress: Progress) {
        let nodes_per_second = self.clock.nodes_per_second;
        let (running, progress) = match self.searches.progress(job, progress) {
            Reported::Line(running, progress) => (running, progress),
            Reported::Current { running, depth, m, number } => {
                // As Stockfish does, only once the search has run a while: the
                // first second's moves go by too fast to read.
                if running.job.elapsed() >= CURRENT_MOVE_AFTER
                    && let Some(m) = running.root.from_plugin_move(m)
                {
                    self.note(Note::CurrentMove { depth, m, number });
                }
                return;
            }
            Reported::Nothing => return,
        };
        let (purpose, root) = (running.purpose, running.root.plugin_root());
        if running.purpose == Purpose::Move && progress.multipv <= 1 {
            self.last_score = Some(match progress.score.kind {
                ScoreKind::Centipawns => progress.score.value,
                ScoreKind::Mate => progress.score.value.signum() * 30_000,
            });
        }
        // On a node clock, time is what the nodes say it is; on a CPU clock, CPU time.
        let time_ms = match nodes_per_second {
            Some(0) => running.job.elapsed().as_millis() as u64,
            Some(rate) => progress.nodes.saturating_mul(1000) / rate,
            None => progress.time_ms,
        };
        let thought = Thought {
            job,
            pondering: matches!(running.purpose, Purpose::Ponder { .. }),
            depth: progress.depth,
            seldepth: progress.seldepth,
            multipv: progress.multipv.max(1),
            score: progress.score,
            time_ms,
            nodes: progress.nodes,
            tbhits: progress.tbhits,
            pv: running.root.legal_start(&progress.pv),
            hashfull: progress.hashfull,
        };
        // A `score` search is asked for its score alone.
        if purpose != Purpose::Score {
            self.note(Note::Thought(thought));
        }
        self.answer_line(purpose, root, &progress);
    }

    pub(super) fn on_finished(&mut self, job: u64, outcome: Result<SearchOutcome, String>) {
        if let Some((running, outcome)) = self.searches.finished(job, outcome) {
            self.conclude(running, outcome);
        }
    }

    /// What a finished search means: our move, or a fault to recover from.
    pub(super) fn conclude(&mut self, running: Running, outcome: Result<SearchOutcome, String>) {
        let job = running.id;
        tracing::info!(job, elapsed_ms = running.job.elapsed().as_millis() as u64, ?outcome, "search finished");
        self.charge_own_clock(&running);
        match outcome {
            Ok(_) if running.purpose == Purpose::Score => self.score_concluded(&running),
            Ok(_) if matches!(running.purpose, Purpose::Analysis | Purpose::Ponder { .. }) => {}
            Ok(outcome) => match outcome.best.into_option().and_then(|m| running.root.from_plugin_move(m)) {
                Some(best) => {
                    let mut after = running.root.clone();
                    after.play(best);
                    let reply = outcome.ponder.into_option().and_then(|r| after.from_plugin_move(r));
                    if running.purpose == Purpose::Move {
                        self.expected_reply = reply;
                        self.play_engine_move(best, Found::Searched(&running));
                    } else {
                        self.answered(&running, best, reply);
                    }
                }
                None => {
                    let (origin, name) = running.culprits.search.clone();
                    self.plugin_failed(Kind::Search, &origin, &name, "it chose no legal move");
                    self.fall_back_move(&running);
                }
            },
            Err(mut why) => {
                let kind = if why.starts_with(EVAL_FAILURE_PREFIX) { Kind::Eval } else { Kind::Search };
                let (origin, name) = match kind {
                    Kind::Search => running.culprits.search.clone(),
                    Kind::Eval => running.culprits.eval.clone(),
                };
                if kind == Kind::Eval
                    && let Some(panic) = self.plugins.last_eval_panic(&origin, &name)
                {
                    why = format!("{why}: {panic}");
                }
                self.plugin_failed(kind, &origin, &name, &why);
                let next = match kind {
                    Kind::Search => {
                        self.plugins.search_module(running.root.plugin_variant(), running.root.move_legs()).1
                    }
                    Kind::Eval => self.plugins.selected(Kind::Eval),
                };
                if next.origin == origin && next.name() == name {
                    // The built-in itself failed (a position it cannot read): searching
                    // again would fail again, so the move is made without a search.
                    if matches!(running.purpose, Purpose::Move | Purpose::Answer { .. } | Purpose::Score) {
                        self.fall_back_move(&running);
                    }
                } else {
                    self.retry(running);
                }
            }
        }
    }

    /// Our move, as `found`: resigned instead, or played with a draw offer or claim
    /// before it and the commentary for a chess server after it.
    pub(super) fn play_engine_move(&mut self, m: GameMove, found: Found<'_>) {
        let now = self.wall_clock.now();
        let (summary, note) = match found {
            Found::Searched(running) => (running.summary_of(m, self.clock.nodes_per_second), "no search"),
            Found::Unsearched(note) => (None, note),
        };
        let game = self.game();
        let judged = Judged {
            score: summary.as_ref().map(|s| s.score),
            depth: summary.as_ref().map_or(0, |s| s.depth),
            fullmove: game.fullmoves(),
            pawnless: game.is_pawnless(),
            opponent_time_cs: self.clock.opponent_ms().map(|ms| ms / 10),
        };
        let options = &self.options.host;
        let limits = Limits {
            resign_threshold_cp: options.resign_threshold_cp,
            resign_moves: options.resign_moves,
            draw_offers: options.draw_offers,
            contempt_cp: self.ics.contempt(options.contempt_cp),
        };
        let verdict = self.ics.judge(&judged, &limits);
        self.finger_notes_due();
        if let Some(greeting) = self.ics.greet(&self.options.host.greeting, now) {
            self.note(Note::Talk(greeting));
        }
        if verdict != Verdict::Play {
            let score = match judged.score {
                Some(Score { kind: ScoreKind::Mate, value, .. }) => format!("mate {value}"),
                Some(score) => format!("{} cp", score.value),
                None => "none".to_owned(),
            };
            self.debug(format!(
                "{verdict:?}: score {score} at depth {} (contempt {} cp)",
                judged.depth, limits.contempt_cp
            ));
        }
        if verdict == Verdict::Resign && self.may_resign() {
            self.note(Note::Resign);
            self.setup.over = true;
            self.note(Note::MoveSearchOver);
            return;
        }
        // A draw that becomes claimable by our move is claimed before it, as the protocol asks.
        if self.game().claimable_after(m) || verdict == Verdict::OfferDrawAndPlay {
            self.note(Note::OfferDraw);
        }
        let san = self.game().notation(m);
        // What is said of a move goes before it: a mating move ends the game on
        // the server, and words after it are refused.
        let commentary = self.options.host.commentary;
        let talk = self.ics.commentary(commentary, summary.as_ref(), &san, note, now);
        self.out.extend(talk.into_iter().map(Note::Talk));
        self.setup.play(m);
        self.note(Note::Move(m));
        let over = self.claim_if_over();
        self.note(Note::MoveSearchOver);
        if !over {
            self.start_pondering();
        }
    }

    /// In bughouse, with the partner's help allowed: ask for a piece that mates now.
    fn ask_partner(&mut self) {
        if !self.setup.is_bughouse() || !self.options.host.partner_asks {
            return;
        }
        let game = self.setup.game();
        let mating = game.chess_position().zip(game.castling_mode()).and_then(|(p, mode)| ics::mating_drop(p, mode));
        let fullmove = game.fullmoves();
        if let Some(ask) = self.ics.partner_ask(mating, fullmove, self.wall_clock.now()) {
            self.note(Note::Talk(ask));
        }
    }
}

/// `moves` less `avoided`, unless nothing else is left: a move the GUI
/// misapplies is still better than none at all.
fn preferring_others(moves: Vec<GameMove>, avoided: &[GameMove]) -> Vec<GameMove> {
    if moves.iter().all(|m| avoided.contains(m)) {
        return moves;
    }
    moves.into_iter().filter(|m| !avoided.contains(m)).collect()
}
