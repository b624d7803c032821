//! `backlay admin …`: the operator actions of `/api/admin/…`, run straight on the database by
//! someone with access to the server's machine. Each command calls the same
//! `backlay_operator` function as the HTTP API, acting as the console.

use backlay_casino_runtime::art::tile_image_url;
use backlay_core::money::{Money, Rupees};
use backlay_kit::clock::parse_iso;
use backlay_kit::secret_key::{self, SecretKeySource};
use backlay_operator::{
    self as operator, Actor, AddProvider, AddWorldCasinoGame, CashDirection, CreateMatch,
    CreateUser, OperatorContext, TransferDirection,
};
use backlay_store::ledger::LedgerCheck;
use backlay_store::secrets::{self, Keyring, SealReport};
use backlay_store::users::Role;
use backlay_store::{Engine, Store};
use clap::{Args, Subcommand};

use crate::{DatabaseArgs, SecretKeyArgs};
use backlay_casino_store::{CasinoReads, ProviderReads};

#[derive(Args)]
pub struct AdminArgs {
    #[command(flatten)]
    database: DatabaseArgs,
    #[command(flatten)]
    secret_key: SecretKeyArgs,
    #[command(subcommand)]
    command: AdminCommand,
}

#[derive(Subcommand)]
enum AdminCommand {
    /// Create an admin, agent or client.
    CreateUser {
        #[arg(long)]
        name: String,
        #[arg(long)]
        password: String,
        /// admin, agent or client.
        #[arg(long, value_parser = parse_role)]
        role: Role,
        /// Parent's user name (an admin or agent; agents go as deep as the `agent_levels`
        /// setting allows).
        #[arg(long)]
        parent: Option<String>,
        /// Make the user choose a new password at first log-in.
        #[arg(long)]
        must_change_password: bool,
        /// An agent's partnership in basis points (4000 = 40%), at most its parent agent's.
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=10_000))]
        partnership_bp: Option<u32>,
    },
    /// Move chips between a user and their parent.
    Transfer {
        #[arg(long)]
        user: String,
        /// Amount, e.g. 1000 or 99.50.
        #[arg(long, value_parser = parse_amount)]
        amount: Money,
        /// deposit (parent → user) or withdraw (user → parent).
        #[arg(long, value_parser = parse_direction)]
        direction: TransferDirection,
        #[arg(long, default_value = "")]
        remark: String,
    },
    /// Record cash handed over between a user and its parent against what the collection
    /// report says is owed (no chips move; console/collection/settle).
    SettleCash {
        #[arg(long)]
        user: String,
        /// Amount, e.g. 1000 or 99.50: at most what is owed.
        #[arg(long, value_parser = parse_amount)]
        amount: Money,
        /// received (the user paid its parent) or paid (the parent paid the user).
        #[arg(long, value_parser = parse_cash_direction)]
        direction: CashDirection,
        #[arg(long, default_value = "")]
        remark: String,
    },
    /// Issue new chips to an admin.
    Mint {
        #[arg(long)]
        to: String,
        #[arg(long, value_parser = parse_amount)]
        amount: Money,
    },
    /// Lock a user (ends their sessions).
    Lock {
        #[arg(long)]
        user: String,
    },
    Unlock {
        #[arg(long)]
        user: String,
    },
    /// Set a site setting (site_title, site_message, payment_gateway, colours, apk_url,
    /// default_parent, default_buttons_game as JSON …; docs/operating.md "Site settings").
    SetSetting { key: String, value: String },
    CreateSport {
        #[arg(long)]
        id: i64,
        #[arg(long)]
        name: String,
        #[arg(long, default_value_t = 100)]
        order: i64,
    },
    CreateSeries {
        #[arg(long)]
        sport: i64,
        #[arg(long)]
        name: String,
        /// List it in the cups menu.
        #[arg(long)]
        featured: bool,
    },
    CreateMatch {
        #[arg(long)]
        series: i64,
        #[arg(long)]
        name: String,
        /// Scheduled start, ISO-8601 with a zone, e.g. 2026-11-23T14:00:00Z.
        #[arg(long)]
        start: String,
        #[arg(long)]
        in_play: bool,
    },
    /// List users with their balances.
    ListUsers {
        /// Only the children of this user.
        #[arg(long)]
        parent: Option<String>,
    },
    /// Verify the ledger (exit status 1 when anything is wrong).
    LedgerCheck,
    /// Back the database up to a new file while the server runs (SQLite: a consistent copy;
    /// PostgreSQL: pg_dump's custom format, which needs PostgreSQL's client tools), with a
    /// manifest beside it (PATH.manifest.json). The secret key is not in it: keep it apart.
    Backup {
        /// The backup file to write (it must not exist).
        #[arg(long)]
        to: std::path::PathBuf,
    },
    /// Restore a backup (and its manifest) into a database, run its migrations and the ledger
    /// check. A database that holds data is refused unless --force.
    Restore {
        /// The backup file, with PATH.manifest.json beside it.
        #[arg(long)]
        from: std::path::PathBuf,
        /// The database to restore into: sqlite://path/to/file.db or postgres://user@host/db.
        #[arg(long)]
        to: String,
        /// Replace what the target database holds.
        #[arg(long)]
        force: bool,
    },
    /// Markets live in the running server's engine, so these go through its API.
    Market(crate::market::MarketArgs),
    /// World-casino game providers (they sign seamless-wallet calls) and their catalogue.
    #[command(subcommand)]
    Provider(ProviderCommand),
    /// The secret key that seals TOTP and providers' secrets in the database (docs/operating.md).
    #[command(subcommand)]
    SecretKey(SecretKeyCommand),
    /// The casino's categories (casino/getCasinoSport) and the in-house games' tile images.
    #[command(subcommand)]
    Casino(CasinoCommand),
    /// Logos, favicons and casino tile images served at /upload/image/<name>.
    #[command(subcommand)]
    Image(ImageCommand),
}

