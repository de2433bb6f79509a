//! The lion's moves of two legs and the rules that keep lions from being
//! traded off, as xboard referees Mighty Lion chess.

use plugboard_variants::{Move, Position};

use super::{legal_texts as legal, position_in};

fn lion(fen: &str) -> Position {
    position_in("lion", fen)
}

fn play(position: &mut Position, text: &str) -> Move {
    let m = position.parse_move(text).unwrap_or_else(|why| panic!("{text}: {why} in {}", position.fen()));
    position.play(m);
    m
}

#[test]
fn the_lion_takes_twice_hits_and_runs_and_takes_without_moving() {
    // Two black pawns in a column in front of the white lion.
    let fen = "4k3/8/3p4/3p4/3L4/8/8/4K3 w - - 0 1";
    let mut position = lion(fen);
    let moves = legal(&mut position);
    for wanted in ["d4d5,d5d6", "d4d5,d5d4", "d4d5,d5c6", "d4d5,d5e4", "d4d5", "d4d6", "d4b6", "d4f2"] {
        assert!(moves.contains(&wanted.to_string()), "{wanted} missing from {moves:?}");
    }
    assert!(!moves.contains(&"d4d5,d5d5".to_string()));
    // Both pawns gone, the lion on d6.
    play(&mut position, "d4d5,d5d6");
    assert_eq!(position.fen(), "4k3/8/3L4/8/8/8/8/4K3 b - - 0 1");
    // Igui: the pawn on d5 gone, the lion home again; one pass a position.
    let mut position = lion(fen);
    play(&mut position, "d4d5,d5d4");
    assert_eq!(position.fen(), "4k3/8/3p4/8/3L4/8/8/4K3 b - - 0 1");
    let mut position = lion(fen);
    let passes: Vec<String> =
        legal(&mut position).into_iter().filter(|text| text.starts_with("d4") && text.ends_with("d4")).collect();
    assert_eq!(passes.len(), 2, "igui and one pass: {passes:?}");
    // A pass is named by any empty square it goes out to, or as the null move.
    let before = position.fen();
    let m = play(&mut position, "d4e3,e3d4");
    assert_eq!((m.from, m.to), (m.from, m.from));
    // xboard counts a move of two legs as a capture, so a pass starts the
    // 50-move count again.
    assert_eq!(position.fen(), before.replace(" w ", " b "));
    let mut position = lion(fen);
    assert_eq!(position.parse_move("@@@@"), position.parse_move("d4c3,c3d4"));
    // xboard relays black's pass `d5d4,d4d5` as if it were castling.
    let mut position = lion("4k3/8/8/3l4/8/8/8/4K3 b - - 0 1");
    let pass = position.parse_move("d5d4,d4d5");
    assert!(pass.is_ok());
    assert_eq!(position.parse_move("d5d5,d4c5"), pass);
    assert_eq!(position.parse_move("e8e8,d4c5"), Err("not legal in this position"));
    assert_eq!(position.parse_move("d5d5,d6c5"), pass);
    assert_eq!(position.parse_move("d5d5,e8d8"), Err("not a move"));
    // With no square to go out to, no pass.
    let mut boxed = lion("4k3/8/8/8/8/8/PPP5/LPP1K3 w - - 0 1");
    assert_eq!(boxed.parse_move("@@@@"), Err("not legal in this position"));
    // Taking back a move of legs puts both pieces back.
    let mut position = lion(fen);
    let m = position.parse_move("d4d5,d5e6").unwrap();
    let undo = position.play(m);
    position.undo(m, undo);
    assert_eq!(position.fen(), fen);
}

#[test]
fn a_lion_may_not_take_a_distant_lion_that_is_protected() {
    // The black lion on d6 is protected by the pawn on e7.
    let mut position = lion("4k3/4p3/3l4/8/3L4/8/8/4K3 w - - 0 1");
    assert_eq!(position.parse_move("d4d6"), Err("not legal in this position"));
    // Protected by the king alone, it may be taken: a king's recapture does not count here.
    let mut position = lion("8/4k3/3l4/8/3L4/8/8/4K3 w - - 0 1");
    play(&mut position, "d4d6");
    // Taking a knight on the way pays for the trade; a pawn does not.
    let mut position = lion("4k3/4p3/3l4/3n4/3L4/8/8/4K3 w - - 0 1");
    play(&mut position, "d4d5,d5d6");
    let mut position = lion("4k3/4p3/3l4/3p4/3L4/8/8/4K3 w - - 0 1");
    assert_eq!(position.parse_move("d4d5,d5d6"), Err("not legal in this position"));
    // Beside it, the lion takes the other whatever protects it.
    let mut position = lion("4k3/4p3/3l4/3L4/8/8/8/4K3 w - - 0 1");
    play(&mut position, "d5d6");
}

#[test]
fn a_lion_taken_by_another_piece_is_not_avenged_at_once_on_a_lion() {
    // The rook takes the black lion; the bishop may not take the white lion
    // now, but may move, and may take it a move later.
    let mut position = lion("4k3/8/8/7b/3l4/5L2/8/3RK3 w - - 0 1");
    play(&mut position, "d1d4");
    assert!(position.lion_shield());
    assert_eq!(position.parse_move("h5f3"), Err("not legal in this position"));
    play(&mut position, "h5g6");
    play(&mut position, "d4d1");
    play(&mut position, "g6h5");
    play(&mut position, "e1e2");
    play(&mut position, "h5f3");
    // A lion that takes a lion leaves the other side free to retake.
    let mut position = lion("4k3/8/8/7b/3l4/5L2/8/4K3 w - - 0 1");
    play(&mut position, "f3d4");
    assert!(!position.lion_shield());
}
