//! Variants defined as data through the engine's stdin and stdout, with the real
//! plugins: each built-in one played by the engine against itself with every move
//! checked against the shared rules, setboard in the forms xboard sends, moves,
//! promotions, castling and refusals, results by each variant's own rules, a
//! user's definition announced, set up for xboard and played, faulty definitions
//! refused with their file and line, `edit`, and `plugboard perft --variant`.

use crate::common;

use std::process::Command;

use common::Engine;
use plugboard_variants::{Catalog, Position};

fn is_result(line: &str) -> bool {
    ["1-0", "0-1", "1/2-1/2"].iter().any(|r| line.starts_with(r))
}

fn engine_in(variant: &str) -> Engine {
    let mut engine = Engine::start(None);
    let features = engine.handshake().join("\n");
    assert!(features.contains(&format!(",{variant},")), "{variant} not announced: {features}");
    engine.send("new");
    engine.send(&format!("variant {variant}"));
    engine
}

#[test]
fn every_built_in_variant_is_played_legally_and_its_claims_are_the_rules() {
    let catalog = Catalog::builtin();
    for name in catalog.names() {
        let mut engine = engine_in(name);
        engine.send("sd 2");
        engine.send("force");
        let mut position = Position::start(catalog.get(name).unwrap().clone()).unwrap();
        for ply in 0..40 {
            engine.send("go");
            let lines = engine.read_until(|l| l.starts_with("move ") || is_result(l) || l.starts_with("Error"));
            let last = lines.last().unwrap().clone();
            let Some(first_leg) = last.strip_prefix("move ") else {
                assert!(is_result(&last), "{name}: {last}");
                assert!(
                    position.outcome().is_some(),
                    "{name}: claimed {last} in a game that goes on: {}",
                    position.fen()
                );
                break;
            };
            // A move of legs comes as one `move` line a leg, each but the last ending in a comma.
            let mut text = first_leg.to_owned();
            while text.ends_with(',') {
                let lines = engine.read_until(|l| l.starts_with("move "));
                text.push_str(lines.last().and_then(|l| l.strip_prefix("move ")).unwrap_or_default());
            }
            let text = text.as_str();
            engine.send("force");
            let m =
                position.parse_move(text).unwrap_or_else(|why| panic!("{name}: {text} is {why} in {}", position.fen()));
            position.play(m);
            let after = engine.said(ply + 1);
            if let Some(claim) = after.iter().find(|l| is_result(l)) {
                let outcome = position.outcome().unwrap_or_else(|| panic!("{name}: {claim} in {}", position.fen()));
                let expected = match outcome.winner {
                    Some(0) => "1-0",
                    Some(_) => "0-1",
                    None => "1/2-1/2",
                };
                assert!(claim.starts_with(expected), "{name}: {claim}, the rules say {expected}");
                break;
            }
        }
        engine.send("quit");
    }
}

