//! Statements of account as PDF, read back with the programs a clerk's computer (and
//! Debian) has: pdftotext finds every amount, date and name in order, pdffonts shows
//! every font embedded, qpdf --check passes, and zbarimg reads the QR codes back to the
//! payment links. (`.ci/run` installs poppler-utils, qpdf and zbar-tools; the GitHub
//! workflow on Linux too: these tests run where those programs are.)
#![cfg(target_os = "linux")]

mod cli_env;

use cli_env::{Env, exits, text};
use invoice_desk::receivables::aging::Standing;
use std::path::Path;
use std::process::Command;

/// The sender's details, in a profile for the sandbox (the secret from the environment).
fn with_sender(e: &Env, sender: invoice_desk::profile::Sender) -> Command {
    let mut p = e.s.profile("Pruebas");
    p.sender = sender;
    let mut ps = invoice_desk::profile::Profiles::default();
    ps.upsert(None, p).unwrap();
    ps.save(&e.dir.path().join("profiles.toml")).unwrap();
    let mut c = cli_env::cli(e.dir.path());
    c.env("INVOICE_DESK_CLIENT_SECRET", &e.s.credentials.client_secret);
    c
}

fn sender() -> invoice_desk::profile::Sender {
    invoice_desk::profile::Sender {
        organization: "Servicios Ñandú SpA".into(),
        rut: "76.123.456-0".into(),
        address: "Av. Apoquindo 1234, Las Condes".into(),
        email: "cobranza@nandu.cl".into(),
        phone: "+56 2 2345 6789".into(),
        logo: None,
        payment_text: "Transferencia a Banco Estado, cuenta corriente 123-456-7, a nombre de Servicios Ñandú SpA.".into(),
    }
}

/// A program's output, which must succeed.
fn run(program: &str, args: &[&std::ffi::OsStr]) -> String {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!("{program}: {e} (apt-get install poppler-utils qpdf zbar-tools)")
        });
    assert!(
        out.status.success(),
        "{program}: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

fn pdftotext(pdf: &Path) -> String {
    run(
        "pdftotext",
        &["-layout".as_ref(), pdf.as_os_str(), "-".as_ref()],
    )
}

/// The PDF of `invoices` for customer `cus_x` (named `name`, RUT `rut`) in Spanish, from
/// the test sender: a statement, or one invoice printed.
fn made_es(
    invoice: bool,
    invoices: &[invoice_desk::api::Invoice],
    name: Option<&str>,
    rut: Option<&str>,
) -> Vec<u8> {
    let s = sender();
    let statement = invoice_desk::pdf::Statement {
        lang: invoice_desk::i18n::Lang::Es,
        sender: &s,
        customer: "cus_x",
        name,
        rut,
        as_of: as_of(),
        uf: None,
    };
    let made = match invoices {
        [one] if invoice => invoice_desk::pdf::invoice_pdf(&statement, one),
        _ => invoice_desk::pdf::statement_pdf(&statement, invoices, invoice),
    };
    made.unwrap().pdf
}

/// A PDF made in memory, written to a folder of its own as `name`, checked by qpdf: the
/// folder (kept while the test needs the file), the file, and its words.
fn written(pdf: &[u8], name: &str) -> (tempfile::TempDir, std::path::PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, pdf).unwrap();
    run("qpdf", &["--check".as_ref(), path.as_os_str()]);
    let words = pdftotext(&path);
    (dir, path, words)
}

/// The customer's invoices as the service lists them (through the CLI's JSON).
fn listed(e: &Env, customer: &str) -> Vec<invoice_desk::api::Invoice> {
    let out = e
        .oauth()
        .args(["list", customer, "--format", "json"])
        .output()
        .unwrap();
    exits(&out, 0);
    serde_json::from_slice(&out.stdout).unwrap()
}

const AS_OF: &str = "2026-11-24";

fn as_of() -> chrono::NaiveDate {
    chrono::NaiveDate::parse_from_str(AS_OF, "%Y-%m-%d").unwrap()
}

/// A statement made by the CLI in `lang`, at `pdf`.
fn statement(e: &Env, customer: &str, pdf: &Path, lang: &str) -> std::process::Output {
    with_sender(e, sender())
        .args(["--lang", lang, "statement", customer, "--out"])
        .arg(pdf)
        .args(["--as-of", AS_OF])
        .output()
        .unwrap()
}

/// Every QR code on every page, read back (rendered at 300 dpi, as a printer would).
fn qr_links(pdf: &Path, dir: &Path) -> Vec<String> {
    let prefix = dir.join("page");
    run(
        "pdftoppm",
        &[
            "-r".as_ref(),
            "300".as_ref(),
            "-png".as_ref(),
            pdf.as_os_str(),
            prefix.as_os_str(),
        ],
    );
    let mut links = Vec::new();
    let mut pages: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.to_string_lossy().contains("page") && p.extension().is_some_and(|x| x == "png")
        })
        .collect();
    pages.sort();
    for page in pages {
        let out = Command::new("zbarimg")
            .args(["-q", "--raw"])
            .arg(&page)
            .output()
            .unwrap();
        links.extend(text(&out.stdout).lines().map(str::to_string));
    }
    links
}

