//! The calls that move money (debit, credit, rollback): the player's session, the checks of
//! the call's fields, the answer to a repeated tx id, and the ledger posting.

use axum::http::StatusCode;
use backlay_casino_store::providers::{CasinoProvider, ProviderSession};
use backlay_casino_store::wallet::{NewWalletTx, ProviderRoundState, WalletKind, WalletTx};
use backlay_core::money::Money;
use backlay_store::ledger::{NewTransaction, Posting, SystemAccount, TransactionKind};
use backlay_store::{StoreError, Writer};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::error::{conflict, unauthorised};
use super::{
    CallContext, CreditRequest, DebitRequest, MoveAnswer, RollbackRequest, WalletError,
    MAX_REF_CHARS, MAX_TOKEN_CHARS, MAX_WALLET_AMOUNT_MINOR,
};
use backlay_casino_store::{ProviderReads, WalletReads, WalletWrites};
use backlay_kit::error::AppError;
use backlay_kit::input::{AmountInput, TextId};
use backlay_kit::refusal::Refusal;
use backlay_operator::session::token_hash;
use backlay_operator::AppState;

/// The launch session a token names, for this provider. Debits and balances need a live one
/// and an unlocked player; a credit or rollback is accepted after the session expired (a round
/// may end after its player left) or the player was locked (they are still owed it).
pub(super) async fn player(
    state: &AppState,
    provider: &CasinoProvider,
    token: &str,
    now: i64,
    need_live: bool,
) -> Result<ProviderSession, WalletError> {
    let unknown =
        || unauthorised("invalid_token", "The player token is not known: launch the game again.");
    let token = token.trim();
    if token.is_empty() || token.len() > MAX_TOKEN_CHARS {
        return Err(unknown());
    }
    let session = state.store.provider_session(&token_hash(token)).await?.ok_or_else(unknown)?;
    if session.provider_id != provider.id {
        return Err(unknown());
    }
    if need_live {
        ensure_live(&session, now)?;
    }
    Ok(session)
}

/// A session that may stake: not expired, its player not locked.
fn ensure_live(session: &ProviderSession, now: i64) -> Result<(), WalletError> {
    if session.expires_at_ms <= now {
        return Err(unauthorised(
            "session_expired",
            "The player's game session has expired: launch the game again.",
        ));
    }
    if session.user_is_locked {
        return Err(WalletError::refuse(
            StatusCode::FORBIDDEN,
            "player_locked",
            "The player's account is locked.",
        ));
    }
    Ok(())
}

/// A tx id, round id or code: 1 to [`MAX_REF_CHARS`] visible ASCII characters.
pub(super) fn reference(field: &str, value: &TextId) -> Result<String, WalletError> {
    let text = value.0.trim();
    if text.is_empty() {
        return Err(WalletError::field(field, format!("{field} is required.")));
    }
    if text.len() > MAX_REF_CHARS || !text.chars().all(|c| c.is_ascii_graphic()) {
        return Err(WalletError::field(
            field,
            format!("{field} must be 1 to {MAX_REF_CHARS} visible ASCII characters (no spaces)."),
        ));
    }
    Ok(text.to_string())
}

fn amount(AmountInput(money): AmountInput, zero_allowed: bool) -> Result<i64, WalletError> {
    let minor = money.minor();
    let lowest = if zero_allowed { 0 } else { 1 };
    if minor < lowest || minor > MAX_WALLET_AMOUNT_MINOR {
        let floor = if zero_allowed { "0 or more" } else { "more than 0" };
        return Err(WalletError::field(
            "amount",
            format!(
                "amount must be {floor} and at most {}.",
                Money::from_minor(MAX_WALLET_AMOUNT_MINOR)
            ),
        ));
    }
    Ok(minor)
}

/// What a call asked for, to tell a true repeat from a tx id reused for something else.
fn request_hash(parts: &[&str]) -> String {
    hex::encode(Sha256::digest(parts.join("\n").as_bytes()))
}

