//! Variants on another board than their own (xboard's `WxH+S_NAME` from an
//! engine that lists `boardsize`): the start position's halves move apart, and
//! the zones and castling files with them.

use plugboard_variants::{Catalog, Position};

fn resized(base: &str, template: &str, files: u8, ranks: u8) -> Result<Position, String> {
    let mut catalog = Catalog::builtin();
    let name = format!("{base}_{files}x{ranks}");
    let variant = catalog.resized(base, &name, template, files, ranks).map_err(|error| error.to_string())?;
    Ok(Position::start(variant).unwrap())
}

fn play(position: &mut Position, moves: &[&str]) {
    for text in moves {
        let m = position.parse_move(text).unwrap_or_else(|why| panic!("{text}: {why} in {}", position.fen()));
        position.play(m);
    }
}

#[test]
fn chess_on_ten_files_gains_two_empty_files_and_two_pawns() {
    let mut wide = resized("chess", "normal", 10, 8).unwrap();
    assert_eq!(wide.fen(), "rnbq2kbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQ2KBNR w KQkq - 0 1");
    // The king castles to the file next to the corner on either wing.
    let mut castles = Position::from_fen(wide.variant().clone(), "r5k2r/10/10/10/10/10/10/R5K2R w KQkq - 0 1").unwrap();
    play(&mut castles, &["g1i1", "g8c8"]);
    assert_eq!(castles.fen(), "2kr5r/10/10/10/10/10/10/R6RK1 w - - 2 2");
    // Pawns still step twice from their rank and promote on the last.
    play(&mut wide, &["e2e4", "f7f5"]);
    let mut promotes = Position::from_fen(wide.variant().clone(), "6k3/1P8/10/10/10/10/10/6K3 w - - 0 1").unwrap();
    play(&mut promotes, &["b7b8q"]);
}

#[test]
fn makruk_on_ten_ranks_promotes_two_ranks_further_up() {
    let mut tall = resized("makruk", "makruk", 8, 10).unwrap();
    assert_eq!(tall.fen(), "rnsmksnr/8/pppppppp/8/8/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1");
    // CECP counts the ranks of a ten-rank board from 0: a5 is the sixth.
    let mut pawn = Position::from_fen(tall.variant().clone(), "4k3/8/8/8/P7/8/8/8/8/3K4 w - - 0 1").unwrap();
    assert_eq!(pawn.parse_move("a5a6m"), Err("not legal in this position"), "{}", pawn.fen());
    play(&mut pawn, &["a5a6", "e9e8"]);
    assert_eq!(pawn.parse_move("a6a7"), Err("not legal in this position"), "{}", pawn.fen());
    play(&mut pawn, &["a6a7m"]);
    assert!(tall.perft(2) > 0);
    play(&mut tall, &["a2a3"]);
}

#[test]
fn a_board_too_narrow_for_the_army_is_refused_with_the_piece_left_out() {
    let why = resized("chess", "normal", 6, 8).unwrap_err();
    assert!(why.contains("does not fit on 6x8") && why.contains("on c1"), "{why}");
    let why = resized("chess", "normal", 17, 8).unwrap_err();
    assert!(why.contains("at most 16 files"), "{why}");
    // Taking away empty middle ranks is fine.
    let short = resized("chess", "normal", 8, 6).unwrap();
    assert_eq!(short.fen(), "rnbqkbnr/pppppppp/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

#[test]
fn the_definition_of_a_resized_variant_reads_alone_as_the_same_game() {
    let wide = resized("capablanca", "capablanca", 12, 8).unwrap();
    let again = Catalog::read_definition(&wide.variant().definition).unwrap();
    assert_eq!(again.name, "capablanca_12x8");
    assert_eq!(Position::start(again).unwrap().fen(), wide.fen());
    assert_eq!(wide.fen(), "rnabq2kbcnr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNABQ2KBCNR w KQkq - 0 1");
}
