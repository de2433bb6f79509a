//! The root modules as each release had them, pinned, and the proofs that
//! plugins of every release load in a host of now and lack only the entries
//! added after them.

use std::sync::atomic::{AtomicU32, Ordering};

use abi_stable::{
    StableAbi,
    abi_stability::abi_checking::check_layout_compatibility,
    prefix_type::{PrefixRefTrait, PrefixTypeTrait},
    std_types::{ROption, RResult, RStr, RString},
};

use crate::{
    BoardEvaluate, BoardEvaluator, BoardEvaluatorSource, BoardKind, BoardPiece, BoardPosition, BoardSearchRequest,
    EvalModuleRef, EvalPlugin, Evaluate, EvaluatorSource, Move, NO_DEADLINE, NoEvaluator, PluginInfo, Position,
    Reporter, SearchControl, SearchOutcome, SearchPlugin, SearchRequest, TablebaseProbe, Variant,
    eval::EvalModulePrefix,
    search::{SearchModulePrefix, SearchModuleRef},
};

/// The root module as the first release had it, before `use_tablebases`.
#[allow(dead_code)]
mod first_release {
    use super::*;

    #[repr(C)]
    #[derive(StableAbi)]
    #[sabi(kind(Prefix(prefix_ref = SearchModuleRef, prefix_fields = SearchModulePrefix)))]
    #[sabi(missing_field(panic))]
    pub struct SearchModule {
        pub info: extern "C" fn() -> RResult<PluginInfo, RString>,
        pub set_option: extern "C" fn(name: RStr<'_>, value: RStr<'_>) -> RResult<(), RString>,
        #[sabi(last_prefix_field)]
        pub search: extern "C" fn(
            request: &SearchRequest<'_>,
            eval: EvaluatorSource,
            reporter: Reporter<'_>,
        ) -> RResult<SearchOutcome, RString>,
    }
}

/// The root module grown by a field, as one might have tried.
#[allow(dead_code)]
mod grown {
    use super::*;

    #[repr(C)]
    #[derive(StableAbi)]
    #[sabi(kind(Prefix(prefix_ref = SearchModuleRef, prefix_fields = SearchModulePrefix)))]
    #[sabi(missing_field(option))]
    pub struct SearchModule {
        pub info: extern "C" fn() -> RResult<PluginInfo, RString>,
        pub set_option: extern "C" fn(name: RStr<'_>, value: RStr<'_>) -> RResult<(), RString>,
        #[sabi(last_prefix_field)]
        pub search: extern "C" fn(
            request: &SearchRequest<'_>,
            eval: EvaluatorSource,
            reporter: Reporter<'_>,
        ) -> RResult<SearchOutcome, RString>,
        pub use_tablebases: extern "C" fn(probe: ROption<TablebaseProbe>),
    }
}

extern "C" fn info() -> RResult<PluginInfo, RString> {
    RResult::ROk(PluginInfo::new("first", "0.1.0"))
}

extern "C" fn set_option(_name: RStr<'_>, _value: RStr<'_>) -> RResult<(), RString> {
    RResult::ROk(())
}

extern "C" fn search(
    _request: &SearchRequest<'_>,
    _eval: EvaluatorSource,
    _reporter: Reporter<'_>,
) -> RResult<SearchOutcome, RString> {
    RResult::RErr("not here".into())
}

static LENT: AtomicU32 = AtomicU32::new(0);

struct Current;

impl SearchPlugin for Current {
    fn info() -> PluginInfo {
        PluginInfo::new("current", "0.1.0")
    }

    fn search(
        _request: &SearchRequest<'_>,
        _eval: EvaluatorSource,
        _reporter: Reporter<'_>,
    ) -> Result<SearchOutcome, String> {
        Err("not here".into())
    }

    fn use_tablebases(probe: Option<TablebaseProbe>) {
        LENT.store(probe.map_or(1, |probe| probe.max_pieces + 10), Ordering::SeqCst);
    }
}

