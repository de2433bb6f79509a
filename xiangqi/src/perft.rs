//! Counting the leaves of the move tree, to prove the move generator against
//! another engine's counts.

use crate::{Move, MoveList, Position};

impl Position {
    /// The number of legal move sequences of `depth` plies from here.
    /// The last ply is counted, not played.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        let mut position = self.clone();
        count(&mut position, depth)
    }

    /// `perft(depth - 1)` after each legal move: the breakdown to compare
    /// with another engine's when totals differ.
    #[must_use]
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        let mut position = self.clone();
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        moves
            .iter()
            .map(|&m| {
                let undo = position.play(m);
                let nodes = count(&mut position, depth.saturating_sub(1));
                position.undo(m, undo);
                (m, nodes)
            })
            .collect()
    }
}

fn count(position: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &m in moves.iter() {
        let undo = position.play(m);
        nodes += count(position, depth - 1);
        position.undo(m, undo);
    }
    nodes
}
