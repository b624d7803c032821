//! The casino's lobby over HTTP: the art the server ships (`/casino/art/<kind>.svg`), served
//! as a script-free SVG to anyone; the image the lobby and the world-casino catalogue send for
//! each game — the art, or the upload an admin put in its place; and the categories
//! (`casino/getCasinoSport`), honest about the computer-dealt tables and never empty.

use std::collections::BTreeMap;

use backlay_casino::games::GameKind;
use backlay_casino_runtime::art::art_svg;
use backlay_kit::uploads::remove_image;
use backlay_operator::{self as operator, Actor, OperatorContext};
use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{spawn_app, Answer, Db, TestApp};
use backlay_casino_store::{CasinoReads, ProviderReads, ProviderWrites};

fn origin(app: &TestApp) -> String {
    app.base.trim_end_matches("/api").to_string()
}

/// The art does not touch the database, so this runs on SQLite only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_games_art_is_served_as_a_script_free_svg() {
    let app = spawn_app(Db::Sqlite).await.expect("SQLite always runs");
    let origin = origin(&app);
    for game in GameKind::ALL {
        // No session: the art is public like the web app's own files.
        let answer = app
            .client
            .get(format!("{origin}/casino/art/{}.svg", game.code()))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200, "{game:?}");
        let headers = answer.headers().clone();
        assert_eq!(headers["content-type"], "image/svg+xml", "{game:?}");
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(
            headers["content-security-policy"],
            "default-src 'none'; style-src 'unsafe-inline'"
        );
        assert_eq!(headers["cache-control"], "public, max-age=604800");
        assert_eq!(answer.text().await.unwrap(), art_svg(game), "{game:?}");

        // A browser that has it asks again with its ETag and is told it is unchanged.
        let again = app
            .client
            .get(format!("{origin}/casino/art/{}.svg", game.code()))
            .header("if-none-match", headers["etag"].clone())
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), 304, "{game:?}");
        assert!(again.bytes().await.unwrap().is_empty());
    }

    // Client codes, other names and other types are not art.
    for missing in ["dt6.svg", "teen20.png", "teen20", "TEEN20.svg", "..%2Fteen20.svg", "x.svg"] {
        let answer = app.client.get(format!("{origin}/casino/art/{missing}")).send().await.unwrap();
        assert_eq!(answer.status(), 404, "{missing}");
    }
    let posted = app.client.post(format!("{origin}/casino/art/teen20.svg")).send().await.unwrap();
    assert_eq!(posted.status(), 405);
}

fn png() -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.extend((0..120u32).map(|i| (i % 251) as u8));
    bytes
}

/// game_code → image, as the lobby's list sends them.
async fn list_images(app: &TestApp, token: &str) -> BTreeMap<String, String> {
    let answer = app.post("casino/getCasinoList", Some(token), json!({})).await;
    answer.expect(200);
    answer
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["game_code"].as_str().unwrap().into(), g["image"].as_str().unwrap().into()))
        .collect()
}

/// The world-casino catalogue's thumbnail of the built-in provider's game of `kind`.
async fn catalogue_thumb(app: &TestApp, token: &str, kind: GameKind) -> String {
    let answer = app.get("casino/getStaticGames", Some(token)).await;
    answer.expect(200);
    let id = format!("backlay-{}", kind.code());
    let games = answer.data().as_array().unwrap();
    let game = games.iter().find(|g| g["game_id"] == id.as_str()).expect("the game is listed");
    game["url_thumb"].as_str().unwrap().to_string()
}

async fn set_image(app: &TestApp, token: &str, game_code: &str, image: &str) -> Answer {
    app.post(
        "admin/casino/gameImage",
        Some(token),
        json!({ "game_code": game_code, "image": image }),
    )
    .await
}