#[test]
fn plugins_of_the_first_release_and_of_now_load_in_either_host() {
    // abi_stable's check when a host loads a plugin: the host's root module
    // (interface) against the library's (implementation).
    let now = <SearchModuleRef as StableAbi>::LAYOUT;
    let first = <first_release::SearchModuleRef as StableAbi>::LAYOUT;
    check_layout_compatibility(now, first).unwrap();
    check_layout_compatibility(first, now).unwrap();
    // Growing the root module itself would have shut out every older plugin.
    assert!(check_layout_compatibility(<grown::SearchModuleRef as StableAbi>::LAYOUT, first).is_err());
}

#[test]
fn a_plugin_of_the_first_release_lacks_only_the_later_entries() {
    let old = first_release::SearchModule { info, set_option, search }.leak_into_prefix();
    // SAFETY: the layouts are compatible (see above); this is the cast abi_stable's
    // `LibHeader::init_root_module` makes.
    let module = SearchModuleRef::from_prefix_ref(unsafe { old.to_prefix_ref().cast::<SearchModulePrefix>() });
    assert!(module.use_tablebases().is_none());
    assert_eq!((module.info())().unwrap().name.as_str(), "first");
    assert_eq!(module.move_legs(), 1, "a plugin built before moves of legs plays none");
}

#[test]
fn a_plugin_of_now_receives_the_tablebases() {
    let module = Current::module();
    assert_eq!((module.info())().unwrap().name.as_str(), "current");
    let use_tablebases = module.use_tablebases().expect("the entry");
    use_tablebases(ROption::RNone);
    assert_eq!(LENT.load(Ordering::SeqCst), 1);
    struct Nothing;
    impl crate::TablebaseSource for Nothing {
        fn probe_wdl(&self, _position: &crate::Position) -> Option<crate::Wdl> {
            None
        }
    }
    static NOTHING: Nothing = Nothing;
    use_tablebases(ROption::RSome(TablebaseProbe::new(&NOTHING, 5)));
    assert_eq!(LENT.load(Ordering::SeqCst), 15);
}

/// The extended modules as the tablebase release had them: before boards other
/// than 8×8 (`search_board`, `board_source`).
#[allow(dead_code)]
mod tablebase_release {
    use super::*;

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
        pub use_tablebases: extern "C" fn(probe: ROption<TablebaseProbe>),
    }

    #[repr(C)]
    #[derive(StableAbi)]
    #[sabi(kind(Prefix(prefix_ref = EvalModuleExtRef, prefix_fields = EvalModuleExtPrefix)))]
    #[sabi(missing_field(option))]
    pub struct EvalModuleExt {
        pub info: extern "C" fn() -> RResult<PluginInfo, RString>,
        pub set_option: extern "C" fn(name: RStr<'_>, value: RStr<'_>) -> RResult<(), RString>,
        #[sabi(last_prefix_field)]
        pub source: EvaluatorSource,
        pub last_panic: extern "C" fn() -> ROption<RString>,
    }
}

extern "C" fn no_tables(_probe: ROption<TablebaseProbe>) {}

extern "C" fn no_panic() -> ROption<RString> {
    ROption::RNone
}

extern "C" fn new_evaluator() -> RResult<crate::Evaluator, RString> {
    RResult::RErr("not here".into())
}

#[test]
fn the_entries_of_the_tablebase_release_keep_their_places_and_types() {
    // The extended modules are not checked at load: this is the check that
    // appending kept every earlier entry where and what it was.
    let old = <tablebase_release::SearchModuleExtRef as StableAbi>::LAYOUT;
    check_layout_compatibility(old, <crate::SearchModuleExtRef as StableAbi>::LAYOUT).unwrap();
    let old = <tablebase_release::EvalModuleExtRef as StableAbi>::LAYOUT;
    check_layout_compatibility(old, <crate::EvalModuleExtRef as StableAbi>::LAYOUT).unwrap();
}

