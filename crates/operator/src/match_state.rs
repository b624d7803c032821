//! A match's live state: its score and its result, set by a feed, the demo's simulator or an
//! operator through one call ([`set_match_state`]), stored, and pushed to the match's streams.
//!
//! Scores are live data like prices, set once a ball: they are not audited. Declaring or
//! clearing a result is, since it is what bettors read as the end of the match.

use backlay_core::score::{parse_result, Score, ScoreInput, ScoreKind};
use backlay_store::catalogue::MatchState;

use super::OperatorContext;
use backlay_kit::clock::now_ms;
use backlay_kit::error::{AppError, OrNotFound};
use backlay_live::{LiveBooks, LiveScore};

/// What to change; a field left `None` keeps what is stored, `Some(None)` clears it.
#[derive(Clone, Debug, Default)]
pub struct MatchStateUpdate {
    pub score: Option<Option<ScoreInput>>,
    pub result: Option<Option<String>>,
}

/// The kind of score a sport's matches take; `None` for a sport an operator added, which
/// takes any.
pub fn score_kind_of_sport(sport_id: i64) -> Option<ScoreKind> {
    match sport_id {
        4 => Some(ScoreKind::Cricket),
        1 => Some(ScoreKind::Football),
        2 => Some(ScoreKind::Tennis),
        7 | 4339 => Some(ScoreKind::Race),
        _ => None,
    }
}

/// Sets a match's score and/or result (admin only), and sends the new state to the match's
/// streams. Returns the state as the streams carry it.
pub async fn set_match_state(
    ctx: &OperatorContext<'_>,
    live: &LiveBooks,
    match_id: i64,
    update: MatchStateUpdate,
) -> Result<LiveScore, AppError> {
    ctx.require_admin("set a match's score or result")?;
    let score = match update.score {
        Some(Some(input)) => Some(Some(
            Score::parse(input)
                .map_err(|err| AppError::field(&format!("score.{}", err.field), err.message))?,
        )),
        Some(None) => Some(None),
        None => None,
    };
    let result = match update.result {
        Some(Some(text)) => {
            Some(Some(parse_result(&text).map_err(|err| AppError::field("result", err.message))?))
        }
        Some(None) => Some(None),
        None => None,
    };
    let mut writer = ctx.store.begin_write().await?;
    let sport_id = writer
        .match_sport(match_id)
        .await
        .or_not_found(|| format!("There is no match with id {match_id}."))?;
    if let (Some(Some(score)), Some(kind)) = (&score, score_kind_of_sport(sport_id)) {
        if score.kind() != kind {
            return Err(AppError::field(
                "score.sport",
                format!(
                    "This match takes a {} score, not a {} one.",
                    kind.as_str(),
                    score.kind().as_str()
                ),
            ));
        }
    }
    let stored = writer.match_state(match_id).await?;
    let new = MatchState {
        score: match score {
            Some(score) => {
                score.map(|s| serde_json::to_string(s.input())).transpose().map_err(|err| {
                    AppError::Internal(anyhow::anyhow!("cannot serialise a score: {err}"))
                })?
            }
            None => stored.score.clone(),
        },
        result: match result {
            Some(result) => result,
            None => stored.result.clone(),
        },
    };
    writer.put_match_state(match_id, &new, now_ms()).await?;
    if new.result != stored.result {
        ctx.audit(
            &mut writer,
            "match.result",
            format!("match:{match_id}"),
            serde_json::json!({ "result": new.result }),
        )
        .await?;
    }
    writer.commit().await?;
    let the_match = ctx.store.match_by_id(match_id).await?;
    let live_score = LiveScore::of(&the_match);
    live.publish_score(&live_score);
    Ok(live_score)
}
