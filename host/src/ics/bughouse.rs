//! Bughouse: which piece from the partner's board would win at once. The rule
//! is simple on purpose: ask for the cheapest piece whose drop mates now.

use shakmaty::{
    CastlingMode, EnPassantMode, FromSetup, Move, Position, Role,
    variant::{Crazyhouse, VariantPosition},
};

/// Cheapest first: the partner finds those easiest to win.
const ASKED_ROLES: [Role; 5] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// The cheapest piece that, dropped now by the side to move, would mate, when
/// the side to move has no mate in one already.
pub fn mating_drop(position: &VariantPosition, mode: CastlingMode) -> Option<Role> {
    let VariantPosition::Crazyhouse(position) = position else { return None };
    if mates_in_one(position, |_| true) {
        return None;
    }
    let us = position.turn();
    ASKED_ROLES.into_iter().find(|&role| {
        let mut setup = position.to_setup(EnPassantMode::Legal);
        let mut pockets = setup.pockets.unwrap_or_default();
        *pockets.get_mut(us).get_mut(role) += 1;
        setup.pockets = Some(pockets);
        let with_piece = match Crazyhouse::from_setup(setup, mode) {
            Ok(with_piece) => with_piece,
            // A piece from the partner's board is more than one set holds.
            Err(error) => match error.ignore_too_much_material() {
                Ok(with_piece) => with_piece,
                Err(_) => return false,
            },
        };
        mates_in_one(&with_piece, |m| matches!(m, Move::Put { role: dropped, .. } if *dropped == role))
    })
}

fn mates_in_one(position: &Crazyhouse, considered: impl Fn(&Move) -> bool) -> bool {
    position.legal_moves().iter().filter(|m| considered(m)).any(|m| {
        let mut after = position.clone();
        after.play_unchecked(*m);
        after.is_checkmate()
    })
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;

    use super::*;

    fn crazyhouse(fen: &str) -> VariantPosition {
        let fen: Fen = fen.parse().unwrap();
        VariantPosition::from_setup(shakmaty::variant::Variant::Crazyhouse, fen.into_setup(), CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn asks_for_the_cheapest_mating_piece() {
        // Black's king is boxed in by its own pawns: a rook or a queen dropped on
        // the back rank mates, and the rook is the cheaper.
        let position = crazyhouse("6k1/5ppp/8/8/8/8/5PPP/6K1[] w - - 0 20");
        assert_eq!(mating_drop(&position, CastlingMode::Standard), Some(Role::Rook));
    }

    #[test]
    fn no_ask_when_a_mate_is_in_hand_or_nothing_mates() {
        let held = crazyhouse("6k1/5ppp/8/8/8/8/5PPP/6K1[R] w - - 0 20");
        assert_eq!(mating_drop(&held, CastlingMode::Standard), None);
        let quiet = crazyhouse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1");
        assert_eq!(mating_drop(&quiet, CastlingMode::Standard), None);
    }
}
