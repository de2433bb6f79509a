//! End to end through pipes: the handshake, a game, analysis, errors and the
//! evaluation swap, with the real bundled plugins.

use crate::common;

use std::time::Duration;

use common::{Engine, thinking};
use shakmaty::{Chess, Position, uci::UciMove};

fn play(position: &mut Chess, text: &str) {
    let uci: UciMove = text.parse().unwrap_or_else(|_| panic!("{text} is not a coordinate move"));
    let m = uci.to_move(position).unwrap_or_else(|_| panic!("{text} is illegal in {position:?}"));
    position.play_unchecked(m);
}

#[test]
fn handshake_announces_features_and_options() {
    let mut engine = Engine::start(None);
    let features = engine.handshake();
    assert_eq!(features.first().map(String::as_str), Some("feature done=0"));
    assert_eq!(features.last().map(String::as_str), Some("feature done=1"));
    let all = features.join("\n");
    for wanted in
        ["myname=\"Plugboard", "ping=1", "setboard=1", "usermove=1", "sigint=0", "sigterm=1", "analyze=1", "memory=1"]
    {
        assert!(all.contains(wanted), "{wanted} missing from:\n{all}");
    }
    for option in [
        "feature option=\"Search -combo *alphabeta /// example\"",
        "feature option=\"Evaluation -combo *nnue /// fairy /// material /// pesto /// xiangqi-nnue /// xiangqi-pst\"",
        "feature option=\"Rescan plugins -button\"",
        "feature option=\"Null move pruning -check 1\"",
        "feature option=\"EvalFile -file \"",
    ] {
        assert!(features.iter().any(|l| l == option), "{option} missing from:\n{all}");
    }
    assert!(features.iter().any(|l| l.starts_with("feature option=\"Plugin folder -path ")), "{all}");
}

#[test]
fn plays_legal_moves_in_a_game_driven_by_force_and_go() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("level 0 1 0");
    engine.send("post");
    engine.send("force");
    let mut position = Chess::default();
    for m in ["e2e4", "e7e5", "g1f3"] {
        engine.send(&format!("usermove {m}"));
        play(&mut position, m);
    }
    // Engine plays Black from here, we answer with bare moves (protocol 1 style).
    engine.send("time 6000");
    engine.send("otim 6000");
    engine.send("go");
    for _ in 0..4 {
        let reply = engine.expect_move();
        play(&mut position, &reply);
        let ours = position.legal_moves().first().copied().expect("the game goes on");
        let text = UciMove::from_standard(ours).to_string();
        play(&mut position, &text);
        engine.send("time 6000");
        engine.send(&text);
    }
    let reply = engine.expect_move();
    play(&mut position, &reply);
    assert!(engine.transcript.iter().any(|l| thinking(l).is_some()), "no thinking output with post on");
}

#[test]
fn ping_is_answered_after_the_move() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("st 1");
    engine.send("go");
    engine.send("ping 42");
    let lines = engine.read_until(|l| l == "pong 42");
    assert!(lines.iter().any(|l| l.starts_with("move ")), "pong came before the move:\n{}", lines.join("\n"));
}

#[test]
fn move_now_interrupts_a_long_search() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("st 600");
    engine.send("go");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("?");
    let m = engine.expect_move();
    let mut position = Chess::default();
    play(&mut position, &m);
}

#[test]
fn bad_input_gets_protocol_errors_and_the_state_survives() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("force");
    engine.send("frobnicate the board");
    engine.send("usermove e2e5");
    engine.send("level forty");
    engine.send("option Move overhead=99999");
    engine.send("option No such option=1");
    engine.send("setboard this is not a fen");
    engine.send("usermove e2e4");
    let lines = engine.sync(1);
    let expect = |prefix: &str| {
        assert!(lines.iter().any(|l| l.starts_with(prefix)), "no line starting {prefix:?} in:\n{}", lines.join("\n"))
    };
    expect("Error (unknown command): frobnicate the board");
    expect("Illegal move (not legal in this position): e2e5");
    expect("Error (bad parameter): level forty");
    expect("Error (bad parameter): option Move overhead=99999");
    expect("Error (unknown option): option No such option=1");
    expect("tellusererror Illegal position");
    expect("Illegal move (no legal position is set up): e2e4");
    // A good position brings moves back.
    engine.send("setboard rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    engine.send("usermove e7e5");
    let lines = engine.sync(2);
    assert!(lines.iter().all(|l| !l.starts_with("Illegal")), "{}", lines.join("\n"));
    engine.send("st 1");
    engine.send("go");
    let mut position: Chess = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    let m = engine.expect_move();
    play(&mut position, &m);
}

