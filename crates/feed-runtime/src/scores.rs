//! Scores and race news from the feed, on the match pages through the same service the desk
//! uses (`backlay_operator::set_match_state`).
//!
//! A cricket score (`ccm`) becomes the match's score innings by innings: the batting side, runs,
//! wickets and overs ("12.5" is 12 overs and 5 balls), with the fixture's overs per innings; a
//! match that the feed has not made here (its market never came) is passed over. A race's
//! progress (`rcm`) turns its match in play: the race is off.

use backlay_core::score::{CricketInnings, CricketInput, ScoreInput};
use backlay_feed::message::CricketScore;
use backlay_kit::actor::{Actor, OperatorContext};
use backlay_kit::error::AppError;
use backlay_operator::{AppState, MatchStateUpdate};
use backlay_store::upstream::UpstreamKind;

use crate::catalogue::LinkedMarket;

/// The match's score as the desk would post it; `None` when the feed has no innings yet.
pub fn score_input(score: &CricketScore) -> Option<ScoreInput> {
    if score.innings.is_empty() {
        return None;
    }
    let mut innings: Vec<_> = score.innings.iter().collect();
    innings.sort_by_key(|i| i.number);
    Some(ScoreInput::Cricket(CricketInput {
        innings: innings
            .into_iter()
            .map(|i| {
                let (overs, balls) = overs_and_balls(&i.overs);
                CricketInnings {
                    side: i.batting_team.clone().unwrap_or_else(|| format!("Innings {}", i.number)),
                    runs: i.runs,
                    wickets: i.wickets.min(10),
                    overs,
                    balls,
                }
            })
            .collect(),
        overs_limit: score.max_overs,
        last_balls: Vec::new(),
    }))
}

/// "12.5" → (12, 5); what cannot be read counts as no overs.
fn overs_and_balls(text: &str) -> (u32, u32) {
    let (overs, balls) = text.trim().split_once('.').unwrap_or((text.trim(), "0"));
    (overs.parse().unwrap_or(0), balls.parse::<u32>().unwrap_or(0).min(5))
}

/// Posts a cricket score to the match the feed made for its event; false when there is none.
pub async fn post_score(state: &AppState, score: &CricketScore) -> Result<bool, AppError> {
    let event_ref = format!("betfair:{}", score.event_id);
    let Some(match_id) = state.store.upstream_link(UpstreamKind::Match, &event_ref).await? else {
        return Ok(false);
    };
    let Some(input) = score_input(score) else { return Ok(false) };
    let ctx = OperatorContext { store: &state.store, actor: Actor::Console, client_ip: None };
    let result = score.winner.as_ref().map(|winner| Some(format!("{winner} won")));
    backlay_operator::set_match_state(
        &ctx,
        &state.live_books,
        match_id,
        MatchStateUpdate { score: Some(Some(input)), result },
    )
    .await?;
    Ok(true)
}

/// A race is running: its match goes in play (LAPSE orders lapse, the bet delay starts), once.
pub async fn race_off(state: &AppState, link: &LinkedMarket) -> Result<(), AppError> {
    if state.store.match_by_id(link.match_id).await?.in_play {
        return Ok(());
    }
    let ctx = OperatorContext { store: &state.store, actor: Actor::Console, client_ip: None };
    backlay_operator::set_match_in_play(&ctx, &state.engine, link.match_id, true).await
}

#[cfg(test)]
mod tests {
    use backlay_feed::message::Innings;

    use super::*;

    #[test]
    fn a_cricket_score_is_posted_innings_by_innings_with_overs_and_balls() {
        let score = CricketScore {
            event_id: "30610310".into(),
            max_overs: Some(20),
            innings: vec![Innings {
                number: 1,
                batting_team: Some("Karachi Kings".into()),
                bowling_team: Some("Multan Sultans".into()),
                runs: 80,
                wickets: 2,
                overs: "12.5".into(),
            }],
            ..CricketScore::default()
        };
        let Some(ScoreInput::Cricket(input)) = score_input(&score) else { panic!("cricket") };
        assert_eq!(input.overs_limit, Some(20));
        assert_eq!(
            input.innings,
            [CricketInnings {
                side: "Karachi Kings".into(),
                runs: 80,
                wickets: 2,
                overs: 12,
                balls: 5
            }]
        );
        assert_eq!(score_input(&CricketScore::default()), None);
    }
}
