//! The evaluation seen from the search: one trait, two ways to reach an evaluator.
//!
//! The search is generic over [`Evaluation`], so the same search code can call an
//! evaluation plugin through the ABI's function-pointer table ([`Evaluator`]) or a
//! Rust evaluator linked in statically ([`Direct`]), and a benchmark can compare
//! the two on equal terms.

use plugboard_plugin_api::{EVAL_FAILED, EVAL_LIMIT, Evaluate, Evaluator, Move, Position};

/// What the search needs from an evaluation.
pub trait Evaluation {
    /// The score of `position` for its side to move, in centipawns within
    /// `-EVAL_LIMIT..=EVAL_LIMIT`, or [`EVAL_FAILED`] if the evaluation broke.
    fn evaluate(&mut self, position: &Position) -> i32;

    /// Whether the evaluation keeps incremental state and so needs `reset`,
    /// `on_make` and `on_unmake`; when false the search skips building the
    /// positions those calls take.
    fn wants_notifications(&self) -> bool {
        false
    }

    fn reset(&mut self, _root: &Position) {}
    fn on_make(&mut self, _mv: Move, _after: &Position) {}
    fn on_unmake(&mut self) {}
}

/// The plugin boundary: calls go through `extern "C"` function pointers, and a
/// panicking plugin shows up as [`EVAL_FAILED`].
impl Evaluation for Evaluator {
    #[inline(always)]
    fn evaluate(&mut self, position: &Position) -> i32 {
        Evaluator::evaluate(self, position)
    }

    #[inline]
    fn wants_notifications(&self) -> bool {
        Evaluator::wants_notifications(self)
    }

    fn reset(&mut self, root: &Position) {
        self.notify_reset(root);
    }

    fn on_make(&mut self, mv: Move, after: &Position) {
        self.notify_make(mv, after);
    }

    fn on_unmake(&mut self) {
        self.notify_unmake();
    }
}

/// A Rust evaluator called directly, for static linking and benchmarks.
///
/// A newtype rather than a blanket impl, because `Evaluator` could one day
/// implement `Evaluate` upstream and the two impls would then overlap.
#[derive(Clone, Debug, Default)]
pub struct Direct<E>(pub E);

impl<E: Evaluate> Evaluation for Direct<E> {
    #[inline(always)]
    fn evaluate(&mut self, position: &Position) -> i32 {
        // Same contract as the plugin boundary: scores must never look like mates.
        let score = self.0.evaluate(position);
        if score == EVAL_FAILED { score } else { score.clamp(-EVAL_LIMIT, EVAL_LIMIT) }
    }

    fn wants_notifications(&self) -> bool {
        E::INCREMENTAL
    }

    fn reset(&mut self, root: &Position) {
        self.0.reset(root);
    }

    fn on_make(&mut self, mv: Move, after: &Position) {
        self.0.on_make(mv, after);
    }

    fn on_unmake(&mut self) {
        self.0.on_unmake();
    }
}
