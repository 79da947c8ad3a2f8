//! What a statement says and where: its lines, what is owed per currency and bucket, and
//! which rows go on which page. No drawing here (the tests read it alone).

use super::Statement;
use super::fonts::{Fonts, Measure};
use crate::receivables::aging::{Aging, Total};
use crate::receivables::{Line, Listing};
use std::collections::BTreeMap;
use std::ops::Range;

/// A4, in points.
pub(super) const PAGE_W: f32 = 595.28;
pub(super) const PAGE_H: f32 = 841.89;
pub(super) const MARGIN: f32 = 40.0;
/// The page number's line at the foot of each page.
pub(super) const FOOTER: f32 = 24.0;
/// A row with a payment link carries its QR code; one without is a line of text.
pub(super) const ROW_QR: f32 = 50.0;
pub(super) const ROW_PLAIN: f32 = 16.0;
/// The invoice table's header row.
pub(super) const TABLE_HEAD: f32 = 20.0;
/// The size of body text, and of the payment instructions.
pub(super) const BODY: f32 = 9.0;
pub(super) const PAYMENT_LINE: f32 = 12.0;
/// The size of the line in pesos under the aging table, and its lines' height.
pub(super) const UF_SIZE: f32 = 8.0;
pub(super) const UF_LINE: f32 = 10.0;
/// The width the payment instructions wrap at.
pub(super) const TEXT_WIDTH: f32 = PAGE_W - 2.0 * MARGIN;

/// Which rows a page carries, and what else.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageSpec {
    /// The rows (indices into [`Plan::lines`]).
    pub rows: Range<usize>,
    /// It ends with the payment instructions.
    pub tail: bool,
}

/// The most invoices printed on a statement's pages (about 36 pages with their QR
/// codes). Past it the PDF prints the oldest due, its first page says how many there
/// are, and every one goes in a workbook sent with it: thousands of pages are read by
/// no one, and took minutes to make.
pub const PDF_LINES: usize = 500;

/// What the statement says and where.
#[derive(Clone, Debug)]
pub struct Plan {
    /// A statement, or one invoice.
    pub kind: super::Kind,
    /// The invoices listed, oldest due first (the workbook's rows).
    pub lines: Vec<Line>,
    /// How many of them are printed (the first ones): all, up to [`PDF_LINES`].
    pub shown: usize,
    /// What is owed, per currency and bucket.
    pub aging: Aging,
    /// What is owed in all, per currency (never added across currencies).
    pub owed: BTreeMap<String, Total>,
    /// The most days any listed invoice is overdue.
    pub oldest_overdue: Option<u32>,
    /// The payment instructions, wrapped to the page's width.
    pub payment_lines: Vec<String>,
    /// The optional line under the aging table (the UF owed in pesos), wrapped.
    pub uf_lines: Vec<String>,
    /// The pages.
    pub pages: Vec<PageSpec>,
}

/// The sender's lines under its name (RUT; address; e-mail · phone), those given.
pub(super) fn sender_lines(s: &Statement<'_>) -> Vec<String> {
    let esc = |t: &str| crate::text::escape_controls(t.trim()).into_owned();
    let snd = s.sender;
    let mut v = Vec::new();
    if !snd.rut.trim().is_empty() {
        v.push(format!("RUT {}", esc(&snd.rut)));
    }
    if !snd.address.trim().is_empty() {
        v.push(esc(&snd.address));
    }
    let contact: Vec<String> = [&snd.email, &snd.phone]
        .iter()
        .filter(|t| !t.trim().is_empty())
        .map(|t| esc(t))
        .collect();
    if !contact.is_empty() {
        v.push(contact.join(" · "));
    }
    v
}