#[derive(Subcommand)]
enum CasinoCommand {
    /// The casino's categories, in the order the site shows them.
    #[command(subcommand)]
    Category(CategoryCommand),
    /// The image each in-house game's tile shows: its own art, or an uploaded image.
    #[command(subcommand)]
    Image(GameImageCommand),
    /// Switch an in-house table on or off (off: out of the lobby, bets refused, no new round;
    /// a round already open still settles).
    Table {
        /// The game's code (`dt6`) or rules code (`dt1day`).
        game: String,
        #[arg(long, conflicts_with = "off", required_unless_present = "off")]
        on: bool,
        #[arg(long)]
        off: bool,
    },
}

#[derive(Subcommand)]
enum GameImageCommand {
    /// List the in-house games with the image each tile shows.
    List,
    /// Show an uploaded image (`admin image upload`) on a game's tile instead of its art,
    /// e.g. `set dt6 dragon-tiger.png`.
    Set {
        /// The game's code (`dt6`) or rules code (`dt1day`).
        game: String,
        /// The uploaded image's name, as `admin image upload` printed it.
        image: String,
    },
    /// Show the game's own art again.
    Reset {
        /// The game's code (`dt6`) or rules code (`dt1day`).
        game: String,
    },
}

#[derive(Subcommand)]
enum CategoryCommand {
    /// List the categories in display order.
    List,
    /// Add a category, e.g. `add --id crash --name "Crash Games" --order 5`.
    Add {
        /// Lower-case letters, digits, '-' or '_' (the web's address: #/casino/list/<id>).
        #[arg(long)]
        id: String,
        #[arg(long)]
        name: String,
        #[arg(long, default_value_t = 100)]
        order: i64,
    },
    /// Give a category a new name.
    Rename {
        id: String,
        #[arg(long)]
        name: String,
    },
    /// Move a category one place up or down; the list is numbered again 10, 20, 30….
    Move {
        id: String,
        #[arg(long, conflicts_with = "down", required_unless_present = "down")]
        up: bool,
        #[arg(long)]
        down: bool,
    },
    /// Move a category: lower orders are shown first.
    Order {
        id: String,
        #[arg(long, allow_negative_numbers = true)]
        order: i64,
    },
    /// Remove a category no game belongs to.
    Remove { id: String },
}

