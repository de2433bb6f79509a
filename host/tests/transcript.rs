//! Transcript tests: a `Session` fed events directly, with a deterministic fake
//! search linked in, and its replies compared line for line.

use std::{
    sync::mpsc::{self, Receiver},
    time::Duration,
};

use plugboard::{
    event::Event,
    plugins::{PluginHost, Registry},
    session::Session,
};
use plugboard_plugin_api::{
    EvaluatorSource, InfoKind, PluginInfo, Reporter, Score, SearchInfo, SearchOutcome, SearchPlugin, SearchRequest,
    abi_stable::std_types::{RNone, ROption, RSlice},
};

/// Plays the allowed legal move with the lowest (from, to) squares and reports one line.
struct Scripted;

impl SearchPlugin for Scripted {
    fn info() -> PluginInfo {
        PluginInfo::new("scripted", "1.0").variants("normal,fischerandom")
    }

    fn search(
        request: &SearchRequest<'_>,
        _: EvaluatorSource,
        reporter: Reporter<'_>,
    ) -> Result<SearchOutcome, String> {
        let board = plugboard_alphabeta::position_to_board(&request.root)?;
        let mut moves = Vec::new();
        board.generate_moves(|list| {
            moves.extend(list);
            false
        });
        let allowed = |m: &plugboard_plugin_api::Move| request.root_moves.is_empty() || request.root_moves.contains(m);
        let best = moves
            .iter()
            .map(|&m| plugboard_alphabeta::move_from_cozy(m))
            .filter(allowed)
            .min_by_key(|m| (m.from, m.to));
        if let Some(best) = best {
            reporter.report(&SearchInfo {
                kind: InfoKind::Line,
                depth: 1,
                seldepth: 1,
                // The noise `random` asks for shows in the score, so tests can see it.
                score: Score::centipawns(12 + request.eval_noise as i32),
                nodes: 1,
                time_ms: 0,
                tbhits: 0,
                pv: RSlice::from_slice(std::slice::from_ref(&best)),
                current_move: ROption::RNone,
                current_move_number: 0,
                root_move_count: moves.len() as u32,
                multipv: 1,
            });
        }
        Ok(SearchOutcome { best: best.into(), ponder: RNone })
    }
}

struct Transcript {
    session: Session,
    events: Receiver<Event>,
}

impl Transcript {
    fn new() -> Transcript {
        let (inbox, events) = mpsc::channel();
        let mut registry = Registry::with_builtins();
        registry.link_search::<Scripted>();
        let session = Session::new(inbox, PluginHost::with_registry(registry, Vec::new()));
        Transcript { session, events }
    }

    /// Feeds lines as the GUI would, lets every search started finish, and returns
    /// what the engine said.
    fn say(&mut self, lines: &[&str]) -> Vec<String> {
        for line in lines {
            self.session.handle(Event::Line((*line).to_owned()));
        }
        while self.session.is_searching() {
            let event = self.events.recv_timeout(Duration::from_secs(30)).expect("the search reports back");
            self.session.handle(event);
        }
        self.session.take_output().iter().map(ToString::to_string).collect()
    }
}

#[test]
fn handshake_lists_features_then_options_then_done() {
    let mut t = Transcript::new();
    let lines = t.say(&["xboard", "protover 2"]);
    assert_eq!(lines[0], "feature done=0");
    assert_eq!(
        lines[1],
        "feature myname=\"Plugboard 0.1.0\" ping=1 setboard=1 usermove=1 playother=1 san=0 time=1 draw=1 \
         sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 name=0 nps=1 memory=1 smp=1 debug=1 \
         pause=1 exclude=1 setscore=1 highlight=1 \
         variants=\"normal,fischerandom,atomic,suicide,giveaway,kingofthehill,3check,crazyhouse,racingkings,horde\""
    );
    assert_eq!(
        lines[2..9],
        [
            "feature option=\"Move overhead -spin 50 0 5000\"",
            "feature option=\"MultiPV -spin 1 1 64\"",
            "feature option=\"Contempt -spin 50 -1000 1000\"",
            "feature option=\"Save settings -save\"",
            "feature option=\"Reset settings -reset\"",
            "feature option=\"Search -combo *alphabeta /// scripted\"",
            "feature option=\"Evaluation -combo *pesto\"",
        ]
    );
    assert_eq!(lines[9], "feature option=\"Rescan plugins -button\"");
    assert!(lines[10].starts_with("feature option=\"Plugin folder -path "));
    assert_eq!(
        lines[11..],
        ["feature option=\"Null move pruning -check 1\"", "feature option=\"Tempo -spin 10 0 100\"", "feature done=1",]
    );
}

