//! A desk of clerks on one shared journal (PostgreSQL, a real server started by the
//! tests): the CLI as several clerks on several computers would run it, against the
//! sandbox. A reference claimed by one clerk is never sent by another, the chain holds
//! with many writers, the clerks' role cannot rewrite history, and a journal that cannot
//! be reached sends nothing (and never falls back to a local file).
// Linux: the tests' server is Debian's package (CI installs it); elsewhere these do
// not build.
#![cfg(target_os = "linux")]

#[path = "shared_journal/approvals.rs"]
mod approvals;
mod cli_env;
mod pg_server;

use cli_env::{Env, exits, text};
use std::process::{Command, Output, Stdio};

fn server() -> Option<&'static pg_server::Server> {
    pg_server::server()
}

/// The CLI as clerk `user`, on the shared journal at `url`.
fn clerk(e: &Env, user: &str, url: &str) -> Command {
    let mut c = e.oauth();
    c.env("INVOICE_DESK_JOURNAL", url)
        .env("INVOICE_DESK_JOURNAL_PASSWORD", pg_server::PASSWORD)
        .env("USER", user)
        .stdin(Stdio::null());
    c
}

/// `journal verify` as clerk `user` on `url`: the chain is intact (exit 0).
fn verified(e: &Env, user: &str, url: &str) -> Output {
    let out = clerk(e, user, url)
        .args(["journal", "verify"])
        .output()
        .unwrap();
    exits(&out, 0);
    out
}

fn creates(e: &Env) -> u64 {
    e.s.counters().api.get("create").copied().unwrap_or(0)
}

fn create_args<'a>(customer: &'a str, amount: &'a str, reference: &'a str) -> Vec<&'a str> {
    vec![
        "create",
        "--customer",
        customer,
        "--amount",
        amount,
        "--external-id",
        reference,
    ]
}

#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn two_clerks_creating_one_reference_at_once_send_it_once_and_the_other_is_told_who() {
    let Some(pg) = server() else {
        return;
    };
    let e = Env::new(0);
    let url = pg.database();
    let c = e.customer();
    for round in 0..8 {
        let reference = format!("DESK-{round}");
        let amount = (1000 + round).to_string();
        // Two computers, the same moment.
        let mut ana = clerk(&e, "ana", &url);
        let mut beto = clerk(&e, "beto", &url);
        ana.args(create_args(&c, &amount, &reference))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        beto.args(create_args(&c, &amount, &reference))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let (a, b) = (ana.spawn().unwrap(), beto.spawn().unwrap());
        let outs: Vec<Output> = [a, b]
            .into_iter()
            .map(|p| p.wait_with_output().unwrap())
            .collect();
        let sent: Vec<&Output> = outs.iter().filter(|o| o.status.code() == Some(0)).collect();
        let held: Vec<&Output> = outs.iter().filter(|o| o.status.code() == Some(2)).collect();
        assert_eq!(
            (sent.len(), held.len()),
            (1, 1),
            "round {round}: {:?}",
            outs.iter().map(|o| text(&o.stderr)).collect::<Vec<_>>()
        );
        let said = text(&held[0].stderr);
        // Who: the database role the server knows first, the computer's word beside it.
        let role = pg_server::Server::owner_of(url.rsplit('/').next().unwrap());
        assert!(
            ["already issued by", "is being issued right now by"]
                .iter()
                .any(|how| said.contains(&format!("{how} role {role} · ana on"))
                    || said.contains(&format!("{how} role {role} · beto on"))),
            "the other clerk is told who: {said}"
        );
        assert_eq!(e.s.references()[&reference].len(), 1, "round {round}");
    }
    assert_eq!(creates(&e), 8);
    // Both clerks' entries are in the one journal, each with who wrote it.
    let out = clerk(&e, "ana", &url)
        .args(["--json", "journal", "list"])
        .output()
        .unwrap();
    exits(&out, 0);
    let users: std::collections::BTreeSet<String> = text(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| {
            v["user"]
                .as_str()
                .map(|u| u.split('@').next().unwrap().to_string())
        })
        .collect();
    assert!(users.contains("ana") || users.contains("beto"), "{users:?}");
    assert!(
        text(&out.stdout).contains(&format!("@{}", invoice_desk::journal::host_name())),
        "entries say which computer: {}",
        text(&out.stdout)
    );
}

