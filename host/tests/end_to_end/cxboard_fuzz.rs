//! Generated input for the cxboard front end: a million lines for its parser
//! and a long random dialogue for its session, searching with the real built-in
//! plugins on threads. Nothing may panic or hang, and after every burst of noise
//! `isready` must still be answered.

use std::{sync::mpsc, time::Duration};

use plugboard::{
    core::{Core, SystemClock},
    cxboard::{Command, Session},
    event::Event,
    plugins::{PluginHost, Registry},
    search::ThreadLauncher,
};

/// xorshift64*: repeatable noise without a dependency.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const WORDS: &[&str] = &[
    "cxboard",
    "force",
    "go",
    "go depth",
    "go nodes",
    "go movetime",
    "go searchmoves",
    "go ponder depth",
    "go mate",
    "go infinite",
    "go rtime",
    "playcurrent",
    "playother",
    "move",
    "?",
    "stop",
    "isready",
    "setoption name",
    "setoption name Hash value",
    "setoption name Ponder value",
    "setoption name MultiPV value",
    "position cfen",
    "position startpos",
    "position startpos moves",
    "debug",
    "draw",
    "result",
    "hint",
    "undo",
    "remove",
    "name",
    "computer",
    "pause",
    "resume",
    "score",
    "clock",
    "frob",
];

const ARGS: &[&str] = &[
    "",
    "0",
    "1",
    "2",
    "-1",
    "60",
    ":30",
    "1:30",
    "99999999999999999999",
    "nan",
    "h2e2",
    "h9g7",
    "b0c2",
    "a0a1",
    "a6a5",
    "e0e1",
    "z9z9",
    "a0a10",
    "moves",
    "value",
    "name",
    "on",
    "off",
    "true",
    "1-0",
    "*",
    "infinite",
    "ponder",
    "depth",
    "searchmoves",
    "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "3k5/9/R8/9/9/9/9/9/9/4K3R r 1",
    "3k5/9/9/9/9/9/9/9/9/4K4 b 9",
    "rnbakabnr/9/9/9/9/9/9/9/9/RNBAKABNR r 1",
    "Move overhead",
    "Evaluation value material",
    "Configure value Threads=2; Contempt=x",
    "\u{0}",
    "é",
    "\t",
];

fn line(noise: &mut Noise) -> String {
    match noise.below(10) {
        // Mostly real words with arguments, sometimes raw bytes.
        0 => (0..noise.below(12)).map(|_| char::from(noise.below(128) as u8)).collect(),
        _ => {
            let mut text = noise.pick(WORDS).to_owned();
            for _ in 0..noise.below(4) {
                text.push(' ');
                text.push_str(noise.pick(ARGS));
            }
            text
        }
    }
}

#[test]
fn the_parser_takes_a_million_generated_lines() {
    let mut noise = Noise(0x9E37_79B9_7F4A_7C15);
    let mut accepted = 0;
    for _ in 0..1_000_000 {
        if Command::parse(&line(&mut noise)).is_ok() {
            accepted += 1;
        }
    }
    // The generator is not all noise: a good share of lines must parse.
    assert!(accepted > 100_000, "only {accepted} lines parsed");
}

#[test]
fn the_session_survives_a_long_random_dialogue() {
    let (inbox, events) = mpsc::channel();
    // Only the linked-in plugins, on threads as in the engine.
    let plugins = PluginHost::with_registry(Registry::with_builtins(), Vec::new());
    let launcher = Box::new(ThreadLauncher { inbox: inbox.clone() });
    let core = Core::new(inbox, plugins, launcher, Box::new(SystemClock));
    let mut session = Session::with_core(core, Vec::new());
    // Every move in play mode is quick: a second a move, less 950 ms kept back.
    for text in ["cxboard 1", "clock 0 0 :01", "setoption name Move overhead value 950"] {
        session.handle(Event::Line(text.into()));
    }
    let mut noise = Noise(42);
    let mut answers = 0;
    let mut paused = false;
    for round in 0..200u32 {
        for _ in 0..50 {
            let text = line(&mut noise);
            // Keep the process alive and every search short: no quit, no new clock or overhead.
            if text.starts_with("quit") || text.starts_with("clock") || text.contains("Move overhead") {
                continue;
            }
            // Searches `go` leaves open end with the next `stop`.
            let waits = text.starts_with("go") || text.starts_with("play") || text.starts_with("move");
            paused = match text.trim() {
                "pause" => true,
                "resume" => false,
                _ => paused,
            };
            session.handle(Event::Line(text));
            session.handle(Event::Line("stop".into()));
            // As a GUI waits for bestmove: a while, for a search that is not held by pause.
            for _ in 0..if waits && !paused { 30 } else { 0 } {
                while let Ok(event) = events.try_recv() {
                    session.handle(event);
                }
                if !session.is_searching() {
                    break;
                }
                if let Ok(event) = events.recv_timeout(Duration::from_millis(10)) {
                    session.handle(event);
                }
            }
            while let Ok(event) = events.try_recv() {
                session.handle(event);
            }
            answers += session.take_output().iter().filter(|reply| reply.to_string().starts_with("bestmove")).count();
        }
        // Out of pause and play mode, the engine must answer `isready`, after its move if it is thinking.
        for text in ["resume", "force", "stop"] {
            session.handle(Event::Line(text.into()));
        }
        paused = false;
        session.handle(Event::Line("isready".into()));
        let mut seen = false;
        for _ in 0..1000 {
            if session.take_output().iter().any(|reply| reply.to_string() == "readyok") {
                seen = true;
                break;
            }
            if let Ok(event) = events.recv_timeout(Duration::from_millis(20)) {
                session.handle(event);
            }
        }
        assert!(seen, "no readyok after round {round}");
        assert!(!session.wants_to_quit());
    }
    // The noise is not all refused: searches ran and answered.
    assert!(answers > 50, "only {answers} answers to go");
}