#[test]
fn positions_moves_promotions_and_refusals_read_as_xboard_writes_them() {
    let mut engine = engine_in("capablanca");
    engine.send("force");
    // Capablanca: promotion to the archbishop and the chancellor, and none left out.
    engine.send("setboard 4k5/1P8/10/10/10/10/10/4K5 w - - 0 1");
    engine.send("usermove b7b8");
    engine.send("usermove b7b8c");
    engine.send("usermove k1k2");
    let lines = engine.said(1);
    assert_eq!(lines, ["Illegal move (not legal in this position): b7b8", "Illegal move (not a move): k1k2"]);
    // Castling three files, as xboard writes the king's move.
    engine.send("setboard r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1");
    engine.send("usermove f1i1");
    engine.send("usermove f8c8");
    assert_eq!(engine.said(2), Vec::<String>::new());
    // A FEN of another board is refused, and moves with it until the next position.
    engine.send("setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    engine.send("usermove e2e4");
    let lines = engine.said(3);
    assert!(lines[0].starts_with("tellusererror Illegal position"), "{lines:?}");
    assert!(lines[1].starts_with("Illegal move"), "{lines:?}");
    engine.send("quit");

    // Grand chess: ten ranks, counted from 0 as CECP says, so the pawns start on rank 2.
    let mut grand = engine_in("grand");
    grand.send("force");
    grand.send("usermove e2e4");
    grand.send("usermove e7e5");
    grand.send("usermove e1e3");
    assert_eq!(grand.said(1), ["Illegal move (not legal in this position): e1e3"]);
    grand.send("quit");

    // xboard's nocastle FEN has no castling field; caparandom's uses Shredder letters.
    let mut nocastle = engine_in("nocastle");
    nocastle.send("force");
    nocastle.send("setboard qnbkrbnr/pppppppp/8/8/8/8/PPPPPPPP/QNBKRBNR w - 0 1");
    nocastle.send("usermove e2e4");
    assert_eq!(nocastle.said(1), Vec::<String>::new());
    nocastle.send("quit");
    let mut crc = engine_in("caparandom");
    crc.send("force");
    crc.send("setboard crknrabbqn/pppppppppp/10/10/10/10/PPPPPPPPPP/CRKNRABBQN w EBeb - 0 1");
    crc.send("usermove d1e3");
    crc.send("usermove d8e6");
    crc.send("usermove O-O-O");
    assert_eq!(crc.said(1), Vec::<String>::new());
    crc.send("quit");
}

#[test]
fn the_size_prefix_names_a_variant_at_its_own_size_or_remakes_it_for_another() {
    let mut engine = Engine::start(None);
    let features = engine.handshake().join("\n");
    assert!(features.contains(",boardsize\""), "{features}");
    engine.send("variant 10x8+0_capablanca");
    engine.send("variant 10x8+8_great");
    engine.send("variant 9x10+0_xiangqi");
    engine.send("variant 7x7+0_nosuch");
    engine.send("variant 9x9+0_xiangqi");
    engine.send("variant 10x8+5_normal");
    engine.send("variant 6x8+0_normal");
    let lines = engine.said(1);
    let refused: Vec<&String> = lines.iter().filter(|l| l.starts_with("Error")).collect();
    assert_eq!(
        refused,
        [
            "Error (unsupported variant): variant 7x7+0_nosuch",
            "Error (unsupported variant): variant 9x9+0_xiangqi",
            "Error (unsupported variant): variant 10x8+5_normal",
            "Error (bad parameter): variant 6x8+0_normal (normal: its start position does not fit on 6x8: the B on \
             c1 has no square there)",
        ]
    );
    // Great's own pieces are told to xboard, whichever way it was named; at its
    // own size xboard has the start position already.
    assert!(lines.contains(&"piece W& WD".to_owned()), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("setup")), "{lines:?}");

    // Chess on ten files: xboard has no start position there and is sent one;
    // the game is played on it, with the king castling to the i file.
    engine.send("new");
    engine.send("variant 10x8+0_normal");
    engine.send("force");
    let lines = engine.said(2);
    assert!(
        lines.contains(
            &"setup (PNBRQ................Kpnbrq................k) 10x8+0_normal \
              rnbq2kbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQ2KBNR w KQkq - 0 1"
                .to_owned()
        ),
        "{lines:?}"
    );
    for m in ["e2e4", "f7f5", "i1j3", "a7a6", "g2g3", "a6a5", "h1g2", "a5a4", "g1i1", "b8c6"] {
        engine.send(&format!("usermove {m}"));
    }
    engine.send("sd 3");
    engine.send("go");
    let reply = engine.read_until(|l| l.starts_with("move ") || l.starts_with("Error") || l.starts_with("Illegal"));
    let last = reply.last().unwrap();
    assert!(last.starts_with("move "), "{reply:?}");
    // Makruk on ten ranks: pawns two ranks further up, ranks counted from 0 as on any ten-rank board.
    engine.send("new");
    engine.send("variant 8x10+0_makruk");
    engine.send("force");
    engine.send("usermove a2a3");
    engine.send("usermove a7a6");
    let lines = engine.said(3);
    assert!(
        lines.iter().any(|l| l.ends_with("8x10+0_makruk rnsmksnr/8/pppppppp/8/8/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"))
    );
    assert!(!lines.iter().any(|l| l.starts_with("Illegal") || l.starts_with("Error")), "{lines:?}");
    // Super keeps the eight holdings squares xboard gives it, and its pool.
    engine.send("new");
    engine.send("variant 10x8+8_super");
    let lines = engine.said(4);
    assert!(
        lines.iter().any(|l| l.starts_with("setup (") && l.contains(") 10x8+8_super ") && l.contains("[AESVaesv]")),
        "{lines:?}"
    );
    engine.send("quit");
}

