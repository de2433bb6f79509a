//! The hot path for board positions: what [`crate::Evaluator`] is for chess.

use std::ffi::c_void;

use abi_stable::{
    StableAbi,
    std_types::{RResult, RString},
};

use super::BoardPosition;
use crate::{Move, Variant, hot_path};

/// Makes board evaluators; a search fetches it once per search and calls it once
/// per thread, with the variant of the position it searches.
#[repr(C)]
#[derive(StableAbi, Clone, Copy)]
pub struct BoardEvaluatorSource {
    pub new_evaluator: extern "C" fn(variant: Variant) -> RResult<BoardEvaluator, RString>,
}

impl BoardEvaluatorSource {
    pub fn create(&self, variant: Variant) -> Result<BoardEvaluator, String> {
        (self.new_evaluator)(variant).into_result().map_err(String::from)
    }
}

/// One evaluator of board positions: opaque state plus the functions that use it,
/// with the same contract as [`crate::Evaluator`] (scores for the side to move, in
/// centipawns; notifications only for an incremental evaluation).
#[repr(C)]
#[derive(StableAbi)]
pub struct BoardEvaluator {
    state: *mut c_void,
    evaluate_fn: unsafe extern "C" fn(state: *mut c_void, position: &BoardPosition) -> i32,
    pub reset: Option<unsafe extern "C" fn(state: *mut c_void, root: &BoardPosition)>,
    pub on_make: Option<unsafe extern "C" fn(state: *mut c_void, mv: Move, after: &BoardPosition)>,
    pub on_unmake: Option<unsafe extern "C" fn(state: *mut c_void)>,
    release: unsafe extern "C" fn(state: *mut c_void),
}

// The state is created for, and only ever used by, the thread that owns the evaluator.
unsafe impl Send for BoardEvaluator {}

impl BoardEvaluator {
    /// The score of `position` for its side to move, or [`EVAL_FAILED`](crate::EVAL_FAILED).
    #[inline(always)]
    pub fn evaluate(&mut self, position: &BoardPosition) -> i32 {
        // SAFETY: state was made by the plugin that supplied evaluate_fn, and is
        // only used through &mut self, so never from two threads at once.
        unsafe { (self.evaluate_fn)(self.state, position) }
    }

    #[inline]
    pub fn wants_notifications(&self) -> bool {
        self.on_make.is_some()
    }

    #[inline]
    pub fn notify_reset(&mut self, root: &BoardPosition) {
        if let Some(reset) = self.reset {
            // SAFETY: as for evaluate.
            unsafe { reset(self.state, root) }
        }
    }

    #[inline]
    pub fn notify_make(&mut self, mv: Move, after: &BoardPosition) {
        if let Some(on_make) = self.on_make {
            // SAFETY: as for evaluate.
            unsafe { on_make(self.state, mv, after) }
        }
    }

    #[inline]
    pub fn notify_unmake(&mut self) {
        if let Some(on_unmake) = self.on_unmake {
            // SAFETY: as for evaluate.
            unsafe { on_unmake(self.state) }
        }
    }

    /// Wraps a Rust evaluator; every call into it catches panics.
    pub fn from_rust<E: BoardEvaluate>(evaluator: E) -> BoardEvaluator {
        let table = hot_path::table(hot_path::Board(evaluator));
        BoardEvaluator {
            state: table.state,
            evaluate_fn: table.evaluate,
            reset: table.reset,
            on_make: table.on_make,
            on_unmake: table.on_unmake,
            release: table.release,
        }
    }
}

impl Drop for BoardEvaluator {
    fn drop(&mut self) {
        // SAFETY: state came from the same plugin as release and is released once.
        unsafe { (self.release)(self.state) }
    }
}

/// An evaluator of board positions written in Rust, as [`crate::Evaluate`] is for chess.
pub trait BoardEvaluate: Send + 'static {
    /// Set to `true` to receive `reset`/`on_make`/`on_unmake` calls.
    const INCREMENTAL: bool = false;

    /// The score for the side to move, in centipawns.
    fn evaluate(&mut self, position: &BoardPosition) -> i32;

    fn reset(&mut self, _root: &BoardPosition) {}
    fn on_make(&mut self, _mv: Move, _after: &BoardPosition) {}
    fn on_unmake(&mut self) {}
}
