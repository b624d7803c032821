//! The bettor's notices (issue 32): what happened to their bets after they placed them, in words.
//! `GET user/notices` pages them newest first with the bell's unread count, and
//! `POST user/notices/read` marks them seen up to one; the live streams send each new one as a
//! `notice` event as it is made (`stream.rs`). The store keeps them (`backlay_store::notices`);
//! the words are made here, from the bet, runner, market and match as they are when read. A
//! log-in from a new device is a notice too (issue 33), of no market.
//!
//! Only the caller's own notices are ever read: every query is by the session's user.

use std::collections::HashMap;

use axum::extract::{Query, State};
use backlay_core::exchange::{BetSide, MarketType};
use backlay_core::money::Money;
use backlay_store::notices::{
    Notice, NoticeAbout, NoticeBet, NoticeKind, NoticeLogin, NoticeMarket, NOTICES_PAGE_MAX,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::clock::iso_utc;
use backlay_kit::error::{ok, ApiResult, AppError, Envelope};
use backlay_kit::input::{ApiJson, FlexI64};
use backlay_operator::session::CurrentUser;
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(notices)).routes(routes!(mark_read))
}

/// A notice as the app shows it (the live streams' `notice` event too).
#[derive(Serialize, ToSchema, Debug, Clone, PartialEq)]
pub struct NoticeItem {
    pub id: i64,
    #[schema(value_type = NoticeKind)]
    pub kind: NoticeKind,
    /// The bet told of; null for a market's settlement or void (told once per bettor), and for
    /// a new device.
    #[schema(required = true)]
    pub bet_id: Option<i64>,
    /// The market told of; null for a new device (and its match's too, below).
    #[schema(required = true)]
    pub market_id: Option<i64>,
    #[schema(required = true)]
    pub match_id: Option<i64>,
    /// What happened, in a sentence (English; the facts below let a client word it in its own
    /// language).
    pub text: String,
    /// When it happened (ISO-8601 UTC).
    pub at: String,
    #[schema(required = true)]
    pub match_name: Option<String>,
    #[schema(required = true)]
    pub market_name: Option<String>,
    /// Matched, lapsed, cancelled or void: the part of the bet it tells of; settled: the P&L
    /// (for the whole market when no bet is told of); 0 for a new device.
    #[schema(value_type = f64)]
    pub amount: Money,
    /// A market's settlement: the commission taken.
    #[schema(value_type = f64)]
    pub commission: Money,
    /// The bet told of, as the bettor names it; null for a market's settlement or void.
    #[schema(required = true)]
    pub bet: Option<NoticeBetItem>,
    /// A new device: the log-in told of; null for every other kind.
    #[schema(required = true)]
    pub login: Option<NoticeLoginItem>,
}

/// The log-in a new-device notice tells of.
#[derive(Serialize, ToSchema, Debug, Clone, PartialEq)]
pub struct NoticeLoginItem {
    /// "Chrome 131 on Windows 10".
    pub device: String,
    /// The address it came from, when known.
    #[schema(required = true)]
    pub ip: Option<String>,
}

/// A notice's bet as the bettor names it: "back bet on India at 2.50".
#[derive(Serialize, ToSchema, Debug, Clone, PartialEq)]
pub struct NoticeBetItem {
    #[schema(value_type = BetSide)]
    pub side: BetSide,
    /// As the page names it: odds on an exchange market ("2.50"), the rate on a bookmaker or
    /// fancy ("45").
    pub price: String,
    /// A fancy bet's run line.
    #[schema(required = true)]
    pub line: Option<i64>,
    #[schema(value_type = f64)]
    pub stake: Money,
    /// The runner's name; null for a fancy bet.
    #[schema(required = true)]
    pub selection_name: Option<String>,
}

impl NoticeItem {
    pub fn of(notice: &Notice) -> NoticeItem {
        let (market, login) = match &notice.about {
            NoticeAbout::Market(market) => (Some(market), None),
            NoticeAbout::Login(login) => (None, Some(login)),
        };
        NoticeItem {
            id: notice.id,
            kind: notice.kind,
            bet_id: notice.bet.as_ref().map(|bet| bet.bet_id),
            market_id: market.map(|market| market.market_id),
            match_id: market.map(|market| market.match_id),
            text: notice_text(notice),
            at: iso_utc(notice.created_at_ms),
            match_name: market.map(|market| market.match_name.clone()),
            market_name: market.map(|market| market.market_name.clone()),
            amount: Money::from_minor(notice.amount_minor),
            commission: Money::from_minor(notice.commission_minor),
            bet: notice.bet.as_ref().zip(market).map(|(bet, market)| NoticeBetItem {
                side: bet.side,
                price: price_text(bet, market.market_type),
                line: bet.line,
                stake: Money::from_minor(bet.stake_minor),
                selection_name: bet.selection_name.clone(),
            }),
            login: login.map(|login| NoticeLoginItem {
                device: login.device.clone(),
                ip: login.client_ip.clone(),
            }),
        }
    }
}

