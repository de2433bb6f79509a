//! What the GUI tells of the opponent: `name`, `rating`, `ics`, `computer`. None
//! asks for an answer; the session keeps them for the chess-server layer.

use crate::harness::Transcript;

#[test]
fn name_rating_ics_and_computer_are_kept_without_a_word() {
    let mut t = Transcript::playing("scripted");
    assert!(t.session.opponent.name.is_none() && !t.session.opponent.computer);
    let said = t.say(&["name Fairy-Max 5.0b", "rating 2600 1500", "ics freechess.org", "computer", "ping 1"]);
    assert_eq!(said, ["pong 1"]);
    let opponent = &t.session.opponent;
    assert_eq!(opponent.name.as_deref(), Some("Fairy-Max 5.0b"));
    assert_eq!(opponent.ratings, Some((2600, 1500)));
    assert_eq!(opponent.ics.as_deref(), Some("freechess.org"));
    assert!(opponent.computer);
}

#[test]
fn ics_dash_means_a_local_opponent() {
    let mut t = Transcript::playing("scripted");
    t.say(&["ics freechess.org"]);
    assert_eq!(t.say(&["ics -"]), Vec::<String>::new());
    assert_eq!(t.session.opponent.ics, None);
}

#[test]
fn an_unrated_opponent_is_rated_0() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["rating 0 0"]), Vec::<String>::new());
    assert_eq!(t.session.opponent.ratings, Some((0, 0)));
    assert_eq!(t.say(&["rating 2600"]), ["Error (bad parameter): rating 2600"]);
}
