//! Password rules (spec §5) and argon2id hashing.
//!
//! Hashing and verifying run on the blocking pool (`spawn_blocking`): at m = 19 MiB, t = 2 they
//! take tens of milliseconds of CPU, which would stall every request sharing an async thread.
//!
//! Every hash and every check goes through one [`Passwords`] per server, which bounds them: each
//! takes 19 MiB and a core for its whole run, so unbounded, 200 log-ins at once took the server
//! to 5.7 GiB and ten seconds a log-in. At most one hash per core runs; a few per core wait
//! their turn; anything beyond that is refused at once with 503 and `Retry-After`, before any
//! memory is taken:
//!
//! ```text
//! 2 cores: 2 running, 8 waiting (each waits at most four hashes, ~0.2 s), the 11th → 503
//! ```
//!
//! Argon2's 19 MiB of working memory is kept and reused, one block array per hash that may run,
//! instead of being allocated for each hash: freed on whichever blocking thread ran it, each
//! thread's allocator arena kept a copy, and a storm left the server ~300 MiB larger for good.
//! The hash is the library's (`hash_password_into_with_memory`, the call it offers for
//! caller-held memory); only the PHC string around it is put together here.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use tokio::sync::Semaphore;

use crate::error::AppError;

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
        return Some(format!(
            "Password may contain only letters, digits and the symbols {PASSWORD_SYMBOLS}."
        ));
    }
    if !password.chars().any(|c| c.is_ascii_alphabetic())
        || !password.chars().any(|c| c.is_ascii_digit())
    {
        return Some("Password must contain at least one letter and one digit.".into());
    }
    None
}

/// Bytes of a new hash's output.
const OUTPUT_BYTES: usize = 32;

fn hasher() -> Argon2<'static> {
    // m = 19 MiB, t = 2, p = 1: the OWASP minimum for argon2id, as ARCHITECTURE.md §4 asks.
    let params = Params::new(19 * 1024, 2, 1, Some(OUTPUT_BYTES)).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes `password` with a fresh salt into a PHC string, in `memory`.
fn hash_in(memory: &mut [Block], password: &[u8]) -> anyhow::Result<String> {
    let argon2 = hasher();
    let salt = SaltString::generate(&mut OsRng);
    let mut salt_buffer = [0u8; 64];
    let salt_bytes =
        salt.as_salt().decode_b64(&mut salt_buffer).map_err(|e| anyhow::anyhow!("salt: {e}"))?;
    let output = Output::init_with(OUTPUT_BYTES, |out| {
        Ok(argon2.hash_password_into_with_memory(password, salt_bytes, out, &mut *memory)?)
    })
    .map_err(|e| anyhow::anyhow!("hashing a password failed: {e}"))?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(argon2.params())
            .map_err(|e| anyhow::anyhow!("argon2 parameters: {e}"))?,
        salt: Some(salt.as_salt()),
        hash: Some(output),
    };
    Ok(phc.to_string())
}

/// Whether `password` hashes to the PHC string `stored` (with the parameters stored in it), in
/// `memory`, or in memory of its own if the stored parameters need more. Compared in constant
/// time (`Output`'s equality). A malformed stored hash is an error.
fn verify_in(memory: &mut [Block], password: &[u8], stored: &str) -> anyhow::Result<bool> {
    let malformed =
        |e: argon2::password_hash::Error| anyhow::anyhow!("stored password hash is malformed: {e}");
    let parsed = PasswordHash::new(stored).map_err(malformed)?;
    let algorithm = Algorithm::try_from(parsed.algorithm).map_err(malformed)?;
    let version = match parsed.version {
        Some(version) => Version::try_from(version)
            .map_err(|e| anyhow::anyhow!("stored password hash is malformed: {e}"))?,
        None => Version::default(),
    };
    let params = Params::try_from(&parsed).map_err(malformed)?;
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        anyhow::bail!("stored password hash has no salt or no hash");
    };
    let mut salt_buffer = [0u8; 64];
    let salt_bytes = salt.decode_b64(&mut salt_buffer).map_err(malformed)?;
    let mut own_memory = Vec::new();
    let memory = if params.block_count() <= memory.len() {
        memory
    } else {
        own_memory.resize(params.block_count(), Block::default());
        &mut own_memory[..]
    };
    let argon2 = Argon2::new(algorithm, version, params);
    let computed = Output::init_with(expected.len(), |out| {
        Ok(argon2.hash_password_into_with_memory(password, salt_bytes, out, &mut *memory)?)
    })
    .map_err(|e| anyhow::anyhow!("checking a password failed: {e}"))?;
    Ok(computed == expected)
}

