//! Safer gambling's actions that reach beyond one table (issue 33): a time-out or
//! self-exclusion ending every session and cancelling the unmatched bets, the refusal of a
//! log-in, sign-up or deposit during one, the checks a casino stake or a wallet debit makes
//! against the bettor's limits, and the device a log-in came from. The rules are
//! `backlay_core::safer`'s, the records `backlay_store::safer`'s; the API's `user/…` calls
//! (crates/api/src/safer.rs) and the console use these.

use axum::extract::FromRequestParts;
use axum::http::header::USER_AGENT;
use axum::http::request::Parts;
use backlay_core::safer;
use backlay_kit::error::AppError;
use backlay_kit::refusal::Refusal;
use backlay_store::safer::{Block, BlockKind, LoginDevice};
use backlay_store::Writer;

use crate::AppState;

/// The refusal of anything an account on a time-out or self-exclusion asks for.
pub fn block_refusal(block: &Block) -> AppError {
    AppError::Refused(match block.kind {
        BlockKind::TimeOut => Refusal::TimedOut { until_ms: block.until_ms },
        BlockKind::SelfExclusion => Refusal::SelfExcluded { until_ms: block.until_ms },
    })
}

/// 422 while `user_id` is on a time-out or self-exclusion.
pub async fn refuse_if_blocked(state: &AppState, user_id: i64) -> Result<(), AppError> {
    match state.store.active_block(user_id, state.clock.now_ms()).await? {
        Some(block) => Err(block_refusal(&block)),
        None => Ok(()),
    }
}

/// 422 when a self-excluded account holds this mobile number: it opens no new account until
/// the exclusion ends.
pub async fn refuse_excluded_mobile(
    state: &AppState,
    dial_code: &str,
    mobile: &str,
) -> Result<(), AppError> {
    match state.store.mobile_excluded_until(dial_code, mobile, state.clock.now_ms()).await? {
        Some(until_ms) => Err(AppError::field(
            "mobile",
            format!(
                "This mobile number is self-excluded from betting until {}: it cannot open an \
                 account until then.",
                backlay_kit::clock::ist_text(until_ms)
            ),
        )),
        None => Ok(()),
    }
}

/// Starts a time-out or self-exclusion of `user_id` now, for `period` (its name) until
/// `until_ms`: every session ended (web and bot) in the same transaction, then each unmatched
/// bet cancelled. Answers how many bets were cancelled.
pub async fn start_block(
    state: &AppState,
    user_id: i64,
    kind: BlockKind,
    period: &str,
    until_ms: i64,
    ip: Option<&str>,
) -> Result<i64, AppError> {
    let now = state.clock.now_ms();
    let mut writer = state.store.begin_write().await?;
    writer
        .insert_block(
            user_id,
            &Block { kind, period: period.to_string(), started_at_ms: now, until_ms },
        )
        .await?;
    let ended = writer.revoke_user_sessions(user_id, -1, backlay_kit::clock::now_ms()).await?;
    audit(&mut writer, user_id, kind, period, until_ms, ended, ip, now).await?;
    writer.commit().await?;
    // Begun: the sessions are gone whatever happens next. A bet left unmatched by a failure
    // here is the bettor's to see when they come back; the answer says how many went.
    match cancel_unmatched(state, user_id, None).await {
        Ok(count) => Ok(count),
        Err(err) => {
            tracing::error!("a {kind} began but its unmatched bets could not be listed: {err}");
            Ok(0)
        }
    }
}

#[allow(clippy::too_many_arguments)]
async fn audit(
    writer: &mut Writer,
    user_id: i64,
    kind: BlockKind,
    period: &str,
    until_ms: i64,
    sessions_ended: u64,
    ip: Option<&str>,
    now: i64,
) -> Result<(), AppError> {
    use backlay_office_store::AuditWrites;
    writer
        .audit(
            backlay_office_store::audit::NewAuditEntry {
                actor_user_id: Some(user_id),
                action: match kind {
                    BlockKind::TimeOut => "user.time_out",
                    BlockKind::SelfExclusion => "user.self_exclusion",
                },
                target: format!("user:{user_id}"),
                detail: serde_json::json!({
                    "period": period,
                    "until": backlay_kit::clock::iso_utc(until_ms),
                    "sessions_ended": sessions_ended,
                }),
                client_ip: ip,
            },
            now,
        )
        .await?;
    Ok(())
}

/// Cancels the unmatched part of every bet of `user_id` (in `market_id` only, when given), each
/// in its market's task; a bet that matched or closed meanwhile is skipped. Answers how many
/// were cancelled. `bet/cancelAllBets` and a time-out both use it.
pub async fn cancel_unmatched(
    state: &AppState,
    user_id: i64,
    market_id: Option<i64>,
) -> Result<i64, AppError> {
    let bets = state.store.live_bets_of_user(user_id, None, 10_000).await?;
    let mut count = 0;
    for (bet, _) in bets
        .iter()
        .filter(|(b, _)| b.remaining_minor > 0 && market_id.is_none_or(|m| m == b.market_id))
    {
        if state.engine.cancel(bet.market_id, user_id, bet.bet_id, None).await.is_ok() {
            count += 1;
        }
    }
    Ok(count)
}

/// The checks a stake moved at once from the bettor (a casino bet, a provider's debit) makes
/// against their own limits, in `writer`'s transaction with their account locked: the stake
/// limit, and the loss limit counting the stake as lost (it is, until a win comes back).
pub async fn check_play_stake(
    writer: &mut Writer,
    user_id: i64,
    stake_minor: i64,
) -> Result<(), AppError> {
    let Some(funds) = writer.lock_funds(&[user_id], &[]).await?.into_iter().next() else {
        return Ok(());
    };
    backlay_kit::actor::check_own_stake_limit(funds.own_stake_limit_minor, stake_minor)?;
    let cap = safer::loss_cap(&funds.loss_limits, funds.play_net_minor, funds.exposure_minor);
    // The stake is lost until a win comes back: it raises what is at risk by itself.
    backlay_kit::actor::check_loss_limit(cap, funds.exposure_minor, stake_minor)?;
    Ok(())
}

