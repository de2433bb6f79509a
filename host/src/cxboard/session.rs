//! The cxboard front end: takes every [`Event`] in order, turns the GUI's lines
//! into requests to the [`Core`] and the core's notes into replies. It owns only
//! cxboard's own rules: the greeting up to `cxboardok`, `readyok` only after
//! everything before it (our move first), force mode's `go`/`stop`/`undo`, a
//! move refused from the side the engine plays, the pause gate, diagnostics only
//! after `debug on`, and its reply formats. The game is xiangqi from the start.

use super::{
    Command, Reply,
    command::Go,
    options::{self, Target},
    render,
};
use crate::{
    core::{Applied, Core, ENGINE_NAME, Note, Refusal, answer::Request},
    event::Event,
    game::GameMove,
    quote::quote,
    uci::sessions,
};

pub const AUTHOR: &str = "The Plugboard authors";
/// The game the protocol is for.
const VARIANT: &str = "xiangqi";

pub struct Session {
    pub core: Core,
    out: Vec<Reply>,
    /// `debug on`: diagnostics go out as `info string`.
    debug: bool,
    /// Between `pause` and `resume` only `resume` is taken (and `isready`, `quit`).
    paused: bool,
    /// `isready`s sent while the engine thought about its move: answered after it.
    pending_ready: usize,
    /// Whether the `Ponder` option is on.
    pondering: bool,
    /// The option lines the GUI was last given.
    advertised: Vec<String>,
    /// What went wrong before the GUI could listen, said after `cxboardok`.
    startup: Vec<String>,
}

