//! Engine → GUI under cxboard: every line the engine writes is a [`Reply`],
//! rendered by `Display` in the words of the document's UCI-like engine side.

use std::fmt;

use crate::{
    protocol::reply::OneLine,
    quote::{TOLD_CHARS, quote, quote_up_to},
};

/// One line of engine output.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    IdName(String),
    IdAuthor(String),
    /// `option name …`: the text after `option `.
    Option(String),
    CxboardOk,
    ReadyOk,
    /// The outcome of `go`; `None`: no legal move.
    BestMove {
        best: Option<String>,
        ponder: Option<String>,
    },
    /// Our move in play mode.
    Move(String),
    Info(Info),
    /// `info hint M`
    Hint(String),
    /// `info score …`, when asked with `score`.
    Score(ScoreText),
    /// `info string …`: anything for a person to read.
    Text(String),
    /// Accepts the opponent's draw offer.
    OfferDraw,
    Error {
        kind: String,
        line: String,
    },
    IllegalMove {
        reason: String,
        mv: String,
    },
}

/// A score as `info` gives it: centipawns or moves to mate for the side to move,
/// and whether it is only a bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoreText {
    pub mate: bool,
    pub value: i32,
    /// `Some(true)` for a lower bound, `Some(false)` for an upper bound.
    pub lower: Option<bool>,
}

/// A line of thinking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub score: ScoreText,
    pub time_ms: u64,
    pub nodes: u64,
    pub nps: u64,
    pub tbhits: u64,
    pub pv: Vec<String>,
}

impl fmt::Display for ScoreText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", if self.mate { "mate" } else { "cp" }, self.value)?;
        match self.lower {
            Some(true) => f.write_str(" lowerbound"),
            Some(false) => f.write_str(" upperbound"),
            None => Ok(()),
        }
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::IdName(name) => write!(f, "id name {}", OneLine(name)),
            Reply::IdAuthor(author) => write!(f, "id author {}", OneLine(author)),
            Reply::Option(text) => write!(f, "option {}", OneLine(text)),
            Reply::CxboardOk => f.write_str("cxboardok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::BestMove { best, ponder } => {
                write!(f, "bestmove {}", OneLine(best.as_deref().unwrap_or("(none)")))?;
                match ponder {
                    Some(ponder) => write!(f, " ponder {}", OneLine(ponder)),
                    None => Ok(()),
                }
            }
            Reply::Move(mv) => write!(f, "move {}", OneLine(mv)),
            Reply::Info(info) => {
                write!(
                    f,
                    "info depth {} seldepth {} score {} time {} nodes {} nps {}",
                    info.depth, info.seldepth, info.score, info.time_ms, info.nodes, info.nps
                )?;
                if info.tbhits > 0 {
                    write!(f, " tbhits {}", info.tbhits)?;
                }
                if !info.pv.is_empty() {
                    write!(f, " pv {}", OneLine(&info.pv.join(" ")))?;
                }
                Ok(())
            }
            Reply::Hint(mv) => write!(f, "info hint {}", OneLine(mv)),
            Reply::Score(score) => write!(f, "info score {score}"),
            Reply::Text(text) => write!(f, "info string {}", OneLine(&quote_up_to(text, TOLD_CHARS))),
            Reply::OfferDraw => f.write_str("offer draw"),
            Reply::Error { kind, line } => write!(f, "Error ({}): {}", OneLine(kind), OneLine(&quote(line))),
            Reply::IllegalMove { reason, mv } => {
                write!(f, "Illegal move ({}): {}", OneLine(reason), OneLine(&quote(mv)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_as_the_document_words_them() {
        let score = ScoreText { mate: false, value: -31, lower: None };
        let info = Info {
            depth: 5,
            seldepth: 9,
            score,
            time_ms: 120,
            nodes: 4321,
            nps: 36000,
            tbhits: 0,
            pv: vec!["h2e2".into(), "h9g7".into()],
        };
        assert_eq!(
            Reply::Info(info).to_string(),
            "info depth 5 seldepth 9 score cp -31 time 120 nodes 4321 nps 36000 pv h2e2 h9g7"
        );
        let best = Reply::BestMove { best: Some("h2e2".into()), ponder: Some("h9g7".into()) };
        assert_eq!(best.to_string(), "bestmove h2e2 ponder h9g7");
        assert_eq!(Reply::BestMove { best: None, ponder: None }.to_string(), "bestmove (none)");
        assert_eq!(
            Reply::Score(ScoreText { mate: true, value: 3, lower: Some(true) }).to_string(),
            "info score mate 3 lowerbound"
        );
        assert_eq!(Reply::Text("bad\nline".into()).to_string(), "info string bad line");
        let error = Reply::Error { kind: "not in force mode".into(), line: "go".into() };
        assert_eq!(error.to_string(), "Error (not in force mode): go");
    }
}