#[test]
fn claims_mate_after_its_own_move() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("setboard 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    engine.send("st 1");
    engine.send("go");
    let lines = engine.read_until(|l| l.starts_with("1-0"));
    assert!(lines.iter().any(|l| l == "move d1d8"), "{}", lines.join("\n"));
    assert_eq!(lines.last().map(String::as_str), Some("1-0 {White mates}"));
}

#[test]
fn analysis_follows_moves_and_exits() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("force");
    engine.send("post");
    engine.send("analyze");
    engine.read_until(|l| thinking(l).is_some_and(|(depth, _, _)| depth >= 4));
    engine.send("usermove e2e4");
    engine.sync(1);
    let lines = engine.read_until(|l| thinking(l).is_some_and(|(depth, _, _)| depth >= 3));
    let (_, _, pv) = thinking(lines.last().unwrap()).unwrap();
    let mut position = Chess::default();
    play(&mut position, "e2e4");
    for m in pv.split_whitespace() {
        play(&mut position, m);
    }
    engine.send(".");
    let status = engine.sync(2);
    assert!(status.iter().any(|l| l.starts_with("stat01: ")), "{}", status.join("\n"));
    engine.send("exit");
    engine.sync(3);
    // After exit nothing more is analysed.
    assert!(engine.next_line(Duration::from_millis(300)).is_none());
}

#[test]
fn choosing_another_evaluation_mid_analysis_changes_the_scores() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("force");
    engine.send("post");
    engine.send("analyze");
    let network = engine.read_until(|l| thinking(l).is_some_and(|(depth, _, _)| depth >= 6));
    assert!(network.iter().filter_map(|l| thinking(l)).any(|(_, score, _)| score != 0), "nnue scored 0 throughout");
    engine.send("option Evaluation=material");
    let readvertised = engine.sync(1);
    assert!(
        readvertised
            .iter()
            .any(|l| l == "feature option=\"Evaluation -combo nnue /// fairy /// *material /// pesto /// xiangqi-nnue /// xiangqi-pst\""),
        "{}",
        readvertised.join("\n")
    );
    // Everything after the re-advertised options comes from the new search: with
    // material only, a balanced opening scores exactly 0 however deep it looks.
    let done = readvertised.iter().position(|l| l == "feature done=1").expect("options re-advertised");
    let mut material: Vec<String> = readvertised[done + 1..].to_vec();
    if !material.iter().any(|l| thinking(l).is_some_and(|(depth, _, _)| depth >= 6)) {
        material.extend(engine.read_until(|l| thinking(l).is_some_and(|(depth, _, _)| depth >= 6)));
    }
    let lines: Vec<(u32, i64, String)> = material.iter().filter_map(|l| thinking(l)).collect();
    assert_eq!(lines.first().map(|(depth, _, _)| *depth), Some(1), "the search restarted: {material:?}");
    assert!(lines.iter().all(|(_, score, _)| *score == 0), "material scores {lines:?}");
}

#[test]
fn plugin_options_reach_the_plugin() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("option Evaluation=material");
    engine.send("option Bishop pair bonus=150");
    engine.send("new");
    engine.send("force");
    engine.send("post");
    // White has the bishop pair, Black has bishop and knight: the bonus is the whole score.
    engine.send("setboard 4k3/8/8/2n1b3/8/8/8/2B1KB2 w - - 0 1");
    engine.send("sd 1");
    engine.send("go");
    let lines = engine.read_until(|l| l.starts_with("move "));
    let scores: Vec<i64> = lines.iter().filter_map(|l| thinking(l)).map(|(_, s, _)| s).collect();
    assert!(scores.contains(&(330 - 320 + 150)), "scores {scores:?}");
}

#[test]
fn quit_and_end_of_input_end_the_process() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("analyze");
    engine.send("quit");
    assert!(engine.wait_exit(Duration::from_secs(5)).is_some_and(|s| s.success()));

    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("st 100");
    engine.send("go");
    engine.close_input();
    assert!(engine.wait_exit(Duration::from_secs(5)).is_some_and(|s| s.success()));
}

