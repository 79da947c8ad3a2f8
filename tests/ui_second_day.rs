//! A clerk's second day, in Spanish (a test binary of its own: the language is
//! process-wide): Excel numbers read as numbers, every panel reachable on a small screen,
//! nothing that moves under the pointer, no silent button, names instead of ids, the
//! clerk's words.

mod common;

use common::{click, has_text, runtime, set_text, step_until};
use egui_kittest::kittest::{NodeT, Queryable};
use invoice_desk::i18n::{Lang, text};
use invoice_desk::sandbox::{Sandbox, SandboxConfig};

fn sandbox(rt: &tokio::runtime::Runtime) -> Sandbox {
    rt.block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap()
}

fn app(
    rt: &tokio::runtime::Runtime,
    s: &Sandbox,
    dir: &std::path::Path,
    size: [f32; 2],
) -> common::H {
    common::connected_with_journal(
        rt,
        {
            let mut p = s.profile("Pruebas");
            p.account_currency = Some(invoice_desk::api::Currency::CLP);
            p
        },
        &s.credentials.client_secret,
        dir,
        size,
        Lang::Es,
        Some(dir.join("journal.sqlite3")),
    )
}

/// A month's workbook with number cells: UF amounts (`23.193`, `35.887`), pesos, a date
/// cell, and "UF" / "pesos" for the currency.
fn workbook(path: &std::path::Path, customer: &str) {
    use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
    let mut book = Workbook::new();
    let ws = book.add_worksheet();
    for (c, h) in ["Cliente", "Monto", "Moneda", "Vencimiento"]
        .iter()
        .enumerate()
    {
        ws.write_string(0, c as u16, *h).unwrap();
    }
    let date = Format::new().set_num_format("dd-mm-yyyy");
    let day = ExcelDateTime::from_ymd(2026, 12, 31).unwrap();
    for (r, (amount, currency)) in [(23.193, "UF"), (35.887, "uf"), (1_341_000.0, "pesos")]
        .into_iter()
        .enumerate()
    {
        let r = r as u32 + 1;
        ws.write_string(r, 0, customer).unwrap();
        ws.write_number(r, 1, amount).unwrap();
        ws.write_string(r, 2, currency).unwrap();
        ws.write_datetime_with_format(r, 3, &day, &date).unwrap();
    }
    book.save(path).unwrap();
}

/// Item 1 (and 7's currency words): an Excel number cell is a number; the table shows
/// amounts the Chilean way and dates as the clerk writes them.
#[test]
fn excel_numbers_are_numbers_and_the_table_shows_them_the_chilean_way() {
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("diciembre.xlsx");
    workbook(&file, &s.customers()[0].0);
    let mut h = app(&rt, &s, dir.path(), [1280.0, 800.0]);
    read_in_bulk(&mut h, &file);
    let plan = h.state().bulk().loaded_plan().unwrap();
    assert!(plan.problems.is_empty(), "{:?}", plan.problems);
    assert_eq!(plan.rows[0].invoice.amount.to_string(), "23.193");
    assert_eq!(plan.rows[1].invoice.amount.to_string(), "35.887");
    assert!(!has_text(&h, "ambiguo"));
    for shown in ["UF 23,1930", "UF 35,8870", "$1.341.000", "31-12-2026"] {
        assert!(has_text(&h, shown), "{shown}");
    }
    assert!(!has_text(&h, "1341000"));
    assert!(!has_text(&h, "2026-12-31"));
}

/// Item 2: at 1024x640 and zoom 1.5, with the interrupted-run notice above, every control
/// of Customer invoices and ten rows of its table can be scrolled to and are then on the
/// screen.
#[test]
fn customer_invoices_keep_every_control_and_ten_rows_reachable_on_a_small_zoomed_screen() {
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    // A run cut short: its notice takes room above every panel.
    {
        let file = dir.path().join("marzo.csv");
        std::fs::write(&file, "cliente,monto\n").unwrap();
        let mut j =
            invoice_desk::journal::Journal::open(&dir.path().join("journal.sqlite3")).unwrap();
        j.start_run(&file, "x", "Pruebas", &s.base_url, 3, None)
            .unwrap();
    }
    let mut h = app(&rt, &s, dir.path(), [1024.0, 640.0]);
    h.ctx.set_zoom_factor(1.5);
    h.step();
    h.step();
    // The customer with the most invoices.
    let (customer, _, n) = s.customers().into_iter().max_by_key(|c| c.2).unwrap();
    assert!(n >= 10);
    click(&mut h, &text("tab-customers"));
    set_text(&mut h, &text("f-customer-id"), &customer);
    click(&mut h, &text("cu-load"));
    step_until(&mut h, "listed", |h| {
        !h.state().customers_loading() && h.state().customer_rows().0.len() == n
    });
    let screen = h.ctx.content_rect();
    let on_screen = |h: &common::H, label: &str| {
        let r = h.get_by_label_contains(label).rect();
        screen.contains_rect(r.shrink(1.0))
    };
    // Every control, by its accessible name.
    let controls = [
        text("f-customer-id"),
        text("cu-load"),
        text("dir-import"),
        text("cu-filter"),
        text("cu-hide-void"),
        text("tab-bulk"),
        text("menu-help"),
        text("menu-view"),
    ];
    for label in &controls {
        h.get_by_label_contains(label).scroll_to_me();
        h.step();
        h.step();
        assert!(
            on_screen(&h, label),
            "{label} cannot be brought onto the screen"
        );
    }
    // Ten rows of the table, by their invoice ids: the clerk scrolls the panel with the
    // wheel over its upper part until the table is on screen; ten rows are then there.
    let ids: Vec<String> = {
        let (rows, view) = h.state().customer_rows();
        view.order
            .iter()
            .take(10)
            .map(|&i| rows.get(i).id.clone())
            .collect()
    };
    // Just below the top bar: the panel's upper edge.
    let top = ["tab-credentials", "tab-bulk", "menu-help"]
        .iter()
        .map(|k| h.get_by_label(&text(k)).rect().bottom())
        .fold(0.0, f32::max)
        + 30.0;
    let header = text("col-invoice");
    for _ in 0..200 {
        // Until the table's header is near the top: the rows below it are then all in view.
        let at = h.get_by_label(&header).rect();
        if at.top() < top + 20.0 {
            break;
        }
        h.event(egui::Event::PointerMoved(egui::pos2(20.0, top)));
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta: egui::vec2(0.0, -1.0),
            modifiers: egui::Modifiers::NONE,
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
        });
        h.step();
        h.step();
    }
    for id in &ids {
        assert!(
            on_screen(&h, id),
            "row {id} is not on the screen: {:?} in {screen:?}",
            h.get_by_label(id).rect()
        );
    }
    // The top bar does not draw over itself: its menus do not overlap the badges.
    let help = h.get_by_label(&text("menu-help")).rect();
    let profile = h.get_by_label(&text("top-profile")).rect();
    assert!(!help.intersects(profile));
}

