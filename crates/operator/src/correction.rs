//! Correcting a result: a settled or void market taken back to suspended, every posting of its
//! settlement reversed by a new transaction (`backlay_store::correction` has the ledger's side
//! and a worked example), then its task started again from the database, where a new result or
//! a void is declared as usual.
//!
//! A settled market has no task and, in a cluster, no owner (its task ended with the result and
//! its owner row was forgotten), so nobody else writes to it: the correction is one conditional
//! transaction of its own, and the market is then taken like a new one ([`Engine::spawn`]: here,
//! or by the node that claims it first). The preview runs the very same transaction and rolls
//! it back, so it says exactly what the correction would move.

use std::collections::BTreeMap;

use backlay_core::exchange::MarketStatus;
use backlay_core::money::Money;
use backlay_store::correction::{SettledEntry, Unsettled};
use backlay_store::StoreError;

use super::{OperatorContext, REMARK_MAX_CHARS};
use backlay_engine::Engine;
use backlay_kit::clock::now_ms;
use backlay_kit::error::AppError;

/// Whose account a line of a correction moves.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum CorrectedAccount {
    /// A client's balance.
    Client,
    /// An agent's partnership share (house result and commission shares together).
    Share,
    /// The operator's own house result.
    House,
    /// The operator's commission.
    Commission,
}

/// What a correction moves on one account, all the settlement's lines for it together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorrectionLine {
    pub account: CorrectedAccount,
    /// The client, or the agent whose share it is (none for the house and commission).
    pub user_id: Option<i64>,
    pub user_name: Option<String>,
    /// What the correction posts (the settlement's movement, negated).
    pub amount_minor: i64,
    pub balance_before_minor: i64,
    pub balance_after_minor: i64,
    /// A client's exposure in the market reserved again until the new result.
    pub exposure_minor: i64,
}

/// What a correction did (or, previewed, would do).
#[derive(Clone, Debug)]
pub struct Correction {
    pub market_id: i64,
    /// "Match / Market".
    pub label: String,
    /// The market's status before: closed (resulted) or void.
    pub was: MarketStatus,
    /// Clients first, then shares, then the house's accounts; by user id within each.
    pub lines: Vec<CorrectionLine>,
    /// Bets taken back from settled (or void) to matched.
    pub bets: u64,
    /// Whether it was made (false: a preview).
    pub applied: bool,
}

impl Correction {
    /// Clients the correction leaves below zero: their agent collects what they owe.
    pub fn clients_negative(&self) -> usize {
        self.lines
            .iter()
            .filter(|l| {
                l.account == CorrectedAccount::Client
                    && l.balance_after_minor - l.exposure_minor < 0
            })
            .count()
    }
}

fn reason_field(reason: &str) -> Result<String, AppError> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(AppError::field(
            "reason",
            "Say why the result is being corrected (reason): it is kept in the audit log.",
        ));
    }
    if reason.chars().count() > REMARK_MAX_CHARS {
        return Err(AppError::field(
            "reason",
            format!("The reason must be at most {REMARK_MAX_CHARS} characters."),
        ));
    }
    Ok(reason.to_string())
}

/// The per-account lines of a correction: the reversed entries summed per account, the
/// clients' exposure beside them.
fn lines_of(unsettled: &Unsettled) -> Vec<CorrectionLine> {
    let mut lines: BTreeMap<(CorrectedAccount, i64), CorrectionLine> = BTreeMap::new();
    let account_of = |entry: &SettledEntry| match (entry.user_id, entry.share_of_user_id) {
        (Some(user), _) => (CorrectedAccount::Client, Some(user)),
        (None, Some(agent)) => (CorrectedAccount::Share, Some(agent)),
        (None, None) if entry.account_code == "commission" => (CorrectedAccount::Commission, None),
        (None, None) => (CorrectedAccount::House, None),
    };
    for entry in &unsettled.reversed {
        let (account, user_id) = account_of(entry);
        let line = lines.entry((account, entry.account_id)).or_insert_with(|| CorrectionLine {
            account,
            user_id,
            user_name: entry.user_name.clone(),
            amount_minor: 0,
            balance_before_minor: entry.balance_minor,
            balance_after_minor: entry.balance_minor,
            exposure_minor: 0,
        });
        line.amount_minor -= entry.amount_minor;
        line.balance_after_minor -= entry.amount_minor;
    }
    let mut lines: Vec<CorrectionLine> = lines.into_values().collect();
    // A client whose bets come back with exposure but whose settlement moved no money (a void)
    // is listed too: its available balance changes.
    for (user_id, exposure) in &unsettled.exposures {
        match lines
            .iter_mut()
            .find(|l| l.account == CorrectedAccount::Client && l.user_id == Some(*user_id))
        {
            Some(line) => line.exposure_minor = *exposure,
            None => lines.push(CorrectionLine {
                account: CorrectedAccount::Client,
                user_id: Some(*user_id),
                user_name: None,
                amount_minor: 0,
                balance_before_minor: 0,
                balance_after_minor: 0,
                exposure_minor: *exposure,
            }),
        }
    }
    lines.sort_by_key(|l| (l.account, l.user_id));
    lines
}

