//! Variants defined as data for the board search: `plugboard-variants`' rules
//! (the same the host judges the game by, read from the definition the host
//! sends with the request) behind [`Rules`], each variant's own values for
//! checkmate, stalemate and a side that has run out of pieces.

use std::sync::Arc;

use plugboard_plugin_api::{
    self as api, BoardPiece, BoardPosition, BoardSearchRequest, Reporter, SearchOutcome, Variant as ApiVariant,
};
use plugboard_variants::{
    Catalog, Move, MoveList, NullUndo, Outcome, Position, Special, Undo, Value, Variant, color_of, kind_of, piece_code,
};

use crate::{
    board::Rules,
    eval::BoardEvaluation,
    score::{DRAW, MATE, TABLEBASE_WIN},
    tt::TtMove,
};

/// Searches `request.root`, a position of the variant `definition` defines.
pub fn run<E, F>(
    request: &BoardSearchRequest<'_>,
    definition: &str,
    new_eval: F,
    reporter: Reporter<'_>,
) -> Result<SearchOutcome, String>
where
    E: BoardEvaluation,
    F: Fn() -> Result<E, String> + Sync,
{
    if request.root.variant != ApiVariant::DEFINED {
        return Err(format!("this search plays variants defined as data, not {}", request.root.variant.cecp_name()));
    }
    let variant = Catalog::read_definition(definition).map_err(|error| format!("the definition: {error}"))?;
    let values: Arc<[i32]> = variant.piece_values().into();
    let read = |board: &BoardPosition| {
        Position::from_board_position(variant.clone(), board)
            .map(|position| Defined { position, values: values.clone(), count_live: true, move_rule_live: true })
            .map_err(|error| format!("not a position of {}: {error}", variant.name))
    };
    let mut root = read(&request.root)?;
    let game_start = read(&request.game_start).ok();
    // A count already run out at the root is a draw the GUI did not take:
    // play on for the best result rather than take every move for a draw.
    root.count_live = !root.position.count_ran_out();
    root.move_rule_live = !root.move_rule_reached();
    crate::board::run(request, root, game_start, new_eval, reporter)
}

/// A position with its variant's piece values.
#[derive(Clone, Debug)]
pub(crate) struct Defined {
    position: Position,
    values: Arc<[i32]>,
    /// Whether a count running past its limit ends the game in the search.
    count_live: bool,
    /// Whether the move-count rule (50 moves without a capture or a pawn
    /// move) ends the game in the search, as the host claims it in the game:
    /// a lead the search thinks it keeps while the clock runs to the limit is
    /// a draw (in makruk, a pawn one step from promoting, whose push would
    /// have started the count again, stayed put while a met made the 50th move).
    move_rule_live: bool,
}

impl TtMove for Move {
    fn pack(self) -> u16 {
        u16::from(self.from) | u16::from(self.to) << 8
    }

    /// The squares only: [`Rules::resolve`] finds the legal move they name.
    fn unpack(packed: u16) -> Option<Move> {
        (packed != 0).then(|| Move::new(packed as u8, (packed >> 8) as u8))
    }
}

impl Defined {
    fn variant(&self) -> &Arc<Variant> {
        self.position.variant()
    }

    fn value_of(&self, code: u8) -> i32 {
        self.values[kind_of(code)]
    }

    /// Whether the moves since the last capture or pawn move have reached the
    /// variant's move-count rule.
    fn move_rule_reached(&self) -> bool {
        let moves = self.variant().n_move_rule;
        moves > 0 && self.position.halfmoves() >= 2 * moves
    }

    /// The score of `outcome` for the side to move, `ply` plies from the root.
    fn score_of(&self, outcome: Outcome, ply: usize) -> i32 {
        match outcome.winner {
            Some(winner) if winner == self.position.turn() => MATE - ply as i32,
            Some(_) => -(MATE - ply as i32),
            None => draw_score(ply),
        }
    }
}

/// What a draw `ply` plies from the root is worth to the side to move there:
/// a little less than nothing to the side the search plays for, a little more
/// to the other. These games are long and their draws many (makruk's counts,
/// shatranj's slow pieces); a search that scores a repetition as even takes
/// the first one it meets, where playing on in a level position wins more
/// often than it loses.
fn draw_score(ply: usize) -> i32 {
    if ply.is_multiple_of(2) { DRAW - CONTEMPT } else { DRAW + CONTEMPT }
}

