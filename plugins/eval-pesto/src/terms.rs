//! What the piece-square tables cannot see, because it depends on more than one
//! piece: pawn structure, passed pawns and their race with the kings, mobility,
//! rooks on open files, the bishop pair and attacks on the king.
//!
//! Every term is a middlegame/endgame pair, tapered like the tables. Attack sets
//! come from cozy-chess, the move generator the bundled search already uses.

use cozy_chess::{BitBoard, Square, get_bishop_moves, get_king_moves, get_knight_moves, get_rook_moves};
use plugboard_plugin_api::{PieceKind, Position};

/// A middlegame and an endgame score, White minus Black.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(crate) struct Tapered {
    pub mg: i32,
    pub eg: i32,
}

impl Tapered {
    const fn new(mg: i32, eg: i32) -> Tapered {
        Tapered { mg, eg }
    }

    fn add(&mut self, term: Tapered, times: i32) {
        self.mg += term.mg * times;
        self.eg += term.eg * times;
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Passed pawn bonus by rank counted from its own side (0 = first rank).
const PASSED: [Tapered; 8] = [
    Tapered::new(0, 0),
    Tapered::new(0, 5),
    Tapered::new(2, 10),
    Tapered::new(8, 20),
    Tapered::new(18, 35),
    Tapered::new(35, 60),
    Tapered::new(55, 90),
    Tapered::new(0, 0),
];
/// Per square of distance, scaled by how far the passer has come: the defending
/// king far from its path, and the own king near it, win pawn endings.
const PASSER_ENEMY_KING: i32 = 5;
const PASSER_OWN_KING: i32 = 2;
const ISOLATED: Tapered = Tapered::new(-8, -12);
const DOUBLED: Tapered = Tapered::new(-6, -18);
const BISHOP_PAIR: Tapered = Tapered::new(25, 50);
const ROOK_OPEN_FILE: Tapered = Tapered::new(25, 10);
const ROOK_HALF_OPEN_FILE: Tapered = Tapered::new(10, 5);
/// A pawn in front of the castled king, one or two ranks ahead.
const KING_SHIELD: Tapered = Tapered::new(10, 0);

/// Per square a piece reaches that neither holds an own piece nor is guarded by
/// an enemy pawn, counted from a typical number so that the sum stays near zero.
const MOBILITY: [(Tapered, i32); 4] = [
    (Tapered::new(4, 4), 4),  // knight
    (Tapered::new(5, 5), 6),  // bishop
    (Tapered::new(2, 4), 6),  // rook
    (Tapered::new(1, 2), 12), // queen
];
/// Weight of each square of the king's zone a piece attacks (knight, bishop, rook, queen).
const KING_ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];
const KING_DANGER_CAP: i32 = 500;

/// The files either side of each file.
const fn adjacent_files(file: usize) -> u64 {
    let mut mask = 0;
    if file > 0 {
        mask |= FILE_A << (file - 1);
    }
    if file < 7 {
        mask |= FILE_A << (file + 1);
    }
    mask
}

/// The squares in front of `square` (from `color`'s side) on its file and the
/// files beside it: an enemy pawn there stops or can take a passer.
const fn passed_span(color: usize, square: usize) -> u64 {
    let (file, rank) = (square % 8, square / 8);
    let files = adjacent_files(file) | (FILE_A << file);
    let ahead = if color == 0 {
        if rank == 7 { 0 } else { !0u64 << ((rank + 1) * 8) }
    } else if rank == 0 {
        0
    } else {
        !0u64 >> ((8 - rank) * 8)
    };
    files & ahead
}

const PASSED_SPAN: [[u64; 64]; 2] = {
    let mut spans = [[0; 64]; 2];
    let mut square = 0;
    while square < 64 {
        spans[0][square] = passed_span(0, square);
        spans[1][square] = passed_span(1, square);
        square += 1;
    }
    spans
};

/// The two ranks in front of a king on `rank`, from `color`'s side.
fn shield_ranks(color: usize, rank: usize) -> u64 {
    const TWO_RANKS: u64 = 0xFFFF;
    match (color, rank) {
        (0, 0..=6) => TWO_RANKS << ((rank + 1) * 8),
        (1, 2..) => TWO_RANKS << ((rank - 2) * 8),
        (1, 1) => 0xFF,
        _ => 0,
    }
}

fn pawn_attacks(pawns: u64, color: usize) -> u64 {
    if color == 0 {
        ((pawns << 7) & !FILE_H) | ((pawns << 9) & !FILE_A)
    } else {
        ((pawns >> 9) & !FILE_H) | ((pawns >> 7) & !FILE_A)
    }
}

fn squares(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let square = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            square
        })
    })
}

fn square(index: usize) -> Square {
    Square::index(index)
}

