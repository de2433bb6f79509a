//! Chu shogi through stdin and stdout as xboard plays it: ranks 1 to 12,
//! promotion by `+` where chu allows it, the falcon's moves of two legs, and
//! the engine's own moves from xboard's start.

use crate::common;

use common::Engine;

fn chu_engine() -> Engine {
    let (engine, _, said) = Engine::in_variant("chu");
    // xboard is told how the lion moves, as the engine plays it.
    assert!(said.iter().any(|line| line == "piece N& KNADcaKcabKmabK"), "{said:?}");
    engine
}

#[test]
fn promotions_and_the_falcons_legs_are_read_as_xboard_sends_them() {
    let mut engine = chu_engine();
    // White silvers on d8 (short of the zone) and h9 (in it); a horned falcon
    // on e5 with black pawns on e6 and e7.
    engine.send("setboard 6k5/12/6p5/7S4/3S8/4p7/4p7/4+H7/12/12/12/5K6 w - - 0 1");
    engine.send("usermove h9h10+");
    engine.send("usermove d8d9+");
    engine.send("usermove g12f12");
    engine.send("usermove e5e6,e6e7");
    engine.send("usermove f12g12");
    // The falcon is on e7 now, both pawns gone: no leg backwards, but a pass.
    engine.send("usermove e7e6,e6e5");
    engine.send("usermove e7e8,e8e7");
    engine.send("usermove g12f12");
    engine.send("usermove e7e8");
    let lines = engine.said_but_pieces(1);
    assert_eq!(
        lines,
        ["Illegal move (not legal in this position): h9h10+", "Illegal move (not legal in this position): e7e6,e6e5",]
    );
}

#[test]
fn the_engine_plays_chu_from_xboards_start() {
    let mut engine = chu_engine();
    engine.send("sd 2");
    engine.send("go");
    let first = engine.expect_move();
    assert!(first.len() >= 4, "{first}");
    engine.send("usermove g9g8");
    let reply = engine.expect_move();
    assert!(!reply.is_empty());
    assert_eq!(engine.said_but_pieces(2), Vec::<String>::new());
}
