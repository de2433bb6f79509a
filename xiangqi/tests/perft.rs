//! Perft against Fairy-Stockfish's counts: the proof that the move generator
//! and legality agree with another engine's on every position measured.

use plugboard_xiangqi::Position;

fn cases() -> Vec<(String, u32, u64)> {
    include_str!("data/perft.txt")
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            let [fen, depth, nodes] = fields[..] else { panic!("bad line: {line}") };
            (fen.to_string(), depth.parse().unwrap(), nodes.parse().unwrap())
        })
        .collect()
}

#[test]
fn fairy_stockfish_counts() {
    let cases = cases();
    assert_eq!(cases.len(), 24);
    for (fen, depth, nodes) in cases {
        let position = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(position.perft(depth), nodes, "{fen} depth {depth}");
    }
}

/// 133,312,995 nodes: seconds in release, minutes in debug, so not by default.
#[test]
#[ignore = "slow: run with --release -- --ignored"]
fn start_depth_5() {
    assert_eq!(Position::start().perft(5), 133_312_995);
}
