use std::sync::Arc;

use cozy_chess::{Board, Color, Piece};
use plugboard_plugin_api::{EvalPlugin, Evaluate, Move, Position};

use super::*;
use crate::{
    features::{self, INPUTS},
    network::MAX_OUTPUT_WEIGHT,
};

fn position_of(board: &Board) -> Position {
    let bits = |b: cozy_chess::BitBoard| b.0;
    let [p, n, b, r, q, k] = [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen, Piece::King]
        .map(|piece| bits(board.pieces(piece)));
    let pieces = [bits(board.colors(Color::White)), bits(board.colors(Color::Black)), p, n, b, r, q, k];
    features::position_of(&pieces, u8::from(board.side_to_move() == Color::Black))
}

/// A network with weights spread over their whole allowed range.
fn network(hidden: usize, seed: u64) -> Arc<Network> {
    network_with_buckets(hidden, seed, 1)
}

fn network_with_buckets(hidden: usize, seed: u64, buckets: usize) -> Arc<Network> {
    let mut state = seed;
    let mut next = move |bound: i16| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 33) % (2 * bound as u64 + 1)) as i16 - bound
    };
    let input_weights = (0..INPUTS * hidden).map(|_| next(network::MAX_INPUT_WEIGHT)).collect();
    let input_bias = (0..hidden).map(|_| next(network::MAX_INPUT_BIAS)).collect();
    let output_weights = (0..buckets * 2 * hidden).map(|_| next(MAX_OUTPUT_WEIGHT)).collect();
    let output_bias = (0..buckets as i32).map(|b| 4321 - 997 * b).collect();
    Arc::new(Network::new(hidden, 400, input_weights, input_bias, output_weights, output_bias).unwrap())
}

/// Positions along a game of pseudo-random legal moves, with each move.
fn game(seed: u64, plies: usize) -> Vec<(Board, cozy_chess::Move)> {
    let mut board = Board::default();
    let mut state = seed;
    let mut line = Vec::new();
    for _ in 0..plies {
        let mut moves = Vec::new();
        board.generate_moves(|set| {
            moves.extend(set);
            false
        });
        if moves.is_empty() {
            break;
        }
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        // Prefer captures, so that the game reaches sparse, promoting endgames.
        let captures: Vec<_> = moves.iter().copied().filter(|m| board.color_on(m.to).is_some()).collect();
        let pool = if !captures.is_empty() && state >> 62 != 0 { &captures } else { &moves };
        let chosen = pool[(state >> 33) as usize % pool.len()];
        line.push((board.clone(), chosen));
        board.play(chosen);
    }
    line
}

fn api_move(m: cozy_chess::Move) -> Move {
    Move { from: m.from as u8, to: m.to as u8, promotion: Move::NO_PROMOTION, reserved: 0 }
}

fn fresh_score(network: &Arc<Network>, position: &Position) -> i32 {
    NnueEvaluator::new(Arc::clone(network)).evaluate(position)
}

#[test]
fn the_embedded_network_loads() {
    let network = default_network().expect("the embedded network");
    assert!(network.hidden() >= 16);
}

#[test]
fn scores_kept_up_by_make_and_unmake_equal_scores_from_scratch() {
    for (seed, network) in (1..=4).zip([network(64, 7), network_with_buckets(64, 7, network::BUCKETS)].iter().cycle()) {
        let line = game(seed, 300);
        let mut evaluator = NnueEvaluator::new(Arc::clone(network));
        evaluator.reset(&position_of(&line[0].0));
        for (board, chosen) in &line {
            let position = position_of(board);
            assert_eq!(evaluator.evaluate(&position), fresh_score(network, &position));
            // A side line of one move, taken back, as a search does.
            let mut child = board.clone();
            child.play(*chosen);
            evaluator.on_make(api_move(*chosen), &position_of(&child));
            assert_eq!(evaluator.evaluate(&position_of(&child)), fresh_score(network, &position_of(&child)));
            evaluator.on_unmake();
            assert_eq!(evaluator.evaluate(&position), fresh_score(network, &position));
            evaluator.on_make(api_move(*chosen), &position_of(&child));
        }
    }
}

#[test]
fn a_bucketed_network_scores_a_board_by_the_output_layer_of_its_piece_count() {
    // Output weights of zero and biases of `bucket` units: the score names the bucket.
    let output_bias = (0..network::BUCKETS as i32).map(|b| b * network::QA * network::QB).collect();
    let hidden = 16;
    let weights = vec![0; network::BUCKETS * 2 * hidden];
    let network =
        Arc::new(Network::new(hidden, 400, vec![0; INPUTS * hidden], vec![0; hidden], weights, output_bias).unwrap());
    let mut evaluator = NnueEvaluator::new(Arc::clone(&network));
    for (board, _) in game(3, 400) {
        let pieces = board.occupied().len();
        let expected = 400 * network::bucket(pieces, network::BUCKETS) as i32;
        assert_eq!(evaluator.evaluate(&position_of(&board)), expected, "{pieces} pieces");
    }
    let full = Board::default();
    assert_eq!(evaluator.evaluate(&position_of(&full)), 400 * 7);
}