/// Spanish: every listed invoice's id, due day and amount found in order; the totals
/// per currency (never added together); the sender; every font embedded and subset;
/// qpdf finds nothing wrong; every QR code reads back to its invoice's payment link.
#[test]
#[cfg_attr(
    tests_lack = "pdf",
    ignore = "needs the PDF readers (apt-get install poppler-utils qpdf zbar-tools)"
)]
fn a_statement_in_spanish_reads_back_exactly() {
    if !cli_env::have_pdf_readers() {
        return;
    }
    let e = Env::new(0);
    let c = e.customer();
    let pdf = e.dir.path().join("estado.pdf");
    let out = statement(&e, &c, &pdf, "es");
    exits(&out, 0);
    assert!(
        text(&out.stdout).contains("Estado de cuenta guardado en"),
        "{}",
        text(&out.stdout)
    );
    let invoices = listed(&e, &c);
    let mut owed: Vec<&invoice_desk::api::Invoice> = invoices
        .iter()
        .filter(|i| {
            invoice_desk::receivables::aging::Standing::of(i, as_of())
                .bucket()
                .is_some()
        })
        .collect();
    assert!(owed.len() > 5, "the sandbox customer owes something");
    owed.sort_by_key(|i| (i.due_date.clone(), i.id.clone()));
    let words = pdftotext(&pdf);
    for expected in [
        "Servicios Ñandú SpA",
        "RUT 76.123.456-0",
        "Av. Apoquindo 1234, Las Condes",
        "cobranza@nandu.cl · +56 2 2345 6789",
        "Estado de cuenta",
        "Al 24-11-2026",
        "Adeudado, según días de atraso",
        "Total adeudado",
        "Cómo pagar",
        "a nombre de Servicios Ñandú SpA.",
        "Página 1 de",
    ] {
        assert!(words.contains(expected), "{expected:?} in:\n{words}");
    }
    // In order: each row's id, then its due day and amount on its line.
    let mut from = 0;
    for inv in &owed {
        let at = words[from..]
            .find(&inv.id)
            .unwrap_or_else(|| panic!("{} after position {from}:\n{words}", inv.id));
        let line = words[from + at..].lines().next().unwrap();
        let due = chrono::NaiveDate::parse_from_str(inv.due_date.as_deref().unwrap(), "%Y-%m-%d")
            .unwrap()
            .format("%d-%m-%Y")
            .to_string();
        let amount = invoice_desk::api::money::format_amount(
            inv.amount.unwrap(),
            inv.currency_code.as_deref(),
        );
        assert!(
            line.contains(&due) && line.contains(&amount),
            "{line:?}: {due} {amount}"
        );
        if let invoice_desk::receivables::aging::Standing::Overdue(d) =
            invoice_desk::receivables::aging::Standing::of(inv, as_of())
        {
            assert!(
                line.contains(&format!(" {d} ")) && line.contains("Vencida"),
                "{line}"
            );
        }
        from += at + inv.id.len();
    }
    // Paid and void invoices are left out.
    for inv in invoices
        .iter()
        .filter(|i| !owed.iter().any(|o| o.id == i.id))
    {
        assert!(!words.contains(&inv.id), "{} is not owed", inv.id);
    }
    // Totals per currency, each on its own.
    for code in ["CLP", "CLF"] {
        let sum: rust_decimal::Decimal = owed
            .iter()
            .filter(|i| i.currency_code.as_deref() == Some(code))
            .filter_map(|i| i.amount)
            .sum();
        if !sum.is_zero() {
            let total = invoice_desk::api::money::format_amount(sum, Some(code));
            assert!(words.contains(&total), "{total} in:\n{words}");
        }
    }
    let fonts = run("pdffonts", &[pdf.as_os_str()]);
    let rows: Vec<&str> = fonts.lines().skip(2).collect();
    assert!(!rows.is_empty(), "{fonts}");
    for r in rows {
        let cols: Vec<&str> = r.split_whitespace().collect();
        let n = cols.len();
        assert_eq!(
            &cols[n - 5..n - 2],
            ["yes", "yes", "yes"],
            "embedded, subset, unicode: {r}"
        );
    }
    run("qpdf", &["--check".as_ref(), pdf.as_os_str()]);
    let pages = tempfile::tempdir().unwrap();
    let mut links = qr_links(&pdf, pages.path());
    let mut expected: Vec<String> = owed.iter().filter_map(|i| i.link_payment.clone()).collect();
    links.sort();
    expected.sort();
    assert_eq!(links, expected, "every QR code reads back to its link");
}

/// English: the words, and dates the ISO way.
#[test]
#[cfg_attr(
    tests_lack = "pdf",
    ignore = "needs the PDF readers (apt-get install poppler-utils qpdf zbar-tools)"
)]
fn a_statement_in_english_has_english_words_and_iso_dates() {
    if !cli_env::have_pdf_readers() {
        return;
    }
    let e = Env::new(0);
    let c = e.customer();
    let pdf = e.dir.path().join("statement.pdf");
    exits(&statement(&e, &c, &pdf, "en"), 0);
    let words = pdftotext(&pdf);
    for expected in [
        "Statement of account",
        "As of 2026-11-24",
        "Total owed",
        "How to pay",
        "Overdue",
        "Page 1 of",
    ] {
        assert!(words.contains(expected), "{expected:?} in:\n{words}");
    }
    for spanish in ["Estado de cuenta", "Vencida", "Página"] {
        assert!(!words.contains(spanish), "{spanish} in English:\n{words}");
    }
}

/// A customer with no invoices gets a correct one-page statement saying nothing is
/// owed; a missing or oversized logo is refused before anything is asked or written.
#[test]
#[cfg_attr(
    tests_lack = "pdf",
    ignore = "needs the PDF readers (apt-get install poppler-utils qpdf zbar-tools)"
)]
fn bad_input_gives_a_clear_message_or_a_correct_pdf() {
    if !cli_env::have_pdf_readers() {
        return;
    }
    let e = Env::new(0);
    let pdf = e.dir.path().join("vacio.pdf");
    let s = sender();
    let made = invoice_desk::pdf::statement_pdf(
        &invoice_desk::pdf::Statement {
            lang: invoice_desk::i18n::Lang::Es,
            sender: &s,
            customer: "cus_sin_facturas",
            name: None,
            rut: None,
            as_of: as_of(),
            uf: None,
        },
        &[],
        false,
    )
    .unwrap();
    std::fs::write(&pdf, &made.pdf).unwrap();
    let words = pdftotext(&pdf);
    assert!(
        words.contains("No hay nada pendiente de pago al 24-11-2026."),
        "{words}"
    );
    assert!(words.contains("Página 1 de 1"), "{words}");
    run("qpdf", &["--check".as_ref(), pdf.as_os_str()]);
    // A logo that is not there, and one too large: exit 2, no file.
    let big = e.dir.path().join("grande.png");
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.resize(2 * 1024 * 1024, 0);
    std::fs::write(&big, bytes).unwrap();
    // 69 bytes that claim 100,000 × 100,000 pixels (40 GB decoded): refused by its
    // header, never decoded (it used to abort the program).
    let bomb = e.dir.path().join("bomba.png");
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.extend(100_000u32.to_be_bytes());
    png.extend(100_000u32.to_be_bytes());
    png.extend([8, 6, 0, 0, 0]);
    png.extend([0; 4]);
    png.extend(b"\0\0\0\x0aIDAT\x78\x9c\x63\0\0\0\x01\0\x01\0\0\0\0\0\0\0\0IEND\xae\x42\x60\x82");
    std::fs::write(&bomb, &png).unwrap();
    for (logo, said) in [
        (e.dir.path().join("no-existe.png"), "no se puede usar"),
        (big, "es demasiado grande"),
        (bomb, "100.000 × 100.000 píxeles: hasta 4.000 por lado"),
    ] {
        let out_pdf = e.dir.path().join("con-logo.pdf");
        let out = with_sender(
            &e,
            invoice_desk::profile::Sender {
                logo: Some(logo),
                ..sender()
            },
        )
        .args(["--lang", "es", "statement", &e.customer(), "--out"])
        .arg(&out_pdf)
        .output()
        .unwrap();
        exits(&out, 2);
        assert!(text(&out.stderr).contains(said), "{}", text(&out.stderr));
        assert!(!out_pdf.exists());
    }
}

