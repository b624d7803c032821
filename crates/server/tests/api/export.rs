//! CSV downloads (api/export.rs): the same call with `"format": "csv"` answers every row its
//! filters select as `text/csv`, with a header row, money in rupees with two decimals, times in
//! ISO-8601, and text a spreadsheet would evaluate made safe; a bad filter is the usual 400.

use serde_json::json;

use crate::both_databases;
use crate::common::{minor, TestApp};

/// The rows of a CSV text as header → cell maps, checking every row has the header's width.
fn parse(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let rows = reader
        .records()
        .map(|record| record.unwrap().iter().map(String::from).collect::<Vec<_>>())
        .collect::<Vec<_>>();
    (header, rows)
}

fn column(header: &[String], name: &str) -> usize {
    header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}: {header:?}"))
}

/// Paise from a CSV money cell ("-1250.50"), refusing anything but two decimals.
fn paise(cell: &str) -> i64 {
    let (whole, fraction) = cell.split_once('.').unwrap_or_else(|| panic!("not money: {cell}"));
    assert_eq!(fraction.len(), 2, "two decimals: {cell}");
    let sign = if whole.starts_with('-') { -1 } else { 1 };
    sign * (whole.trim_start_matches('-').parse::<i64>().unwrap() * 100
        + fraction.parse::<i64>().unwrap())
}

/// A fresh client of the demo agent with `transfers` deposits of ₹1.01, ₹1.02, … (₹1.00 + n paise), the first with a
/// remark a spreadsheet would run as a formula. Returns (id, token).
async fn client_with_statement(
    app: &TestApp,
    agent: &str,
    name: &str,
    transfers: i64,
) -> (i64, String) {
    let (id, token) = app.new_user(agent, name, "client").await;
    for n in 1..=transfers {
        let remark = if n == 1 {
            "=HYPERLINK(\"http://evil\",\"x\")".to_string()
        } else {
            format!("top-up {n}")
        };
        app.post("admin/user/transfer", Some(agent), json!({ "user_id": id, "amount": format!("{}.{:02}", (100 + n) / 100, (100 + n) % 100), "direction": "deposit", "remark": remark }))
            .await
            .expect(200);
    }
    (id, token)
}

async fn a_statement_downloads_as_csv_with_every_row_the_json_pages_hold(app: TestApp) {
    let agent = app.agent().await;
    let (id, token) = client_with_statement(&app, &agent, "csv_client", 3).await;
    let (status, content_type, disposition, text) =
        app.download("report/accountStatement", Some(&token), json!({ "format": "csv" })).await;
    assert_eq!(status.as_u16(), 200, "{text}");
    assert!(content_type.starts_with("text/csv"), "{content_type}");
    assert!(
        disposition.starts_with("attachment; filename=\"statement-")
            && disposition.ends_with(".csv\""),
        "{disposition}"
    );
    let (header, rows) = parse(&text);
    assert_eq!(
        header,
        ["date", "description", "credit", "debit", "balance", "remark", "kind", "market_id"]
    );

    // The same rows as the JSON answer, in its order, to the paisa.
    let json_rows =
        app.post("report/accountStatement", Some(&token), json!({ "limit": 100 })).await;
    json_rows.expect(200);
    let json_rows = json_rows.data()["rows"].as_array().unwrap().clone();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows.len(), json_rows.len());
    for (row, line) in rows.iter().zip(&json_rows) {
        assert_eq!(
            paise(&row[column(&header, "credit")]),
            minor(&line["credit"]),
            "{row:?} vs {line}"
        );
        assert_eq!(paise(&row[column(&header, "balance")]), minor(&line["balance"]));
        assert_eq!(row[column(&header, "date")], line["date"].as_str().unwrap());
        assert!(row[0].ends_with('Z') && row[0].contains('T'), "ISO-8601: {}", row[0]);
    }
    // The oldest line (last) carries the formula, made safe; the others are as written.
    let remarks: Vec<&str> = rows.iter().map(|r| r[column(&header, "remark")].as_str()).collect();
    assert_eq!(remarks, ["top-up 3", "top-up 2", "'=HYPERLINK(\"http://evil\",\"x\")"]);

    // The agent downloads the same statement from the console.
    let (status, _, _, console_text) = app
        .download(
            "console/account/statement",
            Some(&agent),
            json!({ "user_id": id, "format": "csv" }),
        )
        .await;
    assert_eq!(status.as_u16(), 200, "{console_text}");
    assert_eq!(parse(&console_text), (header, rows));
}
both_databases!(a_statement_downloads_as_csv_with_every_row_the_json_pages_hold);

