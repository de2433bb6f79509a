//! The ways out: `quit`, the end of input and SIGTERM end the process within a
//! second with status 0 and the log flushed, even when the thread that answers
//! the GUI is stuck (in a plugin's code, say). The threads that see these events
//! first (the stdin reader, the signal thread) stop every search and arm a
//! watchdog; the orderly way out usually wins the race and the watchdog never
//! fires.

use std::{
    sync::{
        Mutex, OnceLock, PoisonError,
        atomic::{AtomicBool, Ordering},
        mpsc::{self, Sender},
    },
    thread,
    time::Duration,
};

use crate::logging::Logging;

/// How long the orderly way out has before the watchdog takes over.
pub const GRACE: Duration = Duration::from_millis(500);
/// How long the watchdog waits for the log to flush.
const FLUSH_GRACE: Duration = Duration::from_millis(200);

static LOGGING: OnceLock<Logging> = OnceLock::new();
static ARMED: AtomicBool = AtomicBool::new(false);
/// The threads of the way out, started with the log, so that none has to be
/// started on the way out: a new thread needs the memory map, which the search
/// threads ending at once hold in turn. One is woken with why the engine ends;
/// the other with where to say the log is flushed.
static WATCHDOG: OnceLock<Mutex<Sender<&'static str>>> = OnceLock::new();
static FLUSHER: OnceLock<Mutex<Sender<Sender<()>>>> = OnceLock::new();

/// Lets the watchdog flush this log, and starts the threads of the way out.
pub fn register_logging(logging: &Logging) {
    let _ = LOGGING.set(logging.clone());
    let (arm, armed) = mpsc::channel::<&'static str>();
    let watchdog = thread::Builder::new().name("exit-watchdog".into()).spawn(move || {
        crate::scheduling::prefer_latency();
        if let Ok(why) = armed.recv() {
            watch(why);
        }
    });
    if watchdog.is_ok() {
        let _ = WATCHDOG.set(Mutex::new(arm));
    }
    let (ask, asked) = mpsc::channel::<Sender<()>>();
    let flusher = thread::Builder::new().name("log-flush".into()).spawn(move || {
        crate::scheduling::prefer_latency();
        if let Ok(done) = asked.recv() {
            flush_log();
            let _ = done.send(());
        }
    });
    if flusher.is_ok() {
        let _ = FLUSHER.set(Mutex::new(ask));
    }
}

/// Whether the engine was told to end ([`arm`]).
pub fn is_armed() -> bool {
    ARMED.load(Ordering::SeqCst)
}

/// The engine was told to end: every search stops now, and if the engine has
/// not ended after [`GRACE`], it ends anyway.
pub fn arm(why: &'static str) {
    if ARMED.swap(true, Ordering::SeqCst) {
        return;
    }
    // At once, from this thread: the search threads would otherwise keep every
    // core busy until the thread that answers the GUI got one to stop them, and
    // each step of the way out would wait its turn behind all of them.
    crate::search::stop_all();
    let woken = WATCHDOG
        .get()
        .is_some_and(|watchdog| watchdog.lock().unwrap_or_else(PoisonError::into_inner).send(why).is_ok());
    if woken {
        return;
    }
    // No log was registered (a tool): a watchdog of its own.
    let spawned = thread::Builder::new().name("exit-watchdog".into()).spawn(move || watch(why));
    if spawned.is_err() {
        // No thread to wait with: better to end at once than to hang.
        finish();
        end_process(0);
    }
}

fn watch(why: &'static str) {
    thread::sleep(GRACE);
    tracing::error!(why, "the engine did not end in time after being told to; ending it now");
    finish();
    end_process(0);
}

/// What every way out does last: the log flushed (within a bound: a stuck disk
/// must not hold the process) and the private folder removed.
pub fn finish() {
    crate::files::remove_private_dir();
    let (done, flushed) = mpsc::channel();
    let asked = FLUSHER
        .get()
        .is_some_and(|flusher| flusher.lock().unwrap_or_else(PoisonError::into_inner).send(done.clone()).is_ok());
    if !asked {
        // The flusher is gone (it flushed for the other way out) or was never started.
        let _ = thread::Builder::new().name("log-flush".into()).spawn(move || {
            flush_log();
            let _ = done.send(());
        });
    }
    let _ = flushed.recv_timeout(FLUSH_GRACE);
}

fn flush_log() {
    if let Some(logging) = LOGGING.get() {
        logging.shutdown();
    }
}

/// Ends the process without running anything more: threads stuck in a plugin's
/// code must not hold it, nor the exit handlers of the libraries they hold.
pub fn end_process(code: i32) -> ! {
    // Every reply is flushed as it is written; stdout is not touched here, as
    // the thread that answers the GUI may hold its lock.
    #[cfg(unix)]
    // SAFETY: _exit ends the process at once; it has no preconditions.
    unsafe {
        libc::_exit(code)
    }
    #[cfg(not(unix))]
    std::process::exit(code)
}
