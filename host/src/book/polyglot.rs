//! The Polyglot book format: 16-byte big-endian entries (key, move, weight, learn),
//! sorted by key, with moves packed in 16 bits and castling stored as the king
//! taking its own rook.

use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, Role, Square, zobrist::Zobrist64};

/// Bytes per entry.
pub const ENTRY_SIZE: usize = 16;

/// One book entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    pub key: u64,
    pub raw_move: u16,
    pub weight: u16,
    pub learn: u32,
}

impl Entry {
    pub fn from_bytes(bytes: &[u8; ENTRY_SIZE]) -> Entry {
        let word = |range: std::ops::Range<usize>| bytes[range].iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
        Entry { key: word(0..8), raw_move: word(8..10) as u16, weight: word(10..12) as u16, learn: word(12..16) as u32 }
    }

    pub fn to_bytes(self) -> [u8; ENTRY_SIZE] {
        let mut bytes = [0; ENTRY_SIZE];
        bytes[0..8].copy_from_slice(&self.key.to_be_bytes());
        bytes[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        bytes[10..12].copy_from_slice(&self.weight.to_be_bytes());
        bytes[12..16].copy_from_slice(&self.learn.to_be_bytes());
        bytes
    }
}

/// The Polyglot key of a position: shakmaty's Zobrist values are Polyglot's, and
/// Polyglot counts an en-passant square only when the capture is possible.
pub fn key(position: &Chess) -> u64 {
    position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Packs a legal move: to-square in bits 0–5, from-square in 6–11, promotion
/// (1 knight … 4 queen) in 12–14; castling as king takes rook.
pub fn encode_move(m: &Move) -> u16 {
    let (from, to) = match *m {
        Move::Castle { king, rook } => (king, rook),
        _ => (m.from().unwrap_or(m.to()), m.to()),
    };
    let promotion = match m.promotion() {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    };
    (promotion << 12) | (u16::from(from) << 6) | u16::from(to)
}

/// The legal move of `position` that `raw` stands for, if any: a corrupt or
/// foreign entry decodes to nothing rather than to a wrong move.
pub fn decode_move(position: &Chess, raw: u16) -> Option<Move> {
    let to = Square::new(u32::from(raw & 63));
    let from = Square::new(u32::from((raw >> 6) & 63));
    let promotion = match (raw >> 12) & 7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    position.legal_moves().into_iter().find(|m| match *m {
        Move::Castle { king, rook } => king == from && rook == to && promotion.is_none(),
        _ => m.from() == Some(from) && m.to() == to && m.promotion() == promotion,
    })
}

/// The key of the start position, for tests and sanity checks.
pub fn start_key() -> u64 {
    key(&Chess::default())
}

/// Castling mode the format assumes: Polyglot books are for standard chess.
pub const MODE: CastlingMode = CastlingMode::Standard;

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingSide, fen::Fen, uci::UciMove};

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(MODE).unwrap()
    }

    // The reference keys of the Polyglot book format specification.
    #[test]
    fn keys_match_the_polyglot_specification() {
        let cases = [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9c),
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196),
            ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0),
            ("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4),
            ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78),
            ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652a607ca3f242c1),
            ("rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00fdd303c946bdd9),
            ("rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637),
            ("rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5c3f9b829b279560),
        ];
        for (fen, expected) in cases {
            assert_eq!(key(&position(fen)), expected, "{fen}");
        }
        assert_eq!(start_key(), 0x463b96181691fc9c);
    }

    #[test]
    fn entries_round_trip_through_bytes() {
        let entry = Entry { key: 0x463b96181691fc9c, raw_move: 0x031c, weight: 10439, learn: 7 };
        let bytes = entry.to_bytes();
        assert_eq!(&bytes[..8], &[0x46, 0x3b, 0x96, 0x18, 0x16, 0x91, 0xfc, 0x9c]);
        assert_eq!(Entry::from_bytes(&bytes), entry);
    }

    #[test]
    fn moves_decode_to_legal_moves_including_castling_and_promotion() {
        let start = Chess::default();
        // e2e4: from 12, to 28.
        let e4 = decode_move(&start, (12 << 6) | 28).unwrap();
        assert_eq!(UciMove::from_standard(e4).to_string(), "e2e4");
        assert_eq!(encode_move(&e4), (12 << 6) | 28);

        let castle = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        // e1h1 is how Polyglot writes white's short castling.
        let short = decode_move(&castle, (4 << 6) | 7).unwrap();
        assert_eq!(short.castling_side(), Some(CastlingSide::KingSide));
        assert_eq!(encode_move(&short), (4 << 6) | 7);
        // e1g1 is no move in a book: the king does not land on g1 in Polyglot terms.
        assert!(decode_move(&castle, (4 << 6) | 6).is_none());

        let promote = position("8/1P6/8/8/8/8/6k1/4K3 w - - 0 1");
        let knight = decode_move(&promote, (1 << 12) | (49 << 6) | 57).unwrap();
        assert_eq!(knight.promotion(), Some(Role::Knight));
        assert_eq!(encode_move(&knight), (1 << 12) | (49 << 6) | 57);
        assert!(decode_move(&promote, (7 << 12) | (49 << 6) | 57).is_none());
        // A move of the other side, or from an empty square, is no move here.
        assert!(decode_move(&start, (52 << 6) | 36).is_none());
    }
}
