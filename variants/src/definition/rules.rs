//! The rules of a variant as a definition states them, before they are tied
//! to a board: piece types by name, regions by rank and file. Every field has
//! Fairy-Stockfish's default, so a section with no parent is "standard chess
//! without any predefined pieces", as its `variants.ini` says.

use super::pieces::PieceDef;

/// A result, from the point of view of the side it happens to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win,
    Loss,
    Draw,
}

/// Counting rules that end a game as a draw after a number of moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Counting {
    #[default]
    None,
    Makruk,
    Asean,
}

/// Which of several royal pieces is the one that may not be left in check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RoyalRule {
    /// Every royal piece (one, in every variant that has one).
    #[default]
    Every,
    /// The one nearest a1, files counted first (ICC wild 9, xboard's `twokings`).
    NearestA1,
    /// The extinction pieces, while a side has one only (sho shogi's king
    /// and crown prince: with both, neither is in check).
    LastOne,
}

/// A part of a region: `*8` (a rank), `a*` (a file) or `e4` (a square); ranks from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Area {
    Rank(u8),
    File(u8),
    Square(u8, u8),
}

/// A set of piece types by name, or every type (`*`).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Types {
    pub all: bool,
    pub names: Vec<String>,
}

impl Types {
    #[must_use]
    pub fn of(names: &[&str]) -> Types {
        Types { all: false, names: names.iter().map(|name| (*name).to_string()).collect() }
    }
}

