//! What the CLI prints: invoices as text or JSON, and `list`'s output held in a
//! temporary file until the listing is complete. Service text is always escaped.

use super::ListFormat;
use crate::api::Invoice;
use crate::export::Dialect;
use crate::text::{escape_controls, escape_json_for_terminal};
use std::io::Write;

pub(super) fn print_invoice(inv: &Invoice, json: bool) {
    if json {
        let text = serde_json::to_string_pretty(&inv.to_json()).unwrap_or_default();
        say!("{}", escape_json_for_terminal(&text));
        return;
    }
    let e = |s: &str| escape_controls(s).into_owned();
    say!(
        "{}",
        crate::tr!(
            "cli-invoice",
            id = e(&inv.id),
            status = crate::i18n::status_kind(inv.status().into())
        )
    );
    // As the app's invoice card: known fields by their names in the clerk's language
    // and values as the clerk reads them; the others as the service named them.
    let mut lines: Vec<(String, String)> = Vec::new();
    for (i, f) in crate::api::model::KNOWN_FIELDS.iter().enumerate() {
        let Some(v) = inv.known(i) else { continue };
        if matches!(f.name, "id" | "is_paid" | "is_void" | "status") {
            continue; // said in the first line
        }
        if let crate::api::model::Known::Json(j) = &v
            && j.as_object().is_some_and(|o| o.is_empty())
        {
            continue; // no metadata
        }
        let value = match (f.name, &v) {
            ("currency_code", _) => inv.currency_code.as_deref().map(e).unwrap_or_default(),
            _ => crate::i18n::known_value(inv, f.name, v),
        };
        lines.push((crate::i18n::field_name(f.name), value));
    }
    if inv.currency_code.is_none() {
        lines.push((
            crate::i18n::field_name("currency_code"),
            crate::tr!("cli-currency-missing"),
        ));
    }
    for (k, v) in &inv.extra {
        match v.as_str() {
            Some(t) if k == "created_at" && chrono::DateTime::parse_from_rfc3339(t).is_ok() => {
                lines.push((crate::tr!("field-created-at"), crate::i18n::moment(t)));
            }
            _ => lines.push((e(k), e(&crate::api::model::value_text(v)))),
        }
    }
    let width = lines
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    for (k, v) in lines {
        let pad = width - k.chars().count();
        say!("  {k}:{} {v}", " ".repeat(pad));
    }
}

/// Where `list` puts rows until the listing is complete: a temporary file (or, for CSV,
/// the streamed export), so memory does not grow with the listing and nothing is
/// printed when it fails half way.
pub(super) enum ListSink {
    Csv(Box<crate::export::StreamingCsv>),
    Text {
        format: ListFormat,
        spool: std::io::BufWriter<std::fs::File>,
        rows: u64,
    },
}

impl ListSink {
    pub(super) fn new(format: ListFormat) -> std::io::Result<ListSink> {
        Ok(match format {
            // `list` is for reading (control characters escaped); `export` writes the
            // exact data to a file.
            ListFormat::Csv => ListSink::Csv(Box::new(
                crate::export::StreamingCsv::new(Dialect::Standard)?.escaping_controls(true),
            )),
            other => ListSink::Text {
                format: other,
                spool: std::io::BufWriter::new(tempfile::tempfile()?),
                rows: 0,
            },
        })
    }

    pub(super) fn push(&mut self, inv: &Invoice) -> std::io::Result<()> {
        match self {
            ListSink::Csv(csv) => csv.push(inv),
            ListSink::Text {
                format,
                spool,
                rows,
            } => {
                if *format == ListFormat::Json {
                    // Pretty-printed as one array, as serde_json would print it whole.
                    let text = serde_json::to_string_pretty(&inv.to_json())
                        .map_err(std::io::Error::other)?;
                    let text = escape_json_for_terminal(&text);
                    spool.write_all(if *rows == 0 { b"\n" } else { b",\n" })?;
                    for (i, line) in text.lines().enumerate() {
                        if i > 0 {
                            spool.write_all(b"\n")?;
                        }
                        spool.write_all(b"  ")?;
                        spool.write_all(line.as_bytes())?;
                    }
                } else {
                    table_row(spool, inv)?;
                }
                *rows += 1;
                Ok(())
            }
        }
    }

    pub(super) fn finish(self, out: &mut impl Write) -> std::io::Result<u64> {
        use std::io::Seek;
        match self {
            ListSink::Csv(csv) => csv.finish(out, &std::sync::atomic::AtomicBool::new(false)),
            ListSink::Text {
                format,
                spool,
                rows,
            } => {
                let mut file = spool.into_inner().map_err(|e| e.into_error())?;
                file.seek(std::io::SeekFrom::Start(0))?;
                if format == ListFormat::Json {
                    out.write_all(b"[")?;
                    std::io::copy(&mut file, out)?;
                    out.write_all(if rows == 0 { b"]\n" } else { b"\n]\n" })?;
                } else {
                    writeln!(
                        out,
                        "{:<22} {:<10} {:>18} {:<4} {:<7} EXTERNAL REFERENCE",
                        "ID", "DUE", "AMOUNT", "CUR", "STATUS"
                    )?;
                    std::io::copy(&mut file, out)?;
                }
                out.flush()?;
                Ok(rows)
            }
        }
    }
}

fn table_row(out: &mut impl Write, i: &Invoice) -> std::io::Result<()> {
    let e = |s: &str| escape_controls(s).into_owned();
    writeln!(
        out,
        "{:<22} {:<10} {:>18} {:<4} {:<7} {}",
        e(&i.id),
        e(i.due_date.as_deref().unwrap_or("-")),
        e(&i.amount_display()),
        e(i.currency_code.as_deref().unwrap_or("?")),
        i.status().as_str(),
        e(i.invoice_external_id.as_deref().unwrap_or(""))
    )
}

/// "The shared journal has not answered since 10:42:13; trying again (nothing is sent
/// meanwhile)…", as a billing run and an e-mail run say it when the wait begins.
pub(super) fn journal_down(since: chrono::DateTime<chrono::Utc>) -> String {
    crate::tr!(
        "cli-journal-down",
        time = since.with_timezone(&chrono::Local).format("%H:%M:%S")
    )
}
