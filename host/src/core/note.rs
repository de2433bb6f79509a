//! What the core tells its front end, typed: moves as moves, scores as scores;
//! and how it answers a request it does not carry out. A front end turns each
//! into its protocol's words.

use plugboard_plugin_api::Score;

use crate::{
    game::{GameEnd, GameMove},
    ics::Talk,
    known_moves::KnownMove,
};

/// One thing the core has to say, in the order it happened.
#[derive(Debug, Clone, PartialEq)]
pub enum Note {
    /// Our move, played on the core's board.
    Move(GameMove),
    /// The outcome of a search whose move is reported, not played (cxboard's
    /// `go`): the best move, `None` when there is no legal move, and the reply
    /// the search expects to it.
    BestMove {
        best: Option<GameMove>,
        ponder: Option<GameMove>,
    },
    /// The engine's score of the current position, for the side to move, when asked.
    Score(Score),
    /// A line of the running search's thinking.
    Thought(Thought),
    /// The root move the running search is on, at `depth`: the `number`th it tries.
    CurrentMove {
        depth: u32,
        m: GameMove,
        number: u32,
    },
    /// How the move about to be played was found without a search (book or tables).
    Known(Known),
    /// The search failed and the move about to be played was not searched.
    Unsearched(GameMove),
    /// The rules end the game here, or let a player claim a draw.
    Result(GameEnd),
    /// Accepts the opponent's offer, offers a draw, or claims one before the move that makes it claimable.
    OfferDraw,
    Resign,
    /// The reply we expect to our move, which we now think about.
    Hint(GameMove),
    /// Something the user should read.
    Tell(String),
    /// Something that went wrong, which the user should read.
    TellError(String),
    /// A diagnostic, for those who asked for them.
    Debug(String),
    /// Words for a chess server.
    Talk(Talk),
    /// The options may have changed (a plugin chosen, a rescan, a fault).
    /// `purged`: the GUI forgot its list, so it must be sent even if unchanged.
    OptionsChanged {
        purged: bool,
    },
    /// The variants that can be played changed (a definition file was read):
    /// the GUI should hear the list again.
    VariantsChanged,
    /// A variant the GUI cannot know starts here (pieces and rules standard).
    VariantStart {
        fen: String,
    },
    /// Where the analysis stands, when asked.
    Status(Status),
    /// The book's moves, or the tablebases' verdicts, for the position: one row each.
    Listing(Vec<String>),
    /// The search for our move is over (played, resigned, stopped or abandoned):
    /// what waited for it may be answered now.
    MoveSearchOver,
}

/// A line of thinking. `pv` is the legal start of what the plugin reported.
#[derive(Debug, Clone, PartialEq)]
pub struct Thought {
    /// Which search thought it.
    pub job: u64,
    /// Thought on the opponent's time, about the position after the reply we expect.
    pub pondering: bool,
    pub depth: u32,
    pub seldepth: u32,
    /// Which of the best lines it is, from 1 (`MultiPV`).
    pub multipv: u32,
    pub score: Score,
    /// Search time as the clock counts it (nodes on a node clock, CPU time on a CPU clock).
    pub time_ms: u64,
    pub nodes: u64,
    pub tbhits: u64,
    pub pv: Vec<GameMove>,
    /// How full the search's hash table is, in permille, if the plugin says.
    pub hashfull: Option<u32>,
}

/// A move the book or the tables know.
#[derive(Debug, Clone, PartialEq)]
pub struct Known {
    pub m: GameMove,
    /// Centipawns for the side to move.
    pub score: i32,
    /// How it was found, for people (`book 42%`, a tablebase verdict).
    pub note: String,
    pub from_tables: bool,
}

impl From<&KnownMove> for Known {
    fn from(known: &KnownMove) -> Known {
        Known { m: known.m, score: known.score, note: known.thinking.clone(), from_tables: known.from_tables }
    }
}

/// Where an analysis stands.
#[derive(Debug, Clone, PartialEq)]
pub struct Status {
    pub time_ms: u64,
    pub nodes: u64,
    pub depth: u32,
    pub moves_left: u32,
    pub total_moves: u32,
    /// The root move being searched.
    pub current: Option<GameMove>,
}

/// Why a request was not carried out; the core's state is as it was.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not in this state of the game or the engine; the reason, when there is more to say.
    NotLegalNow(Option<String>),
    BadParameter(String),
    UnknownOption,
    UnsupportedVariant,
    UnsupportedTables,
}

/// What an accepted `option` did.
#[derive(Debug, PartialEq, Eq)]
pub enum Applied {
    Done,
    /// `Configure`'s value: `NAME=VALUE; NAME=VALUE`, still to be set one by one.
    Configure(String),
}
