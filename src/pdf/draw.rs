//! Putting a planned statement on paper with krilla: DejaVu Sans embedded (subset by
//! krilla, so accents and `ñ` print anywhere and the text stays text), the payment
//! links as link annotations with their QR codes beside them.

use super::fonts::{Fonts, Measure};
use super::plan::{self, BODY, MARGIN, PAGE_H, PAGE_W, PAYMENT_LINE, Plan, ROW_QR, TABLE_HEAD};
use super::{PdfError, Statement};
use crate::i18n::Lang;
use crate::profile::sender::LogoKind;
use crate::receivables::aging::{Bucket, Standing};
use crate::tr_in;
use krilla::Document;
use krilla::action::{Action, LinkAction};
use krilla::annotation::{Annotation, LinkAnnotation, Target};
use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Rect, Size, Transform};
use krilla::image::Image;
use krilla::metadata::Metadata;
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, FillRule};
use krilla::surface::Surface;
use krilla::text::TextDirection;

/// Ink: black text, grey rules and captions, red for overdue (with the word: never
/// colour alone).
fn fill(s: &mut Surface<'_>, (r, g, b): (u8, u8, u8)) {
    s.set_fill(Some(Fill {
        paint: rgb::Color::new(r, g, b).into(),
        opacity: NormalizedF32::ONE,
        rule: FillRule::default(),
    }));
}

const INK: (u8, u8, u8) = (0, 0, 0);
const GREY: (u8, u8, u8) = (90, 90, 90);
const RULE: (u8, u8, u8) = (200, 200, 200);
const RED: (u8, u8, u8) = (170, 0, 0);

/// Writes `text` with its left end at `x` on the baseline `y`.
fn text(s: &mut Surface<'_>, m: &Measure, size: f32, x: f32, y: f32, t: &str) {
    if t.is_empty() {
        return;
    }
    s.draw_text(
        Point::from_xy(x, y),
        m.font.clone(),
        size,
        t,
        false,
        TextDirection::LeftToRight,
    );
}

/// Writes `text` with its right end at `x`.
fn text_right(s: &mut Surface<'_>, m: &Measure, size: f32, x: f32, y: f32, t: &str) {
    text(s, m, size, x - m.width(t, size), y, t);
}

/// A thin horizontal rule.
fn rule(s: &mut Surface<'_>, y: f32) {
    let mut pb = PathBuilder::new();
    if let Some(r) = Rect::from_xywh(MARGIN, y, PAGE_W - 2.0 * MARGIN, 0.6) {
        pb.push_rect(r);
    }
    if let Some(p) = pb.finish() {
        fill(s, RULE);
        s.draw_path(&p);
        fill(s, INK);
    }
}

/// A date the language's way.
fn day(lang: Lang, d: chrono::NaiveDate) -> String {
    crate::i18n::date_in(lang, &d.format("%Y-%m-%d").to_string())
}

/// The invoice table's columns: (left or right edge, width, right-aligned).
struct Columns;
impl Columns {
    const ID: (f32, f32) = (MARGIN, 112.0);
    const REFERENCE: (f32, f32) = (MARGIN + 116.0, 86.0);
    const DUE: (f32, f32) = (MARGIN + 206.0, 56.0);
    /// Right edge.
    const DAYS: f32 = MARGIN + 330.0;
    const STATUS: (f32, f32) = (MARGIN + 338.0, 52.0);
    /// Right edge.
    const AMOUNT: f32 = MARGIN + 458.0;
    /// The QR code's left edge.
    const QR: f32 = MARGIN + 467.0;
}

