//! Property: declaring a wrong result A, correcting it and declaring B leaves every account
//! exactly where declaring B alone would, to the paisa, at any depth of the agent tree.
//!
//! Each case builds a chain of 0 to 3 agents with random partnerships, clients at random levels
//! of it, and two identical markets (bookmaker, fancy or match odds) with the same bets placed
//! on both in the same order: X is resulted A, corrected, resulted B; Y is resulted B. Money of
//! one market is told apart by the ledger's link from a transaction to its market, so the
//! property reads: for every ledger account, what X's transactions moved equals what Y's moved;
//! for every client and level, X's partnership splits add up to Y's. The cases share one server
//! (fresh users and markets each) so that they run in seconds.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{json, Value};
use sqlx::Row;

use crate::both_databases;
use crate::common::TestApp;

/// Cases per database: each places up to 6 bets on two markets and makes up to 6 users.
const CASES: u32 = 6;

#[derive(Clone, Debug)]
enum Kind {
    Bookmaker,
    Fancy,
    MatchOdds,
}

#[derive(Clone, Debug)]
struct Bet {
    client: usize,
    /// Back (yes) or lay (no).
    back: bool,
    /// Runner 0 or 1 (bookmaker, match odds); ignored on a fancy.
    runner: usize,
    /// Match odds: 2.0, 2.5 or 3.0.
    price: usize,
    stake: i64,
}

#[derive(Clone, Debug)]
enum Outcome {
    /// Runner index, or the fancy's runs.
    Result(i64),
    Void,
}

#[derive(Clone, Debug)]
struct Case {
    /// Partnerships of the agents from the top, in percent, each within its parent's.
    agents: Vec<i64>,
    /// Each client's level: 0 under the admin, n under the n-th agent.
    clients: Vec<usize>,
    kind: Kind,
    bets: Vec<Bet>,
    a: Outcome,
    b: Outcome,
}

fn case() -> impl Strategy<Value = Case> {
    let agents = prop::collection::vec(0i64..=100, 0..=3).prop_map(|mut shares| {
        shares.sort_unstable_by(|x, y| y.cmp(x));
        shares
    });
    let kind = prop_oneof![Just(Kind::Bookmaker), Just(Kind::Fancy), Just(Kind::MatchOdds)];
    let outcome = prop_oneof![
        4 => (0i64..60).prop_map(Outcome::Result),
        1 => Just(Outcome::Void),
    ];
    (agents, prop::collection::vec(0usize..=3, 2..=3), kind, outcome.clone(), outcome)
        .prop_flat_map(|(agents, levels, kind, a, b)| {
            let depth = agents.len();
            let clients: Vec<usize> = levels.into_iter().map(|l| l.min(depth)).collect();
            let n = clients.len();
            let bet = (0..n, any::<bool>(), 0usize..2, 0usize..3, 1i64..=200).prop_map(
                |(client, back, runner, price, stake)| Bet { client, back, runner, price, stake },
            );
            (prop::collection::vec(bet, 1..=6)).prop_map(move |bets| Case {
                agents: agents.clone(),
                clients: clients.clone(),
                kind: kind.clone(),
                bets,
                a: a.clone(),
                b: b.clone(),
            })
        })
}

/// What the server needs to replay one case.
struct Fixture {
    admin: String,
    match_id: i64,
    /// Names made unique across cases.
    serial: std::sync::atomic::AtomicU32,
}

async fn create(
    app: &TestApp,
    admin: &str,
    name: &str,
    role: &str,
    parent: Option<i64>,
    share: i64,
) -> i64 {
    let mut body = json!({ "user_name": name, "password": "First@123", "role": role });
    if let Some(parent) = parent {
        body["parent_id"] = json!(parent);
    }
    if role == "agent" {
        body["partnership"] = json!(share);
    }
    let answer = app.post("admin/user/create", Some(admin), body).await;
    answer.expect(200);
    answer.data()["user_id"].as_i64().unwrap()
}

async fn deposit(app: &TestApp, admin: &str, user_id: i64, amount: i64) {
    app.post(
        "admin/user/transfer",
        Some(admin),
        json!({ "user_id": user_id, "amount": amount, "direction": "deposit" }),
    )
    .await
    .expect(200);
}

