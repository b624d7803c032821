//! The sports catalogue: sports → series → matches, and the casino categories.
//!
//! Sport ids are given, not generated (4 is cricket, 7 horse racing, 4339 greyhounds …), because
//! the client knows some of them by number. Series and match ids are generated.

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::{flag, is_unique_violation, Store, StoreError, StoreResult, Writer};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sport {
    pub sport_id: i64,
    pub name: String,
    pub is_active: bool,
    pub display_order: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    pub series_id: i64,
    pub sport_id: i64,
    pub name: String,
    pub is_active: bool,
    pub is_featured: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    pub match_id: i64,
    pub series_id: i64,
    pub sport_id: i64,
    pub sport_name: String,
    pub series_name: String,
    pub name: String,
    pub open_date_ms: i64,
    pub is_active: bool,
    pub in_play: bool,
    pub venue: Option<String>,
    pub country_code: Option<String>,
    /// The live score as JSON (`backlay_core::score::ScoreInput`), once one was set.
    pub score: Option<String>,
    /// How the match ended ("Chennai Super Kings won by 12 runs"), once declared.
    pub result: Option<String>,
    /// Every market of the match is settled (closed or void): the match is over for bettors.
    /// A match without markets is not finished.
    pub finished: bool,
}

/// A match's score and result as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchState {
    pub score: Option<String>,
    pub result: Option<String>,
}

/// The casino category whose tab opens the world casino (the providers' catalogue) rather than
/// listing in-house games.
pub const WORLD_CASINO_CATEGORY: &str = "worldcasino";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CasinoSport {
    pub sport_id: String,
    pub name: String,
    pub is_active: bool,
    pub display_order: i64,
}

/// The two on/off columns of a match the operator and the demo feed flip.
#[derive(Copy, Clone, Debug)]
enum MatchFlag {
    InPlay,
    Active,
}

/// Which matches to list; `None` means any.
#[derive(Clone, Debug, Default)]
pub struct MatchFilter {
    pub sport_id: Option<i64>,
    pub series_id: Option<i64>,
    pub is_active: Option<bool>,
    /// Only matches bettors still look for: leaves out finished ones (every market settled).
    pub listed_only: bool,
}

#[derive(Clone, Debug)]
pub struct NewSeries<'a> {
    pub sport_id: i64,
    pub name: &'a str,
    pub is_featured: bool,
}

#[derive(Clone, Debug)]
pub struct NewMatch<'a> {
    pub series_id: i64,
    pub name: &'a str,
    pub open_date_ms: i64,
    pub in_play: bool,
    pub venue: Option<&'a str>,
    pub country_code: Option<&'a str>,
}

/// `WHERE` clauses over optional integer filters, numbered `$1…` in order.
#[derive(Default)]
struct Filters {
    clauses: Vec<String>,
    values: Vec<i64>,
}

impl Filters {
    fn add(&mut self, column: &str, value: Option<i64>) {
        if let Some(value) = value {
            self.values.push(value);
            self.clauses.push(format!("{column} = ${}", self.values.len()));
        }
    }

    /// A condition with no value to bind.
    fn add_clause(&mut self, clause: &str) {
        self.clauses.push(clause.to_string());
    }

    fn sql(&self) -> String {
        if self.clauses.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", self.clauses.join(" AND "))
        }
    }

    async fn fetch_all(&self, store: &Store, sql: &str) -> Result<Vec<AnyRow>, sqlx::Error> {
        let mut query = sqlx::query(sql);
        for value in &self.values {
            query = query.bind(*value);
        }
        query.fetch_all(store.pool()).await
    }
}

fn sport_from_row(row: &AnyRow) -> Result<Sport, sqlx::Error> {
    Ok(Sport {
        sport_id: row.try_get("sport_id")?,
        name: row.try_get("name")?,
        is_active: row.try_get::<i64, _>("is_active")? != 0,
        display_order: row.try_get("display_order")?,
    })
}

fn series_from_row(row: &AnyRow) -> Result<Series, sqlx::Error> {
    Ok(Series {
        series_id: row.try_get("id")?,
        sport_id: row.try_get("sport_id")?,
        name: row.try_get("name")?,
        is_active: row.try_get::<i64, _>("is_active")? != 0,
        is_featured: row.try_get::<i64, _>("is_featured")? != 0,
    })
}

/// 1 when the match `m` has markets and every one is settled (closed or void), else 0. Two
/// index lookups on `markets_match`: a list of matches reads this per row.
const FINISHED: &str = "CAST(CASE WHEN EXISTS (SELECT 1 FROM markets f WHERE f.match_id = m.id) \
     AND NOT EXISTS (SELECT 1 FROM markets f WHERE f.match_id = m.id AND f.status NOT IN ('closed', 'void')) \
     THEN 1 ELSE 0 END AS BIGINT)";

