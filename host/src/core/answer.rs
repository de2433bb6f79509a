//! Searches whose outcome is reported rather than played, for a front end whose
//! GUI keeps the game (cxboard's `go`, `stop`, `go ponder` and `score`): the
//! limits of each, what their lines and outcomes mean, and the play-mode rules
//! that protocol adds (no resigning, a move from the wrong side refused).

use plugboard_plugin_api::{Score, ScoreKind};
use shakmaty::Color;

use super::{
    Core, Note, Refusal,
    note::Known,
    searches::{Purpose, Running},
};
use crate::{
    clock::{Budget, Limits},
    event::Progress,
    game::{GameMove, PluginPosition},
    known_moves::Advice,
};

/// A `score` search looks one ply deep; this bounds it should a plugin not stop there.
const SCORE_BUDGET: Budget = Budget { soft_ms: 1000, hard_ms: 1000 };

/// cxboard's `go`: its limits, the root moves to choose from (every legal move
/// when empty), and whether it ponders: then the position ends with the reply
/// the GUI expects, and the limits count from the GUI's next move.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Request {
    pub limits: Limits,
    pub searchmoves: Vec<GameMove>,
    pub ponder: bool,
    /// The book and the tablebases may answer a `go` for a game (not an
    /// analysis, a ponder search or a choice among given moves), as they answer
    /// in play under CECP (UCI, unless `UCI_AnalyseMode`).
    pub known_moves: bool,
}

#[derive(Default)]
pub(super) struct Answering {
    /// The last `go`, which the running answer search (if any) serves.
    request: Option<Request>,
    /// The latest score of a search for our move or an answer, and the position it scores.
    scored: Option<(PluginPosition, Score)>,
    /// The position `score` was asked for, while no search had scored it yet:
    /// the next line of a search of it answers.
    score_wanted: Option<PluginPosition>,
    /// The GUI has no word for resigning: the engine plays on.
    never_resign: bool,
}

impl Core {
    /// Whether the engine plays neither side (force mode).
    pub fn is_forced(&self) -> bool {
        self.engine_side.is_none()
    }

    /// Whether the engine plays the side to move.
    pub fn engine_on_move(&self) -> bool {
        self.engine_side == Some(self.game().turn())
    }

    /// For a GUI that cannot take a resignation: every game is played out.
    pub fn never_resign(&mut self) {
        self.answering.never_resign = true;
    }

    pub(super) fn may_resign(&self) -> bool {
        !self.answering.never_resign
    }

    /// A move of a position being set up: played, and nothing follows from it
    /// (no thinking, no claim).
    pub fn setup_move(&mut self, m: GameMove) {
        self.discard_search();
        self.setup.play(m);
        self.expected_reply = None;
    }

    /// `go`: searches the position and reports the best move (a
    /// [`Note::BestMove`]) instead of playing it; at once when there is none.
    pub fn answer(&mut self, request: Request) -> Result<(), Refusal> {
        self.discard_search();
        if !self.position_valid() {
            return Err(Refusal::NotLegalNow(Some("no legal position is set up".into())));
        }
        if self.game().legal_moves().is_empty() {
            self.note(Note::BestMove { best: None, ponder: None });
            return Ok(());
        }
        let held = request.ponder || request.limits.infinite;
        let mut request = request;
        // An analysis, a ponder search or a choice among given moves wants a search.
        if request.known_moves && !held && request.searchmoves.is_empty() {
            match self.advice() {
                Advice::Play(known) => {
                    tracing::info!(mv = %self.game().move_text(known.m), how = %known.thinking, "go answered without search");
                    self.note(Note::Known(Known::from(&known)));
                    self.note(Note::BestMove { best: Some(known.m), ponder: known.expected_reply });
                    return Ok(());
                }
                Advice::SearchAmong(moves) => request.searchmoves = moves,
                Advice::Search => {}
            }
        }
        // A ponder search runs until the GUI's move; its limits count from then.
        let budget = if request.ponder { Budget::UNLIMITED } else { self.answer_budget(&request.limits) };
        self.answering.request = Some(request);
        self.start_search(Purpose::Answer { held }, budget);
        Ok(())
    }

