//! `option NAME[=VALUE]` for every kind of option: the host's own (spin, combo,
//! save, reset), the built-in search's (check, spin), and the probe's, which has
//! one of every kind. Host options that scan real folders (the `Rescan plugins`
//! button, the `Plugin folder` path) are left to the end-to-end tests.

use crate::{fakes::Probe, harness::Transcript};

fn option_lines(said: &[String]) -> Vec<&str> {
    said.iter().filter_map(|l| l.strip_prefix("feature option=\"")?.strip_suffix('"')).collect()
}

#[test]
fn options_are_readvertised_only_when_they_change() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2", "accepted done"]);
    // xboard sends its start-up value for every option it is given, again after
    // each re-advertisement: the second, unchanged choice must not re-advertise.
    let first = t.say(&["option Search=scripted"]);
    assert_eq!(first.first().map(String::as_str), Some("feature done=0"));
    assert_eq!(t.say(&["option Search=scripted", "ping 1"]), ["pong 1"]);
}

#[test]
fn a_spin_takes_whole_numbers_in_its_range() {
    let mut t = Transcript::playing("probe");
    // Move overhead is kept back from every deadline.
    assert_eq!(t.say(&["option Move overhead=400", "new", "st 1", "go"]), ["move b1a3"]);
    assert_eq!(t.searches()[0].hard_ms, 600);
    assert_eq!(
        t.say(&["option Move overhead=5001", "option Move overhead=ten", "option Move overhead"]),
        [
            "Error (bad parameter): option Move overhead=5001 (Move overhead must be between 0 and 5000)",
            "Error (bad parameter): option Move overhead=ten (Move overhead must be a whole number)",
            "Error (bad parameter): option Move overhead (Move overhead must be a whole number)",
        ]
    );
    // The refused values changed nothing.
    assert_eq!(t.say(&["new", "st 1", "go"]), ["move b1a3"]);
    assert_eq!(t.searches()[0].hard_ms, 600);
}

#[test]
fn a_combo_takes_one_of_its_choices() {
    let mut t = Transcript::playing("scripted");
    let said = t.say(&["option Search=alphabeta"]);
    assert!(option_lines(&said).contains(&"Search -combo *alphabeta /// patient /// probe /// scripted"), "{said:?}");
    assert_eq!(
        t.say(&["option Search=deep thought"]),
        ["Error (bad parameter): option Search=deep thought (Search has no choice named deep thought)"]
    );
    // The choice already made: nothing changed, nothing to list again.
    assert_eq!(t.say(&["option Evaluation=nnue", "ping 1"]), ["pong 1"]);
}

#[test]
fn a_check_of_the_built_in_search_takes_0_or_1() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2"]);
    assert_eq!(t.say(&["option Null move pruning=0", "option Null move pruning=1", "ping 1"]), ["pong 1"]);
    assert_eq!(
        t.say(&["option Null move pruning=2"]),
        ["Error (bad parameter): option Null move pruning=2 (Null move pruning must be 0 or 1)"]
    );
}

#[test]
fn every_kind_of_plugin_option_reaches_the_plugin() {
    let mut t = Transcript::playing("probe");
    Probe::options_set();
    let good = [
        "option Probe check=0",
        "option Probe spin=7",
        "option Probe slider=100",
        "option Probe combo=two",
        "option Probe string=two words",
        "option Probe file=/srv/books/main.bin",
        "option Probe path=/srv/tablebases",
        "option Probe button",
    ];
    assert_eq!(t.say(&good), Vec::<String>::new());
    let set: Vec<(String, String)> = Probe::options_set();
    let expected = [
        ("Probe check", "0"),
        ("Probe spin", "7"),
        ("Probe slider", "100"),
        ("Probe combo", "two"),
        ("Probe string", "two words"),
        ("Probe file", "/srv/books/main.bin"),
        ("Probe path", "/srv/tablebases"),
        ("Probe button", ""),
    ]
    .map(|(name, value)| (name.to_owned(), value.to_owned()));
    assert_eq!(set, expected);
    assert_eq!(
        t.say(&[
            "option Probe check=yes",
            "option Probe spin=11",
            "option Probe slider=-1",
            "option Probe combo=three"
        ]),
        [
            "Error (bad parameter): option Probe check=yes (Probe check must be 0 or 1)",
            "Error (bad parameter): option Probe spin=11 (Probe spin must be between 0 and 10)",
            "Error (bad parameter): option Probe slider=-1 (Probe slider must be between 0 and 100)",
            "Error (bad parameter): option Probe combo=three (Probe combo has no choice named three)",
        ]
    );
    assert_eq!(Probe::options_set(), []);
    // The values set are the ones advertised when the options are listed again.
    t.say(&["option Search=scripted"]);
    let said = t.say(&["option Search=probe"]);
    let options = option_lines(&said);
    let first_probe = options.iter().position(|o| o.starts_with("Probe ")).expect("the probe's options");
    assert_eq!(
        options[first_probe..],
        [
            "Probe check -check 0",
            "Probe spin -spin 7 0 10",
            "Probe slider -slider 100 0 100",
            "Probe combo -combo one /// *two",
            "Probe string -string two words",
            "Probe file -file /srv/books/main.bin",
            "Probe path -path /srv/tablebases",
            "Probe button -button",
            "EvalFile -file ",
        ]
    );
}

