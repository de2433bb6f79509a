//! Makes repetition test games: random positions, each with one reversible
//! move and its return for each side, chosen so that one side checks or
//! chases with both of its moves (or, with `checks`, gives check with both).
//! `cargo run --release -p plugboard-xiangqi --example cycles -- SEED COUNT [checks]`
//! prints `FEN; RED_MOVES; BLACK_MOVES` lines for `tests/xboard/adjudicate.sh`,
//! which has xboard judge them; `tests/data/xboard_repetitions.txt` was made so.

use plugboard_xiangqi::chase::chases;
use plugboard_xiangqi::{Color, Lettering, Move, MoveList, Position};

struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % n as u64).expect("below n")
    }
}

/// The legal moves of `position` that could be taken back.
fn reversible(position: &Position) -> Vec<Move> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    moves.iter().copied().filter(|&m| !position.is_irreversible(m)).collect()
}

/// `m` then its return, if both are legal and reversible from `position`.
fn back(position: &Position, m: Move) -> Option<Move> {
    let back = Move::new(m.to, m.from);
    (position.is_legal(back) && !position.is_irreversible(back)).then_some(back)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seed: u64 = args.first().and_then(|s| s.parse().ok()).expect("SEED");
    let count: usize = args.get(1).and_then(|s| s.parse().ok()).expect("COUNT");
    let only_checks = args.get(2).is_some_and(|s| s == "checks");
    let mut random = Random(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut found = 0;
    while found < count {
        let mut start = Position::start();
        for _ in 0..10 + random.below(50) {
            let mut moves = MoveList::new();
            start.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let _ = start.play(moves[random.below(moves.len())]);
        }
        let firsts = reversible(&start);
        if firsts.is_empty() || start.outcome().is_some() {
            continue;
        }
        for _ in 0..400 {
            let m1 = firsts[random.below(firsts.len())];
            let a = start.after(m1);
            let seconds = reversible(&a);
            if seconds.is_empty() {
                continue;
            }
            let m2 = seconds[random.below(seconds.len())];
            let b = a.after(m2);
            let Some(r1) = back(&b, m1) else { continue };
            let c = b.after(r1);
            let Some(r2) = back(&c, m2) else { continue };
            let d = c.after(r2);
            let hot = |before: &Position, m: Move, after: &Position| {
                after.is_check() || (!only_checks && !chases(before, m).is_empty())
            };
            if !(hot(&start, m1, &a) && hot(&b, r1, &c) || hot(&a, m2, &b) && hot(&c, r2, &d)) {
                continue;
            }
            let ((red, red_back), (black, black_back)) =
                if start.turn() == Color::Red { ((m1, r1), (m2, r2)) } else { ((m2, r2), (m1, r1)) };
            println!("{}; {red},{red_back}; {black},{black_back}", start.fen(Lettering::Xboard));
            found += 1;
            break;
        }
    }
}
