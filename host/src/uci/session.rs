//! The UCI front end: takes every [`Event`] in order, turns the GUI's lines into
//! requests to the [`Core`] and the core's notes into replies. It owns only
//! UCI's own rules: the greeting up to `uciok`, `readyok` at once whatever the
//! engine is doing, a `bestmove` for every `go` (also one cut short by the next
//! `position`), the whole game sent with each `position`, the variant chosen
//! with `UCI_Variant`, unknown commands ignored, and `info string` for anything
//! a person should read. The engine never plays a side on its own: it answers
//! `go`.

use super::{
    Command, Reply,
    command::Go,
    options::{self, ANALYSE_MODE, CHESS960, FormTarget, SHOW_WDL, Target, UciSettings},
    render, sessions,
};
use crate::{
    core::{Applied, Core, ENGINE_NAME, Note, Refusal, answer::Request},
    cxboard::{self, render::EMPTY},
    event::Event,
    game::GameMove,
    quote::quote,
};

pub const AUTHOR: &str = "The Plugboard authors";

pub struct Session {
    pub core: Core,
    out: Vec<Reply>,
    /// `debug on`: diagnostics, and the commands ignored, go out as `info string`.
    debug: bool,
    settings: UciSettings,
    /// The variant the core plays (its name there), and its start position,
    /// once a `position` has set it.
    variant_set: Option<(String, String)>,
    /// A `go` was taken and its `bestmove` is still to come.
    owes_best_move: bool,
    /// The latest first line's best move and expected reply, for a `bestmove`
    /// owed when the search must go before it ends.
    latest_line: Option<(GameMove, Option<GameMove>)>,
    /// The root move last told with `currmove`: its depth and number.
    current_told: Option<(u32, u32)>,
    /// The option lines the GUI was last given.
    advertised: Vec<String>,
    /// What went wrong before the GUI could listen, said after `uciok`.
    startup: Vec<String>,
}

impl Session {
    /// A session over `core`, which was set up under another front end's rules
    /// until now: it plays no side, and its game is set by the first `position`.
    /// `startup` is what the user must read of what happened before the GUI listened.
    pub fn with_core(core: Core, startup: Vec<String>) -> Session {
        let mut session = Session {
            core,
            out: Vec::new(),
            debug: false,
            settings: UciSettings::default(),
            variant_set: None,
            owes_best_move: false,
            latest_line: None,
            current_told: None,
            advertised: Vec::new(),
            startup,
        };
        // No UCI GUI takes a resignation or a draw offer: the engine plays on.
        session.core.never_resign();
        session.core.force();
        sessions::startup_notes(&mut session.core, &mut session.startup);
        session
    }

    /// Replies produced so far, in order, for the one writer to print.
    pub fn take_output(&mut self) -> Vec<Reply> {
        self.take_notes();
        std::mem::take(&mut self.out)
    }

    pub fn wants_to_quit(&self) -> bool {
        self.core.wants_to_quit()
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.core.is_searching()
    }

    pub fn handle(&mut self, event: Event) {
        match event {
            Event::Line(line) => self.handle_line(&line),
            Event::Overlong { start, length } => {
                let line = sessions::overlong_line(&start, length);
                self.say(format!("Error (line too long): {line}"));
            }
            event => self.core.handle(event),
        }
        self.take_notes();
    }

    fn reply(&mut self, reply: Reply) {
        self.out.push(reply);
    }

    fn say(&mut self, text: String) {
        self.reply(Reply::Text(text));
    }

    fn refuse(&mut self, line: &str, refusal: Refusal) {
        self.say(render::refusal(line, refusal));
    }

    fn handle_line(&mut self, line: &str) {
        let command = match Command::parse(line) {
            Ok(command) => command,
            // The specification: an unknown command is ignored (and logged here).
            Err(super::command::CommandError::Unknown) => {
                tracing::info!(line = %quote(line), "unknown command ignored");
                if self.debug {
                    self.say(format!("ignored: {}", quote(line)));
                }
                return;
            }
            Err(error) => {
                tracing::warn!(line = %quote(line), %error, "command refused");
                return self.say(format!("Error ({error}): {}", quote(line)));
            }
        };
        match command {
            Command::Uci => self.announce(),
            Command::Debug(on) => self.debug = on,
            // At once, also while a search runs: the GUI only asks whether we listen.
            Command::IsReady => self.reply(Reply::ReadyOk),
            Command::SetOption { name, value } => self.set_option(line, name, value),
            Command::Register => tracing::info!("register: nothing here needs registering"),
            Command::UciNewGame => {
                self.end_search_owing_best_move();
                self.core.new_game();
                self.core.force();
                self.variant_set = None;
            }
            Command::Position { fen, moves } => self.position(line, fen, &moves),
            Command::Go(go) => self.go(line, go),
            Command::Stop => self.core.stop_answer(),
            Command::PonderHit => self.core.answer_ponder_hit(),
            Command::Quit => self.core.quit(),
        }
    }

