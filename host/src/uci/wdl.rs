//! `UCI_ShowWDL`: a score read as the chances of a win, a draw and a loss for
//! the side to move, in permille, by the logistic model Stockfish uses: the
//! chance of a win rises from half at `MIDPOINT_CP` with a spread of
//! `SPREAD_CP`, a loss is the same seen from the other side, and the rest is
//! the draw.
//!
//! The two constants were fitted by maximum likelihood to Plugboard's own
//! self-play games (`plugboard datagen --nodes 5000 --seed 7`, 500 games,
//! 44 742 positions scored within ±7 pawns by `alphabeta` with `pesto`): at
//! level scores it sees 30 % wins, 39 % draws and 30 % losses, as those games
//! did. They are the chances in games between equals that search that deep.

use plugboard_plugin_api::{Score, ScoreKind};

const MIDPOINT_CP: f64 = 140.0;
const SPREAD_CP: f64 = 168.0;

/// Win, draw and loss for the side to move, in permille, adding up to 1000.
pub fn per_mille(score: Score) -> (u32, u32, u32) {
    if score.kind == ScoreKind::Mate {
        return if score.value > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    let cp = f64::from(score.value);
    let chance = |advantage: f64| 1000.0 / (1.0 + ((MIDPOINT_CP - advantage) / SPREAD_CP).exp());
    let win = (chance(cp).round() as u32).min(1000);
    // Rounding must not take the two past the whole.
    let loss = (chance(-cp).round() as u32).min(1000 - win);
    (win, 1000 - win - loss, loss)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_add_up_and_follow_the_score() {
        let mut last_win = 0;
        for cp in [-30_000, -900, -140, -1, 0, 1, 140, 900, 30_000] {
            let (win, draw, loss) = per_mille(Score::centipawns(cp));
            assert_eq!(win + draw + loss, 1000, "{cp}");
            // The other side's chances are these, turned round.
            let (_, mirrored_draw, mirrored_loss) = per_mille(Score::centipawns(-cp));
            assert_eq!((win, draw), (mirrored_loss, mirrored_draw), "{cp}");
            assert!(win >= last_win, "a better score, no worse chance: {cp}");
            last_win = win;
        }
        // Level: as likely to win as to lose, and a draw the likeliest single result.
        let (win, draw, loss) = per_mille(Score::centipawns(0));
        assert_eq!(win, loss);
        assert!(draw > win);
        // At the midpoint a win is even money.
        assert_eq!(per_mille(Score::centipawns(140)).0, 500);
        assert!(per_mille(Score::centipawns(900)).0 > 950);
        assert_eq!(per_mille(Score::mate_in(3)), (1000, 0, 0));
        assert_eq!(per_mille(Score::mate_in(-2)), (0, 0, 1000));
    }
}
