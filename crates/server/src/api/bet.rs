//! Bets and exposure. For now `bet/getExposureDetail`; placing bets arrives with the exchange.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::error::{ok, ApiResult, Envelope};
use crate::session::CurrentUser;
use crate::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_exposure_detail))
}

#[derive(Serialize, ToSchema)]
pub struct MarketExposure {
    pub sub_type: String,
    pub bet_count: i64,
    #[schema(value_type = f64)]
    pub exposure: backlay_core::money::Money,
}

#[derive(Serialize, ToSchema)]
pub struct ExposureRow {
    pub sport_name: String,
    pub match_name: String,
    pub match_id: i64,
    pub market_details: Vec<MarketExposure>,
}

/// The spec's client reads `data.data`.
#[derive(Serialize, ToSchema)]
pub struct ExposureDetail {
    pub data: Vec<ExposureRow>,
}

/// Open markets where the caller has exposure, per match. Empty until the caller has bets.
#[utoipa::path(get, path = "/bet/getExposureDetail", tag = "bet", security(("bearer" = [])),
    responses((status = 200, body = Envelope<ExposureDetail>), (status = 401)))]
async fn get_exposure_detail(State(_state): State<AppState>, _user: CurrentUser) -> ApiResult<ExposureDetail> {
    // No market takes bets yet, so nobody has exposure; the exchange fills this from stored bets.
    Ok(ok(ExposureDetail { data: Vec::new() }))
}
