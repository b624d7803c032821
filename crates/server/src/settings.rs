//! Site settings: every key with its default and the rule for its value (what an operator may
//! set, through `admin/settings` or `backlay admin`), read over the defaults for
//! `globalSetting/getGlobalSetting`, sign-up, payments and the web page's frame policy.

use std::collections::BTreeMap;

use backlay_store::Store;

use crate::error::AppError;

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
}

/// Every key with its default and kind. A key not listed here cannot be set.
const SETTINGS: &[(&str, &str, Kind)] = &[
    ("site_title", "Backlay", Kind::RequiredText(60)),
    ("site_message", "", Kind::Text(500)),
    ("logo", "", Kind::Text(500)),
    ("favicon", "", Kind::Text(500)),
    ("payment_gateway", "0", Kind::Flag),
    ("is_show_apk", "0", Kind::Flag),
    ("bg_primary_color", "#0b3d2e", Kind::Colour),
    ("bg_secondry_color", "#145c45", Kind::Colour),
    ("text_primary_color", "#ffffff", Kind::Colour),
    ("text_secondry_color", "#f5c542", Kind::Colour),
    ("other_color", "#72bbef", Kind::Colour),
    // Casino game providers whose pages the client may show in a frame.
    ("casino_frame_origins", "", Kind::Origins),
    // Operational settings, not shown to clients.
    ("signup_enabled", "1", Kind::Flag),
    ("default_parent", "", Kind::Text(20)),
    // How many levels of agents may stand between the operator and a client (3: super master →
    // master → agent → client). Agents already deeper keep their accounts.
    ("agent_levels", "3", Kind::Count(1, 8)),
];

/// Stored settings over the defaults.
pub async fn load(store: &Store) -> Result<BTreeMap<String, String>, AppError> {
    let mut settings: BTreeMap<String, String> =
        SETTINGS.iter().map(|(key, default, _)| (key.to_string(), default.to_string())).collect();
    settings.extend(store.settings().await?);
    Ok(settings)
}

/// How many levels of agents the operator allows under itself (`agent_levels`).
pub async fn agent_levels(store: &Store) -> Result<u32, AppError> {
    let settings = load(store).await?;
    Ok(settings.get("agent_levels").and_then(|v| v.parse().ok()).unwrap_or(3))
}

/// Checks one key and value an operator wants to set; the message names what is wrong.
pub fn validate(key: &str, value: &str) -> Result<String, String> {
    let Some((_, _, kind)) = SETTINGS.iter().find(|(k, _, _)| *k == key) else {
        let known: Vec<&str> = SETTINGS.iter().map(|(k, _, _)| *k).collect();
        return Err(format!("{key} is not a setting; the settings are {}.", known.join(", ")));
    };
    let value = value.trim();
    match kind {
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
                return Err(format!("{key} holds at most 20 origins."));
            }
            match origins.iter().find(|origin| !is_origin(origin)) {
                Some(bad) => {
                    Err(format!("{bad} is not an origin such as https://games.example.com."))
                }
                None => Ok(origins.join(",")),
            }
        }
    }
}

fn origin_list(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(|o| o.trim().trim_end_matches('/').to_lowercase())
        .filter(|o| !o.is_empty())
        .collect()
}

/// `https://host[:port]` (or `http://` for localhost): no path, no query, no credentials.
pub(crate) fn is_origin(value: &str) -> bool {
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
pub(crate) fn frame_origins(setting: &str, public_url: &str) -> Vec<String> {
    let own = public_url.trim_end_matches('/').to_lowercase();
    let mut origins = origin_list(setting);
    if !origins.contains(&own) {
        origins.push(own);
    }
    origins
}

#[cfg(test)]
mod tests {
    use super::{frame_origins, validate};

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
    }
}
