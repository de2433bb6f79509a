//! What each key of a `variants.ini` section does to the [`Rules`], with
//! Fairy-Stockfish's meaning and value formats (its file's own comments). Keys
//! Plugboard does not play are refused unless they hold their default value,
//! so a definition never silently means less than it says.

use super::pieces::{self, PieceDef};
use super::rules::{Area, Counting, RoyalRule, Rules, Types, Value};

/// Keys Fairy-Stockfish knows that change nothing here at their default value,
/// with that value; any other value is refused.
const UNSUPPORTED: [(&str, &str); 47] = [
    ("twoBoards", "false"),
    ("sittuyinPromotion", "false"),
    ("piecePromotionOnCapture", "false"),
    ("pieceDemotion", "false"),
    ("blastOnCapture", "false"),
    ("blastImmuneTypes", "-"),
    ("mutuallyImmuneTypes", "-"),
    ("petrifyOnCaptureTypes", "-"),
    ("petrifyBlastPieces", "false"),
    ("tripleStepRegionWhite", "-"),
    ("tripleStepRegionBlack", "-"),
    ("castlingDroppedPiece", "false"),
    ("oppositeCastling", "false"),
    ("dropChecks", "true"),
    ("mustDrop", "false"),
    ("mustDropType", "*"),
    ("dropLoop", "false"),
    ("enclosingDrop", "none"),
    ("sittuyinRookDrop", "false"),
    ("dropOppositeColoredBishop", "false"),
    ("dropPromoted", "false"),
    ("gating", "false"),
    ("wallingRule", "none"),
    ("wallOrMove", "false"),
    ("seirawanGating", "false"),
    ("cambodianMoves", "false"),
    ("diagonalLines", "-"),
    ("pass", "false"),
    ("passWhite", "false"),
    ("passBlack", "false"),
    ("passOnStalemate", "false"),
    ("passOnStalemateWhite", "false"),
    ("passOnStalemateBlack", "false"),
    ("makpongRule", "false"),
    ("flyingGeneral", "false"),
    ("flipEnclosedPieces", "none"),
    ("moveRepetitionIllegal", "false"),
    ("chasingRule", "none"),
    ("stalematePieceCount", "false"),
    ("shatarMateRule", "false"),
    ("bikjangRule", "false"),
    ("dupleCheck", "false"),
    ("flagMove", "false"),
    ("checkCounting", "false"),
    ("connectN", "0"),
    ("materialCounting", "none"),
    ("castlingWins", "-"),
];

/// Keys that only guide a search's evaluation or a GUI's drawing: read, and
/// changing no rule.
fn is_hint(key: &str) -> bool {
    key.starts_with("mobilityRegion")
}

