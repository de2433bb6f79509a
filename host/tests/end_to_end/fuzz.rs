//! Generated input: millions of lines for the parser and a long random dialogue
//! for the session. Nothing may panic or hang, and after every burst of noise a
//! `ping` must still be answered.

use std::{sync::mpsc, time::Duration};

use plugboard::{
    event::Event,
    plugins::{PluginHost, Registry},
    protocol::Command,
    protocol::Session,
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
    "xboard",
    "protover",
    "accepted",
    "rejected",
    "new",
    "variant",
    "random",
    "force",
    "go",
    "playother",
    "white",
    "black",
    "level",
    "st",
    "sd",
    "nps",
    "time",
    "otim",
    "usermove",
    "?",
    "ping",
    "draw",
    "result",
    "setboard",
    "edit",
    "hint",
    "bk",
    "undo",
    "remove",
    "hard",
    "easy",
    "post",
    "nopost",
    "analyze",
    "exit",
    ".",
    "name",
    "rating",
    "ics",
    "computer",
    "memory",
    "cores",
    "egtpath",
    "option",
    "pause",
    "resume",
    "exclude",
    "include",
    "setscore",
    "lift",
    "put",
    "hover",
    "#",
    "c",
    "Pe4",
    "xe4",
    "e2e4",
    "e7e5",
    "g1f3",
    "O-O",
    "e7e8q",
    "frob",
];

const ARGS: &[&str] = &[
    "",
    "0",
    "1",
    "2",
    "-1",
    "40",
    "5",
    "0:30",
    "0.5",
    "99999999999999999999",
    "nan",
    "e2e4",
    "e4",
    "all",
    "a1",
    "z9",
    "1-0",
    "1/2-1/2",
    "{White mates}",
    "debug",
    "done",
    "fischerandom",
    "atomic",
    "crazyhouse",
    "suicide",
    "3check",
    "racingkings",
    "horde",
    "normal",
    "holding",
    "[PNq]",
    "[]",
    "WQ",
    "P@e4",
    "N@f7",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1",
    "MultiPV=3",
    "Contempt=-20",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "Evaluation=material",
    "Evaluation=pesto",
    "Tempo=50",
    "Tempo=x",
    "Move overhead=10",
    "Rescan plugins",
    "Nonsense=1",
    "syzygy /tmp",
    "\u{0}",
    "é",
    "\t",
    "ünïcödé",
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
    // Only the linked-in plugins, searching to tiny depths: every `go` is quick.
    let mut session = Session::new(inbox, PluginHost::with_registry(Registry::with_builtins(), Vec::new()));
    session.handle(Event::Line("protover 2".into()));
    let mut noise = Noise(42);
    for round in 0..2_000u32 {
        for _ in 0..100 {
            let text = line(&mut noise);
            // Keep every search short and the process alive: depth and time are pinned below.
            if text.starts_with("quit") || text.starts_with("memory") || text.starts_with("Search") {
                continue;
            }
            session.handle(Event::Line(text));
            session.handle(Event::Line("sd 2".into()));
            session.handle(Event::Line("st 0.05".into()));
            while let Ok(event) = events.try_recv() {
                session.handle(event);
            }
            let _ = session.take_output();
        }
        // Out of edit and pause, the engine must answer a ping, after its move if it is thinking.
        for text in [".", "resume", "force", "exit"] {
            session.handle(Event::Line(text.into()));
        }
        session.handle(Event::Line(format!("ping {round}")));
        let pong = format!("pong {round}");
        let mut seen = false;
        for _ in 0..1000 {
            if session.take_output().iter().any(|r| r.to_string() == pong) {
                seen = true;
                break;
            }
            if let Ok(event) = events.recv_timeout(Duration::from_millis(20)) {
                session.handle(event);
            }
        }
        assert!(seen, "no {pong} after round {round}");
        assert!(!session.wants_to_quit());
    }
}
