//! Where each short-stepping piece may go from each point, worked out at
//! compile time so that move generation only reads tables.
//!
//! Every target in these tables is on the board and respects the piece's
//! zone (palace, own half), so generation never tests those rules again; what
//! depends on the position (a blocked leg or eye, the target's occupant) is
//! left to the caller.

use crate::Color;

/// Up to eight targets from one point, each with the point that must be
/// empty for the step (a horse's leg, an elephant's eye; unused otherwise).
#[derive(Clone, Copy)]
pub(crate) struct Steps {
    pub len: u8,
    pub to: [u8; 8],
    pub via: [u8; 8],
}

impl Steps {
    const NONE: Steps = Steps { len: 0, to: [0; 8], via: [0; 8] };

    const fn push(&mut self, to: u8, via: u8) {
        self.to[self.len as usize] = to;
        self.via[self.len as usize] = via;
        self.len += 1;
    }
}

const fn point(file: i32, rank: i32) -> Option<u8> {
    if file >= 0 && file < 9 && rank >= 0 && rank < 10 { Some((rank * 16 + file) as u8) } else { None }
}

const fn in_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && (rank <= 2 || rank >= 7) && rank >= 0 && rank <= 9
}

/// Builds a table by calling `f(file, rank, &mut steps)` for every point.
macro_rules! table {
    (|$file:ident, $rank:ident, $steps:ident| $body:block) => {{
        let mut table = [Steps::NONE; 256];
        let mut index = 0;
        while index < 256 {
            let $file = (index & 15) as i32;
            let $rank = (index >> 4) as i32;
            if $file < 9 && $rank < 10 {
                let $steps = &mut table[index];
                $body
            }
            index += 1;
        }
        table
    }};
}

const KNIGHT_JUMPS: [(i32, i32); 8] = [(1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)];
const DIAGONALS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const ORTHOGONALS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// Horse: one step straight, then one diagonally outward; `via` is the leg.
pub(crate) static HORSE: [Steps; 256] = table!(|file, rank, steps| {
    let mut i = 0;
    while i < 8 {
        let (df, dr) = KNIGHT_JUMPS[i];
        if let Some(to) = point(file + df, rank + dr) {
            let leg = if dr == 2 || dr == -2 { point(file, rank + dr / 2) } else { point(file + df / 2, rank) };
            if let Some(leg) = leg {
                steps.push(to, leg);
            }
        }
        i += 1;
    }
});

/// Elephant: two steps diagonally, never across the river; `via` is the eye.
pub(crate) static ELEPHANT: [Steps; 256] = table!(|file, rank, steps| {
    let mut i = 0;
    while i < 4 {
        let (df, dr) = DIAGONALS[i];
        let same_half = (rank <= 4) == (rank + 2 * dr <= 4);
        if let (Some(to), Some(eye)) = (point(file + 2 * df, rank + 2 * dr), point(file + df, rank + dr))
            && same_half
        {
            steps.push(to, eye);
        }
        i += 1;
    }
});

/// Advisor: one step diagonally inside the palace.
pub(crate) static ADVISOR: [Steps; 256] = palace_steps(&DIAGONALS);

/// General: one step straight inside the palace.
pub(crate) static GENERAL: [Steps; 256] = palace_steps(&ORTHOGONALS);

const fn palace_steps(directions: &[(i32, i32); 4]) -> [Steps; 256] {
    table!(|file, rank, steps| {
        if in_palace(file, rank) {
            let mut i = 0;
            while i < 4 {
                let (df, dr) = directions[i];
                // One step cannot reach the other palace, so staying in "a"
                // palace is staying in the mover's own.
                let (f, r) = (file + df, rank + dr);
                if in_palace(f, r)
                    && let Some(to) = point(f, r)
                {
                    steps.push(to, 0);
                }
                i += 1;
            }
        }
    })
}

/// Soldier, per side: one step forward, and one sideways once across the river.
pub(crate) static SOLDIER: [[Steps; 256]; 2] = [soldier_steps(Color::Red), soldier_steps(Color::Black)];

const fn soldier_steps(color: Color) -> [Steps; 256] {
    let forward = match color {
        Color::Red => 1,
        Color::Black => -1,
    };
    table!(|file, rank, steps| {
        if let Some(to) = point(file, rank + forward) {
            steps.push(to, 0);
        }
        let crossed = match color {
            Color::Red => rank >= 5,
            Color::Black => rank <= 4,
        };
        if crossed {
            if let Some(to) = point(file - 1, rank) {
                steps.push(to, 0);
            }
            if let Some(to) = point(file + 1, rank) {
                steps.push(to, 0);
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    fn targets(steps: &Steps) -> Vec<String> {
        let mut names: Vec<String> = steps.to[..steps.len as usize].iter().map(|&s| Square(s).to_string()).collect();
        names.sort();
        names
    }

    fn at(name: &str) -> usize {
        usize::from(name.parse::<Square>().unwrap().0)
    }

    #[test]
    fn zones_are_respected() {
        assert_eq!(targets(&HORSE[at("a0")]), ["b2", "c1"]);
        assert_eq!(targets(&ELEPHANT[at("e2")]), ["c0", "c4", "g0", "g4"]);
        assert_eq!(targets(&ELEPHANT[at("c4")]), ["a2", "e2"]);
        assert_eq!(targets(&ELEPHANT[at("c5")]), ["a7", "e7"]);
        assert_eq!(targets(&ADVISOR[at("e1")]), ["d0", "d2", "f0", "f2"]);
        assert_eq!(targets(&ADVISOR[at("d9")]), ["e8"]);
        assert_eq!(targets(&GENERAL[at("d2")]), ["d1", "e2"]);
        assert_eq!(targets(&GENERAL[at("e7")]), ["d7", "e8", "f7"]);
        assert_eq!(targets(&SOLDIER[0][at("a3")]), ["a4"]);
        assert_eq!(targets(&SOLDIER[0][at("a5")]), ["a6", "b5"]);
        assert_eq!(targets(&SOLDIER[0][at("e9")]), ["d9", "f9"]);
        assert_eq!(targets(&SOLDIER[1][at("e4")]), ["d4", "e3", "f4"]);
        assert_eq!(targets(&SOLDIER[1][at("e5")]), ["e4"]);
    }

    #[test]
    fn legs_and_eyes() {
        let steps = &HORSE[at("b0")];
        for i in 0..steps.len as usize {
            let (to, leg) = (Square(steps.to[i]).to_string(), Square(steps.via[i]).to_string());
            let expected = match to.as_str() {
                "a2" | "c2" => "b1",
                "d1" => "c0",
                other => panic!("unexpected target {other}"),
            };
            assert_eq!(leg, expected);
        }
        let steps = &ELEPHANT[at("c0")];
        for i in 0..steps.len as usize {
            let to = Square(steps.to[i]);
            let eye = Square(steps.via[i]);
            assert_eq!((eye.file() * 2, eye.rank() * 2), (to.file() + 2, to.rank()));
        }
    }
}
