//! The piece types a definition names, as Fairy-Stockfish names them: each a
//! key of `variants.ini` (`knight = n`, `customPiece1 = a:BN`, `king = k:N`)
//! with the Betza notation of its moves.

/// Fairy-Stockfish's predefined piece types, in its order, with their moves.
pub const PREDEFINED: [(&str, &str); 39] = [
    ("pawn", "fmWfceF"),
    ("knight", "N"),
    ("bishop", "B"),
    ("rook", "R"),
    ("queen", "Q"),
    ("fers", "F"),
    ("alfil", "A"),
    ("fersAlfil", "FA"),
    ("silver", "FfW"),
    ("aiwok", "RNF"),
    ("bers", "RF"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("knibis", "mNcB"),
    ("biskni", "mBcN"),
    ("kniroo", "mNcR"),
    ("rookni", "mRcN"),
    ("shogiPawn", "fW"),
    ("lance", "fR"),
    ("shogiKnight", "fN"),
    ("gold", "WfF"),
    ("dragonHorse", "BW"),
    ("clobber", "cW"),
    ("breakthrough", "fmWfF"),
    ("immobile", ""),
    ("cannon", "mRcpR"),
    ("janggiCannon", "pR"),
    ("soldier", "fsW"),
    ("horse", "nN"),
    ("elephant", "nA"),
    ("janggiElephant", "nZ"),
    ("banner", "RcpRnN"),
    ("wazir", "W"),
    ("commoner", "K"),
    ("centaur", "KN"),
    // Fairy-Stockfish's names for makruk's pieces, the same moves as silver and fers.
    ("khon", "FfW"),
    ("met", "F"),
    ("king", "K"),
];

/// How many `customPieceN` slots a definition has.
pub const CUSTOM_SLOTS: usize = 25;

/// The rank of a piece type in Fairy-Stockfish's order (predefined types, then
/// the custom slots, the king last), which numbers the kinds of a variant.
#[must_use]
pub fn order(name: &str) -> Option<usize> {
    if name == "king" {
        return Some(PREDEFINED.len() - 1 + CUSTOM_SLOTS);
    }
    if let Some(index) = PREDEFINED.iter().position(|(known, _)| *known == name) {
        return Some(index);
    }
    let slot: usize = name.strip_prefix("customPiece")?.parse().ok()?;
    (1..=CUSTOM_SLOTS).contains(&slot).then(|| PREDEFINED.len() - 2 + slot)
}

/// The moves of a predefined type, `None` for a custom slot or an unknown name.
#[must_use]
pub fn predefined_moves(name: &str) -> Option<&'static str> {
    PREDEFINED.iter().find(|(known, _)| *known == name).map(|(_, moves)| *moves)
}

/// A piece type as a definition gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDef {
    /// Fairy-Stockfish's name of the type (`knight`, `customPiece3`).
    pub name: String,
    /// Its letter, lowercase (the second player's, as in FEN).
    pub letter: char,
    /// Its moves in Betza notation.
    pub betza: String,
}
