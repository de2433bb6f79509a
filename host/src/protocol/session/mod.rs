//! The CECP front end: takes every [`Event`] in order, turns the GUI's lines
//! into requests to the [`Core`] and the core's notes into replies. It owns only
//! CECP's own rules: the features and what the GUI accepted, `#` lines only for
//! a GUI that takes them, a `pong` only after everything before it (our move
//! first), `edit` mode and the other protocol-1 idioms, and its reply formats.

mod startup;

use std::sync::mpsc::Sender;

use shakmaty::Color;

use super::{
    Command, Reply,
    features::{self, Negotiated},
    options, render,
    reply::Thinking,
};
use crate::{
    core::{Applied, Core, ENGINE_NAME, Note, Refusal, SystemClock, note::Thought, options::CONFIGURE},
    edit::{Edit, EditStep},
    event::Event,
    game::GameMove,
    plugins::PluginHost,
    quote::{QUOTED_CHARS, quote},
    search::ThreadLauncher,
};

/// Diagnostics kept for a GUI that has not yet said whether it takes them.
const MAX_PENDING_DEBUG: usize = 100;

pub struct Session {
    pub core: Core,
    out: Vec<Reply>,
    negotiated: Negotiated,
    post: bool,
    pending_pongs: Vec<String>,
    pending_debug: Vec<String>,
    /// The option lines the GUI was last given.
    advertised: Vec<String>,
    /// Protocol 1's position set-up, while it lasts.
    edit: Option<Edit>,
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
    /// The square of the piece the user lifted last, and where a first leg of
    /// its move was put down (a cyan square), for the second leg's `lift`.
    lifted: Option<(String, Option<String>)>,
}

impl Session {
    /// A session whose searches run on threads, reporting to `inbox`.
    pub fn new(inbox: Sender<Event>, plugins: PluginHost) -> Session {
        let launcher = Box::new(ThreadLauncher { inbox: inbox.clone() });
        Session::with_core(Core::new(inbox, plugins, launcher, Box::new(SystemClock)))
    }

    pub fn with_core(mut core: Core) -> Session {
        core.avoid_moves_the_gui_misapplies(super::xboard_variants::misapplied_by_xboard);
        let mut session = Session {
            core,
            out: Vec::new(),
            negotiated: Negotiated::default(),
            post: false,
            pending_pongs: Vec::new(),
            pending_debug: Vec::new(),
            advertised: Vec::new(),
            edit: None,
            startup_notes: Vec::new(),
            lines_seen: 0,
            ponder_quiet_at: None,
            held_ponder_line: None,
            lifted: None,
        };
        session.take_notes();
        session
    }

