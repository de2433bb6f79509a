//! `edit` on a xiangqi board: xboard places pieces with its own letters
//! (`P H R A E K C`; `N` and `B` are read too) on points `a0`…`i9`, as it does
//! for engines that announce `setboard=0`.

use plugboard_xiangqi::{Color, Piece, Position, Square};

use super::EditStep;

/// A xiangqi position being set up.
#[derive(Debug, Clone)]
pub struct XiangqiEdit {
    /// Piece codes by point, as the plugin API numbers them.
    squares: [u8; 256],
    /// The colour of the pieces the next lines place.
    placing: Color,
    /// The side to move stays what it was when `edit` began.
    turn: Color,
}

impl XiangqiEdit {
    pub fn start(position: &Position) -> XiangqiEdit {
        XiangqiEdit { squares: position.squares(), placing: Color::Red, turn: position.turn() }
    }

    pub fn line(&mut self, line: &str) -> EditStep<Position> {
        match line.trim() {
            "." => EditStep::Done(
                Position::from_squares(&self.squares, self.turn, 0, 1).map_err(|error| error.to_string()),
            ),
            "#" => {
                self.squares = [0; 256];
                EditStep::Continue
            }
            "c" | "C" => {
                self.placing = !self.placing;
                EditStep::Continue
            }
            text => self.place(text),
        }
    }

    fn place(&mut self, text: &str) -> EditStep<Position> {
        let mut chars = text.chars();
        let (Some(letter), Ok(square)) = (chars.next(), chars.as_str().parse::<Square>()) else {
            return EditStep::Refused("expected a piece letter and a point, like Ce2 or xe2");
        };
        if letter == 'x' || letter == 'X' {
            self.squares[usize::from(square.0)] = 0;
            return EditStep::Continue;
        }
        // The letter names the kind; the colour is the one `c` chose.
        match Piece::from_char(letter.to_ascii_uppercase()) {
            Some(piece) => {
                self.squares[usize::from(square.0)] = Piece::new(self.placing, piece.role).code();
                EditStep::Continue
            }
            None => EditStep::Refused("unknown piece letter"),
        }
    }
}

#[cfg(test)]
mod tests {
    use plugboard_xiangqi::Lettering;

    use super::*;

    fn run(edit: &mut XiangqiEdit, lines: &[&str]) -> Result<Position, String> {
        for line in lines {
            if let EditStep::Done(result) = edit.line(line) {
                return result;
            }
        }
        panic!("edit did not finish");
    }

    #[test]
    fn xboards_letters_set_up_a_xiangqi_position() {
        let mut edit = XiangqiEdit::start(&Position::start());
        let lines = ["#", "Ke0", "Ad0", "Hb0", "Ce2", "Pa3", "c", "Kf9", "Re5", "Nb9", "xb9", "."];
        let position = run(&mut edit, &lines).unwrap();
        assert_eq!(position.fen(Lettering::Xboard), "5k3/9/9/9/4r4/9/P8/4C4/9/1H1AK4 w 0 1");
    }

    #[test]
    fn nonsense_and_impossible_positions_are_refused() {
        let mut edit = XiangqiEdit::start(&Position::start());
        assert_eq!(edit.line("Zz9"), EditStep::Refused("expected a piece letter and a point, like Ce2 or xe2"));
        assert_eq!(edit.line("Qe2"), EditStep::Refused("unknown piece letter"));
        // Generals facing each other on an open file.
        let refused = run(&mut edit, &["#", "Ke0", "c", "Ke9", "."]).unwrap_err();
        assert!(refused.contains("face"), "{refused}");
    }
}
