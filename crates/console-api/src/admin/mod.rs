//! Operator calls under `/api/admin/…` (role admin; agents only over their own clients). Each
//! handler parses its body and hands over to [`backlay_operator`], which holds the rules and is
//! shared with the `backlay admin` command. One file per part of the operator's work.

mod accounts;
mod catalogue;
mod checks;
mod feed;
mod site;

use backlay_operator::AppState;
use utoipa_axum::router::OpenApiRouter;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(accounts::routes())
        .merge(site::routes())
        .merge(catalogue::routes())
        .merge(checks::routes())
        .merge(feed::routes())
}
