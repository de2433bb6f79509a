//! Which boards could arise in a game: what a FEN or the ABI may hand us.
//!
//! As shakmaty does for chess, refuse what no game reaches, so that the rest
//! of the crate may rely on it (one general each, inside the palace; no
//! flying general in force). Pieces that only step inside a zone must stand
//! on a point of that zone they can reach, and soldiers never step back.

use crate::board::Board;
use crate::fen::FenError;
use crate::{Color, Role, Square};

pub(crate) fn validate(board: &Board, turn: Color) -> Result<(), FenError> {
    for color in Color::ALL {
        let mut counts = [0usize; 8];
        for sq in Square::all() {
            let Some(piece) = board.piece_at(sq).filter(|piece| piece.color == color) else {
                continue;
            };
            counts[piece.role as usize] += 1;
            check_point(piece.role, color, sq)?;
        }
        if counts[Role::General as usize] == 0 {
            return Err(FenError::NoGeneral(color));
        }
        if counts[Role::General as usize] > 1 {
            return Err(FenError::TwoGenerals(color));
        }
        if let Some(&role) = Role::ALL.iter().find(|&&role| counts[role as usize] > role.start_count()) {
            return Err(FenError::TooMany { color, role });
        }
    }
    if board.generals_face() {
        return Err(FenError::GeneralsFacing);
    }
    if board.general_attacked(!turn) {
        return Err(FenError::OpponentInCheck);
    }
    Ok(())
}

/// Whether a piece of `role` and `color` may stand on `sq`.
fn check_point(role: Role, color: Color, sq: Square) -> Result<(), FenError> {
    // Seen from the piece's own side: rank 0 is its back rank.
    let file = sq.file();
    let rank = match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    };
    let in_palace = (3..=5).contains(&file) && rank <= 2;
    // d0, f0, e1, d2, f2.
    let advisor_point = in_palace && (file - 3 + rank).is_multiple_of(2);
    // c0, g0, a2, e2, i2, c4, g4.
    let elephant_point =
        rank <= 4 && file.is_multiple_of(2) && rank.is_multiple_of(2) && !(file / 2 + rank / 2).is_multiple_of(2);
    match role {
        Role::General if !in_palace => Err(FenError::GeneralOutsidePalace(sq)),
        Role::Advisor if !advisor_point => Err(FenError::AdvisorOffSquares(sq)),
        Role::Elephant if !elephant_point => Err(FenError::ElephantOffSquares(sq)),
        Role::Soldier if rank < 3 => Err(FenError::SoldierBehindStart(sq)),
        Role::Soldier if rank <= 4 && !file.is_multiple_of(2) => Err(FenError::SoldierOffFile(sq)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(role: Role, color: Color) -> Vec<String> {
        Square::all().filter(|&sq| check_point(role, color, sq).is_ok()).map(|sq| sq.to_string()).collect()
    }

    #[test]
    fn zones() {
        assert_eq!(points(Role::Advisor, Color::Red), ["d0", "f0", "e1", "d2", "f2"]);
        assert_eq!(points(Role::Advisor, Color::Black), ["d7", "f7", "e8", "d9", "f9"]);
        assert_eq!(points(Role::Elephant, Color::Red), ["c0", "g0", "a2", "e2", "i2", "c4", "g4"]);
        assert_eq!(points(Role::Elephant, Color::Black), ["c5", "g5", "a7", "e7", "i7", "c9", "g9"]);
        assert_eq!(points(Role::General, Color::Black).len(), 9);
        let soldiers = points(Role::Soldier, Color::Red);
        assert_eq!(soldiers.len(), 10 + 45);
        assert!(soldiers.contains(&"a3".to_string()) && !soldiers.contains(&"b3".to_string()));
        assert!(soldiers.contains(&"b5".to_string()) && !soldiers.contains(&"a2".to_string()));
    }
}
