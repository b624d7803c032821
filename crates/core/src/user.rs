//! A user name that can only hold a valid name: parsed once where a name comes in (sign-up,
//! an operator or the console creating a user), so nothing further in checks it again.
//!
//! ```
//! use backlay_core::user::{UserName, UserNameError};
//!
//! let name: UserName = "ravi_22".parse()?;
//! assert_eq!(name.as_str(), "ravi_22");
//! assert_eq!("22ravi".parse::<UserName>(), Err(UserNameError::NotStartingWithALetter));
//! assert_eq!(
//!     UserNameError::NotStartingWithALetter.to_string(),
//!     "User name must start with a letter."
//! );
//! # Ok::<(), UserNameError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A name a person logs in with: [`UserName::MIN_CHARS`] to [`UserName::MAX_CHARS`] ASCII
/// letters, digits and `_`, starting with a letter. Unique ignoring case (the store's
/// concern); kept as chosen.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UserName(String);

/// Why a text is not a user name; each message is meant for the person choosing it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UserNameError {
    /// Shorter than [`UserName::MIN_CHARS`] or longer than [`UserName::MAX_CHARS`].
    #[error("User name must be {} to {} characters.", UserName::MIN_CHARS, UserName::MAX_CHARS)]
    Length,
    /// A character other than an ASCII letter, digit or `_`.
    #[error("User name may contain only letters, digits and _.")]
    Character,
    /// A digit or `_` first.
    #[error("User name must start with a letter.")]
    NotStartingWithALetter,
}

impl UserName {
    /// The shortest name.
    pub const MIN_CHARS: usize = 3;
    /// The longest name a person may choose.
    pub const MAX_CHARS: usize = 20;

    /// Parses `text` exactly as given (callers trim what a person typed first).
    pub fn parse(text: &str) -> Result<UserName, UserNameError> {
        if !(UserName::MIN_CHARS..=UserName::MAX_CHARS).contains(&text.chars().count()) {
            return Err(UserNameError::Length);
        }
        if !text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(UserNameError::Character);
        }
        if !text.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(UserNameError::NotStartingWithALetter);
        }
        Ok(UserName(text.to_string()))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for UserName {
    type Err = UserNameError;

    fn from_str(text: &str) -> Result<UserName, UserNameError> {
        UserName::parse(text)
    }
}

impl AsRef<str> for UserName {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for UserName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for UserName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for UserName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<UserName, D::Error> {
        let text = String::deserialize(deserializer)?;
        UserName::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_letters_digits_and_underscores_after_a_letter() {
        for good in ["abc", "Ravi_22", "a_b", "demo2", "A1234567890123456789", "x__"] {
            let name = UserName::parse(good).unwrap();
            assert_eq!(name.as_str(), good);
            assert_eq!(name.to_string(), good);
            assert_eq!(good.parse::<UserName>(), Ok(name));
        }
    }

    #[test]
    fn refuses_the_rest_with_the_first_rule_broken() {
        let cases = [
            ("", UserNameError::Length),
            ("ab", UserNameError::Length),
            ("a23456789012345678901", UserNameError::Length),
            ("ab cd", UserNameError::Character),
            ("ab-cd", UserNameError::Character),
            ("ravé", UserNameError::Character),
            (" abc", UserNameError::Character),
            ("1abc", UserNameError::NotStartingWithALetter),
            ("_abc", UserNameError::NotStartingWithALetter),
            // Too long and badly formed: the length is named first, as before.
            ("-".repeat(21).leak(), UserNameError::Length),
        ];
        for (text, error) in cases {
            assert_eq!(UserName::parse(text), Err(error), "{text:?}");
        }
        assert_eq!(UserNameError::Length.to_string(), "User name must be 3 to 20 characters.");
        assert_eq!(
            UserNameError::Character.to_string(),
            "User name may contain only letters, digits and _."
        );
    }

    #[test]
    fn travels_as_a_plain_string() {
        let name = UserName::parse("demo").unwrap();
        assert_eq!(serde_json::to_string(&name).unwrap(), r#""demo""#);
        assert_eq!(serde_json::from_str::<UserName>(r#""demo""#).unwrap(), name);
        assert!(serde_json::from_str::<UserName>(r#""1demo""#).is_err());
    }
}
