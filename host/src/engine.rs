//! The process around the session: the stdin reader, the one stdout writer, the
//! choice of front end by the first line, and the loop that feeds the inbox to it.

use std::{
    io::{self, Read, Write},
    panic::{self, AssertUnwindSafe},
    sync::{
        Mutex, PoisonError,
        atomic::{AtomicBool, Ordering},
        mpsc::{self, Receiver, RecvTimeoutError, Sender},
    },
    thread,
    time::{Duration, Instant},
};

use crate::{
    cxboard,
    event::Event,
    logging::Logging,
    plugins::PluginHost,
    protocol::{Session, reply::Reply},
    quote::{QUOTED_CHARS, quote},
    uci,
};

/// How long the plugin scan at start-up may take before a GUI that has asked
/// for features is told to wait for them (`feature done=0`).
pub const SCAN_BEFORE_DONE0: Duration = Duration::from_millis(200);

/// Runs the engine on stdin/stdout until `quit`, end of input or SIGTERM: scans
/// for plugins first, while already listening, then serves. `startup` holds
/// options from the command line (`NAME`, `VALUE`), applied after the saved
/// settings.
pub fn run(mut plugins: PluginHost, logging: Logging, kept_log_files: usize, startup: Vec<(String, String)>) {
    // This thread answers the GUI: it must not wait behind the search threads.
    crate::scheduling::prefer_latency();
    let (inbox, events) = mpsc::channel();
    // Before the scan, which examines unknown files and may take seconds: `quit`,
    // the end of input and SIGTERM end the process meanwhile too.
    crate::signals::install(inbox.clone());
    spawn_reader(inbox.clone());
    let (events, early) = scan_while_listening(&mut plugins, events);
    let mut session = Session::new(inbox, plugins);
    // Before the saved settings, which may move the log.
    session.use_logging(logging, kept_log_files);
    if let Some(path) = crate::settings::default_path() {
        session.use_settings_file(path);
    }
    session.load_variant_files();
    session.apply_command_line(&startup);
    let (mut front_end, early) = choose_front_end(session, early, &events);
    serve(&mut front_end, early, &events, &mut io::stdout().lock());
    // The process ends next, and takes everything with it: freeing the core's
    // memory would only queue for the memory map behind the search threads
    // that are ending.
    std::mem::forget(front_end);
}

/// The protocol the GUI speaks, each a front end over the one core.
// One per process, never moved after the choice: the size does not matter.
#[allow(clippy::large_enum_variant)]
pub enum FrontEnd {
    Cecp(Session),
    Cxboard(cxboard::Session),
    Uci(uci::Session),
}

impl FrontEnd {
    pub fn handle(&mut self, event: Event) {
        match self {
            FrontEnd::Cecp(session) => session.handle(event),
            FrontEnd::Cxboard(session) => session.handle(event),
            FrontEnd::Uci(session) => session.handle(event),
        }
    }

    /// The lines to write, in order.
    pub fn take_output(&mut self) -> Vec<String> {
        match self {
            FrontEnd::Cecp(session) => session.take_output().iter().map(ToString::to_string).collect(),
            FrontEnd::Cxboard(session) => session.take_output().iter().map(ToString::to_string).collect(),
            FrontEnd::Uci(session) => session.take_output().iter().map(ToString::to_string).collect(),
        }
    }

    pub fn wants_to_quit(&self) -> bool {
        match self {
            FrontEnd::Cecp(session) => session.wants_to_quit(),
            FrontEnd::Cxboard(session) => session.wants_to_quit(),
            FrontEnd::Uci(session) => session.wants_to_quit(),
        }
    }

    /// What the user reads when a bug of ours cut an event short.
    fn internal_error(&self) -> &'static str {
        match self {
            FrontEnd::Cecp(_) => "tellusererror Plugboard hit an internal error; details are in its log",
            FrontEnd::Cxboard(_) | FrontEnd::Uci(_) => {
                "info string Plugboard hit an internal error; details are in its log"
            }
        }
    }
}

