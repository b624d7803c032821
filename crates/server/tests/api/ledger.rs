//! The ledger under load and over time: concurrent transfers never overdraw an account (exactly
//! as many succeed as the funds allow), and after a long mix of deposits, withdrawals and mints
//! every chip issued is held by some user and the ledger stays sound.

use std::collections::BTreeMap;

use crate::both_databases;
use crate::common::{minor, Answer, TestApp};
use futures::future::join_all;
use serde_json::json;

/// Minor units of 100.00 and 1,000.00.
const HUNDRED: i64 = 100_00;
const THOUSAND: i64 = 1_000_00;

async fn transfer(
    app: &TestApp,
    token: &str,
    user_id: i64,
    amount_minor: i64,
    direction: &str,
) -> Answer {
    let amount = format!("{}.{:02}", amount_minor / 100, amount_minor % 100);
    app.post(
        "admin/user/transfer",
        Some(token),
        json!({ "user_id": user_id, "amount": amount, "direction": direction }),
    )
    .await
}

/// Fires `count` identical transfers at once and returns how many got 200 and how many 422;
/// any other status fails the test.
async fn concurrent_transfers(
    app: &TestApp,
    token: &str,
    user_id: i64,
    amount_minor: i64,
    direction: &str,
    count: usize,
) -> (usize, usize) {
    let answers =
        join_all((0..count).map(|_| transfer(app, token, user_id, amount_minor, direction))).await;
    let mut ok = 0;
    let mut refused = 0;
    for answer in &answers {
        match answer.status.as_u16() {
            200 => ok += 1,
            422 => {
                answer.expect(422);
                assert!(answer.message().contains("available"), "{}", answer.message());
                refused += 1;
            }
            other => panic!("a concurrent {direction} answered {other}: {}", answer.body),
        }
    }
    (ok, refused)
}

/// An agent `pool_agent` under the admin holding exactly 1,000.00, and a client of it holding
/// `client_minor` (given by the agent, so the agent is left with 1,000.00 minus that):
/// (agent id, agent token, client id, client token).
async fn pool(app: &TestApp, admin: &str, client_minor: i64) -> (i64, String, i64, String) {
    let (agent_id, agent) = app.new_user(admin, "pool_agent", "agent").await;
    transfer(app, admin, agent_id, THOUSAND, "deposit").await.expect(200);
    let (client_id, client) = app.new_user(&agent, "pool_client", "client").await;
    if client_minor > 0 {
        transfer(app, &agent, client_id, client_minor, "deposit").await.expect(200);
    }
    assert_eq!(app.balance_minor(&agent).await, THOUSAND - client_minor);
    assert_eq!(app.balance_minor(&client).await, client_minor);
    (agent_id, agent, client_id, client)
}

async fn chips_issued(app: &TestApp, admin: &str) -> i64 {
    let answer = app.get("admin/ledger/check", Some(admin)).await;
    answer.expect(200);
    minor(&answer.data()["chips_issued"])
}

/// Every user's (id, parent id or -1, balance in minor units), from the operator list.
async fn users(app: &TestApp, admin: &str) -> BTreeMap<i64, (i64, i64)> {
    let answer = app.post("admin/user/list", Some(admin), json!({ "limit": 100 })).await;
    answer.expect(200);
    let rows = answer.data()["rows"].as_array().unwrap();
    assert_eq!(
        answer.data()["total"].as_i64().unwrap(),
        rows.len() as i64,
        "all users fit in one page"
    );
    rows.iter()
        .map(|row| {
            (
                row["user_id"].as_i64().unwrap(),
                (row["parent_id"].as_i64().unwrap(), minor(&row["balance"])),
            )
        })
        .collect()
}

async fn twenty_concurrent_deposits_never_overdraw_the_parent(app: TestApp) {
    let admin = app.admin().await;
    let (_, agent, client_id, client) = pool(&app, &admin, 0).await;

    let (ok, refused) = concurrent_transfers(&app, &agent, client_id, HUNDRED, "deposit", 20).await;
    assert_eq!((ok, refused), (10, 10), "1,000.00 covers exactly ten deposits of 100.00");
    assert_eq!(app.balance_minor(&agent).await, 0);
    assert_eq!(app.balance_minor(&client).await, THOUSAND);
    app.assert_ledger_sound(&admin).await;

    // The agent has nothing left to give.
    let answer = transfer(&app, &agent, client_id, 1, "deposit").await;
    answer.expect(422);
    assert!(
        answer.message().contains("pool_agent has only ₹0.00 available"),
        "{}",
        answer.message()
    );
}
both_databases!(twenty_concurrent_deposits_never_overdraw_the_parent);

