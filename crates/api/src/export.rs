//! Downloads as CSV: a list or report a bettor or an operator reads answers the same call with
//! `"format": "csv"` as `text/csv`, with the same filters, every page of it.
//!
//! What a download holds:
//! - a header row, then one row per row of the list, in the list's order;
//! - money in rupees with two decimals and no grouping (`-1250.50`), so that a spreadsheet reads
//!   a number; times in ISO-8601 UTC (`2026-11-27T10:15:00.000Z`);
//! - a text cell that a spreadsheet would take for a formula (one starting with `=`, `+`, `-`,
//!   `@`, a tab or a carriage return) starts with a `'` instead (OWASP, "CSV injection"). Only text
//!   is made safe: a number or a time is written here, so `-100.00` stays the number it is.
//!
//! The rows are read page by page with the list's own query ([`EXPORT_PAGE_ROWS`] at a time) as
//! the client reads the body, so a long statement is never held in memory whole and a slow
//! reader slows the reads; at most [`MAX_EXPORT_ROWS`] rows, after which a last row says the
//! download was cut short and to narrow the filters. The first page is read before anything is
//! sent, so a bad filter is the usual 400 with its field. Pages are read by offset, as the
//! screens read them: a row added while a long download runs can shift a later page by a row.
//!
//! Example: `report/accountStatement {"from_date": "2026-11-01", "format": "csv"}` →
//! ```text
//! date,description,credit,debit,balance,remark,kind,market_id
//! 2026-11-27T10:15:00.000Z,Kings v Riders / Bookmaker: won,40.00,0.00,5040.00,,settlement,12
//! ```

use std::future::Future;

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use backlay_core::money::Money;
use futures::StreamExt as _;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use utoipa::ToSchema;

use backlay_kit::clock::{iso_utc, now_ms};
use backlay_kit::error::{ok, AppError};
use backlay_kit::input::{choice_field, parse_json, PageRequest, Paged};

/// Rows read per query while a download is written (the most a page may hold).
pub const EXPORT_PAGE_ROWS: i64 = backlay_kit::input::MAX_PAGE_LIMIT;
/// The most rows one download holds.
pub const MAX_EXPORT_ROWS: i64 = 100_000;

backlay_core::named_enum! {
    /// How a list answers: the usual JSON envelope with one page, or every page as CSV.
    pub enum ExportFormat as "format" {
        Json = "json",
        Csv = "csv",
    }
}

/// The `format` field beside a request's own fields.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
pub struct FormatField {
    /// json (default): one page in the envelope; csv: every page as a `text/csv` download.
    #[serde(default)]
    #[schema(value_type = Option<ExportFormat>)]
    pub format: Option<String>,
}

impl FormatField {
    pub fn parse(&self) -> Result<ExportFormat, AppError> {
        choice_field("format", self.format.as_deref(), ExportFormat::Json, |text| {
            format!("{text} is not a format: use json or csv.")
        })
    }
}

/// One cell: text (made safe for spreadsheets) or a figure written here (money, a count, a time).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    Text(String),
    Figure(String),
}

impl Cell {
    pub fn text(text: impl Into<String>) -> Cell {
        Cell::Text(text.into())
    }

    pub fn money(money: Money) -> Cell {
        Cell::Figure(money.to_string())
    }

    pub fn int(value: i64) -> Cell {
        Cell::Figure(value.to_string())
    }

    /// A number or an empty cell.
    pub fn opt_int(value: Option<i64>) -> Cell {
        Cell::Figure(value.map(|v| v.to_string()).unwrap_or_default())
    }

    /// A time in ms since the epoch, as ISO-8601 UTC.
    pub fn time_ms(epoch_ms: i64) -> Cell {
        Cell::Figure(iso_utc(epoch_ms))
    }

    /// What the file holds: text a spreadsheet would evaluate gets a leading `'`.
    fn written(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Cell::Figure(figure) => figure.into(),
            Cell::Text(text) if text.starts_with(['=', '+', '-', '@', '\t', '\r']) => {
                format!("'{text}").into()
            }
            Cell::Text(text) => text.into(),
        }
    }
}

