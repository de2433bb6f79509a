//! The translation between shakmaty's positions and moves and the plugin API's
//! plain data, and the variant rules shakmaty leaves to its users.
//!
//! Both the host's game model and the bundled search's variant rules are built on
//! shakmaty and must agree to the bit on how a position crosses the boundary, so
//! the conversion lives here once. Castling always uses the king-onto-rook
//! encoding, which reads the same in standard chess and Chess960.

use plugboard_plugin_api as api;
use shakmaty::{
    Bitboard, Board, ByColor, ByRole, CastlingMode, Color, EnPassantMode, KnownOutcome, Move, Outcome, Position,
    RemainingChecks, Role, Setup, Square,
    variant::{Variant as Rules, VariantPosition},
};

/// The shakmaty rules a variant is played by. Suicide and giveaway share
/// shakmaty's antichess moves and differ only in who wins a blocked position.
pub fn rules_of(variant: api::Variant) -> Option<Rules> {
    Some(match variant {
        api::Variant::CHESS => Rules::Chess,
        api::Variant::ATOMIC => Rules::Atomic,
        api::Variant::SUICIDE | api::Variant::GIVEAWAY => Rules::Antichess,
        api::Variant::KING_OF_THE_HILL => Rules::KingOfTheHill,
        api::Variant::THREE_CHECK => Rules::ThreeCheck,
        api::Variant::CRAZYHOUSE => Rules::Crazyhouse,
        api::Variant::RACING_KINGS => Rules::RacingKings,
        api::Variant::HORDE => Rules::Horde,
        _ => return None,
    })
}

pub fn role_of(kind: api::PieceKind) -> Role {
    match kind {
        api::PieceKind::Pawn => Role::Pawn,
        api::PieceKind::Knight => Role::Knight,
        api::PieceKind::Bishop => Role::Bishop,
        api::PieceKind::Rook => Role::Rook,
        api::PieceKind::Queen => Role::Queen,
        api::PieceKind::King => Role::King,
    }
}

pub fn kind_of(role: Role) -> api::PieceKind {
    match role {
        Role::Pawn => api::PieceKind::Pawn,
        Role::Knight => api::PieceKind::Knight,
        Role::Bishop => api::PieceKind::Bishop,
        Role::Rook => api::PieceKind::Rook,
        Role::Queen => api::PieceKind::Queen,
        Role::King => api::PieceKind::King,
    }
}

/// The pocket roles in the order of [`api::Position::pockets`].
const POCKET_ROLES: [Role; 5] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// Castling becomes king-onto-rook, a drop `DROP + kind`, as the plugin API writes them.
pub fn to_plugin_move(m: Move) -> api::Move {
    match m {
        Move::Put { role, to } => api::Move::drop(kind_of(role), to as u8),
        _ => {
            let from = m.from().map_or(api::Position::NO_SQUARE, |s| s as u8);
            api::Move::new(from, m.to() as u8, m.promotion().map(kind_of))
        }
    }
}

/// The legal move of `position` that the plugin API's `m` names, if there is one.
pub fn from_plugin_move<P: Position>(position: &P, m: api::Move) -> Option<Move> {
    let promotion = m.promotion().map(role_of);
    let dropped = m.dropped().map(role_of);
    position.legal_moves().into_iter().find(|candidate| match *candidate {
        Move::Put { role, to } => dropped == Some(role) && to as u8 == m.to,
        _ => {
            dropped.is_none()
                && candidate.from().map(|s| s as u8) == Some(m.from)
                && candidate.to() as u8 == m.to
                && candidate.promotion() == promotion
        }
    })
}