/// Takes a settled or void market back to suspended (`apply`), or says what that would move
/// (`!apply`: the same transaction, rolled back). Admin only; `reason` is required to apply
/// and is kept in the audit log.
pub async fn unsettle_market(
    ctx: &OperatorContext<'_>,
    engine: &Engine,
    market_id: i64,
    reason: &str,
    apply: bool,
) -> Result<Correction, AppError> {
    ctx.require_admin("correct a result")?;
    let reason = if apply { reason_field(reason)? } else { reason.trim().to_string() };
    let no_market = || AppError::NotFound(format!("There is no market with id {market_id}."));
    let market = match ctx.store.market(market_id).await {
        Ok(market) => market,
        Err(StoreError::NotFound) => return Err(no_market()),
        Err(other) => return Err(other.into()),
    };
    let the_match = ctx.store.match_by_id(market.setup.match_id).await?;
    let label = format!("{} / {}", the_match.name, market.setup.name);
    let mut writer = ctx.store.begin_write().await?;
    let Some(unsettled) =
        writer.unsettle_market(market_id, ctx.actor_user_id(), &label, now_ms()).await?
    else {
        drop(writer);
        // Read again: a correction that raced this one has just left it suspended.
        let status = ctx.store.market(market_id).await?.status;
        return Err(AppError::Conflict(format!(
            "{label} has no result to correct: it is {status} (only a resulted or void market \
             can be taken back)."
        )));
    };
    let mut lines = lines_of(&unsettled);
    // A client whose settlement moved nothing (a void) has no entry to read its name and
    // balance from: read them here, in the same transaction.
    for line in lines.iter_mut().filter(|l| l.user_name.is_none()) {
        let Some(user_id) = line.user_id.filter(|_| line.account == CorrectedAccount::Client)
        else {
            continue;
        };
        let funds = writer.funds_of_user(user_id).await?;
        line.user_name = Some(writer.user_by_id(user_id).await?.user_name);
        line.balance_before_minor = funds.balance_minor;
        line.balance_after_minor = funds.balance_minor;
    }
    let correction = Correction {
        market_id,
        label: label.clone(),
        was: unsettled.was,
        lines,
        bets: unsettled.bets,
        applied: apply,
    };
    if !apply {
        // Dropped: rolled back, nothing written.
        drop(writer);
        return Ok(correction);
    }
    let money = |minor: i64| Money::from_minor(minor);
    let detail = serde_json::json!({
        "reason": reason,
        "market": label,
        "before": unsettled.was,
        "after": MarketStatus::Suspended,
        "transaction_id": unsettled.posted.as_ref().map(|p| p.transaction_id),
        "bets": unsettled.bets,
        "lines": correction.lines.iter().map(|l| serde_json::json!({
            "account": l.account,
            "user_id": l.user_id,
            "user_name": l.user_name,
            "amount": money(l.amount_minor),
            "balance_before": money(l.balance_before_minor),
            "balance_after": money(l.balance_after_minor),
            "exposure": money(l.exposure_minor),
        })).collect::<Vec<_>>(),
    });
    ctx.audit(&mut writer, "market.unsettle", format!("market:{market_id}"), detail).await?;
    writer.commit().await?;
    // The market is live again: its task is loaded from what was just committed.
    engine.spawn(market_id).await?;
    Ok(correction)
}
