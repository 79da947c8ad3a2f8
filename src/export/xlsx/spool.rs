//! A workbook's rows spooled to an unnamed temporary file as a listing's pages arrive,
//! the header's field names gathered on the way: the sheet is then written in one pass
//! from the file, so an export holds one page, not every invoice (1,000,000 invoices
//! held were 1.2 GB; #71). Each row is one line of JSON in a layout of our own (every
//! field of [`Invoice`] in order), read back exactly as it was: not the service's JSON,
//! which the decoder would read again with its tolerance.

use super::{About, MAX_ROWS, Written};
use crate::api::Invoice;
use serde_json::{Map, Value};
use std::io::{BufRead, BufReader, BufWriter, Seek, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// The rows of a workbook to be, on disk.
pub struct Spool {
    out: BufWriter<std::fs::File>,
    columns: crate::export::ColumnSet,
    rows: usize,
}

impl Spool {
    /// An empty spool (an unnamed temporary file: gone with the process).
    pub fn new() -> std::io::Result<Spool> {
        Ok(Spool {
            out: BufWriter::with_capacity(1 << 16, tempfile::tempfile()?),
            columns: crate::export::ColumnSet::default(),
            rows: 0,
        })
    }

    /// Rows taken so far.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Takes one row; refused past what an Excel sheet holds.
    pub fn push(&mut self, inv: &Invoice) -> std::io::Result<()> {
        if self.rows >= MAX_ROWS {
            return Err(std::io::Error::other(
                "more invoices than an Excel sheet holds (1,048,575)",
            ));
        }
        self.columns.add(inv);
        serde_json::to_writer(&mut self.out, &encode(inv))?;
        self.out.write_all(b"\n")?;
        self.rows += 1;
        Ok(())
    }

    /// Writes the workbook of the rows taken to `target` (through a temporary file
    /// renamed at the end, as [`super::write_file`]).
    pub fn write_file(
        self,
        target: &Path,
        about: &About<'_>,
        cancel: &AtomicBool,
    ) -> std::io::Result<Written> {
        let header = self.columns.columns();
        let mut file = self.out.into_inner().map_err(|e| e.into_error())?;
        file.rewind()?;
        let mut lines = BufReader::with_capacity(1 << 16, file).lines();
        let rows = std::iter::from_fn(move || {
            lines
                .next()
                .map(|l| l.and_then(|l| decode(&l).ok_or_else(unreadable)))
        });
        let mut written = Written::default();
        crate::fsutil::write_user_file(target, |w| {
            written = super::write_rows(w, &header, rows, about, cancel)?;
            Ok(())
        })?;
        Ok(written)
    }
}

fn unreadable() -> std::io::Error {
    std::io::Error::other("the export's spool could not be read back")
}

fn text(v: &Option<String>) -> Value {
    v.as_ref().map_or(Value::Null, |s| Value::String(s.clone()))
}

fn flag(v: Option<bool>) -> Value {
    v.map_or(Value::Null, Value::Bool)
}

/// Every field, in order.
fn encode(inv: &Invoice) -> Value {
    Value::Array(vec![
        Value::String(inv.id.clone()),
        text(&inv.customer),
        text(&inv.product_id),
        text(&inv.due_date),
        inv.amount
            .map_or(Value::Null, |a| Value::String(a.to_string())),
        text(&inv.amount_unreadable),
        text(&inv.currency_code),
        flag(inv.is_paid),
        flag(inv.is_void),
        text(&inv.status_text),
        text(&inv.link_payment),
        text(&inv.invoice_external_id),
        inv.metadata.clone().unwrap_or(Value::Null),
        // `Some(Null)` and `None` are told apart: metadata sent as null is kept.
        Value::Bool(inv.metadata.is_some()),
        Value::Object(inv.extra.clone()),
    ])
}

/// [`encode`]'s line, read back.
fn decode(line: &str) -> Option<Invoice> {
    let Value::Array(mut v) = serde_json::from_str::<Value>(line).ok()? else {
        return None;
    };
    if v.len() != 15 {
        return None;
    }
    let mut take = |i: usize| std::mem::take(&mut v[i]);
    let text = |v: Value| match v {
        Value::String(s) => Some(Some(s)),
        Value::Null => Some(None),
        _ => None,
    };
    let flag = |v: Value| match v {
        Value::Bool(b) => Some(Some(b)),
        Value::Null => Some(None),
        _ => None,
    };
    let id = text(take(0))??;
    let amount = match take(4) {
        Value::String(s) => Some(s.parse().ok()?),
        Value::Null => None,
        _ => return None,
    };
    let metadata = take(12);
    let has_metadata = matches!(take(13), Value::Bool(true));
    let Value::Object(extra) = take(14) else {
        return None;
    };
    Some(Invoice {
        id,
        customer: text(take(1))?,
        product_id: text(take(2))?,
        due_date: text(take(3))?,
        amount,
        amount_unreadable: text(take(5))?,
        currency_code: text(take(6))?,
        is_paid: flag(take(7))?,
        is_void: flag(take(8))?,
        status_text: text(take(9))?,
        link_payment: text(take(10))?,
        invoice_external_id: text(take(11))?,
        metadata: has_metadata.then_some(metadata),
        extra: extra as Map<String, Value>,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spooled_row_reads_back_exactly() {
        let mut extra = Map::new();
        extra.insert("zeta".into(), serde_json::json!({"b": [1, 2.50, "x"]}));
        extra.insert("alfa".into(), serde_json::json!(12345678901234567890u64));
        let full = Invoice {
            id: "in_1".into(),
            customer: Some("cus_ñ\u{202e}".into()),
            product_id: Some("prod_1".into()),
            due_date: Some("2026-12-31".into()),
            amount: Some("45.0000".parse().unwrap()),
            amount_unreadable: None,
            currency_code: Some("CLF".into()),
            is_paid: Some(false),
            is_void: None,
            status_text: Some("open".into()),
            link_payment: Some("https://pay.example.cl/in_1".into()),
            invoice_external_id: Some("R-1\n2".into()),
            metadata: Some(Value::Null),
            extra,
        };
        let odd = Invoice {
            amount_unreadable: Some("1.2.3".into()),
            metadata: None,
            ..Invoice::default()
        };
        for inv in [full, odd, Invoice::default()] {
            let line = serde_json::to_string(&encode(&inv)).unwrap();
            assert!(!line.contains('\n'));
            let back = decode(&line).unwrap();
            assert_eq!(back, inv);
            // The amount keeps its scale (45.0000 is not 45).
            assert_eq!(
                back.amount.map(|a| a.to_string()),
                inv.amount.map(|a| a.to_string())
            );
            assert_eq!(
                back.other_names().collect::<Vec<_>>(),
                inv.other_names().collect::<Vec<_>>()
            );
        }
        assert!(decode("[1]").is_none());
        assert!(decode("not json").is_none());
    }

    #[test]
    fn a_spooled_workbook_is_the_workbook_of_the_rows_held() {
        let rows: Vec<Invoice> = (0..300)
            .map(|i| {
                let mut extra = Map::new();
                if i % 7 == 0 {
                    extra.insert(format!("field_{}", i % 3), serde_json::json!(i));
                }
                Invoice {
                    id: format!("in_{i}"),
                    customer: Some("cus_1".into()),
                    due_date: Some("2026-11-01".into()),
                    amount: Some(rust_decimal::Decimal::from(1000 + i)),
                    currency_code: Some("CLP".into()),
                    is_paid: Some(i % 2 == 0),
                    extra,
                    ..Invoice::default()
                }
            })
            .collect();
        let about = About {
            customer: "cus_1",
            customer_name: Some("Ñandú SpA"),
            today: chrono::NaiveDate::from_ymd_opt(2026, 11, 28).unwrap(),
            lang: crate::i18n::Lang::Es,
        };
        let never = AtomicBool::new(false);
        let dir = tempfile::tempdir().unwrap();
        let (held, spooled) = (
            dir.path().join("held.xlsx"),
            dir.path().join("spooled.xlsx"),
        );
        let a = super::super::write_file(&held, rows.iter(), &about, &never).unwrap();
        let mut spool = Spool::new().unwrap();
        for r in &rows {
            spool.push(r).unwrap();
        }
        let b = spool.write_file(&spooled, &about, &never).unwrap();
        assert_eq!((a.rows, a.as_text, a.cut), (b.rows, b.as_text, b.cut));
        // The same sheets, cell by cell (read back with calamine).
        use calamine::Reader;
        let read = |p: &Path| {
            let mut book: calamine::Xlsx<_> = calamine::open_workbook(p).unwrap();
            book.worksheets()
                .into_iter()
                .map(|(name, range)| (name, format!("{:?}", range.rows().collect::<Vec<_>>())))
                .collect::<Vec<_>>()
        };
        assert_eq!(read(&held), read(&spooled));
    }
}
