//! Search plugins: the root module, the request, progress reports and the stop flag.

use std::{
    ffi::c_void,
    marker::PhantomData,
    panic::{AssertUnwindSafe, catch_unwind},
    sync::atomic::{AtomicBool, AtomicU64, Ordering},
};

use abi_stable::{
    StableAbi,
    library::RootModule,
    package_version_strings,
    sabi_types::VersionStrings,
    std_types::{ROption, RResult, RSlice, RStr, RString},
};

use crate::{
    BoardEvaluatorSource, BoardSearchRequest, DefinedEvaluatorSource, EvaluatorSource, Move, PluginInfo, Position,
    TablebaseProbe, export::panic_message,
};

/// A deadline that never comes.
pub const NO_DEADLINE: u64 = u64::MAX;

/// How a search's error message starts when the evaluation, not the search, failed
/// (it panicked, or could not make an evaluator); the host then blames the evaluation.
pub const EVAL_FAILURE_PREFIX: &str = "evaluation failed";

/// The root module of a search plugin: the entries of the first release, which is
/// what the host loads and checks.
///
/// It never grows. abi_stable accepts a library whose root module has at least the
/// fields the host expects, never fewer, so a field added here would make every
/// plugin built before it unloadable. Entries added since live in
/// [`SearchModuleExt`], which plugins build and export through this type; the host
/// reaches them through accessors such as [`SearchModuleRef::use_tablebases`],
/// which answer `None` for a plugin built before the entry existed.
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = SearchModuleRef, prefix_fields = SearchModulePrefix)))]
#[sabi(missing_field(panic))]
pub struct SearchModule {
    pub info: extern "C" fn() -> RResult<PluginInfo, RString>,
    pub set_option: extern "C" fn(name: RStr<'_>, value: RStr<'_>) -> RResult<(), RString>,
    /// Searches until a limit is reached or `request.control.stop` is raised, then
    /// returns the best move. Blocks; the host calls it on a thread of its own.
    #[sabi(last_prefix_field)]
    pub search: extern "C" fn(
        request: &SearchRequest<'_>,
        eval: EvaluatorSource,
        reporter: Reporter<'_>,
    ) -> RResult<SearchOutcome, RString>,
}

impl RootModule for SearchModuleRef {
    abi_stable::declare_root_module_statics! {SearchModuleRef}
    const BASE_NAME: &'static str = crate::SEARCH_MODULE_NAME;
    const NAME: &'static str = crate::SEARCH_MODULE_NAME;
    const VERSION_STRINGS: VersionStrings = package_version_strings!();
}

/// [`SearchModule`] with the entries added after the first release, at its end.
/// [`SearchPlugin::module`] builds one and hands it out as a [`SearchModuleRef`].
///
/// Entries are only ever appended, each with the type it was added with; this
/// promise, not abi_stable's load-time check (which sees only [`SearchModule`]),
/// is what makes reading them sound.
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = SearchModuleExtRef, prefix_fields = SearchModuleExtPrefix)))]
#[sabi(missing_field(option))]
pub struct SearchModuleExt {
    pub info: extern "C" fn() -> RResult<PluginInfo, RString>,
    pub set_option: extern "C" fn(name: RStr<'_>, value: RStr<'_>) -> RResult<(), RString>,
    #[sabi(last_prefix_field)]
    pub search: extern "C" fn(
        request: &SearchRequest<'_>,
        eval: EvaluatorSource,
        reporter: Reporter<'_>,
    ) -> RResult<SearchOutcome, RString>,
    /// The host's tablebases for the searches to come (`RNone`: none). Called before
    /// each search.
    pub use_tablebases: extern "C" fn(probe: ROption<TablebaseProbe>),
    /// Searches a board other than 8×8 (a variant the plugin lists, such as
    /// `xiangqi`) as [`SearchModule::search`] does chess.
    pub search_board: extern "C" fn(
        request: &BoardSearchRequest<'_>,
        eval: BoardEvaluatorSource,
        reporter: Reporter<'_>,
    ) -> RResult<SearchOutcome, RString>,
    /// Searches a variant defined as data ([`crate::Variant::DEFINED`]):
    /// `definition` is its `variants.ini` text (read it with the
    /// `plugboard-variants` crate), so a plugin plays variants written after it
    /// was built. The positions' piece codes are the definition's kinds in that
    /// crate's order; [`crate::BoardPosition::defined_rights`] holds castling and en passant.
    pub search_defined: extern "C" fn(
        request: &BoardSearchRequest<'_>,
        definition: RStr<'_>,
        eval: DefinedEvaluatorSource,
        reporter: Reporter<'_>,
    ) -> RResult<SearchOutcome, RString>,
    /// The most legs the plugin's moves of variants defined as data may have
    /// ([`Move::board_leg`]): 2 for a plugin that plays the lion's moves.
    pub move_legs: extern "C" fn() -> u32,
    /// How full the search's hash table is, in permille, as of its latest
    /// line (UCI's `hashfull`); [`NO_HASH_FULL`] when it does not say.
    /// Called on the search's own thread, from within its report of a line.
    pub hash_full: extern "C" fn() -> u32,
}

