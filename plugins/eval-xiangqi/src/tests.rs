use plugboard_plugin_api::{BoardPiece, EVAL_LIMIT};

use super::*;

/// The xiangqi start, from rank 0 (Red's back rank) up.
fn start() -> BoardPosition {
    let mut board = BoardPosition::empty(Variant::XIANGQI, 9, 10);
    let back = [
        BoardKind::CHARIOT,
        BoardKind::HORSE,
        BoardKind::ELEPHANT,
        BoardKind::ADVISOR,
        BoardKind::GENERAL,
        BoardKind::ADVISOR,
        BoardKind::ELEPHANT,
        BoardKind::HORSE,
        BoardKind::CHARIOT,
    ];
    for color in 0..2u8 {
        let rank = |r: u8| if color == 0 { r } else { 9 - r };
        for (file, &kind) in back.iter().enumerate() {
            board.put(BoardPosition::square(file as u8, rank(0)), Some(BoardPiece::new(kind, color)));
        }
        for file in [1, 7] {
            board.put(BoardPosition::square(file, rank(2)), Some(BoardPiece::new(BoardKind::CANNON, color)));
        }
        for file in [0, 2, 4, 6, 8] {
            board.put(BoardPosition::square(file, rank(3)), Some(BoardPiece::new(BoardKind::SOLDIER, color)));
        }
    }
    board
}

fn evaluate(position: &BoardPosition) -> i32 {
    let source = XiangqiPst::module().board_source().expect("a board evaluation");
    source.create(Variant::XIANGQI).unwrap().evaluate(position)
}

#[test]
fn the_start_is_level_but_for_the_move() {
    let mut position = start();
    assert!(position.is_consistent());
    assert_eq!(evaluate(&position), TEMPO);
    position.side_to_move = 1;
    assert_eq!(evaluate(&position), TEMPO);
}

#[test]
fn a_chariot_more_is_worth_about_a_chariot_to_either_side() {
    let mut position = start();
    position.put(BoardPosition::square(0, 9), None);
    let red = evaluate(&position);
    assert!((800..=EVAL_LIMIT).contains(&(red - TEMPO)), "{red}");
    position.side_to_move = 1;
    assert_eq!(evaluate(&position), -red + 2 * TEMPO);
}

#[test]
fn a_central_cannon_and_a_soldier_across_the_river_are_better_placed() {
    let before = evaluate(&start());
    // h2e2, the central cannon.
    let mut position = start();
    position.put(BoardPosition::square(7, 2), None);
    position.put(BoardPosition::square(4, 2), Some(BoardPiece::new(BoardKind::CANNON, 0)));
    assert!(evaluate(&position) > before);
    let mut position = start();
    position.put(BoardPosition::square(4, 3), None);
    position.put(BoardPosition::square(4, 5), Some(BoardPiece::new(BoardKind::SOLDIER, 0)));
    assert!(evaluate(&position) > before + 50);
}

#[test]
fn it_scores_xiangqi_only() {
    let module = XiangqiPst::module();
    assert!(module.source().create().is_err());
    assert!(module.board_source().unwrap().create(Variant::CHESS).is_err());
    assert!(XiangqiPst::info().evaluates_variant("xiangqi"));
    assert!(!XiangqiPst::info().evaluates_variant("normal"));
}
