//! Elven chess as xboard referees it: crowning on entering the zone (the
//! knight becoming the lion), the pawn's choice of a lion while its side has
//! none, and each king's castling three squares.

use plugboard_variants::{Catalog, Position};

use super::{assert_moves, position_in};

fn elven(fen: &str) -> Position {
    position_in("elven", fen)
}

fn after(fen: &str, text: &str) -> String {
    let mut position = elven(fen);
    let m = position.parse_move(text).unwrap_or_else(|why| panic!("{text}: {why} in {fen}"));
    position.play(m);
    position.fen()
}

/// White: bishops on c4 and b7 (inside the zone), a knight on b5, a pawn on h6.
const CROWNING: &str = "4k5/10/1B8/7P2/1N8/2B7/10/10/10/R4K3R w KQ - 0 1";

#[test]
fn pieces_are_crowned_only_on_entering_the_zone() {
    let mut position = elven(CROWNING);
    assert_moves(
        &mut position,
        &["c4f7+", "c4f7", "c4d5", "b7c8", "b7a6", "b5a7+", "b5a7", "b5d6"],
        // Inside the zone, out of it, and short of it: no crowning.
        &["b7c8+", "b7a6+", "c4d5+", "b5d6+", "b7c8b"],
    );
    assert_eq!(after(CROWNING, "c4f7+"), "4k5/10/1B3+B4/7P2/1N8/10/10/10/10/R4K3R b KQ - 1 1");
    // The crowned knight is the lion itself, written L as xboard writes it.
    assert_eq!(after(CROWNING, "b5a7+"), "4k5/10/LB8/7P2/10/2B7/10/10/10/R4K3R b KQ - 1 1");
    assert_eq!(after(CROWNING, "b5a7"), "4k5/10/NB8/7P2/10/2B7/10/10/10/R4K3R b KQ - 1 1");
}

#[test]
fn a_pawn_entering_the_zone_must_promote_and_may_choose_a_lion() {
    let mut position = elven(CROWNING);
    assert_moves(&mut position, &["h6h7q", "h6h7r", "h6h7b", "h6h7n", "h6h7l"], &["h6h7", "h6h7+", "h6h7m"]);
    assert_eq!(after(CROWNING, "h6h7l"), "4k5/10/1B5L2/10/1N8/2B7/10/10/10/R4K3R b KQ - 0 1");
}

#[test]
fn a_side_with_a_lion_gets_no_second_one() {
    let fen = "4k5/10/10/4P5/1N8/10/10/L9/10/5K4 w - - 0 1";
    let mut position = elven(fen);
    assert_moves(&mut position, &["b5a7", "b5c7", "e6e7q", "e6e7n"], &["b5a7+", "b5c7+", "e6e7l"]);
    assert!(position.parse_move("b5c7+").is_err());
}

#[test]
fn kings_castle_three_squares_from_their_own_files() {
    assert_moves(&mut elven(CROWNING), &["f0i0", "f0c0"], &["f0h0", "f0d0"]);
    assert_eq!(after(CROWNING, "f0i0"), "4k5/10/1B8/7P2/1N8/2B7/10/10/10/R6RK1 b - - 1 1");
    assert_eq!(after(CROWNING, "f0c0"), "4k5/10/1B8/7P2/1N8/2B7/10/10/10/2KR5R b - - 1 1");
    // Black's king, on e9, where a position gives it the rights xboard's start does not.
    let black = "r3k4r/10/10/10/10/10/10/10/10/5K4 b kq - 0 1";
    assert_moves(&mut elven(black), &["e9h9", "e9b9"], &["e9g9", "e9c9"]);
    assert_eq!(after(black, "e9h9"), "r5rk2/10/10/10/10/10/10/10/10/5K4 w - - 1 2");
    assert_eq!(after(black, "e9b9"), "1kr6r/10/10/10/10/10/10/10/10/5K4 w - - 1 2");
    // The start gives black none, as xboard 4.9.1 does.
    let start = Catalog::builtin().get("elven").unwrap().start_fen.clone();
    assert!(start.contains(" w KQ - "), "{start}");
}

#[test]
fn a_crowning_is_written_the_same_from_any_position() {
    // A line of moves is written from the position it starts in.
    let mut position = elven(CROWNING);
    let crowning = position.parse_move("c4f7+").unwrap();
    let start = Position::start(Catalog::builtin().get("elven").unwrap().clone()).unwrap();
    assert_eq!(start.move_text(crowning), "c4f7+");
    let knight = position.parse_move("b5a7+").unwrap();
    assert_eq!(start.move_text(knight), "b5a7+");
}