/// The directory knows the sandbox's customers by name (as if imported).
fn directory(dir: &std::path::Path, s: &Sandbox) {
    let mut j = invoice_desk::journal::Journal::open(&dir.join("journal.sqlite3")).unwrap();
    let customers: Vec<invoice_desk::journal::Customer> = s
        .customers()
        .into_iter()
        .map(|(id, name, _)| invoice_desk::journal::Customer {
            id,
            name: Some(name),
            rut: None,
            notes: None,
            emails: Vec::new(),
        })
        .collect();
    j.import_customers(&customers).unwrap();
}

/// The app connected to `s` through a profile marked as the built-in sandbox's (its
/// directory names its customers, its CMF routes give the UF's value), in Spanish, its
/// journal a file in `dir` (the search index beside it).
fn sandboxed(
    rt: &tokio::runtime::Runtime,
    s: &Sandbox,
    dir: &std::path::Path,
    size: [f32; 2],
) -> common::H {
    let mut p = s.profile("Pruebas");
    p.account_currency = Some(invoice_desk::api::Currency::CLP);
    p.sandbox = true;
    common::connected_with_journal(
        rt,
        p,
        &s.credentials.client_secret,
        dir,
        size,
        Lang::Es,
        Some(dir.join("journal.sqlite3")),
    )
}

/// Reads `file` in the Bulk issue panel, until its plan is shown.
fn read_in_bulk(h: &mut common::H, file: &std::path::Path) {
    click(h, &text("tab-bulk"));
    set_text(h, &text("bulk-file"), file.to_str().unwrap());
    click(h, &text("bulk-read"));
    step_until(h, "read", |h| h.state().bulk().loaded_plan().is_some());
}

fn rect_of(h: &common::H, label: &str) -> egui::Rect {
    h.get_by_label(label).rect()
}

/// Items 3 and 5: what appears under the customer field (the directory's suggestions)
/// and under the due date (its reading) moves nothing; the suggestions are reached with
/// the keyboard; a name typed and not picked is sent as the one customer it names, and a
/// name that names nobody is not sent.
#[test]
fn suggestions_and_readings_move_nothing_and_names_resolve() {
    use common::type_into;
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    directory(dir.path(), &s);
    let mut h = app(&rt, &s, dir.path(), [1024.0, 640.0]);
    click(&mut h, &text("tab-create"));
    let product = text("f-product-id");
    let amount = text("f-amount");
    let (p0, a0) = (rect_of(&h, &product), rect_of(&h, &amount));
    // Suggestions open over the form.
    type_into(&mut h, &text("f-customer-id"), "Comercial");
    step_until(&mut h, "suggestions", |h| {
        has_text(h, "Comercial Ñuñoa Ltda.")
    });
    assert_eq!(rect_of(&h, &product), p0, "the product field did not move");
    // Down and Enter take the first one.
    h.key_press(egui::Key::ArrowDown);
    h.step();
    h.key_press(egui::Key::Enter);
    h.step();
    h.step();
    let nunoa = s
        .customers()
        .into_iter()
        .find(|c| c.1.starts_with("Comercial Ñuñoa"))
        .unwrap()
        .0;
    assert_eq!(common::field_text(&h, &text("f-customer-id")), nunoa);
    // The keyboard goes on from the customer field (it went to the top of the window):
    // Tab, and what is typed lands in the next field.
    h.key_press(egui::Key::Tab);
    h.step();
    h.event(egui::Event::Text("prod_x".into()));
    h.step();
    h.step();
    assert_eq!(common::field_text(&h, &text("f-customer-id")), nunoa);
    assert_eq!(common::field_text(&h, &product), "prod_x");
    set_text(&mut h, &product, "");
    // A date's reading appears under its field: the amount field stays where it was.
    type_into(&mut h, &text("f-due-date"), "31-12-2026");
    assert!(has_text(&h, "= jueves 31 de diciembre de 2026"));
    assert_eq!(rect_of(&h, &amount), a0, "the amount field did not move");
    // A name typed, not picked: sent as the one customer it names.
    let before = s.customers().into_iter().find(|c| c.0 == nunoa).unwrap().2;
    set_text(&mut h, &text("f-customer-id"), "Comercial Nunoa");
    step_until(&mut h, "resolved", |h| {
        has_text(h, "= Comercial Ñuñoa Ltda.")
    });
    type_into(&mut h, &amount, "12.000");
    click(&mut h, &text("cr-create"));
    step_until(&mut h, "created", |h| has_text(h, "creada."));
    let count = |s: &Sandbox| s.customers().into_iter().find(|c| c.0 == nunoa).unwrap().2;
    assert_eq!(
        count(&s),
        before + 1,
        "issued to the customer the name names"
    );
    click(&mut h, &text("cr-another"));
    // A name that names nobody is not sent.
    set_text(&mut h, &text("f-customer-id"), "Nadie Conocido");
    type_into(&mut h, &amount, "5.000");
    step_until(&mut h, "refused", |h| {
        has_text(h, "No hay un cliente «Nadie Conocido»")
    });
    assert!(!common::enabled(&h, &text("cr-create")));
}

