//! Secrets at rest: the columns that hold something an attacker could use directly (a user's
//! TOTP secret computes their codes; a game provider's signing secret signs wallet calls) are
//! stored sealed with the server's secret key, so that a copy of the database alone is useless.
//!
//! A sealed value is text in the column it replaces:
//!
//! ```text
//! sealed:v1:<key id>:<base64url(nonce ‖ ciphertext ‖ tag)>
//! sealed:v1:3f9c01aa:y5kqG…   XChaCha20-Poly1305, 24-byte random nonce
//! ```
//!
//! The key id (the first 4 bytes of SHA-256 of the key, in hex) says which key sealed it, so that
//! a key file may hold a new key and the older ones while secrets are re-sealed (rotation: see
//! docs/operating.md). The associated data names the value's place — table, column and row, e.g.
//! `users.totp_secret 42` — along with the header, so a sealed value copied into another row
//! (an attacker's own TOTP secret into a victim's row) does not open there.
//!
//! The cipher is RustCrypto's `chacha20poly1305`; nothing of the cryptography is written here.
//! The store opens and seals in the repositories ([`crate::security`], and the providers' in
//! `backlay_casino_store::providers`, with [`open_column`] and [`seal_column`]), so callers only
//! ever see clear text, and [`Store::seal_secrets`] seals rows written in clear before this
//! existed.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::RwLock;
use std::time::SystemTime;

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine as _;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use rand::RngCore;
use sha2::{Digest, Sha256};
use sqlx::Row;

use crate::{Store, StoreError, StoreResult};

/// What every sealed value starts with (the format's version included).
pub const SEALED_PREFIX: &str = "sealed:v1:";
/// Bytes of a key.
pub const KEY_BYTES: usize = 32;
const NONCE_BYTES: usize = 24;

/// Why a secret could not be opened or sealed.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum SecretError {
    #[error("no secret key is configured")]
    NoKey,
    #[error("it is sealed with key {0}, which is not in the secret key")]
    UnknownKey(String),
    #[error("it does not open with its key: it was altered, or copied from another row")]
    Tampered,
    #[error("it is stored in clear text, not sealed")]
    NotSealed,
    #[error("it is not a well-formed sealed value")]
    Malformed,
}

/// Where a secret lives: its table, column and row (an id, or a provider's code), bound to the
/// sealed value as associated data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecretSlot {
    pub table: &'static str,
    pub column: &'static str,
    pub row: String,
}

impl SecretSlot {
    pub fn new(table: &'static str, column: &'static str, row: impl ToString) -> SecretSlot {
        SecretSlot { table, column, row: row.to_string() }
    }

    fn associated_data(&self, header: &str) -> Vec<u8> {
        format!("backlay {header} {}.{} {}", self.table, self.column, self.row).into_bytes()
    }
}

impl std::fmt::Display for SecretSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{} of {}", self.table, self.column, self.row)
    }
}

struct Key {
    id: String,
    cipher: XChaCha20Poly1305,
}

impl Key {
    fn new(bytes: &[u8; KEY_BYTES]) -> Key {
        let digest = Sha256::digest(bytes);
        Key { id: hex::encode(&digest[..4]), cipher: XChaCha20Poly1305::new(bytes.into()) }
    }
}

/// A fresh key from the operating system's random source, in base64 (how key files and
/// `BACKLAY_SECRET_KEY` hold it).
pub fn new_key() -> String {
    let mut bytes = [0u8; KEY_BYTES];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    STANDARD.encode(bytes)
}

/// Parses keys written as base64, one per line or separated by commas; blank lines and lines
/// starting with `#` are skipped. The first key seals; the others only open.
fn parse_keys(text: &str, source: &str) -> anyhow::Result<Vec<Key>> {
    let mut keys = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        for item in line.split(',').map(str::trim).filter(|item| !item.is_empty()) {
            let bytes: [u8; KEY_BYTES] =
                STANDARD.decode(item).ok().and_then(|bytes| bytes.try_into().ok()).ok_or_else(
                    || {
                        anyhow::anyhow!(
                            "{source}, line {}: not a base64-encoded {KEY_BYTES}-byte key",
                            n + 1
                        )
                    },
                )?;
            keys.push(Key::new(&bytes));
        }
    }
    anyhow::ensure!(!keys.is_empty(), "{source} holds no key");
    Ok(keys)
}