#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn eight_clerks_writing_at_once_keep_one_intact_chain() {
    let Some(pg) = server() else {
        return;
    };
    let e = Env::new(0);
    let url = pg.database();
    let c = e.customer();
    let clerks: Vec<_> = (0..8)
        .map(|n| {
            let mut cmd = Command::new("sh");
            // Five creates one after another, as one clerk at one computer.
            let exe = clerk(&e, &format!("clerk{n}"), &url);
            let bin = exe.get_program().to_os_string();
            let mut script = String::new();
            for i in 0..5 {
                script.push_str(&format!(
                    "\"$BIN\" create --customer {c} --amount {} --external-id W-{n}-{i} >/dev/null || exit 1\n",
                    2000 + n * 10 + i
                ));
            }
            cmd.arg("-c").arg(script).env("BIN", bin);
            for (k, v) in exe.get_envs() {
                match v {
                    Some(v) => cmd.env(k, v),
                    None => cmd.env_remove(k),
                };
            }
            cmd.spawn().unwrap()
        })
        .collect();
    for mut c in clerks {
        assert!(c.wait().unwrap().success());
    }
    assert_eq!(creates(&e), 40);
    let out = verified(&e, "supervisor", &url);
    assert!(
        text(&out.stdout).contains("intact: 80 rows"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn an_unreachable_shared_journal_sends_nothing_and_never_falls_back_to_a_file() {
    let e = Env::new(0);
    // A port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("postgres://postgres@127.0.0.1:{port}/desk");
    let out = clerk(&e, "ana", &url)
        .args(create_args(&e.customer(), "1000", "OFF-1"))
        .output()
        .unwrap();
    exits(&out, 1);
    let said = text(&out.stderr);
    assert!(said.starts_with("Nothing was sent"), "{said}");
    assert!(said.contains("cannot be reached"), "{said}");
    assert_eq!(creates(&e), 0);
    assert!(
        !e.dir.path().join("journal.sqlite3").exists(),
        "no local journal was made instead"
    );
    // In Spanish too.
    let out = clerk(&e, "ana", &url)
        .env("LANG", "es_CL.UTF-8")
        .args(create_args(&e.customer(), "1000", "OFF-1"))
        .output()
        .unwrap();
    exits(&out, 1);
    assert!(
        text(&out.stderr).contains("No se puede llegar al servidor del registro compartido"),
        "{}",
        text(&out.stderr)
    );
    // A password in the address is refused before anything is tried.
    let out = clerk(
        &e,
        "ana",
        &format!("postgres://postgres:secreto@127.0.0.1:{port}/desk"),
    )
    .args(create_args(&e.customer(), "1000", "OFF-2"))
    .output()
    .unwrap();
    exits(&out, 1);
    assert!(
        text(&out.stderr).contains("INVOICE_DESK_JOURNAL_PASSWORD"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        !text(&out.stderr).contains("secreto"),
        "the password is never repeated"
    );
    assert_eq!(creates(&e), 0);
    // Nor as a parameter, nor in libpq's keyword/value form: that is a database, never
    // a local file named with the password, and nothing is sent anywhere else.
    for address in [
        format!("postgres://postgres@127.0.0.1:{port}/desk?password=secreto&sslmode=disable"),
        format!("host=127.0.0.1 port={port} dbname=desk user=postgres password=secreto"),
        format!("host=127.0.0.1 port={port} password='secreto' dbname=desk"),
    ] {
        let out = clerk(&e, "ana", &address)
            .current_dir(e.dir.path())
            .args(create_args(&e.customer(), "1000", "OFF-3"))
            .output()
            .unwrap();
        exits(&out, 1);
        let said = text(&out.stderr);
        assert!(said.contains("INVOICE_DESK_JOURNAL_PASSWORD"), "{said}");
        assert!(
            !said.contains("secreto"),
            "the password is repeated: {said}"
        );
        assert_eq!(creates(&e), 0);
        let named: Vec<_> = std::fs::read_dir(e.dir.path())
            .unwrap()
            .filter_map(|f| f.ok())
            .map(|f| f.file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("secreto") || n.contains("host="))
            .collect();
        assert!(
            named.is_empty(),
            "a file was made of the address: {named:?}"
        );
    }
}

#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn the_clerks_role_adds_and_reads_but_cannot_rewrite_history() {
    let Some(pg) = server() else {
        return;
    };
    let e = Env::new(0);
    let s = pg;
    let url = s.database();
    let db = url.rsplit('/').next().unwrap().to_string();
    let role = format!("clerks_{db}");
    s.psql(
        "postgres",
        &format!(
            "CREATE ROLE {role} LOGIN PASSWORD '{}'",
            pg_server::PASSWORD
        ),
    );
    s.psql(&db, &format!("GRANT CONNECT ON DATABASE {db} TO {role}"));
    // Before `journal init`, the clerks' role cannot make the tables: it says who can.
    let as_clerk = s.url_as(&role, &db);
    let out = clerk(&e, "ana", &as_clerk)
        .args(create_args(&e.customer(), "1000", "ROLE-0"))
        .output()
        .unwrap();
    exits(&out, 1);
    assert!(
        text(&out.stderr).contains("journal init"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(creates(&e), 0);
    // The owner prepares it for the role.
    let out = clerk(&e, "owner", &url)
        .args(["journal", "init", &url, "--clerks", &role])
        .output()
        .unwrap();
    exits(&out, 0);
    assert!(text(&out.stdout).contains("never change or remove"));
    // The clerk works as always.
    let out = clerk(&e, "ana", &as_clerk)
        .args(create_args(&e.customer(), "1000", "ROLE-1"))
        .output()
        .unwrap();
    exits(&out, 0);
    assert_eq!(creates(&e), 1);
    // What the clerks' role is refused, each statement by the server.
    let denied = |sqls: &[&str]| {
        for sql in sqls {
            let (ok, said) = s.psql_as(&role, pg_server::PASSWORD, &db, sql);
            assert!(!ok, "{sql} was allowed: {said}");
            assert!(said.contains("permission denied"), "{sql}: {said}");
        }
    };
    // History cannot be changed or removed from a clerk's computer.
    denied(&[
        "UPDATE entries SET amount = '1'",
        "DELETE FROM entries",
        "TRUNCATE entries",
    ]);
    let (ok, said) = s.psql_as(
        &role,
        pg_server::PASSWORD,
        &db,
        "SELECT count(*) FROM entries",
    );
    assert!(ok, "{said}");
    // #50: the UF's value is fetched once for the desk: a second clerk reads it kept.
    let uf_of = |who: &str| {
        let out = clerk(&e, who, &as_clerk)
            .env("LANG", "es_CL.UTF-8")
            .env("INVOICE_DESK_CMF_URL", format!("{}/cmf", e.s.base_url))
            .env("INVOICE_DESK_CMF_KEY", invoice_desk::uf::SANDBOX_KEY)
            .args(["uf", "show", "--date", "2026-11-26"])
            .output()
            .unwrap();
        exits(&out, 0);
        text(&out.stdout)
    };
    let fetches = || e.s.counters().api.get("uf").copied().unwrap_or(0);
    assert!(uf_of("ana").contains("$39.643,59"));
    assert_eq!(fetches(), 1);
    assert!(uf_of("beto").contains("$39.643,59"));
    assert_eq!(fetches(), 1, "kept on the desk, not fetched again");
    // Who stored it is the server's word, said beside the value (#66).
    assert!(
        uf_of("beto").contains(&format!("(CMF; guardado por {role} el ")),
        "{}",
        uf_of("beto")
    );
    // A day kept cannot be rewritten by a clerk, by hand; layout 4's function, which kept
    // any value of any day under any label, is gone.
    denied(&[
        "UPDATE uf_values SET value = '1000.00'",
        "DELETE FROM uf_values",
        "INSERT INTO uf_values VALUES ('2031-01-01', '5000.00', 'x', 'x', 'x')",
        "INSERT INTO uf_corrections (day, source, old_value, new_value, corrected_by, corrected_at)
         VALUES ('2026-11-26', 'CMF', '1', '2', 'x', 'x')",
    ]);
    let keep = |sql: &str| s.psql_as(&role, pg_server::PASSWORD, &db, sql);
    let (ok, said) = keep("SELECT journal_uf_put('2026-11-26', '40000.00', 'x')");
    assert!(!ok, "the old door is closed: {said}");
    let (ok, said) = keep("SELECT journal_uf_keep('2026-11-26', '1.00', 'x')");
    assert!(!ok, "not a UF value, refused: {said}");
    // #66: the server refuses, whatever the client, a value that breaks continuity with
    // the days kept around it: under any label, on a kept day or a new one, near or far.
    for (day, value, source) in [
        ("2026-11-26", "45000.00", "CMF"),
        ("2026-11-26", "40000.00", "x"),
        ("2026-12-24", "1000.00", "CMF"),
        ("2026-12-01", "1000.00", "x"),
    ] {
        let (ok, said) = keep(&format!(
            "SELECT journal_uf_keep('{day}', '{value}', '{source}')"
        ));
        assert!(ok && said.contains("breaks:"), "{day} {value}: {said}");
    }
    assert!(uf_of("ana").contains("$39.643,59"));
    // A value within a day's reach of the CMF's, planted as the CMF's: taken as a
    // correction, recorded with who made it — and the CMF read again puts it right,
    // recorded too.
    let (ok, said) = keep("SELECT journal_uf_keep('2026-11-26', '39700.00', 'CMF')");
    assert!(ok && said.contains("corrected:39643.59:"), "{said}");
    assert!(uf_of("ana").contains("$39.700,00"));
    let out = clerk(&e, "beto", &as_clerk)
        .env("LANG", "es_CL.UTF-8")
        .env("INVOICE_DESK_CMF_URL", format!("{}/cmf", e.s.base_url))
        .env("INVOICE_DESK_CMF_KEY", invoice_desk::uf::SANDBOX_KEY)
        .args(["uf", "check", "--from", "2026-11-01", "--to", "2026-11-30"])
        .output()
        .unwrap();
    exits(&out, 4);
    assert!(
        text(&out.stdout).contains(&format!(
            "26-11-2026: la CMF publica $39.643,59; el valor guardado ($39.700,00, guardado por {role}) la contradecía y se reemplazó"
        )),
        "{}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stdout).contains("1 diferencia"),
        "{}",
        text(&out.stdout)
    );
    assert!(uf_of("ana").contains("$39.643,59"));
    let (ok, said) = keep("SELECT count(*) FROM uf_corrections");
    assert!(
        ok && said.contains(" 2\n"),
        "both corrections recorded: {said}"
    );
    verified(&e, "ana", &as_clerk);
}

/// A desk of two clerks as a managed server has it: a database owned by an ordinary
/// role, a group `desk_<db>` given the journal by `journal init --clerks`, and the
/// logins `ana_<db>` and `beto_<db>` in it.
struct Desk {
    db: String,
    ana: String,
    beto: String,
    as_ana: String,
    as_beto: String,
}

fn desk_of_two(e: &Env, s: &pg_server::Server) -> Desk {
    const PW: &str = pg_server::PASSWORD;
    let url = s.database();
    let db = url.rsplit('/').next().unwrap().to_string();
    let group = format!("desk_{db}");
    let (ana, beto) = (format!("ana_{db}"), format!("beto_{db}"));
    s.psql("postgres", &format!("CREATE ROLE {group} NOLOGIN"));
    for r in [&ana, &beto] {
        s.psql(
            "postgres",
            &format!("CREATE ROLE {r} LOGIN PASSWORD '{PW}' IN ROLE {group}"),
        );
    }
    s.psql(&db, &format!("GRANT CONNECT ON DATABASE {db} TO {group}"));
    let out = clerk(e, "owner", &url)
        .args(["journal", "init", &url, "--clerks", &group])
        .output()
        .unwrap();
    exits(&out, 0);
    let (as_ana, as_beto) = (s.url_as(&ana, &db), s.url_as(&beto, &db));
    Desk {
        db,
        ana,
        beto,
        as_ana,
        as_beto,
    }
}

/// A desk gives each clerk a login role of their own, members of one group role that
/// `journal init --clerks` prepares. As such a role, in a real psql session, every
/// direct write is refused by the server (update, delete, truncate, an insert of a
/// forged row or of the last sequence number, a claim or a directory row by hand); the
/// journal's functions allow only what the design allows (no answer for another
/// clerk's request, no "not created" for what is settled, no claim taken over from a
/// done invoice); who wrote each row is the role the server knows, not the name a
/// computer gives; and the chain stays intact.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn each_clerk_has_a_role_and_no_clerk_can_forge_or_rewrite_the_journal() {
    let Some(pg) = server() else {
        return;
    };
    const PW: &str = pg_server::PASSWORD;
    let e = Env::new(0);
    let s = pg;
    let Desk {
        db,
        ana,
        beto,
        as_ana,
        as_beto,
    } = desk_of_two(&e, s);
    let out = clerk(&e, "ana", &as_ana)
        .args(create_args(&e.customer(), "1000", "ROLE-1"))
        .output()
        .unwrap();
    exits(&out, 0);
    assert_eq!(creates(&e), 1);
    let seq = s.psql(
        &db,
        "SELECT seq FROM entries WHERE kind = 'intent' AND external_id = 'ROLE-1'",
    );
    let scope = s.psql(&db, "SELECT scope FROM claims WHERE key = 'ROLE-1'");
    let forged = "INSERT INTO entries (seq, kind, time, \"user\", profile, base_url, action, \
                  prev_hash, hash) OVERRIDING SYSTEM VALUE VALUES (9223372036854775807, 'outcome', '2026-11-26T00:00:00Z', \
                  'Beto', 'p', 'u', 'create', '0', '0')";
    for sql in [
        "UPDATE claims SET intent_seq = 1",
        "UPDATE customers SET name = 'x'",
        "UPDATE bulk_runs SET finished = NULL",
        "UPDATE writers SET tip_hash = 'x'",
        "UPDATE entries SET outcome = 'refused'",
        "DELETE FROM claims",
        "DELETE FROM entries",
        "TRUNCATE entries",
        "TRUNCATE claims",
        forged,
        "INSERT INTO claims VALUES ('s', 'k', 1)",
        "INSERT INTO customers (id, search, updated) VALUES ('x', 'x', 'x')",
        "INSERT INTO pushed VALUES ('x', 1, 'x')",
        "SELECT setval(pg_get_serial_sequence('entries', 'seq'), 9223372036854775806)",
        "SELECT journal_writer()",
    ] {
        let (ok, said) = s.psql_as(&beto, PW, &db, sql);
        assert!(!ok, "{sql} was allowed: {said}");
        assert!(said.contains("permission denied"), "{sql}: {said}");
    }
    let append = |kind: &str, intent: &str, outcome: &str, checked: bool, reference: &str| {
        format!(
            "SELECT journal_append('{kind}', {intent}, 'Ana', 'p', 'u', 'create', NULL, NULL, \
             NULL, NULL, '{reference}', NULL, {outcome}, NULL, NULL, NULL, NULL, {checked}, \
             '{scope}', NULL, NULL, NULL)"
        )
    };
    // Ana's request's answer is Ana's writer's to record, not Beto's.
    let (ok, said) = s.psql_as(
        &beto,
        PW,
        &db,
        &append("outcome", &seq, "'refused'", false, "ROLE-1"),
    );
    assert!(!ok && said.contains("only a check may settle it"), "{said}");
    // A check's "not created" of an invoice already done.
    let (ok, said) = s.psql_as(
        &beto,
        PW,
        &db,
        &append("outcome", &seq, "'refused'", true, "ROLE-1"),
    );
    assert!(!ok && said.contains("already settled"), "{said}");
    // A claim taken over from a done invoice, by an intent of Beto's own.
    let takeover = format!(
        "{}; SELECT journal_claim('{scope}', 'ROLE-1', (SELECT max(seq) FROM entries WHERE db_user = session_user), {seq}, false)",
        append("intent", "NULL", "NULL", false, "ROLE-1")
    );
    let (ok, said) = s.psql_as(&beto, PW, &db, &takeover);
    assert!(!ok && said.contains("is held by entry"), "{said}");
    // An intent Beto writes under Ana's name is Beto's: the server stamps the role.
    let (ok, said) = s.psql_as(
        &beto,
        PW,
        &db,
        &append("intent", "NULL", "NULL", false, "AS-ANA"),
    );
    assert!(ok, "{said}");
    assert_eq!(
        s.psql(
            &db,
            "SELECT \"user\" || '|' || db_user FROM entries WHERE external_id = 'AS-ANA'"
        ),
        format!("Ana|{beto}")
    );
    // From Beto's computer the reference is Ana's, and nothing is sent.
    let out = clerk(&e, "beto", &as_beto)
        .args(create_args(&e.customer(), "1000", "ROLE-1"))
        .output()
        .unwrap();
    exits(&out, 2);
    assert_eq!(creates(&e), 1);
    verified(&e, "beto", &as_beto);
    // Who wrote it is the server's word.
    let out = clerk(&e, "beto", &as_beto)
        .args(["--json", "journal", "list"])
        .output()
        .unwrap();
    exits(&out, 0);
    let issued = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v["external_id"] == "ROLE-1" && v["outcome"] == "done")
        .expect("ROLE-1 is in the journal, done");
    assert_eq!(issued["db_user"], ana.as_str(), "{issued}");
}

/// What a clerk's role could still do through the journal's own functions, tried in
/// real psql sessions as that role: write under a colleague's name (the role is what
/// every message shows first), record a reference as issued as an invoice that does not
/// exist (the colleague is told the service has no such invoice and may issue it, the
/// decision journaled), back-date a row as if copied (the server's time stands, the
/// claimed time beside it) or end a colleague's request with a copied outcome (refused).
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_clerks_role_cannot_forge_who_block_a_reference_or_back_date_a_row() {
    let Some(pg) = server() else {
        return;
    };
    const PW: &str = pg_server::PASSWORD;
    let e = Env::new(0);
    let s = pg;
    let Desk {
        db,
        ana,
        beto,
        as_ana,
        as_beto,
    } = desk_of_two(&e, s);
    let c = e.customer();
    let out = clerk(&e, "ana", &as_ana)
        .args(create_args(&c, "1000", "REAL-1"))
        .output()
        .unwrap();
    exits(&out, 0);
    let scope = s.psql(&db, "SELECT scope FROM claims WHERE key = 'REAL-1'");
    let ana_seq = s.psql(
        &db,
        "SELECT seq FROM entries WHERE kind = 'intent' AND external_id = 'REAL-1'",
    );
    let append =
        |kind: &str, intent: &str, reference: &str, invoice: &str, outcome: &str, copied: &str| {
            format!(
                "SELECT journal_append('{kind}', {intent}, 'Ana Pérez (ana@PC-CAJA-2)', 'p', 'u', \
             'create', '{c}', '1000', NULL, NULL, '{reference}', {invoice}, {outcome}, NULL, \
             NULL, NULL, NULL, false, '{scope}', NULL, NULL, {copied})"
            )
        };
    let mine = "(SELECT max(seq) FROM entries WHERE db_user = session_user AND kind = 'intent')";
    // Beto, in one session: an intent under Ana's name, its claim, and "done" as an
    // invoice the service never made.
    let forged = format!(
        "{}; SELECT journal_claim('{scope}', 'FORGED-1', {mine}, NULL, false); {}",
        append("intent", "NULL", "FORGED-1", "NULL", "NULL", "NULL"),
        append(
            "outcome",
            mine,
            "FORGED-1",
            "'in_fake00000001'",
            "'done'",
            "NULL"
        )
    );
    let (ok, said) = s.psql_as(&beto, PW, &db, &forged);
    assert!(ok, "{said}");
    // Ana is told who recorded it — Beto's role first, the name his computer gave
    // beside it — and that the service has no such invoice; nothing is sent.
    let before = creates(&e);
    let out = clerk(&e, "ana", &as_ana)
        .args(create_args(&c, "2000", "FORGED-1"))
        .output()
        .unwrap();
    exits(&out, 2);
    let said = text(&out.stderr);
    assert!(
        said.contains(&format!("role {beto} · Ana Pérez (ana on PC-CAJA-2)"))
            && said.contains("in_fake00000001")
            && said.contains("the service has no such invoice")
            && said.contains("--reissue-missing"),
        "{said}"
    );
    assert_eq!(creates(&e), before);
    // The reference is not blocked for good: Ana issues it, her decision journaled.
    let out = clerk(&e, "ana", &as_ana)
        .args(create_args(&c, "2000", "FORGED-1"))
        .arg("--reissue-missing")
        .output()
        .unwrap();
    exits(&out, 0);
    assert_eq!(e.s.references()["FORGED-1"].len(), 1);
    let decided = s.psql(
        &db,
        "SELECT db_user || '|' || decision FROM entries \
         WHERE kind = 'intent' AND external_id = 'FORGED-1' AND db_user <> session_user \
         ORDER BY seq DESC LIMIT 1",
    );
    assert_eq!(
        decided,
        format!("{ana}|issued-although-missing:in_fake00000001")
    );
    // Now the service has it: never issued again, whatever is asked.
    let out = clerk(&e, "ana", &as_ana)
        .args(create_args(&c, "2000", "FORGED-1"))
        .arg("--reissue-missing")
        .output()
        .unwrap();
    exits(&out, 2);
    assert!(
        text(&out.stderr).contains("already issued by role"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(e.s.references()["FORGED-1"].len(), 1);
    // A real invoice's claim cannot be taken over as "missing" by an intent whose
    // decision does not say so.
    let takeover = format!(
        "{}; SELECT journal_claim_missing('{scope}', 'REAL-1', {mine}, {ana_seq})",
        append("intent", "NULL", "REAL-1", "NULL", "NULL", "NULL")
    );
    let (ok, said) = s.psql_as(&beto, PW, &db, &takeover);
    assert!(!ok && said.contains("is held by entry"), "{said}");
    // A row "copied" from 2020 carries the server's time; 2020 is only what it says.
    let (ok, said) = s.psql_as(
        &beto,
        PW,
        &db,
        &append(
            "intent",
            "NULL",
            "OLD-1",
            "NULL",
            "NULL",
            "'2020-01-01T00:00:00Z'",
        ),
    );
    assert!(ok, "{said}");
    let stamped = s.psql(
        &db,
        "SELECT (abs(extract(epoch FROM time::timestamptz - now())) < 600)::text || '|' \
         || (server_time IS NOT NULL)::text || '|' || copied_time \
         FROM entries WHERE external_id = 'OLD-1'",
    );
    assert_eq!(stamped, "true|true|2020-01-01T00:00:00Z");
    // A copied outcome ends only a copied intent of the same writer: never Ana's.
    let (ok, said) = s.psql_as(
        &beto,
        PW,
        &db,
        &append(
            "outcome",
            &ana_seq,
            "REAL-1",
            "NULL",
            "'refused'",
            "'2020-01-01T00:00:00Z'",
        ),
    );
    assert!(
        !ok && said.contains("a copied outcome follows only"),
        "{said}"
    );
    // The listing says it was copied, by whom (the role), and when it says it was.
    let out = clerk(&e, "ana", &as_ana)
        .args(["journal", "list"])
        .output()
        .unwrap();
    exits(&out, 0);
    let listed = text(&out.stdout);
    let old = listed
        .lines()
        .find(|l| l.contains("OLD-1"))
        .unwrap_or_default();
    assert!(
        old.contains(&format!("role {beto} · Ana Pérez"))
            && old.contains("(copied; recorded 2020-01-01"),
        "{listed}"
    );
    verified(&e, "ana", &as_ana);
    verified(&e, "beto", &as_beto);
}

/// A clerk who switches to the desk's journal finds its directory empty: a billing row
/// naming a customer says the directory has no names yet (not just "no such customer"),
/// and `journal push` brings this computer's directory along, after which the same run
/// issues; a name the desk already knows is kept as the desk wrote it.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn switching_to_the_desk_says_the_directory_is_empty_and_push_brings_it_along() {
    let Some(pg) = server() else {
        return;
    };
    let e = Env::new(0);
    let url = pg.database();
    let c = e.customer();
    let directory = e.dir.path().join("clientes.csv");
    std::fs::write(
        &directory,
        format!("Cliente;Razón social;RUT\n{c};Distribuidora Grande del Sur S.A.;76.123.456-0\n"),
    )
    .unwrap();
    let out = e
        .oauth()
        .args(["customers", "import", directory.to_str().unwrap()])
        .output()
        .unwrap();
    exits(&out, 0);
    let month = e.dir.path().join("mes.csv");
    std::fs::write(
        &month,
        "cliente,monto\nDistribuidora Grande del Sur S.A.,1000\n",
    )
    .unwrap();
    let run = || {
        clerk(&e, "ana", &url)
            .args(["bulk", month.to_str().unwrap(), "--yes"])
            .output()
            .unwrap()
    };
    let out = run();
    assert_ne!(out.status.code(), Some(0));
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(said.contains("has no names yet"), "{said}");
    assert!(said.contains("journal push"), "{said}");
    assert_eq!(creates(&e), 0);
    let local = e.dir.path().join("journal.sqlite3");
    let pushed = |says: &str| {
        let out = clerk(&e, "ana", &url)
            .args(["journal", "push", "--to", &url, "--from"])
            .arg(&local)
            .output()
            .unwrap();
        exits(&out, 0);
        assert!(text(&out.stdout).contains(says), "{}", text(&out.stdout));
    };
    pushed("Brought 1 customer ");
    let out = run();
    exits(&out, 0);
    assert_eq!(creates(&e), 1);
    // Pushed again: what the desk knows stays.
    pushed("Brought 0 customers");
}

/// "12 created, 88 already issued, …": the count created.
fn created_in(out: &Output) -> usize {
    text(&out.stdout)
        .lines()
        .find_map(|l| l.split(" created,").next()?.trim().parse().ok())
        .unwrap_or(0)
}

#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn four_clerks_running_one_file_share_its_rows_and_issue_each_once() {
    let Some(pg) = server() else {
        return;
    };
    let e = Env::new(0);
    let url = pg.database();
    let customers: Vec<String> =
        e.s.customers()
            .iter()
            .take(4)
            .map(|c| c.0.clone())
            .collect();
    let mut body = String::from("cliente,monto,referencia\n");
    for i in 0..400 {
        body.push_str(&format!("{},{},SH-{i}\n", customers[i % 4], 1000 + i));
    }
    let file = e.dir.path().join("marzo.csv");
    std::fs::write(&file, body).unwrap();
    e.s.set_latency(std::time::Duration::from_millis(50));
    let workers: Vec<_> = ["ana", "beto", "carla", "dario"]
        .iter()
        .map(|who| {
            clerk(&e, who, &url)
                .args([
                    "bulk",
                    file.to_str().unwrap(),
                    "--yes",
                    "--concurrency",
                    "8",
                ])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outs: Vec<Output> = workers
        .into_iter()
        .map(|w| w.wait_with_output().unwrap())
        .collect();
    // A run that stopped says why in the clerks' support logs (once seen, not reproduced:
    // "the journal cannot be written", one clerk of four, under a loaded suite).
    if outs.iter().any(|o| o.status.code() != Some(0)) {
        // Their folder: `logs` in the configuration folder the clerks share.
        let logs = std::fs::read_dir(e.dir.path().join("logs"));
        for log in logs.into_iter().flatten().flatten() {
            let text = std::fs::read_to_string(log.path()).unwrap_or_default();
            eprintln!("{}:\n{text}", log.path().display());
        }
    }
    for o in &outs {
        exits(o, 0);
    }
    let refs = e.s.references();
    for i in 0..400 {
        assert_eq!(refs[&format!("SH-{i}")].len(), 1, "SH-{i}");
    }
    assert_eq!(creates(&e), 400);
    // The rows were shared: every clerk issued some, together exactly all; each clerk's
    // summary counts the rest as the colleagues' (the whole run's progress).
    for o in &outs {
        let said = text(&o.stdout);
        let number_before = |marker: &str| -> usize {
            said.lines()
                .find_map(|l| {
                    l.split(marker)
                        .next()?
                        .rsplit([' ', '('])
                        .next()?
                        .parse()
                        .ok()
                })
                .unwrap_or(0)
        };
        let already = number_before(" already issued,");
        let by_others = number_before(" of them by colleagues");
        // Every row this clerk did not issue was issued already: by a colleague (seen in
        // the journal) or found at the service (a colleague's, listed before this run
        // read the journal).
        assert_eq!(created_in(o) + already, 400, "{said}");
        assert!(by_others > 0 && by_others <= already, "{said}");
    }
    let created: Vec<usize> = outs.iter().map(created_in).collect();
    assert_eq!(created.iter().sum::<usize>(), 400, "{created:?}");
    assert!(
        created.iter().all(|n| *n > 0),
        "each clerk took rows: {created:?}"
    );
    // The directory learned every customer (a clerk's run teaches it each customer
    // until a lesson committed, not at every row: #71).
    let out = clerk(&e, "ana", &url)
        .args(["customers", "find"])
        .output()
        .unwrap();
    exits(&out, 0);
    for c in &customers {
        assert!(
            text(&out.stdout).contains(c.as_str()),
            "{c}: {}",
            text(&out.stdout)
        );
    }
    verified(&e, "supervisor", &url);
}

#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn the_shared_journals_server_restarting_mid_run_is_waited_for_and_nothing_is_sent_twice() {
    let e = Env::new(0);
    let Some(own) = pg_server::Server::own() else {
        return;
    };
    let url = own.database();
    let file = numbered_month(&e, "abril.csv", &e.customer(), "GONE", 300);
    e.s.set_latency(std::time::Duration::from_millis(20));
    let (first, said) = watched_run(&e, &url, &file);
    until_created(&e, 40);
    // The database server goes away mid-run (as a crash would), and the run says it
    // waits, sending nothing meanwhile.
    own.stop();
    said.until("has not answered since");
    let sent_while_down = creates(&e);
    assert!(
        sent_while_down < 300,
        "it went on sending: {sent_while_down}"
    );
    said.until_quiet_for(std::time::Duration::from_millis(1500), || creates(&e));
    assert!(
        creates(&e) <= sent_while_down + 8,
        "only the requests already on their way were answered"
    );
    // Back again: the same run goes on by itself and finishes; what was on its way
    // is recorded by the same writer, nothing is sent twice.
    own.restart();
    let back = std::time::Instant::now();
    said.until("answers again");
    // How soon after the server answers the run goes on (said, not asserted: a busy
    // machine may take longer; docs/journal.md gives the figures).
    eprintln!(
        "the run went on {:?} after the server was back",
        back.elapsed()
    );
    let out = first.wait_with_output().unwrap();
    let all = said.all();
    assert_eq!(out.status.code(), Some(0), "{all}");
    let refs = e.s.references();
    for i in 0..300 {
        assert_eq!(refs[&format!("GONE-{i}")].len(), 1, "GONE-{i}");
    }
    verified(&e, "ana", &url);
}

/// A desk on a primary with a synchronous streaming standby, its clerk's address naming
/// both (`target_session_attrs=read-write`): the primary is killed mid-run (`pg_ctl stop
/// -m immediate`) and the standby promoted. The run waits, saying so, finds the new
/// primary by itself and finishes: each row issued once, no entry lost (what was
/// confirmed was on the standby), the chain intact.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_run_survives_its_primary_failing_over_to_a_synchronous_standby() {
    let e = Env::new(0);
    let Some(primary) = pg_server::Server::own() else {
        return;
    };
    let url = primary.database();
    let db = url.rsplit('/').next().unwrap().to_string();
    let standby = primary.standby();
    primary.synchronous();
    let both = both_hosts(&primary, &standby, &db);
    let n = 300;
    let file = numbered_month(&e, "junio.csv", &e.customer(), "FAIL", n);
    e.s.set_latency(std::time::Duration::from_millis(20));
    let (child, said) = watched_run(&e, &both, &file);
    until_created(&e, 60);
    primary.stop();
    said.until("has not answered since");
    let recorded = standby.psql(&db, "SELECT count(*) FROM entries");
    standby.promote();
    let out = child.wait_with_output().unwrap();
    let all = said.all();
    assert!(all.contains("answers again"), "{all}");
    assert_eq!(out.status.code(), Some(0), "{all}");
    let refs = e.s.references();
    for i in 0..n {
        assert_eq!(refs[&format!("FAIL-{i}")].len(), 1, "FAIL-{i}");
    }
    // Every entry the run was told was written is there, and more came after.
    let now: usize = standby
        .psql(&db, "SELECT count(*) FROM entries")
        .parse()
        .unwrap();
    assert!(
        now > recorded.parse::<usize>().unwrap(),
        "{recorded} then {now}"
    );
    verified(&e, "ana", &both);
}

/// The same desk on an asynchronous standby that fell behind (here: stopped before the
/// run, so it lacks every row the run wrote): after the failover the run finds the
/// server without its own last rows and stops rather than trust what the journal no
/// longer knows; run again, it reads the service first and sends nothing twice.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_failover_that_lost_the_last_entries_stops_the_run_and_nothing_is_sent_twice() {
    let e = Env::new(0);
    let Some(primary) = pg_server::Server::own() else {
        return;
    };
    let url = primary.database();
    let db = url.rsplit('/').next().unwrap().to_string();
    exits(
        &clerk(&e, "owner", &url)
            .args(["journal", "init", &url])
            .output()
            .unwrap(),
        0,
    );
    let standby = primary.standby();
    standby.until(
        &db,
        "SELECT to_regclass('entries') IS NOT NULL",
        "t",
        "the tables on the standby",
    );
    // The standby stops receiving: everything the run writes exists on the primary only.
    standby.stop();
    let both = both_hosts(&primary, &standby, &db);
    let n = 300;
    let file = numbered_month(&e, "julio.csv", &e.customer(), "LOST", n);
    e.s.set_latency(std::time::Duration::from_millis(20));
    let (child, said) = watched_run(&e, &both, &file);
    until_created(&e, 60);
    primary.stop();
    said.until("has not answered since");
    standby.restart();
    standby.promote();
    let out = child.wait_with_output().unwrap();
    let all = said.all();
    assert_ne!(out.status.code(), Some(0), "{all}");
    assert!(all.contains("may lack its last entries"), "{all}");
    let sent = creates(&e);
    assert!(sent < n as u64, "it stopped: {sent}");
    // Run again: the service's listing is read first; what it has is not sent again.
    cli_env::until_settled(|| watched_command(&e, &both, &file));
    let refs = e.s.references();
    for i in 0..n {
        assert_eq!(refs[&format!("LOST-{i}")].len(), 1, "LOST-{i}");
    }
    verified(&e, "ana", &both);
}

/// A billing run of `file` by clerk ana on `address`, 8 at a time, short in-flight
/// windows; its standard error read as it comes.
fn watched_run(e: &Env, address: &str, file: &std::path::Path) -> (std::process::Child, Said) {
    let mut child = watched_command(e, address, file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let said = Said::of(child.stderr.take().unwrap());
    (child, said)
}

/// [`watched_run`]'s command.
fn watched_command(e: &Env, address: &str, file: &std::path::Path) -> Command {
    let mut c = clerk(e, "ana", address);
    c.args([
        "bulk",
        file.to_str().unwrap(),
        "--yes",
        "--concurrency",
        "8",
    ])
    .env("INVOICE_DESK_TIMEOUT", "2")
    .env("INVOICE_DESK_IN_FLIGHT_MARGIN", "1");
    c
}

/// The address of database `db` on `a` and `b`, as its owner, writes going to whichever
/// takes them (libpq's multi-host form).
fn both_hosts(a: &pg_server::Server, b: &pg_server::Server, db: &str) -> String {
    format!(
        "postgres://{}@127.0.0.1:{},127.0.0.1:{}/{db}?target_session_attrs=read-write",
        pg_server::Server::owner_of(db),
        a.port,
        b.port
    )
}

/// A child's standard error, read as it comes.
struct Said(std::sync::Arc<std::sync::Mutex<String>>);

impl Said {
    fn of(mut from: impl std::io::Read + Send + 'static) -> Said {
        let text = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let into = text.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = from.read(&mut buf) {
                if n == 0 {
                    break;
                }
                into.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Said(text)
    }

    fn all(&self) -> String {
        self.0.lock().unwrap().clone()
    }

    /// Waits (at most two minutes) until `words` were said.
    fn until(&self, words: &str) {
        let started = std::time::Instant::now();
        while !self.all().contains(words) {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(120),
                "never said {words:?}: {}",
                self.all()
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Waits until `count` stays the same for `quiet` (at most a minute).
    fn until_quiet_for(&self, quiet: std::time::Duration, count: impl Fn() -> u64) {
        let started = std::time::Instant::now();
        let (mut last, mut since) = (count(), std::time::Instant::now());
        while since.elapsed() < quiet {
            assert!(started.elapsed() < std::time::Duration::from_secs(60));
            std::thread::sleep(std::time::Duration::from_millis(20));
            let now = count();
            if now != last {
                (last, since) = (now, std::time::Instant::now());
            }
        }
    }
}

/// A billing file of `n` rows for customer `c`, references `PREFIX-0…`, in the test's
/// folder.
fn numbered_month(e: &Env, name: &str, c: &str, prefix: &str, n: usize) -> std::path::PathBuf {
    let mut body = String::from("cliente,monto,referencia\n");
    for i in 0..n {
        body.push_str(&format!("{c},{},{prefix}-{i}\n", 3000 + i));
    }
    let file = e.dir.path().join(name);
    std::fs::write(&file, body).unwrap();
    file
}

/// Waits (at most a minute) until the service has received `n` creates.
fn until_created(e: &Env, n: u64) {
    let started = std::time::Instant::now();
    while creates(e) < n {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "no creates"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// A loopback TCP proxy to the tests' PostgreSQL server that can stall: while stalled
/// it keeps every connection open and forwards nothing either way (a network that
/// half-died: a dead Wi-Fi, a NAT that dropped its state, a laptop's lid closed).
struct Proxy {
    port: u16,
    stalled: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Proxy {
    fn to(port: u16) -> Proxy {
        use std::io::{Read, Write};
        use std::sync::atomic::Ordering;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let stalled = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let proxy = Proxy {
            port: listener.local_addr().unwrap().port(),
            stalled: stalled.clone(),
        };
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let Ok(server) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
                    continue;
                };
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server, client),
                ] {
                    let stalled = stalled.clone();
                    std::thread::spawn(move || {
                        let mut buf = [0u8; 16384];
                        loop {
                            let n = match from.read(&mut buf) {
                                Ok(0) | Err(_) => break,
                                Ok(n) => n,
                            };
                            // Stalled: what came is held, and nothing more is read.
                            while stalled.load(Ordering::SeqCst) {
                                std::thread::sleep(std::time::Duration::from_millis(20));
                            }
                            if to.write_all(&buf[..n]).is_err() {
                                break;
                            }
                        }
                        let _ = to.shutdown(std::net::Shutdown::Both);
                    });
                }
            }
        });
        proxy
    }

    fn stall(&self, on: bool) {
        self.stalled.store(on, std::sync::atomic::Ordering::SeqCst);
    }
}

/// The journal's server behind a network that stalls mid-run (connections left open,
/// nothing forwarded): the clerk behind it is not frozen — its run stops within the
/// journal's answer limit and says so — while a colleague on a good network goes on with
/// the same file (a row the stalled clerk's open write held is free again once the
/// server ends that write); resumed, every row is issued once and the chain is intact.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_clerk_behind_a_stalled_network_is_not_frozen_and_a_colleague_goes_on() {
    let Some(pg) = server() else {
        return;
    };
    let e = Env::new(0);
    let s = pg;
    let url = s.database();
    let db = url.rsplit('/').next().unwrap().to_string();
    let proxy = Proxy::to(s.port);
    let via_proxy = format!(
        "postgres://{}@127.0.0.1:{}/{db}",
        pg_server::Server::owner_of(&db),
        proxy.port
    );
    let n = 200;
    let file = numbered_month(&e, "mayo.csv", &e.customer(), "STALL", n);
    e.s.set_latency(std::time::Duration::from_millis(20));
    let run = |address: &str, who: &str| {
        let mut cmd = clerk(&e, who, address);
        cmd.args(["bulk", file.to_str().unwrap(), "--yes"])
            .env("INVOICE_DESK_TIMEOUT", "2")
            .env("INVOICE_DESK_IN_FLIGHT_MARGIN", "1")
            // Waits for its journal this long before it stops (5 minutes unless set).
            .env("INVOICE_DESK_JOURNAL_PATIENCE", "10");
        cmd
    };
    let behind = run(&via_proxy, "ana")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    until_created(&e, 20);
    proxy.stall(true);
    let stalled_at = std::time::Instant::now();
    // A colleague on a good network runs the same file meanwhile, to the end; the
    // stalled clerk's run is timed on its own.
    let (out, waited) = std::thread::scope(|scope| {
        scope.spawn(|| cli_env::until_settled(|| run(&url, "beto")));
        let out = behind.wait_with_output().unwrap();
        (out, stalled_at.elapsed())
    });
    assert_ne!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        waited < std::time::Duration::from_secs(90),
        "the stalled clerk waited {waited:?}: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let said = text(&out.stderr);
    assert!(
        said.contains("has not answered since") && said.contains("nothing is sent meanwhile"),
        "it says it waits: {said}"
    );
    assert!(
        said.contains("did not answer") || said.contains("cannot be reached"),
        "{said}"
    );
    proxy.stall(false);
    cli_env::until_settled(|| run(&via_proxy, "ana"));
    let refs = e.s.references();
    for i in 0..n {
        assert_eq!(refs[&format!("STALL-{i}")].len(), 1, "STALL-{i}");
    }
    verified(&e, "ana", &url);
}

/// A colleague's transaction holding the claims (a laptop that stopped mid-claim, until
/// the server ends its session) makes a run wait for it, row by row, instead of ending
/// the run: every row is issued once when the lock goes.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_run_waits_out_a_colleagues_open_claim_instead_of_stopping() {
    let Some(pg) = server() else {
        return;
    };
    let e = Env::new(0);
    let s = pg;
    let url = s.database();
    let db = url.rsplit('/').next().unwrap().to_string();
    let c = e.customer();
    // The journal's layout is made by a first write.
    let first = e.dir.path().join("uno.csv");
    std::fs::write(
        &first,
        format!("cliente,monto,referencia\n{c},99999,OPEN-0\n"),
    )
    .unwrap();
    let out = clerk(&e, "ana", &url)
        .args(["bulk", first.to_str().unwrap(), "--yes"])
        .output()
        .unwrap();
    exits(&out, 0);
    let n = 6;
    let file = numbered_month(&e, "mayo.csv", &c, "HELD", n);
    let mut holder = s.hold_claims(&db, 5);
    let out = clerk(&e, "beto", &url)
        .args(["bulk", file.to_str().unwrap(), "--yes"])
        .output()
        .unwrap();
    assert!(holder.wait().unwrap().success());
    exits(&out, 0);
    let refs = e.s.references();
    for i in 0..n {
        assert_eq!(refs[&format!("HELD-{i}")].len(), 1, "HELD-{i}");
    }
    verified(&e, "beto", &url);
}

