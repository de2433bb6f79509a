//! Variants as data: a definition's text becomes a [`Variant`], the table of
//! rules that the position, the move generator and the results read.

pub mod ini;
pub mod keys;
pub mod pieces;
pub mod resize;
pub mod rules;
mod values;
pub mod walks;

pub use values::{PAWN, reach};

use crate::betza::{self, Hop, LegMove, PieceMoves, Ray};
use crate::square::{SquareSet, square};
use rules::{Area, Counting, RoyalRule, Rules, Types, Value};

/// A set of a variant's kinds, bit `kind`.
pub type KindSet = u64;

/// Most kinds a variant may have: a letter each, and their promoted forms
/// (chu shogi has 21 and 18).
pub const MAX_KINDS: usize = 48;

/// A kind of piece in a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kind {
    /// Fairy-Stockfish's name of the type (`knight`, `customPiece1`).
    pub name: String,
    /// Its letter, lowercase.
    pub letter: char,
    /// Its moves in Betza notation, as the definition gave them (with the
    /// pawn's double step where the variant has it).
    pub betza: String,
    pub rays: Vec<Ray>,
    /// Its moves of two legs, the first taking on its way (the lion's).
    pub legs: Vec<LegMove>,
    /// It may not be left in check, and is never taken.
    pub royal: bool,
    /// The kind this one is the promoted form of (shogi's `+P`): written with
    /// `+` before that kind's letter, and back to that kind when captured.
    pub promoted_from: Option<usize>,
    /// The kind it becomes by promoting shogi-style (`promotedPieceType`).
    pub promotes_to: Option<usize>,
    /// For a promoted form, the kind whose moves (and value) it takes.
    pub moves_as: Option<usize>,
}

/// One way of taking, as pieces of one colour take (the second player's turned
/// half round), shared by every kind that takes that way: walked back once from
/// a square to see whether any of them attacks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackRay {
    pub ray: Ray,
    /// The kinds that take this way.
    pub kinds: KindSet,
}

/// The ways `color`'s pieces take, one [`AttackRay`] per way.
fn attack_rays(kinds: &[Kind], color: u8) -> Vec<AttackRay> {
    let mut merged: Vec<AttackRay> = Vec::new();
    for (index, kind) in kinds.iter().enumerate() {
        for ray in kind.rays.iter().filter(|ray| ray.captures()) {
            let mut way = Ray { modes: betza::CAPTURES, en_passant: false, ..*ray };
            if color == 1 {
                (way.df, way.dr) = (-way.df, -way.dr);
                for square in way.lame.iter_mut().flatten() {
                    *square = (-square.0, -square.1);
                }
            }
            match merged.iter_mut().find(|attack| attack.ray == way) {
                Some(attack) => attack.kinds |= 1 << index,
                None => merged.push(AttackRay { ray: way, kinds: 1 << index }),
            }
        }
    }
    merged
}

/// How a side's loss of the pieces of some kinds ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extinction {
    /// For the side that has run out.
    pub value: Value,
    /// Judged for the side to move only once it has had its move to answer.
    pub claim: bool,
    pub kinds: KindSet,
    /// `*`: all the side's pieces counted together, not kind by kind.
    pub all_pieces: bool,
    /// Run out means this many or fewer of one of the kinds…
    pub count: u32,
    /// …while the opponent has at least this many.
    pub opponent_count: u32,
}

/// The kinds makruk's and ASEAN chess's counting rules weigh (Fairy-Stockfish's
/// `pawn`, `rook`, `khon`, `knight`), where the variant has them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    pub pawn: Option<usize>,
    pub rook: Option<usize>,
    pub khon: Option<usize>,
    pub knight: Option<usize>,
}

impl Counted {
    fn of(kinds: &[Kind]) -> Counted {
        let find = |name: &str| kinds.iter().position(|kind| kind.name == name);
        Counted { pawn: find("pawn"), rook: find("rook"), khon: find("khon"), knight: find("knight") }
    }
}

/// A pawn in Fairy-Stockfish's internal units (its ending value), which its
/// `pieceValueMg` and `pieceValueEg` are written in: a centipawn is a
/// hundredth of it.
const FSF_PAWN: i32 = 208;