impl Session {
    /// A session over `core`, which was set up under another front end's rules
    /// until now: it gets a xiangqi game, in force mode. `startup` is what the
    /// user must read of what happened before the GUI listened.
    pub fn with_core(core: Core, startup: Vec<String>) -> Session {
        let mut session = Session {
            core,
            out: Vec::new(),
            debug: false,
            paused: false,
            pending_ready: 0,
            pondering: false,
            advertised: Vec::new(),
            startup,
        };
        // No GUI of this protocol takes a resignation, and none expects the
        // engine to move before it is told to.
        session.core.never_resign();
        session.core.force();
        if session.core.set_variant(VARIANT).is_err() {
            tracing::error!("xiangqi is unknown to the core; cxboard has no game to play");
        }
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

    /// Whether a search is running that the session still waits for.
    pub fn is_searching(&self) -> bool {
        self.core.is_searching()
    }

    pub fn handle(&mut self, event: Event) {
        match event {
            Event::Line(line) => self.handle_line(&line),
            Event::Overlong { start, length } => {
                let line = sessions::overlong_line(&start, length);
                self.reply(Reply::Error { kind: "line too long".into(), line });
            }
            event => self.core.handle(event),
        }
        self.take_notes();
    }

    fn reply(&mut self, reply: Reply) {
        self.out.push(reply);
    }

    fn error(&mut self, kind: &str, line: &str) {
        self.reply(Reply::Error { kind: kind.to_owned(), line: line.trim().to_owned() });
    }

    fn refuse(&mut self, line: &str, refusal: Refusal) {
        self.reply(render::refusal(line, refusal));
    }

    fn handle_line(&mut self, line: &str) {
        let command = match Command::parse(line) {
            Ok(command) => command,
            Err(error) => {
                tracing::warn!(line = %quote(line), %error, "command refused");
                return self.error(error.kind(), line);
            }
        };
        if self.paused && !matches!(command, Command::Resume | Command::IsReady | Command::Quit) {
            return self.error("paused", line);
        }
        let core = &mut self.core;
        match command {
            Command::Cxboard(version) => {
                tracing::info!(version, "cxboard GUI");
                self.announce();
            }
            Command::Force => {
                // Already forced, a `go` search goes on: nothing changes.
                if !core.is_forced() {
                    core.force();
                }
            }
            Command::Go(go) => self.go(line, go),
            Command::PlayCurrent => {
                if !core.position_valid() {
                    return self.error("no legal position is set up", line);
                }
                if let Err(refusal) = core.go() {
                    self.refuse(line, refusal);
                }
            }
            Command::PlayOther => core.play_other(),
            Command::Move(text) => self.user_move(line, text),
            Command::MoveNow => {
                if core.thinking_on_move() {
                    core.move_now();
                } else {
                    core.stop_answer();
                }
            }
            Command::Stop => {
                if !core.is_forced() {
                    return self.error("not in force mode", line);
                }
                core.stop_answer();
            }
            Command::IsReady => {
                // As CECP's `ping`: while the engine thinks on its move, after the move.
                if core.thinking_on_move() && !self.paused {
                    self.pending_ready += 1;
                } else {
                    self.reply(Reply::ReadyOk);
                }
            }
            Command::SetOption { name, value } => self.set_option(line, name, value),
            Command::Position { fen, moves } => self.position(line, fen, &moves),
            Command::Debug(on) => self.debug = on,
            Command::Draw => core.draw_offered(),
            Command::Result { result, comment } => {
                tracing::info!(%result, %comment, "game over");
                core.game_over();
            }
            Command::Hint => {
                if let Some(hint) = core.hint() {
                    let text = core.game().move_text(hint);
                    self.reply(Reply::Hint(text));
                }
            }
            Command::Undo => {
                if !core.is_forced() {
                    return self.error("not in force mode", line);
                }
                core.undo(1);
            }
            Command::Remove => core.undo(2),
            Command::Name(name) => core.set_opponent(name),
            Command::Computer => core.ics.set_computer(),
            Command::Pause => match core.pause() {
                Ok(()) => self.paused = true,
                Err(refusal) => self.refuse(line, refusal),
            },
            Command::Resume => {
                if !self.paused {
                    return self.error("not paused", line);
                }
                self.paused = false;
                if let Err(refusal) = core.resume() {
                    self.refuse(line, refusal);
                }
            }
            Command::Score => {
                if let Err(refusal) = core.report_score() {
                    self.refuse(line, refusal);
                }
            }
            Command::Clock(control) => core.clock().set_overtime(control),
            Command::Quit => core.quit(),
        }
    }

    /// `id`, the options, `cxboardok`, and what the user must read from before.
    fn announce(&mut self) {
        self.reply(Reply::IdName(ENGINE_NAME.to_owned()));
        self.reply(Reply::IdAuthor(AUTHOR.to_owned()));
        let lines = options::declarations(&self.core, self.pondering);
        self.out.extend(lines.iter().cloned().map(Reply::Option));
        self.advertised = lines;
        self.reply(Reply::CxboardOk);
        for text in std::mem::take(&mut self.startup) {
            self.reply(Reply::Text(text));
        }
    }

    fn go(&mut self, line: &str, go: Go<'_>) {
        if !self.core.is_forced() {
            return self.error("not in force mode", line);
        }
        if !self.core.position_valid() {
            return self.error("no legal position is set up", line);
        }
        let mut searchmoves = Vec::new();
        for text in go.searchmoves {
            match self.core.game().parse_move(text) {
                Ok(m) => searchmoves.push(m),
                Err(reason) => {
                    return self.reply(Reply::IllegalMove { reason: reason.into(), mv: text.to_owned() });
                }
            }
        }
        // The GUI keeps the game, and with it any book.
        let request = Request { limits: go.limits, searchmoves, ponder: go.ponder, known_moves: false };
        if let Err(refusal) = self.core.answer(request) {
            self.refuse(line, refusal);
        }
    }

    fn user_move(&mut self, line: &str, text: &str) {
        let core = &mut self.core;
        let illegal = |reason: &str| Reply::IllegalMove { reason: reason.to_owned(), mv: text.to_owned() };
        if !core.position_valid() {
            return self.reply(illegal("no legal position is set up"));
        }
        if core.pondering_answer() {
            if let Err(reason) = core.ponder_answer_move(text) {
                self.reply(illegal(reason));
            }
            return;
        }
        let m = match core.game().parse_move(text) {
            Ok(m) => m,
            Err(reason) => return self.reply(illegal(reason)),
        };
        // The move would leave the opponent to move: it was ours to make.
        if core.engine_on_move() {
            return self.error("not your turn", line);
        }
        core.user_move(m);
    }

    /// `position`: the board, then its moves up to the first that is not legal.
    fn position(&mut self, line: &str, fen: Option<&str>, moves: &[&str]) {
        let fen = fen.map_or_else(|| plugboard_xiangqi::START.to_owned(), str::to_owned);
        if let Err(why) = self.core.set_position_or_why(&fen) {
            return self.error(&format!("bad position: {}", quote(&why)), line);
        }
        for text in moves {
            match self.core.game().parse_move(text) {
                Ok(m) => self.core.setup_move(m),
                Err(reason) => {
                    return self.reply(Reply::IllegalMove { reason: reason.into(), mv: (*text).to_owned() });
                }
            }
        }
    }

    /// `setoption name NAME [value X]`; `Configure` sets each option it lists.
    fn set_option(&mut self, line: &str, name: &str, value: Option<&str>) {
        let value = value.map(|v| if v == render::EMPTY { "" } else { v });
        let Some(target) = options::find(&self.core, name) else {
            return self.refuse(line, Refusal::UnknownOption);
        };
        let applied = match target {
            Target::Hash => options::hash_value(value).map_err(Refusal::BadParameter).map(|mb| {
                self.core.set_hash_mb(mb);
                Applied::Done
            }),
            Target::Ponder => options::ponder_value(value).map_err(Refusal::BadParameter).map(|on| {
                self.pondering = on;
                self.core.set_pondering(on);
                Applied::Done
            }),
            Target::Core(name) => self.core.set_option(&name, value),
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

    /// The option list changed (another plugin chosen, a rescan, a fault): the
    /// protocol declares options only before `cxboardok`, so the new list is
    /// told as `info string` lines that no GUI mistakes for declarations.
    fn options_changed(&mut self, purged: bool) {
        let lines = options::declarations(&self.core, self.pondering);
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
        let text = |m: GameMove| game.move_text(m);
        let note = match sessions::info_strings(note, self.debug, text) {
            Ok(lines) => return self.out.extend(lines.into_iter().map(Reply::Text)),
            Err(note) => note,
        };
        let reply = match note {
            Note::Move(m) => Reply::Move(text(m)),
            Note::BestMove { best, ponder } => Reply::BestMove { best: best.map(text), ponder: ponder.map(text) },
            Note::Score(score) => Reply::Score(render::score(score)),
            Note::Thought(thought) => Reply::Info(render::info(&thought, game)),
            Note::OfferDraw => Reply::OfferDraw,
            Note::Hint(m) => Reply::Hint(text(m)),
            Note::OptionsChanged { purged } => return self.options_changed(purged),
            // cxboard plays xiangqi alone: other variants are no news to its GUI.
            Note::VariantsChanged => return,
            // Its document has no field for the move being searched.
            Note::CurrentMove { .. } => return,
            Note::MoveSearchOver => {
                for _ in 0..std::mem::take(&mut self.pending_ready) {
                    self.reply(Reply::ReadyOk);
                }
                return;
            }
            note => return tracing::warn!(?note, "a note cxboard has no words for"),
        };
        self.reply(reply);
    }
}
