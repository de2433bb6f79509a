//! The engine within what CECP's `memory` allows: hash, search threads, plugins
//! and the rest together, through a game of ponder misses, where a search
//! starts while the one it replaces is still stopping.
#![cfg(target_os = "linux")]

use crate::common;

use common::Engine;
use shakmaty::{Chess, Position, uci::UciMove};

/// The engine's peak resident memory so far, in KiB.
fn peak_kib(engine: &Engine) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", engine.pid())).expect("the engine runs");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:")?.trim().strip_suffix("kB")?.trim().parse().ok())
        .expect("VmHWM in /proc")
}

fn play(position: &mut Chess, text: &str) {
    let m = text.parse::<UciMove>().unwrap().to_move(position).unwrap_or_else(|_| panic!("{text} is illegal"));
    position.play_unchecked(m);
}

#[test]
fn ponder_misses_keep_the_whole_engine_within_memory() {
    const MEMORY_MB: u64 = 68;
    let mut engine = Engine::start(None);
    engine.handshake();
    for line in [&format!("memory {MEMORY_MB}"), "cores 4", "hard"] {
        engine.send(line);
    }
    // The engine may win a game before enough misses (its play depends on the
    // time it gets): then another game starts, and the misses count on.
    let mut misses = 0;
    let mut games = 0;
    while misses < 12 && games < 4 {
        games += 1;
        engine.send("new");
        engine.send("st 0.3");
        let mut position = Chess::default();
        engine.send("usermove e2e4");
        play(&mut position, "e2e4");
        loop {
            let ours = engine.expect_move();
            play(&mut position, &ours);
            if position.is_game_over() || misses >= 12 {
                break;
            }
            // The engine ponders on the reply it expects; another one is a miss.
            let expected = engine.read_until(|l| l.starts_with("Hint: ")).pop().unwrap()["Hint: ".len()..].to_owned();
            std::thread::sleep(std::time::Duration::from_millis(100));
            let legal: Vec<String> =
                position.legal_moves().iter().map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string()).collect();
            // With one legal move there is nothing else to play: a hit, not counted.
            let theirs = legal.iter().find(|m| **m != expected).unwrap_or(&expected).clone();
            misses += usize::from(theirs != expected);
            engine.send(&format!("usermove {theirs}"));
            play(&mut position, &theirs);
            if position.is_game_over() {
                break;
            }
        }
    }
    assert!(misses >= 6, "{games} games ended after {misses} misses:\n{}", engine.transcript.join("\n"));
    let peak = peak_kib(&engine);
    assert!(
        peak <= MEMORY_MB * 1024,
        "the engine's resident memory peaked at {peak} KiB with `memory {MEMORY_MB}` ({} KiB)",
        MEMORY_MB * 1024
    );
    eprintln!("peak {peak} KiB of {} allowed", MEMORY_MB * 1024);
}
