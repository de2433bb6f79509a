//! Each way of taking walked back once from every square when the variant is
//! compiled, so that asking whether a square is attacked reads square lists
//! instead of stepping coordinates and testing the board's edges at every node.
//! The plain leaps (one step, no way to block, no first-move-only capture)
//! are gathered per square into one list of the squares they come from, with
//! the kinds that leap so: most ways of taking are such leaps (a knight's
//! eight, a king's, ferz's or pawn's steps), and one list asks about them all.

use crate::betza::Hop;
use crate::square::{Square, file_of, rank_of, square};

use super::{AttackRay, KindSet};

/// Squares on a board of at most 16 × 16, and so walks per way.
const SQUARES: usize = 256;

/// The squares met walking back from each square along each of one colour's
/// [`AttackRay`]s: nearest first, stopping at the board's edge, back at the
/// start (a wrapping ray), or at the ray's reach.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BackWalks {
    /// Per way and square: where its squares start in `squares`, and how many.
    spans: Vec<(u32, u8)>,
    squares: Vec<Square>,
    /// Per square: where its plain leaps start in `leaps`, and how many.
    leap_spans: Vec<(u32, u16)>,
    /// The square a plain leap comes from, and the kinds that leap so.
    leaps: Vec<(Square, KindSet)>,
    /// The ways that are not plain leaps, by number.
    others: Vec<usize>,
}

/// Whether the way is a plain leap: one step that nothing blocks and that
/// every piece of its kinds may take from anywhere.
fn is_plain_leap(attack: &AttackRay) -> bool {
    let ray = &attack.ray;
    ray.hop == Hop::No && ray.range == 1 && ray.lame_ways == 0 && !ray.initial
}

impl BackWalks {
    pub(super) fn new(rays: &[AttackRay], files: u8, ranks: u8) -> BackWalks {
        let mut walks = BackWalks {
            spans: Vec::with_capacity(rays.len() * SQUARES),
            squares: Vec::new(),
            leap_spans: Vec::with_capacity(SQUARES),
            leaps: Vec::new(),
            others: (0..rays.len()).filter(|&index| !is_plain_leap(&rays[index])).collect(),
        };
        for attack in rays {
            let ray = &attack.ray;
            // A slider looks as far as the widest board; a hopper one step
            // further, past its screen.
            let reach = match (ray.hop, ray.range) {
                (Hop::No, 0) => 16,
                (Hop::No, range) => usize::from(range),
                _ => 17,
            };
            for target in 0..SQUARES {
                let start = walks.squares.len();
                let target = target as Square;
                let on_board = file_of(target) < files && rank_of(target) < ranks;
                let mut at = target;
                while on_board && walks.squares.len() - start < reach {
                    let Some(next) = step(at, -ray.df, -ray.dr, ray.wraps, files, ranks) else { break };
                    if next == target {
                        break;
                    }
                    walks.squares.push(next);
                    at = next;
                }
                walks.spans.push((start as u32, (walks.squares.len() - start) as u8));
            }
        }
        for target in 0..SQUARES {
            let start = walks.leaps.len();
            for (index, attack) in rays.iter().enumerate().filter(|(_, attack)| is_plain_leap(attack)) {
                if let Some(&from) = walks.walk(index, target as Square).first() {
                    walks.leaps.push((from, attack.kinds));
                }
            }
            walks.leap_spans.push((start as u32, (walks.leaps.len() - start) as u16));
        }
        walks
    }

    /// The squares from which a plain leap reaches `target`, each with the
    /// kinds that leap so.
    #[inline]
    #[must_use]
    pub fn leaps_to(&self, target: Square) -> &[(Square, KindSet)] {
        let (start, len) = self.leap_spans[usize::from(target)];
        &self.leaps[start as usize..start as usize + usize::from(len)]
    }

    /// The numbers of the ways that are not plain leaps.
    #[inline]
    #[must_use]
    pub fn others(&self) -> &[usize] {
        &self.others
    }

    /// The squares walked back from `target` along way number `ray`.
    #[inline]
    #[must_use]
    pub fn walk(&self, ray: usize, target: Square) -> &[Square] {
        let (start, len) = self.spans[ray * SQUARES + usize::from(target)];
        &self.squares[start as usize..start as usize + usize::from(len)]
    }
}

/// The square (df, dr) from `from` on a board `files` × `ranks`; the file wraps
/// round when `wraps`.
#[inline]
#[must_use]
pub fn step(from: Square, df: i8, dr: i8, wraps: bool, files: u8, ranks: u8) -> Option<Square> {
    let files = i16::from(files);
    let mut file = i16::from(file_of(from)) + i16::from(df);
    let rank = i16::from(rank_of(from)) + i16::from(dr);
    if wraps {
        file = file.rem_euclid(files);
    }
    if file < 0 || file >= files || rank < 0 || rank >= i16::from(ranks) {
        return None;
    }
    Some(square(file as u8, rank as u8))
}
