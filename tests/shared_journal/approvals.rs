//! Four eyes on the desk (#70): with the owner's policy on, a void or a run asks first
//! (exit 7, nothing sent), another clerk's role approves or rejects, and the same
//! command then carries it out, once. The server holds every claim to it: each way
//! around it, tried as a clerk's role in real psql sessions, is refused.

use super::{
    Desk, clerk, create_args, creates, desk_of_two, numbered_month, server, until_created,
    verified, watched_run,
};
use crate::cli_env::{Env, exits, text};
use crate::pg_server;
use std::process::Output;

const PW: &str = pg_server::PASSWORD;

fn voids(e: &Env) -> u64 {
    e.s.counters().api.get("void").copied().unwrap_or(0)
}

/// The CLI in Spanish as `who` on `url`, with `args`.
fn es(e: &Env, who: &str, url: &str, args: &[&str]) -> Output {
    clerk(e, who, url)
        .args(["--lang", "es"])
        .args(args)
        .output()
        .unwrap()
}

/// The request number a refusal names ("Pedido de aprobación 12: …").
fn request_in(out: &Output) -> i64 {
    let said = text(&out.stderr);
    let rest = said
        .split("Pedido de aprobación ")
        .nth(1)
        .unwrap_or_else(|| panic!("no request named: {said}"));
    rest.split(':').next().unwrap().trim().parse().unwrap()
}

/// The owner sets the policy with `args` (`journal policy URL …`).
fn policy(e: &Env, pg: &pg_server::Server, d: &Desk, args: &[&str]) -> String {
    let owner = pg.url(&d.db);
    let mut all = vec!["journal", "policy", owner.as_str()];
    all.extend_from_slice(args);
    let out = es(e, "owner", &owner, &all);
    exits(&out, 0);
    text(&out.stdout)
}

/// Ana issues an invoice and returns its id.
fn issued(e: &Env, d: &Desk, reference: &str) -> String {
    // Each of its own amount: not a look-alike of the one before.
    let amount = format!(
        "{}",
        1000 + reference.len() * 7 + reference.bytes().map(usize::from).sum::<usize>()
    );
    let out = clerk(e, "ana", &d.as_ana)
        .args(["--json"])
        .args(create_args(&e.customer(), &amount, reference))
        .output()
        .unwrap();
    exits(&out, 0);
    let v: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    v["id"].as_str().unwrap().to_string()
}

