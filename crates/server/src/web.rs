//! Serves the built web client.
//!
//! - **The page** (`index.html`) is read once at start and answered from memory, with
//!   `Cache-Control: no-cache` (a new build is seen at the next visit) and the app's
//!   Content-Security-Policy ([`content_security_policy`]). Unknown paths that look like pages
//!   (no file extension, not under `assets/`) get it too: the app routes by hash, but a deep
//!   link must still load it. Without a build, a short page says how to make one.
//! - **Assets** come from the build directory through `ServeDir`: the `.br` or `.gz` file the
//!   build wrote next to each one (`web/scripts/precompress.mjs`) when the browser accepts it,
//!   and under `assets/`, whose names carry a hash of their content, `Cache-Control: public,
//!   max-age=31536000, immutable`. Anything else in the directory is `no-cache`.
//! - **Errors**: a path that names no file, or that the file system refuses (a name too long, not
//!   a directory …), is a 404; nothing a client sends here is a server error.
//!
//! The policy's `frame-src` is the casino allow-list (`casino_frame_origins` and the server's
//! public origin, as `getGlobalSetting` publishes it), read from the settings at most every
//! [`FRAME_POLICY_TTL`], so an operator's change reaches pages loaded after it.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use backlay_store::Store;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

use backlay_operator::AppState;

const NOT_BUILT_PAGE: &str = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Backlay</title></head>\
<body><h1>Backlay</h1>\
<p>The server is running, but the web app has not been built.</p>\
<p>Run <code>make run</code> from the repository (it builds <code>web/dist</code>), \
or point <code>--web-dir</code> at a build. The API is at <a href=\"api/health\">/api/health</a>.</p>\
</body></html>";

/// How long the page's policy is reused before the allow-list is read again.
pub const FRAME_POLICY_TTL: Duration = Duration::from_secs(2);

const IMMUTABLE: HeaderValue = HeaderValue::from_static("public, max-age=31536000, immutable");
const NO_CACHE: HeaderValue = HeaderValue::from_static("no-cache");

/// The app's Content-Security-Policy, framing only `frame_origins`. Scripts, styles and calls
/// come from this origin alone; images may also be `data:` or any https address, because the
/// site's logo and favicon are settings an operator may point at a CDN.
pub fn content_security_policy(frame_origins: &[String]) -> String {
    // The origins were checked when they were set; anything that could break out of the
    // directive (a space, a `;`) is dropped all the same.
    let origins: Vec<&str> = frame_origins
        .iter()
        .map(String::as_str)
        .filter(|o| {
            !o.is_empty() && o.chars().all(|c| c.is_ascii_alphanumeric() || ".:/-[]".contains(c))
        })
        .collect();
    let frame_src = if origins.is_empty() { "'none'".to_string() } else { origins.join(" ") };
    format!(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; font-src 'self' data:; \
         connect-src 'self'; frame-src {frame_src}; object-src 'none'; base-uri 'none'; form-action 'self'; \
         frame-ancestors 'none'"
    )
}

/// The web client's routes: every path the API and the provider do not take.
pub fn router(state: &AppState) -> Router {
    let web_dir = &state.config.web_dir;
    let index = match std::fs::read(web_dir.join("index.html")) {
        Ok(index) => Bytes::from(index),
        Err(_) => {
            tracing::warn!("no web app at {}: serving a placeholder page", web_dir.display());
            Bytes::from_static(NOT_BUILT_PAGE.as_bytes())
        }
    };
    let web = WebApp {
        index,
        files: files(web_dir),
        frame_policy: FramePolicy {
            store: state.store.clone(),
            public_url: state.public_url.clone(),
            cached: Mutex::new(None),
        },
    };
    Router::new()
        .fallback(serve)
        .with_state(Arc::new(web))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
}

fn files(web_dir: &Path) -> ServeDir {
    ServeDir::new(web_dir)
        .precompressed_br()
        .precompressed_gzip()
        .append_index_html_on_directories(false)
}

