//! How the core's thinking and refusals read under UCI: `info` lines with
//! moves in UCI's coordinates, and the `info string` that says why a command
//! was not carried out.

use super::{reply::Info, wdl};
use crate::{
    core::{Refusal, note::Thought},
    cxboard::render::{refusal_kind, score},
    game::Game,
};

/// A search's line: `info depth … multipv … score … nodes … nps … time … pv …`,
/// with `wdl` when `show_wdl`.
pub fn info(thought: &Thought, game: &Game, show_wdl: bool) -> Info {
    Info {
        depth: thought.depth,
        seldepth: thought.seldepth,
        multipv: thought.multipv,
        score: score(thought.score),
        wdl: show_wdl.then(|| wdl::per_mille(thought.score)),
        hashfull: thought.hashfull,
        nodes: thought.nodes,
        nps: thought.nodes.saturating_mul(1000) / thought.time_ms.max(1),
        tbhits: thought.tbhits,
        time_ms: thought.time_ms,
        pv: thought.pv.iter().map(|&m| game.uci_move_text(m)).collect(),
    }
}

/// Why the command `line` was not carried out, for `info string`.
pub fn refusal(line: &str, refusal: Refusal) -> String {
    format!("Error ({}): {}", refusal_kind(refusal), line.trim())
}
