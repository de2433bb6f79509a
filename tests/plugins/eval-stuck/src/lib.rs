//! An evaluation whose option `Stall`, once set, never returns: the thread that
//! answers the GUI is then stuck in plugin code, and `quit`, SIGTERM and the end
//! of input must still end the engine within a second. Its file option `Weights`
//! never returns either, as a plugin reading a file on a disk that stopped
//! answering: the engine must not wait for it.

use plugboard_plugin_api::{EvalPlugin, Evaluate, OptionSpec, PluginInfo, Position};

pub struct Stuck;

impl EvalPlugin for Stuck {
    type Evaluator = StuckEvaluator;

    fn info() -> PluginInfo {
        PluginInfo::new("stuck", "0.1.0")
            .description("never returns from setting its Stall option")
            .option(OptionSpec::check("Stall", false))
            .option(OptionSpec::file("Weights", ""))
    }

    fn set_option(name: &str, value: &str) -> Result<(), String> {
        if name == "Stall" && value == "1" || name == "Weights" && !value.is_empty() {
            loop {
                std::thread::park();
            }
        }
        Ok(())
    }

    fn new_evaluator() -> Result<StuckEvaluator, String> {
        Ok(StuckEvaluator)
    }
}

pub struct StuckEvaluator;

impl Evaluate for StuckEvaluator {
    fn evaluate(&mut self, _position: &Position) -> i32 {
        0
    }
}

plugboard_plugin_api::export_eval_plugin!(Stuck);