async fn the_operator_replaces_a_games_image_and_resets_it(app: TestApp) {
    let (admin, agent, demo) = (app.admin().await, app.agent().await, app.demo().await);
    let store = app.store().await;

    // Every game starts with its own art, in the lobby and in the catalogue alike.
    let images = list_images(&app, &demo).await;
    assert_eq!(images.len(), GameKind::ALL.len());
    for game in store.casino_games(false, None).await.unwrap() {
        let kind = GameKind::from_code(&game.kind).unwrap();
        assert_eq!(images[&game.game_code], format!("/casino/art/{}.svg", kind.code()));
        assert_eq!(catalogue_thumb(&app, &demo, kind).await, images[&game.game_code]);
    }

    // The admin uploads an image and shows it on Dragon Tiger's tile (named by its client code).
    let upload =
        app.post_raw("admin/upload/image?name=Dragon%20Tiger.png", Some(&admin), png()).await;
    upload.expect(200);
    let replaced = set_image(&app, &admin, "dt6", "dragon-tiger.png").await;
    replaced.expect(200);
    assert_eq!(replaced.data()["game_code"], "dt6");
    assert_eq!(replaced.data()["image_name"], "dragon-tiger.png");
    assert_eq!(replaced.data()["image"], "/upload/image/dragon-tiger.png");
    let images = list_images(&app, &demo).await;
    assert_eq!(images["dt6"], "/upload/image/dragon-tiger.png");
    assert_eq!(images["teen20"], "/casino/art/teen20.svg", "the other games keep their art");
    assert_eq!(catalogue_thumb(&app, &demo, GameKind::DragonTiger).await, images["dt6"]);
    let served = app.client.get(format!("{}{}", origin(&app), images["dt6"])).send().await.unwrap();
    assert_eq!(served.status(), 200);
    assert_eq!(served.bytes().await.unwrap().to_vec(), png());

    // It is in the audit log with its actor.
    let audit = app.post("admin/audit", Some(&admin), json!({ "limit": 1 })).await;
    let newest = &audit.data()["rows"][0];
    assert_eq!(newest["action"], "casino_game.image");
    assert_eq!(newest["target"], "casino_game:dt6");
    assert_eq!(newest["detail"]["after"]["image"], "dragon-tiger.png");
    assert_eq!(newest["actor_user_id"], app.user_id(&admin, "admin").await);

    // Reset (here by the rules code): the art again.
    let reset = set_image(&app, &admin, "dt1day", " ").await;
    reset.expect(200);
    assert_eq!(reset.data()["image_name"], "");
    assert_eq!(reset.data()["image"], "/casino/art/dt1day.svg");
    assert_eq!(list_images(&app, &demo).await["dt6"], "/casino/art/dt1day.svg");
    let audit = app.post("admin/audit", Some(&admin), json!({ "limit": 1 })).await;
    assert_eq!(audit.data()["rows"][0]["detail"]["after"]["image"], Value::Null);

    // Removing an upload a tile shows brings the art back rather than a broken tile.
    set_image(&app, &admin, "roulette", "dragon-tiger.png").await.expect(200);
    let console = OperatorContext { store: &store, actor: Actor::Console, client_ip: None };
    remove_image(&console, "dragon-tiger.png").await.unwrap();
    assert_eq!(list_images(&app, &demo).await["roulette"], "/casino/art/roulette.svg");

    // Only an admin: a client and an agent are refused, and nothing changes.
    app.post_raw("admin/upload/image?name=mine.png", Some(&admin), png()).await.expect(200);
    set_image(&app, &demo, "dt6", "mine.png").await.expect(403);
    let refused = set_image(&app, &agent, "dt6", "mine.png").await;
    refused.expect(403);
    assert!(refused.message().contains("Only an admin"), "{}", refused.message());
    app.post("admin/casino/gameImage", None, json!({ "game_code": "dt6", "image": "mine.png" }))
        .await
        .expect(401);
    assert_eq!(list_images(&app, &demo).await["dt6"], "/casino/art/dt1day.svg");

    // Unknown games and images are 404s; what could never name them is a 400.
    let unknown_game = set_image(&app, &admin, "blackjack", "mine.png").await;
    unknown_game.expect(404);
    assert!(
        unknown_game.message().contains("no casino game blackjack"),
        "{}",
        unknown_game.message()
    );
    let unknown_image = set_image(&app, &admin, "dt6", "nothing.png").await;
    unknown_image.expect(404);
    assert!(
        unknown_image.message().contains("no uploaded image nothing.png"),
        "{}",
        unknown_image.message()
    );
    for bad in ["../mine.png", "Mine.PNG", "mine.svg", "https://example.com/x.png"] {
        let answer = set_image(&app, &admin, "dt6", bad).await;
        answer.expect(400);
        assert!(answer.field_error("image").contains("upload the image first"), "{bad}");
    }
    let no_game = set_image(&app, &admin, "  ", "mine.png").await;
    no_game.expect(400);
    assert!(no_game.field_error("game_code").contains("e.g. teen20"));
    app.post("admin/casino/gameImage", Some(&admin), json!({ "game_code": "dt6" }))
        .await
        .expect(400);
    assert_eq!(list_images(&app, &demo).await["dt6"], "/casino/art/dt1day.svg");
}
both_databases!(the_operator_replaces_a_games_image_and_resets_it);

/// (id, name) of each casino category, in the order the site shows them.
async fn categories(app: &TestApp, token: &str) -> Vec<(String, String)> {
    let answer = app.get("casino/getCasinoSport", Some(token)).await;
    answer.expect(200);
    answer
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (c["sport_id"].as_str().unwrap().to_string(), c["name"].as_str().unwrap().to_string())
        })
        .collect()
}

fn ids(categories: &[(String, String)]) -> Vec<&str> {
    categories.iter().map(|(id, _)| id.as_str()).collect()
}

