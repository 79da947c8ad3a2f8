//! Every spreadsheet we write, from a hostile service's answers: a service whose ids,
//! customers, references, links, metadata and unknown fields are formulas
//! (`=HYPERLINK(…)`, `+cmd`, `@SUM`, `-2+3`, a tab or a carriage return first). Each
//! file is read back with a real reader (the csv crate, calamine) and every cell that
//! came from the service must be guarded (a leading `'`), amounts staying numbers; no
//! workbook cell may be a formula.

mod cli_env;

use calamine::{Data, Reader, Xlsx};
use cli_env::{exits, text};
use serde_json::{Value, json};
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, ResponseTemplate};

const LIVE: [&str; 6] = [
    "=HYPERLINK(\"https://evil.example\",\"pagar\")",
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
];

fn hostile_invoice(i: usize) -> Value {
    let live = |k: usize| LIVE[(i + k) % LIVE.len()];
    json!({
        "id": live(0),
        "customer": "cus_hostil",
        "product_id": live(1),
        "due_date": live(2),
        "amount": 1000 + i,
        "currency_code": "CLP",
        "is_paid": false,
        "is_void": false,
        "link_payment": live(3),
        "invoice_external_id": live(4),
        "metadata": {"nota": live(5), live(0): live(1)},
        "status": live(2),
        "campo_raro": live(3),
    })
}

async fn hostile_service() -> MockServer {
    let server = MockServer::start().await;
    let page: Vec<Value> = (0..12).map(hostile_invoice).collect();
    Mock::given(method("GET"))
        .and(path_regex("^/invoices/customer/.*"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"items": page})))
        .mount(&server)
        .await;
    // Every create "succeeds" with a live id (and echoes a live reference).
    Mock::given(method("POST"))
        .and(path("/invoices"))
        .respond_with(ResponseTemplate::new(201).set_body_json(hostile_invoice(0)))
        .mount(&server)
        .await;
    server
}

/// A cell is safe when it cannot run in a spreadsheet: it does not start with a formula
/// character, or it is a number (an amount).
fn safe(cell: &str) -> bool {
    match cell.chars().next() {
        Some('=' | '+' | '@' | '\t' | '\r') => false,
        Some('-') => cell.parse::<f64>().is_ok(),
        _ => true,
    }
}

fn check_csv(file: &std::path::Path, delimiter: u8) -> usize {
    let bytes = std::fs::read(file).unwrap();
    let mut r = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&bytes));
    let mut cells = 0;
    for rec in r.records() {
        for c in rec.unwrap().iter() {
            assert!(safe(c), "{}: a live cell {c:?}", file.display());
            cells += 1;
        }
    }
    cells
}

fn check_xlsx(file: &std::path::Path) -> usize {
    let mut book: Xlsx<_> = calamine::open_workbook(file).unwrap();
    let mut cells = 0;
    for name in book.sheet_names() {
        let range = book.worksheet_range(&name).unwrap();
        for c in range.used_cells() {
            if let Data::String(s) = c.2 {
                assert!(safe(s), "{} {name}: a live cell {s:?}", file.display());
            }
            cells += 1;
        }
        let formulas = book.worksheet_formula(&name).unwrap();
        assert!(
            formulas.used_cells().all(|c| c.2.is_empty()),
            "{} {name}: a formula",
            file.display()
        );
    }
    cells
}

#[test]
fn every_file_we_write_from_a_hostile_service_is_guarded() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(hostile_service());
    let dir = tempfile::tempdir().unwrap();
    let cli = || {
        let mut c = cli_env::cli(dir.path());
        c.env("INVOICE_DESK_BASE_URL", server.uri())
            .env("INVOICE_DESK_API_KEY", "key-de-prueba")
            .env("INVOICE_DESK_ACCOUNT_KEY", "acc_clp_de_prueba");
        c
    };
    let out = |name: &str| dir.path().join(name);
    let mut checked = Vec::new();
    for (name, extra) in [
        ("estandar.csv", vec![]),
        ("excel.csv", vec!["--dialect", "excel-es"]),
        ("libro.xlsx", vec![]),
    ] {
        let target = out(name);
        let mut args = vec!["export", "cus_hostil", "--out", target.to_str().unwrap()];
        args.extend(extra);
        exits(&cli().args(&args).output().unwrap(), 0);
        checked.push(target);
    }
    // `list --format csv` to a file by the shell.
    let listed = cli()
        .args(["list", "cus_hostil", "--format", "csv"])
        .output()
        .unwrap();
    exits(&listed, 0);
    std::fs::write(out("listado.csv"), &listed.stdout).unwrap();
    checked.push(out("listado.csv"));
    // A billing run: its report, CSV and Excel, holds the service's ids.
    let file = out("mes.csv");
    std::fs::write(&file, "cliente,monto\ncus_hostil,5000\ncus_hostil,6000\n").unwrap();
    for report in ["informe.csv", "informe.xlsx"] {
        let target = out(report);
        let o = cli()
            .args([
                "bulk",
                file.to_str().unwrap(),
                "--yes",
                "--allow-similar",
                "--report",
                target.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert!(
            matches!(o.status.code(), Some(0 | 4)),
            "{}",
            text(&o.stderr)
        );
        checked.push(target);
    }
    // The journal's export holds them too.
    let journal = out("registro.csv");
    exits(
        &cli()
            .args(["journal", "export", "--out", journal.to_str().unwrap()])
            .output()
            .unwrap(),
        0,
    );
    checked.push(journal);
    for f in &checked {
        let name = f.to_string_lossy();
        let cells = if name.ends_with(".xlsx") {
            check_xlsx(f)
        } else if name.ends_with("excel.csv") {
            check_csv(f, b';')
        } else {
            check_csv(f, b',')
        };
        assert!(cells > 10, "{name}: {cells} cells checked");
    }
    // The guard is a leading apostrophe: the text itself is kept.
    let kept = std::fs::read_to_string(out("informe.csv")).unwrap();
    assert!(kept.contains("'=HYPERLINK("), "{kept}");
}