/// The first line chooses the protocol: `cxboard VERSION` the cxboard front end,
/// `uci` UCI's, anything else CECP's, which `session` already is and which then
/// takes that line as it always has. Waits for the first event if none came yet, and gives
/// it back at the front of the events still to handle.
pub fn choose_front_end(session: Session, early: Vec<Event>, events: &Receiver<Event>) -> (FrontEnd, Vec<Event>) {
    let mut early = early.into_iter();
    let first = early.next().or_else(|| {
        let event = events.recv().ok()?;
        if let Event::Line(line) = &event {
            tracing::info!(target: "protocol", "< {}", quote(line));
        }
        Some(event)
    });
    let first_word = match &first {
        Some(Event::Line(line)) => line.split_whitespace().next().unwrap_or("").to_owned(),
        _ => String::new(),
    };
    let early = first.into_iter().chain(early).collect();
    match first_word.as_str() {
        "cxboard" => {
            tracing::info!("the GUI speaks cxboard");
            let (core, startup) = session.into_core();
            (FrontEnd::Cxboard(cxboard::Session::with_core(core, startup)), early)
        }
        "uci" => {
            tracing::info!("the GUI speaks UCI");
            let (core, startup) = session.into_core();
            (FrontEnd::Uci(uci::Session::with_core(core, startup)), early)
        }
        _ => (FrontEnd::Cecp(session), early),
    }
}

/// Scans for plugins on this thread while another keeps what the GUI says for
/// the session, and answers a `protover` still unanswered after
/// [`SCAN_BEFORE_DONE0`] of scanning with `feature done=0`, so that the GUI waits
/// for the features instead of giving up on them. Returns the inbox and what
/// arrived meanwhile.
fn scan_while_listening(plugins: &mut PluginHost, events: Receiver<Event>) -> (Receiver<Event>, Vec<Event>) {
    let scanned = AtomicBool::new(false);
    // A mutex only so that the inbox outlives a listener that cannot be started.
    let events = Mutex::new(events);
    let early = thread::scope(|scope| {
        let listener = thread::Builder::new()
            .name("startup-listener".into())
            .spawn_scoped(scope, || listen_while(&scanned, &events));
        plugins.scan();
        scanned.store(true, Ordering::Release);
        listener.ok().and_then(|listener| listener.join().ok()).unwrap_or_default()
    });
    (events.into_inner().unwrap_or_else(PoisonError::into_inner), early)
}

