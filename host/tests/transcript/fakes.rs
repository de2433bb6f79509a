//! Fake search plugins, linked into the session under test. They decide at once
//! and always alike, so every reply of the engine can be compared exactly:
//!
//! - [`Scripted`] plays the allowed legal move with the lowest (from, to) squares,
//!   expects the lowest reply to it, reports one line and returns.
//! - [`Patient`] reports its progress and that line, then searches on until told to stop.
//! - [`Probe`] is `Scripted` that writes down every request it gets (the harness
//!   collects the notes, see `Transcript::searches`), and offers one option of every kind.

use std::{
    sync::{
        Mutex, MutexGuard,
        atomic::{AtomicU64, Ordering},
    },
    thread,
    time::Duration,
};

use plugboard_plugin_api::{
    EvaluatorSource, InfoKind, Move, OptionSpec, PluginInfo, Reporter, Score, SearchInfo, SearchOutcome, SearchPlugin,
    SearchRequest,
    abi_stable::std_types::{RNone, ROption, RSlice},
};

/// What the fakes decide for a request.
struct Decision {
    best: Option<Move>,
    /// The lowest reply to `best`.
    ponder: Option<Move>,
    legal_count: u32,
    /// The score `setscore` fixed for the root, if any.
    preset: Option<i32>,
}

fn decide(request: &SearchRequest<'_>) -> Result<Decision, String> {
    let board = plugboard_alphabeta::position_to_board(&request.root)?;
    let mut moves = Vec::new();
    board.generate_moves(|list| {
        moves.extend(list);
        false
    });
    let allowed = |m: &(cozy_chess::Move, Move)| request.root_moves.is_empty() || request.root_moves.contains(&m.1);
    let best = moves
        .iter()
        .map(|&m| (m, plugboard_alphabeta::move_from_cozy(m)))
        .filter(allowed)
        .min_by_key(|(_, m)| (m.from, m.to));
    let ponder = best.and_then(|(m, _)| {
        let mut after = board.clone();
        after.play_unchecked(m);
        let mut replies = Vec::new();
        after.generate_moves(|list| {
            replies.extend(list.into_iter().map(plugboard_alphabeta::move_from_cozy));
            false
        });
        replies.into_iter().min_by_key(|m| (m.from, m.to))
    });
    let preset = request.preset_scores.iter().find(|p| p.position == request.root).map(|p| p.centipawns);
    Ok(Decision { best: best.map(|(_, m)| m), ponder, legal_count: moves.len() as u32, preset })
}

/// The one line the fakes report: depth 1, one node, the best move. The score is
/// 12, or what `setscore` fixed for the root; the noise `random` asks for is added,
/// so tests can see both.
fn report_line(request: &SearchRequest<'_>, decision: &Decision, reporter: Reporter<'_>) {
    let Some(best) = decision.best else { return };
    reporter.report(&SearchInfo {
        kind: InfoKind::Line,
        depth: 1,
        seldepth: 1,
        score: Score::centipawns(decision.preset.unwrap_or(12) + request.eval_noise as i32),
        nodes: 1,
        time_ms: 0,
        tbhits: 0,
        pv: RSlice::from_slice(std::slice::from_ref(&best)),
        current_move: ROption::RNone,
        current_move_number: 0,
        root_move_count: decision.legal_count,
        multipv: 1,
    });
}

fn outcome(decision: &Decision) -> SearchOutcome {
    SearchOutcome { best: decision.best.into(), ponder: decision.ponder.into() }
}

pub struct Scripted;

impl SearchPlugin for Scripted {
    fn info() -> PluginInfo {
        PluginInfo::new("scripted", "1.0").variants("normal,fischerandom")
    }

    fn search(
        request: &SearchRequest<'_>,
        _: EvaluatorSource,
        reporter: Reporter<'_>,
    ) -> Result<SearchOutcome, String> {
        let decision = decide(request)?;
        report_line(request, &decision, reporter);
        Ok(outcome(&decision))
    }
}

pub struct Patient;

impl SearchPlugin for Patient {
    fn info() -> PluginInfo {
        PluginInfo::new("patient", "1.0")
    }

    /// Reports progress (7 nodes, depth 2, its best move as the first of the root
    /// moves), then the line, then waits for the stop flag: the host's deadline, `?`,
    /// or a command that ends the search. While paused it holds still.
    fn search(
        request: &SearchRequest<'_>,
        _: EvaluatorSource,
        reporter: Reporter<'_>,
    ) -> Result<SearchOutcome, String> {
        let decision = decide(request)?;
        reporter.report(&SearchInfo {
            kind: InfoKind::Progress,
            depth: 2,
            seldepth: 2,
            score: Score::centipawns(0),
            nodes: 7,
            time_ms: 0,
            tbhits: 0,
            pv: RSlice::from_slice(&[]),
            current_move: decision.best.into(),
            current_move_number: 1,
            root_move_count: decision.legal_count,
            multipv: 1,
        });
        report_line(request, &decision, reporter);
        while !request.control.stop_requested() {
            request.control.wait_while_paused();
            thread::sleep(Duration::from_millis(1));
        }
        Ok(SearchOutcome { best: decision.best.into(), ponder: RNone })
    }
}