#[test]
fn piece_lines_are_written_in_the_order_xboard_reads() {
    // xboard reads an XBetza leg's directions before its modes: the berolina
    // pawn as Fairy-Stockfish writes it (`mfFcfeWimfnA`) would move to every
    // diagonal and take on every side there, and xboard would refuse king
    // moves beside it.
    let mut engine = engine_in("berolina");
    let lines = engine.said(1);
    assert!(lines.contains(&"piece P& fmFfceWifmnA".to_owned()), "{lines:?}");
    engine.send("quit");
}

#[test]
fn berolina_en_passant_that_xboard_misapplies_is_played_only_when_forced() {
    // xboard takes a berolina en-passant victim from the square beside the
    // capturer on the h-file's side, whichever side the double step came from.
    // After e7-c5, d5xd6 must take c5; xboard would leave it standing and forfeit
    // a later move onto c5, so our move is the other one, d5-e6, although the
    // capture wins a pawn.
    let move_after = |fen: &str| {
        let mut engine = engine_in("berolina");
        engine.send(&format!("setboard {fen}"));
        engine.send("sd 4");
        engine.send("go");
        let lines = engine.read_until(|l| l.starts_with("move ") || l.starts_with("Error"));
        engine.send("quit");
        lines.last().cloned().unwrap_or_default()
    };
    assert_eq!(move_after("1r5k/8/2p5/2pP4/8/2n5/8/K7 w - d6c5 0 1"), "move d5e6");
    // When it is the only legal move, it is played.
    assert_eq!(move_after("1r5k/8/2p1p3/2pP4/8/2n5/8/K7 w - d6c5 0 1"), "move d5d6");
    // After c7-e5 xboard takes the right pawn, and the capture is ours to play.
    assert_eq!(move_after("1r5k/8/4p3/3Pp3/8/2n5/8/K7 w - d6e5 0 1"), "move d5d6");
    // Black's side of the board: after e2-c4, d4xd3 must take c4, where xboard takes e4.
    assert_eq!(move_after("k7/8/2N5/8/2Pp4/2P5/8/1R5K b - d3c4 0 1"), "move d4e3");
    // Nor do we open such a capture for the opponent: e2-c4 attacks the queen,
    // and the search played it before, but Black's d4xd3 en passant would then
    // leave xboard's board apart from ours (it would take e4, not c4).
    let answer = move_after("7k/8/8/2q5/3p4/8/1N2P3/K7 w - - 0 1");
    assert!(answer.starts_with("move ") && answer != "move e2c4", "{answer}");
}

#[test]
fn each_variant_claims_its_own_results() {
    // Losers: White gives away its last man and wins.
    let mut losers = engine_in("losers");
    losers.send("force");
    losers.send("setboard 4k3/8/8/8/8/8/r7/R3K3 b - - 0 1");
    losers.send("usermove a2a1");
    let lines = losers.said(1);
    assert!(lines.iter().any(|l| l.starts_with("1-0 {")), "{lines:?}");
    losers.send("quit");
    // Shatranj: the stalemated side loses.
    let mut shatranj = engine_in("shatranj");
    shatranj.send("force");
    shatranj.send("setboard k7/p2N4/2K5/P7/8/8/8/8 w - - 0 1");
    shatranj.send("usermove a5a6");
    let lines = shatranj.said(1);
    assert!(lines.iter().any(|l| l.starts_with("1-0 {") && l.contains("stalemated")), "{lines:?}");
    shatranj.send("quit");
}