/// `q:1 r:2`, `p:150 n:800`: a number for each piece, as the letter it is
/// written with, each read by `amount`; `example` shows the form in the
/// error for a word that is not `letter:number`.
fn letter_pairs<T>(
    rules: &Rules,
    key: &str,
    value: &str,
    example: &str,
    amount: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<(String, T)>, String> {
    let mut pairs = Vec::new();
    // `-`: none, as Fairy-Stockfish writes an empty list.
    for word in value.split_whitespace().filter(|&word| word != "-") {
        let (letter, number) = word
            .split_once(':')
            .filter(|(letter, _)| letter.chars().count() == 1)
            .ok_or_else(|| format!("{key} = {value}: expected {example}"))?;
        let name = type_of(rules, key, letter.chars().next().unwrap_or('?'))?;
        pairs.push((name, amount(number)?));
    }
    Ok(pairs)
}

/// `p:g s:g`: a type for each type, both as the letters they are written with.
fn type_pairs(rules: &Rules, key: &str, value: &str) -> Result<Vec<(String, String)>, String> {
    letter_pairs(rules, key, value, "letter:letter pairs such as p:g s:g", |letter| {
        let mut chars = letter.chars();
        match (chars.next(), chars.next()) {
            (Some(target), None) => type_of(rules, key, target),
            _ => Err(format!("{key} = {value}: expected letter:letter pairs such as p:g s:g")),
        }
    })
}

/// Whether `key` names a piece type (`knight`, `customPiece2`, `king`).
#[must_use]
pub fn is_piece_key(key: &str) -> bool {
    pieces::order(key).is_some()
}

/// Applies a piece key: `knight = n`, `customPiece1 = a:BN`, `king = k:N`, `rook = -`.
///
/// # Errors
/// With the reason, for a value that is neither a letter (with Betza for a
/// custom piece) nor `-`.
pub fn apply_piece(rules: &mut Rules, key: &str, value: &str) -> Result<(), String> {
    rules.pieces.retain(|piece| piece.name != key);
    let mut chars = value.chars();
    let Some(letter) = chars.next() else {
        return Err(format!("{key} needs a letter, or - to remove the piece"));
    };
    if letter == '-' && value.len() == 1 {
        return Ok(());
    }
    if !letter.is_ascii_alphabetic() {
        return Err(format!("{key} = {value}: a piece's letter must be a to z"));
    }
    let rest = chars.as_str();
    let betza = match (rest.strip_prefix(':'), pieces::predefined_moves(key)) {
        (Some(betza), None) => betza.to_string(),
        (Some(betza), Some(_)) if key == "king" => betza.to_string(),
        (None, Some(moves)) if rest.is_empty() => moves.to_string(),
        (None, None) if rest.is_empty() => {
            return Err(format!("{key} = {value}: a custom piece needs its moves, as {key} = {letter}:BETZA"));
        }
        _ => {
            return Err(format!(
                "{key} = {value}: expected a letter{}",
                if key.starts_with("custom") || key == "king" { ", then :BETZA" } else { "" }
            ));
        }
    };
    let moves = crate::betza::parse_moves(&betza).map_err(|error| format!("{key}: {error}"))?;
    super::legs_are_attacks(&moves).map_err(|why| format!("{key}: {why}"))?;
    let letter = letter.to_ascii_lowercase();
    // A new piece takes its letter from any other, as Fairy-Stockfish's do.
    rules.pieces.retain(|piece| piece.letter != letter);
    rules.pieces.push(PieceDef { name: key.to_string(), letter, betza });
    Ok(())
}

fn boolean(key: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("{key} = {value}: expected true or false")),
    }
}

fn number(key: &str, value: &str) -> Result<u32, String> {
    value.parse().map_err(|_| format!("{key} = {value}: expected a whole number"))
}

fn rank(key: &str, value: &str) -> Result<u8, String> {
    match value.parse::<u8>() {
        Ok(rank @ 1..=16) => Ok(rank - 1),
        _ => Err(format!("{key} = {value}: expected a rank from 1 to 16")),
    }
}

fn file(key: &str, value: &str) -> Result<u8, String> {
    if let Ok(number @ 1..=16) = value.parse::<u8>() {
        return Ok(number - 1);
    }
    match value.as_bytes() {
        [letter @ b'a'..=b'p'] => Ok(letter - b'a'),
        _ => Err(format!("{key} = {value}: expected a file, a to p or 1 to 16")),
    }
}

fn result(key: &str, value: &str) -> Result<Option<Value>, String> {
    match value {
        "win" => Ok(Some(Value::Win)),
        "loss" => Ok(Some(Value::Loss)),
        "draw" => Ok(Some(Value::Draw)),
        "none" => Ok(None),
        _ => Err(format!("{key} = {value}: expected win, loss, draw or none")),
    }
}

fn required(key: &str, value: &str) -> Result<Value, String> {
    result(key, value)?.ok_or_else(|| format!("{key} = none: this rule needs win, loss or draw"))
}

/// The name of the piece type written `letter`.
fn type_of(rules: &Rules, key: &str, letter: char) -> Result<String, String> {
    rules
        .pieces
        .iter()
        .find(|piece| piece.letter == letter.to_ascii_lowercase())
        .map(|piece| piece.name.clone())
        .ok_or_else(|| format!("{key}: no piece of this variant is written '{letter}'"))
}

