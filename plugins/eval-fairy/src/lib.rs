//! An evaluation of any variant defined as data, from its definition alone:
//! each kind's value worked out from its moves (`plugboard-variants`'
//! [`Variant::piece_values`]), square tables from how much more a piece reaches
//! from each square than on average, how many squares each piece reaches where
//! it stands (each square counted less for a piece that reaches many, so a
//! queen's placement weighs no more than a knight's), where pieces are
//! dropped (shogi) the men guarding each royal piece and the pieces in hand
//! that could land by it, pawns' progress towards
//! their promotion zone, a passed pawn by what its promotion gains and how near
//! it is, shelter for the royal piece while the board is full,
//! and the squares by each royal piece that the other side's men attack. The
//! side ahead gains as pieces come off (not pawns, which are what promotes),
//! so it trades towards a won ending; a side with no pawn keeps only part of a
//! lead smaller than its strongest kind, which seldom mates alone; in the
//! ending it drives a lone king to a corner with its own king and
//! short-range men beside it and, where a bare king loses, trades the last
//! men off; where losing every man wins (losers), material counts against its
//! owner. A holdings pool (super, great) is what pawns may promote to, not
//! material.
//!
//! It plays every variant a definition describes, including one written after
//! this plugin was built: the host hands it the definition with each search.

mod drops;
mod walks;

use std::sync::Arc;

use plugboard_plugin_api::{
    BoardEvaluate, BoardEvaluator, BoardPosition, EvalPlugin, NoEvaluator, PluginInfo, Variant as ApiVariant,
};
use plugboard_variants::{
    Catalog, Variant,
    betza::{Hop, Ray},
    definition::reach,
};
use walks::Walks;

/// The plugin.
pub struct Fairy;

impl EvalPlugin for Fairy {
    type Evaluator = NoEvaluator;

    fn info() -> PluginInfo {
        PluginInfo::new("fairy", env!("CARGO_PKG_VERSION"))
            .author("The Plugboard authors")
            .description("Variants defined as data: piece values and square tables from each piece's moves, pawn progress, royal shelter")
            .variants(ApiVariant::DEFINED.cecp_name())
    }

    fn new_evaluator() -> Result<NoEvaluator, String> {
        Err("the fairy evaluation scores variants defined as data, not chess".to_string())
    }

    fn new_defined_evaluator(definition: &str) -> Result<BoardEvaluator, String> {
        let variant = Catalog::read_definition(definition).map_err(|error| error.to_string())?;
        Ok(BoardEvaluator::from_rust(FairyEval::new(&variant)))
    }
}

/// What one square is worth to a side's piece of one kind, with the piece's value.
pub struct FairyEval {
    files: u8,
    ranks: u8,
    kinds: usize,
    /// `[kind][square]`, the first player's view; the second player's squares
    /// are read turned half round.
    table: Vec<[i16; 256]>,
    /// Kinds that may not be left in check.
    royal: u64,
    /// The material of a full board, to tell the opening from the ending.
    full_material: i32,
    /// The same without the pawns: what trading pieces off is measured against.
    full_piece_material: i32,
    /// The value of the strongest kind that is neither royal nor a pawn: a lead
    /// smaller than that with no pawn left to promote seldom mates.
    strongest_piece: i32,
    values: Vec<i32>,
    /// A side left with its king alone loses (shatranj's bare king).
    bare_king_loses: bool,
    /// Losing every man wins (losers): material counts against its owner.
    losing_all_wins: bool,
    /// The hands hold what pawns may promote to, not pieces to drop.
    promotion_pool: bool,
    /// Captured men come back by drops (shogi): no ending is ever bare, so
    /// the endings' knowledge (trading down, a lead without pawns) is left out.
    drops: bool,
    /// The kinds whose mobility counts: those with moves besides pawns and royal kinds.
    mobile: u64,
    /// Their moves walked from every square.
    walks: Walks,
    /// What a piece of each kind reaches on a typical board, half its average
    /// on an empty one: mobility counts from there, so it leaves piece values be.
    typical_mobility: Vec<i32>,
    /// Hundredths of a centipawn for each square a piece of each kind reaches
    /// beyond its typical count: [`MOBILITY`] for a knight, less by [`focus`]
    /// for a piece that reaches more.
    mobility_weight: Vec<i32>,
    /// Kinds that must come up to a lone king to mate it: steppers and
    /// leapers, which cannot reach it from afar as riders do.
    short_range: u64,
    /// Kinds that never leave the colour of square they stand on (ferz, alfil,
    /// bishop): men of one colour alone never check a king on the other.
    colour_bound: u64,
    /// Whether only a mate wins (a stalemate draws, and no rule ends the game
    /// when a side runs out of men), so that a side unable to check cannot win.
    only_mate_wins: bool,
    /// The kinds that promote: pawns, which stop each other's way.
    pawn_kinds: u64,
    /// For each kind that promotes, what its best promotion gains over it
    /// (0 for the others): what a passed pawn of that kind is on its way to.
    promotion_gain: Vec<i32>,
    /// Steps from each square (as White sees the board) to the promotion zone
    /// on its file.
    steps_to_zone: [u8; 256],
}

