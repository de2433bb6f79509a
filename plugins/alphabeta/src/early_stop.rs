//! Ending an iteration before it finishes. Once a move's planned (soft) time is
//! spent, an iteration whose best move still stands is not waited for: what it
//! would add is one ply more of the same choice, and the clock it would hold is
//! the next moves'. An iteration that is resolving a fail low (the move chosen
//! so far just scored below the window: the search is finding a threat) runs
//! on until it finds a move that stands, or for as long again; the hard
//! deadline, three times the soft one, is for the clock's own safety, not a
//! share of time to plan on.
//!
//! The root loop arms it for each iteration and says when the choice stops and
//! starts holding; the main thread's node counter asks whether it is due.

use plugboard_plugin_api::NO_DEADLINE;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EarlyStop {
    /// From this many milliseconds into the move, an iteration may be left unfinished.
    from_ms: u64,
    /// Whether the best move known stands: no fail low is being resolved.
    holding: bool,
}

impl EarlyStop {
    /// Never due: analysis, pondering, fixed depths and nodes, the first iteration.
    pub(crate) const NEVER: EarlyStop = EarlyStop { from_ms: NO_DEADLINE, holding: true };

    /// A new iteration that may be left from `from_ms` on; the last iteration's
    /// best move stands until a fail low says otherwise.
    pub(crate) fn iteration(from_ms: u64) -> EarlyStop {
        EarlyStop { from_ms, holding: true }
    }

    /// The move chosen so far scored at or below the window.
    pub(crate) fn failed_low(&mut self) {
        self.holding = false;
    }

    /// A move searched to the end scored above the window's floor: it stands.
    pub(crate) fn holds(&mut self) {
        self.holding = true;
    }

    pub(crate) fn due(&self, elapsed_ms: u64) -> bool {
        let from = if self.holding { self.from_ms } else { self.from_ms.saturating_mul(2) };
        elapsed_ms >= from
    }
}

#[cfg(test)]
mod tests {
    use super::EarlyStop;

    #[test]
    fn a_holding_iteration_is_due_at_its_time_and_a_failing_low_one_is_not() {
        let mut early = EarlyStop::iteration(1000);
        assert!(!early.due(999) && early.due(1000));
        early.failed_low();
        assert!(!early.due(1999), "a fail low being resolved is waited for");
        assert!(early.due(2000), "for as long again at most");
        early.holds();
        assert!(early.due(1000));
        let mut never = EarlyStop::NEVER;
        never.failed_low();
        assert!(!never.due(u64::MAX - 1));
        assert!(!EarlyStop::NEVER.due(u64::MAX - 1));
    }
}
