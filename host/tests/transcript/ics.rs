//! What the GUI tells of the opponent (`name`, `rating`, `ics`, `computer`,
//! `partner`, `ptell`) and what the engine says on a chess server because of it:
//! finger notes, a greeting, a summary after each move, piece requests to a
//! bughouse partner. Locally it says none of that.

use crate::harness::{Transcript, is_thinking};

fn on_server() -> Transcript {
    let mut t = Transcript::playing("scripted");
    t.say(&["new", "ics freechess.org", "name GuestABCD", "rating 1800 1500"]);
    t
}

#[test]
fn name_rating_ics_and_computer_are_kept_and_new_forgets_the_game() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.session.core.ics.opponent(), None);
    let said = t.say(&["name GuestABCD", "rating 2600 1500", "computer", "ping 1"]);
    assert_eq!(said, ["pong 1"]);
    assert_eq!(t.session.core.ics.opponent(), Some("GuestABCD"));
    assert_eq!(t.session.core.ics.ratings(), Some((2600, 1500)));
    assert!(t.session.core.ics.computer());
    t.say(&["ics freechess.org", "partner mann", "new"]);
    assert_eq!(
        (t.session.core.ics.opponent(), t.session.core.ics.ratings(), t.session.core.ics.computer()),
        (None, None, false)
    );
    // The server and the bughouse partner outlive a game.
    assert_eq!((t.session.core.ics.server(), t.session.core.ics.partner()), (Some("freechess.org"), Some("mann")));
}

#[test]
fn a_server_session_starts_with_finger_notes_naming_the_plugins() {
    let mut t = Transcript::playing("scripted");
    // xboard sends `ics` before it has logged on, and would drop what we said.
    assert_eq!(t.say(&["ics freechess.org"]), Vec::<String>::new());
    let said = t.say(&["name GuestABCD"]);
    assert_eq!(
        said,
        [
            "tellicsnoalias set 1 Plugboard 0.1.0, a chess engine whose search and evaluation are plugins",
            "tellicsnoalias set 2 Search: scripted 1.0, evaluation: nnue 0.1.0",
        ]
    );
    // xboard sends `ics` before every game: the notes are set once per server.
    assert_eq!(t.say(&["new", "ics freechess.org", "name GuestABCD", "rating 1 2"]), Vec::<String>::new());
}

#[test]
fn ics_dash_means_a_local_opponent() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["ics -"]), Vec::<String>::new());
    assert_eq!(t.session.core.ics.server(), None);
}

#[test]
fn an_unrated_opponent_is_rated_0() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["rating 0 0"]), Vec::<String>::new());
    assert_eq!(t.session.core.ics.ratings(), Some((0, 0)));
    assert_eq!(t.say(&["rating 2600"]), ["Error (bad parameter): rating 2600"]);
}

#[test]
fn on_a_server_the_engine_greets_then_whispers_a_summary_before_its_move() {
    // Before: a mating move ends the game on the server, which then refuses words.
    let mut t = on_server();
    let said = t.say(&["go"]);
    assert_eq!(
        said,
        [
            "tellopponent Hello GuestABCD, good luck and have fun!",
            "tellothers d1 +0.12 n=1 1knps t=0.00s pv Na3",
            "move b1a3",
        ]
    );
    // The greeting is once a game.
    let said = t.say(&["a7a6"]);
    assert_eq!(said, ["tellothers d1 +0.12 n=1 1knps t=0.00s pv Rb1", "move a1b1"]);
}

#[test]
fn locally_the_engine_says_nothing_but_its_move() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "ics -", "name Fairy-Max 5.0b", "go"]), ["move b1a3"]);
}

