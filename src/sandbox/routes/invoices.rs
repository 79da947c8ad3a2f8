//! The invoice API: create (with the interface's validation), get, void, list.

use super::*;

pub(super) async fn create(
    State(shared): State<Shared_>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    // Answered until its answer goes (or its client is gone).
    let counted = shared.clone();
    let _answering = counted.answering();
    shared.note_received(&body);
    detached(&shared.clone(), async move {
        create_now(shared, headers, body).await
    })
    .await
}

async fn create_now(shared: Shared_, headers: HeaderMap, body: Bytes) -> Response {
    let (after, org) = match admit(&shared, Route::Create, &headers).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let response = match create_invoice(&shared, &org, &headers, &body) {
        Ok(v) => json_bytes(StatusCode::CREATED, v),
        Err(r) => r,
    };
    finish(after, response).await
}

pub(super) fn create_invoice(
    shared: &Shared,
    org: &str,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<Vec<u8>, Response> {
    let Ok(Value::Object(mut fields)) = serde_json::from_slice::<Value>(body) else {
        return Err(invalid(vec![(
            &["body"],
            "body must be a JSON object".into(),
            "type_error.dict",
        )]));
    };
    let account_key = headers
        .get("x-account-key")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .unwrap_or("");
    if account_key.is_empty() {
        return Err(invalid(vec![(
            &["header", "x-account-key"],
            "field required".into(),
            "value_error.missing",
        )]));
    }
    let mut data = shared.data.lock().map_err(|_| {
        error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "TK00000",
            "internal error",
        )
    })?;
    let account = match data.account(account_key) {
        Some(a) if a.org == org => a.clone(),
        _ => return Err(error(StatusCode::NOT_FOUND, "TK20100", "account not found")),
    };
    let new = asked(&mut fields, account.currency, &shared.currencies).map_err(invalid)?;
    if data.customer(&new.customer).is_none() {
        return Err(error(
            StatusCode::NOT_FOUND,
            "TK20400",
            "customer not found",
        ));
    }
    let id = data.new_invoice_id();
    let inv = StoredInvoice {
        link_payment: format!("https://pay.sandbox.invalid/{id}"),
        id,
        org: org.to_string(),
        account: account.key.clone(),
        customer: new.customer,
        product_id: new.product_id,
        due_date: new.due_date,
        amount: new.amount,
        currency_code: new.currency,
        is_paid: false,
        is_void: false,
        invoice_external_id: new.external,
        metadata: new.metadata,
        created_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        extra: fields,
    };
    let mut json = Vec::with_capacity(512);
    inv.write_json(&mut json);
    data.push(inv);
    persist(shared, &mut data, |d| {
        if let Some(inv) = d.invoices.pop() {
            d.by_id.remove(&inv.id);
            if let Some(list) = d.by_customer.get_mut(&inv.customer) {
                list.pop();
            }
        }
    })?;
    Ok(json)
}

/// A new invoice's fields, checked as the service checks them.
struct Asked {
    amount: rust_decimal::Decimal,
    currency: Currency,
    customer: String,
    product_id: Option<String>,
    due_date: Option<String>,
    external: Option<String>,
    metadata: Option<Map<String, Value>>,
}

/// One of the service's validation details: where, what, its type.
type Detail = (&'static [&'static str], String, &'static str);

