//! Notices: what a bettor is told about their bets after placing them (issue 32). A resting bet
//! matched later by someone else's (in whole or in part), lapsed at a suspension or the off,
//! cancelled by the exchange (a crossed book resolved, a runner withdrawn), or its market
//! settled or voided. The answer to a placement already says what matched then; these tell of
//! what happened after, when the bettor may be on another page. One kind is of the account, not
//! of a bet: a log-in from a device not seen before (issue 33, written with the log-in by
//! `Writer::record_login`).
//!
//! A notice is written by whoever makes the change, in the same transaction (the market's task
//! for matching, lapses and settlement; a placement batch defers its notices to its group's end
//! with its other rows, `group_commit`), so a notice exists exactly when its change committed.
//! The row holds only ids and amounts; what it says is made when it is read, from the bet, the
//! runner, the market and the match it names ([`Notice`]; the words are the web API's).
//!
//! Each bettor's newest notice seen is kept ([`Store::mark_notices_read`]), so the bell counts
//! the unread ones after a reload or on another device.

use backlay_core::exchange::{BetSide, MarketType};
use sqlx::any::AnyRow;
use sqlx::Row;

use crate::bets::place::{AnyQuery, RowWrite};
use crate::{named, Store, StoreResult, Writer};

backlay_core::named_enum! {
    /// What a notice tells of.
    pub enum NoticeKind as "notice kind" {
        /// A resting bet matched in whole, later than it was placed.
        Matched = "matched",
        /// A resting bet matched in part; the rest still waits.
        PartiallyMatched = "partially_matched",
        /// A LAPSE bet's unmatched part was taken off at a suspension or the off.
        Lapsed = "lapsed",
        /// The exchange cancelled a bet's unmatched part (not the bettor).
        Cancelled = "cancelled",
        /// The bettor's bets in a market were settled: their P&L and commission.
        Settled = "settled",
        /// A market was voided, or one bet of it (a withdrawn runner's): every stake returned.
        Voided = "voided",
        /// A log-in from a device (its family: browser and system) the bettor had not logged in
        /// from before. Names no market: it is [`NoticeAbout::Login`].
        NewDevice = "new_device",
    }
}

/// A notice to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewNotice {
    pub user_id: i64,
    pub kind: NoticeKind,
    pub market_id: i64,
    /// `None` for a market's settlement or void, told once per bettor.
    pub bet_id: Option<i64>,
    /// Matched: the size matched now. Lapsed, cancelled: the size taken off. Settled: the
    /// bettor's P&L in the market before commission. Voided: 0 for a market; the bet's matched
    /// size for one bet.
    pub amount_minor: i64,
    /// Settled only: the commission taken.
    pub commission_minor: i64,
}

impl NewNotice {
    /// A notice of one bet (not of a market's settlement): `amount_minor` as [`NewNotice`] says.
    pub fn of_bet(
        kind: NoticeKind,
        market_id: i64,
        bet_id: i64,
        user_id: i64,
        amount_minor: i64,
    ) -> NewNotice {
        NewNotice {
            user_id,
            kind,
            market_id,
            bet_id: Some(bet_id),
            amount_minor,
            commission_minor: 0,
        }
    }
}

/// A notice as read: what its words are made from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub id: i64,
    pub kind: NoticeKind,
    /// The market or the log-in it tells of.
    pub about: NoticeAbout,
    pub amount_minor: i64,
    pub commission_minor: i64,
    pub created_at_ms: i64,
    /// The bet told of, if one is (only ever in a market).
    pub bet: Option<NoticeBet>,
}

/// What a notice is of: a market (every kind but [`NoticeKind::NewDevice`]) or a log-in
/// (migration 0031's checks hold a row to exactly one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoticeAbout {
    Market(NoticeMarket),
    Login(NoticeLogin),
}

/// The market a notice tells of, and its match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoticeMarket {
    pub market_id: i64,
    pub market_name: String,
    pub market_type: MarketType,
    pub match_id: i64,
    pub match_name: String,
}

/// The log-in a new-device notice tells of, as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoticeLogin {
    /// "Chrome 131 on Windows 10".
    pub device: String,
    pub client_ip: Option<String>,
}

/// The bet a notice tells of, as it is now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoticeBet {
    pub bet_id: i64,
    pub side: BetSide,
    /// Odds or rate in hundredths (the run line's rate for a fancy bet).
    pub price: i64,
    /// A fancy bet's run line.
    pub line: Option<i64>,
    pub stake_minor: i64,
    pub matched_minor: i64,
    pub remaining_minor: i64,
    /// The runner's name; `None` for a fancy bet.
    pub selection_name: Option<String>,
}

