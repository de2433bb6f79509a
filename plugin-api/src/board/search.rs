//! What a search is asked on a board other than 8×8: [`crate::SearchRequest`] with
//! [`BoardPosition`]s.

use abi_stable::{StableAbi, std_types::RSlice};

use super::BoardPosition;
use crate::{Move, SearchControl};

/// Everything a search of a [`BoardPosition`] needs to know; the fields mean what
/// they mean in [`crate::SearchRequest`].
#[repr(C)]
#[derive(StableAbi, Debug)]
pub struct BoardSearchRequest<'a> {
    /// The position the game (or the last `setboard`) started from.
    pub game_start: BoardPosition,
    /// The moves played from `game_start` to `root`, for repetition rules.
    pub moves: RSlice<'a, Move>,
    pub root: BoardPosition,
    /// Only these root moves are searched; empty means all legal moves.
    pub root_moves: RSlice<'a, Move>,
    /// Maximum depth in plies; 0 means no limit.
    pub depth: u32,
    pub threads: u32,
    /// Maximum nodes; 0 means no limit.
    pub nodes: u64,
    pub hash_mb: u32,
    /// Number of principal variations to report; 1 for normal play.
    pub multipv: u32,
    /// Scores the user fixed for positions (CECP `setscore`).
    pub preset_scores: RSlice<'a, BoardPresetScore>,
    /// Up to this many centipawns of noise on every evaluation (CECP `random`).
    pub eval_noise: u32,
    /// Forget what earlier searches learnt (a new game, or another evaluation).
    pub clear_hash: bool,
    /// Zero; later minor versions may give these meaning.
    pub reserved8: [u8; 3],
    /// Seed of the noise; a new one each search.
    pub noise_seed: u64,
    pub control: &'a SearchControl,
    pub reserved: [u64; 4],
}

/// A position and the score it is to have, in centipawns for its side to move.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardPresetScore {
    pub position: BoardPosition,
    pub centipawns: i32,
    pub reserved: u32,
}
