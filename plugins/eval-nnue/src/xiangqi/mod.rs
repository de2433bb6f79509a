//! The xiangqi network (`xiangqi-nnue`): the same `(inputs → N) × 2 → 1`
//! network as the chess one, on xiangqi's 1260 inputs ([`features`]), with
//! eight output layers by piece count, kept up to date move by move through
//! the board API's make/unmake notifications. It has a default network of its
//! own, embedded, and an `EvalFile` option of its own; a chess network given to
//! it is refused by name, as a xiangqi network is by the chess plugin.

pub mod data;
pub mod features;

use std::sync::{Arc, RwLock};

use plugboard_plugin_api::{BoardEvaluator, EvalPlugin, NoEvaluator, OptionSpec, PluginInfo, Variant};

use crate::{
    evaluator::XiangqiEvaluator,
    network::{Game, Network},
};

/// The network the plugin starts with; see `networks/xiangqi.md` for how it was made.
pub const DEFAULT_XIANGQI_NETWORK: &[u8] = include_bytes!("../../networks/xiangqi.nnue");

static CURRENT: RwLock<Option<Arc<Network>>> = RwLock::new(None);

/// The plugin: describes itself and makes evaluators.
pub struct XiangqiNnue;

impl EvalPlugin for XiangqiNnue {
    type Evaluator = NoEvaluator;

    fn info() -> PluginInfo {
        PluginInfo::new("xiangqi-nnue", env!("CARGO_PKG_VERSION"))
            .author("The Plugboard authors")
            .description(
                "xiangqi: a (1260 → N) × 2 → 1 neural network trained on Plugboard's own xiangqi games, updated incrementally",
            )
            .variants("xiangqi")
            .option(OptionSpec::file("EvalFile", ""))
    }

    fn set_option(name: &str, value: &str) -> Result<(), String> {
        match name {
            "EvalFile" => crate::set_eval_file(&CURRENT, value, Game::Xiangqi, default_network),
            _ => Err(format!("no option named {name}")),
        }
    }

    fn new_evaluator() -> Result<NoEvaluator, String> {
        Err("xiangqi-nnue scores xiangqi only".into())
    }

    fn new_board_evaluator(variant: Variant) -> Result<BoardEvaluator, String> {
        match variant {
            Variant::XIANGQI => Ok(BoardEvaluator::from_rust(XiangqiEvaluator::new(current_network()?))),
            _ => Err(format!("xiangqi-nnue scores xiangqi only, not {}", variant.cecp_name())),
        }
    }
}

/// The network evaluators made now get.
pub fn current_network() -> Result<Arc<Network>, String> {
    crate::current_or_default(&CURRENT, default_network)
}

/// The embedded network.
pub fn default_network() -> Result<Network, String> {
    Network::from_bytes_of(DEFAULT_XIANGQI_NETWORK, Game::Xiangqi)
        .map_err(|why| format!("the embedded xiangqi network is unusable: {why}"))
}

#[cfg(test)]
mod tests;
