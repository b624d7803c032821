//! The rule for a user name, one a person chooses at sign-up or an operator gives a new user.

/// Longest user name a person may choose.
pub const USER_NAME_MAX_CHARS: usize = 20;
pub const USER_NAME_MIN_CHARS: usize = 3;

/// Why a user name cannot be used; `None` when it can.
pub fn user_name_rule_violation(user_name: &str) -> Option<String> {
    let chars = user_name.chars().count();
    if !(USER_NAME_MIN_CHARS..=USER_NAME_MAX_CHARS).contains(&chars) {
        return Some(format!(
            "User name must be {USER_NAME_MIN_CHARS} to {USER_NAME_MAX_CHARS} characters."
        ));
    }
    if !user_name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Some("User name may contain only letters, digits and _.".into());
    }
    if !user_name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Some("User name must start with a letter.".into());
    }
    None
}