/// Hashes that may wait for a core, per core.
pub const WAITING_PER_CORE: usize = 4;
/// What a caller refused by a full queue is told to wait, in seconds.
pub const BUSY_RETRY_AFTER_S: u64 = 1;

#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    /// Every core is hashing and the queue is full: try again in a moment.
    #[error("the password hasher is busy")]
    Busy,
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

impl From<PasswordError> for AppError {
    fn from(err: PasswordError) -> AppError {
        match err {
            PasswordError::Busy => AppError::Busy {
                message: "The server is busy checking other log-ins. Try again in a moment.".into(),
                retry_after_s: BUSY_RETRY_AFTER_S,
            },
            PasswordError::Failed(cause) => AppError::Internal(cause),
        }
    }
}

/// The server's password hasher: the one way to hash or verify a password, bounded (see the
/// module docs). Cheap to clone; clones share the bound.
#[derive(Clone)]
pub struct Passwords {
    /// Hashes running or waiting: a place here is taken without waiting, or the call is busy.
    admitted: Arc<Semaphore>,
    /// Hashes running.
    running: Arc<Semaphore>,
    /// Working memory for the running hashes: at most one array per running place, made when
    /// first needed and kept.
    memory: Arc<Mutex<Vec<Vec<Block>>>>,
}

impl std::fmt::Debug for Passwords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Passwords")
            .field("free_places", &self.admitted.available_permits())
            .finish_non_exhaustive()
    }
}

impl Passwords {
    pub fn new(max_running: usize, max_waiting: usize) -> Passwords {
        assert!(max_running > 0, "at least one hash must be able to run");
        Passwords {
            admitted: Arc::new(Semaphore::new(max_running + max_waiting)),
            running: Arc::new(Semaphore::new(max_running)),
            memory: Arc::default(),
        }
    }