    fn answer_budget(&self, limits: &Limits) -> Budget {
        limits.budget(self.game().turn() == Color::White, &self.clock, self.game().fullmoves())
    }

    /// The running `go`, for the search's spec: its plies, nodes and root moves.
    pub(super) fn answer_request(&self) -> Option<&Request> {
        self.answering.request.as_ref()
    }

    /// Whether a `go` search runs.
    pub fn answering(&self) -> bool {
        self.searches.is_running(|purpose| matches!(purpose, Purpose::Answer { .. }))
    }

    /// Whether a `go ponder` search waits for the GUI's move.
    pub fn pondering_answer(&self) -> bool {
        self.answering() && self.answering.request.as_ref().is_some_and(|request| request.ponder)
    }

    /// `stop`: the `go` search ends and its best move is reported; an outcome
    /// held for this is reported at once.
    pub fn stop_answer(&mut self) {
        let Some(running) = self.searches.running_mut() else { return };
        if !matches!(running.purpose, Purpose::Answer { .. }) {
            return;
        }
        running.purpose = Purpose::Answer { held: false };
        if let Some(request) = &mut self.answering.request {
            request.ponder = false;
        }
        match running.ponder_outcome.take() {
            Some(outcome) => {
                if let Some(running) = self.searches.take() {
                    self.conclude(running, outcome);
                }
            }
            None => self.searches.stop(),
        }
    }

