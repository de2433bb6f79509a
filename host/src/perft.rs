//! `plugboard perft`: move-generator node counts, with the bundled search's move
//! generator for chess and the shared xiangqi rules for xiangqi.

use std::{process::ExitCode, time::Instant};

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The rules perft can count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PerftVariant {
    /// Orthodox chess and Chess960 (X-FEN or Shredder-FEN castling).
    Normal,
    /// Xiangqi, from a FEN in either lettering (`rnbakabnr/…` or xboard's `rheakaehr/…`).
    Xiangqi,
}

pub fn run(variant: PerftVariant, depth: u32, fen: Option<&str>) -> ExitCode {
    let counted = match variant {
        PerftVariant::Normal => plugboard_alphabeta::board_from_fen(fen.unwrap_or(START_FEN))
            .map(|board| count(|| plugboard_alphabeta::perft(&board, depth))),
        PerftVariant::Xiangqi => {
            let position = match fen {
                Some(fen) => plugboard_xiangqi::Position::from_fen(fen).map_err(|why| why.to_string()),
                None => Ok(plugboard_xiangqi::Position::start()),
            };
            position.map(|position| count(|| position.perft(depth)))
        }
    };
    match counted {
        Ok((nodes, seconds)) => {
            let rate = nodes as f64 / seconds.max(1e-9);
            println!("perft {depth}: {nodes} nodes in {seconds:.3} s ({rate:.0} nodes/s)");
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("perft: bad FEN: {why}");
            ExitCode::FAILURE
        }
    }
}

fn count(perft: impl FnOnce() -> u64) -> (u64, f64) {
    let started = Instant::now();
    let nodes = perft();
    (nodes, started.elapsed().as_secs_f64())
}
