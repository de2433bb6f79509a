//! A network and its file: `(768 → hidden) × 2 → 1` with squared clipped ReLU,
//! integer weights, behind a header that says what the file holds. The output
//! layer may be one of several, chosen by how many pieces are on the board
//! (architecture 2): an ending is then scored by weights of its own.
//!
//! The file, little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `PBNNUE\r\n` (a text-mode copy breaks it, as PNG's does) |
//! | 4 | format version, [`FORMAT_VERSION`] |
//! | 4 | architecture, [`ARCHITECTURE`] (one output layer), [`ARCHITECTURE_BUCKETS`], or [`ARCHITECTURE_XIANGQI`] |
//! | 4 | inputs, 768 for chess, 1260 for xiangqi |
//! | 4 | hidden, a multiple of 16 up to [`MAX_HIDDEN`] |
//! | 4 | QA, the accumulator's scale, 255 |
//! | 4 | QB, the output weights' scale, 256 |
//! | 4 | output scale (centipawns per unit of the float network's output) |
//! | 4 | output buckets: 0 for architecture 1, [`BUCKETS`] for architectures 2 and 3 |
//! | 8 | layout hash: FNV-1a of [`layout`], which names every field above |
//! | 8 | body length in bytes |
//! | 8 | FNV-1a of the body |
//!
//! and then the body: input weights `i16[inputs][hidden]`, input biases
//! `i16[hidden]`, output weights `i16[buckets][2][hidden]` (the side to move's
//! half first), output biases `i32[buckets]`.

use std::fmt;

use crate::features::INPUTS;

/// The game a network scores, which fixes its inputs and how they are read
/// from a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    /// [`crate::features`]: 2 colours × 6 kinds × 64 squares.
    Chess,
    /// [`crate::xiangqi::features`]: 2 colours × 7 kinds × 90 points.
    Xiangqi,
}

impl Game {
    pub const fn inputs(self) -> usize {
        match self {
            Game::Chess => INPUTS,
            Game::Xiangqi => crate::xiangqi::features::INPUTS,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Game::Chess => "chess",
            Game::Xiangqi => "xiangqi",
        }
    }
}

pub const MAGIC: [u8; 8] = *b"PBNNUE\r\n";
pub const FORMAT_VERSION: u32 = 1;
/// `(768 → hidden) × 2 → 1`, squared clipped ReLU, perspective accumulators.
pub const ARCHITECTURE: u32 = 1;
/// As [`ARCHITECTURE`], with [`BUCKETS`] output layers, chosen by the number of
/// pieces on the board: [`bucket`].
pub const ARCHITECTURE_BUCKETS: u32 = 2;
/// Xiangqi: `(1260 → hidden) × 2 → 1` of [`BUCKETS`] output layers by piece
/// count, as [`ARCHITECTURE_BUCKETS`] is for chess.
pub const ARCHITECTURE_XIANGQI: u32 = 3;
/// Output layers of an [`ARCHITECTURE_BUCKETS`] network.
pub const BUCKETS: usize = 8;
pub const HEADER_SIZE: usize = 64;
/// The accumulator's fixed-point one: activations are clipped to `0..=QA`.
pub const QA: i32 = 255;
/// The output weights' fixed-point one. Finer than the usual 64: with 64, the
/// rounding of 256 output weights alone moved scores by 14 cp on average.
pub const QB: i32 = 256;
pub const MAX_HIDDEN: usize = 4096;
/// Bounds that keep every sum the evaluator makes in range: 32 input weights
/// and a bias fit an `i16`, and 64 products of a clipped activation squared
/// and an output weight fit an `i32` lane (the kernels move lanes on to an
/// `i64` every 64).
pub const MAX_INPUT_WEIGHT: i16 = 1000;
pub const MAX_INPUT_BIAS: i16 = 767;
pub const MAX_OUTPUT_WEIGHT: i16 = 507;

/// A network, ready to evaluate with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    pub(crate) game: Game,
    pub(crate) hidden: usize,
    pub(crate) scale: i32,
    /// `[input][hidden]`: an input's weights lie together, as updates read them.
    pub(crate) input_weights: Vec<i16>,
    pub(crate) input_bias: Vec<i16>,
    /// 1, or [`BUCKETS`].
    pub(crate) buckets: usize,
    /// `[buckets][2][hidden]`: the side to move's half first.
    pub(crate) output_weights: Vec<i16>,
    /// `[buckets]`.
    pub(crate) output_bias: Vec<i32>,
}

