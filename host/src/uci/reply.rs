//! Engine → GUI under UCI: every line the engine writes is a [`Reply`],
//! rendered by `Display` in the specification's words. Anything for a person
//! (an error, a warning, a refused command) is an `info string`, the only line
//! UCI has for it.

use std::fmt;

use crate::{
    cxboard::reply::ScoreText,
    protocol::reply::OneLine,
    quote::{TOLD_CHARS, quote_up_to},
};

/// One line of engine output.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    IdName(String),
    IdAuthor(String),
    /// `option name …`: the text after `option `.
    Option(String),
    UciOk,
    ReadyOk,
    /// The outcome of `go`; `None`: no legal move (`bestmove 0000`).
    BestMove {
        best: Option<String>,
        ponder: Option<String>,
    },
    Info(Info),
    /// `info depth D currmove M currmovenumber N`: the root move being searched.
    CurrentMove {
        depth: u32,
        m: String,
        number: u32,
    },
    /// `info string …`.
    Text(String),
}

/// A line of thinking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: u32,
    pub score: ScoreText,
    /// Win, draw and loss in permille, under `UCI_ShowWDL`.
    pub wdl: Option<(u32, u32, u32)>,
    pub nodes: u64,
    pub nps: u64,
    pub tbhits: u64,
    pub hashfull: Option<u32>,
    pub time_ms: u64,
    pub pv: Vec<String>,
}

/// The null move, which UCI writes where there is no move to name.
pub const NO_MOVE: &str = "0000";

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::IdName(name) => write!(f, "id name {}", OneLine(name)),
            Reply::IdAuthor(author) => write!(f, "id author {}", OneLine(author)),
            Reply::Option(text) => write!(f, "option {}", OneLine(text)),
            Reply::UciOk => f.write_str("uciok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::BestMove { best, ponder } => {
                write!(f, "bestmove {}", OneLine(best.as_deref().unwrap_or(NO_MOVE)))?;
                match ponder {
                    Some(ponder) if best.is_some() => write!(f, " ponder {}", OneLine(ponder)),
                    _ => Ok(()),
                }
            }
            Reply::Info(info) => {
                write!(
                    f,
                    "info depth {} seldepth {} multipv {} score {}",
                    info.depth, info.seldepth, info.multipv, info.score
                )?;
                if let Some((win, draw, loss)) = info.wdl {
                    write!(f, " wdl {win} {draw} {loss}")?;
                }
                write!(f, " nodes {} nps {}", info.nodes, info.nps)?;
                if let Some(hashfull) = info.hashfull {
                    write!(f, " hashfull {hashfull}")?;
                }
                if info.tbhits > 0 {
                    write!(f, " tbhits {}", info.tbhits)?;
                }
                write!(f, " time {}", info.time_ms)?;
                if !info.pv.is_empty() {
                    write!(f, " pv {}", OneLine(&info.pv.join(" ")))?;
                }
                Ok(())
            }
            Reply::CurrentMove { depth, m, number } => {
                write!(f, "info depth {depth} currmove {} currmovenumber {number}", OneLine(m))
            }
            Reply::Text(text) => write!(f, "info string {}", OneLine(&quote_up_to(text, TOLD_CHARS))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_as_the_specification_words_them() {
        let info = Info {
            depth: 5,
            seldepth: 9,
            multipv: 2,
            score: ScoreText { mate: false, value: -31, lower: Some(false) },
            wdl: None,
            nodes: 4321,
            nps: 36000,
            tbhits: 0,
            hashfull: None,
            time_ms: 120,
            pv: vec!["e2e4".into(), "e7e5".into()],
        };
        assert_eq!(
            Reply::Info(info.clone()).to_string(),
            "info depth 5 seldepth 9 multipv 2 score cp -31 upperbound nodes 4321 nps 36000 time 120 pv e2e4 e7e5"
        );
        let full = Info { wdl: Some((203, 380, 417)), hashfull: Some(37), tbhits: 2, ..info };
        assert_eq!(
            Reply::Info(full).to_string(),
            "info depth 5 seldepth 9 multipv 2 score cp -31 upperbound wdl 203 380 417 nodes 4321 nps 36000 \
             hashfull 37 tbhits 2 time 120 pv e2e4 e7e5"
        );
        let current = Reply::CurrentMove { depth: 7, m: "g1f3".into(), number: 3 };
        assert_eq!(current.to_string(), "info depth 7 currmove g1f3 currmovenumber 3");
        let best = Reply::BestMove { best: Some("e2e4".into()), ponder: Some("e7e5".into()) };
        assert_eq!(best.to_string(), "bestmove e2e4 ponder e7e5");
        assert_eq!(Reply::BestMove { best: None, ponder: None }.to_string(), "bestmove 0000");
        assert_eq!(Reply::Text("two\nlines".into()).to_string(), "info string two lines");
        assert_eq!(Reply::UciOk.to_string(), "uciok");
    }
}
