//! Move generation: every piece's rays walked from where it stands, castling,
//! en passant and promotion; then the legal moves, those that leave no royal
//! piece in check (and take when taking is compulsory).

use super::{Position, color_of, kind_of, piece_code};
use crate::betza::Hop;
use crate::moves::{Move, MoveList, Special};
use crate::square::{Square, SquareSet, file_of, rank_of, square};

impl Position {
    /// The square of `color`'s king that castles: the castling piece on its
    /// castling rank (at the king file if there are several).
    #[must_use]
    pub fn castling_king(&self, color: u8) -> Option<Square> {
        let variant = &self.variant;
        let rank = if color == 0 { variant.castling_rank } else { variant.ranks - 1 - variant.castling_rank };
        let kinds = variant.castling_king_kinds[usize::from(color)];
        let mut found = None;
        for file in 0..variant.files {
            let at = square(file, rank);
            let code = self.piece_at(at);
            if code != 0 && color_of(code) == color && kinds >> kind_of(code) & 1 != 0 {
                if found.is_some() {
                    let at_king_file = square(variant.castling_king_file, rank);
                    return (self.piece_at(at_king_file) == code).then_some(at_king_file);
                }
                found = Some(at);
            }
        }
        found
    }

    /// Whether the piece of `kind` standing on `at` could ever move again, for
    /// variants where moving to a square with no way on is illegal.
    fn could_move_from(&self, kind: usize, at: Square, color: u8) -> bool {
        self.variant.kinds[kind].rays.iter().any(|ray| {
            let (df, dr) = Position::oriented(ray, color);
            !ray.initial && self.offset(at, df, dr, ray.wraps).is_some()
        })
    }

    /// Whether the piece of `kind` may promote shogi-style on a move from
    /// `from` to `to` (through `via`, taking there, for a move of legs): into,
    /// inside or out of its side's zone, as the variant has it.
    fn may_promote_piece(&self, kind: usize, from: Square, to: Square, via: Option<Square>) -> bool {
        let variant = &self.variant;
        let zone = variant.promotion_region[usize::from(self.turn)];
        let Some(promoted) = variant.kinds[kind].promotes_to else { return false };
        let touches = zone.contains(from) || zone.contains(to);
        let crosses = if variant.piece_promotion_on_entry {
            let enters = !zone.contains(from) && zone.contains(to);
            let takes = || (self.piece_at(to) != 0 && to != from) || via.is_some_and(|via| self.piece_at(via) != 0);
            enters || (variant.piece_promotion_in_zone_on_capture && touches && takes())
        } else {
            touches
        };
        crosses && self.count(self.turn, promoted) < variant.promotion_limit[promoted]
    }

    /// Adds the move of the piece of `kind` from `from` to `to`, as each
    /// promotion where it promotes.
    pub(super) fn push_move(&self, moves: &mut MoveList, kind: usize, from: Square, to: Square, special: Special) {
        let variant = &self.variant;
        let us = usize::from(self.turn);
        if self.may_promote_piece(kind, from, to, special.via()) {
            let promoted = variant.kinds[kind].promotes_to.unwrap_or(kind);
            moves.push(Move { from, to, promotion: (promoted as u8 + 1) | Move::PIECE_PROMOTION, special });
            if !variant.mandatory_piece_promotion
                && (!variant.immobility_illegal || self.could_move_from(kind, to, self.turn))
            {
                moves.push(Move { from, to, promotion: 0, special });
            }
            return;
        }
        let promotes = variant.promotion_pawns[us] >> kind & 1 != 0 && variant.promotion_region[us].contains(to);
        if !promotes {
            if !variant.immobility_illegal || self.could_move_from(kind, to, self.turn) {
                moves.push(Move { from, to, promotion: 0, special });
            }
            return;
        }
        for choice in 0..variant.kinds.len() {
            if variant.promotion_choices[us] >> choice & 1 == 0 {
                continue;
            }
            let available = if variant.holdings_pool {
                self.in_hand(self.turn, choice) > 0
            } else {
                self.count(self.turn, choice) < variant.promotion_limit[choice]
            };
            if available {
                moves.push(Move { from, to, promotion: choice as u8 + 1, special });
            }
        }
        // From a holdings pool, a pawn with nothing to promote to stays a pawn (as xboard plays it).
        let nothing_held = variant.holdings_pool && !moves.last().is_some_and(|m| m.from == from && m.to == to);
        let may_stay = (!variant.mandatory_pawn_promotion || nothing_held)
            && (!variant.immobility_illegal || self.could_move_from(kind, to, self.turn));
        if may_stay {
            moves.push(Move { from, to, promotion: 0, special });
        }
    }

