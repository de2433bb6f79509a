//! How the engine process lives and ends: SIGINT never kills it nor spoils its
//! game, SIGTERM, `quit` and the end of input all end it cleanly with status 0,
//! the log flushed to its last protocol line.
#![cfg(unix)]

use crate::common;

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

/// Pins every thread of the engine to one core of those this test may use,
/// and so every thread it starts later: a search of 256 threads then crowds
/// that core as it would a small machine, whatever machine runs the test.
fn pin_to_one_core(engine: &Engine) {
    // SAFETY: cpu_set_t is plain data, zeroes are an empty set, and
    // sched_getaffinity fills it for this process.
    let mut ours: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: as above; the size is the set's own.
    assert_eq!(unsafe { libc::sched_getaffinity(0, size_of::<libc::cpu_set_t>(), &raw mut ours) }, 0);
    // SAFETY: CPU_ISSET reads the set.
    let core = (0..libc::CPU_SETSIZE as usize).find(|&cpu| unsafe { libc::CPU_ISSET(cpu, &ours) }).unwrap();
    // SAFETY: as above.
    let mut one: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: CPU_SET writes the set, core is within it.
    unsafe { libc::CPU_SET(core, &mut one) };
    for task in fs::read_dir(format!("/proc/{}/task", engine.pid())).unwrap() {
        let tid: libc::pid_t = task.unwrap().file_name().to_string_lossy().parse().unwrap();
        // SAFETY: the set is valid; a thread that ended meanwhile only fails the call.
        unsafe { libc::sched_setaffinity(tid, size_of::<libc::cpu_set_t>(), &one) };
    }
}

/// How the engine is told to end.
#[derive(Clone, Copy, Debug)]
enum WayOut {
    Sigterm,
    Quit,
    EndOfInput,
}

/// Starts a search asking for 256 threads in the protocol of `cxboard` or CECP
/// (on one core, or on all this machine has), ends the engine `way_out`, and
/// returns how long that took; panics if it did not end with status 0 within
/// the deadline.
fn end_a_crowded_search(cxboard: bool, one_core: bool, way_out: WayOut) -> Duration {
    let mut engine = Engine::start(None);
    if cxboard {
        engine.send("cxboard 1");
        engine.read_until(|l| l == "cxboardok");
        if one_core {
            pin_to_one_core(&engine);
        }
        engine.send("setoption name Threads value 256");
        engine.send("position startpos");
        engine.send("go infinite");
    } else {
        engine.handshake();
        if one_core {
            pin_to_one_core(&engine);
        }
        engine.send("cores 256");
        engine.send("new");
        engine.send("st 30");
        engine.send("go");
    }
    // As the command did: the helpers are being started, or searching.
    thread::sleep(Duration::from_millis(700));
    let told = Instant::now();
    match way_out {
        WayOut::Sigterm => signal(&engine, libc::SIGTERM),
        WayOut::Quit => engine.send("quit"),
        WayOut::EndOfInput => engine.close_input(),
    }
    let status = engine.wait_exit(EXIT_DEADLINE);
    let took = told.elapsed();
    assert!(
        status.is_some_and(|s| s.success()),
        "{way_out:?} ({}) with 256 search threads asked for on {}: status {status:?} after {took:?}",
        if cxboard { "cxboard" } else { "CECP" },
        if one_core { "one core" } else { "every core" }
    );
    took
}

/// 256 threads asked for on a machine of fewer cores: whatever the engine makes
/// of that, `quit`, SIGTERM and the end of input end it within the second.
#[test]
fn cores_256_on_one_core_still_ends_within_a_second() {
    let mut worst = Duration::ZERO;
    for round in 0..12 {
        let way_out = [WayOut::Sigterm, WayOut::Sigterm, WayOut::Quit, WayOut::EndOfInput][round % 4];
        worst = worst.max(end_a_crowded_search(false, true, way_out));
    }
    eprintln!("the slowest of 12 ends took {worst:?}");
}

#[test]
fn threads_256_under_cxboard_still_end_within_a_second() {
    // As the command, under cxboard, on every core of this machine.
    let mut worst = Duration::ZERO;
    for round in 0..6 {
        let way_out = [WayOut::Sigterm, WayOut::Quit, WayOut::EndOfInput][round % 3];
        worst = worst.max(end_a_crowded_search(true, false, way_out));
    }
    eprintln!("the slowest of 6 ends took {worst:?}");
}
