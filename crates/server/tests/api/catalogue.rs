//! The spec's catalogue calls: settings, sports, series, matches, search, cups, casino, exposure.

use serde_json::{json, Value};

use crate::both_databases;
use crate::common::TestApp;

async fn global_setting_needs_no_token_and_has_every_field(app: TestApp) {
    let answer = app.get("globalSetting/getGlobalSetting", None).await;
    answer.expect(200);
    let data = answer.data();
    for field in [
        "logo",
        "site_message",
        "payment_gateway",
        "is_show_apk",
        "bg_primary_color",
        "bg_secondry_color",
        "text_primary_color",
        "text_secondry_color",
        "other_color",
        "site_title",
        "favicon",
    ] {
        assert!(data.get(field).is_some(), "missing {field}: {data}");
    }
    assert_eq!(data["site_title"], "Backlay");
    assert_eq!(data["payment_gateway"], 1);
    assert!(data["site_message"].as_str().unwrap().contains("Welcome"));
    assert!(data.get("default_parent").is_none(), "operational settings are not public");
    // The server's own origin is always there: the built-in casino provider is served on it.
    let own_origin = app.base.trim_end_matches("/api").to_string();
    assert_eq!(data["casino_frame_origins"], json!([own_origin]));
    let admin = app.admin().await;
    app.post(
        "admin/settings",
        Some(&admin),
        json!({ "casino_frame_origins": "https://games.example.com, https://live.example.org/" }),
    )
    .await
    .expect(200);
    let bad = app
        .post(
            "admin/settings",
            Some(&admin),
            json!({ "casino_frame_origins": "https://ok.example.com,ftp://x" }),
        )
        .await;
    bad.expect(400);
    assert!(bad.field_error("casino_frame_origins").contains("ftp://x"));
    let after = app.get("globalSetting/getGlobalSetting", None).await;
    assert_eq!(
        after.data()["casino_frame_origins"],
        json!(["https://games.example.com", "https://live.example.org", own_origin])
    );
}
both_databases!(global_setting_needs_no_token_and_has_every_field);

fn ids(list: &Value, field: &str) -> Vec<i64> {
    list.as_array().unwrap().iter().map(|item| item[field].as_i64().unwrap()).collect()
}