/// A variant, ready to play.
#[derive(Clone, Debug)]
pub struct Variant {
    pub name: String,
    pub files: u8,
    pub ranks: u8,
    /// Index = kind, the piece code's low bits less one.
    pub kinds: Vec<Kind>,
    pub start_fen: String,
    pub chess960: bool,
    /// The standard variant xboard should take its rules of drawing from.
    pub template: Option<String>,
    pub piece_to_char_table: Option<String>,
    pub pocket_size: u8,
    pub promotion_region: [SquareSet; 2],
    pub promotion_pawns: [KindSet; 2],
    pub promotion_choices: [KindSet; 2],
    /// At most this many of a kind after promoting (255: no limit).
    pub promotion_limit: [u8; MAX_KINDS],
    /// Each kind's value in centipawns where the definition gives one
    /// (`pieceValueMg`, `pieceValueEg`), in kind order.
    pub given_values: Vec<Option<i32>>,
    pub mandatory_pawn_promotion: bool,
    pub immobility_illegal: bool,
    /// Where `i` moves (a pawn's double step) may start; empty without them.
    pub double_step_region: [SquareSet; 2],
    pub en_passant_kinds: [KindSet; 2],
    pub castling: bool,
    /// Where each side's king goes (white's, then black's).
    pub castling_kingside_file: [u8; 2],
    pub castling_queenside_file: [u8; 2],
    /// Relative: 0 is each side's own first rank.
    pub castling_rank: u8,
    pub castling_king_file: u8,
    pub castling_king_kinds: [KindSet; 2],
    pub castling_rook_kinds: [KindSet; 2],
    pub castling_rook_kingside_file: u8,
    pub castling_rook_queenside_file: u8,
    pub checking: bool,
    pub must_capture: bool,
    pub n_move_rule_kinds: [KindSet; 2],
    pub n_move_rule: u32,
    pub n_fold_rule: u32,
    pub n_fold_value: Value,
    /// `n_fold_value` is the first player's result, whoever is to move.
    pub n_fold_value_absolute: bool,
    pub stalemate_value: Value,
    pub checkmate_value: Value,
    pub extinction: Option<Extinction>,
    pub counting: Counting,
    /// The kinds the counting rules weigh, by Fairy-Stockfish's type names.
    pub counted: Counted,
    pub royal_rule: RoyalRule,
    /// Captured pieces go to their owner's holdings; pawns promote only to a
    /// piece held there, and stay pawns when none is.
    pub holdings_pool: bool,
    /// A promotion of a piece (not a pawn's) must be taken when it is offered.
    pub mandatory_piece_promotion: bool,
    /// A piece promotes only on a move from outside its zone into it...
    pub piece_promotion_on_entry: bool,
    /// ...or, with this, on a move inside or out of it that takes (chu).
    pub piece_promotion_in_zone_on_capture: bool,
    /// Pieces in hand may be dropped on empty squares.
    pub piece_drops: bool,
    /// A captured piece goes, unpromoted, to the hand of the side that took it.
    pub captures_to_hand: bool,
    /// Where each side may drop.
    pub drop_region: [SquareSet; 2],
    /// Chess pawns may be dropped on their own first rank, and in their promotion zone.
    pub first_rank_pawn_drops: bool,
    pub promotion_zone_pawn_drops: bool,
    /// The kind not dropped on a file where its side has this many of it already.
    pub drop_no_doubled: Option<(usize, u32)>,
    /// The kind (shogi's pawn) whose drop may not give mate.
    pub drop_mate_illegal: Option<usize>,
    /// A side that checks with every move of a repetition loses by it.
    pub perpetual_check_illegal: bool,
    /// Lions (a lion taken by another piece may not be avenged at once on a
    /// lion; a lion may not take a distant lion that is protected, unless it
    /// takes something worth more than a bridge on its way).
    pub lion_kinds: KindSet,
    /// What a lion may take on its way without making a distant trade free.
    pub lion_bridges: KindSet,
    /// Whether a king's recapture protects a lion against a distant trade.
    pub lion_king_recaptures: bool,
    /// The definition, its parents' sections first: read on its own by
    /// [`crate::Catalog::read_definition`], it gives this variant again.
    pub definition: String,
    /// The ways each colour's pieces take, for finding attacks quickly.
    pub attack_rays: [Vec<AttackRay>; 2],
    /// Each of `attack_rays` walked back from every square, by colour.
    pub back_walks: [walks::BackWalks; 2],
    /// The kinds that may not be left in check.
    pub royal_kinds: KindSet,
}

