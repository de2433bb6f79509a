//! The NNUE evaluations as a user meets them through the GUI: chosen from the
//! `Evaluation` menu while analysing, given another network with `EvalFile`,
//! and a file that is no network refused while play goes on; for chess
//! (`nnue`) and for xiangqi (`xiangqi-nnue`).

use crate::common;

use common::{Engine, thinking};
use plugboard_eval_nnue::{
    Game, Network,
    network::{BUCKETS, QA, QB},
};

/// A network that scores every position `centipawns` for the side to move:
/// no weights, only the output bias (`centipawns` a multiple of 5, so that the
/// bias is whole).
fn constant_network(centipawns: i32) -> Network {
    let hidden = 16;
    let bias = centipawns * QA * QB / 400;
    Network::new(hidden, 400, vec![0; 768 * hidden], vec![0; hidden], vec![0; 2 * hidden], vec![bias]).unwrap()
}

#[test]
fn an_eval_file_chosen_mid_analysis_scores_the_next_lines() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("constant.nnue");
    std::fs::write(&path, constant_network(35).to_bytes()).unwrap();
    let mut engine = Engine::start(None);
    engine.handshake();
    for line in ["new", "force", "post", "option Evaluation=nnue", "analyze"] {
        engine.send(line);
    }
    let embedded = engine.read_until(|l| thinking(l).is_some_and(|(depth, _, _)| depth >= 5));
    assert!(embedded.iter().filter_map(|l| thinking(l)).any(|(_, score, _)| score.abs() != 35), "{embedded:?}");
    engine.send(&format!("option EvalFile={}", path.display()));
    let mut lines = engine.sync(1);
    lines.extend(engine.read_until(|l| thinking(l).is_some_and(|(depth, _, _)| depth >= 5)));
    let scores: Vec<(u32, i64, String)> = lines.iter().filter_map(|l| thinking(l)).collect();
    // The analysis starts again at depth 1, and every line from there on scores
    // the flat network, from one side or the other.
    let restart = scores.iter().rposition(|(depth, _, _)| *depth == 1).unwrap_or_else(|| panic!("{lines:?}"));
    assert!(scores[restart..].iter().all(|(_, score, _)| score.abs() == 35), "{scores:?}");
    engine.send("exit");
    engine.sync(2);
}

#[test]
fn a_file_that_is_no_network_is_refused_by_name_and_play_goes_on() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("weights.txt");
    std::fs::write(&path, "a text file where a network should be, long enough to have a header").unwrap();
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("option Evaluation=nnue");
    engine.send(&format!("option EvalFile={}", path.display()));
    let answer = engine.sync(1);
    let told = answer.iter().find(|l| l.starts_with("tellusererror ")).unwrap_or_else(|| panic!("{answer:?}"));
    assert!(told.contains(&path.display().to_string()) && told.contains("not a Plugboard network"), "{told}");
    assert!(told.contains("the network in use stays"), "{told}");
    engine.send("new");
    engine.send("st 1");
    engine.send("go");
    let reply = engine.expect_move();
    assert_eq!(reply.len(), 4, "a move is played: {reply}");
}

#[test]
fn choosing_nnue_mid_analysis_scores_the_first_iteration_with_it() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("constant.nnue");
    std::fs::write(&path, constant_network(45).to_bytes()).unwrap();
    let mut engine = Engine::start(None);
    engine.handshake();
    // The network is chosen while nnue is selected; it stays when pesto is.
    engine.send("option Evaluation=nnue");
    engine.send(&format!("option EvalFile={}", path.display()));
    engine.send("option Evaluation=pesto");
    for line in ["new", "force", "post", "analyze"] {
        engine.send(line);
    }
    let pesto = engine.read_until(|l| thinking(l).is_some_and(|(depth, _, _)| depth >= 5));
    assert!(pesto.iter().filter_map(|l| thinking(l)).any(|(_, score, _)| score.abs() != 45), "{pesto:?}");
    engine.send("option Evaluation=nnue");
    let mut lines = engine.sync(1);
    lines.extend(engine.read_until(|l| thinking(l).is_some_and(|(depth, _, _)| depth >= 5)));
    let done = lines.iter().position(|l| l == "feature done=1").expect("options re-advertised");
    let scores: Vec<(u32, i64, String)> = lines[done + 1..].iter().filter_map(|l| thinking(l)).collect();
    assert_eq!(scores.first().map(|(depth, _, _)| *depth), Some(1), "the analysis restarted: {lines:?}");
    assert!(scores.iter().all(|(_, score, _)| score.abs() == 45), "{scores:?}");
    engine.send("exit");
    engine.sync(2);
}

/// A xiangqi network that scores every position `centipawns` for the side to move.
fn constant_xiangqi_network(centipawns: i32) -> Network {
    let hidden = 16;
    let bias = centipawns * QA * QB / 400;
    let inputs = Game::Xiangqi.inputs();
    Network::for_game(
        Game::Xiangqi,
        hidden,
        400,
        vec![0; inputs * hidden],
        vec![0; hidden],
        vec![0; BUCKETS * 2 * hidden],
        vec![bias; BUCKETS],
    )
    .unwrap()
}

#[test]
fn the_xiangqi_network_swaps_in_during_xiangqi_analysis_and_a_chess_network_is_refused_by_name() {
    let folder = tempfile::tempdir().unwrap();
    let flat = folder.path().join("flat-xiangqi.nnue");
    std::fs::write(&flat, constant_xiangqi_network(55).to_bytes()).unwrap();
    let chess = folder.path().join("chess.nnue");
    std::fs::write(&chess, constant_network(35).to_bytes()).unwrap();
    let mut engine = Engine::start(None);
    engine.handshake();
    for line in ["new", "variant xiangqi", "force", "post", "analyze"] {
        engine.send(line);
    }
    let pst = engine.read_until(|l| thinking(l).is_some_and(|(depth, _, _)| depth >= 5));
    assert!(pst.iter().filter_map(|l| thinking(l)).any(|(_, score, _)| score.abs() != 55), "{pst:?}");

    // Chosen mid-analysis with a network of its own: every line from the restart scores it.
    engine.send("option Evaluation=xiangqi-nnue");
    engine.send(&format!("option EvalFile={}", flat.display()));
    let mut lines = engine.sync(1);
    lines.extend(engine.read_until(|l| thinking(l).is_some_and(|(depth, _, _)| depth >= 5)));
    let scores: Vec<(u32, i64, String)> = lines.iter().filter_map(|l| thinking(l)).collect();
    let restart = scores.iter().rposition(|(depth, _, _)| *depth == 1).unwrap_or_else(|| panic!("{lines:?}"));
    assert!(scores[restart..].iter().all(|(_, score, _)| score.abs() == 55), "{scores:?}");

    // A chess network is no xiangqi network: refused by name, the flat one stays.
    engine.send(&format!("option EvalFile={}", chess.display()));
    let mut answer = engine.sync(2);
    let told = answer.iter().find(|l| l.starts_with("tellusererror ")).unwrap_or_else(|| panic!("{answer:?}"));
    assert!(told.contains(&chess.display().to_string()) && told.contains("a chess network"), "{told}");
    answer.extend(engine.read_until(|l| thinking(l).is_some_and(|(depth, _, _)| depth >= 4)));
    let last = answer.iter().rev().find_map(|l| thinking(l)).unwrap();
    assert_eq!(last.1.abs(), 55, "{answer:?}");
    engine.send("exit");
    engine.sync(3);
}
