//! Where a bettor pays and is paid: the deposit page's payee (`payment/details`: the UPI id and
//! its `upi://pay` link for a QR code, and/or a bank account, of the nearest agent above the
//! user that set any, else the operator's), the payee's setting of them
//! (`admin/payment/details`: an agent or admin for itself, an admin also for any agent;
//! `console/account/paymentDetails` reads a downline account's), and the bettor's saved bank
//! account (`payment/bankAccount`, also saved by every withdrawal and offered again).

use axum::extract::State;
use backlay_office_store::payee::{PayeeBank, PaymentDetails};
use backlay_office_store::payments::BankAccount;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::console::readable_account;
use backlay_api::payment::{bank_account, BANK_TEXT_MAX_CHARS};
use backlay_kit::clock::{iso_utc, now_ms};
use backlay_kit::error::{ok, ok_with, ApiResult, Envelope};
use backlay_kit::input::{ApiJson, Checks, FlexI64};
use backlay_office_store::{PayeeReads, PayeeWrites};
use backlay_operator::session::{ClientIp, CurrentUser, Operator};
use backlay_operator::AppState;
use backlay_operator::{self as operator, PayeeDetails};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(payee_details))
        .routes(routes!(own_details, set_own_details))
        .routes(routes!(account_details))
        .routes(routes!(saved_bank_account, save_bank_account))
}

/// The longest UPI id accepted (NPCI allows 50 in practice; 64 leaves room).
pub const UPI_ID_MAX_CHARS: usize = 64;

/// A UPI virtual payment address: a handle of letters, digits, `.`, `-` and `_` (2–48), an `@`,
/// and the bank's handle of letters and digits (2–32), e.g. `backlay.agent@okaxis`. Kept in the
/// case it was given: handles are case-insensitive but apps show them as typed.
pub fn upi_id(checks: &mut Checks, field: &str, text: &str) -> String {
    let id = text.trim();
    let valid = id.chars().count() <= UPI_ID_MAX_CHARS
        && id.split_once('@').is_some_and(|(handle, bank)| {
            (2..=48).contains(&handle.len())
                && handle.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
                && (2..=32).contains(&bank.len())
                && bank.bytes().all(|b| b.is_ascii_alphanumeric())
        });
    if !valid {
        checks.fail(field, "Enter a UPI id such as name@okaxis: letters, digits, '.', '-' or '_', an @, then the bank's handle.");
    }
    id.to_string()
}

/// `upi://pay?pa=<id>&pn=<name>&cu=INR`, the link UPI apps open from a QR code (NPCI's
/// "UPI Linking Specification"); values are percent-encoded (`@` may stand in a query).
pub fn upi_pay_uri(upi_id: &str, payee_name: &str) -> String {
    fn encode(text: &str) -> String {
        text.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'@' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect()
    }
    format!("upi://pay?pa={}&pn={}&cu=INR", encode(upi_id), encode(payee_name))
}

#[derive(Serialize, ToSchema)]
pub struct PayeeBankItem {
    pub account_name: String,
    pub account_number: String,
    pub ifsc: String,
    pub bank_name: String,
}

#[derive(Serialize, ToSchema)]
pub struct PaymentDetailsItem {
    /// Whose details these are (the agent or the operator).
    pub payee: String,
    #[schema(required = true)]
    pub upi_id: Option<String>,
    /// The name the UPI app shows (the payee's user name when none was set).
    #[schema(required = true)]
    pub upi_name: Option<String>,
    /// `upi://pay?pa=…&pn=…&cu=INR`, to show as a QR code; null without a UPI id.
    #[schema(required = true)]
    pub upi_uri: Option<String>,
    #[schema(required = true)]
    pub bank: Option<PayeeBankItem>,
    pub updated_at: String,
}

impl From<PaymentDetails> for PaymentDetailsItem {
    fn from(details: PaymentDetails) -> PaymentDetailsItem {
        let upi_name =
            details.upi_id.as_ref().map(|_| details.upi_name.unwrap_or(details.user_name.clone()));
        let upi_uri = details
            .upi_id
            .as_deref()
            .zip(upi_name.as_deref())
            .map(|(id, name)| upi_pay_uri(id, name));
        PaymentDetailsItem {
            payee: details.user_name,
            upi_id: details.upi_id,
            upi_name,
            upi_uri,
            bank: details.bank.map(|b| PayeeBankItem {
                account_name: b.account_name,
                account_number: b.account_number,
                ifsc: b.ifsc,
                bank_name: b.bank_name,
            }),
            updated_at: iso_utc(details.updated_at_ms),
        }
    }
}