/// The file a keyring was read from, and what it looked like then.
struct KeyFile {
    path: PathBuf,
    seen: Option<(SystemTime, u64)>,
}

fn file_stamp(path: &Path) -> Option<(SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

/// The server's secret keys: the first seals, all open. Read from a key file (which is read
/// again when it changes, so a key added by `backlay admin secret-key rotate` reaches a running
/// server) or from the environment.
pub struct Keyring {
    keys: RwLock<Vec<Key>>,
    file: Option<std::sync::Mutex<KeyFile>>,
    source: String,
}

impl std::fmt::Debug for Keyring {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Keyring")
            .field("source", &self.source)
            .field("key_ids", &self.key_ids())
            .finish()
    }
}

impl Keyring {
    /// Keys given as text (`BACKLAY_SECRET_KEY`); `source` names them in errors.
    pub fn from_text(text: &str, source: &str) -> anyhow::Result<Keyring> {
        Ok(Keyring {
            keys: RwLock::new(parse_keys(text, source)?),
            file: None,
            source: source.to_string(),
        })
    }

    /// Reads a key file. A file others may read is used, with a warning.
    pub fn load_file(path: &Path) -> anyhow::Result<Keyring> {
        let source = format!("the secret key file {}", path.display());
        let seen = file_stamp(path);
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read {source}: {e}"))?;
        let keys = parse_keys(&text, &source)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            if let Ok(meta) = std::fs::metadata(path) {
                if meta.permissions().mode() & 0o077 != 0 {
                    tracing::warn!(path = %path.display(), "the secret key file can be read by other users: chmod 600 it");
                }
            }
        }
        Ok(Keyring {
            keys: RwLock::new(keys),
            file: Some(std::sync::Mutex::new(KeyFile { path: path.to_path_buf(), seen })),
            source,
        })
    }

    /// Creates a key file holding one fresh key, readable by its owner only; refuses to replace
    /// an existing file.
    pub fn create_file(path: &Path) -> anyhow::Result<Keyring> {
        write_new_file(path, &key_file_text(&[new_key()]))?;
        Keyring::load_file(path)
    }

    /// Writes a fresh key at the head of a key file (it seals from now on; the older keys stay
    /// to open what they sealed), replacing the file in one rename. Answers the new key's id.
    pub fn add_key_to_file(path: &Path) -> anyhow::Result<String> {
        let source = format!("the secret key file {}", path.display());
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read {source}: {e}"))?;
        let old = parse_keys(&text, &source)?;
        let new = new_key();
        let mut lines = vec![new.clone()];
        lines.extend(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(str::to_string),
        );
        let staged = path.with_extension("key.new");
        let _ = std::fs::remove_file(&staged);
        write_new_file(&staged, &key_file_text(&lines))?;
        std::fs::rename(&staged, path)
            .map_err(|e| anyhow::anyhow!("cannot replace {source}: {e}"))?;
        let id = parse_keys(&new, "the new key")?.remove(0).id;
        debug_assert!(old.iter().all(|k| k.id != id));
        Ok(id)
    }

    /// Where the keys come from, for messages.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The ids of the keys, the sealing one first.
    pub fn key_ids(&self) -> Vec<String> {
        self.keys.read().expect("keyring lock").iter().map(|k| k.id.clone()).collect()
    }

    /// The id of the key that seals now (after reading a changed key file again).
    pub fn current_key_id(&self) -> String {
        self.refresh();
        self.key_ids().remove(0)
    }

    /// Reads the key file again if it changed since it was read. A file that can no longer be
    /// read keeps the keys in hand (and says so).
    fn refresh(&self) {
        let Some(file) = &self.file else { return };
        let mut file = file.lock().expect("key file lock");
        let stamp = file_stamp(&file.path);
        if stamp.is_none() || stamp == file.seen {
            return;
        }
        match std::fs::read_to_string(&file.path)
            .map_err(anyhow::Error::from)
            .and_then(|text| parse_keys(&text, &self.source))
        {
            Ok(keys) => {
                tracing::info!(key_ids = ?keys.iter().map(|k| &k.id).collect::<Vec<_>>(), "read the secret key file again");
                *self.keys.write().expect("keyring lock") = keys;
                file.seen = stamp;
            }
            Err(err) => tracing::error!("{}: {err:#}; keeping the keys read before", self.source),
        }
    }

    /// Seals `plain` for `slot` with the current key.
    pub fn seal(&self, plain: &[u8], slot: &SecretSlot) -> String {
        self.refresh();
        let keys = self.keys.read().expect("keyring lock");
        let key = &keys[0];
        let header = format!("{SEALED_PREFIX}{}", key.id);
        let mut nonce = [0u8; NONCE_BYTES];
        rand::rngs::OsRng.fill_bytes(&mut nonce);
        let aad = slot.associated_data(&header);
        let sealed = key
            .cipher
            .encrypt(XNonce::from_slice(&nonce), Payload { msg: plain, aad: &aad })
            .expect("XChaCha20-Poly1305 seals any message that fits in memory");
        let mut body = nonce.to_vec();
        body.extend_from_slice(&sealed);
        format!("{header}:{}", URL_SAFE_NO_PAD.encode(body))
    }

    /// Opens a sealed value of `slot`.
    pub fn open(&self, sealed: &str, slot: &SecretSlot) -> Result<Vec<u8>, SecretError> {
        let (key_id, _) = sealed_key_id(sealed)?;
        if !self.has_key(key_id) {
            self.refresh();
        }
        let keys = self.keys.read().expect("keyring lock");
        let key = keys
            .iter()
            .find(|k| k.id == key_id)
            .ok_or_else(|| SecretError::UnknownKey(key_id.to_string()))?;
        let (header, body) = sealed.rsplit_once(':').ok_or(SecretError::Malformed)?;
        let body = URL_SAFE_NO_PAD.decode(body).map_err(|_| SecretError::Malformed)?;
        if body.len() < NONCE_BYTES {
            return Err(SecretError::Malformed);
        }
        let (nonce, ciphertext) = body.split_at(NONCE_BYTES);
        let aad = slot.associated_data(header);
        key.cipher
            .decrypt(XNonce::from_slice(nonce), Payload { msg: ciphertext, aad: &aad })
            .map_err(|_| SecretError::Tampered)
    }

    /// Opens a sealed text value of `slot`.
    pub fn open_text(&self, sealed: &str, slot: &SecretSlot) -> Result<String, SecretError> {
        String::from_utf8(self.open(sealed, slot)?).map_err(|_| SecretError::Tampered)
    }

    fn has_key(&self, key_id: &str) -> bool {
        self.keys.read().expect("keyring lock").iter().any(|k| k.id == key_id)
    }
}

