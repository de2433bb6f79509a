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
pub struct Tapered {
    pub mg: i32,
    pub eg: i32,
}

impl Tapered {
    pub const fn new(mg: i32, eg: i32) -> Tapered {
        Tapered { mg, eg }
    }

    fn add(&mut self, term: Tapered, times: i32) {
        self.mg += term.mg * times;
        self.eg += term.eg * times;
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Every weight of this module, so that a tuner can move them; the engine plays
/// with [`Weights::TUNED`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Added to PeSTO's own value of each piece kind (pawn to queen): the terms
    /// below take over part of what the tables' piece values paid for.
    pub piece_value_shift: [Tapered; 5],
    /// Passed pawn bonus by rank counted from its own side (0 = first rank).
    pub passed: [Tapered; 8],
    /// Per square of distance, scaled by how far the passer has come: the
    /// defending king far from its path, and the own king near it, win pawn endings.
    pub passer_enemy_king: i32,
    pub passer_own_king: i32,
    pub isolated: Tapered,
    pub doubled: Tapered,
    pub bishop_pair: Tapered,
    pub rook_open_file: Tapered,
    pub rook_half_open_file: Tapered,
    /// A pawn in front of the castled king, one or two ranks ahead.
    pub king_shield: Tapered,
    /// Per square a knight, bishop, rook or queen reaches that neither holds an
    /// own piece nor is guarded by an enemy pawn, counted from
    /// [`TYPICAL_MOBILITY`] so that the sum stays near zero.
    pub mobility: [Tapered; 4],
    /// Weight of each square of the king's zone a knight, bishop, rook or queen attacks.
    pub king_attack_weight: [i32; 4],
    pub king_danger_cap: i32,
    /// A pawn guarded by a pawn, and a pawn with a pawn beside it on its rank.
    pub supported_pawn: Tapered,
    pub phalanx_pawn: Tapered,
    /// A pawn no pawn beside it can guard any more, whose next square an enemy pawn holds.
    pub backward_pawn: Tapered,
    /// A knight on the fourth to sixth rank, guarded by a pawn, that no enemy pawn can chase.
    pub knight_outpost: Tapered,
    pub rook_on_seventh: Tapered,
    /// Per enemy piece (not pawn) attacked by a pawn, per rook or queen attacked
    /// by a knight or bishop, per queen attacked by a rook.
    pub pawn_threat: Tapered,
    pub minor_threat_on_major: Tapered,
    pub rook_threat_on_queen: Tapered,
    /// Per enemy piece or pawn attacked and not defended.
    pub hanging: Tapered,
}

/// The number of safe squares a knight, bishop, rook or queen typically reaches.
pub const TYPICAL_MOBILITY: [i32; 4] = [4, 6, 6, 12];

impl Weights {
    /// The weights set by hand before any tuning, kept as a baseline to measure against.
    pub const HAND_SET: Weights = Weights {
        piece_value_shift: [Tapered::new(0, 0); 5],
        passed: [
            Tapered::new(0, 0),
            Tapered::new(0, 5),
            Tapered::new(2, 10),
            Tapered::new(8, 20),
            Tapered::new(18, 35),
            Tapered::new(35, 60),
            Tapered::new(55, 90),
            Tapered::new(0, 0),
        ],
        passer_enemy_king: 5,
        passer_own_king: 2,
        isolated: Tapered::new(-8, -12),
        doubled: Tapered::new(-6, -18),
        bishop_pair: Tapered::new(25, 50),
        rook_open_file: Tapered::new(25, 10),
        rook_half_open_file: Tapered::new(10, 5),
        king_shield: Tapered::new(10, 0),
        mobility: [Tapered::new(4, 4), Tapered::new(5, 5), Tapered::new(2, 4), Tapered::new(1, 2)],
        king_attack_weight: [2, 2, 3, 5],
        king_danger_cap: 500,
        supported_pawn: Tapered::new(0, 0),
        phalanx_pawn: Tapered::new(0, 0),
        backward_pawn: Tapered::new(0, 0),
        knight_outpost: Tapered::new(0, 0),
        rook_on_seventh: Tapered::new(0, 0),
        pawn_threat: Tapered::new(0, 0),
        minor_threat_on_major: Tapered::new(0, 0),
        rook_threat_on_queen: Tapered::new(0, 0),
        hanging: Tapered::new(0, 0),
    };

