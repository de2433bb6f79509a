//! The state machine: one `Session` takes every [`Event`] in order and decides
//! what it means, so ordering rules (a `pong` only after everything before it,
//! the move before a pending `pong`) are properties of one loop.

use std::{
    path::{Path, PathBuf},
    sync::{Arc, mpsc::Sender},
    time::Instant,
};

use plugboard_plugin_api::{
    EVAL_FAILURE_PREFIX, Move as PluginMove, NO_DEADLINE, PresetScore, Score, ScoreKind, SearchOutcome, Variant,
};
use shakmaty::{CastlingMode, Color, Position, san::San};

use crate::{
    book::Book,
    clock::{Budget, Clock},
    core::options::{self as registry, Changed, Options, Refused},
    edit::{Edit, EditStep},
    event::{Event, ExaminedPlugins, LoadedTables, Progress},
    files,
    game::{self, Game},
    host_options,
    ics::{self, Ics, Judged, Limits, Summary, Verdict},
    known_moves::{self, Advice, BookUse, KnownMove},
    logging::Logging,
    plugins::{Examined, Kind, OptionChange, Origin, PluginHost},
    protocol::{
        Command, Reply,
        features::{self, Negotiated},
        options,
        reply::{QUOTED_CHARS, Stat01, Thinking, quote},
    },
    search::{SearchJob, SearchSpec},
    settings,
    tablebases::{self, SearchTables, Tablebases},
};

pub const ENGINE_NAME: &str = concat!("Plugboard ", env!("CARGO_PKG_VERSION"));
/// How much `random` shakes the evaluation: enough to vary play, too little to spoil it.
const RANDOM_NOISE_CP: u32 = 10;
/// What the engine uses besides its hash (code, plugins, table indexes, stacks):
/// 25 MiB resident with a 1 MiB hash, measured on Linux x86-64 with
/// `/usr/bin/time -v`. `memory N` leaves this much of N out of the hash.
const OWN_FOOTPRINT_MB: u32 = 24;
/// Diagnostics kept for a GUI that has not yet said whether it takes them.
const MAX_PENDING_DEBUG: usize = 100;
/// Every search hands the plugin each preset score: enough for an analysis
/// session's worth, few enough to cost nothing.
const MAX_PRESET_SCORES: usize = 256;
/// More nodes a second than any engine searches on a PC: a higher `nps` would
/// make the node budget of a move last for hours of wall time.
const MAX_NPS: u64 = 50_000_000;
/// How long opening a book may hold the engine before it goes on without it.
const BOOK_PATIENCE: std::time::Duration = std::time::Duration::from_millis(300);
/// How long opening the tablebases may hold the engine before it goes on without them.
const TABLES_PATIENCE: std::time::Duration = std::time::Duration::from_secs(1);
/// How long the book and the tablebases may take to answer (they read their
/// files to) before the engine searches, or lists, without them.
const KNOWLEDGE_PATIENCE: std::time::Duration = std::time::Duration::from_millis(500);
/// How long reading the saved settings may hold the start-up.
const SETTINGS_PATIENCE: std::time::Duration = std::time::Duration::from_secs(2);
/// How long examining plugin files may hold the engine before it goes on and
/// takes in the findings when they arrive (a library whose load-time code hangs
/// holds its examination for [`crate::plugins::examine::PATIENCE`]).
const SCAN_PATIENCE: std::time::Duration = std::time::Duration::from_secs(1);
/// Below this much time left, a failed search is not retried: the best move known is played.
const RETRY_MIN_MS: u64 = 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    Move,
    Analysis,
    /// Thinking on the opponent's time, in the position after the reply we expect.
    Ponder {
        expected: shakmaty::Move,
    },
}

