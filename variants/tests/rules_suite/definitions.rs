//! Reading variant definitions: a user's file in Fairy-Stockfish's format is
//! taken whole or refused with its file, line and reason, whatever its bytes.

use plugboard_variants::{Catalog, Position};

fn refusal(text: &str) -> (usize, String) {
    let mut catalog = Catalog::builtin();
    let error = catalog.add_file(text, "mine.ini").expect_err("refused");
    assert_eq!(error.file, "mine.ini");
    assert!(error.to_string().starts_with(&format!("mine.ini:{}: ", error.line)), "{error}");
    (error.line, error.why)
}

#[test]
fn a_fairy_stockfish_definition_loads_unchanged_and_plays() {
    // The example of Fairy-Stockfish's own variants.ini, and an 8×8 variant of our own.
    let text = "\
# pawns with extra sideways and backwards movement
[allwayspawns:chess]
customPiece1 = p:mWfceFifmnD

[amazonchess:chess]
queen = -
amazon = a
startFen = rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1
promotionPieceTypes = arbn
";
    let mut catalog = Catalog::builtin();
    let names = catalog.add_file(text, "mine.ini").unwrap();
    assert_eq!(names, ["allwayspawns", "amazonchess"]);
    assert!(catalog.is_users("amazonchess") && !catalog.is_users("capablanca"));
    let mut amazon = Position::start(catalog.get("amazonchess").unwrap().clone()).unwrap();
    // Chess's 20 moves, and the amazon's knight leaps from d1 to c3 and e3.
    assert_eq!(amazon.perft(1), 22);
    let m = amazon.parse_move("e2e4").unwrap();
    amazon.play(m);
    let m = amazon.parse_move("e7e5").unwrap();
    amazon.play(m);
    // Now the amazon slides as a queen too.
    let mut moves = Vec::new();
    amazon.legal_moves(&mut moves);
    assert!(moves.iter().any(|&m| amazon.move_text(m) == "d1e3"), "a knight's leap");
    assert!(moves.iter().any(|&m| amazon.move_text(m) == "d1h5"), "a queen's slide");
    let mut pawns = Position::start(catalog.get("allwayspawns").unwrap().clone()).unwrap();
    for text in ["e2e4", "a7a6", "e4d4", "a6a5", "d4d3"] {
        let m = pawns.parse_move(text).unwrap_or_else(|why| panic!("{text}: {why}"));
        pawns.play(m);
    }
}

#[test]
fn piece_values_given_in_fairy_stockfish_units_replace_the_worked_out_ones() {
    // A rook is 1276 (opening) and 1380 (ending) in Fairy-Stockfish's units,
    // whose pawn is 208: their mean, 638 centipawns here. A piece given no value, and a
    // royal one, keep theirs; a pawn given one keeps it whatever it promotes to.
    let text = "[heavy:chess]\npieceValueMg = r:1276 p:312\npieceValueEg = r:1380 k:5000\n";
    let mut catalog = Catalog::builtin();
    catalog.add_file(text, "mine.ini").unwrap();
    let heavy = catalog.get("heavy").unwrap();
    let chess = catalog.get("nocastle").unwrap();
    let value = |variant: &plugboard_variants::Variant, letter: char| {
        variant.piece_values()[variant.kind_of_letter(letter).unwrap()]
    };
    assert_eq!(value(heavy, 'r'), 638);
    assert_eq!(value(heavy, 'p'), 150);
    assert_eq!(value(heavy, 'k'), 0);
    assert_eq!(value(heavy, 'n'), value(chess, 'n'));
}

#[test]
fn every_fault_names_its_line_and_why() {
    let cases: &[(&str, usize, &str)] = &[
        ("knight = n\n", 1, "before any [variant] section"),
        ("[a:chess]\n\nwibble = 3\n", 3, "unknown key 'wibble'"),
        ("[a:nosuch]\n", 1, "no variant 'nosuch'"),
        ("[a:chess]\ndropPromoted = true\n", 2, "does not play this rule"),
        ("[a:chess]\npromotedPieceType = p:z\n", 2, "no piece of this variant is written 'z'"),
        ("[a:chess]\npromotedPieceType = n:bq\n", 2, "letter:letter pairs"),
        ("[a:chess]\npromotedPieceType = k:q\n", 1, "cannot promote"),
        ("[a:chess]\npromotesToPieceType = n:n\n", 1, "cannot promote"),
        ("[a:chess]\npromotesToPieceType = n:b\npromotedPieceType = n:q\n", 1, "cannot promote"),
        ("[a:chess]\npromotesToPieceType = n\n", 2, "letter:letter pairs"),
        ("[a:chess]\ncastlingKingsideFileBlack = z\n", 2, "castlingKingsideFileBlack"),
        ("[a:chess]\npiecePromotionOnEntry = 1\n", 2, "expected true or false"),
        ("[a:chess]\ndropNoDoubled = pn\n", 2, "one piece letter"),
        ("[a:chess]\ncustomPiece1 = x:cafsmafW\n", 2, "take on its way"),
        ("[a:chess]\ncustomPiece1 = x:cafF\n", 2, "where no leap of the piece takes"),
        ("[a:chess]\ncustomPiece1 = x\n", 2, "needs its moves"),
        ("[a:chess]\ncastling = yes\n", 2, "expected true or false"),
        ("[a:chess]\nmaxFile = 17\n", 2, "a to p or 1 to 16"),
        ("[a:chess]\nstartFen = rnbqkbnr/8 w - - 0 1\n", 1, "start position"),
        ("[a:chess]\npromotionPieceTypes = qz\n", 2, "no piece of this variant is written 'z'"),
        ("[a b]\n", 1, "cannot name a variant"),
        ("[capablanca:chess]\n", 1, "already a variant called capablanca"),
        ("[a:chess\n", 1, "does not close"),
        ("[a:chess]\njust words\n", 2, "not a key = value line"),
        ("[a]\n", 1, "no pieces"),
        ("[a:chess]\n[a:chess]\n", 2, "defined twice"),
        ("[a:chess]\npieceValueMg = n:800 z:3\n", 2, "no piece of this variant is written 'z'"),
        ("[a:chess]\npieceValueEg = n800\n", 2, "letter:value pairs"),
        ("[a:chess]\npieceValueMg = +n\n", 2, "letter:value pairs"),
        ("[a:chess]\npieceValueMg = n:-5\n", 2, "whole number up to 100000"),
        ("[a:chess]\npieceValueMg = n:999999\n", 2, "whole number up to 100000"),
    ];
    for (text, line, why) in cases {
        let (found_line, found_why) = refusal(text);
        assert_eq!(found_line, *line, "{text:?}: {found_why}");
        assert!(found_why.contains(why), "{text:?}: {found_why}");
    }
}

