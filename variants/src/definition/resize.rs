//! A variant on another board than its own, as xboard asks for one from an
//! engine that lists `boardsize` (`variant 10x8+0_normal` when the user sets
//! the board's width): the same pieces and rules, with files or ranks added
//! (or taken away) between the two halves of the board. The start position's
//! halves move apart with them (a pawn rank stays whole), and every square the
//! rules name (promotion and double-step zones, castling files) moves with its
//! half. The result is written as a definition section, so that a plugin
//! handed the definition reads the same variant.

use super::Variant;
use crate::square::{SquareSet, square};

/// Where line `line` (a file or a rank) of a board with `old` of them goes
/// when `delta` lines are added (or, negative, taken away) between its halves:
/// `None` for a line taken away.
fn moved(line: u8, old: u8, delta: i32) -> Option<u8> {
    let (half, line) = (i32::from(old / 2), i32::from(line));
    let new = if line < half + delta.min(0) {
        line
    } else if line >= half {
        line + delta
    } else {
        return None;
    };
    u8::try_from(new).ok()
}

/// A FEN board's squares, by rank from the first up, each as written (`P`, `+p`, `q~`).
fn squares_of(board: &str, files: u8) -> Result<Vec<Vec<Option<String>>>, String> {
    let mut rows = Vec::new();
    for text in board.split('/').rev() {
        let mut row: Vec<Option<String>> = Vec::new();
        let mut empty = 0usize;
        let mut pending = String::new();
        for c in text.chars() {
            if let Some(digit) = c.to_digit(10) {
                empty = empty * 10 + digit as usize;
                continue;
            }
            row.extend(std::iter::repeat_n(None, std::mem::take(&mut empty)));
            match c {
                '+' => pending.push(c),
                '~' => {
                    if let Some(Some(last)) = row.last_mut() {
                        last.push(c);
                    }
                }
                _ => {
                    pending.push(c);
                    row.push(Some(std::mem::take(&mut pending)));
                }
            }
        }
        row.extend(std::iter::repeat_n(None, empty));
        if row.len() != usize::from(files) {
            return Err(format!("its start position has a rank of {} squares, not {files}", row.len()));
        }
        rows.push(row);
    }
    Ok(rows)
}