#[test]
fn makruks_count_draws_the_game_and_the_search_knows_it() {
    // The count (Fairy-Stockfish's FEN form: limit 32 plies, all counted) runs
    // out with White's next move. xboard keeps no count and would call a claim
    // false, so the draw is offered before the move, and no result is claimed.
    let mut offer = engine_in("makruk");
    offer.send("setboard 8/8/8/4k3/8/8/8/R3K3 w - 32 32 60");
    offer.send("sd 3");
    offer.send("go");
    let lines = offer.read_until(|l| l.starts_with("move "));
    let offered = lines.iter().position(|l| l == "offer draw").expect("a draw offered");
    assert_eq!(offered, lines.len() - 2, "offered just before the move: {lines:?}");
    assert!(!lines.iter().any(|l| is_result(l)), "{lines:?}");
    // The opponent's reply does not offer again, nor end the game.
    offer.send("usermove e5d4");
    let lines = offer.read_until(|l| l.starts_with("move "));
    assert!(!lines.iter().any(|l| l == "offer draw" || is_result(l)), "{lines:?}");
    offer.send("quit");
    // In force mode, the count run out ends nothing either.
    let mut claim = engine_in("makruk");
    claim.send("force");
    claim.send("setboard 8/8/8/4k3/8/8/8/R3K3 w - 32 32 60");
    claim.send("usermove a1a2");
    let lines = claim.said(1);
    assert!(!lines.iter().any(|l| is_result(l)), "{lines:?}");
    claim.send("quit");
    // The same position to search: a rook up, yet no mate in time, so a draw
    // (less the little a draw is worth less to the side searched for).
    let mut search = engine_in("makruk");
    search.send("post");
    search.send("sd 4");
    search.send("setboard 8/8/8/4k3/8/8/8/R3K3 w - 32 32 60");
    search.send("go");
    let lines = search.read_until(|l| l.starts_with("move "));
    let (_, score, _) = lines.iter().rev().find_map(|l| common::thinking(l)).expect("a thinking line");
    assert!((-30..=0).contains(&score), "{lines:?}");
    // With the mate there, the mate comes first.
    search.send("new");
    search.send("variant makruk");
    search.send("setboard 4k3/8/4K3/8/8/8/8/R7 w - 32 32 60");
    search.send("go");
    assert_eq!(search.expect_move(), "a1a8");
    search.send("quit");
}

#[test]
fn the_search_keeps_a_lead_from_running_into_the_move_count_rule() {
    // Makruk, 99 plies without a capture or a pawn move: any piece move draws
    // by the 50-move rule, so White pushes the d-pawn (which promotes to a met
    // on d6) to keep its lead, though a piece move scores as well with no rule.
    let mut engine = engine_in("makruk");
    engine.send("setboard 8/8/1MS1M3/3P4/3k1m2/8/1KMn4/8 w - - 99 110");
    engine.send("sd 6");
    engine.send("go");
    assert_eq!(engine.expect_move(), "d5d6m");
    // Earlier in the count, the lead is all there is to it: no draw scored.
    engine.send("new");
    engine.send("variant makruk");
    engine.send("post");
    engine.send("setboard 8/8/1MS1M3/3P4/3k1m2/8/1KMn4/8 w - - 60 110");
    engine.send("sd 6");
    engine.send("go");
    let lines = engine.read_until(|l| l.starts_with("move "));
    let (_, score, _) = lines.iter().rev().find_map(|l| common::thinking(l)).expect("a thinking line");
    assert!(score > 200, "{lines:?}");
    engine.send("quit");
}

fn examples() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/variants")
}