async fn open(app: &TestApp, f: &Fixture, kind: &Kind, name: &str) -> (i64, Vec<i64>) {
    let body = match kind {
        Kind::Bookmaker => {
            json!({ "type": "bookmaker", "name": name, "runners": ["Home", "Away"], "min_stake": 1 })
        }
        Kind::Fancy => json!({ "type": "fancy", "name": name, "min_stake": 1, "bet_delay_s": 0 }),
        Kind::MatchOdds => json!({ "type": "match_odds", "name": name, "runners": ["Home", "Away"],
            "min_stake": 1, "bet_delay_s": 0, "commission_bp": 500 }),
    };
    let (market, runners) = app.open_market(&f.admin, f.match_id, body).await;
    let rates = match kind {
        Kind::Bookmaker => Some(json!({ "market_id": market, "runners": [
            { "selection_id": runners[0], "back": 90, "lay": 95 },
            { "selection_id": runners[1], "back": 105, "lay": 110 }] })),
        Kind::Fancy => Some(
            json!({ "market_id": market, "line_no": 30, "rate_no": 100, "line_yes": 31, "rate_yes": 90 }),
        ),
        Kind::MatchOdds => None,
    };
    if let Some(rates) = rates {
        app.post("admin/market/rates", Some(&f.admin), rates).await.expect(200);
    }
    (market, runners)
}

fn bet_body(kind: &Kind, market: i64, runners: &[i64], bet: &Bet) -> Value {
    match kind {
        Kind::Bookmaker => {
            let rate = [[90, 95], [105, 110]][bet.runner][usize::from(!bet.back)];
            json!({ "market_id": market, "selection_id": runners[bet.runner],
                "side": if bet.back { "back" } else { "lay" }, "price": rate, "stake": bet.stake })
        }
        Kind::Fancy => {
            let (side, line, rate) = if bet.back { ("yes", 31, 90) } else { ("no", 30, 100) };
            json!({ "market_id": market, "side": side, "price": rate, "line": line, "stake": bet.stake })
        }
        Kind::MatchOdds => {
            let price = [2.0, 2.5, 3.0][bet.price];
            json!({ "market_id": market, "selection_id": runners[bet.runner],
                "side": if bet.back { "back" } else { "lay" }, "price": price, "stake": bet.stake })
        }
    }
}

async fn declare(
    app: &TestApp,
    f: &Fixture,
    kind: &Kind,
    market: i64,
    runners: &[i64],
    outcome: &Outcome,
) {
    let body = match (outcome, kind) {
        (Outcome::Void, _) => {
            app.post("admin/market/void", Some(&f.admin), json!({ "market_id": market }))
                .await
                .expect(200);
            return;
        }
        (Outcome::Result(runs), Kind::Fancy) => json!({ "market_id": market, "result": runs }),
        (Outcome::Result(n), _) => {
            json!({ "market_id": market, "winner_selection_id": runners[usize::try_from(n % 2).unwrap()] })
        }
    };
    app.post("admin/market/result", Some(&f.admin), body).await.expect(200);
}

/// Per ledger account, what the transactions of `market` moved.
async fn moved_by(app: &TestApp, market: i64) -> Vec<(i64, i64)> {
    let store = app.store().await;
    let rows = sqlx::query(
        "SELECT e.account_id, CAST(SUM(e.amount_minor) AS BIGINT) AS moved FROM ledger_entries e \
         JOIN ledger_transactions t ON t.id = e.transaction_id WHERE t.market_id = $1 \
         GROUP BY e.account_id HAVING SUM(e.amount_minor) <> 0 ORDER BY e.account_id",
    )
    .bind(market)
    .fetch_all(store.pool())
    .await
    .unwrap();
    rows.iter().map(|r| (r.get::<i64, _>("account_id"), r.get::<i64, _>("moved"))).collect()
}

