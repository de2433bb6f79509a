//! The rules that perft alone does not show: how games end in each variant,
//! the board that wraps, the two kings, moves written as CECP writes them.

use plugboard_variants::{Catalog, Outcome, Position, Reason};

fn position(variant: &str, fen: &str) -> Position {
    let catalog = Catalog::builtin();
    Position::from_fen(catalog.get(variant).unwrap().clone(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(position: &mut Position, moves: &[&str]) {
    for text in moves {
        let m = position.parse_move(text).unwrap_or_else(|why| panic!("{text}: {why} in {}", position.fen()));
        position.play(m);
    }
}

#[test]
fn losers_is_won_by_losing_everything_or_being_mated() {
    // White's last piece besides the king is taken: White wins.
    let mut game = position("losers", "4k3/8/8/8/8/8/1r6/R3K3 b - - 0 1");
    play(&mut game, &["b2b1"]);
    assert_eq!(game.outcome(), None, "a capture is compulsory only when one exists");
    let mut game = position("losers", "4k3/8/8/8/8/8/r7/R3K3 b - - 0 1");
    play(&mut game, &["a2a1"]);
    assert_eq!(game.outcome(), Some(Outcome { winner: Some(0), reason: Reason::Extinction }));
    // Captures are compulsory: the rook must take.
    let mut game = position("losers", "4k3/8/8/8/8/8/r7/R3K3 b - - 0 1");
    assert_eq!(game.parse_move("a2b2"), Err("not legal in this position"));
    // Checkmated wins.
    let mut mated = position("losers", "7k/5Q2/6K1/8/8/8/8/p7 w - - 0 1");
    play(&mut mated, &["f7g7"]);
    assert_eq!(mated.outcome(), Some(Outcome { winner: Some(1), reason: Reason::Checkmate }));
}

#[test]
fn shatranj_bares_and_stalemates_to_win() {
    // Black takes White's last man but the king, and White cannot bare Black back: White loses.
    let mut game = position("shatranj", "4k3/8/8/8/8/8/r7/R4K2 b - - 0 1");
    play(&mut game, &["a2a1"]);
    assert_eq!(game.outcome(), None, "White has its move to bare Black back");
    play(&mut game, &["f1f2"]);
    assert_eq!(game.outcome(), Some(Outcome { winner: Some(1), reason: Reason::Extinction }));
    // Bared with two men against it, White cannot answer in kind, but it has
    // its move all the same: xboard judges the bare king only after it.
    let mut game = position("shatranj", "4k3/8/8/8/8/2n5/r7/R4K2 b - - 0 1");
    play(&mut game, &["a2a1"]);
    assert_eq!(game.outcome(), None, "White's answer comes first");
    play(&mut game, &["f1f2"]);
    assert_eq!(game.outcome(), Some(Outcome { winner: Some(1), reason: Reason::Extinction }));
    // Bared back at once: nobody has won.
    let mut bared_back = position("shatranj", "4k3/8/8/8/8/8/r7/RK6 b - - 0 1");
    play(&mut bared_back, &["a2a1", "b1a1"]);
    assert_eq!(bared_back.outcome(), None);
    // Stalemate loses for the side stalemated.
    let mut stalemated = position("shatranj", "k7/p2N4/P1K5/8/8/8/8/8 b - - 0 1");
    assert_eq!(stalemated.outcome(), Some(Outcome { winner: Some(0), reason: Reason::Stalemate }));
    // No double step for shatranj's pawns; the king starts on d1.
    let mut start = Position::start(Catalog::builtin().get("shatranj").unwrap().clone()).unwrap();
    assert_eq!(start.parse_move("e2e4"), Err("not legal in this position"));
    play(&mut start, &["e2e3", "e7e6", "d1e2"]);
}

#[test]
fn courier_is_played_to_checkmate_as_xboard_referees_it() {
    // A bare king plays on, and stalemate draws: xboard knows neither rule in courier.
    let mut game = position("courier", "5k6/12/12/12/12/12/r11/R4K6 b - - 0 1");
    play(&mut game, &["a2a1", "f1e2"]);
    assert_eq!(game.outcome(), None);
    let mut stalemated = position("courier", "k11/p2N8/P1K9/12/12/12/12/12 b - - 0 1");
    assert_eq!(stalemated.outcome(), Some(Outcome { winner: None, reason: Reason::Stalemate }));
}

#[test]
fn the_cylinder_wraps_from_the_a_file_to_the_h_file() {
    let mut game = position("cylinder", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    // The rook leaves the a-file to the left and comes in on the h-file.
    play(&mut game, &["a1h1"]);
    let mut bishop = position("cylinder", "4k3/8/8/8/8/8/8/B3K3 w - - 0 1");
    play(&mut bishop, &["a1h2"]);
    let mut pawn = position("cylinder", "4k3/8/8/8/8/7p/P7/4K3 w - - 0 1");
    play(&mut pawn, &["a2h3"]);
}

#[test]
fn of_two_kings_only_the_one_nearest_a1_is_royal() {
    // The f-king may stand attacked; the e-king may not.
    let mut game = position("twokings", "4k3/8/8/8/8/8/5r2/4KK2 w - - 0 1");
    assert!(!game.in_check(), "the attacked king on f1 is not the royal one");
    assert!(game.parse_move("e1f2").is_ok());
    let check = position("twokings", "4k3/8/8/8/8/8/4r3/4KK2 w - - 0 1");
    assert!(check.in_check());
    // Royalty goes by where the kings stand: here the f-king is the one nearer a1.
    let moved = position("twokings", "4k3/8/8/8/8/8/6K1/5K1r w - - 0 1");
    assert!(moved.in_check());
    let spare = position("twokings", "4k3/8/8/8/8/8/6Kr/5K2 w - - 0 1");
    assert!(!spare.in_check());
}

#[test]
fn moves_are_written_as_cecp_writes_them() {
    let catalog = Catalog::builtin();
    let mut grand = Position::start(catalog.get("grand").unwrap().clone()).unwrap();
    // Ten ranks count from 0: the pawns start on rank 2, which is the third.
    let m = grand.parse_move("e2e4").unwrap();
    assert_eq!(grand.move_text(m), "e2e4");
    grand.play(m);
    assert!(grand.fen().contains(" b - e3 0 1"), "{}", grand.fen());
    let mut capa = position("capablanca", "4k5/1P8/10/10/10/10/10/4K5 w - - 0 1");
    let mut moves = Vec::new();
    capa.legal_moves(&mut moves);
    let promotions: Vec<String> = moves.iter().filter(|m| m.promotion != 0).map(|&m| capa.move_text(m)).collect();
    assert_eq!(promotions.len(), 6, "{promotions:?}");
    assert!(promotions.contains(&"b7b8c".to_string()) && promotions.contains(&"b7b8a".to_string()));
    assert_eq!(capa.parse_move("b7b8"), Err("not legal in this position"), "promotion is compulsory");
    // Capablanca's king castles three files, to i1 or c1.
    let mut castle = position("capablanca", "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1");
    let m = castle.parse_move("f1i1").unwrap();
    assert!(m.is_castle());
    castle.play(m);
    assert!(castle.fen().starts_with("r4k3r/10/10/10/10/10/10/R6RK1 b kq"), "{}", castle.fen());
    // Caparandom writes castling as O-O, and reads Shredder letters.
    let mut crc = position("caparandom", "crknrabbqn/pppppppppp/10/10/10/10/PPPPPPPPPP/CRKNRABBQN w EBeb - 0 1");
    let mut moves = Vec::new();
    play(&mut crc, &["d1e3", "d8e6"]);
    crc.legal_moves(&mut moves);
    assert!(moves.iter().all(|&m| !m.is_castle() || crc.move_text(m).starts_with("O-O")));
    assert_eq!(grand.parse_move("e2e4x"), Err("not a move"));
    assert_eq!(grand.parse_move("k1k2"), Err("not a move"));
    // A grand pawn may stay one on its eighth and ninth ranks: xboard writes
    // that with the pawn's letter (with none it would promote to a queen), and
    // so does the engine; both forms are read.
    let mut zone = position("grand", "r8r/1nbqkcabn1/10/4P5/10/10/10/10/1NBQKCABN1/R8R w - - 0 1");
    let stay = zone.parse_move("e6e7p").unwrap();
    assert_eq!(stay.promotion_kind(), None);
    assert_eq!(zone.parse_move("e6e7"), Ok(stay));
    assert_eq!(zone.move_text(stay), "e6e7p");
    let mut outside = position("grand", "r8r/1nbqkcabn1/10/10/4P5/10/10/10/1NBQKCABN1/R8R w - - 0 1");
    let step = outside.parse_move("e5e6").unwrap();
    assert_eq!(outside.move_text(step), "e5e6");
    assert_eq!(outside.parse_move("e5e6p"), Err("not legal in this position"));
}

#[test]
fn promotion_takes_a_piece_from_the_holdings_and_captures_refill_them() {
    // Super chess: only the amazon is held, so the pawn becomes an amazon or nothing else.
    let mut game = position("super", "4k3/1P6/8/8/8/8/8/4K3[A] w - - 0 1");
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let promotions: Vec<String> = moves.iter().filter(|m| m.from == 0x61).map(|&m| game.move_text(m)).collect();
    assert_eq!(promotions, ["b7b8a"]);
    play(&mut game, &["b7b8a"]);
    assert!(game.fen().starts_with("1A2k3/8/8/8/8/8/8/4K3[-] b"), "{}", game.fen());
    // With nothing held the pawn may still step onto the last rank, as xboard allows.
    let mut empty = position("super", "4k3/1P6/8/8/8/8/8/4K3[-] w - - 0 1");
    let stay = empty.parse_move("b7b8").unwrap();
    assert_eq!(empty.move_text(stay), "b7b8", "no pawn's letter on the last rank, which xboard refuses");
    play(&mut empty, &["b7b8"]);
    // A captured piece goes back to its owner's holdings, for its owner's promotions.
    let mut capture = position("super", "4k3/8/8/8/8/8/r7/R3K3[-] b - - 0 1");
    play(&mut capture, &["a2a1"]);
    assert!(capture.fen().starts_with("4k3/8/8/8/8/8/8/r3K3[R] w"), "{}", capture.fen());
}

#[test]
fn the_falcon_leaps_unless_all_three_of_its_ways_are_blocked() {
    let falcon_moves = |fen: &str| -> Vec<String> {
        let mut game = position("falcon", fen);
        let mut legal = plugboard_variants::MoveList::new();
        game.legal_moves(&mut legal);
        let mut moves: Vec<String> = legal.iter().map(|&m| game.move_text(m)).filter(|m| m.starts_with("e4")).collect();
        moves.sort();
        moves
    };
    // On an empty board: the camel's eight squares and the zebra's eight.
    let free = falcon_moves("k9/10/10/10/4F5/10/10/9K w - - 0 1");
    assert_eq!(free.len(), 16, "{free:?}");
    assert!(free.contains(&"e4f7".to_string()) && free.contains(&"e4h6".to_string()), "{free:?}");
    // To f7 the ways pass e5-e6, e5-f6 or f5-f6: any one open will do.
    assert!(falcon_moves("k9/10/4P5/4P5/4F5/10/10/9K w - - 0 1").contains(&"e4f7".to_string()));
    assert!(falcon_moves("k9/10/4P5/5P4/4F5/10/10/9K w - - 0 1").contains(&"e4f7".to_string()));
    // All three shut: f7 is out of reach.
    let shut = falcon_moves("k9/10/5P4/4P5/4F5/10/10/9K w - - 0 1");
    assert!(!shut.contains(&"e4f7".to_string()), "{shut:?}");
    // It takes, and checks a king on a square it reaches.
    let mut game = position("falcon", "k9/10/10/1p8/4F5/10/10/9K w - - 0 1");
    play(&mut game, &["e4b5"]);
    assert!(game.fen().starts_with("k9/10/10/1F8/10/"), "{}", game.fen());
    assert!(position("falcon", "10/5k4/10/10/4F5/10/10/9K b - - 0 1").in_check());
    assert!(!position("falcon", "10/5k4/5P4/4P5/4F5/10/10/9K b - - 0 1").in_check());
}

#[test]
fn in_sho_shogi_as_xboard_referees_it_the_king_is_royal_beside_a_crown_prince() {
    // White has a king on e1 and a crown prince (a promoted elephant) on a1;
    // Black's rook on e8 checks the king, which must get out of check.
    let mut game = position("shoshogi", "4k4/4r4/9/9/9/9/9/9/+E3K4 w 0 1");
    assert!(game.in_check(), "xboard 4.9.1 counts no prince as royal");
    assert_eq!(game.parse_move("a1a2"), Err("not legal in this position"));
    play(&mut game, &["e1d1"]);
    // The prince moves as the king and is taken as any piece.
    play(&mut game, &["e8e2"]);
    play(&mut game, &["a1b2"]);
    assert_eq!(game.fen(), "4k4/9/9/9/9/9/9/1+E2r4/3K5 b - - 3 2");
    // Mate ends the game as in shogi, prince or no prince.
    let mut mated = position("shoshogi", "4k4/9/9/9/9/9/9/1r7/r3K3+E w 0 1");
    assert!(mated.in_check());
    assert_eq!(mated.outcome(), Some(Outcome { winner: Some(1), reason: Reason::Checkmate }));
}