async fn twenty_concurrent_withdrawals_never_overdraw_the_client(app: TestApp) {
    let admin = app.admin().await;
    let (_, agent, client_id, client) = pool(&app, &admin, THOUSAND).await;

    let (ok, refused) =
        concurrent_transfers(&app, &agent, client_id, HUNDRED, "withdraw", 20).await;
    assert_eq!((ok, refused), (10, 10), "1,000.00 covers exactly ten withdrawals of 100.00");
    assert_eq!(app.balance_minor(&client).await, 0);
    assert_eq!(app.balance_minor(&agent).await, THOUSAND);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(twenty_concurrent_withdrawals_never_overdraw_the_client);

async fn concurrent_deposits_and_withdrawals_on_one_client_add_up(app: TestApp) {
    let admin = app.admin().await;
    let (_, agent, client_id, client) = pool(&app, &admin, 500_00).await;

    // 10 deposits and 10 withdrawals of 50.00 at once: the client starts with 500.00 and the
    // agent with 500.00, so neither side can run out whatever the order.
    let requests = (0..20).map(|i| {
        transfer(&app, &agent, client_id, 50_00, if i % 2 == 0 { "deposit" } else { "withdraw" })
    });
    for answer in join_all(requests).await {
        answer.expect(200);
    }
    assert_eq!(app.balance_minor(&client).await, 500_00);
    assert_eq!(app.balance_minor(&agent).await, 500_00);
    app.assert_ledger_sound(&admin).await;
}
both_databases!(concurrent_deposits_and_withdrawals_on_one_client_add_up);

/// One step of the mix: what to do, to whom, and how much.
#[derive(Debug, Clone, Copy)]
enum Step {
    Deposit(usize, i64),
    Withdraw(usize, i64),
    Mint(i64),
}

/// A deterministic sequence of 30 steps over `people` users (indices), cycling deposit,
/// withdraw, mint, with amounts from a small linear congruential generator; every fifth amount
/// is large so that some steps must fail for want of funds.
fn mix(people: usize) -> Vec<Step> {
    let mut seed: u64 = 0x5eed;
    let mut next = move || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        seed >> 33
    };
    (0..30)
        .map(|i| {
            let who = next() as usize % people;
            let amount = if i % 5 == 4 {
                40_000_000_00 + next() as i64 % 100_000_00
            } else {
                1 + next() as i64 % 2_000_00
            };
            match i % 3 {
                0 => Step::Deposit(who, amount),
                1 => Step::Withdraw(who, amount),
                _ => Step::Mint(amount),
            }
        })
        .collect()
}

async fn every_chip_issued_is_held_by_a_user_after_a_mix_of_transfers(app: TestApp) {
    let admin = app.admin().await;
    let admin_id = app.user_id(&admin, "admin").await;
    // A second branch of the tree: an agent with two clients, none holding chips yet.
    let (mix_agent, agent_token) = app.new_user(&admin, "mix_agent", "agent").await;
    app.new_user(&agent_token, "mix_c1", "client").await;
    app.new_user(&agent_token, "mix_c2", "client").await;

    let mut model = users(&app, &admin).await;
    assert_eq!(model.len(), 8);
    assert_eq!(model[&mix_agent].0, admin_id);
    let issued_before = chips_issued(&app, &admin).await;
    assert_eq!(model.values().map(|(_, balance)| balance).sum::<i64>(), issued_before);

    // Everyone but the admin (who has no parent) takes part in transfers.
    let people: Vec<i64> = model.keys().copied().filter(|id| *id != admin_id).collect();
    let (mut succeeded, mut refused) = (0, 0);
    for step in mix(people.len()) {
        let (answer, debited, credited, amount) = match step {
            Step::Deposit(who, amount) => {
                let user = people[who];
                let parent = model[&user].0;
                (transfer(&app, &admin, user, amount, "deposit").await, Some(parent), user, amount)
            }
            Step::Withdraw(who, amount) => {
                let user = people[who];
                let parent = model[&user].0;
                (transfer(&app, &admin, user, amount, "withdraw").await, Some(user), parent, amount)
            }
            Step::Mint(amount) => {
                let amount_text = format!("{}.{:02}", amount / 100, amount % 100);
                (
                    app.post("admin/chips/mint", Some(&admin), json!({ "amount": amount_text }))
                        .await,
                    None,
                    admin_id,
                    amount,
                )
            }
        };
        let affordable = debited.is_none_or(|from| model[&from].1 >= amount);
        if affordable {
            answer.expect(200);
            if let Some(from) = debited {
                model.get_mut(&from).unwrap().1 -= amount;
            }
            model.get_mut(&credited).unwrap().1 += amount;
            succeeded += 1;
        } else {
            answer.expect(422);
            refused += 1;
        }
    }
    assert!(
        succeeded >= 20 && refused >= 2,
        "the mix should both succeed and fail: {succeeded} ok, {refused} refused"
    );

    let after = users(&app, &admin).await;
    assert_eq!(after, model, "every balance is what the steps predict");
    let issued = chips_issued(&app, &admin).await;
    let minted: i64 = mix(people.len())
        .iter()
        .map(|step| if let Step::Mint(amount) = step { *amount } else { 0 })
        .sum();
    assert_eq!(issued, issued_before + minted);
    assert_eq!(
        after.values().map(|(_, balance)| balance).sum::<i64>(),
        issued,
        "the users hold every chip issued"
    );
    app.assert_ledger_sound(&admin).await;
}
both_databases!(every_chip_issued_is_held_by_a_user_after_a_mix_of_transfers);

/// The check also holds each account's exposure to the sum of its exposures per market (what
/// the funds check reads and what settlement releases): a row changed behind the server's back
/// makes it unsound, naming the account.
async fn an_exposure_that_is_not_the_sum_of_its_markets_is_reported(app: TestApp) {
    let admin = app.admin().await;
    app.assert_ledger_sound(&admin).await;
    let demo_id = app.user_id(&admin, "demo").await;
    let store = backlay_store::Store::connect(app.database_url()).await.unwrap();
    sqlx::query(
        "UPDATE ledger_accounts SET exposure_minor = exposure_minor + 1 WHERE user_id = $1",
    )
    .bind(demo_id)
    .execute(store.pool())
    .await
    .unwrap();
    let check = app.get("admin/ledger/check", Some(&admin)).await;
    check.expect(200);
    assert_eq!(check.data()["sound"], false, "{}", check.body);
    let mismatches = check.data()["exposure_mismatches"].as_array().unwrap();
    assert_eq!(mismatches.len(), 1, "{}", check.body);
    assert_eq!((mismatches[0][1].as_i64(), mismatches[0][2].as_i64()), (Some(1), Some(0)));
}
both_databases!(an_exposure_that_is_not_the_sum_of_its_markets_is_reported);
