//! `backlay admin market …`: operator actions on markets and a match's live score. A market's
//! book lives in the running server's engine and a score goes out on its streams, so unlike the
//! other console commands these call the server's operator API (`/api/admin/market/…`,
//! `/api/admin/match/score`) as an admin, never the database behind its back.

use clap::{Args, Subcommand};
use serde_json::{json, Value};

#[derive(Args)]
pub struct MarketArgs {
    /// The running server.
    #[arg(long, env = "BACKLAY_URL", default_value = "http://127.0.0.1:8080")]
    url: String,
    /// An admin's user name.
    #[arg(long, env = "BACKLAY_ADMIN_USER", default_value = "admin")]
    admin_user: String,
    /// That admin's password.
    #[arg(long, env = "BACKLAY_ADMIN_PASSWORD", hide_env_values = true)]
    admin_password: String,
    #[command(subcommand)]
    command: MarketCommand,
}

#[derive(Subcommand)]
enum MarketCommand {
    /// Create a market on a match (suspended until opened); prints its id and runner ids.
    Create {
        #[arg(long = "match")]
        match_id: i64,
        /// match_odds, bookmaker, fancy, win or place.
        #[arg(long = "type")]
        market_type: String,
        #[arg(long)]
        name: String,
        /// Runner names, comma-separated (none for fancy).
        #[arg(long, value_delimiter = ',')]
        runners: Vec<String>,
        #[arg(long)]
        min_stake: Option<String>,
        #[arg(long)]
        max_stake: Option<String>,
        #[arg(long)]
        bet_delay_s: Option<i64>,
        #[arg(long)]
        commission_bp: Option<i64>,
        #[arg(long)]
        winners: Option<i64>,
    },
    /// Open a market for bets.
    Open { market: i64 },
    /// Suspend a market (LAPSE orders lapse).
    Suspend {
        market: i64,
        /// Show it as ball running rather than suspended.
        #[arg(long)]
        ball_running: bool,
    },
    /// Resolve a market whose stored book was crossed (it loaded suspended, saying so in the
    /// server's log): cancel the younger order of each crossing pair, returning its exposure.
    ResolveCrossed { market: i64 },
    /// Post a bookmaker runner's rates: --runner ID --back 45 --lay 50 (repeatable as a list).
    BookmakerRates {
        market: i64,
        /// selection_id:back:lay, e.g. 12:45:50 (leave a rate empty to take it off: 12::50).
        #[arg(long = "runner", required = true)]
        runners: Vec<String>,
    },
    /// Post a fancy's NO and YES lines and rates.
    FancyRates {
        market: i64,
        #[arg(long)]
        line_no: i64,
        #[arg(long, default_value_t = 100)]
        rate_no: i64,
        #[arg(long)]
        line_yes: i64,
        #[arg(long, default_value_t = 100)]
        rate_yes: i64,
    },
    /// Correct a result: take a resulted or void market back to suspended, reversing its
    /// settlement (clients, agents' shares, house) with "Result corrected: …" entries; then
    /// declare the right result. With --preview, only print what would move.
    Unsettle {
        market: i64,
        /// Why (required to correct; kept in the audit log).
        #[arg(long, default_value = "")]
        reason: String,
        #[arg(long)]
        preview: bool,
    },
    /// Declare the winner (or a fancy's result) and settle.
    Result {
        market: i64,
        #[arg(long, conflicts_with = "runs")]
        winner: Option<i64>,
        #[arg(long)]
        runs: Option<i64>,
    },
    /// Void a market: every bet is off.
    Void { market: i64 },
    /// Set a match's live score and/or result (its streams get them at once), e.g.
    /// --score '{"sport":"football","goals":[1,0],"minute":23}' --result "Arsenal won 2-1".
    Score {
        #[arg(long = "match")]
        match_id: i64,
        /// The whole score as JSON (docs/api.md, admin/match/score); "null" clears it.
        #[arg(long)]
        score: Option<String>,
        /// How the match ended; --clear-result takes it back.
        #[arg(long, conflicts_with = "clear_result")]
        result: Option<String>,
        #[arg(long)]
        clear_result: bool,
    },
}

/// Calls the operator API; a refusal becomes an error with the server's message.
struct Api {
    client: reqwest::Client,
    base: String,
    token: String,
}

impl Api {
    async fn login(url: &str, user: &str, password: &str) -> anyhow::Result<Api> {
        let client = reqwest::Client::new();
        let base = format!("{}/api", url.trim_end_matches('/'));
        let answer = post(
            &client,
            &base,
            None,
            "user/login",
            json!({ "user_name": user, "password": password }),
        )
        .await?;
        let token = answer["token"]
            .as_str()
            .ok_or_else(|| anyhow::anyhow!("the server gave no token"))?
            .to_string();
        Ok(Api { client, base, token })
    }

    async fn post(&self, path: &str, body: Value) -> anyhow::Result<(String, Value)> {
        let response = self
            .client
            .post(format!("{}/{path}", self.base))
            .bearer_auth(&self.token)
            .json(&body)
            .send()
            .await;
        envelope(response).await
    }
}

