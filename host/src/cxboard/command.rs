//! GUI → engine under cxboard: one line in, one typed [`Command`] out. Never
//! panics; borrows its text from the line.

use crate::{
    clock::Overtime,
    protocol::command::command_word,
    uci::command::{parse_go, position_parts, setoption_parts},
};

/// `go` and what follows it on the line, as UCI has it.
pub use crate::uci::command::Go;

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

/// Why a line is no command we can carry out.
/// The errors are the CECP front end's: the same `Error (...)` kinds.
pub use crate::protocol::command::CommandError;

impl<'a> Command<'a> {
    pub fn parse(line: &'a str) -> Result<Command<'a>, CommandError> {
        let (word, rest) = command_word(line);
        let no_args =
            |command: Command<'a>| if rest.is_empty() { Ok(command) } else { Err(CommandError::TooManyParameters) };
        match word {
            "cxboard" => {
                let version = rest.parse().map_err(|_| CommandError::BadParameter("cxboard needs a version number"))?;
                Ok(Command::Cxboard(version))
            }
            "force" => no_args(Command::Force),
            "go" => parse_go(rest, &CLOCK_WORDS, |limits, word, ms| match word {
                "rtime" => limits.red_ms = Some(ms),
                "btime" => limits.black_ms = Some(ms),
                "mtime" => limits.move_ms = Some(ms),
                _ => limits.overtime_ms = Some(ms),
            })
            .map(Command::Go),
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
            "setoption" => setoption_parts(rest).map(|(name, value)| Command::SetOption { name, value }),
            "position" => position_parts(rest, "cfen").map(|(fen, moves)| Command::Position { fen, moves }),
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

/// cxboard's clock words: each side's time left, the most a move may take,
/// and the overtime of each move.
const CLOCK_WORDS: [&str; 4] = ["rtime", "btime", "mtime", "otime"];

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