/// The customer's lines: its name and RUT, those known; its id in the service only when
/// neither is (a customer knows itself by its name, not by `cus_…`).
pub(super) fn customer_lines(s: &Statement<'_>) -> Vec<String> {
    let esc = |t: &str| crate::text::escape_controls(t.trim()).into_owned();
    let mut v = Vec::new();
    if let Some(n) = s.name.filter(|n| !n.trim().is_empty()) {
        v.push(esc(n));
    }
    if let Some(r) = s.rut.filter(|r| !r.trim().is_empty()) {
        v.push(format!("RUT {}", esc(r)));
    }
    if v.is_empty() {
        v.push(crate::tr_in!(
            s.lang,
            "st-customer-id",
            id = esc(s.customer)
        ));
    }
    v
}

/// The optional line under the aging table: the UF owed in pesos on the day's value
/// (`None` when not asked for, on a printed invoice, or when no UF is owed).
pub(super) fn uf_line(
    s: &Statement<'_>,
    kind: super::Kind,
    owed: &BTreeMap<String, Total>,
) -> Option<String> {
    let day = s.uf?;
    if kind != super::Kind::Statement {
        return None;
    }
    let uf = owed.get("CLF")?.value().filter(|v| !v.is_zero())?;
    let pesos = day.pesos(uf)?;
    Some(crate::tr_in!(
        s.lang,
        "st-uf-pesos",
        uf = crate::api::money::format_amount(uf, Some("CLF")),
        pesos = crate::api::money::format_amount(pesos, Some("CLP")),
        date = crate::i18n::date_in(s.lang, &day.date.to_string()),
        value = crate::i18n::peso_value(day.value),
        from = match day.from {
            crate::uf::UfFrom::Cmf => crate::tr_in!(s.lang, "st-uf-from-cmf"),
            crate::uf::UfFrom::Table => crate::tr_in!(s.lang, "st-uf-from-table"),
        }
    ))
}

/// Where the first page's table starts: after the sender, the title and customer, and
/// the aging table (one row per currency owed).
pub(super) fn first_table_top(s: &Statement<'_>, currencies: usize, uf_lines: usize) -> f32 {
    let sender = 20.0 + 12.0 * sender_lines(s).len() as f32;
    let logo = if s.sender.logo.is_some() { 60.0 } else { 0.0 };
    let head = sender.max(logo) + 14.0;
    let title = 26.0 + 13.0 * customer_lines(s).len() as f32 + 12.0;
    let aging = if currencies == 0 {
        24.0
    } else {
        18.0 + 16.0 + 15.0 * currencies as f32 + 16.0
    };
    let uf = UF_LINE * uf_lines as f32 + if uf_lines > 0 { 4.0 } else { 0.0 };
    MARGIN + head + title + aging + uf
}

/// The room the first page's note about a cut statement takes ("these are the 500
/// oldest of 2.000; every one is in the workbook"): two lines, when it is cut.
pub(super) fn cut_note_height(lines: usize, shown: usize) -> f32 {
    if shown < lines { 30.0 } else { 0.0 }
}

/// Where later pages' tables start: under a line naming the customer.
pub(super) fn later_table_top() -> f32 {
    MARGIN + 22.0
}

/// The lowest a row may end.
pub(super) fn bottom() -> f32 {
    PAGE_H - MARGIN - FOOTER
}

/// The rows' pages: `heights` of each row, the first page having `first` points for
/// rows and every later one `later`; the `tail` (the payment instructions) follows the
/// last row, on a page of its own when it does not fit. Always at least one page.
pub fn paginate(heights: &[f32], first: f32, later: f32, tail: f32) -> Vec<PageSpec> {
    let mut pages = Vec::new();
    let mut start = 0;
    let mut room = first;
    let mut used = 0.0;
    for (i, h) in heights.iter().enumerate() {
        // A row taller than a page still goes somewhere: alone on its page.
        if used + h > room && i > start {
            pages.push(PageSpec {
                rows: start..i,
                tail: false,
            });
            start = i;
            room = later;
            used = 0.0;
        }
        used += h;
    }
    let fits = used + tail <= room;
    pages.push(PageSpec {
        rows: start..heights.len(),
        tail: fits,
    });
    if !fits {
        pages.push(PageSpec {
            rows: heights.len()..heights.len(),
            tail: true,
        });
    }
    pages
}

