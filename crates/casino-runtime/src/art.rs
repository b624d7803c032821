//! The in-house games' tile art: one SVG per [`GameKind`], drawn for Backlay
//! (`crates/server/assets/casino-art/<kind>.svg`), compiled into the binary and served at
//! `GET /casino/art/<kind>.svg` — the `image` that `casino/getCasinoList` sends for a game the
//! operator has not given an image of their own ([`tile_image_url`]), and the world-casino
//! catalogue's `url_thumb` for the built-in provider's games.
//!
//! Why the files are compiled in rather than read from the web build: the art belongs to the
//! games, which belong to the server; a server without a web build (an API client, a provider
//! frame) still has it, and no path from a request ever reaches the file system.
//!
//! An SVG is a document that could carry script, so each answer forbids everything but its own
//! inline styles (`default-src 'none'; style-src 'unsafe-inline'`) and says `nosniff`. The art
//! changes only with a new build, so browsers keep it for [`ART_MAX_AGE_S`] and then revalidate
//! with the `ETag` (a hash of the file), which costs a 304 when nothing changed.
//!
//! ```text
//! GET /casino/art/dt1day.svg   → 200 image/svg+xml (Dragon Tiger's art)
//! GET /casino/art/dt6.svg      → 404 (a client code, not a GameKind code)
//! ```

use std::sync::LazyLock;

use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use backlay_casino::games::GameKind;
use sha2::{Digest, Sha256};

/// Where the art is served; `<kind>.svg` follows.
pub const ART_PATH: &str = "/casino/art/";

/// How long a browser keeps a piece of art before asking again (a week).
pub const ART_MAX_AGE_S: u32 = 7 * 24 * 60 * 60;

/// What an SVG answer may load: its own inline styles, nothing else (no script, no fetches).
pub const ART_CONTENT_SECURITY_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'";

/// The game's art, as served. A new [`GameKind`] does not compile until it has its file.
pub const fn art_svg(game: GameKind) -> &'static str {
    match game {
        GameKind::TeenPattiT20 => include_str!("../assets/casino-art/teen20.svg"),
        GameKind::TeenPattiOneDay => include_str!("../assets/casino-art/teen1day.svg"),
        GameKind::TeenPattiTest => include_str!("../assets/casino-art/teentest.svg"),
        GameKind::DragonTiger => include_str!("../assets/casino-art/dt1day.svg"),
        GameKind::TwoCardTeenPatti => include_str!("../assets/casino-art/teen2card.svg"),
        GameKind::HiLow => include_str!("../assets/casino-art/hilow.svg"),
        GameKind::Poker => include_str!("../assets/casino-art/poker.svg"),
        GameKind::Queen => include_str!("../assets/casino-art/queen.svg"),
        GameKind::Baccarat => include_str!("../assets/casino-art/baccarat.svg"),
        GameKind::AmarAkbarAnthony => include_str!("../assets/casino-art/aaa.svg"),
        GameKind::Bollywood => include_str!("../assets/casino-art/bollywood.svg"),
        GameKind::Trio => include_str!("../assets/casino-art/trio.svg"),
        GameKind::AndarBahar => include_str!("../assets/casino-art/andarbahar.svg"),
        GameKind::MuflisTeenPatti => include_str!("../assets/casino-art/muflis.svg"),
        GameKind::Roulette => include_str!("../assets/casino-art/roulette.svg"),
        GameKind::WorliMatka => include_str!("../assets/casino-art/worli.svg"),
    }
}

/// The address of the game's art on this server (`/casino/art/dt1day.svg`).
pub fn art_url(game: GameKind) -> String {
    format!("{ART_PATH}{}.svg", game.code())
}

/// The image a game's tile shows: the operator's upload (`image_name`, served at
/// `/upload/image/<name>`) when there is one, else the game's art; "" for a kind this build
/// does not know (no runner plays it either).
pub fn tile_image_url(kind: &str, image_name: Option<&str>) -> String {
    match (image_name, GameKind::from_code(kind)) {
        (Some(name), _) => backlay_kit::uploads::image_url(name),
        (None, Some(game)) => art_url(game),
        (None, None) => String::new(),
    }
}