/// The plugin API's view of `position`, played by the rules of `variant`.
pub fn to_plugin_position<P: Position>(position: &P, variant: api::Variant) -> api::Position {
    let board = position.board();
    let mut pieces = [0u64; 6];
    for (index, role) in Role::ALL.iter().enumerate() {
        pieces[index] = board.by_role(*role).0;
    }
    let mut pockets = [[0u8; 5]; 2];
    if let Some(held) = position.pockets() {
        for (color_index, color) in Color::ALL.iter().enumerate() {
            for (role_index, role) in POCKET_ROLES.iter().enumerate() {
                pockets[color_index][role_index] = *held.get(*color).get(*role);
            }
        }
    }
    let remaining_checks = position
        .remaining_checks()
        .map_or([0, 0], |checks| [u32::from(checks.white).min(255) as u8, u32::from(checks.black).min(255) as u8]);
    // shakmaty keeps the en-passant square only while a capture is possible; plugins
    // are told it after every double push so their hashes match Polyglot's.
    let en_passant = position.ep_square(EnPassantMode::Always).map_or(api::Position::NO_SQUARE, |s| s as u8);
    api::Position {
        colors: [board.by_color(Color::White).0, board.by_color(Color::Black).0],
        pieces,
        castling_rooks: position.castles().castling_rights().0,
        side_to_move: if position.turn() == Color::White { 0 } else { 1 },
        en_passant,
        halfmove_clock: position.halfmoves().min(u32::from(u16::MAX)) as u16,
        fullmove_number: position.fullmoves().get(),
        variant,
        remaining_checks,
        pockets,
        promoted: position.promoted().0,
        reserved: [0; 2],
    }
}

/// The shakmaty position behind the plugin API's `position`, checked for legality
/// by the rules its `variant` names.
pub fn from_plugin_position(position: &api::Position) -> Result<VariantPosition, String> {
    let rules = rules_of(position.variant).ok_or_else(|| format!("unknown variant number {}", position.variant.0))?;
    let mut board = Board::empty();
    for square in Square::ALL {
        if let Some((kind, color)) = position.piece_at(square as u8) {
            board.set_piece_at(square, role_of(kind).of(Color::from_white(color == api::Position::WHITE)));
        }
    }
    let pockets = (rules == Rules::Crazyhouse).then(|| {
        ByColor::new_with(|color| {
            let counts = &position.pockets[usize::from(color.is_black())];
            ByRole::new_with(|role| POCKET_ROLES.iter().position(|r| *r == role).map_or(0, |index| counts[index]))
        })
    });
    let remaining_checks = (rules == Rules::ThreeCheck).then(|| {
        ByColor::new_with(|color| {
            RemainingChecks::new(u32::from(position.remaining_checks[usize::from(color.is_black())]))
        })
    });
    let ep_square = Square::try_from(u32::from(position.en_passant)).ok();
    let setup = Setup {
        board,
        promoted: Bitboard(position.promoted),
        pockets,
        turn: Color::from_white(position.side_to_move == api::Position::WHITE),
        castling_rights: Bitboard(position.castling_rooks),
        ep_square,
        remaining_checks,
        halfmoves: u32::from(position.halfmove_clock),
        fullmoves: std::num::NonZeroU32::new(position.fullmove_number).unwrap_or(std::num::NonZeroU32::MIN),
    };
    let error = match VariantPosition::from_setup(rules, setup, CastlingMode::Chess960) {
        Ok(position) => return Ok(position),
        Err(error) => error,
    };
    // An en-passant square after a push no pawn can capture is how the API writes it,
    // and holdings on a chess server (bughouse) can exceed one set's material.
    match error.ignore_invalid_ep_square() {
        Ok(position) => Ok(position),
        Err(error) => error.ignore_too_much_material().map_err(|error| error.to_string()),
    }
}

/// The result the rules give `position` when it ends the game by itself (mate,
/// stalemate, a variant's goal), or `None`. Suicide is the one variant whose
/// blocked positions shakmaty scores differently: FICS gives them to the side
/// with fewer pieces.
pub fn outcome(position: &VariantPosition, variant: api::Variant) -> Option<KnownOutcome> {
    if variant == api::Variant::SUICIDE
        && !position.us().is_empty()
        && !position.them().is_empty()
        && position.legal_moves().is_empty()
    {
        let ours = position.us().count();
        let theirs = position.them().count();
        return Some(match ours.cmp(&theirs) {
            std::cmp::Ordering::Less => KnownOutcome::Decisive { winner: position.turn() },
            std::cmp::Ordering::Greater => KnownOutcome::Decisive { winner: !position.turn() },
            std::cmp::Ordering::Equal => KnownOutcome::Draw,
        });
    }
    if let Outcome::Known(known) = position.variant_outcome() {
        return Some(known);
    }
    if position.legal_moves().is_empty() {
        return Some(if position.is_check() {
            KnownOutcome::Decisive { winner: !position.turn() }
        } else {
            KnownOutcome::Draw
        });
    }
    // Pieces that can never meet (bishops on opposite colours) end an orthodox game,
    // but xboard and the servers play suicide and giveaway on, to the fifty-move rule.
    let plays_on = matches!(variant, api::Variant::SUICIDE | api::Variant::GIVEAWAY);
    (!plays_on && position.is_insufficient_material()).then_some(KnownOutcome::Draw)
}

