//! Serves the built web client. Unknown paths fall back to `index.html` (the app routes by
//! hash, but a deep link must still load the app). Without a build, a short page says how to
//! make one instead of a bare 404.

use std::path::Path;

use axum::http::header;
use axum::response::Html;
use axum::routing::get;
use axum::Router;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

const NOT_BUILT_PAGE: &str = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Backlay</title></head>\
<body style=\"font-family:sans-serif;margin:3rem\"><h1>Backlay</h1>\
<p>The server is running, but the web app has not been built.</p>\
<p>Run <code>make run</code> from the repository (it builds <code>web/dist</code>), \
or point <code>--web-dir</code> at a build. The API is at <a href=\"api/health\">/api/health</a>.</p>\
</body></html>";

pub fn router<S: Clone + Send + Sync + 'static>(web_dir: &Path) -> Router<S> {
    let index = web_dir.join("index.html");
    let router = if index.is_file() {
        Router::new().fallback_service(ServeDir::new(web_dir).fallback(ServeFile::new(index)))
    } else {
        tracing::warn!("no web app at {}: serving a placeholder page", web_dir.display());
        Router::new().fallback(get(|| async { Html(NOT_BUILT_PAGE) }))
    };
    router
        .layer(SetResponseHeaderLayer::if_not_present(header::X_FRAME_OPTIONS, header::HeaderValue::from_static("DENY")))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            header::HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            header::HeaderValue::from_static("same-origin"),
        ))
}

