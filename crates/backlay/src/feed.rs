//! `backlay feed …`: what a recorded Exchange Stream holds, without a server.
//!
//! `backlay feed show tests/feeds/flumine/1.197931750 --until-pt 1650392800000` plays the
//! recording (files or folders, plain, gzip or bzip2, several merged by publish time) up to that
//! moment and prints, as JSON, every market as a Betfair client would see it then: its state,
//! and each runner's state, name and best levels to back and to lay; and how many lines were
//! refused, with the first reason. It is the operator's check of a recording before it is fed to
//! a server, and what the feed's tests compare with betfairlightweight's own reader.

use std::path::PathBuf;

use backlay_feed::message::Level;
use backlay_feed::recording::{Pace, Timeline};
use backlay_feed::Mirror;
use clap::{Args, Subcommand};
use serde_json::{json, Value};

#[derive(Args)]
pub struct FeedArgs {
    #[command(subcommand)]
    command: FeedCommand,
}

#[derive(Subcommand)]
enum FeedCommand {
    /// Play recordings to a moment and print their markets as JSON.
    Show(ShowArgs),
}

#[derive(Args)]
struct ShowArgs {
    /// Recorded stream files or folders of them (plain, .gz or .bz2, one JSON message a line).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Stop before the first message published after this moment (ms since the epoch, as the
    /// recording's `pt`); the end of the recordings when not given.
    #[arg(long)]
    until_pt: Option<i64>,
    /// How many levels to show on each side of each runner.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=350))]
    levels: u16,
}

pub fn run(args: FeedArgs) -> anyhow::Result<()> {
    match args.command {
        FeedCommand::Show(args) => show(args),
    }
}

fn show(args: ShowArgs) -> anyhow::Result<()> {
    let paths: Vec<&std::path::Path> = args.paths.iter().map(PathBuf::as_path).collect();
    let mut timeline = Timeline::open(&paths)?;
    let pace = Pace { speed: 0.0, until_pt: args.until_pt };
    let mut mirror = Mirror::default();
    let (mut played, mut refused, mut first_refusal) = (0u64, 0u64, None);
    while timeline.next_pt().is_some_and(|pt| pace.plays(pt)) {
        let Some(entry) = timeline.next_entry() else { break };
        match entry.message.and_then(|message| mirror.apply(message)) {
            Ok(_) => played += 1,
            Err(refusal) => {
                refused += 1;
                first_refusal.get_or_insert_with(|| {
                    format!("{} line {}: {refusal}", entry.source.display(), entry.line)
                });
            }
        }
    }
    let levels = usize::from(args.levels);
    let markets: Vec<Value> = mirror
        .markets()
        .map(|market| {
            let definition = market.definition();
            json!({
                "market_id": market.market_id(),
                "status": definition.map(|d| d.status.betfair_name()),
                "in_play": definition.map(|d| d.in_play),
                "market_type": definition.map(|d| d.market_type.clone()),
                "pt": market.pt(),
                "runners": market.runners().iter().map(|runner| {
                    let runner_definition = runner.definition();
                    json!({
                        "selection_id": runner.selection_id(),
                        "status": runner_definition.map(|d| d.status.betfair_name()),
                        "name": runner_definition.and_then(|d| d.name.clone()),
                        "last_traded": runner.last_traded_hundredths().map(|h| f64::from(h) / 100.0),
                        "back": levels_json(&runner.available_to_back(), levels),
                        "lay": levels_json(&runner.available_to_lay(), levels),
                    })
                }).collect::<Vec<_>>(),
            })
        })
        .collect();
    let answer = json!({
        "pt": mirror.pt(),
        "messages": played,
        "refused": refused,
        "first_refusal": first_refusal,
        "markets": markets,
    });
    println!("{}", serde_json::to_string_pretty(&answer)?);
    Ok(())
}

/// Levels as `{"price": 8.8, "size": "18.62"}`: the size as exact decimal text.
fn levels_json(levels: &[Level], count: usize) -> Vec<Value> {
    levels
        .iter()
        .take(count)
        .map(|level| json!({ "price": level.price.to_f64_for_json(), "size": level.size.to_string() }))
        .collect()
}