/// A name of 500 characters (from the directory) is cut to the page, never over it;
/// hostile text from the service (control and bidi characters) is shown escaped.
#[test]
#[cfg_attr(
    tests_lack = "pdf",
    ignore = "needs the PDF readers (apt-get install poppler-utils qpdf zbar-tools)"
)]
fn long_names_and_hostile_text_stay_in_their_place() {
    if !cli_env::have_pdf_readers() {
        return;
    }
    use invoice_desk::pdf::{Statement, statement_pdf};
    let invoices: Vec<invoice_desk::api::Invoice> = serde_json::from_value(serde_json::json!([
        {"id": "in_\u{202e}evil", "customer": "cus_x", "amount": 1000, "currency_code": "CLP",
         "due_date": "2026-10-01", "is_paid": false, "is_void": false,
         "invoice_external_id": "REF\u{1b}[31m", "link_payment": "https://pay.example.cl/a"},
        {"id": "in_ok", "customer": "cus_x", "amount": "12.3456", "currency_code": "CLF",
         "due_date": "2026-12-31", "is_paid": false, "is_void": false,
         "link_payment": "javascript:alert(1)"}
    ]))
    .unwrap();
    let name = "Ñ".repeat(500);
    let s = sender();
    let made = statement_pdf(
        &Statement {
            lang: invoice_desk::i18n::Lang::Es,
            sender: &s,
            customer: "cus_x",
            name: Some(&name),
            rut: Some("76.123.456-0"),
            as_of: as_of(),
            uf: None,
        },
        &invoices,
        false,
    )
    .unwrap();
    let (_dir, pdf, words) = written(&made.pdf, "x.pdf");
    assert!(words.contains("in_\\u{202e}evil"), "{words}");
    assert!(words.contains("REF\\x1b[31m"), "{words}");
    assert!(!words.contains('\u{202e}') && !words.contains('\u{1b}'));
    assert!(words.contains("ÑÑÑ…"), "the long name is cut with …");
    assert!(!words.contains(&name), "never all 500");
    // Only the https link is a link (and a QR code).
    assert_eq!(
        made.plan.lines.iter().filter(|l| l.link.is_some()).count(),
        1
    );
    let pages = tempfile::tempdir().unwrap();
    assert_eq!(qr_links(&pdf, pages.path()), ["https://pay.example.cl/a"]);
}

