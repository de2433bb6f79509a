//! The engine core: the game, the clock, the searches, what the engine knows
//! without searching, the plugins and every option, and the chess-server
//! policy, driven by typed requests and answering with typed [`Note`]s. It knows
//! no protocol's text: a front end (`protocol/` for CECP) turns lines into
//! requests and notes into lines. Its parts are sub-states that return outcomes;
//! the decisions are the core's own: requests here, moves in `play.rs`, what an
//! option or file change brings about in `configuration.rs`.

pub mod answer;
mod configuration;
pub mod knowledge;
pub mod note;
pub mod options;
mod play;
mod recovery;
mod resources;
pub mod searches;
pub mod setup;
mod wall_clock;

use std::{path::PathBuf, sync::mpsc::Sender};

use shakmaty::Color;

use self::{
    answer::Answering,
    knowledge::Knowledge,
    options::Options,
    searches::{Launcher, Purpose, Searches},
    setup::Setup,
};
pub use self::{
    note::{Applied, Note, Refusal},
    options::{Changed, Refused},
    wall_clock::{SystemClock, WallClock},
};
use crate::{
    clock::Clock,
    event::Event,
    game::{Game, GameMove},
    ics::{self, Ics},
    logging::Logging,
    plugins::{Kind, PluginHost, file_options::FileOptionCalls},
    quote::quote,
};

pub const ENGINE_NAME: &str = concat!("Plugboard ", env!("CARGO_PKG_VERSION"));
/// More nodes a second than any engine searches on a PC: a higher `nps` would
/// make the node budget of a move last for hours of wall time.
const MAX_NPS: u64 = 50_000_000;

pub struct Core {
    /// Where work that outlasts its patience (a book, tables, a scan) reports.
    inbox: Sender<Event>,
    wall_clock: Box<dyn WallClock>,
    out: Vec<Note>,
    plugins: PluginHost,
    setup: Setup,
    clock: Clock,
    options: Options,
    engine_side: Option<Color>,
    /// `ratings WHITE BLACK`, told before the engine's side may be known.
    player_ratings: Option<(i32, i32)>,
    analyzing: bool,
    ponder: bool,
    random: bool,
    hash_mb: u32,
    /// The whole footprint CECP's `memory` allows, when the GUI sent one.
    memory_mb: Option<u32>,
    clear_hash: bool,
    searches: Searches,
    /// The reply the last search expects: shown by `hint`, pondered on.
    expected_reply: Option<GameMove>,
    /// In a drawn tablebase position, the moves that keep the draw: our search
    /// chooses among them only.
    drawing_moves: Vec<GameMove>,
    /// The score of our last search for a move, in centipawns for us.
    last_score: Option<i32>,
    /// Where we play and against whom, and what we say there.
    pub ics: Ics,
    knowledge: Knowledge,
    logging: Option<Logging>,
    /// Where `Save settings` writes, if anywhere.
    settings_path: Option<PathBuf>,
    /// Files handed to plugins' options, read off the thread that answers the GUI.
    file_options: FileOptionCalls,
    /// Searches whose outcome is reported (cxboard's `go`, `score`).
    answering: Answering,
    /// Which moves of a variant defined as data the GUI refereeing the game
    /// carries out otherwise than the rules do; set by the front end.
    gui_misapplies: Option<MisappliedMoves>,
    quit: bool,
}

/// Whether the GUI would carry out a move of the variant otherwise than its rules do.
pub type MisappliedMoves = fn(&plugboard_variants::Variant, &plugboard_variants::Move) -> bool;