/// Where the caller pays a deposit: the nearest agent above it that set details, else the
/// operator's; null when nobody has set any (the page then says to ask the agent).
#[utoipa::path(get, path = "/payment/details", tag = "user", security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<PaymentDetailsItem>>), (status = 401)))]
async fn payee_details(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
) -> ApiResult<Option<PaymentDetailsItem>> {
    let details = state.store.payment_details_for(authed.user.id).await?;
    Ok(ok(details.map(PaymentDetailsItem::from)))
}

/// The details the calling agent or admin shows its own clients; null when it set none.
#[utoipa::path(get, path = "/admin/payment/details", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<PaymentDetailsItem>>), (status = 401), (status = 403)))]
async fn own_details(
    State(state): State<AppState>,
    Operator(authed): Operator,
) -> ApiResult<Option<PaymentDetailsItem>> {
    let details = state.store.own_payment_details(authed.user.id).await?;
    Ok(ok(details.map(PaymentDetailsItem::from)))
}

#[derive(Deserialize, ToSchema)]
pub struct AccountDetailsRequest {
    /// The caller's own account or one of its downline.
    #[schema(value_type = i64)]
    pub user_id: FlexI64,
}

/// The details a downline account (an agent) set for its clients; null when it set none.
#[utoipa::path(post, path = "/console/account/paymentDetails", tag = "console", request_body = AccountDetailsRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<PaymentDetailsItem>>), (status = 400), (status = 403),
        (status = 404, description = "Not an account of the caller's downline")))]
async fn account_details(
    State(state): State<AppState>,
    Operator(authed): Operator,
    ApiJson(body): ApiJson<AccountDetailsRequest>,
) -> ApiResult<Option<PaymentDetailsItem>> {
    let account = readable_account(&state, &authed.user, body.user_id.0).await?;
    let details = state.store.own_payment_details(account.id).await?;
    Ok(ok(details.map(PaymentDetailsItem::from)))
}

#[derive(Deserialize, ToSchema, Default)]
pub struct SetPaymentDetailsRequest {
    /// Whose details: the caller (default); an admin may name any agent.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub user_id: Option<FlexI64>,
    /// e.g. backlay.agent@okaxis; empty: no UPI.
    #[serde(default)]
    pub upi_id: String,
    /// The payee name for UPI apps (at most 64 characters); empty: the user name.
    #[serde(default)]
    pub upi_name: String,
    /// The bank account: all four, or none of them.
    #[serde(default)]
    pub account_name: String,
    /// 6 to 20 digits.
    #[serde(default)]
    pub account_number: String,
    /// 4 letters, 0, then 6 letters or digits, e.g. SBIN0001234.
    #[serde(default)]
    pub ifsc: String,
    #[serde(default)]
    pub bank_name: String,
    /// true: remove the caller's details (its clients then see the next ones up); the other
    /// fields are ignored.
    #[serde(default)]
    pub clear: bool,
}

/// Sets (replaces) the UPI id and/or bank account the clients of the caller (or, for an admin,
/// of the agent `user_id`) pay deposits to; audited.
#[utoipa::path(post, path = "/admin/payment/details", tag = "admin", request_body = SetPaymentDetailsRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<PaymentDetailsItem>>), (status = 400), (status = 401), (status = 403),
        (status = 404, description = "user_id is not an account the caller may set details for"),
        (status = 422, description = "An agent naming another account: only an admin sets another's details")))]
async fn set_own_details(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<SetPaymentDetailsRequest>,
) -> ApiResult<Option<PaymentDetailsItem>> {
    let user_id = body.user_id.map_or(operator.0.user.id, |id| id.0);
    let own = user_id == operator.0.user.id;
    let ctx = backlay_api::operator_context(&state, operator, ip);
    if body.clear {
        let (user, had) = operator::set_payment_details(&ctx, user_id, None).await?;
        let message = match (had, own) {
            (true, true) => {
                "Payment details removed: your clients now see the ones set above you.".to_string()
            }
            (true, false) => format!(
                "{}'s payment details removed: their clients now see the ones set above them.",
                user.user_name
            ),
            (false, true) => "You had no payment details set.".to_string(),
            (false, false) => format!("{} had no payment details set.", user.user_name),
        };
        return Ok(ok_with(message, None));
    }
    let details = payee_details_of(&body)?;
    let (user, _) = operator::set_payment_details(&ctx, user_id, Some(&details)).await?;
    let saved = state.store.own_payment_details(user.id).await?;
    let message = if own {
        "Payment details saved: your clients see them on their deposit page.".to_string()
    } else {
        format!(
            "Payment details of {} saved: their clients see them on their deposit page.",
            user.user_name
        )
    };
    Ok(ok_with(message, saved.map(PaymentDetailsItem::from)))
}

