//! The engine's own options, as opposed to a plugin's: the ones the host acts on
//! itself (time, the number of lines it asks the search for, its draw and resign
//! policy, what it says on a chess server, its debug log, its opening book).

use plugboard_plugin_api::OptionSpec;

use crate::book::Choice;

pub const OVERHEAD: &str = "Move overhead";
pub const MULTI_PV: &str = "MultiPV";
pub const THREADS: &str = "Threads";
pub const CONTEMPT: &str = "Contempt";
pub const DEBUG_OUTPUT: &str = "Debug output";
pub const LOG_FOLDER: &str = "Log folder";
pub const LOG_FILES: &str = "Log files";
pub const GREETING: &str = "ICS greeting";
pub const COMMENTARY: &str = "ICS commentary";
pub const RESIGN_THRESHOLD: &str = "Resign threshold";
pub const RESIGN_MOVES: &str = "Resign moves";
pub const DRAW_OFFERS: &str = "Offer draws";
pub const PARTNER_ASKS: &str = "Ask partner for pieces";
pub const BOOK_FILE: &str = "Book file";
pub const USE_BOOK: &str = "Use book";
pub const BOOK_DEPTH: &str = "Book depth";
pub const BOOK_CHOICE: &str = "Book choice";
pub const VARIANT_FILE: &str = "Variant file";
pub const EXTENDED_THINKING: &str = "Extended thinking";

const DEFAULT_OVERHEAD_MS: u64 = 50;
const DEFAULT_CONTEMPT_CP: i32 = 50;
const MAX_MULTI_PV: i64 = 64;
/// The most search threads the host asks for, whatever `cores` says.
pub const MAX_THREADS: u32 = 256;
pub const DEFAULT_LOG_FILES: u32 = 7;
/// `{opponent}` becomes the opponent's name when it is a valid server handle.
pub const DEFAULT_GREETING: &str = "Hello {opponent}, good luck and have fun!";
/// Nine pawns down for four moves in a row, as Crafty does it.
const DEFAULT_RESIGN_CP: i64 = 900;
const DEFAULT_RESIGN_MOVES: i64 = 4;
/// Polyglot's `BookDepth`: in practice, as long as the book lasts.
const DEFAULT_BOOK_DEPTH: i64 = 256;

/// Where the one-line summary of each of our moves goes on a chess server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Commentary {
    Off,
    /// `tellothers`: the server's `whisper`, for the spectators only.
    Whisper,
    /// `tellall`: the server's `kibitz`, for the opponent too.
    Kibitz,
}

impl Commentary {
    const CHOICES: [&str; 3] = ["whisper", "kibitz", "off"];