/// 10,000 open invoices: a correct PDF of many pages, each page numbered "N de M",
/// the table's header repeated.
/// A big customer's statement: its pages carry the 500 invoices due longest ago, its
/// first page says so and where the rest are, and a workbook beside it holds every
/// invoice owed, oldest due first, its amounts as numbers (read back with calamine).
#[test]
#[cfg_attr(
    tests_lack = "pdf",
    ignore = "needs the PDF readers (apt-get install poppler-utils qpdf zbar-tools)"
)]
fn a_big_customers_statement_prints_the_oldest_and_every_invoice_in_its_workbook() {
    if !cli_env::have_pdf_readers() {
        return;
    }
    use calamine::{Data, Reader, Xlsx, open_workbook};
    let e = Env::new(10_000);
    let big =
        e.s.customers()
            .iter()
            .max_by_key(|c| c.2)
            .unwrap()
            .0
            .clone();
    let owed: Vec<invoice_desk::api::Invoice> = listed(&e, &big)
        .into_iter()
        .filter(|i| Standing::of(i, as_of()).bucket().is_some())
        .collect();
    assert!(owed.len() > invoice_desk::pdf::PDF_LINES, "{}", owed.len());
    let pdf = e.dir.path().join("grande.pdf");
    let out = statement(&e, &big, &pdf, "es");
    exits(&out, 0);
    let book = e.dir.path().join("grande.xlsx");
    assert!(
        text(&out.stdout).contains(&book.display().to_string()),
        "{}",
        text(&out.stdout)
    );
    run("qpdf", &["--check".as_ref(), pdf.as_os_str()]);
    let info = run("pdfinfo", &[pdf.as_os_str()]);
    let pages: usize = info
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!((10..=45).contains(&pages), "{info}");
    let words = pdftotext(&pdf);
    // The table's header on every page (the instructions fit after the last row).
    assert_eq!(
        words.matches("Factura ").count(),
        pages,
        "a header per page"
    );
    assert!(words.contains(&format!("Página {pages} de {pages}")));
    let first = words.split('\u{c}').next().unwrap();
    let flat = first.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(&format!(
            "incluye {} facturas: aquí están las 500 de vencimiento más antiguo",
            invoice_desk::i18n::count_in(invoice_desk::i18n::Lang::Es, owed.len())
        )),
        "{flat}"
    );
    // Printed: exactly the 500 due longest ago.
    let mut by_due: Vec<(String, String)> = owed
        .iter()
        .map(|i| (i.due_date.clone().unwrap_or_default(), i.id.clone()))
        .collect();
    by_due.sort();
    let printed = by_due
        .iter()
        .filter(|(_, id)| words.contains(id.as_str()))
        .count();
    assert_eq!(printed, invoice_desk::pdf::PDF_LINES);
    for (_, id) in &by_due[..invoice_desk::pdf::PDF_LINES] {
        assert!(words.contains(id.as_str()), "{id} printed");
    }
    // The workbook: a title row, the titles, then every invoice owed in the same order.
    let mut wb: Xlsx<_> = open_workbook(&book).unwrap();
    let sheet = wb.worksheet_range("Estado de cuenta").unwrap();
    let rows: Vec<&[Data]> = sheet.rows().collect();
    assert!(
        rows[0][0].to_string().starts_with("Estado de cuenta · "),
        "{:?}",
        rows[0]
    );
    assert_eq!(rows[2][0].to_string(), "Factura");
    let ids: Vec<String> = rows[3..].iter().map(|r| r[0].to_string()).collect();
    let expected: Vec<String> = by_due.iter().map(|(_, id)| id.clone()).collect();
    assert_eq!(ids, expected);
    // Each amount a number, exactly the invoice's.
    let amounts: std::collections::HashMap<&str, rust_decimal::Decimal> = owed
        .iter()
        .map(|i| (i.id.as_str(), i.amount.unwrap()))
        .collect();
    for r in &rows[3..] {
        let want = amounts[r[0].to_string().as_str()];
        match &r[6] {
            Data::Float(x) => assert_eq!(x.to_string(), want.normalize().to_string(), "{r:?}"),
            other => panic!("amount cell {other:?}"),
        }
    }
    // A month's run writes the workbook beside the customer's PDF and names it in the
    // summary.
    let list = e.dir.path().join("clientes.txt");
    std::fs::write(&list, format!("{big}\n")).unwrap();
    let folder = e.dir.path().join("mes");
    let out = with_sender(&e, sender())
        .args(["--lang", "es", "statements", "--customers"])
        .arg(&list)
        .arg("--out")
        .arg(&folder)
        .args(["--as-of", AS_OF])
        .output()
        .unwrap();
    exits(&out, 0);
    let stem = format!("estado-de-cuenta-{big}-{AS_OF}");
    assert!(folder.join(format!("{stem}.pdf")).exists());
    assert!(folder.join(format!("{stem}.xlsx")).exists());
    let summary = std::fs::read_to_string(folder.join(format!("resumen-{AS_OF}.csv"))).unwrap();
    let head = summary.lines().next().unwrap();
    assert!(head.ends_with(";Libro con el detalle"), "{summary}");
    assert!(
        summary
            .lines()
            .nth(1)
            .unwrap()
            .ends_with(&format!(";{stem}.xlsx")),
        "{summary}"
    );
}

/// Ctrl+C while a big customer's invoices are being listed stops the statement there:
/// exit 130, nothing written (Unix: SIGINT is sent with `kill`).
#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_long_listing_and_writes_nothing() {
    use invoice_desk::sandbox::{Fault, Route};
    let e = Env::new(3_000);
    let big =
        e.s.customers()
            .iter()
            .max_by_key(|c| c.2)
            .unwrap()
            .0
            .clone();
    e.s.add_fault(Fault::slow(Route::List, 1000, 500));
    let pdf = e.dir.path().join("detenido.pdf");
    let child = with_sender(&e, sender())
        .args(["--lang", "es", "statement", &big, "--out"])
        .arg(&pdf)
        .args(["--as-of", AS_OF])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while e.s.counters().api.get("list").copied().unwrap_or(0) < 2 {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "no listing"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(cli_env::signal(&child, libc::SIGINT));
    let out = child.wait_with_output().unwrap();
    exits(&out, 130);
    assert!(
        text(&out.stderr).contains("Detenido"),
        "{}",
        text(&out.stderr)
    );
    assert!(!pdf.exists() && !pdf.with_extension("xlsx").exists());
}

/// A month's run: one PDF per customer who owes something, none for one who owes
/// nothing, a summary of all; run again, nothing is overwritten; the run is journaled.
#[test]
fn a_months_statements_in_one_run_never_overwrite_and_are_journaled() {
    let e = Env::new(0);
    let owing: Vec<String> =
        e.s.customers()
            .iter()
            .filter(|c| c.2 > 0)
            .take(3)
            .map(|c| c.0.clone())
            .collect();
    let list = e.dir.path().join("clientes.csv");
    std::fs::write(
        &list,
        format!(
            "cliente\n{}\n{}\n\n{}\n{}\n",
            owing[0], owing[1], owing[2], owing[0]
        ),
    )
    .unwrap();
    let folder = e.dir.path().join("noviembre");
    let run_once = || {
        with_sender(&e, sender())
            .args(["--lang", "es", "statements", "--customers"])
            .arg(&list)
            .arg("--out")
            .arg(&folder)
            .args(["--as-of", AS_OF])
            .output()
            .unwrap()
    };
    let out = run_once();
    exits(&out, 0);
    assert!(
        text(&out.stdout).contains("3 estados de cuenta guardados"),
        "{}",
        text(&out.stdout)
    );
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for c in &owing {
        assert!(
            names.contains(&format!("estado-de-cuenta-{c}-2026-11-24.pdf")),
            "{names:?}"
        );
    }
    assert!(
        names.contains(&"resumen-2026-11-24.csv".to_string()),
        "{names:?}"
    );
    let summary = std::fs::read_to_string(folder.join("resumen-2026-11-24.csv")).unwrap();
    // In the statements' language, and for a Spanish clerk in Excel-in-Spanish unless
    // asked otherwise (#68: a comma-separated file with 702.8512 is misread there).
    assert!(
        summary.starts_with(
            "\u{feff}Cliente;Nombre;Archivo;Moneda;Adeudado;Días de atraso (máx.);Problema;Libro con el detalle\r\n"
        ),
        "{summary}"
    );
    for c in &owing {
        assert!(summary.contains(c.as_str()), "{summary}");
    }
    // Again: new files beside the old ones, never over them.
    let before =
        std::fs::read(folder.join(format!("estado-de-cuenta-{}-2026-11-24.pdf", owing[0])))
            .unwrap();
    exits(&run_once(), 0);
    assert!(
        folder
            .join(format!("estado-de-cuenta-{}-2026-11-24-2.pdf", owing[0]))
            .exists()
    );
    assert!(folder.join("resumen-2026-11-24-2.csv").exists());
    assert_eq!(
        std::fs::read(folder.join(format!("estado-de-cuenta-{}-2026-11-24.pdf", owing[0])))
            .unwrap(),
        before
    );
    // Journaled: who ran it, for how many, where.
    let out = cli_env::cli(e.dir.path())
        .args(["journal", "list"])
        .output()
        .unwrap();
    exits(&out, 0);
    let said = text(&out.stdout);
    assert_eq!(
        said.matches("noviembre (3), 3 rows  Done").count(),
        2,
        "{said}"
    );
}

