//! `plugboard perft`: move-generator node counts, with the bundled search's move generator.

use std::{process::ExitCode, time::Instant};

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

pub fn run(depth: u32, fen: Option<&str>) -> ExitCode {
    let board = match plugboard_alphabeta::board_from_fen(fen.unwrap_or(START_FEN)) {
        Ok(board) => board,
        Err(why) => {
            eprintln!("perft: bad FEN: {why}");
            return ExitCode::FAILURE;
        }
    };
    let started = Instant::now();
    let nodes = plugboard_alphabeta::perft(&board, depth);
    let seconds = started.elapsed().as_secs_f64();
    println!("perft {depth}: {nodes} nodes in {seconds:.3} s ({:.0} nodes/s)", nodes as f64 / seconds.max(1e-9));
    ExitCode::SUCCESS
}
