//! Shogi through stdin and stdout as xboard plays it: drops (`P@e5`), promotion
//! chosen with `+` and declined with `=` or no suffix, forced where the piece
//! could not move again, the drops the rules forbid (a second pawn on a file, a
//! pawn that mates, a piece that could never move), the engine's own drops and
//! mates, and minishogi set up for xboard from its size prefix.

use crate::common;

use common::Engine;

fn shogi_engine() -> Engine {
    Engine::in_variant("shogi").0
}

/// Black's king on e9 boxed in by its own knights and lances: a piece dropped
/// on e8 and guarded by the gold on e7 mates.
const BOXED_KING: &str = "3nkn3/3l1l3/4G4/9/9/9/9/9/4K4";

#[test]
fn drops_and_promotions_read_as_xboard_sends_them() {
    let mut engine = shogi_engine();
    // The bishops trade, the one taking promotes; Black retakes, and each side holds a bishop.
    for m in ["c3c4", "g7g6", "b2h8+", "g9h8"] {
        engine.send(&format!("usermove {m}"));
    }
    engine.send("usermove B@e5");
    engine.send("usermove b@e5");
    assert_eq!(engine.said(1), ["Illegal move (not legal in this position): b@e5"]);
    engine.send("usermove e7e6");
    // Into the zone the bishop may promote or not: `=` declines, as xboard writes it.
    engine.send("usermove e5c7=");
    engine.send("undo");
    engine.send("usermove e5c7");
    engine.send("undo");
    engine.send("usermove e5c7+");
    // Black holds no pawn; White now holds one, and may not drop it on a file
    // with its own pawn (every file has one). Black blocks the horse's check.
    engine.send("usermove P@c6");
    engine.send("usermove d9d8");
    engine.send("usermove P@e4");
    let lines = engine.said(2);
    assert_eq!(
        lines,
        ["Illegal move (not legal in this position): P@c6", "Illegal move (not legal in this position): P@e4"]
    );
    // A knight taken two ranks from the end must promote: no suffix means the
    // promotion, `=` is refused.
    engine.send("setboard 4k4/9/9/3N5/9/9/9/9/4K4[-] w 0 1");
    engine.send("usermove d6c8=");
    engine.send("usermove d6c8");
    assert_eq!(engine.said(3), ["Illegal move (not legal in this position): d6c8="]);
    // A pawn may not be dropped where it could never move, nor to give mate.
    engine.send(&format!("setboard {BOXED_KING}[P] w 0 1"));
    engine.send("usermove P@a9");
    engine.send("usermove P@e8");
    engine.send("usermove P@e6");
    assert_eq!(
        engine.said(4),
        ["Illegal move (not legal in this position): P@a9", "Illegal move (not legal in this position): P@e8"]
    );
    engine.send("quit");
}

#[test]
fn the_engine_drops_to_mate_and_claims_it() {
    let mut engine = shogi_engine();
    engine.send(&format!("setboard {BOXED_KING}[G] w 0 1"));
    engine.send("sd 2");
    engine.send("go");
    let lines = engine.read_until(|line| line.starts_with("1-0") || line.starts_with("0-1") || line.starts_with("1/2"));
    assert!(lines.iter().any(|line| line == "move G@e8"), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("1-0 {White mates}"));
    engine.send("quit");
}

#[test]
fn minishogi_is_set_up_for_xboard_from_its_size_prefix() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("variant 5x5+5_shogi");
    let lines = engine.said(1);
    assert_eq!(
        lines.first().map(String::as_str),
        Some("setup (P.BR.S...G.+.++.+Kp.br.s...g.+.++.+k) 5x5+5_shogi rbsgk/4p/5/P4/KGSBR[-] w 0 1")
    );
    // Each pawn takes a rook on the last rank, promoting as it must; the rooks go to hand.
    engine.send("force");
    for m in ["a2a3", "e4e3", "a3a4", "e3e2", "a4a5+", "e2e1", "R@c3", "P@b3"] {
        engine.send(&format!("usermove {m}"));
    }
    assert_eq!(engine.said(2), ["Illegal move (not legal in this position): P@b3"]);
    engine.send("quit");
}

#[test]
fn edit_places_promoted_pieces_as_the_documents_write_them() {
    let mut engine = shogi_engine();
    // A promoted pawn (a tokin, moving as a gold) on e5; a king cannot be promoted.
    for line in ["edit", "#", "Ke1", "Pe5+", "Kd1+", "c", "Ke9", "."] {
        engine.send(line);
    }
    let lines = engine.said(1);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("Error (bad parameter): Kd1+"), "{lines:?}");
    // The tokin steps sideways, which a pawn cannot, but not diagonally back.
    engine.send("usermove e5d5");
    engine.send("usermove e9e8");
    engine.send("usermove d5c4");
    assert_eq!(engine.said(2), ["Illegal move (not legal in this position): d5c4"]);
    engine.send("quit");
}

#[test]
fn a_fourfold_repetition_of_checks_is_lost_by_the_side_giving_them() {
    let mut engine = shogi_engine();
    // The rook checks along the e and d files, the king steps between e9 and d9.
    engine.send("setboard 4k4/9/9/9/4R4/9/9/9/K8[-] b 0 1");
    let cycle = ["e9d9", "e5d5", "d9e9", "d5e5"];
    for (n, m) in cycle.iter().cycle().take(12).enumerate() {
        engine.send(&format!("usermove {m}"));
        let lines = engine.said(n as u32 + 1);
        let expected: &[&str] = if n == 11 { &["0-1 {perpetual check}"] } else { &[] };
        assert_eq!(lines, expected, "after ply {}", n + 1);
    }
    engine.send("quit");
}

#[test]
fn sho_shogi_is_set_up_for_xboard_from_its_size_prefix() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("variant 9x9+0_shogi");
    let lines = engine.said(1);
    assert_eq!(
        lines.first().map(String::as_str),
        Some(
            "setup (PNBRLSE..G.+++++++Kpnbrlse..g.+++++++k) 9x9+0_shogi lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w 0 1"
        )
    );
    // The drunk elephant and its promoted form, the crown prince, are told to xboard.
    assert!(lines.iter().any(|line| line == "piece E& FsfW"), "{lines:?}");
    assert!(lines.iter().any(|line| line == "piece +E& K"), "{lines:?}");
    // No drops: a captured piece leaves the game.
    engine.send("force");
    for m in ["c3c4", "g7g6", "b2h8+", "g9h8", "B@e5"] {
        engine.send(&format!("usermove {m}"));
    }
    assert_eq!(engine.said(2), ["Illegal move (not legal in this position): B@e5"]);
    engine.send("quit");
}
