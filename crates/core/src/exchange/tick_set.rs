//! Which ladder ticks of one book side hold orders: 350 bits in six words, so the next
//! occupied price is found with a `leading_zeros`/`trailing_zeros` per word instead of a scan
//! over empty levels.
//!
//! Worked example: backs rest at ticks 10 and 130 (a lay takes the lowest-priced back first).
//! The back at tick 10 fills up and leaves; the next best is the lowest occupied tick at or
//! above 11: word 0 (ticks 0–63) masked from bit 11 is empty, word 1 (64–127) is empty, word 2
//! has bit 2 set, so it is tick 130, found in three word reads rather than 120 level checks.
//!
//! ```text
//! word 0  ……0000_0100_0000_0000   bit 10 (removed)  → masked from bit 11: 0
//! word 1  0                                          → 0
//! word 2  ……0100                  bit 2 = tick 130   → trailing_zeros = 2 → 2·64 + 2
//! ```

use crate::odds::TICK_COUNT;

const WORDS: usize = TICK_COUNT.div_ceil(64);

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct TickSet {
    words: [u64; WORDS],
}

impl TickSet {
    pub(super) fn insert(&mut self, tick: usize) {
        self.words[tick / 64] |= 1 << (tick % 64);
    }

    pub(super) fn remove(&mut self, tick: usize) {
        self.words[tick / 64] &= !(1 << (tick % 64));
    }

    /// The highest occupied tick `≤ tick`.
    pub(super) fn highest_at_or_below(&self, tick: usize) -> Option<usize> {
        let tick = tick.min(TICK_COUNT - 1);
        let mut index = tick / 64;
        let mut word = self.words[index] & (u64::MAX >> (63 - tick % 64));
        loop {
            if word != 0 {
                return Some(index * 64 + 63 - word.leading_zeros() as usize);
            }
            index = index.checked_sub(1)?;
            word = self.words[index];
        }
    }

    /// The lowest occupied tick `≥ tick`.
    pub(super) fn lowest_at_or_above(&self, tick: usize) -> Option<usize> {
        if tick >= TICK_COUNT {
            return None;
        }
        let mut index = tick / 64;
        let mut word = self.words[index] & (u64::MAX << (tick % 64));
        loop {
            if word != 0 {
                return Some(index * 64 + word.trailing_zeros() as usize);
            }
            index += 1;
            word = *self.words.get(index)?;
        }
    }

    /// Every occupied tick, lowest first.
    pub(super) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        let mut next = self.lowest_at_or_above(0);
        std::iter::from_fn(move || {
            let tick = next?;
            next = self.lowest_at_or_above(tick + 1);
            Some(tick)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_neighbours_across_words() {
        let mut set = TickSet::default();
        assert_eq!(set.highest_at_or_below(349), None);
        assert_eq!(set.lowest_at_or_above(0), None);
        for tick in [0, 63, 64, 200, 349] {
            set.insert(tick);
        }
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![0, 63, 64, 200, 349]);
        assert_eq!(set.highest_at_or_below(349), Some(349));
        assert_eq!(set.highest_at_or_below(348), Some(200));
        assert_eq!(set.highest_at_or_below(199), Some(64));
        assert_eq!(set.highest_at_or_below(63), Some(63));
        assert_eq!(set.highest_at_or_below(62), Some(0));
        assert_eq!(set.lowest_at_or_above(1), Some(63));
        assert_eq!(set.lowest_at_or_above(65), Some(200));
        assert_eq!(set.lowest_at_or_above(201), Some(349));
        assert_eq!(set.lowest_at_or_above(350), None);
        set.remove(0);
        set.remove(349);
        assert_eq!(set.highest_at_or_below(62), None);
        assert_eq!(set.lowest_at_or_above(201), None);
    }

    #[test]
    fn agrees_with_a_scan() {
        let mut set = TickSet::default();
        let occupied: Vec<usize> = (0..TICK_COUNT).filter(|t| t % 7 == 3 || t % 61 == 0).collect();
        for &tick in &occupied {
            set.insert(tick);
        }
        for tick in 0..TICK_COUNT {
            let below = occupied.iter().rev().find(|&&o| o <= tick).copied();
            let above = occupied.iter().find(|&&o| o >= tick).copied();
            assert_eq!(set.highest_at_or_below(tick), below, "{tick}");
            assert_eq!(set.lowest_at_or_above(tick), above, "{tick}");
        }
    }
}