fn written(rows: &[Vec<Option<String>>]) -> String {
    let ranks: Vec<String> = rows
        .iter()
        .rev()
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for square in row {
                match square {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push_str(piece);
                    }
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    ranks.join("/")
}

/// `set` of `variant`'s board moved to a board `files` × `ranks`, in the
/// definition's words (`*8` for a whole rank, else squares; `-` for none).
fn region(set: SquareSet, variant: &Variant, files: u8, ranks: u8) -> String {
    let (df, dr) = (i32::from(files) - i32::from(variant.files), i32::from(ranks) - i32::from(variant.ranks));
    // A square of a line added between the halves is in the set when the
    // squares on either side of it are: a whole rank stays whole.
    let mut moved_set = SquareSet::EMPTY;
    for rank in 0..ranks {
        for file in 0..files {
            let old_file = (0..variant.files).find(|&f| moved(f, variant.files, df) == Some(file));
            let old_rank = (0..variant.ranks).find(|&r| moved(r, variant.ranks, dr) == Some(rank));
            let in_set = match (old_file, old_rank) {
                (Some(f), Some(r)) => set.contains(square(f, r)),
                (None, Some(r)) => {
                    set.contains(square(variant.files / 2 - 1, r)) && set.contains(square(variant.files / 2, r))
                }
                (Some(f), None) => {
                    set.contains(square(f, variant.ranks / 2 - 1)) && set.contains(square(f, variant.ranks / 2))
                }
                (None, None) => {
                    let (f, r) = (variant.files / 2, variant.ranks / 2);
                    [square(f - 1, r - 1), square(f, r - 1), square(f - 1, r), square(f, r)]
                        .iter()
                        .all(|&s| set.contains(s))
                }
            };
            if in_set {
                moved_set.insert(square(file, rank));
            }
        }
    }
    let mut words = Vec::new();
    for rank in 0..ranks {
        let whole = SquareSet::rank(rank, files);
        if whole.iter().all(|s| moved_set.contains(s)) {
            words.push(format!("*{}", rank + 1));
            continue;
        }
        for file in (0..files).filter(|&file| moved_set.contains(square(file, rank))) {
            words.push(format!("{}{}", char::from(b'a' + file), rank + 1));
        }
    }
    if words.is_empty() { "-".to_string() } else { words.join(" ") }
}

/// The definition section of `variant` on a board of `files` × `ranks`,
/// called `name`, with `template` the variant xboard is to take its rules
/// from.
///
/// # Errors
/// When the board is out of bounds, or too small for the start position:
/// only empty squares (and, between the files, pawns) may be taken away.
pub fn section(variant: &Variant, name: &str, template: &str, files: u8, ranks: u8) -> Result<String, String> {
    if !(1..=16).contains(&files) || !(1..=16).contains(&ranks) {
        return Err(format!("a board of {files}x{ranks}: at most 16 files and 16 ranks"));
    }
    if variant.files < 2 || variant.ranks < 2 {
        return Err(format!("a board of {}x{} has no halves to move apart", variant.files, variant.ranks));
    }
    let (df, dr) = (i32::from(files) - i32::from(variant.files), i32::from(ranks) - i32::from(variant.ranks));
    let mut fields = variant.start_fen.split_whitespace();
    let placement = fields.next().unwrap_or_default();
    let (board, holdings) = match placement.find('[') {
        Some(at) => placement.split_at(at),
        None => (placement, ""),
    };
    let old = squares_of(board, variant.files)?;
    let is_pawn = |piece: &str| {
        let letter = piece.trim_start_matches('+').chars().next().unwrap_or(' ');
        variant
            .kind_of_letter(letter)
            .is_some_and(|kind| (variant.promotion_pawns[0] | variant.promotion_pawns[1]) >> kind & 1 != 0)
    };
    let mut rows = vec![vec![None; usize::from(files)]; usize::from(ranks)];
    for (old_rank, row) in (0u8..).zip(&old) {
        let new_rank = moved(old_rank, variant.ranks, dr);
        for (old_file, piece) in (0u8..).zip(row) {
            match (new_rank, moved(old_file, variant.files, df), piece) {
                (Some(rank), Some(file), _) => rows[usize::from(rank)][usize::from(file)].clone_from(piece),
                (_, _, None) => {}
                (Some(_), None, Some(piece)) if is_pawn(piece) => {}
                (_, _, Some(piece)) => {
                    return Err(format!(
                        "its start position does not fit on {files}x{ranks}: the {piece} on {}{} has no square there",
                        char::from(b'a' + old_file),
                        old_rank + 1
                    ));
                }
            }
        }
        // Files added between the halves: a rank of pawns stays whole.
        if let Some(rank) = new_rank
            && df > 0
        {
            let half = usize::from(variant.files / 2);
            let (left, right) = (&row[half - 1], &row[half]);
            if left.is_some() && left == right && left.as_deref().is_some_and(is_pawn) {
                for square in rows[usize::from(rank)].iter_mut().skip(half).take(df as usize) {
                    square.clone_from(left);
                }
            }
        }
    }
    let file_letter = |file: u8| -> Result<char, String> {
        moved(file, variant.files, df).filter(|&file| file < files).map(|file| char::from(b'a' + file)).ok_or_else(
            || format!("its castling needs file {}, which a {files}-file board has not", char::from(b'a' + file)),
        )
    };
    let side = fields.next().unwrap_or("w");
    let castling: String = match fields.next().unwrap_or("-") {
        "-" => "-".to_string(),
        rights => rights
            .chars()
            .map(|c| match c {
                'A'..='P' if !"KQ".contains(c) => file_letter(c as u8 - b'A').map(|letter| letter.to_ascii_uppercase()),
                'a'..='p' if !"kq".contains(c) => file_letter(c as u8 - b'a'),
                _ => Ok(c),
            })
            .collect::<Result<_, _>>()?,
    };
    let rest: Vec<&str> = fields.skip(1).collect();
    let counters = if rest.is_empty() { "0 1".to_string() } else { rest.join(" ") };
    let mut text = format!(
        "[{name}:{parent}]\nmaxFile = {files}\nmaxRank = {ranks}\nvariantTemplate = {template}\nstartFen = {}{holdings} {side} {castling} - {counters}\n",
        written(&rows),
        parent = variant.name,
    );
    for (key, set) in
        [("promotionRegionWhite", variant.promotion_region[0]), ("promotionRegionBlack", variant.promotion_region[1])]
    {
        text.push_str(&format!("{key} = {}\n", region(set, variant, files, ranks)));
    }
    if !variant.double_step_region[0].is_empty() || !variant.double_step_region[1].is_empty() {
        for (key, set) in [
            ("doubleStepRegionWhite", variant.double_step_region[0]),
            ("doubleStepRegionBlack", variant.double_step_region[1]),
        ] {
            text.push_str(&format!("{key} = {}\n", region(set, variant, files, ranks)));
        }
    }
    if variant.castling {
        for (key, file) in [
            ("castlingKingFile", variant.castling_king_file),
            ("castlingKingsideFileWhite", variant.castling_kingside_file[0]),
            ("castlingKingsideFileBlack", variant.castling_kingside_file[1]),
            ("castlingQueensideFileWhite", variant.castling_queenside_file[0]),
            ("castlingQueensideFileBlack", variant.castling_queenside_file[1]),
            ("castlingRookKingsideFile", variant.castling_rook_kingside_file),
            ("castlingRookQueensideFile", variant.castling_rook_queenside_file),
        ] {
            text.push_str(&format!("{key} = {}\n", file_letter(file)?));
        }
    }
    Ok(text)
}
