//! Time controls (`level`, `st`, `sd`, `time`, `otim`, cxboard's `clock`) and a
//! search's own limits (cxboard's `go rtime … movetime …`) turned into the soft
//! and hard deadlines of one search.

/// Deadlines in milliseconds from the start of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub soft_ms: u64,
    pub hard_ms: u64,
}

impl Budget {
    /// No deadline: the search ends by its depth, its nodes, or when told.
    pub const UNLIMITED: Budget = Budget { soft_ms: u64::MAX, hard_ms: u64::MAX };
}

/// cxboard's `clock GAME MOVE OVERTIME`: each side has `game_ms` for the game,
/// at most `move_ms` for one move (0: no such limit), and `overtime_ms` for each
/// move once the game time is spent (0: none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overtime {
    pub game_ms: u64,
    pub move_ms: u64,
    pub overtime_ms: u64,
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
    /// cxboard's time control and the game time we have left under it: no GUI
    /// tells us our time there, so our own thinking is charged to it.
    overtime: Option<(Overtime, u64)>,
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
            overtime: None,
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
        self.overtime = None;
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

    /// cxboard's `clock`: a new time control, with the whole game time left.
    pub fn set_overtime(&mut self, control: Overtime) {
        self.seconds_per_move_ms = None;
        self.overtime = Some((control, control.game_ms));
    }

    /// Our game time left under cxboard's `clock`, if that is the time control.
    pub fn game_time_left(&self) -> Option<u64> {
        self.overtime.map(|(_, left)| left)
    }

    /// Our thinking, `ms` of it, spent from the game time of cxboard's `clock`
    /// (once it is gone, each move has the overtime afresh). Under the other time
    /// controls the GUI tells us our time (`time`), and this does nothing.
    pub fn charge(&mut self, ms: u64) {
        if let Some((_, left)) = &mut self.overtime {
            *left = left.saturating_sub(ms);
        }
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
        if let Some((control, left)) = self.overtime {
            let cap = (control.move_ms > 0).then_some(control.move_ms);
            return with_overtime(left, SUDDEN_DEATH_MOVES, control.overtime_ms, cap, self.overhead_ms);
        }
        let remaining = self.own_ms.unwrap_or(self.base_ms as i64).max(0) as u64;
        let moves_to_go = if self.moves_per_session > 0 {
            let made = fullmove_number.saturating_sub(self.level_fullmove) % self.moves_per_session;
            u64::from(self.moves_per_session - made)
        } else {
            SUDDEN_DEATH_MOVES
        };
        spread(remaining, moves_to_go, self.increment_ms, self.overhead_ms)
    }
}

/// Sudden death: plan as if the game lasted another 30 moves at least.
const SUDDEN_DEATH_MOVES: u64 = 30;

/// `remaining` spread over `moves_to_go` moves, each bringing `increment_ms`
/// and each costing `overhead_ms` of lag besides its thinking: a clock charged
/// for the lag of every move (a busy machine, a slow GUI or server) would
/// otherwise run down to the increment's last milliseconds and lose on time.
fn spread(remaining: u64, moves_to_go: u64, increment_ms: u64, overhead_ms: u64) -> Budget {
    let moves_to_go = moves_to_go.max(1);
    let usable = remaining.saturating_sub(overhead_ms);
    let until_control = (remaining + increment_ms * (moves_to_go - 1)).saturating_sub(overhead_ms * (moves_to_go + 1));
    let soft = until_control / moves_to_go;
    // Never plan to use more than a fraction of the clock on one move, and
    // with moves to go 1 never more than what is left.
    let ceiling = if moves_to_go == 1 { usable * 4 / 5 } else { usable / 3 };
    let soft = soft.min(ceiling);
    let hard = (soft * 3).min(ceiling.max(soft));
    Budget { soft_ms: soft.max(MIN_BUDGET_MS), hard_ms: hard.max(MIN_BUDGET_MS) }
}

/// `left` of game time spread over `moves_to_go`, then `overtime_ms` for every
/// move, and no move longer than `cap_ms`. Each move may take the whole
/// overtime: a later move will have it anyway, so game time spent faster than
/// that buys nothing. Only with less game time than that left can a move run
/// into the overtime, which then covers it.
fn with_overtime(left: u64, moves_to_go: u64, overtime_ms: u64, cap_ms: Option<u64>, overhead_ms: u64) -> Budget {
    let mut budget = if left > 0 {
        spread(left, moves_to_go, 0, overhead_ms)
    } else {
        Budget { soft_ms: MIN_BUDGET_MS, hard_ms: MIN_BUDGET_MS }
    };
    if overtime_ms > 0 {
        let per_move = overtime_ms.saturating_sub(overhead_ms).max(MIN_BUDGET_MS);
        budget = Budget { soft_ms: budget.soft_ms.max(per_move), hard_ms: budget.hard_ms.max(per_move) };
    }
    if let Some(cap) = cap_ms {
        let cap = cap.saturating_sub(overhead_ms).max(MIN_BUDGET_MS);
        budget = Budget { soft_ms: budget.soft_ms.min(cap), hard_ms: budget.hard_ms.min(cap) };
    }
    budget
}

