//! Site settings: every key with its default and the rule for its value (what an operator may
//! set, through `admin/settings` or `backlay admin`), read over the defaults for
//! `globalSetting/getGlobalSetting`, `admin/settings` (read back), sign-up, payments, the stake
//! buttons a user starts with and the web page's frame policy.

use std::collections::BTreeMap;

use backlay_core::user::UserName;
use backlay_store::users::{Role, User};
use backlay_store::Store;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::AppError;
use crate::input::Checks;
use crate::stake_buttons::{self, StakeButton};

/// What a setting holds, for validation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// Free text up to the length.
    Text(usize),
    /// Non-empty text up to the length.
    RequiredText(usize),
    /// `0` or `1`.
    Flag,
    /// `#rgb` or `#rrggbb`.
    Colour,
    /// Comma-separated web origins (`https://host[:port]`), at most 20.
    Origins,
    /// A whole number from the first to the second.
    Count(u32, u32),
    /// Empty, or an `https://` address up to the length.
    HttpsUrl(usize),
    /// A user name: empty, or an admin or agent ([`parent_named`], checked by the operator
    /// action, which can read the store).
    Parent,
    /// A list of stake buttons of the type, as JSON ([`stake_buttons::parse_list`]).
    Buttons(&'static str),
}

/// Today's presets of the bet slip, the default of `default_buttons_game`.
const GAME_BUTTONS: &str = r#"[{"button_name":"100","button_value":100},{"button_name":"500","button_value":500},{"button_name":"1k","button_value":1000},{"button_name":"5k","button_value":5000},{"button_name":"10k","button_value":10000},{"button_name":"25k","button_value":25000},{"button_name":"50k","button_value":50000},{"button_name":"1L","button_value":100000}]"#;
/// Today's presets of the casino tables, the default of `default_buttons_casino`.
const CASINO_BUTTONS: &str = r#"[{"button_name":"25","button_value":25},{"button_name":"50","button_value":50},{"button_name":"100","button_value":100},{"button_name":"200","button_value":200},{"button_name":"500","button_value":500},{"button_name":"1k","button_value":1000}]"#;

/// Every key with its default and kind. A key not listed here cannot be set.
const SETTINGS: &[(&str, &str, Kind)] = &[
    ("site_title", "Backlay", Kind::RequiredText(60)),
    ("site_message", "", Kind::Text(500)),
    ("logo", "", Kind::Text(500)),
    ("favicon", "", Kind::Text(500)),
    ("payment_gateway", "0", Kind::Flag),
    ("is_show_apk", "0", Kind::Flag),
    // Where the client app's "Download the app" link leads (shown when is_show_apk is 1).
    ("apk_url", "", Kind::HttpsUrl(500)),
    ("bg_primary_color", "#0b3d2e", Kind::Colour),
    ("bg_secondry_color", "#145c45", Kind::Colour),
    ("text_primary_color", "#ffffff", Kind::Colour),
    ("text_secondry_color", "#f5c542", Kind::Colour),
    ("other_color", "#72bbef", Kind::Colour),
    // Casino game providers whose pages the client may show in a frame.
    ("casino_frame_origins", "", Kind::Origins),
    // Operational settings, not shown to clients.
    ("signup_enabled", "1", Kind::Flag),
    ("default_parent", "", Kind::Parent),
    // How many levels of agents may stand between the operator and a client (3: super master →
    // master → agent → client). Agents already deeper keep their accounts.
    ("agent_levels", "3", Kind::Count(1, 8)),
    // The stake buttons every user sees until they set their own (user/setButtonValue).
    ("default_buttons_game", GAME_BUTTONS, Kind::Buttons("Game")),
    ("default_buttons_casino", CASINO_BUTTONS, Kind::Buttons("Casino")),
];

/// Every key, in the order of the table above.
pub fn keys() -> impl Iterator<Item = &'static str> {
    SETTINGS.iter().map(|(key, _, _)| *key)
}

/// Stored settings over the defaults.
pub async fn load(store: &Store) -> Result<BTreeMap<String, String>, AppError> {
    let mut settings: BTreeMap<String, String> =
        SETTINGS.iter().map(|(key, default, _)| (key.to_string(), default.to_string())).collect();
    settings.extend(store.settings().await?);
    Ok(settings)
}

/// The settings every visitor's client reads: the site's name, message, images and colours,
/// and its switches for payments and the app. Both `globalSetting/getGlobalSetting` (public)
/// and the admin's read-back of `admin/settings` answer them first, each then adding
/// `casino_frame_origins` in its own form (a list with the server's origin; the text stored).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct PublicSettings {
    pub site_title: String,
    pub site_message: String,
    pub logo: String,
    pub favicon: String,
    pub payment_gateway: i64,
    pub is_show_apk: i64,
    /// Where the client app's "Download the app" link leads (shown when is_show_apk is 1);
    /// empty: no link.
    pub apk_url: String,
    pub bg_primary_color: String,
    pub bg_secondry_color: String,
    pub text_primary_color: String,
    pub text_secondry_color: String,
    pub other_color: String,
}

