//! Fake searches. They are linked into the session under test as search plugins,
//! so their names are choices of the `Search` option and the probe's options
//! reach it, but their plugin entry points are never called: the harness's
//! [`StepLauncher`](crate::steps::StepLauncher) plays each search it is asked for
//! as a [`Script`] chosen by the plugin's name. They decide at once and always
//! alike, so every reply of the engine can be compared exactly:
//!
//! - `scripted` plays the allowed legal move with the lowest (from, to) squares,
//!   expects the lowest reply to it, reports one line and returns.
//! - `patient` reports its progress and that line, then searches on until it is
//!   stopped: by `?` or a command that ends the search, or by its deadline. It
//!   plays chess and xiangqi.
//! - `probe` is `scripted` that writes down every search it is asked for (see
//!   `Transcript::searches`), and offers one option of every kind. It plays
//!   chess and xiangqi (whose squares it writes as if the board were 8×8).

use std::sync::{Mutex, MutexGuard};

use plugboard::{event::Progress, game::PluginPosition, search::SearchSpec};
use plugboard_plugin_api::{
    EvaluatorSource, Move, NO_DEADLINE, OptionSpec, PluginInfo, Reporter, Score, SearchOutcome, SearchPlugin,
    SearchRequest, abi_stable::std_types::RNone,
};

const SCRIPTED: &str = "scripted";
const PATIENT: &str = "patient";
const PROBE: &str = "probe";

/// What a search does, decided when it starts.
pub struct Script {
    /// What the probe writes down.
    pub seen: Option<Seen>,
    /// Its reports, in order, made at once.
    pub reports: Vec<Progress>,
    pub end: End,
}

/// How a scripted search ends.
pub enum End {
    /// It returns at once, after its reports.
    Now(Result<SearchOutcome, String>),
    /// It searches on until it is stopped, and then returns this.
    WhenStopped(SearchOutcome),
}

/// The script of a search by one of the fakes; `None` for any other plugin.
pub fn script(spec: &SearchSpec) -> Option<Script> {
    let seen = (spec.search_name == PROBE).then(|| Seen::of(spec));
    let decision = match spec.search_name.as_str() {
        SCRIPTED | PATIENT | PROBE => decide(spec),
        _ => return None,
    };
    let decision = match decision {
        Ok(decision) => decision,
        Err(why) => return Some(Script { seen, reports: Vec::new(), end: End::Now(Err(why)) }),
    };
    let mut reports = Vec::new();
    if spec.search_name == PATIENT {
        // Progress: 7 nodes at depth 2, its best move the first of the root moves.
        reports.push(Progress {
            is_line: false,
            depth: 2,
            seldepth: 2,
            score: Score::centipawns(0),
            nodes: 7,
            time_ms: 0,
            tbhits: 0,
            pv: Vec::new(),
            current_move: decision.best,
            current_move_number: 1,
            root_move_count: decision.legal_count,
            multipv: 1,
            hashfull: None,
        });
    }
    reports.extend(line(spec, &decision));
    let end = if spec.search_name == PATIENT {
        End::WhenStopped(SearchOutcome { best: decision.best.into(), ponder: RNone })
    } else {
        End::Now(Ok(SearchOutcome { best: decision.best.into(), ponder: decision.ponder.into() }))
    };
    Some(Script { seen, reports, end })
}

/// What the fakes decide for a search.
struct Decision {
    best: Option<Move>,
    /// The lowest reply to `best`.
    ponder: Option<Move>,
    legal_count: u32,
    /// The score `setscore` fixed for the root, if any.
    preset: Option<i32>,
}

/// The expected reply to a move: the lowest legal one after it.
type PonderOf = Box<dyn Fn(Move) -> Option<Move>>;

