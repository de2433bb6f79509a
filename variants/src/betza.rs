//! Betza's notation for how pieces move, read as Fairy-Stockfish reads it (see
//! the comments of its `variants.ini`), plus two things of XBetza that xboard
//! and Fairy-Max use: `o` (the board wraps from the a-file to the last) for
//! cylinder chess, and legs of single steps joined by `a`: through empty
//! squares (`aflafrK`) they make leaps that may take any of several paths, as
//! the falcon's; a first leg that takes (`caK`, `cabK`) makes a move of two
//! legs ([`LegMove`]), as the lion's.
//!
//! A piece's moves become [`Ray`]s, one per direction: `N` is eight leaps,
//! `fR` one slide. Directions are the first player's; the second player's are
//! turned half round.

use std::fmt;

/// A ray may make moves to empty squares.
pub const MOVES: u8 = 1;
/// A ray may capture.
pub const CAPTURES: u8 = 2;

/// How a ray passes over other pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hop {
    /// It stops at the first piece: a leaper or a slider.
    No,
    /// It must jump exactly one piece on its line, and lands anywhere beyond it
    /// that a slider could reach: xiangqi's cannon (`p`).
    Cannon,
    /// It must jump the first piece on its line and lands just beyond it (`g`).
    Grasshopper,
}

/// One direction of a piece's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ray {
    /// Files to the right per step (the first player's right).
    pub df: i8,
    /// Ranks forward per step (towards the second player).
    pub dr: i8,
    /// Steps at most: 1 for a leaper, 0 for no limit.
    pub range: u8,
    /// [`MOVES`] and/or [`CAPTURES`].
    pub modes: u8,
    pub hop: Hop,
    /// Only from the piece's double-step region (`i`), as Fairy-Stockfish plays it.
    pub initial: bool,
    /// May take a piece that has just passed the target square (`e`).
    pub en_passant: bool,
    /// Leaves the board on one side and comes back on the other (`o`).
    pub wraps: bool,
    /// The ways a lame leap (`n`, or legs joined by `a`) may go: the squares
    /// each passes, `(df, dr)` from the start, which must all be empty on one
    /// of them at least.
    pub lame: [[(i8, i8); 2]; MAX_PATHS],
    /// Squares on each way (0: not lame).
    pub lame_len: u8,
    /// How many ways there are.
    pub lame_ways: u8,
}

/// `notation` in the order xboard's XBetza reader needs: in each leg, `i`
/// first, then the directions, then the modes in xboard's order (`m c d e t p
/// g o y n j`). Fairy-Stockfish reads its modifiers in any order; xboard reads
/// the directions first and stops at the first letter out of place, so it takes
/// Fairy-Stockfish's berolina pawn `mfFcfeWimfnA` for one that moves to every
/// diagonal and takes on every side, and refuses king moves next to it.
#[must_use]
pub fn xboard_order(notation: &str) -> String {
    const MODES: &str = "mcdetpgoynj";
    fn flush(leg: &mut String, out: &mut String) {
        out.extend(leg.chars().filter(|&c| c == 'i'));
        out.extend(leg.chars().filter(|&c| c != 'i' && !MODES.contains(c)));
        let mut modes: Vec<char> = leg.chars().filter(|&c| MODES.contains(c)).collect();
        modes.sort_by_key(|&c| MODES.find(c));
        out.extend(modes);
        leg.clear();
    }
    let (mut out, mut leg) = (String::new(), String::new());
    for c in notation.chars() {
        if c.is_ascii_lowercase() && c != 'a' {
            leg.push(c);
        } else {
            flush(&mut leg, &mut out);
            out.push(c);
        }
    }
    flush(&mut leg, &mut out);
    out
}

