//! A clerk's everyday path in Spanish (Chile): dates as Chile writes them, errors beside
//! what they are about, status that tells the truth, and no English on any panel. (A
//! separate test binary: the language is process-wide.)

mod common;

use common::{H, click, field_text, has_text, runtime, set_text, step_until};
use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT, Queryable};
use invoice_desk::i18n::Lang;
use invoice_desk::sandbox::{Sandbox, SandboxConfig};

fn spanish(rt: &tokio::runtime::Runtime, s: &Sandbox, dir: &std::path::Path) -> H {
    common::connected_in(
        rt,
        s,
        dir,
        Some(invoice_desk::api::Currency::CLP),
        [1100.0, 760.0],
        Lang::Es,
    )
}

fn enabled(h: &H, label: &str) -> bool {
    !h.get_by_role_and_label(Role::Button, label)
        .accesskit_node()
        .is_disabled()
}

#[test]
fn dates_are_read_as_chile_writes_them_and_sent_as_iso() {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut h = spanish(&rt, &s, dir.path());
    click(&mut h, "Nueva factura");
    let customer = s.customers()[0].0.clone();
    set_text(&mut h, "Id de cliente", &customer);
    set_text(&mut h, "Monto", "1000");
    set_text(&mut h, "Vencimiento", "31-02-2026");
    assert!(has_text(&h, "febrero de 2026 no tiene día 31."));
    assert!(
        !enabled(&h, "Crear factura"),
        "a day that does not exist is refused"
    );
    set_text(&mut h, "Vencimiento", "5-1-2027");
    assert!(has_text(&h, "= martes 5 de enero de 2027"), "read live");
    click(&mut h, "+30 días");
    let in_30 = common::TODAY + chrono::Days::new(30);
    assert_eq!(
        field_text(&h, "Vencimiento"),
        in_30.format("%d-%m-%Y").to_string()
    );
    click(&mut h, "Calendario");
    h.get_all_by_label("15").last().unwrap().click();
    h.step();
    h.step();
    let mid = in_30.with_day(15).unwrap();
    assert_eq!(
        field_text(&h, "Vencimiento"),
        mid.format("%d-%m-%Y").to_string()
    );
    set_text(&mut h, "Vencimiento", "05/01/2027");
    click(&mut h, "Crear factura");
    step_until(&mut h, "created", |h| has_text(h, "creada."));
    let client = invoice_desk::api::Client::new(s.profile("x").client_config(
        secrecy::SecretString::from(s.credentials.client_secret.clone()),
    ))
    .unwrap();
    let all = rt.block_on(client.customer_invoices(&customer)).unwrap();
    assert!(
        all.iter()
            .any(|i| i.due_date.as_deref() == Some("2027-01-05")),
        "sent as ISO"
    );
}

use chrono::Datelike;

/// Two profiles on one sandbox: "Pruebas" (works, active) and "Roto" (a wrong secret).
fn two_profiles(rt: &tokio::runtime::Runtime, s: &Sandbox, dir: &std::path::Path) -> H {
    use invoice_desk::profile::{Profiles, SecretKind, SecretStore};
    use secrecy::SecretString;
    let mut ps = Profiles::default();
    ps.upsert(None, s.profile("Pruebas")).unwrap();
    ps.upsert(None, s.profile("Roto")).unwrap();
    ps.active = Some("Pruebas".into());
    let path = dir.join("profiles.toml");
    ps.save(&path).unwrap();
    let store = SecretStore::with_store(keyring_core::mock::Store::new().unwrap());
    let good = SecretString::from(s.credentials.client_secret.clone());
    store.set("Pruebas", SecretKind::ClientSecret, &good);
    store.set(
        "Roto",
        SecretKind::ClientSecret,
        &SecretString::from("wrong"),
    );
    let mut deps = invoice_desk::ui::AppDeps::for_tests(rt.handle().clone(), store);
    deps.profiles_path = Some(path);
    deps.language = Some(Lang::Es);
    let mut h = common::harness(deps, [1100.0, 760.0]);
    step_until(&mut h, "connected", |h| h.state().session().is_some());
    h
}

fn activate(h: &mut H, name: &str) {
    click(h, "Credenciales");
    h.get_all_by_label(name).last().unwrap().click();
    h.step();
    h.step();
    click(h, "Usar este perfil");
    step_until(h, "switched", |h| {
        !h.state().is_connecting() && h.state().session().is_some_and(|s| s.profile.name == name)
    });
}

