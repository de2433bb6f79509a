//! What both evaluator tables ([`crate::Evaluator`] for chess,
//! [`crate::BoardEvaluator`] for other boards) share, written once for either
//! kind of position: the shims that catch a Rust evaluator's panics, and the
//! table's methods (`evaluator_methods!`). The tables themselves stay two
//! `#[repr(C)]` types, each with its own frozen layout.

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

/// The methods of an evaluator table `$table` over `$position`, whose Rust
/// evaluators implement `$trait` and are seen by the shims through `$adapter`.
macro_rules! evaluator_methods {
    ($table:ident, $position:ty, $trait:ident, $adapter:ident) => {
        // The state is created for, and only ever used by, the thread that owns the table.
        unsafe impl Send for $table {}

        impl $table {
            /// The score of `position` for its side to move, or [`crate::EVAL_FAILED`].
            #[inline(always)]
            pub fn evaluate(&mut self, position: &$position) -> i32 {
                // SAFETY: state was made by the same plugin that supplied evaluate_fn, and is
                // only used through &mut self, so never from two threads at once.
                unsafe { (self.evaluate_fn)(self.state, position) }
            }

            #[inline]
            pub fn wants_notifications(&self) -> bool {
                self.on_make.is_some()
            }

            #[inline]
            pub fn notify_reset(&mut self, root: &$position) {
                if let Some(reset) = self.reset {
                    // SAFETY: as for evaluate.
                    unsafe { reset(self.state, root) }
                }
            }

            #[inline]
            pub fn notify_make(&mut self, mv: crate::Move, after: &$position) {
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
            pub fn from_rust<E: $trait>(evaluator: E) -> $table {
                let table = $crate::hot_path::table($crate::hot_path::$adapter(evaluator));
                $table {
                    state: table.state,
                    evaluate_fn: table.evaluate,
                    reset: table.reset,
                    on_make: table.on_make,
                    on_unmake: table.on_unmake,
                    release: table.release,
                }
            }
        }

        impl Drop for $table {
            fn drop(&mut self) {
                // SAFETY: state came from the same plugin as release and is released once.
                unsafe { (self.release)(self.state) }
            }
        }
    };
}

pub(crate) use evaluator_methods;