/// `profile sender` keeps the sender's details with the profile; a wrong RUT or a logo
/// that is not an image is refused in words and changes nothing.
#[test]
fn the_senders_details_are_checked_and_kept_with_the_profile() {
    let e = Env::new(0);
    with_sender(&e, invoice_desk::profile::Sender::default());
    let set = |args: &[&str]| {
        cli_env::cli(e.dir.path())
            .args(["--lang", "es", "profile", "sender", "Pruebas"])
            .args(args)
            .output()
            .unwrap()
    };
    let out = set(&[
        "--organization",
        "Servicios Ñandú SpA",
        "--rut",
        "76.123.456-0",
    ]);
    exits(&out, 0);
    assert!(
        text(&out.stdout).contains("Razón social: Servicios Ñandú SpA"),
        "{}",
        text(&out.stdout)
    );
    let out = set(&["--rut", "76.123.456-1"]);
    exits(&out, 2);
    assert!(
        text(&out.stderr).contains("El RUT del emisor 76.123.456-1 no es válido"),
        "{}",
        text(&out.stderr)
    );
    let not_image = e.dir.path().join("logo.png");
    std::fs::write(&not_image, "hola").unwrap();
    let out = set(&["--logo", not_image.to_str().unwrap()]);
    exits(&out, 2);
    assert!(
        text(&out.stderr).contains("debe ser una imagen PNG o JPEG"),
        "{}",
        text(&out.stderr)
    );
    // Images whose header is right and whose pixels are not (cut short): decoded when
    // chosen and refused, never embedded in every statement as they are.
    let icon =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/icon.png")).unwrap();
    let cut_png = e.dir.path().join("cortado.png");
    std::fs::write(&cut_png, &icon[..icon.len() / 2]).unwrap();
    let cut_jpeg = e.dir.path().join("cortado.jpg");
    let mut jpeg = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00".to_vec();
    jpeg.extend(b"\xff\xc0\x00\x11\x08\x00\x10\x00\x10\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01");
    jpeg.extend([0x55; 64]);
    std::fs::write(&cut_jpeg, &jpeg).unwrap();
    for bad in [&cut_png, &cut_jpeg] {
        let out = set(&["--logo", bad.to_str().unwrap()]);
        exits(&out, 2);
        assert!(
            text(&out.stderr).contains("debe ser una imagen PNG o JPEG"),
            "{}: {}",
            bad.display(),
            text(&out.stderr)
        );
    }
    let kept = invoice_desk::profile::Profiles::load(&e.dir.path().join("profiles.toml")).unwrap();
    let s = &kept.get("Pruebas").unwrap().sender;
    assert_eq!(
        (s.rut.as_str(), s.logo.as_ref()),
        ("76.123.456-0", None),
        "nothing changed"
    );
    // A whole image is taken.
    let logo = e.dir.path().join("logo-bueno.png");
    std::fs::write(&logo, &icon).unwrap();
    exits(&set(&["--logo", logo.to_str().unwrap()]), 0);
}