/// What [`SearchModuleExt::hash_full`] returns when the plugin does not know.
pub const NO_HASH_FULL: u32 = u32::MAX;

/// The type of [`SearchModuleExt::search_defined`].
pub type DefinedSearchFn = extern "C" fn(
    request: &BoardSearchRequest<'_>,
    definition: RStr<'_>,
    eval: DefinedEvaluatorSource,
    reporter: Reporter<'_>,
) -> RResult<SearchOutcome, RString>;

/// The type of [`SearchModuleExt::search_board`] (written out there, where
/// abi_stable's derive reads it).
pub type BoardSearchFn = extern "C" fn(
    request: &BoardSearchRequest<'_>,
    eval: BoardEvaluatorSource,
    reporter: Reporter<'_>,
) -> RResult<SearchOutcome, RString>;

impl SearchModuleExt {
    /// The root module to export: this one, seen as a [`SearchModule`].
    pub fn leak_into_module(self) -> SearchModuleRef {
        use abi_stable::prefix_type::{PrefixRefTrait, PrefixTypeTrait};
        let extended = self.leak_into_prefix();
        // SAFETY: SearchModuleExt is SearchModule with fields appended (both repr(C),
        // the same prefix), so its prefix can be read as SearchModule's; the value's
        // metadata still says which fields it has.
        SearchModuleRef::from_prefix_ref(unsafe { extended.to_prefix_ref().cast::<SearchModulePrefix>() })
    }
}

impl SearchModuleRef {
    /// The module with the entries added after the first release; each reads as
    /// `None` when the plugin was built before it existed.
    pub fn extended(self) -> SearchModuleExtRef {
        use abi_stable::prefix_type::PrefixRefTrait;
        // SAFETY: every search module starts with SearchModule's fields, and
        // SearchModuleExt appends to them. Its accessors past the prefix check the
        // fields the value was built with (the metadata a plugin's own
        // `leak_into_prefix` wrote), so a field a plugin lacks is never read.
        SearchModuleExtRef::from_prefix_ref(unsafe { self.to_prefix_ref().cast::<SearchModuleExtPrefix>() })
    }

    /// The plugin's [`SearchModuleExt::use_tablebases`]; `None` for a plugin built
    /// before tablebases were lent, which the host then simply lends nothing.
    pub fn use_tablebases(self) -> Option<extern "C" fn(probe: ROption<TablebaseProbe>)> {
        self.extended().use_tablebases()
    }

    /// The plugin's [`SearchModuleExt::search_board`]; `None` for a plugin built
    /// before boards other than 8×8 crossed the boundary, which then plays 8×8 only.
    pub fn search_board(self) -> Option<BoardSearchFn> {
        self.extended().search_board()
    }