/// Item 3: the interrupted-run notice lives at the bottom (nothing above the panel moves
/// when it comes or goes), stays gone while its file is remapped, goes when the resumed
/// run ends, and "Descartar" asks first.
#[test]
fn the_interrupted_run_notice_moves_nothing_and_asks_before_it_is_forgotten() {
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let c = s.customers()[0].0.clone();
    let file = dir.path().join("marzo.csv");
    std::fs::write(&file, format!("Cliente,Importe\n{c},1000\n{c},2000\n")).unwrap();
    let other = dir.path().join("abril.csv");
    std::fs::write(&other, format!("Cliente,Monto\n{c},3000\n")).unwrap();
    {
        let mut j =
            invoice_desk::journal::Journal::open(&dir.path().join("journal.sqlite3")).unwrap();
        j.start_run(&other, "y", "Pruebas", &s.base_url, 1, None)
            .unwrap();
        j.start_run(&file, "x", "Pruebas", &s.base_url, 2, None)
            .unwrap();
    }
    let mut h = app(&rt, &s, dir.path(), [1024.0, 640.0]);
    click(&mut h, &text("tab-bulk"));
    step_until(&mut h, "the notices", |h| {
        has_text(h, "abril.csv") && has_text(h, "marzo.csv")
    });
    let read = rect_of(&h, &text("bulk-read"));
    // "Descartar" asks; "Mantenerla" keeps it.
    let dismiss = text("bulk-resume-dismiss");
    h.get_all_by_label(&dismiss).last().unwrap().click();
    h.step();
    h.step();
    h.step();
    assert!(has_text(&h, &text("bulk-forget-title")));
    click(&mut h, &text("bulk-forget-keep"));
    assert!(has_text(&h, "abril.csv"));
    // Forgotten: the notice goes, the panel does not move.
    h.get_all_by_label(&dismiss).last().unwrap().click();
    h.step();
    h.step();
    click(&mut h, &text("bulk-forget-yes"));
    step_until(&mut h, "forgotten", |h| !has_text(h, "abril.csv"));
    assert_eq!(
        rect_of(&h, &text("bulk-read")),
        read,
        "the panel did not move"
    );
    // Resumed, then remapped: the notice does not come back.
    click(&mut h, &text("bulk-resume-open"));
    step_until(&mut h, "read", |h| h.state().bulk().loaded_plan().is_some());
    assert!(!has_text(&h, "marzo.csv (iniciada"));
    let before = rect_of(&h, &text("bulk-read"));
    common::pick(&mut h, "Importe", &text("bulk-field-amount"));
    step_until(&mut h, "remapped", |h| {
        h.state()
            .bulk()
            .loaded_plan()
            .is_some_and(|p| p.rows.len() == 2)
    });
    assert!(!has_text(&h, "Una emisión masiva de marzo.csv"));
    assert_eq!(rect_of(&h, &text("bulk-read")), before);
    // Issued to the end: the notice is gone for good.
    click(&mut h, "Emitir 2 facturas…");
    click(&mut h, &text("bulk-confirm-yes"));
    step_until(&mut h, "issued", |h| has_text(h, "Terminado: 2 emitidas"));
    assert!(!has_text(&h, "Una emisión masiva de marzo.csv"));
}

/// Item 4 (and 9's void invoice): no button stays silent. With no browser and no file
/// manager to open, the payment link is copied and shown, the exported file's folder is
/// named; with no file dialog, the directory is imported from a typed path; a void
/// invoice offers no payment buttons.
#[test]
fn buttons_that_cannot_do_their_work_say_so_and_offer_another_way() {
    use common::type_into;
    use invoice_desk::ui::external::External;
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let asked = std::sync::Arc::new(std::sync::Mutex::new(Vec::<External>::new()));
    let recorded = asked.clone();
    let mut h = common::customized(
        &rt,
        s.profile("Pruebas"),
        &s.credentials.client_secret,
        dir.path(),
        [1280.0, 800.0],
        Lang::Es,
        Some(dir.path().join("journal.sqlite3")),
        None,
        move |deps| {
            deps.opener = Some(std::sync::Arc::new(move |what: &External| {
                recorded.lock().unwrap().push(what.clone());
                Err("no hay navegador ni administrador de archivos".into())
            }));
        },
    );
    // The payment link.
    let id = s
        .sample_invoice(invoice_desk::sandbox::data::ORG_OAUTH)
        .unwrap();
    click(&mut h, &text("tab-lookup"));
    type_into(&mut h, &text("f-invoice-id"), &id);
    click(&mut h, &text("lk-look-up"));
    step_until(&mut h, "looked up", |h| has_text(h, &text("lk-open-link")));
    click(&mut h, &text("lk-open-link"));
    step_until(&mut h, "said", |h| {
        has_text(h, "No se pudo abrir el navegador")
    });
    assert!(has_text(&h, "https://pay.sandbox.invalid/"));
    assert!(matches!(asked.lock().unwrap()[0], External::Link(_)));
    // Voided: no payment buttons.
    click(&mut h, &text("lk-void"));
    click(&mut h, &text("lk-void-invoice"));
    step_until(&mut h, "voided", |h| has_text(h, "fue anulada"));
    assert!(!has_text(&h, &text("lk-open-link")));
    assert!(!has_text(&h, &text("lk-copy-link")));
    // The exported file's folder.
    click(&mut h, &text("tab-customers"));
    set_text(&mut h, &text("f-customer-id"), &s.customers()[0].0);
    click(&mut h, &text("cu-load"));
    step_until(&mut h, "listed", |h| {
        !h.state().customers_loading() && !h.state().customer_rows().0.is_empty()
    });
    click(&mut h, &text("cu-save-to-path"));
    let target = dir.path().join("facturas.xlsx");
    set_text(&mut h, &text("cu-file"), target.to_str().unwrap());
    click(&mut h, &text("cu-save-file"));
    step_until(&mut h, "exported", |h| has_text(h, &text("cu-open-folder")));
    click(&mut h, &text("cu-open-folder"));
    step_until(&mut h, "said", |h| {
        has_text(h, "No se pudo abrir la carpeta")
    });
    assert!(has_text(&h, &dir.path().display().to_string()));
    // The directory, from a typed path (the test has no file dialog).
    let file = dir.path().join("clientes.csv");
    std::fs::write(&file, "id,nombre\ncus_x1,Cliente Uno\ncus_x2,Cliente Dos\n").unwrap();
    click(&mut h, &text("dir-import"));
    step_until(&mut h, "the path row", |h| {
        has_text(h, &text("dir-import-path"))
    });
    set_text(&mut h, &text("dir-import-path"), file.to_str().unwrap());
    click(&mut h, &text("dir-import-from"));
    step_until(&mut h, "imported", |h| has_text(h, "2 clientes"));
    // The billing file's "Elegir…" with no dialog says how to go on (it said nothing).
    click(&mut h, &text("tab-bulk"));
    click(&mut h, &text("bulk-choose"));
    step_until(&mut h, "said", |h| {
        has_text(h, "No se eligió un archivo. Si no se abrió ninguna ventana")
    });
}