#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_computers_journal_pushed_to_the_desk_keeps_who_and_when_and_is_copied_once() {
    let Some(pg) = server() else {
        return;
    };
    let e = Env::new(0);
    let url = pg.database();
    let c = e.customer();
    // Three invoices issued on this computer's own journal (a file).
    for i in 0..3 {
        let out = e
            .oauth()
            .env("USER", "ana")
            .args(create_args(
                &c,
                &(4000 + i).to_string(),
                &format!("LOCAL-{i}"),
            ))
            .output()
            .unwrap();
        exits(&out, 0);
    }
    let local = e.dir.path().join("journal.sqlite3");
    let push = || {
        clerk(&e, "ana", &url)
            .args(["journal", "push", "--to", &url, "--from"])
            .arg(&local)
            .output()
            .unwrap()
    };
    let out = push();
    exits(&out, 0);
    assert!(
        text(&out.stdout).contains("Copied 3 entries") && text(&out.stdout).contains("(0 were"),
        "{}",
        text(&out.stdout)
    );
    let out = push();
    exits(&out, 0);
    assert!(
        text(&out.stdout).contains("Copied 0 entries") && text(&out.stdout).contains("(3 were"),
        "run again, nothing twice: {}",
        text(&out.stdout)
    );
    // On the desk: each entry by ana on this computer, at its own time, done.
    let out = clerk(&e, "supervisor", &url)
        .args(["--json", "journal", "list"])
        .output()
        .unwrap();
    exits(&out, 0);
    let entries: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(entries.len(), 3);
    let host = invoice_desk::journal::host_name();
    let local_times: Vec<String> = {
        let out = e
            .oauth()
            .args(["--json", "journal", "list"])
            .output()
            .unwrap();
        text(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["time"].to_string())
            .collect()
    };
    for v in &entries {
        assert_eq!(v["user"], format!("ana@{host}"), "{v}");
        assert_eq!(v["outcome"], "done", "{v}");
        // Marked copied, the time its own journal gave it beside the server's.
        assert!(
            local_times.contains(&v["copied_time"].to_string()),
            "{v} {local_times:?}"
        );
        assert!(
            v["invoice_id"]
                .as_str()
                .is_some_and(|i| i.starts_with("in_"))
        );
    }
    // A colleague trying a pushed reference is told who issued it; nothing is sent.
    let before = creates(&e);
    let out = clerk(&e, "beto", &url)
        .args(create_args(&c, "9999", "LOCAL-1"))
        .output()
        .unwrap();
    exits(&out, 2);
    let role = pg_server::Server::owner_of(url.rsplit('/').next().unwrap());
    assert!(
        text(&out.stderr).contains(&format!("already issued by role {role} · ana on"))
            && text(&out.stderr).contains("(copied; recorded"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(creates(&e), before);
    verified(&e, "supervisor", &url);
}

#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_server_whose_certificate_is_not_trusted_is_refused_and_nothing_is_sent() {
    let e = Env::new(0);
    let Some(tls) = pg_server::Server::own_with_tls() else {
        return;
    };
    let url = tls.database();
    for mode in ["require", "verify-full", "prefer"] {
        let address = format!("{url}?sslmode={mode}");
        let out = clerk(&e, "ana", &address)
            .args(create_args(&e.customer(), "1000", "TLS-1"))
            .output()
            .unwrap();
        exits(&out, 1);
        let said = text(&out.stderr);
        assert!(said.starts_with("Nothing was sent"), "{mode}: {said}");
        assert!(
            said.contains("does not trust the shared journal server's certificate"),
            "{mode}: {said}"
        );
    }
    assert_eq!(creates(&e), 0);
}

