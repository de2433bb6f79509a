//! The xiangqi network's inputs: one per (colour, kind, point), 1260 in all,
//! seen from each side. From the second player's (Black's) side the ranks are
//! mirrored and the colours swapped, so one set of weights serves both, and a
//! position and its mirror image with the colours swapped score the same for
//! their sides to move.

use plugboard_plugin_api::{BoardKind, BoardPiece, BoardPosition, Variant};

pub const FILES: usize = 9;
pub const RANKS: usize = 10;
pub const POINTS: usize = FILES * RANKS;
/// Soldier, advisor, elephant, horse, cannon, chariot, general: [`BoardKind`]'s codes 1 to 7.
pub const KINDS: usize = 7;
/// Inputs per perspective: 2 colours × 7 kinds × 90 points.
pub const INPUTS: usize = 2 * KINDS * POINTS;
/// The most pieces a xiangqi position holds.
pub const MAX_ACTIVE: usize = 32;

/// A board as the inputs read it: each point's (rank × 9 + file, rank 0 Red's
/// back rank) piece, 0 for none, else 1 + colour × 7 + kind (kind 0 to 6 as
/// [`KINDS`] lists them).
pub type Points = [u8; POINTS];

/// The input for a `color` (0 Red, 1 Black) piece of `kind` on `point`, seen by `perspective`.
#[inline(always)]
pub fn index(perspective: usize, color: usize, kind: usize, point: usize) -> usize {
    let (own, point) = if perspective == 0 { (color, point) } else { (color ^ 1, mirror(point)) };
    own * KINDS * POINTS + kind * POINTS + point
}

/// The point the other side's view puts `point` on: the same file, the rank counted from the other end.
#[inline(always)]
pub fn mirror(point: usize) -> usize {
    (RANKS - 1 - point / FILES) * FILES + point % FILES
}

/// A point's code as (colour, kind); `None` for an empty point or a code no piece has.
#[inline(always)]
pub fn decode(code: u8) -> Option<(usize, usize)> {
    let code = usize::from(code);
    (1..=2 * KINDS).contains(&code).then(|| ((code - 1) / KINDS, (code - 1) % KINDS))
}

#[inline(always)]
pub fn encode(color: usize, kind: usize) -> u8 {
    (1 + color * KINDS + kind) as u8
}

/// The board of a xiangqi position (9 files, 10 ranks); pieces of kinds
/// xiangqi has not, or off its board, are not read.
pub fn points_of(position: &BoardPosition) -> Points {
    let mut points = [0u8; POINTS];
    for color in 0..2u8 {
        for square in position.squares_of(color) {
            let (file, rank) = (BoardPosition::file_of(square) as usize, BoardPosition::rank_of(square) as usize);
            let Some(piece) = position.piece_at(square) else { continue };
            let kind = piece.kind().0 as usize;
            if file < FILES && rank < RANKS && (1..=KINDS).contains(&kind) {
                points[rank * FILES + file] = encode(usize::from(color), kind - 1);
            }
        }
    }
    points
}

/// A xiangqi position with these pieces and side to move, and nothing else known.
pub fn position_of(points: &Points, side_to_move: u8) -> BoardPosition {
    let mut board = BoardPosition::empty(Variant::XIANGQI, FILES as u8, RANKS as u8);
    for (color, kind, point) in each_piece(points) {
        let square = BoardPosition::square((point % FILES) as u8, (point / FILES) as u8);
        board.put(square, Some(BoardPiece::new(BoardKind(kind as u8 + 1), color as u8)));
    }
    board.side_to_move = side_to_move;
    board
}

/// The kind of BoardKind code `kind` (0 to 6), for tests and tools.
pub fn kind_of(kind: BoardKind) -> Option<usize> {
    (1..=KINDS as u8).contains(&kind.0).then(|| usize::from(kind.0) - 1)
}

/// Every piece as (colour, kind, point).
pub fn each_piece(points: &Points) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    points.iter().enumerate().filter_map(|(point, &code)| decode(code).map(|(color, kind)| (color, kind, point)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_sees_the_board_as_red_does_with_the_colours_swapped() {
        // Red's general on e0 for Red is Black's general on e9 for Black.
        assert_eq!(index(0, 0, 6, 4), index(1, 1, 6, 85));
        assert_eq!(mirror(mirror(37)), 37);
        let all: std::collections::HashSet<usize> =
            (0..2).flat_map(|c| (0..KINDS).flat_map(move |k| (0..POINTS).map(move |p| index(1, c, k, p)))).collect();
        assert_eq!(all.len(), INPUTS);
        assert!(all.iter().all(|&i| i < INPUTS));
        let mut points = [0u8; POINTS];
        points[4] = encode(0, 6);
        points[85] = encode(1, 6);
        points[40] = encode(1, 5);
        assert_eq!(points_of(&position_of(&points, 1)), points);
        for code in 0..=15u8 {
            assert_eq!(decode(code).map(|(c, k)| encode(c, k)), (1..=14).contains(&code).then_some(code));
        }
    }
}