#[cfg(unix)]
#[test]
fn sigint_does_not_kill_and_sigterm_ends_cleanly() {
    let mut engine = Engine::start(None);
    engine.handshake();
    let kill = |signal: &str, pid: u32| {
        std::process::Command::new("kill").args([signal, &pid.to_string()]).status().expect("kill runs");
    };
    kill("-INT", engine.pid());
    engine.sync(1);
    kill("-TERM", engine.pid());
    assert!(engine.wait_exit(Duration::from_secs(5)).is_some_and(|s| s.success()));
}

#[test]
fn ponders_after_its_move_and_a_hit_keeps_the_search() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("hard");
    engine.send("level 0 1 0");
    engine.send("time 6000");
    engine.send("otim 6000");
    engine.send("white");
    engine.send("go");
    let first = engine.read_until(|l| l.starts_with("Hint: "));
    let mut position = Chess::default();
    let our = first.iter().find_map(|l| l.strip_prefix("move ")).expect("the move came before the hint").to_owned();
    play(&mut position, &our);
    let hint = first.last().unwrap().strip_prefix("Hint: ").unwrap().to_owned();
    // While pondering the engine answers ping at once: it is not on move.
    engine.sync(1);
    engine.send("time 6000");
    engine.send(&hint);
    let reply = engine.expect_move();
    play(&mut position, &hint);
    play(&mut position, &reply);
    // A miss: play something else than the new hint.
    let hint =
        engine.read_until(|l| l.starts_with("Hint: ")).last().unwrap().strip_prefix("Hint: ").unwrap().to_owned();
    let other = position
        .legal_moves()
        .iter()
        .map(|&m| UciMove::from_standard(m).to_string())
        .find(|m| *m != hint)
        .expect("more than one legal move");
    engine.send(&other);
    play(&mut position, &other);
    let reply = engine.expect_move();
    play(&mut position, &reply);
    engine.send("easy");
    engine.send("force");
    engine.sync(2);
}

#[test]
fn pause_holds_the_search_and_resume_lets_it_finish() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("st 1");
    engine.send("white");
    engine.send("go");
    engine.send("pause");
    // Paused, the one-second search must not move for well over a second.
    let started = std::time::Instant::now();
    while started.elapsed() < Duration::from_millis(1500) {
        if let Some(line) = engine.next_line(Duration::from_millis(100)) {
            assert!(!line.starts_with("move "), "moved while paused: {line}");
        }
    }
    engine.send("resume");
    let m = engine.expect_move();
    play(&mut Chess::default(), &m);
}

#[test]
fn setscore_changes_what_the_search_thinks_of_a_position() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("force");
    engine.send("post");
    // Declare the position after 1. a3 a brilliant win for White (bad for Black to move).
    engine.send("a2a3");
    engine.send("setscore -5000 0");
    engine.send("undo");
    engine.send("sd 3");
    engine.send("white");
    engine.send("go");
    let m = engine.expect_move();
    assert_eq!(m, "a2a3", "the search should head for the position declared won");
}

#[test]
fn plays_fischer_random_legally() {
    use shakmaty::{CastlingMode, CastlingSide, fen::Fen};
    let fen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1";
    let mut position: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Chess960).unwrap();
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("variant fischerandom");
    engine.send(&format!("setboard {fen}"));
    engine.send("st 0.1");
    for _ in 0..16 {
        if position.is_game_over() {
            break;
        }
        // The engine plays whichever side is to move, one move at a time.
        engine.send("go");
        let text = engine.expect_move();
        let m = match text.as_str() {
            "O-O" => position.castling_moves(CastlingSide::KingSide).first().copied(),
            "O-O-O" => position.castling_moves(CastlingSide::QueenSide).first().copied(),
            other => other.parse::<UciMove>().ok().and_then(|uci| uci.to_move(&position).ok()),
        };
        let m = m.unwrap_or_else(|| panic!("{text} is not legal in {position:?}"));
        position.play_unchecked(m);
        engine.send("force");
    }
}

#[test]
fn a_node_clock_limits_nodes_and_reports_time_from_them() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("post");
    engine.send("nps 20000");
    engine.send("st 2");
    engine.send("white");
    engine.send("go");
    let lines = engine.read_until(|l| l.starts_with("move "));
    let mut seen = 0;
    for line in lines.iter().filter(|l| l.contains('\t')) {
        let fields: Vec<u64> =
            line.split('\t').next().unwrap().split_whitespace().map(|f| f.parse().unwrap()).collect();
        let (centiseconds, nodes) = (fields[2], fields[3]);
        // st 2 at 20000 nodes a second: at most 40000 nodes, and time is nodes / 200 cs.
        assert!(nodes <= 40_000, "{line}");
        assert_eq!(centiseconds, nodes * 100 / 20_000, "{line}");
        seen += 1;
    }
    assert!(seen > 0, "no thinking output: {lines:?}");
}

