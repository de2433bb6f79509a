//! What the core does when a search lets it down: a plugin that fails is
//! disabled and the search tried again with the fallback while there is time;
//! a search that overruns its stop is left behind and the move made (or the
//! answer given) without it; one that never returns is written off.

use plugboard_plugin_api::NO_DEADLINE;

use super::{
    Core, Note,
    play::Found,
    searches::{Purpose, Running},
};
use crate::{
    clock::Budget,
    plugins::{Kind, Origin},
};

/// Below this much time left, a failed search is not retried: the best move known is played.
const RETRY_MIN_MS: u64 = 20;

impl Core {
    /// The search did not return soon after being told to stop: when it was to
    /// find our move, the move is played without it so no time is lost.
    pub(super) fn on_overdue(&mut self, job: u64) {
        if let Some(running) = self.searches.overdue(job) {
            self.charge_own_clock(&running);
            self.fall_back_move(&running);
        }
    }

    /// Our thinking for our move, spent from our own clock where we keep one
    /// (cxboard's `clock`; no GUI tells us our time there).
    pub(super) fn charge_own_clock(&mut self, running: &Running) {
        if running.purpose == Purpose::Move {
            let spent = running.job.elapsed().saturating_sub(running.clock_from);
            self.clock.charge(spent.as_millis() as u64);
        }
    }

    /// The search still has not returned: its plugin ignores the stop flag.
    pub(super) fn on_hung(&mut self, job: u64) {
        let Some(hung) = self.searches.hung(job) else { return };
        let (origin, name) = hung.culprits.search;
        self.plugin_failed(Kind::Search, &origin, &name, "it did not stop when told to");
        if self.searches.running().is_none() {
            self.restart_analysis();
        }
    }

    pub(super) fn plugin_failed(&mut self, kind: Kind, origin: &Origin, name: &str, why: &str) {
        tracing::error!(%kind, %name, %origin, %why, "plugin failed");
        let fallback = self.plugins.disable(kind, origin, name, why);
        self.note(Note::TellError(format!("The {kind} plugin {name} failed: {why}. Using {fallback} instead.")));
        self.note(Note::OptionsChanged { purged: false });
    }

    /// After a plugin failed: search again with the fallback if there is time, or
    /// play the best move known.
    pub(super) fn retry(&mut self, failed: Running) {
        match failed.purpose {
            Purpose::Analysis => self.restart_analysis(),
            // Never concluded: a failed ponder search is kept until the opponent moves.
            Purpose::Ponder { .. } => {}
            // On a node clock there is no wall-clock budget to split: start afresh.
            // So too a search for an answer that only its depth, its nodes or `stop` end.
            Purpose::Move | Purpose::Answer { .. } | Purpose::Score if failed.budget.hard_ms == NO_DEADLINE => {
                let budget = if failed.purpose == Purpose::Move { self.move_budget() } else { failed.budget };
                self.start_search(failed.purpose, budget);
            }
            Purpose::Move | Purpose::Answer { .. } | Purpose::Score => {
                let elapsed = failed.job.elapsed().as_millis() as u64;
                let left = failed.budget.hard_ms.saturating_sub(elapsed);
                if left >= RETRY_MIN_MS {
                    let soft = failed.budget.soft_ms.saturating_sub(elapsed).clamp(RETRY_MIN_MS / 2, left);
                    self.start_search(failed.purpose, Budget { soft_ms: soft, hard_ms: left });
                } else {
                    self.fall_back_move(&failed);
                }
            }
        }
    }

    /// Plays the best move the failed search reported, or else any legal move.
    pub(super) fn fall_back_move(&mut self, failed: &Running) {
        let reported =
            failed.last_line.as_ref().and_then(|l| l.pv.first()).and_then(|&m| failed.root.from_plugin_move(m));
        let any = failed.root.legal_moves().first().copied();
        if failed.purpose != Purpose::Move {
            return self.answer_without_search(failed, reported.or(any));
        }
        // The reply the last search expected belongs to an older position; only
        // this search's own line, when its first move is the one played, can say
        // what comes next.
        self.expected_reply = None;
        if let (Some(m), Some(line)) = (reported, failed.last_line.as_ref()) {
            let mut after = failed.root.clone();
            after.play(m);
            self.expected_reply = line.pv.get(1).and_then(|&r| after.from_plugin_move(r));
        }
        match reported.or(any) {
            Some(m) => {
                self.note(Note::Unsearched(m));
                self.play_engine_move(m, Found::Unsearched("no search"));
            }
            None => self.note(Note::MoveSearchOver),
        }
    }
}
