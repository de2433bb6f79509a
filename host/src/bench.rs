//! `plugboard bench`: fixed positions searched to a fixed depth with one thread.
//! The total node count is the signature: it changes only when search behaviour does.

use std::{
    process::ExitCode,
    sync::Mutex,
    time::{Duration, Instant},
};

use abi_stable::std_types::{RResult, RSlice};
use plugboard_plugin_api::{InfoKind, NO_DEADLINE, Reporter, SearchControl, SearchInfo, SearchRequest};

use crate::{
    game::{self, Game},
    plugins::{Kind, PluginHost},
};

#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Depth of every search.
    #[arg(long, default_value_t = 9)]
    pub depth: u32,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: u32,
}

/// Middlegames, endgames and tactics from common engine bench sets.
pub const POSITIONS: [&str; 10] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
    "8/8/1p1k4/p1p1p3/P1P1P3/1P1K4/8/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "2r3k1/pp3ppp/2n1b3/q2pP3/3P4/P1PB1N2/5PPP/R2Q1RK1 b - - 3 17",
];

pub struct BenchResult {
    pub nodes: u64,
    pub elapsed: Duration,
}

pub fn run(plugins: &PluginHost, args: &BenchArgs) -> ExitCode {
    let search = plugins.selected(Kind::Search);
    let eval = plugins.selected(Kind::Eval);
    println!("search {} from {}, evaluation {} from {}", search.name(), search.origin, eval.name(), eval.origin);
    match bench(plugins, args) {
        Ok(result) => {
            let seconds = result.elapsed.as_secs_f64();
            println!("Nodes searched  : {}", result.nodes);
            println!("Time (ms)       : {}", result.elapsed.as_millis());
            println!("Nodes/second    : {:.0}", result.nodes as f64 / seconds.max(1e-9));
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("bench failed: {why}");
            ExitCode::FAILURE
        }
    }
}

pub fn bench(plugins: &PluginHost, args: &BenchArgs) -> Result<BenchResult, String> {
    let (module, _) = plugins.search_module();
    let (eval, _) = plugins.evaluator_source();
    let mut total = BenchResult { nodes: 0, elapsed: Duration::ZERO };
    for (index, fen) in POSITIONS.iter().enumerate() {
        let game = Game::from_fen(fen)?;
        let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
        let position = game::to_plugin_position(game.position());
        let request = SearchRequest {
            game_start: position,
            moves: RSlice::from_slice(&[]),
            root: position,
            root_moves: RSlice::from_slice(&[]),
            depth: args.depth,
            nodes: 0,
            threads: 1,
            hash_mb: args.hash,
            multipv: 1,
            // Every position starts from an empty table so the signature does not
            // depend on the order of the positions.
            clear_hash: true,
            control: &control,
        };
        let nodes = Mutex::new(0u64);
        let record = |info: &SearchInfo<'_>| {
            if info.kind == InfoKind::Line {
                if let Ok(mut nodes) = nodes.lock() {
                    *nodes = (*nodes).max(info.nodes);
                }
            }
        };
        let started = Instant::now();
        if let RResult::RErr(why) = (module.search())(&request, eval, Reporter::new(&record)) {
            return Err(format!("position {}: {why}", index + 1));
        }
        total.elapsed += started.elapsed();
        total.nodes += nodes.into_inner().unwrap_or(0);
    }
    Ok(total)
}
