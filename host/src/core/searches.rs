//! The searches the core started: the one it waits for, the ones it stopped and
//! no longer waits for, their numbers, and pause. A search's events come back
//! as outcomes (a line, concluded, overdue, hung); what follows is the core's
//! decision. Searches are started through an injected [`Launcher`], so the core
//! runs plugins on threads in the engine and however a test likes.

use std::time::Duration;

use plugboard_plugin_api::SearchOutcome;

use super::note::Status;
use crate::{
    clock::Budget,
    event::Progress,
    game::{Game, GameMove},
    ics::Summary,
    plugins::Origin,
    search::SearchSpec,
};

/// Starts searches.
pub trait Launcher {
    /// Starts `spec` as search number `id`; its reports come back as events
    /// carrying `id`.
    fn launch(&mut self, id: u64, spec: SearchSpec) -> Box<dyn Job>;
}

/// A search started by a [`Launcher`], as the core controls it.
pub trait Job {
    fn stop(&self);
    fn is_finished(&self) -> bool;
    /// Search time so far (pauses left out; CPU time on a CPU clock).
    fn elapsed(&self) -> Duration;
    /// Turns an open-ended search (pondering) into one for our move: `budget`
    /// counts from now. Returns the budget counted from the search's start.
    fn set_timed(&self, budget: Budget) -> Budget;
    fn pause(&self);
    fn resume(&self);
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Move,
    Analysis,
    /// Thinking on the opponent's time, in the position after the reply we expect.
    Ponder {
        expected: GameMove,
    },
    /// A search whose outcome is reported, not played (cxboard's `go`). While
    /// `held`, its outcome waits to be asked for (`stop`, or the GUI's move after
    /// `go ponder`).
    Answer {
        held: bool,
    },
    /// A short search for the score of the position (cxboard's `score`).
    Score,
}

/// Which plugin files a search used, so a fault is pinned on the right one.
#[derive(Debug, Clone)]
pub struct Culprits {
    pub search: (Origin, String),
    pub eval: (Origin, String),
}

pub struct Running {
    pub id: u64,
    pub job: Box<dyn Job>,
    pub purpose: Purpose,
    /// The game as it was when the search started.
    pub root: Game,
    pub culprits: Culprits,
    pub budget: Budget,
    /// The best line of the last iteration reported.
    pub last_line: Option<Progress>,
    pub last_progress: Option<Progress>,
    /// A ponder search that ended before the opponent moved keeps its result here.
    pub ponder_outcome: Option<Result<SearchOutcome, String>>,
    /// Search time before our clock started: a ponder search's time until the hit.
    pub clock_from: Duration,
}

impl Running {
    /// What the search found for the move `m` it chose, for the spectators and
    /// the resign and draw policy; `None` when its last line does not start with `m`.
    pub fn summary_of(&self, m: GameMove, nodes_per_second: Option<u64>) -> Option<Summary> {
        let line = self.last_line.as_ref()?;
        let first = line.pv.first().and_then(|&first| self.root.from_plugin_move(first))?;
        if first != m {
            return None;
        }
        let time_ms = match nodes_per_second {
            Some(rate) if rate > 0 => line.nodes.saturating_mul(1000) / rate,
            _ => line.time_ms,
        };
        let mut game = self.root.clone();
        let mut pv = Vec::new();
        for m in self.root.legal_start(&line.pv) {
            pv.push(game.notation(m));
            game.play(m);
        }
        let pv = pv.join(" ");
        Some(Summary { depth: line.depth, score: line.score, nodes: line.nodes, time_ms, tbhits: line.tbhits, pv })
    }
}

/// A search stopped and no longer waited for; kept to notice one that never returns.
struct Abandoned {
    id: u64,
    culprits: Culprits,
}