    /// The plugin's [`SearchModuleExt::search_defined`]; `None` for a plugin
    /// built before variants defined as data crossed the boundary.
    pub fn search_defined(self) -> Option<DefinedSearchFn> {
        self.extended().search_defined()
    }

    /// What the plugin's [`SearchModuleExt::move_legs`] says: 1 for a plugin
    /// built before moves of several legs crossed the boundary, which the host
    /// then gives no variant that has them.
    pub fn move_legs(self) -> u32 {
        self.extended().move_legs().map_or(1, |move_legs| move_legs())
    }

    /// What the plugin's [`SearchModuleExt::hash_full`] says, in permille;
    /// `None` when it does not say, or was built before the entry existed.
    pub fn hash_full(self) -> Option<u32> {
        let permille = (self.extended().hash_full()?)();
        (permille <= 1000).then_some(permille)
    }
}

/// What the host can change while a search runs.
///
/// Deadlines are milliseconds since the search was called. The search should
/// finish its current iteration and stop after the soft deadline when another
/// iteration is unlikely to finish, and must stop at once after the hard one or
/// when `stop` is raised.
#[repr(C)]
#[derive(StableAbi, Debug)]
pub struct SearchControl {
    pub stop: AtomicBool,
    /// While set, the search holds still (CECP `pause`) and uses no CPU. Time spent
    /// paused does not count: deadlines and reported times are in search time.
    pub paused: AtomicBool,
    /// While set (analysis, pondering), the search ignores deadlines and keeps going.
    pub infinite: AtomicBool,
    pub soft_deadline_ms: AtomicU64,
    pub hard_deadline_ms: AtomicU64,
}

impl SearchControl {
    pub fn new(soft_deadline_ms: u64, hard_deadline_ms: u64, infinite: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            paused: AtomicBool::new(false),
            infinite: AtomicBool::new(infinite),
            soft_deadline_ms: AtomicU64::new(soft_deadline_ms),
            hard_deadline_ms: AtomicU64::new(hard_deadline_ms),
        }
    }

    #[inline]
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    #[inline]
    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::Relaxed)
    }

    /// Waits while the host has the search paused, or until a stop; returns how long
    /// it waited, which the search leaves out of its elapsed time.
    pub fn wait_while_paused(&self) -> std::time::Duration {
        let started = std::time::Instant::now();
        while self.is_paused() && !self.stop_requested() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        started.elapsed()
    }

    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    #[inline]
    pub fn is_infinite(&self) -> bool {
        self.infinite.load(Ordering::Relaxed)
    }

    #[inline]
    pub fn soft_deadline_ms(&self) -> u64 {
        self.soft_deadline_ms.load(Ordering::Relaxed)
    }

    #[inline]
    pub fn hard_deadline_ms(&self) -> u64 {
        self.hard_deadline_ms.load(Ordering::Relaxed)
    }
}

/// Everything a search needs to know.
#[repr(C)]
#[derive(StableAbi, Debug)]
pub struct SearchRequest<'a> {
    /// The position the game (or the last `setboard`) started from.
    pub game_start: Position,
    /// The moves played from `game_start` to `root`, for repetition detection.
    pub moves: RSlice<'a, Move>,
    pub root: Position,
    /// Only these root moves are searched; empty means all legal moves.
    pub root_moves: RSlice<'a, Move>,
    /// Maximum depth in plies; 0 means no limit.
    pub depth: u32,
    /// Maximum nodes; 0 means no limit.
    pub nodes: u64,
    pub threads: u32,
    pub hash_mb: u32,
    /// Number of principal variations to report; 1 for normal play.
    pub multipv: u32,
    /// Forget what earlier searches learnt (a new game, or another evaluation).
    pub clear_hash: bool,
    /// Scores the user fixed for positions (CECP `setscore`): a search reaching
    /// one of them takes the score as exact instead of searching it.
    pub preset_scores: RSlice<'a, PresetScore>,
    /// CECP `random`: add up to this many centipawns of noise to every evaluation,
    /// the same for a position throughout one search, so play varies between games.
    pub eval_noise: u32,
    /// Seed of that noise; a new one each search.
    pub noise_seed: u64,
    pub control: &'a SearchControl,
}

