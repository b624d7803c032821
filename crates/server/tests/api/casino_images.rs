//! The in-house games' images over HTTP: the art the server ships (`/casino/art/<kind>.svg`),
//! served as a script-free SVG to anyone, and the image the lobby and the world-casino
//! catalogue send for each game — the art, or the upload an admin put in its place.

use std::collections::BTreeMap;

use backlay_casino::games::GameKind;
use backlay_server::casino_art::art_svg;
use backlay_server::operator::{Actor, OperatorContext};
use backlay_server::uploads::remove_image;
use serde_json::{json, Value};

use crate::both_databases;
use crate::common::{spawn_app, Answer, Db, TestApp};

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
    assert_eq!(newest["detail"]["image"], "dragon-tiger.png");
    assert_eq!(newest["actor_user_id"], app.user_id(&admin, "admin").await);

    // Reset (here by the rules code): the art again.
    let reset = set_image(&app, &admin, "dt1day", " ").await;
    reset.expect(200);
    assert_eq!(reset.data()["image_name"], "");
    assert_eq!(reset.data()["image"], "/casino/art/dt1day.svg");
    assert_eq!(list_images(&app, &demo).await["dt6"], "/casino/art/dt1day.svg");
    let audit = app.post("admin/audit", Some(&admin), json!({ "limit": 1 })).await;
    assert_eq!(audit.data()["rows"][0]["detail"]["image"], Value::Null);

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
