//! When to resign, when to offer a draw and when to take one: decisions that
//! depend on the score over several moves and on who the opponent is.

use plugboard_plugin_api::{Score, ScoreKind};

/// A score from a search shallower than this is too likely to be the artefact
/// of a short search (a blunder check that has not resolved) to resign on.
const MIN_RESIGN_DEPTH: u32 = 5;
/// Never resign while the opponent could still lose on time.
const MIN_OPPONENT_TIME_CS: i64 = 1000;
/// Each rating point difference is worth this many tenths of a centipawn of contempt.
const RATING_POINTS_PER_CP: i32 = 10;
const MAX_RATING_CONTEMPT_CP: i32 = 100;
/// Humans blunder late in games more than engines do: play on a little longer.
const HUMAN_CONTEMPT_CP: i32 = 20;
/// Scores this close to zero, move after move, say the position is dead.
const DEAD_DRAW_CP: i32 = 15;
const DEAD_DRAW_MOVES: u32 = 10;
const WORSE_MOVES: u32 = 3;
/// Not before this move: early scores say little about how a game ends.
const FIRST_OFFER_MOVE: u32 = 20;
const MOVES_BETWEEN_OFFERS: u32 = 10;

/// How much worse than even the engine must stand before it takes a draw: the
/// `Contempt` option, raised against weaker opponents and lowered against
/// stronger ones (by the ratings of this game), and raised against humans.
pub fn contempt(base_cp: i32, ratings: Option<(i32, i32)>, computer: bool, on_server: bool) -> i32 {
    let rating_term = match ratings {
        // A rating of 0 means unrated: no information.
        Some((own, opponent)) if own > 0 && opponent > 0 => {
            ((own - opponent) / RATING_POINTS_PER_CP).clamp(-MAX_RATING_CONTEMPT_CP, MAX_RATING_CONTEMPT_CP)
        }
        _ => 0,
    };
    let human_term = if on_server && !computer { HUMAN_CONTEMPT_CP } else { 0 };
    base_cp.saturating_add(rating_term).saturating_add(human_term)
}

/// Whether a draw offer is worth taking at `score` (ours, in centipawns).
pub fn accepts_draw(score_cp: Option<i32>, contempt_cp: i32) -> bool {
    score_cp.is_some_and(|score| score <= -contempt_cp)
}

/// What the engine does with the move its search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Play,
    /// `offer draw`, then the move.
    OfferDrawAndPlay,
    /// `resign` instead of the move.
    Resign,
}

/// One finished search for a move, as the policy sees it.
#[derive(Debug, Clone, Copy)]
pub struct Judged {
    /// The score of the move about to be played, ours; `None` without a search.
    pub score: Option<Score>,
    pub depth: u32,
    pub fullmove: u32,
    pub pawnless: bool,
    /// The opponent's clock, when the GUI told us (`otim`).
    pub opponent_time_cs: Option<i64>,
}

/// Settings the policy reads, from the host options and the opponent.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// 0: never resign.
    pub resign_threshold_cp: i32,
    pub resign_moves: u32,
    pub draw_offers: bool,
    pub contempt_cp: i32,
}

/// The score history of one game.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    lost_streak: u32,
    dead_streak: u32,
    worse_streak: u32,
    last_offer_move: Option<u32>,
}

impl Policy {
    pub fn new_game(&mut self) {
        *self = Policy::default();
    }

