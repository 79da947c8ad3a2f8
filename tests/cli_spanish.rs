//! The CLI in the clerk's language: with a Spanish system (LANG=es_CL.UTF-8) its
//! messages and errors are Spanish, `--lang en` gives English back, and what machines
//! read (--json, CSV, exit codes) is the same in both.

mod cli_env;

use cli_env::{Env, exits, text};
use std::process::{Command, Output, Stdio};

fn spanish(mut c: Command) -> Command {
    c.env("LANG", "es_CL.UTF-8");
    c
}

fn run(mut c: Command, args: &[&str]) -> Output {
    c.args(args).stdin(Stdio::null()).output().unwrap()
}

/// English words that would give a Spanish message away (whole words, any case).
fn english_in(said: &str) -> Vec<&'static str> {
    const WORDS: [&str; 14] = [
        "the", "was", "not", "is", "nothing", "invoice", "invoices", "sent", "cannot", "could",
        "journal", "rows", "with", "found",
    ];
    let words: Vec<String> = said
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .collect();
    WORDS
        .into_iter()
        .filter(|w| words.iter().any(|x| x == w))
        .collect()
}

/// The command exited with `code` and `said` (its stdout or stderr) holds `needle`.
fn says(out: &Output, code: i32, said: &[u8], needle: &str) {
    exits(out, code);
    assert!(text(said).contains(needle), "{}", text(said));
}

fn all_spanish(out: &Output) {
    for said in [text(&out.stdout), text(&out.stderr)] {
        // Commands and variables are names, not English: they are left out.
        let prose: String = said
            .split_whitespace()
            .filter(|w| {
                !w.contains("invoice-desk")
                    && !w.contains("INVOICE_DESK")
                    && !w.starts_with("--")
                    && !w.starts_with('`')
            })
            .collect::<Vec<_>>()
            .join(" ");
        let english = english_in(&prose);
        assert!(english.is_empty(), "English words {english:?} in: {said}");
    }
}

#[test]
fn a_spanish_clerks_cli_answers_in_spanish() {
    let e = Env::new(0);
    let c = e.customer();
    // A refused amount: the app's words, before anything is sent.
    let out = run(
        spanish(e.oauth()),
        &["create", "--customer", &c, "--amount", "doce mil"],
    );
    says(&out, 2, &out.stderr, "\"doce mil\" no es un número");
    all_spanish(&out);
    // Created: the invoice as text, in Spanish.
    let out = run(
        spanish(e.oauth()),
        &[
            "create",
            "--customer",
            &c,
            "--amount",
            "25000",
            "--external-id",
            "ES-1",
        ],
    );
    exits(&out, 0);
    let said = text(&out.stdout);
    assert!(said.starts_with("Factura in_"), "{said}");
    assert!(
        said.contains("[Abierta]") && said.contains("Monto:"),
        "{said}"
    );
    let id = said
        .split_whitespace()
        .nth(1)
        .unwrap()
        .trim_end_matches(',')
        .to_string();
    // The same reference again: held back, in Spanish, exit 2.
    let out = run(
        spanish(e.oauth()),
        &[
            "create",
            "--customer",
            &c,
            "--amount",
            "25000",
            "--external-id",
            "ES-1",
        ],
    );
    says(
        &out,
        2,
        &out.stderr,
        "No se envió: la referencia ES-1 ya la emitió",
    );
    all_spanish(&out);
    // Void without --yes and nobody at a terminal: refused in Spanish.
    let out = run(spanish(e.oauth()), &["void", &id]);
    says(&out, 2, &out.stderr, "No se va a anular sin --yes");
    all_spanish(&out);
    // An unknown customer: the service's code in the clerk's words.
    let out = run(
        spanish(e.oauth()),
        &["create", "--customer", "cus_nadie", "--amount", "1000"],
    );
    says(&out, 4, &out.stderr, "el cliente");
    // The journal: intact, listed with Spanish headings.
    let out = run(spanish(e.oauth()), &["journal", "verify"]);
    says(&out, 0, &out.stdout, "El registro está íntegro");
    let out = run(spanish(e.oauth()), &["journal", "list"]);
    says(&out, 0, &out.stdout, "quién");
    assert!(
        text(&out.stdout).contains("resultado"),
        "{}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stderr).contains("registros."),
        "{}",
        text(&out.stderr)
    );
    // #68 (5): its actions and outcomes are words, not the journal's own names.
    let listed = text(&out.stdout);
    assert!(
        listed.contains("Emisión") && listed.contains("Hecha") && listed.contains("Rechazada"),
        "{listed}"
    );
    for raw in ["create", "done", "refused"] {
        assert!(
            !listed.split_whitespace().any(|w| w == raw),
            "{raw} in: {listed}"
        );
    }
    // A billing run's check: its summary and "nothing sent" in Spanish.
    let file = e.dir.path().join("marzo.csv");
    std::fs::write(
        &file,
        format!("cliente,monto\n{c},1000\n{c},2000\nnadie,abc\n"),
    )
    .unwrap();
    let out = run(
        spanish(e.oauth()),
        &["bulk", file.to_str().unwrap(), "--dry-run"],
    );
    says(&out, 2, &out.stderr, "no se envió nada");
    all_spanish(&out);
    let out = run(
        spanish(e.oauth()),
        &[
            "bulk",
            file.to_str().unwrap(),
            "--dry-run",
            "--skip-invalid",
        ],
    );
    exits(&out, 0);
    let said = text(&out.stdout);
    assert!(
        said.contains("2 facturas para 1 cliente ") && said.contains("Prueba sin envío"),
        "{said}"
    );
    // Its report says why a row was left out in the clerk's words, as the app's does
    // (the columns and the status words stay the machines').
    let abril = e.dir.path().join("abril.csv");
    std::fs::write(&abril, format!("cliente,monto\n{c},1000\nnadie,abc\n")).unwrap();
    let report = e.dir.path().join("abril-resultado.csv");
    let out = run(
        spanish(e.oauth()),
        &[
            "bulk",
            abril.to_str().unwrap(),
            "--skip-invalid",
            "--yes",
            "--report",
            report.to_str().unwrap(),
        ],
    );
    exits(&out, 0);
    let written = std::fs::read_to_string(&report).unwrap();
    let row = written
        .lines()
        .find(|l| l.starts_with("3,"))
        .unwrap_or_default();
    let why = row.split(',').nth(4).unwrap_or_default();
    assert!(!why.is_empty() && english_in(why).is_empty(), "{written}");
    // A journal that cannot be opened: nothing sent, said in Spanish, exit 1.
    let folder = e.dir.path().join("una-carpeta");
    std::fs::create_dir(&folder).unwrap();
    let mut c2 = spanish(e.oauth());
    c2.env("INVOICE_DESK_JOURNAL", &folder);
    let out = run(c2, &["create", "--customer", &c, "--amount", "1000"]);
    exits(&out, 1);
    assert!(
        text(&out.stderr).starts_with("No se envió nada"),
        "{}",
        text(&out.stderr)
    );
    // No settings at all: Spanish too.
    let out = run(spanish(e.bare()), &["token"]);
    says(&out, 2, &out.stderr, "No hay perfil");
    all_spanish(&out);
}

