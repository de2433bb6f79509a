//! Moves of two legs (the lion's hit-and-run, double capture and igui) and
//! the rules that keep lions from being traded off, as xboard referees them:
//! a lion taken by another piece may not be avenged at once on a lion, and a
//! lion may not take a distant protected lion unless it takes something of
//! worth on its way.

use super::{Position, color_of, kind_of};
use crate::betza::{CAPTURES, MOVES};
use crate::moves::{Move, MoveList, Special};
use crate::square::{Square, file_of, rank_of};

impl Position {
    /// Whether a lion has just been taken by another piece, so that no lion
    /// may be taken now.
    #[must_use]
    pub fn lion_shield(&self) -> bool {
        self.lion_shield
    }

    /// Sets what [`Position::lion_shield`] says, for a position built piece by piece.
    pub(crate) fn set_lion_shield(&mut self, shielded: bool) {
        self.lion_shield = shielded;
    }

    /// Adds the moves of legs of the piece of `kind` on `from`: each first
    /// leg onto a piece of the other side, taking it, then on one step more
    /// (or home again); and one pass, out to an empty square and back, where
    /// it has one.
    pub(super) fn push_leg_moves(&self, moves: &mut MoveList, kind: usize, from: Square) {
        let us = self.turn;
        let variant = self.variant.clone();
        let mut passed = false;
        for leg in &variant.kinds[kind].legs {
            let (vf, vr) = Position::turned(leg.via, us);
            let Some(via) = self.offset(from, vf, vr, false) else { continue };
            let victim = self.piece_at(via);
            if victim == 0 {
                // Out and back through any empty square is one move, a pass;
                // through one and on, a leap the piece has already.
                if leg.to == (0, 0) && leg.via_modes & MOVES != 0 && !passed {
                    passed = true;
                    moves.push(Move { from, to: from, promotion: 0, special: Special::Leg { via } });
                }
                continue;
            }
            if color_of(victim) == us || leg.via_modes & CAPTURES == 0 {
                continue;
            }
            let to = if leg.to == (0, 0) {
                from
            } else {
                let (tf, tr) = Position::turned(leg.to, us);
                let Some(to) = self.offset(from, tf, tr, false) else { continue };
                to
            };
            let there = if to == from { 0 } else { self.piece_at(to) };
            let allowed = match there {
                0 => leg.modes & MOVES != 0,
                code => color_of(code) != us && leg.modes & CAPTURES != 0,
            };
            if allowed {
                self.push_move(moves, kind, from, to, Special::Leg { via });
            }
        }
    }

    /// Whether the lion-trading rules allow `m`, a pseudo-legal move.
    pub fn lion_trade_allowed(&mut self, m: Move) -> bool {
        let lions = self.variant.lion_kinds;
        let is_lion = |code: u8| code != 0 && lions >> kind_of(code) & 1 != 0;
        let us = self.turn;
        let enemy_lion = |code: u8| is_lion(code) && color_of(code) != us;
        let taken_at_end = if m.to == m.from || m.is_castle() { 0 } else { self.piece_at(m.to) };
        let taken_on_way = m.via().map_or(0, |via| self.piece_at(via));
        if self.lion_shield && (enemy_lion(taken_at_end) || enemy_lion(taken_on_way)) {
            return false;
        }
        let distance = |a: Square, b: Square| {
            (i16::from(file_of(a)) - i16::from(file_of(b)))
                .abs()
                .max((i16::from(rank_of(a)) - i16::from(rank_of(b))).abs())
        };
        let bridge_worthless = taken_on_way == 0 || self.variant.lion_bridges >> kind_of(taken_on_way) & 1 != 0;
        let distant_trade = is_lion(self.piece_at(m.from))
            && enemy_lion(taken_at_end)
            && distance(m.from, m.to) > 1
            && bridge_worthless;
        if !distant_trade {
            return true;
        }
        let undo = self.play(m);
        let mut judged = self.clone();
        self.undo(m, undo);
        if !self.variant.lion_king_recaptures {
            let royals = judged.royal_squares(us ^ 1);
            for royal in royals.iter() {
                judged.take(royal);
            }
        }
        !judged.is_attacked(m.to, us ^ 1)
    }
}