fn types(rules: &Rules, key: &str, value: &str) -> Result<Types, String> {
    let mut set = Types::default();
    for letter in value.chars().filter(|c| !c.is_whitespace()) {
        match letter {
            '*' => set.all = true,
            '-' => {}
            _ => set.names.push(type_of(rules, key, letter)?),
        }
    }
    Ok(set)
}

fn region(key: &str, value: &str) -> Result<Vec<Area>, String> {
    let bad = || format!("{key} = {value}: expected squares such as e4, whole ranks *8, whole files a*, or -");
    let mut areas = Vec::new();
    for word in value.split_whitespace() {
        if word == "-" {
            break;
        }
        let bytes = word.as_bytes();
        let area = if let Some(number) = word.strip_prefix('*') {
            Area::Rank(rank(key, number).map_err(|_| bad())?)
        } else if bytes.len() == 2 && bytes[1] == b'*' {
            Area::File(file(key, &word[..1]).map_err(|_| bad())?)
        } else if bytes.len() >= 2 && bytes[0].is_ascii_lowercase() {
            Area::Square(file(key, &word[..1]).map_err(|_| bad())?, rank(key, &word[1..]).map_err(|_| bad())?)
        } else {
            return Err(bad());
        };
        areas.push(area);
    }
    Ok(areas)
}

fn both<T: Clone>(value: T, target: &mut [T; 2]) {
    *target = [value.clone(), value];
}