fn rupees(minor: i64) -> String {
    Money::from_minor(minor).rupees().to_string()
}

/// A bet's price as the page names it: odds ("2.50") on an exchange market; on a bookmaker or
/// fancy the rate as it is stored ("45").
fn price_text(bet: &NoticeBet, market_type: MarketType) -> String {
    if market_type.is_house_banked() {
        bet.price.to_string()
    } else {
        format!("{}.{:02}", bet.price / 100, bet.price % 100)
    }
}

/// "back bet on India at 2.50", "Yes bet at 45": the bet as a bettor names it.
fn bet_words(bet: &NoticeBet, market_type: MarketType) -> String {
    let side = match bet.side {
        BetSide::Back => "back",
        BetSide::Lay => "lay",
        BetSide::Yes => "Yes",
        BetSide::No => "No",
    };
    let price = price_text(bet, market_type);
    match (&bet.selection_name, bet.line) {
        (Some(selection), _) if market_type != MarketType::Fancy => {
            format!("{side} bet on {selection} at {price}")
        }
        (_, Some(line)) => format!("{side} bet at {line}"),
        _ => format!("{side} bet at {price}"),
    }
}

/// The sentence a notice says.
pub fn notice_text(notice: &Notice) -> String {
    match &notice.about {
        NoticeAbout::Market(market) => market_notice_text(notice, market),
        NoticeAbout::Login(login) => login_notice_text(login),
    }
}

/// "New log-in from Chrome 131 on Windows 10 at 203.0.113.7."
fn login_notice_text(login: &NoticeLogin) -> String {
    match &login.client_ip {
        Some(ip) => format!("New log-in from {} at {ip}.", login.device),
        None => format!("New log-in from {}.", login.device),
    }
}

/// The sentence of a notice of a market, or of a bet in it.
fn market_notice_text(notice: &Notice, market: &NoticeMarket) -> String {
    let place = format!("{} · {}", market.match_name, market.market_name);
    let amount = rupees(notice.amount_minor);
    let Some(bet) = &notice.bet else {
        // A market's settlement or void, told once to each of its bettors.
        return match notice.kind {
            NoticeKind::Voided => {
                format!("{place} is void: every bet is off and its stake returned.")
            }
            _ => {
                let net = notice.amount_minor - notice.commission_minor;
                let result = match notice.amount_minor {
                    0 => "you broke even".to_string(),
                    pnl if pnl > 0 => format!("you won {}", rupees(pnl)),
                    pnl => format!("you lost {}", rupees(-pnl)),
                };
                if notice.commission_minor > 0 {
                    format!(
                        "{place} settled: {result}, commission {}, net {}.",
                        rupees(notice.commission_minor),
                        rupees(net)
                    )
                } else {
                    format!("{place} settled: {result}.")
                }
            }
        };
    };
    let words = bet_words(bet, market.market_type);
    let stake = rupees(bet.stake_minor);
    match notice.kind {
        NoticeKind::Matched => {
            format!("{amount} matched: your {stake} {words} is fully matched ({place}).")
        }
        NoticeKind::PartiallyMatched => {
            format!("{amount} of your {stake} {words} matched; the rest waits ({place}).")
        }
        NoticeKind::Lapsed => {
            format!("{amount} unmatched of your {stake} {words} lapsed ({place}).")
        }
        NoticeKind::Cancelled => format!(
            "{amount} unmatched of your {stake} {words} was cancelled by the exchange ({place})."
        ),
        NoticeKind::Voided => {
            format!("Your {words} is void: the {amount} matched is returned ({place}).")
        }
        NoticeKind::Settled => format!("Your {words} is settled ({place})."),
        // Never of a bet (a new device names no market: 0031's checks); said plainly all the same.
        NoticeKind::NewDevice => format!("Your {words} ({place})."),
    }
}

#[derive(Serialize, ToSchema)]
pub struct NoticesPage {
    pub rows: Vec<NoticeItem>,
    pub total: i64,
    pub page: i64,
    pub limit: i64,
    /// Notices after the newest one the bettor has seen: the bell's count.
    pub unread: i64,
    /// The newest notice seen (0: none).
    pub last_read_id: i64,
}

const DEFAULT_NOTICES_LIMIT: i64 = 20;

/// A whole number from the query, within `range`, or a field error that says so.
pub(crate) fn query_number(
    query: &HashMap<String, String>,
    name: &str,
    default: i64,
    range: std::ops::RangeInclusive<i64>,
) -> Result<i64, AppError> {
    let Some(text) = query.get(name) else { return Ok(default) };
    match text.trim().parse::<i64>() {
        Ok(number) if range.contains(&number) => Ok(number),
        _ => Err(AppError::field(
            name,
            format!("{name} must be a whole number from {} to {}.", range.start(), range.end()),
        )),
    }
}

