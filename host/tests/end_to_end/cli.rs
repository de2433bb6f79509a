//! The command line: `--version`, `--help`, `perft`, `bench`, and the log that
//! names every plugin's file.

use crate::common;

use std::process::{Command, Output};

use common::{Engine, binary};

fn run(args: &[&str]) -> Output {
    let home = tempfile::tempdir().unwrap();
    Command::new(binary())
        .args(args)
        .env("HOME", home.path())
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env_remove("PLUGBOARD_PLUGIN_PATH")
        .output()
        .expect("plugboard runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn version_and_help() {
    let version = run(&["--version"]);
    assert!(version.status.success());
    assert_eq!(stdout(&version).trim(), format!("plugboard {}", env!("CARGO_PKG_VERSION")));
    let help = stdout(&run(&["--help"]));
    for word in ["--list-plugins", "--plugin-dir", "--log-file", "bench", "perft"] {
        assert!(help.contains(word), "{word} missing from --help:\n{help}");
    }
}

#[test]
fn perft_counts_known_trees() {
    let start = run(&["perft", "4"]);
    assert!(stdout(&start).starts_with("perft 4: 197281 nodes"), "{}", stdout(&start));
    let kiwipete = run(&["perft", "3", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"]);
    assert!(stdout(&kiwipete).starts_with("perft 3: 97862 nodes"), "{}", stdout(&kiwipete));
    let bad = run(&["perft", "3", "not a fen"]);
    assert!(!bad.status.success());
}

#[test]
fn perft_counts_xiangqi_trees_as_fairy_stockfish_does() {
    let start = run(&["perft", "--variant", "xiangqi", "4"]);
    assert!(stdout(&start).starts_with("perft 4: 3290240 nodes"), "{}", stdout(&start));
    // A middlegame in each lettering: Fairy-Stockfish's (n, b) and xboard's (h, e).
    for fen in [
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "r1ea1a3/4kh3/2h1e4/pHp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2EAKAE2 w 0 1",
    ] {
        let middlegame = run(&["perft", "--variant", "xiangqi", "3", fen]);
        assert!(stdout(&middlegame).starts_with("perft 3: 43929 nodes"), "{fen}: {}", stdout(&middlegame));
    }
    let bad = run(&["perft", "--variant", "xiangqi", "3", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]);
    assert!(!bad.status.success());
}

#[test]
fn bench_prints_a_repeatable_signature() {
    let signature = |output: Output| {
        assert!(output.status.success());
        let text = stdout(&output);
        let line =
            text.lines().find(|l| l.starts_with("Nodes searched")).unwrap_or_else(|| panic!("{text}")).to_owned();
        assert!(text.contains("Nodes/second"), "{text}");
        // OpenBench's client reads the last line: `N nodes M nps`, N the signature.
        let last: Vec<&str> = text.lines().last().unwrap_or_default().split(' ').collect();
        assert!(matches!(last[..], [_, "nodes", _, "nps"]), "{text}");
        assert_eq!(Some(last[0]), line.split_whitespace().last(), "{text}");
        assert!(last[2].parse::<u64>().is_ok(), "{text}");
        line
    };
    let first = signature(run(&["bench", "--depth", "5"]));
    let second = signature(run(&["bench", "--depth", "5"]));
    assert_eq!(first, second, "the node count of a fixed-depth bench must not vary");
}

#[test]
fn the_log_names_the_file_of_every_plugin() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("engine.log");
    let mut engine = Engine::start_with_args(None, &["--log-file", log.to_str().unwrap()]);
    engine.handshake();
    engine.send("quit");
    engine.wait_exit(std::time::Duration::from_secs(10));
    let text = std::fs::read_to_string(&log).expect("the log was written and flushed at exit");
    let logged = |what: &str, name: &str| {
        text.lines().any(|l| l.contains(what) && l.contains(&format!("name={name}")) && l.contains("path="))
    };
    for name in ["alphabeta", "pesto", "material"] {
        assert!(logged("plugin found", name), "no line for {name} found:\n{text}");
    }
    // Only the chosen plugins are mapped into the engine.
    for name in ["alphabeta", "nnue"] {
        assert!(logged("plugin loaded", name), "no load line for {name}:\n{text}");
    }
    for unchosen in ["material", "pesto"] {
        assert!(!logged("plugin loaded", unchosen), "{unchosen} was loaded though nobody chose it:\n{text}");
    }
    assert!(text.contains("< protover 2") && text.contains("> feature done=1"), "protocol lines missing");
}

#[test]
fn the_tools_refuse_plugin_names_they_do_not_know() {
    let out = tempfile::tempdir().unwrap();
    let data = out.path().join("data");
    for (args, name) in [
        (vec!["--search", "nope", "bench", "--depth", "1"], "Search has no choice named nope"),
        (vec!["--eval", "nnu", "bench", "--depth", "1"], "Evaluation has no choice named nnu"),
        (
            vec!["--eval", "nnu", "datagen", "--positions", "1", "--out", data.to_str().unwrap()],
            "Evaluation has no choice named nnu",
        ),
    ] {
        let output = run(&args);
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} ran with another plugin:\n{}", stdout(&output));
        assert!(said.contains(name) && said.contains("alphabeta") == (name.starts_with("Search")), "{said}");
        assert!(!stdout(&output).contains("Nodes searched"), "{args:?} measured something");
    }
    assert!(!data.exists(), "datagen wrote data with an evaluation nobody chose");
}

#[test]
fn a_refused_command_line_option_is_told_once_on_each_channel() {
    let home = tempfile::tempdir().unwrap();
    let mut engine =
        Engine::start_with_env(home, None, &["--eval", "nnue", "--option", "EvalFile=/nonexistent/net.nnue"], &[]);
    engine.handshake();
    // Told once the GUI listens, after the features.
    let said = engine.sync(1);
    let told: Vec<&String> = said.iter().filter(|l| l.starts_with("tellusererror")).collect();
    assert_eq!(told.len(), 1, "{said:?}");
    assert!(told[0].starts_with("tellusererror Command line: cannot use /nonexistent/net.nnue"), "{}", told[0]);
    assert_eq!(told[0].matches("tellusererror").count(), 1, "{}", told[0]);
    // stderr, where a terminal user reads it.
    let output = Command::new(binary())
        .args(["--eval", "nnue", "--option", "EvalFile=/nonexistent/net.nnue"])
        .env("HOME", tempfile::tempdir().unwrap().path())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("plugboard runs");
    let said = String::from_utf8_lossy(&output.stderr);
    let line = said.lines().find(|l| l.contains("/nonexistent/net.nnue")).unwrap_or_else(|| panic!("{said}"));
    assert!(line.starts_with("plugboard: cannot use /nonexistent/net.nnue"), "{line}");
    assert!(!line.contains("tellusererror"), "{line}");
}

#[test]
fn genfens_prints_openbench_s_openings_the_same_for_the_same_seed() {
    // As OpenBench's worker runs it: the command one argument, then `quit`.
    let openings = |seed: &str| {
        let output = run(&[&format!("genfens 3 seed {seed} book None"), "quit"]);
        assert!(output.status.success(), "{output:?}");
        let text = stdout(&output);
        let fens: Vec<String> =
            text.lines().filter_map(|line| line.strip_prefix("info string genfens ")).map(str::to_owned).collect();
        assert_eq!(fens.len(), 3, "{text}");
        for fen in &fens {
            let setup: shakmaty::fen::Fen = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
            let position: shakmaty::Chess =
                setup.into_position(shakmaty::CastlingMode::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"));
            // Eight random plies from the start: White to move, on move five, and the game on.
            let fields: Vec<&str> = fen.split(' ').collect();
            assert_eq!((fields[1], fields[5]), ("w", "5"), "{fen}");
            assert!(!shakmaty::Position::legal_moves(&position).is_empty(), "{fen}");
        }
        fens
    };
    let first = openings("912");
    assert_eq!(first, openings("912"));
    assert_ne!(first, openings("913"));
    let refused = run(&["genfens 3 seed 912 book /nonexistent.epd", "quit"]);
    assert!(!refused.status.success());
    assert!(stdout(&refused).contains("info string genfens: cannot read /nonexistent.epd"), "{refused:?}");
}
