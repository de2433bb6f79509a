//! What each variant adds to (or puts in place of) the evaluation plugin's score.
//!
//! Evaluation plugins score the pieces on the board; the goals that make a variant
//! a variant (a king racing up the board, checks counted, pieces in hand, losing
//! material on purpose) are scored here, so any evaluation plays every variant.

use plugboard_plugin_api::Variant;
use shakmaty::{Color, Position, Role, Square, variant::VariantPosition};

/// Centipawns of a piece in hand: as much as on the board, since it can be dropped anywhere.
const POCKET_VALUES: [(Role, i32); 5] =
    [(Role::Pawn, 100), (Role::Knight, 300), (Role::Bishop, 320), (Role::Rook, 480), (Role::Queen, 900)];
/// Worth of each check still needed by the opponent and not by us (three-check).
const CHECK_VALUE: i32 = 150;
/// Worth of each rank a racing king has climbed.
const RANK_VALUE: i32 = 60;
/// Worth of each step a king is closer to the hill than its rival.
const HILL_STEP_VALUE: i32 = 40;
/// Worth of each piece fewer than the opponent when losing pieces is the goal.
const GIVEAWAY_PIECE_VALUE: i32 = 80;

/// Whether the variant throws out the ordinary evaluation altogether: in suicide
/// and giveaway material is a burden, not an asset.
pub fn replaces_evaluation(variant: Variant) -> bool {
    matches!(variant, Variant::SUICIDE | Variant::GIVEAWAY)
}

/// The variant's own score of `position` for its side to move, in centipawns.
pub fn score(position: &VariantPosition, variant: Variant) -> i32 {
    let us = position.turn();
    let for_us = |white: i32, black: i32| if us == Color::White { white - black } else { black - white };
    match variant {
        Variant::CRAZYHOUSE => position.pockets().map_or(0, |pockets| {
            let worth = |color: Color| {
                POCKET_VALUES.iter().map(|&(role, value)| i32::from(*pockets.get(color).get(role)) * value).sum()
            };
            for_us(worth(Color::White), worth(Color::Black))
        }),
        Variant::THREE_CHECK => position.remaining_checks().map_or(0, |checks| {
            // Fewer checks still to give is better, so the opponent's count is our gain.
            let needed = |color: Color| u32::from(*checks.get(color)) as i32;
            for_us(needed(Color::Black), needed(Color::White)) * CHECK_VALUE
        }),
        Variant::RACING_KINGS => {
            let climbed = |color: Color| position.board().king_of(color).map_or(0, |king| i32::from(king.rank() as u8));
            for_us(climbed(Color::White), climbed(Color::Black)) * RANK_VALUE
        }
        Variant::KING_OF_THE_HILL => {
            let closeness = |color: Color| position.board().king_of(color).map_or(0, |king| 3 - hill_distance(king));
            for_us(closeness(Color::White), closeness(Color::Black)) * HILL_STEP_VALUE
        }
        Variant::SUICIDE | Variant::GIVEAWAY => {
            let pieces = |color: Color| position.board().by_color(color).count() as i32;
            // Fewer pieces is the goal: the opponent's count is our gain.
            for_us(pieces(Color::Black), pieces(Color::White)) * GIVEAWAY_PIECE_VALUE
        }
        _ => 0,
    }
}

/// King steps from `square` to the nearest of d4, e4, d5, e5.
fn hill_distance(square: Square) -> i32 {
    let file = i32::from(square.file() as u8);
    let rank = i32::from(square.rank() as u8);
    let off = |coordinate: i32| if coordinate < 3 { 3 - coordinate } else { (coordinate - 4).max(0) };
    off(file).max(off(rank))
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, fen::Fen};

    use super::*;

    fn position(variant: Variant, fen: &str) -> VariantPosition {
        let fen: Fen = fen.parse().unwrap();
        VariantPosition::from_setup(
            plugboard_shakmaty::rules_of(variant).unwrap(),
            fen.into_setup(),
            CastlingMode::Chess960,
        )
        .unwrap()
    }

    #[test]
    fn the_hill_is_four_squares() {
        for name in ["d4", "e4", "d5", "e5"] {
            assert_eq!(hill_distance(name.parse().unwrap()), 0, "{name}");
        }
        assert_eq!(hill_distance(Square::A1), 3);
        assert_eq!(hill_distance(Square::C6), 1);
    }

    #[test]
    fn each_goal_counts_for_the_side_closer_to_it() {
        let racing = position(Variant::RACING_KINGS, "8/8/8/8/K7/8/8/7k w - - 0 1");
        assert_eq!(score(&racing, Variant::RACING_KINGS), 3 * RANK_VALUE);
        let checks = position(Variant::THREE_CHECK, "4k3/8/8/8/8/8/8/4K3 b - - 1+3 0 1");
        assert_eq!(score(&checks, Variant::THREE_CHECK), -2 * CHECK_VALUE);
        let house = position(Variant::CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[Nq] w - - 0 1");
        assert_eq!(score(&house, Variant::CRAZYHOUSE), 300 - 900);
        let suicide = position(Variant::SUICIDE, "8/8/8/8/8/8/pp6/N7 w - - 0 1");
        assert_eq!(score(&suicide, Variant::SUICIDE), GIVEAWAY_PIECE_VALUE);
    }
}