/// Draws the planned statement.
pub(super) fn draw(
    st: &Statement<'_>,
    plan: &Plan,
    logo: Option<&(Vec<u8>, LogoKind)>,
) -> Result<Vec<u8>, PdfError> {
    let fonts = Fonts::get();
    let lang = st.lang;
    let mut doc = Document::new();
    let title = title(lang, plan);
    let who = st.name.unwrap_or(st.customer);
    doc.set_metadata(
        Metadata::new()
            .title(format!(
                "{title} · {} · {}",
                crate::text::escape_controls(who),
                day(lang, st.as_of)
            ))
            .language(match lang {
                Lang::Es => "es-CL".into(),
                Lang::En => "en".into(),
            })
            .creator("invoice-desk".into()),
    );
    let logo = match logo {
        Some((bytes, kind)) => {
            let image = crate::profile::sender::logo_image(bytes, *kind).map_err(|e| {
                PdfError::Logo(crate::profile::SenderError::LogoUnreadable(
                    st.sender.logo.clone().unwrap_or_default(),
                    e,
                ))
            })?;
            Some(image)
        }
        None => None,
    };
    let total_pages = plan.pages.len();
    for (n, page_spec) in plan.pages.iter().enumerate() {
        let settings = PageSettings::from_wh(PAGE_W, PAGE_H)
            .ok_or_else(|| PdfError::Render("page size".into()))?;
        let mut page = doc.start_page_with(settings);
        let mut links = Vec::new();
        {
            let mut s = page.surface();
            if let Some(word) = watermark(lang, plan) {
                draw_watermark(&mut s, fonts, &word);
            }
            fill(&mut s, INK);
            let top = if n == 0 {
                first_page_head(&mut s, st, plan, logo.as_ref(), fonts)
            } else {
                // Later pages say whose statement they continue.
                let y = MARGIN + 10.0;
                let line = format!(
                    "{title} · {} · {}",
                    crate::text::escape_controls(who),
                    day(lang, st.as_of)
                );
                fill(&mut s, GREY);
                text(
                    &mut s,
                    &fonts.regular,
                    8.0,
                    MARGIN,
                    y,
                    &fonts.regular.clip(&line, 8.0, PAGE_W - 2.0 * MARGIN),
                );
                fill(&mut s, INK);
                plan::later_table_top()
            };
            let mut y = top;
            if n == 0 && plan.shown < plan.lines.len() {
                y += cut_note(&mut s, lang, plan, fonts, y);
            }
            if plan.lines.is_empty() {
                if n == 0 {
                    text(
                        &mut s,
                        &fonts.regular,
                        BODY + 1.0,
                        MARGIN,
                        y + 14.0,
                        &tr_in!(lang, "st-nothing-owed", date = day(lang, st.as_of)),
                    );
                    y += 24.0;
                }
            } else if !page_spec.rows.is_empty() {
                table_head(&mut s, lang, fonts, y);
                y += TABLE_HEAD;
                for line in &plan.lines[page_spec.rows.clone()] {
                    let h = row(&mut s, lang, fonts, line, y, &mut links)?;
                    y += h;
                }
            }
            if page_spec.tail {
                tail(&mut s, st, plan, fonts, y);
            }
            page_foot(&mut s, st, fonts, n + 1, total_pages);
            s.finish();
        }
        for (rect, url, alt) in links {
            page.add_annotation(Annotation::new_link(
                LinkAnnotation::new(rect, Target::Action(Action::Link(LinkAction::new(url)))),
                Some(alt),
            ));
        }
        page.finish();
    }
    doc.finish().map_err(|e| PdfError::Render(format!("{e:?}")))
}

/// The first page's head: the sender (and logo), the title, the customer and the day,
/// and what is owed per currency and bucket. Returns where the table starts.
/// A void or paid document's word across the page, under everything else: no one takes
/// it for a bill.
fn draw_watermark(s: &mut Surface<'_>, fonts: &Fonts, word: &str) {
    let size = 72.0;
    let w = fonts.bold.width(word, size);
    s.push_transform(&Transform::from_rotate_at(
        -35.0,
        PAGE_W / 2.0,
        PAGE_H / 2.0,
    ));
    fill(s, (235, 190, 190));
    text(
        s,
        &fonts.bold,
        size,
        (PAGE_W - w) / 2.0,
        PAGE_H / 2.0 + size / 3.0,
        word,
    );
    s.pop();
}

