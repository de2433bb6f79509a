//! The stable ABI between the Plugboard host and its plugins, and nothing else.
//!
//! A plugin is a shared library that exports one `abi_stable` root module:
//! either a [`SearchModule`] (it chooses moves) or an [`EvalModule`] (it scores
//! positions). The host loads any number of each kind side by side and lets the
//! user pick one of each by name.
//!
//! Two planes cross the boundary:
//! - the control plane (describe, options, start a search, report, stop) goes through
//!   the root modules, which are prefix types so later versions can add fields
//!   without breaking plugins already built;
//! - the hot path (search → evaluation, millions of calls a second) goes through a
//!   plain `#[repr(C)]` table of `extern "C"` function pointers ([`Evaluator`])
//!   taking a crate-neutral [`Position`].
//!
//! A third, optional service goes the other way: the host lends search plugins
//! its endgame tablebases ([`TablebaseProbe`], through
//! [`SearchPlugin::use_tablebases`]), so any search can probe them.
//!
//! Root modules keep the fields of the first release: abi_stable refuses a library
//! whose root module has fewer fields than the host expects, so growing one would
//! shut out every plugin already built. Entries added later go into an extended
//! module ([`SearchModuleExt`]) that plugins export in the first release's shape;
//! the host reads them through accessors that answer `None` for older plugins.
//!
//! Plugin authors implement [`EvalPlugin`] or [`SearchPlugin`] and call
//! [`export_eval_plugin!`] or [`export_search_plugin!`]; every exported function
//! is then wrapped in `catch_unwind`, so a panic becomes an error value instead
//! of aborting the host.

pub mod eval;
pub mod export;
pub mod options;
pub mod position;
pub mod search;
pub mod tablebase;

pub use abi_stable;
pub use eval::{
    EVAL_FAILED, EVAL_LIMIT, EvalModule, EvalModuleExt, EvalModuleExtRef, EvalModuleRef, EvalPlugin, Evaluate,
    Evaluator, EvaluatorSource,
};
pub use options::{OptionKind, OptionSpec, PluginInfo};
pub use position::{Move, PieceKind, Position, Square, Variant};
pub use search::{
    Bound, EVAL_FAILURE_PREFIX, InfoKind, NO_DEADLINE, PresetScore, Reporter, Score, ScoreKind, SearchControl,
    SearchInfo, SearchModule, SearchModuleExt, SearchModuleExtRef, SearchModuleRef, SearchOutcome, SearchPlugin,
    SearchRequest,
};
pub use tablebase::{TablebaseProbe, TablebaseSource, Wdl};

/// The version of this API a plugin is built against (this crate's version).
pub const API_VERSION: &str = env!("CARGO_PKG_VERSION");
/// The versions that load together: abi_stable takes `0.y.*` as compatible
/// with `0.y.*` (and `x.*` with `x.*` from 1.0 on), layouts permitting.
pub const API_COMPATIBLE: &str = {
    let version = env!("CARGO_PKG_VERSION").as_bytes();
    let mut dots = 0;
    let mut end = 0;
    while end < version.len() {
        if version[end] == b'.' {
            dots += 1;
            if dots == 2 || (dots == 1 && !(version[0] == b'0' && end == 1)) {
                break;
            }
        }
        end += 1;
    }
    match std::str::from_utf8(version.split_at(end).0) {
        Ok(prefix) => prefix,
        Err(_) => env!("CARGO_PKG_VERSION"),
    }
};

/// Root-module name of search plugins; the host reads it from a library's header
/// to know which kind of plugin a file holds before checking its layout.
pub const SEARCH_MODULE_NAME: &str = "plugboard_search";
/// Root-module name of evaluation plugins.
pub const EVAL_MODULE_NAME: &str = "plugboard_eval";