impl Core {
    /// A core over `plugins`, its searches started by `launcher`, reading the
    /// time of day from `clock`; work on files reports late results to `inbox`.
    pub fn new(
        inbox: Sender<Event>,
        plugins: PluginHost,
        launcher: Box<dyn Launcher>,
        clock: Box<dyn WallClock>,
    ) -> Core {
        let seed = clock.entropy();
        let mut core = Core {
            wall_clock: clock,
            inbox,
            out: Vec::new(),
            plugins,
            setup: Setup::default(),
            clock: Clock::default(),
            options: Options::default(),
            engine_side: Some(Color::Black),
            player_ratings: None,
            analyzing: false,
            ponder: false,
            random: false,
            hash_mb: 64,
            memory_mb: None,
            clear_hash: true,
            searches: Searches::new(launcher),
            expected_reply: None,
            drawing_moves: Vec::new(),
            last_score: None,
            ics: Ics::default(),
            knowledge: Knowledge::new(seed),
            logging: None,
            settings_path: None,
            file_options: FileOptionCalls::default(),
            answering: Answering::default(),
            gui_misapplies: None,
            quit: false,
        };
        core.report_plugins();
        core
    }

    /// Tells the core which moves the GUI misapplies, so that our own moves
    /// avoid them where another move is legal.
    pub fn avoid_moves_the_gui_misapplies(&mut self, misapplies: MisappliedMoves) {
        self.gui_misapplies = Some(misapplies);
    }

    /// What the core said since the last call, in order.
    pub fn take_notes(&mut self) -> Vec<Note> {
        std::mem::take(&mut self.out)
    }

    fn note(&mut self, note: Note) {
        self.out.push(note);
    }

    fn debug(&mut self, text: String) {
        tracing::debug!("{text}");
        if self.options.host.debug_output {
            self.note(Note::Debug(text));
        }
    }

    pub fn game(&self) -> &Game {
        self.setup.game()
    }

    /// Whether moves can be played: false after a position that was refused.
    pub fn position_valid(&self) -> bool {
        self.setup.is_valid()
    }

    pub fn wants_to_quit(&self) -> bool {
        self.quit
    }

    /// Whether a search is running that the core still waits for.
    pub fn is_searching(&self) -> bool {
        self.searches.running().is_some()
    }

    /// The number of the search the core waits for, if any.
    pub fn search_id(&self) -> Option<u64> {
        self.searches.running().map(|running| running.id)
    }

    /// Whether the engine is thinking about its own move (not pondering, not analysing).
    pub fn thinking_on_move(&self) -> bool {
        self.searches.is_running(|purpose| purpose == Purpose::Move)
    }

    /// The reply we expect to our last move, if it is legal in the position now.
    pub fn hint(&self) -> Option<GameMove> {
        self.expected_reply.filter(|&m| self.game().is_legal(m))
    }

    /// Whether thinking lines carry the fields after the standard four (`Extended thinking`).
    pub fn extended_thinking(&self) -> bool {
        self.options.host.extended_thinking
    }

    /// Every option, under its unique name, with its value.
    pub fn options(&self) -> Vec<options::Entry> {
        self.options.entries(&self.plugins)
    }

    /// The option `name` names: the one so spelt, else the one spelt so but
    /// for case (lichess-bot sends UCI's `Move Overhead` for `Move overhead`).
    pub fn option_named(&self, name: &str) -> Option<String> {
        let entries = self.options();
        // An exact match first: two names may differ in case alone.
        let exact = entries.iter().find(|entry| entry.spec.name.as_str() == name);
        exact
            .or_else(|| entries.iter().find(|entry| entry.spec.name.eq_ignore_ascii_case(name)))
            .map(|entry| entry.spec.name.to_string())
    }

    /// What the usable search plugins can play, as far as the host knows the rules.
    pub fn variants(&self) -> Vec<String> {
        let mut variants = Vec::new();
        for name in self.plugins.variants() {
            // A search that plays `defined` plays every variant defined as data.
            if name == plugboard_plugin_api::Variant::DEFINED.cecp_name() {
                for name in crate::game::defined::names() {
                    if !variants.contains(&name) {
                        variants.push(name);
                    }
                }
            } else if crate::game::knows_variant(&name) && !variants.contains(&name) {
                variants.push(name);
            }
        }
        variants
    }

    /// Lets the `Log folder` and `Log files` options move the log.
    pub fn use_logging(&mut self, logging: Logging, kept_files: usize) {
        self.options.host.log_files = kept_files as u32;
        self.logging = Some(logging);
    }