#[test]
fn debug_lines_wait_for_the_feature_to_be_accepted() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2"]);
    assert_eq!(
        t.say(&["accepted debug"]),
        [
            "# search plugin alphabeta 0.1.0 from (built in)",
            "# evaluation plugin pesto 0.1.0 from (built in)",
            "# search plugin scripted 1.0 from (built in)",
        ]
    );

    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2"]);
    assert!(t.say(&["rejected debug", "option Search=scripted", "ping 1"]).iter().all(|l| !l.starts_with('#')));
}

#[test]
fn a_game_with_the_scripted_search() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2", "accepted done"]);
    let switched = t.say(&["option Search=scripted"]);
    assert_eq!(switched.first().map(String::as_str), Some("feature done=0"));
    assert!(switched.contains(&"feature option=\"Search -combo alphabeta /// *scripted\"".to_owned()));
    assert_eq!(switched.last().map(String::as_str), Some("feature done=1"));
    assert_eq!(t.say(&["new", "post", "force", "usermove e2e4", "go"]), ["1 12 0 1 1 1000 0\ta7a5", "move a7a5"]);
    assert_eq!(t.say(&["d2d4"]), ["1 12 0 1 1 1000 0\ta5a4", "move a5a4"]);
    assert_eq!(t.say(&["nopost", "usermove f1b5"]), ["move a4a3"]);
    assert_eq!(t.say(&["e2e4"]), ["Illegal move (not legal in this position): e2e4"]);
}

#[test]
fn a_ping_sent_while_thinking_is_answered_after_the_move() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2", "option Search=scripted"]);
    assert_eq!(t.say(&["new", "white", "go", "ping 7"]), ["move b1a3", "pong 7"]);
    assert_eq!(t.say(&["ping 8"]), ["pong 8"]);
}

#[test]
fn results_are_claimed_after_a_mating_move_even_in_force_mode() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2"]);
    assert_eq!(t.say(&["new", "force", "f2f3", "e7e5", "g2g4", "d8h4"]), ["0-1 {Black mates}"]);
    assert_eq!(t.say(&["go"]), Vec::<String>::new());
    assert_eq!(t.say(&["undo", "undo", "ping 1"]), ["pong 1"]);
}

#[test]
fn options_are_readvertised_only_when_they_change() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2"]);
    // xboard sends its start-up value for every option it is given, again after
    // each re-advertisement: the second, unchanged choice must not re-advertise.
    let first = t.say(&["option Search=scripted"]);
    assert_eq!(first.first().map(String::as_str), Some("feature done=0"));
    assert_eq!(t.say(&["option Search=scripted", "ping 1"]), ["pong 1"]);
}

#[test]
fn edit_sets_up_a_position_and_keeps_the_side_to_move() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2", "option Search=scripted"]);
    // The black-to-move kludge: a move in force mode, then edit.
    assert_eq!(
        t.say(&["new", "force", "a2a3", "edit", "#", "Ke1", "Ra1", "c", "Ke8", "Zz", "."]),
        ["Error (bad parameter): Zz (expected a piece letter and a square, like Pe4 or xe4)"]
    );
    // Black is to move; the scripted search plays the lowest move: Ke8-d7.
    assert_eq!(t.say(&["go"]), ["move e8d7"]);
    // White may still castle queen-side: the rook and king stood on their squares.
    assert_eq!(t.say(&["force", "e1c1", "ping 1"]), ["pong 1"]);
    assert_eq!(t.say(&["edit", "#", "Ke1", "."]), ["tellusererror Illegal position: illegal position: missing king"]);
    assert_eq!(t.say(&["e1e2"]), ["Illegal move (no legal position is set up): e1e2"]);
}

