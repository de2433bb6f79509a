//! Engine → GUI: every line the engine writes is a [`Reply`], rendered by `Display`.

use std::fmt;

use crate::quote::{TOLD_CHARS, quote, quote_up_to};

/// One line of engine output.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// `feature ...`: the text after the word.
    Feature(String),
    Pong(String),
    Move(String),
    Thinking(Thinking),
    GameResult {
        result: &'static str,
        reason: String,
    },
    Error {
        kind: &'static str,
        command: String,
    },
    IllegalMove {
        reason: String,
        mv: String,
    },
    TellUser(String),
    TellUserError(String),
    /// A `#` line: ignored by GUIs, kept in their debug logs.
    Debug(String),
    Hint(String),
    Stat01(Stat01),
    /// One row of a `bk` table: GUIs expect it to start with a space.
    TableRow(String),
    /// Ends a `bk` table.
    EmptyLine,
    /// Accepts a draw offer, offers one, or claims one before the move that makes it claimable.
    OfferDraw,
    /// Colours for the squares of a lifted piece's moves.
    Highlight(String),
    /// The search is failing high (`++`) or low (`--`): its score is a bound.
    Failing {
        high: bool,
    },
    /// `setup (PIECETOCHAR) WxH+S_PARENT FEN`: the start of an engine-defined variant.
    Setup(String),
    /// `piece ID BETZA`: how a piece of an engine-defined variant moves.
    Piece(String),
    Resign,
    /// A command for the chess server, in Zippy mode: `tellicsnoalias`, which
    /// xboard sends with the `$` that keeps the server's aliases and its `;`
    /// splitting away.
    TellIcsNoAlias(String),
    /// To the opponent and the spectators (the server's `kibitz`).
    TellAll(String),
    /// To the spectators only (the server's `whisper`).
    TellOthers(String),
    /// To the opponent only (the server's `say`).
    TellOpponent(String),
}

/// A thinking line: `DEPTH SCORE TIME NODES SELDEPTH NPS TBHITS<Tab>PV`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Thinking {
    pub depth: u32,
    /// Centipawns, or ±(100000 + moves) for mates.
    pub score: i64,
    pub centiseconds: u64,
    pub nodes: u64,
    pub seldepth: u32,
    pub nps: u64,
    pub tbhits: u64,
    pub pv: String,
    /// Selective depth, speed and tablebase hits follow the standard four
    /// fields, and a tab the PV; else the PV follows at once.
    pub extended: bool,
}

/// The answer to `.` in analysis mode.
#[derive(Debug, Clone, PartialEq)]
pub struct Stat01 {
    pub centiseconds: u64,
    pub nodes: u64,
    pub depth: u32,
    pub moves_left: u32,
    pub total_moves: u32,
    pub current_move: String,
}

/// Text that came from elsewhere (a plugin, a file name) must stay on one line,
/// or it could forge protocol lines of its own. Every front end writes it so.
pub(crate) struct OneLine<'a>(pub &'a str);