/// A row of a list that can be downloaded: its header (the same for every row) and its cells.
pub trait CsvRow {
    const HEADER: &'static [&'static str];
    fn cells(&self) -> Vec<Cell>;
}

/// A row's cells, as many as its header names (a row of another width is a bug here, never
/// the caller's: the download would fail half-written).
fn row_cells<T: CsvRow>(row: &T) -> Vec<Cell> {
    let cells = row.cells();
    debug_assert_eq!(cells.len(), T::HEADER.len(), "a CSV row has as many cells as its header");
    cells
}

/// Rows as CSV text (quoted where a cell needs it, lines ending in CRLF as RFC 4180 says).
fn csv_text<'a>(rows: impl IntoIterator<Item = Vec<Cell>> + 'a) -> Result<Vec<u8>, csv::Error> {
    let mut writer =
        csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).from_writer(Vec::new());
    for row in rows {
        writer.write_record(row.iter().map(|cell| cell.written().into_owned()))?;
    }
    writer.into_inner().map_err(|err| csv::Error::from(err.into_error()))
}

fn csv_failed(err: csv::Error) -> AppError {
    AppError::Internal(anyhow::anyhow!("cannot write a CSV row: {err}"))
}

/// A list's answer in the format asked for: `page` of it in the JSON envelope, or every page as
/// a CSV download named `<file_stem>-<today>.csv`. `fetch` reads one page of the list with the
/// request's filters, as the JSON answer does.
pub async fn list_answer<T, F, Fut>(
    format: ExportFormat,
    page: PageRequest,
    file_stem: &'static str,
    fetch: F,
) -> Result<Response, AppError>
where
    T: CsvRow + Serialize + Send + 'static,
    F: Fn(PageRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Paged<T>, AppError>> + Send + 'static,
{
    match format {
        ExportFormat::Json => Ok(ok(fetch(page).await?).into_response()),
        ExportFormat::Csv => csv_download(file_stem, fetch).await,
    }
}

/// A report that is one list (not paged): the JSON answer as it is, or its rows as CSV.
pub fn report_answer<R: Serialize, T: CsvRow>(
    format: ExportFormat,
    file_stem: &'static str,
    report: R,
    rows: impl FnOnce(&R) -> Vec<&T>,
) -> Result<Response, AppError> {
    match format {
        ExportFormat::Json => Ok(ok(report).into_response()),
        ExportFormat::Csv => {
            let header = std::iter::once(T::HEADER.iter().map(|h| Cell::text(*h)).collect());
            let body = csv_text(header.chain(rows(&report).into_iter().map(row_cells)))
                .map_err(csv_failed)?;
            Ok(csv_response(file_stem, Body::from(body)))
        }
    }
}

fn page_at(page: i64) -> PageRequest {
    PageRequest {
        page: Some(backlay_kit::input::FlexI64(page)),
        limit: Some(backlay_kit::input::FlexI64(EXPORT_PAGE_ROWS)),
    }
}

fn csv_response(file_stem: &str, body: Body) -> Response {
    let today = iso_utc(now_ms());
    let day = today.get(..10).unwrap_or("today");
    let disposition = format!("attachment; filename=\"{file_stem}-{day}.csv\"");
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8"));
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    response
}

/// Where a download is: the pages still to read.
struct Pages<F> {
    fetch: F,
    next_page: i64,
    written: i64,
    total: i64,
}

/// Every page of a list as one CSV body, read as the body is sent.
async fn csv_download<T, F, Fut>(file_stem: &'static str, fetch: F) -> Result<Response, AppError>
where
    T: CsvRow + Send + 'static,
    F: Fn(PageRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Paged<T>, AppError>> + Send + 'static,
{
    // The first page before anything is sent: a bad filter is a 400 naming its field.
    let first = fetch(page_at(1)).await?;
    let header = T::HEADER.iter().map(|h| Cell::text(*h)).collect::<Vec<_>>();
    let written = i64::try_from(first.rows.len()).unwrap_or(i64::MAX);
    let head = csv_text(std::iter::once(header).chain(first.rows.iter().map(row_cells)))
        .map_err(csv_failed)?;
    let pages = Pages { fetch, next_page: 2, written, total: first.total };
    let rest = futures::stream::try_unfold(pages, |mut pages| async move {
        let wanted = pages.total.min(MAX_EXPORT_ROWS);
        if pages.written >= wanted {
            if pages.total > MAX_EXPORT_ROWS && pages.next_page > 0 {
                // Said once, as the last row.
                pages.next_page = 0;
                let note = vec![Cell::text(format!(
                    "(cut short: the list has {} rows and a download holds at most {MAX_EXPORT_ROWS}; narrow the filters)",
                    pages.total
                ))];
                let bytes = csv_text([note]).map_err(std::io::Error::other)?;
                return Ok(Some((Bytes::from(bytes), pages)));
            }
            return Ok(None);
        }
        let page = (pages.fetch)(page_at(pages.next_page)).await.map_err(|err| {
            tracing::error!(error = %err, "a CSV download stopped: a page could not be read");
            std::io::Error::other(err.to_string())
        })?;
        if page.rows.is_empty() {
            // The list shrank while it was read.
            return Ok(None);
        }
        pages.next_page += 1;
        let room = usize::try_from(wanted - pages.written).unwrap_or(0);
        let rows: Vec<_> = page.rows.iter().take(room).map(row_cells).collect();
        pages.written += i64::try_from(rows.len()).unwrap_or(i64::MAX);
        let bytes = csv_text(rows).map_err(std::io::Error::other)?;
        Ok::<_, std::io::Error>(Some((Bytes::from(bytes), pages)))
    });
    let body = futures::stream::once(async move { Ok::<_, std::io::Error>(Bytes::from(head)) })
        .chain(rest);
    Ok(csv_response(file_stem, Body::from_stream(body)))
}

/// A list request that can be downloaded: its own fields, `page` and `limit`, and `format`.
//
// Read as [`backlay_kit::input::Paging`] reads one: the body parsed once per part, each ignoring the
// others' fields, so that an error names its field.
#[derive(Debug, ToSchema)]
pub struct Downloadable<F> {
    #[serde(flatten)]
    pub request: F,
    #[serde(flatten)]
    pub page: PageRequest,
    #[serde(flatten)]
    pub format: FormatField,
}

impl<S: Send + Sync, F: DeserializeOwned> axum::extract::FromRequest<S> for Downloadable<F> {
    type Rejection = AppError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, AppError> {
        let bytes = backlay_kit::input::read_body(req, state).await?;
        let text = backlay_kit::input::json_text(&bytes);
        Ok(Downloadable {
            request: parse_json(text)?,
            page: parse_json(text)?,
            format: parse_json(text)?,
        })
    }
}

/// A report that can be downloaded (one list, not paged): its own fields and `format`.
#[derive(Debug, ToSchema)]
pub struct DownloadableReport<F> {
    #[serde(flatten)]
    pub request: F,
    #[serde(flatten)]
    pub format: FormatField,
}

impl<S: Send + Sync, F: DeserializeOwned> axum::extract::FromRequest<S> for DownloadableReport<F> {
    type Rejection = AppError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, AppError> {
        let bytes = backlay_kit::input::read_body(req, state).await?;
        let text = backlay_kit::input::json_text(&bytes);
        Ok(DownloadableReport { request: parse_json(text)?, format: parse_json(text)? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_a_spreadsheet_would_evaluate_is_made_safe_and_figures_are_not() {
        let rows = vec![vec![
            Cell::text("=HYPERLINK(\"http://x\")"),
            Cell::text("+1"),
            Cell::text("-2+3"),
            Cell::text("@SUM(A1)"),
            Cell::text("\tx"),
            Cell::text("plain, with a comma"),
            Cell::money(Money::from_minor(-125_050)),
            Cell::int(-3),
            Cell::opt_int(None),
        ]];
        let text = String::from_utf8(csv_text(rows).unwrap()).unwrap();
        assert_eq!(
            text,
            "\"'=HYPERLINK(\"\"http://x\"\")\",'+1,'-2+3,'@SUM(A1),'\tx,\"plain, with a comma\",-1250.50,-3,\r\n"
        );
    }
}