/// The key id of a sealed value, and whether the value is sealed at all.
fn sealed_key_id(value: &str) -> Result<(&str, &str), SecretError> {
    let rest = value.strip_prefix(SEALED_PREFIX).ok_or(SecretError::NotSealed)?;
    let (key_id, body) = rest.split_once(':').ok_or(SecretError::Malformed)?;
    if key_id.len() != 8 || !key_id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(SecretError::Malformed);
    }
    Ok((key_id, body))
}

/// True when a column value is sealed (as opposed to clear text written before sealing).
pub fn is_sealed(value: &str) -> bool {
    value.starts_with(SEALED_PREFIX)
}

fn key_file_text(keys: &[String]) -> String {
    let mut text = String::from(
        "# Backlay's secret key: seals TOTP secrets and game providers' signing secrets in the database.\n\
         # Keep it, and a copy of it apart from the database's backups: without it they cannot be read.\n\
         # The first key seals; any others only open what they sealed (docs/operating.md, rotation).\n",
    );
    for key in keys {
        text.push_str(key);
        text.push('\n');
    }
    text
}

/// Creates `path` (not replacing anything) readable and writable by its owner only.
fn write_new_file(path: &Path, text: &str) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    let mut file = options.open(path).map_err(|e| {
        anyhow::anyhow!("cannot create the secret key file {}: {e}", path.display())
    })?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|e| anyhow::anyhow!("cannot write the secret key file {}: {e}", path.display()))
}

/// The sealed columns: table, column, the column naming the row in the associated data.
const SEALED_COLUMNS: [(&str, &str, &str); 3] = [
    ("users", "totp_secret", "id"),
    ("users", "totp_pending_secret", "id"),
    ("casino_providers", "hmac_secret", "code"),
];

