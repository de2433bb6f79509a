//! How much of a text from elsewhere (a GUI's line, a file, a plugin) is shown
//! back: a person reads it, and a line of megabytes must not be echoed whole.

/// How much of a line from elsewhere is quoted back, in a reply or the log.
pub const QUOTED_CHARS: usize = 200;

/// How much of a message to the user is shown: a dialog of a few lines. Every
/// message is shorter, unless something from elsewhere slipped in whole.
pub const TOLD_CHARS: usize = 1000;

/// At most [`QUOTED_CHARS`] characters of `text`, and how long it was when cut.
pub fn quote(text: &str) -> std::borrow::Cow<'_, str> {
    quote_up_to(text, QUOTED_CHARS)
}

/// At most `chars` characters of `text`, and how long it was when cut.
pub fn quote_up_to(text: &str, chars: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(chars) {
        None => text.into(),
        Some((cut, _)) => format!("{}... ({} bytes in all)", &text[..cut], text.len()).into(),
    }
}
