//! Every plugin fault end to end: files that are refused at scan time, and
//! plugins that fail once chosen. The engine must say what happened, fall back to
//! the built-in plugin and still move in time.

use crate::common;

use std::{
    fs,
    process::Command,
    time::{Duration, Instant},
};

use common::{Engine, binary, built_library, plugin_folder};
use shakmaty::{Chess, uci::UciMove};

fn legal_from_start(m: &str) -> bool {
    let position = Chess::default();
    m.parse::<UciMove>().ok().and_then(|uci| uci.to_move(&position).ok()).is_some()
}

/// A folder with one file of each kind the scanner must refuse.
fn folder_of_refusals() -> tempfile::TempDir {
    let dir = plugin_folder(&[
        ("faulty_old_api", "old_api.so"),
        ("faulty_no_entry", "no_entry.so"),
        ("faulty_changed_layout", "changed_layout.so"),
    ]);
    fs::write(dir.path().join("notes.so"), "these are notes, not a library\n").unwrap();
    let real = fs::read(built_library("plugboard_eval_material")).unwrap();
    fs::write(dir.path().join("truncated.so"), &real[..real.len() / 2]).unwrap();
    dir
}

#[test]
fn list_plugins_shows_every_plugin_and_every_refusal_with_its_reason() {
    let dir = folder_of_refusals();
    let output = Command::new(binary())
        .arg("--list-plugins")
        .env("PLUGBOARD_PLUGIN_PATH", dir.path())
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .env("XDG_CACHE_HOME", dir.path().join("cache"))
        .output()
        .expect("runs");
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("plugin API 0.1.0 (plugins built against 0.1.x load)\n"), "{text}");
    for (file, reason) in [
        ("notes.so", "not a library"),
        ("truncated.so", "its exported symbols cannot be read"),
        ("old_api.so", "built against plugin API 0.0.1; this engine speaks plugin API 0.1.x"),
        (
            "changed_layout.so",
            "built against plugin API 0.1.0 with types that differ from this engine's (a changed or patched \
             plugboard-plugin-api): mismatched type (this engine: EvalModule; the plugin: ChangedEvalModule)",
        ),
        ("no_entry.so", "exports no plugin entry point"),
    ] {
        let line = text.lines().find(|l| l.contains(file)).unwrap_or_else(|| panic!("{file} not listed:\n{text}"));
        assert!(line.starts_with("refused") && line.contains(reason), "{line}");
    }
    for (kind, name) in [("search", "alphabeta"), ("evaluation", "pesto"), ("evaluation", "material")] {
        assert!(
            text.lines().any(|l| l.starts_with(kind) && l.contains(name) && l.contains(std::env::consts::DLL_SUFFIX)),
            "{kind} {name} not listed with its file:\n{text}"
        );
    }
}

#[test]
fn refused_files_are_reported_as_debug_lines_and_the_engine_plays_on() {
    let dir = folder_of_refusals();
    let mut engine = Engine::start(Some(dir.path()));
    engine.handshake();
    let lines = engine.sync(1);
    for file in ["notes.so", "truncated.so", "old_api.so", "no_entry.so", "changed_layout.so"] {
        assert!(
            lines.iter().any(|l| l.starts_with("# plugin refused: ") && l.contains(file)),
            "{file} refusal not reported:\n{}",
            lines.join("\n")
        );
    }
    engine.send("new");
    engine.send("playother");
    engine.send("st 0.5");
    engine.send("usermove e2e4");
    engine.expect_move();
}