/// Centipawns a draw is worth less to the side the search plays for.
const CONTEMPT: i32 = 15;

/// How much more than its victim a capturing man must be worth before the
/// capture search passes over its capture of a guarded man: a knight's capture
/// of a guarded bishop is still searched, a rook's of a guarded knight is not.
const LOSING_MARGIN: i32 = 50;

impl Rules for Defined {
    type Move = Move;
    type Undo = Undo;
    type NullUndo = NullUndo;

    fn hash(&self) -> u64 {
        self.position.hash()
    }

    fn same_placement(&self, other: &Defined) -> bool {
        self.position.same_placement(&other.position)
    }

    fn is_opening(&self) -> bool {
        Position::start(self.variant().clone()).is_ok_and(|start| start.same_placement(&self.position))
    }

    fn halfmoves(&self) -> u32 {
        self.position.halfmoves()
    }

    fn fullmoves(&self) -> u32 {
        self.position.fullmoves()
    }

    fn is_check(&self) -> bool {
        self.position.in_check()
    }

    fn legal_moves(&mut self, out: &mut Vec<Move>) {
        self.position.legal_moves(out);
    }

    fn legal_captures(&mut self, out: &mut Vec<Move>) {
        self.position.legal_captures(out);
    }

    fn is_legal(&mut self, m: Move) -> bool {
        self.position.is_legal(m)
    }

    fn names(packed: Move, legal: Move) -> bool {
        legal.from == packed.from && legal.to == packed.to
    }

    fn resolve(&mut self, m: Move) -> Option<Move> {
        let mut moves = MoveList::new();
        self.position.legal_moves(&mut moves);
        moves.into_iter().find(|&legal| Self::names(m, legal))
    }

    fn is_capture(&self, m: Move) -> bool {
        self.position.is_capture(m)
    }

    fn gives_check(&mut self, m: Move) -> bool {
        self.position.gives_check(m)
    }

    fn play(&mut self, m: Move) -> Undo {
        self.position.play(m)
    }

    fn undo(&mut self, m: Move, undo: Undo) {
        self.position.undo(m, undo);
    }

    fn play_null(&mut self) -> NullUndo {
        self.position.play_null()
    }

    fn undo_null(&mut self, undo: NullUndo) {
        self.position.undo_null(undo);
    }

    fn null_move_allowed(&self) -> bool {
        // Not where a move is compulsory or where losing everything wins
        // (passing would dodge the losing captures).
        let variant = self.variant();
        if variant.must_capture || variant.extinction.is_some_and(|rule| rule.value != Value::Loss) {
            return false;
        }
        let us = self.position.turn();
        let pawns = variant.promotion_pawns[usize::from(us)];
        (0..variant.kinds.len())
            .any(|kind| !variant.kinds[kind].royal && pawns >> kind & 1 == 0 && self.position.count(us, kind) > 0)
    }

    fn victim_value(&self, m: Move) -> Option<i32> {
        let enemy_value = |at| {
            let code = self.position.piece_at(at);
            (code != 0 && color_of(code) != self.position.turn()).then(|| self.value_of(code))
        };
        match m.special {
            Special::EnPassant { victim } => Some(self.value_of(self.position.piece_at(victim))),
            Special::Castle { .. } => None,
            // A move of legs takes on its way and, unless it comes home, where it ends.
            Special::Leg { via } => {
                let at_end = if m.to == m.from { None } else { enemy_value(m.to) };
                match (enemy_value(via), at_end) {
                    (None, None) => None,
                    (on_way, at_end) => Some(on_way.unwrap_or(0) + at_end.unwrap_or(0)),
                }
            }
            _ => enemy_value(m.to),
        }
    }

    fn mover_value(&self, m: Move) -> i32 {
        let code = self.position.piece_at(m.from);
        if code == 0 { 0 } else { self.value_of(code) }
    }

    fn loses_material(&self, m: Move) -> bool {
        // Only a dearer man can lose by taking; whether it does, the exchange
        // on the square says (in chu a guarded man is often guarded twice).
        self.victim_value(m).is_some_and(|victim| {
            self.mover_value(m) > victim + LOSING_MARGIN && self.position.exchange_gain(m, &self.values) < 0
        })
    }

    fn mover_index(&self, m: Move) -> usize {
        let code =
            m.dropped().map_or_else(|| self.position.piece_at(m.from), |kind| piece_code(kind, self.position.turn()));
        if code == 0 { 0 } else { usize::from(color_of(code)) * 32 + kind_of(code) }
    }