/// The deposit limit's check of a deposit of `amount_minor` into `user_id`, in `writer`'s
/// transaction, at `now_ms`: refused past the lowest deposit limit, and while the account is on
/// a time-out or self-exclusion. `counted`: the deposit is already in what the store sums (a
/// transfer posted in this transaction), else it is added (a request about to be made).
pub async fn check_deposit(
    writer: &mut Writer,
    user_id: i64,
    amount_minor: i64,
    counted: bool,
    now_ms: i64,
) -> Result<(), AppError> {
    if let Some(block) = writer.active_block_of(user_id, now_ms).await? {
        return Err(block_refusal(&block));
    }
    let limits = writer.limits_of(user_id).await?;
    if !limits.deposit.any() {
        return Ok(());
    }
    let mut deposited = writer.deposits_in_periods(user_id, now_ms).await?;
    if counted {
        deposited = deposited.map(|d| d - amount_minor);
    }
    if let Some(room) = safer::room(&limits.deposit, deposited) {
        if amount_minor > room.left_minor {
            return Err(AppError::Refused(Refusal::DepositLimit {
                left_minor: room.left_minor,
                period: room.period,
                limit_minor: room.limit_minor,
            }));
        }
    }
    Ok(())
}

/// The device a request came from, named from its User-Agent ("Chrome 131 on Windows 10"),
/// by woothee's parser, with its family (the name without the browser's version); "Unknown
/// device" without one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Device(pub LoginDevice);

/// A User-Agent longer than this is cut before it is parsed: bounded work per request.
const USER_AGENT_MAX_CHARS: usize = 512;

impl Device {
    /// The device whose browser or bot sent `user_agent`.
    pub fn of(user_agent: Option<&str>) -> Device {
        let Some(agent) = user_agent.map(str::trim).filter(|a| !a.is_empty()) else {
            return Device::named("Unknown device".into(), "Unknown device".into());
        };
        let agent: String = agent.chars().take(USER_AGENT_MAX_CHARS).collect();
        // One parser, built once: it compiles its patterns when made.
        static PARSER: std::sync::LazyLock<woothee::parser::Parser> =
            std::sync::LazyLock::new(woothee::parser::Parser::new);
        match PARSER.parse(&agent) {
            Some(found) if found.name != "UNKNOWN" => {
                let major = found.version.split('.').next().unwrap_or("");
                let browser = if major.is_empty() || major == "UNKNOWN" {
                    found.name.to_string()
                } else {
                    format!("{} {major}", found.name)
                };
                if found.os == "UNKNOWN" {
                    Device::named(browser, found.name.to_string())
                } else {
                    Device::named(
                        format!("{browser} on {}", found.os),
                        format!("{} on {}", found.name, found.os),
                    )
                }
            }
            // A bot's own client (curl, a library): its first word ("python-requests/2.32.3"),
            // of the family before its version.
            _ => {
                let word: String = agent
                    .split_whitespace()
                    .next()
                    .unwrap_or("Unknown device")
                    .chars()
                    .take(60)
                    .collect();
                let family = word.split('/').next().unwrap_or(&word).to_string();
                Device::named(word, family)
            }
        }
    }

    fn named(name: String, family: String) -> Device {
        Device(LoginDevice { name, family })
    }

    /// As the history and the sessions show it.
    pub fn name(&self) -> &str {
        &self.0.name
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Device {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Device, Self::Rejection> {
        Ok(Device::of(parts.headers.get(USER_AGENT).and_then(|v| v.to_str().ok())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_is_named_by_its_browser_and_system() {
        let chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
        assert_eq!(Device::of(Some(chrome)).name(), "Chrome 131 on Windows 10");
        let iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
        assert!(
            Device::of(Some(iphone)).name().starts_with("Safari 17 on iPhone"),
            "{:?}",
            Device::of(Some(iphone))
        );
        assert_eq!(Device::of(Some("curl/8.5.0")).name(), "HTTP Library curl");
        assert_eq!(Device::of(None).name(), "Unknown device");
        assert_eq!(Device::of(Some("   ")).name(), "Unknown device");
        // However long, bounded.
        let long = "x".repeat(100_000);
        assert!(Device::of(Some(&long)).name().chars().count() <= 60);
    }

    #[test]
    fn a_browsers_update_is_the_same_device_and_another_system_is_not() {
        let chrome = |version: &str, system: &str| {
            Device::of(Some(&format!(
                "Mozilla/5.0 ({system}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{version} Safari/537.36"
            )))
        };
        let windows = "Windows NT 10.0; Win64; x64";
        let (old, new) = (chrome("131.0.0.0", windows), chrome("132.0.6834.83", windows));
        assert_ne!(old.name(), new.name());
        assert_eq!(old.0.family, "Chrome on Windows 10");
        assert_eq!(old.0.family, new.0.family);
        let linux = chrome("131.0.0.0", "X11; Linux x86_64");
        assert_ne!(linux.0.family, old.0.family);
        // A bot's client: its version is not part of its family either.
        let bot = |agent| Device::of(Some(agent)).0;
        assert_eq!(bot("python-requests/2.32.3").name, "python-requests/2.32.3");
        assert_eq!(bot("python-requests/2.32.3").family, bot("python-requests/2.31.0").family);
    }
}
