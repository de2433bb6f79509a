//! Makruk's and ASEAN chess's counting rules, as Fairy-Stockfish's source keeps
//! them. Makruk against Fairy-Stockfish 11.1 itself: games of random moves
//! (captures preferred, to reach the endings where the counts run), and its FEN
//! after them, which carries the count (its limit and plies in place of the
//! en-passant square and halfmove counter). `data/counting-fsf.txt` holds three
//! games: `game VARIANT MOVES`, then `PLY FEN` at the plies where a count starts
//! or starts again, every tenth and the last, then `end`. ASEAN chess by hand:
//! Fairy-Stockfish 11.1 still asked for a met beside the khon or knight and
//! counted with pawns on the board, which its later source corrected.

use plugboard_variants::{Catalog, MoveList, Outcome, Position, Reason};

const GAMES: &str = include_str!("../data/counting-fsf.txt");

#[test]
fn counts_start_and_run_as_fairy_stockfish_keeps_them() {
    let catalog = Catalog::builtin();
    let mut lines = GAMES.lines();
    let mut games = 0;
    let mut checked = 0;
    while let Some(header) = lines.next() {
        let mut words = header.split_whitespace();
        assert_eq!(words.next(), Some("game"), "{header}");
        let variant = catalog.get(words.next().unwrap()).unwrap().clone();
        let moves: Vec<&str> = words.collect();
        let mut position = Position::start(variant.clone()).unwrap();
        let mut played = 0;
        for line in lines.by_ref() {
            if line == "end" {
                break;
            }
            let (ply, fen) = line.split_once(' ').unwrap();
            let ply: usize = ply.parse().unwrap();
            while played < ply {
                let m = position.parse_move(moves[played]).unwrap_or_else(|why| {
                    panic!("{} ply {played}: {}: {why} in {}", variant.name, moves[played], position.fen())
                });
                position.play(m);
                played += 1;
            }
            assert_eq!(position.fen(), fen, "{} after {ply} plies", variant.name);
            // The FEN reads back to the same count.
            let read = Position::from_fen(variant.clone(), fen).unwrap();
            assert_eq!(read.count_state(), position.count_state(), "{fen}");
            checked += 1;
        }
        games += 1;
    }
    assert!(games == 3 && checked > 100, "{games} games, {checked} positions");
}

#[test]
fn a_count_run_out_draws_unless_the_side_to_move_is_mated() {
    let catalog = Catalog::builtin();
    let makruk = catalog.get("makruk").unwrap().clone();
    // Rook and king against a lone king: the pieces' honour gives 16 moves
    // (32 plies), all counted here; one more ply runs past the limit.
    let mut game = Position::from_fen(makruk.clone(), "8/8/8/4k3/8/8/8/R3K3 w - 32 32 60").unwrap();
    assert_eq!(game.outcome(), None);
    let m = game.parse_move("a1a2").unwrap();
    game.play(m);
    assert_eq!(game.outcome(), Some(Outcome { winner: None, reason: Reason::Counting }));
    // A mate on the last move still wins.
    let mut mate = Position::from_fen(makruk.clone(), "4k3/R7/4K3/8/8/8/8/8 w - 32 32 60").unwrap();
    let m = mate.parse_move("a7a8").unwrap();
    mate.play(m);
    assert_eq!(mate.outcome(), Some(Outcome { winner: Some(0), reason: Reason::Checkmate }));
    // Taking the last piece but the king starts the pieces' honour count: a
    // rook left gives 16 moves, counted from the pieces on the board.
    let mut take = Position::from_fen(makruk, "8/8/8/4k3/8/8/m7/R3K3 w - - 0 60").unwrap();
    let m = take.parse_move("a1a2").unwrap();
    take.play(m);
    assert_eq!(take.count_state().limit, 32);
    assert_eq!(take.count_state().plies, 6);
}

#[test]
fn asean_counts_from_nothing_once_a_king_stands_alone_and_no_pawn_is_left() {
    let catalog = Catalog::builtin();
    let asean = catalog.get("asean").unwrap().clone();
    // The rook takes Black's last man: 16 moves to mate, counted from 0.
    let mut game = Position::from_fen(asean.clone(), "8/8/8/4k3/8/8/q7/R3K3 w - - 0 60").unwrap();
    let m = game.parse_move("a1a2").unwrap();
    game.play(m);
    assert_eq!((game.count_state().limit, game.count_state().plies), (32, 0));
    // A khon (b) gives 44 moves, a knight 64.
    for (fen, limit) in [("8/8/8/4k3/8/8/q7/B3K3 w - - 0 60", 88), ("8/8/8/4k3/8/1q6/8/N3K3 w - - 0 60", 128)] {
        let mut game = Position::from_fen(asean.clone(), fen).unwrap();
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        let capture = moves.into_iter().find(|&m| game.is_capture(m)).unwrap();
        game.play(capture);
        assert_eq!(game.count_state().limit, limit, "{fen}");
    }
    // With a pawn on the board, nobody counts.
    let mut pawn = Position::from_fen(asean, "8/8/8/4k3/8/P7/q7/R3K3 w - - 0 60").unwrap();
    let m = pawn.parse_move("a1a2").unwrap();
    pawn.play(m);
    assert_eq!(pawn.count_state().limit, 0);
}
