//! What the fairy evaluation must tell apart, position against position.

use super::*;
use plugboard_variants::Position;

fn evaluate(variant: &str, fen: &str) -> i32 {
    let catalog = Catalog::builtin();
    let variant = catalog.get(variant).unwrap().clone();
    let mut eval = FairyEval::new(&variant);
    let position = Position::from_fen(variant, fen).unwrap();
    eval.evaluate(&position.to_board_position())
}

#[test]
fn material_and_progress_count_for_the_side_to_move() {
    let start = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
    let even = evaluate("capablanca", start);
    assert!(even.abs() < 30, "{even}");
    let queen_up = evaluate("capablanca", "rnab1kbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1");
    assert!(queen_up > 700, "{queen_up}");
    let for_black = evaluate("capablanca", "rnab1kbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR b KQkq - 0 1");
    assert!(for_black < -700, "{for_black}");
    // A pawn about to promote is worth more than one at home.
    let advanced = evaluate("shatranj", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let home = evaluate("shatranj", "4k3/8/8/8/8/8/1P6/4K3 w - - 0 1");
    assert!(advanced > home + 30, "{advanced} vs {home}");
}

#[test]
fn the_side_ahead_drives_the_lone_king_to_the_edge() {
    // White to move with a rook against a bare king: the king in the corner
    // with White's beside it scores more than the king in the middle.
    let cornered = evaluate("makruk", "7k/8/5K2/8/8/8/8/R7 w - - 0 1");
    let central = evaluate("makruk", "8/8/8/4k3/8/8/8/R6K w - - 0 1");
    assert!(cornered > central + 50, "{cornered} vs {central}");
    // The same for Black, seen from Black's side.
    let cornered = evaluate("makruk", "r7/8/8/8/8/5k2/8/7K b - - 0 1");
    let central = evaluate("makruk", "r6k/8/8/8/4K3/8/8/8 b - - 0 1");
    assert!(cornered > central + 50, "{cornered} vs {central}");
}

#[test]
fn short_range_men_come_up_to_the_lone_king() {
    // Courier: a ferz, a wazir and a man mate a lone king only from beside
    // it; the same men far off score less, kings where they were.
    let near = evaluate("courier", "11k/8FW2/9M2/12/12/12/12/K11 w - - 0 1");
    let far = evaluate("courier", "11k/12/12/12/12/12/FWM9/K11 w - - 0 1");
    assert!(near > far + 60, "{near} vs {far}");
}

#[test]
fn men_of_one_colour_alone_win_nothing() {
    // Courier: four ferzes and an alfil, all on squares of one colour, never
    // check the king on l1, of the other; swap one ferz for a wazir, which
    // changes colour with each step, and the lead is real.
    let one_colour = evaluate("courier", "12/12/7F4/6E3F1/9F2/9K2/9F2/11k w - - 0 1");
    let both = evaluate("courier", "12/12/7F4/6E3F1/9F2/9K2/9W2/11k w - - 0 1");
    assert!(one_colour < 100, "{one_colour}");
    assert!(both > 500, "{both}");
    // Bishops on both colours (chess-like capablanca) can mate: no change.
    let bishops = evaluate("capablanca", "k9/10/10/10/10/10/10/3BB4K w - - 0 1");
    assert!(bishops > 300, "{bishops}");
}

#[test]
fn where_a_bare_king_loses_the_last_men_are_worth_trading_off() {
    // Shatranj: rook and ferz against a ferz is worth more than the two
    // pieces' difference, for the bare king that follows the trade.
    let one_left = evaluate("shatranj", "3k4/8/8/3q4/8/3Q4/8/R2K4 w - - 0 1");
    let none_left = evaluate("shatranj", "3k4/8/8/8/8/8/8/R2K4 w - - 0 1");
    assert!(none_left > one_left + 100, "{none_left} vs {one_left}");
    // Where the bare king does not lose (makruk), the trade is even.
    let one_left = evaluate("makruk", "3k4/8/8/3m4/8/3M4/8/R2K4 w - - 0 1");
    let none_left = evaluate("makruk", "3k4/8/8/8/8/8/8/R2K4 w - - 0 1");
    assert!((none_left - one_left).abs() < 60, "{none_left} vs {one_left}");
}

#[test]
fn the_side_ahead_gains_by_trading_pieces_off() {
    // A rook up in courier, with and without a knight each besides.
    let knights_off = evaluate("courier", "4k7/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/R3K7 w - - 0 1");
    let knights_on = evaluate("courier", "4k3n3/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/R3K3N3 w - - 0 1");
    assert!(knights_off > knights_on + 10, "{knights_off} vs {knights_on}");
}

#[test]
fn a_piece_that_reaches_more_squares_is_worth_more() {
    // The same rook in a corner, on an open file or shut in behind its own pawn.
    let open = evaluate("shatranj", "4k3/pppppppp/8/8/8/8/1PPPPPPP/R3K3 w - - 0 1");
    let shut = evaluate("shatranj", "4k3/pppppppp/8/8/8/8/1PPPPPPP/4K2R w - - 0 1");
    assert!(open > shut + 10, "{open} vs {shut}");
}

#[test]
fn a_promotion_pool_is_no_material() {
    // Great shatranj: White's king alone against five commoners Black's
    // pawns became, which took five of Black's nine from the pool; White's
    // nine are still there, and no use to a side without pawns.
    let bare = evaluate("great", "4k5/10/3sssss2/10/10/10/10/4K5[SSSSSSSSSssss] w - - 0 1");
    assert!(bare < -1000, "{bare}");
}

#[test]
fn in_losers_every_man_is_one_more_to_give_away() {
    let fewer = evaluate("losers", "4k3/pppppppp/8/8/8/8/4P3/4K3 w - - 0 1");
    let more = evaluate("losers", "4k3/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    assert!(fewer > more + 1000, "{fewer} vs {more}");
    assert!(fewer > 300, "White has given almost everything away: {fewer}");
}

#[test]
fn a_definition_the_plugin_never_saw_is_scored() {
    let text =
        "[mine:chess]\nqueen = -\namazon = a\nstartFen = rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1\n";
    let mut catalog = Catalog::builtin();
    catalog.add_file(text, "mine.ini").unwrap();
    let definition = &catalog.get("mine").unwrap().definition;
    let mut evaluator = Fairy::new_defined_evaluator(definition).unwrap();
    let variant = Catalog::read_definition(definition).unwrap();
    let position = Position::start(variant).unwrap();
    assert!(evaluator.evaluate(&position.to_board_position()).abs() < 30);
    assert!(Fairy::new_defined_evaluator("[broken").is_err());
}

#[test]
fn men_that_attack_the_squares_by_the_king_score_more() {
    // Makruk: a rook and a knight bearing on the squares by Black's king on h8,
    // against the same two on the other wing, the whole board mirrored file
    // for file but for the king: each man reaches as many squares either way.
    let near = evaluate("makruk", "7k/8/5N2/8/p6p/K7/8/6R1 w - - 0 1");
    let far = evaluate("makruk", "7k/8/2N5/8/p6p/K7/8/1R6 w - - 0 1");
    assert!(near > far + 15, "{near} vs {far}");
}

#[test]
fn the_lone_king_is_driven_to_a_corner_not_just_an_edge() {
    // Makruk: a rook and a met against a bare king in a corner or in the middle
    // of the edge, White's king and met as near it either way.
    let corner = evaluate("makruk", "k7/8/1KM5/8/8/8/8/7R w - - 0 1");
    let edge = evaluate("makruk", "3k4/8/1KM5/8/8/8/8/7R w - - 0 1");
    assert!(corner > edge + 30, "{corner} vs {edge}");
}

#[test]
fn a_passed_pawn_counts_by_what_it_promotes_to() {
    // ASEAN chess: White's pawn on d5 runs to a rook once Black's pawn no
    // longer stands ahead of it on the next file.
    let blocked = evaluate("asean", "4k3/4p3/8/3P4/8/8/8/4K3 w - - 0 1");
    let passed = evaluate("asean", "4k3/5p2/8/3P4/8/8/8/4K3 w - - 0 1");
    assert!(passed > blocked + 15, "{passed} vs {blocked}");
    // In makruk it runs to a met, worth far less than a rook.
    let to_met = evaluate("makruk", "4k3/5p2/8/3P4/8/8/8/4K3 w - - 0 1")
        - evaluate("makruk", "4k3/4p3/8/3P4/8/8/8/4K3 w - - 0 1");
    assert!(to_met < passed - blocked, "{to_met} vs {}", passed - blocked);
}

#[test]
fn without_a_pawn_a_small_lead_counts_for_little() {
    // ASEAN chess: rook and khon against a rook is a draw without pawns, a
    // win with one: the side ahead keeps its last pawn rather than trade it.
    let pawnless = evaluate("asean", "3k4/8/8/3r4/8/8/8/R2BK3 w - - 0 1");
    let with_pawn = evaluate("asean", "3k4/8/8/3r4/8/P7/8/R2BK3 w - - 0 1");
    assert!(pawnless < 70, "{pawnless}");
    assert!(with_pawn > pawnless + 150, "{with_pawn} vs {pawnless}");
    // A rook against a bare king mates, pawn or none: its lead counts whole.
    let rook = evaluate("asean", "3k4/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert!(rook > 400, "{rook}");
    // The same seen from Black's side.
    let pawnless = evaluate("asean", "r2bk3/8/8/8/3R4/8/8/3K4 b - - 0 1");
    assert!(pawnless < 70, "{pawnless}");
}

#[test]
fn the_side_ahead_gains_nothing_by_trading_pawns() {
    // Makruk: two pairs of pawns off, a rook up and with material even; what
    // the trade changes is the same (the pawns' own squares), not more for the
    // side ahead, whose pawns are what promotes.
    let gain = |back: &str| {
        evaluate("makruk", &format!("4k3/8/pp6/8/8/PP6/8/{back} w - - 0 1"))
            - evaluate("makruk", &format!("4k3/8/pppp4/8/8/PPPP4/8/{back} w - - 0 1"))
    };
    let (ahead, even) = (gain("R3K3"), gain("4K3"));
    assert!(ahead <= even + 2, "a rook up {ahead}, even {even}");
    // Pieces off still count for the side ahead.
    let (pieces_on, pieces_off) = (
        evaluate("makruk", "1n2k3/8/pppp4/8/8/PPPP4/8/RN2K3 w - - 0 1"),
        evaluate("makruk", "4k3/8/pppp4/8/8/PPPP4/8/R3K3 w - - 0 1"),
    );
    assert!(pieces_off > pieces_on, "{pieces_off} vs {pieces_on}");
}

#[test]
fn in_shogi_a_piece_in_hand_counts_whole_and_no_lead_is_cut_for_want_of_pawns() {
    // Kings and golds alone, White with a rook in hand: a rook's lead in full,
    // though no pawn is left (the rook comes back by a drop, the ending never bares).
    let held = evaluate("shogi", "4k4/4g4/9/9/9/9/9/4G4/4K4[R] w 0 1");
    let none = evaluate("shogi", "4k4/4g4/9/9/9/9/9/4G4/4K4[-] w 0 1");
    assert!(held > none + 400, "{held} vs {none}");
    // A rook in Black's hand is the same lead for Black.
    let black_held = evaluate("shogi", "4k4/4g4/9/9/9/9/9/4G4/4K4[r] b 0 1");
    assert!((black_held - held).abs() < 30, "{black_held} vs {held}");
}

#[test]
fn in_shogi_golds_by_the_king_shelter_it_and_pieces_in_hand_threaten_it() {
    // White's two golds beside its king on e1, against the same golds three
    // files away; Black's king alone on e9 either way.
    let castled = evaluate("shogi", "4k4/9/9/9/9/9/9/9/3GKG3[-] w 0 1");
    let open = evaluate("shogi", "4k4/9/9/9/9/9/9/9/G3K3G[-] w 0 1");
    assert!(castled > open + 30, "{castled} vs {open}");
    // A rook in Black's hand weighs more against a king with no guard than
    // the rook's value alone: it could drop by the king.
    let rook_value =
        evaluate("shogi", "4k4/9/9/9/9/9/9/9/4K4[-] w 0 1") - evaluate("shogi", "4k4/9/9/9/9/9/9/9/4K4[r] w 0 1");
    let rook_and_bishop_value =
        evaluate("shogi", "4k4/9/9/9/9/9/9/9/4K4[-] w 0 1") - evaluate("shogi", "4k4/9/9/9/9/9/9/9/4K4[rb] w 0 1");
    let bishop_alone =
        evaluate("shogi", "4k4/9/9/9/9/9/9/9/4K4[-] w 0 1") - evaluate("shogi", "4k4/9/9/9/9/9/9/9/4K4[b] w 0 1");
    assert!(
        rook_and_bishop_value > rook_value + bishop_alone,
        "{rook_and_bishop_value} vs {rook_value} + {bishop_alone}"
    );
}

#[test]
fn in_chu_the_king_stays_home_and_a_crown_prince_counts_as_a_man() {
    // Chu's king is lost only with the crown prince, so no piece is royal; it
    // is still kept home while the board is full, not centred like a commoner.
    let start = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w - - 0 1";
    let out = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/5K6/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGE1GSCFL w - - 0 1";
    let home = evaluate("chu", start);
    let centred = evaluate("chu", out);
    assert!(home > centred + 30, "{home} vs {centred}");
    // A drunk elephant that becomes a crown prince gains, as a man does by promoting.
    let elephant = evaluate("chu", "6k5/12/12/12/12/12/12/12/12/12/12/5KE5 w - - 0 1");
    let prince = evaluate("chu", "6k5/12/12/12/12/12/12/12/12/12/12/5K+E5 w - - 0 1");
    assert!(prince > elephant + 100, "{prince} vs {elephant}");
}
