//! An evaluation of any variant defined as data, from its definition alone:
//! each kind's value worked out from its moves (`plugboard-variants`'
//! [`Variant::piece_values`]), square tables from how much more a piece reaches
//! from each square than on average, how many squares each piece reaches where
//! it stands (each square counted less for a piece that reaches many, so a
//! queen's placement weighs no more than a knight's), pawns' progress towards
//! their promotion zone, and shelter for the royal piece while the board is
//! full. The side ahead gains as material comes off, so it trades towards a won
//! ending; in the ending it drives a lone king to the edge with its own king
//! and short-range men beside it and, where a bare king loses, trades the last
//! men off; where losing every man wins (losers), material counts against its
//! owner. A holdings pool (super, great) is what pawns may promote to, not
//! material.
//!
//! It plays every variant a definition describes, including one written after
//! this plugin was built: the host hands it the definition with each search.

use std::sync::Arc;

use plugboard_plugin_api::{
    BoardEvaluate, BoardEvaluator, BoardPosition, EvalPlugin, NoEvaluator, PluginInfo, Variant as ApiVariant,
};
use plugboard_variants::{
    Catalog, Variant,
    betza::{Hop, Ray},
    definition::reach,
};

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
    values: Vec<i32>,
    /// A side left with its king alone loses (shatranj's bare king).
    bare_king_loses: bool,
    /// Losing every man wins (losers): material counts against its owner.
    losing_all_wins: bool,
    /// The hands hold what pawns may promote to, not pieces to drop.
    promotion_pool: bool,
    /// Each kind's moves, for its mobility; empty for pawns and royal kinds.
    rays: Vec<Vec<Ray>>,
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
}

/// What the side ahead gains as the other side's men (pawns included) run
/// down to none, where a bare king loses: index = the other side's men.
const BARING: [i32; 3] = [400, 150, 50];

/// The lead (centipawns) from which trading pieces off is worth something to
/// the side ahead, and the most of a lead that counts towards it.
const TRADE_LEAD: i32 = 120;
const TRADE_LEAD_CAP: i32 = 600;

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

/// What a knight reaches on an average square of a chess board, near enough.
const KNIGHT_REACH: f64 = 5.5;

/// How much each square a piece reaches counts in its placement, beside a
/// knight's: a piece that reaches more squares gains less from each, so that
/// placing a compound (great's general reaches 16) or a queen well is worth
/// about as much as placing a knight well, not two or three times as much.
fn focus(average_reach: f64) -> f64 {
    if average_reach <= 0.0 { 1.0 } else { (KNIGHT_REACH / average_reach).min(1.0) }
}

/// How far `square` is from the board's centre, in king steps, doubled.
fn centre_distance(square: u8, files: u8, ranks: u8) -> i32 {
    let (file, rank) = (i32::from(square & 15), i32::from(square >> 4));
    (2 * file - (i32::from(files) - 1)).abs().max((2 * rank - (i32::from(ranks) - 1)).abs())
}