impl Variant {
    /// The variant `rules` describe, called `name`.
    ///
    /// # Errors
    /// With the reason, when the rules cannot be played: no pieces, too many,
    /// moves that do not parse.
    pub fn compile(name: &str, rules: &Rules, definition: String) -> Result<Variant, String> {
        let (files, ranks) = (rules.max_file, rules.max_rank);
        let mut defs = rules.pieces.clone();
        defs.sort_by_key(|piece| pieces::order(&piece.name));
        if defs.is_empty() {
            return Err(format!("variant {name} has no pieces"));
        }
        if defs.len() > MAX_KINDS {
            return Err(format!("variant {name} has {} kinds of piece; at most {MAX_KINDS}", defs.len()));
        }
        let mut kinds: Vec<Kind> = defs
            .iter()
            .map(|piece| {
                let mut betza = piece.betza.clone();
                if piece.name == "pawn" && rules.double_step {
                    betza.push_str("ifmnD");
                }
                let moves = betza::parse_moves(&betza).map_err(|error| format!("{}: {error}", piece.name))?;
                legs_are_attacks(&moves).map_err(|why| format!("{}: {why}", piece.name))?;
                Ok(Kind {
                    name: piece.name.clone(),
                    letter: piece.letter,
                    betza,
                    rays: moves.rays,
                    legs: moves.legs,
                    royal: piece.name == "king",
                    promoted_from: None,
                    promotes_to: None,
                    moves_as: None,
                })
            })
            .collect::<Result<_, String>>()?;
        add_promoted_kinds(name, rules, &mut kinds)?;
        promote_to_kinds(name, rules, &mut kinds)?;
        let all: KindSet = (1 << kinds.len()) - 1;
        let set = |types: &Types| -> KindSet {
            if types.all {
                return all;
            }
            kinds
                .iter()
                .enumerate()
                .filter(|(_, kind)| types.names.contains(&kind.name))
                .fold(0, |bits, (index, _)| bits | 1 << index)
        };
        let region = |areas: &[Area]| -> SquareSet {
            let mut set = SquareSet::EMPTY;
            for area in areas {
                match *area {
                    Area::Rank(rank) if rank < ranks => set = set.union(SquareSet::rank(rank, files)),
                    Area::File(file) if file < files => set = set.union(SquareSet::file(file, ranks)),
                    Area::Square(file, rank) if file < files && rank < ranks => set.insert(square(file, rank)),
                    _ => {}
                }
            }
            set
        };
        let mut promotion_limit = [u8::MAX; MAX_KINDS];
        for (type_name, limit) in &rules.promotion_limit {
            if let Some(index) = kinds.iter().position(|kind| &kind.name == type_name) {
                promotion_limit[index] = *limit;
            }
        }
        let given_values = kinds
            .iter()
            .map(|kind| {
                // A promoted form is worth what it moves as.
                let type_name = kind.moves_as.map_or(&kind.name, |target| &kinds[target].name);
                let given = |phase: usize| {
                    rules.piece_values[phase].iter().find(|(name, _)| name == type_name).map(|&(_, value)| value)
                };
                let internal = match (given(0), given(1)) {
                    (Some(opening), Some(ending)) => Some((opening + ending) / 2),
                    (one, other) => one.or(other),
                };
                internal.map(|value| (value * 100 + FSF_PAWN / 2) / FSF_PAWN)
            })
            .collect();
        let pair = |types: &[Types; 2]| [set(&types[0]), set(&types[1])];
        // A promoted form counts as the type it moves as, as Fairy-Stockfish
        // counts sho shogi's crown prince (a promoted elephant) a king.
        let extinction_kinds = {
            let named = set(&rules.extinction_piece_types);
            kinds.iter().enumerate().fold(named, |set, (index, kind)| match kind.moves_as {
                Some(target) if named >> target & 1 != 0 => set | 1 << index,
                _ => set,
            })
        };
        let extinction = rules.extinction_value.map(|value| Extinction {
            value,
            claim: rules.extinction_claim,
            kinds: extinction_kinds,
            all_pieces: rules.extinction_piece_types.all,
            count: rules.extinction_piece_count,
            opponent_count: rules.extinction_opponent_piece_count,
        });
        let attack_rays = [attack_rays(&kinds, 0), attack_rays(&kinds, 1)];
        Ok(Variant {
            name: name.to_string(),
            files,
            ranks,
            start_fen: rules.start_fen.clone(),
            chess960: rules.chess960,
            template: rules.variant_template.clone(),
            piece_to_char_table: rules.piece_to_char_table.clone(),
            pocket_size: rules.pocket_size,
            promotion_region: [region(&rules.promotion_region[0]), region(&rules.promotion_region[1])],
            promotion_pawns: pair(&rules.promotion_pawn_types),
            promotion_choices: pair(&rules.promotion_piece_types),
            promotion_limit,
            given_values,
            mandatory_pawn_promotion: rules.mandatory_pawn_promotion,
            immobility_illegal: rules.immobility_illegal,
            double_step_region: if rules.double_step {
                [region(&rules.double_step_region[0]), region(&rules.double_step_region[1])]
            } else {
                [SquareSet::EMPTY; 2]
            },
            en_passant_kinds: pair(&rules.en_passant_types),
            castling: rules.castling,
            castling_kingside_file: rules.castling_kingside_file,
            castling_queenside_file: rules.castling_queenside_file,
            castling_rank: rules.castling_rank,
            castling_king_file: rules.castling_king_file,
            castling_king_kinds: pair(&rules.castling_king_piece),
            castling_rook_kinds: pair(&rules.castling_rook_pieces),
            castling_rook_kingside_file: rules.castling_rook_kingside_file.unwrap_or(files - 1),
            castling_rook_queenside_file: rules.castling_rook_queenside_file,
            checking: rules.checking,
            must_capture: rules.must_capture,
            n_move_rule_kinds: pair(&rules.n_move_rule_types),
            n_move_rule: rules.n_move_rule,
            n_fold_rule: rules.n_fold_rule,
            n_fold_value: rules.n_fold_value,
            n_fold_value_absolute: rules.n_fold_value_absolute,
            stalemate_value: rules.stalemate_value,
            checkmate_value: rules.checkmate_value,
            extinction,
            counting: rules.counting_rule,
            counted: Counted::of(&kinds),
            royal_rule: if rules.extinction_pseudo_royal { RoyalRule::LastOne } else { rules.royal_rule },
            holdings_pool: rules.holdings_pool,
            mandatory_piece_promotion: rules.mandatory_piece_promotion,
            piece_promotion_on_entry: rules.piece_promotion_on_entry,
            piece_promotion_in_zone_on_capture: rules.piece_promotion_in_zone_on_capture,
            piece_drops: rules.piece_drops,
            captures_to_hand: rules.captures_to_hand,
            drop_region: [0, 1].map(|color| {
                rules.drop_region[color].as_deref().map_or_else(|| SquareSet::board(files, ranks), &region)
            }),
            first_rank_pawn_drops: rules.first_rank_pawn_drops,
            promotion_zone_pawn_drops: rules.promotion_zone_pawn_drops,
            drop_no_doubled: rules.drop_no_doubled.as_ref().and_then(|type_name| {
                let kind = kinds.iter().position(|kind| &kind.name == type_name)?;
                Some((kind, rules.drop_no_doubled_count))
            }),
            drop_mate_illegal: if rules.shogi_pawn_drop_mate_illegal {
                kinds.iter().position(|kind| kind.name == "shogiPawn")
            } else {
                None
            },
            perpetual_check_illegal: rules.perpetual_check_illegal,
            lion_kinds: set(&rules.lion_piece_types),
            lion_bridges: set(&rules.lion_bridge_piece_types),
            lion_king_recaptures: rules.lion_king_recaptures,
            back_walks: [0, 1].map(|color| walks::BackWalks::new(&attack_rays[color], files, ranks)),
            attack_rays,
            royal_kinds: if rules.extinction_pseudo_royal {
                extinction_kinds
            } else {
                kinds.iter().enumerate().filter(|(_, kind)| kind.royal).fold(0, |set, (i, _)| set | 1 << i)
            },
            kinds,
            definition,
        })
    }

