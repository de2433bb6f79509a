//! `plugboard perft`: move-generator node counts, with the bundled search's move
//! generator for chess, the shared xiangqi rules for xiangqi, and the rules
//! engine of variants defined as data for every other variant.

use std::{process::ExitCode, time::Instant};

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Counts by the rules of `variant`: `normal` (orthodox chess and Chess960,
/// X-FEN or Shredder-FEN castling), `xiangqi` (either lettering), or any variant
/// defined as data (`capablanca`, a user's own).
pub fn run(variant: &str, depth: u32, fen: Option<&str>) -> ExitCode {
    let counted = match variant {
        "normal" => plugboard_alphabeta::board_from_fen(fen.unwrap_or(START_FEN))
            .map(|board| count(|| plugboard_alphabeta::perft(&board, depth))),
        "xiangqi" => {
            let position = match fen {
                Some(fen) => plugboard_xiangqi::Position::from_fen(fen).map_err(|why| why.to_string()),
                None => Ok(plugboard_xiangqi::Position::start()),
            };
            position.map(|position| count(|| position.perft(depth)))
        }
        name => {
            for problem in crate::variant_files::load_startup() {
                eprintln!("perft: variant definitions refused: {problem}");
            }
            let Some(rules) = crate::game::defined::variant(name) else {
                let mut known = vec!["normal".to_string(), "xiangqi".to_string()];
                known.extend(crate::game::defined::names());
                eprintln!("perft: no variant called {name} (the variants: {})", known.join(", "));
                return ExitCode::FAILURE;
            };
            let position = match fen {
                Some(fen) => plugboard_variants::Position::from_fen(rules, fen),
                None => plugboard_variants::Position::start(rules),
            };
            position.map_err(|why| why.to_string()).map(|mut position| count(|| position.perft(depth)))
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