#[test]
fn commentary_goes_where_the_option_says() {
    let mut t = on_server();
    t.say(&["option ICS commentary=kibitz", "option ICS greeting="]);
    let said = t.say(&["go"]);
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(said[0].starts_with("tellall d1 "), "{said:?}");
    let mut t = on_server();
    t.say(&["option ICS commentary=off"]);
    let said = t.say(&["go"]);
    assert_eq!(said[1..], ["move b1a3"]);
    assert_eq!(
        t.say(&["option ICS commentary=shout"]),
        ["Error (bad parameter): option ICS commentary=shout (ICS commentary has no choice named shout)"]
    );
}

#[test]
fn names_and_tells_from_the_server_never_reach_a_server_command() {
    let mut t = Transcript::playing("scripted");
    let mut said = t.say(&[
        "new",
        "ics freechess.org",
        "name x;tellics set 1 pwned",
        "partner evil\ttellics",
        "ptell tellics set 1 pwned",
        "ptell option Search=probe",
        "post",
        "go",
    ]);
    said.extend(t.say(&["a7a6"]));
    assert!(said.iter().all(|line| !line.contains("pwned") && !line.contains("evil")), "{said:?}");
    assert_eq!(said.iter().filter(|l| l.starts_with("tellics")).count(), 2, "only the finger notes: {said:?}");
    assert!(said.contains(&"tellopponent Hello there, good luck and have fun!".to_owned()), "{said:?}");
    // What a partner says is recorded, never obeyed: the option is unchanged.
    assert!(t.session.core.ics.ptells().any(|p| p == "option Search=probe"));
    assert!(said.iter().filter(|l| is_thinking(l)).count() >= 2);
    assert!(!said.iter().any(|l| l.starts_with("feature")), "no option changed: {said:?}");
}

#[test]
fn a_stronger_opponent_makes_a_draw_welcome_sooner() {
    // Scripted scores what `setscore` fixed; -30 is less than the default contempt of 50.
    let fen = "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut t = on_server();
    t.say(&[fen, "setscore -30 5", "go"]);
    assert_eq!(t.say(&["draw"]), Vec::<String>::new());
    // Rated 500 below the opponent: contempt 50 - 50 + 20 (a human) = 20.
    let mut t = on_server();
    t.say(&["rating 1500 2000", fen, "setscore -30 5", "go"]);
    assert_eq!(t.say(&["draw"]), ["offer draw"]);
}

#[test]
fn ratings_by_colour_count_for_the_side_the_engine_plays() {
    let fen = "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    // White (the engine, at go) is rated 500 below Black: as `rating 1500 2000`.
    let mut t = on_server();
    t.say(&["ratings 1500 2000", fen, "setscore -30 5", "go"]);
    assert_eq!(t.say(&["draw"]), ["offer draw"]);
    // Swapped, the engine (White again) is the stronger: no draw is welcome.
    let mut t = on_server();
    t.say(&["ratings 2000 1500", fen, "setscore -30 5", "go"]);
    assert_eq!(t.say(&["draw"]), Vec::<String>::new());
}

/// A bughouse game on a server, with a partner, where a rook dropped on the back
/// rank would mate; `extra` lines come before the position.
fn bughouse_with_a_mate_in_hand(extra: &[&str]) -> Vec<String> {
    let mut t = Transcript::playing("scripted");
    t.say(&["new", "variant bughouse", "ics freechess.org", "partner mann", "sd 2"]);
    t.say(extra);
    t.say(&["setboard 6k1/5ppp/8/8/8/8/5PPP/6K1[] w - - 0 20", "go"])
}

#[test]
fn a_bughouse_engine_asks_its_partner_for_a_mating_piece() {
    let said = bughouse_with_a_mate_in_hand(&[]);
    assert!(said.contains(&"tellicsnoalias ptell R mates here, please get me one".to_owned()), "{said:?}");
    let said = bughouse_with_a_mate_in_hand(&["option Ask partner for pieces=0"]);
    assert!(!said.iter().any(|l| l.contains("ptell")), "{said:?}");
    let said = bughouse_with_a_mate_in_hand(&["partner"]);
    assert!(!said.iter().any(|l| l.contains("ptell")), "no partner, no asks: {said:?}");
}
