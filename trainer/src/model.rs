//! The network in floating point, as it is trained: the same `(inputs → hidden)
//! × 2 → 1` shape with squared clipped ReLU as the plugin's (768 inputs for
//! chess, 1260 for xiangqi), its loss and gradients, and its rounding into the
//! plugin's integer [`Network`].
//!
//! All parameters sit in one vector, `[input weights inputs × hidden | input
//! biases | output weights buckets × 2 × hidden | output biases buckets]`, so
//! the optimiser and the checkpoints treat them as one.

use plugboard_eval_nnue::{
    Game, Network,
    network::{self, MAX_INPUT_BIAS, MAX_INPUT_WEIGHT, MAX_OUTPUT_WEIGHT, QA, QB},
    random::SplitMix64,
};

use crate::data::{Sample, TrainingPosition};

/// Centipawns per unit of the network's output.
pub const SCALE: f32 = 400.0;
/// Weights are kept within this range so that, rounded, they stay within the
/// bounds the plugin's integer sums are safe for.
pub const CLIP: f32 = 1.98;

#[derive(Clone)]
pub struct Model {
    pub game: Game,
    pub hidden: usize,
    /// Output layers: 1, or [`network::BUCKETS`] chosen by piece count.
    pub buckets: usize,
    pub params: Vec<f32>,
}

/// What one sample taught: its loss, and its gradient added to a buffer.
pub struct Scratch {
    ours: Vec<f32>,
    theirs: Vec<f32>,
}

impl Scratch {
    pub fn new(hidden: usize) -> Scratch {
        Scratch { ours: vec![0.0; hidden], theirs: vec![0.0; hidden] }
    }
}

pub fn parameter_count(game: Game, hidden: usize, buckets: usize) -> usize {
    game.inputs() * hidden + hidden + buckets * (2 * hidden + 1)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What the network is taught to predict.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// The score's share; the game's result has the rest.
    pub lambda: f32,
    /// The centipawns that turn a score into an expected result, sigmoid(cp /
    /// k), for the labels and for the network's own scores alike, so the
    /// network's centipawns keep the scale the labels have.
    pub k: f32,
}

