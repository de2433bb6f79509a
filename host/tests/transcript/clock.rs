//! Time controls: `level`, `st`, `sd`, `nps`, `time`, `otim`. The probe shows the
//! limits each search was given.

use plugboard_plugin_api::NO_DEADLINE;

use crate::{fakes::Seen, harness::Transcript};

/// Says `lines`, which end with the engine's move, and returns the one search it made.
fn searched(t: &mut Transcript, lines: &[&str]) -> Seen {
    let said = t.say(lines);
    assert!(said.last().is_some_and(|l| l.starts_with("move ")), "no move: {said:?}");
    assert!(said.iter().all(|l| !l.starts_with("Error")), "{said:?}");
    let mut searches = t.searches();
    assert_eq!(searches.len(), 1, "{searches:?}");
    searches.remove(0)
}

#[test]
fn st_gives_every_move_at_most_that_many_seconds() {
    let mut t = Transcript::playing("probe");
    let first = searched(&mut t, &["new", "st 2", "go"]);
    assert!((1000..=2000).contains(&first.hard_ms) && first.soft_ms <= first.hard_ms, "{first:?}");
    assert!(!first.infinite);
    // Time not used on one move does not carry over to the next.
    let second = searched(&mut t, &["a7a6"]);
    assert_eq!((second.soft_ms, second.hard_ms), (first.soft_ms, first.hard_ms));
    let fraction = searched(&mut t, &["new", "st 0.5", "go"]);
    assert!((1..=500).contains(&fraction.hard_ms), "{fraction:?}");
}

#[test]
fn level_shares_the_base_time_among_the_moves_of_the_session() {
    let mut t = Transcript::playing("probe");
    // 40 moves in 5 minutes: about 7.5 seconds a move, never the whole clock.
    let five = searched(&mut t, &["new", "level 40 5 0", "go"]);
    assert!((1000..=7500).contains(&five.soft_ms) && five.hard_ms < 300_000, "{five:?}");
    // The same in minutes and seconds: 40 moves in 30 seconds.
    let thirty = searched(&mut t, &["new", "level 40 0:30 0", "go"]);
    assert!((100..=750).contains(&thirty.soft_ms) && thirty.hard_ms < 30_000, "{thirty:?}");
    // An increment is time to spend.
    let plain = searched(&mut t, &["new", "level 0 2 0", "go"]);
    let incremental = searched(&mut t, &["new", "level 0 2 12", "go"]);
    assert!(incremental.soft_ms > plain.soft_ms, "{plain:?} {incremental:?}");
}

#[test]
fn level_ignores_what_follows_the_base_time() {
    // "Engines are encouraged to ignore any unexpected characters at the end of this
    // string": `25+5` may one day announce the next session's time.
    let plain = searched(&mut Transcript::playing("probe"), &["new", "level 40 25 0", "go"]);
    let announced = searched(&mut Transcript::playing("probe"), &["new", "level 40 25+5 0", "go"]);
    assert_eq!((announced.soft_ms, announced.hard_ms), (plain.soft_ms, plain.hard_ms));
}

#[test]
fn a_level_sent_mid_game_counts_its_moves_from_there() {
    let mut t = Transcript::playing("probe");
    t.say(&["new", "force", "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5"]);
    // Before move 5: the next 10 moves in 10 minutes, so at most a tenth of it now
    // (counted from move 1, 4 of the 10 would be made and a sixth would do).
    let seen = searched(&mut t, &["level 10 10 0", "go"]);
    assert!(seen.soft_ms <= 60_000, "{seen:?}");
}

#[test]
fn time_is_the_engine_clock_and_bounds_every_search() {
    let mut t = Transcript::playing("probe");
    let ten = searched(&mut t, &["new", "level 0 5 0", "time 1000", "otim 1000", "go"]);
    assert!(ten.hard_ms <= 10_000, "{ten:?}");
    let two = searched(&mut t, &["new", "level 0 5 0", "time 200", "otim 1000", "go"]);
    assert!(two.hard_ms <= 2_000 && two.soft_ms < ten.soft_ms, "{two:?} {ten:?}");
    // A clock below zero still gets a move.
    let late = searched(&mut t, &["new", "level 0 5 0", "time -50", "otim 1000", "go"]);
    assert!(late.hard_ms <= 100, "{late:?}");
}