/// Applies a key that is not a piece.
///
/// # Errors
/// With the reason: an unknown key, a value of the wrong form, or a rule
/// Plugboard does not play.
pub fn apply(rules: &mut Rules, key: &str, value: &str) -> Result<(), String> {
    const WHITE: usize = 0;
    const BLACK: usize = 1;
    match key {
        "maxRank" => rules.max_rank = rank(key, value)? + 1,
        "maxFile" => rules.max_file = file(key, value)? + 1,
        "startFen" => rules.start_fen = value.to_string(),
        "chess960" => rules.chess960 = boolean(key, value)?,
        "variantTemplate" => rules.variant_template = Some(value.to_string()),
        "pieceToCharTable" => rules.piece_to_char_table = (value != "-").then(|| value.to_string()),
        "pocketSize" => {
            rules.pocket_size = u8::try_from(number(key, value)?).map_err(|_| format!("{key} = {value}: too large"))?
        }
        "promotionRegionWhite" => rules.promotion_region[WHITE] = region(key, value)?,
        "promotionRegionBlack" => rules.promotion_region[BLACK] = region(key, value)?,
        "pawnTypes" => {
            let set = types(rules, key, value)?;
            both(set.clone(), &mut rules.promotion_pawn_types);
            both(set.clone(), &mut rules.en_passant_types);
            both(set, &mut rules.n_move_rule_types);
        }
        "promotionPawnTypes" => both(types(rules, key, value)?, &mut rules.promotion_pawn_types),
        "promotionPawnTypesWhite" => rules.promotion_pawn_types[WHITE] = types(rules, key, value)?,
        "promotionPawnTypesBlack" => rules.promotion_pawn_types[BLACK] = types(rules, key, value)?,
        "promotionPieceTypes" => both(types(rules, key, value)?, &mut rules.promotion_piece_types),
        "promotionPieceTypesWhite" => rules.promotion_piece_types[WHITE] = types(rules, key, value)?,
        "promotionPieceTypesBlack" => rules.promotion_piece_types[BLACK] = types(rules, key, value)?,
        "promotionLimit" => {
            rules.promotion_limit = letter_pairs(rules, key, value, "letter:count pairs such as q:1 r:2", |count| {
                u8::try_from(number(key, count)?).map_err(|_| format!("{key}: {count} is too many"))
            })?;
        }
        // Fairy-Stockfish's internal units (a rook is 1276 in the opening, 1380
        // in the ending); a later line for the same piece replaces its value.
        // `+l:1160` values a promoted form that moves as no type of the
        // variant does (chu's white horse); one that does is worth that type.
        "pieceValueMg" | "pieceValueEg" => {
            let mut given = Vec::new();
            for word in value.split_whitespace() {
                let (promoted, word) = word.strip_prefix('+').map_or((false, word), |rest| (true, rest));
                let pairs =
                    letter_pairs(rules, key, word, "letter:value pairs such as p:150 n:800 +l:1160", |amount| {
                        number(key, amount)
                            .ok()
                            .and_then(|amount| i32::try_from(amount).ok())
                            .filter(|&amount| amount <= 100_000)
                            .ok_or_else(|| format!("{key} = {value}: a value is a whole number up to 100000"))
                    })?;
                given.extend(
                    pairs.into_iter().map(|(name, amount)| (if promoted { format!("+{name}") } else { name }, amount)),
                );
            }
            let values = &mut rules.piece_values[usize::from(key == "pieceValueEg")];
            for (name, amount) in given {
                values.retain(|(known, _)| *known != name);
                values.push((name, amount));
            }
        }
        "mandatoryPawnPromotion" => rules.mandatory_pawn_promotion = boolean(key, value)?,
        "immobilityIllegal" => rules.immobility_illegal = boolean(key, value)?,
        "doubleStep" => rules.double_step = boolean(key, value)?,
        "doubleStepRegionWhite" => rules.double_step_region[WHITE] = region(key, value)?,
        "doubleStepRegionBlack" => rules.double_step_region[BLACK] = region(key, value)?,
        "enPassantTypes" => both(types(rules, key, value)?, &mut rules.en_passant_types),
        "enPassantTypesWhite" => rules.en_passant_types[WHITE] = types(rules, key, value)?,
        "enPassantTypesBlack" => rules.en_passant_types[BLACK] = types(rules, key, value)?,
        "castling" => rules.castling = boolean(key, value)?,
        "castlingKingsideFile" => both(file(key, value)?, &mut rules.castling_kingside_file),
        "castlingKingsideFileWhite" => rules.castling_kingside_file[WHITE] = file(key, value)?,
        "castlingKingsideFileBlack" => rules.castling_kingside_file[BLACK] = file(key, value)?,
        "castlingQueensideFile" => both(file(key, value)?, &mut rules.castling_queenside_file),
        "castlingQueensideFileWhite" => rules.castling_queenside_file[WHITE] = file(key, value)?,
        "castlingQueensideFileBlack" => rules.castling_queenside_file[BLACK] = file(key, value)?,
        "castlingRank" => rules.castling_rank = rank(key, value)?,
        "castlingKingFile" => rules.castling_king_file = file(key, value)?,
        "castlingKingPiece" => both(types(rules, key, value)?, &mut rules.castling_king_piece),
        "castlingKingPieceWhite" => rules.castling_king_piece[WHITE] = types(rules, key, value)?,
        "castlingKingPieceBlack" => rules.castling_king_piece[BLACK] = types(rules, key, value)?,
        "castlingRookKingsideFile" => rules.castling_rook_kingside_file = Some(file(key, value)?),
        "castlingRookQueensideFile" => rules.castling_rook_queenside_file = file(key, value)?,
        "castlingRookPieces" => both(types(rules, key, value)?, &mut rules.castling_rook_pieces),
        "castlingRookPiecesWhite" => rules.castling_rook_pieces[WHITE] = types(rules, key, value)?,
        "castlingRookPiecesBlack" => rules.castling_rook_pieces[BLACK] = types(rules, key, value)?,
        "checking" => rules.checking = boolean(key, value)?,
        "mustCapture" => rules.must_capture = boolean(key, value)?,
        "nMoveRuleTypes" => both(types(rules, key, value)?, &mut rules.n_move_rule_types),
        "nMoveRuleTypesWhite" => rules.n_move_rule_types[WHITE] = types(rules, key, value)?,
        "nMoveRuleTypesBlack" => rules.n_move_rule_types[BLACK] = types(rules, key, value)?,
        "nMoveRule" => rules.n_move_rule = number(key, value)?,
        "nFoldRule" => rules.n_fold_rule = number(key, value)?,
        "nFoldValue" => rules.n_fold_value = required(key, value)?,
        "nFoldValueAbsolute" => rules.n_fold_value_absolute = boolean(key, value)?,
        "stalemateValue" => rules.stalemate_value = required(key, value)?,
        "checkmateValue" => rules.checkmate_value = required(key, value)?,
        "extinctionValue" => rules.extinction_value = result(key, value)?,
        "extinctionClaim" => rules.extinction_claim = boolean(key, value)?,
        "extinctionPieceTypes" => rules.extinction_piece_types = types(rules, key, value)?,
        "extinctionPieceCount" => rules.extinction_piece_count = number(key, value)?,
        "extinctionPseudoRoyal" => rules.extinction_pseudo_royal = boolean(key, value)?,
        "extinctionOpponentPieceCount" => rules.extinction_opponent_piece_count = number(key, value)?,
        "countingRule" => {
            rules.counting_rule = match value {
                "makruk" => Counting::Makruk,
                "asean" => Counting::Asean,
                "none" => Counting::None,
                _ => return Err(format!("{key} = {value}: expected makruk, asean or none")),
            }
        }
        // Plugboard's own: xboard's super and great keep captured pieces for promotion.
        "holdingsPool" => rules.holdings_pool = boolean(key, value)?,
        // Plugboard's own: xboard's twokings has two kings, and only one is royal.
        "royalKing" => {
            rules.royal_rule = match value {
                "every" => RoyalRule::Every,
                "nearestA1" => RoyalRule::NearestA1,
                _ => return Err(format!("{key} = {value}: expected every or nearestA1")),
            }
        }
        "promotedPieceType" => rules.promoted_piece_type = type_pairs(rules, key, value)?,
        "promotesToPieceType" => rules.promotes_to_piece_type = type_pairs(rules, key, value)?,
        "piecePromotionOnEntry" => rules.piece_promotion_on_entry = boolean(key, value)?,
        "piecePromotionInZoneOnCapture" => rules.piece_promotion_in_zone_on_capture = boolean(key, value)?,
        "promotedPieceMoves" => {
            rules.promoted_piece_moves =
                letter_pairs(rules, key, value, "letter:Betza pairs such as t:KvR", |betza| Ok(betza.to_string()))?;
        }
        "mandatoryPiecePromotion" => rules.mandatory_piece_promotion = boolean(key, value)?,
        "pieceDrops" => rules.piece_drops = boolean(key, value)?,
        "capturesToHand" => rules.captures_to_hand = boolean(key, value)?,
        "firstRankPawnDrops" => rules.first_rank_pawn_drops = boolean(key, value)?,
        "promotionZonePawnDrops" => rules.promotion_zone_pawn_drops = boolean(key, value)?,
        "dropRegionWhite" => rules.drop_region[WHITE] = Some(region(key, value)?),
        "dropRegionBlack" => rules.drop_region[BLACK] = Some(region(key, value)?),
        "dropNoDoubled" => {
            rules.drop_no_doubled = match value {
                "-" => None,
                _ => {
                    let mut chars = value.chars();
                    match (chars.next(), chars.next()) {
                        (Some(letter), None) => Some(type_of(rules, key, letter)?),
                        _ => return Err(format!("{key} = {value}: expected one piece letter, or -")),
                    }
                }
            }
        }
        "dropNoDoubledCount" => rules.drop_no_doubled_count = number(key, value)?,
        "shogiPawnDropMateIllegal" => rules.shogi_pawn_drop_mate_illegal = boolean(key, value)?,
        "perpetualCheckIllegal" => rules.perpetual_check_illegal = boolean(key, value)?,
        "lionPieceTypes" => rules.lion_piece_types = types(rules, key, value)?,
        "lionBridgePieceTypes" => rules.lion_bridge_piece_types = types(rules, key, value)?,
        "lionKingRecaptures" => rules.lion_king_recaptures = boolean(key, value)?,
        _ if is_hint(key) => {}
        _ => {
            return Err(match UNSUPPORTED.iter().find(|(known, _)| *known == key) {
                Some((_, default)) if value == *default => return Ok(()),
                Some(_) => format!("{key} = {value}: Plugboard does not play this rule yet"),
                None => format!("unknown key '{key}'"),
            });
        }
    }
    Ok(())
}