/// A position and the score it is to have, in centipawns for its side to move.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PresetScore {
    pub position: Position,
    pub centipawns: i32,
}

/// Whether a score is exact or a bound found by a window that failed.
#[repr(u8)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact = 0,
    Lower = 1,
    Upper = 2,
}

#[repr(u8)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreKind {
    Centipawns = 0,
    /// `value` is the number of moves to mate: positive when the side to move mates.
    Mate = 1,
}

#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    pub kind: ScoreKind,
    pub bound: Bound,
    pub value: i32,
}

impl Score {
    pub fn centipawns(value: i32) -> Score {
        Score { kind: ScoreKind::Centipawns, bound: Bound::Exact, value }
    }

    pub fn mate_in(moves: i32) -> Score {
        Score { kind: ScoreKind::Mate, bound: Bound::Exact, value: moves }
    }
}

#[repr(u8)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoKind {
    /// A principal variation: an iteration finished, or a better line was found.
    Line = 0,
    /// Progress only: the move being searched, nodes and time; `pv` is empty.
    Progress = 1,
}

/// One progress report.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug)]
pub struct SearchInfo<'a> {
    pub kind: InfoKind,
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time_ms: u64,
    pub tbhits: u64,
    pub pv: RSlice<'a, Move>,
    pub current_move: ROption<Move>,
    /// 1-based index of `current_move` among the root moves; 0 if unknown.
    pub current_move_number: u32,
    pub root_move_count: u32,
    /// 1-based line number when several principal variations are searched.
    pub multipv: u32,
}

impl<'a> SearchInfo<'a> {
    /// A principal variation (an iteration finished, or a better line was
    /// found); the optional fields are set with the `with_` methods.
    pub fn line(depth: u32, score: Score, nodes: u64, time_ms: u64, pv: &'a [Move]) -> SearchInfo<'a> {
        SearchInfo {
            kind: InfoKind::Line,
            depth,
            seldepth: depth,
            score,
            nodes,
            time_ms,
            tbhits: 0,
            pv: RSlice::from_slice(pv),
            current_move: ROption::RNone,
            current_move_number: 0,
            root_move_count: 0,
            multipv: 1,
        }
    }

    /// Progress only: how far the search is, and the root move it is on.
    pub fn progress(depth: u32, nodes: u64, time_ms: u64) -> SearchInfo<'a> {
        SearchInfo {
            kind: InfoKind::Progress,
            pv: RSlice::from_slice(&[]),
            ..SearchInfo::line(depth, Score::centipawns(0), nodes, time_ms, &[])
        }
    }

    pub fn with_seldepth(self, seldepth: u32) -> SearchInfo<'a> {
        SearchInfo { seldepth, ..self }
    }

    pub fn with_tbhits(self, tbhits: u64) -> SearchInfo<'a> {
        SearchInfo { tbhits, ..self }
    }

    /// Which line this is when several are searched, 1 for the best.
    pub fn with_multipv(self, multipv: u32) -> SearchInfo<'a> {
        SearchInfo { multipv, ..self }
    }

    /// The root move being searched: its 1-based number among `count`.
    pub fn with_current_move(self, current: Move, number: u32, count: u32) -> SearchInfo<'a> {
        SearchInfo {
            current_move: ROption::RSome(current),
            current_move_number: number,
            root_move_count: count,
            ..self
        }
    }
}

/// The host's progress callback. Cheap to copy; valid for the duration of one search.
#[repr(C)]
#[derive(StableAbi, Clone, Copy)]
pub struct Reporter<'a> {
    context: *const c_void,
    report_fn: unsafe extern "C" fn(context: *const c_void, info: &SearchInfo<'_>),
    _borrow: PhantomData<&'a ()>,
}

