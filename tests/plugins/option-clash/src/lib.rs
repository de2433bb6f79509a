//! A search whose options are called `Threads` and `MultiPV`, as the host's own
//! are: each must reach this plugin under a name of its own. Its analysis shows
//! what it holds: depth = the host's thread count for the search, score = its own
//! `Threads`, nodes = its own `MultiPV`.

use std::sync::atomic::{AtomicI64, Ordering};

use plugboard_plugin_api::{
    EvaluatorSource, OptionSpec, PluginInfo, Reporter, Score, SearchInfo, SearchOutcome, SearchPlugin, SearchRequest,
};

static THREADS: AtomicI64 = AtomicI64::new(1);
static MULTI_PV: AtomicI64 = AtomicI64::new(1);

pub struct Clasher;

impl SearchPlugin for Clasher {
    fn info() -> PluginInfo {
        PluginInfo::new("clasher", "0.1.0")
            .description("options named as the host's; shows their values in its analysis")
            .option(OptionSpec::spin("Threads", 1, 1, 64))
            .option(OptionSpec::spin("MultiPV", 1, 1, 64))
    }

    fn set_option(name: &str, value: &str) -> Result<(), String> {
        let slot = match name {
            "Threads" => &THREADS,
            "MultiPV" => &MULTI_PV,
            _ => return Err(format!("no option named {name}")),
        };
        slot.store(value.parse().map_err(|_| format!("{name} takes a number"))?, Ordering::Relaxed);
        Ok(())
    }

    fn search(
        request: &SearchRequest<'_>,
        _: EvaluatorSource,
        reporter: Reporter<'_>,
    ) -> Result<SearchOutcome, String> {
        let own = Score::centipawns(THREADS.load(Ordering::Relaxed) as i32);
        let nodes = MULTI_PV.load(Ordering::Relaxed) as u64;
        reporter.report(&SearchInfo::line(request.threads, own, nodes, 0, &[]));
        while !request.control.stop_requested() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        Ok(SearchOutcome { best: None.into(), ponder: None.into() })
    }
}

plugboard_plugin_api::export_search_plugin!(Clasher);
