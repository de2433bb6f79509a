//! SplitMix64, the one seedable generator of the network's tool chain: the data
//! generator draws openings from it and the trainer draws weights and the order
//! of positions, so that a seed names one game or one network on any machine.

const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// One SplitMix64 output for the state `z`: a well-mixed hash of a number.
pub fn mix(z: u64) -> u64 {
    let mut z = z.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[derive(Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The stream for one numbered item (a game) of a seeded run.
    pub fn for_item(seed: u64, item: u32) -> SplitMix64 {
        SplitMix64(seed ^ u64::from(item).wrapping_mul(GOLDEN_GAMMA))
    }

    pub fn next_u64(&mut self) -> u64 {
        let output = mix(self.0);
        self.0 = self.0.wrapping_add(GOLDEN_GAMMA);
        output
    }

    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }

    /// Uniform in `0.0..1.0`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `-1.0..1.0`.
    pub fn symmetric(&mut self) -> f32 {
        ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_splitmix64() {
        // The first outputs for seed 1234567 in the published reference implementation.
        let mut random = SplitMix64(1_234_567);
        assert_eq!(random.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(random.next_u64(), 3_203_168_211_198_807_973);
    }
}
