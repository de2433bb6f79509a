//! The cxboard front end through the engine's stdin and stdout, with the real
//! plugins: chosen by the first line, it plays xiangqi in play mode and answers
//! `go` in force mode, every move checked against the shared xiangqi rules, and
//! it ends with status 0.

use crate::common;

use std::time::Duration;

use common::Engine;
use plugboard_xiangqi::{Move, MoveList, Position};

/// `text` as a move legal in `position`, which it then plays.
#[track_caller]
fn play(position: &mut Position, text: &str) {
    let m: Move = text.parse().unwrap_or_else(|_| panic!("{text} is no move"));
    assert!(position.is_legal(m), "{text} is not legal in {position:?}");
    *position = position.after(m);
}

/// A legal move of `position`, as the GUI would send it.
fn some_move(position: &Position) -> String {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    list.iter().next().expect("a legal move").to_string()
}

fn greeted() -> Engine {
    let mut engine = Engine::start(None);
    engine.send("cxboard 1");
    let greeting = engine.read_until(|line| line == "cxboardok");
    assert!(greeting[0].starts_with("id name Plugboard "), "{greeting:?}");
    assert!(greeting.iter().any(|line| line.starts_with("option name Search type combo")), "{greeting:?}");
    assert!(!greeting.iter().any(|line| line.starts_with("feature")), "{greeting:?}");
    engine
}

#[test]
fn cxboard_plays_moves_answers_go_and_quits() {
    let mut engine = greeted();
    engine.send("isready");
    assert_eq!(engine.read_until(|line| line == "readyok"), ["readyok"]);
    let mut position = Position::start();
    // Three seconds for the game: the engine plays quickly and keeps its own clock.
    engine.send("clock :03 0 0");
    engine.send("playcurrent");
    for _ in 0..3 {
        let ours = engine.expect_move();
        play(&mut position, &ours);
        let theirs = some_move(&position);
        play(&mut position, &theirs);
        engine.send(&format!("move {theirs}"));
    }
    let ours = engine.expect_move();
    play(&mut position, &ours);
    // In force mode the engine plays nothing of its own; `go` reports its choice.
    engine.send("force");
    let theirs = some_move(&position);
    play(&mut position, &theirs);
    engine.send(&format!("move {theirs}"));
    engine.send("go movetime 200");
    let lines = engine.read_until(|line| line.starts_with("bestmove "));
    assert!(lines.iter().any(|line| line.starts_with("info depth ")), "{lines:?}");
    let best = lines.last().and_then(|line| line.split_whitespace().nth(1)).unwrap_or_default().to_owned();
    play(&mut position.clone(), &best);
    engine.send("isready");
    assert_eq!(engine.read_until(|line| line == "readyok"), ["readyok"]);
    engine.send("quit");
    let status = engine.wait_exit(Duration::from_secs(5)).expect("the engine ends");
    assert!(status.success(), "{status:?}");
}

#[test]
fn a_position_and_go_infinite_wait_for_stop_and_the_end_of_input_ends_the_engine() {
    let mut engine = greeted();
    engine.send("position startpos moves h2e2 h9g7");
    engine.send("go infinite");
    assert!(engine.next_line(Duration::from_millis(300)).is_some_and(|line| line.starts_with("info ")));
    engine.send("stop");
    let lines = engine.read_until(|line| line.starts_with("bestmove "));
    let mut position = Position::start();
    play(&mut position, "h2e2");
    play(&mut position, "h9g7");
    let best = lines.last().and_then(|line| line.split_whitespace().nth(1)).unwrap_or_default().to_owned();
    play(&mut position, &best);
    engine.send("frobnicate");
    assert_eq!(engine.read_until(|line| line.starts_with("Error")), ["Error (unknown command): frobnicate"]);
    engine.close_input();
    let status = engine.wait_exit(Duration::from_secs(5)).expect("the engine ends");
    assert!(status.success(), "{status:?}");
}

#[test]
fn any_other_first_line_keeps_cecp() {
    let mut engine = Engine::start(None);
    let features = engine.handshake();
    assert!(features.iter().any(|line| line.starts_with("feature myname=")), "{features:?}");
    engine.send("cxboard 1");
    let said = engine.read_until(|line| line.starts_with("Error"));
    assert_eq!(said.last().map(String::as_str), Some("Error (unknown command): cxboard 1"), "{said:?}");
}

#[test]
fn score_is_answered_even_when_the_next_command_follows_at_once() {
    let mut engine = greeted();
    for round in 0..10 {
        // `score`, then at once a `go` on the same position: both are answered.
        engine.send("position startpos");
        engine.send("score");
        engine.send("go depth 1");
        let said = engine.read_until(|line| line.starts_with("bestmove"));
        assert!(
            said.iter().any(|line| line.starts_with("info score ")),
            "round {round}: no score before the best move: {said:?}"
        );
        // `score`, then at once another position: the GUI is told there is none
        // for the old one rather than left waiting, or it gets the score.
        engine.send("score");
        engine.send("position startpos moves h2e2");
        engine.send("go depth 1");
        let said = engine.read_until(|line| line.starts_with("bestmove"));
        assert!(
            said.iter().any(|line| line.starts_with("info score ") || line.starts_with("info string No score")),
            "round {round}: the score of the first position was lost: {said:?}"
        );
    }
}

#[test]
fn go_limits_that_would_never_end_a_search_are_refused() {
    let mut engine = greeted();
    engine.send("position startpos");
    for limit in ["nodes", "depth", "mate", "movestogo"] {
        for value in ["0", "-1", "99999999999999999999"] {
            let command = format!("go {limit} {value}");
            engine.send(&command);
            engine.send("isready");
            let said = engine.read_until(|line| line == "readyok");
            assert_eq!(said, [format!("Error (bad parameter): {command}"), "readyok".to_owned()], "{command}");
        }
    }
    // The engine is not searching: a real limit is answered in good time.
    engine.send("go nodes 1000");
    let said = engine.read_until(|line| line.starts_with("bestmove"));
    assert!(said.last().is_some_and(|line| line != "bestmove (none)"), "{said:?}");
}
