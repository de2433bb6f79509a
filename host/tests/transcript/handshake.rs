//! `xboard`, `protover`, `accepted`, `rejected`: the start of a session, and a
//! GUI of protocol 1 that skips it.

use crate::harness::Transcript;

#[test]
fn handshake_lists_features_then_options_then_done() {
    let mut t = Transcript::new();
    // `xboard` asks for no answer: the engine prints no prompt to turn off.
    assert_eq!(t.say(&["xboard"]), Vec::<String>::new());
    let lines = t.say(&["protover 2"]);
    assert_eq!(lines[0], "feature done=0");
    assert_eq!(
        lines[1],
        "feature myname=\"Plugboard 0.1.0\" ping=1 setboard=1 usermove=1 playother=1 san=0 time=1 draw=1 \
         sigint=0 sigterm=1 reuse=1 analyze=1 colors=0 name=1 ics=1 nps=1 memory=1 smp=1 debug=1 \
         pause=1 exclude=1 setscore=1 highlight=1 egt=\"syzygy\" \
         variants=\"normal,fischerandom,atomic,suicide,giveaway,kingofthehill,3check,crazyhouse,racingkings,horde,xiangqi,\
         nocastle,wildcastle,losers,twokings,knightmate,berolina,cylinder,shatranj,courier,makruk,asean,\
         capablanca,gothic,caparandom,janus,falcon,grand,super,great,shogi,minishogi,torishogi,shoshogi,lion,elven,chu,bughouse,boardsize\""
    );
    assert_eq!(
        lines[2..26],
        [
            "feature option=\"Move overhead -spin 50 0 5000\"",
            "feature option=\"MultiPV -spin 1 1 64\"",
            "feature option=\"Threads -spin 1 1 256\"",
            "feature option=\"Book file -file \"",
            "feature option=\"Use book -check 1\"",
            "feature option=\"Variant file -file \"",
            "feature option=\"Book depth -spin 256 1 999\"",
            "feature option=\"Book choice -combo *weighted random /// best\"",
            "feature option=\"Contempt -spin 50 -1000 1000\"",
            "feature option=\"Resign threshold -spin 900 0 10000\"",
            "feature option=\"Resign moves -spin 4 1 50\"",
            "feature option=\"Offer draws -check 1\"",
            "feature option=\"ICS greeting -string Hello {opponent}, good luck and have fun!\"",
            "feature option=\"ICS commentary -combo *whisper /// kibitz /// off\"",
            "feature option=\"Ask partner for pieces -check 1\"",
            "feature option=\"Extended thinking -check 1\"",
            "feature option=\"Debug output -check 1\"",
            "feature option=\"Log folder -path \"",
            "feature option=\"Log files -spin 7 1 365\"",
            "feature option=\"Save settings -save\"",
            // A button: xboard 4.9.1 rejects `-reset`, and clears its list on `done=0`.
            "feature option=\"Reset settings -button\"",
            "feature option=\"Configure -string \"",
            "feature option=\"Search -combo *alphabeta /// patient /// probe /// scripted\"",
            "feature option=\"Evaluation -combo *nnue /// fairy /// pesto /// xiangqi-nnue /// xiangqi-pst\"",
        ]
    );
    assert_eq!(lines[26], "feature option=\"Rescan plugins -button\"");
    assert!(lines[27].starts_with("feature option=\"Plugin folder -path "));
    assert_eq!(
        lines[28..],
        ["feature option=\"Null move pruning -check 1\"", "feature option=\"EvalFile -file \"", "feature done=1",]
    );
}

#[test]
fn a_higher_protocol_version_gets_the_same_features() {
    // "Your engine should never refuse to run due to receiving a higher protocol
    // version number than it is expecting!"
    let two = Transcript::new().say(&["xboard", "protover 2"]);
    let three = Transcript::new().say(&["xboard", "protover 3"]);
    assert_eq!(three, two);
    assert_eq!(three.last().map(String::as_str), Some("feature done=1"));
}

#[test]
fn accepted_and_rejected_features_are_taken_without_a_word() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2"]);
    let answers = [
        "accepted done",
        "accepted myname",
        "accepted ping",
        "accepted usermove",
        "rejected setscore",
        "rejected highlight",
        "accepted option Move overhead",
        "rejected option Reset settings",
    ];
    assert_eq!(t.say(&answers), Vec::<String>::new());
    // And the engine goes on working.
    assert_eq!(t.say(&["ping 1"]), ["pong 1"]);
}

#[test]
fn debug_lines_wait_for_the_feature_to_be_accepted() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2"]);
    assert_eq!(
        t.say(&["accepted debug"]),
        [
            "# search plugin alphabeta 0.1.0 from (built in)",
            "# evaluation plugin nnue 0.1.0 from (built in)",
            "# evaluation plugin pesto 0.1.0 from (built in)",
            "# evaluation plugin xiangqi-nnue 0.1.0 from (built in)",
            "# evaluation plugin xiangqi-pst 0.1.0 from (built in)",
            "# evaluation plugin fairy 0.1.0 from (built in)",
            "# search plugin scripted 1.0 from (built in)",
            "# search plugin patient 1.0 from (built in)",
            "# search plugin probe 1.0 from (built in)",
        ]
    );

    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2"]);
    assert!(t.say(&["rejected debug", "option Search=scripted", "ping 1"]).iter().all(|l| !l.starts_with('#')));
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
