//! Partnership: how the house's result against one client is shared up the agent tree.
//!
//! Each agent carries a share of the house's result against its downline (its partnership, in
//! basis points: 10000 = 100%). Shares are cumulative from the bottom: a client's agent at 40%
//! under a master at 70% means the agent takes 40% of the result, the master 70 − 40 = 30%, and
//! the operator what is left, 30%. A child's share is never more than its parent's.
//!
//! Worked example, a client loses 1,000.00 on a fancy (the house's result is +1,000.00):
//!
//! ```
//! use backlay_core::partnership::{split, Level};
//!
//! let chain = [Level { user_id: 7, share_bp: 4000 }, Level { user_id: 3, share_bp: 7000 }];
//! let split = split(1_000_00, &chain).unwrap();
//! assert_eq!(split.levels, vec![(7, 400_00), (3, 300_00)]);
//! assert_eq!(split.operator_minor, 300_00);
//! ```
//!
//! Rounding to the paisa: each level's *cumulative* amount (result × its share) is rounded half
//! to even, and a level takes its cumulative amount minus the one below it. The amounts
//! telescope, so the levels and the operator always add up to the result exactly, and no level's
//! amount has the opposite sign of the result.

use crate::money::mul_div_round_half_even;

/// Basis points in a whole: a share of 10000 is 100%.
pub const WHOLE_BP: u32 = 10_000;

/// One agent above the client, with its partnership.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// The agent's user id.
    pub user_id: i64,
    /// Its partnership, 0..=10000 basis points, cumulative from the bottom.
    pub share_bp: u32,
}

/// The house's result with one client, split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// Each agent's part, in the chain's order (the client's own agent first).
    pub levels: Vec<(i64, i64)>,
    /// What is left for the operator.
    pub operator_minor: i64,
}

/// Why a chain cannot be split.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PartnershipError {
    /// A share above 100%.
    #[error("user {user_id}'s partnership of {share_bp} basis points is more than 100%")]
    AboveWhole {
        /// The agent.
        user_id: i64,
        /// Its share.
        share_bp: u32,
    },
    /// A child's share above its parent's.
    #[error("user {child}'s partnership is more than its parent {parent}'s")]
    ChildAboveParent {
        /// The agent lower in the chain.
        child: i64,
        /// The agent above it.
        parent: i64,
    },
}

/// Splits `house_result_minor` (the house's result against one client: positive when the client
/// lost) along `chain`, the client's agents from its own agent upward to the one below the
/// operator.
pub fn split(house_result_minor: i64, chain: &[Level]) -> Result<Split, PartnershipError> {
    check_chain(chain)?;
    let mut levels = Vec::with_capacity(chain.len());
    let mut below = 0i64;
    for level in chain {
        let cumulative = mul_div_round_half_even(
            house_result_minor,
            i64::from(level.share_bp),
            i64::from(WHOLE_BP),
        )
        .expect("the denominator is positive and a share is at most a whole, so it fits");
        levels.push((level.user_id, cumulative - below));
        below = cumulative;
    }
    Ok(Split { levels, operator_minor: house_result_minor - below })
}

/// A chain is valid when every share is at most 100% and no child's share is above its parent's.
pub fn check_chain(chain: &[Level]) -> Result<(), PartnershipError> {
    for level in chain {
        if level.share_bp > WHOLE_BP {
            return Err(PartnershipError::AboveWhole {
                user_id: level.user_id,
                share_bp: level.share_bp,
            });
        }
    }
    for pair in chain.windows(2) {
        if pair[0].share_bp > pair[1].share_bp {
            return Err(PartnershipError::ChildAboveParent {
                child: pair[0].user_id,
                parent: pair[1].user_id,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(shares: &[u32]) -> Vec<Level> {
        shares
            .iter()
            .enumerate()
            .map(|(i, &share_bp)| Level { user_id: i as i64 + 1, share_bp })
            .collect()
    }

    #[test]
    fn the_worked_example_both_ways() {
        let won = split(-1_000_00, &chain(&[4000, 7000])).unwrap();
        assert_eq!(won.levels, vec![(1, -400_00), (2, -300_00)]);
        assert_eq!(won.operator_minor, -300_00);
    }

    #[test]
    fn no_agents_leaves_everything_to_the_operator() {
        assert_eq!(split(123, &[]).unwrap(), Split { levels: vec![], operator_minor: 123 });
    }

    #[test]
    fn a_paisa_goes_by_half_to_even_of_the_cumulative_amounts() {
        // 1 paisa at 50% rounds to 0 (half to even), at 50% + 25% = 75% to 1.
        let split = split(1, &chain(&[5000, 7500])).unwrap();
        assert_eq!(split.levels, vec![(1, 0), (2, 1)]);
        assert_eq!(split.operator_minor, 0);
    }

    #[test]
    fn a_child_above_its_parent_or_above_a_whole_is_refused() {
        assert_eq!(
            split(100, &chain(&[7000, 4000])),
            Err(PartnershipError::ChildAboveParent { child: 1, parent: 2 })
        );
        assert_eq!(
            split(100, &chain(&[10_001])),
            Err(PartnershipError::AboveWhole { user_id: 1, share_bp: 10_001 })
        );
    }
}
