//! The arithmetic of inference: adding and taking away input weights in an
//! accumulator, and the output layer. Each is written once, as integer code the
//! compiler vectorises, and compiled twice on x86-64: for the baseline (SSE2)
//! and for AVX2, chosen at run time. Integer sums are exact in any order, so
//! both give the same scores; a test holds them to it.

use crate::network::QA;

/// Writes into `accumulator` the accumulator `parent` with the weight rows
/// `adds` added and the rows `subs` taken away.
pub type ApplyFn = fn(accumulator: &mut [i16], parent: &[i16], weights: &[i16], adds: &[usize], subs: &[usize]);

/// The output layer's sum for the side to move's accumulator `us` and the
/// other's `them`, before the bias and the scaling.
pub type OutputFn = fn(us: &[i16], them: &[i16], weights: &[i16]) -> i64;

/// The kernels one evaluator uses, chosen when it is made.
#[derive(Clone, Copy)]
pub struct Kernels {
    pub apply: ApplyFn,
    pub output: OutputFn,
    pub name: &'static str,
}

impl Kernels {
    /// The fastest kernels this processor runs.
    pub fn detect() -> Kernels {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Kernels { apply: x86::apply_avx2, output: x86::output_avx2, name: "avx2" };
        }
        Kernels::portable()
    }

    /// The kernels every processor runs.
    pub fn portable() -> Kernels {
        Kernels { apply: apply_portable, output: output_portable, name: "portable" }
    }
}

fn apply_portable(accumulator: &mut [i16], parent: &[i16], weights: &[i16], adds: &[usize], subs: &[usize]) {
    apply_body(accumulator, parent, weights, adds, subs);
}

fn output_portable(us: &[i16], them: &[i16], weights: &[i16]) -> i64 {
    output_body(us, them, weights)
}

/// One pass over memory: the accumulator is built a tile at a time in
/// registers, from the parent's tile and the rows' tiles, and stored once.
/// Wrapping arithmetic: the end result is exact whenever it is in range (the
/// network's bounds see to that), even if a sum on the way is not.
#[inline(always)]
fn apply_body(accumulator: &mut [i16], parent: &[i16], weights: &[i16], adds: &[usize], subs: &[usize]) {
    let hidden = accumulator.len();
    let mut start = 0;
    // Hidden sizes are multiples of 16 (the network file says so), so wide
    // tiles and then 16-wide ones cover every accumulator.
    while start + WIDE_TILE <= hidden {
        apply_tile::<WIDE_TILE>(accumulator, parent, weights, adds, subs, start);
        start += WIDE_TILE;
    }
    while start + 16 <= hidden {
        apply_tile::<16>(accumulator, parent, weights, adds, subs, start);
        start += 16;
    }
}

/// `i16`s a tile holds: four AVX2 registers.
const WIDE_TILE: usize = 64;

#[inline(always)]
fn apply_tile<const N: usize>(
    accumulator: &mut [i16],
    parent: &[i16],
    weights: &[i16],
    adds: &[usize],
    subs: &[usize],
    start: usize,
) {
    let hidden = accumulator.len();
    let mut tile: [i16; N] = parent[start..start + N].try_into().expect("a tile is inside the accumulator");
    for &input in adds {
        let row = &weights[input * hidden + start..input * hidden + start + N];
        for (value, weight) in tile.iter_mut().zip(row) {
            *value = value.wrapping_add(*weight);
        }
    }
    for &input in subs {
        let row = &weights[input * hidden + start..input * hidden + start + N];
        for (value, weight) in tile.iter_mut().zip(row) {
            *value = value.wrapping_sub(*weight);
        }
    }
    accumulator[start..start + N].copy_from_slice(&tile);
}

#[inline(always)]
fn output_body(us: &[i16], them: &[i16], weights: &[i16]) -> i64 {
    let hidden = us.len();
    half(us, &weights[..hidden]) + half(them, &weights[hidden..2 * hidden])
}

/// Σ clip(a)² · w over one accumulator, in 16 `i32` lanes that are moved on to
/// an `i64` every [`LANE_TERMS`] products: each product is at most 255² · 507.
#[inline(always)]
fn half(accumulator: &[i16], weights: &[i16]) -> i64 {
    let block = 16 * LANE_TERMS;
    let mut total = 0i64;
    for (values, weights) in accumulator.chunks(block).zip(weights.chunks(block)) {
        let mut lanes = [0i32; 16];
        for (values, weights) in values.chunks_exact(16).zip(weights.chunks_exact(16)) {
            for lane in 0..16 {
                let clipped = i32::from(values[lane]).clamp(0, QA);
                lanes[lane] += clipped * clipped * i32::from(weights[lane]);
            }
        }
        total += lanes.iter().map(|&lane| i64::from(lane)).sum::<i64>();
    }
    total
}

/// Products a lane holds before it is moved on: 64 · 255² · 507 < 2³¹.
const LANE_TERMS: usize = 64;

#[cfg(target_arch = "x86_64")]
mod x86 {
    // Each safe wrapper is only ever put into `Kernels` by `Kernels::detect`,
    // after it found AVX2.

    pub(super) fn apply_avx2(accumulator: &mut [i16], parent: &[i16], weights: &[i16], adds: &[usize], subs: &[usize]) {
        // SAFETY: only reachable through Kernels::detect, which saw AVX2.
        unsafe { apply(accumulator, parent, weights, adds, subs) }
    }

    pub(super) fn output_avx2(us: &[i16], them: &[i16], weights: &[i16]) -> i64 {
        // SAFETY: as above.
        unsafe { output(us, them, weights) }
    }

    #[target_feature(enable = "avx2")]
    fn apply(accumulator: &mut [i16], parent: &[i16], weights: &[i16], adds: &[usize], subs: &[usize]) {
        super::apply_body(accumulator, parent, weights, adds, subs);
    }

    #[target_feature(enable = "avx2")]
    fn output(us: &[i16], them: &[i16], weights: &[i16]) -> i64 {
        super::output_body(us, them, weights)
    }
}
