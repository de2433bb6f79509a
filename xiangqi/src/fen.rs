//! Reading and writing positions as FEN text, in the forms GUIs and engines
//! use for xiangqi.

use std::fmt;

use crate::board::Board;
use crate::validate::validate;
use crate::{Color, Lettering, Piece, Position, Role, Square};

/// The opening position as Fairy-Stockfish writes it.
pub const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN (or a board from the ABI) is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing to read.
    Empty,
    /// The board field does not have 10 ranks.
    RankCount(usize),
    /// A rank (counted 0–9 from Red's side) is not 9 points wide.
    RankWidth(u8),
    /// A character that names no piece in either lettering.
    Letter(char),
    /// The side field is not `w`, `r` or `b`.
    Side(String),
    /// A castling or en-passant field that is not `-`.
    Castling(String),
    /// A counter that is not a number.
    Counter(String),
    /// Fields after the counters.
    ExtraFields,
    /// A byte on the ABI board that is no piece, or a piece off the board.
    Code { square: u8, code: u8 },
    /// A side without a general.
    NoGeneral(Color),
    /// A side with two generals or more.
    TwoGenerals(Color),
    /// More pieces of a kind than a side starts with (there is no promotion).
    TooMany { color: Color, role: Role },
    /// A general outside its palace.
    GeneralOutsidePalace(Square),
    /// An advisor on a point advisors cannot reach.
    AdvisorOffSquares(Square),
    /// An elephant on a point elephants cannot reach (across the river, or off their seven points).
    ElephantOffSquares(Square),
    /// A soldier nearer its own side than its starting rank.
    SoldierBehindStart(Square),
    /// A soldier on its own side of the river but not on a starting file
    /// (soldiers step sideways only after crossing).
    SoldierOffFile(Square),
    /// The generals share a file with nothing between them.
    GeneralsFacing,
    /// The side that just moved left its general attacked.
    OpponentInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => f.write_str("empty FEN"),
            FenError::RankCount(n) => write!(f, "the board has {n} ranks, not 10"),
            FenError::RankWidth(rank) => write!(f, "rank {rank} is not 9 points wide"),
            FenError::Letter(c) => write!(f, "'{c}' names no piece"),
            FenError::Side(s) => write!(f, "side to move '{s}' is not w, r or b"),
            FenError::Castling(s) => write!(f, "xiangqi has no castling or en passant, but the FEN says '{s}'"),
            FenError::Counter(s) => write!(f, "move counter '{s}' is not a number"),
            FenError::ExtraFields => f.write_str("fields after the move counters"),
            FenError::Code { square, code } => {
                write!(f, "byte {code:#04x} at square index {square} is not a piece on the board")
            }
            FenError::NoGeneral(color) => write!(f, "no {color} general"),
            FenError::TwoGenerals(color) => write!(f, "two generals of one side ({color})"),
            FenError::TooMany { color, role } => {
                write!(f, "too many {color} {}s (at most {})", role.name(), role.start_count())
            }
            FenError::GeneralOutsidePalace(sq) => write!(f, "general outside its palace ({sq})"),
            FenError::AdvisorOffSquares(sq) => write!(f, "advisor off its squares ({sq})"),
            FenError::ElephantOffSquares(sq) => write!(f, "elephant off its squares ({sq})"),
            FenError::SoldierBehindStart(sq) => write!(f, "soldier behind its starting rank ({sq})"),
            FenError::SoldierOffFile(sq) => write!(f, "soldier off its starting file before the river ({sq})"),
            FenError::GeneralsFacing => f.write_str("generals face each other on an open file"),
            FenError::OpponentInCheck => f.write_str("the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// Reads a FEN in either lettering (`rnbakabnr…` or `rheakaehr…`; `B`/`E`
    /// and `N`/`H` both) with the side as `w` or `r` (Red) or `b`, then
    /// optionally castling and en-passant fields that must be `-`, then
    /// optionally the counters: two numbers are the halfmove clock and the
    /// move number; one number alone is the move number, as cxboard's CFEN
    /// (`… r 1`) writes it. A missing side means Red.
    ///
    /// # Errors
    /// When the text is malformed or the position could not arise in a game
    /// (see `FenError`).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_ascii_whitespace();
        let board = read_board(fields.next().ok_or(FenError::Empty)?)?;
        let turn = match fields.next() {
            None | Some("w" | "r") => Color::Red,
            Some("b") => Color::Black,
            Some(other) => return Err(FenError::Side(other.to_string())),
        };
        let rest: Vec<&str> = fields.collect();
        let dashes = rest.iter().take(2).take_while(|field| !field.starts_with(|c: char| c.is_ascii_digit())).count();
        if let Some(field) = rest[..dashes].iter().find(|&&field| field != "-") {
            return Err(FenError::Castling((*field).to_string()));
        }
        let counter = |field: &str| field.parse::<u32>().map_err(|_| FenError::Counter(field.to_string()));
        let (halfmoves, fullmoves) = match rest[dashes..] {
            [] => (0, 1),
            [fullmoves] => (0, counter(fullmoves)?),
            [halfmoves, fullmoves] => (counter(halfmoves)?, counter(fullmoves)?),
            _ => return Err(FenError::ExtraFields),
        };
        validate(&board, turn)?;
        // Some writers start counting at 0; the move number is 1 from the start.
        Ok(Position::from_checked_board(board, turn, halfmoves, fullmoves.max(1)))
    }

    /// A position from the ABI's form: piece bytes by `Square` index (0 for
    /// empty and for every index off the board), side and counters.
    ///
    /// # Errors
    /// As `from_fen`, for a byte that is no piece or a piece off the board.
    pub fn from_squares(
        squares: &[u8; 256],
        turn: Color,
        halfmoves: u32,
        fullmoves: u32,
    ) -> Result<Position, FenError> {
        let mut board = Board::empty();
        for (index, &code) in squares.iter().enumerate() {
            #[allow(clippy::cast_possible_truncation)] // 256 entries
            let square = index as u8;
            if code == 0 {
                continue;
            }
            match Piece::from_code(code) {
                Some(_) if Square(square).is_valid() => board.put(square, code),
                _ => return Err(FenError::Code { square, code }),
            }
        }
        validate(&board, turn)?;
        Ok(Position::from_checked_board(board, turn, halfmoves, fullmoves.max(1)))
    }

    /// The FEN of the position. `Lettering::Standard` writes Fairy-Stockfish's
    /// form (`rnbakabnr/… w - - 0 1`), `Lettering::Xboard` the form xboard 4.9
    /// sends with `setboard` (`rheakaehr/… w 0 1`, no castling or en-passant
    /// fields). Both always end with the halfmove clock and the move number.
    #[must_use]
    pub fn fen(&self, lettering: Lettering) -> String {
        let mut fen = String::with_capacity(96);
        for rank in (0..Square::RANKS).rev() {
            let mut empty = 0;
            for file in 0..Square::FILES {
                match self.piece_at(Square::new(file, rank)) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(piece.char(lettering));
                    }
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(match self.turn() {
            Color::Red => " w ",
            Color::Black => " b ",
        });
        if lettering == Lettering::Standard {
            fen.push_str("- - ");
        }
        fen.push_str(&format!("{} {}", self.halfmoves(), self.fullmoves()));
        fen
    }
}

/// The board field: ranks from 9 down to 0, digits for runs of empty points.
fn read_board(field: &str) -> Result<Board, FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != usize::from(Square::RANKS) {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut board = Board::empty();
    for (rank, text) in (0..Square::RANKS).rev().zip(ranks) {
        let mut file = 0u8;
        for c in text.chars() {
            if let Some(run) = c.to_digit(10).filter(|&d| d > 0) {
                // A digit is at most 9.
                #[allow(clippy::cast_possible_truncation)]
                let run = run as u8;
                file += run;
            } else {
                let piece = Piece::from_char(c).ok_or(FenError::Letter(c))?;
                if file >= Square::FILES {
                    return Err(FenError::RankWidth(rank));
                }
                board.put(Square::new(file, rank).0, piece.code());
                file += 1;
            }
            if file > Square::FILES {
                return Err(FenError::RankWidth(rank));
            }
        }
        if file != Square::FILES {
            return Err(FenError::RankWidth(rank));
        }
    }
    Ok(board)
}
