//! Xiangqi training data: positions from Plugboard's own xiangqi games, as
//! fixed 40-byte records, written by `plugboard datagen --variant xiangqi` and
//! read by `plugboard-trainer --game xiangqi`.
//!
//! A record, little-endian: occupied points (u128, bit `rank × 9 + file`); one
//! nibble per occupied point, lowest first, colour × 7 + kind (16 bytes, room
//! for the 32 pieces a position can hold); the score in centipawns from Red's
//! side (i16); the result from Red's side (0 loss, 1 draw, 2 win, as
//! [`Outcome`]); the side to move (0 Red, 1 Black); the game's number (u32).

use plugboard_plugin_api::BoardPosition;

use super::features::{self, KINDS, MAX_ACTIVE, POINTS, Points};
use crate::data::Outcome;

pub const XIANGQI_RECORD_SIZE: usize = 40;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XiangqiRecord {
    pub points: Points,
    /// Centipawns from Red's side.
    pub score: i16,
    pub outcome: Outcome,
    /// 0 Red, 1 Black.
    pub side_to_move: u8,
    pub game: u32,
}

impl XiangqiRecord {
    pub fn new(position: &BoardPosition, red_score: i16, outcome: Outcome, game: u32) -> XiangqiRecord {
        XiangqiRecord {
            points: features::points_of(position),
            score: red_score,
            outcome,
            side_to_move: position.side_to_move & 1,
            game,
        }
    }

    /// `None` for more than 32 pieces: no game of xiangqi has them.
    pub fn to_bytes(&self) -> Option<[u8; XIANGQI_RECORD_SIZE]> {
        let mut bytes = [0u8; XIANGQI_RECORD_SIZE];
        let mut occupied = 0u128;
        let mut nth = 0;
        for (point, &code) in self.points.iter().enumerate() {
            let Some((color, kind)) = features::decode(code) else { continue };
            if nth == MAX_ACTIVE {
                return None;
            }
            occupied |= 1 << point;
            bytes[16 + nth / 2] |= ((color * KINDS + kind) as u8) << (4 * (nth % 2));
            nth += 1;
        }
        bytes[..16].copy_from_slice(&occupied.to_le_bytes());
        bytes[32..34].copy_from_slice(&self.score.to_le_bytes());
        bytes[34] = self.outcome as u8;
        bytes[35] = self.side_to_move;
        bytes[36..40].copy_from_slice(&self.game.to_le_bytes());
        Some(bytes)
    }

    /// `None` for bytes no record has: a point past the board, more than 32
    /// pieces, a piece code past 13, a result past 2.
    pub fn from_bytes(bytes: &[u8; XIANGQI_RECORD_SIZE]) -> Option<XiangqiRecord> {
        let occupied = u128::from_le_bytes(bytes[..16].try_into().ok()?);
        if occupied >> POINTS != 0 || occupied.count_ones() as usize > MAX_ACTIVE {
            return None;
        }
        let mut points = [0u8; POINTS];
        let mut nth = 0;
        for (point, slot) in points.iter_mut().enumerate() {
            if occupied & (1 << point) == 0 {
                continue;
            }
            let code = usize::from((bytes[16 + nth / 2] >> (4 * (nth % 2))) & 15);
            if code >= 2 * KINDS {
                return None;
            }
            *slot = features::encode(code / KINDS, code % KINDS);
            nth += 1;
        }
        let outcome = match bytes[34] {
            0 => Outcome::BlackWins,
            1 => Outcome::Draw,
            2 => Outcome::WhiteWins,
            _ => return None,
        };
        if bytes[35] > 1 {
            return None;
        }
        Some(XiangqiRecord {
            points,
            score: i16::from_le_bytes([bytes[32], bytes[33]]),
            outcome,
            side_to_move: bytes[35],
            game: u32::from_le_bytes(bytes[36..40].try_into().ok()?),
        })
    }

    /// Both generals on the board: every position of a game has them, and
    /// bytes of another file seldom read so.
    pub fn has_both_generals(&self) -> bool {
        let general = |color| self.points.iter().filter(|&&code| code == features::encode(color, KINDS - 1)).count();
        general(0) == 1 && general(1) == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Points {
        let mut points = [0u8; POINTS];
        // Back rank: chariot, horse, elephant, advisor, general, advisor, elephant, horse, chariot.
        let back = [5, 3, 2, 1, 6, 1, 2, 3, 5];
        for (file, &kind) in back.iter().enumerate() {
            points[file] = features::encode(0, kind);
            points[9 * 9 + file] = features::encode(1, kind);
        }
        for file in [1, 7] {
            points[2 * 9 + file] = features::encode(0, 4);
            points[7 * 9 + file] = features::encode(1, 4);
        }
        for file in [0, 2, 4, 6, 8] {
            points[3 * 9 + file] = features::encode(0, 0);
            points[6 * 9 + file] = features::encode(1, 0);
        }
        points
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let record = XiangqiRecord { points: start(), score: -37, outcome: Outcome::Draw, side_to_move: 1, game: 77 };
        let bytes = record.to_bytes().expect("the start position has 32 pieces");
        assert_eq!(XiangqiRecord::from_bytes(&bytes), Some(record));
        assert!(record.has_both_generals());
        assert_eq!(features::each_piece(&record.points).count(), 32);
    }

    #[test]
    fn bytes_that_are_no_record_are_refused() {
        let record = XiangqiRecord { points: start(), score: 0, outcome: Outcome::WhiteWins, side_to_move: 0, game: 0 };
        let mut bytes = record.to_bytes().unwrap();
        bytes[34] = 3;
        assert_eq!(XiangqiRecord::from_bytes(&bytes), None);
        let mut bytes = record.to_bytes().unwrap();
        bytes[15] = 0x80; // point 127, off the board
        assert_eq!(XiangqiRecord::from_bytes(&bytes), None);
        let mut bytes = record.to_bytes().unwrap();
        bytes[16] = 0xEE; // code 14
        assert_eq!(XiangqiRecord::from_bytes(&bytes), None);
    }
}