    /// The weights the engine plays with.
    pub const TUNED: Weights = Weights {
        piece_value_shift: [
            Tapered::new(2, -3),
            Tapered::new(42, -8),
            Tapered::new(20, -6),
            Tapered::new(76, -14),
            Tapered::new(252, -124),
        ],
        passed: [
            Tapered::new(0, 0),
            Tapered::new(-42, 36),
            Tapered::new(1, 9),
            Tapered::new(-11, 25),
            Tapered::new(7, 36),
            Tapered::new(67, -9),
            Tapered::new(138, -60),
            Tapered::new(0, 0),
        ],
        passer_enemy_king: 9,
        passer_own_king: 5,
        isolated: Tapered::new(-2, 1),
        doubled: Tapered::new(-25, -12),
        bishop_pair: Tapered::new(39, 31),
        rook_open_file: Tapered::new(34, -4),
        rook_half_open_file: Tapered::new(13, 7),
        king_shield: Tapered::new(8, -7),
        mobility: [Tapered::new(6, 0), Tapered::new(7, 3), Tapered::new(4, 2), Tapered::new(1, 4)],
        king_attack_weight: [2, 3, 3, 5],
        king_danger_cap: 389,
        supported_pawn: Tapered::new(16, 12),
        phalanx_pawn: Tapered::new(6, 10),
        backward_pawn: Tapered::new(-12, -4),
        knight_outpost: Tapered::new(16, 15),
        rook_on_seventh: Tapered::new(-6, 10),
        pawn_threat: Tapered::new(54, 8),
        minor_threat_on_major: Tapered::new(42, 2),
        rook_threat_on_queen: Tapered::new(51, -4),
        hanging: Tapered::new(10, 36),
    };

    /// Every weight with a name, in a fixed order, for a tuner to step through.
    pub fn parameters_mut(&mut self) -> Vec<(String, &mut i32)> {
        let mut all = Vec::new();
        let Weights {
            piece_value_shift,
            passed,
            passer_enemy_king,
            passer_own_king,
            isolated,
            doubled,
            bishop_pair,
            rook_open_file,
            rook_half_open_file,
            king_shield,
            mobility,
            king_attack_weight,
            king_danger_cap,
            supported_pawn,
            phalanx_pawn,
            backward_pawn,
            knight_outpost,
            rook_on_seventh,
            pawn_threat,
            minor_threat_on_major,
            rook_threat_on_queen,
            hanging,
        } = self;
        for (index, term) in piece_value_shift.iter_mut().enumerate() {
            push_pair(&mut all, format!("piece_value_shift[{index}]"), term);
        }
        // The first and last ranks never hold a pawn.
        for (index, term) in passed.iter_mut().enumerate().take(7).skip(1) {
            push_pair(&mut all, format!("passed[{index}]"), term);
        }
        all.push(("passer_enemy_king".into(), passer_enemy_king));
        all.push(("passer_own_king".into(), passer_own_king));
        for (name, term) in [
            ("isolated", isolated),
            ("doubled", doubled),
            ("bishop_pair", bishop_pair),
            ("rook_open_file", rook_open_file),
            ("rook_half_open_file", rook_half_open_file),
            ("king_shield", king_shield),
            ("supported_pawn", supported_pawn),
            ("phalanx_pawn", phalanx_pawn),
            ("backward_pawn", backward_pawn),
            ("knight_outpost", knight_outpost),
            ("rook_on_seventh", rook_on_seventh),
            ("pawn_threat", pawn_threat),
            ("minor_threat_on_major", minor_threat_on_major),
            ("rook_threat_on_queen", rook_threat_on_queen),
            ("hanging", hanging),
        ] {
            push_pair(&mut all, name.into(), term);
        }
        for (index, term) in mobility.iter_mut().enumerate() {
            push_pair(&mut all, format!("mobility[{index}]"), term);
        }
        for (index, weight) in king_attack_weight.iter_mut().enumerate() {
            all.push((format!("king_attack_weight[{index}]"), weight));
        }
        all.push(("king_danger_cap".into(), king_danger_cap));
        all
    }
}

fn push_pair<'a>(all: &mut Vec<(String, &'a mut i32)>, name: String, term: &'a mut Tapered) {
    all.push((format!("{name}.mg"), &mut term.mg));
    all.push((format!("{name}.eg"), &mut term.eg));
}

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
pub(crate) fn terms(position: &Position, weights: &Weights) -> Tapered {
    let (white, white_attacks) = side_terms(position, 0, weights);
    let (black, black_attacks) = side_terms(position, 1, weights);
    let mut score = white;
    score.add(black, -1);
    score.add(threats(position, 0, &white_attacks, &black_attacks, weights), 1);
    score.add(threats(position, 1, &black_attacks, &white_attacks, weights), -1);
    score
}

