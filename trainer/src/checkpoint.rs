//! The trainer's state after each epoch, so a stopped run goes on from where it
//! was: the parameters, the optimiser's moments, the next epoch, and what the
//! network is taught to predict. The last is passed beside the state, not kept
//! in it, because checkpoints from before it was written load without one.
//! Written to a new file and renamed over the old one, so a kill leaves one
//! whole checkpoint.

use std::path::Path;

use plugboard_eval_nnue::Game;

use crate::{
    adam::Adam,
    model::{Model, Target},
};

/// Checkpoints of one output layer, written before there were buckets.
const MAGIC_ONE_LAYER: &[u8; 8] = b"PBTRAIN1";
/// The same with the number of output layers after the step count.
const MAGIC_BUCKETS: &[u8; 8] = b"PBTRAIN2";
/// The same with the target's k and λ (f32 each) after the output layers.
const MAGIC: &[u8; 8] = b"PBTRAIN3";

pub struct Checkpoint {
    pub model: Model,
    pub adam: Adam,
    pub next_epoch: u32,
    pub seed: u64,
}

pub fn save(path: &Path, checkpoint: &Checkpoint, target: Target) -> Result<(), String> {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(checkpoint.model.hidden as u32).to_le_bytes());
    bytes.extend_from_slice(&checkpoint.next_epoch.to_le_bytes());
    bytes.extend_from_slice(&checkpoint.seed.to_le_bytes());
    bytes.extend_from_slice(&checkpoint.adam.step.to_le_bytes());
    bytes.extend_from_slice(&(checkpoint.model.buckets as u64).to_le_bytes());
    bytes.extend_from_slice(&target.k.to_le_bytes());
    bytes.extend_from_slice(&target.lambda.to_le_bytes());
    for values in [&checkpoint.model.params, &checkpoint.adam.first, &checkpoint.adam.second] {
        for value in values.iter() {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
    }
    let staging = path.with_extension("ckpt.new");
    std::fs::write(&staging, &bytes)
        .and_then(|()| std::fs::rename(&staging, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The checkpoint, and the target its run started with (`None` in checkpoints
/// written before the target was kept).
pub fn load(path: &Path) -> Result<(Checkpoint, Option<Target>), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let bad = || format!("{} is not a whole trainer checkpoint", path.display());
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or([0; 4]));
    let long = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or([0; 8]));
    let float = |at: usize| f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or([0; 4]));
    let (buckets, target, start) = match bytes.get(..8) {
        Some(magic) if magic == MAGIC && bytes.len() >= 48 => {
            (long(32) as usize, Some(Target { k: float(40), lambda: float(44) }), 48)
        }
        Some(magic) if magic == MAGIC_BUCKETS && bytes.len() >= 40 => (long(32) as usize, None, 40),
        Some(magic) if magic == MAGIC_ONE_LAYER && bytes.len() >= 32 => (1, None, 32),
        _ => return Err(bad()),
    };
    if buckets != 1 && buckets != plugboard_eval_nnue::network::BUCKETS {
        return Err(bad());
    }
    let hidden = word(8) as usize;
    // The game is told by the size: its inputs fix the parameter count.
    let (game, count) = [Game::Chess, Game::Xiangqi]
        .into_iter()
        .map(|game| (game, crate::model::parameter_count(game, hidden, buckets)))
        .find(|&(_, count)| bytes.len() == start + 3 * 4 * count)
        .ok_or_else(bad)?;
    let mut floats = bytes[start..].chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    let params: Vec<f32> = floats.by_ref().take(count).collect();
    let first: Vec<f32> = floats.by_ref().take(count).collect();
    let second: Vec<f32> = floats.collect();
    let checkpoint = Checkpoint {
        model: Model { game, hidden, buckets, params },
        adam: Adam { step: long(24), first, second },
        next_epoch: word(12),
        seed: long(16),
    };
    Ok((checkpoint, target))
}