impl PublicSettings {
    /// From the settings read by [`load`]. A flag is stored as `0` or `1` only ([`validate`]),
    /// and reads 1 when it holds `1`.
    pub fn from_settings(settings: &BTreeMap<String, String>) -> PublicSettings {
        let text = |key: &str| settings.get(key).cloned().unwrap_or_default();
        let flag = |key: &str| i64::from(settings.get(key).map(String::as_str) == Some("1"));
        PublicSettings {
            site_title: text("site_title"),
            site_message: text("site_message"),
            logo: text("logo"),
            favicon: text("favicon"),
            payment_gateway: flag("payment_gateway"),
            is_show_apk: flag("is_show_apk"),
            apk_url: text("apk_url"),
            bg_primary_color: text("bg_primary_color"),
            bg_secondry_color: text("bg_secondry_color"),
            text_primary_color: text("text_primary_color"),
            text_secondry_color: text("text_secondry_color"),
            other_color: text("other_color"),
        }
    }
}

/// How many levels of agents the operator allows under itself (`agent_levels`).
pub async fn agent_levels(store: &Store) -> Result<u32, AppError> {
    let settings = load(store).await?;
    Ok(settings.get("agent_levels").and_then(|v| v.parse().ok()).unwrap_or(3))
}

/// The operator's stake buttons of one type (`Game` or `Casino`), from the settings read by
/// [`load`]: what a user who never set their own list sees.
pub fn default_buttons(settings: &BTreeMap<String, String>, button_type: &str) -> Vec<StakeButton> {
    let key = format!("default_buttons_{}", button_type.to_lowercase());
    let (stored, default) = SETTINGS
        .iter()
        .find(|(k, _, _)| *k == key)
        .map(|(_, default, _)| (settings.get(&key).map_or(*default, String::as_str), *default))
        .unwrap_or(("[]", "[]"));
    let parse = |json: &str| {
        let mut checks = Checks::default();
        let buttons = stake_buttons::parse_list(&mut checks, &key, button_type, json);
        checks.finish().ok().map(|()| buttons)
    };
    // A stored list was checked when it was set; the presets stand in should one ever not parse.
    parse(stored).or_else(|| parse(default)).unwrap_or_default()
}

/// The admin or agent of that name (any case), whom sign-ups may be placed under; `None` for a
/// client or a name nobody has.
pub async fn parent_named(store: &Store, user_name: &str) -> Result<Option<User>, AppError> {
    let Some(id) = store.user_id_by_name(user_name.trim()).await? else {
        return Ok(None);
    };
    let user = store.user_by_id(id).await?;
    Ok(matches!(user.role, Role::Admin | Role::Agent).then_some(user))
}

/// Why a `default_parent` is refused.
pub fn not_a_parent(value: &str) -> String {
    format!("default_parent must be an agent's or admin's user name: no agent or admin is called {value}.")
}

/// Checks one key and value an operator wants to set, recording what is wrong on the key (or,
/// for a list of buttons, on the button: `default_buttons_game[2].button_value`); the value to
/// store when nothing was wrong. Whether a `default_parent` names an admin or agent is checked
/// by the operator action, which reads the store ([`parent_named`]).
pub fn validate(checks: &mut Checks, key: &str, value: &str) -> Option<String> {
    let Some((_, _, kind)) = SETTINGS.iter().find(|(k, _, _)| *k == key) else {
        let known: Vec<&str> = keys().collect();
        checks.fail(key, format!("{key} is not a setting; the settings are {}.", known.join(", ")));
        return None;
    };
    let value = value.trim();
    let checked = match kind {
        Kind::Buttons(button_type) => {
            let mut list = Checks::default();
            let buttons = stake_buttons::parse_list(&mut list, key, button_type, value);
            return checks.absorb(list).then(|| serde_json::to_string(&buttons).ok()).flatten();
        }
        Kind::HttpsUrl(max) if value.chars().count() > *max => {
            Err(format!("{key} must be at most {max} characters."))
        }
        Kind::HttpsUrl(_) if value.is_empty() || is_https_url(value) => Ok(value.to_string()),
        Kind::HttpsUrl(_) => {
            Err(format!("{key} must be an https:// address such as https://example.com/app.apk."))
        }
        Kind::Parent if value.is_empty() || UserName::parse(value).is_ok() => Ok(value.to_string()),
        Kind::Parent => Err(not_a_parent(value)),
        Kind::Text(max) | Kind::RequiredText(max) if value.chars().count() > *max => {
            Err(format!("{key} must be at most {max} characters."))
        }
        Kind::RequiredText(_) if value.is_empty() => Err(format!("{key} cannot be empty.")),
        Kind::Text(_) | Kind::RequiredText(_) => Ok(value.to_string()),
        Kind::Flag if value == "0" || value == "1" => Ok(value.to_string()),
        Kind::Flag => Err(format!("{key} must be 0 or 1.")),
        Kind::Colour if is_colour(value) => Ok(value.to_lowercase()),
        Kind::Colour => Err(format!("{key} must be a colour such as #1a2b3c.")),
        Kind::Count(min, max) => match value.parse::<u32>() {
            Ok(count) if (*min..=*max).contains(&count) => Ok(count.to_string()),
            _ => Err(format!("{key} must be a whole number from {min} to {max}.")),
        },
        Kind::Origins => {
            let origins = origin_list(value);
            if origins.len() > 20 {
                Err(format!("{key} holds at most 20 origins."))
            } else if let Some(bad) = origins.iter().find(|origin| !is_origin(origin)) {
                Err(format!("{bad} is not an origin such as https://games.example.com."))
            } else {
                Ok(origins.join(","))
            }
        }
    };
    checked.map_err(|problem| checks.fail(key, problem)).ok()
}