/// What cxboard's and UCI's `go` say of the time and the search, each `None` when not
/// sent: "if a command is not sent its value should be assumed as to not
/// influence the search".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    pub red_ms: Option<u64>,
    pub black_ms: Option<u64>,
    /// UCI's `winc` and `binc`: what each move adds to its side's clock.
    pub red_increment_ms: Option<u64>,
    pub black_increment_ms: Option<u64>,
    /// `mtime`: no move longer than this.
    pub move_ms: Option<u64>,
    /// `otime`: the overtime of each move once the game time is spent.
    pub overtime_ms: Option<u64>,
    pub moves_to_go: Option<u64>,
    /// `movetime`: exactly this long.
    pub movetime_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// A mate in this many moves is searched for: the search ends when it finds one.
    pub mate: Option<u32>,
    pub infinite: bool,
}

impl Limits {
    /// The plies to search: `depth`, or as many as a mate in `mate` moves needs.
    pub fn plies(&self) -> Option<u32> {
        let mate_plies = self.mate.map(|moves| moves.saturating_mul(2).saturating_sub(1).max(1));
        match (self.depth, mate_plies) {
            (Some(depth), Some(plies)) => Some(depth.min(plies).max(1)),
            (depth, plies) => depth.map(|d| d.max(1)).or(plies),
        }
    }

