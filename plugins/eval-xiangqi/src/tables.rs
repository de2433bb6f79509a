//! Material and piece-square values, in centipawns of a soldier at home (100).
//!
//! Each table is drawn as Red sees the board: its first row is rank 9 (Black's
//! back rank), its last rank 0 (Red's); Black reads it upside down. The values
//! are this project's own starting point, written from the game's well-known
//! principles (soldiers gain across the river and near the palace, horses want
//! the centre and the enemy palace, cannons the central file, chariots the open
//! files and the enemy's second rank, the general stays home), to be tuned by
//! matches.

use plugboard_plugin_api::BoardKind;

/// By [`BoardKind`] code: soldier, advisor, elephant, horse, cannon, chariot, general.
pub const MATERIAL: [i32; 8] = [0, 100, 200, 200, 400, 450, 900, 0];

type Table = [[i32; 9]; 10];

#[rustfmt::skip]
const SOLDIER: Table = [
    [  0,  10,  20,  30,  40,  30,  20,  10,   0],
    [ 80, 100, 120, 150, 170, 150, 120, 100,  80],
    [ 80, 100, 120, 140, 150, 140, 120, 100,  80],
    [ 80,  90, 110, 120, 130, 120, 110,  90,  80],
    [ 70,  80,  90, 100, 110, 100,  90,  80,  70],
    [  0,   0,  -5,   0,  10,   0,  -5,   0,   0],
    [  0,   0,   0,   0,   5,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0,   0,   0,   0,   0],
];

#[rustfmt::skip]
const ADVISOR: Table = [
    [0, 0, 0,  0,  0,  0, 0, 0, 0],
    [0, 0, 0,  0,  0,  0, 0, 0, 0],
    [0, 0, 0,  0,  0,  0, 0, 0, 0],
    [0, 0, 0,  0,  0,  0, 0, 0, 0],
    [0, 0, 0,  0,  0,  0, 0, 0, 0],
    [0, 0, 0,  0,  0,  0, 0, 0, 0],
    [0, 0, 0,  0,  0,  0, 0, 0, 0],
    [0, 0, 0, -5,  0, -5, 0, 0, 0],
    [0, 0, 0,  0, 10,  0, 0, 0, 0],
    [0, 0, 0,  0,  0,  0, 0, 0, 0],
];

#[rustfmt::skip]
const ELEPHANT: Table = [
    [  0, 0,  0, 0,  0, 0,  0, 0,   0],
    [  0, 0,  0, 0,  0, 0,  0, 0,   0],
    [  0, 0,  0, 0,  0, 0,  0, 0,   0],
    [  0, 0,  0, 0,  0, 0,  0, 0,   0],
    [  0, 0,  0, 0,  0, 0,  0, 0,   0],
    [  0, 0, -5, 0,  0, 0, -5, 0,   0],
    [  0, 0,  0, 0,  0, 0,  0, 0,   0],
    [-10, 0,  0, 0, 10, 0,  0, 0, -10],
    [  0, 0,  0, 0,  0, 0,  0, 0,   0],
    [  0, 0,  0, 0,  0, 0,  0, 0,   0],
];

#[rustfmt::skip]
const HORSE: Table = [
    [  0, -10,  10,  20,   0,  20,  10, -10,   0],
    [  0,  20,  30,  40,  20,  40,  30,  20,   0],
    [ 10,  30,  40,  50,  40,  50,  40,  30,  10],
    [ 10,  30,  40,  40,  40,  40,  40,  30,  10],
    [  5,  20,  30,  30,  30,  30,  30,  20,   5],
    [  0,  10,  20,  20,  20,  20,  20,  10,   0],
    [ -5,   5,  15,  10,  15,  10,  15,   5,  -5],
    [-10,   0,  10,  10,  10,  10,  10,   0, -10],
    [-10,  -5,   0,   0, -10,   0,   0,  -5, -10],
    [-20, -10,  -5,  -5, -10,  -5,  -5, -10, -20],
];