#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_void_waits_for_another_clerks_approval_and_is_carried_out_once() {
    let Some(pg) = server() else {
        return;
    };
    let e = Env::new(0);
    let d = desk_of_two(&e, pg);
    let shown = policy(&e, pg, &d, &["--approve-voids"]);
    assert!(shown.contains("toda anulación"), "{shown}");
    // Anyone reads it.
    let out = es(&e, "beto", &d.as_beto, &["journal", "policy"]);
    exits(&out, 0);
    assert!(text(&out.stdout).contains("toda anulación"));
    let (a, b) = (issued(&e, &d, "AP-1"), issued(&e, &d, "AP-2"));

    // Asked: nothing sent, exit 7, the request named.
    let out = es(&e, "ana", &d.as_ana, &["void", &a, "--yes"]);
    exits(&out, 7);
    let n = request_in(&out);
    let said = text(&out.stderr);
    assert!(
        // Whose invoice and for how much: what the colleague asked to approve sees.
        said.contains(&format!("anular {a} de {} por $1.267", e.customer()))
            && said.contains("falta la aprobación de otro miembro"),
        "{said}"
    );
    assert_eq!(voids(&e), 0);
    // Asked again: the same request, still nothing sent.
    let out = es(&e, "ana", &d.as_ana, &["void", &a, "--yes"]);
    exits(&out, 7);
    assert_eq!(request_in(&out), n);
    // Ana cannot approve her own.
    let out = es(
        &e,
        "ana",
        &d.as_ana,
        &["approvals", "approve", &n.to_string()],
    );
    exits(&out, 2);
    assert!(
        text(&out.stderr).contains("es suyo"),
        "{}",
        text(&out.stderr)
    );
    // Nor through the journal's function by hand.
    let (ok, said) = pg.psql_as(
        &d.ana,
        PW,
        &d.db,
        &format!("SELECT journal_approval_decide({n}, true, NULL, 'Ana')"),
    );
    assert!(!ok && said.contains("another member of the desk"), "{said}");
    // Beto sees it waiting for him, with what it would do and who asked.
    let out = es(&e, "beto", &d.as_beto, &["approvals", "list", "--pending"]);
    exits(&out, 0);
    let listed = text(&out.stdout);
    assert!(
        listed.contains(&format!("Pedido {n}: anular {a}"))
            && listed.contains(&format!("rol {}", d.ana))
            && listed.contains("espera aprobación"),
        "{listed}"
    );
    let out = es(&e, "beto", &d.as_beto, &["--json", "approvals"]);
    exits(&out, 0);
    let v: serde_json::Value =
        serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(v["id"], n);
    assert_eq!(v["state"], "pending");
    assert_eq!(v["by"]["db_user"], d.ana.as_str());
    // Beto cannot forge an approval row, nor change or remove one.
    for sql in [
        format!(
            "INSERT INTO approval_events (request, kind, time, \"user\", db_user, prev_hash, hash) \
             VALUES ({n}, 'approve', 'x', 'Beto', 'x', 'x', 'x')"
        ),
        "UPDATE approval_events SET kind = 'approve'".to_string(),
        "DELETE FROM approval_events".to_string(),
        "INSERT INTO approval_items VALUES (1, 'in_x', NULL, NULL, NULL)".to_string(),
        "DELETE FROM desk_settings".to_string(),
        "SELECT journal_approval_add(NULL, true)".to_string(),
    ] {
        let (ok, said) = pg.psql_as(&d.beto, PW, &d.db, &sql);
        assert!(!ok && said.contains("permission denied"), "{sql}: {said}");
    }
    // A void claimed by hand without an approval is refused by the server.
    let void_intent = |id: &str| {
        format!(
            "SELECT journal_append('intent', NULL, 'Ana', 'p', 'u', 'void', NULL, NULL, NULL, NULL, \
             NULL, '{id}', NULL, NULL, NULL, NULL, NULL, false, 's', NULL, NULL, NULL)"
        )
    };
    let by_hand = format!(
        "{}; SELECT journal_claim('s', '{b}', (SELECT max(seq) FROM entries WHERE db_user = session_user), NULL, false)",
        void_intent(&b)
    );
    let (ok, said) = pg.psql_as(&d.ana, PW, &d.db, &by_hand);
    assert!(
        !ok && said.contains("needs the approval of another member"),
        "{said}"
    );

    // Beto approves; Ana's same command carries it out, once.
    let out = es(
        &e,
        "beto",
        &d.as_beto,
        &["approvals", "approve", &n.to_string(), "--note", "revisado"],
    );
    exits(&out, 0);
    assert!(text(&out.stdout).contains(&format!("Aprobó el pedido {n}")));
    let out = es(
        &e,
        "beto",
        &d.as_beto,
        &["approvals", "reject", &n.to_string(), "--note", "no"],
    );
    exits(&out, 2);
    // The approval of A does not void B (by hand: another invoice, the server says no).
    let reuse = format!(
        "{}; SELECT journal_approval_use({n}, (SELECT max(seq) FROM entries WHERE db_user = session_user))",
        void_intent(&b)
    );
    let (ok, said) = pg.psql_as(&d.ana, PW, &d.db, &reuse);
    assert!(!ok && said.contains("approved for other content"), "{said}");
    // Nor may Beto carry out Ana's request.
    let (ok, said) = pg.psql_as(
        &d.beto,
        PW,
        &d.db,
        &format!(
            "{}; SELECT journal_approval_use({n}, (SELECT max(seq) FROM entries WHERE db_user = session_user))",
            void_intent(&a)
        ),
    );
    assert!(
        !ok && said.contains("carried out by the role that asked"),
        "{said}"
    );
    let out = es(&e, "ana", &d.as_ana, &["void", &b, "--yes"]);
    exits(&out, 7);
    assert_ne!(request_in(&out), n, "B is a request of its own");
    assert_eq!(voids(&e), 0);
    let out = es(&e, "ana", &d.as_ana, &["void", &a, "--yes"]);
    exits(&out, 0);
    assert_eq!(voids(&e), 1);
    let out = es(&e, "ana", &d.as_ana, &["void", &a, "--yes"]);
    exits(&out, 2);
    assert_eq!(voids(&e), 1, "carried out once");
    // The journal says who asked and who approved what the void carried out.
    let out = es(
        &e,
        "beto",
        &d.as_beto,
        &["--json", "journal", "list", "--action", "void"],
    );
    exits(&out, 0);
    let listed = text(&out.stdout);
    let v: serde_json::Value = listed
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v["invoice_id"] == a.as_str() && v["outcome"] == "done")
        .unwrap_or_else(|| panic!("{listed}"));
    assert_eq!(v["approved"]["request"], n, "{v}");
    assert_eq!(
        v["approved"]["approved_by"]["db_user"],
        d.beto.as_str(),
        "{v}"
    );
    assert_eq!(v["approved"]["asked_by"]["db_user"], d.ana.as_str(), "{v}");
    let out = es(
        &e,
        "ana",
        &d.as_ana,
        &["journal", "list", "--action", "void"],
    );
    assert!(
        text(&out.stdout).contains(&format!("aprobado por rol {} · beto", d.beto)),
        "{}",
        text(&out.stdout)
    );
    // Once at the server too: the approval used, a second use is refused, said as a
    // unique key's refusal (so a computer that raced for it asks its claim again).
    let (ok, said) = pg.psql_as(
        &d.ana,
        PW,
        &d.db,
        &format!(
            "DO $$ BEGIN PERFORM {}; PERFORM journal_approval_use({n}, (SELECT max(seq) FROM entries \
             WHERE db_user = session_user)); EXCEPTION WHEN unique_violation THEN \
             RAISE EXCEPTION 'unique: %', SQLERRM; END $$",
            void_intent(&a)
                .trim_start_matches("SELECT ")
                .replace(
                    "false, 's'",
                    &format!("false, (SELECT service FROM entries WHERE action = 'void' AND invoice_id = '{a}' LIMIT 1)")
                )
        ),
    );
    assert!(
        !ok && said.contains("unique: request") && said.contains("already carried out"),
        "{said}"
    );
    let out = es(&e, "beto", &d.as_beto, &["approvals"]);
    let listed = text(&out.stdout);
    assert!(
        listed.contains(&format!("aprobado por rol {}", d.beto)) && listed.contains("revisado"),
        "{listed}"
    );
    // Carried out, it says so (not still waiting to be done).
    assert!(
        listed.contains(&format!("Pedido {n}: anular {a}"))
            && listed.contains("revisado · llevado a cabo"),
        "{listed}"
    );

    // A rejection says who and why, and nothing is sent.
    let m = request_in(&es(&e, "ana", &d.as_ana, &["void", &b, "--yes"]));
    let out = es(
        &e,
        "beto",
        &d.as_beto,
        &["approvals", "reject", &m.to_string()],
    );
    exits(&out, 2);
    let out = es(
        &e,
        "beto",
        &d.as_beto,
        &[
            "approvals",
            "reject",
            &m.to_string(),
            "--note",
            "la factura está bien",
        ],
    );
    exits(&out, 0);
    let out = es(&e, "ana", &d.as_ana, &["void", &b, "--yes"]);
    exits(&out, 7);
    let said = text(&out.stderr);
    assert!(
        said.contains(&format!("rechazado por rol {}", d.beto))
            && said.contains("la factura está bien"),
        "{said}"
    );
    assert_eq!(voids(&e), 1);

    // Expiry, on the server's clock: a request of a few seconds, approved, then
    // carried out after it expired — refused; decided after it expired — refused.
    pg.psql(
        &d.db,
        "INSERT INTO desk_settings (key, value) VALUES ('approval_hours', '0.002')",
    );
    let c = issued(&e, &d, "AP-3");
    let k = request_in(&es(&e, "ana", &d.as_ana, &["void", &c, "--yes"]));
    let out = es(
        &e,
        "beto",
        &d.as_beto,
        &["approvals", "approve", &k.to_string()],
    );
    exits(&out, 0);
    let late = issued(&e, &d, "AP-4");
    let j = request_in(&es(&e, "ana", &d.as_ana, &["void", &late, "--yes"]));
    let started = std::time::Instant::now();
    while pg.psql(
        &d.db,
        &format!(
            "SELECT clock_timestamp() > expires::timestamptz FROM approval_events WHERE id = {j}"
        ),
    ) != "t"
    {
        assert!(started.elapsed() < std::time::Duration::from_secs(60));
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let (ok, said) = pg.psql_as(
        &d.beto,
        PW,
        &d.db,
        &format!("SELECT journal_approval_decide({j}, true, NULL, 'Beto')"),
    );
    assert!(!ok && said.contains("expired"), "{said}");
    let (ok, said) = pg.psql_as(
        &d.ana,
        PW,
        &d.db,
        &format!(
            "{}; SELECT journal_approval_use({k}, (SELECT max(seq) FROM entries WHERE db_user = session_user))",
            void_intent(&c)
        ),
    );
    assert!(!ok && said.contains("expired"), "{said}");
    assert_eq!(voids(&e), 1);

    // The policy off: a void goes as before.
    let shown = policy(&e, pg, &d, &["--off"]);
    assert!(shown.contains("nada necesita"), "{shown}");
    let out = es(&e, "ana", &d.as_ana, &["void", &b, "--yes"]);
    exits(&out, 0);
    assert_eq!(voids(&e), 2);
    verified(&e, "beto", &d.as_beto);
}