/// Takes a new invoice's fields out of `fields` (what is left is kept as sent), checked
/// as the interface says: every problem at once, as the service lists them. `default`
/// is the account's currency; `accepted` those the service takes.
fn asked(
    fields: &mut Map<String, Value>,
    default: Currency,
    accepted: &[Currency],
) -> Result<Asked, Vec<Detail>> {
    let mut problems: Vec<Detail> = Vec::new();
    // Rules 1–3 of the interface: explicit currency_code wins, absent means the account's.
    let currency = match fields.shift_remove("currency_code") {
        None => Some(default),
        Some(Value::String(s))
            if Currency::from_code(&s).is_some_and(|c| c.code() == s && accepted.contains(&c)) =>
        {
            Currency::from_code(&s)
        }
        Some(_) => {
            let codes: Vec<&str> = accepted.iter().map(|c| c.code()).collect();
            problems.push((
                &["body", "currency_code"],
                format!("currency_code must be one of {}", codes.join(", ")),
                "value_error.const",
            ));
            None
        }
    };
    let amount = match fields.shift_remove("amount") {
        None | Some(Value::Null) => {
            problems.push((
                &["body", "amount"],
                "field required".into(),
                "value_error.missing",
            ));
            None
        }
        Some(v @ Value::Number(_)) => match money::from_json(&v) {
            Some(a) if a > rust_decimal::Decimal::ZERO => Some(a),
            _ => {
                problems.push((
                    &["body", "amount"],
                    "amount must be greater than zero".into(),
                    "value_error.number",
                ));
                None
            }
        },
        Some(_) => {
            problems.push((
                &["body", "amount"],
                "amount must be a number".into(),
                "type_error.number",
            ));
            None
        }
    };
    if let (Some(a), Some(c)) = (amount, currency)
        && a.normalize().scale() > c.minor_units()
    {
        let msg = match c.minor_units() {
            0 if c == Currency::CLP => "CLP amounts must be whole pesos".to_string(),
            0 => format!("{c} amounts cannot have decimals"),
            n => format!("{c} amounts can have at most {n} decimals"),
        };
        problems.push((&["body", "amount"], msg, "value_error.decimal"));
    }
    let customer = match fields.shift_remove("customer") {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s),
        None => {
            problems.push((
                &["body", "customer"],
                "field required".into(),
                "value_error.missing",
            ));
            None
        }
        Some(_) => {
            problems.push((
                &["body", "customer"],
                "customer must be a string".into(),
                "type_error.str",
            ));
            None
        }
    };
    let product_id = text_field(fields, "product_id", &mut problems);
    let due_date = text_field(fields, "due_date", &mut problems);
    if let Some(d) = &due_date
        && chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").is_err()
    {
        problems.push((
            &["body", "due_date"],
            "due_date must be a date YYYY-MM-DD".into(),
            "value_error.date",
        ));
    }
    let external = text_field(fields, "invoice_external_id", &mut problems);
    let metadata = match fields.shift_remove("metadata") {
        None | Some(Value::Null) => None,
        Some(Value::Object(m)) => {
            if m.values()
                .any(|v| crate::api::model::value_text(v).chars().count() > 256)
            {
                problems.push((
                    &["body", "metadata"],
                    "metadata values are limited to 256 characters".into(),
                    "value_error.any_str.max_length",
                ));
            }
            Some(m)
        }
        Some(_) => {
            problems.push((
                &["body", "metadata"],
                "metadata must be an object".into(),
                "type_error.dict",
            ));
            None
        }
    };
    for reserved in ["id", "is_paid", "is_void", "link_payment", "created_at"] {
        fields.shift_remove(reserved);
    }
    match (amount, currency, customer) {
        (Some(amount), Some(currency), Some(customer)) if problems.is_empty() => Ok(Asked {
            amount,
            currency,
            customer,
            product_id,
            due_date,
            external,
            metadata,
        }),
        _ => Err(problems),
    }
}

/// An optional text field of a new invoice (`product_id`, `due_date`,
/// `invoice_external_id`), taken out of `fields`.
fn text_field(
    fields: &mut Map<String, Value>,
    key: &'static str,
    problems: &mut Vec<Detail>,
) -> Option<String> {
    match fields.shift_remove(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(_) => {
            let loc: &'static [&'static str] = match key {
                "product_id" => &["body", "product_id"],
                "due_date" => &["body", "due_date"],
                _ => &["body", "invoice_external_id"],
            };
            problems.push((loc, format!("{key} must be a string"), "type_error.str"));
            None
        }
    }
}