/// The output layer a board with `pieces` pieces (kings included) is scored by,
/// of `buckets`: four piece counts to a bucket, from the bare kings up.
#[inline]
pub fn bucket(pieces: u32, buckets: usize) -> usize {
    (pieces.saturating_sub(2) as usize / 4).min(buckets - 1)
}

/// Why bytes are not a network this plugin can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    TooShort(usize),
    NotANetwork,
    Version(u32),
    Architecture(u32),
    /// An architecture's output layers in a number it does not have.
    Buckets(u32),
    Shape {
        inputs: u32,
        hidden: u32,
    },
    Quantisation {
        qa: u32,
        qb: u32,
        scale: u32,
    },
    LayoutHash,
    Body {
        promised: u64,
        found: usize,
    },
    Damaged,
    OutOfRange(&'static str),
    /// A network of one game where one of another was wanted.
    WrongGame {
        found: Game,
        wanted: Game,
    },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::TooShort(size) => {
                write!(f, "it is {size} bytes, shorter than the {HEADER_SIZE}-byte header of a Plugboard network")
            }
            FormatError::NotANetwork => {
                write!(
                    f,
                    "it is not a Plugboard network (a .nnue file starting with \"PBNNUE\"); other engines' networks do not fit"
                )
            }
            FormatError::Version(version) => {
                write!(f, "it is format version {version}; this plugin reads version {FORMAT_VERSION}")
            }
            FormatError::Architecture(architecture) => write!(
                f,
                "its architecture is number {architecture}; this plugin evaluates architectures {ARCHITECTURE}, (768 → N) × 2 → 1 with SCReLU, {ARCHITECTURE_BUCKETS}, the same with {BUCKETS} output layers by piece count, and {ARCHITECTURE_XIANGQI}, (1260 → N) × 2 → 1 of {BUCKETS} for xiangqi"
            ),
            FormatError::WrongGame { found, wanted } => write!(
                f,
                "it is a {} network (architecture {}); a {} network is expected here",
                found.name(),
                match found {
                    Game::Chess => "1 or 2".to_owned(),
                    Game::Xiangqi => ARCHITECTURE_XIANGQI.to_string(),
                },
                wanted.name()
            ),
            FormatError::Buckets(buckets) => write!(
                f,
                "it has {buckets} output layers; expected none named (0) for architecture {ARCHITECTURE} and {BUCKETS} for architectures {ARCHITECTURE_BUCKETS} and {ARCHITECTURE_XIANGQI}"
            ),
            FormatError::Shape { inputs, hidden } => write!(
                f,
                "it has {inputs} inputs and {hidden} hidden units; expected {INPUTS} inputs (chess) or {} (xiangqi) and a multiple of 16 up to {MAX_HIDDEN} hidden units",
                Game::Xiangqi.inputs()
            ),
            FormatError::Quantisation { qa, qb, scale } => write!(
                f,
                "it is quantised with QA {qa}, QB {qb}, scale {scale}; expected QA {QA}, QB {QB} and a scale from 1 to 10000"
            ),
            FormatError::LayoutHash => write!(f, "its layout hash does not match the layout its header describes"),
            FormatError::Body { promised, found } => write!(
                f,
                "its header promises a body of {promised} bytes but {found} follow (a truncated or padded file)"
            ),
            FormatError::Damaged => write!(f, "its body does not match its checksum (a damaged file)"),
            FormatError::OutOfRange(what) => write!(f, "its {what} are out of the range this plugin evaluates safely"),
        }
    }
}

impl std::error::Error for FormatError {}

