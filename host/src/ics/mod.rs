//! Zippy/ICS: who we play and where (the server, the opponent's handle, the
//! ratings, whether the opponent is a computer, the bughouse partner), and what
//! the engine says there. Everything sent to a server is our own text: handles
//! are validated before use, and nothing the opponent, the partner or the server
//! sends is ever put into a `tellics` command or changes what the engine does
//! beyond its draw and resign judgement.

mod bughouse;
mod handle;
mod policy;
mod talk;
mod throttle;

use std::{collections::VecDeque, time::Instant};

pub use bughouse::mating_drop;
pub use handle::valid_handle;
pub use policy::{Judged, Limits, Verdict};
use shakmaty::Role;
pub use talk::{Summary, finger_notes};

use crate::host_options::Commentary;
use policy::Policy;
use throttle::Throttle;

/// A burst of this many lines (the finger notes, the greeting and the first
/// summaries fit)...
const BURST_LINES: u32 = 6;
/// ...then one line every this many seconds at most.
const SECONDS_PER_LINE: f64 = 2.0;
/// Partner tells kept for the log and for `#` diagnostics.
const KEPT_PTELLS: usize = 20;
/// Asking for the same piece again sooner than this is nagging.
const MOVES_BETWEEN_ASKS: u32 = 3;

/// Words for the chess server, and who they are for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Talk {
    /// A command for the server.
    Command(String),
    /// A command for the server that its aliases must not rewrite.
    CommandNoAlias(String),
    /// To the opponent and the spectators (the server's `kibitz`).
    All(String),
    /// To the spectators only (the server's `whisper`).
    Others(String),
    /// To the opponent only (the server's `say`).
    Opponent(String),
}

#[derive(Debug, Clone)]
pub struct Ics {
    /// The chess server we play on; `None` when playing locally.
    server: Option<String>,
    /// The server whose finger notes we set, so it happens once per server session.
    fingered: Option<String>,
    /// The opponent's handle, if it is a valid one.
    opponent: Option<String>,
    /// Ours, then the opponent's (0: unrated).
    ratings: Option<(i32, i32)>,
    computer: bool,
    partner: Option<String>,
    ptells: VecDeque<String>,
    throttle: Throttle,
    greeted: bool,
    /// The mate length last announced, so a mate is announced once, not every move.
    announced_mate: Option<i32>,
    policy: Policy,
    last_ask: Option<(Role, u32)>,
}

impl Default for Ics {
    fn default() -> Ics {
        Ics {
            server: None,
            fingered: None,
            opponent: None,
            ratings: None,
            computer: false,
            partner: None,
            ptells: VecDeque::new(),
            throttle: Throttle::new(BURST_LINES, SECONDS_PER_LINE),
            greeted: false,
            announced_mate: None,
            policy: Policy::default(),
            last_ask: None,
        }
    }
}

impl Ics {
    pub fn on_server(&self) -> bool {
        self.server.is_some()
    }

    pub fn server(&self) -> Option<&str> {
        self.server.as_deref()
    }

    pub fn opponent(&self) -> Option<&str> {
        self.opponent.as_deref()
    }

    pub fn ratings(&self) -> Option<(i32, i32)> {
        self.ratings
    }

    pub fn computer(&self) -> bool {
        self.computer
    }

    pub fn partner(&self) -> Option<&str> {
        self.partner.as_deref()
    }

    pub fn ptells(&self) -> impl Iterator<Item = &str> {
        self.ptells.iter().map(String::as_str)
    }

    /// `new`: what belongs to one game is forgotten; the server and the partner stay.
    pub fn new_game(&mut self) {
        self.opponent = None;
        self.ratings = None;
        self.computer = false;
        self.greeted = false;
        self.announced_mate = None;
        self.policy.new_game();
        self.last_ask = None;
    }

    /// `ics HOST` (`-`: playing locally).
    pub fn set_server(&mut self, host: &str) {
        let host = host.trim();
        self.server = (!host.is_empty() && host != "-").then(|| host.to_owned());
    }

    /// Our finger notes, once per server session, built by the caller from names the
    /// operator chose. xboard sends `ics` before it has logged on, and drops what
    /// we send the server until then: the notes wait for the first sign of a game
    /// (`name`, `rating`, or our first move).
    pub fn finger_notes_due(&mut self, notes: impl FnOnce() -> [String; 2], now: Instant) -> Vec<Talk> {
        let Some(server) = &self.server else { return Vec::new() };
        if self.fingered.as_ref() == Some(server) {
            return Vec::new();
        }
        self.fingered = Some(server.clone());
        notes().into_iter().filter(|_| self.throttle.allow(now, 0)).map(Talk::CommandNoAlias).collect()
    }