    /// The kind written `letter` (either case); a promoted kind is written
    /// with `+` before its letter, and is not this.
    #[must_use]
    pub fn kind_of_letter(&self, letter: char) -> Option<usize> {
        let letter = letter.to_ascii_lowercase();
        self.kinds.iter().position(|kind| kind.letter == letter && kind.promoted_from.is_none())
    }

    /// Whether pieces wait in hand (a holdings pool, or captured pieces to
    /// drop) in this variant.
    #[must_use]
    pub fn has_hands(&self) -> bool {
        self.pocket_size > 0 || self.holdings_pool || self.piece_drops || self.captures_to_hand
    }

    /// What `kind` is in hand: a promoted piece goes back to what it was.
    #[must_use]
    pub fn unpromoted(&self, kind: usize) -> usize {
        self.kinds[kind].promoted_from.unwrap_or(kind)
    }
}

/// A kind for each `promotedPieceType` pair, after the definition's own: the
/// promoted form of the first type, moving as the second, written `+` and the
/// first type's letter (shogi's `+P` moves as a gold general); then one for
/// each `promotedPieceMoves` pair, moving as its Betza says.
fn add_promoted_kinds(name: &str, rules: &Rules, kinds: &mut Vec<Kind>) -> Result<(), String> {
    for (base_name, target_name) in &rules.promoted_piece_type {
        let base = promotable(name, "promotedPieceType", kinds, base_name)?;
        let target = find_kind(name, "promotedPieceType", kinds, target_name)?;
        let moves = PieceMoves { rays: kinds[target].rays.clone(), legs: kinds[target].legs.clone() };
        let betza = kinds[target].betza.clone();
        push_promoted(name, kinds, base, betza, moves, Some(target))?;
    }
    for (base_name, betza) in &rules.promoted_piece_moves {
        let base = promotable(name, "promotedPieceMoves", kinds, base_name)?;
        let moves = betza::parse_moves(betza).map_err(|error| format!("+{base_name}: {error}"))?;
        legs_are_attacks(&moves).map_err(|why| format!("+{base_name}: {why}"))?;
        push_promoted(name, kinds, base, betza.clone(), moves, None)?;
    }
    Ok(())
}

