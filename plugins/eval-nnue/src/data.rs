//! Training data: positions from Plugboard's own games, each with the search's
//! score and the game's result, as fixed 32-byte records appended to a file.
//! `plugboard datagen` writes them and `plugboard-trainer` reads them; both go
//! through this one definition.
//!
//! A record, little-endian: occupied squares (u64); one nibble per occupied
//! square, lowest square first, colour × 6 + kind (16 bytes, room for the 32
//! pieces a position can hold); the score in centipawns from White's side
//! (i16); the result from White's side (0 loss, 1 draw, 2 win); the side to
//! move (0 White, 1 Black); the number of the game it came from (u32), which
//! with the generator's seed says how to play that game again.

use plugboard_plugin_api::Position;

use crate::features::{self, Pieces};

pub const RECORD_SIZE: usize = 32;

/// A game's result from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    BlackWins = 0,
    Draw = 1,
    WhiteWins = 2,
}

impl Outcome {
    /// 0, ½ or 1: White's share of the point.
    pub fn white_score(self) -> f32 {
        f32::from(self as u8) / 2.0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub pieces: Pieces,
    /// Centipawns from White's side.
    pub score: i16,
    pub outcome: Outcome,
    /// 0 White, 1 Black.
    pub side_to_move: u8,
    pub game: u32,
}

impl Record {
    pub fn new(position: &Position, white_score: i16, outcome: Outcome, game: u32) -> Record {
        Record {
            pieces: features::pieces_of(position),
            score: white_score,
            outcome,
            side_to_move: position.side_to_move,
            game,
        }
    }

    /// The record's board as a position (without castling rights or an
    /// en-passant square, which records do not keep).
    pub fn position(&self) -> Position {
        features::position_of(&self.pieces, self.side_to_move)
    }

    /// `None` for more than 32 pieces, or two pieces on one square: boards no
    /// game of chess reaches.
    pub fn to_bytes(&self) -> Option<[u8; RECORD_SIZE]> {
        let occupied = self.pieces[0] | self.pieces[1];
        if self.pieces[0] & self.pieces[1] != 0 || occupied.count_ones() as usize > features::MAX_ACTIVE {
            return None;
        }
        let mut bytes = [0u8; RECORD_SIZE];
        bytes[..8].copy_from_slice(&occupied.to_le_bytes());
        for (nth, square) in features::squares(occupied).enumerate() {
            let bit = 1u64 << square;
            let color = usize::from(self.pieces[1] & bit != 0);
            let mut kinds = (0..6).filter(|&kind| self.pieces[2 + kind] & bit != 0);
            let (Some(kind), None) = (kinds.next(), kinds.next()) else { return None };
            let code = (color * 6 + kind) as u8;
            bytes[8 + nth / 2] |= code << (4 * (nth % 2));
        }
        bytes[24..26].copy_from_slice(&self.score.to_le_bytes());
        bytes[26] = self.outcome as u8;
        bytes[27] = self.side_to_move;
        bytes[28..32].copy_from_slice(&self.game.to_le_bytes());
        Some(bytes)
    }

    /// `None` for bytes no record has (a piece code past 11, a result past 2).
    pub fn from_bytes(bytes: &[u8; RECORD_SIZE]) -> Option<Record> {
        let occupied = u64::from_le_bytes(bytes[..8].try_into().ok()?);
        if occupied.count_ones() as usize > features::MAX_ACTIVE {
            return None;
        }
        let mut pieces = [0u64; 8];
        for (nth, square) in features::squares(occupied).enumerate() {
            let code = usize::from((bytes[8 + nth / 2] >> (4 * (nth % 2))) & 15);
            if code >= 12 {
                return None;
            }
            pieces[code / 6] |= 1 << square;
            pieces[2 + code % 6] |= 1 << square;
        }
        let outcome = match bytes[26] {
            0 => Outcome::BlackWins,
            1 => Outcome::Draw,
            2 => Outcome::WhiteWins,
            _ => return None,
        };
        if bytes[27] > 1 {
            return None;
        }
        Some(Record {
            pieces,
            score: i16::from_le_bytes([bytes[24], bytes[25]]),
            outcome,
            side_to_move: bytes[27],
            game: u32::from_le_bytes(bytes[28..32].try_into().ok()?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Position {
        features::position_of(&features::START, 1)
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let record = Record::new(&start(), -37, Outcome::Draw, 123_456);
        let bytes = record.to_bytes().expect("the start position has 32 pieces");
        assert_eq!(Record::from_bytes(&bytes), Some(record));
        assert_eq!(features::each_piece(&record.pieces).count(), 32);
    }

    #[test]
    fn bytes_that_are_no_record_are_refused() {
        let mut bytes = Record::new(&start(), 0, Outcome::WhiteWins, 0).to_bytes().unwrap();
        bytes[26] = 3;
        assert_eq!(Record::from_bytes(&bytes), None);
        let mut bytes = Record::new(&start(), 0, Outcome::WhiteWins, 0).to_bytes().unwrap();
        bytes[8] = 0xFC;
        assert_eq!(Record::from_bytes(&bytes), None);
    }
}
