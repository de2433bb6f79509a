//! A search that panics: the host must fall back to the built-in search and still move.

use plugboard_plugin_api::{EvaluatorSource, PluginInfo, Reporter, SearchOutcome, SearchPlugin, SearchRequest};

pub struct Crashy;

impl SearchPlugin for Crashy {
    fn info() -> PluginInfo {
        PluginInfo::new("crashy", "0.1.0").description("panics when asked to search")
    }

    fn search(_: &SearchRequest<'_>, _: EvaluatorSource, _: Reporter<'_>) -> Result<SearchOutcome, String> {
        panic!("this search always panics")
    }
}

plugboard_plugin_api::export_search_plugin!(Crashy);
