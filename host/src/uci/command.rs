//! GUI → engine under UCI: one line in, one typed [`Command`] out. Never
//! panics; borrows its text from the line. The forms UCI gave the world
//! (`setoption name N value V`, `position … moves …`, `go` and its limits) are
//! read here for cxboard too, which took them over with its own clock words.

use crate::{clock::Limits, protocol::command::command_word};

/// Why a line is no command we can carry out: the CECP front end's kinds.
pub use crate::protocol::command::CommandError;

/// A command of the UCI specification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command<'a> {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: &'a str,
        value: Option<&'a str>,
    },
    /// `register …`: nothing here needs registering.
    Register,
    UciNewGame,
    /// `position fen FEN [moves …]`, or `startpos` (`fen: None`).
    Position {
        fen: Option<&'a str>,
        moves: Vec<&'a str>,
    },
    Go(Go<'a>),
    Stop,
    PonderHit,
    Quit,
}

/// `go` and what follows it on the line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Go<'a> {
    pub limits: Limits,
    pub searchmoves: Vec<&'a str>,
    pub ponder: bool,
}

/// UCI's clock words: each side's time left and increment.
const CLOCK_WORDS: [&str; 4] = ["wtime", "btime", "winc", "binc"];

impl<'a> Command<'a> {
    pub fn parse(line: &'a str) -> Result<Command<'a>, CommandError> {
        let (word, rest) = command_word(line);
        let no_args =
            |command: Command<'a>| if rest.is_empty() { Ok(command) } else { Err(CommandError::TooManyParameters) };
        match word {
            "uci" => no_args(Command::Uci),
            "debug" => match rest {
                "" | "on" => Ok(Command::Debug(true)),
                "off" => Ok(Command::Debug(false)),
                _ => Err(CommandError::BadParameter("debug takes on or off")),
            },
            "isready" => no_args(Command::IsReady),
            "setoption" => setoption_parts(rest).map(|(name, value)| Command::SetOption { name, value }),
            "register" => Ok(Command::Register),
            "ucinewgame" => no_args(Command::UciNewGame),
            "position" => position_parts(rest, "fen").map(|(fen, moves)| Command::Position { fen, moves }),
            "go" => parse_go(rest, &CLOCK_WORDS, |limits, word, ms| match word {
                "wtime" => limits.red_ms = Some(ms),
                "btime" => limits.black_ms = Some(ms),
                "winc" => limits.red_increment_ms = Some(ms),
                _ => limits.black_increment_ms = Some(ms),
            })
            .map(Command::Go),
            "stop" => no_args(Command::Stop),
            "ponderhit" => no_args(Command::PonderHit),
            "quit" => no_args(Command::Quit),
            _ => Err(CommandError::Unknown),
        }
    }
}

/// The words `go` takes in every protocol that has it, beside the clock's.
const GO_WORDS: [&str; 8] = ["searchmoves", "ponder", "movestogo", "depth", "nodes", "mate", "movetime", "infinite"];

/// `go` with its limits: `clock_words` are the protocol's names for the times
/// on the clock, each handed to `clock` with its milliseconds.
pub(crate) fn parse_go<'a>(
    rest: &'a str,
    clock_words: &[&str],
    mut clock: impl FnMut(&mut Limits, &str, u64),
) -> Result<Go<'a>, CommandError> {
    let mut go = Go::default();
    let mut words = rest.split_whitespace().peekable();
    let is_word = |word: &str| GO_WORDS.contains(&word) || clock_words.contains(&word);
    while let Some(word) = words.next() {
        let mut value = || words.next().ok_or(CommandError::BadParameter("a go limit needs a number"));
        let limits = &mut go.limits;
        match word {
            "searchmoves" => {
                while let Some(m) = words.next_if(|w| !is_word(w)) {
                    go.searchmoves.push(m);
                }
                if go.searchmoves.is_empty() {
                    return Err(CommandError::BadParameter("searchmoves needs moves"));
                }
            }
            "ponder" => go.ponder = true,
            "infinite" => limits.infinite = true,
            "movetime" => limits.movetime_ms = Some(time(value()?)?),
            // A count of 0 would search nothing, or, as a plugin reads 0 nodes or
            // plies, without end: each is refused as the `go mate 0` it resembles.
            "movestogo" => limits.moves_to_go = Some(positive(value()?, "movestogo needs at least one move")?),
            "depth" => limits.depth = Some(positive(value()?, "depth needs at least one ply")?),
            "nodes" => limits.nodes = Some(positive(value()?, "nodes needs at least one node")?),
            "mate" => limits.mate = Some(positive(value()?, "mate needs at least one move")?),
            word if clock_words.contains(&word) => {
                let ms = time(value()?)?;
                clock(limits, word, ms);
            }
            _ => {
                return Err(CommandError::BadParameter(
                    "go takes searchmoves, ponder, the clock's times, movestogo, depth, nodes, mate, movetime and infinite",
                ));
            }
        }
    }
    Ok(go)
}

/// Milliseconds; a clock already run down may read below zero, which is none left.
fn time(text: &str) -> Result<u64, CommandError> {
    let ms: i64 = text.parse().map_err(|_| CommandError::BadParameter("a time is a number of milliseconds"))?;
    Ok(ms.max(0) as u64)
}

/// A whole number from 1 up to what its type holds; anything else (0, a sign,
/// more digits than fit) is refused with `why`.
fn positive<T: std::str::FromStr + Default + PartialEq>(text: &str, why: &'static str) -> Result<T, CommandError> {
    text.parse().ok().filter(|n| *n != T::default()).ok_or(CommandError::BadParameter(why))
}