/// A statement too long to print whole says so first: which invoices these are, and
/// where every one is. Its height.
fn cut_note(s: &mut Surface<'_>, lang: Lang, plan: &Plan, fonts: &Fonts, y: f32) -> f32 {
    let note = tr_in!(
        lang,
        "st-cut-note",
        shown = crate::i18n::count_in(lang, plan.shown),
        total = crate::i18n::count_in(lang, plan.lines.len())
    );
    fill(s, GREY);
    for (i, l) in plan::wrap(&fonts.regular, &note, BODY, plan::TEXT_WIDTH)
        .iter()
        .take(2)
        .enumerate()
    {
        text(
            s,
            &fonts.regular,
            BODY,
            MARGIN,
            y + 4.0 + 12.0 * i as f32,
            l,
        );
    }
    fill(s, INK);
    plan::cut_note_height(plan.lines.len(), plan.shown)
}

/// "Página 2 de 5", whose statement it is, and what it is not: a tax document (the
/// SII's DTE is issued elsewhere).
fn page_foot(s: &mut Surface<'_>, st: &Statement<'_>, fonts: &Fonts, page: usize, pages: usize) {
    let lang = st.lang;
    fill(s, GREY);
    let foot = PAGE_H - MARGIN + 4.0;
    text(
        s,
        &fonts.regular,
        7.5,
        MARGIN,
        foot - 12.0,
        &fonts.regular.clip(
            &tr_in!(lang, "st-not-tax-document"),
            7.5,
            PAGE_W - 2.0 * MARGIN,
        ),
    );
    let pages = tr_in!(lang, "st-page", page = page, pages = pages);
    text_right(s, &fonts.regular, 8.0, PAGE_W - MARGIN, foot, &pages);
    let from = crate::text::escape_controls(st.sender.organization.trim()).into_owned();
    text(
        s,
        &fonts.regular,
        8.0,
        MARGIN,
        foot,
        &fonts.regular.clip(&from, 8.0, 300.0),
    );
}

fn first_page_head(
    s: &mut Surface<'_>,
    st: &Statement<'_>,
    plan: &Plan,
    logo: Option<&Image>,
    fonts: &Fonts,
) -> f32 {
    let lang = st.lang;
    let width = PAGE_W - 2.0 * MARGIN;
    let mut y = sender_head(s, st, logo, fonts, width);
    rule(s, y - 8.0);
    // Title, customer, day.
    y += 18.0;
    text(
        s,
        &fonts.bold,
        18.0,
        MARGIN,
        y,
        &fonts.bold.clip(&title(lang, plan), 18.0, width - 140.0),
    );
    // A printed invoice says when it was issued; a statement, the day it is made for.
    let issued = plan
        .lines
        .first()
        .and_then(|l| l.issued)
        .filter(|_| plan.kind == super::Kind::Invoice);
    let as_of = match issued {
        Some(d) => tr_in!(lang, "st-issued-on", date = day(lang, d)),
        None => tr_in!(lang, "st-as-of", date = day(lang, st.as_of)),
    };
    text_right(s, &fonts.regular, 10.0, PAGE_W - MARGIN, y, &as_of);
    y += 8.0;
    for (i, l) in plan::customer_lines(st).iter().enumerate() {
        y += 13.0;
        let m = if i == 0 { &fonts.bold } else { &fonts.regular };
        text(s, m, 10.0, MARGIN, y, &m.clip(l, 10.0, width));
    }
    y += 12.0;
    // What is owed, per currency: never added across currencies (a printed invoice
    // has no aging table).
    if plan.aging.is_empty() || plan.kind == super::Kind::Invoice {
        // A void or paid invoice says so in words, in red, before anything else.
        if let Some(notice) = settled_notice(lang, plan) {
            fill(s, RED);
            text(
                s,
                &fonts.bold,
                10.0,
                MARGIN,
                y + 14.0,
                &fonts.bold.clip(&notice, 10.0, width),
            );
            fill(s, INK);
        }
        y += 24.0;
        return y;
    }
    aging_table(s, st, plan, fonts, y)
}

