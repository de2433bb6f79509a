//! Whether a general stands attacked, looking outward from its point.
//!
//! Only pieces that can ever reach a palace are looked for: advisors and
//! elephants never leave their own half, so they never attack the other
//! general. The facing generals count as an attack, which makes the flying
//! general rule an ordinary check.

use crate::board::{Board, EMPTY, OFF, code};
use crate::{Color, Role};

/// Straight steps as `u8` offsets that wrap: right, left, up, down.
pub(crate) const ORTHOGONAL: [u8; 4] = [1, 0xff, 16, 0xf0];
/// Diagonal steps: up-right, up-left, down-right, down-left.
const DIAGONAL: [(u8, u8, u8); 4] = [
    // (diagonal, one more rank outward, one more file outward)
    (17, 16, 1),
    (15, 16, 0xff),
    (0xf1, 0xf0, 1),
    (0xef, 0xf0, 0xff),
];

/// Read access to piece bytes by point, so that attacks can be asked of the
/// board as it is or as it would be after a move, without making the move.
pub(crate) trait Mailbox {
    fn at(&self, sq: u8) -> u8;
}

impl Mailbox for Board {
    #[inline]
    fn at(&self, sq: u8) -> u8 {
        Board::at(self, sq)
    }
}

/// The board as it would be after the piece on `from` went to `to`.
pub(crate) struct After<'a> {
    pub board: &'a Board,
    pub from: u8,
    pub to: u8,
    pub moving: u8,
}

impl Mailbox for After<'_> {
    #[inline]
    fn at(&self, sq: u8) -> u8 {
        if sq == self.to {
            self.moving
        } else if sq == self.from {
            EMPTY
        } else {
            self.board.at(sq)
        }
    }
}

/// Whether `by` attacks the point `sq`, where the other side's general
/// stands (or is about to stand).
#[inline]
pub(crate) fn attacks_general(board: &impl Mailbox, sq: u8, by: Color) -> bool {
    let chariot = code(by, Role::Chariot);
    let cannon = code(by, Role::Cannon);
    let general = code(by, Role::General);
    let horse = code(by, Role::Horse);
    let soldier = code(by, Role::Soldier);

    for step in ORTHOGONAL {
        let mut at = sq.wrapping_add(step);
        let mut first = board.at(at);
        while first == EMPTY {
            at = at.wrapping_add(step);
            first = board.at(at);
        }
        // Generals never share a rank (their palaces are on different
        // ranks), so meeting one along any line is meeting it on the file.
        if first == chariot || first == general {
            return true;
        }
        if first == OFF {
            continue;
        }
        let mut second;
        loop {
            at = at.wrapping_add(step);
            second = board.at(at);
            if second != EMPTY {
                break;
            }
        }
        if second == cannon {
            return true;
        }
    }

    // A horse reaches `sq` through a leg that is a diagonal neighbour of it.
    for (diagonal, rank_out, file_out) in DIAGONAL {
        let leg = sq.wrapping_add(diagonal);
        if board.at(leg) == EMPTY
            && (board.at(leg.wrapping_add(rank_out)) == horse || board.at(leg.wrapping_add(file_out)) == horse)
        {
            return true;
        }
    }

    // A soldier beside a general's point has crossed the river (palaces
    // are on their own side), so it attacks sideways.
    let behind = match by {
        Color::Red => sq.wrapping_sub(16),
        Color::Black => sq.wrapping_add(16),
    };
    board.at(behind) == soldier || board.at(sq.wrapping_add(1)) == soldier || board.at(sq.wrapping_sub(1)) == soldier
}

impl Board {
    /// Whether `color`'s general is attacked where it stands.
    #[inline]
    pub(crate) fn general_attacked(&self, color: Color) -> bool {
        attacks_general(self, self.general(color), !color)
    }

    /// Whether the generals share a file with nothing between them.
    pub(crate) fn generals_face(&self) -> bool {
        let red = self.general(Color::Red);
        let mut at = red.wrapping_add(16);
        while self.at(at) == EMPTY {
            at = at.wrapping_add(16);
        }
        at == self.general(Color::Black)
    }
}