/// Sends `options`, saves the settings, and starts a new engine on the same home:
/// that engine and the features it announced.
fn saved_and_restarted(options: &[impl AsRef<str>]) -> (Engine, Vec<String>) {
    let mut engine = Engine::start(None);
    engine.handshake();
    for option in options {
        engine.send(option.as_ref());
    }
    engine.send("option Save settings");
    let lines = engine.sync(1);
    assert!(lines.iter().any(|l| l.starts_with("telluser Settings saved to ")), "{lines:?}");
    let home = engine.quit_keeping_home();
    let mut engine = Engine::start_at_home(home, None, &[]);
    let features = engine.handshake();
    (engine, features)
}

#[test]
fn saved_settings_come_back_and_reset_restores_defaults() {
    let (mut engine, features) = saved_and_restarted(&["option Evaluation=material", "option Move overhead=77"]);
    for wanted in [
        "feature option=\"Evaluation -combo nnue /// fairy /// *material /// pesto /// xiangqi-nnue /// xiangqi-pst\"",
        "feature option=\"Move overhead -spin 77 0 5000\"",
    ] {
        assert!(features.iter().any(|l| l == wanted), "{wanted} not restored: {features:?}");
    }
    engine.send("option Reset settings");
    let lines = engine.sync(2);
    for wanted in [
        "feature done=0",
        "feature option=\"Evaluation -combo *nnue /// fairy /// material /// pesto /// xiangqi-nnue /// xiangqi-pst\"",
        "feature option=\"Move overhead -spin 50 0 5000\"",
        "feature done=1",
    ] {
        assert!(lines.iter().any(|l| l == wanted), "{wanted} missing after reset: {lines:?}");
    }
}

#[test]
fn a_fresh_start_offers_the_network_and_a_choice_saved_before_is_kept() {
    let mut engine = Engine::start(None);
    let features = engine.handshake();
    let fresh =
        "feature option=\"Evaluation -combo *nnue /// fairy /// material /// pesto /// xiangqi-nnue /// xiangqi-pst\"";
    assert!(features.iter().any(|l| l == fresh), "{features:?}");
    // The chosen evaluation's own options follow the menu: the network's file.
    assert!(features.iter().any(|l| l.starts_with("feature option=\"EvalFile -file")), "{features:?}");
    engine.send("quit");
    engine.wait_exit(Duration::from_secs(10));

    // As the Save settings button of a release whose default was pesto wrote it.
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join(".config/plugboard");
    std::fs::create_dir_all(&config).unwrap();
    let saved = "# Plugboard settings, written by the Save settings button\nSearch=alphabeta\nEvaluation=pesto\n";
    std::fs::write(config.join("settings.txt"), saved).unwrap();
    let mut engine = Engine::start_at_home(home, None, &[]);
    let features = engine.handshake();
    let kept =
        "feature option=\"Evaluation -combo nnue /// fairy /// material /// *pesto /// xiangqi-nnue /// xiangqi-pst\"";
    assert!(features.iter().any(|l| l == kept), "{features:?}");
    assert!(features.iter().any(|l| l.starts_with("feature option=\"Tempo -spin")), "{features:?}");
    assert!(!features.iter().any(|l| l.contains("EvalFile")), "{features:?}");
}

#[test]
fn multipv_analysis_shows_that_many_different_lines() {
    let mut engine = Engine::start(None);
    engine.handshake();
    for line in ["new", "post", "option MultiPV=3", "analyze"] {
        engine.send(line);
    }
    let mut first_moves: std::collections::HashMap<u32, std::collections::BTreeSet<String>> = Default::default();
    let depth_with_three = loop {
        let line = engine.next_line(Duration::from_secs(30)).expect("thinking output");
        if let Some((depth, _, pv)) = thinking(&line) {
            let first = pv.split_whitespace().next().unwrap_or_default().to_owned();
            let seen = first_moves.entry(depth).or_default();
            seen.insert(first);
            if depth >= 5 && seen.len() >= 3 {
                break depth;
            }
            assert!(seen.len() <= 3, "more than three lines at depth {depth}: {seen:?}");
        }
    };
    engine.send("exit");
    engine.sync(1);
    assert!(depth_with_three >= 5);
}

