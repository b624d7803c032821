//! `backlay casino …`: checks on the in-house casino's rounds.
//!
//! `backlay casino verify --round teen20-1795356000000` reads the round from the database and
//! recomputes it from its revealed seed; `backlay casino verify --seed … --commitment …
//! --round-id … --game teen20` does the same from values copied off the round page, with no
//! database at all. Either way the check is `backlay_casino::fair::verify`: SHA-256 of the seed
//! must be the commitment published when the round opened, and the deal is recomputed from the
//! seed and the round id.

use backlay_casino::fair::verify;
use backlay_casino::games::GameKind;
use backlay_store::Store;
use clap::{Args, Subcommand};

use crate::DatabaseArgs;
use backlay_casino_store::CasinoReads;

#[derive(Args)]
pub struct CasinoArgs {
    #[command(subcommand)]
    command: CasinoCommand,
}

#[derive(Subcommand)]
enum CasinoCommand {
    /// Recompute a round from its revealed seed: from the database (--round) or from given
    /// values (--seed, --commitment, --round-id, --game).
    Verify(VerifyArgs),
}

#[derive(Args)]
struct VerifyArgs {
    #[command(flatten)]
    database: DatabaseArgs,
    /// A round id in the database, e.g. teen20-1795356000000.
    #[arg(long, conflicts_with_all = ["seed", "commitment", "round_id", "game"])]
    round: Option<String>,
    /// The revealed seed (64 hex digits).
    #[arg(long, requires_all = ["commitment", "round_id", "game"])]
    seed: Option<String>,
    /// The commitment published when the round opened (hex SHA-256 of the seed).
    #[arg(long)]
    commitment: Option<String>,
    /// The round id the deal was drawn for.
    #[arg(long)]
    round_id: Option<String>,
    /// The game's rules code (teen20, teen1day, teentest, dt1day, teen2card, hilow, poker,
    /// queen, baccarat, aaa, bollywood, trio, andarbahar, muflis, roulette, worli).
    #[arg(long)]
    game: Option<String>,
}

pub async fn run(args: CasinoArgs) -> anyhow::Result<()> {
    match args.command {
        CasinoCommand::Verify(args) => verify_command(args).await,
    }
}

async fn verify_command(args: VerifyArgs) -> anyhow::Result<()> {
    let (seed, commitment, round_id, game, stored_deal) = match (args.round, args.seed) {
        (Some(round_id), _) => {
            let store = Store::connect(&args.database.database_url).await?;
            let round = match store.casino_round(&round_id).await {
                Ok(round) => round,
                Err(backlay_store::StoreError::NotFound) => {
                    anyhow::bail!("there is no casino round {round_id}")
                }
                Err(err) => return Err(err.into()),
            };
            let Some(seed) = round.revealed_seed_hex() else {
                anyhow::bail!(
                    "round {round_id} is {}: its seed is revealed when it is dealt",
                    round.phase.as_str()
                );
            };
            let game = backlay_casino_runtime::game_kind(&round.kind)?;
            (
                seed.to_string(),
                round.commitment.clone(),
                round.round_id.clone(),
                game,
                round.deal_json.clone(),
            )
        }
        (None, Some(seed)) => {
            let code = args.game.unwrap_or_default();
            let game = GameKind::from_code(&code).ok_or_else(|| {
                anyhow::anyhow!("{code:?} is not a game code (see --help for the list)")
            })?;
            (
                seed,
                args.commitment.unwrap_or_default(),
                args.round_id.unwrap_or_default(),
                game,
                None,
            )
        }
        (None, None) => {
            anyhow::bail!("give --round, or --seed with --commitment, --round-id and --game")
        }
    };
    let verified = verify(&seed, &commitment, &round_id, game)
        .map_err(|e| anyhow::anyhow!("round {round_id} does NOT verify: {e}"))?;
    println!("Round       {round_id} ({})", game.title());
    println!("Commitment  {commitment}");
    println!("Seed        {seed}");
    println!("            SHA-256(seed) = commitment: yes");
    println!("Deal        {}", serde_json::to_string(&verified.deal)?);
    for hand in &verified.outcome.hands {
        let cards: Vec<String> = hand.cards.iter().map(ToString::to_string).collect();
        println!("  {:<10} {} ({})", hand.name, cards.join(" "), hand.description);
    }
    println!("Winner      {}", verified.outcome.winner);
    if let Some(stored) = stored_deal {
        let stored: serde_json::Value = serde_json::from_str(&stored)?;
        if stored != serde_json::to_value(&verified.deal)? {
            anyhow::bail!("round {round_id}: the recomputed deal differs from the deal stored in the database");
        }
        println!("            the recomputed deal is the deal stored in the database: yes");
    }
    Ok(())
}
