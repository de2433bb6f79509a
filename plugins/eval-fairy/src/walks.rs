//! Each piece's rays walked once, when the evaluation is built: for every
//! colour, kind and square, the squares each ray passes in order and the
//! squares of its lame ways. Mobility is counted at every node of the search;
//! read from these lists it costs a lookup a square instead of the coordinate
//! arithmetic, wrapping and edge tests of each step.

use plugboard_variants::betza::{Hop, Ray};

/// One ray of one piece from one square.
#[derive(Clone, Copy)]
pub(crate) struct Walk {
    pub moves: bool,
    pub captures: bool,
    pub hop: Hop,
    /// Where its squares start in [`Walks::squares`], and how many.
    path_start: u32,
    path_len: u8,
    /// Where its lame ways start in [`Walks::squares`] (each `lame_len`
    /// squares, one after the other), and how many stay on the board. A ray
    /// with no lame way on the board is left out: it never goes anywhere.
    lame_start: u32,
    lame_ways: u8,
    lame_len: u8,
}

/// The walks of every piece, by colour, kind and square.
pub(crate) struct Walks {
    squares: Vec<u8>,
    walks: Vec<Walk>,
    /// `[colour * kinds + kind][square]`: the first walk in `walks` and how many.
    index: Vec<[(u32, u16); 256]>,
    kinds: usize,
}

impl Walks {
    /// The walks of `rays[kind]` for each colour; the second player's rays
    /// point the other way, as the board seen turned half round.
    pub(crate) fn new(rays: &[Vec<Ray>], files: u8, ranks: u8) -> Walks {
        let (files_i, ranks_i) = (i32::from(files), i32::from(ranks));
        let on_board = |x: i32, y: i32| (0..files_i).contains(&x) && (0..ranks_i).contains(&y);
        let square_of = |x: i32, y: i32| ((y << 4) | x) as u8;
        let mut walks = Walks { squares: Vec::new(), walks: Vec::new(), index: Vec::new(), kinds: rays.len() };
        for color in 0..2 {
            let sign = if color == 0 { 1 } else { -1 };
            for kind_rays in rays {
                let mut by_square = [(0u32, 0u16); 256];
                for rank in 0..ranks_i {
                    for file in 0..files_i {
                        let first = walks.walks.len();
                        for ray in kind_rays {
                            let wrap = |x: i32| if ray.wraps { x.rem_euclid(files_i) } else { x };
                            let lame_start = walks.squares.len() as u32;
                            let mut lame_ways = 0u8;
                            for way in ray.lame_ways() {
                                let steps: Vec<(i32, i32)> = way
                                    .iter()
                                    .map(|&(df, dr)| (wrap(file + sign * i32::from(df)), rank + sign * i32::from(dr)))
                                    .collect();
                                if steps.iter().all(|&(x, y)| on_board(x, y)) {
                                    walks.squares.extend(steps.iter().map(|&(x, y)| square_of(x, y)));
                                    lame_ways += 1;
                                }
                            }
                            if ray.lame_len > 0 && lame_ways == 0 {
                                continue;
                            }
                            let path_start = walks.squares.len() as u32;
                            let limit = if ray.range == 0 { 16 } else { ray.range };
                            let (mut x, mut y) = (file, rank);
                            for _ in 0..limit {
                                x = wrap(x + sign * i32::from(ray.df));
                                y += sign * i32::from(ray.dr);
                                if !on_board(x, y) || (x, y) == (file, rank) {
                                    break;
                                }
                                walks.squares.push(square_of(x, y));
                            }
                            walks.walks.push(Walk {
                                moves: ray.moves(),
                                captures: ray.captures(),
                                hop: ray.hop,
                                path_start,
                                path_len: (walks.squares.len() as u32 - path_start) as u8,
                                lame_start,
                                lame_ways,
                                lame_len: ray.lame_len,
                            });
                        }
                        by_square[usize::from(square_of(file, rank))] =
                            (first as u32, (walks.walks.len() - first) as u16);
                    }
                }
                walks.index.push(by_square);
            }
        }
        walks
    }

    /// The walks of the `color` piece of `kind` on `square`.
    pub(crate) fn from(&self, color: u8, kind: usize, square: u8) -> &[Walk] {
        let (start, count) = self.index[usize::from(color) * self.kinds + kind][usize::from(square)];
        &self.walks[start as usize..start as usize + usize::from(count)]
    }

    /// The squares `walk` passes, nearest first.
    pub(crate) fn path(&self, walk: &Walk) -> &[u8] {
        let start = walk.path_start as usize;
        &self.squares[start..start + usize::from(walk.path_len)]
    }

    /// Whether `walk` may be taken: not lame, or one of its lame ways empty.
    pub(crate) fn open(&self, walk: &Walk, squares: &[u8; 256]) -> bool {
        if walk.lame_len == 0 {
            return true;
        }
        let len = usize::from(walk.lame_len);
        let ways =
            &self.squares[walk.lame_start as usize..walk.lame_start as usize + len * usize::from(walk.lame_ways)];
        ways.chunks_exact(len).any(|way| way.iter().all(|&square| squares[usize::from(square)] == 0))
    }
}