#[rustfmt::skip]
const CANNON: Table = [
    [10, 10,  0, -10, -15, -10,  0, 10, 10],
    [ 5,  5,  0,  -5, -10,  -5,  0,  5,  5],
    [ 5,  5,  5,   0,  10,   0,  5,  5,  5],
    [ 0,  5,  5,   5,  15,   5,  5,  5,  0],
    [ 0,  0,  5,   5,  15,   5,  5,  0,  0],
    [ 0,  5,  5,   5,  15,   5,  5,  5,  0],
    [ 0,  0,  0,   5,  10,   5,  0,  0,  0],
    [ 0,  5,  5,   5,  15,   5,  5,  5,  0],
    [ 0,  0,  5,   5,  10,   5,  5,  0,  0],
    [ 0,  0,  5,  10,  10,  10,  5,  0,  0],
];

#[rustfmt::skip]
const CHARIOT: Table = [
    [ 10, 15, 10, 20, 20, 20, 10, 15,  10],
    [ 15, 20, 20, 30, 30, 30, 20, 20,  15],
    [ 10, 15, 15, 25, 25, 25, 15, 15,  10],
    [ 10, 20, 20, 25, 25, 25, 20, 20,  10],
    [ 15, 20, 20, 25, 25, 25, 20, 20,  15],
    [ 10, 15, 15, 20, 20, 20, 15, 15,  10],
    [  5, 10, 10, 15, 15, 15, 10, 10,   5],
    [  0, 10,  5, 15, 10, 15,  5, 10,   0],
    [ -5,  5,  5, 10,  0, 10,  5,  5,  -5],
    [-10,  5,  0, 10,  0, 10,  0,  5, -10],
];

#[rustfmt::skip]
const GENERAL: Table = [
    [0, 0, 0,   0,   0,   0, 0, 0, 0],
    [0, 0, 0,   0,   0,   0, 0, 0, 0],
    [0, 0, 0,   0,   0,   0, 0, 0, 0],
    [0, 0, 0,   0,   0,   0, 0, 0, 0],
    [0, 0, 0,   0,   0,   0, 0, 0, 0],
    [0, 0, 0,   0,   0,   0, 0, 0, 0],
    [0, 0, 0,   0,   0,   0, 0, 0, 0],
    [0, 0, 0, -25, -20, -25, 0, 0, 0],
    [0, 0, 0, -15, -10, -15, 0, 0, 0],
    [0, 0, 0,  -5,   0,  -5, 0, 0, 0],
];

const TABLES: [&Table; 8] = [&[[0; 9]; 10], &SOLDIER, &ADVISOR, &ELEPHANT, &HORSE, &CANNON, &CHARIOT, &GENERAL];

/// Material plus place of a `kind` of piece of `color` (0 Red) on `file`, `rank`.
#[inline]
pub fn value(kind: BoardKind, color: u8, file: u8, rank: u8) -> i32 {
    let kind = usize::from(kind.0 & 7);
    // Row 0 of a table is the far side of the board from its owner.
    let row = if color == 0 { 9 - usize::from(rank) } else { usize::from(rank) };
    MATERIAL[kind] + TABLES[kind][row.min(9)][usize::from(file).min(8)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_are_symmetric_left_to_right() {
        for (kind, table) in TABLES.iter().enumerate() {
            for row in table.iter() {
                let mirrored: Vec<i32> = row.iter().rev().copied().collect();
                assert_eq!(row.to_vec(), mirrored, "kind {kind}");
            }
        }
    }

    #[test]
    fn a_soldier_gains_across_the_river_for_either_side() {
        let at_home = value(BoardKind::SOLDIER, 0, 4, 3);
        let across = value(BoardKind::SOLDIER, 0, 4, 5);
        assert!(across > at_home + 50, "{at_home} {across}");
        assert_eq!(value(BoardKind::SOLDIER, 1, 4, 6), at_home);
        assert_eq!(value(BoardKind::SOLDIER, 1, 4, 4), across);
    }
}
