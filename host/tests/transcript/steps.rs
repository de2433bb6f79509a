//! Searches and time without threads or waiting: a [`StepLauncher`] that plays
//! each search as a script (see [`crate::fakes`]) and a [`FakeClock`], both over
//! one [`World`] that the harness owns. A search's reports go into the world's
//! queue as the events a search thread would send, for the harness to hand to
//! the session in order. Time passes only when the harness says so; a search
//! that runs until stopped then meets its deadline as the engine's watcher
//! would make it.

use std::{
    cell::RefCell,
    collections::VecDeque,
    rc::Rc,
    sync::Mutex,
    time::{Duration, Instant},
};

use plugboard::{
    clock::Budget,
    core::{
        WallClock,
        searches::{Job, Launcher},
    },
    event::Event,
    search::{SearchSpec, run_plugin},
};
use plugboard_plugin_api::{NO_DEADLINE, SearchControl, SearchOutcome};

use crate::fakes::{self, End, Script, Seen};

/// What the launcher, its jobs and the clock share with the harness.
pub type Shared = Rc<RefCell<World>>;

#[derive(Default)]
pub struct World {
    /// Fake time since the session was made.
    now: Duration,
    /// Events the searches sent, not yet handled.
    events: VecDeque<Event>,
    /// Every search launched, by number.
    jobs: Vec<JobState>,
    /// What the probe was asked for, not yet taken.
    pub seen: Vec<Seen>,
}

struct JobState {
    id: u64,
    /// When it started, in fake time.
    started: Duration,
    /// Since when it is paused, if it is.
    paused_since: Option<Duration>,
    /// Time spent paused before that.
    paused_for: Duration,
    /// Its hard deadline in search time, when one counts (not an analysis or a
    /// ponder search before a hit, not a node clock).
    hard_ms: Option<u64>,
    /// What it returns when stopped, while it searches on.
    searching: Option<SearchOutcome>,
    /// Its stop flag: a deadline stops it once.
    stopped: bool,
}

impl World {
    pub fn next_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// How long until a running search reaches its hard deadline, if one will.
    pub fn next_deadline(&self) -> Option<Duration> {
        self.jobs
            .iter()
            .filter(|job| job.searching.is_some() && !job.stopped && job.paused_since.is_none())
            .filter_map(|job| Some(Duration::from_millis(job.hard_ms?).saturating_sub(self.elapsed(job))))
            .min()
    }

    /// Lets `time` pass; a search that reaches its hard deadline is stopped.
    pub fn advance(&mut self, time: Duration) {
        self.now += time;
        let due: Vec<u64> = self
            .jobs
            .iter()
            .filter(|job| job.searching.is_some() && !job.stopped && job.paused_since.is_none())
            .filter(|job| job.hard_ms.is_some_and(|hard| self.elapsed(job) >= Duration::from_millis(hard)))
            .map(|job| job.id)
            .collect();
        for id in due {
            self.stop(id);
        }
    }

    fn job(&self, id: u64) -> &JobState {
        self.jobs.iter().find(|job| job.id == id).expect("a job the launcher started")
    }

    fn job_mut(&mut self, id: u64) -> &mut JobState {
        self.jobs.iter_mut().find(|job| job.id == id).expect("a job the launcher started")
    }

    /// Search time: since the start, pauses left out.
    fn elapsed(&self, job: &JobState) -> Duration {
        let paused = job.paused_for + job.paused_since.map_or(Duration::ZERO, |since| self.now - since);
        (self.now - job.started).saturating_sub(paused)
    }

    /// Raises the stop flag: a search that searches on returns, paused or not.
    fn stop(&mut self, id: u64) {
        let job = self.job_mut(id);
        job.stopped = true;
        if let Some(outcome) = job.searching.take() {
            self.events.push_back(Event::Finished { job: id, outcome: Ok(outcome) });
        }
    }
}

/// Plays each search as its script: the fakes' by their plugin's name; any
/// other search plugin (the built-in alphabeta) is run at once, on this thread,
/// which only a search limited in depth or nodes allows.
pub struct StepLauncher(pub Shared);

impl Launcher for StepLauncher {
    fn launch(&mut self, id: u64, spec: SearchSpec) -> Box<dyn Job> {
        let script = fakes::script(&spec).unwrap_or_else(|| run_at_once(&spec));
        let mut world = self.0.borrow_mut();
        world.seen.extend(script.seen);
        world.events.extend(script.reports.into_iter().map(|progress| Event::Progress { job: id, progress }));
        let searching = match script.end {
            End::Now(outcome) => {
                world.events.push_back(Event::Finished { job: id, outcome });
                None
            }
            End::WhenStopped(outcome) => Some(outcome),
        };
        let hard_ms = Some(spec.hard_ms).filter(|&hard| !spec.infinite && hard != NO_DEADLINE);
        let started = world.now;
        world.jobs.push(JobState {
            id,
            started,
            paused_since: None,
            paused_for: Duration::ZERO,
            hard_ms,
            searching,
            stopped: false,
        });
        Box::new(StepJob { world: Rc::clone(&self.0), id })
    }
}

struct StepJob {
    world: Shared,
    id: u64,
}

impl Job for StepJob {
    fn stop(&self) {
        self.world.borrow_mut().stop(self.id);
    }

    fn is_finished(&self) -> bool {
        self.world.borrow().job(self.id).searching.is_none()
    }

    fn elapsed(&self) -> Duration {
        let world = self.world.borrow();
        world.elapsed(world.job(self.id))
    }

    /// As the engine's job: `budget` counts from now, and the deadline counts.
    fn set_timed(&self, budget: Budget) -> Budget {
        let mut world = self.world.borrow_mut();
        let elapsed = world.elapsed(world.job(self.id)).as_millis() as u64;
        let timed =
            Budget { soft_ms: elapsed.saturating_add(budget.soft_ms), hard_ms: elapsed.saturating_add(budget.hard_ms) };
        world.job_mut(self.id).hard_ms = Some(timed.hard_ms).filter(|&hard| hard != NO_DEADLINE);
        timed
    }

    fn pause(&self) {
        let mut world = self.world.borrow_mut();
        let now = world.now;
        world.job_mut(self.id).paused_since.get_or_insert(now);
    }

    fn resume(&self) {
        let mut world = self.world.borrow_mut();
        let now = world.now;
        let job = world.job_mut(self.id);
        if let Some(since) = job.paused_since.take() {
            job.paused_for += now - since;
        }
    }
}

/// Runs a real search plugin to its end on this thread and keeps its reports.
fn run_at_once(spec: &SearchSpec) -> Script {
    assert!(
        !spec.infinite && (spec.depth > 0 || spec.nodes > 0),
        "the transcript harness runs the search {} only with a depth or node limit (sd, or st with nps), \
         never open-ended",
        spec.search_name
    );
    let control = SearchControl::new(spec.soft_ms, spec.hard_ms, false);
    let reports = Mutex::new(Vec::new());
    let outcome = run_plugin(spec, &control, |progress| {
        reports.lock().expect("one search reports at a time").push(progress);
    });
    let reports = reports.into_inner().expect("the search has returned");
    Script { seen: None, reports, end: End::Now(outcome) }
}

/// The time of day as the world tells it; the same entropy every run.
pub struct FakeClock {
    pub world: Shared,
    pub start: Instant,
}

impl WallClock for FakeClock {
    fn now(&self) -> Instant {
        self.start + self.world.borrow().now
    }

    fn entropy(&self) -> u64 {
        0x5eed
    }
}
