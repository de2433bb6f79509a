//! Pseudo-legal moves: every move the pieces make by their own rules,
//! before asking whether it leaves the mover's general attacked.

use crate::attacks::ORTHOGONAL;
use crate::board::{Board, EMPTY, OFF, can_land, is_enemy};
use crate::tables::{ADVISOR, ELEPHANT, GENERAL, HORSE, SOLDIER, Steps};
use crate::{Color, Move, MoveList, Role, Square};

impl Board {
    /// Appends `us`'s pseudo-legal moves, or only its captures, to `list`.
    ///
    /// Whose turn it is does not matter here: judging a chase asks what the
    /// side that just moved could capture next.
    #[inline]
    pub(crate) fn generate<const CAPTURES_ONLY: bool>(&self, us: Color, list: &mut MoveList) {
        for from in self.points(us) {
            let role = self.at(from) & 0x7f;
            match role {
                r if r == Role::Chariot as u8 => self.chariot::<CAPTURES_ONLY>(us, from, list),
                r if r == Role::Cannon as u8 => self.cannon::<CAPTURES_ONLY>(us, from, list),
                r if r == Role::Horse as u8 => {
                    self.stepper::<CAPTURES_ONLY, true>(us, from, &HORSE[usize::from(from)], list)
                }
                r if r == Role::Elephant as u8 => {
                    self.stepper::<CAPTURES_ONLY, true>(us, from, &ELEPHANT[usize::from(from)], list);
                }
                r if r == Role::Advisor as u8 => {
                    self.stepper::<CAPTURES_ONLY, false>(us, from, &ADVISOR[usize::from(from)], list);
                }
                r if r == Role::Soldier as u8 => {
                    self.stepper::<CAPTURES_ONLY, false>(us, from, &SOLDIER[us.index()][usize::from(from)], list);
                }
                _ => self.stepper::<CAPTURES_ONLY, false>(us, from, &GENERAL[usize::from(from)], list),
            }
        }
    }

    #[inline]
    fn stepper<const CAPTURES_ONLY: bool, const BLOCKABLE: bool>(
        &self,
        us: Color,
        from: u8,
        steps: &Steps,
        list: &mut MoveList,
    ) {
        for i in 0..usize::from(steps.len) {
            if BLOCKABLE && self.at(steps.via[i]) != EMPTY {
                continue;
            }
            let to = steps.to[i];
            let target = self.at(to);
            let wanted = if CAPTURES_ONLY { is_enemy(target, us) } else { can_land(target, us) };
            if wanted {
                list.push(Move::new(Square(from), Square(to)));
            }
        }
    }

    #[inline]
    fn chariot<const CAPTURES_ONLY: bool>(&self, us: Color, from: u8, list: &mut MoveList) {
        for step in ORTHOGONAL {
            let mut to = from.wrapping_add(step);
            while self.at(to) == EMPTY {
                if !CAPTURES_ONLY {
                    list.push(Move::new(Square(from), Square(to)));
                }
                to = to.wrapping_add(step);
            }
            if is_enemy(self.at(to), us) {
                list.push(Move::new(Square(from), Square(to)));
            }
        }
    }

    #[inline]
    fn cannon<const CAPTURES_ONLY: bool>(&self, us: Color, from: u8, list: &mut MoveList) {
        for step in ORTHOGONAL {
            let mut to = from.wrapping_add(step);
            while self.at(to) == EMPTY {
                if !CAPTURES_ONLY {
                    list.push(Move::new(Square(from), Square(to)));
                }
                to = to.wrapping_add(step);
            }
            if self.at(to) == OFF {
                continue;
            }
            // `to` is the screen, of either side; the cannon captures the
            // first piece beyond it.
            to = to.wrapping_add(step);
            while self.at(to) == EMPTY {
                to = to.wrapping_add(step);
            }
            if is_enemy(self.at(to), us) {
                list.push(Move::new(Square(from), Square(to)));
            }
        }
    }

    /// Whether `m` is among `us`'s pseudo-legal moves, without generating them all.
    pub(crate) fn is_pseudo_legal(&self, us: Color, m: Move) -> bool {
        let (from, to) = (m.from.0, m.to.0);
        let moving = self.at(from);
        if !m.from.is_valid() || !m.to.is_valid() || moving == EMPTY || is_enemy(moving, us) {
            return false;
        }
        let target = self.at(to);
        if !can_land(target, us) {
            return false;
        }
        let steps_contain = |steps: &Steps, blockable: bool| {
            (0..usize::from(steps.len)).any(|i| steps.to[i] == to && (!blockable || self.at(steps.via[i]) == EMPTY))
        };
        match Role::from_code(moving & 0x7f) {
            Some(Role::Horse) => steps_contain(&HORSE[usize::from(from)], true),
            Some(Role::Elephant) => steps_contain(&ELEPHANT[usize::from(from)], true),
            Some(Role::Advisor) => steps_contain(&ADVISOR[usize::from(from)], false),
            Some(Role::General) => steps_contain(&GENERAL[usize::from(from)], false),
            Some(Role::Soldier) => steps_contain(&SOLDIER[us.index()][usize::from(from)], false),
            Some(Role::Chariot) => self.pieces_between(from, to) == Some(0),
            Some(Role::Cannon) => self.pieces_between(from, to) == Some(if target == EMPTY { 0 } else { 1 }),
            None => false,
        }
    }

    /// How many pieces stand strictly between two points on one rank or
    /// file; `None` if they are not on one line or are the same point.
    pub(crate) fn pieces_between(&self, a: u8, b: u8) -> Option<usize> {
        let step: u8 = if a == b {
            return None;
        } else if a >> 4 == b >> 4 {
            if b > a { 1 } else { 0xff }
        } else if a & 15 == b & 15 {
            if b > a { 16 } else { 0xf0 }
        } else {
            return None;
        };
        let mut count = 0;
        let mut at = a.wrapping_add(step);
        while at != b {
            count += usize::from(self.at(at) != EMPTY);
            at = at.wrapping_add(step);
        }
        Some(count)
    }
}