/// What a search's report means.
pub enum Reported<'a> {
    /// Nothing for the core: a search no longer waited for, or a progress report
    /// without a root move.
    Nothing,
    /// A line of thinking from the running search.
    Line(&'a Running, Progress),
    /// The root move the running search is on, and which of how many it is.
    Current { running: &'a Running, depth: u32, m: plugboard_plugin_api::Move, number: u32 },
}

/// What is known of a search that ignores its stop flag.
pub struct Hung {
    pub culprits: Culprits,
    /// It was the running search, now abandoned: nothing runs any more.
    pub was_running: bool,
}

pub struct Searches {
    launcher: Box<dyn Launcher>,
    running: Option<Running>,
    abandoned: Vec<Abandoned>,
    next_id: u64,
    paused: bool,
}

impl Searches {
    pub fn new(launcher: Box<dyn Launcher>) -> Searches {
        Searches { launcher, running: None, abandoned: Vec::new(), next_id: 1, paused: false }
    }

    pub fn running(&self) -> Option<&Running> {
        self.running.as_ref()
    }

    pub fn running_mut(&mut self) -> Option<&mut Running> {
        self.running.as_mut()
    }

    pub fn is_running(&self, purpose: impl Fn(Purpose) -> bool) -> bool {
        self.running.as_ref().is_some_and(|r| purpose(r.purpose))
    }

    /// The number the next search will have.
    pub fn next_id(&self) -> u64 {
        self.next_id
    }

    /// Starts a search in place of none (stop the running one first).
    pub fn start(&mut self, spec: SearchSpec, purpose: Purpose, root: Game, culprits: Culprits, budget: Budget) {
        let id = self.next_id;
        self.next_id += 1;
        let job = self.launcher.launch(id, spec);
        if self.paused {
            job.pause();
        }
        self.running = Some(Running {
            id,
            job,
            purpose,
            root,
            culprits,
            budget,
            last_line: None,
            last_progress: None,
            ponder_outcome: None,
            clock_from: Duration::ZERO,
        });
    }

    /// Asks the running search to stop and return its move (`?`).
    pub fn stop(&self) {
        if let Some(running) = &self.running {
            running.job.stop();
        }
    }

    /// Stops the running search and forgets it: its move will not be played.
    pub fn discard(&mut self) {
        if let Some(running) = self.running.take() {
            running.job.stop();
            self.abandon(running);
        }
    }

    /// Forgets the running search without stopping it (it was stopped, or it is over).
    pub fn take(&mut self) -> Option<Running> {
        self.running.take()
    }

    fn abandon(&mut self, running: Running) {
        if !running.job.is_finished() {
            self.abandoned.push(Abandoned { id: running.id, culprits: running.culprits });
        }
    }

    /// `pause`: false if already paused.
    pub fn pause(&mut self) -> bool {
        if std::mem::replace(&mut self.paused, true) {
            return false;
        }
        if let Some(running) = &self.running {
            running.job.pause();
        }
        true
    }

    /// `resume`: false if not paused.
    pub fn resume(&mut self) -> bool {
        if !std::mem::replace(&mut self.paused, false) {
            return false;
        }
        if let Some(running) = &self.running {
            running.job.resume();
        }
        true
    }

    pub fn progress(&mut self, id: u64, progress: Progress) -> Reported<'_> {
        let Some(running) = self.running.as_mut().filter(|r| r.id == id) else { return Reported::Nothing };
        if !progress.is_line {
            let current = progress.current_move.map(|m| (progress.depth, m, progress.current_move_number));
            running.last_progress = Some(progress);
            return match current {
                Some((depth, m, number)) => Reported::Current { running, depth, m, number },
                None => Reported::Nothing,
            };
        }
        // Only the best line speaks for the position; the others are for the user to read.
        if progress.multipv <= 1 {
            running.last_line = Some(progress.clone());
        }
        Reported::Line(running, progress)
    }

    /// A search ended: the running search with its outcome, for the core to
    /// conclude; `None` for a search no longer waited for, or a ponder search
    /// whose result waits for the opponent's move.
    pub fn finished(
        &mut self,
        id: u64,
        outcome: Result<SearchOutcome, String>,
    ) -> Option<(Running, Result<SearchOutcome, String>)> {
        if let Some(index) = self.abandoned.iter().position(|a| a.id == id) {
            let abandoned = self.abandoned.swap_remove(index);
            if let Err(why) = outcome {
                tracing::warn!(job = id, %why, search = %abandoned.culprits.search.1, "a stopped search failed");
            }
            return None;
        }
        if let Some(running) = self.running.as_mut().filter(|r| r.id == id)
            && matches!(running.purpose, Purpose::Ponder { .. } | Purpose::Answer { held: true })
        {
            // The opponent has not moved yet, or nobody asked: keep the result until then.
            running.ponder_outcome = Some(outcome);
            return None;
        }
        self.running.take_if(|r| r.id == id).map(|running| (running, outcome))
    }

    /// The search did not return soon after being told to stop: when it was to
    /// find our move (or one to report), it is abandoned and handed back, for the
    /// core to move (or answer) without it.
    pub fn overdue(&mut self, id: u64) -> Option<Running> {
        let awaited = |r: &mut Running| {
            r.id == id && matches!(r.purpose, Purpose::Move | Purpose::Answer { .. } | Purpose::Score)
        };
        let running = self.running.take_if(awaited)?;
        tracing::warn!(job = id, search = %running.culprits.search.1, "search overran its stop; moving without it");
        self.abandoned.push(Abandoned { id, culprits: running.culprits.clone() });
        Some(running)
    }

    /// The search still has not returned long after being told to stop.
    pub fn hung(&mut self, id: u64) -> Option<Hung> {
        if let Some(index) = self.abandoned.iter().position(|a| a.id == id) {
            let culprits = self.abandoned.swap_remove(index).culprits;
            return Some(Hung { culprits, was_running: false });
        }
        let running = self.running.take_if(|r| r.id == id)?;
        self.abandoned.push(Abandoned { id, culprits: running.culprits.clone() });
        Some(Hung { culprits: running.culprits, was_running: true })
    }

    /// Where the running analysis stands; `None` when no analysis runs.
    pub fn analysis_status(&self) -> Option<Status> {
        let running = self.running.as_ref().filter(|r| r.purpose == Purpose::Analysis)?;
        // Lines come at the end of iterations, progress reports every tenth of a
        // second: take the freshest of each.
        let line = running.last_line.as_ref();
        let progress = running.last_progress.as_ref();
        let total = progress.map_or_else(|| running.root.legal_moves().len() as u32, |p| p.root_move_count);
        Some(Status {
            time_ms: running.job.elapsed().as_millis() as u64,
            nodes: line.map_or(0, |l| l.nodes).max(progress.map_or(0, |p| p.nodes)),
            depth: line.map_or(0, |l| l.depth).max(progress.map_or(0, |p| p.depth)),
            moves_left: total.saturating_sub(progress.map_or(0, |p| p.current_move_number)),
            total_moves: total,
            current: progress.and_then(|p| p.current_move).and_then(|m| running.root.from_plugin_move(m)),
        })
    }
}