/// The sender's name, its lines and logo at the top of the first page; where what
/// follows begins.
fn sender_head(
    s: &mut Surface<'_>,
    st: &Statement<'_>,
    logo: Option<&Image>,
    fonts: &Fonts,
    width: f32,
) -> f32 {
    let mut text_width = width;
    if let Some(img) = logo {
        // At most 160 × 56 points, its proportions kept, at the top right.
        let (w, h) = img.size();
        let scale = (160.0 / w.max(1) as f32).min(56.0 / h.max(1) as f32);
        let (lw, lh) = (w as f32 * scale, h as f32 * scale);
        if let Some(size) = Size::from_wh(lw, lh) {
            s.push_transform(&Transform::from_translate(PAGE_W - MARGIN - lw, MARGIN));
            s.draw_image(img.clone(), size);
            s.pop();
        }
        text_width -= lw + 12.0;
    }
    let mut y = MARGIN + 14.0;
    let org = crate::text::escape_controls(st.sender.organization.trim()).into_owned();
    text(
        s,
        &fonts.bold,
        14.0,
        MARGIN,
        y,
        &fonts.bold.clip(&org, 14.0, text_width),
    );
    y += 6.0;
    fill(s, GREY);
    for l in plan::sender_lines(st) {
        y += 12.0;
        text(
            s,
            &fonts.regular,
            BODY,
            MARGIN,
            y,
            &fonts.regular.clip(&l, BODY, text_width),
        );
    }
    fill(s, INK);
    let sender_h = 20.0 + 12.0 * plan::sender_lines(st).len() as f32;
    let logo_h = if st.sender.logo.is_some() { 60.0 } else { 0.0 };
    MARGIN + sender_h.max(logo_h) + 14.0
}

/// What is owed per currency and bucket, as a table as wide as the page (and the UF
/// owed in pesos under it, when asked for); where what follows begins.
fn aging_table(
    s: &mut Surface<'_>,
    st: &Statement<'_>,
    plan: &Plan,
    fonts: &Fonts,
    mut y: f32,
) -> f32 {
    let lang = st.lang;
    let width = PAGE_W - 2.0 * MARGIN;
    y += 14.0;
    text(
        s,
        &fonts.bold,
        10.0,
        MARGIN,
        y,
        &tr_in!(lang, "st-aging-title"),
    );
    y += 16.0;
    // Every cell's text first, so that each column is as wide as its widest content
    // (an amount the service can send is up to 29 digits): the columns share the
    // page's width, and the type gets smaller only when they cannot fit at full size.
    let money = |code: &str, t: crate::receivables::aging::Total| match t.value() {
        Some(v) => crate::api::money::format_amount(v, Some(code)),
        None => tr_in!(lang, "st-too-large"),
    };
    let heads: Vec<String> = std::iter::once(tr_in!(lang, "st-currency"))
        .chain(Bucket::ALL.iter().map(|b| crate::i18n::bucket_in(lang, *b)))
        .chain(std::iter::once(tr_in!(lang, "st-total-owed")))
        .collect();
    let rows: Vec<Vec<String>> = plan
        .aging
        .by_currency
        .iter()
        .map(|(code, cells)| {
            std::iter::once(currency_name(lang, code))
                .chain(cells.iter().map(|cell| {
                    if cell.count > 0 {
                        money(code, cell.total)
                    } else {
                        String::new()
                    }
                }))
                .chain(std::iter::once(money(
                    code,
                    plan.owed.get(code).copied().unwrap_or_default(),
                )))
                .collect()
        })
        .collect();
    // Each column's width at full size (titles at 8 points, cells at BODY); a width
    // scales with the type's size, so a smaller size only scales these.
    let natural: Vec<f32> = (0..heads.len())
        .map(|c| {
            let m = if c == heads.len() - 1 {
                &fonts.bold
            } else {
                &fonts.regular
            };
            rows.iter()
                .map(|r| m.width(&r[c], BODY))
                .fold(fonts.bold.width(&heads[c], 8.0), f32::max)
        })
        .collect();
    let gaps = 10.0 * (heads.len() - 1) as f32;
    let natural_sum: f32 = natural.iter().sum();
    let size = if natural_sum + gaps > width {
        (BODY * (width - gaps) / natural_sum).max(4.0)
    } else {
        BODY
    };
    let widths: Vec<f32> = natural.iter().map(|w| w * size / BODY).collect();
    // The label column at the left margin; the amounts right-aligned, the total at the
    // page's right edge and the buckets spread evenly in the room left between.
    let used: f32 = widths.iter().sum();
    let spare = (width - used).max(0.0) / (heads.len() - 1) as f32;
    let mut right = Vec::with_capacity(heads.len());
    let mut x = MARGIN;
    for w in &widths {
        x += w;
        right.push(x);
        x += spare;
    }
    let head_size = 8.0 * size / BODY;
    fill(s, GREY);
    text(s, &fonts.bold, head_size, MARGIN, y, &heads[0]);
    for c in 1..heads.len() {
        text_right(s, &fonts.bold, head_size, right[c], y, &heads[c]);
    }
    fill(s, INK);
    rule(s, y + 4.0);
    for r in &rows {
        y += 15.0;
        text(s, &fonts.regular, size, MARGIN, y, &r[0]);
        for c in 1..heads.len() {
            let m = if c == heads.len() - 1 {
                &fonts.bold
            } else {
                &fonts.regular
            };
            text_right(s, m, size, right[c], y, &r[c]);
        }
    }
    // The UF owed in pesos, when asked for: a reference, its day and value said.
    if !plan.uf_lines.is_empty() {
        y += 4.0;
        fill(s, GREY);
        for line in &plan.uf_lines {
            y += plan::UF_LINE;
            text(s, &fonts.regular, plan::UF_SIZE, MARGIN, y, line);
        }
        fill(s, INK);
    }
    y += 16.0;
    y
}