/// The caller's notices, newest first.
#[utoipa::path(get, path = "/user/notices", tag = "user", security(("bearer" = [])),
    params(("page" = Option<i64>, Query, description = "From 1 (default 1)"),
        ("limit" = Option<i64>, Query, description = "1 to 100 (default 20)")),
    responses((status = 200, body = Envelope<NoticesPage>), (status = 400), (status = 401)))]
async fn notices(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<NoticesPage> {
    let page = query_number(&query, "page", 1, 1..=1_000_000)?;
    let limit = query_number(&query, "limit", DEFAULT_NOTICES_LIMIT, 1..=NOTICES_PAGE_MAX)?;
    let found = state.store.notices_of_user(authed.user.id, (page - 1) * limit, limit).await?;
    Ok(ok(NoticesPage {
        rows: found.notices.iter().map(NoticeItem::of).collect(),
        total: found.total,
        page,
        limit,
        unread: found.unread,
        last_read_id: found.last_read_id,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct MarkReadRequest {
    /// The newest notice the bettor has seen: it and every one before are marked read.
    #[schema(value_type = i64)]
    pub up_to_id: FlexI64,
}

#[derive(Serialize, ToSchema)]
pub struct MarkReadAnswer {
    pub last_read_id: i64,
}

/// Marks the caller's notices read up to `up_to_id` (never back; an id past their newest marks
/// all).
#[utoipa::path(post, path = "/user/notices/read", tag = "user", security(("bearer" = [])),
    request_body = MarkReadRequest,
    responses((status = 200, body = Envelope<MarkReadAnswer>), (status = 400), (status = 401)))]
async fn mark_read(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<MarkReadRequest>,
) -> ApiResult<MarkReadAnswer> {
    if body.up_to_id.0 < 0 {
        return Err(AppError::field("up_to_id", "up_to_id must be a notice id (0 or more)."));
    }
    let last_read_id = state.store.mark_notices_read(authed.user.id, body.up_to_id.0).await?;
    Ok(ok(MarkReadAnswer { last_read_id }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice(kind: NoticeKind, amount_minor: i64, commission_minor: i64) -> Notice {
        Notice {
            id: 1,
            kind,
            about: NoticeAbout::Market(NoticeMarket {
                market_id: 2,
                market_name: "Match Odds".into(),
                market_type: MarketType::MatchOdds,
                match_id: 3,
                match_name: "India v Australia".into(),
            }),
            amount_minor,
            commission_minor,
            created_at_ms: 0,
            bet: None,
        }
    }

    fn with_bet(mut notice: Notice) -> Notice {
        notice.bet = Some(NoticeBet {
            bet_id: 9,
            side: BetSide::Back,
            price: 250,
            line: None,
            stake_minor: 100_00,
            matched_minor: 40_00,
            remaining_minor: 60_00,
            selection_name: Some("India".into()),
        });
        notice
    }

    #[test]
    fn a_settlement_says_the_result_commission_and_net() {
        assert_eq!(
            notice_text(&notice(NoticeKind::Settled, 150_00, 3_00)),
            "India v Australia · Match Odds settled: you won ₹150.00, commission ₹3.00, net ₹147.00."
        );
        assert_eq!(
            notice_text(&notice(NoticeKind::Settled, -1_250_50, 0)),
            "India v Australia · Match Odds settled: you lost ₹1,250.50."
        );
        assert!(notice_text(&notice(NoticeKind::Voided, 0, 0)).contains("is void"));
    }

    #[test]
    fn a_bets_notice_names_the_bet_and_the_amount() {
        assert_eq!(
            notice_text(&with_bet(notice(NoticeKind::PartiallyMatched, 40_00, 0))),
            "₹40.00 of your ₹100.00 back bet on India at 2.50 matched; the rest waits \
             (India v Australia · Match Odds)."
        );
        assert!(notice_text(&with_bet(notice(NoticeKind::Lapsed, 60_00, 0)))
            .starts_with("₹60.00 unmatched of your ₹100.00 back bet on India at 2.50 lapsed"));
    }

    #[test]
    fn a_new_device_names_the_device_and_the_address() {
        let mut new_device = notice(NoticeKind::NewDevice, 0, 0);
        let mut login = NoticeLogin { device: "Chrome 131 on Windows 10".into(), client_ip: None };
        new_device.about = NoticeAbout::Login(login.clone());
        assert_eq!(notice_text(&new_device), "New log-in from Chrome 131 on Windows 10.");
        let item = NoticeItem::of(&new_device);
        assert_eq!((item.market_id, item.match_name, item.bet), (None, None, None));
        login.client_ip = Some("203.0.113.7".into());
        new_device.about = NoticeAbout::Login(login);
        assert_eq!(
            notice_text(&new_device),
            "New log-in from Chrome 131 on Windows 10 at 203.0.113.7."
        );
    }
}