/// A variant's rules as its definition gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub max_rank: u8,
    pub max_file: u8,
    pub pieces: Vec<PieceDef>,
    pub start_fen: String,
    pub chess960: bool,
    pub variant_template: Option<String>,
    pub piece_to_char_table: Option<String>,
    pub pocket_size: u8,
    pub promotion_region: [Vec<Area>; 2],
    pub promotion_pawn_types: [Types; 2],
    pub promotion_piece_types: [Types; 2],
    pub promotion_limit: Vec<(String, u8)>,
    /// `pieceValueMg` and `pieceValueEg`: piece values by type name, in
    /// Fairy-Stockfish's internal units, for the opening and the ending.
    pub piece_values: [Vec<(String, i32)>; 2],
    pub mandatory_pawn_promotion: bool,
    pub immobility_illegal: bool,
    pub double_step: bool,
    pub double_step_region: [Vec<Area>; 2],
    pub en_passant_types: [Types; 2],
    pub castling: bool,
    /// Where the king goes, for each side: white's first, then black's (elven's
    /// kings start on different files and each castles three squares).
    pub castling_kingside_file: [u8; 2],
    pub castling_queenside_file: [u8; 2],
    pub castling_rank: u8,
    pub castling_king_file: u8,
    pub castling_king_piece: [Types; 2],
    pub castling_rook_kingside_file: Option<u8>,
    pub castling_rook_queenside_file: u8,
    pub castling_rook_pieces: [Types; 2],
    pub checking: bool,
    pub must_capture: bool,
    pub n_move_rule_types: [Types; 2],
    pub n_move_rule: u32,
    pub n_fold_rule: u32,
    pub n_fold_value: Value,
    /// `n_fold_value` is the first player's result, whoever is to move.
    pub n_fold_value_absolute: bool,
    pub stalemate_value: Value,
    pub checkmate_value: Value,
    pub extinction_value: Option<Value>,
    pub extinction_claim: bool,
    pub extinction_piece_types: Types,
    pub extinction_piece_count: u32,
    /// The last of a side's extinction pieces may not be left in check.
    pub extinction_pseudo_royal: bool,
    pub extinction_opponent_piece_count: u32,
    pub counting_rule: Counting,
    pub royal_rule: RoyalRule,
    /// Plugboard's own: captured pieces go to their owner's holdings, and pawns
    /// promote only to a piece held there (xboard's super and great).
    pub holdings_pool: bool,
    /// `promotedPieceType`: (type, the type whose moves it takes on promoting),
    /// shogi-style, in the promotion zone and on the way out of it.
    pub promoted_piece_type: Vec<(String, String)>,
    /// Plugboard's own `promotesToPieceType`: (type, the type it becomes) on a
    /// shogi-style promotion that makes it that other type itself, written with
    /// that type's letter (xboard's elven knight, which becomes a lion).
    pub promotes_to_piece_type: Vec<(String, String)>,
    /// Plugboard's own `promotedPieceMoves`: (type, Betza) for a promoted form
    /// that moves as no type of the variant does (chu's flying stag, `+T`).
    pub promoted_piece_moves: Vec<(String, String)>,
    /// Plugboard's own `piecePromotionInZoneOnCapture`: with promotion on
    /// entry, a move inside the zone or out of it promotes when it takes (chu).
    pub piece_promotion_in_zone_on_capture: bool,
    /// Plugboard's own `piecePromotionOnEntry`: a piece promotes only on a move
    /// from outside its zone into it (elven), not within or out of it (shogi).
    pub piece_promotion_on_entry: bool,
    pub mandatory_piece_promotion: bool,
    pub piece_drops: bool,
    pub captures_to_hand: bool,
    pub first_rank_pawn_drops: bool,
    pub promotion_zone_pawn_drops: bool,
    /// Where each side may drop (`None`: anywhere).
    pub drop_region: [Option<Vec<Area>>; 2],
    /// The type that may not be dropped on a file where the dropping side has
    /// `drop_no_doubled_count` of it already (shogi's pawn).
    pub drop_no_doubled: Option<String>,
    pub drop_no_doubled_count: u32,
    pub shogi_pawn_drop_mate_illegal: bool,
    /// The side that gives check with every move of a repetition loses.
    pub perpetual_check_illegal: bool,
    /// Plugboard's own, for chu's lion and its relatives (the rules xboard
    /// referees): the types a lion-trading rule protects, the pieces a lion may
    /// take on its way to a distant lion without the trade counting as
    /// protected, and whether a king's recapture counts.
    pub lion_piece_types: Types,
    pub lion_bridge_piece_types: Types,
    pub lion_king_recaptures: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        let pawns = || [Types::of(&["pawn"]), Types::of(&["pawn"])];
        let minors_and_majors = Types::of(&["queen", "rook", "bishop", "knight"]);
        Rules {
            max_rank: 8,
            max_file: 8,
            pieces: Vec::new(),
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string(),
            chess960: false,
            variant_template: None,
            piece_to_char_table: None,
            pocket_size: 0,
            promotion_region: [vec![Area::Rank(7)], vec![Area::Rank(0)]],
            promotion_pawn_types: pawns(),
            promotion_piece_types: [minors_and_majors.clone(), minors_and_majors],
            promotion_limit: Vec::new(),
            piece_values: [Vec::new(), Vec::new()],
            mandatory_pawn_promotion: true,
            immobility_illegal: false,
            double_step: true,
            double_step_region: [vec![Area::Rank(1)], vec![Area::Rank(6)]],
            en_passant_types: pawns(),
            castling: true,
            castling_kingside_file: [6, 6],
            castling_queenside_file: [2, 2],
            castling_rank: 0,
            castling_king_file: 4,
            castling_king_piece: [Types::of(&["king"]), Types::of(&["king"])],
            castling_rook_kingside_file: None,
            castling_rook_queenside_file: 0,
            castling_rook_pieces: [Types::of(&["rook"]), Types::of(&["rook"])],
            checking: true,
            must_capture: false,
            n_move_rule_types: pawns(),
            n_move_rule: 50,
            n_fold_rule: 3,
            n_fold_value: Value::Draw,
            n_fold_value_absolute: false,
            stalemate_value: Value::Draw,
            checkmate_value: Value::Loss,
            extinction_value: None,
            extinction_claim: false,
            extinction_piece_types: Types::default(),
            extinction_pseudo_royal: false,
            extinction_piece_count: 0,
            extinction_opponent_piece_count: 0,
            counting_rule: Counting::None,
            royal_rule: RoyalRule::Every,
            holdings_pool: false,
            promoted_piece_type: Vec::new(),
            promotes_to_piece_type: Vec::new(),
            promoted_piece_moves: Vec::new(),
            piece_promotion_in_zone_on_capture: false,
            piece_promotion_on_entry: false,
            mandatory_piece_promotion: false,
            piece_drops: false,
            captures_to_hand: false,
            first_rank_pawn_drops: false,
            promotion_zone_pawn_drops: false,
            drop_region: [None, None],
            drop_no_doubled: None,
            drop_no_doubled_count: 1,
            shogi_pawn_drop_mate_illegal: false,
            perpetual_check_illegal: false,
            lion_piece_types: Types::default(),
            lion_bridge_piece_types: Types::default(),
            lion_king_recaptures: true,
        }
    }
}