/// Items 6 to 9: the directory's names beside the ids (Lookup, the void dialog,
/// Activity, the export's file name, the billing results file), the clerk's words
/// ("$450.000", "TK20400 · el cliente no existe", a past due date said before sending),
/// exports from the app in Activity, and a Spanish clerk's defaults (a workbook, the focus
/// on the invoice's first action, Esc closing Diagnostics).
#[test]
fn names_words_journaled_exports_and_a_spanish_clerks_defaults() {
    use common::type_into;
    use egui::accesskit::Role;
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    directory(dir.path(), &s);
    let mut h = app(&rt, &s, dir.path(), [1280.0, 800.0]);
    let (id, name, _) = s
        .customers()
        .into_iter()
        .find(|c| c.1.starts_with("Comercial Ñuñoa"))
        .unwrap();
    let label = format!("{name} ({id})");

    // A due date already past is said before sending; a right one is not.
    click(&mut h, &text("tab-create"));
    set_text(&mut h, &text("f-customer-id"), &id);
    type_into(&mut h, &text("f-due-date"), "01-11-2026");
    assert!(has_text(&h, "ya pasó (hace 22 días)"));
    set_text(&mut h, &text("f-due-date"), "31-12-2026");
    assert!(!has_text(&h, "ya pasó"));
    type_into(&mut h, &text("f-amount"), "450.000");
    click(&mut h, &text("cr-create"));
    step_until(&mut h, "created", |h| has_text(h, "creada."));

    // Lookup: the name beside the id, "Creada", and the focus on the first action.
    click(&mut h, &text("open-in-lookup"));
    step_until(&mut h, "shown", |h| {
        has_text(h, &text("field-created-at")) && has_text(h, &label)
    });
    h.step();
    assert!(
        h.get_by_role_and_label(Role::Button, &text("lk-copy-link"))
            .accesskit_node()
            .is_focused(),
        "the focus is on the invoice's first action"
    );
    // The void dialog names the customer too.
    click(&mut h, &text("lk-void"));
    assert!(has_text(&h, &text("lk-confirm-title")));
    assert_eq!(
        h.query_all_by_label(&label).count(),
        2,
        "details and dialog"
    );
    click(&mut h, &text("cancel"));

    // A create the service refuses: its code in words in Activity.
    click(&mut h, &text("tab-create"));
    click(&mut h, &text("cr-another"));
    set_text(&mut h, &text("f-customer-id"), "cus_noexiste");
    type_into(&mut h, &text("f-amount"), "1.000");
    click(&mut h, &text("cr-create"));
    step_until(&mut h, "refused", |h| {
        has_text(h, "No existe el cliente cus_noexiste")
    });

    // An export from the app: a workbook by default, named after the customer, and in
    // Activity.
    click(&mut h, &text("tab-customers"));
    set_text(&mut h, &text("f-customer-id"), &id);
    click(&mut h, &text("cu-load"));
    step_until(&mut h, "listed", |h| {
        !h.state().customers_loading() && !h.state().customer_rows().0.is_empty()
    });
    assert!(
        h.query_all_by_role(Role::ComboBox)
            .any(|n| n.accesskit_node().value() == Some(text("format-xlsx"))),
        "a workbook by default"
    );
    click(&mut h, &text("cu-save-to-path"));
    let suggested = common::field_text(&h, &text("cu-file"));
    assert!(
        suggested.ends_with(&format!("facturas-Comercial-Ñuñoa-Ltda-{id}.xlsx")),
        "{suggested}"
    );
    let target = dir.path().join("nunoa.xlsx");
    set_text(&mut h, &text("cu-file"), target.to_str().unwrap());
    click(&mut h, &text("cu-save-file"));
    step_until(&mut h, "exported", |h| has_text(h, &text("cu-open-folder")));
    assert!(target.exists());

    // Activity: names, pesos the Chilean way, the code in words, the export.
    click(&mut h, &text("tab-activity"));
    step_until(&mut h, "activity", |h| has_text(h, "nunoa.xlsx"));
    assert!(has_text(&h, &label), "the customer by name");
    assert!(has_text(&h, "$450.000"));
    assert!(!has_text(&h, "moneda de la cuenta"));
    assert!(has_text(&h, "TK20400 · el cliente no existe"));
    assert!(has_text(&h, &text("act-export-action")));

    // Diagnostics closes with Esc.
    click(&mut h, &text("menu-help"));
    click(&mut h, &text("menu-diagnostics"));
    step_until(&mut h, "diagnostics", |h| has_text(h, &text("diag-title")));
    h.key_press(egui::Key::Escape);
    h.step();
    h.step();
    assert!(!has_text(&h, &text("diag-title")));
}

/// Item 6: the billing results file names each row's customer and amount, so a row can be
/// matched back to its line in the file.
#[test]
fn billing_results_name_the_customer_and_the_amount() {
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    directory(dir.path(), &s);
    let (id, name, _) = s
        .customers()
        .into_iter()
        .find(|c| c.1.starts_with("Comercial Ñuñoa"))
        .unwrap();
    let file = dir.path().join("junio.csv");
    std::fs::write(
        &file,
        format!("Cliente;Monto;Moneda\n{name};$1.341.000;\n{id};33,0956;UF\n"),
    )
    .unwrap();
    let mut h = app(&rt, &s, dir.path(), [1280.0, 800.0]);
    read_in_bulk(&mut h, &file);
    click(&mut h, "Emitir 2 facturas…");
    click(&mut h, &text("bulk-confirm-yes"));
    step_until(&mut h, "issued", |h| has_text(h, "Terminado: 2 emitidas"));
    click(&mut h, &text("bulk-save-xlsx"));
    step_until(&mut h, "saved", |h| has_text(h, "Resultados guardados en"));
    let saved = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("junio-resultados"))
        .unwrap();
    use calamine::{Data, Reader, Xlsx, open_workbook};
    let mut book: Xlsx<_> = open_workbook(&saved).unwrap();
    let range = book.worksheet_range("Resultados").unwrap();
    let row = |r: u32| -> Vec<String> {
        (0..9)
            .map(|c| match range.get_value((r, c)) {
                Some(Data::String(s)) => s.clone(),
                Some(Data::Float(f)) => f.to_string(),
                Some(other) => other.to_string(),
                None => String::new(),
            })
            .collect()
    };
    assert_eq!(
        row(0)[5..],
        ["Cliente", "Nombre", "Monto", "Moneda"].map(String::from)
    );
    assert_eq!(
        row(1)[5..],
        [id.clone(), name.clone(), "1341000".into(), String::new()]
    );
    // #49: the workbook is for people: "UF", as a Chilean clerk calls it.
    assert_eq!(row(2)[5..], [id, name, "33.0956".into(), "UF".into()]);
}

/// Item 3: a connection test that fails says so once, next to the profile (not again in
/// the profile's last check just under it).
#[test]
fn a_failed_connection_test_is_said_once() {
    use invoice_desk::sandbox::{Fault, Route};
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(&rt, &s, dir.path(), [1280.0, 800.0]);
    s.add_fault(Fault::status(Route::Token, 10, 500));
    click(&mut h, &text("tab-credentials"));
    click(&mut h, &text("test-connection"));
    let why = "El proveedor de identidad falló al dar acceso";
    step_until(&mut h, "tested", |h| has_text(h, why));
    let said: Vec<String> = h
        .query_all_by_role(egui::accesskit::Role::Label)
        .filter_map(|n| n.accesskit_node().value())
        .filter(|v| v.contains(why))
        .collect();
    assert_eq!(said.len(), 1, "said once: {said:?}");
}

