//! A search plugin whose root module has the entries of the tablebase release
//! and no more: what every plugin built before `search_board` existed exports.
//! The host must load it, let it play chess, and never hand it another board,
//! even though it lists `xiangqi` among its variants.
//!
//! It plays the first legal move, and reports it as a line scored 1 cp: enough
//! to tell it from the built-in search in a transcript.

use abi_stable::{
    StableAbi,
    prefix_type::{PrefixRefTrait, PrefixTypeTrait},
    std_types::{ROption, RResult, RStr, RString},
};
use plugboard_plugin_api::{
    self as api, EvaluatorSource, PluginInfo, Reporter, Score, SearchInfo, SearchModuleRef, SearchOutcome,
    SearchRequest, TablebaseProbe, search::SearchModulePrefix,
};
use shakmaty::Position;

/// `SearchModuleExt` as the tablebase release had it.
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

extern "C" fn info() -> RResult<PluginInfo, RString> {
    RResult::ROk(
        PluginInfo::new("pre-board", "0.1.0")
            .description("exported as before boards other than 8x8; plays the first legal move")
            .variants("normal,xiangqi"),
    )
}

extern "C" fn set_option(name: RStr<'_>, _value: RStr<'_>) -> RResult<(), RString> {
    RResult::RErr(format!("no option named {name}").into())
}

extern "C" fn use_tablebases(_probe: ROption<TablebaseProbe>) {}

extern "C" fn search(
    request: &SearchRequest<'_>,
    _eval: EvaluatorSource,
    reporter: Reporter<'_>,
) -> RResult<SearchOutcome, RString> {
    // Nothing may unwind out of an extern "C" function.
    let first = std::panic::catch_unwind(|| first_legal_move(&request.root));
    match first {
        Ok(Ok(best)) => {
            let line: Vec<api::Move> = best.into_iter().collect();
            reporter.report(&SearchInfo::line(1, Score::centipawns(1), 1, 0, &line));
            while request.control.is_infinite() && !request.control.stop_requested() {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            RResult::ROk(SearchOutcome { best: best.into(), ponder: None.into() })
        }
        Ok(Err(error)) => RResult::RErr(error.into()),
        Err(_) => RResult::RErr("panicked".into()),
    }
}

fn first_legal_move(root: &api::Position) -> Result<Option<api::Move>, String> {
    let position = plugboard_shakmaty::from_plugin_position(root)?;
    Ok(position.legal_moves().first().map(|&m| plugboard_shakmaty::to_plugin_move(m)))
}

fn module() -> SearchModuleRef {
    let module = SearchModuleExt { info, set_option, search, use_tablebases }.leak_into_prefix();
    // SAFETY: SearchModuleExt here is SearchModule with one field appended, as in
    // the tablebase release: its prefix reads as SearchModule's.
    SearchModuleRef::from_prefix_ref(unsafe { module.to_prefix_ref().cast::<SearchModulePrefix>() })
}

plugboard_plugin_api::__export_root_module!(SearchModuleRef, module());