    /// The GUI's move while `go ponder` runs. The position ends with the reply
    /// the GUI expected: the same move is a ponder hit, and the search goes on
    /// under the `go` line's limits, from now; another move takes its place, and
    /// the position after it is searched afresh under those limits. `text` is
    /// read in the position before the expected reply.
    pub fn ponder_answer_move(&mut self, text: &str) -> Result<(), &'static str> {
        let mut before = self.game().clone();
        let replaces = before.undo();
        let m = before.parse_move(text)?;
        let Some(mut request) = self.answering.request.clone() else {
            self.user_move(m);
            return Ok(());
        };
        request.ponder = false;
        if replaces && self.game().plugin_moves().last() == Some(&m.to_plugin()) {
            tracing::info!(mv = text, "ponder hit");
            self.search_on_after_ponder_hit(request);
            return Ok(());
        }
        self.discard_search();
        if replaces {
            self.setup.undo(1);
        }
        self.setup.play(m);
        self.answer(request).map_err(|_| "no legal position is set up")
    }

    /// UCI's `ponderhit`: the opponent played the reply the `go ponder`
    /// search took for granted (the last move of its position), and the search
    /// goes on under the `go` line's limits, counted from now.
    pub fn answer_ponder_hit(&mut self) {
        let Some(mut request) = self.answering.request.clone().filter(|request| request.ponder) else {
            return;
        };
        if !self.answering() {
            return;
        }
        tracing::info!("ponder hit");
        request.ponder = false;
        self.search_on_after_ponder_hit(request);
    }

    fn search_on_after_ponder_hit(&mut self, request: Request) {
        let budget = self.answer_budget(&request.limits);
        let held = request.limits.infinite;
        self.answering.request = Some(request);
        let Some(running) = self.searches.running_mut() else { return };
        running.purpose = Purpose::Answer { held };
        if !held {
            running.budget = running.job.set_timed(budget);
            if let Some(outcome) = running.ponder_outcome.take()
                && let Some(running) = self.searches.take()
            {
                self.conclude(running, outcome);
            }
        }
    }

    /// What a search's line means for `score` and `go mate`.
    pub(super) fn answer_line(&mut self, purpose: Purpose, root: PluginPosition, progress: &Progress) {
        if progress.multipv > 1 || !matches!(purpose, Purpose::Move | Purpose::Answer { .. } | Purpose::Score) {
            return;
        }
        self.answering.scored = Some((root, progress.score));
        if self.answering.score_wanted == Some(root) {
            self.answering.score_wanted = None;
            self.note(Note::Score(progress.score));
        }
        let mate = self.answering.request.as_ref().and_then(|request| request.limits.mate);
        if let (Purpose::Answer { .. }, Some(moves)) = (purpose, mate)
            && progress.score.kind == ScoreKind::Mate
            && (1..=i64::from(moves)).contains(&i64::from(progress.score.value))
        {
            // The mate asked for is found: the search has done its work.
            self.stop_answer();
        }
    }

    /// The search for an answer found `best`, with `ponder` the reply it expects.
    pub(super) fn answered(&mut self, running: &Running, best: GameMove, ponder: Option<GameMove>) {
        tracing::info!(job = running.id, best = %self.game().move_text(best), "best move reported");
        // The move the side to move is advised to play, for `hint`.
        self.expected_reply = Some(best);
        self.note(Note::BestMove { best: Some(best), ponder });
    }

    /// A `score` search, or one for an answer that failed: what it found is reported.
    pub(super) fn answer_without_search(&mut self, failed: &Running, best: Option<GameMove>) {
        if failed.purpose == Purpose::Score {
            return self.score_concluded(failed);
        }
        let ponder = failed.last_line.as_ref().and_then(|line| {
            let best = best?;
            let mut after = failed.root.clone();
            after.play(best);
            line.pv.get(1).and_then(|&reply| after.from_plugin_move(reply))
        });
        if let Some(best) = best {
            self.note(Note::Unsearched(best));
        }
        self.expected_reply = best;
        self.note(Note::BestMove { best, ponder });
    }

    /// A `score` search ended: its line's score, or why there is none.
    pub(super) fn score_concluded(&mut self, running: &Running) {
        self.answering.score_wanted = None;
        match &running.last_line {
            Some(line) => self.note(Note::Score(line.score)),
            None => self.note(Note::Tell("No score: the search found none".into())),
        }
    }

    /// `score`: the latest score of this position when a search gave one, or
    /// else one from a search now (or from the running search's next line).
    pub fn report_score(&mut self) -> Result<(), Refusal> {
        if !self.position_valid() {
            return Err(Refusal::NotLegalNow(Some("no legal position is set up".into())));
        }
        let root = self.game().plugin_root();
        if let Some((_, score)) = self.answering.scored.filter(|(position, _)| *position == root) {
            self.note(Note::Score(score));
        } else if self.game().legal_moves().is_empty() {
            // No move: the side to move has lost (mated or stalemated, in xiangqi alike).
            self.note(Note::Score(Score::mate_in(0)));
        } else if self.searches.running().is_some() {
            self.answering.score_wanted = Some(root);
        } else {
            self.start_search(Purpose::Score, SCORE_BUDGET);
        }
        Ok(())
    }

    /// A `score` search is about to be stopped for something else (a `go`, a
    /// new position): what it found answers now, or, if it found nothing yet,
    /// the next search of the same position does.
    pub(super) fn score_search_ends_early(&mut self) {
        let Some(running) = self.searches.running().filter(|running| running.purpose == Purpose::Score) else {
            return;
        };
        match running.last_line.as_ref().map(|line| line.score) {
            Some(score) => {
                self.answering.score_wanted = None;
                self.note(Note::Score(score));
            }
            None => self.answering.score_wanted = Some(running.root.plugin_root()),
        }
    }

    /// A search of `root` starts: a score still owed for another position will
    /// not come from it, so the GUI is told there is none rather than left waiting.
    pub(super) fn score_owed_elsewhere(&mut self, root: PluginPosition) {
        if self.answering.score_wanted.is_some_and(|wanted| wanted != root) {
            self.answering.score_wanted = None;
            self.note(Note::Tell("No score: the position changed before a search scored it".into()));
        }
    }
}
