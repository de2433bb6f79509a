use std::sync::Arc;

use plugboard_plugin_api::{BoardEvaluate, BoardPosition, EvalPlugin, Variant};
use plugboard_xiangqi::{MoveList, Position};

use super::*;
use crate::{
    XiangqiEvaluator,
    network::{BUCKETS, MAX_INPUT_BIAS, MAX_INPUT_WEIGHT, MAX_OUTPUT_WEIGHT},
    xiangqi::features::{FILES, INPUTS, RANKS},
};

/// A xiangqi network with weights spread over their whole allowed range.
fn network(hidden: usize, seed: u64) -> Arc<Network> {
    let mut state = seed;
    let mut next = move |bound: i16| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 33) % (2 * bound as u64 + 1)) as i16 - bound
    };
    let input_weights = (0..INPUTS * hidden).map(|_| next(MAX_INPUT_WEIGHT)).collect();
    let input_bias = (0..hidden).map(|_| next(MAX_INPUT_BIAS)).collect();
    let output_weights = (0..BUCKETS * 2 * hidden).map(|_| next(MAX_OUTPUT_WEIGHT)).collect();
    let output_bias = (0..BUCKETS as i32).map(|b| 2345 - 511 * b).collect();
    let network = Network::for_game(Game::Xiangqi, hidden, 400, input_weights, input_bias, output_weights, output_bias);
    Arc::new(network.unwrap())
}

/// Positions along a game of pseudo-random legal moves, captures preferred.
fn game(seed: u64, plies: usize) -> Vec<(Position, plugboard_xiangqi::Move)> {
    let mut position = Position::start();
    let mut state = seed;
    let mut line = Vec::new();
    for _ in 0..plies {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let captures: Vec<_> = moves.iter().copied().filter(|&m| position.is_capture(m)).collect();
        let pool: Vec<_> = if !captures.is_empty() && state >> 62 != 0 { captures } else { moves.to_vec() };
        let chosen = pool[(state >> 33) as usize % pool.len()];
        line.push((position.clone(), chosen));
        position = position.after(chosen);
    }
    line
}

fn fresh_score(network: &Arc<Network>, board: &BoardPosition) -> i32 {
    XiangqiEvaluator::new(Arc::clone(network)).evaluate(board)
}

/// The same position seen from the other side: the board turned top to bottom,
/// the colours swapped, the other side to move.
fn mirrored(board: &BoardPosition) -> BoardPosition {
    let mut other = BoardPosition::empty(Variant::XIANGQI, FILES as u8, RANKS as u8);
    for color in 0..2u8 {
        for square in board.squares_of(color) {
            let piece = board.piece_at(square).unwrap();
            let (file, rank) = (BoardPosition::file_of(square), BoardPosition::rank_of(square));
            let to = BoardPosition::square(file, RANKS as u8 - 1 - rank);
            other.put(to, Some(plugboard_plugin_api::BoardPiece::new(piece.kind(), color ^ 1)));
        }
    }
    other.side_to_move = board.side_to_move ^ 1;
    other
}

#[test]
fn the_embedded_network_loads_and_is_a_xiangqi_network() {
    let network = default_network().expect("the embedded xiangqi network loads");
    assert_eq!(network.game(), Game::Xiangqi);
    assert!(XiangqiNnue::new_board_evaluator(Variant::XIANGQI).is_ok());
    assert!(XiangqiNnue::new_board_evaluator(Variant::DEFINED).is_err());
}

#[test]
fn a_position_and_its_colour_swapped_mirror_score_the_same_for_their_sides() {
    let network = network(32, 5);
    let mut scores = std::collections::HashSet::new();
    for (position, _) in game(3, 160) {
        let board = position.to_board_position();
        let score = fresh_score(&network, &board);
        assert_eq!(score, fresh_score(&network, &mirrored(&board)), "{board:?}");
        scores.insert(score);
    }
    assert!(scores.len() > 10, "a network that scores every position alike proves nothing: {scores:?}");
}

#[test]
fn scores_kept_up_by_make_and_unmake_equal_scores_from_scratch() {
    let network = network(48, 11);
    let line = game(7, 200);
    let mut evaluator = XiangqiEvaluator::new(Arc::clone(&network));
    evaluator.reset(&line[0].0.to_board_position());
    for (position, m) in &line {
        let board = position.to_board_position();
        assert_eq!(evaluator.evaluate(&board), fresh_score(&network, &board));
        // A move made and taken back, then the move of the game.
        let after = position.after(*m).to_board_position();
        evaluator.on_make(m.to_plugin(), &after);
        assert_eq!(evaluator.evaluate(&after), fresh_score(&network, &after));
        evaluator.on_unmake();
        assert_eq!(evaluator.evaluate(&board), fresh_score(&network, &board));
        evaluator.on_make(m.to_plugin(), &after);
    }
}

#[test]
fn eval_file_takes_xiangqi_networks_and_refuses_a_chess_one_by_name() {
    let folder = std::env::temp_dir().join(format!("plugboard-xiangqi-nnue-test-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let good = folder.join("mine.nnue");
    let other = network(32, 77);
    std::fs::write(&good, other.to_bytes()).unwrap();
    let chess = folder.join("chess.nnue");
    std::fs::write(&chess, crate::DEFAULT_NETWORK).unwrap();
    let start = Position::start().to_board_position();

    XiangqiNnue::set_option("EvalFile", good.to_str().unwrap()).expect("a xiangqi network loads");
    let score = |_: ()| current_network().map(|network| fresh_score(&network, &start)).unwrap();
    let loaded = score(());
    assert_eq!(loaded, fresh_score(&other, &start));

    let refusal = XiangqiNnue::set_option("EvalFile", chess.to_str().unwrap()).expect_err("a chess network");
    assert!(refusal.contains(chess.to_str().unwrap()), "{refusal}");
    assert!(refusal.contains("a chess network") && refusal.contains("a xiangqi network is expected"), "{refusal}");
    assert_eq!(score(()), loaded, "the network in use stays");
    // And the chess plugin refuses a xiangqi network the same way.
    let refusal = crate::Nnue::set_option("EvalFile", good.to_str().unwrap()).expect_err("a xiangqi network");
    assert!(refusal.contains("a xiangqi network") && refusal.contains("a chess network is expected"), "{refusal}");

    XiangqiNnue::set_option("EvalFile", "").expect("back to the embedded network");
    assert_eq!(current_network().unwrap().as_ref(), &default_network().unwrap());
    let _ = std::fs::remove_dir_all(&folder);
}