    /// The deadlines of the search, with `red_to_move`. Without our own time,
    /// a time per move, a depth, nodes, a mate or `infinite`, nothing the line
    /// says could end the search: the time control set with `clock`
    /// (`fallback`) counts then.
    pub fn budget(&self, red_to_move: bool, fallback: &Clock, fullmove_number: u32) -> Budget {
        let overhead = fallback.overhead_ms;
        if self.infinite {
            return Budget::UNLIMITED;
        }
        if let Some(exactly) = self.movetime_ms {
            let hard = exactly.saturating_sub(overhead).max(MIN_BUDGET_MS);
            return Budget { soft_ms: hard, hard_ms: hard };
        }
        let own = if red_to_move { self.red_ms } else { self.black_ms };
        let moves_to_go = self.moves_to_go.map_or(SUDDEN_DEATH_MOVES, |moves| moves.max(1));
        let increment = if red_to_move { self.red_increment_ms } else { self.black_increment_ms };
        match (own, self.overtime_ms, self.move_ms) {
            // UCI's clock: the time left, and what each move brings.
            (Some(left), None, None) => spread(left, moves_to_go, increment.unwrap_or(0), overhead),
            (Some(left), overtime, cap) => with_overtime(left, moves_to_go, overtime.unwrap_or(0), cap, overhead),
            // Only the time per move is known: as if the game time were spent.
            (None, Some(overtime), cap) => with_overtime(0, moves_to_go, overtime, cap, overhead),
            (None, None, Some(cap)) => with_overtime(0, moves_to_go, cap, Some(cap), overhead),
            (None, None, None) if self.plies().is_some() || self.nodes.is_some() => Budget::UNLIMITED,
            (None, None, None) => fallback.budget(fullmove_number),
        }
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

    /// Plays 300 moves of `base_ms` + `increment_ms` sudden death, each taking
    /// what `spend` makes of its budget from the clock; the fewest milliseconds
    /// left after a move, and the move it was.
    fn lowest_clock(base_ms: u64, increment_ms: u64, spend: fn(Budget) -> u64) -> (i64, u32) {
        let mut clock = Clock::default();
        clock.set_level(0, base_ms, increment_ms, 1);
        let mut remaining_ms = base_ms as i64;
        let mut lowest = (remaining_ms, 0);
        for fullmove in 1..=300 {
            clock.set_own_time(remaining_ms / 10);
            remaining_ms -= spend(clock.budget(fullmove)) as i64;
            lowest = lowest.min((remaining_ms, fullmove));
            remaining_ms += increment_ms as i64;
        }
        lowest
    }

    #[test]
    fn one_second_and_an_increment_lasts_any_game() {
        // Spending every hard limit in full for 300 moves never empties the clock.
        let (left, fullmove) = lowest_clock(1000, 10, |budget| budget.hard_ms);
        assert!(left > Clock::default().overhead_ms as i64 / 2, "{left} ms left at move {fullmove}");
    }

    #[test]
    fn a_lag_below_the_overhead_does_not_run_the_clock_down() {
        // 10 s + 0.1 s, each move thinking its soft budget and losing 40 ms more
        // to a busy machine (xboard charged 0.12 s for a 0.02 s search so, and
        // the clock ran down to a loss on time at 0.11 s).
        let (left, fullmove) = lowest_clock(10_000, 100, |budget| budget.soft_ms + 40);
        assert!(left > 5 * Clock::default().overhead_ms as i64, "{left} ms left at move {fullmove}");
    }

    #[test]
    fn uci_time_and_increment_last_the_game_and_the_increment_is_spent() {
        // 10 s + 0.1 s as `go wtime … winc 100`: each move thinking its soft
        // budget and losing 40 ms to lag, for 300 moves, never empties the clock.
        let fallback = Clock::default();
        let mut left: i64 = 10_000;
        for fullmove in 1..=300 {
            let limits = Limits {
                red_ms: Some(left as u64),
                red_increment_ms: Some(100),
                black_ms: Some(0),
                ..Limits::default()
            };
            left -= limits.budget(true, &fallback, fullmove).soft_ms as i64 + 40;
            assert!(left > 0, "ran out at move {fullmove}");
            left += 100;
        }
        // Black's increment counts for Black alone.
        let without = Limits { black_ms: Some(5000), ..Limits::default() };
        let with = Limits { black_increment_ms: Some(1000), ..without.clone() };
        assert!(with.budget(false, &fallback, 1).soft_ms > without.budget(false, &fallback, 1).soft_ms);
        let white_increment = Limits { red_increment_ms: Some(1000), ..without.clone() };
        assert_eq!(white_increment.budget(false, &fallback, 1), without.budget(false, &fallback, 1));
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
    fn overtime_control_spends_game_time_then_the_overtime_of_each_move() {
        let mut clock = Clock::default();
        clock.set_overtime(Overtime { game_ms: 300_000, move_ms: 60_000, overtime_ms: 30_000 });
        // Five minutes over thirty moves is ten seconds, less than the overtime of a move.
        assert_eq!(clock.budget(1), Budget { soft_ms: 29_950, hard_ms: 29_950 });
        clock.set_overtime(Overtime { game_ms: 3_600_000, move_ms: 60_000, overtime_ms: 0 });
        // An hour over thirty moves is two minutes: more than a move may take.
        assert_eq!(clock.budget(1), Budget { soft_ms: 59_950, hard_ms: 59_950 });
        clock.charge(3_599_000);
        assert_eq!(clock.game_time_left(), Some(1000));
        assert!(clock.budget(2).hard_ms <= 1000);
        clock.set_overtime(Overtime { game_ms: 60_000, move_ms: 0, overtime_ms: 5000 });
        clock.charge(70_000);
        assert_eq!(clock.game_time_left(), Some(0));
        assert_eq!(clock.budget(40), Budget { soft_ms: 4950, hard_ms: 4950 });
    }

    #[test]
    fn limits_of_go_make_the_budget() {
        let clock = Clock::default();
        let go = |limits: Limits, red: bool| limits.budget(red, &clock, 1);
        assert_eq!(
            go(Limits { movetime_ms: Some(200), ..Limits::default() }, true),
            Budget { soft_ms: 150, hard_ms: 150 }
        );
        assert_eq!(go(Limits { infinite: true, movetime_ms: Some(200), ..Limits::default() }, true), Budget::UNLIMITED);
        assert_eq!(go(Limits { depth: Some(5), ..Limits::default() }, true), Budget::UNLIMITED);
        // Each side's own time, less the lag of each of the thirty moves planned for and one more.
        let timed = Limits { red_ms: Some(31_550), black_ms: Some(301_550), ..Limits::default() };
        assert_eq!(go(timed.clone(), true).soft_ms, 1000);
        assert_eq!(go(timed.clone(), false).soft_ms, 10_000);
        let last = Limits { moves_to_go: Some(1), ..timed.clone() };
        assert_eq!(go(last, true).hard_ms, 25_200);
        let capped = Limits { move_ms: Some(550), ..timed };
        assert_eq!(go(capped, false), Budget { soft_ms: 500, hard_ms: 500 });
        // Nothing that could end the search: the time control counts.
        assert_eq!(go(Limits::default(), true), clock.budget(1));
        assert_eq!(go(Limits { black_ms: Some(1000), ..Limits::default() }, true), clock.budget(1));
        assert_eq!(Limits { mate: Some(3), ..Limits::default() }.plies(), Some(5));
        assert_eq!(Limits { mate: Some(3), depth: Some(2), ..Limits::default() }.plies(), Some(2));
        assert_eq!(Limits { depth: Some(0), ..Limits::default() }.plies(), Some(1));
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