fn match_select() -> String {
    format!(
        "SELECT m.id, m.series_id, m.sport_id, sp.name AS sport_name, se.name AS series_name, \
         m.name, m.open_date_ms, m.is_active, m.in_play, m.venue, m.country_code, \
         ms.score, ms.result, {FINISHED} AS finished \
         FROM matches m JOIN sports sp ON sp.sport_id = m.sport_id JOIN series se ON se.id = m.series_id \
         LEFT JOIN match_states ms ON ms.match_id = m.id"
    )
}

fn match_from_row(row: &AnyRow) -> Result<Match, sqlx::Error> {
    Ok(Match {
        match_id: row.try_get("id")?,
        series_id: row.try_get("series_id")?,
        sport_id: row.try_get("sport_id")?,
        sport_name: row.try_get("sport_name")?,
        series_name: row.try_get("series_name")?,
        name: row.try_get("name")?,
        open_date_ms: row.try_get("open_date_ms")?,
        is_active: row.try_get::<i64, _>("is_active")? != 0,
        in_play: row.try_get::<i64, _>("in_play")? != 0,
        venue: row.try_get("venue")?,
        country_code: row.try_get("country_code")?,
        score: row.try_get("score")?,
        result: row.try_get("result")?,
        finished: row.try_get::<i64, _>("finished")? != 0,
    })
}

fn collect<T>(rows: &[AnyRow], map: fn(&AnyRow) -> Result<T, sqlx::Error>) -> StoreResult<Vec<T>> {
    rows.iter().map(map).collect::<Result<_, _>>().map_err(Into::into)
}

impl Store {
    /// Sports in display order (then id), optionally one sport or only (in)active ones.
    pub async fn sports(
        &self,
        sport_id: Option<i64>,
        is_active: Option<bool>,
    ) -> StoreResult<Vec<Sport>> {
        let mut filters = Filters::default();
        filters.add("sport_id", sport_id);
        filters.add("is_active", is_active.map(flag));
        let sql = format!(
            "SELECT sport_id, name, is_active, display_order FROM sports {} ORDER BY display_order, sport_id",
            filters.sql()
        );
        collect(&filters.fetch_all(self, &sql).await?, sport_from_row)
    }

    /// Series in creation order, optionally of one sport or only (in)active ones.
    pub async fn series(
        &self,
        sport_id: Option<i64>,
        is_active: Option<bool>,
    ) -> StoreResult<Vec<Series>> {
        let mut filters = Filters::default();
        filters.add("sport_id", sport_id);
        filters.add("is_active", is_active.map(flag));
        let sql = format!(
            "SELECT id, sport_id, name, is_active, is_featured FROM series {} ORDER BY id",
            filters.sql()
        );
        collect(&filters.fetch_all(self, &sql).await?, series_from_row)
    }

    /// Active featured series (the "cups" menu), in creation order.
    pub async fn featured_series(&self) -> StoreResult<Vec<Series>> {
        let rows = sqlx::query(
            "SELECT id, sport_id, name, is_active, is_featured FROM series \
             WHERE is_featured = 1 AND is_active = 1 ORDER BY id",
        )
        .fetch_all(self.pool())
        .await?;
        collect(&rows, series_from_row)
    }

    /// Matches: in-play first, then by start time.
    pub async fn matches(&self, filter: &MatchFilter) -> StoreResult<Vec<Match>> {
        let mut filters = Filters::default();
        filters.add("m.sport_id", filter.sport_id);
        filters.add("m.series_id", filter.series_id);
        filters.add("m.is_active", filter.is_active.map(flag));
        if filter.listed_only {
            filters.add_clause(&format!("{FINISHED} = 0"));
        }
        let sql = format!(
            "{} {} ORDER BY m.in_play DESC, m.open_date_ms, m.id",
            match_select(),
            filters.sql()
        );
        collect(&filters.fetch_all(self, &sql).await?, match_from_row)
    }

    pub async fn match_by_id(&self, match_id: i64) -> StoreResult<Match> {
        let row = sqlx::query(&format!("{} WHERE m.id = $1", match_select()))
            .bind(match_id)
            .fetch_optional(self.pool())
            .await?
            .ok_or(StoreError::NotFound)?;
        Ok(match_from_row(&row)?)
    }