/// The same server, its authority trusted (`SSL_CERT_FILE`, as a desk's IT would add it
/// to the computers' store): `require` and `verify-full` reach it over TLS and issue;
/// without TLS the server (TLS only) refuses, and nothing is sent.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_server_whose_certificate_is_trusted_is_reached_over_tls() {
    let e = Env::new(0);
    let Some(tls) = pg_server::Server::own_with_tls() else {
        return;
    };
    let url = tls.database();
    for (i, mode) in ["require", "verify-full"].into_iter().enumerate() {
        let out = clerk(&e, "ana", &format!("{url}?sslmode={mode}"))
            .env("SSL_CERT_FILE", tls.ca_file())
            .args(create_args(
                &e.customer(),
                &format!("{}", 1000 + i),
                &format!("TLS-{i}"),
            ))
            .output()
            .unwrap();
        exits(&out, 0);
    }
    assert_eq!(creates(&e), 2);
    let out = clerk(&e, "ana", &format!("{url}?sslmode=disable"))
        .env("SSL_CERT_FILE", tls.ca_file())
        .args(create_args(&e.customer(), "1500", "TLS-X"))
        .output()
        .unwrap();
    exits(&out, 1);
    assert!(
        text(&out.stderr).starts_with("Nothing was sent"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(creates(&e), 2);
    let out = clerk(&e, "supervisor", &format!("{url}?sslmode=verify-full"))
        .env("SSL_CERT_FILE", tls.ca_file())
        .args(["journal", "verify"])
        .output()
        .unwrap();
    exits(&out, 0);
}

/// A computer whose certificate store is missing or broken still reaches a server that
/// speaks plain (`sslmode=prefer`, the default): the store is read only when a server
/// offers TLS (it was read first, and such a computer could not use the journal at all).
/// Offered TLS, that computer is refused, and nothing is sent.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_broken_certificate_store_matters_only_when_the_server_offers_tls() {
    let Some(pg) = server() else {
        return;
    };
    let e = Env::new(0);
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.pem");
    std::fs::write(&junk, "not a certificate\n").unwrap();
    let broken = |mut c: Command| {
        c.env("SSL_CERT_FILE", &junk)
            .env("SSL_CERT_DIR", dir.path());
        c
    };
    let out = broken(clerk(&e, "ana", &pg.database()))
        .args(create_args(&e.customer(), "1000", "PLAIN-1"))
        .output()
        .unwrap();
    exits(&out, 0);
    assert_eq!(creates(&e), 1);
    let Some(tls) = pg_server::Server::own_with_tls() else {
        return;
    };
    let out = broken(clerk(
        &e,
        "ana",
        &format!("{}?sslmode=prefer", tls.database()),
    ))
    .args(create_args(&e.customer(), "1001", "TLS-1"))
    .output()
    .unwrap();
    exits(&out, 1);
    let said = text(&out.stderr);
    assert!(said.starts_with("Nothing was sent"), "{said}");
    assert!(said.contains("certificate store"), "{said}");
    assert_eq!(creates(&e), 1);
}

