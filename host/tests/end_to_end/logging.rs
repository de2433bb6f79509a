//! The debug log and the `#` echo: every protocol line in the log with its time
//! and direction, a bounded number of daily files, a folder that can be moved
//! while the engine runs, panics in the log and never on stdout, and `#` lines
//! only when the GUI accepted `debug` and the `Debug output` option is on.

use crate::common;

use std::{fs, path::Path, time::Duration};

use common::{Engine, PATIENCE, plugin_folder};

fn daily_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|entries| entries.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.retain(|n| n.starts_with("plugboard.") && n.ends_with(".log"));
    names.sort();
    names
}

/// `plugboard.YYYY-MM-DD.log`: one file a day.
fn is_daily_name(name: &str) -> bool {
    let Some(date) = name.strip_prefix("plugboard.").and_then(|n| n.strip_suffix(".log")) else { return false };
    let parts: Vec<&str> = date.split('-').collect();
    parts.len() == 3 && [4, 2, 2].iter().zip(&parts).all(|(&len, p)| p.len() == len && p.parse::<u32>().is_ok())
}

fn quit(mut engine: Engine) {
    engine.send("quit");
    assert!(engine.wait_exit(PATIENCE).is_some_and(|s| s.success()));
}

#[test]
fn protocol_lines_are_logged_with_time_and_direction_in_daily_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = Engine::start_with_args(None, &["--log-dir", dir.path().to_str().unwrap()]);
    engine.handshake();
    engine.sync(5);
    quit(engine);
    let files = daily_files(dir.path());
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(is_daily_name(&files[0]), "{files:?}");
    let text = fs::read_to_string(dir.path().join(&files[0])).unwrap();
    for wanted in ["< ping 5", "> pong 5"] {
        let line = text.lines().find(|l| l.ends_with(wanted)).unwrap_or_else(|| panic!("no {wanted}:\n{text}"));
        // `2026-11-22T09:52:07.123456Z  INFO protocol: < ping 5`
        let stamp = line.split_whitespace().next().unwrap();
        assert!(stamp.len() >= 20 && stamp.as_bytes()[10] == b'T' && stamp.ends_with('Z'), "{line}");
    }
}

#[test]
fn old_log_files_are_deleted_beyond_the_count_kept() {
    let dir = tempfile::tempdir().unwrap();
    for day in 1..=10 {
        let line = format!("2026-01-{day:02}T08:00:00.000001Z  INFO plugboard: plugboard starting\n");
        fs::write(dir.path().join(format!("plugboard.2026-01-{day:02}.log")), line).unwrap();
    }
    fs::write(dir.path().join("notes.txt"), "not a log\n").unwrap();
    let mut engine = Engine::start_with_args(None, &["--log-dir", dir.path().to_str().unwrap(), "--log-files", "3"]);
    engine.handshake();
    assert_eq!(daily_files(dir.path()).len(), 3, "{:?}", daily_files(dir.path()));
    // Fewer kept from now on, by the option.
    engine.send("option Log files=2");
    engine.sync(1);
    let files = daily_files(dir.path());
    assert!((1..=2).contains(&files.len()), "{files:?}");
    quit(engine);
    assert!(dir.path().join("notes.txt").exists(), "only log files are pruned");
    let today = daily_files(dir.path()).into_iter().find(|n| !n.starts_with("plugboard.2026-01-")).unwrap();
    let text = fs::read_to_string(dir.path().join(today)).unwrap();
    assert!(text.contains("< option Log files=2") && text.contains("> pong 1"), "{text}");
}

#[test]
fn the_log_folder_option_moves_the_log_while_the_engine_runs() {
    let first = tempfile::tempdir().unwrap();
    let second = tempfile::tempdir().unwrap();
    let mut engine = Engine::start_with_args(None, &["--log-dir", first.path().to_str().unwrap()]);
    engine.handshake();
    let moved = second.path().join("moved");
    engine.send(&format!("option Log folder={}", moved.display()));
    let said = engine.sync(1);
    assert!(said.iter().any(|l| l.starts_with("# logging to ") && l.contains("moved")), "{said:?}");
    engine.sync(2);
    // A folder that cannot be made: the log stays, and the user is told. (The
    // file is there before the option names it: else the engine may make the
    // folder first.)
    fs::write(first.path().join("notes.txt"), "a file, not a folder\n").unwrap();
    engine.send(&format!("option Log folder={}", first.path().join("notes.txt/sub").display()));
    let said = engine.sync(3);
    assert!(said.iter().any(|l| l.starts_with("tellusererror The log stays where it was")), "{said:?}");
    quit(engine);
    let before = fs::read_to_string(first.path().join(&daily_files(first.path())[0])).unwrap();
    let after = fs::read_to_string(moved.join(&daily_files(&moved)[0])).unwrap();
    assert!(before.contains("< protover 2") && !before.contains("< ping 2"), "{before}");
    assert!(after.contains("< ping 2") && after.contains("< ping 3") && after.contains("plugboard exiting"), "{after}");
}

#[test]
fn no_debug_line_is_sent_when_debug_was_rejected_or_the_option_is_off() {
    // A refused file makes the scan say something, as a `#` line when allowed.
    let folder = plugin_folder(&[("faulty_no_entry", "no_entry.so")]);
    let mut engine = Engine::start(Some(folder.path()));
    engine.send("xboard");
    engine.send("protover 2");
    engine.read_until(|l| l == "feature done=1");
    engine.send("rejected debug");
    engine.send("option Rescan plugins");
    engine.send("option Log files=5");
    let said = engine.sync(1);
    assert!(!said.iter().any(|l| l.starts_with('#')), "{said:?}");
    assert!(!engine.transcript.iter().any(|l| l.starts_with('#')), "{:?}", engine.transcript);

    let mut engine = Engine::start(Some(folder.path()));
    engine.handshake();
    let said = engine.sync(1);
    assert!(said.iter().any(|l| l.starts_with("# plugin refused")), "{said:?}");
    engine.send("option Debug output=0");
    engine.send("option Rescan plugins");
    let said = engine.sync(2);
    assert!(!said.iter().any(|l| l.starts_with('#')), "{said:?}");
    engine.send("option Debug output=1");
    engine.send("option Rescan plugins");
    let said = engine.sync(3);
    assert!(said.iter().any(|l| l.starts_with("# plugin refused")), "{said:?}");
}

#[test]
fn a_plugin_panic_goes_to_the_log_never_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let folder = plugin_folder(&[("faulty_eval_panic", "panicky.so")]);
    let mut engine = Engine::start_with_args(Some(folder.path()), &["--log-dir", dir.path().to_str().unwrap()]);
    engine.handshake();
    engine.send("option Evaluation=panicky");
    engine.send("new");
    engine.send("st 0.5");
    engine.send("go");
    engine.expect_move();
    let _ = engine.next_line(Duration::from_millis(300));
    engine.sync(1);
    assert!(!engine.transcript.iter().any(|l| l.contains("panicked at")), "{:?}", engine.transcript);
    let transcript = engine.transcript.clone();
    quit(engine);
    let log = fs::read_to_string(dir.path().join(&daily_files(dir.path())[0])).unwrap();
    assert!(
        log.lines().any(|l| l.contains("plugin failed") && l.contains("panicky") && l.contains("panicked")),
        "{log}\n{transcript:?}"
    );
}