    /// Every move of the side to move that obeys how its pieces move, whether
    /// or not it leaves a royal piece in check.
    pub fn pseudo_legal_moves(&self, moves: &mut MoveList) {
        self.pseudo_legal_moves_of(moves, false);
    }

    /// [`Position::pseudo_legal_moves`], or with `captures_only` those that
    /// take or may promote: the capture search's, without the quiet moves it
    /// would throw away.
    fn pseudo_legal_moves_of(&self, moves: &mut MoveList, captures_only: bool) {
        moves.clear();
        let us = self.turn;
        let variant = self.variant.clone();
        for from in self.occupied_by(us).iter() {
            let kind = kind_of(self.piece_at(from));
            for ray in &variant.kinds[kind].rays {
                if ray.initial && !variant.double_step_region[usize::from(us)].contains(from) {
                    continue;
                }
                let (df, dr) = Position::oriented(ray, us);
                let limit = if ray.range == 0 { 16 } else { ray.range };
                let mut at = from;
                let mut screened = ray.hop == Hop::No;
                for step in 0..limit.max(16) {
                    if step >= limit && ray.hop == Hop::No {
                        break;
                    }
                    let Some(to) = self.offset(at, df, dr, ray.wraps) else { break };
                    if to == from {
                        break;
                    }
                    if ray.range == 1 && ray.hop == Hop::No && !self.lame_path_clear(from, ray, us) {
                        break;
                    }
                    let code = self.piece_at(to);
                    if !screened {
                        // A hopper's way to its screen: it may not stop there.
                        if code != 0 {
                            screened = true;
                        }
                        at = to;
                        continue;
                    }
                    if code == 0 {
                        // Only the capture search asks whether a quiet move may promote.
                        let wanted = !captures_only
                            || (variant.promotion_pawns[usize::from(us)] >> kind & 1 != 0
                                && variant.promotion_region[usize::from(us)].contains(to))
                            || self.may_promote_piece(kind, from, to, None);
                        if ray.moves() && wanted {
                            let special = match ray.lame_path() {
                                [(pf, pr)]
                                    if ray.initial && variant.en_passant_kinds[usize::from(us)] >> kind & 1 != 0 =>
                                {
                                    let (pf, pr) = if us == 0 { (*pf, *pr) } else { (-pf, -pr) };
                                    self.offset(from, pf, pr, ray.wraps)
                                        .map_or(Special::None, |passed| Special::DoubleStep { passed })
                                }
                                _ => Special::None,
                            };
                            self.push_move(moves, kind, from, to, special);
                        }
                        if let Some((passed, victim)) = self.en_passant
                            && ray.en_passant
                            && ray.captures()
                            && passed == to
                            && color_of(self.piece_at(victim)) != us
                        {
                            self.push_move(moves, kind, from, to, Special::EnPassant { victim });
                        }
                        if ray.hop == Hop::Grasshopper {
                            break;
                        }
                        at = to;
                        continue;
                    }
                    if color_of(code) != us && ray.captures() {
                        self.push_move(moves, kind, from, to, Special::None);
                    }
                    break;
                }
            }
            if !variant.kinds[kind].legs.is_empty() {
                self.push_leg_moves(moves, kind, from);
            }
        }
        if variant.castling && !captures_only {
            self.castling_moves(moves);
        }
        if variant.piece_drops && !captures_only {
            self.drops(moves);
        }
    }