#[test]
fn a_users_definition_is_announced_set_up_for_xboard_and_played() {
    let home = tempfile::tempdir().unwrap();
    let path = examples();
    let mut engine = Engine::start_with_env(home, None, &[], &[("PLUGBOARD_VARIANT_PATH", path.as_os_str())]);
    let features = engine.handshake().join("\n");
    assert!(features.contains(",amazonchess,") && features.contains(",bigchess,"), "{features}");
    engine.send("new");
    engine.send("variant bigchess");
    let lines = engine.said(1);
    assert_eq!(
        lines[0],
        "setup (PNBRQ..C.WKpnbrq..c.wk) 10x10+0_fairy \
         rnbcqkwbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBCQKWBNR w KQkq - 0 1",
        "{lines:?}"
    );
    assert!(lines.contains(&"piece W& CF".to_owned()), "the wizard's moves: {lines:?}");
    // Ten ranks count from 0: the pawns stand on rank 1 and may step twice.
    engine.send("force");
    engine.send("usermove e1e3");
    engine.send("usermove e8e6");
    engine.send("usermove d0e2");
    engine.send("go");
    let reply = engine.expect_move();
    assert!(!reply.is_empty());
    engine.send("quit");
}

#[test]
fn faulty_definitions_are_refused_with_their_file_and_line() {
    let folder = tempfile::tempdir().unwrap();
    let bad = folder.path().join("bad.ini");
    std::fs::write(&bad, "[mine:chess]\nqueen = -\nwibble = 3\n").unwrap();
    let home = tempfile::tempdir().unwrap();
    let mut engine = Engine::start_with_env(home, None, &[], &[("PLUGBOARD_VARIANT_PATH", bad.as_os_str())]);
    let features = engine.handshake();
    let told = engine.said(1);
    assert!(
        told.iter().any(|l| l.starts_with("tellusererror") && l.contains("bad.ini:3: unknown key 'wibble'")),
        "{told:?}"
    );
    assert!(!features.join("\n").contains("mine"), "a refused file adds nothing");
    // The option reads a file while the engine runs, and announces what it adds.
    let good = folder.path().join("good.ini");
    std::fs::write(&good, "[mine:chess]\nqueen = -\namazon = q\n").unwrap();
    engine.send(&format!("option Variant file={}", bad.display()));
    let told = engine.said(2);
    assert!(told.iter().any(|l| l.contains("bad.ini:3")), "{told:?}");
    engine.send(&format!("option Variant file={}", good.display()));
    let told = engine.said(3);
    assert!(told.iter().any(|l| l.starts_with("telluser Variants added") && l.contains("mine")), "{told:?}");
    assert!(told.iter().any(|l| l.starts_with("feature variants=") && l.contains(",mine")), "{told:?}");
    engine.send("variant mine");
    let told = engine.said(4);
    assert!(told.iter().any(|l| l.starts_with("setup (")), "{told:?}");
    engine.send("quit");
}

#[test]
fn edit_sets_up_a_board_of_the_variant() {
    let mut engine = engine_in("shatranj");
    engine.send("force");
    for line in ["edit", "#", "Kd1", "Qe2", "c", "Kd8", "Pa7", "Bz9", "."] {
        engine.send(line);
    }
    let lines = engine.said(1);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("Error (bad parameter): Bz9"), "{lines:?}");
    // The ferz (Q) steps diagonally; the alfil's letter is B.
    engine.send("usermove e2f3");
    engine.send("usermove d8d7");
    assert_eq!(engine.said(2), Vec::<String>::new());
    engine.send("quit");
}

#[test]
fn perft_counts_every_variant_by_its_name() {
    let run = |args: &[&str]| {
        Command::new(common::binary()).args(args).env_remove("PLUGBOARD_VARIANT_PATH").output().unwrap()
    };
    let grand = run(&["perft", "--variant", "grand", "3"]);
    assert!(String::from_utf8_lossy(&grand.stdout).starts_with("perft 3: 259514 nodes"), "{grand:?}");
    let fen = run(&["perft", "--variant", "shatranj", "3", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1"]);
    assert!(String::from_utf8_lossy(&fen.stdout).starts_with("perft 3: 4176 nodes"), "{fen:?}");
    let unknown = run(&["perft", "--variant", "nosuch", "1"]);
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no variant called nosuch"), "{unknown:?}");
}