#[derive(Subcommand)]
enum ImageCommand {
    /// Store a PNG, JPEG, GIF, WebP or ICO file (at most 512 KiB) for /upload/image/<name>;
    /// then point a setting at it, e.g. `set-setting logo <name>`, or a game's tile at it,
    /// e.g. `casino image set dt6 <name>`.
    Upload {
        /// The file to read.
        file: std::path::PathBuf,
        /// The name to serve it under (made safe; the extension follows the file's type).
        /// Default: the file's own name.
        #[arg(long)]
        name: Option<String>,
    },
    /// List the uploaded images.
    List,
    /// Remove an uploaded image.
    Remove { name: String },
}

#[derive(Subcommand)]
enum SecretKeyCommand {
    /// Print a fresh key (base64), for BACKLAY_SECRET_KEY or a key file.
    New,
    /// Put a fresh key at the head of the key file and re-seal every secret with it; the older
    /// keys stay in the file to open what running servers seal with them meanwhile.
    Rotate,
    /// Re-seal every secret with the first key, and say which keys are still in use.
    Reencrypt,
}

#[derive(Subcommand)]
enum ProviderCommand {
    /// List the providers and the catalogue.
    List,
    /// Add an outside provider; prints its signing secret once.
    Add {
        /// What it signs as, e.g. evo.
        #[arg(long)]
        code: String,
        #[arg(long)]
        name: String,
        /// Where its games launch, e.g. https://games.example.com/launch.
        #[arg(long)]
        launch_url: String,
    },
    /// Give an outside provider a new signing secret (printed once; the old one stops working).
    RotateSecret {
        #[arg(long)]
        code: String,
    },
    /// List a provider's game in the world-casino catalogue.
    AddGame {
        #[arg(long)]
        provider: String,
        /// The provider's own code for the game.
        #[arg(long)]
        code: String,
        #[arg(long)]
        name: String,
        /// Crash Games, Live Game Shows, Live, Poker, Virtual or Live Dealer.
        #[arg(long)]
        category: String,
        #[arg(long, default_value = "")]
        sub_provider: String,
        /// An https thumbnail address.
        #[arg(long, default_value = "")]
        thumb: String,
    },
    /// Switch a catalogue game on or off (off: listed without status, refused at launch).
    Game {
        /// The catalogue id, e.g. evo-lightning-roulette.
        game_id: String,
        #[arg(long, conflicts_with = "off", required_unless_present = "off")]
        on: bool,
        #[arg(long)]
        off: bool,
    },
}

fn parse_role(text: &str) -> Result<Role, String> {
    // "\"x\" is not a role: use admin, agent or client".
    text.parse().map_err(|err: backlay_core::named::UnknownName| err.to_string())
}

fn parse_amount(text: &str) -> Result<Money, String> {
    Money::parse_decimal(text).map_err(|e| e.to_string())
}

fn parse_direction(text: &str) -> Result<TransferDirection, String> {
    // "\"x\" is not a direction: use deposit or withdraw".
    text.parse().map_err(|err: backlay_core::named::UnknownName| err.to_string())
}

fn parse_cash_direction(text: &str) -> Result<CashDirection, String> {
    text.parse().map_err(|err: backlay_core::named::UnknownName| err.to_string())
}

async fn user_id(store: &Store, name: &str) -> anyhow::Result<i64> {
    store
        .user_id_by_name(name)
        .await?
        .ok_or_else(|| anyhow::anyhow!("there is no user named {name:?}"))
}