/// `https://host/…`: a host of letters, digits, dots and dashes (and a port), then any path
/// without spaces, quotes or angle brackets.
fn is_https_url(value: &str) -> bool {
    let Some(rest) = value.strip_prefix("https://") else { return false };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    is_origin(&format!("https://{authority}"))
        && authority.contains('.')
        && !value.chars().any(|c| c.is_whitespace() || c.is_control() || "\"'<>\\`".contains(c))
}

fn origin_list(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(|o| o.trim().trim_end_matches('/').to_lowercase())
        .filter(|o| !o.is_empty())
        .collect()
}

/// `https://host[:port]` (or `http://` for localhost): no path, no query, no credentials.
pub fn is_origin(value: &str) -> bool {
    let rest = if let Some(rest) = value.strip_prefix("https://") {
        rest
    } else if let Some(rest) = value.strip_prefix("http://") {
        let host = rest.split(':').next().unwrap_or_default();
        if host != "localhost" && host != "127.0.0.1" {
            return false;
        }
        rest
    } else {
        return false;
    };
    let (host, port) = match rest.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (rest, None),
    };
    !host.is_empty()
        && host.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
        && port.is_none_or(|p| p.parse::<u16>().is_ok())
}

fn is_colour(value: &str) -> bool {
    value.strip_prefix('#').is_some_and(|hex| {
        (hex.len() == 3 || hex.len() == 6) && hex.chars().all(|c| c.is_ascii_hexdigit())
    })
}