    fn to_square(m: Move) -> u8 {
        m.to
    }

    fn score_of_end(&mut self, ply: usize) -> i32 {
        match self.position.outcome() {
            Some(outcome) => self.score_of(outcome, ply),
            // A move-count draw, the only end with legal moves left and no outcome.
            None => draw_score(ply),
        }
    }

    fn has_ended(&self) -> bool {
        self.position.immediate_end().is_some()
            || (self.count_live && self.position.count_ran_out() && !self.position.in_check())
            || (self.move_rule_live && self.move_rule_reached())
    }

    fn repetition_score(&self, mover_checked: bool, other_checked: bool, ply: usize) -> i32 {
        // Where perpetual check loses (shogi), the side that checked all along loses.
        if self.variant().perpetual_check_illegal && mover_checked != other_checked {
            let lost = TABLEBASE_WIN - ply as i32;
            return if mover_checked { lost } else { -lost };
        }
        // Minishogi: a repetition is the second player's win, whoever is to move.
        let variant = self.variant();
        if variant.n_fold_value_absolute && variant.n_fold_value != Value::Draw {
            let won = TABLEBASE_WIN - ply as i32;
            let first_player_wins = variant.n_fold_value == Value::Win;
            return if first_player_wins == (self.position.turn() == 0) { won } else { -won };
        }
        draw_score(ply)
    }

    fn update_board(&self, board: &mut BoardPosition, m: Move) {
        let us = self.position.turn();
        if let Some(kind) = m.dropped() {
            board.put(m.to, Some(BoardPiece(piece_code(kind, us))));
            return;
        }
        let moving = self.position.piece_at(m.from);
        board.put(m.from, None);
        match m.special {
            Special::Castle { rook } => {
                let rook_code = self.position.piece_at(rook);
                board.put(rook, None);
                let rook_to = if rook & 15 > m.from & 15 { m.to - 1 } else { m.to + 1 };
                board.put(m.to, Some(BoardPiece(moving)));
                board.put(rook_to, Some(BoardPiece(rook_code)));
            }
            Special::EnPassant { victim } => {
                board.put(victim, None);
                board.put(m.to, Some(BoardPiece(moving)));
            }
            Special::None | Special::DoubleStep { .. } | Special::Drop { .. } | Special::Leg { .. } => {
                if let Some(via) = m.via() {
                    board.put(via, None);
                }
                let placed = m.promotion_kind().map_or(moving, |kind| piece_code(kind, us));
                board.put(m.to, Some(BoardPiece(placed)));
            }
        }
    }

    fn finish_board(&self, board: &mut BoardPosition) {
        // Hands change by drops, captures and promotions from a pool: copied whole.
        if self.variant().has_hands() {
            let kinds = self.variant().kinds.len().min(board.hands[0].len());
            for (color, hand) in (0u8..).zip(board.hands.iter_mut()) {
                for (kind, held) in hand.iter_mut().enumerate().take(kinds) {
                    *held = self.position.in_hand(color, kind);
                }
            }
        }
        board.set_defined_rights(
            [self.position.castling_rooks(0), self.position.castling_rooks(1)],
            self.position.en_passant_square(),
        );
        board.set_defined_lion_shield(self.position.lion_shield());
    }

    fn board(&self) -> BoardPosition {
        self.position.to_board_position()
    }

    fn from_board_of(like: &Defined, board: &BoardPosition) -> Option<Defined> {
        let position = Position::from_board_position(like.variant().clone(), board).ok()?;
        Some(Defined {
            position,
            values: like.values.clone(),
            count_live: like.count_live,
            move_rule_live: like.move_rule_live,
        })
    }

    fn to_api(m: Move) -> api::Move {
        m.to_plugin()
    }

    fn legal_from_api(&mut self, m: api::Move) -> Option<Move> {
        self.position.legal_from_plugin(m)
    }
}

#[cfg(test)]
impl Defined {
    /// `fen` in the built-in `variant`, searched with its rules live.
    pub(crate) fn for_tests(variant: &str, fen: &str) -> Defined {
        let variant = Catalog::builtin().get(variant).unwrap().clone();
        let values: Arc<[i32]> = variant.piece_values().into();
        Defined { position: Position::from_fen(variant, fen).unwrap(), values, count_live: true, move_rule_live: true }
    }