    /// `id`, the options, `uciok`, and what the user must read from before.
    fn announce(&mut self) {
        self.reply(Reply::IdName(ENGINE_NAME.to_owned()));
        self.reply(Reply::IdAuthor(AUTHOR.to_owned()));
        let lines = options::declarations(&self.core, &self.settings);
        self.out.extend(lines.iter().cloned().map(Reply::Option));
        self.advertised = lines;
        self.reply(Reply::UciOk);
        for text in std::mem::take(&mut self.startup) {
            self.say(text);
        }
    }

    /// A `go` search that must end before its time (a new `position` or `go`
    /// came first): its `bestmove` is the best it found so far, said now.
    fn end_search_owing_best_move(&mut self) {
        if !self.owes_best_move {
            return;
        }
        tracing::warn!("a new game or position came before the search's best move: the best so far is reported");
        let (best, ponder) = self.latest_line.take().map_or((None, None), |(best, ponder)| (Some(best), ponder));
        let game = self.core.game();
        let best = best.map(|m| game.uci_move_text(m));
        let ponder = ponder.map(|m| game.uci_move_text(m));
        self.reply(Reply::BestMove { best, ponder });
        self.owes_best_move = false;
        self.core.force();
    }

    /// `position`: the variant `UCI_Variant` names, its board, then the moves up to
    /// the first that is not legal. The game is replayed from the list each
    /// time, so its repetitions are known; the hash is kept.
    fn position(&mut self, line: &str, fen: Option<&str>, moves: &[&str]) {
        self.end_search_owing_best_move();
        let variant = self.settings.core_variant();
        if self.variant_set.as_ref().is_none_or(|(set, _)| *set != variant) {
            if let Err(refusal) = self.core.set_variant(&variant) {
                self.variant_set = None;
                return self.refuse(line, refusal);
            }
            let start = self.core.game().fen();
            self.variant_set = Some((variant, start));
        }
        let start = self.variant_set.as_ref().map(|(_, start)| start.clone()).unwrap_or_default();
        let fen = fen.map_or(start, str::to_owned);
        if let Err(why) = self.core.set_position_or_why(&fen) {
            return self.say(format!("Error (bad position: {why}): {}", line.trim()));
        }
        for text in moves {
            match self.core.game().parse_move(text) {
                Ok(m) => self.core.setup_move(m),
                Err(reason) => {
                    return self.say(format!("Illegal move ({reason}): {text}; the position ends before it"));
                }
            }
        }
    }

    fn go(&mut self, line: &str, go: Go<'_>) {
        self.end_search_owing_best_move();
        self.core.force();
        if !self.core.position_valid() {
            self.say(format!("Error (no legal position is set up): {}", line.trim()));
            return self.reply(Reply::BestMove { best: None, ponder: None });
        }
        let mut searchmoves = Vec::new();
        for text in go.searchmoves {
            match self.core.game().parse_move(text) {
                Ok(m) => searchmoves.push(m),
                Err(reason) => self.say(format!("Illegal move ({reason}): {text}; searchmoves goes on without it")),
            }
        }
        let known_moves = !self.settings.analyse_mode;
        let request = Request { limits: go.limits, searchmoves, ponder: go.ponder, known_moves };
        self.latest_line = None;
        self.current_told = None;
        self.owes_best_move = true;
        if let Err(refusal) = self.core.answer(request) {
            self.refuse(line, refusal);
            self.owes_best_move = false;
            self.reply(Reply::BestMove { best: None, ponder: None });
        }
    }