#[test]
fn a_search_of_the_tablebase_release_lends_tables_but_plays_no_other_boards() {
    let old = tablebase_release::SearchModuleExt { info, set_option, search, use_tablebases: no_tables };
    let old = old.leak_into_prefix();
    // SAFETY: the cast the host makes of any search module (SearchModuleExt::leak_into_module).
    let module = SearchModuleRef::from_prefix_ref(unsafe { old.to_prefix_ref().cast::<SearchModulePrefix>() });
    assert!(module.use_tablebases().is_some());
    assert!(module.search_board().is_none());
}

#[test]
fn an_evaluation_of_the_tablebase_release_tells_its_panics_but_scores_no_other_boards() {
    let old = tablebase_release::EvalModuleExt {
        info,
        set_option,
        source: EvaluatorSource { new_evaluator },
        last_panic: no_panic,
    };
    let old = old.leak_into_prefix();
    // SAFETY: as for searches: every evaluation module starts with EvalModule's fields.
    let module = EvalModuleRef::from_prefix_ref(unsafe { old.to_prefix_ref().cast::<EvalModulePrefix>() });
    assert!(module.extended().last_panic().is_some());
    assert!(module.board_source().is_none());
}

/// The extended modules as the board release had them (xiangqi): before
/// variants defined as data (`search_defined`, `defined_source`).
#[allow(dead_code)]
mod board_release {
    use super::*;

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
        pub use_tablebases: extern "C" fn(probe: ROption<TablebaseProbe>),
        pub search_board: extern "C" fn(
            request: &BoardSearchRequest<'_>,
            eval: BoardEvaluatorSource,
            reporter: Reporter<'_>,
        ) -> RResult<SearchOutcome, RString>,
    }

    #[repr(C)]
    #[derive(StableAbi)]
    #[sabi(kind(Prefix(prefix_ref = EvalModuleExtRef, prefix_fields = EvalModuleExtPrefix)))]
    #[sabi(missing_field(option))]
    pub struct EvalModuleExt {
        pub info: extern "C" fn() -> RResult<PluginInfo, RString>,
        pub set_option: extern "C" fn(name: RStr<'_>, value: RStr<'_>) -> RResult<(), RString>,
        #[sabi(last_prefix_field)]
        pub source: EvaluatorSource,
        pub last_panic: extern "C" fn() -> ROption<RString>,
        pub board_source: BoardEvaluatorSource,
    }
}

extern "C" fn no_board_search(
    _request: &BoardSearchRequest<'_>,
    _eval: BoardEvaluatorSource,
    _reporter: Reporter<'_>,
) -> RResult<SearchOutcome, RString> {
    RResult::RErr("not here".into())
}

extern "C" fn no_board_evaluator(_variant: Variant) -> RResult<BoardEvaluator, RString> {
    RResult::RErr("not here".into())
}

#[test]
fn the_entries_of_the_board_release_keep_their_places_and_types() {
    let old = <board_release::SearchModuleExtRef as StableAbi>::LAYOUT;
    check_layout_compatibility(old, <crate::SearchModuleExtRef as StableAbi>::LAYOUT).unwrap();
    let old = <board_release::EvalModuleExtRef as StableAbi>::LAYOUT;
    check_layout_compatibility(old, <crate::EvalModuleExtRef as StableAbi>::LAYOUT).unwrap();
}

