//! Plugin options that name a file or a folder (a network, a table) are handed
//! to the plugin off the thread that answers the GUI: the plugin reads the file
//! while it takes the value, and a file on a stalled disk must cost that value,
//! not the game.
//!
//! Calls run one at a time, in the order they were made, so the last value the
//! user chose is the one the plugin ends with; a call overtaken by a newer value
//! for the same option before it began is skipped. The answer comes back at once
//! when the plugin is quick, and later, as an event, when it is not.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, PoisonError, mpsc::Receiver},
    time::Duration,
};

use abi_stable::std_types::{RResult, RStr, RString};

use super::Target;

/// A plugin's entry for setting its options.
pub type SetOption = extern "C" fn(name: RStr<'_>, value: RStr<'_>) -> RResult<(), RString>;

/// How long a plugin may take a file before the engine goes on without waiting.
const PATIENCE: Duration = Duration::from_secs(1);

/// One value handed to a plugin's file option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileCall {
    pub target: Target,
    pub value: String,
    generation: u64,
}

/// How a call ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallEnd {
    /// The plugin took the value, or refused it and why.
    Answered(Result<(), String>),
    /// A newer value for the option came first; this one was never handed over.
    Overtaken,
}

pub struct FileOptionCalls {
    /// The newest call made for each option.
    newest: Arc<Mutex<HashMap<Target, u64>>>,
    /// Held by the call being made, so calls run one at a time.
    in_progress: Arc<Mutex<()>>,
    made: u64,
    patience: Duration,
}

impl Default for FileOptionCalls {
    fn default() -> FileOptionCalls {
        FileOptionCalls::with_patience(PATIENCE)
    }
}

impl FileOptionCalls {
    /// Calls that wait at most `patience` for the plugin before going on.
    pub fn with_patience(patience: Duration) -> FileOptionCalls {
        FileOptionCalls { newest: Arc::default(), in_progress: Arc::default(), made: 0, patience }
    }

    /// Hands `value` to the plugin's option `name` on a thread of its own: the
    /// call and its end, or where the end will arrive when the plugin is slow.
    pub fn call(
        &mut self,
        set: SetOption,
        target: Target,
        name: String,
        value: String,
    ) -> (FileCall, Result<CallEnd, Receiver<CallEnd>>) {
        self.made += 1;
        let generation = self.made;
        lock(&self.newest).insert(target.clone(), generation);
        let (newest, in_progress) = (Arc::clone(&self.newest), Arc::clone(&self.in_progress));
        let key = target.clone();
        let handed = value.clone();
        let end = crate::files::off_thread("plugin-file-option", self.patience, move || {
            let _turn = lock(&in_progress);
            if lock(&newest).get(&key) != Some(&generation) {
                return CallEnd::Overtaken;
            }
            CallEnd::Answered(set(RStr::from_str(&name), RStr::from_str(&handed)).into_result().map_err(String::from))
        });
        (FileCall { target, value, generation }, end)
    }

    /// Whether no newer value was given to the call's option since: an older
    /// answer arriving late says nothing of what the plugin now holds.
    pub fn is_newest(&self, call: &FileCall) -> bool {
        lock(&self.newest).get(&call.target) == Some(&call.generation)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::*;
    use crate::plugins::Kind;

    /// What the fake plugin below holds, and how long it takes a value that
    /// starts with "slow".
    static HELD: Mutex<String> = Mutex::new(String::new());
    static TAKEN: AtomicU64 = AtomicU64::new(0);

    extern "C" fn set(_name: RStr<'_>, value: RStr<'_>) -> RResult<(), RString> {
        if value.as_str().starts_with("slow") {
            std::thread::sleep(Duration::from_millis(1500));
        }
        if value.as_str().starts_with("bad") {
            return RResult::RErr(RString::from(format!("cannot use {value}")));
        }
        *lock(&HELD) = value.as_str().to_owned();
        TAKEN.fetch_add(1, Ordering::SeqCst);
        RResult::ROk(())
    }

    fn target() -> Target {
        Target::Plugin { kind: Kind::Eval, plugin: "fake".into(), option: "EvalFile".into() }
    }

    #[test]
    fn the_last_value_given_is_the_one_the_plugin_keeps_and_a_refusal_comes_back() {
        // No patience: every answer comes back through its receiver.
        let mut calls = FileOptionCalls::with_patience(Duration::ZERO);
        let (slow, slow_end) = calls.call(set, target(), "EvalFile".into(), "slow.nnue".into());
        let slow_end = slow_end.expect_err("a slow file is answered later");
        std::thread::sleep(Duration::from_millis(200));
        // Given while the slow one is still being read: they wait their turn,
        // and the first of them is overtaken by the second before it begins.
        let (first, first_end) = calls.call(set, target(), "EvalFile".into(), "first.nnue".into());
        let (quick, quick_end) = calls.call(set, target(), "EvalFile".into(), "quick.nnue".into());
        let finish = |end: Result<CallEnd, Receiver<CallEnd>>| end.unwrap_or_else(|later| later.recv().unwrap());
        assert_eq!(slow_end.recv().unwrap(), CallEnd::Answered(Ok(())));
        assert_eq!(finish(first_end), CallEnd::Overtaken);
        assert_eq!(finish(quick_end), CallEnd::Answered(Ok(())));
        assert_eq!(*lock(&HELD), "quick.nnue");
        assert_eq!(TAKEN.load(Ordering::SeqCst), 2);
        assert!(!calls.is_newest(&slow) && !calls.is_newest(&first) && calls.is_newest(&quick));

        let (_, refused) = calls.call(set, target(), "EvalFile".into(), "bad.nnue".into());
        assert_eq!(finish(refused), CallEnd::Answered(Err("cannot use bad.nnue".into())));
        assert_eq!(*lock(&HELD), "quick.nnue");
        assert_eq!(TAKEN.load(Ordering::SeqCst), 2);
    }
}