pub async fn run(args: AdminArgs) -> anyhow::Result<()> {
    if let AdminCommand::Market(market) = args.command {
        return crate::market::run(market).await;
    }
    if let AdminCommand::SecretKey(SecretKeyCommand::New) = args.command {
        println!("{}", secrets::new_key());
        return Ok(());
    }
    match &args.command {
        AdminCommand::Backup { to } => {
            let url = &args.database.database_url;
            let manifest = backlay_backup::backup(url, to, backlay_kit::clock::now_ms()).await?;
            println!(
                "backed up to {} ({} bytes, sha256 {}): {} users, {} bets, {} ledger entries, migration {}",
                to.display(),
                manifest.bytes,
                manifest.sha256,
                manifest.figures.users,
                manifest.figures.bets,
                manifest.figures.ledger_entries,
                manifest.migration
            );
            return Ok(());
        }
        AdminCommand::Restore { from, to, force } => {
            let restored = backlay_backup::restore(from, to, *force).await?;
            let (made, now) = (&restored.manifest, &restored.figures);
            println!(
                "restored {} (made at {} ms by Backlay {}, migration {}) into {}: {} users, {} bets, {} ledger entries summing to {}; migrations now at {}",
                from.display(),
                made.created_at_ms,
                made.backlay_version,
                made.migration,
                backlay_store::url_without_password(to),
                now.users,
                now.bets,
                now.ledger_entries,
                Money::from_minor(now.ledger_total_minor),
                restored.migration
            );
            if !now.ledger_sound {
                anyhow::bail!("the restored ledger is NOT sound: run `backlay admin ledger-check` on it for the findings");
            }
            println!("ledger is sound");
            return Ok(());
        }
        _ => {}
    }
    let source = args.secret_key.source()?;
    let database_url = &args.database.database_url;
    let needs_key = matches!(args.command, AdminCommand::Provider(_) | AdminCommand::SecretKey(_));
    if needs_key {
        secret_key::check_source(&source, database_url)?;
    }
    let store = Store::connect(database_url).await?;
    store.migrate().await?;
    // Only what reads or writes a secret needs the key (on PostgreSQL it must then be given).
    let store = if needs_key {
        secret_key::open_secrets(store, &source, database_url).await?
    } else {
        store
    };
    let ctx = OperatorContext { store: &store, actor: Actor::Console, client_ip: None };
    let fail = |e: backlay_kit::error::AppError| anyhow::anyhow!("{}", describe(e));
    match args.command {
        AdminCommand::CreateUser {
            name,
            password,
            role,
            parent,
            must_change_password,
            partnership_bp,
        } => {
            let parent_id = match parent {
                Some(parent) => Some(user_id(&store, &parent).await?),
                None => None,
            };
            let passwords = backlay_kit::password::Passwords::for_this_machine();
            let mut request =
                CreateUser::parse(&name, password, role, parent_id, must_change_password)
                    .map_err(fail)?;
            request.partnership_bp = partnership_bp;
            let user = operator::create_user(&ctx, &passwords, request).await.map_err(fail)?;
            println!("created {} {} (id {})", user.role.as_str(), user.user_name, user.id);
        }
        AdminCommand::Transfer { user, amount, direction, remark } => {
            let id = user_id(&store, &user).await?;
            let outcome =
                operator::transfer(&ctx, id, amount, direction, &remark).await.map_err(fail)?;
            println!(
                "done: {user} now has {}, their parent {}",
                outcome.user_balance, outcome.parent_balance
            );
        }
        AdminCommand::SettleCash { user, amount, direction, remark } => {
            let id = user_id(&store, &user).await?;
            let done =
                operator::settle_cash(&ctx, id, amount, direction, &remark).await.map_err(fail)?;
            println!(
                "recorded: {user} owed its parent {}, now {}",
                done.owed_before.rupees(),
                done.owed_after.rupees()
            );
        }
        AdminCommand::Mint { to, amount } => {
            let id = user_id(&store, &to).await?;
            let balance = operator::mint(&ctx, id, amount).await.map_err(fail)?;
            println!("issued {amount} to {to}; balance {balance}");
        }
        AdminCommand::Lock { user } => {
            let id = user_id(&store, &user).await?;
            operator::set_locked(&ctx, id, true).await.map_err(fail)?;
            println!("{user} is locked");
        }
        AdminCommand::Unlock { user } => {
            let id = user_id(&store, &user).await?;
            operator::set_locked(&ctx, id, false).await.map_err(fail)?;
            println!("{user} is unlocked");
        }
        AdminCommand::SetSetting { key, value } => {
            operator::update_settings(&ctx, &[(key.clone(), value)]).await.map_err(fail)?;
            println!("{key} saved");
        }
        AdminCommand::CreateSport { id, name, order } => {
            operator::create_sport(&ctx, id, &name, order, true).await.map_err(fail)?;
            println!("created sport {id} {name}");
        }
        AdminCommand::CreateSeries { sport, name, featured } => {
            let id = operator::create_series(&ctx, sport, &name, featured).await.map_err(fail)?;
            println!("created series {id} {name}");
        }
        AdminCommand::CreateMatch { series, name, start, in_play } => {
            let open_date_ms = parse_iso(&start).ok_or_else(|| {
                anyhow::anyhow!("--start must be ISO-8601 with a zone, e.g. 2026-11-23T14:00:00Z")
            })?;
            let id = operator::create_match(
                &ctx,
                CreateMatch {
                    series_id: series,
                    name: name.clone(),
                    open_date_ms,
                    in_play,
                    venue: None,
                    country_code: None,
                    upstream_ref: None,
                },
            )
            .await
            .map_err(fail)?;
            println!("created match {id} {name}");
        }
        AdminCommand::ListUsers { parent } => {
            let parent_id = match parent {
                Some(parent) => Some(user_id(&store, &parent).await?),
                None => None,
            };
            let (users, total) = store.list_users(parent_id, 0, 1000).await?;
            println!(
                "{:>6}  {:<20} {:<7} {:>8} {:>16} {:>14}  locked",
                "id", "user", "role", "parent", "balance", "exposure"
            );
            for row in &users {
                let user = &row.user;
                println!(
                    "{:>6}  {:<20} {:<7} {:>8} {:>16} {:>14}  {}",
                    user.id,
                    user.user_name,
                    user.role.as_str(),
                    user.parent_id.map_or("-".into(), |p| p.to_string()),
                    Money::from_minor(row.balance_minor).to_string(),
                    Money::from_minor(row.exposure_minor).to_string(),
                    if user.is_locked { "yes" } else { "no" }
                );
            }
            println!("{total} user(s)");
        }
        AdminCommand::Backup { .. } | AdminCommand::Restore { .. } => {
            unreachable!("answered before the database is opened")
        }
        AdminCommand::LedgerCheck => {
            let check = store.ledger_check().await?;
            println!(
                "{} accounts, {} entries, sum of all entries {}",
                check.accounts,
                check.entries,
                Money::from_minor(check.total_minor)
            );
            if !check.is_sound() {
                let findings = ledger_findings(&check);
                anyhow::bail!(
                    "the ledger is NOT sound ({} finding(s)):\n  {}",
                    findings.len(),
                    findings.join("\n  ")
                );
            }
            println!("ledger is sound");
        }
        AdminCommand::Provider(command) => provider_command(&ctx, command).await.map_err(fail)?,
        AdminCommand::SecretKey(command) => {
            secret_key_command(&store, &source, database_url, command).await?
        }
        AdminCommand::Casino(CasinoCommand::Category(command)) => {
            category_command(&ctx, command).await.map_err(fail)?
        }
        AdminCommand::Casino(CasinoCommand::Image(command)) => {
            game_image_command(&ctx, command).await.map_err(fail)?
        }
        AdminCommand::Casino(CasinoCommand::Table { game, on, off: _ }) => {
            let game = operator::set_casino_game_active(&ctx, &game, on).await.map_err(fail)?;
            let state = if game.is_active { "on" } else { "off" };
            println!("{} ({}) is {state}", game.title, game.game_code);
        }
        AdminCommand::Image(command) => image_command(&ctx, command).await?,
        AdminCommand::Market(_) => unreachable!("handled above"),
    }
    store.close().await;
    Ok(())
}

