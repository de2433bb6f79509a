//! GUI → engine: one line in, one typed [`Command`] out. Never panics.

use std::fmt;

/// A command from the GUI, borrowing its text from the line.
#[derive(Debug, Clone, PartialEq)]
pub enum Command<'a> {
    Xboard,
    Protover(u32),
    Accepted(&'a str),
    Rejected(&'a str),
    New,
    Variant(&'a str),
    Quit,
    Random,
    Force,
    Go,
    PlayOther,
    White,
    Black,
    Level {
        moves_per_session: u32,
        base_ms: u64,
        increment_ms: u64,
    },
    SecondsPerMove {
        ms: u64,
    },
    Depth(u32),
    Nps(u64),
    Time {
        centiseconds: i64,
    },
    Otim {
        centiseconds: i64,
    },
    /// A move, sent bare or after `usermove`.
    Move(&'a str),
    MoveNow,
    Ping(&'a str),
    Draw,
    Result {
        result: &'a str,
        comment: &'a str,
    },
    SetBoard(&'a str),
    Hint,
    Bk,
    Undo,
    Remove,
    Hard,
    Easy,
    Post,
    NoPost,
    Analyze,
    Exit,
    AnalysisStatus,
    Name(&'a str),
    Rating {
        own: i32,
        opponent: i32,
    },
    /// `ratings WHITE BLACK` (Muller's document): by colour, not by side.
    Ratings {
        white: i32,
        black: i32,
    },
    Ics(&'a str),
    Computer,
    /// `partner NAME` (bughouse), or `partner` alone: no partner any more.
    Partner(Option<&'a str>),
    /// What the bughouse partner told us.
    Ptell(&'a str),
    Memory {
        mb: u32,
    },
    Cores(u32),
    EgtPath {
        kind: &'a str,
        path: &'a str,
    },
    Option {
        name: &'a str,
        value: Option<&'a str>,
    },
    /// Protocol 1's position set-up; the lines up to `.` follow.
    Edit,
    Pause,
    Resume,
    /// `exclude MOVE` or `exclude all` (`None`).
    Exclude(Option<&'a str>),
    Include(Option<&'a str>),
    SetScore {
        centipawns: i32,
        depth: u32,
    },
    Lift(&'a str),
    Put(&'a str),
    Hover(&'a str),
    /// `holding [WHITE] [BLACK]`, perhaps followed by the piece just gained.
    Holding {
        white: &'a str,
        black: &'a str,
    },
}

/// Why a line is not a command we can carry out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandError {
    Unknown,
    BadParameter(&'static str),
    TooManyParameters,
}

impl CommandError {
    /// The `Error (...)` kind the protocol uses.
    pub fn kind(&self) -> &'static str {
        match self {
            CommandError::Unknown => "unknown command",
            CommandError::BadParameter(_) => "bad parameter",
            CommandError::TooManyParameters => "too many parameters",
        }
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown => f.write_str("unknown command"),
            CommandError::BadParameter(why) => write!(f, "bad parameter: {why}"),
            CommandError::TooManyParameters => f.write_str("too many parameters"),
        }
    }
}

/// A command line's first word, and the rest of it, each trimmed.
pub(crate) fn command_word(line: &str) -> (&str, &str) {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (line, ""),
    }
}

impl<'a> Command<'a> {
    pub fn parse(line: &'a str) -> Result<Command<'a>, CommandError> {
        let (word, rest) = command_word(line);
        let no_args =
            |command: Command<'a>| if rest.is_empty() { Ok(command) } else { Err(CommandError::TooManyParameters) };
        match word {
            "xboard" => no_args(Command::Xboard),
            "protover" => Ok(Command::Protover(number(rest, "protover needs a version number")?)),
            "accepted" => Ok(Command::Accepted(rest)),
            "rejected" => Ok(Command::Rejected(rest)),
            "new" => no_args(Command::New),
            "variant" => non_empty(rest, "variant needs a name").map(Command::Variant),
            "quit" => no_args(Command::Quit),
            "random" => no_args(Command::Random),
            "force" => no_args(Command::Force),
            "go" => no_args(Command::Go),
            "playother" => no_args(Command::PlayOther),
            "white" => no_args(Command::White),
            "black" => no_args(Command::Black),
            "level" => parse_level(rest),
            "st" => {
                let seconds: f64 = number(rest, "st needs seconds")?;
                if !(seconds.is_finite() && seconds > 0.0) {
                    return Err(CommandError::BadParameter("st needs a positive number of seconds"));
                }
                Ok(Command::SecondsPerMove { ms: (seconds * 1000.0).min(1e12) as u64 })
            }
            "sd" => Ok(Command::Depth(number(rest, "sd needs a depth")?)),
            "nps" => Ok(Command::Nps(number(rest, "nps needs a number")?)),
            "time" => Ok(Command::Time { centiseconds: number(rest, "time needs centiseconds")? }),
            "otim" => Ok(Command::Otim { centiseconds: number(rest, "otim needs centiseconds")? }),
            "usermove" => non_empty(rest, "usermove needs a move").map(Command::Move),
            "?" => no_args(Command::MoveNow),
            "ping" => Ok(Command::Ping(rest)),
            "draw" => no_args(Command::Draw),
            "result" => {
                let (result, comment) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                match result {
                    "1-0" | "0-1" | "1/2-1/2" | "*" => Ok(Command::Result { result, comment: comment.trim() }),
                    _ => Err(CommandError::BadParameter("result must be 1-0, 0-1, 1/2-1/2 or *")),
                }
            }
            "setboard" => non_empty(rest, "setboard needs a FEN").map(Command::SetBoard),
            "hint" => no_args(Command::Hint),
            "bk" => no_args(Command::Bk),
            "undo" => no_args(Command::Undo),
            "remove" => no_args(Command::Remove),
            "hard" => no_args(Command::Hard),
            "easy" => no_args(Command::Easy),
            "post" => no_args(Command::Post),
            "nopost" => no_args(Command::NoPost),
            "analyze" => no_args(Command::Analyze),
            "exit" => no_args(Command::Exit),
            "." => no_args(Command::AnalysisStatus),
            "name" => Ok(Command::Name(rest)),
            "rating" | "ratings" => {
                let mut parts = rest.split_whitespace();
                let first = parts.next().and_then(|p| p.parse().ok());
                let second = parts.next().and_then(|p| p.parse().ok());
                match (first, second, word) {
                    (Some(own), Some(opponent), "rating") => Ok(Command::Rating { own, opponent }),
                    (Some(white), Some(black), _) => Ok(Command::Ratings { white, black }),
                    _ => Err(CommandError::BadParameter("rating and ratings need two numbers")),
                }
            }
            "ics" => Ok(Command::Ics(rest)),
            "computer" => no_args(Command::Computer),
            "partner" => Ok(Command::Partner((!rest.is_empty()).then_some(rest))),
            "ptell" => Ok(Command::Ptell(rest)),
            "memory" => Ok(Command::Memory { mb: number(rest, "memory needs megabytes")? }),
            "cores" => {
                let cores: u32 = number(rest, "cores needs a number")?;
                if cores == 0 {
                    return Err(CommandError::BadParameter("cores must be at least 1"));
                }
                Ok(Command::Cores(cores))
            }
            "egtpath" => {
                let (kind, path) = rest
                    .split_once(char::is_whitespace)
                    .ok_or(CommandError::BadParameter("egtpath needs a type and a path"))?;
                Ok(Command::EgtPath { kind, path: path.trim() })
            }
            "option" => {
                let (name, value) = match rest.split_once('=') {
                    Some((name, value)) => (name.trim(), Some(value.trim())),
                    None => (rest, None),
                };
                non_empty(name, "option needs a name")?;
                Ok(Command::Option { name, value })
            }
            "edit" => no_args(Command::Edit),
            "pause" => no_args(Command::Pause),
            "resume" => no_args(Command::Resume),
            "exclude" => {
                non_empty(rest, "exclude needs a move or all").map(|m| Command::Exclude((m != "all").then_some(m)))
            }
            "include" => {
                non_empty(rest, "include needs a move or all").map(|m| Command::Include((m != "all").then_some(m)))
            }
            "setscore" => {
                let mut parts = rest.split_whitespace();
                let centipawns = parts.next().and_then(|p| p.parse().ok());
                let depth = parts.next().map_or(Some(0), |p| p.parse().ok());
                match (centipawns, depth, parts.next()) {
                    (_, _, Some(_)) => Err(CommandError::TooManyParameters),
                    (Some(centipawns), Some(depth), None) => Ok(Command::SetScore { centipawns, depth }),
                    _ => Err(CommandError::BadParameter("setscore needs a score in centipawns")),
                }
            }
            "lift" => square(rest).map(Command::Lift),
            "put" => square(rest).map(Command::Put),
            "hover" => square(rest).map(Command::Hover),
            "holding" => parse_holding(rest),
            _ if rest.is_empty() && looks_like_move(word) => Ok(Command::Move(word)),
            _ => Err(CommandError::Unknown),
        }
    }
}

fn number<T: std::str::FromStr>(text: &str, why: &'static str) -> Result<T, CommandError> {
    text.split_whitespace().next().and_then(|t| t.parse().ok()).ok_or(CommandError::BadParameter(why))
}

/// A square on any board the protocol names: files from `a`, ranks from `1`, or
/// from `0` on boards of ten ranks (xiangqi's `e0`); whether the game's board has
/// it is the game's to say.
fn square(text: &str) -> Result<&str, CommandError> {
    match text.as_bytes() {
        [file, rank] if is_square(*file, *rank) => Ok(text),
        _ => Err(CommandError::BadParameter("a square like e4 is needed")),
    }
}

fn is_square(file: u8, rank: u8) -> bool {
    (b'a'..=b'p').contains(&file) && rank.is_ascii_digit()
}

/// `holding [PPN] [q] WN`: the brackets hold piece letters; the gained piece after them is news only.
fn parse_holding(rest: &str) -> Result<Command<'_>, CommandError> {
    const WHY: &str = "holding needs [WHITE] [BLACK] piece letters";
    fn bracketed(text: &str) -> Option<(&str, &str)> {
        let inner = text.trim_start().strip_prefix('[')?;
        let (pieces, after) = inner.split_once(']')?;
        pieces.chars().all(|c| "PNBRQKpnbrqk".contains(c)).then_some((pieces, after))
    }
    let (white, rest) = bracketed(rest).ok_or(CommandError::BadParameter(WHY))?;
    let (black, rest) = bracketed(rest).ok_or(CommandError::BadParameter(WHY))?;
    let mut news = rest.split_whitespace();
    match (news.next().map(str::as_bytes), news.next()) {
        (_, Some(_)) => Err(CommandError::TooManyParameters),
        (None | Some([b'W' | b'B', b'P' | b'N' | b'B' | b'R' | b'Q' | b'K']), None) => {
            Ok(Command::Holding { white, black })
        }
        (Some(_), None) => Err(CommandError::BadParameter("the piece gained is a colour and a piece, like WP")),
    }
}

fn non_empty<'a>(text: &'a str, why: &'static str) -> Result<&'a str, CommandError> {
    if text.is_empty() { Err(CommandError::BadParameter(why)) } else { Ok(text) }
}

/// `level MPS BASE INC`, BASE as minutes or MIN:SEC, INC in (possibly fractional) seconds.
fn parse_level(rest: &str) -> Result<Command<'_>, CommandError> {
    const WHY: &str = "level needs MPS BASE INC";
    let mut parts = rest.split_whitespace();
    let (Some(mps), Some(base), Some(inc)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(CommandError::BadParameter(WHY));
    };
    if parts.next().is_some() {
        return Err(CommandError::TooManyParameters);
    }
    let moves_per_session: u32 = mps.parse().map_err(|_| CommandError::BadParameter(WHY))?;
    // "Engines are encouraged to ignore any unexpected characters at the end" of BASE
    // (`25+5` may one day name the next session's time).
    let base = base.find(|c: char| !(c.is_ascii_digit() || c == ':' || c == '.')).map_or(base, |end| &base[..end]);
    let base_ms = match base.split_once(':') {
        Some((minutes, seconds)) => {
            let minutes: u64 = minutes.parse().map_err(|_| CommandError::BadParameter(WHY))?;
            let seconds: u64 = seconds.parse().map_err(|_| CommandError::BadParameter(WHY))?;
            minutes.saturating_mul(60_000).saturating_add(seconds.saturating_mul(1000))
        }
        None => {
            let minutes: f64 = base.parse().map_err(|_| CommandError::BadParameter(WHY))?;
            if !(minutes.is_finite() && minutes >= 0.0) {
                return Err(CommandError::BadParameter(WHY));
            }
            (minutes * 60_000.0).min(1e15) as u64
        }
    };
    let increment: f64 = inc.parse().map_err(|_| CommandError::BadParameter(WHY))?;
    if !(increment.is_finite() && increment >= 0.0) {
        return Err(CommandError::BadParameter(WHY));
    }
    Ok(Command::Level { moves_per_session, base_ms, increment_ms: (increment * 1000.0).min(1e15) as u64 })
}

/// Coordinate moves (`e2e4`, `e7e8q`, `e7e8=q`, xiangqi's `h2e2`) and castling
/// words, sent without `usermove`.
fn looks_like_move(word: &str) -> bool {
    if matches!(word, "O-O" | "O-O-O" | "o-o" | "o-o-o" | "0-0" | "0-0-0" | "@@@@") {
        return true;
    }
    // A square with a rank of one or two digits (`d12` on chu's board); what is left.
    fn square(bytes: &[u8]) -> Option<&[u8]> {
        match bytes {
            [file, tens, units, rest @ ..] if is_square(*file, *tens) && units.is_ascii_digit() => Some(rest),
            [file, rank, rest @ ..] if is_square(*file, *rank) => Some(rest),
            _ => None,
        }
    }
    // A move of legs, `d4c3,c3d4`: each leg but the last two squares.
    if let Some((first, rest)) = word.split_once(',') {
        let first = first.as_bytes();
        return square(first).and_then(square) == Some(&[]) && looks_like_move(rest);
    }
    let bytes = word.as_bytes();
    // A drop from the hand: crazyhouse's `N@e6`, shogi's `P@e5`.
    if let [piece, b'@', rest @ ..] = bytes {
        return piece.is_ascii_alphabetic() && square(rest) == Some(&[]);
    }
    match square(bytes).and_then(square) {
        // A promotion's piece (`a7a8q`, `a7a8=q`), shogi's `+`, or `=` alone for declining it.
        Some(rest) => {
            matches!(rest, [] | [b'+'] | [b'='] | [b'=', b'a'..=b'z' | b'A'..=b'Z'])
                || matches!(rest, [p] if p.is_ascii_alphabetic())
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_accepts_minutes_seconds_and_fractional_increment() {
        assert_eq!(
            Command::parse("level 40 5 0"),
            Ok(Command::Level { moves_per_session: 40, base_ms: 300_000, increment_ms: 0 })
        );
        assert_eq!(
            Command::parse("level 0 2:30 0.5"),
            Ok(Command::Level { moves_per_session: 0, base_ms: 150_000, increment_ms: 500 })
        );
        assert!(Command::parse("level 0 x 1").is_err());
        assert!(Command::parse("level 0 1").is_err());
    }

    #[test]
    fn moves_bare_and_with_usermove() {
        assert_eq!(Command::parse("e2e4"), Ok(Command::Move("e2e4")));
        assert_eq!(Command::parse("e7e8q"), Ok(Command::Move("e7e8q")));
        assert_eq!(Command::parse("usermove g1f3"), Ok(Command::Move("g1f3")));
        assert_eq!(Command::parse("O-O"), Ok(Command::Move("O-O")));
        // Squares of any board: the game says whether it has them.
        assert_eq!(Command::parse("h2e2"), Ok(Command::Move("h2e2")));
        assert_eq!(Command::parse("b0c2"), Ok(Command::Move("b0c2")));
        // Moves of legs and the null move.
        assert_eq!(Command::parse("d4c3,c3d4"), Ok(Command::Move("d4c3,c3d4")));
        assert_eq!(Command::parse("usermove d12d11,d11c10+"), Ok(Command::Move("d12d11,d11c10+")));
        assert_eq!(Command::parse("@@@@"), Ok(Command::Move("@@@@")));
        assert_eq!(Command::parse("d4c3q,c3d4"), Err(CommandError::Unknown));
        assert_eq!(Command::parse("d4c3,"), Err(CommandError::Unknown));
        assert_eq!(Command::parse("e2e"), Err(CommandError::Unknown));
        assert_eq!(Command::parse("z2e4"), Err(CommandError::Unknown));
        assert_eq!(Command::parse("usermove"), Err(CommandError::BadParameter("usermove needs a move")));
    }

    #[test]
    fn options_with_and_without_values() {
        assert_eq!(
            Command::parse("option Evaluation=material"),
            Ok(Command::Option { name: "Evaluation", value: Some("material") })
        );
        assert_eq!(
            Command::parse("option Rescan plugins"),
            Ok(Command::Option { name: "Rescan plugins", value: None })
        );
    }

    #[test]
    fn garbage_never_panics() {
        for line in ["", " ", "level", "st -1", "st nan", "sd 99999999999", "time", "ping", "result 2-0", "\u{0}", "é"]
        {
            let _ = Command::parse(line);
        }
        assert_eq!(Command::parse("frobnicate"), Err(CommandError::Unknown));
        assert!(matches!(Command::parse("st inf"), Err(CommandError::BadParameter(_))));
    }
}