#[test]
fn errors_stay_with_what_they_are_about_and_status_tells_the_truth() {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut h = two_profiles(&rt, &s, dir.path());
    assert!(
        has_text(&h, "en uso"),
        "the active profile is marked, in Spanish"
    );
    assert!(
        has_text(&h, "Conexión: aún no revisada."),
        "not checked yet"
    );
    // The broken profile: its failed test stays with it…
    activate(&mut h, "Roto");
    click(&mut h, "Probar conexión");
    let failed = |h: &H| {
        h.query_all_by_label_contains("La conexión falló a las")
            .count()
    };
    // Said once next to the profile (why, in words) and once in the top bar (about
    // the active profile); the profile's last check does not repeat it.
    step_until(&mut h, "test failed", |h| {
        failed(h) == 1 && has_text(h, "rechazó el id o el secreto del cliente")
    });
    assert!(
        has_text(&h, "rechazó el id o el secreto del cliente"),
        "why, in Spanish"
    );
    assert!(!has_text(&h, "client secret"), "no English in the message");
    // …not under a new profile's form, nor under another profile (only the top bar,
    // about the active profile, still says it).
    click(&mut h, "Nuevo perfil");
    assert_eq!(failed(&h), 1, "not under the blank form");
    assert!(!has_text(&h, "rechazó el id o el secreto"));
    h.get_all_by_label("Pruebas").last().unwrap().click();
    h.step();
    h.step();
    assert_eq!(failed(&h), 1, "not under another profile");
    // Back to the broken one: the top bar remembers the failure.
    activate(&mut h, "Pruebas");
    activate(&mut h, "Roto");
    assert!(
        has_text(&h, "La conexión falló a las"),
        "remembered for the session"
    );
    // On New invoice, an unknown customer is named beside the field, in Spanish; the
    // message goes when the profile changes.
    activate(&mut h, "Pruebas");
    click(&mut h, "Nueva factura");
    set_text(&mut h, "Id de cliente", "cus_nobody");
    set_text(&mut h, "Monto", "1000");
    click(&mut h, "Crear factura");
    step_until(&mut h, "refused", |h| {
        has_text(h, "No existe el cliente cus_nobody.")
    });
    assert!(
        !has_text(&h, "customer not found"),
        "the service's English stays in Details"
    );
    // Changing the customer clears it.
    set_text(&mut h, "Id de cliente", "cus_otro");
    assert!(!has_text(&h, "No existe el cliente"));
    set_text(&mut h, "Id de cliente", "cus_nobody");
    click(&mut h, "Crear factura");
    step_until(&mut h, "refused again", |h| {
        has_text(h, "No existe el cliente cus_nobody.")
    });
    activate(&mut h, "Roto");
    assert!(
        !has_text(&h, "No existe el cliente"),
        "gone with the profile it was about"
    );
    // Lookup: clearing the id clears the error about the old id.
    activate(&mut h, "Pruebas");
    click(&mut h, "Consultar y anular");
    set_text(&mut h, "Id de factura", "in_nada");
    click(&mut h, "Consultar");
    step_until(&mut h, "not found", |h| {
        has_text(h, "No existe la factura con id in_nada")
    });
    set_text(&mut h, "Id de factura", "");
    assert!(!has_text(&h, "No existe la factura"));
}

// ---- Every text on every panel comes from the Spanish file (service data aside) ----

/// The Spanish messages as patterns: placeables are wildcards (`\0`), and a message with
/// a selector gives one pattern per variant.
fn spanish_patterns() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let ftl = std::fs::read_to_string(root.join("assets/locales/es-CL/main.ftl")).unwrap();
    let mut messages: Vec<String> = Vec::new();
    for line in ftl.lines() {
        if line.starts_with(' ') || line.starts_with('}') {
            if let Some(last) = messages.last_mut() {
                last.push('\n');
                last.push_str(line);
            }
        } else if let Some((_, v)) = line.split_once(" = ") {
            messages.push(v.to_string());
        }
    }
    let wild = |t: &str| {
        let mut out = String::new();
        let mut depth = 0;
        for c in t.chars() {
            match c {
                '{' => {
                    if depth == 0 {
                        out.push('\0');
                    }
                    depth += 1;
                }
                '}' => depth -= 1,
                c if depth == 0 => out.push(c),
                _ => {}
            }
        }
        out
    };
    let mut patterns = Vec::new();
    for m in messages {
        let lines: Vec<&str> = m.split('\n').collect();
        let Some(head) = lines[0].split_once("->").map(|(h, _)| h) else {
            patterns.push(wild(&m));
            continue;
        };
        // `prefix { $x ->`, the variants, then a line `}suffix` (the suffix may hold
        // another selector: it becomes one wildcard).
        let prefix = head.rsplit_once('{').map_or(head, |(p, _)| p);
        let close = lines
            .iter()
            .position(|l| l.starts_with('}'))
            .unwrap_or(lines.len());
        let suffix = lines[close.min(lines.len() - 1)..].join("\n");
        let suffix = suffix.strip_prefix('}').unwrap_or("");
        for v in &lines[1..close] {
            if let Some((_, text)) = v.trim().split_once(']') {
                patterns.push(wild(&format!("{prefix}{}{suffix}", text.trim())));
            }
        }
    }
    patterns
}

