//! Chu shogi as xboard referees it: promotion once, on entering the zone or
//! taking in it; the horned falcon's and soaring eagle's lion steps; the
//! crown prince as a second king; the lion trading rules with chu's bridges.

use plugboard_variants::Position;

use super::{assert_moves, position_in};

fn chu(fen: &str) -> Position {
    position_in("chu", fen)
}

#[test]
fn a_piece_promotes_once_on_entering_the_zone_or_taking_in_it() {
    // White silvers on d8 (short of the zone, ranks 9 to 12) and h9 (in it), a
    // vertical mover on b8 that was a silver; black pawns on g10 and i8.
    let fen = "6k5/12/6p5/7S4/1+S1S4p3/12/12/12/12/12/12/5K6 w - - 0 1";
    assert_moves(
        &mut chu(fen),
        &["d8d9+", "d8d9", "d8e9+", "h9h10", "h9g10+", "h9g10", "h9i8+", "h9i8", "h9g8", "b8b9", "b8b12"],
        // Quiet moves inside or out of the zone, and a second promotion.
        &["h9h10+", "h9g8+", "d8d7+", "b8b9+"],
    );
    let mut position = chu(fen);
    let m = position.parse_move("d8d9+").unwrap();
    position.play(m);
    assert!(position.fen().starts_with("6k5/12/6p5/3+S3S4/"), "{}", position.fen());
}

#[test]
fn the_horned_falcon_and_the_soaring_eagle_have_the_lions_steps_ahead() {
    // A horned falcon on e5 with black pawns on e6 and e7.
    assert_moves(
        &mut chu("6k5/12/12/12/12/4p7/4p7/4+H7/12/12/12/5K6 w - - 0 1"),
        &["e5e6,e6e7", "e5e6,e6e5", "e5e6", "e5e7", "e5d6", "e5e4", "e5a5"],
        &["e5e6,e6d7", "e5e6,e6f6", "e5e8"],
    );
    // A soaring eagle on e5 with a black pawn on f6: it takes and goes on,
    // takes and comes back, leaps, or passes by the empty d6.
    assert_moves(
        &mut chu("6k5/12/12/12/12/12/5p6/4+D7/12/12/12/5K6 w - - 0 1"),
        &["e5f6,f6g7", "e5f6,f6e5", "e5f6", "e5g7", "e5c7", "e5d6,d6e5", "e5e12", "e5a1"],
        &["e5f6,f6g6", "e5b8", "e5h8"],
    );
}

#[test]
fn a_crown_prince_is_a_second_king() {
    // White's king on f1 and crown prince on a1; Black's rook on f11 attacks the king.
    let mut position = chu("6k5/5r6/12/12/12/12/12/12/12/12/12/+E4K6 w - - 0 1");
    assert!(!position.in_check(), "with two royal pieces neither is in check");
    let m = position.parse_move("a1a2").unwrap();
    position.play(m);
    let m = position.parse_move("f11f1").unwrap();
    position.play(m);
    assert_eq!(position.outcome(), None, "the prince plays on");
    // Now the prince is the last: it may not step into the rook's file.
    assert!(position.parse_move("a2b2").is_ok());
    let m = position.parse_move("a2a3").unwrap();
    position.play(m);
    let m = position.parse_move("f1a1").unwrap();
    position.play(m);
    assert!(position.in_check());
}

#[test]
fn a_go_between_is_no_bridge_to_a_protected_lion() {
    // White's lion on d4; Black's lion on d6, protected by a gold on e7.
    let with_go_between = "6k5/12/12/12/12/4g7/3n8/3i8/3N8/12/12/5K6 w - - 0 1";
    assert_moves(&mut chu(with_go_between), &["d4d5", "d4d5,d5d4"], &["d4d6", "d4d5,d5d6"]);
    // Over a silver, the trade is allowed.
    let with_silver = "6k5/12/12/12/12/4g7/3n8/3s8/3N8/12/12/5K6 w - - 0 1";
    assert_moves(&mut chu(with_silver), &["d4d5,d5d6"], &["d4d6"]);
}

#[test]
fn fifty_moves_count_from_the_last_pawn_move_or_capture_as_xboard_counts_them() {
    // A gold's step counts on; a pawn's step starts the count again.
    let fen = "6k5/12/12/12/12/12/12/4P7/12/12/12/5KG5 w - - 40 30";
    let mut position = chu(fen);
    assert_eq!(position.variant().n_move_rule, 50);
    let gold = position.parse_move("g1g2").unwrap();
    position.play(gold);
    assert_eq!(position.halfmoves(), 41);
    let mut position = chu(fen);
    let pawn = position.parse_move("e5e6").unwrap();
    position.play(pawn);
    assert_eq!(position.halfmoves(), 0);
}
