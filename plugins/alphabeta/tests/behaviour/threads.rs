//! Lazy SMP: a search on two threads finds what one finds and obeys the same limits.

use std::{
    collections::HashSet,
    sync::{
        Mutex,
        atomic::{AtomicU64, Ordering},
    },
    thread::{self, ThreadId},
    time::{Duration, Instant},
};

use plugboard_alphabeta::{Direct, Evaluation};
use plugboard_eval_pesto::PestoEvaluator;
use plugboard_plugin_api::{NO_DEADLINE, Position, Score, SearchControl};

use crate::common;

use common::{KIWIPETE, Setup, assert_legal, mv, run, run_with};

/// PeSTO, counting its calls together with every other thread's.
struct Counting<'a> {
    inner: Direct<PestoEvaluator>,
    calls: &'a AtomicU64,
}

impl Evaluation for Counting<'_> {
    fn evaluate(&mut self, position: &Position) -> i32 {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.inner.evaluate(position)
    }
}

/// Makes [`Counting`] evaluations that share one count, and notes which threads make them.
struct Counter {
    calls: AtomicU64,
    threads: Mutex<HashSet<ThreadId>>,
}

impl Counter {
    fn new() -> Counter {
        Counter { calls: AtomicU64::new(0), threads: Mutex::new(HashSet::new()) }
    }

    fn evaluation(&self) -> Result<Counting<'_>, String> {
        self.threads.lock().unwrap().insert(thread::current().id());
        Ok(Counting { inner: Direct(PestoEvaluator::with_tempo(10)), calls: &self.calls })
    }

    fn calls(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }

    /// How many threads made an evaluation.
    fn threads(&self) -> usize {
        self.threads.lock().unwrap().len()
    }
}

#[test]
fn finds_the_same_mates() {
    for threads in [1, 2] {
        let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        let result = run(Setup { fen, depth: 6, threads, ..Setup::default() });
        assert_eq!(result.outcome.best.into_option(), Some(mv("a1a8")), "{threads} threads");
        assert_eq!(result.score, Some(Score::mate_in(1)), "{threads} threads");

        let fen = "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1";
        let result = run(Setup { fen, depth: 8, threads, ..Setup::default() });
        assert_eq!(result.score, Some(Score::mate_in(2)), "{threads} threads");
        assert_legal(fen, &result.outcome);

        let fen = "k7/8/1K6/8/8/8/8/7R b - - 0 1";
        let result = run(Setup { fen, depth: 6, threads, ..Setup::default() });
        assert_eq!(result.score, Some(Score::mate_in(-1)), "{threads} threads");
    }
}

#[test]
fn finds_the_tactic() {
    // Nc7+ forks king and queen.
    let fen = "q3k3/8/8/1N6/8/8/8/4K3 w - - 0 1";
    for threads in [1, 2, 3] {
        let result = run(Setup { fen, depth: 7, threads, ..Setup::default() });
        assert_eq!(result.outcome.best.into_option(), Some(mv("b5c7")), "{threads} threads");
        assert_eq!(result.depth, 7, "{threads} threads");
        assert_legal(fen, &result.outcome);
    }
}

#[test]
fn every_thread_searches_and_the_node_limit_counts_them_all() {
    for limit in [5_000, 50_000] {
        let counter = Counter::new();
        let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
        let setup = Setup { fen: KIWIPETE, nodes: limit, threads: 2, ..Setup::default() };
        let result = run_with(setup, &control, || counter.evaluation()).unwrap();
        assert_legal(KIWIPETE, &result.outcome);
        assert_eq!(counter.threads(), 2, "the helper made no evaluation");
        // Each node evaluates at most once, after it is counted; a thread that
        // has not yet seen the others reach the limit goes on for a batch at most.
        assert!(counter.calls() <= limit + 2 * 64, "{} evaluations for a limit of {limit}", counter.calls());
        assert!(counter.calls() > limit / 10, "only {} evaluations for a limit of {limit}", counter.calls());
    }
}

#[test]
fn all_threads_stop_when_told() {
    let counter = Counter::new();
    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, true);
    let (result, stop_delay) = thread::scope(|scope| {
        let handle = scope.spawn(|| {
            let setup = Setup { fen: KIWIPETE, threads: 2, ..Setup::default() };
            let result = run_with(setup, &control, || counter.evaluation());
            (result, Instant::now())
        });
        thread::sleep(Duration::from_millis(300));
        let raised = Instant::now();
        control.request_stop();
        let (result, returned) = handle.join().unwrap();
        (result, returned.duration_since(raised))
    });
    let result = result.unwrap();
    assert_legal(KIWIPETE, &result.outcome);
    assert_eq!(counter.threads(), 2);
    // The search returns only once its helpers have; none evaluates afterwards.
    let calls = counter.calls();
    thread::sleep(Duration::from_millis(50));
    assert_eq!(counter.calls(), calls, "a thread still searches after the search returned");
    assert!(stop_delay < Duration::from_millis(200), "took {stop_delay:?} to stop");
}

#[test]
fn pause_holds_every_thread() {
    let counter = Counter::new();
    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, true);
    let result = thread::scope(|scope| {
        let handle = scope.spawn(|| {
            let setup = Setup { fen: KIWIPETE, threads: 2, ..Setup::default() };
            run_with(setup, &control, || counter.evaluation())
        });
        thread::sleep(Duration::from_millis(200));
        control.paused.store(true, Ordering::Relaxed);
        // Each thread looks at the pause flag every 1024 nodes.
        thread::sleep(Duration::from_millis(100));
        let before = counter.calls();
        thread::sleep(Duration::from_millis(300));
        let during = counter.calls() - before;
        control.paused.store(false, Ordering::Relaxed);
        thread::sleep(Duration::from_millis(200));
        let after = counter.calls() - before - during;
        control.request_stop();
        let result = handle.join().unwrap();
        // A thread the machine held up before it saw the flag may finish its 1024 nodes.
        assert!(during <= 2 * 1024, "{during} evaluations while paused");
        assert!(after > 2 * 1024, "only {after} evaluations after the pause");
        result
    });
    assert_legal(KIWIPETE, &result.unwrap().outcome);
    assert_eq!(counter.threads(), 2);
}

#[test]
fn a_failing_helper_evaluation_fails_the_search() {
    struct FailsLater(u32);
    impl Evaluation for FailsLater {
        fn evaluate(&mut self, _: &Position) -> i32 {
            self.0 = self.0.saturating_sub(1);
            if self.0 == 0 { plugboard_plugin_api::EVAL_FAILED } else { 0 }
        }
    }
    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
    let main_thread = thread::current().id();
    // The main thread's evaluation never fails; the helper's does.
    let new_eval = || Ok(if thread::current().id() == main_thread { FailsLater(u32::MAX) } else { FailsLater(1_000) });
    let error = run_with(Setup { depth: 20, threads: 2, ..Setup::default() }, &control, new_eval).unwrap_err();
    assert!(error.starts_with(plugboard_plugin_api::EVAL_FAILURE_PREFIX), "{error}");
}