async fn casino_categories_are_data_the_operator_edits(app: TestApp) {
    let token = app.demo().await;
    let seeded = categories(&app, &token).await;
    assert_eq!(ids(&seeded), vec!["teenpatti", "cardgames", "tablegames", "worldcasino", "matka"]);
    assert_eq!(seeded.iter().filter(|(_, name)| name == "World Casino").count(), 1);

    let store = app.store().await;
    let console = OperatorContext { store: &store, actor: Actor::Console, client_ip: None };
    operator::add_casino_category(&console, "virtual", "Virtual", 0).await.unwrap();
    operator::rename_casino_category(&console, "matka", "Worli Matka").await.unwrap();
    let edited = categories(&app, &token).await;
    assert!(edited.contains(&("matka".to_string(), "Worli Matka".to_string())));
    // A category with nothing in it is the operator's to fill, not a tab for players.
    assert!(!ids(&edited).contains(&"virtual"), "{edited:?}");
    let all = store.casino_sports(false).await.unwrap();
    assert_eq!(all[0].sport_id, "virtual");

    // A category the in-house games belong to stays.
    let refused = operator::remove_casino_category(&console, "teenpatti").await.unwrap_err();
    assert!(refused.to_string().contains("belong to the category teenpatti"), "{refused}");
    operator::remove_casino_category(&console, "virtual").await.unwrap();
    assert_eq!(store.casino_sports(false).await.unwrap().len(), 5);
}
both_databases!(casino_categories_are_data_the_operator_edits);

/// The category each in-house game is listed under, by its rules code.
fn honest_category(kind: GameKind) -> &'static str {
    match kind {
        GameKind::TeenPattiT20
        | GameKind::TeenPattiOneDay
        | GameKind::TeenPattiTest
        | GameKind::TwoCardTeenPatti
        | GameKind::MuflisTeenPatti => "teenpatti",
        GameKind::Roulette => "tablegames",
        GameKind::WorliMatka => "matka",
        GameKind::DragonTiger
        | GameKind::HiLow
        | GameKind::Poker
        | GameKind::Queen
        | GameKind::Baccarat
        | GameKind::AmarAkbarAnthony
        | GameKind::Bollywood
        | GameKind::Trio
        | GameKind::AndarBahar => "cardgames",
    }
}

async fn the_computer_dealt_tables_are_never_called_live(app: TestApp) {
    let token = app.demo().await;
    let store = app.store().await;
    let console = OperatorContext { store: &store, actor: Actor::Console, client_ip: None };

    // Migration 0010 took every table out of Live Casino, which is gone.
    let listed = categories(&app, &token).await;
    assert!(listed.iter().all(|(_, name)| !name.to_lowercase().contains("live")), "{listed:?}");
    assert!(store.casino_sports(false).await.unwrap().iter().all(|c| c.sport_id != "livecasino"));
    let answer = app.post("casino/getCasinoList", Some(&token), json!({})).await;
    for game in answer.data().as_array().unwrap() {
        let kind = store.casino_game(game["match_id"].as_i64().unwrap()).await.unwrap().kind;
        let kind = GameKind::from_code(&kind).unwrap();
        assert_eq!(game["series_id"], honest_category(kind), "{kind:?}");
    }
    // Every tab the player sees lists something.
    for (id, _) in listed.iter().filter(|(id, _)| id != "worldcasino") {
        let games =
            app.post("casino/getCasinoList", Some(&token), json!({ "series_id": id })).await;
        assert!(!games.data().as_array().unwrap().is_empty(), "{id} is empty");
    }

    // A name with the word "live" is refused for a category of in-house tables, whatever its case.
    for (id, name) in [
        ("cardgames", "Live Casino"),
        ("teenpatti", "Teen Patti LIVE"),
        ("tablegames", "Live-Dealer Tables"),
    ] {
        let refused = operator::rename_casino_category(&console, id, name).await.unwrap_err();
        let message = refused.to_string();
        assert!(message.contains("which the computer deals"), "{message}");
        assert!(message.contains(&format!("{id} holds the in-house tables")), "{message}");
    }
    assert_eq!(categories(&app, &token).await, listed, "nothing was renamed");
    // Other words, and the world casino (the providers' games may well be live), are fine.
    operator::rename_casino_category(&console, "cardgames", "Olive Card Tables").await.unwrap();
    operator::rename_casino_category(&console, "worldcasino", "Live Casino").await.unwrap();
    operator::add_casino_category(&console, "livegames", "Live Games", 9).await.unwrap();
    let renamed = categories(&app, &token).await;
    assert!(renamed.contains(&("cardgames".into(), "Olive Card Tables".into())), "{renamed:?}");
    assert!(renamed.contains(&("worldcasino".into(), "Live Casino".into())), "{renamed:?}");

    // The world casino's tab goes when no catalogue game is on, and comes back with one.
    let mut writer = store.begin_write().await.unwrap();
    for game in store.world_casino_games().await.unwrap() {
        writer.set_world_casino_game_active(&game.game_id, false).await.unwrap();
    }
    writer.commit().await.unwrap();
    assert!(!ids(&categories(&app, &token).await).contains(&"worldcasino"));
    let mut writer = store.begin_write().await.unwrap();
    writer.set_world_casino_game_active("backlay-dt1day", true).await.unwrap();
    writer.commit().await.unwrap();
    assert!(ids(&categories(&app, &token).await).contains(&"worldcasino"));
}
both_databases!(the_computer_dealt_tables_are_never_called_live);
