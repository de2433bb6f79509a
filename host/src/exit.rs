//! The ways out: `quit`, the end of input and SIGTERM end the process within a
//! second with status 0 and the log flushed, even when the thread that answers
//! the GUI is stuck (in a plugin's code, say). The threads that see these events
//! first (the stdin reader, the signal thread) arm a watchdog; the orderly way
//! out usually wins the race and the watchdog never fires.

use std::{
    sync::{
        OnceLock,
        atomic::{AtomicBool, Ordering},
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

/// Lets the watchdog flush this log.
pub fn register_logging(logging: &Logging) {
    let _ = LOGGING.set(logging.clone());
}

/// The engine was told to end: every search stops now, and if the engine has
/// not ended after [`GRACE`], it ends anyway.
pub fn arm(why: &'static str) {
    if ARMED.swap(true, Ordering::SeqCst) {
        return;
    }
    // At once, from this thread: the search threads (hundreds, with `cores
    // 256`) would otherwise keep every core busy until the thread that answers
    // the GUI got one to stop them, and each step of the way out waits its turn
    // behind all of them.
    crate::search::stop_all();
    let spawned = thread::Builder::new().name("exit-watchdog".into()).spawn(move || {
        crate::scheduling::prefer_latency();
        thread::sleep(GRACE);
        tracing::error!(why, "the engine did not end in time after being told to; ending it now");
        finish();
        end_process(0);
    });
    if spawned.is_err() {
        // No thread to wait with: better to end at once than to hang.
        finish();
        end_process(0);
    }
}

/// What every way out does last: the log flushed (within a bound: a stuck disk
/// must not hold the process) and the private folder removed.
pub fn finish() {
    crate::files::remove_private_dir();
    if let Some(logging) = LOGGING.get() {
        let logging = logging.clone();
        let (done, flushed) = std::sync::mpsc::channel();
        let _ = thread::Builder::new().name("log-flush".into()).spawn(move || {
            crate::scheduling::prefer_latency();
            logging.shutdown();
            let _ = done.send(());
        });
        let _ = flushed.recv_timeout(FLUSH_GRACE);
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