async fn post(
    client: &reqwest::Client,
    base: &str,
    token: Option<&str>,
    path: &str,
    body: Value,
) -> anyhow::Result<Value> {
    let mut request = client.post(format!("{base}/{path}")).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    Ok(envelope(request.send().await).await?.1)
}

async fn envelope(response: reqwest::Result<reqwest::Response>) -> anyhow::Result<(String, Value)> {
    let response = response.map_err(|e| anyhow::anyhow!("cannot reach the server: {e}"))?;
    let status = response.status();
    let body: Value = response
        .json()
        .await
        .map_err(|e| anyhow::anyhow!("the server answered {status} without JSON: {e}"))?;
    let message = body["message"].as_str().unwrap_or_default().to_string();
    if body["status"] != Value::Bool(true) {
        let errors = body["data"]["errors"].as_object().map(|errors| {
            errors
                .iter()
                .map(|(field, problem)| {
                    format!("{field}: {}", problem.as_str().unwrap_or_default())
                })
                .collect::<Vec<_>>()
                .join("; ")
        });
        anyhow::bail!(
            "{} ({status}){}",
            message,
            errors.map(|e| format!(": {e}")).unwrap_or_default()
        );
    }
    Ok((message, body["data"].clone()))
}

pub async fn run(args: MarketArgs) -> anyhow::Result<()> {
    let api = Api::login(&args.url, &args.admin_user, &args.admin_password).await?;
    let (message, data) = match args.command {
        MarketCommand::Create { match_id, market_type, name, runners, min_stake, max_stake, bet_delay_s, commission_bp, winners } => {
            let mut body = json!({ "match_id": match_id, "type": market_type, "name": name, "runners": runners });
            for (key, value) in [("min_stake", min_stake.map(Value::from)), ("max_stake", max_stake.map(Value::from)),
                ("bet_delay_s", bet_delay_s.map(Value::from)), ("commission_bp", commission_bp.map(Value::from)), ("winners", winners.map(Value::from))] {
                if let Some(value) = value {
                    body[key] = value;
                }
            }
            api.post("admin/market/create", body).await?
        }
        MarketCommand::Open { market } => api.post("admin/market/status", json!({ "market_id": market, "status": "open" })).await?,
        MarketCommand::Suspend { market, ball_running } => {
            let status = if ball_running { "ball_running" } else { "suspended" };
            api.post("admin/market/status", json!({ "market_id": market, "status": status })).await?
        }
        MarketCommand::ResolveCrossed { market } => {
            api.post("admin/market/resolveCrossed", json!({ "market_id": market })).await?
        }
        MarketCommand::BookmakerRates { market, runners } => {
            let mut list = Vec::new();
            for runner in &runners {
                let parts: Vec<&str> = runner.split(':').collect();
                let [id, back, lay] = parts[..] else {
                    anyhow::bail!("--runner takes selection_id:back:lay, e.g. 12:45:50, not {runner:?}")
                };
                let rate = |text: &str| -> anyhow::Result<Value> {
                    if text.is_empty() { Ok(Value::Null) } else { Ok(Value::from(text.parse::<i64>().map_err(|_| anyhow::anyhow!("{text:?} is not a rate"))?)) }
                };
                let id: i64 = id.parse().map_err(|_| anyhow::anyhow!("{id:?} is not a selection id"))?;
                list.push(json!({ "selection_id": id, "back": rate(back)?, "lay": rate(lay)? }));
            }
            api.post("admin/market/rates", json!({ "market_id": market, "runners": list })).await?
        }
        MarketCommand::FancyRates { market, line_no, rate_no, line_yes, rate_yes } => {
            api.post("admin/market/rates", json!({ "market_id": market, "line_no": line_no, "rate_no": rate_no, "line_yes": line_yes, "rate_yes": rate_yes })).await?
        }
        MarketCommand::Result { market, winner, runs } => {
            let body = match (winner, runs) {
                (Some(winner), None) => json!({ "market_id": market, "winner_selection_id": winner }),
                (None, Some(runs)) => json!({ "market_id": market, "result": runs }),
                _ => anyhow::bail!("give --winner SELECTION_ID or --runs N"),
            };
            api.post("admin/market/result", body).await?
        }
        MarketCommand::Unsettle { market, preview: true, .. } => {
            api.post("admin/market/unsettlePreview", json!({ "market_id": market })).await?
        }
        MarketCommand::Unsettle { market, reason, preview: false } => {
            api.post("admin/market/unsettle", json!({ "market_id": market, "reason": reason })).await?
        }
        MarketCommand::Void { market } => api.post("admin/market/void", json!({ "market_id": market })).await?,
        MarketCommand::Score { match_id, score, result, clear_result } => {
            let mut body = json!({ "match_id": match_id });
            if let Some(score) = score {
                body["score"] = serde_json::from_str(&score).map_err(|e| anyhow::anyhow!("--score is not JSON: {e}"))?;
            }
            if let Some(result) = result {
                body["result"] = Value::from(result);
            } else if clear_result {
                body["result"] = Value::Null;
            }
            api.post("admin/match/score", body).await?
        }
    };
    println!("{message}");
    if !data.is_null() {
        println!("{data}");
    }
    Ok(())
}
