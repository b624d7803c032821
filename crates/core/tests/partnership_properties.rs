//! Property tests of the partnership split: whatever the depth and the shares, the parts add up
//! to the house's result to the paisa, no part has the opposite sign, and each level's part is
//! its share of the result less the one below it, within a paisa.

use backlay_core::money::Money;
use std::collections::HashMap;

use backlay_core::partnership::{downline_report, split, Level, SplitLine, WHOLE_BP};
use proptest::prelude::*;

/// A valid chain of up to 8 levels: shares that never fall going up.
fn chain() -> impl Strategy<Value = Vec<Level>> {
    prop::collection::vec(0..=WHOLE_BP, 0..=8).prop_map(|mut shares| {
        shares.sort_unstable();
        shares
            .into_iter()
            .enumerate()
            .map(|(i, share_bp)| Level { user_id: 100 + i as i64, share_bp })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5_000))]

    #[test]
    fn the_parts_sum_to_the_result_exactly(
        result in -Money::MAX_AMOUNT_MINOR..=Money::MAX_AMOUNT_MINOR,
        chain in chain(),
    ) {
        let split = split(result, &chain).unwrap();
        prop_assert_eq!(split.levels.len(), chain.len());
        let total: i64 = split.levels.iter().map(|(_, part)| part).sum::<i64>() + split.operator_minor;
        prop_assert_eq!(total, result);
    }

    #[test]
    fn no_part_has_the_opposite_sign(
        result in -Money::MAX_AMOUNT_MINOR..=Money::MAX_AMOUNT_MINOR,
        chain in chain(),
    ) {
        let split = split(result, &chain).unwrap();
        for part in split.levels.iter().map(|(_, part)| *part).chain([split.operator_minor]) {
            prop_assert!(part == 0 || part.signum() == result.signum(), "{part} of {result}");
        }
    }

    #[test]
    fn each_level_takes_its_share_less_the_one_below_within_a_paisa(
        result in -1_000_000_00i64..=1_000_000_00,
        chain in chain(),
    ) {
        let split = split(result, &chain).unwrap();
        let mut below_bp = 0u32;
        for (level, (user_id, part)) in chain.iter().zip(&split.levels) {
            prop_assert_eq!(*user_id, level.user_id);
            let exact = result as f64 * f64::from(level.share_bp - below_bp) / f64::from(WHOLE_BP);
            prop_assert!((*part as f64 - exact).abs() <= 1.0, "{part} vs {exact}");
            below_bp = level.share_bp;
        }
    }
}

/// A random tree under the operator (id 0): up to 4 agent levels with shares that never rise
/// going down, clients under any agent or the operator, and each client's result.
#[derive(Debug)]
struct Tree {
    /// (id, parent, share_bp); agents only.
    agents: Vec<(i64, i64, u32)>,
    /// (id, parent, result).
    clients: Vec<(i64, i64, i64)>,
}

fn tree() -> impl Strategy<Value = Tree> {
    (
        prop::collection::vec((any::<prop::sample::Index>(), 0..=WHOLE_BP), 0..10),
        prop::collection::vec(
            (any::<prop::sample::Index>(), -1_000_000_00i64..=1_000_000_00),
            1..20,
        ),
    )
        .prop_map(|(agent_specs, client_specs)| {
            let mut agents: Vec<(i64, i64, u32)> = Vec::new();
            let mut depth: HashMap<i64, usize> = HashMap::from([(0, 0)]);
            for (i, (pick, share)) in agent_specs.into_iter().enumerate() {
                let id = 100 + i as i64;
                // The parent: the operator or an agent above level 4.
                let candidates: Vec<(i64, u32)> = std::iter::once((0, WHOLE_BP))
                    .chain(agents.iter().filter(|a| depth[&a.0] < 4).map(|a| (a.0, a.2)))
                    .collect();
                let (parent, cap) = candidates[pick.index(candidates.len())];
                depth.insert(id, depth[&parent] + 1);
                agents.push((id, parent, share.min(cap)));
            }
            let clients = client_specs
                .into_iter()
                .enumerate()
                .map(|(i, (pick, result))| {
                    let parent = if agents.is_empty() {
                        0
                    } else {
                        let k = pick.index(agents.len() + 1);
                        if k == agents.len() {
                            0
                        } else {
                            agents[k].0
                        }
                    };
                    (1000 + i as i64, parent, result)
                })
                .collect();
            Tree { agents, clients }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    /// Settle every client through [`split`], then read the report from every level: each one
    /// balances to zero, what a parent collects from an agent is what that agent pays its
    /// upline, each agent's own share is what the splits gave it, and the operator's share is
    /// the rest of the clients' results.
    #[test]
    fn the_collection_report_agrees_between_levels_and_balances(tree in tree()) {
        let mut parent_of: HashMap<i64, i64> = HashMap::new();
        let mut share_of: HashMap<i64, u32> = HashMap::new();
        for (id, parent, share) in &tree.agents {
            parent_of.insert(*id, *parent);
            share_of.insert(*id, *share);
        }
        let mut lines = Vec::new();
        for (client, parent, result) in &tree.clients {
            parent_of.insert(*client, *parent);
            let mut chain = Vec::new();
            let mut at = *parent;
            while at != 0 {
                chain.push(Level { user_id: at, share_bp: share_of[&at] });
                at = parent_of[&at];
            }
            let parts = split(*result, &chain).unwrap();
            for (user_id, amount) in parts.levels {
                lines.push(SplitLine { client_user_id: *client, user_id: Some(user_id), amount_minor: amount });
            }
            lines.push(SplitLine { client_user_id: *client, user_id: None, amount_minor: parts.operator_minor });
        }
        let operator = downline_report(0, true, &parent_of, &lines);
        prop_assert_eq!(operator.imbalance_minor(), 0);
        prop_assert_eq!(operator.pay_upline_minor, 0);
        let total: i64 = tree.clients.iter().map(|c| c.2).sum();
        let agents_total: i64 = lines.iter().filter(|l| l.user_id.is_some()).map(|l| l.amount_minor).sum();
        prop_assert_eq!(operator.own_share_minor, total - agents_total);
        for (id, parent, _) in &tree.agents {
            let own = downline_report(*id, false, &parent_of, &lines);
            prop_assert_eq!(own.imbalance_minor(), 0);
            let taken: i64 = lines.iter().filter(|l| l.user_id == Some(*id)).map(|l| l.amount_minor).sum();
            prop_assert_eq!(own.own_share_minor, taken);
            let above = downline_report(*parent, *parent == 0, &parent_of, &lines);
            let collected = above.children.iter().find(|c| c.child_id == *id).map_or(0, |c| c.collect_minor);
            prop_assert_eq!(collected, own.pay_upline_minor, "agent {}", id);
        }
    }
}
