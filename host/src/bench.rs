//! `plugboard bench`: fixed positions searched to a fixed depth, with one thread
//! unless told otherwise. The total node count with one thread is the signature:
//! it changes only when search behaviour does. Several threads search a
//! different tree every run, so their count is no signature; `--threads` is there
//! to measure speed-up (nodes per second, and time to the depth).

use std::{
    process::ExitCode,
    sync::Mutex,
    time::{Duration, Instant},
};

use abi_stable::std_types::RSlice;
use plugboard_alphabeta::Direct;
use plugboard_eval_pesto::PestoEvaluator;
use plugboard_plugin_api::{InfoKind, NO_DEADLINE, Reporter, SearchControl, SearchInfo, SearchRequest};

use crate::plugins::EvalSource;
use crate::{
    game::Game,
    plugins::{Kind, Origin, PluginHost},
};

#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Depth of every search.
    #[arg(long, default_value_t = 13)]
    pub depth: u32,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: u32,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: u32,
    /// Compare the pesto evaluation linked statically with the same evaluation
    /// called through the plugin boundary (loaded from its library file).
    #[arg(long)]
    pub boundary: bool,
    /// Rounds of the boundary comparison; the fastest round of each side counts.
    #[arg(long, default_value_t = 3)]
    pub rounds: u32,
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
    if args.boundary {
        return match boundary(plugins, args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(why) => {
                eprintln!("bench failed: {why}");
                ExitCode::FAILURE
            }
        };
    }
    let search = plugins.selected(Kind::Search);
    let eval = plugins.selected(Kind::Eval);
    println!(
        "search {} from {}, evaluation {} from {}, {} thread{}",
        search.name(),
        search.origin,
        eval.name(),
        eval.origin,
        args.threads,
        if args.threads == 1 { "" } else { "s" }
    );
    match bench(plugins, args) {
        Ok(result) => {
            let seconds = result.elapsed.as_secs_f64();
            println!("Nodes searched  : {}", result.nodes);
            println!("Time (ms)       : {}", result.elapsed.as_millis());
            let nodes_per_second = (result.nodes as f64 / seconds.max(1e-9)).round() as u64;
            println!("Nodes/second    : {nodes_per_second}");
            // The last line as OpenBench's client reads it.
            println!("{} nodes {nodes_per_second} nps", result.nodes);
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("bench failed: {why}");
            ExitCode::FAILURE
        }
    }
}

pub fn bench(plugins: &PluginHost, args: &BenchArgs) -> Result<BenchResult, String> {
    let (module, _) = plugins.search_module("normal", 1);
    let eval = match plugins.evaluator_for("normal") {
        (EvalSource::Chess(eval), _) => eval,
        (EvalSource::Board(_) | EvalSource::Defined(_), plugin) => {
            return Err(format!("{} scores no chess", plugin.name()));
        }
    };
    over_positions(args, |request, reporter| {
        (module.search())(request, eval, reporter).into_result().map(drop).map_err(Into::into)
    })
}

/// Runs `search` on every bench position and sums nodes and time.
fn over_positions(
    args: &BenchArgs,
    mut search: impl FnMut(&SearchRequest<'_>, Reporter<'_>) -> Result<(), String>,
) -> Result<BenchResult, String> {
    let mut total = BenchResult { nodes: 0, elapsed: Duration::ZERO };
    for (index, fen) in POSITIONS.iter().enumerate() {
        let game = Game::from_fen(fen)?;
        let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
        let position = game.plugin_root().chess().ok_or("the bench positions are chess")?;
        let request = SearchRequest {
            game_start: position,
            moves: RSlice::from_slice(&[]),
            root: position,
            root_moves: RSlice::from_slice(&[]),
            depth: args.depth,
            nodes: 0,
            threads: args.threads,
            hash_mb: args.hash,
            multipv: 1,
            // Every position starts from an empty table so the signature does not
            // depend on the order of the positions.
            clear_hash: true,
            preset_scores: RSlice::from_slice(&[]),
            eval_noise: 0,
            noise_seed: 0,
            control: &control,
        };
        let nodes = Mutex::new(0u64);
        let record = |info: &SearchInfo<'_>| {
            if info.kind == InfoKind::Line
                && let Ok(mut nodes) = nodes.lock()
            {
                *nodes = (*nodes).max(info.nodes);
            }
        };
        let started = Instant::now();
        search(&request, Reporter::new(&record)).map_err(|why| format!("position {}: {why}", index + 1))?;
        total.elapsed += started.elapsed();
        total.nodes += nodes.into_inner().unwrap_or(0);
    }
    Ok(total)
}

/// The same search (the built-in alphabeta) with the same evaluation (pesto),
/// once called directly and once through the plugin boundary; prints both and
/// the ratio of their speeds.
fn boundary(plugins: &PluginHost, args: &BenchArgs) -> Result<(), String> {
    let plugin = plugins
        .registry()
        .plugins()
        .iter()
        .find(|p| p.kind == Kind::Eval && p.name() == "pesto" && p.origin != Origin::Builtin)
        .ok_or("the pesto plugin library was not found; build the workspace first")?;
    println!("boundary: pesto from {}", plugin.origin);
    let source = plugin.eval_module().ok_or("pesto is not an evaluation")?.source();
    let mut best_static: Option<BenchResult> = None;
    let mut best_boundary: Option<BenchResult> = None;
    let faster = |best: Option<BenchResult>, new: BenchResult| match best {
        Some(best) if best.elapsed <= new.elapsed => Some(best),
        _ => Some(new),
    };
    for _ in 0..args.rounds.max(1) {
        let direct = over_positions(args, |request, reporter| {
            plugboard_alphabeta::search(request, || Ok(Direct(PestoEvaluator::new())), reporter).map(drop)
        })?;
        best_static = faster(best_static, direct);
        let through = over_positions(args, |request, reporter| {
            plugboard_alphabeta::search(request, || source.create(), reporter).map(drop)
        })?;
        best_boundary = faster(best_boundary, through);
    }
    let (Some(direct), Some(through)) = (best_static, best_boundary) else { return Err("no rounds".into()) };
    let nps = |r: &BenchResult| r.nodes as f64 / r.elapsed.as_secs_f64().max(1e-9);
    println!("static   : {} nodes in {} ms, {:.0} nodes/s", direct.nodes, direct.elapsed.as_millis(), nps(&direct));
    println!("boundary : {} nodes in {} ms, {:.0} nodes/s", through.nodes, through.elapsed.as_millis(), nps(&through));
    println!("ratio    : {:.3} (boundary nodes/s over static nodes/s)", nps(&through) / nps(&direct));
    Ok(())
}
