//! The process around the session: the stdin reader, the one stdout writer, and
//! the loop that feeds the inbox to the session.

use std::{
    io::{self, BufRead, Write},
    panic::{self, AssertUnwindSafe},
    sync::mpsc::{self, Receiver, Sender},
    thread,
};

use crate::{event::Event, logging::Logging, plugins::PluginHost, session::Session};

/// Runs the engine on stdin/stdout until `quit`, end of input or SIGTERM.
pub fn run(plugins: PluginHost, logging: Logging, kept_log_files: usize) {
    let (inbox, events) = mpsc::channel();
    crate::signals::install(inbox.clone());
    spawn_reader(inbox.clone());
    let mut session = Session::new(inbox, plugins);
    // Before the saved settings, which may move the log.
    session.use_logging(logging, kept_log_files);
    if let Some(path) = crate::settings::default_path() {
        session.use_settings_file(path);
    }
    serve(&mut session, &events, &mut io::stdout().lock());
}

/// The loop: one event at a time, every reply written and flushed as a whole line.
pub fn serve(session: &mut Session, events: &Receiver<Event>, out: &mut impl Write) {
    write_replies(session, out);
    while !session.wants_to_quit() {
        let Ok(event) = events.recv() else { break };
        if let Event::Line(line) = &event {
            tracing::info!(target: "protocol", "< {line}");
        }
        // A bug of ours must not cost the user the game: log it, say so, carry on.
        if panic::catch_unwind(AssertUnwindSafe(|| session.handle(event))).is_err() {
            tracing::error!("the session panicked handling an event; carrying on");
            let _ = writeln!(out, "tellusererror Plugboard hit an internal error; details are in its log")
                .and_then(|()| out.flush());
        }
        if !write_replies(session, out) {
            // Nobody reads us any more: stop, as after end of input.
            session.handle(Event::EndOfInput);
        }
    }
}

fn write_replies(session: &mut Session, out: &mut impl Write) -> bool {
    let mut ok = true;
    for reply in session.take_output() {
        let line = reply.to_string();
        tracing::info!(target: "protocol", "> {line}");
        ok &= writeln!(out, "{line}").and_then(|()| out.flush()).is_ok();
    }
    ok
}

fn spawn_reader(inbox: Sender<Event>) {
    let spawned = thread::Builder::new().name("stdin".into()).spawn(move || {
        let stdin = io::stdin();
        let mut lines = stdin.lock();
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match lines.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buffer);
                    let line = line.trim_end_matches(['\n', '\r']);
                    if inbox.send(Event::Line(line.to_owned())).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = inbox.send(Event::EndOfInput);
    });
    if spawned.is_err() {
        tracing::error!("cannot start the stdin reader");
    }
}
