//! Which squares a side attacks, and whether a side's royal piece stands in
//! check: each capture ray walked backwards from the square attacked.

use std::sync::atomic::Ordering;

use super::{IN_CHECK, NOT_IN_CHECK, Position, color_of, kind_of};
use crate::betza::{Hop, Ray};
use crate::definition::AttackRay;
use crate::definition::rules::RoyalRule;
use crate::square::{Square, SquareSet, file_of, rank_of};

impl Position {
    /// The ray as `color` plays it: the second player's turned half round.
    #[inline]
    pub(crate) fn oriented(ray: &Ray, color: u8) -> (i8, i8) {
        Position::turned((ray.df, ray.dr), color)
    }

    /// A step `(files, ranks)` as the first player writes it, as `color`
    /// takes it: the second player's pieces face the other way.
    #[inline(always)]
    pub(crate) fn turned((df, dr): (i8, i8), color: u8) -> (i8, i8) {
        if color == 0 { (df, dr) } else { (-df, -dr) }
    }

    /// Whether the lame leap `ray` from `from`, as `color` plays it, finds one
    /// of its ways empty.
    #[inline(always)]
    pub(crate) fn lame_path_clear(&self, from: Square, ray: &Ray, color: u8) -> bool {
        self.lame_way_open(from, ray, color, None)
    }

    /// [`Position::lame_path_clear`] with the piece on `vacated` taken away.
    #[inline(always)]
    fn lame_way_open(&self, from: Square, ray: &Ray, color: u8, vacated: Option<Square>) -> bool {
        // Most leaps are not lame: answered where asked, without a call.
        ray.lame_ways == 0 || self.some_lame_way_open(from, ray, color, vacated)
    }

    fn some_lame_way_open(&self, from: Square, ray: &Ray, color: u8, vacated: Option<Square>) -> bool {
        ray.lame_ways().any(|way| {
            way.iter().all(|&(df, dr)| {
                let (df, dr) = if color == 0 { (df, dr) } else { (-df, -dr) };
                self.offset(from, df, dr, ray.wraps)
                    .is_some_and(|square| self.piece_at(square) == 0 || Some(square) == vacated)
            })
        })
    }

    /// Whether a piece of `by` could take on `target` (moves of pieces that
    /// may only move there, and en passant, aside).
    #[must_use]
    pub fn is_attacked(&self, target: Square, by: u8) -> bool {
        self.find_attacker(target, by, |_, _| true)
    }

    /// Calls `stop` with the square and code of each piece of `by` that could
    /// take on `target` (as [`Position::is_attacked`] counts them, a piece
    /// once for each way it has there) until it answers true; whether one did.
    #[inline]
    pub(crate) fn find_attacker(&self, target: Square, by: u8, mut stop: impl FnMut(Square, u8) -> bool) -> bool {
        let walks = &self.variant.back_walks[usize::from(by)];
        let leaped = walks.leaps_to(target).iter().any(|&(from, kinds)| {
            let code = self.piece_at(from);
            code != 0 && color_of(code) == by && kinds >> kind_of(code) & 1 != 0 && stop(from, code)
        });
        if leaped {
            return true;
        }
        let present = self.present[usize::from(by)];
        let attacks = &self.variant.attack_rays[usize::from(by)];
        walks.others().iter().any(|&index| {
            let attack = &attacks[index];
            attack.kinds & present != 0
                && self.reaches_back(target, index, attack, by).is_some_and(|from| stop(from, self.piece_at(from)))
        })
    }

    /// Where a piece of `by` of one of `attack`'s kinds (way number `index`)
    /// stands that the way takes to `target`, if one does.
    fn reaches_back(&self, target: Square, index: usize, attack: &AttackRay, by: u8) -> Option<Square> {
        let ray = &attack.ray;
        let is_attacker = |code: u8, at: Square| {
            color_of(code) == by
                && attack.kinds >> kind_of(code) & 1 != 0
                && (!ray.initial || self.variant.double_step_region[usize::from(by)].contains(at))
        };
        let walk = self.variant.back_walks[usize::from(by)].walk(index, target);
        match ray.hop {
            Hop::No => {
                let (at, code) = walk.iter().map(|&at| (at, self.piece_at(at))).find(|&(_, code)| code != 0)?;
                // The way is stored turned for `by`: walked as the first player's.
                (is_attacker(code, at) && (ray.range != 1 || self.lame_path_clear(at, ray, 0))).then_some(at)
            }
            Hop::Cannon | Hop::Grasshopper => {
                let mut screened = false;
                for (steps, &at) in walk.iter().enumerate() {
                    let code = self.piece_at(at);
                    if ray.hop == Hop::Grasshopper && !screened && steps == 0 && code == 0 {
                        return None;
                    }
                    if code != 0 {
                        if screened {
                            return is_attacker(code, at).then_some(at);
                        }
                        screened = true;
                    }
                }
                None
            }
        }
    }

