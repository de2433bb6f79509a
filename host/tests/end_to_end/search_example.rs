//! The search plugin authors copy (`plugins/search-example`) is found beside the
//! engine, offered in the Search menu, and plays legal moves with thinking output.

use crate::common;

use common::{Engine, thinking};
use shakmaty::{Chess, Position, uci::UciMove};

#[test]
fn the_example_search_is_offered_and_plays() {
    let mut engine = Engine::start(None);
    let features = engine.handshake();
    let search = features.iter().find(|l| l.contains("option=\"Search -combo")).expect("a Search menu");
    assert!(search.contains("example"), "{search}");
    for line in ["option Search=example", "new", "force", "e2e4", "post", "sd 3", "go"] {
        engine.send(line);
    }
    let lines = engine.read_until(|l| l.starts_with("move ") || l.starts_with("tellusererror"));
    let played = lines.last().and_then(|l| l.strip_prefix("move ")).unwrap_or_else(|| panic!("{lines:?}"));
    let mut position = Chess::default();
    position.play_unchecked(UciMove::from_ascii(b"e2e4").unwrap().to_move(&position).unwrap());
    let m = played.parse::<UciMove>().ok().and_then(|uci| uci.to_move(&position).ok());
    assert!(m.is_some(), "{played} is no legal move after 1.e4");
    // One line per finished iteration, the deepest last, starting with the move played.
    let depths: Vec<u32> = lines.iter().filter_map(|l| thinking(l)).map(|(depth, _, _)| depth).collect();
    assert_eq!(depths, [1, 2, 3], "{lines:?}");
    let (_, _, pv) = thinking(&lines[lines.len() - 2]).unwrap();
    assert_eq!(pv.split(' ').next(), Some(played), "{lines:?}");
}