/// The squares one side attacks, by the kind of attacker.
#[derive(Default)]
struct Attacks {
    pawns: u64,
    minors: u64,
    rooks: u64,
    /// Queens and the king.
    others: u64,
}

impl Attacks {
    fn all(&self) -> u64 {
        self.pawns | self.minors | self.rooks | self.others
    }
}

/// What `color` threatens: enemy pieces attacked by lesser attackers, or not defended.
fn threats(position: &Position, color: usize, ours: &Attacks, theirs: &Attacks, weights: &Weights) -> Tapered {
    let them = color ^ 1;
    let of = |kind: PieceKind| position.pieces[kind as usize] & position.colors[them];
    let queens = of(PieceKind::Queen);
    let majors = of(PieceKind::Rook) | queens;
    let pieces = of(PieceKind::Knight) | of(PieceKind::Bishop) | majors;
    let mut score = Tapered::default();
    score.add(weights.pawn_threat, (ours.pawns & pieces).count_ones() as i32);
    score.add(weights.minor_threat_on_major, (ours.minors & majors).count_ones() as i32);
    score.add(weights.rook_threat_on_queen, (ours.rooks & queens).count_ones() as i32);
    let loose = (pieces | of(PieceKind::Pawn)) & ours.all() & !theirs.all();
    score.add(weights.hanging, loose.count_ones() as i32);
    score
}