/// The first answer to a repeated tx id, or a refusal when the id was used for another call.
fn repeat(
    first: &WalletTx,
    kind: WalletKind,
    hash: &str,
    tx_id: &str,
) -> Result<Value, WalletError> {
    if first.kind != kind || first.request_hash != hash {
        return Err(WalletError::refuse(
            StatusCode::CONFLICT,
            "tx_id_reused",
            format!(
                "Transaction id {tx_id} was already used for a different {}: send a new id.",
                first.kind.as_str()
            ),
        ));
    }
    Ok(serde_json::from_str(&first.answer_json).map_err(anyhow::Error::from)?)
}

/// After `claim` lost the race for its tx id: the winner's answer (`None` when nothing holds
/// the tx id, as when a rollback lost the race for its debit instead).
async fn repeat_after_race(
    state: &AppState,
    provider: &CasinoProvider,
    claim: &NewWalletTx<'_>,
) -> Result<Option<Value>, WalletError> {
    match state.store.wallet_tx_by_ref(provider.id, claim.provider_tx_id).await? {
        Some(first) => {
            repeat(&first, claim.kind, claim.request_hash, claim.provider_tx_id).map(Some)
        }
        None => Ok(None),
    }
}

/// After `claim` lost the race for its tx id, which only another copy of the call can have
/// taken: that copy's answer.
async fn first_answer_after_race(
    state: &AppState,
    provider: &CasinoProvider,
    claim: &NewWalletTx<'_>,
) -> Result<Value, WalletError> {
    repeat_after_race(state, provider, claim).await?.ok_or_else(|| {
        WalletError::Internal(anyhow::anyhow!(
            "wallet tx {} conflicted but cannot be read",
            claim.provider_tx_id
        ))
    })
}

fn game_label(session: &ProviderSession, game_code: &str) -> String {
    if game_code == session.game_code {
        session.game_name.clone()
    } else {
        game_code.to_string()
    }
}

/// Posts `player_delta_minor` to the player against `provider_games`; answers the ledger
/// transaction and what the player may stake afterwards.
async fn post_move(
    w: &mut Writer,
    session: &ProviderSession,
    provider: &CasinoProvider,
    player_delta_minor: i64,
    description: String,
    remark: String,
    now: i64,
) -> Result<(i64, i64), WalletError> {
    let player_account = w.account_of_user(session.user_id).await?;
    let provider_account = w.system_account(SystemAccount::ProviderGames).await?;
    let posted = w
        .post(
            NewTransaction {
                // Every wallet posting: the account statement's casino filter lists it.
                kind: TransactionKind::LiveCasino,
                actor_user_id: Some(session.user_id),
                remark,
                market_id: None,
                postings: vec![
                    Posting {
                        account_id: player_account,
                        amount_minor: player_delta_minor,
                        description: description.clone(),
                    },
                    Posting {
                        account_id: provider_account,
                        amount_minor: -player_delta_minor,
                        description: format!("{description} ({})", provider.code),
                    },
                ],
            },
            now,
        )
        .await
        .map_err(|err| match err {
            StoreError::InsufficientFunds { available_minor } => WalletError::refuse(
                StatusCode::UNPROCESSABLE_ENTITY,
                "insufficient_funds",
                format!("Insufficient funds: {} available.", Money::from_minor(available_minor)),
            ),
            other => other.into(),
        })?;
    let funds = w.funds_of_user(session.user_id).await?;
    debug_assert_eq!(posted.balance_after(player_account), Some(funds.balance_minor));
    Ok((posted.transaction_id, funds.available_minor()))
}

