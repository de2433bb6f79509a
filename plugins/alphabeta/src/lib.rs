//! An iterative-deepening alpha-beta search plugin built on cozy-chess, with a
//! shakmaty-based search for the variants cozy-chess does not play, and one
//! board search for xiangqi and every variant defined as data.
//!
//! This crate owns the search: conversions between the ABI types and
//! cozy-chess, what a score means, the transposition table, move ordering, the
//! search itself, and perft. The loadable plugin is the sibling `export` crate;
//! the host links this one statically as its built-in search, and uses
//! [`perft`] and [`board_from_fen`] for its `perft` command.

mod board;
mod convert;
mod defined;
mod early_stop;
mod eval;
mod ordering;
mod perft;
mod repetition;
mod score;
mod search;
mod tt;
mod variant;
pub mod xiangqi;

use std::sync::{
    Mutex,
    atomic::{AtomicBool, Ordering},
};

use plugboard_plugin_api::{
    BoardEvaluatorSource, BoardSearchRequest, DefinedEvaluatorSource, EvaluatorSource, OptionSpec, PluginInfo,
    Reporter, SearchOutcome, SearchPlugin, SearchRequest, TablebaseProbe, Variant,
};

pub use convert::{board_from_fen, board_to_position, move_from_cozy, move_to_cozy, position_to_board};
pub use eval::{BoardEvaluation, Direct, Evaluation};
pub use perft::perft;
pub use score::{MATE, MAX_PLY, to_score};
pub use search::SearchOptions;

const NULL_MOVE_OPTION: &str = "Null move pruning";

/// Options are process-wide; the next search reads them.
static NULL_MOVE: AtomicBool = AtomicBool::new(true);
/// The host's tablebases, lent before each search.
static TABLEBASES: Mutex<Option<TablebaseProbe>> = Mutex::new(None);

/// The plugin: describes itself and runs searches.
pub struct AlphaBeta;

impl AlphaBeta {
    /// The options as currently set, for callers of [`search_with`].
    pub fn options() -> SearchOptions {
        SearchOptions {
            null_move: NULL_MOVE.load(Ordering::Relaxed),
            tablebases: *TABLEBASES.lock().unwrap_or_else(|poisoned| poisoned.into_inner()),
        }
    }
}

impl SearchPlugin for AlphaBeta {
    fn info() -> PluginInfo {
        PluginInfo::new("alphabeta", env!("CARGO_PKG_VERSION"))
            .author("The Plugboard authors")
            .description(
                "Iterative-deepening PVS alpha-beta with quiescence, transposition table, null-move pruning and tablebase probes",
            )
            .option(OptionSpec::check(NULL_MOVE_OPTION, true))
            .variants(&supported_variants())
    }

    fn move_legs() -> u32 {
        // Its moves of defined variants are the rules crate's, the lion's legs included.
        2
    }

    fn hash_full() -> Option<u32> {
        tt::last_fill()
    }

    fn set_option(name: &str, value: &str) -> Result<(), String> {
        match name {
            NULL_MOVE_OPTION => {
                let on = match value.trim() {
                    "1" | "true" => true,
                    "0" | "false" => false,
                    other => return Err(format!("{NULL_MOVE_OPTION} takes 0 or 1, not {other}")),
                };
                NULL_MOVE.store(on, Ordering::Relaxed);
                Ok(())
            }
            _ => Err(format!("no option named {name}")),
        }
    }

    fn search(
        request: &SearchRequest<'_>,
        eval: EvaluatorSource,
        reporter: Reporter<'_>,
    ) -> Result<SearchOutcome, String> {
        search_with(request, || eval.create(), reporter, AlphaBeta::options())
    }

    fn search_board(
        request: &BoardSearchRequest<'_>,
        eval: BoardEvaluatorSource,
        reporter: Reporter<'_>,
    ) -> Result<SearchOutcome, String> {
        let variant = request.root.variant;
        xiangqi::run(request, || eval.create(variant), reporter)
    }

    fn search_defined(
        request: &BoardSearchRequest<'_>,
        definition: &str,
        eval: DefinedEvaluatorSource,
        reporter: Reporter<'_>,
    ) -> Result<SearchOutcome, String> {
        defined::run(request, definition, || eval.create(definition), reporter)
    }

    fn use_tablebases(probe: Option<TablebaseProbe>) {
        *TABLEBASES.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = probe;
    }
}

/// Searches with any [`Evaluation`]: an [`plugboard_plugin_api::Evaluator`]
/// from a plugin, or [`Direct`] around a Rust evaluator linked in statically.
/// `new_eval` makes one evaluation for each of the `request.threads` threads,
/// on the thread that uses it; if it fails for the first, the search fails
/// with an error starting [`plugboard_plugin_api::EVAL_FAILURE_PREFIX`].
/// Uses the plugin's current options.
pub fn search<E, F>(request: &SearchRequest<'_>, new_eval: F, reporter: Reporter<'_>) -> Result<SearchOutcome, String>
where
    E: Evaluation,
    F: Fn() -> Result<E, String> + Sync,
{
    search_with(request, new_eval, reporter, AlphaBeta::options())
}

/// As [`search`], with explicit options.
pub fn search_with<E, F>(
    request: &SearchRequest<'_>,
    new_eval: F,
    reporter: Reporter<'_>,
    options: SearchOptions,
) -> Result<SearchOutcome, String>
where
    E: Evaluation,
    F: Fn() -> Result<E, String> + Sync,
{
    if request.root.variant == Variant::CHESS {
        return search::run(request, new_eval, reporter, options);
    }
    variant::run(request, new_eval, reporter)
}

/// Every variant this search plays, as CECP names: orthodox chess and Chess960
/// through cozy-chess, the other 8×8 variants through shakmaty, xiangqi
/// through plugboard-xiangqi, and `defined`: every variant defined as data,
/// through plugboard-variants.
pub fn supported_variants() -> String {
    let mut names: Vec<&str> = Variant::ALL.iter().map(|variant| variant.cecp_name()).collect();
    names.insert(1, "fischerandom");
    names.push(Variant::XIANGQI.cecp_name());
    names.push(Variant::DEFINED.cecp_name());
    names.join(",")
}
