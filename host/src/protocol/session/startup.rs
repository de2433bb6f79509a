//! The CECP session before the GUI listens: the saved settings and the command
//! line applied, what went wrong kept for after the features, the log handed
//! over, and the core handed to another front end when the GUI speaks another
//! protocol.

use super::Session;
use crate::{core::Core, logging::Logging, protocol::Reply};

impl Session {
    /// Saves settings to `path` from now on, and applies what it already holds;
    /// what could not be applied is told once the GUI listens.
    pub fn use_settings_file(&mut self, path: std::path::PathBuf) {
        self.core.use_settings_file(path);
        self.take_startup_notes();
    }

    /// Options from the command line, as `option NAME=VALUE` would set them; what
    /// is refused is told once the GUI listens (and on stderr).
    pub fn apply_command_line(&mut self, options: &[(String, String)]) {
        let said_before = std::mem::take(&mut self.out);
        for (name, value) in options {
            let line = format!("option {name}={value}");
            self.set_option(&line, name, (!value.is_empty()).then_some(value.as_str()));
            self.take_notes();
            for reply in std::mem::take(&mut self.out) {
                tracing::warn!(%reply, "said while applying the command line");
                let text = match &reply {
                    Reply::TellUserError(text) => text.clone(),
                    Reply::Error { .. } => reply.to_string(),
                    _ => continue,
                };
                eprintln!("plugboard: {text}");
                self.startup_notes.push(Reply::TellUserError(format!("Command line: {text}")));
            }
        }
        self.out = said_before;
    }

    /// Reads the user's variant definition files (the data folder's, and
    /// `PLUGBOARD_VARIANT_PATH`'s); what was refused is told once the GUI listens.
    pub fn load_variant_files(&mut self) {
        for problem in crate::variant_files::load_startup() {
            eprintln!("plugboard: variant definitions refused: {problem}");
            self.startup_notes.push(Reply::TellUserError(format!("Variant definitions refused: {problem}")));
        }
    }

    /// Lets the `Log folder` and `Log files` options move the log.
    pub fn use_logging(&mut self, logging: Logging, kept_files: usize) {
        self.core.use_logging(logging, kept_files);
    }

    /// The core, for another front end, with what the user must still read of
    /// what happened before the GUI listened (command line, saved settings).
    pub fn into_core(mut self) -> (Core, Vec<String>) {
        self.take_notes();
        let said = std::mem::take(&mut self.out).into_iter().chain(std::mem::take(&mut self.startup_notes));
        let texts = said
            .filter_map(|reply| match reply {
                Reply::TellUser(text) | Reply::TellUserError(text) => Some(text),
                _ => None,
            })
            .collect();
        (self.core, texts)
    }

    /// What the core said before the GUI could listen: what the user must read
    /// waits for the features; the rest is for the log only.
    fn take_startup_notes(&mut self) {
        let said_before = std::mem::take(&mut self.out);
        self.take_notes();
        for reply in std::mem::replace(&mut self.out, said_before) {
            if matches!(reply, Reply::TellUser(_) | Reply::TellUserError(_)) {
                self.startup_notes.push(reply);
            } else {
                tracing::info!(%reply, "said at start-up");
            }
        }
    }
}