#[test]
fn a_plugin_found_only_through_the_plugin_folder_is_restored_and_a_lost_one_told() {
    let folder = common::plugin_folder(&[("faulty_eval_panic", "panicky.so")]);
    let choose = [format!("option Plugin folder={}", folder.path().display()), "option Evaluation=panicky".to_owned()];
    let (mut engine, features) = saved_and_restarted(&choose);
    // The folder is restored before the choice it makes possible.
    assert!(
        features.iter().any(|l| l.contains(
            "Evaluation -combo nnue /// fairy /// material /// *panicky /// pesto /// xiangqi-nnue /// xiangqi-pst"
        )),
        "{features:?}"
    );
    let said = engine.sync(2);
    assert!(!said.iter().any(|l| l.starts_with("telluser Saved settings")), "{said:?}");
    let home = engine.quit_keeping_home();

    // With the plugin gone, the user hears that the saved choice was not restored.
    std::fs::remove_file(folder.path().join("panicky.so")).unwrap();
    let mut engine = Engine::start_at_home(home, None, &[]);
    let features = engine.handshake();
    assert!(
        features
            .iter()
            .any(|l| l
                .contains("Evaluation -combo *nnue /// fairy /// material /// pesto /// xiangqi-nnue /// xiangqi-pst")),
        "{features:?}"
    );
    let said = engine.sync(3);
    let told = said.iter().find(|l| l.starts_with("telluser Saved settings not restored")).unwrap_or_else(|| {
        panic!("{said:?}");
    });
    assert!(told.contains("Evaluation=panicky"), "{told}");
}

#[test]
fn a_plugin_option_named_as_a_host_option_is_shown_apart_and_reaches_the_plugin() {
    let folder = common::plugin_folder(&[("test_option_clash", "clasher.so")]);
    let mut engine = Engine::start(Some(folder.path()));
    engine.handshake();
    engine.send("option Search=clasher");
    let features = engine.sync(1);
    for wanted in
        ["feature option=\"clasher: Threads -spin 1 1 64\"", "feature option=\"clasher: MultiPV -spin 1 1 64\""]
    {
        assert!(features.iter().any(|l| l == wanted), "{wanted} not offered: {features:?}");
    }
    for host_option in ["Threads", "MultiPV"] {
        let offered = features.iter().filter(|l| l.starts_with(&format!("feature option=\"{host_option} "))).count();
        assert_eq!(offered, 1, "{host_option} offered {offered} times: {features:?}");
    }
    // `clasher MultiPV` is how such a name was shown before the colon: saved settings still reach it.
    for line in ["option clasher: Threads=7", "option clasher MultiPV=5", "option Threads=3", "new", "force", "post"] {
        engine.send(line);
    }
    let said = engine.sync(2);
    assert!(!said.iter().any(|l| l.starts_with("Error")), "{said:?}");
    engine.send("analyze");
    let line = engine.read_until(|l| thinking(l).is_some()).pop().expect("a thinking line");
    // The plugin shows depth = the host's Threads (no more than this machine's
    // cores), score = its own Threads, nodes = its own MultiPV.
    let threads = std::thread::available_parallelism().map_or(3, |cores| cores.get().min(3)).to_string();
    let fields: Vec<&str> = line.split_whitespace().take(4).collect();
    assert_eq!(fields, [threads.as_str(), "7", "0", "5"], "{line}");
    engine.send("exit");
    engine.sync(3);
}

#[test]
fn a_position_of_tens_of_thousands_of_characters_is_quoted_short() {
    let long_board = "r".repeat(60_000);
    let mut engine = Engine::start(None);
    engine.handshake();
    for variant in ["normal", "xiangqi"] {
        engine.send(&format!("variant {variant}"));
        engine.send(&format!("setboard {long_board} w - - 0 1"));
        let said = engine.sync(1);
        let told = said.iter().find(|l| l.starts_with("tellusererror Illegal position")).unwrap_or_else(|| {
            panic!(
                "{variant}: no error for the position: {:?}",
                said.iter().map(|l| &l[..l.len().min(80)]).collect::<Vec<_>>()
            )
        });
        // A dialog of a few lines, as for every other error; how long the
        // position was is said instead.
        assert!(told.len() <= 400, "{variant}: a {}-character line", told.len());
        assert!(told.contains("bytes in all"), "{variant}: {told}");
    }
    // The engine carries on with a position it can read.
    engine.send("new");
    engine.send("st 0.2");
    engine.send("go");
    engine.expect_move();
}
