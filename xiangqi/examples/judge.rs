//! Plays two scripted move cycles against each other and prints the first
//! repetition verdict, to compare with xboard running two scripted engines:
//! `cargo run --release -p plugboard-xiangqi --example judge -- FEN RED_MOVES BLACK_MOVES`
//! with moves comma-separated (`e5d5,d5e5`), each side cycling through its own.

use plugboard_xiangqi::repetition::{Rule, judge};
use plugboard_xiangqi::{Color, Move, Position};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [fen, red, black] = &args[..] else {
        eprintln!("usage: judge FEN RED_MOVES BLACK_MOVES");
        std::process::exit(2);
    };
    let script = |moves: &str| -> Vec<Move> { moves.split(',').map(|m| m.parse().expect("a move")).collect() };
    let (red, black) = (script(red), script(black));
    let mut positions = vec![Position::from_fen(fen).expect("a legal FEN")];
    let mut moves = Vec::new();
    let mut played = [0, 0];
    for ply in 1..=200 {
        let last = positions.last().expect("a position");
        let side = last.turn();
        let list = if side == Color::Red { &red } else { &black };
        let m = list[played[side.index()] % list.len()];
        played[side.index()] += 1;
        if !last.is_legal(m) {
            println!("ply {ply}: {m} is illegal");
            return;
        }
        positions.push(last.after(m));
        moves.push(m);
        if let Some(verdict) = judge(&positions, &moves, Rule::XBOARD) {
            println!("ply {ply} ({m}): {verdict} (winner: {:?})", verdict.winner());
            return;
        }
    }
    println!("no verdict in 200 plies");
}