/// Ticking "issue the valid rows and skip those with problems" moves nothing: the line
/// under it says what will happen either way (the issue button jumped up a line).
#[test]
fn ticking_skip_invalid_rows_moves_nothing() {
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let id = s.customers()[0].0.clone();
    let file = dir.path().join("julio.csv");
    std::fs::write(
        &file,
        format!("Cliente;Monto\n{id};$1.000\n{id};no es un monto\n"),
    )
    .unwrap();
    let mut h = app(&rt, &s, dir.path(), [1024.0, 640.0]);
    read_in_bulk(&mut h, &file);
    let issue = "Emitir 1 factura…";
    let before = rect_of(&h, issue);
    assert!(has_text(&h, &text("bulk-fix-first")));
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, &text("bulk-skip-invalid"))
        .click();
    h.step();
    h.step();
    assert!(has_text(&h, &text("bulk-skipping")));
    assert_eq!(rect_of(&h, issue), before, "the issue button did not move");
}

/// #49: a row with a problem elsewhere (no customer) still shows the
/// amount and the due date that did read as the clerk reads them: `UF 35,8870` and
/// `31-12-2026`, not the cell's `35.887` and `2026-12-31`; a cell that did not read is
/// shown as written, underlined.
#[test]
fn a_row_with_a_problem_shows_what_did_read_the_chilean_way() {
    use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let id = s.customers()[0].0.clone();
    let file = dir.path().join("agosto.xlsx");
    let mut book = Workbook::new();
    let ws = book.add_worksheet();
    for (c, h) in ["Cliente", "Monto", "Moneda", "Vencimiento"]
        .iter()
        .enumerate()
    {
        ws.write_string(0, c as u16, *h).unwrap();
    }
    let date = Format::new().set_num_format("dd-mm-yyyy");
    let day = ExcelDateTime::from_ymd(2026, 12, 31).unwrap();
    // Row 2: no customer, the rest fine. Row 3: a customer, an amount that is not one.
    ws.write_number(1, 1, 35.887).unwrap();
    ws.write_string(1, 2, "UF").unwrap();
    ws.write_datetime_with_format(1, 3, &day, &date).unwrap();
    ws.write_string(2, 0, &id).unwrap();
    ws.write_string(2, 1, "doce lucas").unwrap();
    ws.write_string(2, 2, "pesos").unwrap();
    ws.write_string(2, 3, "31-12-2026").unwrap();
    book.save(&file).unwrap();
    let mut h = app(&rt, &s, dir.path(), [1280.0, 800.0]);
    read_in_bulk(&mut h, &file);
    let plan = h.state().bulk().loaded_plan().unwrap();
    assert_eq!(plan.invalid_rows, vec![2, 3]);
    assert!(plan.rows.is_empty());
    for shown in ["UF 35,8870", "31-12-2026", "doce lucas"] {
        assert!(has_text(&h, shown), "{shown}");
    }
    assert!(!has_text(&h, "35.887"), "the cell's own text is not shown");
    assert!(!has_text(&h, "2026-12-31"));
}

/// A long profile name, in use, does not widen the list of profiles: the form beside it
/// stays where it is for a short name (it moved ~54 px), the name cut and whole on hover.
#[test]
fn a_long_profile_name_moves_nothing() {
    let rt = runtime();
    let s = sandbox(&rt);
    let place = |name: &str| {
        let dir = tempfile::tempdir().unwrap();
        let mut p = s.profile(name);
        p.account_currency = Some(invoice_desk::api::Currency::CLP);
        let mut h = common::connected_with_journal(
            &rt,
            p,
            &s.credentials.client_secret,
            dir.path(),
            [1024.0, 640.0],
            Lang::Es,
            Some(dir.path().join("journal.sqlite3")),
        );
        click(&mut h, &text("tab-credentials"));
        rect_of(&h, &text("f-account-key"))
    };
    assert_eq!(
        place("Cobranza Región Metropolitana, oficina central de Santiago"),
        place("Pruebas")
    );
}

/// A widget the keyboard moves to is brought into view: at 1024x640 zoomed ×2, Lookup's
/// "Anular…" lies below the window, and focusing it (as Tab does) scrolls to it.
#[test]
fn a_widget_the_keyboard_reaches_is_brought_into_view() {
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(&rt, &s, dir.path(), [1024.0, 640.0]);
    h.ctx.set_zoom_factor(2.0);
    h.step();
    h.step();
    let id = s.references().into_values().next().unwrap()[0].clone();
    click(&mut h, &text("tab-lookup"));
    set_text(&mut h, &text("f-invoice-id"), &id);
    click(&mut h, &text("lk-look-up"));
    let void = text("lk-void");
    step_until(&mut h, "looked up", |h| has_text(h, &void));
    let screen = h.ctx.content_rect();
    let seen = |h: &common::H| screen.contains_rect(rect_of(h, &void).shrink(1.0));
    assert!(!seen(&h), "below the window at first");
    h.get_by_label(&void).focus();
    step_until(&mut h, "scrolled into view", seen);
}

/// #49: the currency list is used by keyboard alone: Enter (or Space) on the focused list
/// opens it, the arrows move through its choices, and Enter picks one and closes it (it
/// stayed open after the pick).
#[test]
fn the_currency_list_closes_when_enter_picks() {
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(&rt, &s, dir.path(), [1280.0, 800.0]);
    click(&mut h, &text("tab-create"));
    let combo = text("f-currency");
    let uf = invoice_desk::i18n::currency_name(invoice_desk::api::Currency::CLF);
    let open = |h: &common::H| h.query_by_label(&uf).is_some();
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, &combo)
        .focus();
    h.step();
    assert!(!open(&h), "closed at first");
    h.key_press(egui::Key::Enter);
    step_until(&mut h, "the list opened", open);
    // Down to the UF choice, then Enter.
    for _ in 0..8 {
        if h.query_by_label(&uf).is_some_and(|n| n.is_focused()) {
            break;
        }
        h.key_press(egui::Key::ArrowDown);
        h.step();
    }
    assert!(h.get_by_label(&uf).is_focused(), "the arrows reach UF");
    h.key_press(egui::Key::Enter);
    step_until(&mut h, "the list closed", |h| !open(h));
    assert_eq!(
        h.state().create().form.currency,
        invoice_desk::api::CurrencyChoice::Code(invoice_desk::api::Currency::CLF)
    );
}

