//! What the two sessions of UCI's form (UCI's own and cxboard's) do alike: what
//! the core said before the GUI listened, the `info string` lines most notes
//! become, the settings `Configure` lists, and the option list told again
//! when it changes after the greeting.

use crate::{
    core::{Core, Note, options::CONFIGURE},
    game::GameMove,
    quote::{QUOTED_CHARS, quote},
};

/// A line over the reader's limit, logged, and as the `Error (line too long)`
/// line quotes it: its start and its length.
pub(crate) fn overlong_line(start: &str, length: usize) -> String {
    tracing::warn!(length, start = %quote(start), "overlong line refused");
    let start: String = start.chars().take(QUOTED_CHARS / 2).collect();
    format!("{start}... ({length} bytes in all)")
}

/// What the core said while the session was made, kept for the user to read
/// after the greeting (the rest is logged).
pub(crate) fn startup_notes(core: &mut Core, startup: &mut Vec<String>) {
    for note in core.take_notes() {
        match note {
            Note::Tell(text) | Note::TellError(text) => startup.push(text),
            note => tracing::info!(?note, "said before the GUI listened"),
        }
    }
}

/// The `info string` lines `note` becomes in both protocols (`text` writes a
/// move), or the note back when each protocol says it its own way.
pub(crate) fn info_strings(note: Note, debug: bool, text: impl Fn(GameMove) -> String) -> Result<Vec<String>, Note> {
    let line = match note {
        // The note is CECP's thinking text, already in brackets.
        Note::Known(known) if known.note.starts_with('(') => format!("{} {}", text(known.m), known.note),
        Note::Known(known) => format!("{} ({})", text(known.m), known.note),
        Note::Unsearched(m) => format!("{} (no search)", text(m)),
        // The GUI judges the game; our claim is for people to read.
        Note::Result(end) => format!("{} {{{}}}", end.result, end.reason),
        // Neither protocol has a word for resigning; should it come, it is said, not done.
        Note::Resign => "the engine would resign here".into(),
        Note::Tell(message) => message,
        Note::TellError(message) => format!("Error: {message}"),
        Note::Debug(message) if debug => message,
        Note::Debug(_) => return Ok(Vec::new()),
        Note::Listing(rows) => return Ok(rows),
        Note::Status(status) => format!(
            "searched {} ms, {} nodes, depth {}, {} of {} moves left",
            status.time_ms, status.nodes, status.depth, status.moves_left, status.total_moves
        ),
        // Words for a chess server: there is none under these protocols.
        Note::Talk(talk) => {
            tracing::info!(?talk, "no chess server to tell");
            return Ok(Vec::new());
        }
        Note::VariantStart { fen } => format!("the game starts from {fen}"),
        note => return Err(note),
    };
    Ok(vec![line])
}

/// One setting of `Configure`'s value (`NAME=VALUE; NAME`), as the
/// `setoption` line that sets it: the line, the name and the value; `None`
/// for a `Configure` within it, which is refused.
pub(crate) type ConfigureStep = Option<(String, String, Option<String>)>;

pub(crate) fn configure_steps(settings: &str) -> Vec<ConfigureStep> {
    settings
        .split(';')
        .map(str::trim)
        .filter(|setting| !setting.is_empty())
        .map(|setting| {
            let (name, value) = match setting.split_once('=') {
                Some((name, value)) => (name.trim(), Some(value.trim())),
                None => (setting, None),
            };
            if name.eq_ignore_ascii_case(CONFIGURE) {
                return None;
            }
            let line = match value {
                Some(value) => format!("setoption name {name} value {value}"),
                None => format!("setoption name {name}"),
            };
            Some((line, name.to_owned(), value.map(str::to_owned)))
        })
        .collect()
}

/// The option list after a change (another plugin chosen, a rescan, a
/// fault), told as `info string` lines that no GUI mistakes for declarations,
/// since both protocols declare options only in the greeting; nothing when it
/// is what the GUI was last told and it did not forget it (`purged`).
pub(crate) fn options_told_again(lines: Vec<String>, advertised: &mut Vec<String>, purged: bool) -> Vec<String> {
    if lines == *advertised && !purged {
        return Vec::new();
    }
    let mut told = vec!["the options are now:".to_owned()];
    told.extend(lines.iter().map(|line| format!("option {line}")));
    *advertised = lines;
    told
}