/// How the move we play was found.
enum Found<'a> {
    Searched(&'a Running),
    /// Without a search: the note says how (`no search`, `book 42%`, …).
    Unsearched(&'a str),
}

/// Which plugin files a search used, so a fault is pinned on the right one.
#[derive(Debug, Clone)]
struct Culprits {
    search: (Origin, String),
    eval: (Origin, String),
}

struct Running {
    job: SearchJob,
    purpose: Purpose,
    /// The game as it was when the search started.
    root: Game,
    culprits: Culprits,
    budget: Budget,
    last_line: Option<Progress>,
    last_progress: Option<Progress>,
    /// A ponder search that ended before the opponent moved keeps its result here.
    ponder_outcome: Option<Result<SearchOutcome, String>>,
}

/// A search we stopped and no longer wait for; kept to notice one that never returns.
struct Abandoned {
    id: u64,
    culprits: Culprits,
}

pub struct Session {
    inbox: Sender<Event>,
    out: Vec<Reply>,
    plugins: PluginHost,
    game: Game,
    /// False after a `setboard` we could not accept: moves are refused until the next position.
    position_valid: bool,
    /// The result of the current position was already announced.
    claimed: bool,
    /// The game ended (a claim, or `result`); the engine waits for `new`.
    game_over: bool,
    clock: Clock,
    /// Every option's value and receiver.
    options: Options,
    /// The game as it was before `white`/`black` flipped the side to move.
    before_turn_flip: Option<Game>,
    negotiated: Negotiated,
    engine_side: Option<Color>,
    analyzing: bool,
    post: bool,
    ponder: bool,
    random: bool,
    hash_mb: u32,
    clear_hash: bool,
    next_job: u64,
    search: Option<Running>,
    abandoned: Vec<Abandoned>,
    pending_pongs: Vec<String>,
    pending_debug: Vec<String>,
    /// The option lines the GUI was last given.
    advertised: Vec<String>,
    hint: Option<String>,
    /// The reply the last search expects, for pondering.
    expected_reply: Option<shakmaty::Move>,
    /// Protocol 1's position set-up, while it lasts.
    edit: Option<Edit>,
    /// Root moves left out of the analysis (`exclude`), for the current position.
    excluded: Vec<shakmaty::Move>,
    /// Scores fixed with `setscore`.
    preset_scores: Vec<PresetScore>,
    paused: bool,
    /// The score of our last search for a move, in centipawns for us.
    last_score: Option<i32>,
    /// Where we play and against whom, and what we say there.
    pub ics: Ics,
    /// `variant bughouse`: crazyhouse rules, with the holdings from the server.
    bughouse: bool,
    logging: Option<Logging>,
    quit: bool,
    /// Where `Save settings` writes, if anywhere.
    settings_path: Option<PathBuf>,
    /// The opening book of the `Book file` option, when it opened.
    book: Option<Arc<Book>>,
    /// Counts the books asked for, so a book that opens late is taken only if
    /// it is still the one the option names.
    book_generation: u64,
    /// Counts the `egtpath`s, so tables that open late are taken only if no
    /// other path came after them.
    tables_generation: u64,
    /// The state of the generator that picks weighted book moves.
    book_draws: u64,
    /// Syzygy tables from `egtpath syzygy`, when any were found.
    tablebases: Option<SearchTables>,
    /// In a drawn tablebase position, the moves that keep the draw: our search
    /// chooses among them only.
    drawing_moves: Vec<shakmaty::Move>,
    /// What went wrong before the GUI could listen, said after the features.
    startup_notes: Vec<Reply>,
    /// Lines from the GUI so far, counted as each is taken up.
    lines_seen: u64,
    /// The line count when pondering started after our move: until the GUI's
    /// next line, the ponder search's thinking is not shown, as clients read
    /// what follows `move` as that move's thinking.
    ponder_quiet_at: Option<u64>,
    /// The ponder search's latest thinking line, held while it may not be shown.
    held_ponder_line: Option<(u64, Reply)>,
}

impl Session {
    pub fn new(inbox: Sender<Event>, plugins: PluginHost) -> Session {
        let mut session = Session {
            inbox,
            out: Vec::new(),
            plugins,
            game: Game::default(),
            position_valid: true,
            claimed: false,
            game_over: false,
            clock: Clock::default(),
            options: Options::default(),
            before_turn_flip: None,
            negotiated: Negotiated::default(),
            engine_side: Some(Color::Black),
            analyzing: false,
            post: false,
            ponder: false,
            random: false,
            hash_mb: 64,
            clear_hash: true,
            next_job: 1,
            search: None,
            abandoned: Vec::new(),
            pending_pongs: Vec::new(),
            pending_debug: Vec::new(),
            advertised: Vec::new(),
            hint: None,
            expected_reply: None,
            edit: None,
            excluded: Vec::new(),
            preset_scores: Vec::new(),
            paused: false,
            last_score: None,
            ics: Ics::default(),
            bughouse: false,
            logging: None,
            quit: false,
            settings_path: None,
            book: None,
            book_generation: 0,
            tables_generation: 0,
            book_draws: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0x9e37_79b9_7f4a_7c15, |t| t.as_nanos() as u64),
            tablebases: None,
            drawing_moves: Vec::new(),
            startup_notes: Vec::new(),
            lines_seen: 0,
            ponder_quiet_at: None,
            held_ponder_line: None,
        };
        session.report_scan();
        session
    }

    /// Saves settings to `path` from now on, and applies what it already holds.
    pub fn use_settings_file(&mut self, path: PathBuf) {
        self.settings_path = Some(path);
        self.load_settings();
    }

    /// Options from the command line, as `option NAME=VALUE` would set them; what
    /// is refused is told once the GUI listens (and on stderr).
    pub fn apply_command_line(&mut self, options: &[(String, String)]) {
        let said_before = self.take_output();
        for (name, value) in options {
            let line = format!("option {name}={value}");
            let value = (!value.is_empty()).then_some(value.as_str());
            self.set_option(&line, name, value);
            for reply in self.take_output() {
                tracing::warn!(%reply, "said while applying the command line");
                if matches!(reply, Reply::Error { .. } | Reply::TellUserError(_)) {
                    eprintln!("plugboard: {reply}");
                    let text = reply.to_string();
                    self.startup_notes.push(Reply::TellUserError(format!("Command line: {text}")));
                }
            }
        }
        self.out = said_before;
    }

    /// Lets the `Log folder` and `Log files` options move the log.
    pub fn use_logging(&mut self, logging: Logging, kept_files: usize) {
        self.options.host.log_files = kept_files as u32;
        self.logging = Some(logging);
    }

    /// Replies produced so far, in order, for the one writer to print.
    pub fn take_output(&mut self) -> Vec<Reply> {
        std::mem::take(&mut self.out)
    }

    pub fn wants_to_quit(&self) -> bool {
        self.quit
    }

    /// Whether a search is running that the session still waits for.
    pub fn is_searching(&self) -> bool {
        self.search.is_some()
    }

    pub fn handle(&mut self, event: Event) {
        match event {
            Event::Line(line) => {
                self.lines_seen += 1;
                self.handle_line(&line);
                // The ponder search's thinking, held back since our move, may now be shown.
                if let Some((job, held)) = self.held_ponder_line.take()
                    && self.search.as_ref().is_some_and(|r| r.job.id == job)
                {
                    self.reply(held);
                }
            }
            Event::BookOpened { generation, result } => self.book_opened(generation, result),
            Event::PluginsExamined(examined) => {
                if let Some(examined) = examined.0.lock().ok().and_then(|mut slot| slot.take()) {
                    self.scan_finished(examined);
                }
            }
            Event::TablesLoaded { generation, paths, loaded } => {
                let taken = loaded.0.lock().ok().and_then(|mut slot| slot.take());
                if let Some((tables, problems)) = taken
                    && generation == self.tables_generation
                {
                    self.tablebases_loaded(&paths, tables, &problems);
                }
            }
            Event::Overlong { start, length } => {
                tracing::warn!(length, start = %quote(&start), "overlong line refused");
                // Short enough to pass the reply's own quoting whole.
                let start: String = start.chars().take(QUOTED_CHARS / 2).collect();
                let command = format!("{start}... ({length} bytes in all)");
                self.reply(Reply::Error { kind: "line too long", command });
            }
            Event::EndOfInput | Event::Terminate => self.shut_down(),
            Event::Interrupt => {
                if self.thinking_on_move() {
                    self.stop_search_for_move();
                }
            }
            Event::Progress { job, progress } => self.on_progress(job, progress),
            Event::Finished { job, outcome } => self.on_finished(job, outcome),
            Event::Overdue { job } => self.on_overdue(job),
            Event::Hung { job } => self.on_hung(job),
        }
    }

    fn reply(&mut self, reply: Reply) {
        self.out.push(reply);
    }

    fn debug(&mut self, text: String) {
        tracing::debug!("{text}");
        if !self.options.host.debug_output {
            return;
        }
        if self.negotiated.accepted("debug") {
            self.reply(Reply::Debug(text));
        } else if !self.negotiated.rejected("debug") {
            // A protocol-1 GUI never answers: keep the start-up lines, not a week's worth.
            if self.pending_debug.len() == MAX_PENDING_DEBUG {
                self.pending_debug.remove(0);
            }
            self.pending_debug.push(text);
        }
    }

    fn shut_down(&mut self) {
        self.discard_search();
        self.quit = true;
    }

    fn handle_line(&mut self, line: &str) {
        if self.edit.is_some() {
            self.edit_line(line);
            return;
        }
        let command = match Command::parse(line) {
            Ok(command) => command,
            Err(error) => {
                tracing::warn!(line = %quote(line), %error, "command refused");
                self.reply(Reply::Error { kind: error.kind(), command: line.trim().to_owned() });
                return;
            }
        };
        match command {
            Command::Xboard => {}
            Command::Protover(_) => {
                self.negotiated.announce();
                self.announce_features();
            }
            Command::Accepted(feature) => {
                self.negotiated.accept(feature);
                if feature == "debug" {
                    for text in std::mem::take(&mut self.pending_debug) {
                        self.reply(Reply::Debug(text));
                    }
                }
            }
            Command::Rejected(feature) => {
                self.negotiated.reject(feature);
                if feature == "debug" {
                    self.pending_debug.clear();
                }
            }
            Command::New => {
                self.discard_search();
                self.set_game(Game::default());
                self.engine_side = Some(Color::Black);
                self.clock.new_game();
                // The protocol: `new` turns random mode off.
                self.random = false;
                // A score from the last game says nothing about draw offers in this one.
                self.last_score = None;
                self.ics.new_game();
                self.bughouse = false;
                self.clear_hash = true;
                // Preset scores belong to the game they were set in.
                self.preset_scores.clear();
                self.restart_analysis();
            }
            Command::Variant(name) => self.set_variant(name, line),
            Command::Quit => self.shut_down(),
            Command::Random => self.random = !self.random,
            Command::Force => {
                self.discard_search();
                self.engine_side = None;
            }
            Command::Go => {
                self.discard_search();
                self.engine_side = Some(self.game.turn());
                if !self.position_valid {
                    let why = "no legal position is set up; send one with setboard or new";
                    self.reply(Reply::Error { kind: "command not legal now", command: format!("go ({why})") });
                    return;
                }
                self.think();
            }
            Command::PlayOther => {
                self.discard_search();
                self.engine_side = Some(!self.game.turn());
                // As after our own move: think on the reply we expect, if asked to.
                self.start_pondering();
            }
            Command::White | Command::Black => {
                let turn = if command == Command::White { Color::White } else { Color::Black };
                self.discard_search();
                self.set_turn(turn);
                self.engine_side = Some(!turn);
            }
            Command::Level { moves_per_session, base_ms, increment_ms } => {
                let fullmove = self.game.position().fullmoves().get();
                self.clock.set_level(moves_per_session, base_ms, increment_ms, fullmove)
            }
            Command::SecondsPerMove { ms } => self.clock.set_seconds_per_move(ms),
            Command::Depth(depth) => self.clock.depth_limit = Some(depth.max(1)),
            Command::Nps(rate) => {
                if rate > MAX_NPS {
                    self.reply(Reply::TellUser(format!(
                        "nps {rate} is more than any engine searches: {MAX_NPS} nodes a second are counted instead"
                    )));
                }
                self.clock.nodes_per_second = Some(rate.min(MAX_NPS));
            }
            Command::Time { centiseconds } => self.clock.set_own_time(centiseconds),
            Command::Otim { centiseconds } => self.clock.set_opponent_time(centiseconds),
            Command::Move(text) => self.user_move(text),
            Command::MoveNow => {
                if self.thinking_on_move() {
                    self.stop_search_for_move();
                }
            }
            Command::Ping(n) => {
                if self.thinking_on_move() {
                    self.pending_pongs.push(n.to_owned());
                } else {
                    self.reply(Reply::Pong(n.to_owned()));
                }
            }
            Command::Draw => {
                if self.accepts_draw() {
                    self.reply(Reply::OfferDraw);
                }
            }
            Command::Result { result, comment } => {
                tracing::info!(%result, %comment, "game over");
                self.discard_search();
                self.game_over = true;
            }
            Command::SetBoard(fen) => {
                self.discard_search();
                match Game::from_fen_in(fen, self.game.variant(), self.game.castling_mode()) {
                    Ok(game) => {
                        self.preset_scores.clear();
                        self.set_game(game);
                    }
                    Err(why) => {
                        self.position_valid = false;
                        // The FEN is part of the message: PyChess ends every analysis with
                        // an empty board and stays quiet about errors that quote it.
                        self.reply(Reply::TellUserError(format!("Illegal position: {why} ({fen})")));
                    }
                }
                self.restart_analysis();
            }
            Command::Hint => {
                if let Some(hint) = self.hint.clone() {
                    self.reply(Reply::Hint(hint));
                }
            }
            Command::Bk => self.book_listing(),
            Command::Undo | Command::Remove => {
                let count = if command == Command::Undo { 1 } else { 2 };
                self.discard_search();
                for _ in 0..count {
                    self.game.undo();
                }
                // Exclusions belong to the position they were made in.
                self.excluded.clear();
                self.claimed = false;
                self.game_over = false;
                self.restart_analysis();
            }
            Command::Hard => self.ponder = true,
            Command::Easy => {
                self.ponder = false;
                if self.search.as_ref().is_some_and(|r| matches!(r.purpose, Purpose::Ponder { .. })) {
                    self.discard_search();
                }
            }
            Command::Post => self.post = true,
            Command::NoPost => self.post = false,
            Command::Analyze => {
                self.discard_search();
                self.analyzing = true;
                self.restart_analysis();
            }
            Command::Exit => {
                if self.analyzing {
                    self.discard_search();
                    self.analyzing = false;
                    self.excluded.clear();
                } else {
                    self.not_legal_now(line);
                }
            }
            Command::AnalysisStatus => self.analysis_status(),
            Command::Name(name) => {
                self.finger_notes_due();
                if self.ics.set_opponent(name) {
                    self.debug(format!("opponent {name}"));
                } else {
                    // Locally xboard sends engine names with spaces; only server handles are used.
                    tracing::info!(name = ?name, "the opponent's name is no server handle; not used in messages");
                }
            }
            Command::Rating { own, opponent } => {
                self.finger_notes_due();
                self.ics.set_ratings(own, opponent);
                let contempt = self.ics.contempt(self.options.host.contempt_cp);
                self.debug(format!("ratings {own} (us) and {opponent}: contempt {contempt} cp"));
            }
            Command::Ics(host) => self.ics.set_server(host),
            Command::Computer => self.ics.set_computer(),
            Command::Partner(name) => {
                if !self.ics.set_partner(name) {
                    tracing::warn!(name = ?name, "the partner's name is no server handle; ignored");
                }
            }
            Command::Ptell(text) => {
                // Recorded, never obeyed: nothing a partner says changes what the engine does.
                tracing::info!(partner = ?self.ics.partner(), text = ?text, "partner tell");
                self.ics.record_ptell(text);
            }
            Command::Memory { mb } => {
                // CECP's N is the engine's whole footprint, hash included.
                let hash_mb = mb.saturating_sub(OWN_FOOTPRINT_MB).max(1);
                self.hash_mb = hash_mb.min(hash_ceiling_mb());
                if self.hash_mb < hash_mb {
                    self.reply(Reply::TellUser(format!(
                        "Hash limited to {} MB, half of this machine's memory",
                        self.hash_mb
                    )));
                }
            }
            Command::Cores(cores) => self.options.host.threads = cores.clamp(1, host_options::MAX_THREADS),
            Command::EgtPath { kind: "syzygy", path } => self.load_tablebases(path),
            Command::EgtPath { .. } => {
                self.reply(Reply::Error { kind: "unsupported tablebase type", command: line.trim().to_owned() })
            }
            Command::Option { name, value } => self.set_option(line.trim(), name, value),
            Command::Edit => {
                self.discard_search();
                self.edit = Some(Edit::start(self.game.position().board().clone(), self.game.turn()));
            }
            Command::Pause => {
                if self.paused {
                    self.not_legal_now(line);
                } else {
                    self.paused = true;
                    if let Some(running) = &self.search {
                        running.job.pause();
                    }
                }
            }
            Command::Resume => {
                if self.paused {
                    self.paused = false;
                    if let Some(running) = &self.search {
                        running.job.resume();
                    }
                } else {
                    self.not_legal_now(line);
                }
            }
            Command::Exclude(text) | Command::Include(text) => {
                // Exclusions hold for the current position until it changes; python-chess
                // sends them before `analyze`, so they are taken in any mode.
                let exclude = matches!(command, Command::Exclude(_));
                match text.map(|t| (t, self.game.parse_move(t))) {
                    None if exclude => self.excluded = self.game.position().legal_moves().to_vec(),
                    None => self.excluded.clear(),
                    Some((_, Ok(m))) if exclude => {
                        if !self.excluded.contains(&m) {
                            self.excluded.push(m);
                        }
                    }
                    Some((_, Ok(m))) => self.excluded.retain(|&x| x != m),
                    Some((t, Err(reason))) => {
                        self.reply(Reply::IllegalMove { reason: reason.into(), mv: t.to_owned() });
                        return;
                    }
                }
                self.restart_analysis();
            }
            Command::SetScore { centipawns, .. } => {
                let position = self.game.plugin_position(self.game.position());
                self.preset_scores.retain(|p| p.position != position);
                if self.preset_scores.len() >= MAX_PRESET_SCORES {
                    let why = format!("at most {MAX_PRESET_SCORES} positions may have a preset score");
                    self.reply(Reply::Error {
                        kind: "command not legal now",
                        command: format!("{} ({why})", line.trim()),
                    });
                    return;
                }
                self.preset_scores.push(PresetScore { position, centipawns });
                self.restart_analysis();
            }
            Command::Lift(square) => {
                if let Some(colors) = self.game.highlight(square) {
                    self.reply(Reply::Highlight(colors));
                }
            }
            Command::Put(_) | Command::Hover(_) => {}
            Command::Holding { white, black } => match self.game.set_pockets(white, black) {
                Ok(()) => self.restart_analysis(),
                Err(why) if self.game.variant() != Variant::CRAZYHOUSE => self
                    .reply(Reply::Error { kind: "command not legal now", command: format!("{} ({why})", line.trim()) }),
                Err(why) => {
                    self.reply(Reply::Error { kind: "bad parameter", command: format!("{} ({why})", line.trim()) })
                }
            },
        }
    }

    /// `variant NAME`: the rules and start position of the next game. Variants the
    /// protocol does not define are announced to the GUI with `setup`, since it
    /// cannot know their start position.
    fn set_variant(&mut self, name: &str, line: &str) {
        let game = match name {
            "fischerandom" => Game::new(Variant::CHESS, CastlingMode::Chess960),
            // The board's rules are crazyhouse's; the partner's captures arrive with `holding`.
            "bughouse" => Game::new(Variant::CRAZYHOUSE, CastlingMode::Standard),
            _ => match Variant::from_cecp_name(name) {
                Some(variant) => Game::new(variant, CastlingMode::Standard),
                None => {
                    self.reply(Reply::Error { kind: "unsupported variant", command: line.trim().to_owned() });
                    return;
                }
            },
        };
        self.discard_search();
        if matches!(game.variant(), Variant::KING_OF_THE_HILL | Variant::RACING_KINGS | Variant::HORDE) {
            // Standard pieces on a standard board; "fairy" leaves the rules to us.
            self.reply(Reply::Setup(format!("(PNBRQKpnbrqk) 8x8+0_fairy {}", game.fen())));
        }
        let chosen = self.plugins.selected(Kind::Search).name().to_owned();
        let (_, search) = self.plugins.search_module(game.cecp_name());
        if search.name() != chosen {
            let message = format!("The search {chosen} cannot play {name}; {} plays this game.", search.name());
            self.reply(Reply::TellUser(message));
        }
        self.set_game(game);
        self.preset_scores.clear();
        self.bughouse = name == "bughouse";
        self.restart_analysis();
    }

    fn announce_features(&mut self) {
        for feature in features::announcement(ENGINE_NAME, &self.announced_variants()) {
            self.reply(Reply::Feature(feature));
        }
        self.advertise_options_body();
        self.reply(Reply::Feature("done=1".into()));
        let notes = std::mem::take(&mut self.startup_notes);
        self.out.extend(notes);
    }

    /// What the loaded search plugins can play, as far as the host knows the rules.
    fn announced_variants(&self) -> String {
        let variants = self.plugins.variants();
        variants.into_iter().filter(|name| game::knows_variant(name)).collect::<Vec<_>>().join(",")
    }

    fn option_lines(&self) -> Vec<String> {
        self.options.entries(&self.plugins).iter().map(|e| options::advertise(&e.spec, &e.value)).collect()
    }

    fn advertise_options_body(&mut self) {
        let lines = self.option_lines();
        for line in &lines {
            self.reply(Reply::Feature(format!("option=\"{line}\"")));
        }
        self.advertised = lines;
    }

    /// The option list changed (another plugin chosen, a rescan, a plugin disabled):
    /// GUIs clear their list on `done=0` and take the new one up to `done=1`.
    /// Nothing is sent when the list is unchanged: xboard answers every advertised
    /// option that it has a start-up value for with an `option` command, and
    /// re-advertising after those would never end.
    fn readvertise_options(&mut self) {
        if self.option_lines() == self.advertised || !self.negotiated.announced() {
            return;
        }
        self.reply(Reply::Feature("done=0".into()));
        self.advertise_options_body();
        self.reply(Reply::Feature("done=1".into()));
        let notes = std::mem::take(&mut self.startup_notes);
        self.out.extend(notes);
    }

    /// Lists every plugin and every refused file as debug lines; returns the refusals.
    fn report_scan(&mut self) -> Vec<String> {
        let loaded: Vec<String> = self
            .plugins
            .registry()
            .plugins()
            .iter()
            .map(|p| format!("{} plugin {} {} from {}", p.kind, p.name(), p.info.version, p.origin))
            .collect();
        let refused: Vec<String> =
            self.plugins.registry().refused().iter().map(|r| format!("{}: {}", r.path.display(), r.reason)).collect();
        for text in loaded {
            self.debug(text);
        }
        for text in &refused {
            self.debug(format!("plugin refused: {text}"));
        }
        refused
    }

    fn set_option(&mut self, line: &str, name: &str, value: Option<&str>) {
        let before = self.options.host.clone();
        let changed = match self.options.set(&mut self.plugins, name, value) {
            Ok(changed) => changed,
            Err(Refused::Unknown) => {
                self.reply(Reply::Error { kind: "unknown option", command: line.to_owned() });
                return;
            }
            Err(Refused::BadValue(why)) => {
                tracing::warn!(%line, %why, "option refused");
                self.reply(Reply::Error { kind: "bad parameter", command: format!("{line} ({why})") });
                // A plugin that failed to load has left the menu.
                if name == Kind::Search.option_name() || name == Kind::Eval.option_name() {
                    self.readvertise_options();
                }
                return;
            }
        };
        match changed {
            Changed::Configure(settings) => {
                for setting in settings.split(';').map(str::trim).filter(|s| !s.is_empty()) {
                    let (inner, inner_value) = match setting.split_once('=') {
                        Some((inner, inner_value)) => (inner.trim(), Some(inner_value.trim())),
                        None => (setting, None),
                    };
                    if inner == registry::CONFIGURE {
                        self.reply(Reply::Error {
                            kind: "bad parameter",
                            command: format!("{line} (Configure within Configure)"),
                        });
                        continue;
                    }
                    self.set_option(&format!("option {setting}"), inner, inner_value);
                }
            }
            Changed::Save => self.save_settings(),
            Changed::Reset => {
                self.clock.overhead_ms = self.options.host.overhead_ms;
                let host = &self.options.host;
                if (&before.log_folder, before.log_files) != (&host.log_folder, host.log_files) {
                    self.move_log();
                }
                if before.book_file != self.options.host.book_file {
                    self.open_book();
                }
                self.clear_hash = true;
                // The GUI purged its option list when the button was pressed: always answer.
                self.advertised.clear();
                self.readvertise_options();
            }
            Changed::Host(name) => {
                self.clock.overhead_ms = self.options.host.overhead_ms;
                if name == host_options::MULTI_PV && self.analyzing {
                    self.restart_analysis();
                }
                if name == host_options::LOG_FOLDER || name == host_options::LOG_FILES {
                    self.move_log();
                }
                if name == host_options::BOOK_FILE {
                    self.open_book();
                }
            }
            Changed::Plugins(OptionChange::Value(_)) => {
                // Scores found with the old value would be shown for the new one.
                self.clear_hash = true;
                if self.analyzing {
                    self.discard_search();
                    self.restart_analysis();
                }
            }
            Changed::Plugins(OptionChange::Selection(_)) => {
                self.readvertise_options();
                if let Some(note) = self.ics.plugins_changed(self.finger_notes(), Instant::now()) {
                    self.reply(note);
                }
                // A new evaluation or search makes old hash entries meaningless.
                self.clear_hash = true;
                if self.analyzing {
                    self.discard_search();
                    self.restart_analysis();
                }
            }
            Changed::Plugins(OptionChange::ScanNeeded) => self.rescan(),
        }
    }

    /// Scans the plugin folders again. Unknown files are examined in child
    /// processes, which may take seconds, on a thread of its own: a scan slower
    /// than a moment is taken in, and the menu re-advertised, when it ends.
    fn rescan(&mut self) {
        let work = self.plugins.begin_scan();
        match files::off_thread("plugin-scan", SCAN_PATIENCE, move || work.run()) {
            Ok(examined) => self.scan_finished(examined),
            Err(later) => {
                self.debug("plugin files are still being examined; the menu follows once they are".to_owned());
                self.forward_when_done("plugin-scan-wait", later, |examined| {
                    Event::PluginsExamined(Arc::new(ExaminedPlugins(std::sync::Mutex::new(Some(examined)))))
                });
            }
        }
    }

    /// Work that outlasted its patience (see [`files::off_thread`]) reaches the
    /// session as an event when it ends.
    fn forward_when_done<T: Send + 'static>(
        &self,
        name: &str,
        later: std::sync::mpsc::Receiver<T>,
        event: impl FnOnce(T) -> Event + Send + 'static,
    ) {
        let inbox = self.inbox.clone();
        let _ = std::thread::Builder::new().name(name.into()).spawn(move || {
            if let Ok(done) = later.recv() {
                let _ = inbox.send(event(done));
            }
        });
    }

    fn scan_finished(&mut self, examined: Examined) {
        self.plugins.finish_scan(examined);
        let refused = self.report_scan();
        if !refused.is_empty() {
            self.reply(Reply::TellUser(format!("Plugins refused: {}", refused.join("; "))));
        }
        self.readvertise_options();
    }

    /// Applies the `Log folder` and `Log files` options.
    fn move_log(&mut self) {
        let Some(logging) = &self.logging else { return };
        let folder = &self.options.host.log_folder;
        let folder = (!folder.is_empty()).then(|| std::path::Path::new(folder));
        match logging.reconfigure(folder, self.options.host.log_files as usize) {
            Ok(()) => {
                let location = logging.location().map(|l| l.display().to_string()).unwrap_or_default();
                self.debug(format!("logging to {location}"));
            }
            Err(why) => self.reply(Reply::TellUserError(format!("The log stays where it was: {why}"))),
        }
    }

    fn save_settings(&mut self) {
        let Some(path) = self.settings_path.clone() else {
            self.reply(Reply::TellUserError("No folder to save settings in".into()));
            return;
        };
        match settings::save(&path, &self.options.saved(&self.plugins)) {
            Ok(()) => self.reply(Reply::TellUser(format!("Settings saved to {}", path.display()))),
            Err(why) => self.reply(Reply::TellUserError(format!("Settings not saved to {}: {why}", path.display()))),
        }
    }

    /// Applies the saved settings at start-up; what no longer applies is logged and skipped.
    fn load_settings(&mut self) {
        let Some(path) = self.settings_path.clone() else { return };
        // Off the thread that answers the GUI, as every file the engine reads.
        let read = files::off_thread("settings", SETTINGS_PATIENCE, move || settings::load(&path));
        let read = read.unwrap_or_else(|_| Err("reading them took too long".to_owned()));
        let saved = match read {
            Ok(saved) => saved,
            Err(why) => {
                tracing::warn!(%why, "saved settings not applied");
                self.startup_notes.push(Reply::TellUserError(format!("Saved settings not applied: {why}")));
                return;
            }
        };
        // The folder first, also from files saved before it was written first: a
        // plugin found only there can be chosen once it is scanned.
        let mut saved = saved;
        saved.sort_by_key(|(name, _)| name != crate::plugins::host::FOLDER_OPTION);
        let mut refused = Vec::new();
        for (name, value) in saved {
            self.set_option(&format!("option {name}={value}"), &name, Some(&value));
            for reply in self.take_output() {
                tracing::warn!(%reply, "said while applying the saved settings");
                if matches!(reply, Reply::Error { .. }) {
                    refused.push(format!("{name}={value}"));
                }
            }
        }
        // A choice that no longer applies (a plugin gone, say) must not pass unseen.
        if !refused.is_empty() {
            let message = format!("Saved settings not restored (see the log): {}", refused.join("; "));
            self.startup_notes.push(Reply::TellUser(message));
        }
    }

    fn set_game(&mut self, game: Game) {
        self.game = game;
        self.before_turn_flip = None;
        self.position_valid = true;
        self.claimed = false;
        self.game_over = false;
        self.hint = None;
        self.expected_reply = None;
        self.excluded.clear();
    }

    fn not_legal_now(&mut self, line: &str) {
        self.reply(Reply::Error { kind: "command not legal now", command: line.trim().to_owned() });
    }

    fn edit_line(&mut self, line: &str) {
        let Some(edit) = self.edit.as_mut() else { return };
        match edit.line(line) {
            EditStep::Continue => {}
            EditStep::Refused(why) => {
                self.reply(Reply::Error { kind: "bad parameter", command: format!("{} ({why})", line.trim()) })
            }
            EditStep::Done(result) => {
                self.edit = None;
                match result {
                    Ok(position) => {
                        // Edit places orthodox pieces; the game keeps its variant's rules.
                        let fen = shakmaty::fen::Fen::from_position(&position, shakmaty::EnPassantMode::Legal);
                        match Game::from_fen_in(&fen.to_string(), self.game.variant(), CastlingMode::Standard) {
                            Ok(game) => self.set_game(game),
                            Err(why) => {
                                self.position_valid = false;
                                self.reply(Reply::TellUserError(format!("Illegal position: {why}")));
                            }
                        }
                    }
                    Err(why) => {
                        self.position_valid = false;
                        self.reply(Reply::TellUserError(format!("Illegal position: {why}")));
                    }
                }
                self.restart_analysis();
            }
        }
    }

    /// Accept a draw offer when we stand worse by the contempt (for this
    /// opponent), or nobody can win.
    fn accepts_draw(&self) -> bool {
        self.game.position().is_insufficient_material()
            || self.ics.accepts_draw(self.last_score, self.options.host.contempt_cp)
    }

    fn finger_notes_due(&mut self) {
        let notes = self.finger_notes();
        let lines = self.ics.finger_notes_due(move || notes, Instant::now());
        self.out.extend(lines);
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

    /// Protocol 1's `white`/`black`: the side to move changes, the pieces do not.
    fn set_turn(&mut self, turn: Color) {
        if self.game.turn() == turn {
            return;
        }
        // xboard's protocol-1 clock idiom flips the side to move and straight back:
        // going back restores the game as it was, history and en passant included.
        if let Some(before) = self.before_turn_flip.take()
            && before.turn() == turn
            && before.position().board() == self.game.position().board()
        {
            self.set_game(before);
            return;
        }
        let before = self.game.clone();
        let fen = self.game.fen();
        let mut fields: Vec<&str> = fen.split(' ').collect();
        if fields.len() > 3 {
            fields[1] = if turn == Color::White { "w" } else { "b" };
            fields[3] = "-";
        }
        if let Ok(game) = Game::from_fen_in(&fields.join(" "), self.game.variant(), self.game.castling_mode()) {
            self.set_game(game);
            self.before_turn_flip = Some(before);
        }
    }

    fn user_move(&mut self, text: &str) {
        if !self.position_valid {
            self.reply(Reply::IllegalMove { reason: "no legal position is set up".into(), mv: text.to_owned() });
            return;
        }
        let m = match self.game.parse_move(text) {
            Ok(m) => m,
            Err(reason) => {
                self.reply(Reply::IllegalMove { reason: reason.into(), mv: text.to_owned() });
                return;
            }
        };
        if self.search.as_ref().is_some_and(|r| r.purpose == Purpose::Ponder { expected: m }) {
            self.ponder_hit(m);
            return;
        }
        self.discard_search();
        self.game.play(m);
        self.claimed = false;
        self.excluded.clear();
        // A draw we may claim with our move to come is claimed by `think`, which moves all the same.
        let ours_to_play = !self.analyzing && self.engine_side == Some(self.game.turn());
        if !(ours_to_play && self.game.is_claimable_draw()) && self.claim_if_over() {
            return;
        }
        if self.analyzing {
            self.restart_analysis();
        } else if self.engine_side == Some(self.game.turn()) {
            self.think();
        }
    }

    /// As [`Session::claim_if_over`], but a draw the rules only let a player
    /// claim (repetition, fifty moves) is claimed and the game goes on: a server
    /// that does not end the game on a claim waits for our move.
    fn claim_unless_playable(&mut self) -> bool {
        let Some(end) = self.game.claim() else { return false };
        if !self.game.is_claimable_draw() {
            return self.claim_if_over();
        }
        if !self.claimed {
            self.claimed = true;
            self.reply(Reply::GameResult { result: end.result, reason: end.reason.into() });
        }
        false
    }

    /// Announces the result if the rules end the game here; true if they do.
    fn claim_if_over(&mut self) -> bool {
        let Some(end) = self.game.claim() else { return false };
        if !self.claimed {
            self.claimed = true;
            self.reply(Reply::GameResult { result: end.result, reason: end.reason.into() });
        }
        // A draw that is only claimable leaves the game open: a server that does
        // not end it on the claim will still ask for our move.
        if !self.analyzing && !self.game.is_claimable_draw() {
            self.game_over = true;
        }
        true
    }

    fn thinking_on_move(&self) -> bool {
        self.search.as_ref().is_some_and(|s| s.purpose == Purpose::Move)
    }

    fn stop_search_for_move(&mut self) {
        if let Some(running) = &self.search {
            running.job.stop();
        }
    }

    /// Stops the running search and forgets it: its move will not be played.
    fn discard_search(&mut self) {
        if let Some(running) = self.search.take() {
            running.job.stop();
            if !running.job.is_finished() {
                self.abandoned.push(Abandoned { id: running.job.id, culprits: running.culprits });
            }
        }
        self.flush_pongs();
    }

    fn flush_pongs(&mut self) {
        for n in std::mem::take(&mut self.pending_pongs) {
            self.reply(Reply::Pong(n));
        }
    }

    /// The opponent played the move we were pondering on: the search goes on, now
    /// on our clock.
    fn ponder_hit(&mut self, m: shakmaty::Move) {
        self.game.play(m);
        self.claimed = false;
        if self.claim_if_over() {
            self.discard_search();
            return;
        }
        self.ask_partner();
        // The ponder search looked at every move; the book and the tables know better.
        match self.advice() {
            Advice::Play(known) => {
                self.discard_search();
                return self.play_without_search(known);
            }
            Advice::SearchAmong(moves) => {
                self.discard_search();
                self.drawing_moves = moves;
                let budget = self.clock.budget(self.game.position().fullmoves().get());
                return self.start_search(Purpose::Move, budget);
            }
            Advice::Search => {}
        }
        let budget = self.clock.budget(self.game.position().fullmoves().get());
        let Some(running) = self.search.as_mut() else { return };
        tracing::info!(job = running.job.id, "ponder hit");
        running.purpose = Purpose::Move;
        running.budget = running.job.set_timed(budget);
        if let Some(outcome) = running.ponder_outcome.take()
            && let Some(running) = self.search.take()
        {
            self.conclude(running, outcome);
        }
    }

    /// After our move, think on the reply we expect, if pondering is on.
    fn start_pondering(&mut self) {
        if !self.ponder || self.game_over || self.analyzing || self.engine_side != Some(!self.game.turn()) {
            return;
        }
        let Some(expected) = self.expected_reply else { return };
        if !self.game.position().is_legal(expected) {
            return;
        }
        self.reply(Reply::Hint(self.game.move_text(expected)));
        let mut after = self.game.clone();
        after.play(expected);
        if after.claim().is_some() {
            return;
        }
        let unlimited = Budget { soft_ms: u64::MAX, hard_ms: u64::MAX };
        self.start_search_on(&after, Purpose::Ponder { expected }, unlimited);
        self.ponder_quiet_at = Some(self.lines_seen);
    }

    fn think(&mut self) {
        if self.game_over || !self.position_valid || self.claim_unless_playable() {
            return;
        }
        self.ask_partner();
        match self.advice() {
            Advice::Play(known) => return self.play_without_search(known),
            Advice::SearchAmong(moves) => self.drawing_moves = moves,
            Advice::Search => {}
        }
        let budget = self.clock.budget(self.game.position().fullmoves().get());
        self.start_search(Purpose::Move, budget);
    }

    /// What the book and the tablebases say of the position we are to move in.
    fn advice(&mut self) -> Advice {
        self.drawing_moves.clear();
        let book_use = BookUse {
            enabled: self.options.host.use_book,
            depth: self.options.host.book_depth,
            choice: self.options.host.book_choice,
        };
        let draw = self.next_book_draw();
        // Books on disk and tablebases read their files to answer: off the thread
        // that answers the GUI, so a stalled disk costs the known move, not the game.
        // Without them, nothing is read and no thread is needed for the move.
        let advice = if self.knowledge_reads_files() {
            let (game, book, tables) =
                (self.game.clone(), self.book.clone(), self.tablebases.as_ref().map(|t| t.tables().clone()));
            let asked = files::off_thread("known-moves", KNOWLEDGE_PATIENCE, move || {
                known_moves::advise(&game, book.as_deref(), book_use, tables.as_deref(), draw)
            });
            asked.unwrap_or_else(|_| {
                tracing::warn!("the book and the tablebases did not answer in time; searching without them");
                Advice::Search
            })
        } else {
            known_moves::advise(&self.game, self.book.as_deref(), book_use, None, draw)
        };
        if let Some(why) = self.tablebases.as_ref().and_then(|lent| lent.tables().take_failure()) {
            self.reply(Reply::TellUser(format!("Syzygy tablebases: {why}; the search plays on without that table")));
        }
        advice
    }

    fn play_without_search(&mut self, known: KnownMove) {
        tracing::info!(mv = %self.game.move_text(known.m), how = %known.thinking, "move known without search");
        if self.post {
            let thinking = if known.from_tables {
                // python-chess and lichess-bot read the move before the verdict.
                let pv = format!("{} {}", self.game.move_text(known.m), known.thinking);
                Thinking { depth: 1, score: i64::from(known.score), tbhits: 1, pv, ..Thinking::default() }
            } else {
                Thinking { score: i64::from(known.score), pv: known.thinking.clone(), ..Thinking::default() }
            };
            self.reply(Reply::Thinking(thinking));
        }
        let mut after = self.game.clone();
        after.play(known.m);
        self.expected_reply = known.expected_reply;
        self.hint = known.expected_reply.map(|r| after.move_text(r));
        self.last_score = Some(known.score);
        self.play_engine_move(known.m, Found::Unsearched(&known.note));
    }

    /// A number in 0..1 for the weighted book choice (splitmix64: varied, not secret).
    fn next_book_draw(&mut self) -> f64 {
        self.book_draws = self.book_draws.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.book_draws;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Opens the book the `Book file` option names (none when it is empty). The
    /// file is read on a thread of its own: a file on a stalled disk must not
    /// hold the engine. A book that takes longer than a moment arrives later.
    fn open_book(&mut self) {
        let file = self.options.host.book_file.trim().to_owned();
        self.book = None;
        self.book_generation += 1;
        if file.is_empty() {
            return;
        }
        let generation = self.book_generation;
        let opening = files::off_thread("book", BOOK_PATIENCE, move || Book::open(Path::new(&file)).map(Arc::new));
        match opening {
            Ok(result) => self.book_opened(generation, result),
            Err(later) => {
                self.debug("the book is still opening; it is used once it has opened".to_owned());
                self.forward_when_done("book-wait", later, move |result| Event::BookOpened { generation, result });
            }
        }
    }

    fn book_opened(&mut self, generation: u64, result: Result<Arc<Book>, String>) {
        if generation != self.book_generation {
            return;
        }
        match result {
            Ok(book) => {
                self.debug(format!("book {} opened: {} entries", book.path().display(), book.len()));
                self.book = Some(book);
            }
            Err(why) => {
                tracing::warn!(%why, "book not opened");
                self.reply(Reply::TellUserError(format!("Book not opened: {why}")));
            }
        }
    }

    /// Whether the book or the tablebases read files to answer.
    fn knowledge_reads_files(&self) -> bool {
        self.tablebases.is_some() || self.book.as_ref().is_some_and(|book| book.is_on_disk())
    }

    /// `bk`: the book's moves here, else the tablebases' verdict on every move.
    fn book_listing(&mut self) {
        let position = self.game.orthodox_position().cloned();
        let standard = self.game.castling_mode() == CastlingMode::Standard;
        let (book, tables) = (self.book.clone(), self.tablebases.as_ref().map(|t| t.tables().clone()));
        let listed = files::off_thread("bk", KNOWLEDGE_PATIENCE, move || {
            known_moves::listing(position.as_ref(), book.as_deref().filter(|_| standard), tables.as_deref())
        });
        let mut rows =
            listed.unwrap_or_else(|_| vec!["The book and the tablebases did not answer in time.".to_owned()]);
        if rows.is_empty() {
            rows.push(match (&self.book, &self.tablebases) {
                (None, None) => "No opening book is loaded.".to_owned(),
                _ => "No book or tablebase moves in this position.".to_owned(),
            });
        }
        for row in rows {
            self.reply(Reply::TableRow(row));
        }
        self.reply(Reply::EmptyLine);
    }

    /// `egtpath syzygy PATH`: the tables in these folders replace the ones before.
    /// They are opened on a thread of their own: a folder on a stalled disk must
    /// not hold the engine; tables that take longer than a moment arrive later.
    fn load_tablebases(&mut self, paths: &str) {
        self.tables_generation += 1;
        let generation = self.tables_generation;
        let owned = paths.to_owned();
        match files::off_thread("tablebases", TABLES_PATIENCE, move || Tablebases::load(&owned)) {
            Ok((tables, problems)) => self.tablebases_loaded(paths, tables, &problems),
            Err(later) => {
                self.debug(format!("Syzygy tablebases in {paths} are still opening; used once they have"));
                let paths = paths.to_owned();
                self.forward_when_done("tables-wait", later, move |loaded| {
                    let loaded = Arc::new(LoadedTables(std::sync::Mutex::new(Some(loaded))));
                    Event::TablesLoaded { generation, paths, loaded }
                });
            }
        }
    }

    fn tablebases_loaded(&mut self, paths: &str, tables: Tablebases, problems: &tablebases::Problems) {
        for problem in problems.broken.iter().chain(&problems.absent) {
            tracing::warn!(%problem, "tablebases");
        }
        if let Some(summary) = problems.summary() {
            self.reply(Reply::TellUser(format!("Syzygy tablebases: {summary}")));
        }
        if tables.is_empty() {
            self.tablebases = None;
            // Having no tables is normal: GUIs send their default path to every engine.
            self.debug(format!("No Syzygy tables found in {paths}: playing without tablebases"));
            return;
        }
        self.debug(format!("Syzygy tablebases: {}", tables.describe()));
        let tables = Arc::new(tables);
        self.tablebases = Some(SearchTables::lend(tables));
        // Scores found without the tables may be wrong with them.
        self.clear_hash = true;
    }

    fn restart_analysis(&mut self) {
        if !self.analyzing || !self.position_valid {
            return;
        }
        self.discard_search();
        let legal = self.game.position().legal_moves();
        if legal.iter().all(|m| self.excluded.contains(m)) {
            return;
        }
        let game = self.game.clone();
        self.start_search_on(&game, Purpose::Analysis, Budget { soft_ms: u64::MAX, hard_ms: u64::MAX });
    }

    fn start_search(&mut self, purpose: Purpose, budget: Budget) {
        let game = self.game.clone();
        self.start_search_on(&game, purpose, budget);
    }

    fn start_search_on(&mut self, game: &Game, purpose: Purpose, mut budget: Budget) {
        // On a node clock the budget is spent in nodes, and the wall clock has no say.
        let mut node_limit = 0;
        if let Some(rate) = self.clock.nodes_per_second.filter(|&rate| rate > 0)
            && purpose == Purpose::Move
        {
            node_limit = budget.soft_ms.saturating_mul(rate) / 1000;
            node_limit = node_limit.max(1);
            budget = Budget { soft_ms: NO_DEADLINE, hard_ms: NO_DEADLINE };
        }
        let (module, search_plugin) = self.plugins.search_module(game.cecp_name());
        let search_culprit = (search_plugin.origin.clone(), search_plugin.name().to_owned());
        let (eval, eval_plugin) = self.plugins.evaluator_source();
        let eval_culprit = (eval_plugin.origin.clone(), eval_plugin.name().to_owned());
        let id = self.next_job;
        self.next_job += 1;
        let spec = SearchSpec {
            module,
            eval,
            game_start: game.plugin_position(game.start()),
            moves: game.plugin_moves(),
            root: game.plugin_position(game.position()),
            // Exclusions apply to the current position; a ponder search looks at another.
            // Empty means every legal move, which is also what a search for our move
            // falls back to when everything was excluded.
            root_moves: if purpose == Purpose::Move && !self.drawing_moves.is_empty() {
                self.drawing_moves.iter().map(|&m| game::to_plugin_move(m)).collect()
            } else if matches!(purpose, Purpose::Ponder { .. }) || self.excluded.is_empty() {
                Vec::new()
            } else {
                let legal = game.position().legal_moves();
                legal.iter().filter(|m| !self.excluded.contains(m)).map(|&m| game::to_plugin_move(m)).collect()
            },
            depth: self.clock.depth_limit.unwrap_or(0),
            nodes: node_limit,
            threads: self.options.host.threads,
            hash_mb: self.hash_mb,
            // Extra lines cost strength; they are for analysis, not for play.
            multipv: if purpose == Purpose::Analysis { self.options.host.multipv } else { 1 },
            clear_hash: std::mem::take(&mut self.clear_hash),
            soft_ms: budget.soft_ms,
            hard_ms: budget.hard_ms,
            infinite: purpose != Purpose::Move,
            cpu_clock: self.clock.nodes_per_second == Some(0),
            preset_scores: self.preset_scores.clone(),
            tables: self.tablebases.clone(),
            eval_noise: if self.random { RANDOM_NOISE_CP } else { 0 },
            noise_seed: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(id, |t| t.as_nanos() as u64 ^ id),
        };
        tracing::info!(
            job = id,
            ?purpose,
            search = %search_culprit.1,
            eval = %eval_culprit.1,
            soft_ms = budget.soft_ms,
            hard_ms = budget.hard_ms,
            fen = %game.fen(),
            "search started"
        );
        let job = SearchJob::start(id, spec, self.inbox.clone());
        self.search = Some(Running {
            job,
            purpose,
            root: game.clone(),
            culprits: Culprits { search: search_culprit, eval: eval_culprit },
            budget,
            last_line: None,
            last_progress: None,
            ponder_outcome: None,
        });
        if self.paused
            && let Some(running) = &self.search
        {
            running.job.pause();
        }
    }

    fn on_progress(&mut self, job: u64, progress: Progress) {
        let Some(running) = self.search.as_mut().filter(|r| r.job.id == job) else { return };
        if !progress.is_line {
            running.last_progress = Some(progress);
            return;
        }
        let pv = pv_text(&running.root, &progress.pv);
        // Only the best line speaks for the position; the others are for the user to read.
        let best_line = progress.multipv <= 1;
        if best_line {
            running.last_line = Some(progress.clone());
        }
        if running.purpose == Purpose::Move && best_line {
            self.last_score = Some(match progress.score.kind {
                ScoreKind::Centipawns => progress.score.value,
                ScoreKind::Mate => progress.score.value.signum() * 30_000,
            });
        }
        let quiet = self.ponder_quiet_at == Some(self.lines_seen) && matches!(running.purpose, Purpose::Ponder { .. });
        if self.post {
            // On a node clock, time is what the nodes say it is; on a CPU clock, CPU time.
            let time_ms = match self.clock.nodes_per_second {
                Some(0) => running.job.elapsed().as_millis() as u64,
                Some(rate) => progress.nodes.saturating_mul(1000) / rate,
                None => progress.time_ms,
            };
            let thinking = Reply::Thinking(Thinking {
                depth: progress.depth,
                score: xboard_score(progress.score),
                centiseconds: time_ms / 10,
                nodes: progress.nodes,
                seldepth: progress.seldepth,
                nps: progress.nodes.saturating_mul(1000) / time_ms.max(1),
                tbhits: progress.tbhits,
                pv,
            });
            if quiet {
                self.held_ponder_line = Some((job, thinking));
            } else {
                self.reply(thinking);
            }
        }
    }

    fn on_finished(&mut self, job: u64, outcome: Result<SearchOutcome, String>) {
        if let Some(index) = self.abandoned.iter().position(|a| a.id == job) {
            let abandoned = self.abandoned.swap_remove(index);
            if let Err(why) = outcome {
                tracing::warn!(job, %why, search = %abandoned.culprits.search.1, "a stopped search failed");
            }
            return;
        }
        if let Some(running) = self.search.as_mut().filter(|r| r.job.id == job)
            && matches!(running.purpose, Purpose::Ponder { .. })
        {
            // The opponent has not moved yet: keep the result for a ponder hit.
            running.ponder_outcome = Some(outcome);
            return;
        }
        let Some(running) = self.search.take_if(|r| r.job.id == job) else { return };
        self.conclude(running, outcome);
    }

    /// What a finished search means: our move, or a fault to recover from.
    fn conclude(&mut self, running: Running, outcome: Result<SearchOutcome, String>) {
        let job = running.job.id;
        tracing::info!(job, elapsed_ms = running.job.elapsed().as_millis() as u64, ?outcome, "search finished");
        match outcome {
            Ok(outcome) => match running.purpose {
                Purpose::Analysis | Purpose::Ponder { .. } => {}
                Purpose::Move => {
                    let best = outcome.best.into_option().and_then(|m| running.root.from_plugin_move(m));
                    match best {
                        Some(best) => {
                            let mut after = running.root.clone();
                            after.play(best);
                            self.expected_reply = outcome.ponder.into_option().and_then(|r| after.from_plugin_move(r));
                            self.hint = self.expected_reply.map(|m| after.move_text(m));
                            self.play_engine_move(best, Found::Searched(&running));
                        }
                        None => {
                            let (origin, name) = running.culprits.search.clone();
                            let why = "it chose no legal move";
                            self.plugin_failed(Kind::Search, &origin, &name, why);
                            self.fall_back_move(&running);
                        }
                    }
                }
            },
            Err(mut why) => {
                let kind = if why.starts_with(EVAL_FAILURE_PREFIX) { Kind::Eval } else { Kind::Search };
                let (origin, name) = match kind {
                    Kind::Search => running.culprits.search.clone(),
                    Kind::Eval => running.culprits.eval.clone(),
                };
                if kind == Kind::Eval
                    && let Some(panic) = self.plugins.last_eval_panic(&origin, &name)
                {
                    why = format!("{why}: {panic}");
                }
                self.plugin_failed(kind, &origin, &name, &why);
                let next = match kind {
                    Kind::Search => self.plugins.search_module(running.root.cecp_name()).1,
                    Kind::Eval => self.plugins.selected(Kind::Eval),
                };
                if next.origin == origin && next.name() == name {
                    // The built-in itself failed (a position it cannot read): searching
                    // again would fail again, so the move is made without a search.
                    if running.purpose == Purpose::Move {
                        self.fall_back_move(&running);
                    }
                } else {
                    self.retry(running);
                }
            }
        }
    }

    /// The search did not return soon after being told to stop: when it was to
    /// find our move, the move is played without it so no time is lost.
    fn on_overdue(&mut self, job: u64) {
        let Some(running) = self.search.take_if(|r| r.job.id == job && r.purpose == Purpose::Move) else { return };
        tracing::warn!(job, search = %running.culprits.search.1, "search overran its stop; moving without it");
        self.abandoned.push(Abandoned { id: job, culprits: running.culprits.clone() });
        self.fall_back_move(&running);
    }

    /// The search still has not returned: its plugin ignores the stop flag.
    fn on_hung(&mut self, job: u64) {
        let culprits = if let Some(index) = self.abandoned.iter().position(|a| a.id == job) {
            self.abandoned.swap_remove(index).culprits
        } else if let Some(running) = self.search.take_if(|r| r.job.id == job) {
            self.abandoned.push(Abandoned { id: job, culprits: running.culprits.clone() });
            running.culprits
        } else {
            return;
        };
        let (origin, name) = culprits.search;
        self.plugin_failed(Kind::Search, &origin, &name, "it did not stop when told to");
        if self.search.is_none() {
            self.restart_analysis();
        }
    }

    fn plugin_failed(&mut self, kind: Kind, origin: &Origin, name: &str, why: &str) {
        tracing::error!(%kind, %name, %origin, %why, "plugin failed");
        let fallback = self.plugins.disable(kind, origin, name, why);
        self.reply(Reply::TellUserError(format!("The {kind} plugin {name} failed: {why}. Using {fallback} instead.")));
        self.readvertise_options();
    }

    /// After a plugin failed: search again with the fallback if there is time, or
    /// play the best move known.
    fn retry(&mut self, failed: Running) {
        match failed.purpose {
            Purpose::Analysis => self.restart_analysis(),
            // Never concluded: a failed ponder search is kept until the opponent moves.
            Purpose::Ponder { .. } => {}
            // On a node clock there is no wall-clock budget to split: start afresh.
            Purpose::Move if failed.budget.hard_ms == NO_DEADLINE => {
                let budget = self.clock.budget(self.game.position().fullmoves().get());
                self.start_search(Purpose::Move, budget);
            }
            Purpose::Move => {
                let elapsed = failed.job.elapsed().as_millis() as u64;
                let left = failed.budget.hard_ms.saturating_sub(elapsed);
                if left >= RETRY_MIN_MS {
                    let soft = failed.budget.soft_ms.saturating_sub(elapsed).clamp(RETRY_MIN_MS / 2, left);
                    self.start_search(Purpose::Move, Budget { soft_ms: soft, hard_ms: left });
                } else {
                    self.fall_back_move(&failed);
                }
            }
        }
    }

    /// Plays the best move the failed search reported, or else any legal move.
    fn fall_back_move(&mut self, failed: &Running) {
        let reported =
            failed.last_line.as_ref().and_then(|l| l.pv.first()).and_then(|&m| failed.root.from_plugin_move(m));
        let any = failed.root.position().legal_moves().first().copied();
        // The reply the last search expected belongs to an older position; only
        // this search's own line, when its first move is the one played, can say
        // what comes next.
        self.expected_reply = None;
        self.hint = None;
        if let (Some(m), Some(line)) = (reported, failed.last_line.as_ref()) {
            let mut after = failed.root.clone();
            after.play(m);
            self.expected_reply = line.pv.get(1).and_then(|&r| after.from_plugin_move(r));
            self.hint = self.expected_reply.map(|r| after.move_text(r));
        }
        if let Some(m) = reported.or(any) {
            if self.post {
                // Not a search result: the protocol marks such lines with '('.
                let pv = format!("(no search) {}", failed.root.move_text(m));
                self.reply(Reply::Thinking(Thinking { pv, ..Thinking::default() }));
            }
            self.play_engine_move(m, Found::Unsearched("no search"));
        } else {
            self.flush_pongs();
        }
    }

    /// Our move, as `found`: resigned instead, or played with a draw offer or claim
    /// before it and the commentary for a chess server after it.
    fn play_engine_move(&mut self, m: shakmaty::Move, found: Found<'_>) {
        let text = self.game.move_text(m);
        let now = Instant::now();
        let (summary, note) = match found {
            Found::Searched(running) => (self.summary_of(running, m), "no search"),
            Found::Unsearched(note) => (None, note),
        };
        let judged = Judged {
            score: summary.as_ref().map(|s| s.score),
            depth: summary.as_ref().map_or(0, |s| s.depth),
            fullmove: self.game.position().fullmoves().get(),
            pawnless: self.game.position().board().pawns().is_empty(),
            opponent_time_cs: self.clock.opponent_ms().map(|ms| ms / 10),
        };
        let options = &self.options.host;
        let limits = Limits {
            resign_threshold_cp: options.resign_threshold_cp,
            resign_moves: options.resign_moves,
            draw_offers: options.draw_offers,
            contempt_cp: self.ics.contempt(options.contempt_cp),
        };
        let verdict = self.ics.judge(&judged, &limits);
        self.finger_notes_due();
        if let Some(greeting) = self.ics.greet(&self.options.host.greeting, now) {
            self.reply(greeting);
        }
        if verdict != Verdict::Play {
            let score = judged.score.map(xboard_score).unwrap_or_default();
            self.debug(format!(
                "{verdict:?}: score {score} at depth {} (contempt {} cp)",
                judged.depth, limits.contempt_cp
            ));
        }
        if verdict == Verdict::Resign {
            self.reply(Reply::Resign);
            self.game_over = true;
            self.flush_pongs();
            return;
        }
        // A draw that becomes claimable by our move is claimed before it, as the protocol asks.
        if self.game.claimable_after(m) || verdict == Verdict::OfferDrawAndPlay {
            self.reply(Reply::OfferDraw);
        }
        let san = San::from_move(self.game.position(), m).to_string();
        self.game.play(m);
        self.claimed = false;
        self.reply(Reply::Move(text));
        let commentary = self.options.host.commentary;
        for line in self.ics.commentary(commentary, summary.as_ref(), &san, note, now) {
            self.reply(line);
        }
        let over = self.claim_if_over();
        self.flush_pongs();
        if !over {
            self.start_pondering();
        }
    }

    /// What the search found for the move `m` it chose, for the spectators and the
    /// resign and draw policy; `None` when its last line does not start with `m`.
    fn summary_of(&self, running: &Running, m: shakmaty::Move) -> Option<Summary> {
        let line = running.last_line.as_ref()?;
        let first = line.pv.first().and_then(|&first| running.root.from_plugin_move(first))?;
        if first != m {
            return None;
        }
        let time_ms = match self.clock.nodes_per_second {
            Some(rate) if rate > 0 => line.nodes.saturating_mul(1000) / rate,
            _ => line.time_ms,
        };
        Some(Summary {
            depth: line.depth,
            score: line.score,
            nodes: line.nodes,
            time_ms,
            tbhits: line.tbhits,
            pv: san_line(&running.root, &line.pv),
        })
    }

    /// In bughouse, with the partner's help allowed: ask for a piece that mates now.
    fn ask_partner(&mut self) {
        if !self.bughouse || !self.options.host.partner_asks {
            return;
        }
        let mating = ics::mating_drop(self.game.position(), self.game.castling_mode());
        let fullmove = self.game.position().fullmoves().get();
        if let Some(ask) = self.ics.partner_ask(mating, fullmove, Instant::now()) {
            self.reply(ask);
        }
    }

    fn analysis_status(&mut self) {
        let Some(running) = self.search.as_ref().filter(|r| r.purpose == Purpose::Analysis) else { return };
        // Lines come at the end of iterations, progress reports every tenth of a
        // second: take the freshest of each.
        let line = running.last_line.as_ref();
        let progress = running.last_progress.as_ref();
        let nodes = line.map_or(0, |l| l.nodes).max(progress.map_or(0, |p| p.nodes));
        let depth = line.map_or(0, |l| l.depth).max(progress.map_or(0, |p| p.depth));
        let current = progress.and_then(|p| p.current_move).map(|m| pv_text(&running.root, &[m])).unwrap_or_default();
        let total = progress.map_or_else(|| running.root.position().legal_moves().len() as u32, |p| p.root_move_count);
        let searched = progress.map_or(0, |p| p.current_move_number);
        let stat = Stat01 {
            centiseconds: running.job.elapsed().as_millis() as u64 / 10,
            nodes,
            depth,
            moves_left: total.saturating_sub(searched),
            total_moves: total,
            current_move: current,
        };
        self.reply(Reply::Stat01(stat));
    }
}

/// Half the machine's memory, so a mistyped `memory` cannot get the engine killed
/// for want of it; unbounded where the size cannot be read.
fn hash_ceiling_mb() -> u32 {
    let total_kb = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        text.lines()
            .find_map(|line| line.strip_prefix("MemTotal:")?.trim().strip_suffix("kB")?.trim().parse::<u64>().ok())
    });
    total_kb.map_or(u32::MAX, |kb| u32::try_from(kb / 1024 / 2).unwrap_or(u32::MAX).max(1))
}

/// The legal prefix of a principal variation, in the GUI's notation.
fn pv_text(root: &Game, pv: &[PluginMove]) -> String {
    pv_words(root, pv, |game, m| game.move_text(m))
}

/// The legal prefix of a principal variation in SAN, for people to read.
fn san_line(root: &Game, pv: &[PluginMove]) -> String {
    pv_words(root, pv, |game, m| San::from_move(game.position(), m).to_string())
}

fn pv_words(root: &Game, pv: &[PluginMove], word: impl Fn(&Game, shakmaty::Move) -> String) -> String {
    let mut game = root.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &m in pv {
        let Some(m) = game.from_plugin_move(m) else { break };
        words.push(word(&game, m));
        game.play(m);
    }
    words.join(" ")
}

/// Centipawns, or ±(100000 + moves) for mates, as xboard and python-chess read them.
fn xboard_score(score: Score) -> i64 {
    match score.kind {
        ScoreKind::Centipawns => i64::from(score.value),
        ScoreKind::Mate if score.value >= 0 => 100_000 + i64::from(score.value),
        ScoreKind::Mate => -100_000 + i64::from(score.value),
    }
}