    /// Events from the engine's own workers and the operating system.
    pub fn handle(&mut self, event: Event) {
        match event {
            Event::Progress { job, progress } => self.on_progress(job, progress),
            Event::Finished { job, outcome } => self.on_finished(job, outcome),
            Event::Overdue { job } => self.on_overdue(job),
            Event::Hung { job } => self.on_hung(job),
            Event::BookOpened { generation, result } => self.book_opened(generation, result),
            Event::VariantFileRead { path, result } => self.variant_file_read(&path, result),
            Event::TablesLoaded { generation, paths, loaded } => {
                if let Some((tables, problems)) = loaded.0.lock().ok().and_then(|mut slot| slot.take()) {
                    self.tables_opened(generation, &paths, tables, &problems);
                }
            }
            Event::PluginFileTaken { call, end } => self.plugin_file_taken(call, end),
            Event::PluginsExamined(examined) => {
                if let Some(examined) = examined.0.lock().ok().and_then(|mut slot| slot.take()) {
                    self.scan_finished(examined);
                }
            }
            Event::EndOfInput | Event::Terminate => self.quit(),
            Event::Interrupt => self.move_now(),
            Event::Line(_) | Event::Overlong { .. } => {}
        }
    }

    pub fn quit(&mut self) {
        self.discard_search();
        self.quit = true;
    }

    pub fn new_game(&mut self) {
        self.discard_search();
        self.setup.new_game();
        self.expected_reply = None;
        self.engine_side = Some(Color::Black);
        self.clock.new_game();
        // The protocol: a new game turns random mode off.
        self.random = false;
        // A score from the last game says nothing about draw offers in this one.
        self.last_score = None;
        self.player_ratings = None;
        self.ics.new_game();
        self.clear_hash = true;
        self.restart_analysis();
    }

    pub fn set_variant(&mut self, name: &str) -> Result<(), Refusal> {
        // A variant defined as data is played only while a search lists it, or
        // plays every one (`defined`: those made over for another board too).
        let defined = plugboard_plugin_api::Variant::DEFINED.cecp_name();
        if crate::game::defined::variant(name).is_some()
            && !self.plugins.variants().iter().any(|listed| listed == name || listed == defined)
        {
            return Err(Refusal::UnsupportedVariant);
        }
        // The search of the old game looks at its own copy: it can go once the new one is set.
        self.setup.set_variant(name).map_err(|_| Refusal::UnsupportedVariant)?;
        self.discard_search();
        self.expected_reply = None;
        let game = self.setup.game();
        if matches!(
            game.variant(),
            plugboard_plugin_api::Variant::KING_OF_THE_HILL
                | plugboard_plugin_api::Variant::RACING_KINGS
                | plugboard_plugin_api::Variant::HORDE
        ) {
            let fen = game.fen();
            self.note(Note::VariantStart { fen });
        }
        for kind in [Kind::Search, Kind::Eval] {
            if let Some(message) = self.stand_in(kind) {
                self.note(Note::Tell(message));
            }
        }
        self.restart_analysis();
        Ok(())
    }

    /// When the chosen plugin of `kind` cannot play the game set up, what the
    /// user is told: which plugin plays it instead.
    pub(super) fn stand_in(&self, kind: Kind) -> Option<String> {
        let game = self.setup.game();
        let variant = game.cecp_name();
        let listed = game.plugin_variant();
        let chosen = self.plugins.selected(kind).name().to_owned();
        match kind {
            Kind::Search => {
                let (_, search) = self.plugins.search_module(listed, game.move_legs());
                (search.name() != chosen)
                    .then(|| format!("The search {chosen} cannot play {variant}; {} plays this game.", search.name()))
            }
            Kind::Eval => {
                let (_, eval) = self.plugins.evaluator_for(listed);
                // The default evaluation gives way without a word: it is no one's choice.
                (eval.name() != chosen && chosen != Kind::Eval.default_name()).then(|| {
                    format!("The evaluation {chosen} cannot score {variant}; {} scores this game.", eval.name())
                })
            }
        }
    }