/// One invoice printed ("Imprimir" in Lookup): titled with its id, no aging table, its
/// line whatever it stands at (a paid one says so), its link's QR code when it is owed.
#[test]
#[cfg_attr(
    tests_lack = "pdf",
    ignore = "needs the PDF readers (apt-get install poppler-utils qpdf zbar-tools)"
)]
fn a_printed_invoice_is_titled_with_its_id_and_says_where_it_stands() {
    if !cli_env::have_pdf_readers() {
        return;
    }
    use invoice_desk::pdf::{Statement, invoice_pdf};
    let paid: Vec<invoice_desk::api::Invoice> = serde_json::from_value(serde_json::json!([
        {"id": "in_pagada", "customer": "cus_x", "amount": 45000, "currency_code": "CLP",
         "due_date": "2026-10-01", "is_paid": true, "is_void": false,
         "link_payment": "https://pay.example.cl/in_pagada"}
    ]))
    .unwrap();
    let s = sender();
    let made = invoice_pdf(
        &Statement {
            lang: invoice_desk::i18n::Lang::Es,
            sender: &s,
            customer: "cus_x",
            name: Some("Comercial Ñuñoa Ltda."),
            rut: None,
            as_of: as_of(),
            uf: None,
        },
        &paid[0],
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("factura.pdf");
    std::fs::write(&pdf, &made.pdf).unwrap();
    let words = pdftotext(&pdf);
    for expected in [
        "Factura in_pagada",
        "Comercial Ñuñoa Ltda.",
        "$45.000",
        "Pagada",
        "01-10-2026",
    ] {
        assert!(words.contains(expected), "{expected:?} in:\n{words}");
    }
    assert!(
        !words.contains("Adeudado, según días de atraso"),
        "no aging table"
    );
    // A paid invoice is not paid again: no link, no QR code.
    let pages = tempfile::tempdir().unwrap();
    assert!(qr_links(&pdf, pages.path()).is_empty());
}

/// A page image as grey: width, height, one byte per pixel (pdftoppm's PNG, grey or
/// RGB, 8 bits).
fn grey_png(path: &Path) -> (usize, usize, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!(info.bit_depth, png::BitDepth::Eight, "{}", path.display());
    pixels.truncate(info.buffer_size());
    let pixels = match info.color_type {
        png::ColorType::Grayscale => pixels,
        png::ColorType::Rgb => pixels
            .chunks_exact(3)
            .map(|p| ((u16::from(p[0]) + u16::from(p[1]) + u16::from(p[2])) / 3) as u8)
            .collect(),
        other => panic!("{}: {other:?}", path.display()),
    };
    (info.width as usize, info.height as usize, pixels)
}

/// Page 1 as a reader draws it (pdftoppm, grey, 40 dpi), in Spanish and in English,
/// against the pictures kept in tests/snapshots (UPDATE_SNAPSHOTS=1 writes them). At
/// most 0.5 % of the pixels may differ: a reader's anti-aliasing may, the layout not.
#[test]
#[cfg_attr(
    tests_lack = "pdf",
    ignore = "needs the PDF readers (apt-get install poppler-utils qpdf zbar-tools)"
)]
fn page_one_looks_as_it_did_in_both_languages() {
    if !cli_env::have_pdf_readers() {
        return;
    }
    use invoice_desk::pdf::{Statement, statement_pdf};
    let invoices: Vec<invoice_desk::api::Invoice> = (0..12)
        .map(|i| {
            serde_json::from_value(serde_json::json!({
                "id": format!("in_snapshot{i:02}"), "customer": "cus_foto",
                "amount": if i % 3 == 0 { serde_json::json!(format!("{}.1234", 10 + i)) } else { serde_json::json!(150_000 * (i + 1)) },
                "currency_code": if i % 3 == 0 { "CLF" } else { "CLP" },
                "due_date": format!("2026-{:02}-15", 1 + i % 12),
                "is_paid": false, "is_void": false,
                "invoice_external_id": format!("ERP-{i:04}"),
                "link_payment": format!("https://pay.example.cl/in_snapshot{i:02}")
            }))
            .unwrap()
        })
        .collect();
    let s = sender();
    for (lang, name) in [
        (invoice_desk::i18n::Lang::Es, "statement_es"),
        (invoice_desk::i18n::Lang::En, "statement_en"),
    ] {
        let made = statement_pdf(
            &Statement {
                lang,
                sender: &s,
                customer: "cus_foto",
                name: Some("Panadería La Espiga de Ñuble"),
                rut: Some("76.123.456-0"),
                as_of: as_of(),
                uf: None,
            },
            &invoices,
            false,
        )
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let pdf = dir.path().join("s.pdf");
        std::fs::write(&pdf, &made.pdf).unwrap();
        let prefix = dir.path().join("p");
        run(
            "pdftoppm",
            &[
                "-r".as_ref(),
                "40".as_ref(),
                "-gray".as_ref(),
                "-png".as_ref(),
                "-f".as_ref(),
                "1".as_ref(),
                "-l".as_ref(),
                "1".as_ref(),
                pdf.as_os_str(),
                prefix.as_os_str(),
            ],
        );
        let got_path = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|x| x == "png"))
            .unwrap();
        let kept = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/snapshots")
            .join(format!("{name}.png"));
        if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
            std::fs::copy(&got_path, &kept).unwrap();
            continue;
        }
        let (w, h, got) = grey_png(&got_path);
        let (kw, kh, want) = grey_png(&kept);
        assert_eq!((w, h), (kw, kh), "{name}: the page's size");
        let differ = got
            .iter()
            .zip(&want)
            .filter(|(a, b)| a.abs_diff(**b) > 64)
            .count();
        assert!(
            differ * 200 <= w * h,
            "{name}: {differ} of {} pixels differ (keep {} to compare)",
            w * h,
            got_path.display()
        );
    }
}

/// One invoice printed in Spanish, from its JSON as the service sends it.
fn printed(invoice: serde_json::Value, dir: &Path, name: &str) -> (std::path::PathBuf, String) {
    let invoices: Vec<invoice_desk::api::Invoice> =
        serde_json::from_value(serde_json::json!([invoice])).unwrap();
    let pdf = dir.join(name);
    std::fs::write(
        &pdf,
        made_es(
            true,
            &invoices,
            Some("Comercial Ñuñoa Ltda."),
            Some("77.888.999-K"),
        ),
    )
    .unwrap();
    run("qpdf", &["--check".as_ref(), pdf.as_os_str()]);
    let words = pdftotext(&pdf);
    (pdf, words)
}

/// A void or paid invoice, printed, cannot be taken for a bill: the word across the page
/// and a sentence in red, and no way to pay (no QR code, no link, no payment
/// instructions); an open one has all three. Each says when it was issued and that it is
/// not the tax document.
#[test]
#[cfg_attr(
    tests_lack = "pdf",
    ignore = "needs the PDF readers (apt-get install poppler-utils qpdf zbar-tools)"
)]
fn a_void_or_paid_invoice_printed_says_so_and_carries_no_way_to_pay() {
    if !cli_env::have_pdf_readers() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let base = serde_json::json!({
        "customer": "cus_x", "amount": 45000, "currency_code": "CLP",
        "due_date": "2026-12-01", "created_at": "2026-11-02T14:05:00-03:00",
        "link_payment": "https://pay.example.cl/in_1"
    });
    for (status, word, sentence) in [
        (
            "void",
            "ANULADA",
            "Esta factura está anulada: no se debe pagar.",
        ),
        (
            "paid",
            "PAGADA",
            "Esta factura está pagada: no hay nada pendiente.",
        ),
        ("open", "", ""),
    ] {
        let mut inv = base.clone();
        inv["id"] = format!("in_{status}").into();
        inv["is_void"] = (status == "void").into();
        inv["is_paid"] = (status == "paid").into();
        let (pdf, words) = printed(inv, dir.path(), &format!("{status}.pdf"));
        // The word across the page is rotated: read it as text, not as laid out.
        let raw = run(
            "pdftotext",
            &["-raw".as_ref(), pdf.as_os_str(), "-".as_ref()],
        );
        let pages = tempfile::tempdir().unwrap();
        let codes = qr_links(&pdf, pages.path());
        for expected in [
            "Emitida el 02-11-2026",
            "Comercial Ñuñoa Ltda.",
            "RUT 77.888.999-K",
            "no es un documento tributario (DTE)",
        ] {
            assert!(
                words.contains(expected),
                "{status}: {expected:?} in:\n{words}"
            );
        }
        assert!(
            !words.contains("cus_x"),
            "{status}: named, not numbered:\n{words}"
        );
        if status == "open" {
            assert!(words.contains("Cómo pagar"), "{words}");
            assert_eq!(codes, ["https://pay.example.cl/in_1"]);
            assert!(!raw.contains("ANULADA") && !raw.contains("PAGADA"), "{raw}");
        } else {
            assert!(words.contains(sentence), "{status}:\n{words}");
            assert!(
                raw.contains(word),
                "{status}: {word} across the page:\n{raw}"
            );
            assert!(
                !words.contains("Cómo pagar"),
                "{status}: no payment text:\n{words}"
            );
            assert!(
                !words.contains("Banco Estado"),
                "{status}: no bank account:\n{words}"
            );
            assert!(codes.is_empty(), "{status}: no QR code: {codes:?}");
            let raw = uncompressed(&pdf);
            assert!(!raw.contains("pay.example.cl"), "{status}: no link");
        }
    }
}