/// #50: a UF amount is read back with its pesos on today's value, the day said (the
/// built-in sandbox's CMF routes); without a CMF key the clerk reads why there are no
/// pesos, and the UF amount alone.
#[test]
fn a_uf_amount_reads_back_in_pesos_on_the_days_value() {
    use invoice_desk::api::money::format_amount;
    use rust_decimal::{Decimal, RoundingStrategy};
    let rt = runtime();
    let s = sandbox(&rt);
    let day = common::TODAY;
    let value = invoice_desk::sandbox::uf::values(day, day, day)[0].1;
    let amount: Decimal = "23.193".parse().unwrap();
    let pesos = format_amount(
        (amount * value).round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero),
        Some("CLP"),
    );
    let expected = format!("≈ {pesos} al 23-11-2026");
    let open = |sandboxed: bool| {
        let dir = tempfile::tempdir().unwrap();
        let mut p = s.profile("Pruebas");
        p.account_currency = Some(invoice_desk::api::Currency::CLP);
        p.sandbox = sandboxed;
        let mut h = common::connected_with_journal(
            &rt,
            p,
            &s.credentials.client_secret,
            dir.path(),
            [1280.0, 800.0],
            Lang::Es,
            Some(dir.path().join("journal.sqlite3")),
        );
        click(&mut h, &text("tab-create"));
        common::pick(&mut h, &text("f-currency"), "UF (CLF)");
        set_text(&mut h, &text("f-amount"), "23,193");
        (h, dir)
    };
    let (mut h, _dir) = open(true);
    step_until(&mut h, "the pesos shown", |h| has_text(h, &expected));
    assert!(has_text(&h, "UF 23,1930"));
    // Without a key: said, and no pesos.
    let (mut h, _dir) = open(false);
    step_until(&mut h, "why there are no pesos", |h| {
        h.query_by_label_contains("Sin llave de la CMF").is_some()
    });
    assert!(h.query_by_label_contains("≈ $").is_none());
}

/// Ctrl+F, "nunoa" typed in the search box, and its answer shown.
fn search_nunoa(h: &mut common::H) {
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::F);
    h.step();
    h.event(egui::Event::Text("nunoa".into()));
    step_until(h, "the answer", |h| has_text(h, "visto en el servicio el"));
}

/// The app at 1024 × 640 on the sandbox, Comercial Ñuñoa Ltda.'s invoices listed once in
/// Facturas del cliente (so kept in the search index).
fn nunoa_listed(rt: &tokio::runtime::Runtime, s: &Sandbox, dir: &std::path::Path) -> common::H {
    use invoice_desk::search::index::Index;
    let mut h = sandboxed(rt, s, dir, [1024.0, 640.0]);
    let (nunoa, _, _) = s
        .directory()
        .into_iter()
        .find(|(_, name, _)| name == "Comercial Ñuñoa Ltda.")
        .unwrap();
    click(&mut h, &text("tab-customers"));
    set_text(&mut h, &text("f-customer-id"), &nunoa);
    click(&mut h, &text("cu-load"));
    // The sandbox's profile keeps its practice journal (and its index) apart.
    let index = invoice_desk::journal::practice_file(Some(&dir.join("journal.sqlite3")))
        .unwrap()
        .with_file_name(invoice_desk::journal::INDEX_FILE);
    step_until(&mut h, "the listing kept", |h| {
        !h.state().customers_loading()
            && Index::open(&index).is_ok_and(|i| i.len().unwrap_or(0) > 0)
    });
    h
}

/// #50: the search box (Ctrl+F) finds a customer by a name typed without its accents,
/// and the invoices of a listing read, with where and when they were seen; Enter opens
/// the chosen one in Consultar; an id nothing here knows is asked of the service there.
#[test]
fn the_search_box_finds_any_invoice_and_enter_opens_it() {
    use invoice_desk::ui::app::Tab;
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    // Its invoices listed once (Facturas del cliente): kept for the search.
    let mut h = nunoa_listed(&rt, &s, dir.path());
    search_nunoa(&mut h);
    assert!(
        h.query_by_label_contains("Cliente: Comercial Ñuñoa Ltda.")
            .is_some()
    );
    let first = common::text_containing(&h, "visto en el servicio el");
    let id = first
        .split(['\n', ' '])
        .find(|w| w.starts_with("in_"))
        .unwrap_or_else(|| panic!("{first:?}"))
        .to_string();
    assert!(first.contains("Comercial Ñuñoa Ltda. (cus_"), "{first}");
    h.key_press(egui::Key::Enter);
    step_until(&mut h, "the invoice in Consultar", |h| {
        h.state().tab() == Tab::Lookup && has_text(h, "Creada")
    });
    assert!(has_text(&h, &id));
    // An invoice this computer never saw: the service is asked, in Consultar.
    let other = s
        .sample_invoice(invoice_desk::sandbox::data::ORG_KEY)
        .unwrap();
    // Ctrl+F again: what was searched before is selected, and typing replaces it.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::F);
    h.step();
    h.step();
    h.event(egui::Event::Text(other.clone()));
    step_until(&mut h, "the offer to ask the service", |h| {
        h.query_by_label_contains(&format!("Consultar «{other}» en el servicio"))
            .is_some()
    });
    h.key_press(egui::Key::Enter);
    step_until(&mut h, "asked in Consultar", |h| {
        h.state().tab() == Tab::Lookup && h.query_by_label_contains(&other).is_some()
    });
}

/// #68 (6): the search's answer closes when the keyboard moves on (Tab): it does not stay
/// open over the form.
#[test]
fn the_search_answer_closes_when_the_keyboard_moves_on() {
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let mut h = nunoa_listed(&rt, &s, dir.path());
    search_nunoa(&mut h);
    h.key_press(egui::Key::Tab);
    h.step();
    h.step();
    assert!(
        !has_text(&h, "visto en el servicio el"),
        "the answer closed"
    );
}

/// #68 (6): choosing UF for an amount typed adds its line of pesos, and moves nothing
/// below it: the field after the currency stays where it was.
#[test]
fn choosing_uf_moves_nothing_below_the_amount() {
    use egui_kittest::kittest::NodeT;
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let mut h = sandboxed(&rt, &s, dir.path(), [1280.0, 800.0]);
    click(&mut h, &text("tab-create"));
    set_text(&mut h, &text("f-amount"), "23,193");
    let below = |h: &common::H| {
        h.get_by_role_and_label(egui::accesskit::Role::ComboBox, &text("f-currency"))
            .accesskit_node()
            .raw_bounds()
            .map(|b| b.y1)
    };
    let before = below(&h);
    common::pick(&mut h, &text("f-currency"), "UF (CLF)");
    step_until(&mut h, "the pesos shown", |h| has_text(h, "≈ $"));
    assert_eq!(below(&h), before, "the currency's field did not move");
}