    pub fn toggle_random(&mut self) {
        self.random = !self.random;
    }

    /// The engine plays neither side.
    pub fn force(&mut self) {
        self.discard_search();
        self.engine_side = None;
    }

    /// The engine plays the side to move, starting now.
    pub fn go(&mut self) -> Result<(), Refusal> {
        self.discard_search();
        self.engine_side = Some(self.game().turn());
        self.apply_player_ratings();
        if !self.position_valid() {
            let why = "no legal position is set up; send one with setboard or new";
            return Err(Refusal::NotLegalNow(Some(why.to_owned())));
        }
        self.think();
        Ok(())
    }

    /// The engine plays the side not to move.
    pub fn play_other(&mut self) {
        self.discard_search();
        self.engine_side = Some(!self.game().turn());
        self.apply_player_ratings();
        // As after our own move: think on the reply we expect, if asked to.
        self.start_pondering();
    }

    /// Protocol 1's `white`/`black`: `turn` is to move, the engine plays the other side.
    pub fn set_turn(&mut self, turn: Color) {
        self.discard_search();
        if self.game().turn() != turn {
            self.expected_reply = None;
        }
        self.setup.set_turn(turn);
        self.engine_side = Some(!turn);
        self.apply_player_ratings();
    }

    pub fn clock(&mut self) -> &mut Clock {
        &mut self.clock
    }

    /// `nps`: a node clock, capped where no engine searches faster.
    pub fn set_nps(&mut self, rate: u64) {
        if rate > MAX_NPS {
            let tell =
                format!("nps {rate} is more than any engine searches: {MAX_NPS} nodes a second are counted instead");
            self.note(Note::Tell(tell));
        }
        self.clock.nodes_per_second = Some(rate.min(MAX_NPS));
    }

    /// `?`: the search for our move stops and its move is played.
    pub fn move_now(&mut self) {
        if self.thinking_on_move() {
            self.searches.stop();
        }
    }

    pub fn draw_offered(&mut self) {
        let accepts = self.game().is_insufficient_material()
            || self.ics.accepts_draw(self.last_score, self.options.host.contempt_cp);
        if accepts {
            self.note(Note::OfferDraw);
        }
    }

    /// The GUI says the game is over.
    pub fn game_over(&mut self) {
        self.discard_search();
        self.setup.over = true;
    }

    pub fn set_position(&mut self, fen: &str) {
        if let Err(why) = self.set_position_or_why(fen) {
            // The FEN is part of the message: PyChess ends every analysis with
            // an empty board and stays quiet about errors that quote it.
            self.note(Note::TellError(format!("Illegal position: {} ({})", quote(&why), quote(fen))));
        }
    }

    /// A position in FEN under the current rules, or why it is none; moves are
    /// refused after one that is none, until the next.
    pub fn set_position_or_why(&mut self, fen: &str) -> Result<(), String> {
        self.discard_search();
        let set = self.setup.set_fen(fen);
        self.expected_reply = None;
        self.restart_analysis();
        set
    }

    /// A board set up piece by piece, or why it is no legal position.
    pub fn set_edited(&mut self, edited: Result<crate::game::EditedPosition, String>) {
        if let Err(why) = self.setup.set_edited(edited) {
            self.note(Note::TellError(format!("Illegal position: {why}")));
        }
        self.expected_reply = None;
        self.restart_analysis();
    }

    /// Stops what runs before protocol 1's `edit` takes the board.
    pub fn begin_edit(&mut self) {
        self.discard_search();
    }

    pub fn book_listing(&mut self) {
        let rows = self.knowledge.listing(self.setup.game());
        self.note(Note::Listing(rows));
    }

    pub fn undo(&mut self, count: usize) {
        self.discard_search();
        self.setup.undo(count);
        self.restart_analysis();
    }

    /// `hard`/`easy`: whether the engine thinks on the opponent's time.
    pub fn set_pondering(&mut self, on: bool) {
        self.ponder = on;
        if !on && self.searches.is_running(|purpose| matches!(purpose, Purpose::Ponder { .. })) {
            self.discard_search();
        }
    }

