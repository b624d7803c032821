//! Stake buttons: the quick stakes of the bet slip (`Game`) and of the casino tables (`Casino`),
//! each a label and a stake. A user's own lists (`user/setButtonValue`) and the operator's
//! defaults (the settings `default_buttons_game` and `default_buttons_casino`, which every user
//! sees until they set their own) follow the one rule here: 1 to 20 buttons a list, a label of
//! 1 to 10 characters, a stake above 0 and at most 100,000,000.00.

use backlay_core::money::Money;
use std::collections::HashMap;

use serde::Serialize;
use serde_json::value::RawValue;
use utoipa::ToSchema;

use crate::input::{AmountInput, Checks};

/// The two lists of stake buttons.
pub const BUTTON_TYPES: [&str; 2] = ["Game", "Casino"];
/// At most this many buttons per list.
pub const MAX_BUTTONS_PER_TYPE: usize = 20;
pub const BUTTON_NAME_MAX_CHARS: usize = 10;
/// The largest stake a button may hold.
pub const BUTTON_VALUE_MAX_MINOR: i64 = 100_000_000_00;

/// One button, checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct StakeButton {
    pub button_name: String,
    #[schema(value_type = f64)]
    pub button_value: Money,
}

/// Checks one button's label and stake; a problem is recorded on `{field}.button_name` or
/// `{field}.button_value` (`[2].button_value` for a user's third button).
pub fn check_button(checks: &mut Checks, field: &str, name: &str, value: Money) -> StakeButton {
    let name = name.trim();
    if name.is_empty() {
        checks.fail(&format!("{field}.button_name"), "Label is required.");
    } else if name.chars().count() > BUTTON_NAME_MAX_CHARS {
        checks.fail(
            &format!("{field}.button_name"),
            format!("Label must be at most {BUTTON_NAME_MAX_CHARS} characters."),
        );
    }
    if !value.is_positive() {
        checks.fail(&format!("{field}.button_value"), "Value must be more than 0.");
    } else if value.minor() > BUTTON_VALUE_MAX_MINOR {
        checks.fail(
            &format!("{field}.button_value"),
            format!("Value must be at most {}.", Money::from_minor(BUTTON_VALUE_MAX_MINOR)),
        );
    }
    StakeButton { button_name: name.to_string(), button_value: value }
}

/// Checks how many buttons one list holds; a problem is recorded on `field`.
pub fn check_count(checks: &mut Checks, field: &str, button_type: &str, count: usize) {
    if count == 0 {
        checks.fail(field, format!("Give at least one {button_type} button."));
    } else if count > MAX_BUTTONS_PER_TYPE {
        checks.fail(field, format!("At most {MAX_BUTTONS_PER_TYPE} {button_type} buttons."));
    }
}

/// A list of buttons sent as JSON (`[{"button_name": "1k", "button_value": 1000}]`, `name` and
/// `value` taken too, as `user/setButtonValue` takes them), checked: the buttons, or the problems
/// recorded on `field` (the list) and `{field}[i].button_name` / `.button_value`.
pub fn parse_list(
    checks: &mut Checks,
    field: &str,
    button_type: &str,
    json: &str,
) -> Vec<StakeButton> {
    // Raw values, so that a stake is read from the text sent, as every amount is.
    let entries: Vec<HashMap<String, Box<RawValue>>> = match serde_json::from_str(json) {
        Ok(entries) => entries,
        Err(_) => {
            checks.fail(
                field,
                format!("{field} must be a list of buttons, each with a label and a stake."),
            );
            return Vec::new();
        }
    };
    check_count(checks, field, button_type, entries.len());
    let mut buttons = Vec::with_capacity(entries.len());
    for (index, entry) in entries.iter().enumerate() {
        let at = format!("{field}[{index}]");
        let pick = |a: &str, b: &str| entry.get(a).or_else(|| entry.get(b)).map(|raw| raw.get());
        let name = match pick("button_name", "name").map(serde_json::from_str::<serde_json::Value>)
        {
            Some(Ok(serde_json::Value::String(name))) => name,
            Some(Ok(serde_json::Value::Number(number))) => number.to_string(),
            _ => String::new(),
        };
        let value = match pick("button_value", "value").map(serde_json::from_str::<AmountInput>) {
            Some(Ok(AmountInput(value))) => value,
            problem => {
                let why = match problem {
                    Some(Err(error)) => format!(
                        " ({})",
                        error.to_string().split(" at line").next().unwrap_or_default()
                    ),
                    _ => String::new(),
                };
                checks.fail(
                    &format!("{at}.button_value"),
                    format!("Value must be an amount such as 100 or 99.50{why}."),
                );
                // Only the label is left to check.
                Money::from_minor(1)
            }
        };
        buttons.push(check_button(checks, &at, &name, value));
    }
    buttons
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(json: &str) -> Result<Vec<StakeButton>, String> {
        let mut checks = Checks::default();
        let buttons = parse_list(&mut checks, "list", "Game", json);
        checks.finish().map(|()| buttons).map_err(|error| format!("{error:?}"))
    }

    #[test]
    fn a_list_is_parsed_and_each_button_checked() {
        assert_eq!(
            problems(
                r#"[{"button_name": " 1k ", "button_value": 1000}, {"name": 5, "value": "5.5"}]"#
            ),
            Ok(vec![
                StakeButton { button_name: "1k".into(), button_value: Money::from_minor(100_000) },
                StakeButton { button_name: "5".into(), button_value: Money::from_minor(550) },
            ])
        );
        let error = problems(r#"[{"button_name": "", "button_value": 0}, {"button_name": "12345678901", "button_value": "x"}]"#).unwrap_err();
        for expected in [
            "list[0].button_name",
            "Label is required",
            "list[0].button_value",
            "more than 0",
            "list[1].button_name",
            "at most 10 characters",
            "list[1].button_value",
            "an amount such as",
        ] {
            assert!(error.contains(expected), "{expected} in {error}");
        }
        assert!(problems(r#"[{"button_name": "a", "button_value": 10.005}]"#)
            .unwrap_err()
            .contains("at most 2 decimal places"));
        assert!(problems(r#"[{"button_name": "a", "button_value": 100000001}]"#)
            .unwrap_err()
            .contains("at most 100000000.00"));
        assert!(problems("[]").unwrap_err().contains("at least one Game button"));
        let many = format!("[{}]", vec![r#"{"button_name":"a","button_value":1}"#; 21].join(","));
        assert!(problems(&many).unwrap_err().contains("At most 20 Game buttons"));
        assert!(problems("{}").unwrap_err().contains("must be a list of buttons"));
    }
}