fn matches_pattern(text: &str, pattern: &str) -> bool {
    let parts: Vec<&str> = pattern.split('\0').collect();
    if parts.len() == 1 {
        return text == pattern;
    }
    let Some(mut rest) = text.strip_prefix(parts[0]) else {
        return false;
    };
    for (i, part) in parts.iter().enumerate().skip(1) {
        if i == parts.len() - 1 {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(p) => rest = &rest[p + part.len()..],
            None => return false,
        }
    }
    true
}

/// Texts on screen that are not from the Spanish file (service data is taken out later).
fn not_from_the_file(h: &H) -> Vec<String> {
    let patterns = spanish_patterns();
    let mut bad = Vec::new();
    for node in h.query_all_by(|_| true) {
        let n = node.accesskit_node();
        if matches!(
            n.role(),
            Role::TextRun | Role::TextInput | Role::PasswordInput | Role::MultilineTextInput
        ) {
            continue;
        }
        for text in [n.label(), n.value()].into_iter().flatten() {
            let text = text.trim().to_string();
            if !text.is_empty() && !patterns.iter().any(|p| matches_pattern(&text, p)) {
                bad.push(text);
            }
        }
    }
    bad.sort();
    bad.dedup();
    bad
}

#[test]
fn no_english_on_any_panel_in_spanish() {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig {
            big_customer_invoices: 30,
            ..Default::default()
        }))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut h = spanish(&rt, &s, dir.path());
    let mut seen: Vec<(String, String)> = Vec::new();
    let mut look = |h: &H, place: &str| {
        for t in not_from_the_file(h) {
            seen.push((place.to_string(), t));
        }
    };
    look(&h, "Credenciales");
    click(&mut h, "Ver");
    look(&h, "menú Ver");
    h.key_press(egui::Key::Escape);
    h.step();
    click(&mut h, "Ayuda");
    look(&h, "menú Ayuda");
    h.key_press(egui::Key::Escape);
    h.step();
    click(&mut h, "Nueva factura");
    look(&h, "Nueva factura");
    let customer = s.customers()[0].0.clone();
    set_text(&mut h, "Id de cliente", &customer);
    set_text(&mut h, "Monto", "1,5");
    look(&h, "Nueva factura, monto con decimales");
    set_text(&mut h, "Monto", "25.000");
    set_text(&mut h, "Vencimiento", "5-1-2027");
    click(&mut h, "Crear factura");
    step_until(&mut h, "created", |h| has_text(h, "creada."));
    look(&h, "Nueva factura, creada");
    click(&mut h, "Abrir en Consultar");
    step_until(&mut h, "lookup", |h| has_text(h, "Referencia externa"));
    look(&h, "Consultar");
    click(&mut h, "Anular…");
    look(&h, "confirmación de anulación");
    click(&mut h, "Cancelar");
    assert!(!has_text(&h, "¿Anular esta factura?"), "the dialog closed");
    set_text(&mut h, "Id de factura", "in_nada");
    click(&mut h, "Consultar");
    step_until(&mut h, "not found", |h| has_text(h, "No existe la factura"));
    look(&h, "Consultar, no existe");
    click(&mut h, "Facturas del cliente");
    set_text(&mut h, "Id de cliente", "cus_big");
    click(&mut h, "Cargar facturas");
    step_until(&mut h, "listed", |h| {
        has_text(h, "facturas del cliente cus_big")
    });
    look(&h, "Facturas del cliente");
    h.get_by_label_contains("Más de 90 días CLP:").click();
    step_until(&mut h, "one bucket", |h| {
        has_text(h, "Solo Más de 90 días (CLP)")
    });
    look(&h, "Facturas del cliente, un tramo");
    set_text(&mut h, "Vence desde", "31-02-2026");
    h.key_press(egui::Key::Enter);
    h.step();
    h.step();
    assert!(has_text(&h, "no es una fecha"));
    look(&h, "Facturas del cliente, fecha mala");
    h.get_by_role_and_label(Role::ComboBox, "Estado").click();
    h.step();
    h.step();
    look(&h, "Facturas del cliente, estados");
    h.key_press(egui::Key::Escape);
    h.step();
    click(&mut h, "Quitar filtros");
    let file = billing_file(dir.path(), &customer, &customer);
    click(&mut h, "Emisión masiva");
    look(&h, "Emisión masiva, vacía");
    set_text(&mut h, "Archivo", &file.display().to_string());
    click(&mut h, "Leer y revisar");
    step_until(&mut h, "checked", |h| has_text(h, "filas tienen problemas"));
    look(&h, "Emisión masiva, revisada");
    h.get_by_label("Emitir las filas válidas y omitir las que tienen problemas")
        .click();
    h.step();
    h.step();
    click(&mut h, "Emitir 2 facturas…");
    look(&h, "Emisión masiva, confirmación");
    click(&mut h, "Emitirlas");
    step_until(&mut h, "issued", |h| has_text(h, "Terminado:"));
    look(&h, "Emisión masiva, terminada");
    // Service data: what the sandbox holds (ids, names, references, field names and
    // values, now that everything was created), the profile's own settings.
    let client = invoice_desk::api::Client::new(s.profile("x").client_config(
        secrecy::SecretString::from(s.credentials.client_secret.clone()),
    ))
    .unwrap();
    let mut data: Vec<String> = vec![
        "Pruebas".into(),
        s.base_url.clone(),
        s.auth_url.clone(),
        s.audience.clone(),
        s.credentials.client_id.clone(),
        s.credentials.account_clp.clone(),
        // The billing file's own header and cells.
        file.display().to_string(),
    ];
    data.extend(
        [
            "Cliente",
            "Monto",
            "Moneda",
            "Vencimiento",
            "Referencia",
            "$1.234.567",
            "12,3456",
            "31-12-2026",
            "Nadie Conocido",
        ]
        .map(String::from),
    );
    data.extend((1..=4).map(|i| format!("ENE-{i}")));
    for (id, name, _) in s.customers() {
        let all = rt.block_on(client.customer_invoices(&id)).unwrap();
        for inv in all {
            for (k, v) in inv.fields() {
                data.push(k);
                data.push(v);
            }
            data.push(invoice_desk::i18n::amount_text(&inv));
        }
        data.push(id);
        data.push(name);
    }
    // Names that are the same in every language: the app, the other language's own
    // name, keyboard keys, currency codes and the UF, the hints that show a form.
    data.extend(
        [
            "invoice-desk",
            "English",
            "Español (Chile)",
            "Ctrl/Cmd+Enter",
            "Ctrl/Cmd+N",
            "Ctrl/Cmd+F",
            "Ctrl/Cmd+L",
            "Ctrl/Cmd+E",
            "Ctrl/Cmd+Q",
            "Ctrl/Cmd + / -",
            "Esc",
            "CLP",
            "CLF",
            "UF",
            "Mock store",
            "x-account-key",
            "https://…",
            "cus_…",
            "in_…",
            "prod_…",
        ]
        .map(String::from),
    );
    // Longest first, so that a value is taken out whole before its parts.
    data.sort_by_key(|d| std::cmp::Reverse(d.len()));
    let english: Vec<String> = seen
        .into_iter()
        .filter(|(_, text)| {
            let mut rest = text.clone();
            for d in data.iter().filter(|d| !d.is_empty()) {
                rest = rest.replace(d.as_str(), " ");
            }
            rest.chars().any(|c| c.is_alphabetic())
        })
        .map(|(place, text)| format!("{place}: {text:?}"))
        .collect();
    assert!(
        english.is_empty(),
        "English (or untranslated) text in Spanish:\n{}",
        english.join("\n")
    );
}