/// What [`Store::seal_secrets`] found and did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SealReport {
    /// Values that were in clear text and are now sealed.
    pub sealed_clear: u64,
    /// Sealed values moved to the current key.
    pub resealed: u64,
    /// Sealed values per key id, after the run.
    pub by_key: BTreeMap<String, u64>,
    /// Key ids that sealed some values but are not in the keyring.
    pub unknown_keys: BTreeMap<String, u64>,
    /// Values that do not open with their (known) key: where they are, and why.
    pub broken: Vec<String>,
}

impl Store {
    /// How many stored secrets are sealed (with any key).
    pub async fn count_sealed_secrets(&self) -> StoreResult<u64> {
        let mut total = 0;
        for (table, column, _) in SEALED_COLUMNS {
            let count: i64 =
                sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table} WHERE {column} LIKE $1"))
                    .bind(format!("{SEALED_PREFIX}%"))
                    .fetch_one(self.pool())
                    .await?;
            total += u64::try_from(count).unwrap_or(0);
        }
        Ok(total)
    }

    /// Seals every secret stored in clear text (rows from before sealing existed) and, with
    /// `reseal_all`, moves every sealed one to the current key, in one write transaction. Each
    /// update is conditional on the value read, so one changed meanwhile is left to its writer.
    /// Values sealed with a key not in the keyring, or that do not open, are left as they are
    /// and reported.
    pub async fn seal_secrets(&self, reseal_all: bool) -> StoreResult<SealReport> {
        let keyring = self
            .keyring()
            .map_err(|source| StoreError::Secret { slot: "the stored secrets".into(), source })?;
        let current = keyring.current_key_id();
        let mut report = SealReport::default();
        let mut writer = self.begin_write().await?;
        for (table, column, row_column) in SEALED_COLUMNS {
            let rows = sqlx::query(&format!("SELECT id, {row_column} AS row_name, {column} AS value FROM {table} WHERE {column} IS NOT NULL"))
                .fetch_all(writer.conn())
                .await?;
            for row in rows {
                let id: i64 = row.try_get("id")?;
                let row_name: String = match row_column {
                    "id" => id.to_string(),
                    _ => row.try_get("row_name")?,
                };
                let value: String = row.try_get("value")?;
                let slot = SecretSlot::new(table, column, &row_name);
                let plain = match sealed_key_id(&value) {
                    Err(SecretError::NotSealed) => {
                        report.sealed_clear += 1;
                        value.clone().into_bytes()
                    }
                    Ok((key_id, _)) if key_id == current => {
                        *report.by_key.entry(key_id.to_string()).or_default() += 1;
                        continue;
                    }
                    Ok((key_id, _)) if !reseal_all => {
                        let known = keyring.has_key(key_id);
                        let count =
                            if known { &mut report.by_key } else { &mut report.unknown_keys };
                        *count.entry(key_id.to_string()).or_default() += 1;
                        continue;
                    }
                    Ok(_) | Err(_) => match keyring.open(&value, &slot) {
                        Ok(plain) => {
                            report.resealed += 1;
                            plain
                        }
                        Err(SecretError::UnknownKey(key_id)) => {
                            *report.unknown_keys.entry(key_id).or_default() += 1;
                            continue;
                        }
                        Err(err) => {
                            report.broken.push(format!("{slot}: {err}"));
                            continue;
                        }
                    },
                };
                let sealed = keyring.seal(&plain, &slot);
                sqlx::query(&format!(
                    "UPDATE {table} SET {column} = $1 WHERE id = $2 AND {column} = $3"
                ))
                .bind(&sealed)
                .bind(id)
                .bind(&value)
                .execute(writer.conn())
                .await?;
                *report.by_key.entry(current.clone()).or_default() += 1;
            }
        }
        writer.commit().await?;
        Ok(report)
    }
}

/// Opens the value of a sealed column, naming its place in the error.
pub fn open_column(
    keyring: Result<&Keyring, SecretError>,
    value: &str,
    slot: SecretSlot,
) -> StoreResult<String> {
    keyring
        .and_then(|k| k.open_text(value, &slot))
        .map_err(|source| StoreError::Secret { slot: slot.to_string(), source })
}