    /// What a move by `color`, not in check, could change about its royal
    /// pieces' safety: the squares whose emptying could open a line, a lame
    /// leap's way or a hopper's line onto one of them (`.0`), and those whose
    /// filling could give a hopper its screen (`.1`). A move of a piece that is
    /// not royal, from outside the first to outside the second (and not en
    /// passant, which empties a third square), leaves them as safe as they were.
    pub(crate) fn exposure(&self, color: u8) -> (SquareSet, SquareSet) {
        let them = color ^ 1;
        let (mut exposing, mut screening) = (SquareSet::EMPTY, SquareSet::EMPTY);
        let royals = self.royal_squares(color);
        let present = self.present[usize::from(them)];
        for royal in royals.iter() {
            for attack in
                self.variant.attack_rays[usize::from(them)].iter().filter(|attack| attack.kinds & present != 0)
            {
                let ray = &attack.ray;
                let (back_f, back_r) = (-ray.df, -ray.dr);
                if ray.hop != Hop::No {
                    // A hopper's whole line.
                    let mut at = royal;
                    for _ in 0..32 {
                        let Some(next) = self.offset(at, back_f, back_r, ray.wraps) else { break };
                        if next == royal {
                            break;
                        }
                        exposing.insert(next);
                        screening.insert(next);
                        at = next;
                    }
                } else if ray.range != 1 {
                    // A slider's: our first piece on the line, when a piece that
                    // takes this way stands next behind it (a pin).
                    let limit = if ray.range == 0 { 32 } else { ray.range };
                    let mut shield = None;
                    let mut at = royal;
                    for _ in 0..limit {
                        let Some(next) = self.offset(at, back_f, back_r, ray.wraps) else { break };
                        if next == royal {
                            break;
                        }
                        at = next;
                        let code = self.piece_at(next);
                        if code == 0 {
                            continue;
                        }
                        match shield {
                            None if color_of(code) == color => shield = Some(next),
                            Some(shield) if color_of(code) == them && attack.kinds >> kind_of(code) & 1 != 0 => {
                                exposing.insert(shield);
                            }
                            _ => {}
                        }
                        if shield != Some(next) {
                            break;
                        }
                    }
                } else if ray.lame_ways > 0
                    && let Some(attacker) = self.offset(royal, back_f, back_r, ray.wraps)
                {
                    for way in ray.lame_ways() {
                        for &(pf, pr) in way {
                            if let Some(passed) = self.offset(attacker, pf, pr, ray.wraps) {
                                exposing.insert(passed);
                            }
                        }
                    }
                }
            }
        }
        (exposing, screening)
    }

    /// Every square a piece of `by` could take on, with the piece on `vacated`
    /// gone (a royal piece about to step away, so as not to hide the squares
    /// behind it): where a lone royal piece of the other side may step.
    pub(crate) fn attacked_squares(&self, by: u8, vacated: Square) -> SquareSet {
        let mut attacked = SquareSet::EMPTY;
        let occupied = |square: Square| square != vacated && self.piece_at(square) != 0;
        for from in self.occupied_by(by).iter() {
            let kind = kind_of(self.piece_at(from));
            for ray in self.variant.kinds[kind].rays.iter().filter(|ray| ray.captures()) {
                if ray.initial && !self.variant.double_step_region[usize::from(by)].contains(from) {
                    continue;
                }
                let (df, dr) = Position::oriented(ray, by);
                if ray.range == 1 && ray.hop == Hop::No {
                    if self.lame_way_open(from, ray, by, Some(vacated))
                        && let Some(to) = self.offset(from, df, dr, ray.wraps)
                    {
                        attacked.insert(to);
                    }
                    continue;
                }
                let limit = if ray.range == 0 { 32 } else { ray.range };
                let mut screened = ray.hop == Hop::No;
                let mut at = from;
                let mut steps = 0;
                while let Some(to) = self.offset(at, df, dr, ray.wraps) {
                    if to == from || (ray.hop == Hop::No && steps >= limit) || steps > 32 {
                        break;
                    }
                    steps += 1;
                    at = to;
                    if !screened {
                        // A hopper's way to its screen.
                        screened = occupied(to);
                        continue;
                    }
                    attacked.insert(to);
                    if occupied(to) || ray.hop == Hop::Grasshopper {
                        break;
                    }
                }
            }
        }
        attacked
    }

    /// The squares of `color`'s royal pieces that may not be left in check.
    pub(crate) fn royal_squares(&self, color: u8) -> SquareSet {
        let royals = self.royals[usize::from(color)];
        if self.variant.royal_rule == RoyalRule::LastOne && royals.len() > 1 {
            return SquareSet::EMPTY;
        }
        if self.variant.royal_rule == RoyalRule::NearestA1 && royals.len() > 1 {
            let mut nearest = SquareSet::EMPTY;
            nearest.insert(royals.iter().min_by_key(|&square| (file_of(square), rank_of(square))).unwrap_or(0));
            return nearest;
        }
        royals
    }

    /// Whether `color`'s royal piece (any of them) is attacked.
    #[must_use]
    pub fn in_check_of(&self, color: u8) -> bool {
        self.royal_squares(color).iter().any(|square| self.is_attacked(square, color ^ 1))
    }

    /// Whether the side to move is in check.
    #[must_use]
    pub fn in_check(&self) -> bool {
        match self.check.0.load(Ordering::Relaxed) {
            IN_CHECK => return true,
            NOT_IN_CHECK => return false,
            _ => {}
        }
        let check = self.in_check_of(self.turn);
        self.check.0.store(if check { IN_CHECK } else { NOT_IN_CHECK }, Ordering::Relaxed);
        check
    }
}
