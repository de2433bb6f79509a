//! Nodes per second of a fixed-depth search, with PeSTO called directly and
//! through the plugin boundary: `cargo run --release -p plugboard-alphabeta --example speed [depth] [fen]`.

use std::{sync::Mutex, time::Instant};

use plugboard_alphabeta::{Direct, Evaluation, board_from_fen, board_to_position, search};
use plugboard_eval_pesto::PestoEvaluator;
use plugboard_plugin_api::{
    Evaluator, InfoKind, NO_DEADLINE, Reporter, SearchControl, SearchInfo, SearchRequest, abi_stable::std_types::RSlice,
};

fn measure<E: Evaluation>(
    label: &str,
    fen: &str,
    depth: u32,
    new_eval: impl Fn() -> Result<E, String> + Sync,
) -> Result<(), String> {
    let root = board_to_position(&board_from_fen(fen)?);
    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
    let request = SearchRequest {
        game_start: root,
        moves: RSlice::from_slice(&[]),
        root,
        root_moves: RSlice::from_slice(&[]),
        depth,
        nodes: 0,
        threads: 1,
        hash_mb: 16,
        multipv: 1,
        clear_hash: true,
        preset_scores: RSlice::from_slice(&[]),
        eval_noise: 0,
        noise_seed: 0,
        control: &control,
    };
    let nodes = Mutex::new(0);
    let record = |info: &SearchInfo<'_>| {
        if info.kind == InfoKind::Line
            && let Ok(mut nodes) = nodes.lock()
        {
            *nodes = info.nodes;
        }
    };
    let started = Instant::now();
    let outcome = search(&request, new_eval, Reporter::new(&record))?;
    let seconds = started.elapsed().as_secs_f64();
    let nodes = nodes.into_inner().unwrap_or(0);
    println!(
        "{label:>8}: depth {depth}, {nodes} nodes in {seconds:.3} s = {:.0} nodes/s, best {:?}",
        nodes as f64 / seconds.max(1e-9),
        outcome.best
    );
    Ok(())
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let depth = args.next().map_or(Ok(9), |d| d.parse().map_err(|_| format!("not a depth: {d}")))?;
    let fen = args.next().unwrap_or_else(|| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into());
    measure("direct", &fen, depth, || Ok(Direct(PestoEvaluator::with_tempo(10))))?;
    measure("plugin", &fen, depth, || Ok(Evaluator::from_rust(PestoEvaluator::with_tempo(10))))
}