/// What the side ahead gains as the other side's men (pawns included) run
/// down to none, where a bare king loses: index = the other side's men.
const BARING: [i32; 3] = [400, 150, 50];

/// The lead (centipawns) from which trading pieces off is worth something to
/// the side ahead, and the most of a lead that counts towards it.
const TRADE_LEAD: i32 = 120;
const TRADE_LEAD_CAP: i32 = 600;

/// The least share, in 64ths, of its lead that a side with no pawn keeps: a
/// lead as large as its strongest kind is kept whole, a smaller one counts as
/// little as this (ASEAN chess: rook and khon against a rook, +3, were drawn
/// by the 50-move rule in game after game, the pawns that would have won
/// traded off before).
const PAWNLESS_LEAD_FLOOR: i32 = 16;

/// Centipawns a piece in hand, which may go anywhere, is worth beyond its value
/// on the board where pieces are dropped; twice this for a short-range one (as
/// Fairy-Stockfish weighs it).
const HAND_BONUS: i32 = 15;

/// Centipawns for each square a piece reaches beyond its kind's typical count.
const MOBILITY: i32 = 4;

/// What a lead is divided by where the side ahead can never give check.
const CANNOT_MATE: i32 = 16;

/// Against a lone king: centipawns for each (doubled) step it stands from the
/// centre, and off for each step the winner's king and each short-range man
/// stand from it.
const LONE_KING_EDGE: i32 = 10;
const LONE_KING_NEAR: i32 = 6;
const HELPER_NEAR: i32 = 4;

/// Centipawns for each square next to the other side's royal piece (or on it)
/// that a man attacks, by how many men attack such squares: one man alone
/// mates nothing, and each more makes every square of the attack count more.
const KING_ATTACK: [i32; 8] = [0, 0, 6, 12, 18, 22, 25, 27];

/// A passed pawn (no pawn of the other side ahead of it on its file or the
/// next) is worth this share, in hundredths, of what its promotion gains, by
/// the steps it has left to the zone: a pawn that promotes to a rook (ASEAN
/// chess) ran through unopposed where one bound for a met would not matter.
const PASSED: [i32; 8] = [0, 20, 12, 7, 4, 2, 1, 0];

/// What a knight reaches on an average square of a chess board, near enough.
const KNIGHT_REACH: f64 = 5.5;

/// How much each square a piece reaches counts in its placement, beside a
/// knight's: a piece that reaches more squares gains less from each, so that
/// placing a compound (great's general reaches 16) or a queen well is worth
/// about as much as placing a knight well, not two or three times as much.
fn focus(average_reach: f64) -> f64 {
    if average_reach <= 0.0 { 1.0 } else { (KNIGHT_REACH / average_reach).min(1.0) }
}