/// Adds `way`, the squares one more way to `ray`'s square passes (none: a
/// leap nothing blocks), to the ways `ray` already has. A leap nothing blocks
/// needs no ways; ways of different lengths are kept together by repeating
/// the last square of the shorter, which asks nothing more of it.
fn add_way(ray: &mut Ray, way: &[(i8, i8)]) -> Result<(), String> {
    if ray.lame_ways == 0 {
        return Ok(());
    }
    if way.is_empty() {
        (ray.lame_ways, ray.lame_len) = (0, 0);
        return Ok(());
    }
    let len = usize::from(ray.lame_len).max(way.len());
    let padded = |squares: &[(i8, i8)]| {
        let mut out = [(0i8, 0i8); 2];
        for (index, slot) in out.iter_mut().enumerate().take(len) {
            *slot = squares[index.min(squares.len() - 1)];
        }
        out
    };
    let mut ways: Vec<[(i8, i8); 2]> = ray.lame_ways().map(padded).collect();
    let new = padded(way);
    if !ways.contains(&new) {
        if ways.len() == MAX_PATHS {
            return Err(format!("more than {MAX_PATHS} ways to one square"));
        }
        ways.push(new);
    }
    for (slot, way) in ray.lame.iter_mut().zip(&ways) {
        *slot = *way;
    }
    ray.lame_ways = ways.len() as u8;
    ray.lame_len = len as u8;
    Ok(())
}

/// A move of two single steps whose first may take what it lands on and
/// goes on (XBetza's `caK`): the lion's hit-and-run, double capture and
/// *igui* (taking beside it and coming back), and locust captures; or out to
/// an empty square and back, the lion's pass (`mabK`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LegMove {
    /// Where the first leg ends, (df, dr) from the start.
    pub via: (i8, i8),
    /// What the first leg may find there: [`CAPTURES`], with [`MOVES`] where
    /// it may also pass an empty square.
    pub via_modes: u8,
    /// Where the second leg ends, (df, dr) from the start; (0, 0) is back home.
    pub to: (i8, i8),
    /// [`MOVES`] and/or [`CAPTURES`] of the second leg.
    pub modes: u8,
}

/// Everything a piece's notation makes: its one-leg [`Ray`]s and its [`LegMove`]s.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PieceMoves {
    pub rays: Vec<Ray>,
    pub legs: Vec<LegMove>,
}

/// The most ways a leap of legs may take to one square: the falcon has three.
pub const MAX_PATHS: usize = 3;

impl Ray {
    /// The squares the first way of a lame leap passes.
    #[must_use]
    pub fn lame_path(&self) -> &[(i8, i8)] {
        &self.lame[0][..usize::from(self.lame_len)]
    }

    /// Every way of a lame leap, each as the squares it passes.
    pub fn lame_ways(&self) -> impl Iterator<Item = &[(i8, i8)]> {
        self.lame[..usize::from(self.lame_ways)].iter().map(|way| &way[..usize::from(self.lame_len)])
    }

    #[must_use]
    pub const fn moves(&self) -> bool {
        self.modes & MOVES != 0
    }

    #[must_use]
    pub const fn captures(&self) -> bool {
        self.modes & CAPTURES != 0
    }
}

/// Text that is not Betza notation Plugboard can play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    pub notation: String,
    pub why: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not Betza notation Plugboard plays: {}", self.notation, self.why)
    }
}

impl std::error::Error for BetzaError {}

/// The leap of each atom as (forward, sideways), and whether it slides by nature.
fn atom(letter: char) -> Option<(&'static [(i8, i8)], bool)> {
    Some(match letter {
        'W' => (&[(1, 0)], false),
        'F' => (&[(1, 1)], false),
        'D' => (&[(2, 0)], false),
        'N' => (&[(2, 1)], false),
        'A' => (&[(2, 2)], false),
        'H' => (&[(3, 0)], false),
        'L' | 'C' => (&[(3, 1)], false),
        'J' | 'Z' => (&[(3, 2)], false),
        'G' => (&[(3, 3)], false),
        'K' => (&[(1, 0), (1, 1)], false),
        'R' => (&[(1, 0)], true),
        'B' => (&[(1, 1)], true),
        'Q' => (&[(1, 0), (1, 1)], true),
        _ => return None,
    })
}

