//! Multi-PV: each iteration reports the best few root moves, best first.

use std::collections::HashSet;

use plugboard_plugin_api::{Move, Score, ScoreKind};

use crate::common;

use common::{KIWIPETE, Line, START, Setup, assert_legal, mv, run};

/// A score as one number that orders like the scores do: mating sooner is
/// better, being mated sooner worse, and every mate beyond every centipawn score.
fn rank(score: Score) -> i64 {
    let value = i64::from(score.value);
    match score.kind {
        ScoreKind::Centipawns => value,
        ScoreKind::Mate if value > 0 => 1_000_000 - value,
        ScoreKind::Mate => -1_000_000 - value,
    }
}

/// Checks every depth's lines: `count` of them, numbered 1 to `count` in order,
/// on distinct root moves from `allowed` (if given), scores never rising.
/// Returns the lines of the last depth.
fn check_lines(lines: &[Line], depth: u32, count: usize, allowed: Option<&[Move]>) -> Vec<Line> {
    let mut last = Vec::new();
    for d in 1..=depth {
        let at_depth: Vec<&Line> = lines.iter().filter(|line| line.depth == d).collect();
        assert_eq!(at_depth.len(), count, "depth {d}: {at_depth:?}");
        let numbers: Vec<u32> = at_depth.iter().map(|line| line.multipv).collect();
        assert_eq!(numbers, (1..=count as u32).collect::<Vec<_>>(), "depth {d}");
        let first_moves: HashSet<Move> = at_depth.iter().map(|line| line.pv[0]).collect();
        assert_eq!(first_moves.len(), count, "depth {d}: a root move in two lines: {at_depth:?}");
        if let Some(allowed) = allowed {
            assert!(first_moves.iter().all(|m| allowed.contains(m)), "depth {d}: a move left out was searched");
        }
        assert!(
            at_depth.windows(2).all(|pair| rank(pair[0].score) >= rank(pair[1].score)),
            "depth {d}: scores out of order: {at_depth:?}"
        );
        last = at_depth.into_iter().cloned().collect();
    }
    last
}

#[test]
fn reports_the_best_lines_best_first() {
    for threads in [1, 2] {
        for fen in [START, KIWIPETE] {
            let result = run(Setup { fen, depth: 6, multipv: 3, threads, ..Setup::default() });
            let last = check_lines(&result.lines, 6, 3, None);
            assert_eq!(result.outcome.best.into_option(), Some(last[0].pv[0]), "{fen}, {threads} threads");
            assert_legal(fen, &result.outcome);
        }
    }
}

#[test]
fn the_best_line_is_the_tactic() {
    // Nc7+ forks king and queen; nothing else comes close.
    let fen = "q3k3/8/8/1N6/8/8/8/4K3 w - - 0 1";
    let result = run(Setup { fen, depth: 6, multipv: 4, ..Setup::default() });
    let last = check_lines(&result.lines, 6, 4, None);
    assert_eq!(last[0].pv[0], mv("b5c7"));
    assert_eq!(result.outcome.best.into_option(), Some(mv("b5c7")));
    assert!(rank(last[0].score) > rank(last[1].score) + 500, "{last:?}");
}

#[test]
fn a_mate_and_the_moves_that_do_not_mate() {
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let result = run(Setup { fen, depth: 4, multipv: 2, ..Setup::default() });
    let last = check_lines(&result.lines, 4, 2, None);
    assert_eq!((last[0].pv[0], last[0].score), (mv("a1a8"), Score::mate_in(1)));
    assert_eq!(last[1].score.kind, ScoreKind::Centipawns, "{last:?}");
}

#[test]
fn respects_the_root_moves_and_caps_the_count() {
    let allowed = ["a2a3", "b2b3", "g1f3", "e2e4"].map(mv);
    let result = run(Setup { root_moves: &allowed, depth: 5, multipv: 3, ..Setup::default() });
    check_lines(&result.lines, 5, 3, Some(&allowed));

    // More lines asked for than there are moves: one line a move.
    let result = run(Setup { root_moves: &allowed[..2], depth: 4, multipv: 5, ..Setup::default() });
    check_lines(&result.lines, 4, 2, Some(&allowed[..2]));
    // The king in the corner has three moves.
    let fen = "7k/8/8/8/8/8/8/K7 w - - 0 1";
    let result = run(Setup { fen, depth: 4, multipv: 10, ..Setup::default() });
    check_lines(&result.lines, 4, 3, None);
}

#[test]
fn one_line_is_the_plain_search() {
    // multipv 0 and 1 both mean one line: the same search, node for node.
    let one = run(Setup { fen: KIWIPETE, depth: 6, multipv: 1, ..Setup::default() });
    let zero = run(Setup { fen: KIWIPETE, depth: 6, multipv: 0, ..Setup::default() });
    assert_eq!((one.nodes, one.outcome), (zero.nodes, zero.outcome));
    assert!(one.lines.iter().all(|line| line.multipv == 1));
    check_lines(&one.lines, 6, 1, None);
}