/// The app in Spanish with the sandbox's big customer (three invoices) listed in
/// Facturas del cliente.
fn big_customer_listed(rt: &tokio::runtime::Runtime, dir: &std::path::Path) -> (Sandbox, H) {
    let s = rt
        .block_on(Sandbox::start(SandboxConfig {
            big_customer_invoices: 3,
            ..Default::default()
        }))
        .unwrap();
    let mut h = spanish(rt, &s, dir);
    click(&mut h, "Facturas del cliente");
    set_text(&mut h, "Id de cliente", "cus_big");
    click(&mut h, "Cargar facturas");
    step_until(&mut h, "listed", |h| {
        has_text(h, "3 facturas del cliente cus_big")
    });
    (s, h)
}

#[test]
fn export_in_spanish_is_for_excel_named_in_spanish_and_checked_first() {
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let (_s, mut h) = big_customer_listed(&rt, dir.path());
    let format = h
        .query_all_by_role(Role::ComboBox)
        .map(|n| format!("{:?}", n.accesskit_node()))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        format.contains("Libro Excel (.xlsx)"),
        "an Excel workbook by default: {format}"
    );
    // The CSV for Excel in Spanish: semicolons, decimal commas, Spanish words.
    common::pick(&mut h, "Formato", "CSV · Excel (español, Chile)");
    click(&mut h, "Guardar en una ruta");
    assert!(
        field_text(&h, "Archivo").ends_with("facturas-cus_big.csv"),
        "named in Spanish"
    );
    let missing = dir.path().join("no-existe").join("f.csv");
    set_text(&mut h, "Archivo", missing.to_str().unwrap());
    click(&mut h, "Guardar archivo");
    step_until(&mut h, "refused", |h| has_text(h, "no existe. Elija otra"));
    assert!(!dir.path().join("no-existe").exists(), "no folder created");
    let out = dir.path().join("facturas-cus_big.csv");
    set_text(&mut h, "Archivo", out.to_str().unwrap());
    click(&mut h, "Guardar archivo");
    step_until(&mut h, "exported", |h| {
        has_text(h, "Se exportaron 3 facturas")
    });
    assert!(has_text(&h, "Abrir carpeta"));
    let bytes = std::fs::read(&out).unwrap();
    assert!(bytes.starts_with(&[0xEF, 0xBB, 0xBF]), "Excel's BOM");
    let text = String::from_utf8_lossy(&bytes);
    assert!(
        text.starts_with("\u{feff}Id;Cliente;Vencimiento;Monto;Moneda;Estado;Pagada;Anulada;"),
        "{text}"
    );
    assert!(
        text.lines().skip(1).all(|l| {
            ["Abierta", "Pagada", "Anulada"]
                .iter()
                .any(|w| l.contains(&format!(";{w};")))
        }),
        "status words in Spanish: {text}"
    );
}