const VERTICALS: &str = "fbvh";
const HORIZONTALS: &str = "rlsh";

/// The eight images of the leap (a forward, b sideways), each with the
/// direction words that select it: the table Fairy-Stockfish's reader uses, so
/// that `fsW`, `ffN` or `lfF` mean here what they mean there.
fn images(a: i8, b: i8) -> [((i8, i8), &'static [&'static str]); 8] {
    [
        ((b, a), &["ff", "vv", "rf", "rv", "fh", "rh", "hr"]),
        ((-b, -a), &["bb", "vv", "lb", "lv", "bh", "lh", "hr"]),
        ((a, -b), &["rr", "ss", "br", "bs", "bh", "rh", "hr"]),
        ((-a, b), &["ll", "ss", "fl", "fs", "fh", "lh", "hr"]),
        ((a, b), &["rr", "ss", "fr", "fs", "fh", "rh", "hl"]),
        ((-a, -b), &["ll", "ss", "bl", "bs", "bh", "lh", "hl"]),
        ((b, -a), &["bb", "vv", "rb", "rv", "bh", "rh", "hl"]),
        ((-b, a), &["ff", "vv", "lf", "lv", "fh", "lh", "hl"]),
    ]
}

/// The squares a lame leap of (df, dr) passes: straight along the longer
/// axis while it is longer, then diagonally (the xiangqi horse and elephant).
fn lame_path(df: i8, dr: i8) -> ([(i8, i8); 2], u8) {
    let (mut x, mut y) = (0i8, 0i8);
    let mut path = [(0, 0); 2];
    let mut len = 0u8;
    loop {
        let (rest_x, rest_y) = (df - x, dr - y);
        let step_x = rest_x.signum();
        let step_y = rest_y.signum();
        let (sx, sy) = if rest_x.abs() > rest_y.abs() {
            (step_x, 0)
        } else if rest_y.abs() > rest_x.abs() {
            (0, step_y)
        } else {
            (step_x, step_y)
        };
        x += sx;
        y += sy;
        if (x, y) == (df, dr) || len == 2 {
            return (path, len);
        }
        path[usize::from(len)] = (x, y);
        len += 1;
    }
}

/// The eight king steps clockwise from forward, as (files right, ranks forward).
const COMPASS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// The turns, in eighths clockwise, that a later leg's direction word asks
/// for, relative to the leg before: xboard reads every later leg in the
/// king's eight directions, whatever the atom (`f` straight on, `fr` half
/// right, `s` a right angle either way), a diagonal one making a diagonal step.
fn turns(word: &str) -> Option<&'static [i8]> {
    Some(match word {
        "ff" => &[0],
        "bb" => &[4],
        "ll" => &[-2],
        "rr" => &[2],
        "ss" => &[-2, 2],
        "vv" => &[0, 4],
        "fl" | "lf" => &[-1],
        "fr" | "rf" => &[1],
        "bl" | "lb" => &[-3],
        "br" | "rb" => &[3],
        "fs" | "sf" => &[-1, 1],
        "bs" | "sb" => &[-3, 3],
        _ => return None,
    })
}