    pub fn judge(&mut self, judged: &Judged, limits: &Limits) -> Verdict {
        let Some(score) = judged.score else {
            // A move made without a search tells nothing; it breaks no streak either.
            return Verdict::Play;
        };
        let lost = match score.kind {
            ScoreKind::Mate => score.value < 0,
            ScoreKind::Centipawns => {
                limits.resign_threshold_cp > 0
                    && score.value <= -limits.resign_threshold_cp
                    && judged.depth >= MIN_RESIGN_DEPTH
            }
        };
        self.lost_streak = if lost { self.lost_streak + 1 } else { 0 };
        let centipawns = (score.kind == ScoreKind::Centipawns).then_some(score.value);
        let dead = centipawns.is_some_and(|cp| cp.abs() <= DEAD_DRAW_CP);
        self.dead_streak = if dead { self.dead_streak + 1 } else { 0 };
        let worse = centipawns.is_some_and(|cp| cp <= -limits.contempt_cp);
        self.worse_streak = if worse { self.worse_streak + 1 } else { 0 };

        let opponent_may_flag = judged.opponent_time_cs.is_some_and(|cs| cs < MIN_OPPONENT_TIME_CS);
        if limits.resign_threshold_cp > 0 && self.lost_streak >= limits.resign_moves && !opponent_may_flag {
            return Verdict::Resign;
        }
        let dead_draw = self.dead_streak >= DEAD_DRAW_MOVES && (judged.pawnless || limits.contempt_cp <= DEAD_DRAW_CP);
        let offer_due = self.last_offer_move.is_none_or(|last| judged.fullmove >= last + MOVES_BETWEEN_OFFERS);
        if limits.draw_offers
            && judged.fullmove >= FIRST_OFFER_MOVE
            && offer_due
            && (dead_draw || self.worse_streak >= WORSE_MOVES)
        {
            self.last_offer_move = Some(judged.fullmove);
            return Verdict::OfferDrawAndPlay;
        }
        Verdict::Play
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits { resign_threshold_cp: 900, resign_moves: 3, draw_offers: true, contempt_cp: 50 };

    fn judged(score: Score, depth: u32, fullmove: u32) -> Judged {
        Judged { score: Some(score), depth, fullmove, pawnless: false, opponent_time_cs: Some(30_000) }
    }

    #[test]
    fn resigns_only_after_enough_lost_moves_in_a_row() {
        let mut policy = Policy::default();
        let limits = Limits { draw_offers: false, ..LIMITS };
        let lost = judged(Score::centipawns(-1200), 10, 30);
        assert_eq!(policy.judge(&lost, &limits), Verdict::Play);
        assert_eq!(policy.judge(&lost, &limits), Verdict::Play);
        // One better score (the opponent blundered back) starts the count again.
        assert_eq!(policy.judge(&judged(Score::centipawns(-100), 10, 31), &limits), Verdict::Play);
        assert_eq!(policy.judge(&lost, &limits), Verdict::Play);
        assert_eq!(policy.judge(&lost, &limits), Verdict::Play);
        assert_eq!(policy.judge(&lost, &limits), Verdict::Resign);
    }

    #[test]
    fn never_resigns_on_shallow_searches_mates_for_us_or_a_low_opponent_clock() {
        let mut policy = Policy::default();
        let shallow = judged(Score::centipawns(-2000), 3, 30);
        assert!((0..10).all(|_| policy.judge(&shallow, &LIMITS) != Verdict::Resign));
        let mut policy = Policy::default();
        let winning = judged(Score::mate_in(3), 2, 30);
        assert!((0..10).all(|_| policy.judge(&winning, &LIMITS) != Verdict::Resign));
        let mut policy = Policy::default();
        let flagging = Judged { opponent_time_cs: Some(500), ..judged(Score::mate_in(-2), 8, 30) };
        assert!((0..10).all(|_| policy.judge(&flagging, &LIMITS) != Verdict::Resign));
        let mut policy = Policy::default();
        let off = Limits { resign_threshold_cp: 0, ..LIMITS };
        assert!((0..10).all(|_| policy.judge(&judged(Score::mate_in(-2), 8, 30), &off) != Verdict::Resign));
        let mut policy = Policy::default();
        assert_eq!(
            (0..3).map(|_| policy.judge(&judged(Score::mate_in(-2), 8, 30), &LIMITS)).last(),
            Some(Verdict::Resign)
        );
    }

    #[test]
    fn offers_draws_in_dead_positions_and_not_too_often() {
        let mut policy = Policy::default();
        let level = Judged { pawnless: true, ..judged(Score::centipawns(0), 12, 40) };
        let verdicts: Vec<Verdict> = (0..10).map(|_| policy.judge(&level, &LIMITS)).collect();
        assert_eq!(verdicts.iter().filter(|&&v| v == Verdict::OfferDrawAndPlay).count(), 1);
        assert_eq!(verdicts[9], Verdict::OfferDrawAndPlay);
        assert_eq!(policy.judge(&Judged { fullmove: 45, ..level }, &LIMITS), Verdict::Play);
        assert_eq!(policy.judge(&Judged { fullmove: 50, ..level }, &LIMITS), Verdict::OfferDrawAndPlay);
        // With pawns and contempt for the opponent, a level score is no reason.
        let mut policy = Policy::default();
        let pawns = judged(Score::centipawns(0), 12, 40);
        assert!((0..20).all(|_| policy.judge(&pawns, &LIMITS) == Verdict::Play));
        // Early in the game, never.
        let mut policy = Policy::default();
        let early = Judged { pawnless: true, ..judged(Score::centipawns(-300), 12, 10) };
        assert!((0..20).all(|_| policy.judge(&early, &LIMITS) == Verdict::Play));
    }

    #[test]
    fn offers_a_draw_when_worse_by_the_contempt() {
        let mut policy = Policy::default();
        let worse = judged(Score::centipawns(-80), 12, 30);
        let off = Limits { draw_offers: false, ..LIMITS };
        assert!((0..5).all(|_| policy.judge(&worse, &off) == Verdict::Play));
        let mut policy = Policy::default();
        let verdicts: Vec<Verdict> = (0..3).map(|_| policy.judge(&worse, &LIMITS)).collect();
        assert_eq!(verdicts, [Verdict::Play, Verdict::Play, Verdict::OfferDrawAndPlay]);
    }

    #[test]
    fn contempt_follows_ratings_and_the_kind_of_opponent() {
        assert_eq!(contempt(50, None, false, false), 50);
        assert_eq!(contempt(50, Some((2000, 1700)), true, true), 80);
        assert_eq!(contempt(50, Some((1700, 2000)), true, true), 20);
        assert_eq!(contempt(50, Some((2900, 900)), true, true), 150);
        // Unrated: no rating term; a human on a server: play on a little longer.
        assert_eq!(contempt(50, Some((0, 1500)), false, true), 70);
        assert!(accepts_draw(Some(-80), 80));
        assert!(!accepts_draw(Some(-79), 80));
        assert!(!accepts_draw(None, 80));
        assert!(accepts_draw(Some(10), -20));
    }
}
