//! What xboard must be told of a variant defined as data. A variant it knows
//! by name (common.h's VARIANT_NAMES in xboard 4.9.1) it referees by its own
//! rules; any other is announced in answer to `variant NAME` with
//! `setup (PIECETOCHAR) WxH+S_PARENT FEN`, which of xboard's piece images each
//! letter takes, the board, the holdings and the variant whose rules it
//! inherits, and a `piece` line in Betza notation for every piece whose moves
//! xboard cannot know, so that it draws, checks and referees the game.

use plugboard_variants::{
    Move, Special, Variant, betza,
    definition::pieces::predefined_moves,
    square::{file_of, rank_of, square},
};

use crate::core::Refusal;

/// The variants xboard 4.9.1 knows by name.
const KNOWN_TO_XBOARD: [&str; 37] = [
    "normal",
    "wildcastle",
    "nocastle",
    "fischerandom",
    "bughouse",
    "crazyhouse",
    "losers",
    "suicide",
    "giveaway",
    "twokings",
    "kriegspiel",
    "atomic",
    "3check",
    "xiangqi",
    "shogi",
    "capablanca",
    "gothic",
    "falcon",
    "shatranj",
    "courier",
    "knightmate",
    "berolina",
    "janus",
    "caparandom",
    "cylinder",
    "super",
    "great",
    "fairy",
    "makruk",
    "asean",
    "seirawan",
    "grand",
    "spartan",
    "twilight",
    "lion",
    "elven",
    "chu",
];

/// xboard's piece images in its own order, with the letter it gives each by
/// default: the king is always the last of a side's table.
const SLOTS: [char; 21] =
    ['P', 'N', 'B', 'R', 'Q', 'F', 'E', 'A', 'C', 'W', 'M', 'O', 'H', 'I', 'J', 'G', 'D', 'V', 'L', 'S', 'U'];

/// The image for a predefined piece type of the definition format.
fn slot_of_type(name: &str) -> Option<usize> {
    Some(match name {
        "pawn" | "shogiPawn" => 0,
        "knight" => 1,
        "bishop" => 2,
        "rook" => 3,
        "queen" => 4,
        "fers" | "met" => 5,
        "alfil" => 6,
        "archbishop" => 7,
        "chancellor" => 8,
        "wazir" => 9,
        "commoner" => 10,
        "cannon" | "janggiCannon" => 11,
        "bers" => 14,
        "silver" | "khon" => 16,
        "lance" => 18,
        "centaur" => 20,
        _ => return None,
    })
}

/// The holdings squares of a variant defined as data, as xboard counts them:
/// it gives super and great, whose pool has no size of its own, eight.
fn holdings_of(variant: &Variant) -> u8 {
    match (variant.pocket_size, variant.has_hands()) {
        (_, false) => 0,
        (0, true) => 8,
        (size, true) => size,
    }
}

/// The board size and holdings xboard gives a variant by default, as the
/// `WxH+S` of its size prefix: (files, ranks, holdings).
fn default_size(name: &str) -> Option<(u8, u8, u8)> {
    if let Some(variant) = crate::game::defined::variant(name) {
        return Some((variant.files, variant.ranks, holdings_of(&variant)));
    }
    Some(match name {
        "xiangqi" => (9, 10, 0),
        "crazyhouse" | "bughouse" => (8, 8, 5),
        _ if crate::game::knows_variant(name) => (8, 8, 0),
        _ => return None,
    })
}

