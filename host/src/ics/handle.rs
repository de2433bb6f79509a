//! Names that come from a chess server, and text we build from anything that is
//! not ours: what may be used in a message, and in what form.

/// The opponent's or partner's handle, if it looks like one: servers allow letters,
/// digits, `-` and `_`, starting with a letter, at most 20 characters. Anything
/// else is not used in any message.
pub fn valid_handle(name: &str) -> Option<&str> {
    let mut chars = name.chars();
    let first_is_letter = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    let rest_is_plain = chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    (first_is_letter && rest_is_plain && name.len() <= 20).then_some(name)
}

/// Text from a plugin's description (a file someone dropped in a folder) reduced
/// to what cannot read as a second command on a server: plain words only.
pub fn plain_words(text: &str, max_len: usize) -> String {
    let kept: String = text
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '+') { c } else { ' ' })
        .collect();
    let mut words = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    words.truncate(max_len);
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_plain_server_names() {
        assert_eq!(valid_handle("GuestXYZK"), Some("GuestXYZK"));
        assert_eq!(valid_handle("mann-2_b"), Some("mann-2_b"));
        assert_eq!(valid_handle(""), None);
        assert_eq!(valid_handle("2bad"), None);
        assert_eq!(valid_handle("evil; quit"), None);
        assert_eq!(valid_handle("a\ntellics quit"), None);
        assert_eq!(valid_handle("averyveryveryverylongname"), None);
    }

    #[test]
    fn plain_words_drop_separators_and_line_breaks() {
        assert_eq!(plain_words("pesto 1.0; tellics quit\n$set", 40), "pesto 1.0 tellics quit set");
        assert_eq!(plain_words("abcdef", 3), "abc");
    }
}
