//! Reading a `variants.ini` file: `[name]` or `[name:parent]` sections of
//! `key = value` lines, `#` and `;` comment lines, as Fairy-Stockfish reads them.
//! A section starts from its parent's rules (a built-in variant or one defined
//! above it), or from Fairy-Stockfish's default template when it has none.

use std::fmt;

use super::keys;
use super::rules::Rules;

/// A definition that cannot be read: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinitionError {
    pub file: String,
    /// From 1; 0 when the fault is the file's as a whole.
    pub line: usize,
    pub why: String,
}

impl fmt::Display for DefinitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.why)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.why)
        }
    }
}

impl std::error::Error for DefinitionError {}

/// One section of a file, with its rules applied on top of its parent's.
#[derive(Clone, Debug)]
pub struct Section {
    pub name: String,
    pub parent: Option<String>,
    /// The line of its `[name]` header.
    pub line: usize,
    pub rules: Rules,
    /// Its own lines, as written (comments dropped), for handing the
    /// definition on whole.
    pub text: String,
}

/// Longest variant name accepted: CECP lists names in one `feature` line.
pub const MAX_NAME: usize = 40;

/// Whether `name` can be a variant's name on a CECP line: letters, digits, `_`, `-`.
#[must_use]
pub fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-')
}

struct Pending {
    name: String,
    parent: Option<String>,
    line: usize,
    entries: Vec<(usize, String, String)>,
    text: String,
}

/// The sections of `text`, read from the file called `file`. `parent_rules`
/// gives the rules of a parent not defined in this file (`None`: unknown).
///
/// # Errors
/// The first fault, with its line: text outside a section, a malformed line, an
/// unknown parent or key, a value of the wrong form, or a rule not played here.
pub fn read(
    text: &str,
    file: &str,
    parent_rules: &dyn Fn(&str) -> Option<Rules>,
) -> Result<Vec<Section>, DefinitionError> {
    let fail = |line: usize, why: String| DefinitionError { file: file.to_string(), line, why };
    let mut sections: Vec<Section> = Vec::new();
    let mut pending: Option<Pending> = None;
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(header) = line.strip_prefix('[') {
            let Some(header) = header.strip_suffix(']') else {
                return Err(fail(number, format!("'{line}' opens a section but does not close it with ]")));
            };
            if let Some(done) = pending.take() {
                sections.push(finish(done, &sections, parent_rules, &fail)?);
            }
            let (name, parent) = match header.split_once(':') {
                Some((name, parent)) => (name.trim(), Some(parent.trim().to_string())),
                None => (header.trim(), None),
            };
            if !is_valid_name(name) {
                return Err(fail(
                    number,
                    format!("'{name}' cannot name a variant: use up to {MAX_NAME} letters, digits, _ or -"),
                ));
            }
            if sections.iter().any(|section| section.name == name) {
                return Err(fail(number, format!("variant '{name}' is defined twice in this file")));
            }
            pending = Some(Pending {
                name: name.to_string(),
                parent,
                line: number,
                entries: Vec::new(),
                text: String::new(),
            });
            continue;
        }
        let Some(section) = pending.as_mut() else {
            return Err(fail(number, format!("'{line}' comes before any [variant] section")));
        };
        let Some((key, value)) = line.split_once('=') else {
            return Err(fail(number, format!("'{line}' is not a key = value line")));
        };
        let (key, value) = (key.trim(), value.trim());
        if key.is_empty() {
            return Err(fail(number, format!("'{line}' has no key before =")));
        }
        section.text.push_str(key);
        section.text.push_str(" = ");
        section.text.push_str(value);
        section.text.push('\n');
        section.entries.push((number, key.to_string(), value.to_string()));
    }
    if let Some(done) = pending.take() {
        sections.push(finish(done, &sections, parent_rules, &fail)?);
    }
    Ok(sections)
}

fn finish(
    pending: Pending,
    earlier: &[Section],
    parent_rules: &dyn Fn(&str) -> Option<Rules>,
    fail: &dyn Fn(usize, String) -> DefinitionError,
) -> Result<Section, DefinitionError> {
    let mut rules = match &pending.parent {
        None => Rules::default(),
        Some(parent) => earlier
            .iter()
            .rev()
            .find(|section| &section.name == parent)
            .map(|section| section.rules.clone())
            .or_else(|| parent_rules(parent))
            .ok_or_else(|| fail(pending.line, format!("no variant '{parent}' to inherit from")))?,
    };
    // Pieces first, as Fairy-Stockfish reads them, so that the other keys may
    // name pieces by the letters this section gives them.
    for (line, key, value) in pending.entries.iter().filter(|(_, key, _)| keys::is_piece_key(key)) {
        keys::apply_piece(&mut rules, key, value).map_err(|why| fail(*line, why))?;
    }
    for (line, key, value) in pending.entries.iter().filter(|(_, key, _)| !keys::is_piece_key(key)) {
        keys::apply(&mut rules, key, value).map_err(|why| fail(*line, why))?;
    }
    Ok(Section { name: pending.name, parent: pending.parent, line: pending.line, rules, text: pending.text })
}