/// The name the engine knows the variant of a `variant` command by: `NAME`, or
/// xboard's `WxH+S_NAME` for a board size the user set (to an engine that lists
/// `boardsize`). At the variant's own size that is NAME; at another, NAME's
/// definition made over for that board (chess's for `normal`), added to the
/// catalog as `NAME_WxH`; then also `true`: xboard is to be sent its start
/// position, having none of its own for that board.
///
/// # Errors
/// `UnsupportedVariant` for a variant the engine does not play or one that
/// cannot change size (those of shakmaty and xiangqi, or other holdings than
/// its own); why, for a board its start position does not fit.
pub fn resolve(name: &str) -> Result<(String, bool), Refusal> {
    let size = || -> Option<((u8, u8, u8), &str)> {
        let (size, rest) = name.split_once('_')?;
        let (board, holdings) = size.split_once('+')?;
        let (files, ranks) = board.split_once('x')?;
        Some(((files.parse().ok()?, ranks.parse().ok()?, holdings.parse().ok()?), rest))
    };
    // A name of the engine's own may hold `_` without being a size.
    let Some((wanted, rest)) = size() else { return Ok((name.to_owned(), false)) };
    let own = default_size(rest).ok_or(Refusal::UnsupportedVariant)?;
    if own == wanted {
        return Ok((rest.to_owned(), false));
    }
    // A variant of its own for that size, played by the rules xboard takes
    // from `rest` (minishogi for 5x5+5_shogi): xboard is sent its start.
    if let Some(sized) = sized_relative(rest, wanted) {
        return Ok((sized, true));
    }
    let base = if rest == "normal" { "chess" } else { rest };
    if wanted.2 != own.2 || crate::game::defined::variant(base).is_none() {
        return Err(Refusal::UnsupportedVariant);
    }
    let (files, ranks) = (wanted.0, wanted.1);
    let mut catalog = crate::game::defined::catalog().write().map_err(|_| Refusal::UnsupportedVariant)?;
    // xboard takes the rules of a variant it knows; of another, those of its template.
    let template = if knows(rest) {
        rest.to_owned()
    } else {
        catalog.get(base).and_then(|variant| variant.template.clone()).unwrap_or_else(|| "fairy".to_owned())
    };
    match catalog.resized(base, &format!("{rest}_{files}x{ranks}"), &template, files, ranks) {
        Ok(variant) => Ok((variant.name.clone(), true)),
        Err(error) => Err(Refusal::BadParameter(format!("{rest}: {}", error.why))),
    }
}

/// The variant defined with `template` as the variant xboard takes its rules
/// from, on the board and holdings `size`.
fn sized_relative(template: &str, size: (u8, u8, u8)) -> Option<String> {
    let catalog = crate::game::defined::catalog().read().ok()?;
    catalog
        .names()
        .filter_map(|name| catalog.get(name))
        .find(|variant| {
            variant.template.as_deref() == Some(template)
                && variant.name != template
                && (variant.files, variant.ranks, holdings_of(variant)) == size
        })
        .map(|variant| variant.name.clone())
}

/// Whether xboard plays `name` by rules of its own.
#[must_use]
pub fn knows(name: &str) -> bool {
    KNOWN_TO_XBOARD.contains(&name)
}

/// The `setup` line's arguments, `(PIECETOCHAR) WxH+S_PARENT FEN`, for a
/// variant xboard does not know.
#[must_use]
pub fn setup(variant: &Variant) -> String {
    // A table inherited from a parent with other pieces would hide this variant's.
    let covers = |table: &String| {
        (0..variant.kinds.len())
            .filter(|&kind| in_play(variant, kind))
            .all(|kind| table.contains(variant.kinds[kind].letter.to_ascii_uppercase()))
    };
    let table = variant.piece_to_char_table.clone().filter(covers).unwrap_or_else(|| piece_to_char(variant));
    let parent = variant.template.as_deref().unwrap_or("fairy");
    let holdings = holdings_of(variant);
    format!("({table}) {}x{}+{holdings}_{parent} {}", variant.files, variant.ranks, variant.start_fen)
}

