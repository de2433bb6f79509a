//! A move under any of the host's rules. Outside `game/` a move is passed
//! around whole: the game it belongs to reads it, writes it and plays it.

use plugboard_plugin_api as api;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum GameMove {
    Chess(shakmaty::Move),
    Xiangqi(plugboard_xiangqi::Move),
    Defined(plugboard_variants::Move),
}

impl GameMove {
    /// The plugin API's encoding, which names squares only, so a search can
    /// report it back without knowing the host's types.
    pub fn to_plugin(self) -> api::Move {
        match self {
            GameMove::Chess(m) => plugboard_shakmaty::to_plugin_move(m),
            GameMove::Xiangqi(m) => m.to_plugin(),
            GameMove::Defined(m) => m.to_plugin(),
        }
    }
}

impl From<shakmaty::Move> for GameMove {
    fn from(m: shakmaty::Move) -> GameMove {
        GameMove::Chess(m)
    }
}