/// The operator's list of provider origins, plus the server's own public origin, where the
/// built-in provider's games are served (`/provider/play`), so the client frames them.
pub fn frame_origins(setting: &str, public_url: &str) -> Vec<String> {
    let own = public_url.trim_end_matches('/').to_lowercase();
    let mut origins = origin_list(setting);
    if !origins.contains(&own) {
        origins.push(own);
    }
    origins
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use backlay_core::money::Money;

    use super::{default_buttons, frame_origins, keys, PublicSettings, StakeButton};
    use crate::input::Checks;

    #[test]
    fn the_public_origin_is_always_framed() {
        assert_eq!(
            frame_origins("", "http://127.0.0.1:8080"),
            vec!["http://127.0.0.1:8080".to_string()]
        );
        assert_eq!(
            frame_origins("https://games.example.com", "https://Bet.Example.com/"),
            vec!["https://games.example.com".to_string(), "https://bet.example.com".to_string()]
        );
        assert_eq!(
            frame_origins("https://bet.example.com", "https://bet.example.com"),
            vec!["https://bet.example.com".to_string()]
        );
    }

    /// The value to store, or every problem recorded.
    fn validate(key: &str, value: &str) -> Result<String, String> {
        let mut checks = Checks::default();
        let stored = super::validate(&mut checks, key, value);
        match checks.finish() {
            Ok(()) => Ok(stored.expect("a value when nothing was recorded")),
            Err(error) => Err(format!("{error:?}")),
        }
    }

    #[test]
    fn each_kind_is_checked() {
        assert_eq!(validate("site_title", "  Exchange "), Ok("Exchange".into()));
        assert!(validate("site_title", " ").unwrap_err().contains("cannot be empty"));
        assert!(validate("payment_gateway", "2").unwrap_err().contains("0 or 1"));
        assert_eq!(validate("bg_primary_color", "#ABCDEF"), Ok("#abcdef".into()));
        assert!(validate("other_color", "red").unwrap_err().contains("colour"));
        assert!(validate("site_message", &"x".repeat(501)).unwrap_err().contains("at most 500"));
        assert!(validate("nope", "1").unwrap_err().contains("is not a setting"));
        assert_eq!(
            validate("casino_frame_origins", " https://Games.Example.com/, http://localhost:9000 "),
            Ok("https://games.example.com,http://localhost:9000".into())
        );
        assert!(validate("casino_frame_origins", "https://x.com/path")
            .unwrap_err()
            .contains("not an origin"));
        assert!(validate("casino_frame_origins", "http://evil.com")
            .unwrap_err()
            .contains("not an origin"));
        assert!(validate("casino_frame_origins", "javascript:alert(1)")
            .unwrap_err()
            .contains("not an origin"));
        assert_eq!(validate("apk_url", " "), Ok(String::new()));
        assert_eq!(
            validate("apk_url", " https://cdn.example.com/app/backlay.apk?v=2 "),
            Ok("https://cdn.example.com/app/backlay.apk?v=2".into())
        );
        for bad in [
            "http://cdn.example.com/app.apk",
            "https://",
            "https://localhost/app.apk",
            "https://cdn.example.com/my app.apk",
            "https://cdn.example.com/\"onmouseover=\"x",
            "javascript:alert(1)",
            "/upload/image/app.apk",
        ] {
            assert!(validate("apk_url", bad).unwrap_err().contains("https:// address"), "{bad}");
        }
        assert!(validate("apk_url", &format!("https://a.com/{}", "x".repeat(500)))
            .unwrap_err()
            .contains("at most 500"));
        assert_eq!(validate("default_parent", " Agent "), Ok("Agent".into()));
        assert_eq!(validate("default_parent", ""), Ok(String::new()));
        assert!(validate("default_parent", "no such name!").unwrap_err().contains("no agent"));
        assert_eq!(
            validate("default_buttons_game", r#"[{"button_name":" 2k ","button_value":"2000.5"}]"#),
            Ok(r#"[{"button_name":"2k","button_value":2000.5}]"#.into())
        );
        let problems = validate(
            "default_buttons_casino",
            r#"[{"button_name":"ok","button_value":5},{"button_name":"","button_value":-1}]"#,
        )
        .unwrap_err();
        assert!(problems.contains("default_buttons_casino[1].button_name"), "{problems}");
        assert!(problems.contains("default_buttons_casino[1].button_value"), "{problems}");
        assert!(validate("default_buttons_casino", "[]")
            .unwrap_err()
            .contains("at least one Casino button"));
    }

    #[test]
    fn a_flag_is_stored_as_0_or_1_and_read_as_that_number() {
        for key in ["payment_gateway", "is_show_apk"] {
            assert_eq!(validate(key, " 1 "), Ok("1".into()));
            assert_eq!(validate(key, "0"), Ok("0".into()));
            for bad in ["", "2", "-1", "01", "1.0", "true", "yes"] {
                assert!(validate(key, bad).unwrap_err().contains("0 or 1"), "{key} {bad:?}");
            }
        }
        let read = |payment_gateway: &str, is_show_apk: &str| {
            let settings = BTreeMap::from([
                ("payment_gateway".to_string(), payment_gateway.to_string()),
                ("is_show_apk".to_string(), is_show_apk.to_string()),
            ]);
            let public = PublicSettings::from_settings(&settings);
            (public.payment_gateway, public.is_show_apk)
        };
        assert_eq!(read("1", "0"), (1, 0));
        assert_eq!(read("0", "1"), (0, 1));
    }

    #[test]
    fn the_default_buttons_are_todays_presets_until_set() {
        let none = BTreeMap::new();
        let game = default_buttons(&none, "Game");
        assert_eq!(game.len(), 8);
        assert_eq!(
            game[2],
            StakeButton { button_name: "1k".into(), button_value: Money::from_minor(100_000) }
        );
        assert_eq!(game[7].button_value, Money::from_minor(100_000_00));
        let casino = default_buttons(&none, "Casino");
        assert_eq!(
            casino.iter().map(|b| b.button_name.as_str()).collect::<Vec<_>>(),
            ["25", "50", "100", "200", "500", "1k"]
        );
        let set = BTreeMap::from([(
            "default_buttons_casino".to_string(),
            r#"[{"button_name":"5","button_value":5}]"#.to_string(),
        )]);
        assert_eq!(
            default_buttons(&set, "Casino"),
            [StakeButton { button_name: "5".into(), button_value: Money::from_minor(500) }]
        );
        assert_eq!(default_buttons(&set, "Game"), game);
        // Every default passes its own rule.
        for key in keys() {
            let default = super::SETTINGS.iter().find(|(k, _, _)| *k == key).unwrap().1;
            assert!(validate(key, default).is_ok(), "{key}'s default {default}");
        }
    }
}
