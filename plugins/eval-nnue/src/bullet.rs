//! bullet's chess records, so a user with a GPU can train a network for
//! Plugboard with bullet (<https://github.com/jw1912/bullet>) from
//! `plugboard datagen`'s positions, and our CPU trainer can read bullet's.
//!
//! The layout is `bulletformat::ChessBoard` (bulletformat 1.8.0), 32 bytes,
//! little-endian, everything seen from the side to move: the board turned
//! round for Black (ranks flipped, colours swapped); occupied squares (u64);
//! one nibble per occupied square, lowest square first, colour × 8 + kind
//! (pawn 0 … king 5; colour 0 the side to move); the score in centipawns for
//! the side to move (i16); the result for the side to move (0 loss, 1 draw,
//! 2 win); the side to move's king square, the other king's square turned
//! round again; three bytes unused. The side to move itself, and the game
//! number, are not kept.

use crate::{
    data::{Outcome, Record},
    features::{self, MAX_ACTIVE},
};

pub const BULLET_RECORD_SIZE: usize = 32;

/// The record as bullet stores it; `None` for a board no record may hold
/// (more than 32 pieces, two on a square, or a side without its one king).
pub fn to_bullet(record: &Record) -> Option<[u8; BULLET_RECORD_SIZE]> {
    let mut boards = record.pieces;
    let mut score = record.score;
    let mut result = record.outcome as u8;
    if record.side_to_move == 1 {
        for board in &mut boards {
            *board = board.swap_bytes();
        }
        boards.swap(0, 1);
        score = score.checked_neg()?;
        result = 2 - result;
    }
    let occupied = boards[0] | boards[1];
    if boards[0] & boards[1] != 0 || occupied.count_ones() as usize > MAX_ACTIVE {
        return None;
    }
    let (ours, theirs) = (boards[0] & boards[7], boards[1] & boards[7]);
    if ours.count_ones() != 1 || theirs.count_ones() != 1 {
        return None;
    }
    let mut bytes = [0u8; BULLET_RECORD_SIZE];
    bytes[..8].copy_from_slice(&occupied.to_le_bytes());
    for (nth, square) in features::squares(occupied).enumerate() {
        let bit = 1u64 << square;
        let colour = u8::from(boards[1] & bit != 0) << 3;
        let mut kinds = (0..6u8).filter(|&kind| boards[2 + usize::from(kind)] & bit != 0);
        let (Some(kind), None) = (kinds.next(), kinds.next()) else { return None };
        bytes[8 + nth / 2] |= (colour | kind) << (4 * (nth % 2));
    }
    bytes[24..26].copy_from_slice(&score.to_le_bytes());
    bytes[26] = result;
    bytes[27] = ours.trailing_zeros() as u8;
    bytes[28] = theirs.trailing_zeros() as u8 ^ 56;
    Some(bytes)
}

