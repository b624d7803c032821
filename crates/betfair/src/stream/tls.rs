//! The stream's TLS: rustls with the ring provider, one certificate for every connection (no
//! SNI needed: Python sends none when it connects to an IP address, and betfairlightweight
//! verifies nothing, so a self-signed certificate serves it).
//!
//! Where the certificate comes from:
//! - the operator's PEM pair (`--betfair-stream-cert`, `--betfair-stream-key`);
//! - else a self-signed pair made at first start and kept: beside the SQLite database
//!   (`data/backlay.db` → `data/backlay.stream.crt` and `data/backlay.stream.key`), or on
//!   PostgreSQL beside the secret key file (`secret.key` → `secret.stream.crt` / `.stream.key`);
//!   the key file is written with mode 0600, like the secret key's;
//! - on PostgreSQL with the secret key given as text (no file to sit beside), a self-signed
//!   pair made in memory at each start: clients do not verify it, so nothing breaks when it
//!   changes.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::{self, ServerConfig};
use tokio_rustls::TlsAcceptor;

use backlay_kit::config::BetfairStreamConfig;
use backlay_kit::secret_key::SecretKeySource;

/// The names the self-signed certificate is made for (clients do not check them).
const SELF_SIGNED_NAMES: [&str; 2] = ["localhost", "backlay-betfair-stream"];

/// The acceptor for the stream's connections.
pub fn acceptor(
    settings: &BetfairStreamConfig,
    database_url: &str,
    secret_key: &SecretKeySource,
) -> anyhow::Result<TlsAcceptor> {
    let (certs, key) = match (&settings.cert_file, &settings.key_file) {
        (Some(cert), Some(key)) => read_pair(cert, key)?,
        _ => match self_signed_paths(database_url, secret_key)? {
            Some((cert, key)) => load_or_create(&cert, &key)?,
            None => {
                tracing::info!("Betfair stream: a self-signed certificate made in memory (give --betfair-stream-cert/--betfair-stream-key to keep one)");
                let (cert, key) = self_signed()?;
                parse_pair(cert.as_bytes(), key.as_bytes(), "the self-signed pair")?
            }
        },
    };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .context("the Betfair stream's certificate and key do not make a pair")?;
    Ok(TlsAcceptor::from(Arc::new(config)))
}

/// Where the kept self-signed pair lives; `None`: nowhere to keep it.
fn self_signed_paths(
    database_url: &str,
    secret_key: &SecretKeySource,
) -> anyhow::Result<Option<(PathBuf, PathBuf)>> {
    let beside = match backlay_store::engine_of(database_url)? {
        backlay_store::Engine::Sqlite => PathBuf::from(backlay_store::sqlite_path(database_url)),
        backlay_store::Engine::Postgres => match secret_key {
            SecretKeySource::File { path, .. } => path.clone(),
            SecretKeySource::BesideDatabase | SecretKeySource::Text(_) => return Ok(None),
        },
    };
    Ok(Some((beside.with_extension("stream.crt"), beside.with_extension("stream.key"))))
}

fn load_or_create(
    cert: &Path,
    key: &Path,
) -> anyhow::Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>)> {
    if !cert.exists() || !key.exists() {
        let (cert_pem, key_pem) = self_signed()?;
        write_new(key, key_pem.as_bytes(), 0o600)?;
        write_new(cert, cert_pem.as_bytes(), 0o644)?;
        tracing::info!(cert = %cert.display(), key = %key.display(), "Betfair stream: made a self-signed certificate");
    }
    read_pair(cert, key)
}

/// A fresh self-signed certificate and its key, as PEM.
fn self_signed() -> anyhow::Result<(String, String)> {
    let names: Vec<String> = SELF_SIGNED_NAMES.iter().map(|n| n.to_string()).collect();
    let certified = rcgen::generate_simple_self_signed(names)
        .context("making a self-signed certificate for the Betfair stream")?;
    Ok((certified.cert.pem(), certified.key_pair.serialize_pem()))
}

/// Writes a file that must not exist yet (replacing half a pair would be wrong), with `mode`.
fn write_new(path: &Path, bytes: &[u8], mode: u32) -> anyhow::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(mode);
    }
    #[cfg(not(unix))]
    let _ = mode;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut file = options.open(path).with_context(|| format!("creating {}", path.display()))?;
    file.write_all(bytes).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

fn read_pair(
    cert: &Path,
    key: &Path,
) -> anyhow::Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>)> {
    let cert_pem = std::fs::read(cert)
        .with_context(|| format!("reading the Betfair stream's certificate {}", cert.display()))?;
    let key_pem = std::fs::read(key)
        .with_context(|| format!("reading the Betfair stream's key {}", key.display()))?;
    parse_pair(&cert_pem, &key_pem, &format!("{} and {}", cert.display(), key.display()))
}

fn parse_pair(
    cert_pem: &[u8],
    key_pem: &[u8],
    what: &str,
) -> anyhow::Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>)> {
    let certs = rustls_pemfile::certs(&mut &cert_pem[..])
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("{what}: the certificate is not PEM"))?;
    if certs.is_empty() {
        anyhow::bail!("{what}: no certificate found (PEM, BEGIN CERTIFICATE)");
    }
    let key = rustls_pemfile::private_key(&mut &key_pem[..])
        .with_context(|| format!("{what}: the key is not PEM"))?
        .ok_or_else(|| anyhow::anyhow!("{what}: no private key found (PEM)"))?;
    Ok((certs, key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_self_signed_pair_is_kept_with_a_private_key_file() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("b.db").display());
        let settings = BetfairStreamConfig {
            addr: "127.0.0.1:0".parse().unwrap(),
            cert_file: None,
            key_file: None,
            default_addr: false,
        };
        acceptor(&settings, &url, &SecretKeySource::BesideDatabase).unwrap();
        let key = dir.path().join("b.stream.key");
        let first = std::fs::read(&key).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&key).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        acceptor(&settings, &url, &SecretKeySource::BesideDatabase).unwrap();
        assert_eq!(std::fs::read(&key).unwrap(), first, "the pair is kept, not made again");
    }
}
