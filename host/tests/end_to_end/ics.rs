//! The chess-server layer with the real search, through stdin/stdout as xboard's
//! Zippy mode drives it: the summary whispered after each move, and resigning a
//! lost game after the moves the options ask for, but not before.

use crate::common;

use common::Engine;
use shakmaty::{Chess, Position, fen::Fen, uci::UciMove};

/// Two white queens against a lone king: lost for Black whatever it plays.
const LOST_FOR_BLACK: &str = "7k/8/8/8/8/8/Q1Q5/K7 b - - 0 40";

/// A White move that leaves Black nothing to capture and the game going.
fn quiet_white_move(position: &Chess) -> shakmaty::Move {
    let moves = position.legal_moves();
    moves
        .iter()
        .find(|&&m| {
            let mut after = position.clone();
            after.play_unchecked(m);
            !after.is_game_over() && after.legal_moves().iter().all(|reply| !reply.is_capture())
        })
        .or(moves.first())
        .copied()
        .expect("White has a move")
}

/// Plays the lost position as Black on a server until the engine resigns or
/// `moves` moves were made; returns everything it said and whether it resigned.
fn play_lost_game(engine: &mut Engine, setup: &[&str], moves: usize) -> (Vec<String>, bool) {
    engine.handshake();
    for line in ["new", "ics freechess.org", "name GuestABCD", "rating 1500 1600", "post", "st 0.3", "force"] {
        engine.send(line);
    }
    for line in setup {
        engine.send(line);
    }
    engine.send(&format!("setboard {LOST_FOR_BLACK}"));
    let fen: Fen = LOST_FOR_BLACK.parse().unwrap();
    let mut position: Chess = fen.into_position(shakmaty::CastlingMode::Standard).unwrap();
    engine.send("go");
    let mut said = Vec::new();
    for _ in 0..moves {
        let lines = engine.read_until(|l| l.starts_with("move ") || l == "resign");
        let resigned = lines.last().is_some_and(|l| l == "resign");
        said.extend(lines.clone());
        if resigned {
            return (said, true);
        }
        let reply = lines.last().and_then(|l| l.strip_prefix("move ")).unwrap();
        let m = reply.parse::<UciMove>().unwrap().to_move(&position).expect("a legal engine move");
        position.play_unchecked(m);
        if position.is_game_over() {
            break;
        }
        let white = quiet_white_move(&position);
        engine.send(&format!("usermove {}", UciMove::from_standard(white)));
        position.play_unchecked(white);
    }
    said.extend(engine.sync(1));
    (said, false)
}

#[test]
fn a_lost_game_is_resigned_after_the_moves_the_options_ask_for() {
    let mut engine = Engine::start(None);
    let (said, resigned) = play_lost_game(&mut engine, &["option Resign moves=3"], 10);
    assert!(resigned, "{}", said.join("\n"));
    let moves = said.iter().filter(|l| l.starts_with("move ")).count();
    // Black's first move is forced, found at depth 1: too shallow a score to count.
    // Then three lost scores in a row: two more moves, and the third is resigned.
    assert_eq!(moves, 3, "{}", said.join("\n"));
    // Moves are followed by their summary for the spectators, as far as the throttle allows.
    let whispers: Vec<&String> = said.iter().filter(|l| l.starts_with("tellothers d")).collect();
    assert!(whispers.len() >= 2, "{}", said.join("\n"));
    assert!(whispers.iter().all(|w| w.contains(" pv ") && (w.contains(" -M") || w.contains(" -"))), "{whispers:?}");
    assert!(said.contains(&"tellopponent Hello GuestABCD, good luck and have fun!".to_owned()));
}

#[test]
fn resigning_can_be_turned_off() {
    let mut engine = Engine::start(None);
    let (said, resigned) = play_lost_game(&mut engine, &["option Resign threshold=0"], 6);
    assert!(!resigned, "{}", said.join("\n"));
}
