//! How the server serves the web app (`web.rs`): the static files' status codes, encodings,
//! cache headers and Content-Security-Policy. It does not touch the database, so these run on
//! SQLite only.

use std::path::Path;
use std::time::{Duration, Instant};

use backlay_server::Config;

use crate::common::{spawn_app_with, Db, TestApp};

/// Longest any test here waits for the server to act, whatever it is waiting for.
const PATIENCE: Duration = Duration::from_secs(8);

async fn app_with(adjust: impl FnOnce(&mut Config)) -> TestApp {
    spawn_app_with(Db::Sqlite, adjust).await.expect("SQLite always runs")
}

fn root(app: &TestApp) -> String {
    app.base.trim_end_matches("/api").to_string()
}

// ---------------------------------------------------------------------------------------------
// The web app

/// A small build: the page and one hashed asset with its brotli and gzip copies (their bytes
/// are labels, not real compression: the test checks which file was sent).
fn write_build(dir: &Path) {
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><title>the build</title>",
    )
    .unwrap();
    std::fs::write(dir.join("assets/app-0a1b2c.js"), "console.log('plain');").unwrap();
    std::fs::write(dir.join("assets/app-0a1b2c.js.br"), "brotli bytes").unwrap();
    std::fs::write(dir.join("assets/app-0a1b2c.js.gz"), "gzip bytes").unwrap();
}

async fn web_app() -> (TestApp, tempfile::TempDir) {
    let build = tempfile::tempdir().unwrap();
    write_build(build.path());
    let web_dir = build.path().to_path_buf();
    let app = app_with(move |config| config.web_dir = web_dir).await;
    (app, build)
}

async fn fetch(
    app: &TestApp,
    path: &str,
    accept_encoding: Option<&str>,
) -> (u16, reqwest::header::HeaderMap, String) {
    let mut request = app.client.get(format!("{}{path}", root(app)));
    if let Some(encodings) = accept_encoding {
        request = request.header("accept-encoding", encodings);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.text().await.unwrap())
}

fn header<'a>(headers: &'a reqwest::header::HeaderMap, name: &str) -> &'a str {
    headers
        .get(name)
        .map(|v| v.to_str().unwrap())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn assets_are_sent_precompressed_and_cached_for_a_year_and_the_page_is_revalidated() {
    let (app, build) = web_app().await;
    let asset = "/assets/app-0a1b2c.js";
    for (accepts, encoding, body) in [
        (Some("gzip, deflate, br"), "br", "brotli bytes"),
        (Some("gzip"), "gzip", "gzip bytes"),
        (None, "", "console.log('plain');"),
    ] {
        let (status, headers, text) = fetch(&app, asset, accepts).await;
        assert_eq!(status, 200, "{accepts:?}");
        assert_eq!(
            header(&headers, "content-encoding"),
            encoding,
            "{accepts:?}"
        );
        assert_eq!(text, body, "{accepts:?}");
        assert_eq!(header(&headers, "content-type"), "text/javascript");
        assert_eq!(
            header(&headers, "cache-control"),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(header(&headers, "vary"), "accept-encoding");
    }
    // A missing asset is a 404 that no one may keep.
    let (status, headers, _) = fetch(&app, "/assets/app-ffffff.js", Some("br")).await;
    assert_eq!(status, 404);
    assert_eq!(header(&headers, "cache-control"), "no-cache");

    // The page: revalidated at every visit, the same from `/`, `/index.html` and a deep link,
    // and answered from memory (a change on disk is not seen until a restart).
    std::fs::write(build.path().join("index.html"), "changed on disk").unwrap();
    for path in ["/", "/index.html", "/some/deep/link"] {
        let (status, headers, text) = fetch(&app, path, Some("gzip, br")).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(text, "<!doctype html><title>the build</title>", "{path}");
        assert_eq!(header(&headers, "cache-control"), "no-cache", "{path}");
        assert_eq!(
            header(&headers, "content-type"),
            "text/html; charset=utf-8",
            "{path}"
        );
        assert!(!headers.contains_key("content-encoding"), "{path}");
    }
    // A file that is not in the build is a 404, not the page.
    assert_eq!(fetch(&app, "/logo.png", None).await.0, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn any_file_error_on_a_static_path_is_a_404() {
    let (app, _build) = web_app().await;
    let long = "a".repeat(300);
    for path in [
        format!("/{long}"),
        format!("/{long}.js"),
        format!("/assets/{long}.js"),
        format!("/assets/{long}/x.js"),
        "/assets/app-0a1b2c.js/inside".to_string(),
        "/assets/".to_string(),
        "/assets/..%2f..%2fetc%2fpasswd".to_string(),
    ] {
        let (status, _, text) = fetch(&app, &path, Some("br, gzip")).await;
        assert_eq!(status, 404, "{path}: {text}");
        assert_eq!(text, "Not found", "{path}");
    }
}

/// `name → values` of a Content-Security-Policy.
fn directives(policy: &str) -> std::collections::BTreeMap<String, Vec<String>> {
    policy
        .split(';')
        .filter_map(|directive| {
            let mut words = directive.split_whitespace();
            Some((
                words.next()?.to_string(),
                words.map(str::to_string).collect(),
            ))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_carries_a_strict_policy_whose_frames_follow_the_casino_allow_list() {
    let (app, _build) = web_app().await;
    let own = root(&app);
    let (_, headers, _) = fetch(&app, "/", None).await;
    let policy = header(&headers, "content-security-policy").to_string();
    assert_eq!(
        policy,
        format!(
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; font-src 'self' data:; \
             connect-src 'self'; frame-src {own}; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        )
    );
    let d = directives(&policy);
    assert_eq!(d["script-src"], ["'self'"]);
    assert_eq!(d["style-src"], ["'self'"]);
    assert_eq!(d["object-src"], ["'none'"]);
    assert_eq!(d["base-uri"], ["'none'"]);
    assert_eq!(d["frame-ancestors"], ["'none'"]);
    assert_eq!(d["frame-src"], [own.as_str()]);
    assert_eq!(header(&headers, "x-frame-options"), "DENY");
    assert_eq!(header(&headers, "x-content-type-options"), "nosniff");

    // The operator adds a provider: pages loaded after it may frame its games.
    let admin = app.login("admin", "Admin@1234").await;
    app.post(
        "admin/settings",
        Some(&admin),
        serde_json::json!({ "casino_frame_origins": "https://games.example.com" }),
    )
    .await
    .expect(200);
    let started = Instant::now();
    let frames = loop {
        let (_, headers, _) = fetch(&app, "/", None).await;
        let frames = directives(header(&headers, "content-security-policy"))["frame-src"].clone();
        if frames.len() > 1 || started.elapsed() > PATIENCE {
            break frames;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(
        frames,
        ["https://games.example.com".to_string(), own.clone()]
    );

    // The built-in provider's page keeps its own policy: framed by the app, nothing else.
    let (status, headers, _) = fetch(&app, "/provider/play", None).await;
    assert_eq!(status, 200);
    let provider = directives(header(&headers, "content-security-policy"));
    assert_eq!(provider["frame-ancestors"], ["'self'".to_string(), own]);
    assert_eq!(header(&headers, "x-frame-options"), "SAMEORIGIN");
}