async fn category_command(
    ctx: &OperatorContext<'_>,
    command: CategoryCommand,
) -> Result<(), backlay_kit::error::AppError> {
    match command {
        CategoryCommand::List => {
            println!("{:>6}  {:<20} {:<28} active", "order", "id", "name");
            for category in ctx.store.casino_sports(false).await? {
                println!(
                    "{:>6}  {:<20} {:<28} {}",
                    category.display_order,
                    category.sport_id,
                    category.name,
                    if category.is_active { "yes" } else { "no" }
                );
            }
        }
        CategoryCommand::Add { id, name, order } => {
            let category = operator::add_casino_category(ctx, &id, &name, order).await?;
            println!("added casino category {} {}", category.sport_id, category.name);
        }
        CategoryCommand::Rename { id, name } => {
            operator::rename_casino_category(ctx, &id, &name).await?;
            println!("casino category {id} is now {name}");
        }
        CategoryCommand::Move { id, up, down: _ } => {
            for category in operator::move_casino_category(ctx, &id, up).await? {
                println!(
                    "{:>6}  {:<20} {}",
                    category.display_order, category.sport_id, category.name
                );
            }
        }
        CategoryCommand::Order { id, order } => {
            operator::order_casino_category(ctx, &id, order).await?;
            println!("casino category {id} has order {order}");
        }
        CategoryCommand::Remove { id } => {
            operator::remove_casino_category(ctx, &id).await?;
            println!("removed casino category {id}");
        }
    }
    Ok(())
}

