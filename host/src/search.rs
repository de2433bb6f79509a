//! Runs a search plugin on a worker thread, relays its reports to the inbox, and
//! watches the clock: it raises the stop flag at the hard deadline and says so
//! when a search does not return soon after being stopped.

use std::{
    sync::{
        Arc, Mutex, PoisonError, Weak,
        atomic::{AtomicBool, AtomicU64, Ordering},
        mpsc::Sender,
    },
    thread,
    time::{Duration, Instant},
};

use abi_stable::std_types::{RResult, RSlice};
use plugboard_plugin_api::{
    BoardPosition, BoardPresetScore, BoardSearchRequest, InfoKind, Move, NO_DEADLINE, PresetScore, Reporter,
    SearchControl, SearchInfo, SearchModuleRef, SearchOutcome, SearchRequest,
};

use crate::{
    clock::Budget,
    core::searches::{Job, Launcher},
    event::{Event, Progress},
    game::PluginPosition,
    plugins::EvalSource,
    tablebases::SearchTables,
};

/// How long a search may take to return after its stop flag went up before the
/// engine moves without it.
pub const STOP_GRACE: Duration = Duration::from_millis(30);
/// How long before a search that has not returned is judged to ignore its stop
/// flag; generous, so a loaded machine that merely scheduled it late is not blamed.
pub const HUNG_AFTER: Duration = Duration::from_secs(1);
/// How often the watcher looks at the clock.
const WATCH_INTERVAL: Duration = Duration::from_millis(2);

/// Every search of this process that may still be running. A new search waits
/// for those stopped before it to return, so that two never hold their tables
/// at once (a ponder miss would otherwise have the old search's hash and the
/// new one's alive together, beyond what `memory` allows); and the ways out
/// stop them all at once, so that the threads of a search do not crowd out
/// the few that end the process.
static LIVE: Mutex<Vec<Weak<Shared>>> = Mutex::new(Vec::new());
/// How often a new search looks whether the ones before it have returned.
const PREDECESSOR_POLL: Duration = Duration::from_micros(500);

/// What to search, in owned form.
pub struct SearchSpec {
    pub module: SearchModuleRef,
    /// The name of the search plugin `module` belongs to.
    pub search_name: String,
    /// The evaluation's entry for the kind of position searched.
    pub eval: EvalSource,
    pub game_start: PluginPosition,
    /// The `variants.ini` text of a variant defined as data, for its search.
    pub definition: Option<String>,
    pub moves: Vec<Move>,
    pub root: PluginPosition,
    pub root_moves: Vec<Move>,
    pub depth: u32,
    pub nodes: u64,
    pub threads: u32,
    pub hash_mb: u32,
    pub multipv: u32,
    pub clear_hash: bool,
    /// Positions and the centipawns they are to have (CECP `setscore`).
    pub preset_scores: Vec<(PluginPosition, i32)>,
    /// The tables the plugin may probe, kept open while the search runs.
    pub tables: Option<SearchTables>,
    pub eval_noise: u32,
    pub noise_seed: u64,
    pub soft_ms: u64,
    pub hard_ms: u64,
    pub infinite: bool,
    /// Deadlines are in user CPU time, not wall time (CECP `nps 0`).
    pub cpu_clock: bool,
}

/// A running search, as the core controls it.
pub struct SearchJob {
    pub id: u64,
    shared: Arc<Shared>,
}

struct Shared {
    control: SearchControl,
    started: Instant,
    finished: AtomicBool,
    pauses: Mutex<Pauses>,
    /// The process's user CPU time at the start, when deadlines are in CPU time.
    cpu_started: Option<Duration>,
    /// The deadlines in CPU time; the watcher turns what is left of them into the
    /// wall-clock deadlines the plugin reads.
    cpu_soft_ms: AtomicU64,
    cpu_hard_ms: AtomicU64,
}

/// Time spent paused, which is not search time.
#[derive(Default)]
struct Pauses {
    since: Option<Instant>,
    total: Duration,
}