/// The moves of single-step legs joined by `a`: where every leg but the last
/// goes to an empty square, one leap per square reached, with every way to it;
/// where the first of two takes, a [`LegMove`] per way.
fn leg_rays(atom: char, legs: &[(Vec<String>, u8)], wraps: bool, out: &mut PieceMoves) -> Result<(), String> {
    let steps: &[usize] = match atom {
        'K' => &[0, 1, 2, 3, 4, 5, 6, 7],
        'W' => &[0, 2, 4, 6],
        'F' => &[1, 3, 5, 7],
        _ => return Err(format!("legs joined by 'a' are read only for the steps K, W and F, not '{atom}'")),
    };
    if legs.len() > 3 {
        return Err("more than three legs".to_string());
    }
    let takes_on_its_way = legs[0].1 & CAPTURES != 0;
    if legs[..legs.len() - 1].iter().any(|(_, modes)| *modes & !(MOVES | CAPTURES) != 0)
        || legs[1..legs.len() - 1].iter().any(|(_, modes)| *modes & CAPTURES != 0)
        || (takes_on_its_way && legs.len() > 2)
    {
        return Err("only the first of two legs may take on its way ('c' before 'a')".to_string());
    }
    if takes_on_its_way && wraps {
        return Err("a move of legs that takes on its way does not wrap ('o')".to_string());
    }
    let first: Vec<usize> = steps
        .iter()
        .copied()
        .filter(|&step| {
            let words = &legs[0].0;
            let (df, dr) = COMPASS[step];
            let (a, b) = if df != 0 && dr != 0 { (1, 1) } else { (1, 0) };
            words.is_empty()
                || images(a, b).iter().any(|&(leap, tags)| {
                    leap == (df, dr) && tags.iter().any(|tag| words.iter().any(|word| word == tag))
                })
        })
        .collect();
    // A later leg with no direction goes any way but back (K), or straight
    // on and sideways (W, F), as xboard reads it.
    let any_way: &[i8] = if atom == 'K' { &[-3, -2, -1, 0, 1, 2, 3] } else { &[-2, 0, 2] };
    // Every way: the directions of its legs.
    let mut ways: Vec<Vec<usize>> = first.into_iter().map(|step| vec![step]).collect();
    for (words, _) in &legs[1..] {
        let mut chosen: Vec<i8> = Vec::new();
        for word in words {
            chosen.extend(turns(word).ok_or_else(|| format!("'{word}' is not a direction for a leg after 'a'"))?);
        }
        if chosen.is_empty() {
            chosen.extend(any_way);
        }
        let mut longer = Vec::new();
        for way in &ways {
            for &turn in &chosen {
                let step = (way[way.len() - 1] as i8 + turn).rem_euclid(8) as usize;
                longer.push(way.iter().copied().chain(std::iter::once(step)).collect());
            }
        }
        ways = longer;
    }
    let modes = match legs[legs.len() - 1].1 {
        0 => MOVES | CAPTURES,
        modes => modes,
    };
    if takes_on_its_way {
        for way in ways {
            let via = COMPASS[way[0]];
            let to = (via.0 + COMPASS[way[1]].0, via.1 + COMPASS[way[1]].1);
            let leg = LegMove { via, via_modes: legs[0].1, to, modes };
            if !out.legs.contains(&leg) {
                out.legs.push(leg);
            }
        }
        return Ok(());
    }
    for way in ways {
        let mut squares = [(0i8, 0i8); 2];
        let (mut df, mut dr) = (0i8, 0i8);
        for (index, &step) in way.iter().enumerate() {
            df += COMPASS[step].0;
            dr += COMPASS[step].1;
            if index + 1 < way.len() {
                squares[index] = (df, dr);
            }
        }
        let lame_len = (way.len() - 1) as u8;
        // Two steps out and back through an empty square: the lion's pass (`mabK`).
        if (df, dr) == (0, 0) && way.len() == 2 {
            let leg = LegMove { via: squares[0], via_modes: MOVES, to: (0, 0), modes };
            if !out.legs.contains(&leg) {
                out.legs.push(leg);
            }
            continue;
        }
        // A way that comes back to its start or passes its end is no leap.
        if (df, dr) == (0, 0) || squares[..way.len() - 1].iter().any(|&square| square == (0, 0) || square == (df, dr)) {
            continue;
        }
        // Ways to one square from several groups of legs (the falcon's four) are one leap.
        let same_leap = |ray: &&mut Ray| {
            (ray.df, ray.dr, ray.range, ray.modes, ray.hop, ray.initial, ray.wraps)
                == (df, dr, 1, modes, Hop::No, false, wraps)
        };
        match out.rays.iter_mut().find(same_leap) {
            Some(ray) => add_way(ray, &squares[..usize::from(lame_len)])?,
            None => out.rays.push(Ray {
                df,
                dr,
                range: 1,
                modes,
                hop: Hop::No,
                initial: false,
                en_passant: false,
                wraps,
                lame: [squares, [(0, 0); 2], [(0, 0); 2]],
                lame_len,
                lame_ways: u8::from(lame_len > 0),
            }),
        }
    }
    Ok(())
}

