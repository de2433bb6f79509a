//! The legal moves against a plain definition of them: every pseudo-legal
//! move played out and the royal pieces looked at. The move generator skips
//! that test for moves that cannot open a way to a royal piece; random games
//! in every built-in variant (and the examples) show it skips nothing it should not.

use plugboard_variants::{Catalog, Move, MoveList, Position};

/// Every pseudo-legal move that leaves the royal pieces safe, captures alone
/// where capturing is compulsory: the rules as written, without shortcuts.
fn plainly_legal(position: &mut Position) -> Vec<Move> {
    if position.immediate_end().is_some() {
        return Vec::new();
    }
    let mut pseudo = MoveList::new();
    position.pseudo_legal_moves(&mut pseudo);
    pseudo.retain(|&m| position.keeps_royals_safe(m));
    // Lions may not be traded off (Mighty Lion chess).
    if position.variant().lion_kinds != 0 {
        pseudo.retain(|&m| position.lion_trade_allowed(m));
    }
    if position.variant().must_capture && pseudo.iter().any(|&m| position.is_capture(m)) {
        pseudo.retain(|&m| position.is_capture(m));
    }
    // Shogi: a pawn dropped may not give mate.
    if let Some(pawn) = position.variant().drop_mate_illegal {
        pseudo.retain(|&m| {
            if m.dropped() != Some(pawn) {
                return true;
            }
            let undo = position.play(m);
            let mated = position.in_check() && plainly_legal(position).is_empty();
            position.undo(m, undo);
            !mated
        });
    }
    pseudo
}

fn catalog() -> Catalog {
    let mut catalog = Catalog::builtin();
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/variants");
    for file in std::fs::read_dir(examples).unwrap() {
        let path = file.unwrap().path();
        catalog.add_file(&std::fs::read_to_string(&path).unwrap(), &path.display().to_string()).unwrap();
    }
    // Hoppers and a lame leaper, whose ways to a king open and close in ways no built-in piece's do.
    let hoppers = "[hoppers:chess]\ncustomPiece1 = c:mRcpR\ncustomPiece2 = h:nN\ncustomPiece3 = g:gQ\n\
                   startFen = rhcqkcgr/pppppppp/8/8/8/8/PPPPPPPP/RHCQKCGR w - - 0 1\ncastling = false\n";
    catalog.add_file(hoppers, "hoppers.ini").unwrap();
    catalog
}

#[test]
fn random_games_find_the_same_legal_moves_both_ways() {
    let catalog = catalog();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut checked = 0;
    for name in catalog.names().map(str::to_string).collect::<Vec<_>>() {
        let rules = catalog.get(&name).unwrap().clone();
        for _game in 0..12 {
            let mut position = Position::start(rules.clone()).unwrap();
            for _ply in 0..160 {
                let mut fast = MoveList::new();
                position.legal_moves(&mut fast);
                let plain = plainly_legal(&mut position);
                assert_eq!(fast, plain, "{name}: {}", position.fen());
                let mut captures = MoveList::new();
                position.legal_captures(&mut captures);
                let expected: Vec<Move> =
                    plain.iter().copied().filter(|&m| position.is_capture(m) || m.promotion != 0).collect();
                assert_eq!(captures, expected, "{name}: captures of {}", position.fen());
                checked += 1;
                if fast.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let m = fast[(seed >> 33) as usize % fast.len()];
                position.play(m);
            }
        }
    }
    assert!(checked > 10_000, "only {checked} positions");
}
