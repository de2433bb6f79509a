//! The training positions: read from `plugboard datagen`'s files (its own
//! records, `*.bin`, or bullet's, a file named `*.bullet`), split into a
//! training and a held-out share by game (positions of one game are alike, so
//! a game is wholly in one share), and turned into the network's inputs.

use std::path::{Path, PathBuf};

use plugboard_eval_nnue::{
    bullet::{BULLET_RECORD_SIZE, from_bullet},
    data::{RECORD_SIZE, Record},
    features::{self, MAX_ACTIVE},
};

/// One position as the network sees it.
pub struct Sample {
    /// Active inputs from the side to move's view, then from the other side's.
    pub ours: [u16; MAX_ACTIVE],
    pub theirs: [u16; MAX_ACTIVE],
    pub count: usize,
    /// The search's score, centipawns for the side to move.
    pub score: f32,
    /// The game's result for the side to move: 0, ½ or 1.
    pub result: f32,
}

impl Sample {
    pub fn from_record(record: &Record) -> Sample {
        Sample::seen(record, false)
    }

    /// The record's position, or, when `mirrored`, its mirror image from the a-
    /// to the h-file: the same game with the wings swapped, worth the same (but
    /// for castling rights, which the inputs do not show).
    pub fn seen(record: &Record, mirrored: bool) -> Sample {
        let mut sample = Sample { ours: [0; MAX_ACTIVE], theirs: [0; MAX_ACTIVE], count: 0, score: 0.0, result: 0.0 };
        let us = usize::from(record.side_to_move);
        let flip = if mirrored { 7 } else { 0 };
        for (color, kind, square) in features::each_piece(&record.pieces).take(MAX_ACTIVE) {
            let square = square ^ flip;
            sample.ours[sample.count] = features::index(us, color, kind, square) as u16;
            sample.theirs[sample.count] = features::index(us ^ 1, color, kind, square) as u16;
            sample.count += 1;
        }
        let white_result = record.outcome.white_score();
        let score = f32::from(record.score);
        (sample.score, sample.result) = if us == 0 { (score, white_result) } else { (-score, 1.0 - white_result) };
        sample
    }
}

/// Every record of the training files, the held-out share apart.
pub struct Positions {
    pub training: Vec<Record>,
    pub held_out: Vec<Record>,
    pub skipped: u64,
}

/// The files under `paths`: each file itself, each folder's `*.bin` files by
/// name (a folder's `*.bullet` files hold the same positions again).
pub fn files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let entries = std::fs::read_dir(path).map_err(|e| format!("cannot list {}: {e}", path.display()))?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|ext| ext == "bin"))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// Reads every record; a game goes to the held-out share when its number
/// hashes below `held_out_share`.
pub fn load(files: &[PathBuf], held_out_share: f64, seed: u64) -> Result<Positions, String> {
    let mut positions = Positions { training: Vec::new(), held_out: Vec::new(), skipped: 0 };
    for file in files {
        read_file(file, &mut positions, held_out_share, seed)?;
    }
    Ok(positions)
}

// Both kinds of record are 32 bytes: one loop reads either.
const _: () = assert!(BULLET_RECORD_SIZE == RECORD_SIZE);

fn read_file(path: &Path, into: &mut Positions, held_out_share: f64, seed: u64) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let is_bullet = path.extension().is_some_and(|ext| ext == "bullet");
    for (index, chunk) in bytes.chunks_exact(RECORD_SIZE).enumerate() {
        let record = if is_bullet {
            // bullet keeps no game number: each position is split off on its own.
            chunk.try_into().ok().and_then(from_bullet).map(|record| Record { game: index as u32, ..record })
        } else {
            chunk.try_into().ok().and_then(Record::from_bytes)
        };
        let Some(record) = record else {
            into.skipped += 1;
            continue;
        };
        let draw = plugboard_eval_nnue::random::mix(seed ^ u64::from(record.game).wrapping_mul(0xD6E8_FEB8_6659_FD93));
        if (draw >> 11) as f64 / (1u64 << 53) as f64 <= held_out_share {
            into.held_out.push(record);
        } else {
            into.training.push(record);
        }
    }
    Ok(())
}