// ---- Bulk issue (Emisión masiva) ----

/// A billing file in the Chilean Excel dialect (semicolons): two good rows, one with a
/// zero amount, one with a customer the directory does not know.
fn billing_file(dir: &std::path::Path, a: &str, b: &str) -> std::path::PathBuf {
    let path = dir.join("enero.csv");
    std::fs::write(
        &path,
        format!(
            "Cliente;Monto;Moneda;Vencimiento;Referencia\n\
             {a};$1.234.567;;31-12-2026;ENE-1\n\
             {b};12,3456;CLF;;ENE-2\n\
             {a};0;;;ENE-3\n\
             Nadie Conocido;1000;;;ENE-4\n"
        ),
    )
    .unwrap();
    path
}

#[test]
fn a_billing_run_is_checked_confirmed_issued_once_and_its_results_saved() {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let customers = s.customers();
    let (a, b) = (customers[0].0.clone(), customers[1].0.clone());
    let file = billing_file(dir.path(), &a, &b);
    let mut h = spanish(&rt, &s, dir.path());
    click(&mut h, "Emisión masiva");
    set_text(&mut h, "Archivo", &file.display().to_string());
    click(&mut h, "Leer y revisar");
    step_until(&mut h, "checked", |h| {
        has_text(h, "2 filas tienen problemas")
    });
    // The totals per currency, exact, and each problem beside its row and column.
    assert!(has_text(
        &h,
        "2 facturas a 2 clientes: $1.234.567 y UF 12,3456"
    ));
    assert!(has_text(&h, "Monto: El monto debe ser mayor que cero."));
    assert!(has_text(
        &h,
        "Cliente: No hay un cliente «Nadie Conocido»: el directorio de clientes de este registro aún no tiene nombres"
    ));
    assert!(!enabled(&h, "Emitir 2 facturas…"), "problems stop the run");
    h.get_by_label("Solo filas con problemas").click();
    h.step();
    h.step();
    assert!(!has_text(&h, "Lista"), "only the rows with problems");
    h.get_by_label("Emitir las filas válidas y omitir las que tienen problemas")
        .click();
    h.step();
    h.step();
    click(&mut h, "Emitir 2 facturas…");
    step_until(&mut h, "confirmation", |h| {
        has_text(
            h,
            "¿Emitir 2 facturas: $1.234.567 y UF 12,3456 a 2 clientes?",
        )
    });
    assert!(has_text(&h, "2 filas con problemas no se emiten."));
    click(&mut h, "Emitirlas");
    step_until(&mut h, "issued", |h| has_text(h, "Terminado: 2 emitidas"));
    click(&mut h, "Guardar resultados (Excel)");
    step_until(&mut h, "saved", |h| has_text(h, "Resultados guardados en"));

    // The results beside the file, in Spanish, one line per row.
    let saved: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "xlsx"))
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let name = saved[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("enero-resultados-"), "{name}");
    use calamine::{Data, Reader, Xlsx, open_workbook};
    let mut book: Xlsx<_> = open_workbook(&saved[0]).unwrap();
    let range = book.worksheet_range("Resultados").unwrap();
    let cell = |r: usize, c: usize| match range.get((r, c)) {
        Some(Data::String(s)) => s.clone(),
        Some(Data::Float(f)) => f.to_string(),
        other => format!("{other:?}"),
    };
    assert_eq!(cell(0, 0), "Fila");
    assert_eq!(
        (cell(1, 0), cell(1, 1), cell(1, 2)),
        ("2".into(), "ENE-1".into(), "Emitida".into())
    );
    assert!(cell(1, 3).starts_with("in_"), "{}", cell(1, 3));
    assert_eq!(cell(3, 2), "No emitida (con problemas)");
    assert_eq!(cell(3, 4), "Monto: El monto debe ser mayor que cero.");

    // The same file again: the journal says both rows are issued; nothing is offered.
    click(&mut h, "Leer y revisar");
    step_until(&mut h, "checked again", |h| {
        has_text(
            h,
            "2 filas ya están emitidas según el registro: no se vuelven a enviar.",
        )
    });
    assert!(!has_text(&h, "Emitir 2 facturas…"));
    h.get_by_label("Solo filas con problemas").click();
    h.step();
    h.step();
    assert!(has_text(&h, "Ya emitida · in_"), "each issued row says so");
    let client = invoice_desk::api::Client::new(s.profile("x").client_config(
        secrecy::SecretString::from(s.credentials.client_secret.clone()),
    ))
    .unwrap();
    let refs: Vec<String> = rt
        .block_on(client.customer_invoices(&a))
        .unwrap()
        .into_iter()
        .filter_map(|i| i.invoice_external_id)
        .filter(|r| r.starts_with("ENE-"))
        .collect();
    assert_eq!(refs, ["ENE-1"], "issued once, the invalid row never");
}