async fn game_image_command(
    ctx: &OperatorContext<'_>,
    command: GameImageCommand,
) -> Result<(), backlay_kit::error::AppError> {
    let show = |game: &backlay_casino_store::casino::CasinoGame| {
        println!(
            "{:<10} {:<26} {}",
            game.game_code,
            game.title,
            tile_image_url(&game.kind, game.image_name.as_deref())
        )
    };
    match command {
        GameImageCommand::List => {
            println!("{:<10} {:<26} image", "game", "title");
            for game in ctx.store.casino_games(false, None).await? {
                show(&game);
            }
        }
        GameImageCommand::Set { game, image } => {
            show(&operator::set_casino_game_image(ctx, &game, &image).await?);
        }
        GameImageCommand::Reset { game } => {
            show(&operator::set_casino_game_image(ctx, &game, "").await?);
        }
    }
    Ok(())
}

async fn image_command(ctx: &OperatorContext<'_>, command: ImageCommand) -> anyhow::Result<()> {
    let fail = |e: backlay_kit::error::AppError| anyhow::anyhow!("{}", describe(e));
    match command {
        ImageCommand::Upload { file, name } => {
            let size = std::fs::metadata(&file)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?
                .len();
            // Checked before reading, so a huge file is not read to be refused.
            let limit = backlay_kit::uploads::MAX_IMAGE_BYTES as u64;
            if size > limit {
                anyhow::bail!(
                    "{} is {} KiB; an image may be at most {} KiB",
                    file.display(),
                    size.div_ceil(1024),
                    limit / 1024
                );
            }
            let bytes = std::fs::read(&file)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
            let given = name.unwrap_or_else(|| file.to_string_lossy().into_owned());
            let stored =
                backlay_kit::uploads::upload_image(ctx, &given, &bytes).await.map_err(fail)?;
            println!("stored as {stored}: served at /upload/image/{stored}");
            println!("use it: backlay admin set-setting logo {stored} (or favicon)");
        }
        ImageCommand::List => {
            for image in ctx.store.uploaded_images().await? {
                println!(
                    "{:<64} {:<12} {:>8} bytes",
                    image.name, image.content_type, image.size_bytes
                );
            }
        }
        ImageCommand::Remove { name } => {
            backlay_kit::uploads::remove_image(ctx, &name).await.map_err(fail)?;
            println!("removed {name}");
        }
    }
    Ok(())
}

async fn provider_command(
    ctx: &OperatorContext<'_>,
    command: ProviderCommand,
) -> Result<(), backlay_kit::error::AppError> {
    match command {
        ProviderCommand::List => {
            for provider in ctx.store.casino_providers().await? {
                let kind = if provider.is_builtin { "built in" } else { "outside" };
                let state = if provider.is_active { "on" } else { "off" };
                println!(
                    "{:<16} {:<24} {kind:<9} {state:<4} {}",
                    provider.code,
                    provider.name,
                    provider.launch_url.as_deref().unwrap_or("<public url>/provider/play")
                );
            }
            for game in ctx.store.world_casino_games().await? {
                let state = if game.is_playable() { "on" } else { "off" };
                println!(
                    "  {:<32} {:<28} {:<16} {state}",
                    game.game_id, game.game_name, game.category
                );
            }
        }
        ProviderCommand::Add { code, name, launch_url } => {
            let (id, secret) = operator::add_casino_provider(
                ctx,
                AddProvider { code: code.clone(), name, launch_url: launch_url.clone() },
            )
            .await?;
            println!("added provider {code} (id {id})");
            println!("signing secret (shown only now; give it to the provider): {secret}");
            println!("frame its games: add the origin of {launch_url} to the casino_frame_origins setting");
        }
        ProviderCommand::RotateSecret { code } => {
            let secret = operator::rotate_provider_secret(ctx, &code).await?;
            println!("new signing secret for {code} (shown only now; the old one no longer works): {secret}");
        }
        ProviderCommand::AddGame { provider, code, name, category, sub_provider, thumb } => {
            let game = AddWorldCasinoGame {
                provider_code: provider,
                game_code: code,
                game_name: name,
                category,
                sub_provider_name: sub_provider,
                url_thumb: thumb,
            };
            let game_id = operator::add_world_casino_game(ctx, game).await?;
            println!("listed {game_id}");
        }
        ProviderCommand::Game { game_id, on, off: _ } => {
            operator::set_world_casino_game_active(ctx, &game_id, on).await?;
            println!("{game_id} is {}", if on { "on" } else { "off" });
        }
    }
    Ok(())
}

