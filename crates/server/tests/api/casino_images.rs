//! The in-house games' images over HTTP: the art the server ships (`/casino/art/<kind>.svg`),
//! served as a script-free SVG to anyone.

use backlay_casino::games::GameKind;
use backlay_server::casino_art::art_svg;

use crate::common::{spawn_app, Db, TestApp};

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