/// Which of xboard's images each kind takes: its own where the definition
/// names a known type, the image whose default letter is the kind's letter,
/// else the first image left; the king last.
fn piece_to_char(variant: &Variant) -> String {
    let mut slots: Vec<Option<char>> = vec![None; SLOTS.len()];
    let mut king = None;
    let mut unplaced = Vec::new();
    for kind in &variant.kinds {
        let letter = kind.letter.to_ascii_uppercase();
        if kind.name == "king" {
            king = Some(letter);
        } else if let Some(slot) = slot_of_type(&kind.name).filter(|&slot| slots[slot].is_none()) {
            slots[slot] = Some(letter);
        } else {
            unplaced.push(letter);
        }
    }
    for letter in unplaced {
        let by_letter = SLOTS.iter().position(|&default| default == letter).filter(|&slot| slots[slot].is_none());
        if let Some(slot) = by_letter.or_else(|| slots.iter().skip(5).position(Option::is_none).map(|free| free + 5)) {
            slots[slot] = Some(letter);
        }
    }
    let used = slots.iter().rposition(Option::is_some).map_or(0, |last| last + 1);
    let white: String =
        slots[..used].iter().map(|slot| slot.unwrap_or('.')).chain(std::iter::once(king.unwrap_or('.'))).collect();
    let black = white.to_ascii_lowercase();
    format!("{white}{black}")
}

/// Whether the definition gives `kind` moves other than its type's usual ones
/// (a custom piece, or `king = k:oK`); a pawn's double step is its usual.
fn own_moves(kind: &plugboard_variants::Kind) -> bool {
    match predefined_moves(&kind.name) {
        Some(usual) => kind.betza != usual && kind.betza.strip_suffix("ifmnD") != Some(usual),
        None => true,
    }
}

/// Whether kind `index` is a piece of the game as xboard sees it: in the start
/// position or able to come into play, other than as the promoted form of
/// another (written `+` and its letter, moving as xboard's parent variant has it).
fn in_play(variant: &Variant, index: usize) -> bool {
    let kind = &variant.kinds[index];
    if kind.promoted_from.is_some() {
        return false;
    }
    let promotion_target = variant.kinds.iter().any(|other| other.moves_as == Some(index));
    let start = variant.start_fen.split_whitespace().next().unwrap_or_default();
    !promotion_target || start.contains(kind.letter) || start.contains(kind.letter.to_ascii_uppercase())
}

/// `piece` lines, `LETTER& BETZA` (`+LETTER& BETZA` for a promoted form), for the pieces of a variant xboard does not
/// know, and for the pieces of a variant it knows that the definition gives
/// moves of its own (cylinder's wrapping pieces, berolina's pawn: xboard takes
/// such lines in the variants whose rules it lacks, and ignores the others).
#[must_use]
pub fn pieces(variant: &Variant) -> Vec<String> {
    let known = knows(&variant.name);
    variant
        .kinds
        .iter()
        .enumerate()
        .filter(|&(index, kind)| match kind.promoted_from {
            // xboard knows the promoted pieces of the variants it knows.
            Some(_) => !known,
            None => in_play(variant, index) && (!known || own_moves(kind)),
        })
        .map(|(_, kind)| {
            let promoted = if kind.promoted_from.is_some() { "+" } else { "" };
            format!("{promoted}{}& {}", kind.letter.to_ascii_uppercase(), betza::xboard_order(&kind.betza))
        })
        .collect()
}

/// Whether xboard (4.9.1, and its master since) would carry out `m` otherwise
/// than the rules do, so that its board and ours would part.
///
/// Only en passant: xboard's `ApplyMove` takes the victim of a straight en-passant
/// capture only under `variant berolina`, and there always from the square beside
/// the capturing pawn on the h-file's side, because it tests its "victim on the
/// a-side" flag (`EP_BEROLIN_A`) in the en-passant file, where it is never set.
/// After a diagonal double step towards the a-file it leaves the pawn that made
/// it standing, and then forfeits a move onto or across its square.
#[must_use]
pub fn misapplied_by_xboard(variant: &Variant, m: &Move) -> bool {
    let Special::EnPassant { victim } = m.special else { return false };
    if file_of(m.from) != file_of(m.to) {
        // A diagonal capture: xboard takes the pawn behind the target, as the rules do.
        return false;
    }
    variant.name != "berolina" || victim != square(file_of(m.from) + 1, rank_of(m.from))
}