#[test]
fn plugins_of_the_board_release_play_xiangqi_but_no_variant_defined_as_data() {
    let old = board_release::SearchModuleExt {
        info,
        set_option,
        search,
        use_tablebases: no_tables,
        search_board: no_board_search,
    };
    let old = old.leak_into_prefix();
    // SAFETY: the cast the host makes of any search module (SearchModuleExt::leak_into_module).
    let module = SearchModuleRef::from_prefix_ref(unsafe { old.to_prefix_ref().cast::<SearchModulePrefix>() });
    assert!(module.search_board().is_some());
    assert!(module.search_defined().is_none());
    assert_eq!(module.move_legs(), 1);
    assert_eq!(module.hash_full(), None);
    let old = board_release::EvalModuleExt {
        info,
        set_option,
        source: EvaluatorSource { new_evaluator },
        last_panic: no_panic,
        board_source: BoardEvaluatorSource { new_evaluator: no_board_evaluator },
    };
    let old = old.leak_into_prefix();
    // SAFETY: as for searches: every evaluation module starts with EvalModule's fields.
    let module = EvalModuleRef::from_prefix_ref(unsafe { old.to_prefix_ref().cast::<EvalModulePrefix>() });
    assert!(module.board_source().is_some());
    assert!(module.defined_source().is_none());
}

/// A xiangqi evaluation of now: chariots are worth 900 to their side.
struct Chariots;

impl BoardEvaluate for Chariots {
    fn evaluate(&mut self, position: &BoardPosition) -> i32 {
        let count = |color| {
            position
                .squares_of(color)
                .filter(|&s| position.piece_at(s).map(BoardPiece::kind) == Some(BoardKind::CHARIOT))
                .count() as i32
        };
        900 * (count(position.side_to_move) - count(position.side_to_move ^ 1))
    }
}

impl EvalPlugin for Chariots {
    type Evaluator = NoEvaluator;

    fn info() -> PluginInfo {
        PluginInfo::new("chariots", "0.1.0").variants("xiangqi")
    }

    fn new_evaluator() -> Result<NoEvaluator, String> {
        Err("xiangqi only".into())
    }

    fn new_board_evaluator(variant: Variant) -> Result<BoardEvaluator, String> {
        match variant {
            Variant::XIANGQI => Ok(BoardEvaluator::from_rust(Chariots)),
            _ => Err(format!("no {}", variant.cecp_name())),
        }
    }
}

/// A search of now that plays xiangqi: the first root move, scored by the evaluation.
struct FirstMove;

impl SearchPlugin for FirstMove {
    fn info() -> PluginInfo {
        PluginInfo::new("first-move", "0.1.0").variants("xiangqi")
    }

    fn search(_: &SearchRequest<'_>, _: EvaluatorSource, _: Reporter<'_>) -> Result<SearchOutcome, String> {
        Err("xiangqi only".into())
    }

    fn search_board(
        request: &BoardSearchRequest<'_>,
        eval: BoardEvaluatorSource,
        reporter: Reporter<'_>,
    ) -> Result<SearchOutcome, String> {
        let mut evaluator = eval.create(request.root.variant)?;
        let best = request.root_moves.first().copied();
        let score = crate::Score::centipawns(evaluator.evaluate(&request.root));
        let line: Vec<Move> = best.into_iter().collect();
        reporter.report(&crate::SearchInfo::line(1, score, 1, 0, &line));
        Ok(SearchOutcome { best: best.into(), ponder: None.into() })
    }
}

#[test]
fn a_board_search_of_now_calls_a_board_evaluation_through_the_tables() {
    let eval = Chariots::module();
    assert!(eval.source().create().is_err(), "no chess evaluator");
    let source = eval.board_source().expect("the entry");
    assert!(source.create(Variant::CHESS).is_err());
    let mut root = BoardPosition::empty(Variant::XIANGQI, 9, 10);
    root.put(BoardPosition::square(0, 0), Some(BoardPiece::new(BoardKind::CHARIOT, 0)));
    root.put(BoardPosition::square(8, 0), Some(BoardPiece::new(BoardKind::CHARIOT, 0)));
    root.put(BoardPosition::square(0, 9), Some(BoardPiece::new(BoardKind::CHARIOT, 1)));

    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
    let a0a1 = Move::new(0, 16, None);
    let root_moves = [a0a1];
    let request = BoardSearchRequest {
        game_start: root,
        moves: (&[][..]).into(),
        root,
        root_moves: (&root_moves[..]).into(),
        depth: 1,
        threads: 1,
        nodes: 0,
        hash_mb: 1,
        multipv: 1,
        preset_scores: (&[][..]).into(),
        eval_noise: 0,
        clear_hash: false,
        reserved8: [0; 3],
        noise_seed: 0,
        control: &control,
        reserved: [0; 4],
    };
    let scores = std::sync::Mutex::new(Vec::new());
    let record = |info: &crate::SearchInfo<'_>| scores.lock().unwrap().push((info.score.value, info.pv.to_vec()));
    let search_board = FirstMove::module().search_board().expect("the entry");
    let outcome = search_board(&request, source, Reporter::new(&record)).into_result().unwrap();
    assert_eq!(outcome.best.into_option(), Some(a0a1));
    assert_eq!(scores.into_inner().unwrap(), [(900, vec![a0a1])]);
}

