//! The CMF's UF routes as the CMF's API answers them: `{"UFs": [{"Valor": "39.643,59",
//! "Fecha": "2026-11-26"}]}`, the value in es-CL text; `apikey` required; a period with
//! nothing published is a 404 with the CMF's error body.

use super::*;
use chrono::{Datelike, NaiveDate};

#[derive(Deserialize)]
pub(super) struct CmfQuery {
    apikey: Option<String>,
    formato: Option<String>,
}

/// The CMF's error body.
fn cmf_error(status: StatusCode, code: u32, message: &str) -> Response {
    (
        status,
        Json(json!({"CodigoHTTP": status.as_u16(), "CodigoError": code, "Mensaje": message})),
    )
        .into_response()
}

fn today() -> NaiveDate {
    chrono::Local::now().date_naive()
}

/// Checks the request, then answers the values from `from` to `to`.
async fn answer(shared: &Shared, q: &CmfQuery, range: Option<(NaiveDate, NaiveDate)>) -> Response {
    if let Err(r) = gate(shared, Route::Uf).await {
        return r;
    }
    if q.apikey.as_deref() != Some(crate::sandbox::CMF_KEY) {
        return cmf_error(StatusCode::UNAUTHORIZED, 81, "API key inválida.");
    }
    if !q
        .formato
        .as_deref()
        .is_some_and(|f| f.eq_ignore_ascii_case("json"))
    {
        return cmf_error(StatusCode::BAD_REQUEST, 82, "Formato no soportado.");
    }
    let Some((from, to)) = range else {
        return cmf_error(StatusCode::BAD_REQUEST, 83, "Fecha inválida.");
    };
    let values = crate::sandbox::uf::values(from, to, today());
    if values.is_empty() {
        return cmf_error(
            StatusCode::NOT_FOUND,
            80,
            "No existe información para la fecha solicitada.",
        );
    }
    let ufs: Vec<Value> = values
        .into_iter()
        .map(|(d, v)| {
            json!({
                "Valor": money::format_es_cl(v, 2),
                "Fecha": d.format("%Y-%m-%d").to_string(),
            })
        })
        .collect();
    Json(json!({ "UFs": ufs })).into_response()
}

fn month_range(y: i32, m: u32) -> Option<(NaiveDate, NaiveDate)> {
    let first = NaiveDate::from_ymd_opt(y, m, 1)?;
    let last = first
        .checked_add_months(chrono::Months::new(1))?
        .pred_opt()?;
    Some((first, last))
}

pub(super) async fn cmf_today(
    State(shared): State<Shared_>,
    Query(q): Query<CmfQuery>,
) -> Response {
    let t = today();
    answer(&shared, &q, Some((t, t))).await
}

pub(super) async fn cmf_year(
    State(shared): State<Shared_>,
    Path(y): Path<i32>,
    Query(q): Query<CmfQuery>,
) -> Response {
    let range = NaiveDate::from_ymd_opt(y, 1, 1).zip(NaiveDate::from_ymd_opt(y, 12, 31));
    answer(&shared, &q, range).await
}

pub(super) async fn cmf_month(
    State(shared): State<Shared_>,
    Path((y, m)): Path<(i32, u32)>,
    Query(q): Query<CmfQuery>,
) -> Response {
    answer(&shared, &q, month_range(y, m)).await
}

pub(super) async fn cmf_day(
    State(shared): State<Shared_>,
    Path((y, m, d)): Path<(i32, u32, u32)>,
    Query(q): Query<CmfQuery>,
) -> Response {
    let day = NaiveDate::from_ymd_opt(y, m, d);
    answer(&shared, &q, day.map(|d| (d, d))).await
}

pub(super) async fn cmf_period(
    State(shared): State<Shared_>,
    Path((y1, m1, y2, m2)): Path<(i32, u32, i32, u32)>,
    Query(q): Query<CmfQuery>,
) -> Response {
    let range = month_range(y1, m1)
        .zip(month_range(y2, m2))
        .map(|(a, b)| (a.0, b.1))
        .filter(|(a, b)| a <= b && b.year() - a.year() <= 10);
    answer(&shared, &q, range).await
}