/// "Estado de cuenta", or "Factura in_…" for a printed invoice.
fn title(lang: Lang, plan: &Plan) -> String {
    match (plan.kind, plan.lines.first()) {
        (super::Kind::Invoice, Some(l)) => tr_in!(lang, "st-invoice-title", id = l.id.clone()),
        _ => tr_in!(lang, "st-title"),
    }
}

/// A printed invoice that is void or paid: which (said across its pages and in a red
/// sentence under the customer).
fn settled(plan: &Plan) -> Option<Standing> {
    if plan.kind != super::Kind::Invoice {
        return None;
    }
    let standing = plan.lines.first()?.standing;
    matches!(standing, Standing::Void | Standing::Paid).then_some(standing)
}

/// The word across a void or paid invoice's pages.
fn watermark(lang: Lang, plan: &Plan) -> Option<String> {
    settled(plan).map(|s| match s {
        Standing::Void => tr_in!(lang, "st-watermark-void"),
        _ => tr_in!(lang, "st-watermark-paid"),
    })
}

/// What the customer must know of a void or paid invoice, in a sentence.
fn settled_notice(lang: Lang, plan: &Plan) -> Option<String> {
    settled(plan).map(|s| match s {
        Standing::Void => tr_in!(lang, "st-notice-void"),
        _ => tr_in!(lang, "st-notice-paid"),
    })
}

/// "Pesos (CLP)", "UF (CLF)", or the code as sent.
fn currency_name(lang: Lang, code: &str) -> String {
    match crate::api::Currency::from_code(code) {
        Some(c) => crate::i18n::currency_name_in(lang, c),
        None => crate::text::escape_controls(code).into_owned(),
    }
}

/// The invoice table's header row.
fn table_head(s: &mut Surface<'_>, lang: Lang, fonts: &Fonts, y: f32) {
    let b = &fonts.bold;
    let y = y + 12.0;
    fill(s, GREY);
    text(s, b, 8.0, Columns::ID.0, y, &tr_in!(lang, "st-col-invoice"));
    text(
        s,
        b,
        8.0,
        Columns::REFERENCE.0,
        y,
        &tr_in!(lang, "st-col-reference"),
    );
    text(s, b, 8.0, Columns::DUE.0, y, &tr_in!(lang, "st-col-due"));
    text_right(s, b, 8.0, Columns::DAYS, y, &tr_in!(lang, "st-col-days"));
    text(
        s,
        b,
        8.0,
        Columns::STATUS.0,
        y,
        &tr_in!(lang, "st-col-status"),
    );
    text_right(
        s,
        b,
        8.0,
        Columns::AMOUNT,
        y,
        &tr_in!(lang, "st-col-amount"),
    );
    text(s, b, 8.0, Columns::QR, y, &tr_in!(lang, "st-col-pay"));
    fill(s, INK);
    rule(s, y + 5.0);
}

