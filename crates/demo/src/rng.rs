//! The demo's one source of chance: the seeded generator every random draw comes from (the
//! simulated matches, the runner names, the scheduler's new fixtures, the market maker's drift),
//! so that the same seed gives the same demo. Its own module so that the simulator and the
//! fixtures both use it without importing each other.

/// A small, fast, seedable random generator (SplitMix64). Not for anything secret: the demo
/// only needs the same match for the same seed, on every platform.
#[derive(Clone, Debug)]
pub struct DemoRng {
    state: u64,
}

impl DemoRng {
    pub fn new(seed: u64) -> DemoRng {
        DemoRng { state: seed ^ 0x5DEE_CE66_D1CE_4E5B }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`; `n` must be above 0.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "below(0) has no answer");
        (((self.next_u64() >> 32) * u64::from(n)) >> 32) as u32
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}