    /// The legal move `text` names here.
    pub(crate) fn move_for_tests(&self, text: &str) -> Move {
        self.position.clone().parse_move(text).unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defined(variant: &str, fen: &str) -> Defined {
        Defined::for_tests(variant, fen)
    }

    #[test]
    fn a_draw_is_worth_a_little_less_than_nothing_to_the_side_searched_for() {
        // Black, stalemated in capablanca (a draw, as in chess).
        let mut stalemate = defined("capablanca", "k9/2Q7/1K8/10/10/10/10/10 b - - 0 1");
        let mut moves = Vec::new();
        stalemate.legal_moves(&mut moves);
        assert!(moves.is_empty() && !stalemate.is_check());
        // Black to move at the root (the side searched for) or one ply down (the other side).
        assert_eq!(stalemate.score_of_end(0), -CONTEMPT);
        assert_eq!(stalemate.score_of_end(1), CONTEMPT);
        assert_eq!(stalemate.repetition_score(false, false, 4), -CONTEMPT);
        // A checkmate is still a checkmate.
        let mut mated = defined("capablanca", "k9/1Q8/1K8/10/10/10/10/10 b - - 0 1");
        assert_eq!(mated.score_of_end(3), -(MATE - 3));
    }

    #[test]
    fn in_shogi_the_side_that_checks_throughout_a_repetition_loses_it() {
        let shogi = defined("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1");
        // The side that just moved checked every time: the side to move wins.
        assert!(shogi.repetition_score(true, false, 4) > TABLEBASE_WIN - 10);
        assert!(shogi.repetition_score(false, true, 4) < -(TABLEBASE_WIN - 10));
        assert_eq!(shogi.repetition_score(false, false, 4), -CONTEMPT);
        // Minishogi: any other repetition is the second player's win.
        let mini = defined("minishogi", "rbsgk/4p/5/P4/KGSBR[-] w 0 1");
        assert!(mini.repetition_score(false, false, 4) < -(TABLEBASE_WIN - 10));
        let mini = defined("minishogi", "rbsgk/4p/5/P4/KGSBR[-] b 0 1");
        assert!(mini.repetition_score(false, false, 4) > TABLEBASE_WIN - 10);
    }

    #[test]
    fn the_capture_search_passes_over_a_dear_man_taking_a_guarded_cheap_one() {
        // Capablanca: White's rook may take a knight on d5 that a pawn guards,
        // White's knight a bishop on g5 that a pawn guards, and White's rook a
        // knight on a7 that nothing guards.
        let position = defined("capablanca", "9k/n9/4pp4/3n2b3/10/5N4/10/R2R5K w - - 0 1");
        let mv = |text: &str| {
            let mut position = position.position.clone();
            position.parse_move(text).unwrap()
        };
        assert!(position.loses_material(mv("d1d5")), "the rook for a knight");
        assert!(!position.loses_material(mv("f3g5")), "a knight for a bishop is no loss");
        assert!(!position.loses_material(mv("a1a7")), "an unguarded knight is a gain");
        // Doubled rooks take a knight that a pawn guards: a knight and a pawn
        // for a rook, a loss. Guarded by a rook instead, the rook behind joins
        // in and the knight is won.
        let pawn_guards = defined("capablanca", "9k/10/4p5/3n6/10/10/3R6/3R5K w - - 0 1");
        assert!(pawn_guards.loses_material(pawn_guards.move_for_tests("d2d5")));
        let rook_guards = defined("capablanca", "3r5k/10/10/3n6/10/10/3R6/3R5K w - - 0 1");
        assert!(!rook_guards.loses_material(rook_guards.move_for_tests("d2d5")));
    }

    #[test]
    fn in_chu_a_free_king_takes_a_bishop_that_takes_a_pawn_guarded_twice() {
        // White's bishop takes the pawn on f8, which Black's free king and lion
        // guard; White's free king on i5 guards f8 once. Taking the bishop with
        // the free king loses it to the lion, and the bishop's capture loses
        // the bishop to whichever takes first.
        let chu = "11k/12/12/4nq6/5p6/12/7B4/8Q3/12/12/12/K11 w - - 0 1";
        let position = defined("chu", chu);
        let bishop_takes = position.move_for_tests("h6f8");
        assert!(position.loses_material(bishop_takes));
        let values = &position.values;
        let pawn = values[position.variant().kind_of_letter('p').unwrap()];
        let bishop = values[position.variant().kind_of_letter('b').unwrap()];
        assert_eq!(position.position.exchange_gain(bishop_takes, values), pawn - bishop);
    }
}