/// What the probe was asked to do, with moves in coordinates (castling as king takes rook).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// The moves from the start of the game to the root.
    pub moves: Vec<String>,
    /// The root moves it may choose from; empty for all.
    pub root_moves: Vec<String>,
    /// Plies; 0 for no limit.
    pub depth: u32,
    /// 0 for no limit.
    pub nodes: u64,
    pub threads: u32,
    pub hash_mb: u32,
    pub multipv: u32,
    pub soft_ms: u64,
    pub hard_ms: u64,
    /// Analysis or pondering: no deadline counts.
    pub infinite: bool,
    /// The centipawns of every score fixed with `setscore`.
    pub preset_scores: Vec<i32>,
    pub eval_noise: u32,
    /// Whether the search was told to forget its transposition table.
    pub clear_hash: bool,
}

pub struct Probe;

/// The depth of the progress report that carries a probe's note, so the harness
/// can tell it from real progress.
pub const PROBE_MARK: u32 = u32::MAX;

static NEXT_NOTE: AtomicU64 = AtomicU64::new(1);
/// Notes by number, until the harness of the session they belong to takes them.
static NOTES: Mutex<Vec<(u64, Seen)>> = Mutex::new(Vec::new());
static OPTIONS_SET: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());

fn lock<T>(mutex: &'static Mutex<T>) -> MutexGuard<'static, T> {
    // A test that failed while holding the lock left nothing half-written.
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Probe {
    /// The note numbered `number`, which the probe announced with a progress report
    /// of depth [`PROBE_MARK`] and `number` nodes through the searching session's
    /// own inbox: notes cannot stray between tests that run side by side.
    pub fn take_note(number: u64) -> Option<Seen> {
        let mut notes = lock(&NOTES);
        let index = notes.iter().position(|(n, _)| *n == number)?;
        Some(notes.swap_remove(index).1)
    }

    /// The `(name, value)` pairs given to the probe's `set_option` since the last
    /// call. These are process-wide: one test only sets the probe's options.
    pub fn options_set() -> Vec<(String, String)> {
        std::mem::take(&mut *lock(&OPTIONS_SET))
    }
}

fn square_name(square: u8) -> String {
    format!("{}{}", char::from(b'a' + square % 8), char::from(b'1' + square / 8))
}

fn move_name(m: &Move) -> String {
    const PROMOTIONS: [&str; 6] = ["p", "n", "b", "r", "q", "k"];
    let promotion = m.promotion().map_or("", |kind| PROMOTIONS[kind as usize]);
    format!("{}{}{promotion}", square_name(m.from), square_name(m.to))
}

impl SearchPlugin for Probe {
    fn info() -> PluginInfo {
        PluginInfo::new("probe", "1.0")
            .option(OptionSpec::check("Probe check", true))
            .option(OptionSpec::spin("Probe spin", 5, 0, 10))
            .option(OptionSpec::slider("Probe slider", 50, 0, 100))
            .option(OptionSpec::combo("Probe combo", "one", &["one", "two"]))
            .option(OptionSpec::string("Probe string", "hello"))
            .option(OptionSpec::file("Probe file", "book.bin"))
            .option(OptionSpec::path("Probe path", "/tmp"))
            .option(OptionSpec::button("Probe button"))
    }

    fn set_option(name: &str, value: &str) -> Result<(), String> {
        lock(&OPTIONS_SET).push((name.to_owned(), value.to_owned()));
        Ok(())
    }

    fn search(
        request: &SearchRequest<'_>,
        _: EvaluatorSource,
        reporter: Reporter<'_>,
    ) -> Result<SearchOutcome, String> {
        let control = request.control;
        let seen = Seen {
            moves: request.moves.iter().map(move_name).collect(),
            root_moves: request.root_moves.iter().map(move_name).collect(),
            depth: request.depth,
            nodes: request.nodes,
            threads: request.threads,
            hash_mb: request.hash_mb,
            multipv: request.multipv,
            soft_ms: control.soft_deadline_ms(),
            hard_ms: control.hard_deadline_ms(),
            infinite: control.is_infinite(),
            preset_scores: request.preset_scores.iter().map(|p| p.centipawns).collect(),
            eval_noise: request.eval_noise,
            clear_hash: request.clear_hash,
        };
        let number = NEXT_NOTE.fetch_add(1, Ordering::Relaxed);
        lock(&NOTES).push((number, seen));
        reporter.report(&SearchInfo {
            kind: InfoKind::Progress,
            depth: PROBE_MARK,
            seldepth: 0,
            score: Score::centipawns(0),
            nodes: number,
            time_ms: 0,
            tbhits: 0,
            pv: RSlice::from_slice(&[]),
            current_move: ROption::RNone,
            current_move_number: 0,
            root_move_count: 0,
            multipv: 1,
        });
        let decision = decide(request)?;
        report_line(request, &decision, reporter);
        Ok(outcome(&decision))
    }
}
