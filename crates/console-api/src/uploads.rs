//! `admin/upload/image` (admin only): the operator's logo or favicon, sent as the raw bytes of
//! the file, checked and stored by [`backlay_kit::uploads`] and served at `/upload/image/<name>`.
//! This call alone takes a body of up to [`MAX_IMAGE_BYTES`]; every other API call keeps the
//! 64 KiB bound.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::error::{ok_with, ApiResult, AppError, Envelope};
use backlay_kit::uploads::{image_url, is_stored_name, upload_image, MAX_IMAGE_BYTES};
use backlay_operator::session::{ClientIp, Operator};
use backlay_operator::AppState;
use backlay_operator::{Actor, OperatorContext};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(upload)).layer(DefaultBodyLimit::max(MAX_IMAGE_BYTES))
}

#[derive(Serialize, ToSchema)]
pub struct UploadedImageItem {
    /// The name it is stored and served under (made safe; the extension follows the type).
    pub name: String,
    /// `/upload/image/<name>`.
    pub url: String,
}

/// Stores an image (PNG, JPEG, GIF, WebP or ICO, recognised by its bytes, at most 512 KiB)
/// under a safe form of `name`, replacing one of that name. Set the `logo` or `favicon`
/// setting to the answer's `name` to use it.
#[utoipa::path(post, path = "/admin/upload/image", tag = "admin", security(("bearer" = [])),
    params(("name" = String, Query, description = "The file's name, e.g. logo.png (made safe)")),
    request_body(content = Vec<u8>, content_type = "application/octet-stream", description = "The image file's bytes"),
    responses((status = 200, body = Envelope<UploadedImageItem>),
        (status = 400, description = "Not an image of a type taken, empty, or no usable name"),
        (status = 401), (status = 403, description = "Not an admin"),
        (status = 413, description = "Over 512 KiB")))]
async fn upload(
    State(state): State<AppState>,
    Operator(authed): Operator,
    ClientIp(ip): ClientIp,
    Query(query): Query<HashMap<String, String>>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> ApiResult<UploadedImageItem> {
    let bytes = body.map_err(|rejection| {
        if rejection.into_response().status() == StatusCode::PAYLOAD_TOO_LARGE {
            AppError::PayloadTooLarge(format!(
                "An image may be at most {} KiB.",
                MAX_IMAGE_BYTES / 1024
            ))
        } else {
            AppError::invalid("The file could not be read.")
        }
    })?;
    let name = query.get("name").map(String::as_str).unwrap_or_default();
    if name.trim().is_empty() {
        return Err(AppError::field("name", "Give the file's name, e.g. ?name=logo.png."));
    }
    let ctx =
        OperatorContext { store: &state.store, actor: Actor::User(authed.user), client_ip: ip };
    let stored = upload_image(&ctx, name, &bytes).await?;
    Ok(ok_with(
        format!("Stored as {stored}: set the logo or favicon setting to {stored} to use it."),
        UploadedImageItem { url: image_url(&stored), name: stored },
    ))
}

/// `GET /upload/image/<name>`.
pub fn image_routes(state: AppState) -> Router {
    Router::new().route("/upload/image/{name}", get(serve_image)).with_state(state)
}

async fn serve_image(State(state): State<AppState>, Path(name): Path<String>) -> Response {
    let not_found = || (StatusCode::NOT_FOUND, "No such image.").into_response();
    if !is_stored_name(&name) {
        return not_found();
    }
    match state.store.uploaded_image(&name).await {
        Ok(Some(image)) => {
            let content_type = HeaderValue::from_str(&image.content_type)
                .unwrap_or(HeaderValue::from_static("application/octet-stream"));
            (
                [
                    (header::CONTENT_TYPE, content_type),
                    (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
                    (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
                    (
                        header::CONTENT_SECURITY_POLICY,
                        HeaderValue::from_static("default-src 'none'"),
                    ),
                ],
                image.bytes,
            )
                .into_response()
        }
        Ok(None) => not_found(),
        Err(err) => {
            tracing::error!(error = %err, "reading an uploaded image failed");
            (StatusCode::SERVICE_UNAVAILABLE, "The image cannot be read now.").into_response()
        }
    }
}