/// The kind of the type `type_name`, which the definition's `key` names.
fn find_kind(name: &str, key: &str, kinds: &[Kind], type_name: &str) -> Result<usize, String> {
    kinds
        .iter()
        .position(|kind| kind.name == type_name)
        .ok_or_else(|| format!("variant {name}: {key} names a piece it does not have"))
}

/// The kind of the type `base_name`, which may be given a promotion: it is not
/// royal and has none yet.
fn promotable(name: &str, key: &str, kinds: &[Kind], base_name: &str) -> Result<usize, String> {
    let base = find_kind(name, key, kinds, base_name)?;
    if kinds[base].royal || kinds[base].promotes_to.is_some() {
        return Err(format!("variant {name}: {base_name} cannot promote (royal, or given twice)"));
    }
    Ok(base)
}

/// Adds the promoted form of `base`, written `+` and its letter, moving by
/// `moves` (as the kind `moves_as`, where it takes another's moves).
fn push_promoted(
    name: &str,
    kinds: &mut Vec<Kind>,
    base: usize,
    betza: String,
    moves: PieceMoves,
    moves_as: Option<usize>,
) -> Result<(), String> {
    if kinds.len() >= MAX_KINDS {
        return Err(format!("variant {name} has more than {MAX_KINDS} kinds with its promoted pieces"));
    }
    let promoted = Kind {
        name: format!("+{}", kinds[base].name),
        letter: kinds[base].letter,
        betza,
        rays: moves.rays,
        legs: moves.legs,
        royal: false,
        promoted_from: Some(base),
        promotes_to: None,
        moves_as,
    };
    kinds[base].promotes_to = Some(kinds.len());
    kinds.push(promoted);
    Ok(())
}

/// Each `promotesToPieceType` pair: the first type promotes shogi-style into
/// the second type itself (xboard's elven knight becomes the lion).
fn promote_to_kinds(name: &str, rules: &Rules, kinds: &mut [Kind]) -> Result<(), String> {
    for (base_name, target_name) in &rules.promotes_to_piece_type {
        let base = promotable(name, "promotesToPieceType", kinds, base_name)?;
        let target = find_kind(name, "promotesToPieceType", kinds, target_name)?;
        if base == target {
            return Err(format!("variant {name}: {base_name} cannot promote to itself"));
        }
        kinds[base].promotes_to = Some(target);
    }
    Ok(())
}

/// Refuses moves of legs that take where none of the piece's plain leaps take:
/// whether a square is attacked is read from the rays alone, which then still
/// see every royal piece a move of legs could take (the lion's legs stay
/// inside its own KNAD leaps).
pub(crate) fn legs_are_attacks(moves: &PieceMoves) -> Result<(), String> {
    let leaps_there = |(df, dr): (i8, i8)| {
        moves.rays.iter().any(|ray| {
            (ray.df, ray.dr) == (df, dr)
                && ray.range == 1
                && ray.hop == Hop::No
                && ray.lame_ways == 0
                && !ray.initial
                && ray.captures()
        })
    };
    for leg in &moves.legs {
        let takes_via = leg.via_modes & betza::CAPTURES != 0 && !leaps_there(leg.via);
        let takes_at_end = leg.modes & betza::CAPTURES != 0 && leg.to != (0, 0) && !leaps_there(leg.to);
        if takes_via || takes_at_end {
            return Err(format!(
                "a move of legs takes on {:?} or {:?}, where no leap of the piece takes (add the leap, as the lion's KNAD)",
                leg.via, leg.to
            ));
        }
    }
    Ok(())
}