impl Shared {
    /// Search time: CPU time on a CPU clock (a paused search uses none); otherwise
    /// wall time since the start less the pauses, as the plugin counts it.
    fn elapsed(&self) -> Duration {
        if let Some(started) = self.cpu_started {
            return user_cpu_time().map_or(Duration::ZERO, |now| now.saturating_sub(started));
        }
        self.wall_elapsed()
    }

    fn wall_elapsed(&self) -> Duration {
        let paused =
            self.pauses.lock().map_or(Duration::ZERO, |p| p.total + p.since.map_or(Duration::ZERO, |s| s.elapsed()));
        self.started.elapsed().saturating_sub(paused)
    }

    /// Moves the plugin's wall-clock deadlines so that they fall when the CPU
    /// deadlines would if the search keeps its current pace from here.
    fn translate_cpu_deadlines(&self, cpu_elapsed_ms: u64) {
        let wall_ms = self.wall_elapsed().as_millis() as u64;
        let translate = |cpu_deadline: u64| match cpu_deadline {
            NO_DEADLINE => NO_DEADLINE,
            deadline => wall_ms + deadline.saturating_sub(cpu_elapsed_ms),
        };
        let control = &self.control;
        control.soft_deadline_ms.store(translate(self.cpu_soft_ms.load(Ordering::Relaxed)), Ordering::Relaxed);
        control.hard_deadline_ms.store(translate(self.cpu_hard_ms.load(Ordering::Relaxed)), Ordering::Relaxed);
    }
}

/// The process's user CPU time, every search thread's included (CECP `nps 0`).
#[cfg(unix)]
pub fn user_cpu_time() -> Option<Duration> {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the rusage the pointer points at, which is ours and large enough.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) } != 0 {
        return None;
    }
    // SAFETY: getrusage succeeded, so the struct is filled in (and all-zero was valid before).
    let usage = unsafe { usage.assume_init() };
    let seconds = u64::try_from(usage.ru_utime.tv_sec).ok()?;
    let micros = u64::try_from(usage.ru_utime.tv_usec).ok()?;
    Some(Duration::from_secs(seconds) + Duration::from_micros(micros))
}

/// Without getrusage there is no CPU clock; searches then keep wall time.
#[cfg(not(unix))]
pub fn user_cpu_time() -> Option<Duration> {
    None
}

impl SearchJob {
    pub fn start(id: u64, mut spec: SearchSpec, inbox: Sender<Event>) -> SearchJob {
        let usable = usable_cores();
        if spec.threads > usable {
            tracing::info!(job = id, asked = spec.threads, usable, "search threads limited to the usable cores");
            spec.threads = usable;
        }
        let hard_ms = if spec.infinite { NO_DEADLINE } else { spec.hard_ms };
        let soft_ms = if spec.infinite { NO_DEADLINE } else { spec.soft_ms };
        let shared = Arc::new(Shared {
            control: SearchControl::new(soft_ms, hard_ms, spec.infinite),
            started: Instant::now(),
            finished: AtomicBool::new(false),
            pauses: Mutex::new(Pauses::default()),
            cpu_started: if spec.cpu_clock { user_cpu_time() } else { None },
            cpu_soft_ms: AtomicU64::new(soft_ms),
            cpu_hard_ms: AtomicU64::new(hard_ms),
        });
        let predecessors = enlist(&shared);
        let worker_shared = Arc::clone(&shared);
        let worker_inbox = inbox.clone();
        let spawned = thread::Builder::new().name(format!("search-{id}")).spawn(move || {
            // The plugin's own threads start from this one and keep what it asks for.
            crate::scheduling::prefer_throughput();
            wait_for_predecessors(id, &predecessors);
            drop(predecessors);
            let outcome = run(&spec, &worker_shared.control, id, &worker_inbox);
            worker_shared.finished.store(true, Ordering::Release);
            let _ = worker_inbox.send(Event::Finished { job: id, outcome });
        });
        if let Err(error) = spawned {
            shared.finished.store(true, Ordering::Release);
            let _ =
                inbox.send(Event::Finished { job: id, outcome: Err(format!("cannot start a search thread: {error}")) });
            return SearchJob { id, shared };
        }
        let watcher_shared = Arc::clone(&shared);
        let _ = thread::Builder::new().name(format!("watch-{id}")).spawn(move || {
            // It raises the stop flag at the hard deadline: late, it would lose on time.
            crate::scheduling::prefer_latency();
            watch(id, &watcher_shared, &inbox);
        });
        SearchJob { id, shared }
    }

