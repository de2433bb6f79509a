//! The hot path for board positions: what [`crate::Evaluator`] is for chess.

use std::ffi::c_void;

use abi_stable::{
    StableAbi,
    std_types::{RResult, RStr, RString},
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

/// Makes evaluators of a variant defined as data ([`Variant::DEFINED`]): the
/// definition is its `variants.ini` text (read it with the `plugboard-variants`
/// crate), and the positions' piece codes are its kinds in that crate's order.
#[repr(C)]
#[derive(StableAbi, Clone, Copy)]
pub struct DefinedEvaluatorSource {
    pub new_evaluator: extern "C" fn(definition: RStr<'_>) -> RResult<BoardEvaluator, RString>,
}

impl DefinedEvaluatorSource {
    pub fn create(&self, definition: &str) -> Result<BoardEvaluator, String> {
        (self.new_evaluator)(definition.into()).into_result().map_err(String::from)
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

hot_path::evaluator_methods!(BoardEvaluator, BoardPosition, BoardEvaluate, Board);

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
