//! A search that ignores the stop flag: the host must move at its deadline anyway.

use std::time::{Duration, Instant};

use plugboard_plugin_api::{EvaluatorSource, PluginInfo, Reporter, SearchOutcome, SearchPlugin, SearchRequest};

pub struct Stubborn;

impl SearchPlugin for Stubborn {
    fn info() -> PluginInfo {
        PluginInfo::new("stubborn", "0.1.0").description("never stops when told to")
    }

    fn search(_: &SearchRequest<'_>, _: EvaluatorSource, _: Reporter<'_>) -> Result<SearchOutcome, String> {
        // Long enough to outlast any test's clock, short enough not to outlive the test run.
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(5));
        }
        Err("gave up".into())
    }
}

plugboard_plugin_api::export_search_plugin!(Stubborn);