/// The rays of `notation`, which makes no [`LegMove`].
///
/// # Errors
/// As [`parse_moves`], and when the notation makes moves of two legs.
pub fn parse(notation: &str) -> Result<Vec<Ray>, BetzaError> {
    let moves = parse_moves(notation)?;
    if !moves.legs.is_empty() {
        let why = "a move of legs that takes on its way where only rays are read".to_string();
        return Err(BetzaError { notation: notation.to_string(), why });
    }
    Ok(moves.rays)
}

/// The moves of `notation`.
///
/// # Errors
/// On a letter outside the subset (XBetza's crooked or circular moves, say), a
/// modifier with no atom after it, or a lame rider.
pub fn parse_moves(notation: &str) -> Result<PieceMoves, BetzaError> {
    let fail = |why: String| BetzaError { notation: notation.to_string(), why };
    let chars: Vec<char> = notation.chars().collect();
    let mut out = PieceMoves::default();
    let mut modes = 0u8;
    let mut hop = Hop::No;
    let (mut lame, mut initial, mut en_passant, mut wraps) = (false, false, false, false);
    let mut directions: Vec<String> = Vec::new();
    // The legs before the last of a move joined by `a`: (directions, modes).
    let mut legs: Vec<(Vec<String>, u8)> = Vec::new();
    let mut pending = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            'a' => {
                if hop != Hop::No || lame || initial || en_passant {
                    return Err(fail("a leg before 'a' takes only directions and 'm'".to_string()));
                }
                legs.push((std::mem::take(&mut directions), std::mem::take(&mut modes)));
            }
            'm' => modes |= MOVES,
            'c' => modes |= CAPTURES,
            'p' => hop = Hop::Cannon,
            'g' => hop = Hop::Grasshopper,
            'n' => lame = true,
            'i' => initial = true,
            'e' => en_passant = true,
            'o' => wraps = true,
            _ if VERTICALS.contains(c) || HORIZONTALS.contains(c) => {
                if let Some(&next) = chars.get(i + 1) {
                    let pairs = next == c
                        || (VERTICALS.contains(c) && HORIZONTALS.contains(next))
                        || (HORIZONTALS.contains(c) && VERTICALS.contains(next));
                    if pairs {
                        directions.push([c, next].iter().collect());
                        i += 2;
                        pending = true;
                        continue;
                    }
                }
                directions.push([c, c].iter().collect());
            }
            _ => {
                let Some((leaps, slides)) = atom(c) else {
                    return Err(fail(match c {
                        'x' | 'y' | 'j' | 'k' | 'u' | 't' | 'z' | 'q' | 'd' => {
                            format!(
                                "XBetza's '{c}' (crooked or circular moves, or legs of other kinds) is not supported"
                            )
                        }
                        _ => format!("'{c}' is neither an atom (W F D N A H L C J Z G K R B Q) nor a modifier"),
                    }));
                };
                if !legs.is_empty() {
                    legs.push((std::mem::take(&mut directions), modes));
                    let repeated = chars.get(i + 1).is_some_and(|&next| next == c || next.is_ascii_digit());
                    if hop != Hop::No || lame || initial || en_passant || repeated {
                        return Err(fail("a move of legs takes only directions, 'm' and 'c'".to_string()));
                    }
                    leg_rays(c, &std::mem::take(&mut legs), wraps, &mut out).map_err(fail)?;
                    (modes, wraps, pending) = (0, false, false);
                    i += 1;
                    continue;
                }
                let mut range: u8 = if slides { 0 } else { 1 };
                if let Some(&next) = chars.get(i + 1) {
                    if let Some(digit) = next.to_digit(10) {
                        range = digit as u8;
                        i += 1;
                    } else if next == c {
                        range = 0;
                        i += 1;
                    }
                }
                if lame && range != 1 {
                    return Err(fail(format!("a lame rider ('n' before '{c}') is not supported")));
                }
                let modes_here = if modes == 0 { MOVES | CAPTURES } else { modes };
                for &(a, b) in leaps {
                    let mut words: Vec<String> = Vec::new();
                    for word in &directions {
                        let mut letters = word.chars();
                        let (first, second) = (letters.next().unwrap_or('f'), letters.next().unwrap_or('f'));
                        // An orthogonal leap has no oblique halves: `fsW` is forward and sideways.
                        if leaps.len() == 1 && b == 0 && first != second {
                            words.push([first, first].iter().collect());
                            words.push([second, second].iter().collect());
                        } else {
                            words.push(word.clone());
                        }
                    }
                    for ((df, dr), tags) in images(a, b) {
                        let chosen = words.is_empty() || tags.iter().any(|tag| words.iter().any(|word| word == tag));
                        if !chosen {
                            continue;
                        }
                        let (lame_squares, lame_len) = if lame { lame_path(df, dr) } else { ([(0, 0); 2], 0) };
                        let same = out.rays.iter_mut().find(|ray| {
                            (ray.df, ray.dr, ray.range, ray.modes, ray.hop, ray.initial)
                                == (df, dr, range, modes_here, hop, initial)
                        });
                        if let Some(ray) = same {
                            // A leap to a square already reached: one more way to it
                            // (`n` after legs joined by `a`), or none needed.
                            if range == 1 && hop == Hop::No {
                                add_way(ray, &lame_squares[..usize::from(lame_len)]).map_err(fail)?;
                            }
                            continue;
                        }
                        out.rays.push(Ray {
                            df,
                            dr,
                            range,
                            modes: modes_here,
                            hop,
                            initial,
                            en_passant: en_passant && modes_here & CAPTURES != 0,
                            wraps,
                            lame: [lame_squares, [(0, 0); 2], [(0, 0); 2]],
                            lame_len,
                            lame_ways: u8::from(lame),
                        });
                    }
                }
                modes = 0;
                hop = Hop::No;
                (lame, initial, en_passant, wraps) = (false, false, false, false);
                directions.clear();
                pending = false;
                i += 1;
                continue;
            }
        }
        pending = true;
        i += 1;
    }
    if pending {
        return Err(fail("modifiers at the end with no atom after them".to_string()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(notation: &str) -> Vec<(i8, i8)> {
        let mut found: Vec<(i8, i8)> = parse(notation).unwrap().iter().map(|ray| (ray.df, ray.dr)).collect();
        found.sort_unstable();
        found
    }

    #[test]
    fn directions_select_what_fairy_stockfish_selects() {
        assert_eq!(targets("N").len(), 8);
        assert_eq!(targets("fN"), [(-1, 2), (1, 2)], "Fairy-Stockfish's shogi knight");
        assert_eq!(targets("fsN"), [(-2, 1), (2, 1)]);
        assert_eq!(targets("fsW"), [(-1, 0), (0, 1), (1, 0)], "the soldier");
        assert_eq!(targets("fF"), [(-1, 1), (1, 1)]);
        assert_eq!(targets("lfF"), [(-1, 1)]);
        assert_eq!(targets("vR"), [(0, -1), (0, 1)]);
        assert_eq!(targets("K").len(), 8);
    }

    #[test]
    fn modes_ranges_and_flags_are_kept() {
        let pawn = parse("fmWfceFifmnD").unwrap();
        assert_eq!(pawn.len(), 4);
        assert!(pawn[0].moves() && !pawn[0].captures());
        assert!(pawn[1].captures() && !pawn[1].moves() && pawn[1].en_passant);
        let double = pawn[3];
        assert!(double.initial && double.moves() && !double.captures());
        assert_eq!((double.df, double.dr, double.lame_path()), (0, 2, &[(0, 1)][..]));
        let cannon = parse("mRcpR").unwrap();
        assert_eq!(cannon.iter().filter(|ray| ray.hop == Hop::Cannon).count(), 4);
        assert!(cannon.iter().all(|ray| ray.range == 0));
        assert_eq!(parse("W4").unwrap()[0].range, 4);
        assert_eq!(parse("NN").unwrap()[0].range, 0, "the nightrider");
        let horse = parse("nN").unwrap();
        assert!(horse.iter().any(|ray| (ray.df, ray.dr) == (1, 2) && ray.lame_path() == [(0, 1)]));
        assert!(horse.iter().any(|ray| (ray.df, ray.dr) == (2, 1) && ray.lame_path() == [(1, 0)]));
        let zebra = parse("nZ").unwrap();
        assert!(zebra.iter().any(|ray| (ray.df, ray.dr) == (2, 3) && ray.lame_path() == [(0, 1), (1, 2)]));
        assert!(parse("oK").unwrap().iter().all(|ray| ray.wraps));
    }

    #[test]
    fn xboard_reads_directions_before_modes() {
        // Fairy-Max's own berolina pawn, which xboard reads as meant.
        assert_eq!(xboard_order("mfFcfeWimfnA"), "fmFfceWifmnA");
        assert_eq!(xboard_order("fmFfceWifmnA"), "fmFfceWifmnA");
        assert_eq!(xboard_order("mRcpR"), "mRcpR");
        assert_eq!(xboard_order("aflafrKafraflKafafsKafsafK"), "aflafrKafraflKafafsKafsafK");
        assert_eq!(xboard_order("nfcN"), "fcnN");
        assert_eq!(xboard_order("oRW4"), "oRW4");
        // Both read the same moves.
        assert_eq!(parse("mfFcfeWimfnA").unwrap(), parse(&xboard_order("mfFcfeWimfnA")).unwrap());
    }

    #[test]
    fn leaps_to_one_square_written_twice_keep_every_way() {
        // A leap nothing blocks wins over a lame one, in either order.
        for notation in ["NWnN", "nNWN"] {
            let rays = parse(notation).unwrap();
            assert_eq!(rays.len(), 12, "{notation}");
            assert!(rays.iter().all(|ray| ray.lame_ways == 0), "{notation}: {rays:?}");
        }
        // Three single steps (on, on, aside) and the horse's one step to the
        // same knight square are two ways to it; the shorter is padded with its
        // own square, so the square beside the start alone must be empty.
        let rays = parse("afasWnN").unwrap();
        let ray = rays.iter().find(|ray| (ray.df, ray.dr) == (1, 2)).unwrap();
        assert_eq!((ray.lame_ways, ray.lame_len), (2, 2), "{ray:?}");
        let ways: Vec<&[(i8, i8)]> = ray.lame_ways().collect();
        assert!(ways.contains(&&[(0, 1), (0, 2)][..]) && ways.contains(&&[(0, 1), (0, 1)][..]), "{ways:?}");
        assert_eq!(rays.iter().filter(|ray| (ray.df, ray.dr) == (1, 2)).count(), 1);
    }

    #[test]
    fn the_falcons_legs_make_sixteen_leaps_of_three_ways_each() {
        let falcon = parse("aflafrKafraflKafafsKafsafK").unwrap();
        let mut found: Vec<(i8, i8)> = falcon.iter().map(|ray| (ray.df, ray.dr)).collect();
        found.sort_unstable();
        let mut camel_and_zebra = targets("CZ");
        camel_and_zebra.sort_unstable();
        assert_eq!(found, camel_and_zebra);
        for ray in &falcon {
            assert_eq!((ray.lame_ways, ray.lame_len, ray.range), (3, 2, 1), "{ray:?}");
            let ways: Vec<&[(i8, i8)]> = ray.lame_ways().collect();
            assert!(
                ways.iter().all(|way| way.iter().all(|&(f, r)| f.abs() <= ray.df.abs() && r.abs() <= ray.dr.abs()))
            );
        }
        // To (1, 3): the diagonal step first, second or last.
        let ray = falcon.iter().find(|ray| (ray.df, ray.dr) == (1, 3)).unwrap();
        let mut ways: Vec<Vec<(i8, i8)>> = ray.lame_ways().map(<[_]>::to_vec).collect();
        ways.sort();
        assert_eq!(ways, [vec![(0, 1), (0, 2)], vec![(0, 1), (1, 2)], vec![(1, 1), (1, 2)]]);
        // Two legs: a knight that goes by a straight step and a diagonal one, in either order.
        let knight = parse("afsK").unwrap();
        assert_eq!(knight.len(), 8);
        assert!(knight.iter().all(|ray| ray.lame_ways == 2 && ray.lame_len == 1));
    }

    #[test]
    fn a_first_leg_that_takes_makes_moves_of_two_legs() {
        // The lion of xboard's chu: takes beside it and goes on one step (any
        // way but back), or comes back home (igui).
        let lion = parse_moves("KNADcaKcabK").unwrap();
        assert_eq!(lion.rays.len(), 24, "K, N, A and D");
        assert_eq!(lion.legs.len(), 64);
        assert!(lion.legs.iter().all(|leg| leg.via_modes == CAPTURES && leg.modes == MOVES | CAPTURES));
        let home: Vec<_> = lion.legs.iter().filter(|leg| leg.to == (0, 0)).map(|leg| leg.via).collect();
        assert_eq!(home.len(), 8, "igui beside it, every way");
        assert!(lion.legs.iter().all(|leg| leg.to != leg.via && leg.via.0.abs() <= 1 && leg.via.1.abs() <= 1));
        assert!(!lion.legs.iter().any(|leg| leg.via == (0, 1) && leg.to == (0, 0) && leg.modes == 0));
        let passes = parse_moves("mabK").unwrap();
        assert_eq!(passes.legs.len(), 8);
        assert!(passes.rays.is_empty());
        assert!(passes.legs.iter().all(|leg| leg.via_modes == MOVES && leg.to == (0, 0)));
        // A checker's capture: over a diagonal neighbour, on the same way.
        let checker = parse_moves("cafF").unwrap();
        assert_eq!(checker.legs.len(), 4);
        assert!(checker.legs.iter().all(|leg| leg.to == (2 * leg.via.0, 2 * leg.via.1)));
        assert!(parse("cafF").is_err(), "rays alone cannot hold it");
    }

    #[test]
    fn what_it_cannot_play_is_refused_with_the_reason() {
        let error = parse("mafsmafR").unwrap_err();
        assert!(error.why.contains("steps K, W and F"), "{error}");
        assert!(parse("cafW").unwrap_err().why.contains("takes on its way"));
        assert!(parse_moves("ocafF").unwrap_err().why.contains("wrap"));
        assert!(parse_moves("cafafK").unwrap_err().why.contains("first of two legs"));
        assert!(parse_moves("mafcafK").unwrap_err().why.contains("first of two legs"));
        assert!(parse("afafafafK").unwrap_err().why.contains("three legs"));
        assert!(parse("ahrK").unwrap_err().why.contains("not a direction"));
        assert!(parse("xW").unwrap_err().why.contains("crooked"));
        assert!(parse("X").unwrap_err().why.contains("neither an atom"));
        assert!(parse("fm").unwrap_err().why.contains("no atom"));
        assert!(parse("nR").unwrap_err().why.contains("lame rider"));
        assert_eq!(parse("").unwrap(), []);
    }
}
