//! Several servers on one PostgreSQL (issue 16): the fence that keeps a node that lost a market
//! from writing to it, and calls reaching a market's owner from any node. (Killing owners under
//! load, with real processes, is `crates/backlay/tests/crash_safety/kills.rs`.)

use backlay_store::cluster::Fence;
use backlay_store::StoreError;
use serde_json::json;

use crate::common::{minor, spawn_app, Db};

#[tokio::test]
async fn a_node_that_lost_a_market_cannot_write_to_it() {
    let Some(app) = spawn_app(Db::Postgres).await else { return };
    let store = app.store().await;
    let resource = "market:999999";
    for node in ["node-a", "node-b"] {
        store.join_cluster(node, "http://127.0.0.1:1", 0, 60_000).await.unwrap();
    }
    let token_a = store.claim(resource, "node-a").await.unwrap().expect("a free market is taken");
    assert_eq!(store.claim(resource, "node-b").await.unwrap(), None, "taken from a live owner");
    let a =
        store.fenced(Fence { resource: resource.into(), node_id: "node-a".into(), token: token_a });
    a.begin_write().await.expect("the owner writes").commit().await.unwrap();

    // A's write in flight holds the market: B cannot take it over under it, even once A's lease
    // has passed, until that write ends.
    let in_flight = a.begin_write().await.unwrap();
    sqlx::query("UPDATE cluster_nodes SET expires_at_ms = 0 WHERE node_id = 'node-a'")
        .execute(store.pool())
        .await
        .unwrap();
    assert_eq!(store.claim(resource, "node-b").await.unwrap(), None, "taken under a write");
    in_flight.commit().await.unwrap();
    let token_b = store.claim(resource, "node-b").await.unwrap().expect("a dead owner's market");
    assert_eq!(token_b, token_a + 1);

    // A, woken, cannot write; nor with its lease renewed by hand; B can.
    let refused = a.begin_write().await.err().expect("the old owner is fenced off");
    assert!(matches!(refused, StoreError::Fenced { .. }), "{refused:?}");
    sqlx::query("UPDATE cluster_nodes SET expires_at_ms = expires_at_ms + 10000000000 WHERE node_id = 'node-a'")
        .execute(store.pool())
        .await
        .unwrap();
    assert!(matches!(a.begin_write().await, Err(StoreError::Fenced { .. })));
    let b =
        store.fenced(Fence { resource: resource.into(), node_id: "node-b".into(), token: token_b });
    b.begin_write().await.expect("the new owner writes").commit().await.unwrap();
    assert!(!store.renew_lease("node-a-gone", 3_000).await.unwrap(), "an unknown node renews");
}