/// The `k` whose sigmoid(score / k) best predicts the games' results from the
/// scores (least squares, in steps of 5 cp), over an even spread of at most a
/// million of `records`. Scores past 3000 cp (mates, lost causes) tell little
/// about the scale and are left out.
pub fn fitted_k<P: TrainingPosition>(records: &[P]) -> Option<f32> {
    let step = records.len().div_ceil(1_000_000).max(1);
    let pairs: Vec<(f64, f64)> = records
        .iter()
        .step_by(step)
        .map(|record| record.labels())
        .filter(|(score, _)| score.unsigned_abs() < 3000)
        .map(|(score, outcome)| (f64::from(score), f64::from(outcome.white_score())))
        .collect();
    if pairs.is_empty() {
        return None;
    }
    let error = |k: f64| -> f64 {
        pairs.iter().map(|&(score, result)| (1.0 / (1.0 + (-score / k).exp()) - result).powi(2)).sum()
    };
    (10..=400)
        .map(|step| f64::from(step) * 5.0)
        .map(|k| (k, error(k)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(k, _)| k as f32)
}

impl Target {
    /// A sample's score, read as an expected result, blended with its game's result.
    pub fn of(&self, sample: &Sample) -> f32 {
        self.lambda * sigmoid(sample.score / self.k) + (1.0 - self.lambda) * sample.result
    }
}

impl Model {
    pub fn new(game: Game, hidden: usize, buckets: usize, random: &mut SplitMix64) -> Model {
        let mut params = vec![0.0; parameter_count(game, hidden, buckets)];
        let inputs = game.inputs();
        // About 32 inputs are active at once: scale their weights for that many.
        let input_range = 1.0 / (32f32).sqrt();
        for weight in &mut params[..inputs * hidden] {
            *weight = random.symmetric() * input_range;
        }
        let output_range = 1.0 / ((2 * hidden) as f32).sqrt();
        let outputs = inputs * hidden + hidden;
        for weight in &mut params[outputs..outputs + buckets * 2 * hidden] {
            *weight = random.symmetric() * output_range;
        }
        Model { game, hidden, buckets, params }
    }

    /// The float model a shipped network rounds from, so that training can go
    /// on from it (on data of a later round) rather than from random weights:
    /// each weight divided by the scale [`Model::quantise`] multiplies it by.
    pub fn from_network(network: &Network) -> Result<Model, String> {
        if network.scale() != SCALE as i32 {
            return Err(format!("its output scale is {}, the trainer's {SCALE}", network.scale()));
        }
        let (input_weights, input_bias, output_weights, output_bias) = network.weights();
        let by = |values: &[i16], scale: i32| values.iter().map(|&v| f32::from(v) / scale as f32).collect::<Vec<_>>();
        let mut params = by(input_weights, QA);
        params.extend(by(input_bias, QA));
        params.extend(by(output_weights, QB));
        params.extend(output_bias.iter().map(|&bias| bias as f32 / (QA * QB) as f32));
        Ok(Model { game: network.game(), hidden: network.hidden(), buckets: network.buckets(), params })
    }

    fn split(&self) -> (&[f32], &[f32], &[f32], &[f32]) {
        let hidden = self.hidden;
        let (input_weights, rest) = self.params.split_at(self.game.inputs() * hidden);
        let (input_bias, rest) = rest.split_at(hidden);
        let (output_weights, output_bias) = rest.split_at(self.buckets * 2 * hidden);
        (input_weights, input_bias, output_weights, output_bias)
    }

    /// The output layer a sample is scored by: its weights and its bias's index.
    fn bucket(&self, sample: &Sample) -> usize {
        network::bucket(sample.count as u32, self.buckets)
    }

    fn accumulate(&self, inputs: &[u16], into: &mut [f32]) {
        let (input_weights, input_bias, _, _) = self.split();
        into.copy_from_slice(input_bias);
        for &input in inputs {
            let row = &input_weights[usize::from(input) * self.hidden..][..self.hidden];
            for (value, weight) in into.iter_mut().zip(row) {
                *value += weight;
            }
        }
    }

    /// The network's output before the sigmoid, in units of [`SCALE`] centipawns.
    fn output(&self, sample: &Sample, scratch: &mut Scratch) -> f32 {
        self.accumulate(&sample.ours[..sample.count], &mut scratch.ours);
        self.accumulate(&sample.theirs[..sample.count], &mut scratch.theirs);
        let (_, _, output_weights, output_bias) = self.split();
        let bucket = self.bucket(sample);
        let layer = &output_weights[bucket * 2 * self.hidden..(bucket + 1) * 2 * self.hidden];
        let (ours, theirs) = layer.split_at(self.hidden);
        let half = |values: &[f32], weights: &[f32]| -> f32 {
            values.iter().zip(weights).map(|(v, w)| v.clamp(0.0, 1.0).powi(2) * w).sum()
        };
        output_bias[bucket] + half(&scratch.ours, ours) + half(&scratch.theirs, theirs)
    }

    /// The score in centipawns for the side to move.
    pub fn centipawns(&self, sample: &Sample, scratch: &mut Scratch) -> f32 {
        self.output(sample, scratch) * SCALE
    }

    /// The sample's squared error, without learning from it.
    pub fn loss(&self, sample: &Sample, target: Target, scratch: &mut Scratch) -> f32 {
        let predicted = sigmoid(self.output(sample, scratch) * SCALE / target.k);
        (predicted - target.of(sample)).powi(2)
    }

    /// The sample's squared error, and its gradient added to `gradient`.
    pub fn learn(&self, sample: &Sample, target: Target, scratch: &mut Scratch, gradient: &mut [f32]) -> f32 {
        let hidden = self.hidden;
        let output = self.output(sample, scratch);
        let predicted = sigmoid(output * SCALE / target.k);
        let error = predicted - target.of(sample);
        let d_output = 2.0 * error * predicted * (1.0 - predicted) * SCALE / target.k;
        let (_, _, output_weights, _) = self.split();
        let bucket = self.bucket(sample);
        let output_weights = &output_weights[bucket * 2 * hidden..(bucket + 1) * 2 * hidden];
        let (input_gradient, rest) = gradient.split_at_mut(self.game.inputs() * hidden);
        let (bias_gradient, rest) = rest.split_at_mut(hidden);
        let (output_gradient, output_bias_gradient) = rest.split_at_mut(self.buckets * 2 * hidden);
        let output_gradient = &mut output_gradient[bucket * 2 * hidden..(bucket + 1) * 2 * hidden];
        output_bias_gradient[bucket] += d_output;
        for (side, values) in [&mut scratch.ours, &mut scratch.theirs].into_iter().enumerate() {
            let weights = &output_weights[side * hidden..(side + 1) * hidden];
            let gradients = &mut output_gradient[side * hidden..(side + 1) * hidden];
            // From here on `values` holds the gradient of the loss by each accumulator value.
            for ((value, weight), g) in values.iter_mut().zip(weights).zip(gradients) {
                let clipped = value.clamp(0.0, 1.0);
                *g += d_output * clipped * clipped;
                *value = if *value > 0.0 && *value < 1.0 { d_output * weight * 2.0 * clipped } else { 0.0 };
            }
            for (g, d) in bias_gradient.iter_mut().zip(values.iter()) {
                *g += d;
            }
            let inputs = if side == 0 { &sample.ours[..sample.count] } else { &sample.theirs[..sample.count] };
            for &input in inputs {
                let row = &mut input_gradient[usize::from(input) * hidden..][..hidden];
                for (g, d) in row.iter_mut().zip(values.iter()) {
                    *g += d;
                }
            }
        }
        error * error
    }

    /// Keeps every weight within [`CLIP`] (the output biases are not bounded).
    pub fn clip(&mut self) {
        let weights = self.params.len() - self.buckets;
        for weight in &mut self.params[..weights] {
            *weight = weight.clamp(-CLIP, CLIP);
        }
    }

    /// The plugin's integer network: input weights and biases times QA, output
    /// weights times QB, the output biases times QA·QB.
    pub fn quantise(&self) -> Result<Network, String> {
        let (input_weights, input_bias, output_weights, output_bias) = self.split();
        let round = |values: &[f32], scale: i32, limit: i16| -> Vec<i16> {
            values
                .iter()
                .map(|v| (v * scale as f32).round().clamp(-f32::from(limit), f32::from(limit)) as i16)
                .collect()
        };
        Network::for_game(
            self.game,
            self.hidden,
            SCALE as i32,
            round(input_weights, QA, MAX_INPUT_WEIGHT),
            round(input_bias, QA, MAX_INPUT_BIAS),
            round(output_weights, QB, MAX_OUTPUT_WEIGHT),
            output_bias.iter().map(|bias| (bias * (QA * QB) as f32).round() as i32).collect(),
        )
        .map_err(|why| why.to_string())
    }
}