    /// `setoption name NAME [value X]`; `Configure` sets each option it lists.
    fn set_option(&mut self, line: &str, name: &str, value: Option<&str>) {
        let value = value.map(|v| if v == EMPTY { "" } else { v });
        let Some(target) = options::find(&self.core, name) else {
            return self.refuse(line, Refusal::UnknownOption);
        };
        let applied = match target {
            Target::Variant => options::variant_value(&self.core, value).map_err(Refusal::BadParameter).map(|name| {
                self.settings.variant = name;
                Applied::Done
            }),
            Target::Chess960 => options::check_value(CHESS960, value).map_err(Refusal::BadParameter).map(|on| {
                self.settings.chess960 = on;
                Applied::Done
            }),
            Target::AnalyseMode => options::check_value(ANALYSE_MODE, value).map_err(Refusal::BadParameter).map(|on| {
                self.settings.analyse_mode = on;
                Applied::Done
            }),
            Target::ShowWdl => options::check_value(SHOW_WDL, value).map_err(Refusal::BadParameter).map(|on| {
                self.settings.show_wdl = on;
                Applied::Done
            }),
            Target::SyzygyPath => {
                let paths = value.unwrap_or("").to_owned();
                self.core.open_tables("syzygy", &paths).map(|()| {
                    self.settings.syzygy_path = paths;
                    Applied::Done
                })
            }
            Target::Form(FormTarget::Hash) => {
                cxboard::options::hash_value(value).map_err(Refusal::BadParameter).map(|mb| {
                    self.core.set_hash_mb(mb);
                    Applied::Done
                })
            }
            Target::Form(FormTarget::Ponder) => {
                cxboard::options::ponder_value(value).map_err(Refusal::BadParameter).map(|on| {
                    self.settings.pondering = on;
                    Applied::Done
                })
            }
            Target::Form(FormTarget::Core(name)) => self.core.set_option(&name, value),
        };
        // What the option brought about comes before what follows it in `Configure`.
        self.take_notes();
        match applied {
            Ok(Applied::Done) => {}
            Ok(Applied::Configure(settings)) => {
                for step in sessions::configure_steps(&settings) {
                    match step {
                        Some((inner_line, inner, value)) => self.set_option(&inner_line, &inner, value.as_deref()),
                        None => self.refuse(line, Refusal::BadParameter("Configure within Configure".into())),
                    }
                }
            }
            Err(refusal) => self.refuse(line, refusal),
        }
    }

    /// The option list changed (another plugin chosen, a rescan, a fault): UCI
    /// declares options only before `uciok`, so the new list is told as `info
    /// string` lines that no GUI mistakes for declarations.
    fn options_changed(&mut self, purged: bool) {
        let lines = options::declarations(&self.core, &self.settings);
        let told = sessions::options_told_again(lines, &mut self.advertised, purged);
        self.out.extend(told.into_iter().map(Reply::Text));
    }

    /// Turns what the core said into replies.
    fn take_notes(&mut self) {
        for note in self.core.take_notes() {
            self.take_note(note);
        }
    }

    fn take_note(&mut self, note: Note) {
        let game = self.core.game();
        let text = |m: GameMove| game.uci_move_text(m);
        let note = match sessions::info_strings(note, self.debug, text) {
            Ok(lines) => return self.out.extend(lines.into_iter().map(Reply::Text)),
            Err(note) => note,
        };
        let reply = match note {
            Note::BestMove { best, ponder } => {
                self.owes_best_move = false;
                Reply::BestMove { best: best.map(text), ponder: ponder.map(text) }
            }
            Note::Thought(thought) => {
                if thought.multipv <= 1
                    && let Some(&best) = thought.pv.first()
                {
                    self.latest_line = Some((best, thought.pv.get(1).copied()));
                }
                Reply::Info(render::info(&thought, game, self.settings.show_wdl))
            }
            Note::CurrentMove { depth, m, number } => {
                // Told when it changes, not with every report of the search.
                if self.current_told == Some((depth, number)) {
                    return;
                }
                self.current_told = Some((depth, number));
                Reply::CurrentMove { depth, m: text(m), number }
            }
            // The engine plays no side under UCI; should the core move, it is said, not done.
            Note::Move(m) => Reply::Text(format!("the engine would play {}", text(m))),
            Note::Score(score) => Reply::Text(format!("score {}", cxboard::render::score(score))),
            Note::Hint(m) => Reply::Text(format!("hint {}", text(m))),
            Note::OfferDraw => return tracing::info!("a draw offer has no words in UCI"),
            Note::OptionsChanged { purged } => return self.options_changed(purged),
            // The variants are a choice of `UCI_Variant`: its list changed.
            Note::VariantsChanged => return self.options_changed(false),
            Note::MoveSearchOver => return,
            note => return tracing::warn!(?note, "a note UCI has no words for"),
        };
        self.reply(reply);
    }
}
