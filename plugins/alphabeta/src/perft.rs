//! Perft: counts the leaf nodes of the legal move tree, to check the move generator.

use cozy_chess::Board;

/// The number of legal move sequences of `depth` plies from `board`.
/// The last ply is counted in bulk, without playing the moves.
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut count = 0;
            board.generate_moves(|moves| {
                count += moves.len() as u64;
                false
            });
            count
        }
        _ => {
            let mut count = 0;
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    count += perft(&child, depth - 1);
                }
                false
            });
            count
        }
    }
}
