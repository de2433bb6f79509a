//! Perft of every built-in variant against the counts Fairy-Stockfish
//! publishes (`tests/perft.sh`) or, where it has none, those Fairy-Stockfish
//! 11.1 and Sjaak II agreed on (the research note `shared/notes/variants.md`, §3).

use plugboard_variants::{Catalog, Position};

fn perft(variant: &str, fen: Option<&str>, counts: &[u64]) {
    let catalog = Catalog::builtin();
    let rules = catalog.get(variant).unwrap_or_else(|| panic!("no variant {variant}")).clone();
    let mut position = match fen {
        Some(fen) => Position::from_fen(rules, fen).unwrap_or_else(|error| panic!("{variant}: {fen}: {error}")),
        None => Position::start(rules).unwrap(),
    };
    for (depth, &expected) in counts.iter().enumerate() {
        let depth = depth as u32 + 1;
        assert_eq!(position.perft(depth), expected, "{variant} perft {depth} of {}", position.fen());
    }
}

#[test]
fn capablanca() {
    perft("capablanca", None, &[28, 784, 25228]);
}

#[test]
fn gothic() {
    perft("gothic", None, &[28, 784, 25283]);
}

#[test]
fn janus() {
    perft("janus", None, &[28, 782, 24747]);
}

#[test]
fn caparandom_from_the_capablanca_array() {
    perft(
        "caparandom",
        Some("rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"),
        &[28, 784, 25228],
    );
}

#[test]
fn courier_from_xboards_array() {
    perft("courier", None, &[20, 400, 8500]);
}

#[test]
fn courier_from_the_historical_array() {
    perft(
        "courier",
        Some("rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1"),
        &[26, 678, 18406],
    );
}

#[test]
fn knightmate() {
    perft("knightmate", None, &[18, 324, 6765]);
}

#[test]
fn shatranj() {
    perft("shatranj", None, &[16, 256, 4176]);
}

#[test]
fn losers() {
    perft("losers", None, &[20, 400, 8067]);
}

#[test]
fn nocastle_and_wildcastle_from_the_chess_array() {
    perft("nocastle", None, &[20, 400, 8902]);
    perft("wildcastle", None, &[20, 400, 8902]);
}

#[test]
fn berolina() {
    perft("berolina", None, &[30, 900, 28328]);
    perft("berolina", Some("k7/6P1/8/8/8/2K2p2/4p3/8 w - - 0 1"), &[16, 152, 1983]);
    // Fairy-Stockfish's field names both the square passed and the pawn, in either order.
    perft("berolina", Some("rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PP1PPPPP/RNBQKBNR w KQkq d6c5 0 1"), &[32, 1047]);
    perft("berolina", Some("rnbqkbnr/pppp1ppp/8/2p5/5P2/8/PPP1PPPP/RNBQKBNR w KQkq c5d6 2 2"), &[37, 1256, 46643]);
}

#[test]
fn makruk_and_asean() {
    let catalog = Catalog::builtin();
    for name in ["makruk", "asean"] {
        let mut position = Position::start(catalog.get(name).unwrap().clone()).unwrap();
        assert_eq!(position.perft(4), 273026, "{name}");
    }
}

#[test]
fn grand() {
    perft("grand", None, &[65, 4225, 259514]);
}

/// One count deeper, where the reference gives it: the fourth ply is where
/// castling through check, promotions and en passant start to show.
#[test]
fn fourth_ply() {
    let catalog = Catalog::builtin();
    let references = [
        ("capablanca", 805_128),
        ("gothic", 808_984),
        ("janus", 772_074),
        ("courier", 180_571),
        ("knightmate", 139_774),
        ("shatranj", 68_122),
        ("losers", 152_955),
        ("berolina", 882_717),
        ("nocastle", 197_281),
        // Sjaak II's counts: the FIDE array with the exo-pieces held, and great shatranj.
        ("super", 197_281),
        ("great", 935_072),
    ];
    for (name, expected) in references {
        let mut position = Position::start(catalog.get(name).unwrap().clone()).unwrap();
        assert_eq!(position.perft(4), expected, "{name}");
    }
}

/// The count `depth` plies deep alone, where the reference gives no shallower one.
fn perft_at(variant: &str, fen: &str, depth: u32, expected: u64) {
    let rules = Catalog::builtin().get(variant).unwrap_or_else(|| panic!("no variant {variant}")).clone();
    let mut position = Position::from_fen(rules, fen).unwrap_or_else(|error| panic!("{variant}: {fen}: {error}"));
    assert_eq!(position.perft(depth), expected, "{variant} perft {depth} of {fen}");
}

/// Fairy-Stockfish's published start counts, and Sjaak II's three test
/// positions (drops from full hands, promoted pieces on the board, a king in
/// check with pawns in hand), which Fairy-Stockfish 11.1 reproduces.
#[test]
fn shogi() {
    perft("shogi", None, &[30, 900, 25470, 719_731]);
    perft_at("shogi", "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL [-] w 0 1", 4, 2_000_286);
    perft_at(
        "shogi",
        "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L [Sbgnppp] b 0 62",
        3,
        2_552_846,
    );
    perft_at("shogi", "l6+Rl/3s1s3/p4p1pp/1G1G2p2/1p3kBN1/4P1P2/PP+p2R1PP/4KS3/1+b6L[PPPNNSppnlgg] b 1 47", 1, 5);
}

#[test]
fn minishogi() {
    perft_at("minishogi", "rbsgk/4p/5/P4/KGSBR[-] w 0 1", 5, 533_203);
}

#[test]
fn torishogi() {
    perft_at("torishogi", "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[-] w 0 1", 4, 103_857);
}

/// Sho shogi (xboard's 9x9+0_shogi): Fairy-Stockfish's `tests/perft.sh`.
#[test]
fn shoshogi() {
    perft("shoshogi", None, &[26, 676, 17368, 445_372]);
}

/// Mighty Lion chess: Sjaak II's counts to depth 3. At depth 4 it counts
/// 326467, 16 more: in each of the eight positions after a bishop's check on
/// b5 (1.c3 or 1.e3, then d6 or d5), its perft counts seven replies while its
/// own `force` mode accepts exactly the five legal ones (c6, Lc6, Bd7, Qd7,
/// Ld7), the lion's two blocks counted twice by its check evasions.
#[test]
fn lion() {
    perft("lion", None, &[22, 484, 12586, 326_451]);
}

/// Elven chess: Sjaak II's counts to depth 4 with its elven made over to
/// xboard's rules by scripts/sjaakii-elven.sh (no castling for black, crowning
/// added); a pawn's lion, which Sjaak lacks, comes later. At depth 5 Plugboard
/// counts 734386657; Sjaak's lions follow rules of their own there.
#[test]
fn elven() {
    perft("elven", None, &[60, 3480, 208_204, 12_139_401]);
}

/// Chu shogi from xboard's array. No second reference: HaChu has no perft,
/// and neither Fairy-Stockfish 11.1 nor Sjaak II plays chu. The 36 first moves
/// were counted by hand: ten pawns, two go-betweens, the lion's five leaps
/// (e5 to h5 and d2), and one or two steps each into the holes of the first
/// two ranks (kirin, tigers, silvers, coppers, golds, leopards, horses,
/// dragons, vertical movers); Black's are the same, turned.
#[test]
fn chu() {
    perft("chu", None, &[36, 1296, 48_315, 1_801_639]);
}