/// How far `square` is from the board's centre, in file and rank steps
/// together, doubled: a corner is furthest, since the short-range men of
/// makruk and courier (met, ferz, wazir, knight) mate a lone king only there.
fn centre_distance(square: u8, files: u8, ranks: u8) -> i32 {
    let (file, rank) = (i32::from(square & 15), i32::from(square >> 4));
    (2 * file - (i32::from(files) - 1)).abs() + (2 * rank - (i32::from(ranks) - 1)).abs()
}

fn king_distance(a: u8, b: u8) -> i32 {
    let (file, rank) = (|s: u8| i32::from(s & 15), |s: u8| i32::from(s >> 4));
    (file(a) - file(b)).abs().max((rank(a) - rank(b)).abs())
}

/// A set of the 256 squares, as bits: looked up for every square a piece's
/// moves pass, which costs less than measuring that square's distance to the
/// royal piece each time.
type Zone = [u64; 4];

/// `royal`'s square and those next to it, if there is a royal piece.
fn zone_of(royal: Option<u8>) -> Zone {
    let mut zone = [0; 4];
    if let Some(royal) = royal {
        let (file, rank) = (i32::from(royal & 15), i32::from(royal >> 4));
        for (df, dr) in (-1..=1).flat_map(|df| (-1..=1).map(move |dr| (df, dr))) {
            let (file, rank) = (file + df, rank + dr);
            if (0..16).contains(&file) && (0..16).contains(&rank) {
                let square = (rank << 4 | file) as usize;
                zone[square >> 6] |= 1 << (square & 63);
            }
        }
    }
    zone
}

/// How many squares `rays` reach from (`file`, `rank`) on an empty board.
fn empty_board_count(rays: &[Ray], file: i32, rank: i32, files: u8, ranks: u8) -> i32 {
    let (files, ranks) = (i32::from(files), i32::from(ranks));
    let mut count = 0;
    for ray in rays.iter().filter(|ray| ray.hop == Hop::No) {
        let limit = if ray.range == 0 { 16 } else { i32::from(ray.range) };
        let (mut x, mut y) = (file, rank);
        for _ in 0..limit {
            x += i32::from(ray.df);
            y += i32::from(ray.dr);
            if ray.wraps {
                x = x.rem_euclid(files);
            }
            if !(0..files).contains(&x) || !(0..ranks).contains(&y) || (x, y) == (file, rank) {
                break;
            }
            count += 1;
        }
    }
    count
}

/// The square as the first player sees the second player's `square`.
fn turned(square: u8, files: u8, ranks: u8) -> u8 {
    let (file, rank) = (square & 15, square >> 4);
    ((ranks - 1 - rank) << 4) | (files - 1 - file)
}

