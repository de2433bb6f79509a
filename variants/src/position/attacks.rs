//! Which squares a side attacks, and whether a side's royal piece stands in
//! check: each capture ray walked backwards from the square attacked.

use super::{Position, color_of, kind_of, piece_code};
use crate::betza::{Hop, Ray};
use crate::definition::rules::RoyalRule;
use crate::square::{Square, file_of, rank_of};

impl Position {
    /// The ray as `color` plays it: the second player's turned half round.
    #[inline]
    pub(crate) fn oriented(ray: &Ray, color: u8) -> (i8, i8) {
        if color == 0 { (ray.df, ray.dr) } else { (-ray.df, -ray.dr) }
    }

    /// Whether the lame leap `ray` from `from`, as `color` plays it, finds one
    /// of its ways empty.
    #[inline]
    pub(crate) fn lame_path_clear(&self, from: Square, ray: &Ray, color: u8) -> bool {
        if ray.lame_ways == 0 {
            return true;
        }
        ray.lame_ways().any(|way| {
            way.iter().all(|&(df, dr)| {
                let (df, dr) = if color == 0 { (df, dr) } else { (-df, -dr) };
                self.offset(from, df, dr, ray.wraps).is_some_and(|square| self.piece_at(square) == 0)
            })
        })
    }

    /// Whether a piece of `by` could take on `target` (moves of pieces that
    /// may only move there, and en passant, aside).
    #[must_use]
    pub fn is_attacked(&self, target: Square, by: u8) -> bool {
        let variant = self.variant.clone();
        for (kind, piece) in variant.kinds.iter().enumerate() {
            if self.count(by, kind) == 0 {
                continue;
            }
            let attacker = piece_code(kind, by);
            for ray in piece.rays.iter().filter(|ray| ray.captures()) {
                if self.ray_reaches_back(target, ray, by, attacker) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `attacker`, of colour `by`, stands where `ray` takes it to `target`.
    fn ray_reaches_back(&self, target: Square, ray: &Ray, by: u8, attacker: u8) -> bool {
        let (df, dr) = Position::oriented(ray, by);
        let (back_f, back_r) = (-df, -dr);
        let limit = if ray.range == 0 { 16 } else { ray.range };
        let may_start =
            |square: Square| !ray.initial || self.variant.double_step_region[usize::from(by)].contains(square);
        match ray.hop {
            Hop::No => {
                let mut at = target;
                for _ in 0..limit {
                    let Some(next) = self.offset(at, back_f, back_r, ray.wraps) else { return false };
                    if next == target {
                        return false;
                    }
                    let code = self.piece_at(next);
                    if code != 0 {
                        return code == attacker
                            && may_start(next)
                            && (ray.range != 1 || self.lame_path_clear(next, ray, by));
                    }
                    at = next;
                }
                false
            }
            Hop::Cannon | Hop::Grasshopper => {
                let mut at = target;
                let mut screened = false;
                let mut steps = 0;
                loop {
                    let Some(next) = self.offset(at, back_f, back_r, ray.wraps) else { return false };
                    if next == target || steps > 16 {
                        return false;
                    }
                    steps += 1;
                    let code = self.piece_at(next);
                    if ray.hop == Hop::Grasshopper && !screened && steps == 1 && code == 0 {
                        return false;
                    }
                    if code != 0 {
                        if screened {
                            return code == attacker && may_start(next);
                        }
                        screened = true;
                    }
                    at = next;
                }
            }
        }
    }

    /// The squares of `color`'s royal pieces that may not be left in check.
    pub(crate) fn royal_squares(&self, color: u8, out: &mut Vec<Square>) {
        out.clear();
        for square in self.occupied_by(color).iter() {
            let code = self.piece_at(square);
            debug_assert_eq!(color_of(code), color);
            if self.variant.kinds[kind_of(code)].royal {
                out.push(square);
            }
        }
        if self.variant.royal_rule == RoyalRule::NearestA1 && out.len() > 1 {
            let nearest = out.iter().copied().min_by_key(|&square| (file_of(square), rank_of(square)));
            out.clear();
            out.extend(nearest);
        }
    }

    /// Whether `color`'s royal piece (any of them) is attacked.
    #[must_use]
    pub fn in_check_of(&self, color: u8) -> bool {
        let mut royals = Vec::new();
        self.royal_squares(color, &mut royals);
        royals.iter().any(|&square| self.is_attacked(square, color ^ 1))
    }

    /// Whether the side to move is in check.
    #[must_use]
    pub fn in_check(&self) -> bool {
        self.in_check_of(self.turn)
    }
}
