//! Writing refusals to the audit log, with an allowance per address for calls that fail the
//! signature check.

use backlay_office_store::audit::NewAuditEntry;

use super::{CallContext, SignedBy, WalletCall, WalletError};
use backlay_kit::clock::now_ms;
use backlay_kit::throttle::AttemptKeys;
use backlay_office_store::AuditLog;
use backlay_operator::AppState;

/// Whether to write a refusal to the audit log. A call that failed its signature check could
/// come from anyone, so each address gets the log-in throttle's address allowance of those
/// (30 in 15 minutes by default) in the log; past it they are still refused, only not written,
/// so junk cannot flood the audit log. Signed calls' refusals are always written, and nothing
/// here ever refuses or delays a correctly signed call. When the counts cannot be read or
/// written the refusal is written (or tried: the audit log is in the same database).
pub(super) async fn should_audit(
    state: &AppState,
    refusal: &WalletError,
    client_ip: Option<&str>,
    now: i64,
) -> bool {
    let unsigned = matches!(
        refusal.code(),
        "missing_signature" | "unknown_provider" | "bad_signature" | "bad_timestamp"
    );
    let Some(ip) = client_ip.filter(|_| unsigned) else {
        return true;
    };
    let keys = AttemptKeys::address(&format!("wallet {ip}"));
    let checked = state.throttle.check(&keys, now).await;
    if matches!(checked, Ok(Err(_))) {
        tracing::debug!(
            ip,
            code = refusal.code(),
            "unsigned wallet call refused and not audited: the address is over its allowance"
        );
        return false;
    }
    let recorded = match checked {
        Ok(_) => state.throttle.record_failure(&keys, now).await,
        Err(err) => Err(err),
    };
    if let Err(err) = recorded {
        tracing::error!("the wallet's audit allowance could not be counted: {err:#}");
    }
    true
}

/// Refuses a call whose body could not even be read (too large), with its audit entry.
pub async fn refuse_unread(
    state: &AppState,
    call: WalletCall,
    signed: &SignedBy,
    refusal: WalletError,
    client_ip: Option<&str>,
) -> WalletError {
    let context = CallContext {
        provider: signed.provider.as_deref().map(|p| p.chars().take(64).collect()),
        ..CallContext::default()
    };
    audit_refusal(state, call, &context, &refusal, client_ip, now_ms()).await;
    refusal
}

/// Writes a refusal to the audit log (our own failures are logged by the middleware instead).
pub(super) async fn audit_refusal(
    state: &AppState,
    call: WalletCall,
    context: &CallContext,
    refusal: &WalletError,
    client_ip: Option<&str>,
    now: i64,
) {
    if matches!(refusal, WalletError::Internal(_)) {
        return;
    }
    let entry = NewAuditEntry {
        actor_user_id: context.user_id,
        action: "wallet.refused",
        target: format!("wallet/{}", call.name()),
        detail: serde_json::json!({
            "code": refusal.code(),
            "message": refusal.message(),
            "status": refusal.status().as_u16(),
            "provider": context.provider,
            "tx_id": context.tx_id,
        }),
        client_ip,
    };
    if let Err(err) = state.store.audit(entry, now).await {
        tracing::error!("could not write a wallet refusal to the audit log: {err:#}");
    }
}