/// A bullet record as a record with the side to move playing White (the board
/// as bullet keeps it) and game number 0; `None` for bytes no such record has.
pub fn from_bullet(bytes: &[u8; BULLET_RECORD_SIZE]) -> Option<Record> {
    let occupied = u64::from_le_bytes(bytes[..8].try_into().ok()?);
    if occupied.count_ones() as usize > MAX_ACTIVE {
        return None;
    }
    let mut pieces = [0u64; 8];
    for (nth, square) in features::squares(occupied).enumerate() {
        let code = usize::from((bytes[8 + nth / 2] >> (4 * (nth % 2))) & 15);
        let (colour, kind) = (code >> 3, code & 7);
        if kind >= 6 {
            return None;
        }
        pieces[colour] |= 1 << square;
        pieces[2 + kind] |= 1 << square;
    }
    let outcome = match bytes[26] {
        0 => Outcome::BlackWins,
        1 => Outcome::Draw,
        2 => Outcome::WhiteWins,
        _ => return None,
    };
    let (ours, theirs) = (pieces[0] & pieces[7], pieces[1] & pieces[7]);
    if ours.count_ones() != 1 || theirs.count_ones() != 1 {
        return None;
    }
    Some(Record { pieces, score: i16::from_le_bytes([bytes[24], bytes[25]]), outcome, side_to_move: 0, game: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix64;

    /// A board of two kings and up to twenty other men on random squares.
    fn random_record(random: &mut SplitMix64, game: u32) -> Record {
        let mut pieces = [0u64; 8];
        let mut free: Vec<usize> = (0..64).collect();
        let mut place = |random: &mut SplitMix64, colour: usize, kind: usize| {
            let square = free.swap_remove(random.below(free.len()));
            pieces[colour] |= 1 << square;
            pieces[2 + kind] |= 1 << square;
        };
        place(random, 0, 5);
        place(random, 1, 5);
        for _ in 0..random.below(21) {
            let (colour, kind) = (random.below(2), random.below(5));
            place(random, colour, kind);
        }
        let outcome = [Outcome::BlackWins, Outcome::Draw, Outcome::WhiteWins][random.below(3)];
        let score = random.below(4001) as i16 - 2000;
        Record { pieces, score, outcome, side_to_move: random.below(2) as u8, game }
    }

    /// The same position seen from Black's side: what bullet keeps of a record
    /// with Black to move.
    fn turned_round(record: &Record) -> Record {
        let mut pieces = record.pieces.map(u64::swap_bytes);
        pieces.swap(0, 1);
        let outcome = match record.outcome {
            Outcome::BlackWins => Outcome::WhiteWins,
            Outcome::Draw => Outcome::Draw,
            Outcome::WhiteWins => Outcome::BlackWins,
        };
        Record { pieces, score: -record.score, outcome, side_to_move: 0, game: 0 }
    }

    #[test]
    fn records_go_through_bullet_and_back_as_the_side_to_move_sees_them() {
        let mut random = SplitMix64::for_item(17, 0);
        for game in 0..500 {
            let record = random_record(&mut random, game);
            let bytes = to_bullet(&record).expect("a legal board");
            let back = from_bullet(&bytes).expect("bullet's bytes");
            let expected = match record.side_to_move {
                0 => Record { game: 0, ..record },
                _ => turned_round(&record),
            };
            assert_eq!(back, expected, "{record:?}");
            // And again: the bytes are a fixed point.
            assert_eq!(to_bullet(&back), Some(bytes));
        }
    }

    #[test]
    fn the_start_position_reads_as_bulletformat_lays_it_out() {
        let rank = |r: u64| 0xFFu64 << (8 * r);
        let pieces = crate::features::START;
        let record = Record { pieces, score: 25, outcome: Outcome::WhiteWins, side_to_move: 0, game: 7 };
        let bytes = to_bullet(&record).unwrap();
        assert_eq!(u64::from_le_bytes(bytes[..8].try_into().unwrap()), rank(0) | rank(1) | rank(6) | rank(7));
        // a1 rook (3), b1 knight (1): the first byte's two nibbles, low one first.
        assert_eq!(bytes[8], 3 | 1 << 4);
        // a7's black pawn (8 + 0) is the 17th piece, a8's rook (8 + 3) the 25th:
        // the low nibbles of bytes 8 + 8 and 8 + 12.
        assert_eq!((bytes[16] & 15, bytes[20] & 15), (8, 8 + 3));
        assert_eq!((i16::from_le_bytes([bytes[24], bytes[25]]), bytes[26]), (25, 2));
        // e1 = 4; e8 = 60, turned round: 4.
        assert_eq!((bytes[27], bytes[28]), (4, 4));
        // Black to move: the score and the result are Black's.
        let black = to_bullet(&Record { side_to_move: 1, ..record }).unwrap();
        assert_eq!((i16::from_le_bytes([black[24], black[25]]), black[26]), (-25, 0));
        assert!(from_bullet(&[0xFF; BULLET_RECORD_SIZE]).is_none());
    }
}