#[test]
fn an_unknown_option_is_refused() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["option Frobnicate=1"]), ["Error (unknown option): option Frobnicate=1"]);
}

#[test]
fn save_writes_the_settings_that_the_next_start_applies() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["option Save settings"]), ["tellusererror No folder to save settings in"]);

    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("settings.txt");
    let mut t = Transcript::new();
    t.session.use_settings_file(path.clone());
    t.say(&["xboard", "protover 2", "option Search=scripted", "option Move overhead=300"]);
    assert_eq!(t.say(&["option Save settings"]), [format!("telluser Settings saved to {}", path.display())]);

    let mut t = Transcript::new();
    t.session.use_settings_file(path);
    let said = t.say(&["xboard", "protover 2"]);
    let options = option_lines(&said);
    assert_eq!(options[0], "Move overhead -spin 300 0 5000");
    assert!(options.contains(&"Search -combo alphabeta /// patient /// probe /// *scripted"), "{options:?}");
}

#[test]
fn option_names_are_found_whatever_their_case() {
    // xboard answers features (`playing` does), and reads the list again.
    let mut t = Transcript::playing("scripted");
    // lichess-bot writes UCI's spelling, `Move Overhead`, for `Move overhead`.
    let said = t.say(&["option Move Overhead=300", "option evaluation=pesto"]);
    let options = option_lines(&said);
    assert_eq!(options[0], "Move overhead -spin 300 0 5000");
    assert!(
        options.contains(&"Evaluation -combo nnue /// fairy /// *pesto /// xiangqi-nnue /// xiangqi-pst"),
        "{options:?}"
    );
}

#[test]
fn a_gui_that_answers_no_feature_is_not_sent_the_list_again() {
    // python-chess answers only the features it uses, and logs each one after
    // the handshake as unexpected output in the middle of its `go`.
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2", "accepted memory", "accepted smp", "accepted egt", "option Search=scripted"]);
    assert_eq!(t.say(&["option Evaluation=pesto", "ping 1"]), ["pong 1"]);
    // The change took: once the GUI answers features, the list says so.
    t.say(&["accepted done"]);
    let said = t.say(&["option Search=probe"]);
    let options = option_lines(&said);
    assert!(
        options.contains(&"Evaluation -combo nnue /// fairy /// *pesto /// xiangqi-nnue /// xiangqi-pst"),
        "{options:?}"
    );
}

#[test]
fn reset_restores_the_defaults_and_lists_the_options_again() {
    let mut t = Transcript::playing("scripted");
    t.say(&["option Move overhead=300"]);
    let said = t.say(&["option Reset settings"]);
    assert_eq!(said.first().map(String::as_str), Some("feature done=0"));
    assert_eq!(said.last().map(String::as_str), Some("feature done=1"));
    let options = option_lines(&said);
    assert_eq!(options[0], "Move overhead -spin 50 0 5000");
    assert!(options.contains(&"Search -combo *alphabeta /// patient /// probe /// scripted"), "{options:?}");
}

#[test]
fn configure_sets_options_whose_names_have_spaces() {
    let mut t = Transcript::playing("probe");
    // What python-chess sends for `configure({"Configure": ...})`: one word for a name.
    t.feed(&["option Configure=Move overhead=300;; MultiPV=3", "new", "analyze"]);
    let analysed = t.await_searches(1).remove(0);
    assert_eq!(analysed.multipv, 3);
    assert_eq!(t.say_now(&["exit"]), Vec::<String>::new());
    // Each setting is refused on its own, in the protocol's words.
    assert_eq!(
        t.say(&["option Configure=No such=1; Threads=0; Configure=x"]),
        [
            "Error (unknown option): option No such=1",
            "Error (bad parameter): option Threads=0 (Threads must be between 1 and 256)",
            "Error (bad parameter): option Configure=No such=1; Threads=0; Configure=x (Configure within Configure)",
        ]
    );
}

#[test]
fn what_a_configured_option_brings_about_comes_before_the_next_setting() {
    let mut t = Transcript::playing("probe");
    let said = t.say(&["option Configure=Book file=/nonexistent/book.bin; MultiPV=0"]);
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(said[0].starts_with("tellusererror Book not opened: "), "{said:?}");
    assert_eq!(said[1], "Error (bad parameter): option MultiPV=0 (MultiPV must be between 1 and 64)");
}
