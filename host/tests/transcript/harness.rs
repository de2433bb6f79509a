//! A `Session` driven as the GUI would drive it: lines in, replies out, with the
//! fake searches of [`crate::fakes`] linked in. No threads of its own and no
//! clocks: the session's events are handled here, in the order they come.

use std::{
    sync::mpsc::{self, Receiver, RecvTimeoutError},
    time::{Duration, Instant},
};

use plugboard::{
    event::Event,
    plugins::{PluginHost, Registry},
    protocol::Session,
};

use crate::fakes::{PROBE_MARK, Patient, Probe, Scripted, Seen};

/// Bounds a hang; never a measure of speed.
const PATIENCE: Duration = Duration::from_secs(30);

pub struct Transcript {
    pub session: Session,
    events: Receiver<Event>,
    /// What the probe was asked to search, in the order the notes came.
    searches: Vec<Seen>,
}

impl Transcript {
    /// A session with the fakes linked in beside the built-in plugins; nothing said
    /// yet, and the built-in search chosen, as in the real engine.
    pub fn new() -> Transcript {
        let (inbox, events) = mpsc::channel();
        let mut registry = Registry::with_builtins();
        registry.link_search::<Scripted>();
        registry.link_search::<Patient>();
        registry.link_search::<Probe>();
        let session = Session::new(inbox, PluginHost::with_registry(registry, Vec::new()));
        Transcript { session, events, searches: Vec::new() }
    }

    /// After the protocol-2 handshake, with the search plugin `search` chosen; what
    /// was said so far is dropped.
    pub fn playing(search: &str) -> Transcript {
        let mut t = Transcript::new();
        t.say(&["xboard", "protover 2", &format!("option Search={search}")]);
        t
    }

    /// Feeds lines as the GUI would, lets every search started finish, and returns
    /// what the engine said. Not for searches that never end by themselves
    /// (analysis with `patient`, pondering): see [`Transcript::say_until`].
    pub fn say(&mut self, lines: &[&str]) -> Vec<String> {
        self.feed(lines);
        while self.session.is_searching() {
            match self.events.recv_timeout(PATIENCE) {
                Ok(event) => self.handle(event),
                Err(_) => panic!("the search has not ended in {PATIENCE:?}; said so far: {:?}", self.output()),
            }
        }
        self.output()
    }

    /// Feeds lines and handles the session's events until it has said a line that
    /// `done` accepts; returns everything it said.
    pub fn say_until(&mut self, lines: &[&str], done: impl Fn(&str) -> bool) -> Vec<String> {
        self.feed(lines);
        let mut said = self.output();
        while !said.iter().any(|line| done(line)) {
            match self.events.recv_timeout(PATIENCE) {
                Ok(event) => self.handle(event),
                Err(_) => panic!("the awaited line did not come in {PATIENCE:?}; said so far: {said:?}"),
            }
            said.extend(self.output());
        }
        said
    }

    /// Feeds lines and returns what the engine said at once, handling no event: for
    /// what is said while a search goes on that will not end by itself.
    pub fn say_now(&mut self, lines: &[&str]) -> Vec<String> {
        self.feed(lines);
        self.output()
    }

    /// Feeds lines without waiting for anything the session started.
    pub fn feed(&mut self, lines: &[&str]) {
        for line in lines {
            self.session.handle(Event::Line((*line).to_owned()));
        }
    }

    /// Handles whatever the session's searches report for `time`, and returns what
    /// the engine said meanwhile.
    pub fn wait(&mut self, time: Duration) -> Vec<String> {
        let deadline = Instant::now() + time;
        loop {
            match self.events.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(event) => self.handle(event),
                Err(RecvTimeoutError::Timeout) => return self.output(),
                Err(RecvTimeoutError::Disconnected) => unreachable!("the session holds the inbox"),
            }
        }
    }

    /// The searches the probe was asked for since the last call, as far as their
    /// reports have been handled.
    pub fn searches(&mut self) -> Vec<Seen> {
        std::mem::take(&mut self.searches)
    }

    /// Handles the session's events until the probe has reported `count` searches
    /// not yet taken, and returns them.
    pub fn await_searches(&mut self, count: usize) -> Vec<Seen> {
        while self.searches.len() < count {
            match self.events.recv_timeout(PATIENCE) {
                Ok(event) => self.handle(event),
                Err(_) => panic!("{count} searches did not start in {PATIENCE:?}: {:?}", self.searches),
            }
        }
        self.searches()
    }

    /// Passes an event to the session; a probe's note is kept here instead.
    fn handle(&mut self, event: Event) {
        if let Event::Progress { progress, .. } = &event
            && progress.depth == PROBE_MARK
        {
            self.searches.extend(Probe::take_note(progress.nodes));
            return;
        }
        self.session.handle(event);
    }

    /// What the engine said since the last look.
    pub fn output(&mut self) -> Vec<String> {
        self.session.take_output().iter().map(ToString::to_string).collect()
    }
}

/// True for a thinking-output line (`DEPTH SCORE TIME NODES ...`).
pub fn is_thinking(line: &str) -> bool {
    line.split(' ').next().is_some_and(|depth| depth.parse::<u32>().is_ok())
}