pub(super) async fn debit(
    state: &AppState,
    provider: &CasinoProvider,
    request: DebitRequest,
    now: i64,
    context: &mut CallContext,
) -> Result<Value, WalletError> {
    let tx_id = reference("tx_id", &request.tx_id)?;
    let round_ref = reference("round", &request.round)?;
    let amount_minor = amount(request.amount, false)?;
    let game_override = request.game.as_ref().map(|g| reference("game", g)).transpose()?;
    // A repeat is answered even after the session ended; a new debit needs a live one.
    let session = player(state, provider, &request.token, now, false).await?;
    context.user_id = Some(session.user_id);
    let game_code = game_override.unwrap_or_else(|| session.game_code.clone());
    let hash = request_hash(&[
        "debit",
        &session.user_id.to_string(),
        &round_ref,
        &amount_minor.to_string(),
    ]);

    let mut w = state.store.begin_write().await?;
    if let Some(first) = w.wallet_tx_by_ref(provider.id, &tx_id).await? {
        return repeat(&first, WalletKind::Debit, &hash, &tx_id);
    }
    ensure_live(&session, now)?;
    // The parent's terms hold in a provider's game as on the exchange: checked at every debit,
    // not only at the launch, so a bet-lock set while the game is open stops the next stake.
    backlay_kit::actor::check_stake_allowed(
        session.user_is_bet_locked,
        session.user_max_stake_minor,
        amount_minor,
    )
    .map_err(|refusal| {
        WalletError::refuse(
            StatusCode::UNPROCESSABLE_ENTITY,
            "bet_not_allowed",
            refusal.to_string(),
        )
    })?;
    // The player's own limits (issue 33): a loss limit reached is the provider's
    // insufficient-funds answer, with the reason in words.
    backlay_operator::safer::check_play_stake(&mut w, session.user_id, amount_minor)
        .await
        .map_err(|err| match err {
            AppError::Refused(refusal) => {
                let code = match refusal {
                    Refusal::LossLimit { .. } => "insufficient_funds",
                    _ => "bet_not_allowed",
                };
                WalletError::refuse(StatusCode::UNPROCESSABLE_ENTITY, code, refusal.to_string())
            }
            other => other.into(),
        })?;
    let round =
        w.open_provider_round(provider.id, &round_ref, session.user_id, &game_code, now).await?;
    if round.user_id != session.user_id {
        return Err(conflict(
            "round_of_another_player",
            format!("Round {round_ref} belongs to another player."),
        ));
    }
    if round.state != ProviderRoundState::Open {
        return Err(conflict(
            "round_closed",
            format!(
                "Round {round_ref} is {}: it takes no more debits.",
                round_state_words(round.state)
            ),
        ));
    }
    let claim = NewWalletTx {
        provider_id: provider.id,
        provider_tx_id: &tx_id,
        kind: WalletKind::Debit,
        user_id: session.user_id,
        round_pk: round.id,
        amount_minor,
        reverses_id: None,
        request_hash: &hash,
    };
    let Some(claimed) = w.claim_wallet_tx(&claim, now).await? else {
        drop(w);
        return first_answer_after_race(state, provider, &claim).await;
    };
    let description =
        format!("Live casino: {} round {round_ref}, stake", game_label(&session, &round.game_code));
    let (ledger_id, available_minor) = post_move(
        &mut w,
        &session,
        provider,
        -amount_minor,
        description,
        format!("{} {tx_id}", provider.code),
        now,
    )
    .await?;
    if !w.add_round_debit(round.id, amount_minor).await? {
        return Err(conflict(
            "round_closed",
            format!("Round {round_ref} was settled meanwhile: it takes no more debits."),
        ));
    }
    let answer = MoveAnswer {
        tx_id,
        round: round_ref,
        debit_tx_id: None,
        amount: Money::from_minor(amount_minor),
        balance: Money::from_minor(available_minor),
        transaction_id: claimed,
    };
    finish(w, claimed, &answer, Some(ledger_id)).await
}

