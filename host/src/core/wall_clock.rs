//! The time of day, injected into the core so that tests can set it.

use std::time::Instant;

/// The time of day as the core sees it: the system's in the engine, a test's
/// own in tests. The core has no other clock; searches time themselves.
pub trait WallClock {
    /// Now, for the pace of what is said on a chess server.
    fn now(&self) -> Instant;
    /// A number that differs from run to run, for the book's choice and `random`.
    fn entropy(&self) -> u64;
}

/// The system's clock.
pub struct SystemClock;

impl WallClock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }

    fn entropy(&self) -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0x9e37_79b9_7f4a_7c15, |t| t.as_nanos() as u64)
    }
}