fn decide(spec: &SearchSpec) -> Result<Decision, String> {
    let preset =
        spec.preset_scores.iter().find(|(position, _)| *position == spec.root).map(|&(_, centipawns)| centipawns);
    let (moves, ponder_of): (Vec<Move>, PonderOf) = match spec.root {
        PluginPosition::Chess(root) => {
            let board = plugboard_alphabeta::position_to_board(&root)?;
            let mut moves = Vec::new();
            board.generate_moves(|list| {
                moves.extend(list.into_iter().map(plugboard_alphabeta::move_from_cozy));
                false
            });
            let ponder = move |m: Move| {
                let mut after = board.clone();
                after.play_unchecked(plugboard_alphabeta::move_to_cozy(m).ok()?);
                let mut replies = Vec::new();
                after.generate_moves(|list| {
                    replies.extend(list.into_iter().map(plugboard_alphabeta::move_from_cozy));
                    false
                });
                replies.into_iter().min_by_key(|m| (m.from, m.to))
            };
            (moves, Box::new(ponder))
        }
        PluginPosition::Board(root) => {
            let position = plugboard_xiangqi::Position::from_board_position(&root)?;
            let legal = |position: &plugboard_xiangqi::Position| {
                let mut list = plugboard_xiangqi::MoveList::new();
                position.legal_moves(&mut list);
                list.iter().map(|m| m.to_plugin()).collect::<Vec<Move>>()
            };
            let moves = legal(&position);
            let ponder = move |m: Move| {
                let after = position.after(plugboard_xiangqi::Move::from_plugin(m));
                legal(&after).into_iter().min_by_key(|m| (m.from, m.to))
            };
            (moves, Box::new(ponder))
        }
    };
    let allowed = |m: &&Move| spec.root_moves.is_empty() || spec.root_moves.contains(m);
    let best = moves.iter().filter(allowed).min_by_key(|m| (m.from, m.to)).copied();
    let ponder = best.and_then(ponder_of);
    Ok(Decision { best, ponder, legal_count: moves.len() as u32, preset })
}

/// The one line the fakes report: depth 1, one node, the best move. The score is
/// 12, or what `setscore` fixed for the root; the noise `random` asks for is added,
/// so tests can see both.
fn line(spec: &SearchSpec, decision: &Decision) -> Option<Progress> {
    let best = decision.best?;
    Some(Progress {
        is_line: true,
        depth: 1,
        seldepth: 1,
        score: Score::centipawns(decision.preset.unwrap_or(12) + spec.eval_noise as i32),
        nodes: 1,
        time_ms: 0,
        tbhits: 0,
        pv: vec![best],
        current_move: None,
        current_move_number: 0,
        root_move_count: decision.legal_count,
        multipv: 1,
        hashfull: None,
    })
}

/// The fakes' plugin entry point, which the step launcher never calls.
fn not_called() -> Result<SearchOutcome, String> {
    Err("the fake searches are played by the transcript harness's step launcher".to_owned())
}

pub struct Scripted;

impl SearchPlugin for Scripted {
    fn info() -> PluginInfo {
        PluginInfo::new(SCRIPTED, "1.0").variants("normal,fischerandom,xiangqi")
    }

    fn search(_: &SearchRequest<'_>, _: EvaluatorSource, _: Reporter<'_>) -> Result<SearchOutcome, String> {
        not_called()
    }
}

pub struct Patient;

impl SearchPlugin for Patient {
    fn info() -> PluginInfo {
        PluginInfo::new(PATIENT, "1.0").variants("normal,xiangqi")
    }

    fn search(_: &SearchRequest<'_>, _: EvaluatorSource, _: Reporter<'_>) -> Result<SearchOutcome, String> {
        not_called()
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

impl Seen {
    /// The search as a plugin would be asked for it: at least one line, and no
    /// deadline when none counts.
    fn of(spec: &SearchSpec) -> Seen {
        let deadline = |ms| if spec.infinite { NO_DEADLINE } else { ms };
        Seen {
            moves: spec.moves.iter().map(move_name).collect(),
            root_moves: spec.root_moves.iter().map(move_name).collect(),
            depth: spec.depth,
            nodes: spec.nodes,
            threads: spec.threads,
            hash_mb: spec.hash_mb,
            multipv: spec.multipv.max(1),
            soft_ms: deadline(spec.soft_ms),
            hard_ms: deadline(spec.hard_ms),
            infinite: spec.infinite,
            preset_scores: spec.preset_scores.iter().map(|&(_, centipawns)| centipawns).collect(),
            eval_noise: spec.eval_noise,
            clear_hash: spec.clear_hash,
        }
    }
}

pub struct Probe;

static OPTIONS_SET: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());

fn lock<T>(mutex: &'static Mutex<T>) -> MutexGuard<'static, T> {
    // A test that failed while holding the lock left nothing half-written.
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Probe {
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
        PluginInfo::new(PROBE, "1.0")
            .variants("normal,xiangqi")
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

    fn search(_: &SearchRequest<'_>, _: EvaluatorSource, _: Reporter<'_>) -> Result<SearchOutcome, String> {
        not_called()
    }
}