    /// Replies produced so far, in order, for the one writer to print; also
    /// what the core said before a fault cut its event short.
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
            Event::Line(line) => {
                self.lines_seen += 1;
                self.handle_line(&line);
                self.take_notes();
                // The ponder search's thinking, held back since our move, may now be shown.
                if let Some((job, held)) = self.held_ponder_line.take()
                    && self.core.search_id() == Some(job)
                {
                    self.reply(held);
                }
            }
            Event::Overlong { start, length } => {
                tracing::warn!(length, start = %quote(&start), "overlong line refused");
                // Short enough to pass the reply's own quoting whole.
                let start: String = start.chars().take(QUOTED_CHARS / 2).collect();
                let command = format!("{start}... ({length} bytes in all)");
                self.reply(Reply::Error { kind: "line too long", command });
            }
            event => {
                self.core.handle(event);
                self.take_notes();
            }
        }
    }

    fn reply(&mut self, mut reply: Reply) {
        if let Reply::Thinking(thinking) = &mut reply {
            thinking.extended = self.core.extended_thinking();
        }
        self.out.push(reply);
    }

    fn handle_line(&mut self, line: &str) {
        if let Some(edit) = self.edit.as_mut() {
            match edit.line(line) {
                EditStep::Continue => {}
                EditStep::Refused(why) => self.refuse(line, Refusal::BadParameter(why.to_owned())),
                EditStep::Done(result) => {
                    self.edit = None;
                    self.core.set_edited(result);
                }
            }
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
        let core = &mut self.core;
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
            Command::New => core.new_game(),
            Command::Variant(name) => match super::xboard_variants::resolve(name)
                .and_then(|(name, resized)| core.set_variant(&name).map(|()| resized))
            {
                Err(refusal) => self.refuse(line, refusal),
                // xboard learns a variant it does not know from the engine.
                Ok(resized) => {
                    if let Some(variant) = core.game().definition().cloned() {
                        // One made over for another board brings its start position.
                        if !super::xboard_variants::knows(&variant.name) || resized {
                            self.out.push(Reply::Setup(super::xboard_variants::setup(&variant)));
                        }
                        self.out.extend(super::xboard_variants::pieces(&variant).into_iter().map(Reply::Piece));
                    }
                }
            },
            Command::Quit => core.quit(),
            Command::Random => core.toggle_random(),
            Command::Force => core.force(),
            Command::Go => {
                if let Err(refusal) = core.go() {
                    self.refuse(line, refusal);
                }
            }
            Command::PlayOther => core.play_other(),
            Command::White => core.set_turn(Color::White),
            Command::Black => core.set_turn(Color::Black),
            Command::Level { moves_per_session, base_ms, increment_ms } => {
                let fullmove = core.game().fullmoves();
                core.clock().set_level(moves_per_session, base_ms, increment_ms, fullmove);
            }
            Command::SecondsPerMove { ms } => core.clock().set_seconds_per_move(ms),
            Command::Depth(depth) => core.clock().depth_limit = Some(depth.max(1)),
            Command::Nps(rate) => core.set_nps(rate),
            Command::Time { centiseconds } => core.clock().set_own_time(centiseconds),
            Command::Otim { centiseconds } => core.clock().set_opponent_time(centiseconds),
            Command::Move(text) => self.user_move(text),
            Command::MoveNow => core.move_now(),
            Command::Ping(n) => {
                if core.thinking_on_move() {
                    self.pending_pongs.push(n.to_owned());
                } else {
                    self.reply(Reply::Pong(n.to_owned()));
                }
            }
            Command::Draw => core.draw_offered(),
            Command::Result { result, comment } => {
                tracing::info!(%result, %comment, "game over");
                core.game_over();
            }
            Command::SetBoard(fen) => core.set_position(fen),
            Command::Hint => {
                if let Some(hint) = core.hint() {
                    let text = core.game().move_text(hint);
                    self.reply(Reply::Hint(text));
                }
            }
            Command::Bk => core.book_listing(),
            Command::Undo => core.undo(1),
            Command::Remove => core.undo(2),
            Command::Hard => core.set_pondering(true),
            Command::Easy => core.set_pondering(false),
            Command::Post => self.post = true,
            Command::NoPost => self.post = false,
            Command::Analyze => core.analyze(),
            Command::Exit => {
                if let Err(refusal) = core.exit_analysis() {
                    self.refuse(line, refusal);
                }
            }
            Command::AnalysisStatus => core.analysis_status(),
            Command::Name(name) => core.set_opponent(name),
            Command::Rating { own, opponent } => core.set_ratings(own, opponent),
            Command::Ratings { white, black } => core.set_player_ratings(white, black),
            Command::Ics(host) => core.ics.set_server(host),
            Command::Computer => core.ics.set_computer(),
            Command::Partner(name) => {
                if !core.ics.set_partner(name) {
                    tracing::warn!(name = ?name, "the partner's name is no server handle; ignored");
                }
            }
            Command::Ptell(text) => {
                // Recorded, never obeyed: nothing a partner says changes what the engine does.
                tracing::info!(partner = ?core.ics.partner(), text = ?text, "partner tell");
                core.ics.record_ptell(text);
            }
            Command::Memory { mb } => core.set_memory(mb),
            Command::Cores(cores) => core.set_cores(cores),
            Command::EgtPath { kind, path } => {
                if let Err(refusal) = core.open_tables(kind, path) {
                    self.refuse(line, refusal);
                }
            }
            Command::Option { name, value } => self.set_option(line.trim(), name, value),
            Command::Edit => {
                core.begin_edit();
                match Edit::start(core.game()) {
                    Some(edit) => self.edit = Some(edit),
                    None => self.refuse(line, Refusal::NotLegalNow(Some("this board cannot be edited".into()))),
                }
            }
            Command::Pause => {
                if let Err(refusal) = core.pause() {
                    self.refuse(line, refusal);
                }
            }
            Command::Resume => {
                if let Err(refusal) = core.resume() {
                    self.refuse(line, refusal);
                }
            }
            Command::Exclude(text) | Command::Include(text) => {
                // Exclusions hold for the current position until it changes; python-chess
                // sends them before `analyze`, so they are taken in any mode.
                let exclude = matches!(command, Command::Exclude(_));
                match text.map(|t| (t, self.core.game().parse_move(t))) {
                    Some((t, Err(reason))) => {
                        self.reply(Reply::IllegalMove { reason: reason.into(), mv: t.to_owned() })
                    }
                    parsed => self.core.exclude(exclude, parsed.and_then(|(_, m)| m.ok())),
                }
            }
            Command::SetScore { centipawns, .. } => {
                if let Err(refusal) = core.set_score(centipawns) {
                    self.refuse(line, refusal);
                }
            }
            Command::Lift(square) => {
                // xboard lifts the piece again where its first leg was put down.
                let colors = match self.lifted.take() {
                    Some((from, Some(via))) if via == square => {
                        let colors = core.game().highlight_second_leg(&from, &via);
                        self.lifted = Some((from, Some(via)));
                        colors
                    }
                    _ => {
                        self.lifted = Some((square.to_owned(), None));
                        core.game().highlight(square)
                    }
                };
                match colors {
                    Some(colors) => self.reply(Reply::Highlight(colors)),
                    None => self.refuse(line, Refusal::BadParameter("no such square on this board".into())),
                }
            }
            Command::Put(square) => {
                if let Some((_, via)) = &mut self.lifted {
                    *via = Some(square.to_owned());
                }
            }
            // Answered only where a capture there has side effects to show.
            Command::Hover(square) => {
                if let Some((from, None)) = &self.lifted
                    && let Some(colors) = core.game().hover(from, square)
                {
                    self.reply(Reply::Highlight(colors));
                }
            }
            Command::Holding { white, black } => {
                if let Err(refusal) = core.set_holdings(white, black) {
                    self.refuse(line, refusal);
                }
            }
        }
    }

    fn refuse(&mut self, line: &str, refusal: Refusal) {
        self.reply(render::refusal(line, refusal));
    }

    fn user_move(&mut self, text: &str) {
        if !self.core.position_valid() {
            self.reply(Reply::IllegalMove { reason: "no legal position is set up".into(), mv: text.to_owned() });
            return;
        }
        match self.core.game().parse_move(text) {
            Ok(m) => {
                if let (GameMove::Defined(defined), Some(variant)) = (m, self.core.game().definition())
                    && super::xboard_variants::misapplied_by_xboard(variant, &defined)
                {
                    // Played by the rules; should a later move be forfeited, the log says why.
                    tracing::warn!(mv = %text, variant = %variant.name, "xboard carries out this en-passant capture otherwise than the rules (it takes the piece beside the capturer on the h-file's side): its board and ours now differ");
                }
                self.core.user_move(m);
            }
            Err(reason) => self.reply(Reply::IllegalMove { reason: reason.into(), mv: text.to_owned() }),
        }
    }

    /// `option NAME=VALUE`; `Configure` sets each option it lists, each refused on its own.
    fn set_option(&mut self, line: &str, name: &str, value: Option<&str>) {
        let applied = self.core.set_option(name, value);
        // What the option brought about comes before what follows it in `Configure`.
        self.take_notes();
        match applied {
            Ok(Applied::Done) => {}
            Ok(Applied::Configure(settings)) => {
                for setting in settings.split(';').map(str::trim).filter(|s| !s.is_empty()) {
                    let (inner, inner_value) = match setting.split_once('=') {
                        Some((inner, inner_value)) => (inner.trim(), Some(inner_value.trim())),
                        None => (setting, None),
                    };
                    if inner == CONFIGURE {
                        self.refuse(line, Refusal::BadParameter("Configure within Configure".into()));
                        continue;
                    }
                    self.set_option(&format!("option {setting}"), inner, inner_value);
                }
            }
            Err(refusal) => self.refuse(line, refusal),
        }
    }

    fn announce_features(&mut self) {
        for feature in features::announcement(ENGINE_NAME, &self.core.variants().join(",")) {
            self.reply(Reply::Feature(feature));
        }
        let lines = self.option_lines();
        self.advertise_options_body(lines);
        self.reply(Reply::Feature("done=1".into()));
        let notes = std::mem::take(&mut self.startup_notes);
        self.out.extend(notes);
    }

    fn option_lines(&self) -> Vec<String> {
        self.core.options().iter().map(|e| options::advertise(&e.spec, &e.value)).collect()
    }

    fn advertise_options_body(&mut self, lines: Vec<String>) {
        for line in &lines {
            self.reply(Reply::Feature(format!("option=\"{line}\"")));
        }
        self.advertised = lines;
    }

    /// The option list changed (another plugin chosen, a rescan, a plugin disabled):
    /// GUIs clear their list on `done=0` and take the new one up to `done=1`.
    /// Nothing is sent when the list is unchanged: xboard answers every advertised
    /// option that it has a start-up value for with an `option` command, and
    /// re-advertising after those would never end. Nor is it sent to a GUI that
    /// never answered `done` (python-chess): it reads no feature after the
    /// handshake, and would only log each line as unexpected in the middle of
    /// its `go`; a GUI that purged its list on a button is always answered.
    fn readvertise_options(&mut self, purged: bool) {
        let lines = self.option_lines();
        if lines == self.advertised || !self.negotiated.announced() {
            return;
        }
        if !purged && !self.negotiated.answered() {
            tracing::info!("option list changed; not sent again, as this GUI never answered done");
            return;
        }
        self.reply(Reply::Feature("done=0".into()));
        self.advertise_options_body(lines);
        self.reply(Reply::Feature("done=1".into()));
        let notes = std::mem::take(&mut self.startup_notes);
        self.out.extend(notes);
    }

    /// Turns what the core said into replies.
    fn take_notes(&mut self) {
        for note in self.core.take_notes() {
            self.take_note(note);
        }
    }

    fn take_note(&mut self, note: Note) {
        // Moves are written as the current game writes them (Chess960 castling),
        // whichever position they belong to.
        let game = self.core.game();
        let text = |m: GameMove| game.move_text(m);
        let reply = match note {
            Note::Move(m) => Reply::Move(text(m)),
            Note::Thought(thought) => return self.show_thought(thought),
            Note::Known(known) if self.post => Reply::Thinking(render::known_thinking(&known, game)),
            // Not a search result: the protocol marks such lines with '('.
            Note::Unsearched(m) if self.post => {
                Reply::Thinking(Thinking { pv: format!("(no search) {}", text(m)), ..Thinking::default() })
            }
            Note::Known(_) | Note::Unsearched(_) => return,
            Note::Result(end) => Reply::GameResult { result: end.result, reason: end.reason.into() },
            Note::OfferDraw => Reply::OfferDraw,
            Note::Resign => Reply::Resign,
            Note::Hint(m) => {
                self.ponder_quiet_at = Some(self.lines_seen);
                Reply::Hint(text(m))
            }
            Note::Tell(text) => Reply::TellUser(text),
            Note::TellError(text) => Reply::TellUserError(text),
            Note::Debug(text) => return self.debug(text),
            Note::Talk(talk) => render::talk(talk),
            Note::OptionsChanged { purged } => {
                if purged {
                    self.advertised.clear();
                }
                return self.readvertise_options(purged);
            }
            Note::VariantsChanged => {
                let variants = features::announcement(ENGINE_NAME, &self.core.variants().join(","));
                match variants.into_iter().find(|feature| feature.contains("variants=")) {
                    Some(feature) => Reply::Feature(
                        feature.split_whitespace().find(|word| word.starts_with("variants=")).unwrap_or("").to_owned(),
                    ),
                    None => return,
                }
            }
            // Standard pieces on a standard board; "fairy" leaves the rules to us.
            Note::VariantStart { fen } => Reply::Setup(format!("(PNBRQKpnbrqk) 8x8+0_fairy {fen}")),
            Note::Status(status) => Reply::Stat01(render::stat01(&status, game)),
            Note::Listing(rows) => {
                self.out.extend(rows.into_iter().map(Reply::TableRow));
                Reply::EmptyLine
            }
            // Only a front end that asks for them gets these: CECP has no `go` to
            // report a move on and no `score`.
            Note::BestMove { .. } | Note::Score(_) => return,
            // CECP tells the move being searched only when asked, with `.`.
            Note::CurrentMove { .. } => return,
            Note::MoveSearchOver => {
                for n in std::mem::take(&mut self.pending_pongs) {
                    self.reply(Reply::Pong(n));
                }
                return;
            }
        };
        self.reply(reply);
    }

    fn show_thought(&mut self, thought: Thought) {
        if !self.post {
            return;
        }
        let reply = Reply::Thinking(render::thinking(&thought, self.core.game()));
        if thought.pondering && self.ponder_quiet_at == Some(self.lines_seen) {
            self.held_ponder_line = Some((thought.job, reply));
        } else {
            if let Some(mark) = render::failing(thought.score) {
                self.reply(mark);
            }
            self.reply(reply);
        }
    }

    fn debug(&mut self, text: String) {
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
}