#[test]
fn a_file_with_one_fault_adds_nothing() {
    let mut catalog = Catalog::builtin();
    let before: Vec<String> = catalog.names().map(str::to_string).collect();
    assert!(catalog.add_file("[good:chess]\n[bad:chess]\nnope = 1\n", "two.ini").is_err());
    assert_eq!(catalog.names().map(str::to_string).collect::<Vec<_>>(), before);
    assert!(catalog.get("good").is_none());
}

#[test]
fn a_definition_handed_on_reads_alone_into_the_same_variant() {
    let catalog = Catalog::builtin();
    let gothic = catalog.get("gothic").unwrap();
    assert!(gothic.definition.starts_with("[chess]\n"), "{}", gothic.definition);
    let again = Catalog::read_definition(&gothic.definition).unwrap();
    assert_eq!(again.name, "gothic");
    let mut position = Position::start(again).unwrap();
    assert_eq!(position.perft(3), 25283);
}

/// Whatever the bytes, reading a file answers, never panics: random
/// changes to real definitions, cut anywhere.
#[test]
fn mangled_definitions_are_answered_never_panic() {
    let seed_text = plugboard_variants::BUILTIN;
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet: Vec<char> = "[]:=#\n abcdefghijklmnopqrstuvwxyzKQRBNP*-0123456789/".chars().collect();
    for round in 0..300 {
        let mut text: Vec<char> = seed_text.chars().collect();
        for _ in 0..(1 + next() % 12) {
            let at = (next() % text.len() as u64) as usize;
            match next() % 3 {
                0 => text[at] = alphabet[(next() % alphabet.len() as u64) as usize],
                1 => {
                    text.remove(at);
                }
                _ => text.insert(at, alphabet[(next() % alphabet.len() as u64) as usize]),
            }
        }
        let cut = (next() % text.len() as u64) as usize;
        let text: String = text[..cut.max(1)].iter().collect();
        // Renamed so the sections do not clash with the built-in ones.
        let text = text.replace('[', "[x");
        let mut catalog = Catalog::builtin();
        if let Ok(names) = catalog.add_file(&text, "fuzz.ini") {
            for name in names {
                let variant = catalog.get(&name).unwrap().clone();
                let mut position = Position::start(variant).unwrap();
                let _ = position.perft(2);
            }
        }
        let _ = round;
    }
}

#[test]
fn a_promoted_form_is_worth_what_it_moves_as() {
    let catalog = Catalog::builtin();
    let shogi = catalog.get("shogi").unwrap();
    let values = shogi.piece_values();
    let value = |letter: char| values[shogi.kind_of_letter(letter).unwrap()];
    let promoted = |letter: char| values[shogi.kinds[shogi.kind_of_letter(letter).unwrap()].promotes_to.unwrap()];
    // Fairy-Stockfish's values (a chess pawn is 208): the gold's 710 is 341 cp.
    assert_eq!(value('g'), 341);
    assert_eq!(promoted('p'), value('g'));
    assert_eq!(promoted('s'), value('g'));
    assert_eq!(promoted('b'), value('h'));
    assert!(value('p') < value('l') && value('l') < value('s') && value('b') < value('r'));
    // Chu values its promoted forms that move as no other type with `+`: the
    // lance's white horse is the dragon horse's 1166, 561 cp; the lion is
    // worth more than the free king by half again, and a gold four pawns or so.
    let chu = catalog.get("chu").unwrap();
    let values = chu.piece_values();
    let value = |letter: char| values[chu.kind_of_letter(letter).unwrap()];
    let promoted = |letter: char| values[chu.kinds[chu.kind_of_letter(letter).unwrap()].promotes_to.unwrap()];
    assert_eq!(promoted('l'), 561);
    assert_eq!(promoted('l'), value('h'));
    assert!(value('n') * 2 > value('q') * 3, "lion {} free king {}", value('n'), value('q'));
    assert!(value('p') * 3 < value('g') && value('g') < value('p') * 5);
    assert_eq!(promoted('p'), value('g'));
}