/// #68 (1): the search box says how much it found and that its list scrolls, and an open
/// invoice past its due day is "Vencida · N días" there, as in Consultar; finding
/// nothing names the profile whose invoices were searched.
#[test]
fn the_search_box_says_how_much_it_found_and_what_is_overdue() {
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let mut h = nunoa_listed(&rt, &s, dir.path());
    let listed = h.state().customer_rows().0.len();
    assert!(listed > 4, "enough to scroll: {listed}");
    search_nunoa(&mut h);
    h.step();
    assert!(
        has_text(&h, &format!("{listed} facturas y 1 cliente")),
        "the count of what was found"
    );
    assert!(has_text(&h, "Hay más abajo"), "the list says it scrolls");
    let today = common::TODAY;
    let mut overdue = 0;
    for node in h.query_all_by_label_contains("visto en el servicio el") {
        let line = node.accesskit_node().label().unwrap_or_default();
        let due = line
            .split(" · ")
            .find_map(|p| p.strip_prefix("vence el "))
            .and_then(|d| chrono::NaiveDate::parse_from_str(d, "%d-%m-%Y").ok());
        if line.contains("Abierta") || line.contains("Vencida") {
            let past = due.is_some_and(|d| d < today);
            assert_eq!(line.contains("Vencida · "), past, "{line}");
            overdue += usize::from(past);
        }
    }
    assert!(overdue > 0, "an overdue invoice among those shown");
    // Nothing found: whose invoices were searched.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::F);
    h.step();
    h.step();
    h.event(egui::Event::Text("zzzqqq".into()));
    step_until(&mut h, "nothing found", |h| has_text(h, "Nada encontrado"));
    let said = common::text_containing(&h, "Nada encontrado");
    assert!(
        said.contains("entre las facturas del perfil Pruebas que"),
        "{said}"
    );
}

/// #50: a UF total reads in pesos too, its day said: the customer list's totals, and
/// Cartera's whole book in pesos per bucket (pesos plus the UF on the day's value).
#[test]
fn the_customer_list_and_cartera_total_the_uf_in_pesos() {
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let mut h = sandboxed(&rt, &s, dir.path(), [1280.0, 800.0]);
    // A customer with UF invoices.
    let customer = s.customers()[0].0.clone();
    click(&mut h, &text("tab-customers"));
    set_text(&mut h, &text("f-customer-id"), &customer);
    click(&mut h, &text("cu-load"));
    step_until(&mut h, "listed, and the UF's pesos", |h| {
        !h.state().customers_loading() && has_text(h, " al 23-11-2026")
    });
    let pesos = common::text_containing(&h, " al 23-11-2026");
    assert!(pesos.starts_with("≈ $"), "{pesos}");
    // Cartera: the directory (the sandbox's customers) reviewed, the book in pesos.
    click(&mut h, &text("tab-receivables"));
    click(&mut h, &text("rv-review"));
    step_until(&mut h, "the book in pesos", |h| {
        has_text(h, "En pesos, con la UF del 23-11-2026 ($")
    });
    let line = common::text_containing(&h, "En pesos, con la UF del");
    for part in ["adeudado", "vencido", "Al día $", "Más de 90 días $"] {
        assert!(line.contains(part), "{line}");
    }
}

/// #50: a billing run's summary and its confirm say the UF total in pesos, its day said.
#[test]
fn a_billing_runs_uf_total_is_confirmed_in_pesos() {
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let mut h = sandboxed(&rt, &s, dir.path(), [1280.0, 800.0]);
    let c = s.customers()[0].0.clone();
    let file = dir.path().join("uf.csv");
    std::fs::write(
        &file,
        format!("Cliente;Monto;Moneda\n{c};23,193;CLF\n{c};1000;CLP\n"),
    )
    .unwrap();
    let value = invoice_desk::sandbox::uf::values(common::TODAY, common::TODAY, common::TODAY)[0].1;
    let pesos = invoice_desk::api::money::format_amount(
        (rust_decimal::Decimal::new(23193, 3) * value)
            .round_dp_with_strategy(0, rust_decimal::RoundingStrategy::MidpointAwayFromZero),
        Some("CLP"),
    );
    read_in_bulk(&mut h, &file);
    let uf = format!("UF 23,1930 ≈ {pesos} al 23-11-2026");
    step_until(&mut h, "the summary in pesos", |h| {
        has_text(h, &format!("2 facturas a 1 cliente: {uf} y $1.000"))
    });
    click(&mut h, "Emitir 2 facturas…");
    step_until(&mut h, "the confirm in pesos", |h| {
        has_text(
            h,
            &format!("¿Emitir 2 facturas: {uf} y $1.000 a 1 cliente?"),
        )
    });
}

/// #50: the CMF key is given in Credentials ("Valor de la UF"): kept in the keyring, never
/// in the profiles file, and today's value is read with it at once.
#[test]
fn the_cmf_key_is_kept_from_credentials_and_the_value_read_at_once() {
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let mut p = s.profile("Pruebas");
    p.account_currency = Some(invoice_desk::api::Currency::CLP);
    let mut h = common::connected_with_journal(
        &rt,
        p,
        &s.credentials.client_secret,
        dir.path(),
        [1280.0, 900.0],
        Lang::Es,
        Some(dir.path().join("journal.sqlite3")),
    );
    click(&mut h, &text("tab-credentials"));
    step_until(&mut h, "no key said", |h| {
        h.query_by_label_contains("Sin llave de la CMF").is_some()
    });
    set_text(&mut h, &text("ufs-address"), &format!("{}/cmf", s.base_url));
    common::set_role(
        &mut h,
        egui::accesskit::Role::PasswordInput,
        &text("ufs-key"),
        invoice_desk::uf::SANDBOX_KEY,
    );
    click(&mut h, &text("ufs-save"));
    step_until(&mut h, "the value read with the key", |h| {
        h.query_by_label_contains("UF al 23-11-2026: $").is_some()
    });
    assert!(h.query_by_label_contains("Llave guardada en").is_some());
    let profiles = std::fs::read_to_string(dir.path().join("profiles.toml")).unwrap();
    assert!(profiles.contains("/cmf"), "{profiles}");
    assert!(
        !profiles.contains(invoice_desk::uf::SANDBOX_KEY),
        "the key is never in the file"
    );
    // A bad address: said, nothing kept.
    set_text(&mut h, &text("ufs-address"), "ftp://cmf");
    click(&mut h, &text("ufs-save"));
    step_until(&mut h, "the bad address said", |h| {
        h.query_by_label_contains("«ftp://cmf» no es una dirección https")
            .is_some()
    });
}

