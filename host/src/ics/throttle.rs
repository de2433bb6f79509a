//! How often the engine may speak on a chess server: servers mute or ban
//! accounts that flood them, so every line we send there draws on one budget.

use std::time::Instant;

/// A token bucket: a burst of `capacity` lines, then one line per `seconds_per_line`.
#[derive(Debug, Clone)]
pub struct Throttle {
    capacity: f64,
    seconds_per_line: f64,
    tokens: f64,
    last: Option<Instant>,
}

impl Throttle {
    pub fn new(capacity: u32, seconds_per_line: f64) -> Throttle {
        Throttle { capacity: f64::from(capacity), seconds_per_line, tokens: f64::from(capacity), last: None }
    }

    /// Whether a line may go out at `now`, keeping `reserve` lines in hand for
    /// what matters more; spends one if so.
    pub fn allow(&mut self, now: Instant, reserve: u32) -> bool {
        if let Some(last) = self.last {
            let refill = now.saturating_duration_since(last).as_secs_f64() / self.seconds_per_line;
            self.tokens = (self.tokens + refill).min(self.capacity);
        }
        self.last = Some(now);
        if self.tokens >= 1.0 + f64::from(reserve) {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_burst_then_one_line_per_period() {
        let start = Instant::now();
        let mut throttle = Throttle::new(3, 2.0);
        assert!((0..3).all(|_| throttle.allow(start, 0)));
        assert!(!throttle.allow(start, 0));
        assert!(!throttle.allow(start + Duration::from_millis(1900), 0));
        assert!(throttle.allow(start + Duration::from_millis(2100), 0));
        assert!(!throttle.allow(start + Duration::from_millis(2200), 0));
        // Quiet for long: the bucket fills up to its capacity, not beyond.
        let later = start + Duration::from_secs(600);
        assert!((0..3).all(|_| throttle.allow(later, 0)));
        assert!(!throttle.allow(later, 0));
    }

    #[test]
    fn a_reserve_keeps_lines_for_what_matters_more() {
        let now = Instant::now();
        let mut throttle = Throttle::new(3, 2.0);
        assert!(throttle.allow(now, 1));
        assert!(throttle.allow(now, 1));
        assert!(!throttle.allow(now, 1));
        assert!(throttle.allow(now, 0));
    }
}