/// The words under an accessibility node: its own label or value, else its children's.
fn words_of(n: &egui_kittest::kittest::AccessKitNode<'_>) -> String {
    if let Some(t) = n.label().or_else(|| n.value()) {
        return t.to_string();
    }
    n.children()
        .map(|c| words_of(&c))
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// #68 (7): a screen reader reads the customer's invoices as a table — named, with its
/// column headers and its rows of cells — and a row is one stop of the keyboard's Tab,
/// opened in Lookup with Enter.
#[test]
fn a_screen_reader_reads_the_customer_table_as_a_table_and_enter_opens_a_row() {
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let (_s, mut h) = big_customer_listed(&rt, dir.path());
    let table = h.get_by_role_and_label(Role::Table, "Facturas del cliente");
    let rows: Vec<_> = table
        .accesskit_node()
        .children()
        .filter(|c| c.role() == Role::Row)
        .collect();
    assert_eq!(rows.len(), 4, "the header and three rows");
    let cells = |r: &egui_kittest::kittest::AccessKitNode<'_>, role: Role| -> Vec<String> {
        r.children()
            .filter(|c| c.role() == role)
            .map(|c| words_of(&c))
            .collect()
    };
    let header = cells(&rows[0], Role::ColumnHeader);
    assert_eq!(header.len(), 6, "{header:?}");
    assert!(
        header[0].contains("Factura") && header[1] == "Vencimiento",
        "{header:?}"
    );
    let first = cells(&rows[1], Role::Cell);
    assert_eq!(first.len(), 6, "{first:?}");
    let id = first[0].clone();
    assert!(id.starts_with("in_"), "{first:?}");
    let second = cells(&rows[2], Role::Cell);
    // One stop a row: from the first row, Tab goes to the second row, not a cell.
    h.get_all_by_role(Role::Row).nth(1).unwrap().focus();
    h.run();
    let focused = |h: &H| h.query_all_by_role(Role::Row).position(|r| r.is_focused());
    assert_eq!(focused(&h), Some(1), "the first row has the focus");
    h.key_press(egui::Key::Tab);
    h.run();
    assert_eq!(focused(&h), Some(2), "Tab: the next row");
    // The focused row is named by its cells' words (a screen reader says them, not
    // "table row"); the others carry no name of their own.
    let named: Vec<String> = h
        .get_all_by_role(Role::Row)
        .map(|r| r.accesskit_node().label().unwrap_or_default().to_string())
        .collect();
    assert_eq!(named[2], second.join(", "), "{named:?}");
    assert!(named[1].is_empty() && named[3].is_empty(), "{named:?}");
    h.get_all_by_role(Role::Row).nth(1).unwrap().focus();
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    step_until(&mut h, "opened", |h| field_text(h, "Id de factura") == id);
}