/// The text the layout hash is taken of: every fact of the header a reader
/// must agree with.
pub fn layout(game: Game, hidden: usize, scale: i32, buckets: usize) -> String {
    if game == Game::Xiangqi {
        let inputs = game.inputs();
        format!(
            "plugboard-nnue v{FORMAT_VERSION} arch {ARCHITECTURE_XIANGQI}: xiangqi ({inputs} -> {hidden}) x 2 -> 1 \
             of {buckets} by (pieces - 2) / 4, screlu; inputs own/other x 7 kinds x 90 points, the second \
             player's ranks mirrored; qa {QA}, qb {QB}, scale {scale}; i16 input weights [input][hidden], \
             i16 input bias [hidden], i16 output weights [bucket][2][hidden] (side to move first), i32 output \
             bias [bucket]"
        )
    } else if buckets == 1 {
        format!(
            "plugboard-nnue v{FORMAT_VERSION} arch {ARCHITECTURE}: ({INPUTS} -> {hidden}) x 2 -> 1, screlu; \
             qa {QA}, qb {QB}, scale {scale}; i16 input weights [input][hidden], i16 input bias [hidden], \
             i16 output weights [2][hidden] (side to move first), i32 output bias"
        )
    } else {
        format!(
            "plugboard-nnue v{FORMAT_VERSION} arch {ARCHITECTURE_BUCKETS}: ({INPUTS} -> {hidden}) x 2 -> 1 \
             of {buckets} by (pieces - 2) / 4, screlu; qa {QA}, qb {QB}, scale {scale}; i16 input weights \
             [input][hidden], i16 input bias [hidden], i16 output weights [bucket][2][hidden] (side to move \
             first), i32 output bias [bucket]"
        )
    }
}

/// FNV-1a, 64 bits: enough to tell a damaged file, with no dependency.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3))
}

