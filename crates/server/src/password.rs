//! Password rules (spec §5) and argon2id hashing.
//!
//! Hashing and verifying run on the blocking pool (`spawn_blocking`): at m = 19 MiB, t = 2 they
//! take tens of milliseconds of CPU, which would stall every request sharing an async thread.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

/// Spec §5: at least 8 characters.
pub const PASSWORD_MIN_CHARS: usize = 8;
/// A bound so nobody makes us hash a megabyte.
pub const PASSWORD_MAX_CHARS: usize = 64;
/// The symbols spec §5 allows besides letters and digits.
pub const PASSWORD_SYMBOLS: &str = "@$!%*#?&";

/// Why a new password breaks the rules, as the form shows it; `None` when it is acceptable.
pub fn password_rule_violation(password: &str) -> Option<String> {
    let chars = password.chars().count();
    if chars < PASSWORD_MIN_CHARS {
        return Some(format!("Password must be at least {PASSWORD_MIN_CHARS} characters."));
    }
    if chars > PASSWORD_MAX_CHARS {
        return Some(format!("Password must be at most {PASSWORD_MAX_CHARS} characters."));
    }
    if !password.chars().all(|c| c.is_ascii_alphanumeric() || PASSWORD_SYMBOLS.contains(c)) {
        return Some(format!("Password may contain only letters, digits and the symbols {PASSWORD_SYMBOLS}."));
    }
    if !password.chars().any(|c| c.is_ascii_alphabetic()) || !password.chars().any(|c| c.is_ascii_digit()) {
        return Some("Password must contain at least one letter and one digit.".into());
    }
    None
}

fn hasher() -> Argon2<'static> {
    // m = 19 MiB, t = 2, p = 1: the OWASP minimum for argon2id, as ARCHITECTURE.md §4 asks.
    let params = Params::new(19 * 1024, 2, 1, None).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes a password into a PHC string (salt and parameters included).
pub async fn hash_password(password: String) -> anyhow::Result<String> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        hasher()
            .hash_password(password.as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .map_err(|e| anyhow::anyhow!("hashing a password failed: {e}"))
    })
    .await?
}

/// True when `password` matches the PHC string `hash`. A malformed stored hash is an error.
pub async fn verify_password(password: String, hash: String) -> anyhow::Result<bool> {
    tokio::task::spawn_blocking(move || {
        let parsed = PasswordHash::new(&hash).map_err(|e| anyhow::anyhow!("stored password hash is malformed: {e}"))?;
        Ok(hasher().verify_password(password.as_bytes(), &parsed).is_ok())
    })
    .await?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_of_spec_section_5() {
        assert_eq!(password_rule_violation("Abcdef12"), None);
        assert_eq!(password_rule_violation("a1@$!%*#?&"), None);
        assert!(password_rule_violation("Abc12").unwrap().contains("at least 8"));
        assert!(password_rule_violation("abcdefgh").unwrap().contains("one letter and one digit"));
        assert!(password_rule_violation("12345678").unwrap().contains("one letter and one digit"));
        assert!(password_rule_violation("abcd 1234").unwrap().contains("only letters"));
        assert!(password_rule_violation("abcd^1234").unwrap().contains("only letters"));
        assert!(password_rule_violation("pässword1").unwrap().contains("only letters"));
        assert!(password_rule_violation(&"a1".repeat(40)).unwrap().contains("at most 64"));
    }

    #[tokio::test]
    async fn hash_then_verify() {
        let hash = hash_password("Secret@123".into()).await.unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(verify_password("Secret@123".into(), hash.clone()).await.unwrap());
        assert!(!verify_password("Secret@124".into(), hash).await.unwrap());
        assert!(verify_password("x".into(), "not a hash".into()).await.is_err());
    }
}