fn distance(a: usize, b: usize) -> i32 {
    let files = (a % 8).abs_diff(b % 8);
    let ranks = (a / 8).abs_diff(b / 8);
    files.max(ranks) as i32
}

/// Everything this module adds, White minus Black.
pub(crate) fn terms(position: &Position) -> Tapered {
    let mut score = Tapered::default();
    for (color, sign) in [(0usize, 1), (1usize, -1)] {
        let side = side_terms(position, color);
        score.add(side, sign);
    }
    score
}

fn side_terms(position: &Position, color: usize) -> Tapered {
    let them = color ^ 1;
    let occupied = position.colors[0] | position.colors[1];
    let ours = position.colors[color];
    let of = |kind: PieceKind, side: usize| position.pieces[kind as usize] & position.colors[side];
    let pawns = of(PieceKind::Pawn, color);
    let their_pawns = of(PieceKind::Pawn, them);
    let our_king = of(PieceKind::King, color).trailing_zeros() as usize;
    let their_king = of(PieceKind::King, them).trailing_zeros() as usize;
    let mut score = Tapered::default();

    for pawn in squares(pawns) {
        let file = pawn % 8;
        let relative_rank = if color == 0 { pawn / 8 } else { 7 - pawn / 8 };
        if pawns & adjacent_files(file) == 0 {
            score.add(ISOLATED, 1);
        }
        if PASSED_SPAN[color][pawn] & their_pawns == 0 && PASSED_SPAN[color][pawn] & pawns & (FILE_A << file) == 0 {
            score.add(PASSED[relative_rank], 1);
            if (3..7).contains(&relative_rank) && their_king < 64 && our_king < 64 {
                let stop = if color == 0 { pawn + 8 } else { pawn - 8 };
                let scale = relative_rank as i32 - 2;
                score.eg += scale
                    * (PASSER_ENEMY_KING * distance(their_king, stop) - PASSER_OWN_KING * distance(our_king, stop));
            }
        }
    }
    for file in 0..8 {
        let on_file = (pawns & (FILE_A << file)).count_ones() as i32;
        if on_file > 1 {
            score.add(DOUBLED, on_file - 1);
        }
    }

    if of(PieceKind::Bishop, color).count_ones() >= 2 {
        score.add(BISHOP_PAIR, 1);
    }
    for rook in squares(of(PieceKind::Rook, color)) {
        let file = FILE_A << (rook % 8);
        if file & (pawns | their_pawns) == 0 {
            score.add(ROOK_OPEN_FILE, 1);
        } else if file & pawns == 0 {
            score.add(ROOK_HALF_OPEN_FILE, 1);
        }
    }

    // The shield counts only for a king that has left the centre files.
    if our_king < 64 && !matches!(our_king % 8, 3 | 4) {
        let files = adjacent_files(our_king % 8) | (FILE_A << (our_king % 8));
        score.add(KING_SHIELD, (files & shield_ranks(color, our_king / 8) & pawns).count_ones() as i32);
    }

    let blockers = BitBoard(occupied);
    let unsafe_squares = pawn_attacks(their_pawns, them) | ours;
    let king_zone = if their_king < 64 { get_king_moves(square(their_king)).0 | (1u64 << their_king) } else { 0 };
    let mut danger = 0;
    let mut attackers = 0;
    for (index, kind) in
        [PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen].into_iter().enumerate()
    {
        let (weight, typical) = MOBILITY[index];
        for piece in squares(of(kind, color)) {
            let from = square(piece);
            let reach = match kind {
                PieceKind::Knight => get_knight_moves(from),
                PieceKind::Bishop => get_bishop_moves(from, blockers),
                PieceKind::Rook => get_rook_moves(from, blockers),
                _ => get_bishop_moves(from, blockers) | get_rook_moves(from, blockers),
            }
            .0;
            score.add(weight, (reach & !unsafe_squares).count_ones() as i32 - typical);
            let on_zone = (reach & king_zone).count_ones() as i32;
            if on_zone > 0 {
                attackers += 1;
                danger += KING_ATTACK_WEIGHT[index] * on_zone;
            }
        }
    }
    // One piece near the king is no attack; a queen with help is.
    if attackers >= 2 {
        score.mg += (danger * danger / 4).min(KING_DANGER_CAP);
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passed_spans_cover_the_files_ahead() {
        // A white pawn on e4 is stopped by black pawns on d5..f7, not on e3 or c5.
        let e4 = 28;
        let span = PASSED_SPAN[0][e4];
        for stopper in [35, 36, 37, 51, 52, 53, 59] {
            assert_ne!(span & (1 << stopper), 0, "{stopper}");
        }
        for bystander in [20, 34, 38, 27] {
            assert_eq!(span & (1 << bystander), 0, "{bystander}");
        }
        // Black's span of e5 is the white side's mirror.
        assert_eq!(PASSED_SPAN[1][36], PASSED_SPAN[0][28].swap_bytes());
    }
}