fn listen_while(scanned: &AtomicBool, events: &Mutex<Receiver<Event>>) -> Vec<Event> {
    let Ok(events) = events.lock() else { return Vec::new() };
    let started = Instant::now();
    let mut early = Vec::new();
    let mut asked = false;
    let mut told_to_wait = false;
    while !scanned.load(Ordering::Acquire) {
        // Short: the scan of known files takes milliseconds, and the start waits for this.
        match events.recv_timeout(Duration::from_millis(1)) {
            Ok(event) => {
                if let Event::Line(line) = &event {
                    tracing::info!(target: "protocol", "< {}", quote(line));
                    asked |= line.split_whitespace().next() == Some("protover");
                }
                early.push(event);
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        if asked && !told_to_wait && started.elapsed() >= SCAN_BEFORE_DONE0 {
            told_to_wait = true;
            tracing::info!(elapsed_ms = started.elapsed().as_millis(), "the plugin scan is slow; features follow");
            let line = Reply::Feature("done=0".into()).to_string();
            tracing::info!(target: "protocol", "> {line}");
            let mut out = io::stdout().lock();
            let _ = writeln!(out, "{line}").and_then(|()| out.flush());
        }
    }
    early
}

/// The loop: one event at a time, every reply written and flushed as a whole
/// line; `early` are the events that arrived before the session was made.
pub fn serve(session: &mut FrontEnd, early: Vec<Event>, events: &Receiver<Event>, out: &mut impl Write) {
    write_replies(session, out);
    let mut early = early.into_iter();
    while !session.wants_to_quit() {
        let event = match early.next() {
            Some(event) => event,
            None => match events.recv() {
                Ok(event) => {
                    if let Event::Line(line) = &event {
                        tracing::info!(target: "protocol", "< {}", quote(line));
                    }
                    event
                }
                Err(_) => break,
            },
        };
        // Once the engine is ending, what its searches reported meanwhile is
        // for no one: the way out is not kept waiting behind it.
        if crate::exit::is_armed() && matches!(event, Event::Progress { .. }) {
            continue;
        }
        // A bug of ours must not cost the user the game: log it, say so, carry on.
        if panic::catch_unwind(AssertUnwindSafe(|| session.handle(event))).is_err() {
            tracing::error!("the session panicked handling an event; carrying on");
            let _ = writeln!(out, "{}", session.internal_error()).and_then(|()| out.flush());
        }
        if !write_replies(session, out) {
            // Nobody reads us any more: stop, as after end of input.
            session.handle(Event::EndOfInput);
        }
    }
}

fn write_replies(session: &mut FrontEnd, out: &mut impl Write) -> bool {
    let mut ok = true;
    for line in session.take_output() {
        tracing::info!(target: "protocol", "> {line}");
        ok &= writeln!(out, "{line}").and_then(|()| out.flush()).is_ok();
    }
    ok
}

/// Longer lines are no command of the protocol's (the longest, `setboard` or
/// `option` with a path, are a few hundred bytes): they are answered as errors
/// and never held whole.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

fn spawn_reader(inbox: Sender<Event>) {
    let spawned = thread::Builder::new().name("stdin".into()).spawn(move || {
        crate::scheduling::prefer_latency();
        let stdin = io::stdin();
        let mut splitter = LineSplitter::default();
        let mut chunk = [0u8; 8192];
        let mut input = stdin.lock();
        loop {
            let read = match input.read(&mut chunk) {
                Ok(0) => break,
                Ok(read) => read,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            for event in splitter.push(&chunk[..read]) {
                if let Event::Line(line) = &event
                    && line.trim() == "quit"
                {
                    crate::exit::arm("quit");
                }
                if inbox.send(event).is_err() {
                    return;
                }
            }
        }
        crate::exit::arm("end of input");
        if let Some(last) = splitter.finish() {
            let _ = inbox.send(last);
        }
        let _ = inbox.send(Event::EndOfInput);
    });
    if spawned.is_err() {
        tracing::error!("cannot start the stdin reader");
    }
}

/// Cuts input into lines: LF, CR and CR LF all end one (old Mac GUIs end lines
/// with a bare CR), and a line over [`MAX_LINE_BYTES`] becomes an
/// [`Event::Overlong`] holding only its start.
#[derive(Default)]
pub struct LineSplitter {
    line: Vec<u8>,
    /// Bytes of the current line, counted past what is kept.
    length: usize,
    after_cr: bool,
}

impl LineSplitter {
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Event> {
        let mut events = Vec::new();
        for &byte in bytes {
            let after_cr = std::mem::replace(&mut self.after_cr, byte == b'\r');
            match byte {
                b'\n' if after_cr => {}
                b'\n' | b'\r' => events.push(self.take()),
                _ => {
                    self.length += 1;
                    if self.line.len() < MAX_LINE_BYTES {
                        self.line.push(byte);
                    }
                }
            }
        }
        events
    }

    /// The last line, when the input ended without a line end.
    pub fn finish(&mut self) -> Option<Event> {
        (self.length > 0).then(|| self.take())
    }

    fn take(&mut self) -> Event {
        let length = std::mem::take(&mut self.length);
        let line = String::from_utf8_lossy(&self.line).into_owned();
        self.line.clear();
        if length > MAX_LINE_BYTES {
            let start: String = line.chars().take(QUOTED_CHARS).collect();
            Event::Overlong { start, length }
        } else {
            Event::Line(line)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(events: Vec<Event>) -> Vec<String> {
        events
            .into_iter()
            .map(|event| match event {
                Event::Line(line) => line,
                Event::Overlong { start, length } => format!("overlong {length}: {start}"),
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn lf_cr_and_crlf_each_end_one_line() {
        let mut splitter = LineSplitter::default();
        assert_eq!(lines(splitter.push(b"ping 5\rping 6\r\nping 7\n\n")), ["ping 5", "ping 6", "ping 7", ""]);
        // A CR LF split between two reads is still one line end.
        assert_eq!(lines(splitter.push(b"ping 8\r")), ["ping 8"]);
        assert_eq!(lines(splitter.push(b"\nping 9")), Vec::<String>::new());
        assert_eq!(splitter.finish().map(|e| lines(vec![e])), Some(vec!["ping 9".to_owned()]));
    }

    #[test]
    fn an_overlong_line_keeps_only_its_start() {
        let mut splitter = LineSplitter::default();
        let mut events = Vec::new();
        for _ in 0..100 {
            events.extend(splitter.push(&[b'a'; 10_000]));
        }
        events.extend(splitter.push(b"\nping 1\n"));
        let said = lines(events);
        assert_eq!(said, [format!("overlong 1000000: {}", "a".repeat(QUOTED_CHARS)), "ping 1".to_owned()]);
        assert!(splitter.line.capacity() <= 2 * MAX_LINE_BYTES);
    }
}
