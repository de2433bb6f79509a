//! Plugins built against earlier releases of the plugin API load and play: each
//! release's test plugin exports the root module as it was then.

use crate::common;

use common::{Engine, plugin_folder, thinking};
use shakmaty::{Chess, Position, uci::UciMove};

#[test]
fn a_search_built_before_other_boards_loads_and_plays_chess() {
    let folder = plugin_folder(&[("test_pre_board_api", "pre_board.so")]);
    let mut engine = Engine::start(Some(folder.path()));
    let features = engine.handshake();
    let search = features.iter().find(|l| l.contains("option=\"Search -combo")).expect("a Search menu");
    assert!(search.contains("pre-board"), "{search}");
    for line in ["option Search=pre-board", "new", "post", "go"] {
        engine.send(line);
    }
    let lines = engine.read_until(|l| l.starts_with("move ") || l.starts_with("tellusererror"));
    let played = lines.last().and_then(|l| l.strip_prefix("move ")).unwrap_or_else(|| panic!("{lines:?}"));
    // The plugin plays the first legal move and scores it 1: the built-in search would not.
    let first = Chess::default().legal_moves()[0].to_uci(shakmaty::CastlingMode::Standard).to_string();
    assert_eq!(played, first, "{lines:?}");
    assert!(lines.iter().filter_map(|l| thinking(l)).any(|(_, score, pv)| score == 1 && pv == first), "{lines:?}");
    assert!(played.parse::<UciMove>().is_ok());
    engine.send("quit");
}

#[test]
fn a_search_built_before_other_boards_is_never_handed_one_even_if_it_lists_it() {
    let folder = plugin_folder(&[("test_pre_board_api", "pre_board.so")]);
    let mut engine = Engine::start(Some(folder.path()));
    engine.handshake();
    for line in ["option Search=pre-board", "new", "variant xiangqi"] {
        engine.send(line);
    }
    let said = engine.sync(1);
    assert!(
        said.iter().any(|l| l == "telluser The search pre-board cannot play xiangqi; alphabeta plays this game."),
        "{said:?}"
    );
    engine.send("st 1");
    engine.send("go");
    let played: plugboard_xiangqi::Move = engine.expect_move().parse().unwrap();
    assert!(plugboard_xiangqi::Position::start().is_legal(played), "{played}");
    // Back to chess, the plugin plays again.
    for line in ["new", "variant normal", "go"] {
        engine.send(line);
    }
    let first = Chess::default().legal_moves()[0].to_uci(shakmaty::CastlingMode::Standard).to_string();
    assert_eq!(engine.expect_move(), first);
    engine.send("quit");
}