#[test]
fn exclude_and_include_steer_the_analysis() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2", "option Search=scripted", "post"]);
    // The scripted search reports its one line and ends, so each analysis is one line.
    // Exclusions may come before `analyze`, as python-chess sends them.
    assert_eq!(t.say(&["new", "force", "exclude b1a3", "analyze"]), ["1 12 0 1 1 1000 0\tb1c3"]);
    assert_eq!(t.say(&["include all"]), ["1 12 0 1 1 1000 0\tb1a3"]);
    assert_eq!(t.say(&["exclude b1a3"]), ["1 12 0 1 1 1000 0\tb1c3"]);
    assert_eq!(t.say(&["exclude all", "ping 1"]), ["pong 1"]);
    assert_eq!(t.say(&["include g1f3"]), ["1 12 0 1 1 1000 0\tg1f3"]);
    // A new position forgets the exclusions.
    assert_eq!(t.say(&["e2e4"]), ["1 12 0 1 1 1000 0\ta7a5"]);
    assert_eq!(t.say(&["exclude e2e5"]), ["Illegal move (not legal in this position): e2e5"]);
    assert_eq!(t.say(&["exit", "exit"]), ["Error (command not legal now): exit"]);
    // A search for a move honours them too, and ignores them when nothing is left.
    assert_eq!(t.say(&["nopost", "new", "exclude b1a3", "white", "go"]), ["move b1c3"]);
    assert_eq!(t.say(&["new", "exclude all", "white", "go"]), ["move b1a3"]);
}

#[test]
fn lift_is_answered_with_the_legal_destinations() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2", "new"]);
    assert_eq!(t.say(&["lift b1", "put c3", "hover c3"]), ["highlight 8/8/8/8/8/Y1Y5/8/8"]);
    assert_eq!(t.say(&["lift e9"]), ["Error (bad parameter): lift e9"]);
}

#[test]
fn draw_offers_follow_the_score_and_claims_come_before_the_move() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2", "option Search=scripted"]);
    // The scripted search scores +12 for itself: no reason to accept.
    t.say(&["new", "go"]);
    assert_eq!(t.say(&["draw", "ping 1"]), ["pong 1"]);
    // Bare kings: nobody can win, so accept.
    assert_eq!(t.say(&["setboard 4k3/8/8/8/8/8/8/4K3 w - - 0 1", "draw"]), ["offer draw"]);
    // A move that repeats the position a third time is claimed with offer draw first.
    t.say(&["setboard 8/8/8/8/8/7K/k7/3R4 w - - 0 1", "force"]);
    t.say(&["h3h4", "a2b2", "h4h3", "b2a2", "h3h4", "a2b2", "h4h3"]);
    assert_eq!(t.say(&["go"]), ["offer draw", "move b2a2", "1/2-1/2 {Draw by repetition}"]);
}

#[test]
fn too_many_parameters_and_pause_out_of_place() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2"]);
    assert_eq!(
        t.say(&["new now", "resume", "pause", "pause", "resume", "ping 3"]),
        [
            "Error (too many parameters): new now",
            "Error (command not legal now): resume",
            "Error (command not legal now): pause",
            "pong 3",
        ]
    );
}

#[test]
fn fischer_random_castles_by_the_chess960_rules() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2", "option Search=scripted"]);
    assert_eq!(t.say(&["new", "variant fischerandom", "ping 1"]), ["pong 1"]);
    // King b1 beside rook a1: its lowest move is castling queen-side, king-takes-rook b1a1,
    // which the GUI must see as O-O-O.
    t.say(&["setboard rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1"]);
    assert_eq!(t.say(&["go"]), ["move O-O-O"]);
    // Black castles king-side, as the GUI writes it; the scripted engine answers.
    let reply = t.say(&["O-O"]);
    assert!(reply.len() == 1 && reply[0].starts_with("move "), "{reply:?}");
    assert_eq!(t.say(&["new", "variant shogi"]), ["Error (unsupported variant): variant shogi"]);
}

#[test]
fn protocol_one_without_protover_still_plays() {
    let mut t = Transcript::new();
    // No `xboard`/`protover`: an old GUI. The built-in default is alphabeta, so
    // choose the scripted search the way such a GUI cannot, before it starts.
    t.say(&["option Search=scripted"]);
    assert_eq!(t.say(&["new", "level 40 5 0", "e2e4"]), ["move a7a5"]);
    assert_eq!(t.say(&["force", "white", "go"]), ["move b1a3"]);
    assert_eq!(t.say(&["force", "black", "edit", "#", "Ke1", "c", "Ke8", "Pa7", ".", "go"]), ["move a7a5"]);
}

#[test]
fn random_asks_for_evaluation_noise_until_new() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2", "option Search=scripted"]);
    assert_eq!(t.say(&["new", "post", "random", "white", "go"]), ["1 22 0 1 1 1000 0\tb1a3", "move b1a3"]);
    assert_eq!(t.say(&["new", "post", "white", "go"]), ["1 12 0 1 1 1000 0\tb1a3", "move b1a3"]);
}
