//! Times perft: `cargo run --release -p plugboard-xiangqi --example perft -- [DEPTH] [FEN]`.
//! Depth 5 from the start is 133,312,995 nodes (Fairy-Stockfish: 6.36 s here).

use std::time::Instant;

use plugboard_xiangqi::Position;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth = args.next().map_or(5, |d| d.parse().expect("depth is a number"));
    let fen: Vec<String> = args.collect();
    let position =
        if fen.is_empty() { Position::start() } else { Position::from_fen(&fen.join(" ")).expect("a legal FEN") };
    let started = Instant::now();
    let nodes = position.perft(depth);
    let seconds = started.elapsed().as_secs_f64();
    #[allow(clippy::cast_precision_loss)] // a rate to print
    let rate = nodes as f64 / seconds / 1e6;
    println!("perft {depth}: {nodes} nodes in {seconds:.2} s ({rate:.1} M/s)");
}