struct WebApp {
    index: Bytes,
    files: ServeDir,
    frame_policy: FramePolicy,
}

async fn serve(State(web): State<Arc<WebApp>>, request: Request) -> Response {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, "GET, HEAD")]).into_response();
    }
    let path = request.uri().path().to_string();
    if path == "/" || path == "/index.html" {
        return web.page().await;
    }
    let mut files = web.files.clone();
    let response = match files.try_call(request).await {
        Ok(response) if response.status() != StatusCode::NOT_FOUND => response,
        Ok(_) if looks_like_a_page(&path) => return web.page().await,
        Ok(_) => return not_found(),
        Err(err) => {
            tracing::debug!(%path, "static file refused: {err}");
            return not_found();
        }
    };
    let mut response = response.map(Body::new);
    let hashed = path.starts_with("/assets/")
        && (response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED);
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, if hashed { IMMUTABLE } else { NO_CACHE });
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    response
}

/// A path the app may route (`/`, `/match/5`), not a file a build would hold (`/logo.png`).
fn looks_like_a_page(path: &str) -> bool {
    let last = path.rsplit('/').next().unwrap_or_default();
    !path.starts_with("/assets/") && !last.contains('.')
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, [(header::CACHE_CONTROL, "no-cache")], "Not found").into_response()
}

impl WebApp {
    async fn page(&self) -> Response {
        let csp = self.frame_policy.header().await;
        (
            [
                (header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8")),
                (header::CACHE_CONTROL, NO_CACHE),
                (header::CONTENT_SECURITY_POLICY, csp),
            ],
            self.index.clone(),
        )
            .into_response()
    }
}

/// The page's policy, rebuilt from the casino allow-list at most every [`FRAME_POLICY_TTL`].
struct FramePolicy {
    store: Store,
    public_url: Arc<str>,
    cached: Mutex<Option<(Instant, HeaderValue)>>,
}

impl FramePolicy {
    async fn header(&self) -> HeaderValue {
        if let Some((read_at, csp)) = &*self.cached.lock().expect("policy lock") {
            if read_at.elapsed() < FRAME_POLICY_TTL {
                return csp.clone();
            }
        }
        let origins = match backlay_kit::settings::load(&self.store).await {
            Ok(settings) => backlay_kit::settings::frame_origins(
                settings.get("casino_frame_origins").map(String::as_str).unwrap_or_default(),
                &self.public_url,
            ),
            Err(err) => {
                // Without the setting, frame only the built-in provider until it can be read.
                tracing::warn!("reading the casino allow-list for the page's policy failed: {err}");
                vec![self.public_url.to_string()]
            }
        };
        let csp = HeaderValue::from_str(&content_security_policy(&origins))
            .expect("a policy of checked ASCII origins");
        *self.cached.lock().expect("policy lock") = Some((Instant::now(), csp.clone()));
        csp
    }
}

#[cfg(test)]
mod tests {
    use super::{content_security_policy, looks_like_a_page};

    #[test]
    fn the_policy_frames_only_the_allow_list() {
        let csp = content_security_policy(&[
            "https://games.example.com".into(),
            "http://127.0.0.1:8080".into(),
        ]);
        assert!(
            csp.contains("frame-src https://games.example.com http://127.0.0.1:8080;"),
            "{csp}"
        );
        assert!(csp.contains("script-src 'self';") && csp.contains("style-src 'self';"), "{csp}");
        assert!(!csp.contains("unsafe"), "{csp}");
        let injected = content_security_policy(&["https://a.example.com; script-src *".into()]);
        assert!(
            injected.contains("frame-src 'none';") && !injected.contains("script-src *"),
            "{injected}"
        );
    }

    #[test]
    fn pages_are_paths_without_a_file_name() {
        assert!(looks_like_a_page("/"));
        assert!(looks_like_a_page("/match/5"));
        assert!(!looks_like_a_page("/logo.png"));
        assert!(!looks_like_a_page("/assets/chunk"));
    }
}