async fn a_download_holds_every_page_and_keeps_the_filters(app: TestApp) {
    let agent = app.agent().await;
    // 105 deposits: more than one page of the most a page may hold (100).
    let (_, token) = client_with_statement(&app, &agent, "csv_pages", 105).await;
    let (status, _, _, text) = app
        .download(
            "report/accountStatement",
            Some(&token),
            json!({ "format": "csv", "type": "deposit_withdraw", "limit": 5, "page": 3 }),
        )
        .await;
    assert_eq!(status.as_u16(), 200, "{text}");
    let (header, rows) = parse(&text);
    assert_eq!(rows.len(), 105, "every row, whatever page and limit say");
    let credits: i64 = rows.iter().map(|r| paise(&r[column(&header, "credit")])).sum();
    assert_eq!(credits, (1..=105).map(|n| 100 + n).sum::<i64>());
    // No two rows the same (pages neither overlap nor skip).
    let mut balances: Vec<i64> =
        rows.iter().map(|r| paise(&r[column(&header, "balance")])).collect();
    balances.dedup();
    assert_eq!(balances.len(), 105);
    // A filter that selects nothing: the header alone.
    let (_, _, _, text) = app
        .download(
            "report/accountStatement",
            Some(&token),
            json!({ "format": "csv", "type": "casino" }),
        )
        .await;
    assert_eq!(parse(&text).1.len(), 0, "{text}");
}
both_databases!(a_download_holds_every_page_and_keeps_the_filters);

async fn bad_input_to_a_download_is_a_400_naming_the_field(app: TestApp) {
    let demo = app.demo().await;
    for (body, field) in [
        (json!({ "format": "xlsx" }), "format"),
        (json!({ "format": "csv", "from_date": "yesterday" }), "from_date"),
        (json!({ "format": "csv", "type": "everything" }), "type"),
    ] {
        let answer = app.post("report/accountStatement", Some(&demo), body.clone()).await;
        assert_eq!(answer.status.as_u16(), 400, "{body}: {}", answer.body);
        assert!(!answer.field_error(field).is_empty(), "{body}: {}", answer.body);
    }
    let answer = app.post("report/currentBets", None, json!({ "format": "csv" })).await;
    assert_eq!(answer.status.as_u16(), 401);
}
both_databases!(bad_input_to_a_download_is_a_400_naming_the_field);

async fn current_bets_download_as_the_list_shows_them(app: TestApp) {
    let (admin, demo) = (app.admin().await, app.demo().await);
    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (fancy, _) = app
        .open_market(
            &admin,
            match_id,
            json!({ "type": "fancy", "name": "=Runs", "min_stake": 1, "max_stake": 1000 }),
        )
        .await;
    app.post("admin/market/rates", Some(&admin), json!({ "market_id": fancy, "line_no": 50, "rate_no": 100, "line_yes": 51, "rate_yes": 90 }))
        .await
        .expect(200);
    let bet = app
        .post("bet/placeBet", Some(&demo), json!({ "market_id": fancy, "side": "yes", "price": "90", "line": 51, "stake": "12.50" }))
        .await;
    bet.expect(200);
    let listed = app.post("report/currentBets", Some(&demo), json!({ "limit": 100 })).await;
    listed.expect(200);
    let (status, _, disposition, text) =
        app.download("report/currentBets", Some(&demo), json!({ "format": "csv" })).await;
    assert_eq!(status.as_u16(), 200, "{text}");
    assert!(disposition.contains("bets-"), "{disposition}");
    let (header, rows) = parse(&text);
    assert_eq!(rows.len(), listed.data()["rows"].as_array().unwrap().len());
    let bet_id = bet.data()["bet_id"].as_i64().unwrap().to_string();
    let ours: &Vec<String> = rows
        .iter()
        .find(|r| r[column(&header, "bet_id")] == bet_id)
        .unwrap_or_else(|| panic!("the bet is in the download: {text}"));
    assert_eq!(ours[column(&header, "market")], "'=Runs", "a market name is text too");
    assert_eq!(paise(&ours[column(&header, "stake")]), 12_50);
    assert_eq!(ours[column(&header, "line")], "51");
    assert_eq!(ours[column(&header, "side")], "yes");
}
both_databases!(current_bets_download_as_the_list_shows_them);