    pub fn analyze(&mut self) {
        self.discard_search();
        self.analyzing = true;
        self.restart_analysis();
    }

    pub fn exit_analysis(&mut self) -> Result<(), Refusal> {
        if !self.analyzing {
            return Err(Refusal::NotLegalNow(None));
        }
        self.discard_search();
        self.analyzing = false;
        self.setup.exclude(false, None);
        Ok(())
    }

    /// `name`: the opponent, on a server.
    pub fn set_opponent(&mut self, name: &str) {
        self.finger_notes_due();
        if self.ics.set_opponent(name) {
            self.debug(format!("opponent {name}"));
        } else {
            // Locally xboard sends engine names with spaces; only server handles are used.
            tracing::info!(name = ?name, "the opponent's name is no server handle; not used in messages");
        }
    }

    /// `ratings WHITE BLACK`: the players' ratings by colour, ours and the
    /// opponent's once the engine's side is known (now, or at `go`).
    pub fn set_player_ratings(&mut self, white: i32, black: i32) {
        self.player_ratings = Some((white, black));
        self.apply_player_ratings();
    }

    fn apply_player_ratings(&mut self) {
        if let (Some((white, black)), Some(side)) = (self.player_ratings, self.engine_side) {
            let (own, opponent) = if side == Color::White { (white, black) } else { (black, white) };
            self.set_ratings(own, opponent);
        }
    }

    pub fn set_ratings(&mut self, own: i32, opponent: i32) {
        self.finger_notes_due();
        self.ics.set_ratings(own, opponent);
        let contempt = self.ics.contempt(self.options.host.contempt_cp);
        self.debug(format!("ratings {own} (us) and {opponent}: contempt {contempt} cp"));
    }

    /// `.` in analysis: where the analysis stands.
    pub fn analysis_status(&mut self) {
        if let Some(status) = self.searches.analysis_status() {
            self.note(Note::Status(status));
        }
    }

    pub fn pause(&mut self) -> Result<(), Refusal> {
        self.searches.pause().then_some(()).ok_or(Refusal::NotLegalNow(None))
    }

    pub fn resume(&mut self) -> Result<(), Refusal> {
        self.searches.resume().then_some(()).ok_or(Refusal::NotLegalNow(None))
    }

    /// `exclude`/`include` a root move, or all (`None`), for the current position.
    pub fn exclude(&mut self, exclude: bool, m: Option<GameMove>) {
        self.setup.exclude(exclude, m);
        self.restart_analysis();
    }

    pub fn set_score(&mut self, centipawns: i32) -> Result<(), Refusal> {
        self.setup.set_score(centipawns).map_err(|why| Refusal::NotLegalNow(Some(why)))?;
        self.restart_analysis();
        Ok(())
    }

    pub fn set_holdings(&mut self, white: &str, black: &str) -> Result<(), Refusal> {
        match self.setup.set_pockets(white, black) {
            Ok(()) => {
                self.restart_analysis();
                Ok(())
            }
            Err(why) if self.game().variant() != plugboard_plugin_api::Variant::CRAZYHOUSE => {
                Err(Refusal::NotLegalNow(Some(why)))
            }
            Err(why) => Err(Refusal::BadParameter(why)),
        }
    }

    fn finger_notes_due(&mut self) {
        let notes = self.finger_notes();
        let talk = self.ics.finger_notes_due(move || notes, self.wall_clock.now());
        self.out.extend(talk.into_iter().map(Note::Talk));
    }

    /// Our finger notes on a chess server: the engine and the plugins in use.
    fn finger_notes(&self) -> [String; 2] {
        let search = self.plugins.selected(Kind::Search);
        let eval = self.plugins.selected(Kind::Eval);
        ics::finger_notes(
            ENGINE_NAME,
            &format!("{} {}", search.name(), search.info.version),
            &format!("{} {}", eval.name(), eval.info.version),
        )
    }
}
