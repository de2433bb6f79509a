//! Xiangqi for the board search: `plugboard-xiangqi`'s rules (the same the
//! host judges the game by) behind [`Rules`], with xboard's repetition rules
//! (perpetual check and chase lose) for root moves and inside the search.

use plugboard_plugin_api::{
    self as api, BoardPiece, BoardPosition, BoardSearchRequest, Reporter, SearchOutcome, Variant,
};
use plugboard_xiangqi::{
    Color, Move, MoveList, Position, Role, Square, Undo,
    repetition::{self, Rule, Verdict},
};

use crate::{
    board::{History, Rules},
    eval::BoardEvaluation,
    score::{DRAW, MATE, TABLEBASE_WIN},
    tt::TtMove,
};

/// Searches `request.root`, a xiangqi position, with `request.threads` threads,
/// each with an evaluation from `new_eval`.
pub fn run<E, F>(request: &BoardSearchRequest<'_>, new_eval: F, reporter: Reporter<'_>) -> Result<SearchOutcome, String>
where
    E: BoardEvaluation,
    F: Fn() -> Result<E, String> + Sync,
{
    if request.root.variant != Variant::XIANGQI {
        return Err(format!("this search plays xiangqi boards, not {}", request.root.variant.cecp_name()));
    }
    let root = from_board(&request.root)?;
    let game_start = from_board(&request.game_start).ok();
    crate::board::run(request, root, game_start, new_eval, reporter)
}

/// The rules' position for a board position of xiangqi.
pub fn from_board(board: &BoardPosition) -> Result<Position, String> {
    Position::from_board_position(board).map_err(|error| format!("not a xiangqi position: {error}"))
}

/// The board position of a xiangqi position.
pub fn to_board(position: &Position) -> BoardPosition {
    position.to_board_position()
}

pub fn from_api(m: api::Move) -> Move {
    Move::from_plugin(m)
}

pub fn to_api(m: Move) -> api::Move {
    m.to_plugin()
}

impl TtMove for Move {
    fn pack(self) -> u16 {
        u16::from(self.from.0) | u16::from(self.to.0) << 8
    }

    fn unpack(packed: u16) -> Option<Move> {
        // a0a0 is no move, so 0 can stand for none.
        let m = Move::new(Square(packed as u8), Square((packed >> 8) as u8));
        (packed != 0).then_some(m)
    }
}

/// Rough piece values for ordering and pruning, in centipawns.
fn value(role: Role) -> i32 {
    match role {
        Role::Soldier => 100,
        Role::Advisor | Role::Elephant => 200,
        Role::Horse => 400,
        Role::Cannon => 450,
        Role::Chariot => 900,
        Role::General => 5000,
    }
}

/// Chariots, horses and cannons: a side with none of them may be in zugzwang,
/// so null moves are not tried for it.
fn is_attacker(role: Role) -> bool {
    matches!(role, Role::Chariot | Role::Horse | Role::Cannon)
}

fn fill(out: &mut Vec<Move>, list: &MoveList) {
    out.clear();
    out.extend_from_slice(list);
}

impl Rules for Position {
    type Move = Move;
    type Undo = Undo;
    type NullUndo = Undo;

    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    fn same_placement(&self, other: &Position) -> bool {
        Position::same_placement(self, other)
    }

    fn is_opening(&self) -> bool {
        self.same_placement(&Position::start())
    }

    fn halfmoves(&self) -> u32 {
        Position::halfmoves(self)
    }

    fn fullmoves(&self) -> u32 {
        Position::fullmoves(self)
    }

    fn is_check(&self) -> bool {
        Position::is_check(self)
    }

    fn legal_moves(&mut self, out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        Position::legal_moves(self, &mut list);
        fill(out, &list);
    }

    fn legal_captures(&mut self, out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        self.captures(&mut list);
        fill(out, &list);
        out.retain(|&m| self.keeps_general_safe(m));
    }

    fn is_legal(&mut self, m: Move) -> bool {
        Position::is_legal(self, m)
    }

    fn is_capture(&self, m: Move) -> bool {
        Position::is_capture(self, m)
    }

    fn gives_check(&mut self, m: Move) -> bool {
        Position::gives_check(self, m)
    }

    fn play(&mut self, m: Move) -> Undo {
        Position::play(self, m)
    }

    fn undo(&mut self, m: Move, undo: Undo) {
        Position::undo(self, m, undo);
    }

    fn play_null(&mut self) -> Undo {
        Position::play_null(self)
    }

    fn undo_null(&mut self, undo: Undo) {
        Position::undo_null(self, undo);
    }

    fn null_move_allowed(&self) -> bool {
        self.pieces(self.turn()).any(|(_, piece)| is_attacker(piece.role))
    }

    fn victim_value(&self, m: Move) -> Option<i32> {
        self.piece_at(m.to).map(|victim| value(victim.role))
    }

    fn mover_value(&self, m: Move) -> i32 {
        self.piece_at(m.from).map_or(0, |piece| value(piece.role))
    }

    fn mover_index(&self, m: Move) -> usize {
        self.piece_at(m.from).map_or(0, |piece| piece.color.index() * 8 + piece.role as usize)
    }

    fn to_square(m: Move) -> u8 {
        m.to.0
    }

    fn score_of_end(&mut self, ply: usize) -> i32 {
        // No legal move loses, checkmated or stalemated.
        -(MATE - ply as i32)
    }

    fn repetition_score(&self, mover_checked: bool, other_checked: bool, ply: usize) -> i32 {
        let lost = TABLEBASE_WIN - ply as i32;
        match (mover_checked, other_checked) {
            (true, false) => lost,
            (false, true) => -lost,
            _ => DRAW,
        }
    }

    fn update_board(&self, board: &mut BoardPosition, m: Move) {
        let moving = board.squares[usize::from(m.from.0)];
        board.put(m.from.0, None);
        board.put(m.to.0, Some(BoardPiece(moving)));
    }

    fn board(&self) -> BoardPosition {
        to_board(self)
    }

    fn from_board_of(_like: &Position, board: &BoardPosition) -> Option<Position> {
        from_board(board).ok()
    }

    fn to_api(m: Move) -> api::Move {
        to_api(m)
    }

    fn legal_from_api(&mut self, m: api::Move) -> Option<Move> {
        Some(from_api(m))
    }

    /// Whether playing `m` repeats a position of the game and xboard would call
    /// the repetition ours to lose: every move of ours since gave check, or
    /// chased one piece.
    fn loses_by_repetition(&self, history: &History<Position>, m: Move) -> bool {
        let after = self.after(m);
        if !history.positions.iter().any(|earlier| earlier.same_placement(&after)) {
            return false;
        }
        let mut positions = history.positions.clone();
        let mut moves = history.moves.clone();
        positions.push(after);
        moves.push(m);
        let rule = Rule { occurrences: 2, first_position_counts: history.from_start };
        let us: Color = self.turn();
        match repetition::judge(&positions, &moves, rule) {
            Some(Verdict::PerpetualCheck { loser } | Verdict::PerpetualChase { loser, .. }) => loser == us,
            _ => false,
        }
    }
}