fn side_terms(position: &Position, color: usize, weights: &Weights) -> (Tapered, Attacks) {
    let them = color ^ 1;
    let occupied = position.colors[0] | position.colors[1];
    let ours = position.colors[color];
    let of = |kind: PieceKind, side: usize| position.pieces[kind as usize] & position.colors[side];
    let pawns = of(PieceKind::Pawn, color);
    let their_pawns = of(PieceKind::Pawn, them);
    let our_king = of(PieceKind::King, color).trailing_zeros() as usize;
    let their_king = of(PieceKind::King, them).trailing_zeros() as usize;
    let mut score = Tapered::default();

    for (kind, &shift) in weights.piece_value_shift.iter().enumerate() {
        score.add(shift, (position.pieces[kind] & ours).count_ones() as i32);
    }
    for pawn in squares(pawns) {
        let file = pawn % 8;
        let relative_rank = if color == 0 { pawn / 8 } else { 7 - pawn / 8 };
        if pawns & adjacent_files(file) == 0 {
            score.add(weights.isolated, 1);
        }
        if PASSED_SPAN[color][pawn] & their_pawns == 0 && PASSED_SPAN[color][pawn] & pawns & (FILE_A << file) == 0 {
            score.add(weights.passed[relative_rank], 1);
            if (3..7).contains(&relative_rank) && their_king < 64 && our_king < 64 {
                let stop = if color == 0 { pawn + 8 } else { pawn - 8 };
                let scale = relative_rank as i32 - 2;
                score.eg += scale
                    * (weights.passer_enemy_king * distance(their_king, stop)
                        - weights.passer_own_king * distance(our_king, stop));
            }
        }
    }
    for file in 0..8 {
        let on_file = (pawns & (FILE_A << file)).count_ones() as i32;
        if on_file > 1 {
            score.add(weights.doubled, on_file - 1);
        }
    }
    let pawn_guard = pawn_attacks(pawns, color);
    let their_pawn_guard = pawn_attacks(their_pawns, them);
    score.add(weights.supported_pawn, (pawns & pawn_guard).count_ones() as i32);
    let beside = ((pawns << 1) & !FILE_A) | ((pawns >> 1) & !FILE_H);
    score.add(weights.phalanx_pawn, (pawns & beside).count_ones() as i32);
    for pawn in squares(pawns) {
        // Shifted as a bitboard: a pawn on its last rank (a variant's setup) has no stop square.
        let stop = if color == 0 { (1u64 << pawn) << 8 } else { (1u64 << pawn) >> 8 };
        let helpers = adjacent_files(pawn % 8) & !PASSED_SPAN[color][pawn];
        if pawns & helpers == 0 && their_pawn_guard & stop != 0 {
            score.add(weights.backward_pawn, 1);
        }
    }
    for knight in squares(of(PieceKind::Knight, color) & pawn_guard) {
        let relative_rank = if color == 0 { knight / 8 } else { 7 - knight / 8 };
        let chasers = PASSED_SPAN[color][knight] & adjacent_files(knight % 8);
        if (3..=5).contains(&relative_rank) && their_pawns & chasers == 0 {
            score.add(weights.knight_outpost, 1);
        }
    }
    let seventh = if color == 0 { 0xFF << 48 } else { 0xFF << 8 };
    score.add(weights.rook_on_seventh, (of(PieceKind::Rook, color) & seventh).count_ones() as i32);

    if of(PieceKind::Bishop, color).count_ones() >= 2 {
        score.add(weights.bishop_pair, 1);
    }
    for rook in squares(of(PieceKind::Rook, color)) {
        let file = FILE_A << (rook % 8);
        if file & (pawns | their_pawns) == 0 {
            score.add(weights.rook_open_file, 1);
        } else if file & pawns == 0 {
            score.add(weights.rook_half_open_file, 1);
        }
    }

    // The shield counts only for a king that has left the centre files.
    if our_king < 64 && !matches!(our_king % 8, 3 | 4) {
        let files = adjacent_files(our_king % 8) | (FILE_A << (our_king % 8));
        score.add(weights.king_shield, (files & shield_ranks(color, our_king / 8) & pawns).count_ones() as i32);
    }

    let blockers = BitBoard(occupied);
    let unsafe_squares = their_pawn_guard | ours;
    let king_zone = if their_king < 64 { get_king_moves(square(their_king)).0 | (1u64 << their_king) } else { 0 };
    let mut danger = 0;
    let mut attackers = 0;
    let mut attacks = Attacks {
        pawns: pawn_guard,
        others: if our_king < 64 { get_king_moves(square(our_king)).0 } else { 0 },
        ..Attacks::default()
    };
    for (index, kind) in
        [PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen].into_iter().enumerate()
    {
        let (weight, typical) = (weights.mobility[index], TYPICAL_MOBILITY[index]);
        for piece in squares(of(kind, color)) {
            let from = square(piece);
            let reach = match kind {
                PieceKind::Knight => get_knight_moves(from),
                PieceKind::Bishop => get_bishop_moves(from, blockers),
                PieceKind::Rook => get_rook_moves(from, blockers),
                _ => get_bishop_moves(from, blockers) | get_rook_moves(from, blockers),
            }
            .0;
            match kind {
                PieceKind::Knight | PieceKind::Bishop => attacks.minors |= reach,
                PieceKind::Rook => attacks.rooks |= reach,
                _ => attacks.others |= reach,
            }
            score.add(weight, (reach & !unsafe_squares).count_ones() as i32 - typical);
            let on_zone = (reach & king_zone).count_ones() as i32;
            if on_zone > 0 {
                attackers += 1;
                danger += weights.king_attack_weight[index] * on_zone;
            }
        }
    }
    // One piece near the king is no attack; a queen with help is.
    if attackers >= 2 {
        score.mg += (danger * danger / 4).min(weights.king_danger_cap);
    }
    (score, attacks)
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
