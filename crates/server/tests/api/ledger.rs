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

/// Places a bet that must be taken; its id.
async fn place(app: &TestApp, token: &str, body: serde_json::Value) -> i64 {
    let answer = app.post("bet/placeBet", Some(token), body).await;
    answer.expect(200);
    answer.data()["bet_id"].as_i64().unwrap()
}

/// Changes a user's stored exposure in one market, and their account's total with it, behind
/// the server's back.
async fn shift_exposure(
    store: &backlay_store::Store,
    user_id: i64,
    market_id: i64,
    delta_minor: i64,
) {
    let done = sqlx::query(
        "UPDATE market_exposures SET exposure_minor = exposure_minor + $1 WHERE user_id = $2 AND market_id = $3",
    )
    .bind(delta_minor)
    .bind(user_id)
    .bind(market_id)
    .execute(store.pool())
    .await
    .unwrap();
    assert_eq!(done.rows_affected(), 1, "user {user_id} has exposure in market {market_id}");
    sqlx::query(
        "UPDATE ledger_accounts SET exposure_minor = exposure_minor + $1 WHERE user_id = $2",
    )
    .bind(delta_minor)
    .bind(user_id)
    .execute(store.pool())
    .await
    .unwrap();
}

/// The check holds each user's exposure in each live market to the worst case of their stored
/// bets there, as the engine computes it, and finds runners where a resting back sits at or
/// below a resting lay. Rows changed behind the server's back (its markets in memory stay as
/// they were; the check reads only the database) are named with both figures, even where the
/// account's total was changed to match, which the sum check above cannot see.
async fn the_check_holds_reserved_exposure_to_the_bets_and_finds_crossed_books(app: TestApp) {
    let admin = app.admin().await;
    let (demo, demo2) = (app.demo().await, app.login("demo2", "Demo@1234").await);
    let demo2_id = app.user_id(&admin, "demo2").await;
    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (odds, runners) = app.open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Match Odds", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 })).await;
    let (bookmaker, bm_runners) = app.open_market(&admin, match_id, json!({ "type": "bookmaker", "name": "Bookmaker", "runners": ["Home", "Away"], "min_stake": 1 })).await;
    app.post("admin/market/rates", Some(&admin), json!({ "market_id": bookmaker, "runners": [
        { "selection_id": bm_runners[0], "back": 45, "lay": 50 }, { "selection_id": bm_runners[1], "back": 180, "lay": 190 }
    ] })).await.expect(200);
    let (fancy, _) = app
        .open_market(
            &admin,
            match_id,
            json!({ "type": "fancy", "name": "10 over runs", "min_stake": 1 }),
        )
        .await;
    app.post("admin/market/rates", Some(&admin), json!({ "market_id": fancy, "line_no": 56, "rate_no": 100, "line_yes": 57, "rate_yes": 100 })).await.expect(200);
    // A matched pair (demo's lay of 100.00 at 2.50 meets demo2's back of 60.00; 40.00 of the
    // lay rests), a resting back, a bookmaker bet and a fancy bet.
    let lay = place(&app, &demo, json!({ "market_id": odds, "selection_id": runners[0], "side": "lay", "price": 2.5, "stake": 100 })).await;
    place(&app, &demo2, json!({ "market_id": odds, "selection_id": runners[0], "side": "back", "price": 2.5, "stake": 60 })).await;
    place(&app, &demo2, json!({ "market_id": odds, "selection_id": runners[1], "side": "back", "price": 4, "stake": 10 })).await;
    place(&app, &demo, json!({ "market_id": bookmaker, "selection_id": bm_runners[0], "side": "back", "price": 45, "stake": 1000 })).await;
    place(
        &app,
        &demo2,
        json!({ "market_id": fancy, "side": "yes", "price": 100, "line": 57, "stake": 200 }),
    )
    .await;
    let check = app.get("admin/ledger/check", Some(&admin)).await;
    check.expect(200);
    assert_eq!(check.data()["sound"], true, "{}", check.body);
    assert_eq!(check.data()["reserved_exposure_mismatches"], json!([]));
    assert_eq!(check.data()["crossed_books"], json!([]));

    // demo2 on match odds: Home wins +90.00 − 10.00 (the resting back on Away), Away wins
    // −60.00: 60.00 reserved. Take 1.00 off it and put 1.00 on the fancy's 200.00, each with
    // the account's total, so that every total is still the sum of its markets.
    let store = backlay_store::Store::connect(app.database_url()).await.unwrap();
    shift_exposure(&store, demo2_id, odds, -1_00).await;
    shift_exposure(&store, demo2_id, fancy, 1_00).await;
    let check = app.get("admin/ledger/check", Some(&admin)).await;
    check.expect(200);
    assert_eq!(check.data()["sound"], false, "{}", check.body);
    assert_eq!(check.data()["exposure_mismatches"], json!([]), "the sum still holds");
    let mismatches = check.data()["reserved_exposure_mismatches"].as_array().unwrap();
    let found: Vec<(i64, &str, i64, i64, i64)> = mismatches
        .iter()
        .map(|m| {
            (
                m["user_id"].as_i64().unwrap(),
                m["user_name"].as_str().unwrap(),
                m["market_id"].as_i64().unwrap(),
                minor(&m["reserved"]),
                minor(&m["worst_case"]),
            )
        })
        .collect();
    assert_eq!(
        found,
        [(demo2_id, "demo2", odds, 59_00, 60_00), (demo2_id, "demo2", fancy, 201_00, 200_00)],
        "{}",
        check.body
    );
    assert_eq!(check.data()["crossed_books"], json!([]));
    shift_exposure(&store, demo2_id, odds, 1_00).await;
    shift_exposure(&store, demo2_id, fancy, -1_00).await;
    app.assert_ledger_sound(&admin).await;

    // demo2 backs Home at 5.00 and demo lays 5.00 more at 2.50: neither crosses, both rest.
    // Then the back's price is lowered to 2.50 in the database: a back and a lay at one price,
    // which the engine would have matched. The oldest lay at 2.50 is the first one; the back
    // at 3.00 is not the lowest.
    place(&app, &demo2, json!({ "market_id": odds, "selection_id": runners[0], "side": "back", "price": 3, "stake": 10 })).await;
    let back = place(&app, &demo2, json!({ "market_id": odds, "selection_id": runners[0], "side": "back", "price": 5, "stake": 10 })).await;
    place(&app, &demo, json!({ "market_id": odds, "selection_id": runners[0], "side": "lay", "price": 2.5, "stake": 5 })).await;
    app.assert_ledger_sound(&admin).await;
    sqlx::query("UPDATE bets SET price = 250 WHERE id = $1")
        .bind(back)
        .execute(store.pool())
        .await
        .unwrap();
    let check = app.get("admin/ledger/check", Some(&admin)).await;
    check.expect(200);
    assert_eq!(check.data()["sound"], false, "{}", check.body);
    assert_eq!(
        check.data()["crossed_books"],
        json!([{ "market_id": odds, "selection_id": runners[0], "back_price": 2.5, "lay_price": 2.5,
                 "back_bet_id": back, "lay_bet_id": lay }])
    );
    // An unmatched back risks its stake whatever its price: the exposure still agrees.
    assert_eq!(check.data()["reserved_exposure_mismatches"], json!([]), "{}", check.body);
}
both_databases!(the_check_holds_reserved_exposure_to_the_bets_and_finds_crossed_books);