    /// Active, unfinished matches of active sports whose name contains `text`, ignoring case;
    /// in-play first, then soonest.
    pub async fn search_matches(&self, text: &str, limit: i64) -> StoreResult<Vec<Match>> {
        let escaped = crate::like_escape(&text.to_lowercase());
        let sql = format!(
            "{} WHERE LOWER(m.name) LIKE $1 ESCAPE '\\' AND m.is_active = 1 AND sp.is_active = 1 \
             AND {FINISHED} = 0 ORDER BY m.in_play DESC, m.open_date_ms, m.id LIMIT $2",
            match_select()
        );
        let rows = sqlx::query(&sql)
            .bind(format!("%{escaped}%"))
            .bind(limit)
            .fetch_all(self.pool())
            .await?;
        collect(&rows, match_from_row)
    }

    /// Casino categories in display order: every one (`listed_only == false`, the operator's
    /// view), or only those a player finds something in (`true`): an in-house category with
    /// an active game, and [`WORLD_CASINO_CATEGORY`] while the catalogue has a game that is on
    /// with its provider.
    pub async fn casino_sports(&self, listed_only: bool) -> StoreResult<Vec<CasinoSport>> {
        let rows = sqlx::query(
            "SELECT s.sport_id, s.name, s.is_active, s.display_order FROM casino_sports s \
             WHERE $1 = 0 \
                OR EXISTS (SELECT 1 FROM casino_games g WHERE g.series_id = s.sport_id AND g.is_active = 1) \
                OR (s.sport_id = $2 AND EXISTS (SELECT 1 FROM world_casino_games w \
                    JOIN casino_providers p ON p.id = w.provider_id WHERE w.is_active = 1 AND p.is_active = 1)) \
             ORDER BY s.display_order, s.sport_id",
        )
        .bind(i64::from(listed_only))
        .bind(WORLD_CASINO_CATEGORY)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| {
                Ok(CasinoSport {
                    sport_id: row.try_get("sport_id")?,
                    name: row.try_get("name")?,
                    is_active: row.try_get::<i64, _>("is_active")? != 0,
                    display_order: row.try_get("display_order")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}

impl Writer {
    /// Adds a sport under its given id; an id already in use is `Conflict`.
    pub async fn insert_sport(&mut self, sport: &Sport) -> StoreResult<()> {
        let inserted = sqlx::query(
            "INSERT INTO sports (sport_id, name, is_active, display_order) VALUES ($1, $2, $3, $4)",
        )
        .bind(sport.sport_id)
        .bind(&sport.name)
        .bind(flag(sport.is_active))
        .bind(sport.display_order)
        .execute(self.conn())
        .await;
        match inserted {
            Ok(_) => Ok(()),
            Err(err) if is_unique_violation(&err) => {
                Err(StoreError::Conflict(format!("sport id {} is already in use", sport.sport_id)))
            }
            Err(err) => Err(err.into()),
        }
    }

    pub async fn sport_exists(&mut self, sport_id: i64) -> StoreResult<bool> {
        let found: Option<i64> =
            sqlx::query_scalar("SELECT sport_id FROM sports WHERE sport_id = $1")
                .bind(sport_id)
                .fetch_optional(self.conn())
                .await?;
        Ok(found.is_some())
    }

    pub async fn insert_series(&mut self, series: &NewSeries<'_>, now_ms: i64) -> StoreResult<i64> {
        if !self.sport_exists(series.sport_id).await? {
            return Err(StoreError::NotFound);
        }
        Ok(sqlx::query_scalar(
            "INSERT INTO series (sport_id, name, is_featured, created_at_ms) VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(series.sport_id)
        .bind(series.name)
        .bind(flag(series.is_featured))
        .bind(now_ms)
        .fetch_one(self.conn())
        .await?)
    }

    /// Adds a match to a series (the sport is the series'); an unknown series is `NotFound`.
    pub async fn insert_match(&mut self, new: &NewMatch<'_>, now_ms: i64) -> StoreResult<i64> {
        let sport_id: i64 = sqlx::query_scalar("SELECT sport_id FROM series WHERE id = $1")
            .bind(new.series_id)
            .fetch_optional(self.conn())
            .await?
            .ok_or(StoreError::NotFound)?;
        Ok(sqlx::query_scalar(
            "INSERT INTO matches (series_id, sport_id, name, open_date_ms, in_play, venue, country_code, created_at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
        )
        .bind(new.series_id)
        .bind(sport_id)
        .bind(new.name)
        .bind(new.open_date_ms)
        .bind(flag(new.in_play))
        .bind(new.venue)
        .bind(new.country_code)
        .bind(now_ms)
        .fetch_one(self.conn())
        .await?)
    }

    /// Marks a match in play (or not); `NotFound` for an unknown match.
    pub async fn set_match_in_play(&mut self, match_id: i64, in_play: bool) -> StoreResult<()> {
        self.set_match_flag(MatchFlag::InPlay, match_id, in_play).await
    }

    /// Lists a match or takes it off the lists (`is_active`); `NotFound` for an unknown match.
    pub async fn set_match_active(&mut self, match_id: i64, active: bool) -> StoreResult<()> {
        self.set_match_flag(MatchFlag::Active, match_id, active).await
    }

    async fn set_match_flag(
        &mut self,
        which: MatchFlag,
        match_id: i64,
        value: bool,
    ) -> StoreResult<()> {
        let sql = match which {
            MatchFlag::InPlay => "UPDATE matches SET in_play = $1 WHERE id = $2",
            MatchFlag::Active => "UPDATE matches SET is_active = $1 WHERE id = $2",
        };
        let updated = sqlx::query(sql)
            .bind(flag(value))
            .bind(match_id)
            .execute(self.conn())
            .await?
            .rows_affected();
        if updated == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// The sport of a match, `NotFound` for an unknown match.
    pub async fn match_sport(&mut self, match_id: i64) -> StoreResult<i64> {
        sqlx::query_scalar("SELECT sport_id FROM matches WHERE id = $1")
            .bind(match_id)
            .fetch_optional(self.conn())
            .await?
            .ok_or(StoreError::NotFound)
    }

    /// A match's stored score and result (both `None` when never set).
    pub async fn match_state(&mut self, match_id: i64) -> StoreResult<MatchState> {
        let row = sqlx::query("SELECT score, result FROM match_states WHERE match_id = $1")
            .bind(match_id)
            .fetch_optional(self.conn())
            .await?;
        Ok(match row {
            Some(row) => {
                MatchState { score: row.try_get("score")?, result: row.try_get("result")? }
            }
            None => MatchState::default(),
        })
    }

    /// Replaces a match's score and result (the caller checked the match exists).
    pub async fn put_match_state(
        &mut self,
        match_id: i64,
        state: &MatchState,
        now_ms: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO match_states (match_id, score, result, updated_at_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (match_id) DO UPDATE SET score = excluded.score, result = excluded.result, \
             updated_at_ms = excluded.updated_at_ms",
        )
        .bind(match_id)
        .bind(state.score.as_deref())
        .bind(state.result.as_deref())
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        Ok(())
    }

    /// Adds a casino category; an id already in use is `Conflict`.
    pub async fn insert_casino_sport(&mut self, casino: &CasinoSport) -> StoreResult<()> {
        let inserted = sqlx::query("INSERT INTO casino_sports (sport_id, name, is_active, display_order) VALUES ($1, $2, $3, $4)")
            .bind(&casino.sport_id)
            .bind(&casino.name)
            .bind(flag(casino.is_active))
            .bind(casino.display_order)
            .execute(self.conn())
            .await;
        match inserted {
            Ok(_) => Ok(()),
            Err(err) if is_unique_violation(&err) => Err(StoreError::Conflict(format!(
                "casino category {} already exists",
                casino.sport_id
            ))),
            Err(err) => Err(err.into()),
        }
    }

    /// Renames a casino category; an unknown id is `NotFound`.
    pub async fn rename_casino_sport(&mut self, sport_id: &str, name: &str) -> StoreResult<()> {
        let updated = sqlx::query("UPDATE casino_sports SET name = $2 WHERE sport_id = $1")
            .bind(sport_id)
            .bind(name)
            .execute(self.conn())
            .await?
            .rows_affected();
        if updated == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// Moves a casino category to `display_order` (lower first); an unknown id is `NotFound`.
    pub async fn order_casino_sport(
        &mut self,
        sport_id: &str,
        display_order: i64,
    ) -> StoreResult<()> {
        let updated =
            sqlx::query("UPDATE casino_sports SET display_order = $2 WHERE sport_id = $1")
                .bind(sport_id)
                .bind(display_order)
                .execute(self.conn())
                .await?
                .rows_affected();
        if updated == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// Removes a casino category. One that games still belong to is `Conflict` (naming how
    /// many), since their tables would no longer be listed; an unknown id is `NotFound`.
    pub async fn remove_casino_sport(&mut self, sport_id: &str) -> StoreResult<()> {
        let games: i64 = sqlx::query("SELECT COUNT(*) AS n FROM casino_games WHERE series_id = $1")
            .bind(sport_id)
            .fetch_one(self.conn())
            .await?
            .try_get("n")?;
        if games > 0 {
            return Err(StoreError::Conflict(format!(
                "{games} casino games belong to the category {sport_id}"
            )));
        }
        let deleted = sqlx::query("DELETE FROM casino_sports WHERE sport_id = $1")
            .bind(sport_id)
            .execute(self.conn())
            .await?
            .rows_affected();
        if deleted == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }
}