    /// One running hash per core this process may use, [`WAITING_PER_CORE`] waiting per core.
    pub fn for_this_machine() -> Passwords {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        Passwords::new(cores, cores * WAITING_PER_CORE)
    }

    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut [Block]) -> T + Send + 'static,
    ) -> Result<T, PasswordError> {
        let admitted =
            Arc::clone(&self.admitted).try_acquire_owned().map_err(|_| PasswordError::Busy)?;
        let running = Arc::clone(&self.running)
            .acquire_owned()
            .await
            .expect("the hasher's semaphore is never closed");
        let memory = Arc::clone(&self.memory);
        // The places go with the work onto the blocking thread: a caller that goes away (its
        // client hung up) does not free them while its hash still runs and holds its memory.
        tokio::task::spawn_blocking(move || {
            let taken = memory.lock().expect("hasher memory lock").pop();
            let mut blocks =
                taken.unwrap_or_else(|| vec![Block::default(); hasher().params().block_count()]);
            let result = work(&mut blocks);
            memory.lock().expect("hasher memory lock").push(blocks);
            drop((running, admitted));
            result
        })
        .await
        .map_err(|e| {
            PasswordError::Failed(anyhow::anyhow!("the password hashing task failed: {e}"))
        })
    }

    /// Hashes a password into a PHC string (salt and parameters included).
    pub async fn hash(&self, password: String) -> Result<String, PasswordError> {
        self.run(move |memory| hash_in(memory, password.as_bytes()))
            .await?
            .map_err(PasswordError::Failed)
    }

    /// The hash of a password everyone may know (the demo's, printed at start), made once per
    /// process and handed out again, salt and all. The demo seeds every fresh database with the
    /// same few log-ins, and the API tests start a thousand servers in one process: hashing
    /// those passwords afresh for each was a third of those tests' CPU. Never for a password a
    /// person chose: accounts given it share one hash, which tells whoever reads two of them
    /// that their passwords are the same.
    pub async fn hash_published(&self, password: &str) -> Result<String, PasswordError> {
        static MADE: Mutex<BTreeMap<String, String>> = Mutex::new(BTreeMap::new());
        if let Some(hash) = MADE.lock().expect("published hashes lock").get(password) {
            return Ok(hash.clone());
        }
        let hash = self.hash(password.to_owned()).await?;
        MADE.lock().expect("published hashes lock").insert(password.to_owned(), hash.clone());
        Ok(hash)
    }

    /// A hash no known password matches (of a random salt string), made once per process: a
    /// log-in naming nobody is checked against it, so that it takes as long as one naming
    /// somebody.
    pub async fn dummy_hash(&self) -> Result<String, PasswordError> {
        static DUMMY: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
        DUMMY
            .get_or_try_init(|| self.hash(SaltString::generate(&mut OsRng).to_string()))
            .await
            .cloned()
    }

    /// True when `password` matches the PHC string `hash`. A malformed stored hash is an error.
    pub async fn verify(&self, password: String, hash: String) -> Result<bool, PasswordError> {
        self.run(move |memory| verify_in(memory, password.as_bytes(), &hash))
            .await?
            .map_err(PasswordError::Failed)
    }
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
        let passwords = Passwords::for_this_machine();
        let hash = passwords.hash("Secret@123".into()).await.unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(passwords.verify("Secret@123".into(), hash.clone()).await.unwrap());
        assert!(!passwords.verify("Secret@124".into(), hash).await.unwrap());
        assert!(matches!(
            passwords.verify("x".into(), "not a hash".into()).await,
            Err(PasswordError::Failed(_))
        ));
    }

    #[tokio::test]
    async fn a_published_password_is_hashed_once_per_process_and_the_dummy_matches_nothing() {
        let passwords = Passwords::for_this_machine();
        let first = passwords.hash_published("Published@1").await.unwrap();
        assert_eq!(passwords.hash_published("Published@1").await.unwrap(), first);
        assert!(passwords.verify("Published@1".into(), first.clone()).await.unwrap());
        let other = passwords.hash_published("Published@2").await.unwrap();
        assert_ne!(other, first);
        assert!(passwords.verify("Published@2".into(), other).await.unwrap());

        let dummy = passwords.dummy_hash().await.unwrap();
        assert_eq!(Passwords::for_this_machine().dummy_hash().await.unwrap(), dummy);
        assert!(!passwords.verify(String::new(), dummy.clone()).await.unwrap());
        assert!(!passwords.verify("Published@1".into(), dummy).await.unwrap());
    }

    #[tokio::test]
    async fn hashes_made_by_the_library_itself_verify_and_the_other_way_round() {
        use argon2::password_hash::{PasswordHasher as _, PasswordVerifier as _};
        let passwords = Passwords::for_this_machine();
        let salt = SaltString::generate(&mut OsRng);
        let by_library = hasher().hash_password(b"Secret@123", &salt).unwrap().to_string();
        assert!(passwords.verify("Secret@123".into(), by_library.clone()).await.unwrap());
        assert!(!passwords.verify("Secret@124".into(), by_library).await.unwrap());
        let ours = passwords.hash("Secret@123".into()).await.unwrap();
        assert!(hasher()
            .verify_password(b"Secret@123", &PasswordHash::new(&ours).unwrap())
            .is_ok());
        // Other parameters (an older, smaller hash; a larger one than our memory) verify too.
        let small = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(8 * 1024, 1, 1, None).unwrap(),
        );
        let large = Argon2::new(
            Algorithm::Argon2i,
            Version::V0x10,
            Params::new(24 * 1024, 1, 2, None).unwrap(),
        );
        for argon2 in [small, large] {
            let stored = argon2.hash_password(b"Secret@123", &salt).unwrap().to_string();
            assert!(
                passwords.verify("Secret@123".into(), stored.clone()).await.unwrap(),
                "{stored}"
            );
            assert!(!passwords.verify("Secret@12".into(), stored).await.unwrap());
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn beyond_the_running_and_waiting_hashes_a_call_is_busy_at_once() {
        let passwords = Passwords::new(1, 2);
        let hash = passwords.hash("Secret@123".into()).await.unwrap();
        let calls: Vec<_> = (0..6)
            .map(|_| {
                let (passwords, hash) = (passwords.clone(), hash.clone());
                tokio::spawn(async move { passwords.verify("Secret@123".into(), hash).await })
            })
            .collect();
        let mut verified = 0;
        let mut busy = 0;
        for call in calls {
            match call.await.unwrap() {
                Ok(true) => verified += 1,
                Err(PasswordError::Busy) => busy += 1,
                other => panic!("unexpected {other:?}"),
            }
        }
        assert!(verified >= 3, "one running and two waiting get through: {verified}");
        assert!(
            busy >= 1 && verified + busy == 6,
            "the rest are refused, not queued: {verified} verified, {busy} busy"
        );
        // Once the queue drains there is room again.
        assert!(passwords.verify("Secret@123".into(), hash).await.unwrap());
    }
}