impl FairyEval {
    pub fn new(variant: &Arc<Variant>) -> FairyEval {
        let (files, ranks) = (variant.files, variant.ranks);
        let values = variant.piece_values();
        let mut table = vec![[0i16; 256]; variant.kinds.len()];
        let mut mobility_weight = vec![0i32; variant.kinds.len()];
        let mut royal = 0u64;
        // The first rank of White's promotion zone on each file, if it has one.
        let zone_rank: Vec<Option<u8>> = (0..files)
            .map(|file| (0..ranks).find(|&r| variant.promotion_region[0].contains((r << 4) | file)))
            .collect();
        // A king that is lost only with its spares (chu's, beside a crown
        // prince) is guarded and kept home like a royal one; the spares it
        // gains by promotion are men, worth what they move as.
        let guarded = |kind: usize| {
            let piece = &variant.kinds[kind];
            piece.royal || (variant.royal_kinds >> kind & 1 != 0 && piece.promoted_from.is_none())
        };
        for (kind, piece) in variant.kinds.iter().enumerate() {
            if guarded(kind) {
                royal |= 1 << kind;
            }
            let pawn = variant.promotion_pawns[0] >> kind & 1 != 0;
            let squares = i32::from(files) * i32::from(ranks);
            let average = (0..squares)
                .map(|index| {
                    reach(&piece.rays, index % i32::from(files), index / i32::from(files), files.into(), ranks.into())
                })
                .sum::<f64>()
                / f64::from(squares);
            mobility_weight[kind] = (f64::from(MOBILITY) * 100.0 * focus(average)).round() as i32;
            for rank in 0..ranks {
                for file in 0..files {
                    let square = (rank << 4) | file;
                    let here = reach(&piece.rays, file.into(), rank.into(), files.into(), ranks.into());
                    let mut bonus = if guarded(kind) { 0.0 } else { (here - average) * 6.0 * focus(average) };
                    if pawn {
                        // Nearer the zone is better, and the last steps most.
                        let zone = zone_rank[usize::from(file)].unwrap_or(ranks - 1);
                        let to_go = f64::from(zone.saturating_sub(rank));
                        let centre = f64::from(files) / 2.0 - (f64::from(file) + 0.5 - f64::from(files) / 2.0).abs();
                        bonus = 120.0 / (1.0 + to_go) + centre * 2.0;
                    }
                    if guarded(kind) {
                        // Home while the board is full: scaled by material at evaluation.
                        bonus = -12.0 * f64::from(rank);
                    }
                    table[kind][usize::from(square)] = bonus.round() as i16;
                }
            }
        }
        let pawn_kinds = variant.promotion_pawns[0] | variant.promotion_pawns[1];
        let rays: Vec<Vec<Ray>> = variant
            .kinds
            .iter()
            .enumerate()
            .map(|(kind, piece)| {
                let pawn = pawn_kinds >> kind & 1 != 0;
                if guarded(kind) || pawn {
                    Vec::new()
                } else {
                    piece.rays.iter().filter(|ray| !ray.initial).copied().collect()
                }
            })
            .collect();
        // The kinds (pawns and royal pieces aside) every one of whose moves passes `test`.
        let kinds_where = |test: fn(&Ray) -> bool| {
            rays.iter()
                .enumerate()
                .filter(|(_, rays)| !rays.is_empty() && rays.iter().all(test))
                .fold(0u64, |mask, (kind, _)| mask | 1 << kind)
        };
        let short_range = kinds_where(|ray| ray.range != 0);
        let colour_bound = kinds_where(|ray| (ray.df + ray.dr) % 2 == 0);
        let typical_mobility = rays
            .iter()
            .map(|rays| {
                let squares = i32::from(files) * i32::from(ranks);
                let total: i32 = (0..squares)
                    .map(|index| {
                        empty_board_count(rays, index % i32::from(files), index / i32::from(files), files, ranks)
                    })
                    .sum();
                total / squares / 2
            })
            .collect();
        let start = plugboard_variants::Position::start(variant.clone()).ok();
        let start_material = |counted: &dyn Fn(usize) -> bool| {
            start.as_ref().map_or(1, |position| {
                (0..2u8)
                    .map(|color| {
                        (0..variant.kinds.len())
                            .filter(|&kind| counted(kind))
                            .map(|kind| i32::from(position.count(color, kind)) * values[kind])
                            .sum::<i32>()
                    })
                    .sum::<i32>()
                    .max(1)
            })
        };
        let full_material = start_material(&|_| true);
        let full_piece_material = start_material(&|kind| pawn_kinds >> kind & 1 == 0);
        let strongest_piece = (0..variant.kinds.len())
            .filter(|&kind| pawn_kinds >> kind & 1 == 0 && royal >> kind & 1 == 0)
            .map(|kind| values[kind])
            .max()
            .unwrap_or(0);
        let promotion_gain = (0..variant.kinds.len())
            .map(|kind| {
                let pawn = pawn_kinds >> kind & 1 != 0;
                let choices = variant.promotion_choices[0] | variant.promotion_choices[1];
                let best = (0..variant.kinds.len()).filter(|&c| choices >> c & 1 != 0).map(|c| values[c]).max();
                if pawn { best.map_or(0, |best| (best - values[kind]).max(0)) } else { 0 }
            })
            .collect();
        let mut steps_to_zone = [0u8; 256];
        for file in 0..files {
            let zone = zone_rank[usize::from(file)].unwrap_or(ranks);
            for rank in 0..ranks {
                steps_to_zone[usize::from((rank << 4) | file)] = zone.saturating_sub(rank);
            }
        }
        let bare_king_loses = variant
            .extinction
            .is_some_and(|rule| rule.all_pieces && rule.count <= 1 && rule.value == plugboard_variants::Value::Loss);
        let losing_all_wins =
            variant.extinction.is_some_and(|rule| rule.all_pieces && rule.value == plugboard_variants::Value::Win);
        FairyEval {
            files,
            ranks,
            kinds: variant.kinds.len(),
            table,
            royal,
            full_material,
            full_piece_material,
            strongest_piece,
            values,
            bare_king_loses,
            losing_all_wins,
            promotion_pool: variant.holdings_pool,
            drops: variant.piece_drops,
            mobile: rays
                .iter()
                .enumerate()
                .filter(|(_, rays)| !rays.is_empty())
                .fold(0, |mask, (kind, _)| mask | 1 << kind),
            walks: Walks::new(&rays, files, ranks),
            typical_mobility,
            mobility_weight,
            short_range,
            colour_bound,
            pawn_kinds,
            promotion_gain,
            steps_to_zone,
            only_mate_wins: variant.checkmate_value == plugboard_variants::Value::Loss
                && variant.stalemate_value == plugboard_variants::Value::Draw
                && variant.extinction.is_none(),
        }
    }

