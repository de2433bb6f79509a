//! A library whose load-time code never returns, as a broken library in a plugin
//! folder might: examining it must not hold the engine's start-up for ever, nor
//! cost every later start the examination's whole patience, nor outlive the
//! engine.

use plugboard_plugin_api::{EvalPlugin, Evaluate, PluginInfo, Position};

extern "C" fn never_return() {
    loop {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
}

// Run by the dynamic loader as soon as the library is mapped, before anyone
// looks for a plugin in it.
#[used]
#[unsafe(link_section = ".init_array")]
static AT_LOAD: extern "C" fn() = never_return;

pub struct Hangs;

impl EvalPlugin for Hangs {
    type Evaluator = HangsEvaluator;

    fn info() -> PluginInfo {
        PluginInfo::new("hangs", "0.1.0").description("never finishes loading")
    }

    fn new_evaluator() -> Result<HangsEvaluator, String> {
        Ok(HangsEvaluator)
    }
}

pub struct HangsEvaluator;

impl Evaluate for HangsEvaluator {
    fn evaluate(&mut self, _position: &Position) -> i32 {
        0
    }
}

plugboard_plugin_api::export_eval_plugin!(Hangs);