    /// `name X`: kept only when it is a valid handle; returns whether it was.
    pub fn set_opponent(&mut self, name: &str) -> bool {
        self.opponent = valid_handle(name.trim()).map(str::to_owned);
        self.opponent.is_some()
    }

    pub fn set_ratings(&mut self, own: i32, opponent: i32) {
        self.ratings = Some((own, opponent));
    }

    pub fn set_computer(&mut self) {
        self.computer = true;
    }

    /// `partner NAME` or `partner`; returns whether a name given was a valid handle.
    pub fn set_partner(&mut self, name: Option<&str>) -> bool {
        self.partner = name.and_then(|name| valid_handle(name.trim())).map(str::to_owned);
        name.is_none() || self.partner.is_some()
    }

    /// A partner's tell is recorded, never obeyed.
    pub fn record_ptell(&mut self, text: &str) {
        if self.ptells.len() == KEPT_PTELLS {
            self.ptells.pop_front();
        }
        self.ptells.push_back(text.to_owned());
    }

    /// The finger note naming the plugins, again after they changed.
    pub fn plugins_changed(&mut self, notes: [String; 2], now: Instant) -> Option<Talk> {
        let [_, plugins] = notes;
        (self.on_server() && self.fingered.is_some() && self.throttle.allow(now, 1))
            .then_some(Talk::CommandNoAlias(plugins))
    }

    /// How much worse the engine must stand to take a draw, against this opponent.
    pub fn contempt(&self, base_cp: i32) -> i32 {
        policy::contempt(base_cp, self.ratings, self.computer, self.on_server())
    }

    pub fn accepts_draw(&self, score_cp: Option<i32>, base_contempt_cp: i32) -> bool {
        policy::accepts_draw(score_cp, self.contempt(base_contempt_cp))
    }

    /// Resign, offer a draw, or just play; judged after every search for our move.
    pub fn judge(&mut self, judged: &Judged, limits: &Limits) -> Verdict {
        self.policy.judge(judged, limits)
    }

    /// The greeting, once per game on a server; locally `tellopponent` would pop
    /// up a dialog in the user's face.
    pub fn greet(&mut self, template: &str, now: Instant) -> Option<Talk> {
        if !self.on_server() || self.greeted {
            return None;
        }
        self.greeted = true;
        let text = talk::greeting(template, self.opponent.as_deref())?;
        self.throttle.allow(now, 0).then_some(Talk::Opponent(text))
    }

    /// After our move: a mate announcement to everyone (once per mate found), and
    /// the search summary to the spectators, when the throttle allows.
    pub fn commentary(
        &mut self,
        mode: Commentary,
        summary: Option<&Summary>,
        played_san: &str,
        unsearched_note: &str,
        now: Instant,
    ) -> Vec<Talk> {
        let mut lines = Vec::new();
        if !self.on_server() {
            return lines;
        }
        let mate = summary.map(|s| s.score).filter(|s| s.kind == plugboard_plugin_api::ScoreKind::Mate);
        match mate {
            Some(score) if score.value > 0 => {
                // The mate found earlier, one move nearer, needs no new announcement.
                let expected = self.announced_mate.map(|n| n - 1);
                if expected != Some(score.value) && self.throttle.allow(now, 0) {
                    lines.push(Talk::All(talk::mate_announcement(score.value)));
                }
                self.announced_mate = Some(score.value);
            }
            _ => self.announced_mate = None,
        }
        let text = match summary {
            Some(summary) => talk::summary(summary),
            None => talk::unsearched(played_san, unsearched_note),
        };
        // One line kept in hand, so a mate announcement is never crowded out.
        if mode != Commentary::Off && self.throttle.allow(now, 1) {
            lines.push(match mode {
                Commentary::Kibitz => Talk::All(text),
                _ => Talk::Others(text),
            });
        }
        lines
    }