impl fmt::Display for OneLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            let mut buffer = [0; 4];
            f.write_str(if c.is_control() { " " } else { c.encode_utf8(&mut buffer) })?;
        }
        Ok(())
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Feature(text) => write!(f, "feature {}", OneLine(text)),
            Reply::Pong(n) => write!(f, "pong {}", OneLine(n)),
            // A move of legs is one `move` line per leg, each but the last ending in a comma.
            Reply::Move(mv) => {
                let legs: Vec<&str> = mv.split(',').collect();
                for (index, leg) in legs.iter().enumerate() {
                    if index + 1 < legs.len() {
                        writeln!(f, "move {},", OneLine(leg))?;
                    } else {
                        write!(f, "move {}", OneLine(leg))?;
                    }
                }
                Ok(())
            }
            Reply::Thinking(t) if t.extended => write!(
                f,
                "{} {} {} {} {} {} {}\t{}",
                t.depth,
                t.score,
                t.centiseconds,
                t.nodes,
                t.seldepth,
                t.nps,
                t.tbhits,
                OneLine(&t.pv)
            ),
            Reply::Thinking(t) => {
                write!(f, "{} {} {} {} {}", t.depth, t.score, t.centiseconds, t.nodes, OneLine(&t.pv))
            }
            Reply::GameResult { result, reason } => write!(f, "{result} {{{}}}", OneLine(reason)),
            Reply::Error { kind, command } => write!(f, "Error ({kind}): {}", OneLine(&quote(command))),
            Reply::IllegalMove { reason, mv } => {
                write!(f, "Illegal move ({}): {}", OneLine(reason), OneLine(&quote(mv)))
            }
            Reply::TellUser(text) => write!(f, "telluser {}", OneLine(&quote_up_to(text, TOLD_CHARS))),
            Reply::TellUserError(text) => write!(f, "tellusererror {}", OneLine(&quote_up_to(text, TOLD_CHARS))),
            Reply::Debug(text) => write!(f, "# {}", OneLine(text)),
            Reply::Hint(mv) => write!(f, "Hint: {}", OneLine(mv)),
            Reply::Stat01(s) => {
                write!(f, "stat01: {} {} {} {} {}", s.centiseconds, s.nodes, s.depth, s.moves_left, s.total_moves)?;
                if !s.current_move.is_empty() {
                    write!(f, " {}", OneLine(&s.current_move))?;
                }
                Ok(())
            }
            Reply::TableRow(text) => write!(f, " {}", OneLine(text)),
            Reply::EmptyLine => Ok(()),
            Reply::OfferDraw => f.write_str("offer draw"),
            Reply::Highlight(colors) => write!(f, "highlight {}", OneLine(colors)),
            Reply::Failing { high } => f.write_str(if *high { "++" } else { "--" }),
            Reply::Setup(text) => write!(f, "setup {}", OneLine(text)),
            Reply::Piece(text) => write!(f, "piece {}", OneLine(text)),
            Reply::Resign => f.write_str("resign"),
            Reply::TellIcsNoAlias(text) => write!(f, "tellicsnoalias {}", OneLine(text)),
            Reply::TellAll(text) => write!(f, "tellall {}", OneLine(text)),
            Reply::TellOthers(text) => write!(f, "tellothers {}", OneLine(text)),
            Reply::TellOpponent(text) => write!(f, "tellopponent {}", OneLine(text)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quote::QUOTED_CHARS;

    #[test]
    fn failing_high_and_low_are_marked_as_the_documents_say() {
        assert_eq!(Reply::Failing { high: true }.to_string(), "++");
        assert_eq!(Reply::Failing { high: false }.to_string(), "--");
    }

    #[test]
    fn thinking_uses_the_extended_tab_format_unless_told_not_to() {
        let mut thinking = Thinking {
            depth: 5,
            score: -31,
            centiseconds: 12,
            nodes: 4321,
            seldepth: 9,
            nps: 36000,
            tbhits: 0,
            pv: "e2e4 e7e5".into(),
            extended: true,
        };
        assert_eq!(Reply::Thinking(thinking.clone()).to_string(), "5 -31 12 4321 9 36000 0\te2e4 e7e5");
        thinking.extended = false;
        assert_eq!(Reply::Thinking(thinking).to_string(), "5 -31 12 4321 e2e4 e7e5");
    }

    #[test]
    fn long_commands_are_quoted_by_a_prefix() {
        let long = "x".repeat(5000);
        let line = Reply::Error { kind: "unknown command", command: long }.to_string();
        assert_eq!(line, format!("Error (unknown command): {}... (5000 bytes in all)", "x".repeat(QUOTED_CHARS)));
        let short = Reply::Error { kind: "unknown command", command: "frob".into() };
        assert_eq!(short.to_string(), "Error (unknown command): frob");
    }

    #[test]
    fn foreign_text_cannot_break_the_line() {
        let line = Reply::TellUserError("bad\nmove e2e4".into());
        assert_eq!(line.to_string(), "tellusererror bad move e2e4");
    }
}
