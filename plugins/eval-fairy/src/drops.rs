//! The royal piece's safety where captured men come back by drops (shogi):
//! any piece in the other side's hand may land beside it, so each counts as
//! an attacker, and the side's own men on the squares around it (golds and
//! silvers in a castle) are its shelter.

use plugboard_plugin_api::BoardPosition;

use super::{FairyEval, Zone};

/// Centipawns for a side's royal piece by how many of its own men stand on
/// the squares next to it: the first few matter most, more crowd it.
const SHELTER: [i32; 9] = [0, 25, 45, 60, 70, 75, 78, 80, 80];

/// How many pieces in hand count at most as attackers of the other side's
/// royal piece, and how many squares by it each is taken to hit; a piece
/// worth less than `HAND_ATTACKER_VALUE` (a pawn) is no attacker.
const HAND_ATTACKERS: usize = 3;
const HAND_HITS: i32 = 2;
const HAND_ATTACKER_VALUE: i32 = 150;

impl FairyEval {
    /// `color`'s men next to its royal piece on `royal`, scored as shelter.
    pub(super) fn shelter(&self, position: &BoardPosition, royal: Option<u8>, color: u8, zone: &Zone) -> i32 {
        let Some(royal) = royal else { return 0 };
        let guards = position
            .squares_of(color)
            .filter(|&square| square != royal && zone[usize::from(square >> 6)] >> (square & 63) & 1 != 0)
            .count();
        SHELTER[guards.min(SHELTER.len() - 1)]
    }

    /// The pieces (pawns aside) `color` holds in hand, as attackers of the
    /// other side's royal piece and the squares by it they are taken to hit.
    pub(super) fn hand_attack(&self, position: &BoardPosition, color: u8) -> (usize, i32) {
        let held: usize = position.hands[usize::from(color)]
            .iter()
            .enumerate()
            .take(self.kinds)
            .filter(|&(kind, _)| self.values[kind] >= HAND_ATTACKER_VALUE)
            .map(|(_, &count)| usize::from(count))
            .sum();
        let attackers = held.min(HAND_ATTACKERS);
        (attackers, attackers as i32 * HAND_HITS)
    }
}