#[test]
fn otim_is_the_opponent_clock_and_not_ours() {
    let mut t = Transcript::playing("probe");
    let short = searched(&mut t, &["new", "level 0 5 0", "time 500", "otim 10", "go"]);
    let long = searched(&mut t, &["new", "level 0 5 0", "time 500", "otim 1000000", "go"]);
    assert!(long.hard_ms <= 5_000, "{long:?}");
    assert_eq!((long.soft_ms, long.hard_ms), (short.soft_ms, short.hard_ms));
}

#[test]
fn sd_limits_the_depth_until_new() {
    let mut t = Transcript::playing("probe");
    assert_eq!(searched(&mut t, &["new", "go"]).depth, 0);
    assert_eq!(searched(&mut t, &["new", "sd 4", "go"]).depth, 4);
    // `level` leaves the depth limit alone, and the time control still counts.
    let both = searched(&mut t, &["new", "sd 3", "level 40 0:30 0", "go"]);
    assert_eq!(both.depth, 3);
    assert!(both.hard_ms < 30_000, "{both:?}");
    // `new` takes the limit away.
    assert_eq!(searched(&mut t, &["new", "go"]).depth, 0);
}

#[test]
fn an_absurd_node_rate_is_capped_and_told() {
    let mut t = Transcript::playing("probe");
    let said = t.say(&["new", "st 1", "nps 18446744073709551615", "go"]);
    assert_eq!(
        said[0],
        "telluser nps 18446744073709551615 is more than any engine searches: 50000000 nodes a second are counted instead"
    );
    // A second's worth of nodes at the capped rate, not a budget that never ends.
    let seen = t.searches().remove(0);
    assert!((1..=50_000_000).contains(&seen.nodes), "{seen:?}");
}

#[test]
fn nps_turns_time_into_nodes_until_new() {
    let mut t = Transcript::playing("probe");
    // "after st 8 and nps 10000 the engine should never use more than 80,000 nodes"
    let seen = searched(&mut t, &["new", "st 8", "nps 10000", "go"]);
    assert!((1..=80_000).contains(&seen.nodes), "{seen:?}");
    // The wall clock has no say.
    assert_eq!((seen.soft_ms, seen.hard_ms), (NO_DEADLINE, NO_DEADLINE));
    // The time reported is the nodes divided by the rate: the probe's one node at
    // one node a second took a second.
    assert_eq!(t.say(&["post", "new", "st 8", "nps 1", "go"]), ["1 12 100 1 1 1 0\tb1a3", "move b1a3"]);
    t.searches();
    // `new` ends the node clock.
    assert_eq!(t.say(&["new", "st 8", "go"]), ["1 12 0 1 1 1000 0\tb1a3", "move b1a3"]);
    let seen = t.searches().remove(0);
    assert_eq!(seen.nodes, 0);
    assert!(seen.hard_ms <= 8000, "{seen:?}");
}

#[test]
fn new_resets_the_clocks_to_the_start_of_a_game() {
    let mut t = Transcript::playing("probe");
    // A game that ends with one second on the engine's clock.
    let short = searched(&mut t, &["new", "level 40 5 0", "time 100", "otim 100", "go"]);
    assert!(short.hard_ms <= 1_000, "{short:?}");
    // "new: ... Reset clocks and time controls to the start of a new game."
    let fresh = searched(&mut t, &["new", "go"]);
    let start = searched(&mut Transcript::playing("probe"), &["new", "level 40 5 0", "go"]);
    assert_eq!((fresh.soft_ms, fresh.hard_ms), (start.soft_ms, start.hard_ms));
}
