//! How the engine process lives and ends: SIGINT never kills it nor spoils its
//! game, SIGTERM, `quit` and the end of input all end it cleanly with status 0,
//! the log flushed to its last protocol line.
#![cfg(unix)]

mod common;

use std::{
    fs,
    path::Path,
    thread,
    time::{Duration, Instant},
};

use common::{Engine, PATIENCE};
use shakmaty::{Chess, Position, uci::UciMove};

/// The promise for SIGTERM and the end of input. This is a deadline the
/// engine must keep, not a measure of its speed.
const EXIT_DEADLINE: Duration = Duration::from_secs(1);

fn signal(engine: &Engine, signal: i32) {
    // SAFETY: kill(2) with a child's pid has no memory effects in this process.
    let sent = unsafe { libc::kill(engine.pid() as i32, signal) };
    assert_eq!(sent, 0, "kill({}, {signal}) failed", engine.pid());
}

fn logging_to(dir: &Path) -> Engine {
    let mut engine = Engine::start_with_args(None, &["--log-dir", dir.to_str().unwrap()]);
    engine.handshake();
    engine
}

/// Everything in the daily log files of `dir`.
fn log_text(dir: &Path) -> String {
    let mut text = String::new();
    for entry in fs::read_dir(dir).expect("the log folder exists") {
        text += &fs::read_to_string(entry.unwrap().path()).unwrap_or_default();
    }
    text
}

fn is_legal(position: &Chess, m: &str) -> bool {
    m.parse::<UciMove>().ok().and_then(|uci| uci.to_move(position).ok()).is_some()
}

#[test]
fn a_storm_of_sigints_during_searches_and_idle_time_is_survived() {
    let mut engine = Engine::start(None);
    engine.handshake();
    let mut sent = 0;
    let mut ping = 0;
    for _ in 0..10 {
        // Thinking on a long clock: old xboards' SIGINT means "move now".
        engine.send("new");
        engine.send("level 0 5 0");
        engine.send("go");
        thread::sleep(Duration::from_millis(20));
        for _ in 0..50 {
            signal(&engine, libc::SIGINT);
            sent += 1;
            thread::sleep(Duration::from_micros(300));
        }
        let m = engine.expect_move();
        assert!(is_legal(&Chess::default(), &m), "{m} after the storm");
        // Idle: nothing to interrupt.
        engine.send("force");
        for _ in 0..50 {
            signal(&engine, libc::SIGINT);
            sent += 1;
        }
        ping += 1;
        engine.sync(ping);
    }
    assert_eq!(sent, 1000);
    // The game state survived: a new game is played from the right position.
    engine.send("new");
    engine.send("st 0.2");
    engine.send("usermove e2e4");
    let reply = engine.expect_move();
    let mut after = Chess::default();
    after.play_unchecked(UciMove::from_ascii(b"e2e4").unwrap().to_move(&after).unwrap());
    assert!(is_legal(&after, &reply), "{reply} is no reply to 1. e4");
    engine.send("quit");
    assert!(engine.wait_exit(PATIENCE).is_some_and(|s| s.success()));
}

#[test]
fn sigterm_during_a_search_exits_0_at_once_with_the_log_flushed() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = logging_to(dir.path());
    engine.send("new");
    engine.send("level 0 10 0");
    engine.send("go");
    thread::sleep(Duration::from_millis(100));
    engine.send("ping 42");
    // A ping sent while thinking is answered after the move; analysis answers at once.
    engine.send("?");
    engine.read_until(|l| l == "pong 42");
    engine.send("analyze");
    engine.send("ping 43");
    engine.read_until(|l| l == "pong 43");
    let sent = Instant::now();
    signal(&engine, libc::SIGTERM);
    let status = engine.wait_exit(EXIT_DEADLINE);
    let took = sent.elapsed();
    assert!(status.is_some_and(|s| s.success()), "status {status:?} after {took:?}");
    let log = log_text(dir.path());
    assert!(log.lines().any(|l| l.ends_with("> pong 43")), "the last protocol line is not in the log:\n{log}");
    assert!(log.contains("signal received") && log.contains("plugboard exiting"), "{log}");
}

#[test]
fn quit_during_a_search_exits_0_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = logging_to(dir.path());
    engine.send("new");
    engine.send("level 0 10 0");
    engine.send("go");
    thread::sleep(Duration::from_millis(200));
    engine.send("quit");
    let status = engine.wait_exit(EXIT_DEADLINE);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    assert!(log_text(dir.path()).contains("< quit"));
}

#[test]
fn the_end_of_input_exits_0_with_the_log_flushed() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = logging_to(dir.path());
    engine.send("analyze");
    engine.send("ping 9");
    engine.read_until(|l| l == "pong 9");
    engine.close_input();
    let status = engine.wait_exit(EXIT_DEADLINE);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    let log = log_text(dir.path());
    assert!(log.contains("> pong 9") && log.contains("plugboard exiting"), "{log}");
}