    /// How many squares the `color` piece of `kind` on `square` may go to or
    /// take on, less its kind's typical count, and how many squares of `zone`
    /// (the other side's royal piece and the squares next to it) it attacks.
    fn mobility(&self, position: &BoardPosition, square: u8, color: u8, kind: usize, zone: &Zone) -> (i32, i32) {
        let mut count = 0;
        let mut hits = 0;
        let near_target = |to: u8| zone[usize::from(to >> 6)] >> (to & 63) & 1 != 0;
        for walk in self.walks.from(color, kind, square) {
            if !self.walks.open(walk, &position.squares) {
                continue;
            }
            let mut screened = walk.hop == Hop::No;
            for &to in self.walks.path(walk) {
                let code = position.squares[usize::from(to)];
                hits += i32::from(screened && walk.captures && near_target(to));
                if code == 0 {
                    count += i32::from(screened && walk.moves);
                    // A grasshopper lands just beyond its screen, nowhere further.
                    if screened && walk.hop == Hop::Grasshopper {
                        break;
                    }
                    continue;
                }
                if !screened {
                    screened = true;
                    continue;
                }
                count += i32::from(walk.captures && code >> 7 != color);
                break;
            }
        }
        (count - self.typical_mobility[kind], hits)
    }

    /// The kind of the piece on `square`, if it is one of this variant's.
    fn kind_at(&self, position: &BoardPosition, square: u8) -> Option<usize> {
        let kind = usize::from(position.squares[usize::from(square)] & 0x7F).wrapping_sub(1);
        (kind < self.kinds).then_some(kind)
    }

    /// Whether the `color` pawn on `square` has none of the other side's
    /// pawns (`theirs`, by file) ahead of it on its file or the next.
    fn is_passed(&self, theirs: &[u16; 16], square: u8, color: u8) -> bool {
        let (file, rank) = (usize::from(square & 15), square >> 4);
        let ahead: u16 = if color == 0 { !0u16 << rank << 1 } else { (1u16 << rank) - 1 };
        (file.saturating_sub(1)..=(file + 1).min(usize::from(self.files) - 1)).all(|f| theirs[f] & ahead == 0)
    }

    /// The share, in 64ths, of its score that a side with no pawn keeps with
    /// `lead` in material: all of it from a lead as large as its strongest
    /// kind, falling with the square of the lead's share of that (a khon more
    /// beside equal rooks keeps a quarter) to [`PAWNLESS_LEAD_FLOOR`], since
    /// without a pawn to promote only a large lead mates.
    fn pawnless_share(&self, lead: i32) -> i32 {
        let lead = i64::from(lead.clamp(0, self.strongest_piece));
        let strongest = i64::from(self.strongest_piece);
        ((lead * lead * 64 / (strongest * strongest)) as i32).clamp(PAWNLESS_LEAD_FLOOR, 64)
    }