pub(super) async fn get_invoice(
    State(shared): State<Shared_>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let (after, org) = match admit(&shared, Route::Get, &headers).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let response = {
        let Ok(d) = shared.data.lock() else {
            return error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "TK00000",
                "internal error",
            );
        };
        match d.locate(&id) {
            Some(loc) if d.org_of(loc) == org => {
                let mut out = Vec::with_capacity(512);
                d.write_invoice(loc, &mut Scratch::default(), &mut out);
                json_bytes(StatusCode::OK, out)
            }
            _ => error(StatusCode::NOT_FOUND, "TK20600", "invoice not found"),
        }
    };
    finish(after, response).await
}

pub(super) async fn void(
    State(shared): State<Shared_>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    detached(&shared.clone(), async move {
        void_now(shared, headers, id).await
    })
    .await
}

async fn void_now(shared: Shared_, headers: HeaderMap, id: String) -> Response {
    let (after, org) = match admit(&shared, Route::Void, &headers).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let response = (|| {
        let mut d = shared.data.lock().map_err(|_| {
            error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "TK00000",
                "internal error",
            )
        })?;
        let loc = match d.locate(&id) {
            Some(loc) if d.org_of(loc) == org => loc,
            _ => return Err(error(StatusCode::NOT_FOUND, "TK20600", "invoice not found")),
        };
        let (is_paid, is_void) = d.paid_void(loc);
        if is_void {
            return Err(error(
                StatusCode::CONFLICT,
                "TK10601",
                "invoice is already void",
            ));
        }
        if is_paid {
            return Err(error(
                StatusCode::CONFLICT,
                "TK10602",
                "a paid invoice cannot be voided",
            ));
        }
        d.set_void(loc, true);
        persist(&shared, &mut d, |d| d.set_void(loc, false))?;
        let mut out = Vec::with_capacity(512);
        d.write_invoice(loc, &mut Scratch::default(), &mut out);
        Ok(json_bytes(StatusCode::OK, out))
    })()
    .unwrap_or_else(|r| r);
    finish(after, response).await
}

pub(super) async fn list(
    State(shared): State<Shared_>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let (after, org) = match admit(&shared, Route::List, &headers).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let page_size = match q.get("page_size").map(|s| s.parse::<usize>()) {
        None => 100,
        Some(Ok(n)) if n >= 1 => n.min(shared.max_page_size),
        Some(_) => {
            return invalid(vec![(
                &["query", "page_size"],
                "page_size must be a whole number from 1".into(),
                "value_error.number",
            )]);
        }
    };
    let start = match q.get("cursor").filter(|c| !c.is_empty()) {
        None => 0,
        Some(c) => match decode_cursor(c) {
            Some(n) => n,
            None => {
                return invalid(vec![(
                    &["query", "cursor"],
                    "cursor is not valid".into(),
                    "value_error",
                )]);
            }
        },
    };
    let response = (|| {
        let Ok(d) = shared.data.lock() else {
            return error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "TK00000",
                "internal error",
            );
        };
        if d.customer(&id).is_none() {
            return error(StatusCode::NOT_FOUND, "TK20400", "customer not found");
        }
        // Written straight into the response: no JSON tree per invoice.
        let mut out = Vec::with_capacity(64 + 400 * page_size.min(1000));
        out.extend_from_slice(b"{\"items\":[");
        let next = d.write_page(&id, &org, start, page_size, &mut out);
        out.extend_from_slice(b"],\"next_cursor\":");
        match next {
            Some(pos) => out.extend_from_slice(format!("\"{}\"", encode_cursor(pos)).as_bytes()),
            None => out.extend_from_slice(b"null"),
        }
        out.push(b'}');
        json_bytes(StatusCode::OK, out)
    })();
    finish(after, response).await
}

pub(super) fn encode_cursor(pos: usize) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("pos:{pos}"))
}

pub(super) fn decode_cursor(c: &str) -> Option<usize> {
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(c)
        .ok()?;
    String::from_utf8(bytes)
        .ok()?
        .strip_prefix("pos:")?
        .parse()
        .ok()
}
