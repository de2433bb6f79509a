//! What each kind of piece is worth, worked out from how it moves, as
//! Fairy-Max and Fairy-Stockfish do for pieces they have no table for: its
//! average mobility over the board, a slide counted less with each square
//! (pieces stand in the way), moves that only take or only go counted half,
//! single steps sideways or back counted less than longer leaps (a piece that
//! steps is slow to go anywhere) and steps forward in full, less for a piece
//! bound to fewer squares than a bishop, and the total weighed so that chess's
//! pieces come out near their usual values and shatranj's and courier's
//! short-range pieces near Fairy-Max's tables for them.

use super::Variant;
use crate::betza::{Hop, Ray};

/// How much of the next square of a slide is counted: the chance it is reached.
const SLIDE_DECAY: f64 = 0.7;
/// What a pawn is worth, and anything that promotes like one, where it
/// promotes to a queen or better.
pub const PAWN: i32 = 100;
/// What a pawn is worth where it promotes to nothing better than a ferz
/// (shatranj, courier, makruk): the knight is then worth four and a half of
/// them, as in Fairy-Max's tables for those games, not three.
const WEAK_PAWN: i32 = 62;
/// The values between which a pawn's worth runs from [`WEAK_PAWN`] to [`PAWN`]
/// with the best piece it may promote to: a ferz's, and about a queen's.
const PROMOTION_RANGE: (i32, i32) = (170, 900);

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
            * if ray.hop == Hop::No { 1.0 } else { 0.5 }
            * if ray.range == 1 { leap_speed(ray) } else { 1.0 };
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

/// How much one leap counts beside a knight's: a step of one square (a
/// wazir's) about three quarters, a leap as long as a knight's or longer in
/// full, and any leap forward in full: it brings the piece to the other side,
/// where it attacks (makruk's khon, with three steps forward of its five, is
/// worth two thirds of a knight in Fairy-Max's table and more in
/// Fairy-Stockfish's, where steps all counted alike made it barely half).
fn leap_speed(ray: &Ray) -> f64 {
    if ray.dr > 0 {
        return 1.0;
    }
    let length = f64::from(ray.df).hypot(f64::from(ray.dr));
    0.5 + 0.5 * (length / 5f64.sqrt()).min(1.0)
}

/// The share of an empty `files` × `ranks` board's squares that `rays` reach
/// in any number of moves from the square that reaches most: a knight's or a
/// wazir's 1, a bishop's or a ferz's ½, an alfil's ⅛.
fn range_share(rays: &[Ray], files: u8, ranks: u8) -> f64 {
    let (files, ranks) = (i32::from(files), i32::from(ranks));
    let squares = (files * ranks) as usize;
    let mut best = 0;
    let mut seen = vec![false; squares];
    // A square reached from an earlier start reaches no more than that start
    // did: only the squares no earlier flood reached need a flood of their own.
    let mut covered = vec![false; squares];
    let mut stack = Vec::with_capacity(squares);
    for start in 0..squares {
        if covered[start] {
            continue;
        }
        seen.fill(false);
        seen[start] = true;
        stack.push(start as i32);
        let mut count = 1;
        while let Some(square) = stack.pop() {
            for ray in rays.iter().filter(|ray| !ray.initial) {
                let x = square % files + i32::from(ray.df);
                let x = if ray.wraps { x.rem_euclid(files) } else { x };
                let y = square / files + i32::from(ray.dr);
                if (0..files).contains(&x) && (0..ranks).contains(&y) && !seen[(y * files + x) as usize] {
                    seen[(y * files + x) as usize] = true;
                    count += 1;
                    stack.push(y * files + x);
                }
            }
        }
        best = best.max(count);
        for (covered, &seen) in covered.iter_mut().zip(&seen) {
            *covered |= seen;
        }
    }
    best as f64 / squares as f64
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
    /// Each kind's value in centipawns, in kind order: 0 for royal ones (they
    /// are never taken), `50 m + m²` of their mobility `m` for pieces (chess's
    /// knight 290, bishop 330, rook 470, queen 900), and for the kinds that
    /// promote [`PAWN`] where they may become a queen, less where the best they
    /// may become is weaker, down to [`WEAK_PAWN`] for a ferz; the value the
    /// definition gives instead (`pieceValueMg`, `pieceValueEg`), where it does.
    #[must_use]
    pub fn piece_values(&self) -> Vec<i32> {
        let pawns = self.promotion_pawns[0] | self.promotion_pawns[1];
        let mut values: Vec<i32> = self
            .kinds
            .iter()
            .enumerate()
            .map(|(index, kind)| {
                if kind.royal || pawns >> index & 1 != 0 {
                    0
                } else {
                    let m = mobility(&kind.rays, self.files, self.ranks);
                    // A bishop's binding is in chess's values already; what binds more costs more.
                    let bound = (2.0 * range_share(&kind.rays, self.files, self.ranks)).min(1.0).powf(0.35);
                    ((50.0 * m + m * m) * bound).round() as i32
                }
            })
            .collect();
        for ((value, given), kind) in values.iter_mut().zip(&self.given_values).zip(&self.kinds) {
            if let (Some(given), false) = (given, kind.royal) {
                *value = *given;
            }
        }
        let choices = self.promotion_choices[0] | self.promotion_choices[1];
        let best = (0..self.kinds.len()).filter(|&kind| choices >> kind & 1 != 0).map(|kind| values[kind]).max();
        let (low, high) = PROMOTION_RANGE;
        let pawn =
            best.map_or(PAWN, |best| WEAK_PAWN + (PAWN - WEAK_PAWN) * (best.clamp(low, high) - low) / (high - low));
        for (index, value) in values.iter_mut().enumerate() {
            if pawns >> index & 1 != 0 && !self.kinds[index].royal && self.given_values[index].is_none() {
                *value = pawn;
            }
        }
        values
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
        // Makruk's khon steps forward three ways of its five: two thirds of a
        // knight at least (Fairy-Max's table), well above the met's four steps.
        let makruk = catalog.get("makruk").unwrap();
        let values = makruk.piece_values();
        let value = |letter| values[makruk.kind_of_letter(letter).unwrap()];
        let (khon, met, knight) = (value('s'), value('m'), value('n'));
        assert!(khon * 3 >= knight * 2 && khon > met + 30, "khon {khon}, met {met}, knight {knight}");
    }

    #[test]
    fn a_pawn_is_worth_less_where_it_promotes_to_a_weak_piece() {
        let mut catalog = Catalog::builtin();
        // Shatranj's men, but pawns that become rooks, as in ASEAN chess: a
        // definition of the test's own, so a value a built-in definition may
        // give one day leaves the rule tested.
        catalog.add_file("[rookpawns:shatranj]\npromotionPieceTypes = r\n", "test.ini").unwrap();
        let pawn_and_knight = |name: &str| {
            let variant = catalog.get(name).unwrap();
            let values = variant.piece_values();
            (values[variant.kind_of_letter('p').unwrap()], values[variant.kind_of_letter('n').unwrap()])
        };
        for weak in ["makruk", "shatranj", "courier"] {
            let (pawn, knight) = pawn_and_knight(weak);
            assert!(pawn < 70 && knight > 4 * pawn, "{weak}: pawn {pawn}, knight {knight}");
        }
        let (rook_bound, _) = pawn_and_knight("rookpawns");
        assert!((70..100).contains(&rook_bound), "a pawn which may become a rook: {rook_bound}");
        assert_eq!(pawn_and_knight("capablanca").0, 100);
        assert_eq!(pawn_and_knight("grand").0, 100);
    }
}