/// Decides what the statement says and where, from its invoices folded.
pub(super) fn plan(s: &Statement<'_>, listed: Listing, kind: super::Kind) -> Plan {
    let Listing {
        summary, mut lines, ..
    } = listed;
    // Whether each link fits in a QR code is the drawing's business, decided here.
    for l in &mut lines {
        l.qr = l.link.as_deref().is_some_and(super::qr::fits);
        l.amount = match (l.value, &l.unreadable) {
            (Some(a), _) => crate::text::escape_controls(&crate::api::money::format_amount(
                a,
                l.currency.as_deref(),
            ))
            .into_owned(),
            (None, Some(raw)) => crate::tr_in!(s.lang, "amount-unreadable", raw = raw.clone()),
            (None, None) => "—".to_string(),
        };
    }
    let crate::receivables::Summary {
        aging,
        owed,
        oldest_overdue: oldest,
        ..
    } = summary;
    // The oldest due first; no due day last; then by id, so the order is the same
    // whatever order the service listed them in.
    lines.sort_by(|a, b| (a.due.is_none(), a.due, &a.id).cmp(&(b.due.is_none(), b.due, &b.id)));
    let fonts = Fonts::get();
    // How to pay only where something is owed: a void or paid invoice, or a statement
    // with nothing owed, carries no payment instructions a customer could follow.
    let payment_text = if owed.is_empty() {
        String::new()
    } else {
        s.sender.payment_text.clone()
    };
    let payment_lines = wrap(
        &fonts.regular,
        &crate::text::escape_controls(payment_text.trim()).replace("\\n", "\n"),
        BODY,
        TEXT_WIDTH,
    );
    let tail = if payment_lines.is_empty() {
        30.0
    } else {
        30.0 + 18.0 + PAYMENT_LINE * payment_lines.len() as f32
    };
    let shown = lines.len().min(PDF_LINES);
    let heights: Vec<f32> = lines[..shown]
        .iter()
        .map(|l| if l.qr { ROW_QR } else { ROW_PLAIN })
        .collect();
    let table = |top: f32| bottom() - top - TABLE_HEAD;
    // A printed invoice has no aging table.
    let currencies = match kind {
        super::Kind::Statement => aging.by_currency.len(),
        super::Kind::Invoice => 0,
    };
    let uf_lines = uf_line(s, kind, &owed)
        .map(|l| wrap(&fonts.regular, &l, UF_SIZE, TEXT_WIDTH))
        .unwrap_or_default();
    let first =
        table(first_table_top(s, currencies, uf_lines.len()) + cut_note_height(lines.len(), shown));
    let pages = paginate(&heights, first, table(later_table_top()), tail);
    Plan {
        kind,
        lines,
        shown,
        aging,
        owed,
        oldest_overdue: oldest,
        payment_lines,
        uf_lines,
        pages,
    }
}