/// Per client, level and part, what the partnership splits of `market` add up to.
async fn splits_of(app: &TestApp, market: i64) -> Vec<(i64, Option<i64>, String, i64)> {
    let store = app.store().await;
    let rows = sqlx::query(
        "SELECT client_user_id, user_id, part, CAST(SUM(amount_minor) AS BIGINT) AS amount FROM partnership_splits \
         WHERE market_id = $1 GROUP BY client_user_id, user_id, part HAVING SUM(amount_minor) <> 0 \
         ORDER BY client_user_id, user_id, part",
    )
    .bind(market)
    .fetch_all(store.pool())
    .await
    .unwrap();
    rows.iter()
        .map(|r| (r.get("client_user_id"), r.get("user_id"), r.get("part"), r.get("amount")))
        .collect()
}

async fn run_case(app: &TestApp, f: &Fixture, case: &Case) -> Result<(), TestCaseError> {
    let n = f.serial.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut parents: Vec<Option<i64>> = vec![None];
    let depth = i64::try_from(case.agents.len()).unwrap();
    for (level, share) in case.agents.iter().enumerate() {
        let id =
            create(app, &f.admin, &format!("pa{n}x{level}"), "agent", parents[level], *share).await;
        // Chips come from the parent: each agent keeps 20,000 for its clients, passes the rest.
        deposit(app, &f.admin, id, 20_000 * (depth - i64::try_from(level).unwrap())).await;
        parents.push(Some(id));
    }
    let mut clients = Vec::new();
    for (i, level) in case.clients.iter().enumerate() {
        let name = format!("pc{n}x{i}");
        let id = create(app, &f.admin, &name, "client", parents[*level], 0).await;
        deposit(app, &f.admin, id, 5_000).await;
        let token = app.login(&name, "First@123").await;
        app.post("user/changePassword", Some(&token), json!({ "master_password": "First@123", "new_password": "Second@123", "confirm_password": "Second@123" }))
            .await
            .expect(200);
        clients.push(token);
    }
    let (x, x_runners) = open(app, f, &case.kind, &format!("X{n}")).await;
    let (y, y_runners) = open(app, f, &case.kind, &format!("Y{n}")).await;
    for bet in &case.bets {
        let token = &clients[bet.client];
        let on_x =
            app.post("bet/placeBet", Some(token), bet_body(&case.kind, x, &x_runners, bet)).await;
        let on_y =
            app.post("bet/placeBet", Some(token), bet_body(&case.kind, y, &y_runners, bet)).await;
        // Funds are ample and every price is posted: each bet is taken, on both alike.
        on_x.expect(200);
        on_y.expect(200);
        prop_assert_eq!(
            &on_x.data()["status"],
            &on_y.data()["status"],
            "{} / {}",
            on_x.body,
            on_y.body
        );
    }
    declare(app, f, &case.kind, x, &x_runners, &case.a).await;
    app.post(
        "admin/market/unsettle",
        Some(&f.admin),
        json!({ "market_id": x, "reason": "property" }),
    )
    .await
    .expect(200);
    declare(app, f, &case.kind, x, &x_runners, &case.b).await;
    declare(app, f, &case.kind, y, &y_runners, &case.b).await;
    prop_assert_eq!(moved_by(app, x).await, moved_by(app, y).await);
    prop_assert_eq!(splits_of(app, x).await, splits_of(app, y).await);
    Ok(())
}

async fn declare_a_correct_it_declare_b_equals_b_alone(app: TestApp) {
    let admin = app.admin().await;
    app.post("admin/settings", Some(&admin), json!({ "agent_levels": "4" })).await.expect(200);
    let demo = app.demo().await;
    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let fixture = Fixture { admin: admin.clone(), match_id, serial: Default::default() };
    let handle = tokio::runtime::Handle::current();
    let mut runner =
        TestRunner::new(Config { cases: CASES, failure_persistence: None, ..Config::default() });
    // The runner is synchronous: each case is driven on this runtime from a blocking section.
    let failure = tokio::task::block_in_place(|| {
        runner
            .run(&case(), |case| handle.block_on(run_case(&app, &fixture, &case)))
            .err()
            .map(|failure| failure.to_string())
    });
    if let Some(failure) = failure {
        panic!("{failure}");
    }
    app.assert_ledger_sound(&admin).await;
}
both_databases!(declare_a_correct_it_declare_b_equals_b_alone);