/// One invoice's row; its height. A payment link adds its QR code, and a link over it
/// (returned in `links`, added to the page once its surface is done).
fn row(
    s: &mut Surface<'_>,
    lang: Lang,
    fonts: &Fonts,
    line: &crate::receivables::Line,
    top: f32,
    links: &mut Vec<(Rect, String, String)>,
) -> Result<f32, PdfError> {
    let r = &fonts.regular;
    let y = top + 11.0;
    let size = 8.5;
    text(
        s,
        r,
        size,
        Columns::ID.0,
        y,
        &r.clip(&line.id, size, Columns::ID.1),
    );
    if let Some(reference) = &line.reference {
        text(
            s,
            r,
            size,
            Columns::REFERENCE.0,
            y,
            &r.clip(reference, size, Columns::REFERENCE.1),
        );
    }
    if let Some(d) = line.due {
        text(s, r, size, Columns::DUE.0, y, &day(lang, d));
    }
    let (days, status, overdue) = match line.standing {
        Standing::Overdue(d) => (d.to_string(), tr_in!(lang, "st-overdue"), true),
        Standing::Open => (String::new(), tr_in!(lang, "st-current"), false),
        other => (
            String::new(),
            crate::i18n::status_kind_in(lang, other.kind()),
            false,
        ),
    };
    text_right(s, r, size, Columns::DAYS, y, &days);
    if overdue {
        fill(s, RED);
        text(s, &fonts.bold, size, Columns::STATUS.0, y, &status);
        fill(s, INK);
    } else {
        text(
            s,
            r,
            size,
            Columns::STATUS.0,
            y,
            &r.clip(&status, size, Columns::STATUS.1),
        );
    }
    // The amount in the room between the status and its right edge; the largest the
    // service can send is set smaller rather than over the status.
    let room = Columns::AMOUNT - (Columns::STATUS.0 + Columns::STATUS.1) - 4.0;
    let natural = r.width(&line.amount, size);
    let amount_size = if natural > room {
        (size * room / natural).max(4.0)
    } else {
        size
    };
    text_right(
        s,
        r,
        amount_size,
        Columns::AMOUNT,
        y,
        &r.clip(&line.amount, amount_size, room),
    );
    let Some(url) = &line.link else {
        return Ok(plan::ROW_PLAIN);
    };
    let alt = tr_in!(lang, "st-pay-alt", id = line.id.clone());
    let code = if line.qr {
        super::qr::path(url, ROW_QR - 6.0)
    } else {
        None
    };
    let Some(code) = code else {
        // Longer than a QR code holds: the link alone, as words the reader can click.
        let words = tr_in!(lang, "st-pay-online");
        let w = r.width(&words, size);
        text(s, r, size, Columns::QR, y, &words);
        if let Some(rect) = Rect::from_xywh(Columns::QR, y - size, w, size + 3.0) {
            links.push((rect, url.clone(), alt));
        }
        return Ok(plan::ROW_PLAIN);
    };
    let side = ROW_QR - 6.0;
    s.push_transform(&Transform::from_translate(Columns::QR, top + 2.0));
    fill(s, INK);
    s.draw_path(&code);
    s.pop();
    if let Some(rect) = Rect::from_xywh(Columns::QR, top + 2.0, side, side) {
        links.push((rect, url.clone(), alt));
    }
    Ok(ROW_QR)
}

/// What ends the statement: the totals' reminder and how to pay.
fn tail(s: &mut Surface<'_>, st: &Statement<'_>, plan: &Plan, fonts: &Fonts, y: f32) {
    let lang = st.lang;
    let mut y = y + 20.0;
    rule(s, y - 12.0);
    if plan.payment_lines.is_empty() {
        return;
    }
    text(
        s,
        &fonts.bold,
        10.0,
        MARGIN,
        y,
        &tr_in!(lang, "st-how-to-pay"),
    );
    y += 4.0;
    for l in &plan.payment_lines {
        y += PAYMENT_LINE;
        text(s, &fonts.regular, BODY, MARGIN, y, l);
    }
}