#[test]
fn lang_en_wins_over_a_spanish_system_and_machine_output_does_not_change() {
    let e = Env::new(0);
    let c = e.customer();
    let out = run(spanish(e.bare()), &["--lang", "en", "token"]);
    says(
        &out,
        2,
        &out.stderr,
        "No profile and no INVOICE_DESK_BASE_URL",
    );
    let out = run(
        spanish(e.oauth()),
        &[
            "--json",
            "create",
            "--customer",
            &c,
            "--amount",
            "1000",
            "--external-id",
            "J-1",
        ],
    );
    exits(&out, 0);
    let created: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    // The same invoice, the same bytes, in either language.
    let es = run(spanish(e.oauth()), &["--json", "get", &id]);
    let en = run(e.oauth(), &["--json", "get", &id]);
    exits(&es, 0);
    exits(&en, 0);
    assert_eq!(es.stdout, en.stdout);
    for format in ["csv", "json"] {
        let es = run(spanish(e.oauth()), &["list", &c, "--format", format]);
        let en = run(e.oauth(), &["--lang", "en", "list", &c, "--format", format]);
        exits(&es, 0);
        assert_eq!(es.stdout, en.stdout, "{format}");
        let (es, en) = (text(&es.stderr), text(&en.stderr));
        let n = en.trim().trim_end_matches(" invoices.");
        assert!(n.parse::<u32>().is_ok(), "{en}");
        assert_eq!(es.trim(), format!("{n} facturas."));
    }
    // Exit codes are the same too: a missing invoice is 4 in both.
    let es = run(spanish(e.oauth()), &["get", "in_no_existe"]);
    let en = run(e.oauth(), &["get", "in_no_existe"]);
    assert_eq!(es.status.code(), Some(4));
    assert_eq!(en.status.code(), Some(4));
    assert_ne!(es.stderr, en.stderr);
}