/// Chooses `choice` for `option`, starts a game with `time_cs` on our clock, and
/// returns the lines up to our move and the time it took.
fn play_with(choice: (&str, &str), folder: &tempfile::TempDir, time_cs: u32) -> (Vec<String>, Duration) {
    let mut engine = Engine::start(Some(folder.path()));
    engine.handshake();
    engine.send(&format!("option {}={}", choice.0, choice.1));
    engine.sync(1);
    engine.send("new");
    engine.send("level 0 1 0");
    engine.send(&format!("time {time_cs}"));
    engine.send(&format!("otim {time_cs}"));
    engine.send("white");
    let started = Instant::now();
    engine.send("go");
    let mut lines = engine.read_until(|l| l.starts_with("move "));
    let took = started.elapsed();
    let m = lines.last().unwrap().strip_prefix("move ").unwrap().to_owned();
    assert!(legal_from_start(&m), "illegal move {m}");
    // A search that hangs is blamed a while after the move was played without it.
    if !lines.iter().any(|l| l.starts_with("tellusererror")) {
        lines.extend(engine.read_until(|l| l.starts_with("tellusererror")));
        lines.extend(engine.read_until(|l| l == "feature done=1"));
    }
    // The next search uses the fallback without further complaint.
    engine.send("force");
    engine.send("new");
    engine.send("st 0.3");
    engine.send("go");
    let next = engine.read_until(|l| l.starts_with("move "));
    assert!(next.iter().all(|l| !l.starts_with("tellusererror")), "{}", next.join("\n"));
    (lines, took)
}

fn assert_fell_back(lines: &[String], culprit: &str, fallback: &str, combo: &str) {
    let text = lines.join("\n");
    let error =
        lines.iter().find(|l| l.starts_with("tellusererror")).unwrap_or_else(|| panic!("no tellusererror:\n{text}"));
    assert!(error.contains(culprit) && error.contains(fallback), "{error}");
    assert!(lines.iter().any(|l| l.starts_with(&format!("feature option=\"{combo} -combo *{fallback}"))), "{text}");
}

#[test]
fn a_panicking_evaluation_is_replaced_and_the_engine_still_moves() {
    let folder = plugin_folder(&[("faulty_eval_panic", "panicky.so")]);
    let (lines, _) = play_with(("Evaluation", "panicky"), &folder, 1000);
    assert_fell_back(&lines, "panicky", "nnue", "Evaluation");
    // The author learns what the panic said and where it happened.
    let error = lines.iter().find(|l| l.starts_with("tellusererror")).unwrap();
    assert!(error.contains("this evaluation always panics (at tests/plugins/eval-panic/src/lib.rs:"), "{error}");
}

#[test]
fn a_panicking_search_is_replaced_and_the_engine_still_moves() {
    let folder = plugin_folder(&[("faulty_search_panic", "crashy.so")]);
    let (lines, _) = play_with(("Search", "crashy"), &folder, 1000);
    assert_fell_back(&lines, "crashy", "alphabeta", "Search");
    let error = lines.iter().find(|l| l.starts_with("tellusererror")).unwrap();
    assert!(error.contains("this search always panics (at tests/plugins/search-panic/src/lib.rs:13:"), "{error}");
}

#[test]
fn a_move_played_without_search_leaves_no_stale_hint() {
    let folder = plugin_folder(&[("faulty_search_hang", "stubborn.so")]);
    let mut engine = Engine::start(Some(folder.path()));
    engine.handshake();
    engine.send("new");
    engine.send("post");
    engine.send("st 0.3");
    engine.send("go");
    engine.expect_move();
    engine.send("hint");
    let first = engine.sync(1);
    assert!(first.iter().any(|l| l.starts_with("Hint: ")), "{}", first.join("\n"));
    // The next move comes from a search that never answers, so nothing predicts
    // the reply to it: the hint of the move before must not be offered for it.
    engine.send("option Search=stubborn");
    engine.send("usermove a7a6");
    let lines = engine.read_until(|l| l.starts_with("move "));
    assert!(lines.iter().any(|l| l.contains("(no search)")), "{}", lines.join("\n"));
    engine.send("hint");
    let answer = engine.sync(2);
    assert!(answer.iter().all(|l| !l.starts_with("Hint:")), "{}", answer.join("\n"));
}