/// The PDF with its streams and objects uncompressed (qpdf's QDF form), as text.
fn uncompressed(pdf: &Path) -> String {
    let out = pdf.with_extension("qdf");
    run(
        "qpdf",
        &[
            "--qdf".as_ref(),
            "--object-streams=disable".as_ref(),
            pdf.as_os_str(),
            out.as_os_str(),
        ],
    );
    String::from_utf8_lossy(&std::fs::read(out).unwrap()).into_owned()
}

/// A payment link longer than a QR code holds still makes the statement: the link is
/// given as words to click, with no code; a reference the app made for a row without
/// one is not printed, the clerk's own is.
#[test]
#[cfg_attr(
    tests_lack = "pdf",
    ignore = "needs the PDF readers (apt-get install poppler-utils qpdf zbar-tools)"
)]
fn a_link_too_long_for_a_code_is_a_link_and_made_references_are_not_printed() {
    if !cli_env::have_pdf_readers() {
        return;
    }
    let long = format!("https://pay.example.cl/{}", "p".repeat(3000));
    let invoices: Vec<invoice_desk::api::Invoice> = serde_json::from_value(serde_json::json!([
        {"id": "in_largo", "customer": "cus_x", "amount": 1000, "currency_code": "CLP",
         "due_date": "2026-12-01", "is_paid": false, "is_void": false,
         "invoice_external_id": "BULK-0123456789abcdef-1", "link_payment": long},
        {"id": "in_corto", "customer": "cus_x", "amount": 2000, "currency_code": "CLP",
         "due_date": "2026-12-02", "is_paid": false, "is_void": false,
         "invoice_external_id": "OC-4471", "link_payment": "https://pay.example.cl/in_corto"}
    ]))
    .unwrap();
    let (_dir, pdf, words) = written(&made_es(false, &invoices, None, None), "s.pdf");
    assert!(words.contains("Pagar en línea"), "{words}");
    assert!(words.contains("OC-4471"), "{words}");
    assert!(!words.contains("BULK-"), "{words}");
    // Known by neither name nor RUT: its id is all there is.
    assert!(words.contains("Cliente cus_x"), "{words}");
    let pages = tempfile::tempdir().unwrap();
    assert_eq!(
        qr_links(&pdf, pages.path()),
        ["https://pay.example.cl/in_corto"]
    );
    assert!(
        uncompressed(&pdf).contains(&long),
        "the long link is there to click"
    );
}

/// Words on page 1 as pdftotext boxes them: (text, x min, x max, y min).
fn word_boxes(pdf: &Path) -> Vec<(String, f32, f32, f32)> {
    let html = run(
        "pdftotext",
        &[
            "-bbox".as_ref(),
            "-f".as_ref(),
            "1".as_ref(),
            "-l".as_ref(),
            "1".as_ref(),
            pdf.as_os_str(),
            "-".as_ref(),
        ],
    );
    let attr = |tag: &str, name: &str| -> f32 {
        let at = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        tag[at..].split('"').next().unwrap().parse().unwrap()
    };
    html.split("<word ")
        .skip(1)
        .map(|w| {
            let (tag, rest) = w.split_once('>').unwrap();
            let word = rest.split("</word>").next().unwrap().to_string();
            (
                word,
                attr(tag, "xMin"),
                attr(tag, "xMax"),
                attr(tag, "yMin"),
            )
        })
        .collect()
}

/// The largest amounts in every bucket, in pesos and in UF: each cell of the aging
/// table stands apart from its neighbours (they used to print over each other).
#[test]
#[cfg_attr(
    tests_lack = "pdf",
    ignore = "needs the PDF readers (apt-get install poppler-utils qpdf zbar-tools)"
)]
fn the_largest_amounts_in_every_bucket_never_overprint() {
    if !cli_env::have_pdf_readers() {
        return;
    }
    let dues = [
        "2026-12-30",
        "2026-11-10",
        "2026-10-10",
        "2026-09-10",
        "2025-01-10",
    ];
    let mut list = Vec::new();
    for (i, due) in dues.iter().enumerate() {
        for (code, amount) in [
            ("CLP", serde_json::json!(999_999_999_999u64)),
            ("CLF", serde_json::json!("99999999.9999")),
        ] {
            list.push(serde_json::json!({
                "id": format!("in_{code}{i}"), "customer": "cus_x", "amount": amount,
                "currency_code": code, "due_date": due, "is_paid": false, "is_void": false
            }));
        }
    }
    let invoices: Vec<invoice_desk::api::Invoice> =
        serde_json::from_value(serde_json::Value::Array(list)).unwrap();
    let (_dir, pdf, _) = written(
        &made_es(false, &invoices, Some("Grandes Cuentas S.A."), None),
        "grande.pdf",
    );
    let words = word_boxes(&pdf);
    // The aging table's rows: the lines that start with the currencies' names.
    for label in ["Pesos", "UF"] {
        let y = words
            .iter()
            .find(|w| w.0 == label)
            .unwrap_or_else(|| panic!("{label} in {words:?}"))
            .3;
        let mut row: Vec<&(String, f32, f32, f32)> =
            words.iter().filter(|w| (w.3 - y).abs() < 1.0).collect();
        row.sort_by(|a, b| a.1.total_cmp(&b.1));
        let line: Vec<&str> = row.iter().map(|w| w.0.as_str()).collect();
        let amounts = line
            .iter()
            .filter(|w| w.contains("999.999") || w.contains(".999.999"))
            .count();
        // Five buckets and the total.
        assert_eq!(amounts, 6, "{line:?}");
        for pair in row.windows(2) {
            assert!(
                pair[0].2 <= pair[1].1 + 0.01,
                "{:?} runs into {:?} in {line:?}",
                pair[0].0,
                pair[1].0
            );
        }
        // Nothing past the page's right margin.
        assert!(row.iter().all(|w| w.2 <= 595.28 - 39.0), "{line:?}");
    }
}