async fn sports_come_in_display_order_and_filter(app: TestApp) {
    let token = app.demo().await;
    let all = app.post("sport/getSports", Some(&token), json!({})).await;
    all.expect(200);
    let sport_ids = ids(all.data(), "sport_id");
    assert_eq!(sport_ids[0], 4, "cricket first");
    for known in [7, 4339, 2378961, -1, -17, 1, 2] {
        assert!(sport_ids.contains(&known), "sport {known} missing");
    }
    let orders = ids(all.data(), "order");
    assert!(orders.windows(2).all(|w| w[0] <= w[1]));
    // Ids as strings, as hand-written clients send them.
    let one = app
        .post("sport/getSports", Some(&token), json!({ "sport_id": "4", "is_active": "1" }))
        .await;
    one.expect(200);
    assert_eq!(one.data().as_array().unwrap().len(), 1);
    assert_eq!(one.data()[0]["name"], "Cricket");
    let inactive = app.post("sport/getSports", Some(&token), json!({ "is_active": 0 })).await;
    assert_eq!(inactive.data().as_array().unwrap().len(), 0);
    // An empty body reads as "no filter".
    let empty = app
        .client
        .post(format!("{}/sport/getSports", app.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(empty.status().as_u16(), 200);
    let bad = app.post("sport/getSports", Some(&token), json!({ "sport_id": "cricket" })).await;
    bad.expect(400);
    assert!(bad.field_error("sport_id").contains("not a whole number"));
    app.post("sport/getSports", None, json!({})).await.expect(401);
}
both_databases!(sports_come_in_display_order_and_filter);

async fn series_header_and_sidebar(app: TestApp) {
    let token = app.demo().await;
    let header =
        app.post("series/getSeriesHeader", Some(&token), json!({ "is_sidebar_call": 1 })).await;
    header.expect(200);
    let cricket = &header.data()[0];
    assert_eq!(cricket["sport_id"], 4);
    let names: Vec<&str> =
        cricket["series"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Indian Premier League", "ICC Champions Trophy", "Big Bash League"]);
    // The header lists only sports with matches; the sidebar every active sport.
    let header_sports = ids(header.data(), "sport_id");
    assert!(!header_sports.contains(&6423), "American Football has no matches");
    let sidebar =
        app.post("series/getSeriesHeader", Some(&token), json!({ "is_sidebar_call": "2" })).await;
    sidebar.expect(200);
    assert!(ids(sidebar.data(), "sport_id").contains(&6423));
    let bad =
        app.post("series/getSeriesHeader", Some(&token), json!({ "is_sidebar_call": 3 })).await;
    bad.expect(400);
    assert!(bad.field_error("is_sidebar_call").contains("1 (header) or 2 (sidebar)"));
    app.post("series/getSeriesHeader", Some(&token), json!({})).await.expect(400);
}
both_databases!(series_header_and_sidebar);

async fn series_of_a_sport(app: TestApp) {
    let token = app.demo().await;
    let answer =
        app.post("series/getSeries", Some(&token), json!({ "sport_id": 4, "is_active": 1 })).await;
    answer.expect(200);
    assert_eq!(answer.data().as_array().unwrap().len(), 3);
    assert!(answer.data().as_array().unwrap().iter().all(|s| s["sport_id"] == 4));
    let none = app.post("series/getSeries", Some(&token), json!({ "sport_id": 123456 })).await;
    none.expect(200);
    assert_eq!(none.data().as_array().unwrap().len(), 0);
    let missing = app.post("series/getSeries", Some(&token), json!({})).await;
    missing.expect(400);
    assert_eq!(missing.field_error("sport_id"), "sport_id is required.");
}
both_databases!(series_of_a_sport);

async fn matches_in_play_first_then_by_start(app: TestApp) {
    let token = app.demo().await;
    let answer =
        app.post("match/getMatches", Some(&token), json!({ "sport_id": 4, "is_active": 1 })).await;
    answer.expect(200);
    let matches = answer.data().as_array().unwrap();
    assert_eq!(matches.len(), 9);
    let in_play: Vec<bool> = matches.iter().map(|m| m["in_play"].as_bool().unwrap()).collect();
    let first_not_in_play = in_play.iter().position(|p| !p).unwrap();
    assert!(
        in_play[..first_not_in_play].iter().all(|p| *p)
            && in_play[first_not_in_play..].iter().all(|p| !p)
    );
    let upcoming: Vec<&str> =
        matches[first_not_in_play..].iter().map(|m| m["open_date"].as_str().unwrap()).collect();
    assert!(upcoming.windows(2).all(|w| w[0] <= w[1]), "upcoming not in start order: {upcoming:?}");
    let first = &matches[0];
    for field in [
        "match_id",
        "name",
        "match_name",
        "match_Date",
        "open_date",
        "sport_id",
        "sport_name",
        "series_id",
    ] {
        assert!(first.get(field).is_some(), "missing {field}");
    }
    assert_eq!(first["sport_name"], "Cricket");
    assert!(first["open_date"].as_str().unwrap().ends_with(".000Z"));
    let series_id = first["series_id"].as_i64().unwrap();
    let of_series =
        app.post("match/getMatches", Some(&token), json!({ "series_id": series_id })).await;
    assert!(of_series.data().as_array().unwrap().iter().all(|m| m["series_id"] == series_id));
}
both_databases!(matches_in_play_first_then_by_start);

async fn search_is_case_insensitive_and_grouped_by_sport(app: TestApp) {
    let token = app.demo().await;
    let answer = app
        .post("match/searchByMatchNameHeader", Some(&token), json!({ "search": "mUmBaI" }))
        .await;
    answer.expect(200);
    let cricket = answer.data()["Cricket"].as_array().unwrap();
    assert_eq!(cricket.len(), 1);
    assert_eq!(cricket[0]["match_name"], "Mumbai Indians v Chennai Super Kings");
    assert!(cricket[0]["open_date"].as_str().unwrap().ends_with('Z'));
    // The spec's Match entity's fields are there beside those: name, match_Date, sport_name.
    assert_eq!(cricket[0]["name"], "Mumbai Indians v Chennai Super Kings");
    assert_eq!(cricket[0]["match_Date"], cricket[0]["open_date"]);
    assert_eq!(cricket[0]["sport_name"], "Cricket");
    assert_eq!(cricket[0]["sport_id"], 4);
    // " v " is in nearly every fixture: several sports come back, each under its name.
    let many =
        app.post("match/searchByMatchNameHeader", Some(&token), json!({ "search": " v " })).await;
    let groups = many.data().as_object().unwrap();
    assert!(
        groups.contains_key("Cricket")
            && groups.contains_key("Football")
            && groups.contains_key("Tennis")
    );
    let total: usize = groups.values().map(|v| v.as_array().unwrap().len()).sum();
    assert!(total <= 50);
    // LIKE wildcards are searched for literally.
    let wildcard =
        app.post("match/searchByMatchNameHeader", Some(&token), json!({ "search": "%" })).await;
    assert_eq!(wildcard.data().as_object().unwrap().len(), 0);
    let empty =
        app.post("match/searchByMatchNameHeader", Some(&token), json!({ "search": "  " })).await;
    empty.expect(400);
    let long = app
        .post("match/searchByMatchNameHeader", Some(&token), json!({ "search": "x".repeat(51) }))
        .await;
    long.expect(400);
    assert!(long.field_error("search").contains("at most 50"));
}
both_databases!(search_is_case_insensitive_and_grouped_by_sport);

async fn cups_casino_and_exposure(app: TestApp) {
    let token = app.demo().await;
    let cups = app.get("match/getCupsForMenu", Some(&token)).await;
    cups.expect(200);
    let names: Vec<&str> =
        cups.data().as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Indian Premier League", "ICC Champions Trophy", "English Premier League"]);
    let casino = app.get("casino/getCasinoSport", Some(&token)).await;
    casino.expect(200);
    let orders = ids(casino.data(), "order");
    assert!(orders.windows(2).all(|w| w[0] <= w[1]));
    let casino_ids: Vec<&str> =
        casino.data().as_array().unwrap().iter().map(|c| c["sport_id"].as_str().unwrap()).collect();
    assert!(casino_ids.contains(&"matka") && casino_ids.contains(&"worldcasino"));
    let exposure = app.get("bet/getExposureDetail", Some(&token)).await;
    exposure.expect(200);
    assert_eq!(exposure.data()["data"], json!([]));
    app.get("bet/getExposureDetail", None).await.expect(401);
    app.get("casino/getCasinoSport", None).await.expect(401);
    app.get("match/getCupsForMenu", None).await.expect(401);
}
both_databases!(cups_casino_and_exposure);

async fn race_meetings_by_country_and_day(app: TestApp) {
    let token = app.demo().await;
    // Today at UTC+5:30, from the first race the demo scheduled.
    let all = app.post("match/getMatches", Some(&token), json!({ "sport_id": 7 })).await;
    let first = all.data()[0]["open_date"].as_str().unwrap().to_string();
    let ms = time::OffsetDateTime::parse(&first, &time::format_description::well_known::Rfc3339)
        .unwrap()
        + time::Duration::minutes(330);
    let day = format!("{:04}-{:02}-{:02}", ms.year(), u8::from(ms.month()), ms.day());
    let answer = app
        .post(
            "match/getMatchVenueListByCountryCodeSportId",
            Some(&token),
            json!({ "country": "gb", "date": day, "sport_id": 7 }),
        )
        .await;
    answer.expect(200);
    let venues = answer.data().as_array().unwrap();
    assert!(!venues.is_empty());
    assert!(venues.iter().all(|v| v["country_code"] == "GB"));
    let races = venues[0]["races"].as_array().unwrap();
    let times: Vec<&str> = races.iter().map(|r| r["market_start_time"].as_str().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]), "races in off order: {times:?}");
    assert!(races[0]["name"].as_str().unwrap().starts_with(venues[0]["venue"].as_str().unwrap()));
    let none = app
        .post(
            "match/getMatchVenueListByCountryCodeSportId",
            Some(&token),
            json!({ "country": "GB", "date": "2020-01-01", "sport_id": 7 }),
        )
        .await;
    assert_eq!(none.data().as_array().unwrap().len(), 0);
    app.post(
        "match/getMatchVenueListByCountryCodeSportId",
        Some(&token),
        json!({ "country": "GBR", "date": day, "sport_id": 7 }),
    )
    .await
    .expect(400);
    app.post(
        "match/getMatchVenueListByCountryCodeSportId",
        Some(&token),
        json!({ "country": "GB", "date": "tomorrow", "sport_id": 7 }),
    )
    .await
    .expect(400);
}
both_databases!(race_meetings_by_country_and_day);

async fn racing_countries_are_those_with_races(app: TestApp) {
    let token = app.demo().await;
    let countries = |body: Value| {
        let app = &app;
        let token = token.clone();
        async move {
            let answer = app.post("match/getRacingCountries", Some(&token), body).await;
            answer.expect(200);
            answer.data().as_array().unwrap().clone()
        }
    };
    // Any day: the demo's horse meetings (GB has two venues), most races first.
    let horses = countries(json!({ "sport_id": 7 })).await;
    let listed: Vec<(&str, i64, i64)> = horses
        .iter()
        .map(|c| {
            (
                c["country_code"].as_str().unwrap(),
                c["venues"].as_i64().unwrap(),
                c["races"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(listed, vec![("GB", 2, 11), ("AU", 1, 6), ("IE", 1, 5), ("US", 1, 5)]);
    let dogs = countries(json!({ "sport_id": "4339", "date": "" })).await;
    let codes: Vec<&str> = dogs.iter().map(|c| c["country_code"].as_str().unwrap()).collect();
    assert_eq!(codes, vec!["GB", "AU"]);

    // On one day: the same races the venue list shows for that day, country by country.
    let all = app.post("match/getMatches", Some(&token), json!({ "sport_id": 7 })).await;
    let first = all.data()[0]["open_date"].as_str().unwrap().to_string();
    let ms = time::OffsetDateTime::parse(&first, &time::format_description::well_known::Rfc3339)
        .unwrap()
        + time::Duration::minutes(330);
    let day = format!("{:04}-{:02}-{:02}", ms.year(), u8::from(ms.month()), ms.day());
    let that_day = countries(json!({ "sport_id": 7, "date": day })).await;
    assert!(!that_day.is_empty());
    for country in &that_day {
        let venues = app
            .post(
                "match/getMatchVenueListByCountryCodeSportId",
                Some(&token),
                json!({ "country": country["country_code"], "date": day, "sport_id": 7 }),
            )
            .await;
        let races: usize = venues
            .data()
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["races"].as_array().unwrap().len())
            .sum();
        assert_eq!(country["races"].as_i64().unwrap() as usize, races, "{country}");
    }
    assert!(countries(json!({ "sport_id": 7, "date": "2020-01-01" })).await.is_empty());
    assert!(countries(json!({ "sport_id": 4 })).await.is_empty(), "cricket has no venues");

    let bad = app
        .post("match/getRacingCountries", Some(&token), json!({ "sport_id": 7, "date": "soon" }))
        .await;
    bad.expect(400);
    assert!(bad.field_error("date").contains("a day such as"));
    app.post("match/getRacingCountries", Some(&token), json!({})).await.expect(400);
    app.post("match/getRacingCountries", None, json!({ "sport_id": 7 })).await.expect(401);
}
both_databases!(racing_countries_are_those_with_races);