    pub fn stop(&self) {
        self.shared.control.request_stop();
    }

    pub fn is_stopping(&self) -> bool {
        self.shared.control.stop_requested()
    }

    /// Search time so far (pauses left out; CPU time on a CPU clock).
    pub fn elapsed(&self) -> Duration {
        self.shared.elapsed()
    }

    pub fn is_finished(&self) -> bool {
        self.shared.finished.load(Ordering::Acquire)
    }

    /// Turns an open-ended search (pondering) into one for our move: `budget` counts
    /// from now, the time already spent was the opponent's.
    pub fn set_timed(&self, budget: Budget) -> Budget {
        let elapsed = self.elapsed().as_millis() as u64;
        // An unlimited budget stays unlimited: a `go ponder depth N` ends by its depth.
        let timed =
            Budget { soft_ms: elapsed.saturating_add(budget.soft_ms), hard_ms: elapsed.saturating_add(budget.hard_ms) };
        let control = &self.shared.control;
        self.shared.cpu_soft_ms.store(timed.soft_ms, Ordering::Relaxed);
        self.shared.cpu_hard_ms.store(timed.hard_ms, Ordering::Relaxed);
        if self.shared.cpu_started.is_some() {
            self.shared.translate_cpu_deadlines(elapsed);
        } else {
            control.soft_deadline_ms.store(timed.soft_ms, Ordering::Relaxed);
            control.hard_deadline_ms.store(timed.hard_ms, Ordering::Relaxed);
        }
        control.infinite.store(false, Ordering::Relaxed);
        timed
    }

    /// Suspends the search (CECP `pause`): it holds still and its clock stops.
    pub fn pause(&self) {
        if let Ok(mut pauses) = self.shared.pauses.lock() {
            pauses.since.get_or_insert_with(Instant::now);
        }
        self.shared.control.paused.store(true, Ordering::Relaxed);
    }

    /// Lets a paused search go on from where it stood, on the clock as on the board.
    pub fn resume(&self) {
        if let Ok(mut pauses) = self.shared.pauses.lock()
            && let Some(since) = pauses.since.take()
        {
            pauses.total += since.elapsed();
        }
        self.shared.control.paused.store(false, Ordering::Relaxed);
    }
}

/// Runs each search on a thread of its own, its reports sent to `inbox`.
pub struct ThreadLauncher {
    pub inbox: Sender<Event>,
}

impl Launcher for ThreadLauncher {
    fn launch(&mut self, id: u64, spec: SearchSpec) -> Box<dyn Job> {
        Box::new(SearchJob::start(id, spec, self.inbox.clone()))
    }
}

/// The cores this process may run on (its affinity and CPU quota): a search
/// gets no more threads than that. More would add no strength (the threads of a
/// parallel search only share a table), and would crowd out the few threads
/// that answer the GUI, watch the clock and end the process.
fn usable_cores() -> u32 {
    thread::available_parallelism().map_or(u32::MAX, |cores| u32::try_from(cores.get()).unwrap_or(u32::MAX))
}

/// Stops every search of the process (and lets a paused one see it): the
/// engine is ending.
pub fn stop_all() {
    let live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
    for shared in live.iter().filter_map(Weak::upgrade) {
        shared.control.request_stop();
        shared.control.paused.store(false, Ordering::Relaxed);
    }
}

/// Adds `shared` to the live searches; returns those still running, which were
/// all stopped before this one was started.
fn enlist(shared: &Arc<Shared>) -> Vec<Arc<Shared>> {
    let mut live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
    live.retain(|weak| weak.upgrade().is_some_and(|other| !other.finished.load(Ordering::Acquire)));
    let running = live.iter().filter_map(Weak::upgrade).collect();
    live.push(Arc::downgrade(shared));
    running
}