#[test]
fn moves_made_without_evaluating_are_caught_up_when_a_position_is_evaluated() {
    // 48 and 80 hidden units: accumulators that end in a narrow tile.
    for hidden in [48, 80] {
        let network = network(hidden, 13);
        let line = game(9, 240);
        let mut evaluator = NnueEvaluator::new(Arc::clone(&network));
        evaluator.reset(&position_of(&line[0].0));
        for (ply, (board, chosen)) in line.iter().enumerate() {
            if ply % 5 == 0 {
                let position = position_of(board);
                assert_eq!(evaluator.evaluate(&position), fresh_score(&network, &position));
            }
            let mut child = board.clone();
            child.play(*chosen);
            evaluator.on_make(api_move(*chosen), &position_of(&child));
        }
        // Back down the line: some positions were filled on the way up, some never.
        for (ply, (board, _)) in line.iter().enumerate().rev() {
            evaluator.on_unmake();
            if ply % 3 == 0 {
                let position = position_of(board);
                assert_eq!(
                    evaluator.evaluate(&position),
                    fresh_score(&network, &position),
                    "hidden {hidden}, ply {ply}"
                );
            }
        }
    }
}

#[test]
fn an_evaluator_never_told_of_moves_still_scores_right() {
    let network = network(32, 11);
    let mut evaluator = NnueEvaluator::new(Arc::clone(&network));
    let mut boards: Vec<Board> = game(5, 200).into_iter().map(|(board, _)| board).collect();
    boards.reverse();
    for board in boards.iter().step_by(7) {
        let position = position_of(board);
        assert_eq!(evaluator.evaluate(&position), fresh_score(&network, &position));
    }
}

#[test]
fn the_vectorised_kernels_give_the_portable_scores() {
    let network = network_with_buckets(128, 3, network::BUCKETS);
    for (board, _) in game(9, 250) {
        let position = position_of(&board);
        let mut portable = NnueEvaluator::with_kernels(Arc::clone(&network), Kernels::portable());
        let mut detected = NnueEvaluator::new(Arc::clone(&network));
        assert_eq!(portable.evaluate(&position), detected.evaluate(&position));
    }
}

#[test]
fn a_position_and_its_colour_flipped_mirror_score_the_same() {
    let network = network(48, 21);
    for (board, _) in game(13, 120) {
        let position = position_of(&board);
        let flip = |b: u64| b.swap_bytes();
        let mirrored = Position {
            colors: [flip(position.colors[1]), flip(position.colors[0])],
            pieces: position.pieces.map(flip),
            side_to_move: position.side_to_move ^ 1,
            ..position
        };
        assert_eq!(fresh_score(&network, &position), fresh_score(&network, &mirrored));
    }
}

#[test]
fn eval_file_loads_a_network_and_a_bad_file_leaves_the_one_in_use() {
    let folder = std::env::temp_dir().join(format!("plugboard-nnue-test-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let good = folder.join("other.nnue");
    let other = network(32, 99);
    std::fs::write(&good, other.to_bytes()).unwrap();
    let bad = folder.join("weights.txt");
    std::fs::write(&bad, "these are not the weights you are looking for, but long enough for a header").unwrap();
    let start = position_of(&Board::default());

    Nnue::set_option("EvalFile", good.to_str().unwrap()).expect("a good network loads");
    let score = Nnue::new_evaluator().unwrap().evaluate(&start);
    assert_eq!(score, fresh_score(&other, &start));

    for (path, expected) in [
        (bad.clone(), "not a Plugboard network"),
        (folder.clone(), "not a regular file"),
        (folder.join("missing.nnue"), "No such file"),
    ] {
        let refusal = Nnue::set_option("EvalFile", path.to_str().unwrap()).expect_err("a bad file is refused");
        assert!(refusal.contains(path.to_str().unwrap()) && refusal.contains(expected), "{refusal}");
        assert!(refusal.contains("the network in use stays"), "{refusal}");
        assert_eq!(Nnue::new_evaluator().unwrap().evaluate(&start), score, "the loaded network stays");
    }
    let mut truncated = other.to_bytes();
    truncated.truncate(truncated.len() / 2);
    std::fs::write(&good, truncated).unwrap();
    let refusal = Nnue::set_option("EvalFile", good.to_str().unwrap()).expect_err("a truncated file is refused");
    assert!(refusal.contains("truncated"), "{refusal}");

    Nnue::set_option("EvalFile", "").expect("back to the embedded network");
    assert_eq!(current_network().unwrap().as_ref(), &default_network().unwrap());
    let _ = std::fs::remove_dir_all(&folder);
}