    /// The drops of the side to move: each kind in hand onto each empty square
    /// of its drop region that the variant allows for it.
    fn drops(&self, moves: &mut MoveList) {
        let us = self.turn;
        let variant = self.variant.clone();
        // The drop region holds only squares of the board.
        let empty =
            variant.drop_region[usize::from(us)].difference(self.occupied_by(0)).difference(self.occupied_by(1));
        for kind in 0..variant.kinds.len() {
            if self.in_hand(us, kind) == 0 {
                continue;
            }
            let mut targets = empty;
            if variant.kinds[kind].name == "pawn" {
                if !variant.promotion_zone_pawn_drops {
                    targets = targets.difference(variant.promotion_region[usize::from(us)]);
                }
                if !variant.first_rank_pawn_drops {
                    let first = if us == 0 { 0 } else { variant.ranks - 1 };
                    targets = targets.difference(SquareSet::rank(first, variant.files));
                }
            }
            if let Some((no_doubled, most)) = variant.drop_no_doubled
                && no_doubled == kind
            {
                let mut on_file = [0u32; 16];
                for at in self.occupied_by(us).iter().filter(|&at| self.piece_at(at) == piece_code(kind, us)) {
                    on_file[usize::from(file_of(at))] += 1;
                }
                for file in (0..variant.files).filter(|&file| on_file[usize::from(file)] >= most) {
                    targets = targets.difference(SquareSet::file(file, variant.ranks));
                }
            }
            for to in targets.iter() {
                if !variant.immobility_illegal || self.could_move_from(kind, to, us) {
                    moves.push(Move::drop(kind, to));
                }
            }
        }
    }

    fn castling_moves(&self, moves: &mut MoveList) {
        let us = self.turn;
        let Some(king) = self.castling_king(us) else { return };
        let variant = self.variant.clone();
        let rank = rank_of(king);
        for (side, rook) in self.castling[usize::from(us)].into_iter().enumerate() {
            let Some(rook) = rook else { continue };
            let king_file = if side == 0 { variant.castling_kingside_file } else { variant.castling_queenside_file }
                [usize::from(us)];
            let king_to = square(king_file, rank);
            let rook_to = if side == 0 { king_to - 1 } else { king_to + 1 };
            let span = |a: Square, b: Square| file_of(a).min(file_of(b))..=file_of(a).max(file_of(b));
            let blocked = span(king, king_to)
                .chain(span(rook, rook_to))
                .map(|file| square(file, rank))
                .any(|at| at != king && at != rook && self.piece_at(at) != 0);
            if blocked {
                continue;
            }
            if variant.checking {
                let mut without_king = self.clone();
                without_king.take(king);
                let attacked = span(king, king_to).any(|file| without_king.is_attacked(square(file, rank), us ^ 1));
                if attacked {
                    continue;
                }
            }
            moves.push(Move { from: king, to: king_to, promotion: 0, special: Special::Castle { rook } });
        }
    }

    /// Whether `m`, pseudo-legal here, leaves the mover's royal pieces safe.
    #[must_use]
    pub fn keeps_royals_safe(&mut self, m: Move) -> bool {
        let us = self.turn;
        let undo = self.play(m);
        let safe = !self.in_check_of(us);
        self.undo(m, undo);
        safe
    }

    /// The legal moves. A game that has ended by a variant's rule (a side bared,
    /// for instance) has none, as in Fairy-Stockfish.
    pub fn legal_moves(&mut self, moves: &mut MoveList) {
        self.legal_moves_of(moves, false);
    }

    /// The legal moves that take a piece or promote, for a capture search:
    /// those of [`Position::legal_moves`], found without testing the others.
    pub fn legal_captures(&mut self, moves: &mut MoveList) {
        self.legal_moves_of(moves, true);
    }