/// A run over the policy's rows asks for the whole file's content; a changed file is a
/// new request; approved, it is issued once, each row once.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_billing_run_over_the_limit_is_approved_for_its_content_and_issued_once() {
    let Some(pg) = server() else {
        return;
    };
    let e = Env::new(0);
    let d = desk_of_two(&e, pg);
    policy(&e, pg, &d, &["--approve-runs-over", "3"]);
    let c = e.customer();
    let write = |name: &str, first: &str| {
        let mut body = String::from("cliente,monto,referencia\n");
        body.push_str(&format!("{c},{first},RUN-0\n"));
        for i in 1..5 {
            body.push_str(&format!("{c},{},RUN-{i}\n", 3000 + i));
        }
        let file = e.dir.path().join(name);
        std::fs::write(&file, body).unwrap();
        file
    };
    let file = write("enero.csv", "3000");
    let run = |who: &str, url: &str, f: &std::path::Path| {
        es(&e, who, url, &["bulk", f.to_str().unwrap(), "--yes"])
    };
    let out = run("ana", &d.as_ana, &file);
    exits(&out, 7);
    let n = request_in(&out);
    assert!(
        text(&out.stderr).contains("emitir 5 facturas de enero.csv"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(creates(&e), 0);
    // A file of 3 rows is under the limit: it goes.
    let small = e.dir.path().join("chico.csv");
    std::fs::write(
        &small,
        format!("cliente,monto,referencia\n{c},10,S-1\n{c},20,S-2\n{c},30,S-3\n"),
    )
    .unwrap();
    exits(&run("ana", &d.as_ana, &small), 0);
    assert_eq!(creates(&e), 3);
    // A run of more rows claimed by hand without an approval: refused by the server.
    let row = |reference: &str, amount: &str, rows: u32| {
        format!(
            "SELECT journal_append('intent', NULL, 'Ana', 'p', 'u', 'create', '{c}', '{amount}', NULL, \
             NULL, '{reference}', NULL, NULL, NULL, NULL, NULL, {rows}, false, 's', NULL, NULL, NULL)"
        )
    };
    let (ok, said) = pg.psql_as(
        &d.ana,
        PW,
        &d.db,
        &format!(
            "{}; SELECT journal_claim('s', 'X-1', (SELECT max(seq) FROM entries WHERE db_user = session_user), NULL, false)",
            row("X-1", "5", 5)
        ),
    );
    assert!(!ok && said.contains("needs the approval"), "{said}");

    exits(
        &es(
            &e,
            "beto",
            &d.as_beto,
            &["approvals", "approve", &n.to_string()],
        ),
        0,
    );
    // The same file with one amount changed is another content: a new request.
    let changed = write("enero-2.csv", "3999");
    let out = run("ana", &d.as_ana, &changed);
    exits(&out, 7);
    assert_ne!(request_in(&out), n);
    assert_eq!(creates(&e), 3);
    // The approval of the file does not cover another reference or amount (by hand).
    for (reference, amount) in [("OTRA-1", "3000"), ("RUN-0", "3999")] {
        let (ok, said) = pg.psql_as(
            &d.ana,
            PW,
            &d.db,
            &format!(
                "{}; SELECT journal_approval_use({n}, (SELECT max(seq) FROM entries WHERE db_user = session_user))",
                row(reference, amount, 5)
            ),
        );
        assert!(
            !ok && said.contains("approved for other content"),
            "{reference}: {said}"
        );
    }
    // Beto may not run Ana's approved file on it.
    let out = run("beto", &d.as_beto, &file);
    exits(&out, 7);
    assert_eq!(creates(&e), 3);
    // Ana's approved file: issued, each row once.
    let out = run("ana", &d.as_ana, &file);
    exits(&out, 0);
    assert_eq!(creates(&e), 8);
    assert!(
        text(&out.stderr).contains(&format!("Pedido {n}")),
        "{}",
        text(&out.stderr)
    );
    let out = run("ana", &d.as_ana, &file);
    exits(&out, 0);
    assert_eq!(creates(&e), 8, "each row once");
    // Who requested, approved and carried it out: in the journal's approvals.
    let used = pg.psql(
        &d.db,
        &format!("SELECT count(*) || '|' || min(db_user) FROM approval_events WHERE request = {n} AND kind = 'use'"),
    );
    assert_eq!(used, format!("5|{}", d.ana));
    verified(&e, "ana", &d.as_ana);
    // An approval changed by hand (the owner can) is found by `journal verify`.
    pg.psql(
        &d.db,
        &format!(
            "UPDATE approval_events SET note = 'visto' WHERE request = {n} AND kind = 'approve'"
        ),
    );
    let out = clerk(&e, "ana", &d.as_ana)
        .args(["journal", "verify"])
        .output()
        .unwrap();
    exits(&out, 8);
    assert!(
        text(&out.stderr).contains("approval event"),
        "{}",
        text(&out.stderr)
    );
}

/// An invoice over the policy's amount asks first; one under it goes; one without a
/// reference cannot be approved and is refused before anything is asked or sent.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn an_invoice_over_the_amount_waits_for_approval_and_one_under_it_goes() {
    let Some(pg) = server() else {
        return;
    };
    let e = Env::new(0);
    let d = desk_of_two(&e, pg);
    let shown = policy(&e, pg, &d, &["--approve-amount-over", "5.000", "CLP"]);
    assert!(shown.contains("toda factura de más de $5.000"), "{shown}");
    let c = e.customer();
    let out = es(&e, "ana", &d.as_ana, &create_args(&c, "4000", "AMT-1"));
    exits(&out, 0);
    assert_eq!(creates(&e), 1);
    let big = create_args(&c, "6000", "AMT-2");
    let out = es(&e, "ana", &d.as_ana, &big);
    exits(&out, 7);
    let n = request_in(&out);
    assert!(
        text(&out.stderr).contains("emitir la factura AMT-2"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(creates(&e), 1);
    let out = es(
        &e,
        "ana",
        &d.as_ana,
        &["create", "--customer", &c, "--amount", "7000"],
    );
    exits(&out, 2);
    assert_eq!(creates(&e), 1);
    exits(
        &es(
            &e,
            "beto",
            &d.as_beto,
            &["approvals", "approve", &n.to_string()],
        ),
        0,
    );
    exits(&es(&e, "ana", &d.as_ana, &big), 0);
    assert_eq!(creates(&e), 2);
    exits(&es(&e, "ana", &d.as_ana, &big), 2);
    assert_eq!(creates(&e), 2, "carried out once");
}

/// An approved run is still never sent twice when the office is unkind to it: the same
/// clerk runs the approved file on two computers at once, the first is killed (kill -9)
/// mid-run, the database server restarts (as a crash would) under the second; run again,
/// every row is issued once, each item of the approval used once, and the chain holds.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn an_approved_run_killed_run_twice_at_once_and_its_server_restarted_issues_each_row_once() {
    let e = Env::new(0);
    let Some(own) = pg_server::Server::own() else {
        return;
    };
    let d = desk_of_two(&e, &own);
    policy(&e, &own, &d, &["--approve-runs-over", "10"]);
    let file = numbered_month(&e, "mayo.csv", &e.customer(), "APR", 160);
    let out = es(
        &e,
        "ana",
        &d.as_ana,
        &["bulk", file.to_str().unwrap(), "--yes"],
    );
    exits(&out, 7);
    let n = request_in(&out);
    exits(
        &es(
            &e,
            "beto",
            &d.as_beto,
            &["approvals", "approve", &n.to_string()],
        ),
        0,
    );
    e.s.set_latency(std::time::Duration::from_millis(20));
    // Two of Ana's computers on the same approved file at once; the first is killed.
    let (mut first, _) = watched_run(&e, &d.as_ana, &file);
    let (second, said) = watched_run(&e, &d.as_ana, &file);
    until_created(&e, 30);
    first.kill().unwrap();
    let _ = first.wait();
    until_created(&e, 60);
    own.stop();
    said.until("has not answered since");
    own.restart();
    let out = second.wait_with_output().unwrap();
    let all = said.all();
    assert_eq!(out.status.code(), Some(0), "{all}");
    // Whatever the killed run left on its way is settled by running again.
    let out = es(
        &e,
        "ana",
        &d.as_ana,
        &["bulk", file.to_str().unwrap(), "--yes"],
    );
    exits(&out, 0);
    let refs = e.s.references();
    for i in 0..160 {
        assert_eq!(refs[&format!("APR-{i}")].len(), 1, "APR-{i}");
    }
    // A request the killed run had on its way reached the service and was counted, but
    // its connection closed before the service did the work: not created, concluded
    // after the in-flight window and sent again (at most one per place in the window).
    let sent = creates(&e);
    assert!((160..=168).contains(&sent), "{sent} creates");
    // Each item's approval carried out once: one use whose intent was done, and any other
    // use only by an intent concluded not created (a row the killed run had claimed and
    // not yet sent, or a request whose connection it took down with it).
    let uses = own.psql(
        &d.db,
        &format!(
            "SELECT coalesce(o.outcome, 'none') || ':' || count(*) || '/' || count(DISTINCT u.item) \
             FROM approval_events u LEFT JOIN LATERAL (SELECT outcome FROM entries e \
             WHERE e.intent_seq = u.intent_seq ORDER BY e.seq DESC LIMIT 1) o ON true \
             WHERE u.request = {n} AND u.kind = 'use' GROUP BY o.outcome ORDER BY o.outcome"
        ),
    );
    eprintln!("{sent} creates sent; the approval's uses by outcome: {uses}");
    let by_outcome: Vec<&str> = uses.lines().map(str::trim).collect();
    assert!(
        by_outcome.first() == Some(&"done:160/160")
            && by_outcome[1..].iter().all(|l| l.starts_with("refused:")),
        "{uses}"
    );
    verified(&e, "ana", &d.as_ana);
}

/// A contracts run of more invoices than the policy allows waits for another clerk's
/// approval like a billing run; approved, it issues each period once.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_contracts_run_over_the_limit_waits_for_approval_and_issues_each_period_once() {
    let Some(pg) = server() else {
        return;
    };
    let e = Env::new(0);
    let d = desk_of_two(&e, pg);
    policy(&e, pg, &d, &["--approve-runs-over", "4"]);
    let c = e.customer();
    let mut body = String::from("contrato,cliente,monto,moneda,cada,desde\n");
    for i in 0..3 {
        body.push_str(&format!("K-{i},{c},{},CLP,mes,2030-01\n", 5000 + i));
    }
    let file = e.dir.path().join("contratos.csv");
    std::fs::write(&file, body).unwrap();
    exits(
        &es(
            &e,
            "ana",
            &d.as_ana,
            &["contracts", "import", file.to_str().unwrap()],
        ),
        0,
    );
    let run = |who: &str, url: &str| {
        es(
            &e,
            who,
            url,
            &["contracts", "run", "--period", "2030-02", "--yes"],
        )
    };
    // Three contracts, two periods each: six invoices, over the limit of four.
    let out = run("ana", &d.as_ana);
    exits(&out, 7);
    let n = request_in(&out);
    assert_eq!(creates(&e), 0);
    let listed = es(&e, "beto", &d.as_beto, &["approvals", "list", "--pending"]);
    exits(&listed, 0);
    assert!(
        text(&listed.stdout).contains(&n.to_string()),
        "{}",
        text(&listed.stdout)
    );
    // Ana may not approve her own request.
    let out = es(
        &e,
        "ana",
        &d.as_ana,
        &["approvals", "approve", &n.to_string()],
    );
    assert_ne!(out.status.code(), Some(0), "{}", text(&out.stderr));
    exits(
        &es(
            &e,
            "beto",
            &d.as_beto,
            &["approvals", "approve", &n.to_string()],
        ),
        0,
    );
    exits(&run("ana", &d.as_ana), 0);
    let refs = e.s.references();
    for i in 0..3 {
        for m in ["01", "02"] {
            assert_eq!(refs[&format!("K-{i}-2030-{m}")].len(), 1, "K-{i}-2030-{m}");
        }
    }
    assert_eq!(creates(&e), 6);
    let out = run("ana", &d.as_ana);
    exits(&out, 0);
    assert_eq!(creates(&e), 6, "each period once");
    verified(&e, "beto", &d.as_beto);
}
