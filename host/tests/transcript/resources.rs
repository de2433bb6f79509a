//! What the engine may use: `memory` (hash size), `cores` and `Threads` (search
//! threads) and `egtpath` (end-game tables).

use crate::harness::Transcript;

#[test]
fn memory_sets_the_hash_size_of_the_next_search() {
    let mut t = Transcript::playing("probe");
    assert_eq!(t.say(&["new", "go"]), ["move b1a3"]);
    assert_eq!(t.searches()[0].hash_mb, 64);
    // `memory` is the engine's whole footprint: 27 MB of it are not hash.
    assert_eq!(t.say(&["memory 32", "new", "go"]), ["move b1a3"]);
    assert_eq!(t.searches()[0].hash_mb, 5);
    assert_eq!(t.say(&["memory 256", "new", "go"]), ["move b1a3"]);
    assert_eq!(t.searches()[0].hash_mb, 229);
    assert_eq!(t.say(&["memory 10", "new", "go"]), ["move b1a3"]);
    assert_eq!(t.searches()[0].hash_mb, 1);
}

#[test]
fn memory_leaves_room_for_every_search_thread() {
    let mut t = Transcript::playing("probe");
    // Whichever comes first, `memory` or `cores`, the threads' share is left out.
    assert_eq!(t.say(&["memory 128", "cores 1", "new", "go"]), ["move b1a3"]);
    assert_eq!(t.searches()[0].hash_mb, 101);
    // Eight more threads: 8 × 2.6 MiB, rounded up.
    assert_eq!(t.say(&["cores 9", "new", "go"]), ["move b1a3"]);
    assert_eq!(t.searches()[0].hash_mb, 80);
    assert_eq!(t.say(&["cores 1", "memory 40", "option Threads=256", "new", "go"]), ["move b1a3"]);
    assert_eq!(t.searches()[0].hash_mb, 1);
}

#[test]
fn memory_beyond_the_machine_is_capped_and_said() {
    let mut t = Transcript::playing("probe");
    let said = t.say(&["memory 4000000000", "new", "go"]);
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said[0].starts_with("telluser Hash limited to ") && said[0].ends_with(" MB, half of this machine's memory")
    );
    assert_eq!(said[1], "move b1a3");
    let granted: u32 = said[0]["telluser Hash limited to ".len()..].split(' ').next().unwrap().parse().unwrap();
    assert_eq!(t.searches()[0].hash_mb, granted);
    assert!(granted < 4_000_000_000);
}

#[test]
fn cores_sets_the_threads_of_the_next_search() {
    let mut t = Transcript::playing("probe");
    assert_eq!(t.say(&["new", "go"]), ["move b1a3"]);
    assert_eq!(t.searches()[0].threads, 1);
    assert_eq!(t.say(&["cores 2", "new", "go"]), ["move b1a3"]);
    assert_eq!(t.searches()[0].threads, 2);
}

#[test]
fn the_threads_option_sets_them_too() {
    let mut t = Transcript::playing("probe");
    assert_eq!(t.say(&["option Threads=3", "new", "go"]), ["move b1a3"]);
    assert_eq!(t.searches()[0].threads, 3);
    assert_eq!(
        t.say(&["option Threads=0"]),
        ["Error (bad parameter): option Threads=0 (Threads must be between 1 and 256)"]
    );
    assert_eq!(t.say(&["cores 2", "new", "go"]), ["move b1a3"]);
    assert_eq!(t.searches()[0].threads, 2);
}

#[test]
fn egtpath_with_no_tables_is_logged_only_and_play_goes_on() {
    let mut t = Transcript::playing("scripted");
    // xboard sends its default path to every engine: having no tables is normal,
    // and a dialog at every start would be a nuisance.
    let said = t.say(&["egtpath syzygy /nonexistent/tb", "ping 1"]);
    assert_eq!(said, ["pong 1"]);
    assert_eq!(t.say(&["new", "go"]), ["move b1a3"]);
    // Only Syzygy is announced (`egt="syzygy"`).
    assert_eq!(
        t.say(&["egtpath gaviota /opt/gtb", "ping 2"]),
        ["Error (unsupported tablebase type): egtpath gaviota /opt/gtb", "pong 2"]
    );
}

#[test]
fn multipv_asks_analysis_for_more_lines_and_play_for_one() {
    let mut t = Transcript::playing("probe");
    t.say(&["option MultiPV=3", "new", "analyze"]);
    assert_eq!(t.await_searches(1)[0].multipv, 3);
    // Changing it mid-analysis restarts the search with the new count.
    t.say(&["option MultiPV=2"]);
    assert_eq!(t.await_searches(1)[0].multipv, 2);
    t.say(&["exit", "force", "go"]);
    assert_eq!(t.await_searches(1)[0].multipv, 1);
    assert_eq!(
        t.say(&["option MultiPV=0"]),
        ["Error (bad parameter): option MultiPV=0 (MultiPV must be between 1 and 64)"]
    );
}
