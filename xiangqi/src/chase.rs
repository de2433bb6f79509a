//! Whether a move chases, as xboard 4.9 decides it when it judges a
//! repetition (`PerpetualChase` and its callbacks in xboard's `moves.c`).
//!
//! A move chases when, after it, the mover could legally capture an enemy
//! piece that it could not capture before the move, and
//! - the attacker is a horse or a cannon and the victim a chariot; or else
//! - the victim could not legally take the attacker back at once if they are
//!   of one kind, and the victim's side could not legally retake on the
//!   victim's point after the capture (the victim is unprotected).
//!
//! Generals and soldiers may attack freely, and a soldier that has not
//! crossed the river may be attacked freely. A capture counts as possible
//! "before" the move when the piece that moved could make it from where it
//! stood, and checks the mover was under before its move are ignored there
//! (it had to answer them, so they do not hide older attacks). When judging
//! protection, checks the victim's side stands under after the chasing move
//! are ignored too: it would answer them before the chaser captured.
//!
//! xboard also lets a general be the victim. That never changes a verdict:
//! a general attacked anew on every move of a cycle is a perpetual check,
//! which xboard judges before chases, so it is left out here.
//!
//! This is slow by a search's standards (whole move lists per move) and is
//! meant for judging game histories, not for every node.

use crate::board::{Board, color_of};
use crate::{Color, Move, MoveList, Position, Role, Square};

/// The captures (attacker's point → victim's point, both after `m`) that
/// make `m`, played in `before`, a chase. Empty when `m` chases nothing.
#[must_use]
pub fn chases(before: &Position, m: Move) -> MoveList {
    chases_between(before, m, &before.after(m))
}

/// Whether `m`, played in `before`, chases any piece.
#[must_use]
pub fn is_chase(before: &Position, m: Move) -> bool {
    !chases(before, m).is_empty()
}

/// `chases` when the position after `m` is at hand already.
pub(crate) fn chases_between(before: &Position, m: Move, after: &Position) -> MoveList {
    let chaser = before.turn();
    let victim_side = !chaser;

    // Captures the move made possible: all the mover could take next …
    let mut candidates = MoveList::new();
    let mut captures = MoveList::new();
    after.board().generate::<true>(chaser, &mut captures);
    for &c in captures.iter() {
        let attacker = role(after.board(), c.from);
        let victim = role(after.board(), c.to);
        let excused = matches!(attacker, Role::Soldier | Role::General)
            || victim == Role::General
            || (victim == Role::Soldier && c.to.is_home_of(victim_side));
        if !excused && safe_after(after.board(), chaser, c, &[]) {
            candidates.push(c);
        }
    }

    // … less what it could take before, the moved piece counted from its new point.
    let mut captures_before = MoveList::new();
    before.board().generate::<true>(chaser, &mut captures_before);
    let checking_mover = checkers(before.board(), chaser);
    for &c in captures_before.iter() {
        if !safe_after(before.board(), chaser, c, &checking_mover) {
            continue;
        }
        let from = if c.from == m.from { m.to } else { c.from };
        if let Some(i) = candidates.iter().position(|&n| n == Move::new(from, c.to)) {
            candidates.swap_remove(i);
        }
    }

    let checking_victim = checkers(after.board(), victim_side);
    let mut chases = MoveList::new();
    for &c in candidates.iter() {
        let attacker = role(after.board(), c.from);
        let victim = role(after.board(), c.to);
        let always = matches!(attacker, Role::Horse | Role::Cannon) && victim == Role::Chariot;
        if always
            || !((attacker == victim && after.is_legal(Move::new(c.to, c.from)))
                || protected(after.board(), c, &checking_victim))
        {
            chases.push(c);
        }
    }
    chases
}

fn role(board: &Board, sq: Square) -> Role {
    Role::from_code(board.at(sq.0) & 0x7f).expect("a piece stands there")
}

/// Whether the victim's side could legally retake on `capture.to` after
/// `capture`, ignoring checks from the pieces on `ignored`.
fn protected(board: &Board, capture: Move, ignored: &[Square]) -> bool {
    let mut board = board.clone();
    let defender = !color_of(board.at(capture.from.0));
    board.shift(capture.from.0, capture.to.0);
    let mut moves = MoveList::new();
    board.generate::<true>(defender, &mut moves);
    moves.iter().any(|&m| m.to == capture.to && safe_after(&board, defender, m, ignored))
}

/// The points of the pieces that attack `color`'s general, not counting the
/// other general on an open file (xboard does not mark that one).
fn checkers(board: &Board, color: Color) -> Vec<Square> {
    let general = Square(board.general(color));
    let mut moves = MoveList::new();
    board.generate::<true>(!color, &mut moves);
    moves.iter().filter(|m| m.to == general).map(|m| m.from).collect()
}

/// Whether `us` playing `m` (pseudo-legal) leaves its general unattacked by
/// any piece but those on `ignored`, and not facing the other general.
fn safe_after(board: &Board, us: Color, m: Move, ignored: &[Square]) -> bool {
    let mut board = board.clone();
    board.shift(m.from.0, m.to.0);
    if board.generals_face() {
        return false;
    }
    let general = Square(board.general(us));
    let mut moves = MoveList::new();
    board.generate::<true>(!us, &mut moves);
    !moves.iter().any(|m| m.to == general && !ignored.contains(&m.from))
}
