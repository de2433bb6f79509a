//! The evaluation seen from the search: one trait, two ways to reach an evaluator.
//!
//! The search is generic over [`Evaluation`], so the same search code can call an
//! evaluation plugin through the ABI's function-pointer table ([`Evaluator`]) or a
//! Rust evaluator linked in statically ([`Direct`]), and a benchmark can compare
//! the two on equal terms. Both searches, orthodox and variant, set up and call
//! their evaluation through [`SearchEval`].

use plugboard_plugin_api::{
    BoardEvaluate, BoardEvaluator, BoardPosition, EVAL_FAILED, EVAL_FAILURE_PREFIX, EVAL_LIMIT, Evaluate, Evaluator,
    Move, Position, SearchRequest,
};

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

/// What the xiangqi search needs from an evaluation: [`Evaluation`] for
/// [`BoardPosition`]s.
pub trait BoardEvaluation {
    /// As [`Evaluation::evaluate`].
    fn evaluate(&mut self, position: &BoardPosition) -> i32;

    fn wants_notifications(&self) -> bool {
        false
    }

    fn reset(&mut self, _root: &BoardPosition) {}
    fn on_make(&mut self, _mv: Move, _after: &BoardPosition) {}
    fn on_unmake(&mut self) {}
}

impl BoardEvaluation for BoardEvaluator {
    #[inline(always)]
    fn evaluate(&mut self, position: &BoardPosition) -> i32 {
        BoardEvaluator::evaluate(self, position)
    }

    #[inline]
    fn wants_notifications(&self) -> bool {
        BoardEvaluator::wants_notifications(self)
    }

    fn reset(&mut self, root: &BoardPosition) {
        self.notify_reset(root);
    }

    fn on_make(&mut self, mv: Move, after: &BoardPosition) {
        self.notify_make(mv, after);
    }

    fn on_unmake(&mut self) {
        self.notify_unmake();
    }
}

impl<E: BoardEvaluate> BoardEvaluation for Direct<E> {
    #[inline(always)]
    fn evaluate(&mut self, position: &BoardPosition) -> i32 {
        let score = self.0.evaluate(position);
        if score == EVAL_FAILED { score } else { score.clamp(-EVAL_LIMIT, EVAL_LIMIT) }
    }

    fn wants_notifications(&self) -> bool {
        E::INCREMENTAL
    }

    fn reset(&mut self, root: &BoardPosition) {
        self.0.reset(root);
    }

    fn on_make(&mut self, mv: Move, after: &BoardPosition) {
        self.0.on_make(mv, after);
    }

    fn on_unmake(&mut self) {
        self.0.on_unmake();
    }
}

/// The noise of CECP `random` for the position hashed `key`: up to `amount`
/// centipawns (at most 100) either way, keyed by the position so a
/// transposition gets the same value.
#[inline]
pub(crate) fn noise(key: u64, amount: u32, seed: u64) -> i32 {
    let amount = amount.min(100);
    if amount == 0 {
        return 0;
    }
    let mixed = (key ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    (mixed % (2 * u64::from(amount) + 1)) as i32 - amount as i32
}

/// Makes the evaluation a search starts with. A failure is the evaluation's,
/// not the search's, and the message's prefix tells the host so.
pub(crate) fn create<E>(new_eval: impl FnOnce() -> Result<E, String>) -> Result<E, String> {
    new_eval().map_err(|error| format!("{EVAL_FAILURE_PREFIX}: cannot create an evaluator: {error}"))
}

/// One search thread's evaluation, set up from the request: whether it wants
/// notifications, and the noise of CECP `random`. The searches build the
/// positions it takes from boards of their own, and only when they are needed.
pub(crate) struct SearchEval<E> {
    eval: E,
    notify: bool,
    /// Centipawns of noise, at most 100, and its seed.
    noise: u32,
    noise_seed: u64,
}

impl<E: Evaluation> SearchEval<E> {
    pub(crate) fn new(eval: E, request: &SearchRequest<'_>) -> SearchEval<E> {
        SearchEval {
            notify: eval.wants_notifications(),
            eval,
            noise: request.eval_noise.min(100),
            noise_seed: request.noise_seed,
        }
    }

    /// The evaluation's score of `position`, without noise; `None` if the
    /// evaluation failed, which ends the search.
    #[inline(always)]
    pub(crate) fn evaluate(&mut self, position: &Position) -> Option<i32> {
        let score = self.eval.evaluate(position);
        (score != EVAL_FAILED).then_some(score)
    }

    /// The noise to add to the score of the position hashed `key`: keyed by the
    /// position, so a transposition gets the same value.
    #[inline]
    pub(crate) fn noise(&self, key: u64) -> i32 {
        noise(key, self.noise, self.noise_seed)
    }

    #[inline]
    pub(crate) fn reset(&mut self, root: impl FnOnce() -> Position) {
        if self.notify {
            self.eval.reset(&root());
        }
    }

    /// Tells an incremental evaluation of a move made: `made` gives the move and
    /// the position after it.
    #[inline]
    pub(crate) fn on_make(&mut self, made: impl FnOnce() -> (Move, Position)) {
        if self.notify {
            let (mv, after) = made();
            self.eval.on_make(mv, &after);
        }
    }

    #[inline]
    pub(crate) fn on_unmake(&mut self) {
        if self.notify {
            self.eval.on_unmake();
        }
    }
}
