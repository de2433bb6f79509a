//! The self-play loop both games' data comes from: an opening that neither
//! side is far ahead in, then a search per move at a fixed node count, the
//! game ended by its rules or by the scores ([`Adjudicator`]), and the quiet
//! positions kept with the search's score from the first player's side. What
//! differs between chess ([`super::game`]) and xiangqi ([`super::xiangqi`]) —
//! the rules, the search entry and the record — sits behind [`SelfPlay`].

use plugboard_eval_nnue::{data::Outcome, random::SplitMix64};
use plugboard_plugin_api::{Bound, InfoKind, ScoreKind, SearchInfo};
use std::sync::Mutex;

/// An opening is searched once and dropped if one side is already this far ahead.
const OPENING_MARGIN: i32 = 300;
/// A side this far ahead for `WIN_PLIES` plies in a row has won.
const WIN_SCORE: i32 = 1500;
const WIN_PLIES: u32 = 4;
/// After `DRAW_FROM_PLY`, a score this close to level for `DRAW_PLIES` plies in a row is a draw.
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: u32 = 12;
const DRAW_FROM_PLY: usize = 80;
/// A game longer than this is a draw; no opening is longer either.
pub const MAX_PLIES: usize = 400;
/// Openings tried before giving up on finding a balanced one.
const OPENING_TRIES: usize = 1000;

/// The score of a search, from the side to move's view: centipawns, or a mate.
#[derive(Clone, Copy)]
pub(super) enum Verdict {
    Centipawns(i32),
    /// The side to move mates (true) or is mated (false).
    Mate(bool),
}

/// One game's line of play, as the loop needs it.
pub(super) trait SelfPlay {
    type Move: Copy;
    /// A position as it is kept until the game's result is known.
    type Kept;

    /// The result the rules give, if the game is over by them.
    fn ended(&self) -> Option<Outcome>;
    fn plies(&self) -> usize;
    fn first_player_to_move(&self) -> bool;
    fn play(&mut self, m: Self::Move);
    /// A legal move drawn by `random`.
    fn random_move(&self, random: &mut SplitMix64) -> Self::Move;
    /// The best move and its score by a search of the node budget; no score
    /// when the nodes ran out before the search's first line.
    fn search(&self, clear_hash: bool) -> Result<(Self::Move, Option<Verdict>), String>;
    /// The position to move, if it is worth learning from with `best` as its
    /// best move: not in check and `best` no capture (nor promotion), since a
    /// score resting on tactics says little about what the board shows.
    fn keep(&self, best: Self::Move) -> Option<Self::Kept>;
}

/// A finished game: the positions kept with their first-player scores, how
/// it ended and how long it was.
pub(super) struct Finished<K> {
    pub(super) kept: Vec<(K, i32)>,
    pub(super) outcome: Outcome,
    pub(super) plies: usize,
}

/// Plays `line` out from its opening.
pub(super) fn play_out<G: SelfPlay>(mut line: G) -> Result<Finished<G::Kept>, String> {
    let first_kept = line.plies();
    let mut kept = Vec::new();
    let mut adjudicator = Adjudicator::default();
    let first_player_wins = |yes: bool| if yes { Outcome::WhiteWins } else { Outcome::BlackWins };
    let outcome = loop {
        if let Some(outcome) = line.ended() {
            break outcome;
        }
        if line.plies() >= MAX_PLIES {
            break Outcome::Draw;
        }
        let fresh = line.plies() == first_kept;
        let (best, verdict) = line.search(fresh)?;
        let first_to_move = line.first_player_to_move();
        let centipawns = match verdict {
            Some(Verdict::Mate(wins)) => break first_player_wins(wins == first_to_move),
            Some(Verdict::Centipawns(score)) => score,
            None => {
                // The node limit ended the search before its first line: a move, but no label.
                line.play(best);
                continue;
            }
        };
        let first_player_score = if first_to_move { centipawns } else { -centipawns };
        if let Some(outcome) = adjudicator.judge(first_player_score, line.plies()) {
            break outcome;
        }
        if let Some(position) = line.keep(best) {
            kept.push((position, first_player_score));
        }
        line.play(best);
    };
    Ok(Finished { kept, outcome, plies: line.plies() })
}

/// Plays up to `plies` random moves, fewer if the game ends by the rules
/// first: a game over by them (a repetition, bare kings) may have legal moves
/// still, which would go on for as long as asked.
pub(super) fn play_random<G: SelfPlay>(line: &mut G, plies: u32, random: &mut SplitMix64) {
    for _ in 0..plies {
        if line.ended().is_some() {
            break;
        }
        let m = line.random_move(random);
        line.play(m);
    }
}

/// The first opening `candidate` makes that is not over and that a search
/// finds neither side far ahead in.
pub(super) fn balanced_opening<G: SelfPlay>(mut candidate: impl FnMut() -> Result<G, String>) -> Result<G, String> {
    for _ in 0..OPENING_TRIES {
        let line = candidate()?;
        if line.ended().is_some() {
            continue;
        }
        if let (_, Some(Verdict::Centipawns(score))) = line.search(true)?
            && score.abs() <= OPENING_MARGIN
        {
            return Ok(line);
        }
    }
    Err(format!("no balanced opening in {OPENING_TRIES} tries"))
}

/// Ends a game by its scores: won when one side has been far ahead for a few
/// plies, drawn when the score has stayed level for long after the opening.
#[derive(Default)]
struct Adjudicator {
    /// Plies in a row with one side this far ahead: positive for the first player, negative for the second.
    winning: i32,
    level: u32,
}

impl Adjudicator {
    /// The search scored `first_player_score` (from White's or Red's side) at `ply`.
    fn judge(&mut self, first_player_score: i32, ply: usize) -> Option<Outcome> {
        self.winning = match (first_player_score >= WIN_SCORE, first_player_score <= -WIN_SCORE) {
            (true, _) => self.winning.max(0) + 1,
            (_, true) => self.winning.min(0) - 1,
            _ => 0,
        };
        if self.winning.unsigned_abs() >= WIN_PLIES {
            return Some(if self.winning > 0 { Outcome::WhiteWins } else { Outcome::BlackWins });
        }
        let level = first_player_score.abs() <= DRAW_SCORE && ply >= DRAW_FROM_PLY;
        self.level = if level { self.level + 1 } else { 0 };
        (self.level >= DRAW_PLIES).then_some(Outcome::Draw)
    }
}

/// The last thing a search's lines said of the position with an exact score:
/// a bound is no label.
#[derive(Default)]
pub(super) struct LastLabel(Mutex<Option<Verdict>>);

impl LastLabel {
    pub(super) fn note(&self, info: &SearchInfo<'_>) {
        if info.kind != InfoKind::Line || info.score.bound != Bound::Exact {
            return;
        }
        let verdict = match info.score.kind {
            ScoreKind::Mate => Verdict::Mate(info.score.value > 0),
            ScoreKind::Centipawns => Verdict::Centipawns(info.score.value),
        };
        if let Ok(mut last) = self.0.lock() {
            *last = Some(verdict);
        }
    }

    pub(super) fn into_verdict(self) -> Option<Verdict> {
        self.0.into_inner().ok().flatten()
    }
}
