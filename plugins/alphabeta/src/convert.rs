//! Conversions between the crate-neutral ABI types and cozy-chess, and FEN parsing.
//!
//! Everything here validates plugin input and reports problems as `Err`, because a
//! malformed position from the host must never bring the search down.

use cozy_chess::{Board, BoardBuilder, Color, File, Piece, Rank, Square};
use plugboard_plugin_api::{Move, PieceKind, Position, Variant};

const PIECES: [Piece; 6] = [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen, Piece::King];
const COLORS: [Color; 2] = [Color::White, Color::Black];

/// Builds a cozy-chess board from a [`Position`], or says what is wrong with it.
pub fn position_to_board(position: &Position) -> Result<Board, String> {
    if position.variant != Variant::CHESS {
        return Err(format!("cozy-chess plays orthodox chess, not {}", position.variant.cecp_name()));
    }
    let occupied = position.colors[0] | position.colors[1];
    if position.colors[0] & position.colors[1] != 0 {
        return Err("invalid position: a square belongs to both colours".into());
    }
    let mut all_pieces = 0u64;
    for &bits in &position.pieces {
        if all_pieces & bits != 0 {
            return Err("invalid position: a square holds two piece kinds".into());
        }
        all_pieces |= bits;
    }
    if all_pieces != occupied {
        return Err("invalid position: piece and colour bitboards disagree".into());
    }
    if position.side_to_move > 1 {
        return Err(format!("invalid position: side to move {}", position.side_to_move));
    }

    let mut builder = BoardBuilder::empty();
    for (kind, &bits) in position.pieces.iter().enumerate() {
        for (color, &color_bits) in position.colors.iter().enumerate() {
            for square in squares(bits & color_bits) {
                *builder.square_mut(square) = Some((PIECES[kind], COLORS[color]));
            }
        }
    }
    builder.side_to_move = COLORS[usize::from(position.side_to_move)];
    for (index, &color) in COLORS.iter().enumerate() {
        *builder.castle_rights_mut(color) = castle_rights(position, index)?;
    }
    builder.en_passant = match position.en_passant {
        Position::NO_SQUARE => None,
        square @ 0..=63 => Some(Square::index(usize::from(square))),
        other => return Err(format!("invalid position: en passant square {other}")),
    };
    // cozy-chess stores the clock as u8 and caps it at 100, where the rule bites anyway.
    builder.halfmove_clock = position.halfmove_clock.min(100) as u8;
    builder.fullmove_number = position.fullmove_number.clamp(1, u32::from(u16::MAX)) as u16;

    match builder.build() {
        Ok(board) => Ok(board),
        Err(error) => Err(format!("invalid position: {error}")),
    }
}

/// The castling rights of one colour, from the rook squares in `castling_rooks`.
fn castle_rights(position: &Position, color: usize) -> Result<cozy_chess::CastleRights, String> {
    let back_rank: u64 = if color == 0 { 0xFF } else { 0xFF << 56 };
    let ours = position.castling_rooks & position.colors[color];
    let rooks = ours & position.pieces[PieceKind::Rook as usize] & back_rank;
    if ours != rooks {
        return Err("invalid position: a castling right names a square without a rook on the back rank".into());
    }
    let mut rights = cozy_chess::CastleRights::EMPTY;
    if rooks == 0 {
        return Ok(rights);
    }
    let king = position.bitboard(PieceKind::King, color as u8) & back_rank;
    if king.count_ones() != 1 {
        return Err("invalid position: castling rights without a king on the back rank".into());
    }
    let king_file = king.trailing_zeros() % 8;
    for square in squares(rooks) {
        let file = square.file();
        let slot = if (file as u32) > king_file { &mut rights.short } else { &mut rights.long };
        if slot.replace(file).is_some() {
            return Err("invalid position: two castling rooks on one side of the king".into());
        }
    }
    Ok(rights)
}

/// The crate-neutral form of a cozy-chess board.
pub fn board_to_position(board: &Board) -> Position {
    let mut castling_rooks = 0u64;
    for &color in &COLORS {
        let rank = Rank::First.relative_to(color);
        let rights = board.castle_rights(color);
        for file in [rights.short, rights.long].into_iter().flatten() {
            castling_rooks |= Square::new(file, rank).bitboard().0;
        }
    }
    let stm = board.side_to_move();
    let en_passant =
        board.en_passant().map_or(Position::NO_SQUARE, |file| Square::new(file, Rank::Sixth.relative_to(stm)) as u8);
    Position {
        colors: [board.colors(Color::White).0, board.colors(Color::Black).0],
        pieces: PIECES.map(|piece| board.pieces(piece).0),
        castling_rooks,
        side_to_move: stm as u8,
        en_passant,
        halfmove_clock: u16::from(board.halfmove_clock()),
        fullmove_number: u32::from(board.fullmove_number()),
        variant: Variant::CHESS,
        remaining_checks: [0; 2],
        pockets: [[0; 5]; 2],
        promoted: 0,
        reserved: [0; 2],
    }
}

