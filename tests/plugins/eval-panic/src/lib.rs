//! An evaluation that panics on its first call: the host must blame it, tell the
//! user, fall back to the built-in evaluation and still move in time.

use plugboard_plugin_api::{EvalPlugin, Evaluate, PluginInfo, Position};

pub struct Panicky;

impl EvalPlugin for Panicky {
    type Evaluator = PanickyEvaluator;

    fn info() -> PluginInfo {
        PluginInfo::new("panicky", "0.1.0").description("panics when asked for a score")
    }

    fn new_evaluator() -> Result<PanickyEvaluator, String> {
        Ok(PanickyEvaluator)
    }
}

pub struct PanickyEvaluator;

impl Evaluate for PanickyEvaluator {
    fn evaluate(&mut self, _position: &Position) -> i32 {
        panic!("this evaluation always panics")
    }
}

plugboard_plugin_api::export_eval_plugin!(Panicky);
