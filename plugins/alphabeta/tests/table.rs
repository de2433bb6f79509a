//! The transposition table lives on between searches and is emptied on request,
//! with one thread or several. A test binary of its own: the table is one per
//! process, and a search that finds it busy (another test searching) gets a
//! private one, which would hide what these tests look for.

#[path = "behaviour/common/mod.rs"]
mod common;

use common::{KIWIPETE, Setup, run};

/// Nodes of a fixed-depth search of Kiwipete.
fn nodes(threads: u32, clear_hash: bool) -> u64 {
    run(Setup { fen: KIWIPETE, depth: 8, threads, clear_hash, ..Setup::default() }).nodes
}

#[test]
fn the_table_persists_between_searches_and_clears_on_request() {
    // One thread is deterministic: a cleared table repeats the cold search exactly.
    let cold = nodes(1, true);
    let warm = nodes(1, false);
    let cleared = nodes(1, true);
    assert!(warm < cold / 2, "a warm table saved little: {warm} nodes against {cold}");
    assert_eq!(cleared, cold);

    // Two threads search a different tree each time; the table still makes the difference.
    let cold = nodes(2, true);
    let warm = nodes(2, false);
    let cleared = nodes(2, true);
    assert!(warm < cold / 2, "a warm table saved little: {warm} nodes against {cold}");
    assert!(cleared > 2 * warm, "the cleared table still helped: {cleared} nodes, {warm} warm");
}