/// A cozy-chess move from an ABI move (castling is king-onto-rook in both).
/// Checks only the encoding; legality is the board's business.
pub fn move_to_cozy(mv: Move) -> Result<cozy_chess::Move, String> {
    if mv.from > 63 || mv.to > 63 {
        return Err(format!("invalid move: square out of range ({} -> {})", mv.from, mv.to));
    }
    let promotion = match mv.promotion {
        Move::NO_PROMOTION => None,
        1..=4 => Some(PIECES[usize::from(mv.promotion)]),
        other => return Err(format!("invalid move: promotion piece {other}")),
    };
    Ok(cozy_chess::Move { from: Square::index(usize::from(mv.from)), to: Square::index(usize::from(mv.to)), promotion })
}

/// The ABI form of a cozy-chess move.
pub fn move_from_cozy(mv: cozy_chess::Move) -> Move {
    Move {
        from: mv.from as u8,
        to: mv.to as u8,
        promotion: mv.promotion.map_or(Move::NO_PROMOTION, |piece| piece as u8),
        reserved: 0,
    }
}

/// Parses a FEN: standard, Shredder-FEN (`HAha`) or X-FEN (`KQkq` naming the
/// outermost rook, or file letters for inner rooks in Chess960). The move
/// counters may be omitted.
pub fn board_from_fen(fen: &str) -> Result<Board, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 2 || fields.len() > 6 {
        return Err(format!("invalid FEN (expected 2 to 6 fields): {fen}"));
    }
    let field = |i: usize, default: &'static str| fields.get(i).copied().unwrap_or(default);
    let (placement, side, castling, ep) = (fields[0], fields[1], field(2, "-"), field(3, "-"));
    let halfmove: u32 = field(4, "0").parse().map_err(|_| format!("invalid FEN halfmove clock: {fen}"))?;
    let fullmove = field(5, "1");

    // Parse everything but castling with cozy-chess, then add castling ourselves,
    // which covers KQkq, Shredder and X-FEN alike.
    let plain = format!("{placement} {side} - {ep} {} {fullmove}", halfmove.min(100));
    let board = Board::from_fen(&plain, true).map_err(|error| format!("invalid FEN ({error}): {fen}"))?;
    if castling == "-" {
        return Ok(board);
    }
    let mut builder = BoardBuilder::from_board(&board);
    for c in castling.chars() {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let rank = Rank::First.relative_to(color);
        let king = board.king(color);
        if king.rank() != rank {
            return Err(format!("invalid FEN castling (king not on its back rank): {fen}"));
        }
        let rooks = board.colored_pieces(color, Piece::Rook) & rank.bitboard();
        let file = match c.to_ascii_lowercase() {
            // The outermost rook on each side, as X-FEN defines.
            'k' => rooks.into_iter().filter(|sq| sq.file() > king.file()).map(Square::file).max(),
            'q' => rooks.into_iter().filter(|sq| sq.file() < king.file()).map(Square::file).min(),
            letter @ 'a'..='h' => File::try_index(usize::from(letter as u8 - b'a')),
            _ => None,
        }
        .ok_or_else(|| format!("invalid FEN castling field '{castling}': {fen}"))?;
        let rights = builder.castle_rights_mut(color);
        let slot = if file > king.file() { &mut rights.short } else { &mut rights.long };
        *slot = Some(file);
    }
    builder.build().map_err(|error| format!("invalid FEN castling ({error}): {fen}"))
}

/// The squares of a bitboard, lowest first.
fn squares(bits: u64) -> impl Iterator<Item = Square> {
    cozy_chess::BitBoard(bits).into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_standard_and_chess960() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1",
        ] {
            let board = board_from_fen(fen).expect(fen);
            let position = board_to_position(&board);
            assert_eq!(position_to_board(&position).expect(fen), board, "{fen}");
        }
    }

    #[test]
    fn x_fen_and_short_fen() {
        let x = board_from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1").unwrap();
        let shredder = board_from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1").unwrap();
        assert_eq!(x, shredder);
        assert_eq!(board_from_fen("8/8/8/8/8/8/8/K6k w").unwrap().fullmove_number(), 1);
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(board_from_fen("not a fen").is_err());
        assert!(board_from_fen("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
        let mut position = board_to_position(&Board::default());
        position.colors[0] |= 1 << 40;
        assert!(position_to_board(&position).is_err());
        let mut position = board_to_position(&Board::default());
        position.castling_rooks |= 1 << 1; // b1 holds a knight
        assert!(position_to_board(&position).is_err());
        assert!(move_to_cozy(Move { from: 64, to: 0, promotion: Move::NO_PROMOTION, reserved: 0 }).is_err());
        assert!(move_to_cozy(Move { from: 52, to: 60, promotion: 5, reserved: 0 }).is_err());
    }
}