#[test]
fn a_chess_only_plugin_of_now_refuses_other_boards_with_a_reason() {
    struct Chess;
    impl Evaluate for Chess {
        fn evaluate(&mut self, _: &Position) -> i32 {
            0
        }
    }
    impl EvalPlugin for Chess {
        type Evaluator = Chess;
        fn info() -> PluginInfo {
            PluginInfo::new("chess", "0.1.0")
        }
        fn new_evaluator() -> Result<Chess, String> {
            Ok(Chess)
        }
    }
    let source = Chess::module().board_source().expect("the entry exists, and refuses");
    let refusal = source.create(Variant::XIANGQI).err().unwrap();
    assert_eq!(refusal, "no evaluation of xiangqi boards");
    assert!(Chess::info().evaluates_variant("atomic"));
    assert!(!Chess::info().evaluates_variant("xiangqi"));
    assert!(Chariots::info().evaluates_variant("xiangqi"));
    assert!(!Chariots::info().evaluates_variant("normal"));
}

/// The search module as the release of moves of several legs had it, before
/// `hash_full`.
#[allow(dead_code)]
mod legs_release {
    use super::*;
    use crate::DefinedEvaluatorSource;

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
        pub use_tablebases: extern "C" fn(probe: ROption<TablebaseProbe>),
        pub search_board: extern "C" fn(
            request: &BoardSearchRequest<'_>,
            eval: BoardEvaluatorSource,
            reporter: Reporter<'_>,
        ) -> RResult<SearchOutcome, RString>,
        pub search_defined: extern "C" fn(
            request: &BoardSearchRequest<'_>,
            definition: RStr<'_>,
            eval: DefinedEvaluatorSource,
            reporter: Reporter<'_>,
        ) -> RResult<SearchOutcome, RString>,
        pub move_legs: extern "C" fn() -> u32,
    }
}

extern "C" fn no_defined_search(
    _request: &BoardSearchRequest<'_>,
    _definition: RStr<'_>,
    _eval: crate::DefinedEvaluatorSource,
    _reporter: Reporter<'_>,
) -> RResult<SearchOutcome, RString> {
    RResult::RErr("not here".into())
}

extern "C" fn two_legs() -> u32 {
    2
}

#[test]
fn a_search_of_the_legs_release_keeps_its_entries_and_tells_no_hash_fill() {
    let old = <legs_release::SearchModuleExtRef as StableAbi>::LAYOUT;
    check_layout_compatibility(old, <crate::SearchModuleExtRef as StableAbi>::LAYOUT).unwrap();
    let old = legs_release::SearchModuleExt {
        info,
        set_option,
        search,
        use_tablebases: no_tables,
        search_board: no_board_search,
        search_defined: no_defined_search,
        move_legs: two_legs,
    };
    let old = old.leak_into_prefix();
    // SAFETY: the cast the host makes of any search module (SearchModuleExt::leak_into_module).
    let module = SearchModuleRef::from_prefix_ref(unsafe { old.to_prefix_ref().cast::<SearchModulePrefix>() });
    assert_eq!(module.move_legs(), 2);
    assert_eq!(module.hash_full(), None);
}