/// #68 (6): the currency list answers the keyboard as a list does: it opens on the
/// current choice, so Down moves to the next (Down Down Enter from the account's
/// currency picks UF), and the pick leaves the focus on the list, where Space opens it
/// again.
#[test]
fn the_currency_list_answers_the_keyboard_from_the_current_choice() {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut h = spanish(&rt, &s, dir.path());
    click(&mut h, "Nueva factura");
    let combo = |h: &H| {
        let n = h.get_by_role_and_label(Role::ComboBox, "Moneda");
        let n = n.accesskit_node();
        (n.value().unwrap_or_default().to_string(), n.is_focused())
    };
    h.get_by_role_and_label(Role::ComboBox, "Moneda").focus();
    h.run();
    h.key_press(egui::Key::Space);
    h.run();
    for key in [egui::Key::ArrowDown, egui::Key::ArrowDown, egui::Key::Enter] {
        h.key_press(key);
        h.run();
    }
    let (value, focused) = combo(&h);
    assert!(value.contains("UF"), "picked: {value}");
    assert!(focused, "the focus stays on the list after the pick");
    h.key_press(egui::Key::Space);
    h.run();
    assert!(
        h.query_by_label("Pesos (CLP)").is_some(),
        "Space opens the list again"
    );
}

/// #68 (7): in Spanish, every control of every panel has a name, and a created
/// invoice's status line is announced (a live region).
#[test]
fn every_control_has_a_name_and_a_created_invoice_is_announced() {
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let (_s, mut h) = big_customer_listed(&rt, dir.path());
    common::every_panel_named_and_a_creation_announced(&mut h, Lang::Es, "cus_big");
}

/// #69: the Contratos panel in Spanish: a file of contracts imported, listed, a period
/// planned (its invoices and totals), issued after the confirm — each once: planned
/// again, nothing is left to issue.
#[test]
fn contracts_are_imported_listed_planned_and_issued_once_from_the_panel() {
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let (s, mut h) = with_contracts(
        &rt,
        dir.path(),
        |c| {
            format!(
                "contrato;cliente;monto;moneda;cada;dia;desde\nARR-7;{};450.000;CLP;mes;31;2030-01\nPLAN-8;{};120.000;$;trimestre;5;2030-01\n",
                c[0], c[1]
            )
        },
        "Se agregaron 2 contratos.",
    );
    step_until(&mut h, "listed", |h| {
        has_text(h, "ARR-7") && has_text(h, "trimestral")
    });
    set_text(&mut h, "Período (AAAA-MM)", "2030-01");
    click(&mut h, "Ver lo que se emite");
    step_until(&mut h, "planned", |h| {
        has_text(h, "Período 2030-01: 2 facturas de 2 contratos: $570.000.")
    });
    // Day 31 of January, due 30 days later.
    assert!(has_text(&h, "02-03-2030"), "ARR-7's due date");
    click(&mut h, "Emitir 2 facturas…");
    step_until(&mut h, "asked", |h| {
        has_text(h, "¿Emitir 2 facturas de 2 contratos del período 2030-01?")
    });
    click(&mut h, "Emitirlas");
    step_until(&mut h, "issued", |h| has_text(h, "Terminado: 2 emitidas"));
    let refs = s.references();
    assert_eq!(refs["ARR-7-2030-01"].len(), 1);
    assert_eq!(refs["PLAN-8-2030-01"].len(), 1);
    click(&mut h, "Ver lo que se emite");
    step_until(&mut h, "planned again", |h| {
        has_text(h, "Período 2030-01: nada que emitir.")
    });
    assert!(has_text(
        &h,
        "2 períodos ya se facturaron antes: no se vuelven a emitir."
    ));
    assert_eq!(s.counters().api.get("create"), Some(&2));
    // Activity shows the run's invoices, and the contracts' changes with who and when.
    click(&mut h, "Actividad");
    step_until(&mut h, "the changes listed", |h| {
        has_text(h, "Cambios de contratos (2)")
    });
    h.get_by_label("Cambios de contratos (2)").click();
    step_until(&mut h, "opened", |h| has_text(h, "contrato ARR-7: creado"));
    assert!(
        has_text(&h, "PLAN-8-2030-01"),
        "the run's invoice in Activity"
    );
}

/// #69: Cartera says what the contracts will bill through next period (missed periods
/// included), beside the book.
#[test]
fn cartera_says_what_contracts_bill_next_period() {
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let (_s, mut h) = with_contracts(
        &rt,
        dir.path(),
        |c| {
            format!(
                "contrato;cliente;monto;moneda;desde\nSOP-1;{};100.000;CLP;2026-12\n",
                c[0]
            )
        },
        "Se agregó 1 contrato.",
    );
    click(&mut h, "Cartera");
    click(&mut h, "Revisar cartera");
    step_until(&mut h, "said", |h| {
        has_text(
            h,
            "Contratos: 1 factura por emitir hasta el próximo período (2026-12, incluidos los atrasados): $100.000.",
        )
    });
}