/// Most notices one page or one read after an id returns.
pub const NOTICES_PAGE_MAX: i64 = 100;

/// Notices, each with the time it was made.
pub(crate) const NOTICES: RowWrite<(NewNotice, i64)> =
    RowWrite { columns: 7, sql: insert_notices_sql, bind: bind_notice };

fn insert_notices_sql(values: &str) -> String {
    format!(
        "INSERT INTO notices (user_id, kind, market_id, bet_id, amount_minor, commission_minor, created_at_ms) \
         VALUES {values}"
    )
}

fn bind_notice<'q>(query: AnyQuery<'q>, (notice, at_ms): &'q (NewNotice, i64)) -> AnyQuery<'q> {
    query
        .bind(notice.user_id)
        .bind(notice.kind.as_str())
        .bind(notice.market_id)
        .bind(notice.bet_id)
        .bind(notice.amount_minor)
        .bind(notice.commission_minor)
        .bind(*at_ms)
}

impl Writer {
    /// Stores notices with the change they tell of (deferred with a placement batch's other
    /// rows to its group's end, like `Writer::insert_fills`).
    pub async fn insert_notices(&mut self, notices: &[NewNotice], now_ms: i64) -> StoreResult<()> {
        if notices.is_empty() {
            return Ok(());
        }
        let notices = notices.iter().map(|notice| (notice.clone(), now_ms));
        if let Some(deferred) = self.deferred() {
            deferred.notices.extend(notices);
            return Ok(());
        }
        let engine = self.engine;
        NOTICES.write(self.conn(), engine, &notices.collect::<Vec<_>>()).await
    }

    /// Stores the notice of a log-in from a new device, with the log-in
    /// (`Writer::record_login`): the device's name and the address as they were.
    pub(crate) async fn insert_new_device_notice(
        &mut self,
        user_id: i64,
        device_name: &str,
        client_ip: Option<&str>,
        now_ms: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO notices (user_id, kind, market_id, bet_id, amount_minor, commission_minor, \
             created_at_ms, device, client_ip) VALUES ($1, $2, NULL, NULL, 0, 0, $3, $4, $5)",
        )
        .bind(user_id)
        .bind(NoticeKind::NewDevice.as_str())
        .bind(now_ms)
        .bind(device_name)
        .bind(client_ip)
        .execute(self.conn())
        .await?;
        Ok(())
    }
}

/// A notice's row joined to what its words name; a `WHERE` on `n` follows.
const NOTICE_FROM: &str = "SELECT n.id, n.kind, n.market_id, m.name AS market_name, m.market_type, \
     mt.id AS match_id, mt.name AS match_name, n.amount_minor, n.commission_minor, n.created_at_ms, \
     b.id AS bet_id, b.side, b.price, b.line, b.stake_minor, b.matched_minor, b.remaining_minor, \
     r.name AS selection_name, n.device, n.client_ip \
     FROM notices n LEFT JOIN markets m ON m.id = n.market_id \
     LEFT JOIN matches mt ON mt.id = m.match_id \
     LEFT JOIN bets b ON b.id = n.bet_id LEFT JOIN runners r ON r.id = b.runner_id";

fn notice_from_row(row: &AnyRow) -> Result<Notice, sqlx::Error> {
    let bet = match row.try_get::<Option<i64>, _>("bet_id")? {
        Some(bet_id) => Some(NoticeBet {
            bet_id,
            side: named(row, "side")?,
            price: row.try_get("price")?,
            line: row.try_get("line")?,
            stake_minor: row.try_get("stake_minor")?,
            matched_minor: row.try_get("matched_minor")?,
            remaining_minor: row.try_get("remaining_minor")?,
            selection_name: row.try_get("selection_name")?,
        }),
        None => None,
    };
    let about = match row.try_get::<Option<i64>, _>("market_id")? {
        Some(market_id) => NoticeAbout::Market(NoticeMarket {
            market_id,
            market_name: row.try_get("market_name")?,
            market_type: named(row, "market_type")?,
            match_id: row.try_get("match_id")?,
            match_name: row.try_get("match_name")?,
        }),
        None => NoticeAbout::Login(NoticeLogin {
            device: row.try_get("device")?,
            client_ip: row.try_get("client_ip")?,
        }),
    };
    Ok(Notice {
        id: row.try_get("id")?,
        kind: named(row, "kind")?,
        about,
        amount_minor: row.try_get("amount_minor")?,
        commission_minor: row.try_get("commission_minor")?,
        created_at_ms: row.try_get("created_at_ms")?,
        bet,
    })
}