/// Waits until the searches stopped before this one have returned, at most
/// [`HUNG_AFTER`]: one that ignores its stop flag is left to run, and this
/// search, on the clock already, goes ahead.
fn wait_for_predecessors(id: u64, predecessors: &[Arc<Shared>]) {
    let started = Instant::now();
    while predecessors.iter().any(|other| !other.finished.load(Ordering::Acquire)) {
        if started.elapsed() >= HUNG_AFTER {
            tracing::warn!(job = id, "a search stopped before this one has not returned; starting anyway");
            return;
        }
        thread::sleep(PREDECESSOR_POLL);
    }
    if !predecessors.is_empty() {
        tracing::debug!(job = id, waited_us = started.elapsed().as_micros() as u64, "the searches before returned");
    }
}

impl Job for SearchJob {
    fn stop(&self) {
        SearchJob::stop(self);
    }

    fn is_finished(&self) -> bool {
        SearchJob::is_finished(self)
    }

    fn elapsed(&self) -> Duration {
        SearchJob::elapsed(self)
    }

    fn set_timed(&self, budget: Budget) -> Budget {
        SearchJob::set_timed(self, budget)
    }

    fn pause(&self) {
        SearchJob::pause(self);
    }

    fn resume(&self) {
        SearchJob::resume(self);
    }
}

fn run(
    spec: &SearchSpec,
    control: &SearchControl,
    id: u64,
    inbox: &Sender<Event>,
) -> Result<plugboard_plugin_api::SearchOutcome, String> {
    run_plugin(spec, control, |progress| {
        let _ = inbox.send(Event::Progress { job: id, progress });
    })
}

/// Runs `spec`'s search plugin on this thread until it returns, under `control`,
/// handing each of its reports to `report`: how every launcher runs a plugin.
pub fn run_plugin(
    spec: &SearchSpec,
    control: &SearchControl,
    report: impl Fn(Progress) + Sync,
) -> Result<SearchOutcome, String> {
    let relay = |info: &SearchInfo<'_>| {
        report(Progress {
            is_line: info.kind == InfoKind::Line,
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score,
            nodes: info.nodes,
            time_ms: info.time_ms,
            tbhits: info.tbhits,
            pv: info.pv.to_vec(),
            current_move: info.current_move.into_option(),
            current_move_number: info.current_move_number,
            root_move_count: info.root_move_count,
            multipv: info.multipv,
            // Asked while the plugin reports, on its own thread, as the entry requires.
            hashfull: if info.kind == InfoKind::Line { spec.module.hash_full() } else { None },
        });
    };
    let reporter = Reporter::new(&relay);
    let outcome = match (spec.game_start, spec.root, spec.eval) {
        (PluginPosition::Chess(game_start), PluginPosition::Chess(root), EvalSource::Chess(eval)) => {
            let preset_scores: Vec<PresetScore> = spec
                .preset_scores
                .iter()
                .filter_map(|&(position, centipawns)| Some(PresetScore { position: position.chess()?, centipawns }))
                .collect();
            let request = SearchRequest {
                game_start,
                moves: RSlice::from_slice(&spec.moves),
                root,
                root_moves: RSlice::from_slice(&spec.root_moves),
                depth: spec.depth,
                nodes: spec.nodes,
                threads: spec.threads,
                hash_mb: spec.hash_mb,
                multipv: spec.multipv.max(1),
                clear_hash: spec.clear_hash,
                preset_scores: RSlice::from_slice(&preset_scores),
                eval_noise: spec.eval_noise,
                noise_seed: spec.noise_seed,
                control,
            };
            // A plugin built before tablebases were lent has no such entry: it gets none.
            if let Some(use_tablebases) = spec.module.use_tablebases() {
                use_tablebases(spec.tables.as_ref().map(SearchTables::probe).into());
            }
            (spec.module.search())(&request, eval, reporter)
        }
        (PluginPosition::Board(game_start), PluginPosition::Board(root), EvalSource::Defined(eval)) => {
            let Some(search_defined) = spec.module.search_defined() else {
                return Err(format!("{} cannot search variants defined as data", spec.search_name));
            };
            let Some(definition) = spec.definition.as_deref() else {
                return Err("a variant defined as data came without its definition".into());
            };
            let preset_scores = board_presets(&spec.preset_scores);
            let request = board_request(spec, game_start, root, &preset_scores, control);
            search_defined(&request, definition.into(), eval, reporter)
        }
        (PluginPosition::Board(game_start), PluginPosition::Board(root), EvalSource::Board(eval)) => {
            // The host chooses only searches that have the entry; a plugin that
            // lost it between the choice and now is told apart all the same.
            let Some(search_board) = spec.module.search_board() else {
                return Err(format!("{} cannot search {} boards", spec.search_name, root.variant.cecp_name()));
            };
            let preset_scores = board_presets(&spec.preset_scores);
            let request = board_request(spec, game_start, root, &preset_scores, control);
            search_board(&request, eval, reporter)
        }
        _ => return Err("the position and the evaluation are of different kinds".into()),
    };
    match outcome {
        RResult::ROk(outcome) => Ok(outcome),
        RResult::RErr(message) => Err(message.into()),
    }
}