    /// The ending's knowledge: with one side well ahead and the other down to
    /// one man or none, drive the lone king to the edge with the winner's king
    /// and short-range men beside it (the mate a short search does not see:
    /// courier's ferzes and wazirs scattered over twelve files never mated),
    /// and where a bare king loses, trade the other side's last men off.
    fn ending(
        &self,
        position: &BoardPosition,
        material: [i32; 2],
        pawn_material: [i32; 2],
        men: [u32; 2],
        royal_at: [Option<u8>; 2],
    ) -> i32 {
        let ahead = if material[0] >= material[1] { 0 } else { 1 };
        let behind = ahead ^ 1;
        let mut score = 0;
        if self.bare_king_loses && men[ahead] > men[behind] {
            score += BARING.get(men[behind] as usize).copied().unwrap_or(0);
        }
        let lead = material[ahead] - material[behind];
        // The side ahead is nearer a win with fewer pieces on the board: trading
        // them is worth something, trading pawns is not (they are what promotes).
        if lead >= TRADE_LEAD {
            let pieces_left = material[0] + material[1] - pawn_material[0] - pawn_material[1];
            let off = (self.full_piece_material - pieces_left).max(0);
            score += lead.min(TRADE_LEAD_CAP) * off / self.full_piece_material / 3;
        }
        // Only against a king left with one man at most: with more, a king that
        // walks up to the other is walked into a mate (makruk's rook and met).
        if let (true, Some(winner), Some(loser)) = (lead >= 250 && men[behind] <= 1, royal_at[ahead], royal_at[behind])
        {
            score += LONE_KING_EDGE * centre_distance(loser, self.files, self.ranks)
                - LONE_KING_NEAR * king_distance(winner, loser);
            let helpers_away: i32 = position
                .squares_of(ahead as u8)
                .filter(|&square| self.kind_at(position, square).is_some_and(|kind| self.short_range >> kind & 1 != 0))
                .map(|square| king_distance(square, loser))
                .sum();
            score -= HELPER_NEAR * helpers_away;
        }
        if ahead == 0 { score } else { -score }
    }
}

