//! Where the server's secret key comes from, and what start-up does with it (see
//! `backlay_store::secrets` for what it seals).
//!
//! - The embedded default (SQLite, no key named): the key file beside the database
//!   (`data/backlay.db` → `data/backlay.key`), created with mode 0600 on first start.
//! - A key file (`--secret-key-file`), created only when asked (`--create-secret-key`).
//! - Keys in the environment (`BACKLAY_SECRET_KEY`, base64, comma-separated, the first seals).
//!
//! PostgreSQL has no default: a database on another machine has no "beside" that is safe, and a
//! key made silently on whichever machine started first would be lost with it.
//!
//! Start-up then seals any secret still in clear text (rows written before sealing existed), and
//! refuses to go on if secrets are sealed with a key it was not given: a wrong key file is
//! caught at start, not at the first TOTP log-in.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use backlay_store::secrets::Keyring;
use backlay_store::{Engine, Store};

/// Where to find the secret key.
#[derive(Clone, PartialEq, Eq)]
pub enum SecretKeySource {
    /// SQLite: the key file beside the database, created on first start. PostgreSQL: refused.
    BesideDatabase,
    /// A key file; created (mode 0600) when missing only if `create`.
    File { path: PathBuf, create: bool },
    /// Keys given as text (`BACKLAY_SECRET_KEY`): base64, comma-separated, the first seals.
    Text(String),
}

impl std::fmt::Debug for SecretKeySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SecretKeySource::BesideDatabase => f.write_str("BesideDatabase"),
            SecretKeySource::File { path, create } => {
                f.debug_struct("File").field("path", path).field("create", create).finish()
            }
            SecretKeySource::Text(_) => f.write_str("Text(…)"),
        }
    }
}

/// The key file of the embedded default: the database's path with the extension `.key`.
pub fn beside_database(database_url: &str) -> PathBuf {
    Path::new(&backlay_store::sqlite_path(database_url)).with_extension("key")
}

const HOW_TO_GIVE_A_KEY: &str = "give the server a secret key: --secret-key-file /etc/backlay/secret.key \
    (BACKLAY_SECRET_KEY_FILE) with --create-secret-key (BACKLAY_CREATE_SECRET_KEY=1) the first time to create it, \
    or BACKLAY_SECRET_KEY set to a base64 key (`backlay admin secret-key new` prints one). Keep the key apart from \
    the database's backups";

/// Refuses, before anything touches the database, a PostgreSQL database with no key named.
pub fn check_source(source: &SecretKeySource, database_url: &str) -> anyhow::Result<()> {
    if *source == SecretKeySource::BesideDatabase
        && backlay_store::engine_of(database_url)? == Engine::Postgres
    {
        anyhow::bail!(
            "a PostgreSQL database needs a secret key to seal TOTP secrets and game providers' signing secrets: {HOW_TO_GIVE_A_KEY}"
        );
    }
    Ok(())
}

/// Reads (or creates) the secret key, gives it to the store, seals any secret still in clear
/// text, and checks that every sealed secret is sealed with a key it holds.
pub async fn open_secrets(
    store: Store,
    source: &SecretKeySource,
    database_url: &str,
) -> anyhow::Result<Store> {
    let keyring = Arc::new(load(&store, source, database_url).await?);
    let store = store.with_keyring(Arc::clone(&keyring));
    let report = store.seal_secrets(false).await?;
    if !report.unknown_keys.is_empty() {
        let sealed_with: Vec<String> =
            report.unknown_keys.iter().map(|(id, n)| format!("{n} with key {id}")).collect();
        anyhow::bail!(
            "{} does not open the secrets in this database: {} are sealed with keys it does not hold (it holds {}). \
             Start the server with the key the database was sealed with",
            keyring.source(),
            sealed_with.join(", "),
            keyring.key_ids().join(", ")
        );
    }
    if report.sealed_clear > 0 {
        tracing::info!(count = report.sealed_clear, key_id = %keyring.current_key_id(), "sealed the secrets that were stored in clear text");
    }
    for broken in &report.broken {
        tracing::error!("{broken}: it will be refused until set again");
    }
    Ok(store)
}

async fn load(
    store: &Store,
    source: &SecretKeySource,
    database_url: &str,
) -> anyhow::Result<Keyring> {
    match source {
        SecretKeySource::Text(text) => Keyring::from_text(text, "BACKLAY_SECRET_KEY"),
        SecretKeySource::File { path, create } => load_or_create(store, path, *create).await,
        SecretKeySource::BesideDatabase => {
            check_source(source, database_url)?;
            load_or_create(store, &beside_database(database_url), true).await
        }
    }
}

async fn load_or_create(store: &Store, path: &Path, create: bool) -> anyhow::Result<Keyring> {
    if path.exists() {
        return Keyring::load_file(path);
    }
    if !create {
        anyhow::bail!("the secret key file {} does not exist: {HOW_TO_GIVE_A_KEY}", path.display());
    }
    // A new key would not open what an old one sealed: a missing key file is not "first start".
    let sealed = store.count_sealed_secrets().await?;
    if sealed > 0 {
        anyhow::bail!(
            "the secret key file {} is missing, but {sealed} secrets in the database are sealed with a key: \
             restore the key file (or point --secret-key-file at it) rather than make a new key",
            path.display()
        );
    }
    let keyring = Keyring::create_file(path)?;
    tracing::info!(path = %path.display(), key_id = %keyring.current_key_id(), "created the secret key file: keep a copy apart from the database's backups");
    Ok(keyring)
}