pub(super) async fn credit(
    state: &AppState,
    provider: &CasinoProvider,
    request: CreditRequest,
    now: i64,
    context: &mut CallContext,
) -> Result<Value, WalletError> {
    let tx_id = reference("tx_id", &request.tx_id)?;
    let round_ref = reference("round", &request.round)?;
    let amount_minor = amount(request.amount, true)?;
    let session = player(state, provider, &request.token, now, false).await?;
    context.user_id = Some(session.user_id);
    let hash = request_hash(&[
        "credit",
        &session.user_id.to_string(),
        &round_ref,
        &amount_minor.to_string(),
    ]);

    let mut w = state.store.begin_write().await?;
    if let Some(first) = w.wallet_tx_by_ref(provider.id, &tx_id).await? {
        return repeat(&first, WalletKind::Credit, &hash, &tx_id);
    }
    let unknown_debit = || {
        WalletError::refuse(
            StatusCode::NOT_FOUND,
            "unknown_debit",
            format!("There is no debit in round {round_ref} to credit."),
        )
    };
    let round = w.provider_round(provider.id, &round_ref).await?.ok_or_else(unknown_debit)?;
    if round.user_id != session.user_id {
        return Err(unknown_debit());
    }
    match round.state {
        ProviderRoundState::Open => {}
        ProviderRoundState::Settled => {
            return Err(conflict(
                "round_settled",
                format!("Round {round_ref} is already settled: it was credited once."),
            ))
        }
        ProviderRoundState::RolledBack => {
            return Err(conflict(
                "round_rolled_back",
                format!(
                    "Every debit in round {round_ref} was rolled back: there is nothing to credit."
                ),
            ))
        }
    }
    // A round pays at most a bound multiple of its stakes: a provider (or whoever holds its
    // secret) cannot credit chips out of nothing.
    let most_minor = round.debited_minor.saturating_mul(state.config.provider_max_win_multiple);
    if amount_minor > most_minor {
        tracing::error!(
            provider = %provider.code,
            round = %round_ref,
            user_id = session.user_id,
            credit = %Money::from_minor(amount_minor),
            stakes = %Money::from_minor(round.debited_minor),
            "a game provider credited a round more than its bound multiple of the stakes: refused (is its secret leaked?)"
        );
        return Err(conflict(
            "credit_over_limit",
            format!(
                "Round {round_ref} staked {} and may be credited at most {} ({} times its stakes).",
                Money::from_minor(round.debited_minor),
                Money::from_minor(most_minor),
                state.config.provider_max_win_multiple
            ),
        ));
    }
    let claim = NewWalletTx {
        provider_id: provider.id,
        provider_tx_id: &tx_id,
        kind: WalletKind::Credit,
        user_id: session.user_id,
        round_pk: round.id,
        amount_minor,
        reverses_id: None,
        request_hash: &hash,
    };
    let Some(claimed) = w.claim_wallet_tx(&claim, now).await? else {
        drop(w);
        return first_answer_after_race(state, provider, &claim).await;
    };
    // A lost round is settled with a credit of 0, which moves no money.
    let (ledger_id, available_minor) = if amount_minor > 0 {
        let description = format!(
            "Live casino: {} round {round_ref}, win",
            game_label(&session, &round.game_code)
        );
        let (id, available) = post_move(
            &mut w,
            &session,
            provider,
            amount_minor,
            description,
            format!("{} {tx_id}", provider.code),
            now,
        )
        .await?;
        (Some(id), available)
    } else {
        (None, w.funds_of_user(session.user_id).await?.available_minor())
    };
    if !w.settle_provider_round(round.id, amount_minor, now).await? {
        return Err(conflict(
            "round_settled",
            format!("Round {round_ref} was settled or rolled back meanwhile."),
        ));
    }
    let answer = MoveAnswer {
        tx_id,
        round: round_ref,
        debit_tx_id: None,
        amount: Money::from_minor(amount_minor),
        balance: Money::from_minor(available_minor),
        transaction_id: claimed,
    };
    finish(w, claimed, &answer, ledger_id).await
}

