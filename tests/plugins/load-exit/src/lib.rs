//! A library whose load-time code ends the process that maps it, as a hostile or
//! broken library in a plugin folder might: the engine must examine it in a
//! child process, refuse it, and never map it itself.

use plugboard_plugin_api::{EvalPlugin, Evaluate, PluginInfo, Position};

extern "C" fn end_the_process() {
    std::process::exit(3);
}

// Run by the dynamic loader as soon as the library is mapped, before anyone
// looks for a plugin in it.
#[used]
#[unsafe(link_section = ".init_array")]
static AT_LOAD: extern "C" fn() = end_the_process;

pub struct Exits;

impl EvalPlugin for Exits {
    type Evaluator = ExitsEvaluator;

    fn info() -> PluginInfo {
        PluginInfo::new("exits", "0.1.0").description("ends the process that loads it")
    }

    fn new_evaluator() -> Result<ExitsEvaluator, String> {
        Ok(ExitsEvaluator)
    }
}

pub struct ExitsEvaluator;

impl Evaluate for ExitsEvaluator {
    fn evaluate(&mut self, _position: &Position) -> i32 {
        0
    }
}

plugboard_plugin_api::export_eval_plugin!(Exits);