#[tokio::test]
async fn a_bet_sent_to_any_node_is_placed_once_by_the_markets_owner() {
    let Some(first) = spawn_app(Db::Postgres).await else { return };
    let second = first.second_node().await;
    let admin = first.admin().await;
    let demo = second.demo().await;
    let matches = first.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market, runners) = first
        .open_market(
            &admin,
            match_id,
            json!({ "type": "match_odds", "name": "Across nodes", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 }),
        )
        .await;
    let store = first.store().await;
    let owner = store.owner_of(&format!("market:{market}")).await.unwrap().expect("an owner");
    let first_url = first.base.trim_end_matches("/api");
    assert_eq!(owner.url, first_url, "the node that created the market runs it");

    // Through the node that does not own it: placed by the owner, once per client_ref.
    let bet = json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": "2.5", "stake": 40, "client_ref": "across-1" });
    let placed = second.post("bet/placeBet", Some(&demo), bet.clone()).await;
    placed.expect(200);
    let bet_id = placed.data()["bet_id"].as_i64().unwrap();
    for node in [&second, &first] {
        let again = node.post("bet/placeBet", Some(&demo), bet.clone()).await;
        again.expect(200);
        assert_eq!(again.data()["bet_id"].as_i64(), Some(bet_id));
    }
    // A bet the owner refuses is refused the same way through the other node.
    let refused = second
        .post("bet/placeBet", Some(&demo), json!({ "market_id": market, "selection_id": 424242, "side": "back", "price": "2.5", "stake": 40 }))
        .await;
    refused.expect(404);
    assert!(refused.message().contains("424242"), "{}", refused.message());

    // The book on either node is the owner's.
    for node in [&first, &second] {
        let page =
            node.post("match/matchDetail", Some(&demo), json!({ "match_id": match_id })).await;
        page.expect(200);
        let book = page.data()["markets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["market_id"] == market)
            .cloned()
            .expect("the market on the page");
        assert_eq!(minor(&book["runners"][0]["lay"][0]["size"]), 4000, "{book}");
    }
    // An operator's result through the other node settles it on the owner.
    second
        .post(
            "admin/market/result",
            Some(&second.admin().await),
            json!({ "market_id": market, "winner_selection_id": runners[1] }),
        )
        .await
        .expect(200);
    let late = first.post("bet/placeBet", Some(&demo), json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": "2.5", "stake": 40 })).await;
    late.expect(409);
    first.assert_ledger_sound(&admin).await;
}

/// A settled market has no owner: a correction sent to any node takes it back, the market is
/// owned again (by whichever node claims it first) and a result sent to the other node reaches
/// its task there.
#[tokio::test]
async fn a_result_corrected_on_one_node_is_resulted_again_through_the_other() {
    let Some(first) = spawn_app(Db::Postgres).await else { return };
    let second = first.second_node().await;
    let admin = first.admin().await;
    let demo = second.demo().await;
    let matches = first.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market, runners) = first
        .open_market(&admin, match_id, json!({ "type": "bookmaker", "name": "Corrected across nodes", "runners": ["Home", "Away"], "min_stake": 1 }))
        .await;
    first
        .post("admin/market/rates", Some(&admin), json!({ "market_id": market, "runners": [
            { "selection_id": runners[0], "back": 90, "lay": 95 }, { "selection_id": runners[1], "back": 105, "lay": 110 }] }))
        .await
        .expect(200);
    let before = second.balance_minor(&demo).await;
    second
        .post("bet/placeBet", Some(&demo), json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": 90, "stake": 100 }))
        .await
        .expect(200);
    first
        .post(
            "admin/market/result",
            Some(&admin),
            json!({ "market_id": market, "winner_selection_id": runners[0] }),
        )
        .await
        .expect(200);
    assert_eq!(second.balance_minor(&demo).await, before + 90_00);
    let store = first.store().await;
    assert!(
        store.owner_of(&format!("market:{market}")).await.unwrap().is_none(),
        "settled: unowned"
    );

    let second_admin = second.admin().await;
    second
        .post(
            "admin/market/unsettle",
            Some(&second_admin),
            json!({ "market_id": market, "reason": "wrong winner" }),
        )
        .await
        .expect(200);
    assert_eq!(second.balance_minor(&demo).await, before);
    assert!(store.owner_of(&format!("market:{market}")).await.unwrap().is_some(), "owned again");
    first
        .post(
            "admin/market/result",
            Some(&admin),
            json!({ "market_id": market, "winner_selection_id": runners[1] }),
        )
        .await
        .expect(200);
    assert_eq!(second.balance_minor(&demo).await, before - 100_00);
    first.assert_ledger_sound(&admin).await;
}

/// A call sealed as the nodes seal them (`backlay_engine::cluster::forward`), dated `sent_at_ms`.
fn sealed_call(
    store: &backlay_store::Store,
    market_id: i64,
    sent_at_ms: i64,
    call_id: &str,
) -> String {
    let forwarded = json!({
        "market_id": market_id,
        "call": { "call": "view", "user_id": null },
        "by": null,
        "sent_at_ms": sent_at_ms,
        "call_id": call_id,
    });
    let slot = backlay_store::secrets::SecretSlot::new("cluster", "call", "engine");
    store.keys().unwrap().seal(forwarded.to_string().as_bytes(), &slot)
}

/// A sealed call between nodes is taken once: the same one sent again is refused, and so is
/// one dated more than a few seconds away. A server on its own takes none at all.
#[tokio::test]
async fn a_sealed_call_between_nodes_is_taken_once_and_only_when_fresh() {
    let Some(app) = spawn_app(Db::Postgres).await else { return };
    let store = app.store().await;
    let url = format!("{}/internal/engine/call", app.base.trim_end_matches("/api"));
    let client = reqwest::Client::new();
    let send =
        |body: String| client.post(&url).header("content-type", "text/plain").body(body).send();
    let now = backlay_kit::clock::now_ms();
    let call = sealed_call(&store, 1, now, "0123456789abcdef0123456789abcdef");
    assert_eq!(send(call.clone()).await.unwrap().status(), 200, "taken the first time");
    for _ in 0..2 {
        assert_eq!(send(call.clone()).await.unwrap().status(), 403, "a replay is refused");
    }
    let future = sealed_call(&store, 1, now + 59_000, "fedcba9876543210fedcba9876543210");
    assert_eq!(send(future).await.unwrap().status(), 403, "dated a minute ahead");
    let stale = sealed_call(&store, 1, now - 10_000, "00000000000000000000000000000001");
    assert_eq!(send(stale).await.unwrap().status(), 403, "dated ten seconds ago");

    let Some(alone) = spawn_app(Db::Sqlite).await else { return };
    let store = alone.store().await;
    let url = format!("{}/internal/engine/call", alone.base.trim_end_matches("/api"));
    let call =
        sealed_call(&store, 1, backlay_kit::clock::now_ms(), "00000000000000000000000000000002");
    let answer = client.post(&url).header("content-type", "text/plain").body(call).send().await;
    // No such route: what the web app's fallback answers a POST it does not serve.
    let status = answer.unwrap().status().as_u16();
    assert!([404, 405].contains(&status), "a server on its own takes no calls: {status}");
}

/// Busy markets all on one node, the markets balanced by number: the busy node offers some of
/// them to the idle one (`backlay_engine`'s `cluster/load.rs`), which then runs them, and bets
/// on them go on being placed once through either node. With ownership by number alone nothing
/// moved and the second node served nothing (bench/RESULTS.md, eighth session).
#[tokio::test]
async fn busy_markets_on_one_node_are_spread_to_an_idle_one() {
    use std::time::{Duration, Instant};
    let Some(first) = spawn_app(Db::Postgres).await else { return };
    let second = first.second_node().await;
    let admin = first.admin().await;
    let demo = first.demo().await;
    let matches = first.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let mut created = Vec::new();
    for i in 0..12 {
        created.push(
            first
                .open_market(
                    &admin,
                    match_id,
                    json!({ "type": "match_odds", "name": format!("Load {i}"), "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 }),
                )
                .await,
        );
    }
    let store = first.store().await;
    let first_url = first.base.trim_end_matches("/api").to_string();
    let second_url = second.base.trim_end_matches("/api").to_string();
    // Until the count has settled: the markets of the twelve the first node runs.
    let owners = |markets: Vec<(i64, Vec<i64>)>| {
        let store = store.clone();
        async move {
            let mut owned = Vec::new();
            for (market, runners) in markets {
                let owner = store.owner_of(&format!("market:{market}")).await.unwrap();
                owned.push((market, runners, owner.map(|o| o.url)));
            }
            owned
        }
    };
    tokio::time::sleep(Duration::from_secs(2)).await;
    let busy: Vec<(i64, Vec<i64>)> = owners(created)
        .await
        .into_iter()
        .filter(|(_, _, owner)| owner.as_deref() == Some(first_url.as_str()))
        .map(|(market, runners, _)| (market, runners))
        .collect();
    assert!(busy.len() >= 3, "the first node runs {} of the twelve", busy.len());

    // Bets on those markets alone, resting far from any match (1.00 each), until the second
    // node runs some of them.
    let started = Instant::now();
    let mut placed = 0;
    let moved = loop {
        for (market, runners) in &busy {
            let bet = json!({ "market_id": market, "selection_id": runners[0], "side": "back", "price": "900", "stake": 1 });
            first.post("bet/placeBet", Some(&demo), bet).await.expect(200);
            placed += 1;
        }
        let now: Vec<_> = owners(busy.clone()).await;
        let moved =
            now.iter().filter(|(_, _, o)| o.as_deref() == Some(second_url.as_str())).count();
        if moved >= 2 || started.elapsed() > Duration::from_secs(30) {
            break moved;
        }
    };
    assert!(
        moved >= 2,
        "after {placed} bets in {:?} the second node runs {moved} of the {} busy markets",
        started.elapsed(),
        busy.len()
    );
    // Bets go on through either node, each placed once.
    for node in [&first, &second] {
        for (market, runners) in &busy {
            let bet = json!({ "market_id": market, "selection_id": runners[1], "side": "back", "price": "900", "stake": 1 });
            node.post("bet/placeBet", Some(&demo), bet).await.expect(200);
        }
    }
    first.assert_ledger_sound(&admin).await;
}

/// A placement batch on PostgreSQL locks the accounts of the makers its orders would meet
/// together with its own users', in one statement (`Writer::lock_funds`'s `also_lock`), and
/// reads only its own users' funds. Locked only when written, a maker's row let two markets'
/// batches deadlock (bench/RESULTS.md, ninth session).
#[tokio::test]
async fn a_batch_locks_its_makers_accounts_with_its_own_users() {
    let Some(app) = spawn_app(Db::Postgres).await else { return };
    let admin = app.admin().await;
    let (taker, _) = app.new_user(&admin, "taker1", "client").await;
    let (maker, _) = app.new_user(&admin, "maker1", "client").await;
    let store = app.store().await;
    let mut batch = store.begin_placement(&Default::default()).await.unwrap();
    let funds = batch.lock_funds(&[taker], &[maker]).await.unwrap();
    assert_eq!(funds.iter().map(|f| f.user_id).collect::<Vec<_>>(), vec![taker]);
    let lock = |user: i64| {
        let pool = store.pool().clone();
        async move {
            sqlx::query_scalar::<_, i64>(
                "SELECT user_id FROM ledger_accounts WHERE user_id = $1 FOR UPDATE NOWAIT",
            )
            .bind(user)
            .fetch_one(&pool)
            .await
        }
    };
    for user in [taker, maker] {
        let held = lock(user).await.expect_err("the batch holds the row");
        let code = held.as_database_error().and_then(|e| e.code()).map(|c| c.to_string());
        assert_eq!(code.as_deref(), Some("55P03"), "user {user}: {held}");
    }
    batch.commit().await.unwrap();
    lock(maker).await.expect("free once the batch has committed");
}
