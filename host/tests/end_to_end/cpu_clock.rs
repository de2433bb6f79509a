//! `nps 0`: the engine times itself by the CPU time it uses and reports that time.

use crate::common;

use common::Engine;

/// The engine process's user CPU time in centiseconds, from /proc (clock ticks are
/// 100 a second on Linux).
fn user_cpu_centiseconds(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc/PID/stat");
    // Fields after the parenthesised command name; utime is the 14th field overall.
    let after_name = &stat[stat.rfind(')').expect("a command name") + 2..];
    after_name.split_whitespace().nth(11).and_then(|t| t.parse().ok()).expect("utime")
}

#[test]
fn a_cpu_clock_reports_no_more_time_than_the_cpu_gave() {
    let mut engine = Engine::start(None);
    engine.handshake();
    for line in ["new", "post", "nps 0", "st 1", "white", "go"] {
        engine.send(line);
    }
    // Stopped, the process gets no CPU while the wall clock runs on: a search timed by
    // the wall clock would then report more time than the CPU gave it.
    let signal = |name: &str| {
        let status = std::process::Command::new("kill").args([name, &engine.pid().to_string()]).status();
        assert!(status.is_ok_and(|s| s.success()), "kill {name}");
    };
    std::thread::sleep(std::time::Duration::from_millis(200));
    signal("-STOP");
    std::thread::sleep(std::time::Duration::from_millis(500));
    signal("-CONT");
    let lines = engine.read_until(|l| l.starts_with("move "));
    let cpu = user_cpu_centiseconds(engine.pid());
    let reported: Vec<u64> = lines
        .iter()
        .filter(|l| l.contains('\t'))
        .map(|l| l.split_whitespace().nth(2).and_then(|t| t.parse().ok()).expect("a time field"))
        .collect();
    assert!(!reported.is_empty(), "no thinking output: {lines:?}");
    // Reported CPU time of the search can trail /proc's tick count by a tick, no more.
    for time in &reported {
        assert!(*time <= cpu + 1, "reported {time} cs, but the process used {cpu} cs: {lines:?}");
    }
    // The budget was spent in CPU time: st 1 is 100 cs, which the engine must not overrun.
    assert!(reported.iter().max().copied().unwrap_or(0) <= 100, "{reported:?}");
}
