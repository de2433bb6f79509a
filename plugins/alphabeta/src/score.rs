//! What a search score means, and how it is shown to the host.
//!
//! Scores are centipawns for the side to move. Mates sit at the top of the
//! range as distances from the root, tablebase results in a band just below
//! them, and every evaluation below that. The orthodox search, the variant
//! search, the transposition table and move ordering all depend on this
//! layout, so it lives here, apart from any of them.

use plugboard_plugin_api::{EVAL_LIMIT, Score};

/// Deepest ply the search reaches, quiescence included; also the depth cap, and
/// so the longest mate a score can hold.
pub const MAX_PLY: usize = 128;
/// Score of mating at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores at least this large (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;
/// Above every score: the bounds of a full window.
pub const INFINITY: i32 = MATE + 1;
pub const DRAW: i32 = 0;

/// A tablebase win scores this, less the plies to the position the tables call
/// won: just below every mate, above every evaluation (which the API clamps to
/// [`EVAL_LIMIT`], noise aside), so a sure win always beats a good position.
pub const TABLEBASE_WIN: i32 = MATE_BOUND - 1;
/// Scores at least this large in absolute value, and no mates, are tablebase
/// results: a win found at any ply, seen from any other.
pub const TABLEBASE_BOUND: i32 = TABLEBASE_WIN - 2 * MAX_PLY as i32;
/// A tablebase win is reported as this many centipawns less the plies to it, as
/// the host shows the tables' own verdict at the root ("+199.97" reads as a
/// tablebase win in any GUI).
pub const TABLEBASE_SHOWN: i32 = 20_000;
const _: () = assert!(TABLEBASE_BOUND > EVAL_LIMIT + 1_000 && TABLEBASE_SHOWN - (MAX_PLY as i32) > EVAL_LIMIT / 2);

/// The ABI score the orthodox search reports: as [`to_score`], and a tablebase
/// result as [`TABLEBASE_SHOWN`] less the plies to it.
pub fn shown_score(score: i32) -> Score {
    if (TABLEBASE_BOUND..MATE_BOUND).contains(&score.abs()) {
        let plies = TABLEBASE_WIN - score.abs();
        Score::centipawns(score.signum() * (TABLEBASE_SHOWN - plies))
    } else {
        to_score(score)
    }
}

/// The ABI score for a search score: mates as moves to mate, the rest as centipawns.
pub fn to_score(score: i32) -> Score {
    if score >= MATE_BOUND {
        Score::mate_in((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Score::mate_in(-(MATE + score + 1) / 2)
    } else {
        Score::centipawns(score)
    }
}

#[cfg(test)]
mod tests {
    use plugboard_plugin_api::ScoreKind;

    use super::*;

    #[test]
    fn tablebase_results_are_shown_as_the_host_shows_them() {
        let shown = |score: i32| {
            let score = shown_score(score);
            (score.kind, score.value)
        };
        assert_eq!(shown(TABLEBASE_WIN - 3), (ScoreKind::Centipawns, TABLEBASE_SHOWN - 3));
        assert_eq!(shown(-TABLEBASE_WIN + 3), (ScoreKind::Centipawns, -TABLEBASE_SHOWN + 3));
        assert_eq!(shown(TABLEBASE_BOUND), (ScoreKind::Centipawns, TABLEBASE_SHOWN - 2 * MAX_PLY as i32));
        // Evaluations and mates are left as they are.
        assert_eq!(shown(EVAL_LIMIT), (ScoreKind::Centipawns, EVAL_LIMIT));
        assert_eq!(shown(-250), (ScoreKind::Centipawns, -250));
        assert_eq!(shown(MATE - 3), (ScoreKind::Mate, 2));
        assert_eq!(shown(-MATE + 4), (ScoreKind::Mate, -2));
    }
}
