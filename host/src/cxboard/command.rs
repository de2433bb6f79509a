//! GUI → engine under cxboard: one line in, one typed [`Command`] out. Never
//! panics; borrows its text from the line.

use crate::clock::{Limits, Overtime};

/// A command of the cxboard document (and `quit`, which it leaves out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command<'a> {
    /// `cxboard VERSION`: the highest version the GUI knows.
    Cxboard(u32),
    Force,
    Go(Go<'a>),
    PlayCurrent,
    PlayOther,
    Move(&'a str),
    /// `?`
    MoveNow,
    Stop,
    IsReady,
    SetOption {
        name: &'a str,
        value: Option<&'a str>,
    },
    /// `position cfen CFEN [moves …]`, or `startpos` (`fen: None`).
    Position {
        fen: Option<&'a str>,
        moves: Vec<&'a str>,
    },
    Debug(bool),
    Draw,
    Result {
        result: &'a str,
        comment: &'a str,
    },
    Hint,
    Undo,
    Remove,
    Name(&'a str),
    Computer,
    Pause,
    Resume,
    Score,
    Clock(Overtime),
    Quit,
}

/// `go` and what follows it on the line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Go<'a> {
    pub limits: Limits,
    pub searchmoves: Vec<&'a str>,
    pub ponder: bool,
}

/// Why a line is no command we can carry out.
/// The errors are the CECP front end's: the same `Error (...)` kinds.
pub use crate::protocol::command::CommandError;

impl<'a> Command<'a> {
    pub fn parse(line: &'a str) -> Result<Command<'a>, CommandError> {
        let line = line.trim();
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((word, rest)) => (word, rest.trim()),
            None => (line, ""),
        };
        let no_args =
            |command: Command<'a>| if rest.is_empty() { Ok(command) } else { Err(CommandError::TooManyParameters) };
        match word {
            "cxboard" => {
                let version = rest.parse().map_err(|_| CommandError::BadParameter("cxboard needs a version number"))?;
                Ok(Command::Cxboard(version))
            }
            "force" => no_args(Command::Force),
            "go" => parse_go(rest).map(Command::Go),
            "playcurrent" => no_args(Command::PlayCurrent),
            "playother" => no_args(Command::PlayOther),
            "move" => match rest.split_whitespace().count() {
                0 => Err(CommandError::BadParameter("move needs a move")),
                1 => Ok(Command::Move(rest)),
                _ => Err(CommandError::TooManyParameters),
            },
            "?" => no_args(Command::MoveNow),
            "stop" => no_args(Command::Stop),
            "isready" => no_args(Command::IsReady),
            "setoption" => parse_setoption(rest),
            "position" => parse_position(rest),
            "debug" => match rest {
                "on" => Ok(Command::Debug(true)),
                "off" => Ok(Command::Debug(false)),
                _ => Err(CommandError::BadParameter("debug takes on or off")),
            },
            "draw" => no_args(Command::Draw),
            "result" => {
                let (result, comment) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                match result {
                    "1-0" | "0-1" | "1/2-1/2" | "*" => Ok(Command::Result { result, comment: comment.trim() }),
                    _ => Err(CommandError::BadParameter("result must be 1-0, 0-1, 1/2-1/2 or *")),
                }
            }
            "hint" => no_args(Command::Hint),
            "undo" => no_args(Command::Undo),
            "remove" => no_args(Command::Remove),
            "name" => Ok(Command::Name(rest)),
            "computer" => no_args(Command::Computer),
            "pause" => no_args(Command::Pause),
            "resume" => no_args(Command::Resume),
            "score" => no_args(Command::Score),
            "clock" => parse_clock(rest).map(Command::Clock),
            "quit" => no_args(Command::Quit),
            _ => Err(CommandError::Unknown),
        }
    }
}

/// The words `go` takes, which end a list of `searchmoves`.
const GO_WORDS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "rtime",
    "btime",
    "mtime",
    "otime",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

fn parse_go(rest: &str) -> Result<Go<'_>, CommandError> {
    let mut go = Go::default();
    let mut words = rest.split_whitespace().peekable();
    while let Some(word) = words.next() {
        let mut value = || words.next().ok_or(CommandError::BadParameter("a go limit needs a number"));
        let limits = &mut go.limits;
        match word {
            "searchmoves" => {
                while let Some(m) = words.next_if(|w| !GO_WORDS.contains(w)) {
                    go.searchmoves.push(m);
                }
                if go.searchmoves.is_empty() {
                    return Err(CommandError::BadParameter("searchmoves needs moves"));
                }
            }
            "ponder" => go.ponder = true,
            "infinite" => limits.infinite = true,
            "rtime" => limits.red_ms = Some(time(value()?)?),
            "btime" => limits.black_ms = Some(time(value()?)?),
            "mtime" => limits.move_ms = Some(time(value()?)?),
            "otime" => limits.overtime_ms = Some(time(value()?)?),
            "movetime" => limits.movetime_ms = Some(time(value()?)?),
            // A count of 0 would search nothing, or, as a plugin reads 0 nodes or
            // plies, without end: each is refused as the `go mate 0` it resembles.
            "movestogo" => limits.moves_to_go = Some(positive(value()?, "movestogo needs at least one move")?),
            "depth" => limits.depth = Some(positive(value()?, "depth needs at least one ply")?),
            "nodes" => limits.nodes = Some(positive(value()?, "nodes needs at least one node")?),
            "mate" => limits.mate = Some(positive(value()?, "mate needs at least one move")?),
            _ => {
                return Err(CommandError::BadParameter(
                    "go takes searchmoves, ponder, rtime, btime, mtime, otime, movestogo, depth, nodes, mate, movetime and infinite",
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
fn parse_setoption(rest: &str) -> Result<Command<'_>, CommandError> {
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
    Ok(Command::SetOption { name, value })
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

/// `position cfen CFEN [moves M…]` or `position startpos [moves M…]`.
fn parse_position(rest: &str) -> Result<Command<'_>, CommandError> {
    const WHY: &str = "position needs cfen CFEN or startpos, then moves if any";
    let (setup, moves) = match rest.strip_prefix("moves") {
        Some(after) if after.is_empty() || after.starts_with(char::is_whitespace) => ("", Some(after)),
        _ => match find_word(rest, "moves") {
            Some((before, after)) => (before.trim(), Some(after)),
            None => (rest, None),
        },
    };
    let moves = moves.map(|m| m.split_whitespace().collect()).unwrap_or_default();
    let fen = match setup.split_once(char::is_whitespace) {
        Some(("cfen", fen)) if !fen.trim().is_empty() => Some(fen.trim()),
        None if setup == "startpos" => None,
        _ => return Err(CommandError::BadParameter(WHY)),
    };
    Ok(Command::Position { fen, moves })
}

/// `clock GAMECLOCK MOVECLOCK OVERTIME`, each in minutes (`60`), minutes and
/// seconds (`1:30`) or seconds alone (`:30`).
fn parse_clock(rest: &str) -> Result<Overtime, CommandError> {
    const WHY: &str = "clock needs GAMECLOCK MOVECLOCK OVERTIME in minutes or minutes:seconds";
    let mut parts = rest.split_whitespace();
    let (Some(game), Some(per_move), Some(overtime)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(CommandError::BadParameter(WHY));
    };
    if parts.next().is_some() {
        return Err(CommandError::TooManyParameters);
    }
    let ms = |text: &str| -> Result<u64, CommandError> {
        let (minutes, seconds) = text.split_once(':').unwrap_or((text, ""));
        let number = |digits: &str| -> Result<u64, CommandError> {
            if digits.is_empty() {
                return Ok(0);
            }
            if !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(CommandError::BadParameter(WHY));
            }
            digits.parse().map_err(|_| CommandError::BadParameter(WHY))
        };
        if text.is_empty() || text == ":" {
            return Err(CommandError::BadParameter(WHY));
        }
        Ok(number(minutes)?.saturating_mul(60_000).saturating_add(number(seconds)?.saturating_mul(1000)))
    };
    Ok(Overtime { game_ms: ms(game)?, move_ms: ms(per_move)?, overtime_ms: ms(overtime)? })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_reads_every_limit_and_searchmoves() {
        let Ok(Command::Go(go)) = Command::parse(
            "go searchmoves h2e2 b0c2 ponder rtime 1000 btime -5 mtime 300 otime 400 movestogo 5 depth 6 nodes 7 mate 2 movetime 250 infinite",
        ) else {
            panic!("not a go");
        };
        assert_eq!(go.searchmoves, ["h2e2", "b0c2"]);
        assert!(go.ponder && go.limits.infinite);
        let limits = go.limits;
        assert_eq!(
            (limits.red_ms, limits.black_ms, limits.move_ms, limits.overtime_ms),
            (Some(1000), Some(0), Some(300), Some(400))
        );
        assert_eq!(
            (limits.moves_to_go, limits.depth, limits.nodes, limits.mate, limits.movetime_ms),
            (Some(5), Some(6), Some(7), Some(2), Some(250))
        );
        assert_eq!(Command::parse("go"), Ok(Command::Go(Go::default())));
        assert!(Command::parse("go depth").is_err());
        assert!(Command::parse("go depth x").is_err());
        assert!(Command::parse("go searchmoves").is_err());
        for edge in ["0", "-1", "18446744073709551616", "1.5"] {
            for limit in ["mate", "nodes", "depth", "movestogo"] {
                assert!(Command::parse(&format!("go {limit} {edge}")).is_err(), "go {limit} {edge}");
            }
        }
        assert!(Command::parse("go movetime 99999999999999999999").is_err());
        assert!(Command::parse("go sideways").is_err());
    }

    #[test]
    fn setoption_names_may_hold_spaces_and_values_are_optional() {
        assert_eq!(
            Command::parse("setoption name Move overhead value 100"),
            Ok(Command::SetOption { name: "Move overhead", value: Some("100") })
        );
        assert_eq!(
            Command::parse("setoption name Rescan plugins"),
            Ok(Command::SetOption { name: "Rescan plugins", value: None })
        );
        assert_eq!(
            Command::parse("setoption name Book file value /tmp/my  book.bin"),
            Ok(Command::SetOption { name: "Book file", value: Some("/tmp/my  book.bin") })
        );
        assert_eq!(
            Command::parse("setoption name Values value 1"),
            Ok(Command::SetOption { name: "Values", value: Some("1") })
        );
        assert!(Command::parse("setoption Hash 5").is_err());
        assert!(Command::parse("setoption name").is_err());
        assert!(Command::parse("setoption name  value 3").is_err());
    }

    #[test]
    fn position_from_cfen_or_the_start_with_moves() {
        assert_eq!(
            Command::parse(
                "position cfen rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r 1 moves h2e2 h9g7"
            ),
            Ok(Command::Position {
                fen: Some("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r 1"),
                moves: vec!["h2e2", "h9g7"]
            })
        );
        assert_eq!(Command::parse("position startpos"), Ok(Command::Position { fen: None, moves: vec![] }));
        assert_eq!(Command::parse("position startpos moves"), Ok(Command::Position { fen: None, moves: vec![] }));
        assert_eq!(
            Command::parse("position startpos moves h2e2"),
            Ok(Command::Position { fen: None, moves: vec!["h2e2"] })
        );
        for bad in [
            "position",
            "position cfen",
            "position fen x",
            "position startpos x",
            "position moves h2e2",
            "position cfen moves h2e2",
        ] {
            assert!(Command::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_reads_minutes_and_seconds() {
        assert_eq!(
            Command::parse("clock 60 1 :30"),
            Ok(Command::Clock(Overtime { game_ms: 3_600_000, move_ms: 60_000, overtime_ms: 30_000 }))
        );
        assert_eq!(
            Command::parse("clock 1:30 0 0:05"),
            Ok(Command::Clock(Overtime { game_ms: 90_000, move_ms: 0, overtime_ms: 5000 }))
        );
        for bad in
            ["clock", "clock 1 2", "clock 1 2 3 4", "clock -1 1 1", "clock 1 : 1", "clock 1.5 1 1", "clock a 1 1"]
        {
            assert!(Command::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn garbage_never_panics() {
        for line in [
            "",
            " ",
            "cxboard",
            "cxboard x",
            "move",
            "move a b",
            "debug",
            "result 2-0",
            "\u{0}",
            "é",
            "go ponder ponder",
            "setoption name value",
            "position cfen é moves é",
        ] {
            let _ = Command::parse(line);
        }
        assert_eq!(Command::parse("frobnicate"), Err(CommandError::Unknown));
        assert_eq!(Command::parse("h2e2"), Err(CommandError::Unknown));
        assert_eq!(Command::parse("move h2e2"), Ok(Command::Move("h2e2")));
        assert_eq!(Command::parse("cxboard 1"), Ok(Command::Cxboard(1)));
    }
}