/// #66 (3): a value stored while the app is open (a colleague's import, the command
/// line) shows without a restart, with who stored it; a file of values is kept from
/// Credentials, all or nothing (one day out of line refuses it, said).
#[test]
fn a_uf_value_stored_later_shows_and_a_file_of_values_is_kept_from_credentials() {
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let mut p = s.profile("Pruebas");
    p.account_currency = Some(invoice_desk::api::Currency::CLP);
    let journal = dir.path().join("journal.sqlite3");
    let mut h = common::connected_with_journal(
        &rt,
        p,
        &s.credentials.client_secret,
        dir.path(),
        [1280.0, 900.0],
        Lang::Es,
        Some(journal.clone()),
    );
    click(&mut h, &text("tab-credentials"));
    step_until(&mut h, "no key said", |h| {
        h.query_by_label_contains("Sin llave de la CMF").is_some()
    });
    // A file with one day out of line: nothing kept, the day said.
    let file = dir.path().join("uf-noviembre.csv");
    std::fs::write(
        &file,
        "Fecha;Valor\n20-11-2026;39.610,00\n21-11-2026;39.614,00\n22-11-2026;3.961,80\n",
    )
    .unwrap();
    // The section is at the panel's foot: brought into view, as a clerk scrolls.
    h.get_by_label(&text("ufs-import")).scroll_to_me();
    for _ in 0..3 {
        h.step();
    }
    set_text(&mut h, &text("ufs-file"), file.to_str().unwrap());
    click(&mut h, &text("ufs-import"));
    step_until(&mut h, "the file refused", |h| {
        has_text(h, "No se guardó nada de uf-noviembre.csv")
    });
    assert!(has_text(&h, "22-11-2026: $3.961,80 no se guardó"));
    let days = (
        chrono::NaiveDate::from_ymd_opt(2026, 11, 1).unwrap(),
        chrono::NaiveDate::from_ymd_opt(2026, 11, 30).unwrap(),
    );
    let kept = || {
        invoice_desk::journal::Journal::open(&journal)
            .unwrap()
            .uf_values(days.0, days.1)
            .unwrap()
    };
    assert!(kept().is_empty());
    // Put right, it is kept; the app's day (the 23rd) is not in it: still no value.
    std::fs::write(
        &file,
        "Fecha;Valor\n20-11-2026;39.610,00\n21-11-2026;39.614,00\n22-11-2026;39.618,00\n",
    )
    .unwrap();
    click(&mut h, &text("ufs-import"));
    step_until(&mut h, "the file kept", |h| {
        has_text(h, "Se guardaron 3 valores de la UF de uf-noviembre.csv")
    });
    assert_eq!(kept().len(), 3);
    assert!(h.query_by_label_contains("Sin llave de la CMF").is_some());
    // Another program keeps the 23rd's value: the open app shows it by itself.
    invoice_desk::journal::Journal::open(&journal)
        .unwrap()
        .put_uf_values(
            &[(
                chrono::NaiveDate::from_ymd_opt(2026, 11, 23).unwrap(),
                rust_decimal::Decimal::new(3_962_215, 2),
            )],
            "uf-colega.xlsx",
            true,
        )
        .unwrap();
    step_until(&mut h, "the value stored later shown", |h| {
        has_text(
            h,
            "UF al 23-11-2026: $39.622,15 (archivo «uf-colega.xlsx»; guardado por ",
        )
    });
}

/// #50/#49: the search box in the tab row never covers a tab's name, whatever the zoom
/// at 1024x640 (at ×2 it covered "Emisión masiva"): it goes to a line of its own.
#[test]
fn the_search_box_never_covers_a_tab() {
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(&rt, &s, dir.path(), [1024.0, 640.0]);
    let tabs = [
        "tab-credentials",
        "tab-create",
        "tab-lookup",
        "tab-customers",
        "tab-receivables",
        "tab-activity",
        "tab-bulk",
    ];
    for zoom in [1.0, 1.2, 1.5, 1.7, 2.0] {
        h.ctx.set_zoom_factor(zoom);
        for _ in 0..3 {
            h.step();
        }
        let search = h
            .get_by_role_and_label(egui::accesskit::Role::TextInput, &text("search-hint-long"))
            .rect();
        let screen = h.ctx.content_rect();
        assert!(
            screen.contains_rect(search),
            "zoom {zoom}: {search:?} off {screen:?}"
        );
        assert!(search.width() >= 179.0, "zoom {zoom}: {search:?}");
        for t in tabs {
            let tab = rect_of(&h, &text(t));
            assert!(
                !tab.intersects(search),
                "zoom {zoom}: {t} {tab:?} under the search box {search:?}"
            );
            assert!(screen.contains_rect(tab), "zoom {zoom}: {t} {tab:?}");
        }
    }
}

/// #49: the top bar's menus never cover what it says (zoomed at 1024x640, "Acceso
/// vigente hasta las 02:05" ran under "Ver" and "Ayuda").
#[test]
fn the_top_bar_menus_never_cover_its_words() {
    let rt = runtime();
    let s = sandbox(&rt);
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(&rt, &s, dir.path(), [1024.0, 640.0]);
    // A token fetched: the longest thing the bar says.
    click(&mut h, &text("tab-lookup"));
    let id = s.references().into_values().next().unwrap()[0].clone();
    set_text(&mut h, &text("f-invoice-id"), &id);
    click(&mut h, &text("lk-look-up"));
    step_until(&mut h, "a token", |h| has_text(h, "Acceso vigente hasta"));
    for zoom in [1.0, 1.3, 1.5, 1.7, 2.0] {
        h.ctx.set_zoom_factor(zoom);
        for _ in 0..3 {
            h.step();
        }
        let badge = h
            .query_all_by_label_contains("Acceso vigente hasta")
            .next()
            .unwrap()
            .rect();
        for menu in [text("menu-view"), text("menu-help")] {
            let m = h.get_by_label(&menu).rect();
            assert!(
                !m.intersects(badge),
                "zoom {zoom}: {menu} {m:?} over the token's words {badge:?}"
            );
            assert!(
                h.ctx.content_rect().contains_rect(m),
                "zoom {zoom}: {menu} {m:?}"
            );
        }
    }
}