#[cfg(test)]
mod tests {
    use shakmaty::{fen::Fen, uci::UciMove};

    use super::*;

    fn position(variant: api::Variant, fen: &str) -> VariantPosition {
        let fen: Fen = fen.parse().unwrap();
        VariantPosition::from_setup(rules_of(variant).unwrap(), fen.into_setup(), CastlingMode::Chess960).unwrap()
    }

    #[test]
    fn every_variant_round_trips_through_the_plugin_position() {
        let cases = [
            (api::Variant::CHESS, "r3k2r/8/8/8/4Pp2/8/8/R3K2R b KQkq e3 0 1"),
            (api::Variant::CRAZYHOUSE, "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3"),
            (api::Variant::THREE_CHECK, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+2 0 2"),
            (api::Variant::SUICIDE, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"),
            (api::Variant::HORDE, "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"),
            (api::Variant::RACING_KINGS, "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"),
        ];
        for (variant, fen) in cases {
            let original = position(variant, fen);
            let plain = to_plugin_position(&original, variant);
            let back = from_plugin_position(&plain).unwrap();
            assert_eq!(
                Fen::from_position(&back, EnPassantMode::Legal).to_string(),
                Fen::from_position(&original, EnPassantMode::Legal).to_string(),
                "{fen}"
            );
            assert_eq!(plain.variant, variant);
        }
    }

    #[test]
    fn pockets_and_checks_reach_the_plugin() {
        let house = position(api::Variant::CRAZYHOUSE, "8/8/8/8/8/8/8/K6k[QNpp] w - - 0 1");
        let plain = to_plugin_position(&house, api::Variant::CRAZYHOUSE);
        assert_eq!(plain.pockets, [[0, 1, 0, 0, 1], [2, 0, 0, 0, 0]]);
        let checks = position(api::Variant::THREE_CHECK, "4k3/8/8/8/8/8/8/4K3 w - - 1+2 0 1");
        assert_eq!(to_plugin_position(&checks, api::Variant::THREE_CHECK).remaining_checks, [1, 2]);
    }

    #[test]
    fn drops_cross_as_drop_moves() {
        let house = position(api::Variant::CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
        let drop: UciMove = "N@d5".parse().unwrap();
        let m = drop.to_move(&house).unwrap();
        let plain = to_plugin_move(m);
        assert_eq!(plain.dropped(), Some(api::PieceKind::Knight));
        assert_eq!(from_plugin_move(&house, plain), Some(m));
    }

    #[test]
    fn suicide_plays_on_where_material_can_never_meet() {
        // Bishops on opposite colours cannot take each other; chess calls that a draw.
        let fen = "5B2/8/8/8/8/8/8/1b6 b - - 0 1";
        assert_eq!(outcome(&position(api::Variant::SUICIDE, fen), api::Variant::SUICIDE), None);
        assert_eq!(outcome(&position(api::Variant::GIVEAWAY, fen), api::Variant::GIVEAWAY), None);
        let chess = "8/8/8/8/8/8/8/Kb5k b - - 0 1";
        assert_eq!(outcome(&position(api::Variant::CHESS, chess), api::Variant::CHESS), Some(KnownOutcome::Draw));
    }

    #[test]
    fn suicide_and_giveaway_differ_only_when_blocked() {
        // Black to move has no move (both pawns blocked) and two pieces to White's one.
        let fen = "8/8/8/8/8/p7/p7/B7 b - - 0 1";
        let suicide = position(api::Variant::SUICIDE, fen);
        assert_eq!(outcome(&suicide, api::Variant::SUICIDE), Some(KnownOutcome::Decisive { winner: Color::White }));
        let giveaway = position(api::Variant::GIVEAWAY, fen);
        assert_eq!(outcome(&giveaway, api::Variant::GIVEAWAY), Some(KnownOutcome::Decisive { winner: Color::Black }));
    }
}