pub(super) async fn rollback(
    state: &AppState,
    provider: &CasinoProvider,
    request: RollbackRequest,
    now: i64,
    context: &mut CallContext,
) -> Result<Value, WalletError> {
    let tx_id = reference("tx_id", &request.tx_id)?;
    let debit_tx_id = reference("debit_tx_id", &request.debit_tx_id)?;
    let session = player(state, provider, &request.token, now, false).await?;
    context.user_id = Some(session.user_id);
    let hash = request_hash(&["rollback", &session.user_id.to_string(), &debit_tx_id]);

    let mut w = state.store.begin_write().await?;
    if let Some(first) = w.wallet_tx_by_ref(provider.id, &tx_id).await? {
        return repeat(&first, WalletKind::Rollback, &hash, &tx_id);
    }
    let unknown_debit = || {
        WalletError::refuse(
            StatusCode::NOT_FOUND,
            "unknown_debit",
            format!("There is no debit {debit_tx_id} to roll back."),
        )
    };
    let debit = w
        .wallet_tx_by_ref(provider.id, &debit_tx_id)
        .await?
        .filter(|tx| tx.kind == WalletKind::Debit && tx.user_id == session.user_id)
        .ok_or_else(unknown_debit)?;
    let already = |by: &WalletTx| {
        conflict(
            "already_rolled_back",
            format!(
                "Debit {debit_tx_id} was already rolled back by transaction {}.",
                by.provider_tx_id
            ),
        )
    };
    if let Some(by) = w.rollback_of(debit.id).await? {
        return Err(already(&by));
    }
    let round = w.provider_round_by_id(debit.round_pk).await?;
    if round.state == ProviderRoundState::Settled {
        return Err(conflict(
            "round_settled",
            format!(
                "Round {} is settled: its debits can no longer be rolled back.",
                round.round_ref
            ),
        ));
    }
    let claim = NewWalletTx {
        provider_id: provider.id,
        provider_tx_id: &tx_id,
        kind: WalletKind::Rollback,
        user_id: session.user_id,
        round_pk: round.id,
        amount_minor: debit.amount_minor,
        reverses_id: Some(debit.id),
        request_hash: &hash,
    };
    let Some(claimed) = w.claim_wallet_tx(&claim, now).await? else {
        // Either this tx id was taken (a repeat) or another rollback took the debit.
        drop(w);
        if let Some(answer) = repeat_after_race(state, provider, &claim).await? {
            return Ok(answer);
        }
        return match state.store.rollback_of(debit.id).await? {
            Some(by) => Err(already(&by)),
            None => Err(WalletError::Internal(anyhow::anyhow!(
                "rollback {tx_id} conflicted but nothing took it"
            ))),
        };
    };
    let description = format!(
        "Live casino: {} round {}, stake returned (rollback)",
        game_label(&session, &round.game_code),
        round.round_ref
    );
    let (ledger_id, available_minor) = post_move(
        &mut w,
        &session,
        provider,
        debit.amount_minor,
        description,
        format!("{} {tx_id}", provider.code),
        now,
    )
    .await?;
    if !w.remove_round_debit(round.id, debit.amount_minor).await? {
        return Err(conflict(
            "round_settled",
            format!(
                "Round {} was settled meanwhile: its debits can no longer be rolled back.",
                round.round_ref
            ),
        ));
    }
    let answer = MoveAnswer {
        tx_id,
        round: round.round_ref,
        debit_tx_id: Some(debit_tx_id),
        amount: Money::from_minor(debit.amount_minor),
        balance: Money::from_minor(available_minor),
        transaction_id: claimed,
    };
    finish(w, claimed, &answer, Some(ledger_id)).await
}

fn round_state_words(state: ProviderRoundState) -> &'static str {
    match state {
        ProviderRoundState::Open => "open",
        ProviderRoundState::Settled => "settled",
        ProviderRoundState::RolledBack => "rolled back",
    }
}

/// Stores the answer with the claimed row and commits: from now on a repeat gets this answer.
async fn finish(
    mut w: Writer,
    claimed: i64,
    answer: &MoveAnswer,
    ledger_id: Option<i64>,
) -> Result<Value, WalletError> {
    let value = serde_json::to_value(answer).map_err(anyhow::Error::from)?;
    w.finish_wallet_tx(claimed, &value.to_string(), ledger_id).await?;
    w.commit().await?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_short_visible_ascii() {
        assert_eq!(reference("tx_id", &TextId(" d-1 ".into())).unwrap(), "d-1");
        assert!(reference("tx_id", &TextId("".into())).is_err());
        assert!(reference("tx_id", &TextId("a b".into())).is_err());
        assert!(reference("tx_id", &TextId("x".repeat(129))).is_err());
        assert!(reference("tx_id", &TextId("é".into())).is_err());
    }

    #[test]
    fn amounts_are_bounded() {
        assert_eq!(amount(AmountInput(Money::from_minor(1)), false).unwrap(), 1);
        assert!(amount(AmountInput(Money::from_minor(0)), false).is_err());
        assert_eq!(amount(AmountInput(Money::from_minor(0)), true).unwrap(), 0);
        assert!(amount(AmountInput(Money::from_minor(-5)), true).is_err());
        assert!(amount(AmountInput(Money::from_minor(MAX_WALLET_AMOUNT_MINOR + 1)), true).is_err());
    }
}
