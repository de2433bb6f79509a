//! A front end (CECP's `Session`, cxboard's or UCI's) driven as the GUI would drive
//! it: lines in, replies out, over a core whose searches are the scripts of
//! [`crate::fakes`] played by a [`StepLauncher`] and whose clock is fake. No threads and no waiting: the
//! searches' events are handled here, in the order they were made, and time
//! passes only when a test waits or a search can only end by its deadline. What
//! is awaited and can never come fails the test at once.

use std::{
    cell::RefCell,
    rc::Rc,
    sync::mpsc::{self, Receiver},
    time::{Duration, Instant},
};

use plugboard::{
    core::Core,
    cxboard,
    event::Event,
    plugins::{PluginHost, Registry},
    protocol::Session,
    uci,
};

use crate::{
    fakes::{Patient, Probe, Scripted, Seen},
    steps::{FakeClock, Shared, StepLauncher, World},
};

/// What the harness needs of a front end.
pub trait FrontEnd {
    fn handle(&mut self, event: Event);
    fn output(&mut self) -> Vec<String>;
    fn is_searching(&self) -> bool;
}

impl FrontEnd for Session {
    fn handle(&mut self, event: Event) {
        Session::handle(self, event);
    }

    fn output(&mut self) -> Vec<String> {
        self.take_output().iter().map(ToString::to_string).collect()
    }

    fn is_searching(&self) -> bool {
        Session::is_searching(self)
    }
}

impl FrontEnd for cxboard::Session {
    fn handle(&mut self, event: Event) {
        cxboard::Session::handle(self, event);
    }

    fn output(&mut self) -> Vec<String> {
        self.take_output().iter().map(ToString::to_string).collect()
    }

    fn is_searching(&self) -> bool {
        cxboard::Session::is_searching(self)
    }
}

impl FrontEnd for uci::Session {
    fn handle(&mut self, event: Event) {
        uci::Session::handle(self, event);
    }

    fn output(&mut self) -> Vec<String> {
        self.take_output().iter().map(ToString::to_string).collect()
    }

    fn is_searching(&self) -> bool {
        uci::Session::is_searching(self)
    }
}

pub struct Transcript<S: FrontEnd = Session> {
    pub session: S,
    world: Shared,
    /// Where work on files that outlasts its patience reports (none of these tests
    /// gives the engine a file that slow).
    files: Receiver<Event>,
}

/// A core with the fakes linked in beside the built-in plugins, the built-in
/// search chosen, as in the real engine; its world and where files report.
fn core() -> (Core, Shared, Receiver<Event>) {
    let (inbox, files) = mpsc::channel();
    let mut registry = Registry::with_builtins();
    registry.link_search::<Scripted>();
    registry.link_search::<Patient>();
    registry.link_search::<Probe>();
    let world: Shared = Rc::new(RefCell::new(World::default()));
    let launcher = Box::new(StepLauncher(Rc::clone(&world)));
    let clock = Box::new(FakeClock { world: Rc::clone(&world), start: Instant::now() });
    let core = Core::new(inbox, PluginHost::with_registry(registry, Vec::new()), launcher, clock);
    (core, world, files)
}

impl Transcript {
    /// A CECP session; nothing said yet.
    pub fn new() -> Transcript {
        let (core, world, files) = core();
        Transcript { session: Session::with_core(core), world, files }
    }

    /// After the protocol-2 handshake, answered as xboard answers it, with the
    /// search plugin `search` chosen; what was said so far is dropped.
    pub fn playing(search: &str) -> Transcript {
        let mut t = Transcript::new();
        t.say(&["xboard", "protover 2", "accepted done", &format!("option Search={search}")]);
        t
    }
}

impl Transcript<cxboard::Session> {
    /// A cxboard session, as the first line `cxboard 1` makes one; nothing said yet.
    pub fn cxboard() -> Transcript<cxboard::Session> {
        let (core, world, files) = core();
        Transcript { session: cxboard::Session::with_core(core, Vec::new()), world, files }
    }

    /// After `cxboard 1`, with the search plugin `search` chosen; what was said so
    /// far is dropped.
    pub fn cxboard_playing(search: &str) -> Transcript<cxboard::Session> {
        let mut t = Transcript::cxboard();
        t.say(&["cxboard 1", &format!("setoption name Search value {search}")]);
        t
    }
}

impl Transcript<uci::Session> {
    /// A UCI session, as the first line `uci` makes one; nothing said yet.
    pub fn uci() -> Transcript<uci::Session> {
        let (core, world, files) = core();
        Transcript { session: uci::Session::with_core(core, Vec::new()), world, files }
    }