async fn secret_key_command(
    store: &Store,
    source: &SecretKeySource,
    database_url: &str,
    command: SecretKeyCommand,
) -> anyhow::Result<()> {
    match command {
        SecretKeyCommand::New => unreachable!("handled before connecting"),
        SecretKeyCommand::Rotate => {
            let path = match source {
                SecretKeySource::File { path, .. } => path.clone(),
                SecretKeySource::BesideDatabase if store.engine() == Engine::Sqlite => secret_key::beside_database(database_url),
                _ => anyhow::bail!(
                    "the key is in BACKLAY_SECRET_KEY, which this command cannot change: put a new key first in it \
                     (`backlay admin secret-key new`), keep the old one after a comma, restart the servers, then run \
                     `backlay admin secret-key reencrypt`"
                ),
            };
            let old_ids = Keyring::load_file(&path)?.key_ids();
            let new_id = Keyring::add_key_to_file(&path)?;
            println!("added key {new_id} at the head of {}; the older keys ({}) stay to open what they sealed", path.display(), old_ids.join(", "));
            // The store's keyring reads the changed file before it seals.
            let report = store.seal_secrets(true).await?;
            print_report(&report);
            println!(
                "running servers read the key file again when they next seal a secret or meet one sealed with the new key; \
                 once they have (restart them to be sure), run `backlay admin secret-key reencrypt` and remove the old lines when it says so"
            );
            check_report(&report)
        }
        SecretKeyCommand::Reencrypt => {
            let report = store.seal_secrets(true).await?;
            print_report(&report);
            check_report(&report)
        }
    }
}

fn print_report(report: &SealReport) {
    println!(
        "re-sealed {} secrets; sealed {} that were in clear text",
        report.resealed, report.sealed_clear
    );
    let by_key: Vec<String> =
        report.by_key.iter().map(|(id, n)| format!("{n} with key {id}")).collect();
    println!(
        "secrets now: {}",
        if by_key.is_empty() { "none".to_string() } else { by_key.join(", ") }
    );
    if report.by_key.len() <= 1 && report.unknown_keys.is_empty() && report.broken.is_empty() {
        println!("every secret is sealed with the first key: the other keys in the key file, if any, can be removed");
    }
}

fn check_report(report: &SealReport) -> anyhow::Result<()> {
    for broken in &report.broken {
        eprintln!("cannot re-seal {broken}");
    }
    let unknown: Vec<String> =
        report.unknown_keys.iter().map(|(id, n)| format!("{n} with key {id}")).collect();
    anyhow::ensure!(
        unknown.is_empty() && report.broken.is_empty(),
        "some secrets were left as they were{}",
        if unknown.is_empty() {
            String::new()
        } else {
            format!(" (sealed {}, not in the key)", unknown.join(", "))
        }
    );
    Ok(())
}

/// The message of an operator error, with field errors spelled out.
fn describe(err: backlay_kit::error::AppError) -> String {
    match err {
        backlay_kit::error::AppError::Invalid { errors, .. } if !errors.is_empty() => errors
            .iter()
            .map(|(field, problem)| format!("{field}: {problem}"))
            .collect::<Vec<_>>()
            .join("; "),
        other => other.to_string(),
    }
}

