//! Xiangqi through the engine's stdin and stdout under CECP, with the real
//! plugins: a game against itself checked move by move against the shared rules,
//! analysis, move-now, pondering and the evaluation swapped while it analyses.

use crate::common;

use common::{Engine, thinking};
use plugboard_xiangqi::{Move, Position};

fn is_result(line: &str) -> bool {
    ["1-0", "0-1", "1/2-1/2"].iter().any(|r| line.starts_with(r))
}

fn xiangqi_engine() -> Engine {
    let mut engine = Engine::start(None);
    let features = engine.handshake().join("\n");
    assert!(features.contains(",xiangqi"), "xiangqi not announced: {features}");
    engine.send("new");
    engine.send("variant xiangqi");
    engine
}

/// Every move of a PV, from `position`, must be legal in turn.
fn assert_legal_line(position: &Position, pv: &str) {
    let mut position = position.clone();
    for text in pv.split_whitespace() {
        let m: Move = text.parse().unwrap_or_else(|_| panic!("unreadable move {text} in {pv}"));
        assert!(position.is_legal(m), "{text} is illegal in the line {pv}");
        let _ = position.play(m);
    }
}

#[test]
fn a_game_against_itself_is_legal_to_its_end_and_only_the_board_decides_it() {
    let mut engine = xiangqi_engine();
    engine.send("sd 2");
    engine.send("force");
    let mut position = Position::start();
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..240 {
        engine.send("go");
        let lines = engine.read_until(|l| l.starts_with("move ") || is_result(l) || l.starts_with("Error"));
        let last = lines.last().unwrap().clone();
        let Some(text) = last.strip_prefix("move ") else {
            assert!(position.outcome().is_some(), "claimed {last} in a game that goes on after {moves:?}");
            return;
        };
        engine.send("force");
        let m: Move = text.parse().unwrap_or_else(|_| panic!("unreadable move {text}"));
        assert!(position.is_legal(m), "illegal move {text} after {moves:?}");
        let _ = position.play(m);
        moves.push(text.to_owned());
        let after = engine.sync(ply + 1);
        if let Some(claim) = after.iter().find(|l| is_result(l)) {
            // Only mate or stalemate: a repetition is xboard's to judge.
            assert!(position.outcome().is_some(), "claimed {claim} after {moves:?}");
            let winner_is_red = position.outcome().unwrap().winner() == plugboard_xiangqi::Color::Red;
            assert_eq!(claim.starts_with("1-0"), winner_is_red, "{claim}");
            return;
        }
    }
    assert!(moves.len() >= 40, "{moves:?}");
}

#[test]
fn analysis_shows_legal_lines_and_the_evaluation_can_be_swapped_while_it_runs() {
    let mut engine = xiangqi_engine();
    for line in ["post", "h2e2", "analyze"] {
        engine.send(line);
    }
    let after_cannon = Position::start().after("h2e2".parse().unwrap());
    let lines = engine.read_until(|l| thinking(l).is_some_and(|(depth, _, _)| depth >= 4));
    let (_, _, pv) = thinking(lines.last().unwrap()).unwrap();
    assert_legal_line(&after_cannon, &pv);
    // `.` in analysis: the status line, with the move being searched in coordinates.
    engine.send(".");
    let status = engine.read_until(|l| l.starts_with("stat01"));
    // stat01: time nodes depth moves-left moves-in-all [move being searched].
    let fields: Vec<&str> = status.last().unwrap().split_whitespace().collect();
    assert!(fields.len() >= 6, "{fields:?}");
    let mut black_moves = plugboard_xiangqi::MoveList::new();
    after_cannon.legal_moves(&mut black_moves);
    assert_eq!(fields[5], black_moves.len().to_string(), "{fields:?}");
    if let Some(current) = fields.get(6) {
        assert_legal_line(&after_cannon, current);
    }
    // The material evaluation scores no xiangqi: the user is told, and the
    // engine keeps analysing with xiangqi-nnue.
    engine.send("option Evaluation=material");
    let said = engine.sync(1);
    assert!(!said.iter().any(|l| l.starts_with("Error")), "{said:?}");
    let told: Vec<&String> = said.iter().filter(|l| l.starts_with("tellusererror")).collect();
    assert_eq!(told, ["tellusererror The evaluation material cannot score xiangqi; xiangqi-nnue scores this game."]);
    let lines = engine.read_until(|l| thinking(l).is_some_and(|(depth, _, _)| depth >= 3));
    let (_, _, pv) = thinking(lines.last().unwrap()).unwrap();
    assert_legal_line(&after_cannon, &pv);
    engine.send("exit");
    engine.send("quit");
}

#[test]
fn move_now_and_pondering_answer_with_legal_moves() {
    let mut engine = xiangqi_engine();
    for line in ["st 30", "hard", "post", "go"] {
        engine.send(line);
    }
    // A long search cut short: the move comes without waiting for the 30 s.
    engine.read_until(|l| thinking(l).is_some_and(|(depth, _, _)| depth >= 3));
    engine.send("?");
    let red = engine.expect_move();
    let mut position = Position::start();
    let m: Move = red.parse().unwrap();
    assert!(position.is_legal(m), "{red}");
    let _ = position.play(m);
    // Pondering on Black's expected reply: whatever Black plays, Red answers legally.
    engine.send("st 1");
    let mut legal = plugboard_xiangqi::MoveList::new();
    position.legal_moves(&mut legal);
    let reply = legal[0];
    engine.send(&format!("usermove {reply}"));
    let _ = position.play(reply);
    let answer: Move = engine.expect_move().parse().unwrap();
    assert!(position.is_legal(answer), "{answer}");
    engine.send("quit");
    assert!(engine.wait_exit(std::time::Duration::from_secs(5)).is_some_and(|status| status.success()));
}
