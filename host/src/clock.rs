//! Time controls (`level`, `st`, `sd`, `time`, `otim`) turned into the soft and
//! hard deadlines of one search.

/// Deadlines in milliseconds from the start of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub soft_ms: u64,
    pub hard_ms: u64,
}

#[derive(Debug, Clone)]
pub struct Clock {
    moves_per_session: u32,
    base_ms: u64,
    increment_ms: u64,
    seconds_per_move_ms: Option<u64>,
    pub depth_limit: Option<u32>,
    /// Our remaining time from the last `time`, in milliseconds.
    own_ms: Option<i64>,
    opponent_ms: Option<i64>,
    /// Kept back from every budget for the GUI's and the network's lag.
    pub overhead_ms: u64,
    /// `nps N`: time is the node count divided by N (until the next `new`).
    pub nodes_per_second: Option<u64>,
    /// The move number at which the current `level` began: a `level` sent
    /// mid-game counts its moves per session from there.
    level_fullmove: u32,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock {
            moves_per_session: 40,
            base_ms: 5 * 60_000,
            increment_ms: 0,
            seconds_per_move_ms: None,
            depth_limit: None,
            own_ms: None,
            opponent_ms: None,
            overhead_ms: 50,
            nodes_per_second: None,
            level_fullmove: 1,
        }
    }
}

/// The shortest budget we hand out: a search needs a moment to produce a legal move.
const MIN_BUDGET_MS: u64 = 5;

impl Clock {
    /// `new`: both clocks back to the full time control, the node clock and depth
    /// limit gone, as the protocol says; the time control itself stays.
    pub fn new_game(&mut self) {
        self.own_ms = None;
        self.opponent_ms = None;
        self.level_fullmove = 1;
        self.depth_limit = None;
        self.nodes_per_second = None;
    }

    /// `level` at move `fullmove_number`: from the start of a game a time control,
    /// mid-game the moves to go and the time left from here.
    pub fn set_level(&mut self, moves_per_session: u32, base_ms: u64, increment_ms: u64, fullmove_number: u32) {
        self.level_fullmove = fullmove_number.max(1);
        self.moves_per_session = moves_per_session;
        self.base_ms = base_ms;
        self.increment_ms = increment_ms;
        self.seconds_per_move_ms = None;
        self.own_ms = None;
        self.opponent_ms = None;
    }

    pub fn set_seconds_per_move(&mut self, ms: u64) {
        self.seconds_per_move_ms = Some(ms);
    }

    pub fn set_own_time(&mut self, centiseconds: i64) {
        self.own_ms = Some(centiseconds.saturating_mul(10));
    }

    pub fn set_opponent_time(&mut self, centiseconds: i64) {
        self.opponent_ms = Some(centiseconds.saturating_mul(10));
    }

    /// The opponent's clock as the GUI last told it (`otim`).
    pub fn opponent_ms(&self) -> Option<i64> {
        self.opponent_ms
    }

    /// The budget for a move at `fullmove_number` (which counts the moves the side to
    /// move has already made, plus one).
    pub fn budget(&self, fullmove_number: u32) -> Budget {
        if let Some(per_move) = self.seconds_per_move_ms {
            let hard = per_move.saturating_sub(self.overhead_ms).max(MIN_BUDGET_MS);
            return Budget { soft_ms: hard, hard_ms: hard };
        }
        let remaining = self.own_ms.unwrap_or(self.base_ms as i64).max(0) as u64;
        let moves_to_go = if self.moves_per_session > 0 {
            let made = fullmove_number.saturating_sub(self.level_fullmove) % self.moves_per_session;
            u64::from(self.moves_per_session - made)
        } else {
            // Sudden death: plan as if the game lasted another 30 moves at least.
            30
        };
        let usable = remaining.saturating_sub(self.overhead_ms);
        // With increment, most of it can be spent each move; keep a reserve otherwise.
        let soft = usable / moves_to_go.max(1) + self.increment_ms * 3 / 4;
        // Never plan to use more than a fraction of the clock on one move, and
        // with moves to go 1 never more than what is left.
        let ceiling = if moves_to_go == 1 { usable * 4 / 5 } else { usable / 3 };
        let soft = soft.min(ceiling);
        let hard = (soft * 3).min(ceiling.max(soft));
        Budget { soft_ms: soft.max(MIN_BUDGET_MS), hard_ms: hard.max(MIN_BUDGET_MS) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_time_per_move_keeps_the_overhead() {
        let mut clock = Clock::default();
        clock.set_seconds_per_move(1000);
        assert_eq!(clock.budget(1), Budget { soft_ms: 950, hard_ms: 950 });
    }

    #[test]
    fn never_plans_beyond_the_clock() {
        let mut clock = Clock::default();
        clock.set_level(0, 60_000, 0, 1);
        for remaining_cs in [1, 5, 10, 50, 100, 1000, 6000] {
            clock.set_own_time(remaining_cs);
            let budget = clock.budget(20);
            let remaining_ms = remaining_cs as u64 * 10;
            assert!(budget.soft_ms <= budget.hard_ms);
            assert!(budget.hard_ms <= remaining_ms.max(MIN_BUDGET_MS), "{budget:?} with {remaining_ms} ms left");
        }
    }

    #[test]
    fn one_second_and_an_increment_lasts_any_game() {
        // Spending every hard limit in full for 300 moves never empties the clock.
        let mut clock = Clock::default();
        clock.set_level(0, 1000, 10, 1);
        let mut remaining_ms = 1000_i64;
        for fullmove in 1..=300 {
            clock.set_own_time(remaining_ms / 10);
            remaining_ms -= clock.budget(fullmove).hard_ms as i64;
            assert!(remaining_ms > clock.overhead_ms as i64 / 2, "{remaining_ms} ms left at move {fullmove}");
            remaining_ms += 10;
        }
    }

    #[test]
    fn moves_per_session_counts_down() {
        let mut clock = Clock::default();
        clock.set_level(40, 40 * 60_000, 0, 1);
        clock.set_own_time(60_000);
        let early = clock.budget(1);
        clock.set_own_time(60_000);
        let last_before_control = clock.budget(40);
        assert!(last_before_control.soft_ms > early.soft_ms * 10);
    }

    #[test]
    fn a_level_sent_mid_game_counts_moves_from_there() {
        let mut clock = Clock::default();
        clock.set_level(10, 60_000, 0, 31);
        clock.set_own_time(6000);
        let first = clock.budget(31);
        clock.set_own_time(6000);
        let tenth = clock.budget(40);
        // At move 40 this is the last move before the control: spend far more.
        assert!(tenth.soft_ms > first.soft_ms * 5, "{first:?} {tenth:?}");
    }
}