fn notices_from_rows(rows: &[AnyRow]) -> StoreResult<Vec<Notice>> {
    rows.iter().map(notice_from_row).collect::<Result<_, sqlx::Error>>().map_err(Into::into)
}

/// A page of a bettor's notices, newest first, with what the bell shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoticesPage {
    pub notices: Vec<Notice>,
    pub total: i64,
    /// Notices after the newest one the bettor has seen.
    pub unread: i64,
    /// The newest notice the bettor has seen (0: none).
    pub last_read_id: i64,
}

impl Store {
    /// A bettor's notices, newest first: `limit` (at most [`NOTICES_PAGE_MAX`]) from `offset`.
    pub async fn notices_of_user(
        &self,
        user_id: i64,
        offset: i64,
        limit: i64,
    ) -> StoreResult<NoticesPage> {
        let rows = sqlx::query(&format!(
            "{NOTICE_FROM} WHERE n.user_id = $1 ORDER BY n.id DESC LIMIT $2 OFFSET $3"
        ))
        .bind(user_id)
        .bind(limit.clamp(1, NOTICES_PAGE_MAX))
        .bind(offset.max(0))
        .fetch_all(self.pool())
        .await?;
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM notices WHERE user_id = $1")
            .bind(user_id)
            .fetch_one(self.pool())
            .await?;
        let last_read_id = self.last_read_notice(user_id).await?;
        let unread: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM notices WHERE user_id = $1 AND id > $2")
                .bind(user_id)
                .bind(last_read_id)
                .fetch_one(self.pool())
                .await?;
        Ok(NoticesPage { notices: notices_from_rows(&rows)?, total, unread, last_read_id })
    }

    /// A bettor's notices after `after_id`, oldest first, at most [`NOTICES_PAGE_MAX`]: what a
    /// live stream has not sent yet.
    pub async fn notices_after(&self, user_id: i64, after_id: i64) -> StoreResult<Vec<Notice>> {
        let rows = sqlx::query(&format!(
            "{NOTICE_FROM} WHERE n.user_id = $1 AND n.id > $2 ORDER BY n.id LIMIT $3"
        ))
        .bind(user_id)
        .bind(after_id)
        .bind(NOTICES_PAGE_MAX)
        .fetch_all(self.pool())
        .await?;
        notices_from_rows(&rows)
    }

    /// The id of a bettor's newest notice (0: none yet): where a stream opened now starts.
    pub async fn newest_notice_id(&self, user_id: i64) -> StoreResult<i64> {
        let newest: Option<i64> =
            sqlx::query_scalar("SELECT MAX(id) FROM notices WHERE user_id = $1")
                .bind(user_id)
                .fetch_one(self.pool())
                .await?;
        Ok(newest.unwrap_or(0))
    }

    async fn last_read_notice(&self, user_id: i64) -> StoreResult<i64> {
        let last: Option<i64> =
            sqlx::query_scalar("SELECT last_read_id FROM notice_reads WHERE user_id = $1")
                .bind(user_id)
                .fetch_optional(self.pool())
                .await?;
        Ok(last.unwrap_or(0))
    }

    /// Marks a bettor's notices up to `up_to_id` seen (never moving back, never past their own
    /// newest). Answers the newest seen now.
    pub async fn mark_notices_read(&self, user_id: i64, up_to_id: i64) -> StoreResult<i64> {
        let newest = self.newest_notice_id(user_id).await?;
        let up_to_id = up_to_id.clamp(0, newest);
        let mut writer = self.begin_write().await?;
        sqlx::query(
            "INSERT INTO notice_reads (user_id, last_read_id) VALUES ($1, $2) \
             ON CONFLICT (user_id) DO UPDATE SET last_read_id = CASE \
             WHEN excluded.last_read_id > notice_reads.last_read_id THEN excluded.last_read_id \
             ELSE notice_reads.last_read_id END",
        )
        .bind(user_id)
        .bind(up_to_id)
        .execute(writer.conn())
        .await?;
        writer.commit().await?;
        self.last_read_notice(user_id).await
    }
}