/// Clerks sharing a file take it in parts: a clerk leaves the part a colleague holds to
/// the end, and a colleague who holds a part and stops (a laptop frozen mid-run, its
/// connection still open) keeps no row from being issued — once each.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_clerk_leaves_a_colleagues_part_for_the_end_and_a_frozen_colleague_stops_nothing() {
    let Some(pg) = server() else {
        return;
    };
    let e = Env::new(0);
    let url = pg.database();
    let db = url.rsplit('/').next().unwrap().to_string();
    let c = e.customer();
    let file = numbered_month(&e, "abril.csv", &c, "PT", 64);
    // Ana works slowly, one row at a time, and freezes after two invoices: her part's
    // lock stays with her open connection.
    e.s.set_latency(std::time::Duration::from_millis(700));
    let mut ana = clerk(&e, "ana", &url)
        .env("INVOICE_DESK_TIMEOUT", "2")
        .env("INVOICE_DESK_IN_FLIGHT_MARGIN", "1")
        .args([
            "bulk",
            file.to_str().unwrap(),
            "--yes",
            "--concurrency",
            "1",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    until_created(&e, 2);
    assert!(cli_env::signal(&ana, libc::SIGSTOP));
    e.s.set_latency(std::time::Duration::ZERO);
    // Ana's last request may be on its way: Beto waits for it no longer than a request
    // can take (here 3 s), then finds it at the service.
    let out = clerk(&e, "beto", &url)
        .env("INVOICE_DESK_TIMEOUT", "2")
        .env("INVOICE_DESK_IN_FLIGHT_MARGIN", "1")
        .args([
            "bulk",
            file.to_str().unwrap(),
            "--yes",
            "--concurrency",
            "4",
        ])
        .output()
        .unwrap();
    let _ = ana.kill();
    let _ = ana.wait();
    exits(&out, 0);
    let refs = e.s.references();
    for i in 0..64 {
        assert_eq!(
            refs.get(&format!("PT-{i}")).map(Vec::len),
            Some(1),
            "PT-{i}"
        );
    }
    // Ana's part: the 16 rows (parts are 16 rows in file order) around what she wrote.
    let number = |r: &str| -> usize { r.trim_start_matches("PT-").parse().unwrap() };
    let anas: Vec<usize> = pg
        .psql(
            &db,
            "SELECT external_id FROM entries WHERE kind = 'intent' AND \"user\" LIKE 'ana@%'",
        )
        .lines()
        .map(number)
        .collect();
    assert!(!anas.is_empty());
    let part = anas[0] / 16;
    assert!(anas.iter().all(|&i| i / 16 == part), "{anas:?}");
    // Beto reached for no row of Ana's part before every row of the others.
    let betos: Vec<usize> = pg
        .psql(
            &db,
            "SELECT external_id FROM entries WHERE kind = 'intent' AND \"user\" LIKE 'beto@%' ORDER BY seq",
        )
        .lines()
        .map(number)
        .collect();
    let first_in_anas = betos.iter().position(|&i| i / 16 == part);
    let last_elsewhere = betos.iter().rposition(|&i| i / 16 != part);
    // Each of the 48 other rows (a row claimed ahead of its turn and given back when its
    // turn was long in coming has a second intent: counted once).
    let others: std::collections::BTreeSet<usize> =
        betos.iter().copied().filter(|&i| i / 16 != part).collect();
    assert_eq!(others.len(), 48, "{betos:?}");
    assert!(
        first_in_anas.is_none_or(|f| f > last_elsewhere.unwrap()),
        "part {part}: {betos:?}"
    );
    verified(&e, "supervisor", &url);
}

/// #50: on a desk, what a colleague issued is found from another computer's search box
/// (`find`): its index reads the shared journal as it grows.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn what_a_colleague_issued_is_found_from_another_computer() {
    let Some(pg) = server() else {
        return;
    };
    let e = Env::new(0);
    let url = pg.database();
    let c = e.customer();
    exits(
        &clerk(&e, "ana", &url)
            .args(create_args(&c, "4321000", "DESK-FIND-1"))
            .output()
            .unwrap(),
        0,
    );
    // Beto's computer: its own settings folder, so its own (empty) search index.
    let beto_dir = tempfile::tempdir().unwrap();
    let find = |text: &str| {
        clerk(&e, "beto", &url)
            .env("INVOICE_DESK_CONFIG_DIR", beto_dir.path())
            .args(["find", text, "--local"])
            .output()
            .unwrap()
    };
    let out = find("DESK-FIND-1");
    exits(&out, 0);
    let said = text(&out.stdout);
    assert!(
        said.contains("4.321.000 · Issued here · per the journal"),
        "{said}"
    );
    assert!(beto_dir.path().join("search.sqlite3").exists());
    // Ana issues another: Beto's next search finds it (the index read on).
    exits(
        &clerk(&e, "ana", &url)
            .args(create_args(&c, "1234000", "DESK-FIND-2"))
            .output()
            .unwrap(),
        0,
    );
    let out = find("1.234.000");
    exits(&out, 0);
    assert!(text(&out.stdout).contains("1.234.000 · Issued here"));
}

