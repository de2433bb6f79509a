//! What a capture wins once both sides have taken back on its square: the
//! static exchange, for a search that must judge a capture without playing
//! out every answer to it.

use super::{Position, kind_of, piece_code};
use crate::moves::Move;

/// What a royal piece is worth in an exchange: more than any army, so that it
/// takes last and never onto a square the other side still attacks.
const ROYAL_WORTH: i32 = 1_000_000;

impl Position {
    /// What `m` wins for the side to move, in `values` (each kind's worth),
    /// when each side in turn takes back on `m.to` with its cheapest piece for
    /// as long as that pays. A piece that reaches the square only once another
    /// has left the way (a rook behind a rook) joins in when it does; a lion's
    /// second capture and a move that takes on its way and comes home count
    /// what they take and nothing more.
    #[must_use]
    pub fn exchange_gain(&self, m: Move, values: &[i32]) -> i32 {
        let worth = |code: u8| match code {
            0 => 0,
            code if self.variant.kinds[kind_of(code)].royal => ROYAL_WORTH,
            code => values.get(kind_of(code)).copied().unwrap_or(0),
        };
        let mut taken = worth(self.piece_at(m.to));
        if let Some(via) = m.via() {
            taken = worth(self.piece_at(via)) + if m.to == m.from { 0 } else { taken };
        }
        let mover = self.piece_at(m.from);
        if m.dropped().is_some() || mover == 0 || m.to == m.from {
            return taken;
        }
        let placed = m.promotion_kind().map_or(mover, |kind| piece_code(kind, self.turn));
        let mut board = self.clone();
        board.board[usize::from(m.from)] = 0;
        if let Some(via) = m.via() {
            board.board[usize::from(via)] = 0;
        }
        board.board[usize::from(m.to)] = placed;
        // gains[n]: what the side making the nth capture has won, if the
        // exchange stopped there.
        let mut gains = [0i32; 48];
        gains[0] = taken;
        let mut on_square = worth(placed);
        let mut side = self.turn ^ 1;
        let mut depth = 0;
        while depth + 1 < gains.len() {
            let mut cheapest: Option<(u8, u8)> = None;
            board.find_attacker(m.to, side, |from, code| {
                if cheapest.is_none_or(|(_, known)| worth(code) < worth(known)) {
                    cheapest = Some((from, code));
                }
                false
            });
            let Some((from, code)) = cheapest else { break };
            depth += 1;
            gains[depth] = on_square - gains[depth - 1];
            // Neither taking on nor stopping short can change who comes out ahead.
            if (-gains[depth - 1]).max(gains[depth]) < 0 {
                break;
            }
            on_square = worth(code);
            board.board[usize::from(from)] = 0;
            board.board[usize::from(m.to)] = code;
            side ^= 1;
        }
        while depth > 0 {
            gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
            depth -= 1;
        }
        gains[0]
    }
}