/// Each game's `ETag`, in the order of [`GameKind::ALL`]: the first 16 bytes of the file's
/// SHA-256, quoted.
static ETAGS: LazyLock<Vec<HeaderValue>> = LazyLock::new(|| {
    GameKind::ALL
        .iter()
        .map(|game| {
            let digest = Sha256::digest(art_svg(*game).as_bytes());
            HeaderValue::from_str(&format!("\"{}\"", hex::encode(&digest[..16])))
                .expect("hex is a valid header value")
        })
        .collect()
});

fn etag(game: GameKind) -> &'static HeaderValue {
    let index = GameKind::ALL.iter().position(|g| *g == game).expect("every game is in ALL");
    &ETAGS[index]
}

/// `GET /casino/art/<kind>.svg` (and `HEAD`), public like the web app's own files.
pub fn routes() -> Router {
    Router::new().route("/casino/art/{file}", get(serve_art))
}

async fn serve_art(Path(file): Path<String>, request_headers: HeaderMap) -> Response {
    let Some(game) = file.strip_suffix(".svg").and_then(GameKind::from_code) else {
        return (
            StatusCode::NOT_FOUND,
            [(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"))],
            "No such game art.",
        )
            .into_response();
    };
    let etag = etag(game);
    let cache_control = HeaderValue::from_str(&format!("public, max-age={ART_MAX_AGE_S}"))
        .expect("a number is a valid header value");
    let headers = [
        (header::ETAG, etag.clone()),
        (header::CACHE_CONTROL, cache_control),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        (header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(ART_CONTENT_SECURITY_POLICY)),
    ];
    let unchanged = request_headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|tag| tag.trim() == "*" || tag.trim() == etag);
    if unchanged {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    (headers, [(header::CONTENT_TYPE, HeaderValue::from_static("image/svg+xml"))], art_svg(game))
        .into_response()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// Every game's art is an SVG document a browser draws: well-formed XML whose root is an
    /// `svg` element in the SVG namespace with a `viewBox`, at the lobby tile's 16:11, and with
    /// nothing that could run or fetch (no script, no event handlers, no outside reference).
    #[test]
    fn every_game_has_well_formed_svg_art() {
        let mut seen = HashSet::new();
        for game in GameKind::ALL {
            let text = art_svg(game);
            assert!(seen.insert(text), "{game:?} shares its art with another game");
            let document = roxmltree::Document::parse(text)
                .unwrap_or_else(|e| panic!("{game:?}'s art is not well-formed XML: {e}"));
            let root = document.root_element();
            assert_eq!(root.tag_name().name(), "svg", "{game:?}");
            assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"), "{game:?}");
            assert_eq!(root.attribute("viewBox"), Some("0 0 320 220"), "{game:?}");
            assert!(
                root.children().any(|n| n.has_tag_name("title")),
                "{game:?}'s art says what it shows in a <title>"
            );
            for node in document.descendants().filter(|n| n.is_element()) {
                let name = node.tag_name().name();
                assert!(
                    !["script", "foreignObject", "image", "iframe"].contains(&name),
                    "{game:?} has a <{name}>"
                );
                for attribute in node.attributes() {
                    assert!(
                        !attribute.name().starts_with("on"),
                        "{game:?} has {}",
                        attribute.name()
                    );
                    if attribute.name() == "href" {
                        assert!(
                            attribute.value().starts_with('#'),
                            "{game:?} links outside itself: {}",
                            attribute.value()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn art_is_addressed_by_the_game_kind_code() {
        assert_eq!(art_url(GameKind::DragonTiger), "/casino/art/dt1day.svg");
        assert_eq!(art_url(GameKind::WorliMatka), "/casino/art/worli.svg");
        assert_eq!(tile_image_url("worli", None), "/casino/art/worli.svg");
        assert_eq!(tile_image_url("worli", Some("pot.png")), "/upload/image/pot.png");
        assert_eq!(tile_image_url("gone", None), "");
        let tags: HashSet<_> = GameKind::ALL.iter().map(|g| etag(*g).clone()).collect();
        assert_eq!(tags.len(), GameKind::ALL.len());
    }
}