/// #68: a colleague's computer freezes with requests on their way. The clerk who waits
/// for it is told whose computer it is, with no time left for the run beside it (it
/// cannot be known); the colleague's computer, on waking, says its rows as issued —
/// checked by itself at the service when it wakes first, or as confirmed by the clerk
/// who checked them meanwhile ("Revisar ahora") — and leaves none to review.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_frozen_colleague_is_named_and_on_waking_leaves_nothing_to_review() {
    let Some(pg) = server() else {
        return;
    };
    for wakes_first in [true, false] {
        frozen_colleague(pg, wakes_first);
    }
}

/// [`a_frozen_colleague_is_named_and_on_waking_leaves_nothing_to_review`]: Ana's
/// computer wakes while Beto waits for it (`wakes_first`), or after Beto's run ended.
fn frozen_colleague(pg: &pg_server::Server, wakes_first: bool) {
    use std::io::BufRead;
    let e = Env::new(0);
    let url = pg.database();
    let c = e.customer();
    let file = numbered_month(&e, "mayo.csv", &c, "FZ", 24);
    let run = |who: &str| {
        let mut cmd = clerk(&e, who, &url);
        cmd.env("LANG", "es_CL.UTF-8")
            .env("INVOICE_DESK_TIMEOUT", "2")
            .env("INVOICE_DESK_IN_FLIGHT_MARGIN", "14")
            .args([
                "bulk",
                file.to_str().unwrap(),
                "--yes",
                "--concurrency",
                "4",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    };
    // Ana's first four requests take the service 5 s (well within the 16 s a request
    // may be on its way here); her computer freezes as they arrive. (A write she left
    // open is ended by the server after 10 s: Beto may wait for that first, unsaid.)
    e.s.add_fault(invoice_desk::sandbox::Fault {
        route: invoice_desk::sandbox::Route::Create,
        count: 4,
        kind: invoice_desk::sandbox::FaultKind::Slow,
        status: 0,
        secs: 0,
        ms: 5000,
    });
    let mut ana = run("ana").spawn().unwrap();
    until_created(&e, 4);
    assert!(cli_env::signal(&ana, libc::SIGSTOP));
    let frozen = std::time::Instant::now();
    let mut beto = run("beto").spawn().unwrap();
    let mut said = Vec::new();
    let mut woke = false;
    for line in std::io::BufReader::new(beto.stderr.take().unwrap()).lines() {
        let Ok(line) = line else { break };
        if wakes_first && !woke && line.contains("Esperando") {
            // Once the service has made them (5 s), before Beto may look for them
            // (16 s): her requests' own time limit has passed, as after a long freeze.
            let at = frozen + std::time::Duration::from_secs(7);
            std::thread::sleep(at.saturating_duration_since(std::time::Instant::now()));
            woke = cli_env::signal(&ana, libc::SIGCONT);
        }
        said.push(line);
    }
    let betos = beto.wait_with_output().unwrap();
    // After Beto's run (he found her four at the service meanwhile), or now whatever
    // happened: a stopped child is never waited on.
    if !woke && !cli_env::signal(&ana, libc::SIGCONT) {
        let _ = ana.kill();
    }
    let anas = ana.wait_with_output().unwrap();
    let said = format!("{}\n{}", said.join("\n"), text(&betos.stdout));
    let ana_said = format!("{}\n{}", text(&anas.stdout), text(&anas.stderr));
    assert!(woke || !wakes_first, "{said}\n--- ana:\n{ana_said}");
    exits(&betos, 0);
    let waiting = said
        .lines()
        .find(|l| l.contains("Esperando"))
        .unwrap_or_else(|| panic!("{said}\n--- ana:\n{ana_said}"));
    assert!(
        waiting.starts_with("Esperando a rol ") && waiting.contains("ana en "),
        "{waiting}"
    );
    assert!(said.contains(", 0 por revisar"), "{said}");
    assert!(
        ana_said.contains(", 0 por revisar"),
        "woke first: {wakes_first}\n{ana_said}"
    );
    if !wakes_first {
        assert!(
            ana_said.contains("la encontró emitida en el servicio")
                && ana_said.contains("beto en "),
            "{ana_said}"
        );
    }
    exits(&anas, 0);
    let refs = e.s.references();
    for i in 0..24 {
        assert_eq!(
            refs.get(&format!("FZ-{i}")).map(Vec::len),
            Some(1),
            "FZ-{i}"
        );
    }
    verified(&e, "supervisor", &url);
}

/// #69: contracts on a desk. Ana imports them; Ana and Beto run the same period at once:
/// each (contract, period) is issued once. Who wrote each contract event is the role
/// the server knows; a clerk's role cannot write, rewrite or remove one by hand, nor
/// pass off a kind its body does not have.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn two_clerks_running_a_period_of_contracts_at_once_issue_each_once() {
    let Some(pg) = server() else {
        return;
    };
    const PW: &str = pg_server::PASSWORD;
    let e = Env::new(0);
    let d = desk_of_two(&e, pg);
    let customers: Vec<String> =
        e.s.customers()
            .iter()
            .take(4)
            .map(|c| c.0.clone())
            .collect();
    let mut body = String::from("contrato,cliente,monto,moneda,cada,desde\n");
    for i in 0..150 {
        body.push_str(&format!(
            "C-{i},{},{},CLP,mes,2030-01\n",
            customers[i % 4],
            1000 + i
        ));
    }
    let file = e.dir.path().join("contratos.csv");
    std::fs::write(&file, body).unwrap();
    let out = clerk(&e, "ana", &d.as_ana)
        .args(["contracts", "import", file.to_str().unwrap()])
        .output()
        .unwrap();
    exits(&out, 0);
    e.s.set_latency(std::time::Duration::from_millis(30));
    let runs: Vec<_> = [("ana", &d.as_ana), ("beto", &d.as_beto)]
        .into_iter()
        .map(|(who, url)| {
            clerk(&e, who, url)
                .args(["contracts", "run", "--period", "2030-02", "--yes"])
                .args(["--concurrency", "8"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for r in runs {
        let out = r.wait_with_output().unwrap();
        exits(&out, 0);
    }
    let refs = e.s.references();
    for i in 0..150 {
        for m in ["01", "02"] {
            assert_eq!(refs[&format!("C-{i}-2030-{m}")].len(), 1, "C-{i}-2030-{m}");
        }
    }
    assert_eq!(creates(&e), 300);
    // Run again by Beto: nothing.
    let out = clerk(&e, "beto", &d.as_beto)
        .args(["contracts", "run", "--period", "2030-02", "--yes"])
        .output()
        .unwrap();
    exits(&out, 0);
    assert!(
        text(&out.stdout).contains("nothing to issue"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(creates(&e), 300);
    // Who wrote the events: the role the server knows.
    let who = pg.psql(
        &d.db,
        "SELECT string_agg(DISTINCT db_user, ',') FROM contract_events",
    );
    assert_eq!(who.trim(), d.ana);
    for sql in [
        "INSERT INTO contract_events (contract, kind, body, time, \"user\", db_user) \
         VALUES ('X', 'end', '{\"kind\":\"end\",\"after\":null}', 'x', 'Ana', 'ana')",
        "UPDATE contract_events SET body = '{}'",
        "DELETE FROM contract_events",
        "TRUNCATE contract_events",
    ] {
        let (ok, said) = pg.psql_as(&d.beto, PW, &d.db, sql);
        assert!(!ok, "{sql} was allowed: {said}");
        assert!(said.contains("permission denied"), "{sql}: {said}");
    }
    // Through the function: the server's role and time, and a body that is the kind it
    // says.
    let (ok, said) = pg.psql_as(
        &d.beto,
        PW,
        &d.db,
        "SELECT journal_contract_event('C-1', 'end', '{\"kind\":\"pause\",\"from\":\"2030-03\"}', 'Ana')",
    );
    assert!(!ok && said.contains("not a contract event"), "{said}");
    let (ok, said) = pg.psql_as(
        &d.beto,
        PW,
        &d.db,
        "SELECT journal_contract_event('C-1', 'end', '{\"kind\":\"end\",\"after\":\"2030-03\"}', 'Ana')",
    );
    assert!(ok, "{said}");
    let by = pg.psql(
        &d.db,
        "SELECT db_user FROM contract_events ORDER BY id DESC LIMIT 1",
    );
    assert_eq!(
        by.trim(),
        d.beto,
        "the server's word, whatever name is given"
    );
}

/// #69: a desk whose owner has not yet brought the shared journal to the layout that
/// keeps contracts goes on issuing invoices (a clerk's role cannot bring it up to date,
/// and is not stopped by it); contracts are refused in words, and work once the owner
/// runs `journal init` again.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_desk_on_the_layout_before_contracts_goes_on_and_contracts_say_what_to_do() {
    let Some(pg) = server() else {
        return;
    };
    let e = Env::new(0);
    let d = desk_of_two(&e, pg);
    // The journal as the version before contracts left it.
    pg.psql(
        &d.db,
        "DROP FUNCTION journal_contract_event(text, text, text, text); \
         DROP TABLE contract_events; DROP TRIGGER claims_approved ON claims; \
         DROP FUNCTION journal_approval_use(bigint, bigint); \
         DROP FUNCTION journal_approval_decide(bigint, boolean, text, text); \
         DROP FUNCTION journal_approval_request(text, text, text, text, text); \
         DROP TABLE approval_events, approval_items CASCADE; UPDATE journal_layout SET version = 6",
    );
    // Approvals (layout 8) are said the same way.
    let out = clerk(&e, "ana", &d.as_ana)
        .args(["approvals"])
        .output()
        .unwrap();
    exits(&out, 2);
    assert!(
        text(&out.stderr).contains("has no approvals yet"),
        "{}",
        text(&out.stderr)
    );
    let out = clerk(&e, "ana", &d.as_ana)
        .args(create_args(&e.customer(), "1000", "OLD-1"))
        .output()
        .unwrap();
    exits(&out, 0);
    let out = clerk(&e, "ana", &d.as_ana)
        .args(["contracts", "list"])
        .output()
        .unwrap();
    exits(&out, 1);
    assert!(
        text(&out.stderr).contains("does not keep contracts yet")
            && text(&out.stderr).contains("journal init"),
        "{}",
        text(&out.stderr)
    );
    let owner = pg.url(&d.db);
    let out = clerk(&e, "owner", &owner)
        .args(["journal", "init", &owner])
        .output()
        .unwrap();
    exits(&out, 0);
    let out = clerk(&e, "ana", &d.as_ana)
        .args(["contracts", "list"])
        .output()
        .unwrap();
    exits(&out, 0);
    assert!(
        text(&out.stdout).contains("No contract is kept"),
        "{}",
        text(&out.stdout)
    );
    let out = clerk(&e, "ana", &d.as_ana)
        .args(["approvals"])
        .output()
        .unwrap();
    exits(&out, 0);
    verified(&e, "ana", &d.as_ana);
}