/// The preset scores of board positions, for a board search's request.
fn board_presets(presets: &[(PluginPosition, i32)]) -> Vec<BoardPresetScore> {
    presets
        .iter()
        .filter_map(|&(position, centipawns)| match position {
            PluginPosition::Board(position) => Some(BoardPresetScore { position, centipawns, reserved: 0 }),
            PluginPosition::Chess(_) => None,
        })
        .collect()
}

/// What a search of a board other than 8×8 is asked.
fn board_request<'a>(
    spec: &'a SearchSpec,
    game_start: BoardPosition,
    root: BoardPosition,
    preset_scores: &'a [BoardPresetScore],
    control: &'a SearchControl,
) -> BoardSearchRequest<'a> {
    BoardSearchRequest {
        game_start,
        moves: RSlice::from_slice(&spec.moves),
        root,
        root_moves: RSlice::from_slice(&spec.root_moves),
        depth: spec.depth,
        threads: spec.threads,
        nodes: spec.nodes,
        hash_mb: spec.hash_mb,
        multipv: spec.multipv.max(1),
        preset_scores: RSlice::from_slice(preset_scores),
        eval_noise: spec.eval_noise,
        clear_hash: spec.clear_hash,
        reserved8: [0; 3],
        noise_seed: spec.noise_seed,
        control,
        reserved: [0; 4],
    }
}

/// Raises the stop flag at the hard deadline (which may move while we wait), and
/// reports a search that outlives its stop by [`STOP_GRACE`], then by [`HUNG_AFTER`].
fn watch(id: u64, shared: &Shared, inbox: &Sender<Event>) {
    let mut stopped_at: Option<Instant> = None;
    let mut overdue_sent = false;
    while !shared.finished.load(Ordering::Acquire) {
        let elapsed = shared.elapsed();
        let hard = if shared.cpu_started.is_some() {
            shared.translate_cpu_deadlines(elapsed.as_millis() as u64);
            shared.cpu_hard_ms.load(Ordering::Relaxed)
        } else {
            shared.control.hard_deadline_ms()
        };
        if hard != NO_DEADLINE && !shared.control.is_infinite() && elapsed >= Duration::from_millis(hard) {
            shared.control.request_stop();
        }
        if shared.control.stop_requested() {
            // Stopped because the engine is ending: no move is owed, and a
            // search slow to stop on a crowded machine is no fault of the plugin.
            if crate::exit::is_armed() {
                return;
            }
            let since = stopped_at.get_or_insert_with(Instant::now).elapsed();
            if since >= STOP_GRACE && !overdue_sent {
                overdue_sent = true;
                let _ = inbox.send(Event::Overdue { job: id });
            }
            if since >= HUNG_AFTER {
                let _ = inbox.send(Event::Hung { job: id });
                return;
            }
        }
        thread::sleep(WATCH_INTERVAL);
    }
}
