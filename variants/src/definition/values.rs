//! What each kind of piece is worth, worked out from how it moves, as
//! Fairy-Max and Fairy-Stockfish do for pieces they have no table for: its
//! average mobility over the board, a slide counted less with each square
//! (pieces stand in the way), moves that only take or only go counted half,
//! and the total weighed so that chess's pieces come out near their usual values.

use super::Variant;
use crate::betza::{Hop, Ray};

/// How much of the next square of a slide is counted: the chance it is reached.
const SLIDE_DECAY: f64 = 0.7;
/// What a pawn is worth, and anything that promotes like one.
pub const PAWN: i32 = 100;

/// How much `rays` reach from (`file`, `rank`) on an empty `files` × `ranks`
/// board: each square a slide reaches counted less than the one before, moves
/// that only take or only go counted half, lame leaps and hops counted less.
#[must_use]
pub fn reach(rays: &[Ray], file: i32, rank: i32, files: i32, ranks: i32) -> f64 {
    let mut total = 0.0;
    for ray in rays.iter().filter(|ray| !ray.initial) {
        let weight = match (ray.moves(), ray.captures()) {
            (true, true) => 1.0,
            _ => 0.5,
        } * if ray.lame_len > 0 { 0.8 } else { 1.0 }
            * if ray.hop == Hop::No { 1.0 } else { 0.5 };
        let limit = if ray.range == 0 { 16 } else { i32::from(ray.range) };
        let (mut x, mut y) = (file, rank);
        let mut reached = 1.0;
        for _ in 0..limit {
            x += i32::from(ray.df);
            y += i32::from(ray.dr);
            if ray.wraps {
                x = x.rem_euclid(files);
            }
            if x < 0 || x >= files || y < 0 || y >= ranks || (x, y) == (file, rank) {
                break;
            }
            total += weight * reached;
            reached *= SLIDE_DECAY;
        }
    }
    total
}

/// The average of [`reach`] over a `files` × `ranks` board.
fn mobility(rays: &[Ray], files: u8, ranks: u8) -> f64 {
    let (files, ranks) = (i32::from(files), i32::from(ranks));
    let mut total = 0.0;
    for file in 0..files {
        for rank in 0..ranks {
            total += reach(rays, file, rank, files, ranks);
        }
    }
    total / f64::from(files * ranks)
}

impl Variant {
    /// Each kind's value in centipawns, in kind order: [`PAWN`] for the kinds
    /// that promote, 0 for royal ones (they are never taken), and for the rest
    /// `50 m + m²` of their mobility `m` (chess's knight 290, bishop 330,
    /// rook 470, queen 900).
    #[must_use]
    pub fn piece_values(&self) -> Vec<i32> {
        self.kinds
            .iter()
            .enumerate()
            .map(|(index, kind)| {
                if kind.royal {
                    0
                } else if (self.promotion_pawns[0] | self.promotion_pawns[1]) >> index & 1 != 0 {
                    PAWN
                } else {
                    let m = mobility(&kind.rays, self.files, self.ranks);
                    (50.0 * m + m * m).round() as i32
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::Catalog;

    #[test]
    fn chess_pieces_come_out_near_their_usual_values() {
        let catalog = Catalog::builtin();
        let capablanca = catalog.get("capablanca").unwrap();
        let values = capablanca.piece_values();
        let value = |letter| values[capablanca.kind_of_letter(letter).unwrap()];
        assert_eq!(value('p'), 100);
        assert_eq!(value('k'), 0);
        for (letter, low, high) in [('n', 260, 340), ('b', 300, 380), ('r', 430, 560), ('q', 850, 1050)] {
            assert!((low..=high).contains(&value(letter)), "{letter}: {}", value(letter));
        }
        assert!(value('a') > value('r') && value('c') > value('a') && value('c') < value('q') + 100);
        let shatranj = catalog.get("shatranj").unwrap();
        let values = shatranj.piece_values();
        // The ferz and the alfil are weak, well below a knight.
        let (ferz, alfil, knight) = (
            values[shatranj.kind_of_letter('q').unwrap()],
            values[shatranj.kind_of_letter('b').unwrap()],
            values[shatranj.kind_of_letter('n').unwrap()],
        );
        assert!(ferz < knight && alfil < knight, "ferz {ferz}, alfil {alfil}, knight {knight}");
    }
}