/// What the ledger check found, one line per finding, in words an operator can act on: which
/// row, what is stored and what it should be.
fn ledger_findings(check: &LedgerCheck) -> Vec<String> {
    let rupees = |minor: i64| Rupees(Money::from_minor(minor));
    let odds = |hundredths: i64| format!("{}.{:02}", hundredths / 100, hundredths % 100);
    let mut findings = Vec::new();
    if check.total_minor != 0 {
        findings.push(format!("all entries sum to {}, not zero", rupees(check.total_minor)));
    }
    for (account, balance, sum) in &check.mismatched_accounts {
        findings.push(format!(
            "account {account}: balance {}, but its entries sum to {}",
            rupees(*balance),
            rupees(*sum)
        ));
    }
    for transaction in &check.unbalanced_transactions {
        findings.push(format!("transaction {transaction}: its entries do not sum to zero"));
    }
    for account in &check.overdrawn_accounts {
        findings.push(format!("account {account}: overdrawn (its exposure is above its balance)"));
    }
    for (account, exposure, sum) in &check.exposure_mismatches {
        findings.push(format!(
            "account {account}: exposure {}, but its exposures per market sum to {}",
            rupees(*exposure),
            rupees(*sum)
        ));
    }
    for (agent, balance, sum) in &check.share_mismatches {
        findings.push(format!(
            "share account of user {agent}: balance {}, but its partnership splits sum to {}",
            rupees(*balance),
            rupees(*sum)
        ));
    }
    for (user, balance, sum) in &check.cash_mismatches {
        findings.push(format!(
            "cash account of user {user}: balance {}, but its cash settlements sum to {}",
            rupees(*balance),
            rupees(*sum)
        ));
    }
    for m in &check.reserved_exposure_mismatches {
        let effect = if m.reserved_minor < m.worst_case_minor {
            "too little: they can bet money they do not have"
        } else {
            "too much: money of theirs is locked"
        };
        findings.push(format!(
            "user {} ({}), market {}: {} reserved, worst case {} ({effect})",
            m.user_id,
            m.user_name,
            m.market_id,
            rupees(m.reserved_minor),
            rupees(m.worst_case_minor)
        ));
    }
    for c in &check.crossed_books {
        findings.push(format!(
            "market {}, runner {}: a back at {} (bet {}) rests at or below a lay at {} (bet {}); \
             the two should have matched (the market loads suspended: `backlay admin market \
             resolve-crossed {}` cancels the younger of each such pair)",
            c.market_id,
            c.runner_id,
            odds(c.back_price),
            c.back_bet_id,
            odds(c.lay_price),
            c.lay_bet_id,
            c.market_id
        ));
    }
    findings
}

#[cfg(test)]
mod tests {
    use backlay_store::exposure_check::{CrossedBook, ExposureMismatch};

    use super::*;

    #[test]
    fn each_finding_names_its_row_and_both_figures() {
        let check = LedgerCheck {
            exposure_mismatches: vec![(31, 500_00, 400_00)],
            reserved_exposure_mismatches: vec![ExposureMismatch {
                user_id: 12,
                user_name: "wc1".into(),
                market_id: 206,
                reserved_minor: 224_78,
                worst_case_minor: 267_46,
            }],
            crossed_books: vec![CrossedBook {
                market_id: 206,
                runner_id: 31,
                back_price: 197,
                lay_price: 200,
                back_bet_id: 5012,
                lay_bet_id: 5013,
            }],
            ..LedgerCheck::default()
        };
        assert_eq!(
            ledger_findings(&check),
            [
                "account 31: exposure ₹500.00, but its exposures per market sum to ₹400.00",
                "user 12 (wc1), market 206: ₹224.78 reserved, worst case ₹267.46 (too little: \
                 they can bet money they do not have)",
                "market 206, runner 31: a back at 1.97 (bet 5012) rests at or below a lay at 2.00 \
                 (bet 5013); the two should have matched (the market loads suspended: `backlay \
                 admin market resolve-crossed 206` cancels the younger of each such pair)",
            ]
        );
        assert!(ledger_findings(&LedgerCheck::default()).is_empty());
    }
}
