//! The variants there are to play: the built-in definitions (embedded
//! `variants.ini` text) and the files a user adds, each checked whole before
//! any of it is taken.

use std::sync::Arc;

use crate::definition::Variant;
use crate::definition::ini::{self, DefinitionError, Section};
use crate::definition::rules::Rules;
use crate::position::Position;

/// The built-in definitions.
pub const BUILTIN: &str = include_str!("../builtin/variants.ini");

/// Names that are the base of other definitions but no game of their own
/// here: chess itself is shakmaty's to play.
const BASES: [&str; 1] = ["chess"];

/// A variant with the definition it came from.
#[derive(Clone, Debug)]
struct Entry {
    section: Section,
    variant: Arc<Variant>,
    /// The sections it was built from, its parents' first.
    chain: String,
    builtin: bool,
    /// Made for a board size xboard asked for, not a game to announce.
    resized: bool,
}

/// Every variant defined as data.
#[derive(Clone, Debug)]
pub struct Catalog {
    entries: Vec<Entry>,
}

impl Catalog {
    /// The built-in variants.
    ///
    /// # Panics
    /// If the built-in definitions do not read, which their tests rule out.
    #[must_use]
    pub fn builtin() -> Catalog {
        let mut catalog = Catalog { entries: Vec::new() };
        if let Err(error) = catalog.add(BUILTIN, "built-in variants.ini", true) {
            panic!("the built-in definitions do not read: {error}");
        }
        catalog
    }

    /// Adds the variants of a user's file; returns their names. Nothing is
    /// added when any of the file is wrong.
    ///
    /// # Errors
    /// The first fault, with the file and line.
    pub fn add_file(&mut self, text: &str, file: &str) -> Result<Vec<String>, DefinitionError> {
        self.add(text, file, false)
    }

    /// Reads one variant's definition as [`Variant::definition`] holds it,
    /// with no catalog behind it.
    ///
    /// # Errors
    /// When the text does not define a variant.
    pub fn read_definition(text: &str) -> Result<Arc<Variant>, DefinitionError> {
        let mut catalog = Catalog { entries: Vec::new() };
        let names = catalog.add(text, "definition", true)?;
        let last = names.last().ok_or_else(|| DefinitionError {
            file: "definition".to_string(),
            line: 0,
            why: "it defines no variant".to_string(),
        })?;
        Ok(catalog.get(last).expect("just added").clone())
    }

    fn add(&mut self, text: &str, file: &str, builtin: bool) -> Result<Vec<String>, DefinitionError> {
        let parent_rules = |name: &str| -> Option<Rules> {
            self.entries.iter().find(|entry| entry.section.name == name).map(|entry| entry.section.rules.clone())
        };
        let sections = ini::read(text, file, &parent_rules)?;
        let mut added: Vec<Entry> = Vec::new();
        for section in sections {
            let fail = |why: String| DefinitionError { file: file.to_string(), line: section.line, why };
            if self.entries.iter().any(|entry| entry.section.name == section.name) {
                return Err(fail(format!("there is already a variant called {}", section.name)));
            }
            let parent_chain = section
                .parent
                .as_ref()
                .and_then(|parent| added.iter().chain(&self.entries).find(|entry| &entry.section.name == parent))
                .map(|entry| entry.chain.clone())
                .unwrap_or_default();
            let header = match &section.parent {
                Some(parent) => format!("[{}:{parent}]\n", section.name),
                None => format!("[{}]\n", section.name),
            };
            let chain = format!("{parent_chain}{header}{}", section.text);
            let variant = Variant::compile(&section.name, &section.rules, chain.clone()).map_err(fail)?;
            let variant = Arc::new(variant);
            Position::start(variant.clone())
                .map_err(|error| fail(format!("its start position {}: {error}", variant.start_fen)))?;
            added.push(Entry { section, variant, chain, builtin, resized: false });
        }
        let names = added.iter().map(|entry| entry.section.name.clone()).collect();
        self.entries.extend(added);
        Ok(names)
    }

    /// The variant called `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Arc<Variant>> {
        self.entries.iter().find(|entry| entry.section.name == name).map(|entry| &entry.variant)
    }

    /// The names of the games it offers, built-in first, in definition order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries
            .iter()
            .filter(|entry| !entry.resized)
            .map(|entry| entry.section.name.as_str())
            .filter(|name| !BASES.contains(name))
    }

    /// The variant `base` on a board of `files` × `ranks`, called `name` (added
    /// the first time it is asked for), with `template` the variant xboard
    /// takes its rules from ([`crate::definition::resize`]).
    ///
    /// # Errors
    /// When there is no variant `base`, or its start position does not fit.
    pub fn resized(
        &mut self,
        base: &str,
        name: &str,
        template: &str,
        files: u8,
        ranks: u8,
    ) -> Result<Arc<Variant>, DefinitionError> {
        let file = format!("{base} on {files}x{ranks}");
        let fail = |why: String| DefinitionError { file: file.clone(), line: 0, why };
        if let Some(entry) = self.entries.iter().find(|entry| entry.section.name == name) {
            return if entry.resized {
                Ok(entry.variant.clone())
            } else {
                Err(fail(format!("there is already a variant called {name}")))
            };
        }
        let variant = self.get(base).ok_or_else(|| fail(format!("no variant {base}")))?;
        let text = crate::definition::resize::section(variant, name, template, files, ranks).map_err(fail)?;
        self.add(&text, &file, true)?;
        let entry = self.entries.last_mut().expect("just added");
        entry.resized = true;
        Ok(entry.variant.clone())
    }

    /// Whether `name` came from a user's file rather than the built-in ones.
    #[must_use]
    pub fn is_users(&self, name: &str) -> bool {
        self.entries.iter().any(|entry| entry.section.name == name && !entry.builtin)
    }
}