// The host's callback behind `context` is Sync (see Reporter::new).
unsafe impl Send for Reporter<'_> {}
unsafe impl Sync for Reporter<'_> {}

impl<'a> Reporter<'a> {
    /// Wraps a Rust closure; a panic inside it is caught and the report dropped.
    pub fn new<F: Fn(&SearchInfo<'_>) + Sync>(callback: &'a F) -> Reporter<'a> {
        unsafe extern "C" fn trampoline<F: Fn(&SearchInfo<'_>) + Sync>(context: *const c_void, info: &SearchInfo<'_>) {
            // SAFETY: context is the &F given to Reporter::new, alive for 'a.
            let callback = unsafe { &*context.cast::<F>() };
            let _ = catch_unwind(AssertUnwindSafe(|| callback(info)));
        }
        Reporter { context: (callback as *const F).cast(), report_fn: trampoline::<F>, _borrow: PhantomData }
    }

    #[inline]
    pub fn report(&self, info: &SearchInfo<'_>) {
        // SAFETY: context and report_fn were paired in Reporter::new.
        unsafe { (self.report_fn)(self.context, info) }
    }
}

/// The result of a search.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// `None` only when the root has no legal move.
    pub best: ROption<Move>,
    /// The reply the search expects, for pondering.
    pub ponder: ROption<Move>,
}

/// A search plugin written in Rust; see [`crate::export_search_plugin!`].
pub trait SearchPlugin: 'static {
    fn info() -> PluginInfo;

    fn set_option(name: &str, _value: &str) -> Result<(), String> {
        Err(format!("no option named {name}"))
    }

    fn search(
        request: &SearchRequest<'_>,
        eval: EvaluatorSource,
        reporter: Reporter<'_>,
    ) -> Result<SearchOutcome, String>;

    /// The host's tablebases for the searches to come, or `None`; called before each
    /// search. The default ignores them.
    fn use_tablebases(_probe: Option<TablebaseProbe>) {}

    /// Searches a board other than 8×8, for a plugin that lists such a variant in
    /// [`PluginInfo::variants`]; the host calls it only for the variants listed.
    fn search_board(
        request: &BoardSearchRequest<'_>,
        _eval: BoardEvaluatorSource,
        _reporter: Reporter<'_>,
    ) -> Result<SearchOutcome, String> {
        Err(format!("no search of {} boards", request.root.variant.cecp_name()))
    }

    /// Searches a variant defined as data, for a plugin that lists `defined` in
    /// [`PluginInfo::variants`]; `definition` is the variant's `variants.ini` text.
    fn search_defined(
        _request: &BoardSearchRequest<'_>,
        _definition: &str,
        _eval: DefinedEvaluatorSource,
        _reporter: Reporter<'_>,
    ) -> Result<SearchOutcome, String> {
        Err("no search of variants defined as data".to_string())
    }

    /// The most legs its moves of variants defined as data may have: 2 where
    /// its search plays moves of two legs (and reads them in `moves` and
    /// `root_moves`), as a search built on the `plugboard-variants` crate does.
    fn move_legs() -> u32 {
        1
    }

    /// How full the hash table is, in permille, as of the latest line the
    /// search reported; asked on the search's thread while it reports a line.
    fn hash_full() -> Option<u32> {
        None
    }

    /// The root module for this plugin, for the export macro and for hosts that
    /// link the plugin in statically.
    fn module() -> SearchModuleRef
    where
        Self: Sized,
    {
        crate::export::install_panic_hook();
        SearchModuleExt {
            info: info_shim::<Self>,
            set_option: set_option_shim::<Self>,
            search: search_shim::<Self>,
            use_tablebases: use_tablebases_shim::<Self>,
            search_board: search_board_shim::<Self>,
            search_defined: search_defined_shim::<Self>,
            move_legs: move_legs_shim::<Self>,
            hash_full: hash_full_shim::<Self>,
        }
        .leak_into_module()
    }
}