    fn name(self) -> &'static str {
        match self {
            Commentary::Whisper => "whisper",
            Commentary::Kibitz => "kibitz",
            Commentary::Off => "off",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostOptions {
    /// Held back from every move for the GUI's and the network's delays.
    pub overhead_ms: u64,
    /// Principal variations the search reports; 1 in play, more to analyse.
    pub multipv: u32,
    /// Search threads; CECP `cores` sets it too.
    pub threads: u32,
    /// How much worse than even the engine must stand before it takes a draw.
    pub contempt_cp: i32,
    /// Diagnostics also go to the GUI as `#` lines (when it accepted `debug`).
    pub debug_output: bool,
    /// Empty: the data folder's `logs`.
    pub log_folder: String,
    /// How many daily log files are kept.
    pub log_files: u32,
    pub greeting: String,
    pub commentary: Commentary,
    /// 0: never resign.
    pub resign_threshold_cp: i32,
    pub resign_moves: u32,
    pub draw_offers: bool,
    pub partner_asks: bool,
    /// A Polyglot book; empty: none.
    pub book_file: String,
    pub use_book: bool,
    /// The book is asked up to this move number.
    pub book_depth: u32,
    pub book_choice: Choice,
    /// Variant definitions of the user's (variants.ini format); empty: none.
    pub variant_file: String,
    /// CECP thinking lines carry selective depth, speed and tablebase hits
    /// before the PV; Scid reads them as the PV and marks it `illegal_pv!`.
    pub extended_thinking: bool,
}

impl Default for HostOptions {
    fn default() -> HostOptions {
        HostOptions {
            overhead_ms: DEFAULT_OVERHEAD_MS,
            multipv: 1,
            threads: 1,
            contempt_cp: DEFAULT_CONTEMPT_CP,
            debug_output: true,
            log_folder: String::new(),
            log_files: DEFAULT_LOG_FILES,
            greeting: DEFAULT_GREETING.to_owned(),
            commentary: Commentary::Whisper,
            resign_threshold_cp: DEFAULT_RESIGN_CP as i32,
            resign_moves: DEFAULT_RESIGN_MOVES as u32,
            draw_offers: true,
            partner_asks: true,
            book_file: String::new(),
            use_book: true,
            book_depth: DEFAULT_BOOK_DEPTH as u32,
            book_choice: Choice::default(),
            variant_file: String::new(),
            extended_thinking: true,
        }
    }
}

fn flag(on: bool) -> String {
    if on { "1" } else { "0" }.to_owned()
}

impl HostOptions {
    /// The options to advertise, with their current values.
    pub fn specs(&self) -> Vec<(OptionSpec, String)> {
        vec![
            (OptionSpec::spin(OVERHEAD, DEFAULT_OVERHEAD_MS as i64, 0, 5000), self.overhead_ms.to_string()),
            (OptionSpec::spin(MULTI_PV, 1, 1, MAX_MULTI_PV), self.multipv.to_string()),
            (OptionSpec::spin(THREADS, 1, 1, i64::from(MAX_THREADS)), self.threads.to_string()),
            (OptionSpec::file(BOOK_FILE, ""), self.book_file.clone()),
            (OptionSpec::check(USE_BOOK, true), flag(self.use_book)),
            (OptionSpec::file(VARIANT_FILE, ""), self.variant_file.clone()),
            (OptionSpec::spin(BOOK_DEPTH, DEFAULT_BOOK_DEPTH, 1, 999), self.book_depth.to_string()),
            (
                OptionSpec::combo(BOOK_CHOICE, Choice::default().name(), &Choice::NAMES),
                self.book_choice.name().to_owned(),
            ),
            (OptionSpec::spin(CONTEMPT, i64::from(DEFAULT_CONTEMPT_CP), -1000, 1000), self.contempt_cp.to_string()),
            (OptionSpec::spin(RESIGN_THRESHOLD, DEFAULT_RESIGN_CP, 0, 10_000), self.resign_threshold_cp.to_string()),
            (OptionSpec::spin(RESIGN_MOVES, DEFAULT_RESIGN_MOVES, 1, 50), self.resign_moves.to_string()),
            (OptionSpec::check(DRAW_OFFERS, true), flag(self.draw_offers)),
            (OptionSpec::string(GREETING, DEFAULT_GREETING), self.greeting.clone()),
            (OptionSpec::combo(COMMENTARY, "whisper", &Commentary::CHOICES), self.commentary.name().to_owned()),
            (OptionSpec::check(PARTNER_ASKS, true), flag(self.partner_asks)),
            (OptionSpec::check(EXTENDED_THINKING, true), flag(self.extended_thinking)),
            (OptionSpec::check(DEBUG_OUTPUT, true), flag(self.debug_output)),
            (OptionSpec::path(LOG_FOLDER, ""), self.log_folder.clone()),
            (OptionSpec::spin(LOG_FILES, i64::from(DEFAULT_LOG_FILES), 1, 365), self.log_files.to_string()),
        ]
    }

    /// Sets the option `name` to `text`, a value already checked against its
    /// spec (see [`HostOptions::specs`]).
    pub fn set(&mut self, name: &str, text: &str) -> Result<(), String> {
        let number = || text.parse::<i64>().map_err(|_| format!("{name} takes a number, not {text}"));
        match name {
            OVERHEAD => self.overhead_ms = number()? as u64,
            MULTI_PV => self.multipv = number()? as u32,
            THREADS => self.threads = number()? as u32,
            CONTEMPT => self.contempt_cp = number()? as i32,
            RESIGN_THRESHOLD => self.resign_threshold_cp = number()? as i32,
            RESIGN_MOVES => self.resign_moves = number()? as u32,
            BOOK_DEPTH => self.book_depth = number()? as u32,
            USE_BOOK => self.use_book = text == "1",
            BOOK_FILE => self.book_file = text.to_owned(),
            VARIANT_FILE => self.variant_file = text.to_owned(),
            BOOK_CHOICE => self.book_choice = Choice::from_name(text).unwrap_or_default(),
            LOG_FILES => self.log_files = number()? as u32,
            DRAW_OFFERS => self.draw_offers = text == "1",
            PARTNER_ASKS => self.partner_asks = text == "1",
            DEBUG_OUTPUT => self.debug_output = text == "1",
            EXTENDED_THINKING => self.extended_thinking = text == "1",
            GREETING => self.greeting = text.to_owned(),
            LOG_FOLDER => self.log_folder = text.to_owned(),
            COMMENTARY => {
                self.commentary = match text {
                    "kibitz" => Commentary::Kibitz,
                    "off" => Commentary::Off,
                    _ => Commentary::Whisper,
                }
            }
            _ => return Err(format!("{name} is no option of the engine's own")),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_option_is_read() {
        let mut options = HostOptions::default();
        options.set(COMMENTARY, "kibitz").unwrap();
        options.set(DEBUG_OUTPUT, "0").unwrap();
        options.set(GREETING, "Hi").unwrap();
        options.set(LOG_FILES, "3").unwrap();
        options.set(MULTI_PV, "4").unwrap();
        assert_eq!(options.commentary, Commentary::Kibitz);
        assert!(!options.debug_output);
        assert_eq!(options.greeting, "Hi");
        assert_eq!(options.log_files, 3);
        assert_eq!(options.multipv, 4);
        assert!(options.set(CONTEMPT, "lots").is_err());
        assert!(options.set("Hash", "4").is_err());
        assert_eq!(options.contempt_cp, DEFAULT_CONTEMPT_CP);
    }

    #[test]
    fn every_option_listed_is_one_set_reaches() {
        for (spec, value) in HostOptions::default().specs() {
            let mut options = HostOptions::default();
            assert_eq!(options.set(&spec.name, &value), Ok(()), "{}", spec.name);
        }
    }
}