    /// In bughouse, before our move: ask the partner for a piece that would mate.
    pub fn partner_ask(&mut self, mating: Option<Role>, fullmove: u32, now: Instant) -> Option<Talk> {
        let role = mating?;
        self.partner.as_ref()?;
        if self.last_ask.is_some_and(|(asked, at)| asked == role && fullmove < at + MOVES_BETWEEN_ASKS) {
            return None;
        }
        if !self.throttle.allow(now, 0) {
            return None;
        }
        self.last_ask = Some((role, fullmove));
        Some(Talk::Command(format!("ptell {} mates here, please get me one", role.upper_char())))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use plugboard_plugin_api::Score;

    use super::*;

    fn notes() -> [String; 2] {
        ["set 1 Plugboard".into(), "set 2 Search: x, evaluation: y".into()]
    }

    #[test]
    fn finger_notes_once_per_server_session() {
        let now = Instant::now();
        let mut ics = Ics::default();
        ics.set_server("-");
        assert!(!ics.on_server());
        assert_eq!(ics.finger_notes_due(notes, now), []);
        ics.set_server("freechess.org");
        let first = ics.finger_notes_due(notes, now);
        assert_eq!(first.len(), 2);
        assert_eq!(first[0], Talk::CommandNoAlias("set 1 Plugboard".into()));
        ics.set_server("freechess.org");
        assert_eq!(ics.finger_notes_due(notes, now + Duration::from_secs(60)), []);
        ics.set_server("chessclub.com");
        assert_eq!(ics.finger_notes_due(notes, now + Duration::from_secs(60)).len(), 2);
    }

    #[test]
    fn new_forgets_the_game_but_not_the_server_or_partner() {
        let mut ics = Ics::default();
        ics.set_server("freechess.org");
        assert!(ics.set_opponent("GuestABCD"));
        assert!(!ics.set_opponent("bad name; quit"));
        assert_eq!(ics.opponent(), None);
        ics.set_opponent("GuestABCD");
        ics.set_ratings(1800, 1500);
        ics.set_computer();
        ics.set_partner(Some("mann"));
        ics.new_game();
        assert_eq!((ics.opponent(), ics.ratings(), ics.computer()), (None, None, false));
        assert_eq!((ics.server(), ics.partner()), (Some("freechess.org"), Some("mann")));
    }

    #[test]
    fn locally_the_engine_says_nothing() {
        let now = Instant::now();
        let mut ics = Ics::default();
        assert_eq!(ics.greet("Hello", now), None);
        let summary =
            Summary { depth: 5, score: Score::mate_in(2), nodes: 100, time_ms: 10, tbhits: 0, pv: "Qh5".into() };
        assert_eq!(ics.commentary(Commentary::Kibitz, Some(&summary), "Qh5", "no search", now), []);
    }

    #[test]
    fn mates_are_announced_once_and_commentary_is_throttled() {
        let mut now = Instant::now();
        let mut ics = Ics::default();
        ics.set_server("freechess.org");
        ics.finger_notes_due(notes, now);
        now += Duration::from_secs(60);
        let mut summary =
            Summary { depth: 9, score: Score::mate_in(3), nodes: 1000, time_ms: 100, tbhits: 0, pv: "Qh5".into() };
        let lines = ics.commentary(Commentary::Whisper, Some(&summary), "Qh5", "no search", now);
        assert_eq!(lines[0], Talk::All("Mate in 3!".into()));
        assert!(matches!(&lines[1], Talk::Others(text) if text.starts_with("d9 +M3 ")), "{lines:?}");
        now += Duration::from_secs(10);
        summary.score = Score::mate_in(2);
        let lines = ics.commentary(Commentary::Whisper, Some(&summary), "Qh5", "no search", now);
        assert_eq!(lines.len(), 1, "{lines:?}");
        // Many moves at once: the spectators get a few lines, not one per move.
        let said =
            (0..20).flat_map(|_| ics.commentary(Commentary::Whisper, Some(&summary), "Qh5", "no search", now)).count();
        assert!(said <= BURST_LINES as usize, "{said}");
    }

    #[test]
    fn partner_asks_need_a_partner_and_do_not_nag() {
        let now = Instant::now();
        let mut ics = Ics::default();
        assert_eq!(ics.partner_ask(Some(Role::Knight), 10, now), None);
        ics.set_partner(Some("mann"));
        let ask = ics.partner_ask(Some(Role::Knight), 10, now).unwrap();
        assert_eq!(ask, Talk::Command("ptell N mates here, please get me one".into()));
        assert_eq!(ics.partner_ask(Some(Role::Knight), 11, now + Duration::from_secs(30)), None);
        assert!(ics.partner_ask(Some(Role::Knight), 13, now + Duration::from_secs(60)).is_some());
        assert_eq!(ics.partner_ask(None, 20, now + Duration::from_secs(90)), None);
    }
}