/// Seals a value for its column.
pub fn seal_column(
    keyring: Result<&Keyring, SecretError>,
    plain: &str,
    slot: SecretSlot,
) -> StoreResult<String> {
    keyring
        .map(|k| k.seal(plain.as_bytes(), &slot))
        .map_err(|source| StoreError::Secret { slot: slot.to_string(), source })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keyring() -> Keyring {
        Keyring::from_text(&new_key(), "test").unwrap()
    }

    #[test]
    fn a_sealed_value_opens_in_its_own_place_only() {
        let keys = keyring();
        let slot = SecretSlot::new("users", "totp_secret", 7);
        let sealed = keys.seal(b"JBSWY3DPEHPK3PXP", &slot);
        assert!(
            sealed.starts_with(&format!("{SEALED_PREFIX}{}:", keys.current_key_id())),
            "{sealed}"
        );
        assert!(!sealed.contains("JBSWY3DPEHPK3PXP"));
        assert_eq!(keys.open(&sealed, &slot).unwrap(), b"JBSWY3DPEHPK3PXP");
        // A fresh nonce each time.
        assert_ne!(keys.seal(b"JBSWY3DPEHPK3PXP", &slot), sealed);
        // Another row, another column, another table: it does not open.
        for elsewhere in [
            SecretSlot::new("users", "totp_secret", 8),
            SecretSlot::new("users", "totp_pending_secret", 7),
            SecretSlot::new("casino_providers", "hmac_secret", 7),
        ] {
            assert_eq!(keys.open(&sealed, &elsewhere), Err(SecretError::Tampered), "{elsewhere}");
        }
        // A changed byte does not open either.
        let mut altered = sealed.clone().into_bytes();
        let last = altered.len() - 2;
        altered[last] = if altered[last] == b'A' { b'B' } else { b'A' };
        assert_eq!(
            keys.open(std::str::from_utf8(&altered).unwrap(), &slot),
            Err(SecretError::Tampered)
        );
    }

    #[test]
    fn another_key_does_not_open_it_and_says_which_key_is_needed() {
        let (one, other) = (keyring(), keyring());
        let slot = SecretSlot::new("casino_providers", "hmac_secret", "evo");
        let sealed = one.seal(b"secret", &slot);
        assert_eq!(other.open(&sealed, &slot), Err(SecretError::UnknownKey(one.current_key_id())));
        assert_eq!(other.open("0123abcd", &slot), Err(SecretError::NotSealed));
        assert_eq!(other.open("sealed:v1:zz:abc", &slot), Err(SecretError::Malformed));
        // A keyring holding both (the new one first) opens what either sealed and seals with the first.
        let both =
            Keyring::from_text(&format!("{}\n", [new_key(), new_key()].join(",")), "test").unwrap();
        assert_eq!(both.key_ids().len(), 2);
    }

    #[test]
    fn keys_are_base64_of_32_bytes_one_per_line_or_comma_separated() {
        let (a, b) = (new_key(), new_key());
        let ring = Keyring::from_text(&format!("# comment\n\n{a}\n {b} \n"), "test").unwrap();
        let ids = ring.key_ids();
        assert_eq!(ids, Keyring::from_text(&format!("{a},{b}"), "test").unwrap().key_ids());
        assert_eq!(ids[0], ring.current_key_id());
        assert_eq!(ids[0].len(), 8);
        let short = Keyring::from_text("c2hvcnQ=", "BACKLAY_SECRET_KEY").unwrap_err().to_string();
        assert_eq!(short, "BACKLAY_SECRET_KEY, line 1: not a base64-encoded 32-byte key");
        assert_eq!(
            Keyring::from_text("# nothing\n", "f").unwrap_err().to_string(),
            "f holds no key"
        );
    }

    #[test]
    fn a_key_file_is_private_and_a_rotation_puts_the_new_key_first() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested/backlay.key");
        let ring = Keyring::create_file(&path).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
        assert!(Keyring::create_file(&path).is_err(), "an existing key file is never replaced");
        let slot = SecretSlot::new("users", "totp_secret", 1);
        let old_id = ring.current_key_id();
        let sealed_before = ring.seal(b"before", &slot);
        let new_id = Keyring::add_key_to_file(&path).unwrap();
        let reread = Keyring::load_file(&path).unwrap();
        assert_eq!(reread.key_ids(), vec![new_id.clone(), old_id.clone()]);
        // The keyring that was open reads the file again on its own: it opens what the new key
        // sealed and seals with the new key.
        let sealed_after = reread.seal(b"after", &slot);
        assert_eq!(ring.open(&sealed_after, &slot).unwrap(), b"after");
        assert!(ring.seal(b"x", &slot).contains(&new_id));
        assert_eq!(reread.open(&sealed_before, &slot).unwrap(), b"before");
    }
}