/// A secret named in a sentence takes its own article: "la llave de API", "el secreto
/// del cliente" (it read "el clave de API").
#[test]
fn a_secret_is_named_with_its_own_article() {
    let dir = tempfile::tempdir().unwrap();
    let add = |mode: &str| {
        let mut c = spanish(cli_env::cli(dir.path()));
        c.args(["profile", "add", "prueba", "--mode", mode])
            .args(["--base-url", "https://api.example.cl"])
            .args(["--auth-url", "https://idp.example.cl", "--audience", "x"])
            .args(["--client-id", "cliente"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = c.spawn().unwrap();
        use std::io::Write as _;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"sekret-123\n")
            .unwrap();
        let out = child.wait_with_output().unwrap();
        exits(&out, 0);
        text(&out.stderr)
    };
    let said = add("api-key");
    assert!(
        said.contains("pero la llave de API NO se pudo guardar"),
        "{said}"
    );
    let said = add("oauth");
    assert!(
        said.contains("pero el secreto del cliente NO se pudo guardar"),
        "{said}"
    );
    assert!(
        !said.contains("el la") && !said.contains("el clave"),
        "{said}"
    );
}

/// #68 (5): `invoice-desk sandbox` introduces itself in the clerk's language.
#[test]
fn the_sandboxs_banner_is_in_spanish() {
    use std::io::BufRead;
    let e = Env::new(0);
    let mut child = spanish(e.bare())
        .args(["sandbox", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let mut banner = String::new();
    for line in std::io::BufReader::new(out).lines() {
        let line = line.unwrap();
        // Up to the customers' heading, in whichever language it is said.
        let done = line.starts_with("Clientes") || line.starts_with("Customers");
        banner.push_str(&line);
        banner.push('\n');
        if done {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        banner.contains("una copia local del servicio de facturación"),
        "{banner}"
    );
    assert!(banner.contains("secreto de cliente:"), "{banner}");
    // Everything but the credentials, addresses and the command lines is Spanish.
    let prose: String = banner
        .lines()
        .map(|l| l.split(':').next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join(" ")
        .replace("invoice-desk", "");
    assert!(english_in(&prose).is_empty(), "{banner}");
}

/// #68 (5): every command's `--help` and clap's usage errors in the clerk's language
/// (the words are ours, from assets/help/es-CL/help.ftl; clap's are translated), and
/// `--lang en` still English.
#[test]
fn every_help_and_usage_error_is_in_spanish() {
    let e = Env::new(0);
    // Every command's path, from the definition itself.
    fn paths(cmd: &clap::Command, above: &[String], out: &mut Vec<Vec<String>>) {
        out.push(above.to_vec());
        for sub in cmd.get_subcommands() {
            let mut path = above.to_vec();
            path.push(sub.get_name().to_string());
            paths(sub, &path, out);
        }
    }
    let mut all = Vec::new();
    paths(
        &invoice_desk::cli::help::command_in(invoice_desk::i18n::Lang::En),
        &[],
        &mut all,
    );
    assert!(all.len() > 40, "{all:?}");
    let names: std::collections::HashSet<&str> = all.iter().flatten().map(String::as_str).collect();
    for path in &all {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let out = run(spanish(e.bare()), &args);
        exits(&out, 0);
        let said = text(&out.stdout);
        for heading in ["Uso: invoice-desk", "Opciones:", "Muestra esta ayuda"] {
            assert!(said.contains(heading), "{args:?}: {said}");
        }
        for english in ["Usage:", "Options:", "Commands:", "Arguments:", "[OPTIONS]"] {
            assert!(!said.contains(english), "{args:?}: {said}");
        }
        // Names are not English prose: commands, options, variables, columns, files.
        let prose: String = said
            .split_whitespace()
            .filter(|w| {
                !w.contains("invoice-desk")
                    && !names.contains(w)
                    && !w.contains('_')
                    && !w.contains('|')
                    && !w.contains(".sqlite3")
                    && !w.starts_with("--")
                    && !w.starts_with('`')
                    && !w.starts_with('{')
            })
            .collect::<Vec<_>>()
            .join(" ");
        let english = english_in(&prose);
        assert!(
            english.is_empty(),
            "{args:?}: English {english:?} in {said}"
        );
    }
    // `help COMMAND` as clap's English has it.
    let out = run(spanish(e.bare()), &["help", "create"]);
    says(&out, 0, &out.stdout, "Emite una factura");
    // Usage errors: clap's words in Spanish, our own reasons too; exit 2 as before.
    let out = run(spanish(e.bare()), &["crate"]);
    says(&out, 2, &out.stderr, "no existe el comando 'crate'");
    says(&out, 2, &out.stderr, "¿quiso decir 'create'?");
    let out = run(spanish(e.bare()), &["bulk", "x.csv", "--concurrency", "99"]);
    says(
        &out,
        2,
        &out.stderr,
        "las solicitudes a la vez van de 1 a 64",
    );
    let out = run(spanish(e.bare()), &["create", "--amount", "5"]);
    says(&out, 2, &out.stderr, "faltan estos argumentos obligatorios");
    says(&out, 2, &out.stderr, "--customer <CLIENTE>");
    let out = run(
        spanish(e.bare()),
        &["export", "c", "--out", "x", "--as-of", "2026-13-01"],
    );
    says(&out, 2, &out.stderr, "no es un día AAAA-MM-DD");
    all_spanish(&out);
    // A command without its subcommand shows its help, as a usage error.
    let out = run(spanish(e.bare()), &["customers"]);
    says(&out, 2, &out.stderr, "Comandos:");
    // English stays clap's.
    let out = run(spanish(e.bare()), &["--lang", "en", "create", "--help"]);
    says(&out, 0, &out.stdout, "Create an invoice");
    says(&out, 0, &out.stdout, "Options:");
    let out = run(e.bare(), &["crate"]);
    says(&out, 2, &out.stderr, "unrecognized subcommand 'crate'");
}