/// The app in Spanish on a fresh sandbox, on the Contratos panel (empty at first), with
/// the contracts of the file `body` makes (from the sandbox's customer ids) imported, as
/// `said` says.
fn with_contracts(
    rt: &tokio::runtime::Runtime,
    dir: &std::path::Path,
    body: impl Fn(&[String]) -> String,
    said: &str,
) -> (Sandbox, H) {
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let mut h = spanish(rt, &s, dir);
    click(&mut h, "Contratos");
    step_until(&mut h, "the empty list", |h| {
        has_text(h, "Aún no hay contratos guardados.")
    });
    let ids: Vec<String> = s.customers().into_iter().map(|c| c.0).collect();
    let file = dir.join("contratos.csv");
    std::fs::write(&file, body(&ids)).unwrap();
    set_text(&mut h, "Archivo de contratos", file.to_str().unwrap());
    click(&mut h, "Importar");
    step_until(&mut h, "imported", |h| has_text(h, said));
    (s, h)
}

/// #69: a contract written in the panel is read back, checked as an import is (a wrong
/// period is named by its field, nothing kept), kept; a kept one is changed from a period
/// and paused, each said.
#[test]
fn a_contract_is_written_read_back_kept_and_changed_in_the_panel() {
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let (s, mut h) = with_contracts(
        &rt,
        dir.path(),
        |c| {
            format!(
                "contrato;cliente;monto;moneda;desde\nSOP-1;{};100.000;CLP;2030-01\n",
                c[0]
            )
        },
        "Se agregó 1 contrato.",
    );
    h.get_by_label("Nuevo contrato").click();
    h.run();
    let customer = s.customers()[1].0.clone();
    set_text(&mut h, "Contrato", "OF-9");
    set_text(&mut h, "Cliente (id, nombre o RUT)", &customer);
    set_text(&mut h, "Monto", "450.000");
    set_text(&mut h, "Día del mes en que se emite", "31");
    set_text(&mut h, "Desde (AAAA-MM)", "2030-13");
    let read_back =
        format!("OF-9 · {customer} · $ 450.000, mensual, se emite el día 31, desde 2030-13.");
    step_until(&mut h, "read back", |h| has_text(h, &read_back));
    click(&mut h, "Guardar el contrato");
    step_until(&mut h, "refused", |h| {
        has_text(h, "Desde (AAAA-MM): \"2030-13\" no es un período AAAA-MM.")
    });
    // Nothing kept: the list still has its one contract (and its header).
    let listed = |h: &H| {
        h.get_by_role_and_label(Role::Table, "Contratos")
            .accesskit_node()
            .children()
            .filter(|c| c.role() == Role::Row)
            .count()
    };
    assert_eq!(listed(&h), 2);
    set_text(&mut h, "Desde (AAAA-MM)", "2030-03");
    click(&mut h, "Guardar el contrato");
    step_until(&mut h, "kept", |h| has_text(h, "Contrato OF-9 guardado."));
    step_until(&mut h, "listed", |h| listed(h) == 3);
    // Changed from May, then paused from July.
    h.get_by_label("Cambiar un contrato desde un período")
        .click();
    h.run();
    set_text(&mut h, "Contrato a cambiar", "OF-9");
    set_text(&mut h, "Desde el período (AAAA-MM)", "2030-05");
    set_text(&mut h, "Monto nuevo", "480.000");
    click(&mut h, "Cambiar el monto");
    step_until(&mut h, "changed", |h| {
        has_text(h, "Contrato OF-9: condiciones nuevas desde 2030-05.")
    });
    set_text(&mut h, "Desde el período (AAAA-MM)", "2030-07");
    click(&mut h, "Pausar");
    step_until(&mut h, "paused", |h| {
        has_text(h, "Contrato OF-9: pausado desde 2030-07.")
    });
    // The plan through August: March and April at the old amount, May and June at the
    // new one, July and August paused (said).
    set_text(&mut h, "Período (AAAA-MM)", "2030-08");
    click(&mut h, "Ver lo que se emite");
    step_until(&mut h, "planned", |h| {
        has_text(h, "OF-9 · 2030-07: pausado desde 2030-07")
    });
    // SOP-1: 8 × $100.000; OF-9: 2 × $450.000 + 2 × $480.000.
    assert!(has_text(
        &h,
        "Período 2030-08: 12 facturas de 2 contratos: $2.660.000."
    ));
}