#[test]
fn a_search_that_ignores_the_stop_flag_still_loses_no_time() {
    let folder = plugin_folder(&[("faulty_search_hang", "stubborn.so")]);
    // Two seconds on the clock: the move must come before they run out.
    let (lines, took) = play_with(("Search", "stubborn"), &folder, 200);
    assert!(took < Duration::from_secs(2), "moved after {took:?}, the clock had 2 s");
    assert_fell_back(&lines, "stubborn", "alphabeta", "Search");
}

#[test]
fn rescan_picks_up_new_and_changed_files() {
    let folder = tempfile::tempdir().unwrap();
    let mut engine = Engine::start(Some(folder.path()));
    engine.handshake();
    let plugin = folder.path().join("custom.so");
    fs::copy(built_library("faulty_eval_panic"), &plugin).unwrap();
    engine.send("option Rescan plugins");
    let lines = engine.sync(1);
    assert!(
        lines
            .iter()
            .any(|l| l
                == "feature option=\"Evaluation -combo *nnue /// fairy /// material /// panicky /// pesto /// xiangqi-nnue /// xiangqi-pst\""),
        "{}",
        lines.join("\n")
    );
    // Replace the file under the same name: the new library is loaded from a fresh copy.
    fs::remove_file(&plugin).unwrap();
    fs::copy(built_library("faulty_search_panic"), &plugin).unwrap();
    engine.send("option Rescan plugins");
    let lines = engine.sync(2);
    assert!(
        lines.iter().any(|l| l == "feature option=\"Search -combo *alphabeta /// crashy /// example\""),
        "{}",
        lines.join("\n")
    );
    assert!(
        lines.iter().any(|l| l == "feature option=\"Evaluation -combo *nnue /// fairy /// material /// pesto /// xiangqi-nnue /// xiangqi-pst\""),
        "{}",
        lines.join("\n")
    );
}

#[test]
fn a_plugin_is_chosen_by_name_never_by_path() {
    let mut engine = Engine::start(None);
    engine.handshake();
    let path = built_library("faulty_eval_panic");
    engine.send(&format!("option Evaluation={}", path.display()));
    let lines = engine.sync(1);
    assert!(lines.iter().any(|l| l.starts_with("Error (bad parameter): option Evaluation=")), "{}", lines.join("\n"));
}

#[test]
fn the_plugin_folder_option_adds_a_folder() {
    let folder = plugin_folder(&[("faulty_eval_panic", "panicky.so")]);
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send(&format!("option Plugin folder={}", folder.path().display()));
    let lines = engine.sync(1);
    assert!(
        lines
            .iter()
            .any(|l| l
                == "feature option=\"Evaluation -combo *nnue /// fairy /// material /// panicky /// pesto /// xiangqi-nnue /// xiangqi-pst\""),
        "{}",
        lines.join("\n")
    );
}

#[test]
fn a_plugins_panic_is_in_the_log_with_its_message_and_place() {
    let folder = plugin_folder(&[("faulty_eval_panic", "panicky.so")]);
    let logs = tempfile::tempdir().unwrap();
    let mut engine = Engine::start_with_args(Some(folder.path()), &["--log-dir", logs.path().to_str().unwrap()]);
    engine.handshake();
    engine.send("option Evaluation=panicky");
    engine.send("new");
    engine.send("sd 2");
    engine.send("go");
    engine.read_until(|l| l.starts_with("tellusererror"));
    engine.expect_move();
    engine.send("quit");
    engine.wait_exit(Duration::from_secs(5));
    let log: String = std::fs::read_dir(logs.path())
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect();
    let place = "this evaluation always panics (at tests/plugins/eval-panic/src/lib.rs:";
    // Not only the protocol line that carried the tellusererror: the engine's own record.
    assert!(
        log.lines().any(|l| l.contains(place) && !l.contains("> tellusererror")),
        "the panic is not in the log:\n{log}"
    );
}