    fn legal_moves_of(&mut self, moves: &mut MoveList, captures_only: bool) {
        if self.immediate_end().is_some() {
            moves.clear();
            return;
        }
        self.pseudo_legal_moves_of(moves, captures_only);
        let mut pseudo = std::mem::take(moves);
        if captures_only {
            pseudo.retain(|&m| self.is_capture(m) || m.promotion != 0);
        }
        let us = self.turn;
        let royals = self.royals[usize::from(us)];
        // A lone royal piece's steps are judged against one map of what the
        // other side attacks, when there are enough of them to pay for it.
        let steps_of_royal =
            |m: &Move| matches!(m.special, Special::None | Special::DoubleStep { .. }) && royals.contains(m.from);
        let safe_steps = (royals.len() == 1 && pseudo.iter().filter(|m| steps_of_royal(m)).count() >= 3)
            .then(|| self.attacked_squares(us ^ 1, royals.iter().next().unwrap_or(0)));
        let step_verdict =
            |m: &Move| if steps_of_royal(m) { safe_steps.map(|attacked| !attacked.contains(m.to)) } else { None };
        if self.in_check() {
            pseudo.retain(|&m| step_verdict(&m).unwrap_or_else(|| self.keeps_royals_safe(m)));
        } else if !royals.is_empty() {
            // Only a move that could open a way to a royal piece is played out.
            let (exposing, screening) = self.exposure(us);
            pseudo.retain(|&m| {
                if m.dropped().is_some() {
                    return true;
                }
                if let Some(safe) = step_verdict(&m) {
                    return safe;
                }
                let quiet = self.variant.royal_kinds >> kind_of(self.piece_at(m.from)) & 1 == 0
                    && matches!(m.special, Special::None | Special::DoubleStep { .. })
                    && !exposing.contains(m.from)
                    && !screening.contains(m.to);
                quiet || self.keeps_royals_safe(m)
            });
        }
        if self.variant.lion_kinds != 0 {
            pseudo.retain(|&m| self.lion_trade_allowed(m));
        }
        if self.variant.must_capture && pseudo.iter().any(|&m| self.is_capture(m)) {
            pseudo.retain(|&m| self.is_capture(m));
        }
        if let Some(pawn) = self.variant.drop_mate_illegal {
            pseudo.retain(|&m| m.dropped() != Some(pawn) || !self.drop_mates(m));
        }
        *moves = pseudo;
    }

    /// Whether the drop `m` gives mate: the other side, in check, has no legal move.
    fn drop_mates(&mut self, m: Move) -> bool {
        let undo = self.play(m);
        let mut mated = false;
        if self.in_check() {
            let mut replies = MoveList::new();
            self.legal_moves(&mut replies);
            mated = replies.is_empty();
        }
        self.undo(m, undo);
        mated
    }

    /// Whether `m` takes a piece.
    #[must_use]
    pub fn is_capture(&self, m: Move) -> bool {
        let enemy_on = |at: Square| self.piece_at(at) != 0 && color_of(self.piece_at(at)) != self.turn;
        matches!(m.special, Special::EnPassant { .. })
            || (!m.is_castle() && enemy_on(m.to))
            || m.via().is_some_and(enemy_on)
    }

    /// Leaf nodes of the legal move tree `depth` plies deep.
    pub fn perft(&mut self, depth: u32) -> u64 {
        let mut lists = vec![MoveList::with_capacity(256); depth.max(1) as usize];
        self.perft_with(depth, &mut lists)
    }

    /// [`Position::perft`] with a move list for each ply, kept between nodes.
    fn perft_with(&mut self, depth: u32, lists: &mut [MoveList]) -> u64 {
        let Some((moves, deeper)) = lists.split_first_mut() else { return 1 };
        self.legal_moves(moves);
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        let mut nodes = 0;
        for &m in moves.iter() {
            let undo = self.play(m);
            nodes += self.perft_with(depth - 1, deeper);
            self.undo(m, undo);
        }
        nodes
    }

    /// The piece `kind` of the side to move would be after `m`'s promotion.
    #[must_use]
    pub fn piece_after(&self, m: Move) -> u8 {
        if let Some(kind) = m.dropped() {
            return piece_code(kind, self.turn);
        }
        m.promotion_kind().map_or(self.piece_at(m.from), |kind| piece_code(kind, self.turn))
    }
}
