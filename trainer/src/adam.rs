//! Adam, over the model's one vector of parameters.

pub struct Adam {
    pub step: u64,
    pub first: Vec<f32>,
    pub second: Vec<f32>,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl Adam {
    pub fn new(parameters: usize) -> Adam {
        Adam { step: 0, first: vec![0.0; parameters], second: vec![0.0; parameters] }
    }

    /// One step down `gradient` (the batch's mean) at rate `rate`.
    pub fn update(&mut self, params: &mut [f32], gradient: &[f32], rate: f32) {
        self.step += 1;
        let t = self.step.min(i32::MAX as u64) as i32;
        let correction = (1.0 - BETA2.powi(t)).sqrt() / (1.0 - BETA1.powi(t));
        let step = rate * correction;
        for (((p, g), m), v) in params.iter_mut().zip(gradient).zip(&mut self.first).zip(&mut self.second) {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p -= step * *m / (v.sqrt() + EPSILON);
        }
    }
}
