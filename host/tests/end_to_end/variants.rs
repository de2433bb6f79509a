//! Variants through the engine's stdin and stdout, with the real plugins: every
//! announced variant is played to its end by the engine against itself, each
//! move checked against shakmaty's rules, and the result it claims checked too.

use crate::common;

use common::Engine;
use plugboard_plugin_api::Variant;
use shakmaty::{CastlingMode, Position, uci::UciMove, variant::VariantPosition};

fn is_result(line: &str) -> bool {
    ["1-0", "0-1", "1/2-1/2"].iter().any(|r| line.starts_with(r))
}

/// The engine plays both sides of `variant` at depth 2 for at most `plies`; every
/// move must be legal, and a claimed result must be the rules' result.
fn self_play(name: &str, plies: usize) -> Vec<String> {
    let variant = Variant::from_cecp_name(name).unwrap();
    let mut rules = VariantPosition::new(plugboard_shakmaty::rules_of(variant).unwrap());
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send(&format!("variant {name}"));
    engine.send("sd 2");
    engine.send("force");
    let mut moves = Vec::new();
    for _ in 0..plies {
        engine.send("go");
        let lines = engine.read_until(|l| l.starts_with("move ") || is_result(l) || l.starts_with("Error"));
        let last = lines.last().unwrap().clone();
        let Some(text) = last.strip_prefix("move ") else {
            let end = plugboard_shakmaty::outcome(&rules, variant);
            assert!(end.is_some(), "{name}: claimed {last} in a game that goes on after {moves:?}");
            return moves;
        };
        engine.send("force");
        let uci: UciMove = text.parse().unwrap_or_else(|_| panic!("{name}: unreadable move {text}"));
        let m = uci.to_move(&rules).unwrap_or_else(|_| panic!("{name}: illegal move {text} after {moves:?}"));
        rules.play_unchecked(m);
        moves.push(text.to_owned());
        let after = engine.sync(moves.len() as u32);
        if let Some(claim) = after.iter().find(|l| is_result(l)) {
            let end = plugboard_shakmaty::outcome(&rules, variant);
            let repeated_or_fifty = claim.contains("repetition") || claim.contains("50 move");
            assert!(end.is_some() || repeated_or_fifty, "{name}: claimed {claim} after {moves:?}");
            return moves;
        }
    }
    moves
}

#[test]
fn every_announced_variant_is_played_legally_to_its_end() {
    let mut engine = Engine::start(None);
    let features = engine.handshake().join("\n");
    for name in ["atomic", "suicide", "giveaway", "kingofthehill", "3check", "crazyhouse", "racingkings", "horde"] {
        assert!(features.contains(name), "{name} not announced");
        let moves = self_play(name, 160);
        assert!(moves.len() >= 2, "{name}: {moves:?}");
    }
}

#[test]
fn crazyhouse_reads_drops_and_holdings() {
    let mut engine = Engine::start(None);
    engine.handshake();
    for line in ["new", "variant crazyhouse", "force", "e2e4", "d7d5", "e4d5", "d8d5"] {
        engine.send(line);
    }
    // White holds the pawn it took: a drop is legal, a queen drop is not.
    engine.send("Q@e4");
    assert_eq!(engine.said(1), ["Illegal move (not legal in this position): Q@e4"]);
    engine.send("P@e4");
    assert_eq!(engine.said(2), Vec::<String>::new());
    // The server's holdings replace ours: now Black holds a knight it can drop.
    engine.send("holding [] [PN]");
    engine.send("N@c6");
    assert_eq!(engine.said(3), Vec::<String>::new());
    engine.send("holding [] [PN] BX");
    assert_eq!(engine.said(4), ["Error (bad parameter): holding [] [PN] BX"]);
    engine.send("holding [] [PN] BN now");
    assert_eq!(engine.said(6), ["Error (too many parameters): holding [] [PN] BN now"]);
    engine.send("holding [Z] []");
    assert_eq!(engine.said(5), ["Error (bad parameter): holding [Z] []"]);
    // A search from here must answer with a legal move of the position with the drop.
    engine.send("go");
    let reply = engine.expect_move();
    let fen = "rnb1kbnr/ppp1pppp/2n5/3q4/4P3/8/PPPP1PPP/RNBQKBNR[p] w KQkq - 0 5";
    let position: VariantPosition = {
        let fen: shakmaty::fen::Fen = fen.parse().unwrap();
        // Black holds a knight more than a set has: the server's holdings rule.
        match VariantPosition::from_setup(
            shakmaty::variant::Variant::Crazyhouse,
            fen.into_setup(),
            CastlingMode::Standard,
        ) {
            Ok(position) => position,
            Err(error) => error.ignore_too_much_material().unwrap(),
        }
    };
    let uci: UciMove = reply.parse().unwrap();
    assert!(uci.to_move(&position).is_ok(), "{reply} is not legal in {fen}");
}

#[test]
fn holding_outside_crazyhouse_is_refused() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("holding [P] []");
    assert_eq!(engine.said(1), ["Error (command not legal now): holding [P] [] (holdings exist only in crazyhouse)"]);
}

#[test]
fn engine_defined_variants_send_their_start_position() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("variant racingkings");
    assert_eq!(engine.said(1), ["setup (PNBRQKpnbrqk) 8x8+0_fairy 8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"]);
    engine.send("variant seirawan");
    assert_eq!(engine.said(2), ["Error (unsupported variant): variant seirawan"]);
    // The refused variant left the racing-kings game as it was.
    engine.send("force");
    engine.send("h2h3");
    assert_eq!(engine.said(3), Vec::<String>::new());
}

#[test]
fn a_variant_setboard_keeps_the_variant_rules() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("new");
    engine.send("variant 3check");
    engine.send("force");
    // White needs one more check: any check ends the game.
    engine.send("setboard 4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1");
    engine.send("a1a8");
    assert_eq!(engine.said(1), ["1-0 {White gave the third check}"]);
    engine.send("setboard 4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1");
    engine.send("a1e1");
    assert_eq!(engine.said(2), ["Illegal move (not legal in this position): a1e1"]);
    // Real mate still reads as mate.
    engine.send("setboard 3k4/8/3K4/8/8/8/8/R7 w - - 3+3 0 1");
    engine.send("a1a8");
    assert_eq!(engine.said(3), ["1-0 {White mates}"]);
}

#[test]
fn a_search_that_cannot_play_the_variant_hands_the_game_to_the_built_in_one() {
    // The faulty test search lists no variants, so it plays orthodox chess only.
    let folder = common::plugin_folder(&[("faulty_search_panic", "crashy.so")]);
    let mut engine = Engine::start(Some(folder.path()));
    engine.handshake();
    engine.send("option Search=crashy");
    engine.send("new");
    engine.send("variant atomic");
    let told: Vec<String> = engine.said(1).into_iter().filter(|l| l.starts_with("tell")).collect();
    assert_eq!(told, ["telluser The search crashy cannot play atomic; alphabeta plays this game."]);
    engine.send("sd 2");
    engine.send("go");
    let m = engine.expect_move();
    let start = VariantPosition::new(shakmaty::variant::Variant::Atomic);
    assert!(m.parse::<UciMove>().unwrap().to_move(&start).is_ok(), "{m}");
    // The crashy plugin was never run, so nothing failed.
    assert!(!engine.said(2).iter().any(|l| l.starts_with("tellusererror")));
}