    /// After `uci`, with the search plugin `search` chosen and the game at the
    /// start; what was said so far is dropped.
    pub fn uci_playing(search: &str) -> Transcript<uci::Session> {
        let mut t = Transcript::uci();
        t.say(&["uci", &format!("setoption name Search value {search}"), "position startpos"]);
        t
    }
}

impl<S: FrontEnd> Transcript<S> {
    /// Feeds lines as the GUI would, lets every search started finish (a timed
    /// one at its deadline), and returns what the engine said. Not for searches
    /// that never end by themselves (analysis with `patient`, pondering): see
    /// [`Transcript::say_until`].
    #[track_caller]
    pub fn say(&mut self, lines: &[&str]) -> Vec<String> {
        self.feed(lines);
        self.pump();
        while self.session.is_searching() {
            if !self.run_to_deadline() {
                panic!("the search will not end by itself; said so far: {:?}", self.output());
            }
        }
        self.output()
    }

    /// Feeds lines and handles the searches' events, letting time run to the next
    /// deadline when there are none, until the engine has said a line that `done`
    /// accepts; returns everything it said.
    #[track_caller]
    pub fn say_until(&mut self, lines: &[&str], done: impl Fn(&str) -> bool) -> Vec<String> {
        self.feed(lines);
        let mut said = self.output();
        while !said.iter().any(|line| done(line)) {
            if !self.step() {
                panic!("the awaited line will not come; said so far: {said:?}");
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

    /// Feeds lines and handles the searches' events, letting no time pass: for
    /// searches that wait to be told (cxboard's `go infinite`, `go ponder`).
    pub fn say_at_once(&mut self, lines: &[&str]) -> Vec<String> {
        self.feed(lines);
        self.pump();
        self.output()
    }

    /// Feeds lines without handling anything the session started.
    pub fn feed(&mut self, lines: &[&str]) {
        for line in lines {
            self.session.handle(Event::Line((*line).to_owned()));
        }
    }

    /// Lets `time` pass: the searches' events are handled, and a search that
    /// reaches its deadline meanwhile ends there. Returns what the engine said.
    pub fn wait(&mut self, time: Duration) -> Vec<String> {
        let mut left = time;
        loop {
            self.pump();
            let next = self.world.borrow().next_deadline();
            match next {
                Some(deadline) if deadline <= left => {
                    self.world.borrow_mut().advance(deadline);
                    left -= deadline;
                }
                _ => {
                    self.world.borrow_mut().advance(left);
                    self.pump();
                    return self.output();
                }
            }
        }
    }

    /// The searches the probe was asked for since the last call.
    pub fn searches(&mut self) -> Vec<Seen> {
        std::mem::take(&mut self.world.borrow_mut().seen)
    }

    /// Handles the searches' events, letting time run to the next deadline when
    /// there are none, until the probe has been asked for `count` searches not yet
    /// taken, and returns them.
    #[track_caller]
    pub fn await_searches(&mut self, count: usize) -> Vec<Seen> {
        while self.world.borrow().seen.len() < count {
            if !self.step() {
                let seen = self.searches();
                panic!("{count} searches will not start; started: {seen:?}; said: {:?}", self.output());
            }
        }
        self.searches()
    }

    /// What the engine said since the last look.
    pub fn output(&mut self) -> Vec<String> {
        self.session.output()
    }

    /// Handles one event, or else lets time run to the next deadline; false when
    /// nothing more can happen without the GUI.
    fn step(&mut self) -> bool {
        if let Some(event) = self.next_event() {
            self.session.handle(event);
            return true;
        }
        self.run_to_deadline()
    }

    /// Lets time run to the next deadline of a search and handles what follows;
    /// false when no search has one.
    fn run_to_deadline(&mut self) -> bool {
        let Some(deadline) = self.world.borrow().next_deadline() else { return false };
        self.world.borrow_mut().advance(deadline);
        self.pump();
        true
    }

    /// Handles every event until none is left.
    fn pump(&mut self) {
        while let Some(event) = self.next_event() {
            self.session.handle(event);
        }
    }

    /// The searches' events first, in order, then what work on files reported.
    fn next_event(&mut self) -> Option<Event> {
        let event = self.world.borrow_mut().next_event();
        event.or_else(|| self.files.try_recv().ok())
    }
}

/// True for a thinking-output line (`DEPTH SCORE TIME NODES ...`).
pub fn is_thinking(line: &str) -> bool {
    line.split(' ').next().is_some_and(|depth| depth.parse::<u32>().is_ok())
}