fn king_distance(a: u8, b: u8) -> i32 {
    let (file, rank) = (|s: u8| i32::from(s & 15), |s: u8| i32::from(s >> 4));
    (file(a) - file(b)).abs().max((rank(a) - rank(b)).abs())
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
        for (kind, piece) in variant.kinds.iter().enumerate() {
            if piece.royal {
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
                    let mut bonus = if piece.royal { 0.0 } else { (here - average) * 6.0 * focus(average) };
                    if pawn {
                        // Nearer the zone is better, and the last steps most.
                        let zone = (0..ranks)
                            .find(|&r| variant.promotion_region[0].contains((r << 4) | file))
                            .unwrap_or(ranks - 1);
                        let to_go = f64::from(zone.saturating_sub(rank));
                        let centre = f64::from(files) / 2.0 - (f64::from(file) + 0.5 - f64::from(files) / 2.0).abs();
                        bonus = 120.0 / (1.0 + to_go) + centre * 2.0;
                    }
                    if piece.royal {
                        // Home while the board is full: scaled by material at evaluation.
                        bonus = -12.0 * f64::from(rank);
                    }
                    table[kind][usize::from(square)] = bonus.round() as i16;
                }
            }
        }
        let rays: Vec<Vec<Ray>> = variant
            .kinds
            .iter()
            .enumerate()
            .map(|(kind, piece)| {
                let pawn = (variant.promotion_pawns[0] | variant.promotion_pawns[1]) >> kind & 1 != 0;
                if piece.royal || pawn {
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
        let full_material = start.map_or(1, |position| {
            (0..2u8)
                .map(|color| {
                    (0..variant.kinds.len())
                        .map(|kind| i32::from(position.count(color, kind)) * values[kind])
                        .sum::<i32>()
                })
                .sum::<i32>()
                .max(1)
        });
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
            values,
            bare_king_loses,
            losing_all_wins,
            promotion_pool: variant.holdings_pool,
            rays,
            typical_mobility,
            mobility_weight,
            short_range,
            colour_bound,
            only_mate_wins: variant.checkmate_value == plugboard_variants::Value::Loss
                && variant.stalemate_value == plugboard_variants::Value::Draw
                && variant.extinction.is_none(),
        }
    }

    /// How many squares the `color` piece of `kind` on `square` may go to or
    /// take on, less its kind's typical count.
    fn mobility(&self, position: &BoardPosition, square: u8, color: u8, kind: usize) -> i32 {
        let (files, ranks) = (i32::from(self.files), i32::from(self.ranks));
        let (file, rank) = (i32::from(square & 15), i32::from(square >> 4));
        let sign = if color == 0 { 1 } else { -1 };
        let piece_at = |x: i32, y: i32| position.squares[(y * 16 + x) as usize];
        let mut count = 0;
        for ray in &self.rays[kind] {
            if ray.lame_len > 0
                && !ray.lame_ways().any(|way| {
                    way.iter().all(|&(df, dr)| {
                        let (x, y) = (file + sign * i32::from(df), rank + sign * i32::from(dr));
                        let x = if ray.wraps { x.rem_euclid(files) } else { x };
                        (0..files).contains(&x) && (0..ranks).contains(&y) && piece_at(x, y) == 0
                    })
                })
            {
                continue;
            }
            let limit = if ray.range == 0 { 16 } else { ray.range };
            let (mut x, mut y) = (file, rank);
            let mut screened = ray.hop == Hop::No;
            for _ in 0..limit {
                x += sign * i32::from(ray.df);
                y += sign * i32::from(ray.dr);
                if ray.wraps {
                    x = x.rem_euclid(files);
                }
                if !(0..files).contains(&x) || !(0..ranks).contains(&y) || (x, y) == (file, rank) {
                    break;
                }
                let code = piece_at(x, y);
                if code == 0 {
                    count += i32::from(screened && ray.moves());
                    // A grasshopper lands just beyond its screen, nowhere further.
                    if screened && ray.hop == Hop::Grasshopper {
                        break;
                    }
                    continue;
                }
                if !screened {
                    screened = true;
                    continue;
                }
                count += i32::from(ray.captures() && code >> 7 != color);
                break;
            }
        }
        count - self.typical_mobility[kind]
    }

    /// The ending's knowledge: with one side well ahead and the other down to
    /// one man or none, drive the lone king to the edge with the winner's king
    /// and short-range men beside it (the mate a short search does not see:
    /// courier's ferzes and wazirs scattered over twelve files never mated),
    /// and where a bare king loses, trade the other side's last men off.
    fn ending(&self, position: &BoardPosition, material: [i32; 2], men: [u32; 2], royal_at: [Option<u8>; 2]) -> i32 {
        let ahead = if material[0] >= material[1] { 0 } else { 1 };
        let behind = ahead ^ 1;
        let mut score = 0;
        if self.bare_king_loses && men[ahead] > men[behind] {
            score += BARING.get(men[behind] as usize).copied().unwrap_or(0);
        }
        let lead = material[ahead] - material[behind];
        // The side ahead is nearer a win with less on the board: trades are worth making.
        if lead >= TRADE_LEAD {
            let off = (self.full_material - material[0] - material[1]).max(0);
            score += lead.min(TRADE_LEAD_CAP) * off / self.full_material / 3;
        }
        // Only against a king left with one man at most: with more, a king that
        // walks up to the other is walked into a mate (makruk's rook and met).
        if let (true, Some(winner), Some(loser)) = (lead >= 250 && men[behind] <= 1, royal_at[ahead], royal_at[behind])
        {
            score += LONE_KING_EDGE * centre_distance(loser, self.files, self.ranks)
                - LONE_KING_NEAR * king_distance(winner, loser);
            let helpers_away: i32 = position
                .squares_of(ahead as u8)
                .filter(|&square| {
                    let kind = usize::from(position.squares[usize::from(square)] & 0x7F).wrapping_sub(1);
                    kind < self.kinds && self.short_range >> kind & 1 != 0
                })
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
        let mut royal_at = [None; 2];
        // Whether each side has a man that may check on either colour of
        // square, and the colours its colour-bound men stand on.
        let mut checks_both = [false; 2];
        let mut bound_colours = [0u8; 2];
        for color in 0..2u8 {
            for square in position.squares_of(color) {
                let code = position.squares[usize::from(square)];
                let kind = usize::from(code & 0x7F) - 1;
                if kind >= self.kinds {
                    continue;
                }
                let seen = if color == 0 { square } else { turned(square, self.files, self.ranks) };
                let bonus = i32::from(self.table[kind][usize::from(seen)]);
                if self.royal >> kind & 1 != 0 {
                    royal_rank[usize::from(color)] += bonus;
                    royal_at[usize::from(color)] = Some(square);
                } else {
                    if self.colour_bound >> kind & 1 != 0 {
                        bound_colours[usize::from(color)] |= 1 << ((square ^ (square >> 4)) & 1);
                    } else {
                        // A pawn counts: it may still promote on either colour.
                        checks_both[usize::from(color)] = true;
                    }
                    men[usize::from(color)] += 1;
                    material[usize::from(color)] += self.values[kind];
                    placement[usize::from(color)] += bonus;
                    if !self.rays[kind].is_empty() {
                        placement[usize::from(color)] +=
                            self.mobility_weight[kind] * self.mobility(position, square, color, kind) / 100;
                    }
                }
            }
            // A holdings pool (super, great) is what pawns may promote to, not
            // men in play: counted, a side stripped to its king would look ahead.
            if !self.promotion_pool {
                for (kind, &count) in position.hands[usize::from(color)].iter().enumerate().take(self.kinds) {
                    material[usize::from(color)] += i32::from(count) * self.values[kind];
                }
            }
        }
        let white = if self.losing_all_wins {
            // Every man is one more to give away; no king hunt where being mated wins.
            material[1] - material[0] + placement[0] - placement[1]
        } else {
            // The royal piece's shelter counts as much as the board is full.
            let fullness = ((material[0] + material[1]) * 100 / self.full_material).clamp(0, 100);
            let score = |color: usize| material[color] + placement[color] + royal_rank[color] * fullness / 100;
            let white = score(0) - score(1) + self.ending(position, material, men, royal_at);
            // A side whose men all stand on one colour and never leave it can
            // never check a king that keeps to the other: its lead wins nothing
            // (courier's four ferzes on light squares drew by the 50-move rule).
            let winner = usize::from(white < 0);
            if self.only_mate_wins && !checks_both[winner] && bound_colours[winner] != 3 {
                white / CANNOT_MATE
            } else {
                white
            }
        };
        let tempo = 10;
        if position.side_to_move == 0 { white + tempo } else { -white + tempo }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plugboard_variants::Position;

    fn evaluate(variant: &str, fen: &str) -> i32 {
        let catalog = Catalog::builtin();
        let variant = catalog.get(variant).unwrap().clone();
        let mut eval = FairyEval::new(&variant);
        let position = Position::from_fen(variant, fen).unwrap();
        eval.evaluate(&position.to_board_position())
    }

    #[test]
    fn material_and_progress_count_for_the_side_to_move() {
        let start = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
        let even = evaluate("capablanca", start);
        assert!(even.abs() < 30, "{even}");
        let queen_up = evaluate("capablanca", "rnab1kbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1");
        assert!(queen_up > 700, "{queen_up}");
        let for_black = evaluate("capablanca", "rnab1kbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR b KQkq - 0 1");
        assert!(for_black < -700, "{for_black}");
        // A pawn about to promote is worth more than one at home.
        let advanced = evaluate("shatranj", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        let home = evaluate("shatranj", "4k3/8/8/8/8/8/1P6/4K3 w - - 0 1");
        assert!(advanced > home + 30, "{advanced} vs {home}");
    }

    #[test]
    fn the_side_ahead_drives_the_lone_king_to_the_edge() {
        // White to move with a rook against a bare king: the king in the corner
        // with White's beside it scores more than the king in the middle.
        let cornered = evaluate("makruk", "7k/8/5K2/8/8/8/8/R7 w - - 0 1");
        let central = evaluate("makruk", "8/8/8/4k3/8/8/8/R6K w - - 0 1");
        assert!(cornered > central + 50, "{cornered} vs {central}");
        // The same for Black, seen from Black's side.
        let cornered = evaluate("makruk", "r7/8/8/8/8/5k2/8/7K b - - 0 1");
        let central = evaluate("makruk", "r6k/8/8/8/4K3/8/8/8 b - - 0 1");
        assert!(cornered > central + 50, "{cornered} vs {central}");
    }

    #[test]
    fn short_range_men_come_up_to_the_lone_king() {
        // Courier: a ferz, a wazir and a man mate a lone king only from beside
        // it; the same men far off score less, kings where they were.
        let near = evaluate("courier", "11k/8FW2/9M2/12/12/12/12/K11 w - - 0 1");
        let far = evaluate("courier", "11k/12/12/12/12/12/FWM9/K11 w - - 0 1");
        assert!(near > far + 60, "{near} vs {far}");
    }

    #[test]
    fn men_of_one_colour_alone_win_nothing() {
        // Courier: four ferzes and an alfil, all on squares of one colour, never
        // check the king on l1, of the other; swap one ferz for a wazir, which
        // changes colour with each step, and the lead is real.
        let one_colour = evaluate("courier", "12/12/7F4/6E3F1/9F2/9K2/9F2/11k w - - 0 1");
        let both = evaluate("courier", "12/12/7F4/6E3F1/9F2/9K2/9W2/11k w - - 0 1");
        assert!(one_colour < 100, "{one_colour}");
        assert!(both > 500, "{both}");
        // Bishops on both colours (chess-like capablanca) can mate: no change.
        let bishops = evaluate("capablanca", "k9/10/10/10/10/10/10/3BB4K w - - 0 1");
        assert!(bishops > 300, "{bishops}");
    }

    #[test]
    fn where_a_bare_king_loses_the_last_men_are_worth_trading_off() {
        // Shatranj: rook and ferz against a ferz is worth more than the two
        // pieces' difference, for the bare king that follows the trade.
        let one_left = evaluate("shatranj", "3k4/8/8/3q4/8/3Q4/8/R2K4 w - - 0 1");
        let none_left = evaluate("shatranj", "3k4/8/8/8/8/8/8/R2K4 w - - 0 1");
        assert!(none_left > one_left + 100, "{none_left} vs {one_left}");
        // Where the bare king does not lose (makruk), the trade is even.
        let one_left = evaluate("makruk", "3k4/8/8/3m4/8/3M4/8/R2K4 w - - 0 1");
        let none_left = evaluate("makruk", "3k4/8/8/8/8/8/8/R2K4 w - - 0 1");
        assert!((none_left - one_left).abs() < 60, "{none_left} vs {one_left}");
    }

    #[test]
    fn the_side_ahead_gains_by_trading_pieces_off() {
        // A rook up in courier, with and without a knight each besides.
        let knights_off = evaluate("courier", "4k7/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/R3K7 w - - 0 1");
        let knights_on = evaluate("courier", "4k3n3/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/R3K3N3 w - - 0 1");
        assert!(knights_off > knights_on + 10, "{knights_off} vs {knights_on}");
    }

    #[test]
    fn a_piece_that_reaches_more_squares_is_worth_more() {
        // The same rook in a corner, on an open file or shut in behind its own pawn.
        let open = evaluate("shatranj", "4k3/pppppppp/8/8/8/8/1PPPPPPP/R3K3 w - - 0 1");
        let shut = evaluate("shatranj", "4k3/pppppppp/8/8/8/8/1PPPPPPP/4K2R w - - 0 1");
        assert!(open > shut + 10, "{open} vs {shut}");
    }

    #[test]
    fn a_promotion_pool_is_no_material() {
        // Great shatranj: White's king alone against five commoners Black's
        // pawns became, which took five of Black's nine from the pool; White's
        // nine are still there, and no use to a side without pawns.
        let bare = evaluate("great", "4k5/10/3sssss2/10/10/10/10/4K5[SSSSSSSSSssss] w - - 0 1");
        assert!(bare < -1000, "{bare}");
    }

    #[test]
    fn in_losers_every_man_is_one_more_to_give_away() {
        let fewer = evaluate("losers", "4k3/pppppppp/8/8/8/8/4P3/4K3 w - - 0 1");
        let more = evaluate("losers", "4k3/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
        assert!(fewer > more + 1000, "{fewer} vs {more}");
        assert!(fewer > 300, "White has given almost everything away: {fewer}");
    }

    #[test]
    fn a_definition_the_plugin_never_saw_is_scored() {
        let text = "[mine:chess]\nqueen = -\namazon = a\nstartFen = rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1\n";
        let mut catalog = Catalog::builtin();
        catalog.add_file(text, "mine.ini").unwrap();
        let definition = &catalog.get("mine").unwrap().definition;
        let mut evaluator = Fairy::new_defined_evaluator(definition).unwrap();
        let variant = Catalog::read_definition(definition).unwrap();
        let position = Position::start(variant).unwrap();
        assert!(evaluator.evaluate(&position.to_board_position()).abs() < 30);
        assert!(Fairy::new_defined_evaluator("[broken").is_err());
    }
}