fn body_len(game: Game, hidden: usize, buckets: usize) -> usize {
    2 * (game.inputs() * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

impl Network {
    /// A chess network from its parts, checked as a file's would be.
    pub fn new(
        hidden: usize,
        scale: i32,
        input_weights: Vec<i16>,
        input_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Result<Network, FormatError> {
        Network::for_game(Game::Chess, hidden, scale, input_weights, input_bias, output_weights, output_bias)
    }

    /// A network of `game` from its parts, checked as a file's would be.
    pub fn for_game(
        game: Game,
        hidden: usize,
        scale: i32,
        input_weights: Vec<i16>,
        input_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Result<Network, FormatError> {
        let buckets = output_bias.len();
        if (buckets != 1 || game == Game::Xiangqi) && buckets != BUCKETS {
            return Err(FormatError::Buckets(buckets as u32));
        }
        let inputs = game.inputs();
        if hidden == 0 || !hidden.is_multiple_of(16) || hidden > MAX_HIDDEN {
            return Err(FormatError::Shape { inputs: inputs as u32, hidden: hidden as u32 });
        }
        if !(1..=10_000).contains(&scale) {
            return Err(FormatError::Quantisation { qa: QA as u32, qb: QB as u32, scale: scale as u32 });
        }
        if input_weights.len() != inputs * hidden
            || input_bias.len() != hidden
            || output_weights.len() != buckets * 2 * hidden
        {
            return Err(FormatError::Shape { inputs: (input_weights.len() / hidden) as u32, hidden: hidden as u32 });
        }
        let within = |values: &[i16], limit: i16| values.iter().all(|&v| v.unsigned_abs() <= limit.unsigned_abs());
        if !within(&input_weights, MAX_INPUT_WEIGHT) {
            return Err(FormatError::OutOfRange("input weights"));
        }
        if !within(&input_bias, MAX_INPUT_BIAS) {
            return Err(FormatError::OutOfRange("input biases"));
        }
        if !within(&output_weights, MAX_OUTPUT_WEIGHT) {
            return Err(FormatError::OutOfRange("output weights"));
        }
        Ok(Network { game, hidden, scale, input_weights, input_bias, buckets, output_weights, output_bias })
    }

    /// Reads a whole network file that must be of `game`.
    pub fn from_bytes_of(bytes: &[u8], game: Game) -> Result<Network, FormatError> {
        let network = Network::from_bytes(bytes)?;
        if network.game != game {
            return Err(FormatError::WrongGame { found: network.game, wanted: game });
        }
        Ok(network)
    }

    /// Reads a whole network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, FormatError> {
        if bytes.len() < HEADER_SIZE {
            return Err(FormatError::TooShort(bytes.len()));
        }
        let (header, body) = bytes.split_at(HEADER_SIZE);
        if header[..8] != MAGIC {
            return Err(FormatError::NotANetwork);
        }
        let word = |at: usize| u32::from_le_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]]);
        let long = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().unwrap_or([0; 8]));
        let version = word(8);
        if version != FORMAT_VERSION {
            return Err(FormatError::Version(version));
        }
        let architecture = word(12);
        let (game, buckets) = match (architecture, word(36)) {
            (ARCHITECTURE, 0) => (Game::Chess, 1),
            (ARCHITECTURE_BUCKETS, b) if b as usize == BUCKETS => (Game::Chess, BUCKETS),
            (ARCHITECTURE_XIANGQI, b) if b as usize == BUCKETS => (Game::Xiangqi, BUCKETS),
            (ARCHITECTURE | ARCHITECTURE_BUCKETS | ARCHITECTURE_XIANGQI, b) => return Err(FormatError::Buckets(b)),
            _ => return Err(FormatError::Architecture(architecture)),
        };
        let (inputs, hidden) = (word(16), word(20));
        if inputs as usize != game.inputs() || hidden == 0 || !hidden.is_multiple_of(16) || hidden as usize > MAX_HIDDEN
        {
            return Err(FormatError::Shape { inputs, hidden });
        }
        let (qa, qb, scale) = (word(24), word(28), word(32));
        if qa != QA as u32 || qb != QB as u32 || !(1..=10_000).contains(&scale) {
            return Err(FormatError::Quantisation { qa, qb, scale });
        }
        let hidden = hidden as usize;
        let scale = scale as i32;
        if long(40) != fnv1a(layout(game, hidden, scale, buckets).as_bytes()) {
            return Err(FormatError::LayoutHash);
        }
        let promised = long(48);
        if promised != body_len(game, hidden, buckets) as u64 || body.len() as u64 != promised {
            return Err(FormatError::Body { promised, found: body.len() });
        }
        if long(56) != fnv1a(body) {
            return Err(FormatError::Damaged);
        }
        let mut values = body.chunks_exact(2).map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let input_weights: Vec<i16> = values.by_ref().take(game.inputs() * hidden).collect();
        let input_bias: Vec<i16> = values.by_ref().take(hidden).collect();
        let output_weights: Vec<i16> = values.by_ref().take(buckets * 2 * hidden).collect();
        let tail = &body[body.len() - 4 * buckets..];
        let output_bias = tail.chunks_exact(4).map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        Network::for_game(game, hidden, scale, input_weights, input_bias, output_weights, output_bias)
    }

    /// The file's bytes: header and body.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(body_len(self.game, self.hidden, self.buckets));
        for value in self.input_weights.iter().chain(&self.input_bias).chain(&self.output_weights) {
            body.extend_from_slice(&value.to_le_bytes());
        }
        for bias in &self.output_bias {
            body.extend_from_slice(&bias.to_le_bytes());
        }
        let (architecture, buckets_field) = match (self.game, self.buckets) {
            (Game::Xiangqi, buckets) => (ARCHITECTURE_XIANGQI, buckets as u32),
            (Game::Chess, 1) => (ARCHITECTURE, 0),
            (Game::Chess, buckets) => (ARCHITECTURE_BUCKETS, buckets as u32),
        };
        let mut bytes = Vec::with_capacity(HEADER_SIZE + body.len());
        bytes.extend_from_slice(&MAGIC);
        for word in [FORMAT_VERSION, architecture, self.game.inputs() as u32, self.hidden as u32, QA as u32, QB as u32]
        {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        bytes.extend_from_slice(&(self.scale as u32).to_le_bytes());
        bytes.extend_from_slice(&buckets_field.to_le_bytes());
        bytes.extend_from_slice(
            &fnv1a(layout(self.game, self.hidden, self.scale, self.buckets).as_bytes()).to_le_bytes(),
        );
        bytes.extend_from_slice(&(body.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&fnv1a(&body).to_le_bytes());
        bytes.extend_from_slice(&body);
        bytes
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    pub fn game(&self) -> Game {
        self.game
    }

    pub fn scale(&self) -> i32 {
        self.scale
    }

    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The integer weights in file order: input weights, input biases, output
    /// weights, output biases (the layouts of the fields), for a trainer that
    /// starts from a network already made.
    pub fn weights(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        (&self.input_weights, &self.input_bias, &self.output_weights, &self.output_bias)
    }

    /// The architecture in words, for messages: `(768 → 128) × 2 → 1`.
    pub fn describe(&self) -> String {
        let inputs = self.game.inputs();
        match (self.game, self.buckets) {
            (Game::Chess, 1) => format!("({inputs} → {}) × 2 → 1", self.hidden),
            (Game::Chess, buckets) => format!("({inputs} → {}) × 2 → 1 of {buckets} by piece count", self.hidden),
            (Game::Xiangqi, buckets) => {
                format!("xiangqi ({inputs} → {}) × 2 → 1 of {buckets} by piece count", self.hidden)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Network {
        let hidden = 16;
        let input_weights = (0..INPUTS * hidden).map(|i| (i % 61) as i16 - 30).collect();
        let input_bias = (0..hidden).map(|i| i as i16 * 3).collect();
        let output_weights = (0..2 * hidden).map(|i| (i % 19) as i16 - 9).collect();
        Network::new(hidden, 400, input_weights, input_bias, output_weights, vec![-1234]).unwrap()
    }

    fn bucketed() -> Network {
        let small = small();
        let output_weights = (0..BUCKETS * 2 * small.hidden).map(|i| (i % 23) as i16 - 11).collect();
        let output_bias = (0..BUCKETS as i32).map(|b| b * 1000 - 3000).collect();
        Network::new(small.hidden, 300, small.input_weights, small.input_bias, output_weights, output_bias).unwrap()
    }

    #[test]
    fn a_network_reads_back_as_written() {
        for network in [small(), bucketed()] {
            assert_eq!(Network::from_bytes(&network.to_bytes()), Ok(network));
        }
    }

    #[test]
    fn a_bucketed_file_must_say_its_buckets() {
        let bytes = bucketed().to_bytes();
        assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()), ARCHITECTURE_BUCKETS);
        let mut other = bytes.clone();
        other[36] = 4;
        assert_eq!(Network::from_bytes(&other), Err(FormatError::Buckets(4)));
        // A one-layer header over a bucketed body.
        let mut other = bytes.clone();
        other[12] = ARCHITECTURE as u8;
        other[36] = 0;
        assert_eq!(Network::from_bytes(&other), Err(FormatError::LayoutHash));
        assert!(Network::new(16, 400, vec![0; INPUTS * 16], vec![0; 16], vec![0; 3 * 32], vec![0; 3]).is_err());
    }

    #[test]
    fn boards_are_bucketed_by_their_piece_count() {
        assert_eq!((bucket(2, 8), bucket(5, 8), bucket(6, 8), bucket(29, 8), bucket(32, 8)), (0, 0, 1, 6, 7));
        assert_eq!(bucket(32, 1), 0);
    }

    #[test]
    fn every_kind_of_wrong_file_is_refused_with_what_was_expected() {
        let bytes = small().to_bytes();
        assert_eq!(Network::from_bytes(&bytes[..10]), Err(FormatError::TooShort(10)));
        assert_eq!(
            Network::from_bytes(b"PK\x03\x04 a zip file, not a network, but long enough to have a header ..."),
            Err(FormatError::NotANetwork)
        );
        let mut other = bytes.clone();
        other[8] = 2;
        assert_eq!(Network::from_bytes(&other), Err(FormatError::Version(2)));
        let mut other = bytes.clone();
        other[12] = 7;
        assert_eq!(Network::from_bytes(&other), Err(FormatError::Architecture(7)));
        let mut other = bytes.clone();
        other[20] = 32;
        assert_eq!(Network::from_bytes(&other), Err(FormatError::LayoutHash));
        let truncated = &bytes[..bytes.len() - 100];
        assert!(matches!(Network::from_bytes(truncated), Err(FormatError::Body { .. })));
        let mut other = bytes.clone();
        let last = other.len() - 7;
        other[last] ^= 1;
        assert_eq!(Network::from_bytes(&other), Err(FormatError::Damaged));
        let message = FormatError::Architecture(7).to_string();
        assert!(message.contains("(768 → N) × 2 → 1"), "{message}");
    }

    #[test]
    fn weights_that_could_overflow_the_sums_are_refused() {
        let mut network = small();
        network.output_weights[3] = 600;
        let bytes = network.to_bytes();
        assert_eq!(Network::from_bytes(&bytes), Err(FormatError::OutOfRange("output weights")));
    }
}
