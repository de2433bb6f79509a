//! The training positions: read from `plugboard datagen`'s files (its own
//! records, `*.bin`, or bullet's, a file named `*.bullet`; for xiangqi,
//! `*.xiangqi`), split into a training and a held-out share by game (positions
//! of one game are alike, so a game is wholly in one share), and turned into
//! the network's inputs.

use std::{
    path::{Path, PathBuf},
    sync::Arc,
};

use plugboard_eval_nnue::{
    Game, Network, NnueEvaluator, XiangqiEvaluator,
    bullet::{BULLET_RECORD_SIZE, from_bullet},
    data::{Outcome, RECORD_SIZE, Record},
    features::{self, MAX_ACTIVE},
    xiangqi::{
        data::{XIANGQI_RECORD_SIZE, XiangqiRecord},
        features::{self as points, FILES},
    },
};
use plugboard_plugin_api::{BoardEvaluate, Evaluate};

/// A record of one game's training positions.
pub trait TrainingPosition: Sized + Send + Sync {
    const GAME: Game;
    /// The extension of a folder's files that hold these records.
    const EXTENSION: &'static str;
    /// The record in `bytes` (of `record_size(path)` bytes), the `index`th of a
    /// file at `path`; `None` for bytes that are no record.
    fn parse(path: &Path, bytes: &[u8], index: usize) -> Option<Self>;
    fn record_size(path: &Path) -> usize;
    /// The position as the network sees it, mirrored from wing to wing when asked.
    fn sample(&self, mirrored: bool) -> Sample;
    fn game_number(&self) -> u32;
    /// The score from the first player's side and the game's result.
    fn labels(&self) -> (i16, Outcome);
    /// What the plugin's integer network scores the position, for the side to move.
    fn integer_score(&self, network: &Arc<Network>) -> i32;
}

impl TrainingPosition for Record {
    const GAME: Game = Game::Chess;
    const EXTENSION: &'static str = "bin";

    fn parse(path: &Path, bytes: &[u8], index: usize) -> Option<Record> {
        if path.extension().is_some_and(|ext| ext == "bullet") {
            // bullet keeps no game number: each position is split off on its own.
            bytes.try_into().ok().and_then(from_bullet).map(|record| Record { game: index as u32, ..record })
        } else {
            bytes.try_into().ok().and_then(Record::from_bytes)
        }
    }

    fn record_size(_: &Path) -> usize {
        RECORD_SIZE
    }

    fn sample(&self, mirrored: bool) -> Sample {
        Sample::seen(self, mirrored)
    }

    fn game_number(&self) -> u32 {
        self.game
    }

    fn labels(&self) -> (i16, Outcome) {
        (self.score, self.outcome)
    }

    fn integer_score(&self, network: &Arc<Network>) -> i32 {
        NnueEvaluator::new(Arc::clone(network)).evaluate(&self.position())
    }
}

impl TrainingPosition for XiangqiRecord {
    const GAME: Game = Game::Xiangqi;
    const EXTENSION: &'static str = "xiangqi";

    fn parse(_: &Path, bytes: &[u8], _: usize) -> Option<XiangqiRecord> {
        bytes.try_into().ok().and_then(XiangqiRecord::from_bytes)
    }

    fn record_size(_: &Path) -> usize {
        XIANGQI_RECORD_SIZE
    }

    /// Xiangqi is as symmetric from wing to wing as chess: the mirror is the same game.
    fn sample(&self, mirrored: bool) -> Sample {
        let us = usize::from(self.side_to_move);
        let mut sample = Sample::empty(self.score, self.outcome, us);
        for (color, kind, point) in points::each_piece(&self.points).take(MAX_ACTIVE) {
            let point = if mirrored { point - point % FILES + (FILES - 1 - point % FILES) } else { point };
            sample.push(points::index(us, color, kind, point), points::index(us ^ 1, color, kind, point));
        }
        sample
    }

    fn game_number(&self) -> u32 {
        self.game
    }

    fn labels(&self) -> (i16, Outcome) {
        (self.score, self.outcome)
    }

    fn integer_score(&self, network: &Arc<Network>) -> i32 {
        XiangqiEvaluator::new(Arc::clone(network)).evaluate(&points::position_of(&self.points, self.side_to_move))
    }
}

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
    /// No inputs yet; the labels of a record scored `score` (first player's
    /// side) in a game that ended `outcome`, seen by `us`.
    fn empty(score: i16, outcome: Outcome, us: usize) -> Sample {
        let (score, first_result) = (f32::from(score), outcome.white_score());
        let (score, result) = if us == 0 { (score, first_result) } else { (-score, 1.0 - first_result) };
        Sample { ours: [0; MAX_ACTIVE], theirs: [0; MAX_ACTIVE], count: 0, score, result }
    }

    fn push(&mut self, ours: usize, theirs: usize) {
        self.ours[self.count] = ours as u16;
        self.theirs[self.count] = theirs as u16;
        self.count += 1;
    }

    /// The record's position, or, when `mirrored`, its mirror image from the a-
    /// to the h-file: the same game with the wings swapped, worth the same (but
    /// for castling rights, which the inputs do not show).
    pub fn seen(record: &Record, mirrored: bool) -> Sample {
        let us = usize::from(record.side_to_move);
        let mut sample = Sample::empty(record.score, record.outcome, us);
        let flip = if mirrored { 7 } else { 0 };
        for (color, kind, square) in features::each_piece(&record.pieces).take(MAX_ACTIVE) {
            let square = square ^ flip;
            sample.push(features::index(us, color, kind, square), features::index(us ^ 1, color, kind, square));
        }
        sample
    }
}

/// Every record of the training files, the held-out share apart.
pub struct Positions<P> {
    pub training: Vec<P>,
    pub held_out: Vec<P>,
    pub skipped: u64,
}

/// The files under `paths`: each file itself, each folder's files of `extension`
/// by name (a folder's `*.bullet` files hold the same positions as its `*.bin`).
pub fn files(paths: &[PathBuf], extension: &str) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let entries = std::fs::read_dir(path).map_err(|e| format!("cannot list {}: {e}", path.display()))?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|ext| ext == extension))
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
pub fn load<P: TrainingPosition>(files: &[PathBuf], held_out_share: f64, seed: u64) -> Result<Positions<P>, String> {
    let mut positions = Positions { training: Vec::new(), held_out: Vec::new(), skipped: 0 };
    for file in files {
        read_file(file, &mut positions, held_out_share, seed)?;
    }
    Ok(positions)
}

// Both kinds of chess record are 32 bytes.
const _: () = assert!(BULLET_RECORD_SIZE == RECORD_SIZE);

fn read_file<P: TrainingPosition>(
    path: &Path,
    into: &mut Positions<P>,
    held_out_share: f64,
    seed: u64,
) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    for (index, chunk) in bytes.chunks_exact(P::record_size(path)).enumerate() {
        let Some(record) = P::parse(path, chunk, index) else {
            into.skipped += 1;
            continue;
        };
        let game = record.game_number();
        let draw = plugboard_eval_nnue::random::mix(seed ^ u64::from(game).wrapping_mul(0xD6E8_FEB8_6659_FD93));
        if (draw >> 11) as f64 / (1u64 << 53) as f64 <= held_out_share {
            into.held_out.push(record);
        } else {
            into.training.push(record);
        }
    }
    Ok(())
}