async fn the_downline_downloads_with_its_search_and_paths(app: TestApp) {
    let (admin, agent) = (app.admin().await, app.agent().await);
    app.new_user(&agent, "csv_deep_one", "client").await;
    app.new_user(&agent, "csv_deep_two", "client").await;
    // From the top, a search reaches the agent's clients with their path.
    let body = json!({ "search": "csv_deep", "sort": "name", "order": "desc" });
    let listed = app.post("console/downline/list", Some(&admin), body.clone()).await;
    listed.expect(200);
    let mut csv_body = body.clone();
    csv_body["format"] = json!("csv");
    let (status, _, disposition, text) =
        app.download("console/downline/list", Some(&admin), csv_body).await;
    assert_eq!(status.as_u16(), 200, "{text}");
    assert!(disposition.contains("downline-"), "{disposition}");
    let (header, rows) = parse(&text);
    let names: Vec<&str> = rows.iter().map(|r| r[column(&header, "user_name")].as_str()).collect();
    assert_eq!(names, ["csv_deep_two", "csv_deep_one"], "the search and the order as listed");
    assert_eq!(rows.len() as u64, listed.data()["total"].as_u64().unwrap());
    assert_eq!(
        rows[0][column(&header, "path")],
        "agent › csv_deep_two",
        "the way down from the caller: {text}"
    );
    assert_eq!(paise(&rows[0][column(&header, "balance")]), 0);
    // An agent's download holds its own downline only.
    let (_, _, _, text) =
        app.download("console/downline/list", Some(&agent), json!({ "format": "csv" })).await;
    let (header, rows) = parse(&text);
    assert!(
        rows.iter().all(|r| r[column(&header, "user_name")] != "agent"
            && r[column(&header, "user_name")] != "admin"),
        "{text}"
    );
    assert!(rows.iter().any(|r| r[column(&header, "user_name")] == "csv_deep_one"), "{text}");
}
both_databases!(the_downline_downloads_with_its_search_and_paths);

/// Each other list and report downloads what its JSON answer lists, row for row: the audit log,
/// payment requests (the operator's and the bettor's), an account's P&L and bet history, and the
/// collection report.
async fn every_other_list_and_report_downloads_as_it_reads(app: TestApp) {
    let (admin, agent) = (app.admin().await, app.agent().await);
    let (client_id, client) = client_with_statement(&app, &agent, "csv_every", 2).await;
    app.post("payment/withdraw", Some(&client), json!({ "amount": "1.50", "account_holder": "Csv Every", "bank_name": "=Bank", "account_number": "12345678", "ifsc": "ABCD0123456" }))
        .await;
    let agent_id = app.user_id(&admin, "agent").await;
    let cases = [
        (&admin, "admin/audit", json!({ "action": "chips.transfer" }), "audit-", "action"),
        (&agent, "admin/payment/list", json!({}), "payment-requests-", "user_name"),
        (&client, "report/paymentStatement", json!({}), "payments-", "kind"),
        (&agent, "console/account/pnl", json!({ "user_id": client_id }), "pnl-", "pnl"),
        (
            &agent,
            "console/account/betHistory",
            json!({ "user_id": client_id }),
            "bet-history-",
            "pnl",
        ),
        (
            &admin,
            "console/report/partnership",
            json!({ "user_id": agent_id }),
            "collection-",
            "collect",
        ),
    ];
    for (token, path, body, stem, a_column) in cases {
        let listed = app.post(path, Some(token), body.clone()).await;
        listed.expect(200);
        let json_rows = listed.data()["rows"].as_array().unwrap().len();
        let mut csv_body = body.clone();
        csv_body["format"] = json!("csv");
        let (status, content_type, disposition, text) =
            app.download(path, Some(token), csv_body).await;
        assert_eq!(status.as_u16(), 200, "{path}: {text}");
        assert!(content_type.starts_with("text/csv"), "{path}: {content_type}");
        assert!(disposition.contains(stem), "{path}: {disposition}");
        let (header, rows) = parse(&text);
        column(&header, a_column);
        assert_eq!(rows.len(), json_rows, "{path}: {text}");
    }
    // The audit download names the transfers with their remark made safe.
    let (_, _, _, text) = app
        .download(
            "admin/audit",
            Some(&admin),
            json!({ "action": "chips.transfer", "format": "csv" }),
        )
        .await;
    assert!(text.contains("csv_every"), "{text}");
    // The payment request's bank name is text a spreadsheet would run: made safe.
    let (_, _, _, text) =
        app.download("admin/payment/list", Some(&agent), json!({ "format": "csv" })).await;
    let (header, rows) = parse(&text);
    let ours = rows
        .iter()
        .find(|r| r[column(&header, "user_name")] == "csv_every")
        .expect("the request is listed");
    assert_eq!(ours[column(&header, "bank_name")], "'=Bank");
    assert_eq!(paise(&ours[column(&header, "amount")]), 1_50);
}
both_databases!(every_other_list_and_report_downloads_as_it_reads);