/// `setoption name ID [value X]`: the name is every word up to `value`, the value
/// everything after it as sent (a path may hold spaces).
pub(crate) fn setoption_parts(rest: &str) -> Result<(&str, Option<&str>), CommandError> {
    const WHY: &str = "setoption needs name ID [value X]";
    let after_name = rest
        .strip_prefix("name")
        .filter(|r| r.starts_with(char::is_whitespace))
        .ok_or(CommandError::BadParameter(WHY))?;
    let (name, value) = match find_word(after_name, "value") {
        Some((before, after)) => (before.trim(), Some(after.trim())),
        None => (after_name.trim(), None),
    };
    if name.is_empty() {
        return Err(CommandError::BadParameter(WHY));
    }
    Ok((name, value))
}

/// The text before and after the first whole word `word` of `text`.
fn find_word<'a>(text: &'a str, word: &str) -> Option<(&'a str, &'a str)> {
    let mut from = 0;
    while let Some(found) = text[from..].find(word).map(|at| at + from) {
        let end = found + word.len();
        let starts = text[..found].ends_with(char::is_whitespace);
        let ends = end == text.len() || text[end..].starts_with(char::is_whitespace);
        if starts && ends {
            return Some((&text[..found], &text[end..]));
        }
        from = end;
    }
    None
}

/// `position FEN_WORD FEN [moves M…]` or `position startpos [moves M…]`: the
/// position (`None` for the start) and its moves.
pub(crate) fn position_parts<'a>(
    rest: &'a str,
    fen_word: &str,
) -> Result<(Option<&'a str>, Vec<&'a str>), CommandError> {
    let (setup, moves) = match rest.strip_prefix("moves") {
        Some(after) if after.is_empty() || after.starts_with(char::is_whitespace) => ("", Some(after)),
        _ => match find_word(rest, "moves") {
            Some((before, after)) => (before.trim(), Some(after)),
            None => (rest, None),
        },
    };
    let moves = moves.map(|m| m.split_whitespace().collect()).unwrap_or_default();
    let fen = match setup.split_once(char::is_whitespace) {
        Some((word, fen)) if word == fen_word && !fen.trim().is_empty() => Some(fen.trim()),
        None if setup == "startpos" => None,
        _ => {
            return Err(CommandError::BadParameter(if fen_word == "fen" {
                "position needs fen FEN or startpos, then moves if any"
            } else {
                "position needs cfen CFEN or startpos, then moves if any"
            }));
        }
    };
    Ok((fen, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_reads_every_limit_of_the_specification() {
        let Ok(Command::Go(go)) = Command::parse(
            "go searchmoves e2e4 d2d4 ponder wtime 1000 btime -5 winc 300 binc 400 movestogo 5 depth 6 nodes 7 mate 2 movetime 250 infinite",
        ) else {
            panic!("not a go");
        };
        assert_eq!(go.searchmoves, ["e2e4", "d2d4"]);
        assert!(go.ponder && go.limits.infinite);
        let limits = go.limits;
        assert_eq!(
            (limits.red_ms, limits.black_ms, limits.red_increment_ms, limits.black_increment_ms),
            (Some(1000), Some(0), Some(300), Some(400))
        );
        assert_eq!(
            (limits.moves_to_go, limits.depth, limits.nodes, limits.mate, limits.movetime_ms),
            (Some(5), Some(6), Some(7), Some(2), Some(250))
        );
        assert_eq!(Command::parse("go"), Ok(Command::Go(Go::default())));
        for bad in ["go depth", "go depth x", "go searchmoves", "go rtime 5", "go depth 0", "go wtime 1.5"] {
            assert!(Command::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn setoption_names_hold_spaces_and_position_takes_fen_or_startpos() {
        assert_eq!(
            Command::parse("setoption name Move Overhead value 100"),
            Ok(Command::SetOption { name: "Move Overhead", value: Some("100") })
        );
        assert_eq!(
            Command::parse("setoption name Clear Hash"),
            Ok(Command::SetOption { name: "Clear Hash", value: None })
        );
        assert_eq!(
            Command::parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2"),
            Ok(Command::Position { fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1"), moves: vec!["a1a2"] })
        );
        assert_eq!(
            Command::parse("position startpos moves e2e4 e7e5"),
            Ok(Command::Position { fen: None, moves: vec!["e2e4", "e7e5"] })
        );
        for bad in ["position", "position fen", "position cfen x", "position startpos x", "setoption name"] {
            assert!(Command::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_command_and_garbage_never_panics() {
        for (line, command) in [
            ("uci", Command::Uci),
            ("isready", Command::IsReady),
            ("ucinewgame", Command::UciNewGame),
            ("stop", Command::Stop),
            ("ponderhit", Command::PonderHit),
            ("quit", Command::Quit),
            ("debug on", Command::Debug(true)),
            ("debug off", Command::Debug(false)),
            ("register later", Command::Register),
        ] {
            assert_eq!(Command::parse(line), Ok(command), "{line}");
        }
        for line in ["", " ", "\u{0}", "é", "go ponder ponder", "setoption name value", "position fen é moves é"] {
            let _ = Command::parse(line);
        }
        assert_eq!(Command::parse("xboard"), Err(CommandError::Unknown));
        assert_eq!(Command::parse("uci now"), Err(CommandError::TooManyParameters));
    }
}