impl BoardEvaluate for FairyEval {
    fn evaluate(&mut self, position: &BoardPosition) -> i32 {
        let mut material = [0i32; 2];
        let mut placement = [0i32; 2];
        let mut royal_rank = [0i32; 2];
        let mut men = [0u32; 2];
        let mut pawn_material = [0i32; 2];
        // Whether each side has a man that may check on either colour of
        // square, and the colours its colour-bound men stand on.
        let mut checks_both = [false; 2];
        let mut bound_colours = [0u8; 2];
        // Each side's men that attack squares by the other's royal piece, and those squares.
        let mut attackers = [0usize; 2];
        let mut attacked = [0i32; 2];
        // Found first, in one pass: each side's royal piece (the last, where it
        // has several), since the other side's men are scored by the squares
        // they attack around it; and each side's pawns, as the ranks they stand
        // on in each file, since a pawn is passed by the other side's.
        let mut royal_at = [None; 2];
        let mut pawn_ranks = [[0u16; 16]; 2];
        for color in 0..2u8 {
            for square in position.squares_of(color) {
                let Some(kind) = self.kind_at(position, square) else { continue };
                if self.royal >> kind & 1 != 0 {
                    royal_at[usize::from(color)] = Some(square);
                }
                if self.pawn_kinds >> kind & 1 != 0 {
                    pawn_ranks[usize::from(color)][usize::from(square & 15)] |= 1 << (square >> 4);
                }
            }
        }
        let zones = if self.losing_all_wins { [[0; 4]; 2] } else { [zone_of(royal_at[1]), zone_of(royal_at[0])] };
        for color in 0..2u8 {
            for square in position.squares_of(color) {
                let Some(kind) = self.kind_at(position, square) else { continue };
                let seen = if color == 0 { square } else { turned(square, self.files, self.ranks) };
                let bonus = i32::from(self.table[kind][usize::from(seen)]);
                if self.royal >> kind & 1 != 0 {
                    royal_rank[usize::from(color)] += bonus;
                } else {
                    if self.colour_bound >> kind & 1 != 0 {
                        bound_colours[usize::from(color)] |= 1 << ((square ^ (square >> 4)) & 1);
                    } else {
                        // A pawn counts: it may still promote on either colour.
                        checks_both[usize::from(color)] = true;
                    }
                    men[usize::from(color)] += 1;
                    material[usize::from(color)] += self.values[kind];
                    if self.pawn_kinds >> kind & 1 != 0 {
                        pawn_material[usize::from(color)] += self.values[kind];
                    }
                    placement[usize::from(color)] += bonus;
                    if self.promotion_gain[kind] > 0
                        && self.is_passed(&pawn_ranks[usize::from(color ^ 1)], square, color)
                    {
                        let steps = usize::from(self.steps_to_zone[usize::from(seen)]).min(PASSED.len() - 1);
                        placement[usize::from(color)] += self.promotion_gain[kind] * PASSED[steps] / 100;
                    }
                    if self.mobile >> kind & 1 != 0 {
                        let side = usize::from(color);
                        let (mobility, hits) = self.mobility(position, square, color, kind, &zones[side]);
                        placement[side] += self.mobility_weight[kind] * mobility / 100;
                        attackers[side] += usize::from(hits > 0);
                        attacked[side] += hits;
                    }
                }
            }
            // A holdings pool (super, great) is what pawns may promote to, not
            // men in play: counted, a side stripped to its king would look ahead.
            if !self.promotion_pool {
                for (kind, &count) in position.hands[usize::from(color)].iter().enumerate().take(self.kinds) {
                    let short = self.short_range >> kind & 1 != 0;
                    let bonus = if self.drops { HAND_BONUS * (1 + i32::from(short)) } else { 0 };
                    material[usize::from(color)] += i32::from(count) * (self.values[kind] + bonus);
                }
            }
        }
        if self.drops {
            for color in 0..2u8 {
                let side = usize::from(color);
                placement[side] += self.shelter(position, royal_at[side], color, &zones[side ^ 1]);
                let (held, hits) = self.hand_attack(position, color);
                attackers[side] += held;
                attacked[side] += hits;
            }
        }
        let white = if self.losing_all_wins {
            // Every man is one more to give away; no king hunt where being mated wins.
            material[1] - material[0] + placement[0] - placement[1]
        } else {
            for side in 0..2 {
                placement[side] += KING_ATTACK[attackers[side].min(KING_ATTACK.len() - 1)] * attacked[side];
            }
            // The royal piece's shelter counts as much as the board is full.
            let fullness = ((material[0] + material[1]) * 100 / self.full_material).clamp(0, 100);
            let score = |color: usize| material[color] + placement[color] + royal_rank[color] * fullness / 100;
            let ending = if self.drops { 0 } else { self.ending(position, material, pawn_material, men, royal_at) };
            let white = score(0) - score(1) + ending;
            // A side whose men all stand on one colour and never leave it can
            // never check a king that keeps to the other: its lead wins nothing
            // (courier's four ferzes on light squares drew by the 50-move rule).
            let winner = usize::from(white < 0);
            if self.drops {
                white
            } else if self.only_mate_wins && !checks_both[winner] && bound_colours[winner] != 3 {
                white / CANNOT_MATE
            } else if self.pawn_kinds != 0
                && pawn_material[winner] == 0
                && !self.bare_king_loses
                && self.strongest_piece > 0
            {
                // Where no kind is a pawn (chu, sho: every man may promote),
                // no side is ever short of one.
                white * self.pawnless_share(material[winner] - material[winner ^ 1]) / 64
            } else {
                white
            }
        };
        let tempo = 10;
        if position.side_to_move == 0 { white + tempo } else { -white + tempo }
    }
}

#[cfg(test)]
mod tests;