/// `text` in lines no wider than `width` at `size`, broken between words (a word wider
/// than the line is cut); its own line breaks kept; at most 60 lines.
pub(super) fn wrap(font: &Measure, text: &str, size: f32, width: f32) -> Vec<String> {
    let mut out = Vec::new();
    for para in text.lines() {
        let mut line = String::new();
        for word in para.split_whitespace() {
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if font.width(&candidate, size) <= width {
                line = candidate;
                continue;
            }
            if !line.is_empty() {
                out.push(std::mem::take(&mut line));
            }
            // A word alone wider than the line is cut where it must be.
            let mut rest = word.to_string();
            while font.width(&rest, size) > width {
                let fit = font.fitting(&rest, size, width).max(1);
                let head: String = rest.chars().take(fit).collect();
                out.push(head);
                rest = rest.chars().skip(fit).collect();
            }
            line = rest;
        }
        out.push(line);
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out.truncate(60);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_fill_pages_and_the_tail_follows_the_last_row() {
        // Ten rows of 10 points, 35 on the first page, 50 on the others.
        let pages = paginate(&[10.0; 10], 35.0, 50.0, 5.0);
        let rows: Vec<Range<usize>> = pages.iter().map(|p| p.rows.clone()).collect();
        assert_eq!(rows, vec![0..3, 3..8, 8..10]);
        assert_eq!(
            pages.iter().map(|p| p.tail).collect::<Vec<_>>(),
            [false, false, true]
        );
        // A tail that does not fit after the last row gets a page of its own.
        let pages = paginate(&[10.0; 5], 50.0, 50.0, 20.0);
        assert_eq!(pages.len(), 2);
        assert_eq!(pages[1].rows, 5..5);
        assert!(pages[1].tail && !pages[0].tail);
        // No rows: one page, with the tail.
        let pages = paginate(&[], 100.0, 100.0, 20.0);
        assert_eq!(
            pages,
            vec![PageSpec {
                rows: 0..0,
                tail: true
            }]
        );
        // A row taller than a page is alone on its page, never lost.
        let pages = paginate(&[10.0, 500.0, 10.0], 100.0, 100.0, 0.0);
        let rows: Vec<Range<usize>> = pages.iter().map(|p| p.rows.clone()).collect();
        assert_eq!(rows, vec![0..1, 1..2, 2..3]);
    }

    #[test]
    fn a_listing_keeps_lines_not_invoices_and_stops_past_its_bound() {
        use crate::receivables::{Keep, MAX_LINES};
        let day = chrono::NaiveDate::from_ymd_opt(2026, 11, 26).unwrap();
        let owed = crate::api::Invoice::from_value(serde_json::json!({
            "id": "in_1", "customer": "cus_1", "amount": "1000", "currency_code": "CLP",
            "due_date": "2026-10-01", "is_paid": false, "is_void": false,
            "extra": "x".repeat(60_000),
        }))
        .unwrap();
        let paid = crate::api::Invoice::from_value(serde_json::json!({
            "id": "in_2", "customer": "cus_1", "amount": "5", "currency_code": "CLP",
            "due_date": "2026-10-01", "is_paid": true, "is_void": false,
        }))
        .unwrap();
        // Only what is owed is kept (and counted), as a line of its own texts.
        let mut l = Listing::new(day, Keep::Owed);
        assert!(l.add(&owed) && l.add(&paid));
        assert_eq!(l.lines.len(), 1);
        assert_eq!(l.summary.invoices, 2);
        assert_eq!(l.lines[0].value, Some(rust_decimal::Decimal::from(1000)));
        // Receivables keep nothing at all.
        let mut none = Listing::new(day, Keep::Nothing);
        assert!(none.add(&owed));
        assert!(none.lines.is_empty() && none.summary.owed["CLP"].value().is_some());
        // Past the bound the listing says stop, and no statement is made of it.
        let mut big = Listing::new(day, Keep::All);
        for _ in 0..MAX_LINES {
            assert!(big.add(&paid));
        }
        assert!(!big.add(&owed));
        assert!(big.too_many);
        assert_eq!(big.lines.len(), MAX_LINES);
        let sender = crate::profile::Sender::default();
        let s = Statement {
            lang: crate::i18n::Lang::Es,
            sender: &sender,
            customer: "cus_1",
            name: None,
            rut: None,
            as_of: day,
            uf: None,
        };
        assert!(matches!(
            super::super::listed_statement_pdf(&s, big),
            Err(super::super::PdfError::TooMany)
        ));
    }

    #[test]
    fn long_words_and_lines_are_wrapped_to_the_width() {
        let fonts = Fonts::get();
        let text = format!("Banco Estado cuenta corriente 123\n{}", "x".repeat(400));
        let lines = wrap(&fonts.regular, &text, 9.0, 200.0);
        assert_eq!(lines[0], "Banco Estado cuenta corriente 123");
        assert!(lines.len() > 3, "{lines:?}");
        for l in &lines {
            assert!(fonts.regular.width(l, 9.0) <= 200.0, "{l}");
        }
        assert_eq!(lines[1..].concat(), "x".repeat(400));
    }
}
