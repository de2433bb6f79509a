//! The shims behind both evaluator tables ([`crate::Evaluator`] for chess,
//! [`crate::BoardEvaluator`] for other boards): each call into a Rust evaluator
//! catches panics, written once for either kind of position.

use std::{
    ffi::c_void,
    panic::{AssertUnwindSafe, catch_unwind},
};

use crate::{BoardEvaluate, BoardPosition, EVAL_FAILED, EVAL_LIMIT, Evaluate, Move, Position};

/// What the shims need of an evaluator, whichever position it scores.
pub(crate) trait HotPath: Send + 'static {
    type Position;
    const INCREMENTAL: bool;
    fn evaluate(&mut self, position: &Self::Position) -> i32;
    fn reset(&mut self, root: &Self::Position);
    fn on_make(&mut self, mv: Move, after: &Self::Position);
    fn on_unmake(&mut self);
}

/// A chess evaluator, seen by the shims.
pub(crate) struct Chess<E>(pub E);

/// A board evaluator, seen by the shims.
pub(crate) struct Board<E>(pub E);

impl<E: Evaluate> HotPath for Chess<E> {
    type Position = Position;
    const INCREMENTAL: bool = E::INCREMENTAL;

    fn evaluate(&mut self, position: &Position) -> i32 {
        self.0.evaluate(position)
    }

    fn reset(&mut self, root: &Position) {
        self.0.reset(root)
    }

    fn on_make(&mut self, mv: Move, after: &Position) {
        self.0.on_make(mv, after)
    }

    fn on_unmake(&mut self) {
        self.0.on_unmake()
    }
}

impl<E: BoardEvaluate> HotPath for Board<E> {
    type Position = BoardPosition;
    const INCREMENTAL: bool = E::INCREMENTAL;

    fn evaluate(&mut self, position: &BoardPosition) -> i32 {
        self.0.evaluate(position)
    }

    fn reset(&mut self, root: &BoardPosition) {
        self.0.reset(root)
    }

    fn on_make(&mut self, mv: Move, after: &BoardPosition) {
        self.0.on_make(mv, after)
    }

    fn on_unmake(&mut self) {
        self.0.on_unmake()
    }
}

type EvaluateFn<P> = unsafe extern "C" fn(state: *mut c_void, position: &P) -> i32;
type ResetFn<P> = unsafe extern "C" fn(state: *mut c_void, root: &P);
type MakeFn<P> = unsafe extern "C" fn(state: *mut c_void, mv: Move, after: &P);
type UnmakeFn = unsafe extern "C" fn(state: *mut c_void);

/// An evaluator boxed for the other side of the boundary, and its functions.
pub(crate) struct Table<P> {
    pub state: *mut c_void,
    pub evaluate: EvaluateFn<P>,
    pub reset: Option<ResetFn<P>>,
    pub on_make: Option<MakeFn<P>>,
    pub on_unmake: Option<UnmakeFn>,
    pub release: UnmakeFn,
}

pub(crate) fn table<H: HotPath>(evaluator: H) -> Table<H::Position> {
    let notifications = H::INCREMENTAL;
    Table {
        state: Box::into_raw(Box::new(evaluator)).cast(),
        evaluate: evaluate_shim::<H>,
        reset: notifications.then_some(reset_shim::<H> as _),
        on_make: notifications.then_some(make_shim::<H> as _),
        on_unmake: notifications.then_some(unmake_shim::<H> as _),
        release: release_shim::<H>,
    }
}

unsafe extern "C" fn evaluate_shim<H: HotPath>(state: *mut c_void, position: &H::Position) -> i32 {
    // SAFETY: state is the Box<H> made in `table`, used by one thread at a time.
    let evaluator = unsafe { &mut *state.cast::<H>() };
    match catch_unwind(AssertUnwindSafe(|| evaluator.evaluate(position))) {
        Ok(score) => score.clamp(-EVAL_LIMIT, EVAL_LIMIT),
        Err(_) => EVAL_FAILED,
    }
}

// A panic in a notification cannot be returned; the next evaluate reports the failure.
unsafe extern "C" fn reset_shim<H: HotPath>(state: *mut c_void, root: &H::Position) {
    // SAFETY: as in evaluate_shim.
    let evaluator = unsafe { &mut *state.cast::<H>() };
    let _ = catch_unwind(AssertUnwindSafe(|| evaluator.reset(root)));
}

unsafe extern "C" fn make_shim<H: HotPath>(state: *mut c_void, mv: Move, after: &H::Position) {
    // SAFETY: as in evaluate_shim.
    let evaluator = unsafe { &mut *state.cast::<H>() };
    let _ = catch_unwind(AssertUnwindSafe(|| evaluator.on_make(mv, after)));
}

unsafe extern "C" fn unmake_shim<H: HotPath>(state: *mut c_void) {
    // SAFETY: as in evaluate_shim.
    let evaluator = unsafe { &mut *state.cast::<H>() };
    let _ = catch_unwind(AssertUnwindSafe(|| evaluator.on_unmake()));
}

unsafe extern "C" fn release_shim<H: HotPath>(state: *mut c_void) {
    // SAFETY: state is the Box<H> made in `table`; the evaluator's Drop calls this once.
    let evaluator = unsafe { Box::from_raw(state.cast::<H>()) };
    let _ = catch_unwind(AssertUnwindSafe(move || drop(evaluator)));
}