extern "C" fn info_shim<P: SearchPlugin>() -> RResult<PluginInfo, RString> {
    catch_unwind(P::info).map_err(|panic| panic_message(&panic)).into()
}

extern "C" fn set_option_shim<P: SearchPlugin>(name: RStr<'_>, value: RStr<'_>) -> RResult<(), RString> {
    match catch_unwind(|| P::set_option(name.as_str(), value.as_str())) {
        Ok(result) => result.map_err(RString::from).into(),
        Err(panic) => RResult::RErr(panic_message(&panic)),
    }
}

extern "C" fn use_tablebases_shim<P: SearchPlugin>(probe: ROption<TablebaseProbe>) {
    // A panic here only costs the plugin its tables.
    let _ = catch_unwind(|| P::use_tablebases(probe.into_option()));
}

extern "C" fn search_shim<P: SearchPlugin>(
    request: &SearchRequest<'_>,
    eval: EvaluatorSource,
    reporter: Reporter<'_>,
) -> RResult<SearchOutcome, RString> {
    match catch_unwind(AssertUnwindSafe(|| P::search(request, eval, reporter))) {
        Ok(result) => result.map_err(RString::from).into(),
        Err(panic) => RResult::RErr(panic_message(&panic)),
    }
}

extern "C" fn search_board_shim<P: SearchPlugin>(
    request: &BoardSearchRequest<'_>,
    eval: BoardEvaluatorSource,
    reporter: Reporter<'_>,
) -> RResult<SearchOutcome, RString> {
    match catch_unwind(AssertUnwindSafe(|| P::search_board(request, eval, reporter))) {
        Ok(result) => result.map_err(RString::from).into(),
        Err(panic) => RResult::RErr(panic_message(&panic)),
    }
}

extern "C" fn move_legs_shim<P: SearchPlugin>() -> u32 {
    catch_unwind(P::move_legs).unwrap_or(1)
}

extern "C" fn hash_full_shim<P: SearchPlugin>() -> u32 {
    catch_unwind(P::hash_full).ok().flatten().map_or(NO_HASH_FULL, |permille| permille.min(1000))
}

extern "C" fn search_defined_shim<P: SearchPlugin>(
    request: &BoardSearchRequest<'_>,
    definition: RStr<'_>,
    eval: DefinedEvaluatorSource,
    reporter: Reporter<'_>,
) -> RResult<SearchOutcome, RString> {
    match catch_unwind(AssertUnwindSafe(|| P::search_defined(request, definition.as_str(), eval, reporter))) {
        Ok(result) => result.map_err(RString::from).into(),
        Err(panic) => RResult::RErr(panic_message(&panic)),
    }
}

#[cfg(test)]
mod info_tests {
    use super::*;

    #[test]
    fn a_line_needs_five_values_and_the_rest_are_set_by_name() {
        let pv = [Move::new(12, 28, None), Move::new(52, 36, None)];
        let line = SearchInfo::line(7, Score::centipawns(35), 12_345, 250, &pv).with_seldepth(11).with_tbhits(3);
        assert_eq!(line.kind, InfoKind::Line);
        assert_eq!((line.depth, line.seldepth, line.nodes, line.time_ms, line.tbhits), (7, 11, 12_345, 250, 3));
        assert_eq!(line.score, Score::centipawns(35));
        assert_eq!(line.pv.as_slice(), &pv);
        assert_eq!((line.multipv, line.current_move, line.root_move_count), (1, ROption::RNone, 0));
        assert_eq!(line.with_multipv(2).multipv, 2);

        let progress = SearchInfo::progress(9, 500, 40).with_current_move(pv[0], 3, 20);
        assert_eq!(progress.kind, InfoKind::Progress);
        assert!(progress.pv.is_empty());
        assert_eq!((progress.depth, progress.nodes, progress.time_ms), (9, 500, 40));
        assert_eq!(
            (progress.current_move, progress.current_move_number, progress.root_move_count),
            (ROption::RSome(pv[0]), 3, 20)
        );
    }
}
