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

/// One level's part of one client's result, as settlements recorded it (summed as the report
/// needs: over a day, a match, a market).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SplitLine {
    /// The client whose result was split.
    pub client_user_id: i64,
    /// The agent that took this part; None: the operator.
    pub user_id: Option<i64>,
    /// The part (positive: the client lost).
    pub amount_minor: i64,
}

/// What one direct child's downline brought its parent, from the parent's side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChildFigures {
    /// The child (an agent or a client).
    pub child_id: i64,
    /// The house's result against every client under the child (positive: they lost).
    pub house_result_minor: i64,
    /// What the agents at or under the child took of it.
    pub downline_share_minor: i64,
    /// What the viewer took of it.
    pub own_share_minor: i64,
    /// What the viewer's upline (agents above it and the operator) took of it.
    pub upline_share_minor: i64,
    /// What the child owes the viewer after settlement (negative: the viewer owes the child):
    /// everything its downline did not keep.
    pub collect_minor: i64,
}

/// The viewer's P&L with its downline and who owes whom: [`downline_report`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DownlineReport {
    /// One entry per direct child with a result, by child id.
    pub children: Vec<ChildFigures>,
    /// The viewer's own share over all of them.
    pub own_share_minor: i64,
    /// What the viewer owes its parent (negative: is owed): its upline's shares.
    pub pay_upline_minor: i64,
}

impl DownlineReport {
    /// What the children owe the viewer, less what it owes its parent, less its own share: 0 when
    /// the report balances, as it always must.
    pub fn imbalance_minor(&self) -> i64 {
        self.children.iter().map(|c| c.collect_minor).sum::<i64>()
            - self.pay_upline_minor
            - self.own_share_minor
    }
}

/// The report of `viewer` (an agent, or with `viewer_is_operator` the operator at the top) over
/// split lines of clients in its downline. `parent_of` holds the parent of every account in the
/// viewer's downline. Lines of clients outside it are left out.
pub fn downline_report(
    viewer: i64,
    viewer_is_operator: bool,
    parent_of: &std::collections::HashMap<i64, i64>,
    lines: &[SplitLine],
) -> DownlineReport {
    let mut children: std::collections::BTreeMap<i64, ChildFigures> = Default::default();
    let mut report = DownlineReport::default();
    for line in lines {
        // The client's path up to the viewer: the accounts between them, the child last.
        let mut path = vec![line.client_user_id];
        let mut reached = false;
        while let Some(parent) = parent_of.get(path.last().expect("a path starts with the client"))
        {
            if *parent == viewer {
                reached = true;
                break;
            }
            if path.len() > parent_of.len() {
                break; // a cycle in corrupt data: not this viewer's downline
            }
            path.push(*parent);
        }
        if !reached {
            continue;
        }
        let child = *path.last().expect("the path is not empty");
        let figures =
            children.entry(child).or_insert(ChildFigures { child_id: child, ..Default::default() });
        figures.house_result_minor += line.amount_minor;
        match line.user_id {
            Some(id) if id == viewer => figures.own_share_minor += line.amount_minor,
            None if viewer_is_operator => figures.own_share_minor += line.amount_minor,
            Some(id) if path.contains(&id) => figures.downline_share_minor += line.amount_minor,
            _ => figures.upline_share_minor += line.amount_minor,
        }
    }
    for mut figures in children.into_values() {
        figures.collect_minor = figures.house_result_minor - figures.downline_share_minor;
        report.own_share_minor += figures.own_share_minor;
        report.pay_upline_minor += figures.upline_share_minor;
        report.children.push(figures);
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worked_example_seen_from_each_level() {
        // operator → master 3 (70%) → agent 7 (40%) → client 12, who lost 1,000.
        let parent_of = [(3, 1), (7, 3), (12, 7)].into_iter().collect();
        let lines = [
            SplitLine { client_user_id: 12, user_id: Some(7), amount_minor: 400_00 },
            SplitLine { client_user_id: 12, user_id: Some(3), amount_minor: 300_00 },
            SplitLine { client_user_id: 12, user_id: None, amount_minor: 300_00 },
        ];
        let agent = downline_report(7, false, &parent_of, &lines);
        assert_eq!(agent.children[0].collect_minor, 1_000_00, "the agent collects the loss");
        assert_eq!((agent.own_share_minor, agent.pay_upline_minor), (400_00, 600_00));
        let master = downline_report(3, false, &parent_of, &lines);
        assert_eq!(master.children[0].child_id, 7);
        assert_eq!(master.children[0].collect_minor, 600_00);
        assert_eq!((master.own_share_minor, master.pay_upline_minor), (300_00, 300_00));
        let operator = downline_report(1, true, &parent_of, &lines);
        assert_eq!(operator.children[0].collect_minor, 300_00);
        assert_eq!((operator.own_share_minor, operator.pay_upline_minor), (300_00, 0));
        for report in [agent, master, operator] {
            assert_eq!(report.imbalance_minor(), 0);
        }
    }

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
