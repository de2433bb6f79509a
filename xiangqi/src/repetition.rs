//! Repeated positions, judged as xboard 4.9 judges them in xiangqi: the
//! repetition test of `Adjudicate` in xboard's `backend.c` (under "Check for
//! rep-draws", with `MateTest` for checks and `PerpetualChase` of `moves.c`
//! for chases; see `chase`).
//!
//! xboard looks back over the positions with the same side to move, two
//! plies at a time, as long as no capture or forward soldier step came
//! between, and at most 100 plies. When the current position has occurred
//! `occurrences - 1` times before (6 in all by default, `-drawRepeats`),
//! it judges the whole stretch from that earliest occurrence to now:
//! - if every move of the side that just moved gave check and not every
//!   move of the other side did, the side that just moved loses (perpetual
//!   check); if only the other side checked throughout, nothing is decided
//!   yet (it will lose when it repeats in turn); if both did, a draw;
//! - with no perpetual check, the same with chases: a side chases
//!   perpetually when some enemy piece is chased by every one of its moves
//!   in the stretch, followed as the piece moves; only the side that just
//!   moved can lose, a lone chase by the other side decides nothing yet, and
//!   both or neither chasing is a draw.
//!
//! xboard does not count the game's first position when the game began from
//! a FEN (its status there is "unknown"), but does when it began from the
//! opening position (`Rule::first_position_counts`).

use std::fmt;

use crate::chase::chases_between;
use crate::{Color, Move, Position, Square};

/// What a repetition decides.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Verdict {
    /// `loser` gave check with every move of the repeated stretch.
    PerpetualCheck { loser: Color },
    /// `loser` chased the piece now on `chased` with every move of it.
    PerpetualChase { loser: Color, chased: Square },
    /// Neither side, or both, forced the repetition.
    Draw,
}

/// In xboard's words (`{Xboard adjudication: perpetual chasing of g7}`).
impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::PerpetualCheck { .. } => f.write_str("perpetual checking"),
            Verdict::PerpetualChase { chased, .. } => write!(f, "perpetual chasing of {chased}"),
            Verdict::Draw => f.write_str("repetition draw"),
        }
    }
}

impl Verdict {
    /// The side that wins, `None` for a draw.
    #[must_use]
    pub fn winner(self) -> Option<Color> {
        match self {
            Verdict::PerpetualCheck { loser } | Verdict::PerpetualChase { loser, .. } => Some(!loser),
            Verdict::Draw => None,
        }
    }
}

/// When a repetition is judged.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rule {
    /// How many times the position must have occurred, the current time
    /// included (xboard's `-drawRepeats`, 6 by default). A search may ask
    /// with 2 to know what repeating would mean.
    pub occurrences: usize,
    /// Whether the game's first position counts: yes when the game began
    /// from the opening position, no when it began from a FEN.
    pub first_position_counts: bool,
}

impl Rule {
    /// xboard 4.9's default, for a game set up from a FEN.
    pub const XBOARD: Rule = Rule { occurrences: 6, first_position_counts: false };
}

/// How far back xboard looks for an earlier occurrence, in plies.
const HORIZON: usize = 100;

/// The verdict on the game so far, if its last position has now occurred
/// `rule.occurrences` times: `positions[0]` is the first position and
/// `positions[i + 1]` the one after `moves[i]`.
///
/// `None` when there is no such repetition, or when only the side to move
/// kept checking or chasing (xboard then waits for that side's own repeat).
///
/// # Panics
/// If `positions` is not one longer than `moves`.
#[must_use]
pub fn judge(positions: &[Position], moves: &[Move], rule: Rule) -> Option<Verdict> {
    let first = earliest_repeat(positions, moves, rule)?;
    let last = moves.len();
    let mover = !positions[last].turn();
    // Positions after the mover's moves are last, last - 2, …; after the
    // other side's, last - 1, last - 3, … down to first + 1.
    let mover_checks = (first + 2..=last).step_by(2).all(|i| positions[i].is_check());
    let other_checks = (first + 1..last).step_by(2).all(|i| positions[i].is_check());
    match (mover_checks, other_checks) {
        (true, false) => return Some(Verdict::PerpetualCheck { loser: mover }),
        (false, true) => return None,
        (true, true) => return Some(Verdict::Draw),
        (false, false) => {}
    }
    let mover_chases = perpetual_chase(positions, moves, first + 1);
    let other_chases = perpetual_chase(positions, moves, first);
    match (mover_chases, other_chases) {
        (Some(chased), None) => Some(Verdict::PerpetualChase { loser: mover, chased }),
        (None, Some(_)) => None,
        _ => Some(Verdict::Draw),
    }
}

/// How many times the last position occurred before, looking back as xboard
/// does (same side to move, no irreversible move between, 100 plies at most).
/// xboard accepts a draw claim from the third occurrence on (2 here).
///
/// # Panics
/// If `positions` is not one longer than `moves`.
#[must_use]
pub fn earlier_occurrences(positions: &[Position], moves: &[Move], first_position_counts: bool) -> usize {
    earlier(positions, moves, first_position_counts).count()
}

/// The index of the earliest of the `rule.occurrences - 1` earlier
/// occurrences xboard needs, if there are that many.
fn earliest_repeat(positions: &[Position], moves: &[Move], rule: Rule) -> Option<usize> {
    if rule.occurrences < 2 {
        return None;
    }
    earlier(positions, moves, rule.first_position_counts).nth(rule.occurrences - 2)
}

/// Indices of the earlier occurrences of the last position, latest first.
fn earlier<'a>(
    positions: &'a [Position],
    moves: &'a [Move],
    first_position_counts: bool,
) -> impl Iterator<Item = usize> + 'a {
    assert_eq!(positions.len(), moves.len() + 1, "one position more than moves");
    let last = moves.len();
    let current = &positions[last];
    (0..last.saturating_sub(1))
        .rev()
        .step_by(2)
        .take_while(move |&k| {
            k + HORIZON >= last
                && (k > 0 || first_position_counts)
                && !positions[k].is_irreversible(moves[k])
                && !positions[k + 1].is_irreversible(moves[k + 1])
        })
        .filter(move |&k| positions[k].same_placement(current))
}

/// Whether the side to move at `positions[first]` chased one enemy piece
/// with each of its moves from there to the end; the piece's point at the
/// last of them if so.
///
/// xboard names the piece by reading one slot past its list of chased
/// pieces; with one chased piece (the usual case) that slot holds the piece's
/// point at the last chase, which is what this returns. With several, xboard
/// may name another point; the verdict is the same.
fn perpetual_chase(positions: &[Position], moves: &[Move], first: usize) -> Option<Square> {
    let last = moves.len();
    let mut prey: Vec<Square> = Vec::new();
    let mut named = None;
    for i in (first..last).step_by(2) {
        let chases = chases_between(&positions[i], moves[i], &positions[i + 1]);
        if i == first {
            for c in chases.iter() {
                if !prey.contains(&c.to) {
                    prey.push(c.to);
                }
            }
        }
        prey.retain(|sq| chases.iter().any(|c| c.to == *sq));
        named = prey.first().copied();
        // Follow each chased piece through the reply.
        if let Some(&reply) = moves.get(i + 1)
            && let Some(sq) = prey.iter_mut().find(|sq| **sq == reply.from)
        {
            *sq = reply.to;
        }
    }
    named
}