/// The month's summary as Excel in Spanish reads it: semicolons, a byte order mark, UF
/// with a decimal comma; files named by the customer's name when the directory knows it.
#[test]
fn a_months_summary_in_excel_spanish_and_files_named_by_the_customer() {
    let e = Env::new(0);
    let c =
        e.s.customers()
            .iter()
            .find(|c| c.2 > 0)
            .map(|c| c.0.clone())
            .unwrap();
    let directory = e.dir.path().join("directorio.csv");
    std::fs::write(&directory, format!("id,nombre\n{c},Panadería La Espiga\n")).unwrap();
    exits(
        &cli_env::cli(e.dir.path())
            .args(["customers", "import"])
            .arg(&directory)
            .output()
            .unwrap(),
        0,
    );
    let list = e.dir.path().join("clientes.csv");
    std::fs::write(&list, format!("{c}\n")).unwrap();
    let folder = e.dir.path().join("mes");
    let out = with_sender(&e, sender())
        .args(["--lang", "es", "statements", "--customers"])
        .arg(&list)
        .arg("--out")
        .arg(&folder)
        .args(["--as-of", AS_OF, "--dialect", "excel-es"])
        .output()
        .unwrap();
    exits(&out, 0);
    let pdf = folder.join("estado-de-cuenta-Panadería-La-Espiga-2026-11-24.pdf");
    assert!(
        pdf.exists(),
        "{:?}",
        std::fs::read_dir(&folder).unwrap().collect::<Vec<_>>()
    );
    let summary = std::fs::read_to_string(folder.join("resumen-2026-11-24.csv")).unwrap();
    assert!(
        summary.starts_with("\u{feff}Cliente;Nombre;Archivo;Moneda;Adeudado;"),
        "{summary}"
    );
    assert!(
        summary.contains("estado-de-cuenta-Panadería-La-Espiga-2026-11-24.pdf"),
        "{summary}"
    );
    for line in summary.lines().skip(1) {
        let cells: Vec<&str> = line.split(';').collect();
        assert_eq!(cells.len(), 8, "{line}");
        assert!(!cells[4].contains('.') || cells[4].contains(','), "{line}");
    }
}

/// #50: `statement --uf-pesos` says under the UF owed its pesos on the day's UF value
/// (the sandbox's CMF routes), exact to the peso, as a reference; without a key it warns
/// and says UF alone.
#[test]
fn a_statement_can_say_the_uf_owed_in_pesos_on_the_days_value() {
    let e = Env::new(0);
    let customer = e.customer();
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("con-pesos.pdf");
    let out = with_sender(&e, sender())
        .env("INVOICE_DESK_CMF_URL", format!("{}/cmf", e.s.base_url))
        .env("INVOICE_DESK_CMF_KEY", invoice_desk::uf::SANDBOX_KEY)
        .args(["--lang", "es", "statement", &customer, "--out"])
        .arg(&pdf)
        .args(["--as-of", AS_OF, "--uf-pesos"])
        .output()
        .unwrap();
    exits(&out, 0);
    run("qpdf", &["--check".as_ref(), pdf.as_os_str()]);
    let words = pdftotext(&pdf);
    // The UF owed, as the statement's own table says it, and its pesos worked out here.
    let owed: rust_decimal::Decimal = listed(&e, &customer)
        .iter()
        .filter(|i| {
            i.currency_code.as_deref() == Some("CLF")
                && invoice_desk::receivables::aging::Standing::of(i, as_of())
                    .bucket()
                    .is_some()
        })
        .filter_map(|i| i.amount)
        .sum();
    let value = invoice_desk::sandbox::uf::values(as_of(), as_of(), as_of())[0].1;
    let pesos = (owed * value)
        .round_dp_with_strategy(0, rust_decimal::RoundingStrategy::MidpointAwayFromZero);
    let line = format!(
        "Referencia: {} equivalen a {} con la UF del 24-11-2026 (${}, publicada por la CMF).",
        invoice_desk::api::money::format_amount(owed, Some("CLF")),
        invoice_desk::api::money::format_amount(pesos, Some("CLP")),
        invoice_desk::api::money::format_es_cl(value, 2)
    );
    let flat = words.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains(&line), "{line}\n{flat}");
    // The clerk is told where the value came from and who stored it (#66).
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("UF al 24-11-2026: $") && said.contains("(CMF; guardado por "),
        "{said}"
    );
    // Without a key (and another journal, which keeps no value yet): said, and the
    // statement says UF alone. (The first journal keeps the month: asked again, it
    // would need no key.)
    let plain = dir.path().join("sin-pesos.pdf");
    let out = with_sender(&e, sender())
        .env("INVOICE_DESK_JOURNAL", dir.path().join("otro.sqlite3"))
        .args(["--lang", "es", "statement", &customer, "--out"])
        .arg(&plain)
        .args(["--as-of", AS_OF, "--uf-pesos"])
        .output()
        .unwrap();
    exits(&out, 0);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Sin llave de la CMF"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!pdftotext(&plain).contains("Referencia:"));
}
