//! The operator's web API: the console's reads (`/console/…`: downline accounts, their
//! statements, bets and P&L, the dashboard and the server's own figures, the partnership
//! report), the operator's actions (`/admin/…`: accounts, chips, settings, the catalogue,
//! markets and their results, the casino, payment details, uploaded images) and the trading
//! desk. Served inside the web API's `/api`
//! (`backlay_api::router` is given [`routes`]), with its layers and its OpenAPI document.
//!
//! Above `backlay_api`, whose shapes (bets, reports, exports) the console reuses.

pub mod admin;
pub mod admin_casino;
pub mod console;
pub mod dashboard;
pub mod desk;
pub mod market;
pub mod partnership_report;
pub mod payee;
mod safer;
pub mod system;
pub mod uploads;

use backlay_operator::AppState;
use utoipa_axum::router::OpenApiRouter;

/// Every route of the console, the operator's actions and the desk, to nest under `/api`.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(admin::routes())
        .merge(admin_casino::routes())
        .merge(console::routes())
        .merge(partnership_report::routes())
        .merge(dashboard::routes())
        .merge(system::routes())
        .merge(market::routes())
        .merge(desk::routes())
        .merge(payee::routes())
        .merge(safer::routes())
        .merge(uploads::routes())
}