/// The request's details, every field checked at once (a message next to each field).
fn payee_details_of(
    body: &SetPaymentDetailsRequest,
) -> Result<PayeeDetails, backlay_kit::error::AppError> {
    let mut checks = Checks::default();
    let given = |text: &str| !text.trim().is_empty();
    let upi = given(&body.upi_id).then(|| upi_id(&mut checks, "upi_id", &body.upi_id));
    let upi_name = given(&body.upi_name).then(|| {
        backlay_kit::input::text_field(
            &mut checks,
            "upi_name",
            "UPI name",
            &body.upi_name,
            BANK_TEXT_MAX_CHARS,
        )
    });
    if upi_name.is_some() && upi.is_none() {
        checks.fail("upi_id", "Give the UPI id the name belongs to.");
    }
    let bank_fields = [&body.account_name, &body.account_number, &body.ifsc, &body.bank_name];
    let bank = if bank_fields.iter().any(|f| given(f)) {
        let account = bank_account(
            &mut checks,
            ("account_name", &body.account_name),
            &body.bank_name,
            &body.account_number,
            &body.ifsc,
        );
        Some(PayeeBank {
            account_name: account.account_holder,
            account_number: account.account_number,
            ifsc: account.ifsc,
            bank_name: account.bank_name,
        })
    } else {
        None
    };
    if upi.is_none() && bank.is_none() {
        checks.fail(
            "upi_id",
            "Give a UPI id, or the bank account (name, number, IFSC, bank), or both.",
        );
    }
    checks.finish()?;
    Ok(PayeeDetails { upi_id: upi, upi_name, bank })
}

#[derive(Serialize, ToSchema)]
pub struct BankAccountItem {
    pub account_holder: String,
    pub bank_name: String,
    pub account_number: String,
    pub ifsc: String,
}

impl From<BankAccount> for BankAccountItem {
    fn from(a: BankAccount) -> BankAccountItem {
        BankAccountItem {
            account_holder: a.account_holder,
            bank_name: a.bank_name,
            account_number: a.account_number,
            ifsc: a.ifsc,
        }
    }
}

/// The bank account the caller was last paid to (or saved), to fill the withdraw form; null
/// when none.
#[utoipa::path(get, path = "/payment/bankAccount", tag = "user", security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<BankAccountItem>>), (status = 401)))]
async fn saved_bank_account(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
) -> ApiResult<Option<BankAccountItem>> {
    let account = state.store.saved_bank_account(authed.user.id).await?;
    Ok(ok(account.map(BankAccountItem::from)))
}

#[derive(Deserialize, ToSchema)]
pub struct SaveBankAccountRequest {
    #[serde(default)]
    pub account_holder: String,
    #[serde(default)]
    pub bank_name: String,
    /// 6 to 20 digits.
    #[serde(default)]
    pub account_number: String,
    /// 4 letters, 0, then 6 letters or digits, e.g. SBIN0001234.
    #[serde(default)]
    pub ifsc: String,
}

/// Saves the caller's bank account for withdrawals (each withdrawal also saves the one it used).
#[utoipa::path(post, path = "/payment/bankAccount", tag = "user", request_body = SaveBankAccountRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<BankAccountItem>), (status = 400), (status = 401)))]
async fn save_bank_account(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<SaveBankAccountRequest>,
) -> ApiResult<BankAccountItem> {
    let mut checks = Checks::default();
    let account = bank_account(
        &mut checks,
        ("account_holder", &body.account_holder),
        &body.bank_name,
        &body.account_number,
        &body.ifsc,
    );
    checks.finish()?;
    let mut writer = state.store.begin_write().await?;
    writer.save_bank_account(authed.user.id, &account, now_ms()).await?;
    writer.commit().await?;
    Ok(ok_with("Bank details saved for your withdrawals.", BankAccountItem::from(account)))
}

#[cfg(test)]
mod tests {
    use super::{upi_id, upi_pay_uri};
    use backlay_kit::input::Checks;

    fn accepts(text: &str) -> bool {
        let mut checks = Checks::default();
        upi_id(&mut checks, "upi_id", text);
        checks.finish().is_ok()
    }

    #[test]
    fn upi_ids_are_handle_at_bank() {
        assert!(accepts("backlay.agent@okaxis"));
        assert!(accepts(" 9876543210@ybl "));
        assert!(accepts("a_b-c@upi"));
        assert!(!accepts("no-at-sign"));
        assert!(!accepts("a@okaxis"), "a one-character handle");
        assert!(!accepts("name@ok axis"));
        assert!(!accepts("name@bank.com"));
        assert!(!accepts("na me@okaxis"));
        assert!(!accepts(&format!("{}@okaxis", "x".repeat(49))));
    }

    #[test]
    fn the_pay_link_encodes_the_name() {
        assert_eq!(
            upi_pay_uri("agent@okaxis", "Backlay Agent & Co"),
            "upi://pay?pa=agent@okaxis&pn=Backlay%20Agent%20%26%20Co&cu=INR"
        );
    }
}
