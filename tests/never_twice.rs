//! Never issued twice, whatever the clerk does: two processes with one reference, two
//! runs of one file at once, a re-saved or re-sorted sheet, a fresh journal, another
//! spelling of the service's address, a resume after `kill -9` while the service is
//! still working, look-alikes. Each through the CLI binary against an in-process sandbox;
//! the sandbox's own store counts what was issued.

mod cli_env;
#[cfg(target_os = "linux")]
mod pg_server;

use invoice_desk::sandbox::{Fault, Route};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The sandbox and its folder; the journal a file there, or a desk's shared journal.
struct Env(cli_env::Env, Option<String>);

fn env() -> Env {
    Env(cli_env::Env::new(0), None)
}

/// As [`env`], on a new shared journal (PostgreSQL) instead of a file.
#[cfg(target_os = "linux")]
fn shared_env() -> Option<Env> {
    let url = pg_server::server()?.database();
    Some(Env(cli_env::Env::new(0), Some(url)))
}

impl std::ops::Deref for Env {
    type Target = cli_env::Env;
    fn deref(&self) -> &cli_env::Env {
        &self.0
    }
}

impl Env {
    fn cli(&self) -> Command {
        let mut c = self.0.oauth();
        if let Some(url) = &self.1 {
            c.env("INVOICE_DESK_JOURNAL", url)
                .env("INVOICE_DESK_JOURNAL_PASSWORD", pg_server_password());
        }
        c
    }

    fn run(&self, args: &[&str]) -> Output {
        self.cli().args(args).output().unwrap()
    }

    fn spawn(&self, args: &[&str]) -> Child {
        self.cli()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    fn file(&self, name: &str, body: &str) -> String {
        let p = self.dir.path().join(name);
        std::fs::write(&p, body).unwrap();
        p.to_str().unwrap().to_string()
    }

    fn creates(&self) -> u64 {
        self.s.counters().api.get("create").copied().unwrap_or(0)
    }

    fn voids(&self) -> u64 {
        self.s.counters().api.get("void").copied().unwrap_or(0)
    }

    /// The references at the service starting with `prefix`, each with the invoices
    /// that carry it.
    fn issued(&self, prefix: &str) -> BTreeMap<String, Vec<String>> {
        self.s
            .references()
            .into_iter()
            .filter(|(r, _)| r.starts_with(prefix))
            .collect()
    }

    fn entries(&self, journal: Option<&Path>) -> Vec<Value> {
        let mut c = self.cli();
        if let Some(j) = journal {
            c.env("INVOICE_DESK_JOURNAL", j);
        }
        let out = c.args(["journal", "list", "--json"]).output().unwrap();
        exits(&out, 0);
        text(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

use cli_env::{exits, text};

#[cfg(target_os = "linux")]
fn pg_server_password() -> &'static str {
    pg_server::PASSWORD
}

#[cfg(not(target_os = "linux"))]
fn pg_server_password() -> &'static str {
    ""
}

/// Every reference at the service is there exactly once, and there are `n` of them.
fn each_once(issued: &BTreeMap<String, Vec<String>>, n: usize) {
    let twice: Vec<_> = issued.iter().filter(|(_, ids)| ids.len() > 1).collect();
    assert!(twice.is_empty(), "issued more than once: {twice:?}");
    assert_eq!(issued.len(), n, "{issued:?}");
}

/// A billing file of `n` rows to the sandbox's customers, amounts all different.
fn month(e: &Env, n: usize) -> Vec<[String; 4]> {
    let customers: Vec<String> = e.s.customers().into_iter().map(|c| c.0).collect();
    (0..n)
        .map(|i| {
            [
                customers[i % customers.len()].clone(),
                format!("{}", 10_000 + i * 7),
                "31-12-2026".to_string(),
                format!("prod_{}", i % 3),
            ]
        })
        .collect()
}

fn csv(rows: &[[String; 4]], header: &str) -> String {
    let mut s = format!("{header}\n");
    for r in rows {
        s.push_str(&r.join(","));
        s.push('\n');
    }
    s
}

fn xlsx(path: &Path, rows: &[[String; 4]]) {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (c, h) in ["Cliente", "Monto", "Vencimiento", "Producto"]
        .iter()
        .enumerate()
    {
        sheet.write_string(0, c as u16, *h).unwrap();
    }
    for (r, row) in rows.iter().enumerate() {
        let r = r as u32 + 1;
        sheet.write_string(r, 0, &row[0]).unwrap();
        // A number cell, as Excel keeps a whole peso amount.
        sheet
            .write_number(r, 1, row[1].parse::<f64>().unwrap())
            .unwrap();
        sheet.write_string(r, 2, &row[2]).unwrap();
        sheet.write_string(r, 3, &row[3]).unwrap();
    }
    book.save(path).unwrap();
}

#[test]
fn two_processes_creating_one_reference_at_once_issue_it_once() {
    let e = env();
    let c = e.customer();
    // The service takes its time: both requests would be on their way together.
    e.s.add_fault(Fault::slow(Route::Create, 10, 800));
    let args = [
        "create",
        "--customer",
        &c,
        "--amount",
        "15000",
        "--external-id",
        "PAR-1",
    ];
    let (a, b) = (e.spawn(&args), e.spawn(&args));
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    each_once(&e.issued("PAR-"), 1);
    let mut codes = [a.status.code(), b.status.code()];
    codes.sort();
    assert_eq!(codes, [Some(0), Some(2)], "{a:?}\n{b:?}");
    let refused = if a.status.code() == Some(2) { &a } else { &b };
    let said = text(&refused.stderr);
    assert!(said.contains("PAR-1"), "names the reference: {said}");
    // Who holds it: the operating system's user, even where $USER is not set.
    assert!(
        said.contains("being issued right now by") || said.contains("already issued"),
        "{said}"
    );
    assert!(!said.contains("by ?"), "{said}");
}

#[test]
fn two_processes_voiding_one_invoice_at_once_send_one_void() {
    let e = env();
    let out = e.run(&[
        "--json",
        "create",
        "--customer",
        &e.customer(),
        "--amount",
        "9990",
    ]);
    exits(&out, 0);
    let id = serde_json::from_slice::<Value>(&out.stdout).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    e.s.add_fault(Fault::slow(Route::Void, 10, 800));
    let args = ["void", "--yes", &id];
    let (a, b) = (e.spawn(&args), e.spawn(&args));
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    assert_eq!(e.voids(), 1, "one void sent\n{a:?}\n{b:?}");
    let mut codes = [a.status.code(), b.status.code()];
    codes.sort();
    assert_eq!(codes, [Some(0), Some(2)], "{a:?}\n{b:?}");
    let refused = if a.status.code() == Some(2) { &a } else { &b };
    assert!(text(&refused.stderr).contains(&id), "{refused:?}");
}

#[test]
fn two_runs_of_one_file_at_once_on_one_journal_issue_each_row_once() {
    let e = env();
    let rows = month(&e, 500);
    let file = e.file(
        "doble.csv",
        &csv(&rows, "cliente,monto,vencimiento,producto"),
    );
    e.s.set_latency(Duration::from_millis(5));
    let args = ["bulk", file.as_str(), "--yes", "--concurrency", "8"];
    let (a, b) = (e.spawn(&args), e.spawn(&args));
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    each_once(&e.issued("BULK-"), 500);
    assert!(
        e.creates() == 500,
        "{} create requests for 500 rows\n{}\n{}",
        e.creates(),
        text(&a.stdout),
        text(&b.stdout)
    );
}

/// A service whose answers grow slow (it queues what it is sent) is sent fewer requests
/// at once: the run's 16 while it answers in 10 ms, fewer once its answers take ten
/// times as long, each row still issued once (#51).
#[test]
fn a_run_sends_fewer_at_once_while_the_service_answers_slowly() {
    let e = env();
    let rows = month(&e, 160);
    let file = e.file(
        "lento.csv",
        &csv(&rows, "cliente,monto,vencimiento,producto"),
    );
    e.s.set_latency(Duration::from_millis(10));
    let run = e.spawn(&["bulk", file.as_str(), "--yes", "--concurrency", "16"]);
    // After 48 creates have arrived, every answer takes 100 ms.
    let limit = Instant::now() + Duration::from_secs(120);
    while e.s.creates_at_once().len() < 48 {
        assert!(Instant::now() < limit, "the run sent fewer than 48 creates");
        std::thread::sleep(Duration::from_millis(2));
    }
    e.s.set_latency(Duration::from_millis(100));
    let out = run.wait_with_output().unwrap();
    exits(&out, 0);
    // The clerk is told why the run goes slower.
    let said = text(&out.stderr);
    assert!(said.contains("The service is answering slowly"), "{said}");
    each_once(&e.issued("BULK-"), 160);
    let at_once = e.s.creates_at_once();
    assert_eq!(at_once.len(), 160);
    let quick = at_once[..48].iter().max().copied().unwrap_or(0);
    let slow = at_once[140..].iter().max().copied().unwrap_or(0);
    assert!(
        quick >= 12,
        "the quick part never had 12 at once: {at_once:?}"
    );
    assert!(
        slow <= 12,
        "the slow part's last creates still had {slow} at once: {at_once:?}"
    );
}

#[test]
fn the_same_month_saved_again_re_sorted_with_a_renamed_column_or_new_metadata_sends_nothing() {
    let e = env();
    let rows = month(&e, 30);
    let book = e.dir.path().join("diciembre.xlsx");
    xlsx(&book, &rows);
    let out = e.run(&["bulk", book.to_str().unwrap(), "--yes"]);
    exits(&out, 0);
    assert_eq!(e.creates(), 30);
    // Saved again as CSV.
    let copy = e.file(
        "diciembre.csv",
        &csv(&rows, "Cliente,Monto,Vencimiento,Producto"),
    );
    // Re-sorted, by amount from the largest.
    let mut sorted = rows.clone();
    sorted.reverse();
    let resorted = e.file(
        "diciembre-ordenado.csv",
        &csv(&sorted, "Cliente,Monto,Vencimiento,Producto"),
    );
    // A column renamed (same field) and one added that is not used.
    let renamed = e.file(
        "diciembre-v2.csv",
        &csv(&rows, "customer,amount,Fecha de vencimiento,product")
            .lines()
            .enumerate()
            .map(|(i, l)| format!("{l},{}\n", if i == 0 { "Notas" } else { "ok" }))
            .collect::<String>(),
    );
    // Metadata added the next day (notes for the desk: nothing invoiced changes), then
    // a second one, the two in the other order.
    let with_metadata = |name: &str, header: &str, values: &str| {
        e.file(
            name,
            &csv(&rows, "Cliente,Monto,Vencimiento,Producto")
                .lines()
                .enumerate()
                .map(|(i, l)| format!("{l},{}\n", if i == 0 { header } else { values }))
                .collect::<String>(),
        )
    };
    let tagged = with_metadata("diciembre-centros.csv", "metadata.centro_costo", "Ñuñoa");
    let reordered = with_metadata(
        "diciembre-centros-2.csv",
        "metadata.vendedor,metadata.centro_costo",
        "Beto,Ñuñoa",
    );
    for f in [&copy, &resorted, &renamed, &tagged, &reordered] {
        let out = e.run(&["bulk", f, "--yes", "--ignore-columns"]);
        exits(&out, 0);
        assert!(
            text(&out.stdout).contains("0 created, 30 already issued"),
            "{f}: {}",
            text(&out.stdout)
        );
    }
    assert_eq!(e.creates(), 30, "nothing sent again");
    each_once(&e.issued("BULK-"), 30);
}

#[test]
fn a_fresh_journal_finds_at_the_service_what_was_already_issued() {
    let e = env();
    let rows = month(&e, 40);
    let file = e.file(
        "enero.csv",
        &csv(&rows, "cliente,monto,vencimiento,producto"),
    );
    exits(&e.run(&["bulk", &file, "--yes"]), 0);
    assert_eq!(e.creates(), 40);
    // Another computer, or a journal file started anew.
    for other in ["otro.sqlite3", "tercero.sqlite3"] {
        let out = e
            .cli()
            .env("INVOICE_DESK_JOURNAL", e.dir.path().join(other))
            .args(["bulk", &file, "--yes"])
            .output()
            .unwrap();
        exits(&out, 0);
        assert!(
            text(&out.stdout).contains("40 found already issued at the service"),
            "{}",
            text(&out.stdout)
        );
    }
    assert_eq!(e.creates(), 40);
    each_once(&e.issued("BULK-"), 40);
}

#[test]
fn four_spellings_of_the_service_address_are_one_service() {
    let e = env();
    let rows = month(&e, 20);
    let file = e.file(
        "marzo.csv",
        &csv(&rows, "cliente,monto,vencimiento,producto"),
    );
    let port = e.s.base_url.rsplit(':').next().unwrap().to_string();
    for base in [
        format!("http://127.0.0.1:{port}"),
        format!("HTTP://127.0.0.1:{port}/"),
        format!("http://127.1:{port}/."),
        format!("http://localhost:{port}//"),
    ] {
        let out = e
            .cli()
            .env("INVOICE_DESK_BASE_URL", &base)
            .args(["bulk", &file, "--yes"])
            .output()
            .unwrap();
        exits(&out, 0);
    }
    assert_eq!(e.creates(), 20);
    each_once(&e.issued("BULK-"), 20);
    // Each spelling is stored as one service.
    let services: std::collections::BTreeSet<String> = e
        .entries(None)
        .iter()
        .map(|v| v["base_url"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(services.len(), 1, "{services:?}");
}

/// The CLI with short request and in-flight windows, so a run cut short can be
/// resumed within the test.
fn short_windows(e: &Env) -> Command {
    let mut c = e.cli();
    c.env("INVOICE_DESK_TIMEOUT", "2")
        .env("INVOICE_DESK_IN_FLIGHT_MARGIN", "1");
    c
}

/// A billing file of `n` rows (`name` in the test's folder) against a service whose
/// creates take `slow_ms` and go on after their client is gone; the `bulk` arguments
/// that send it at concurrency 16.
fn abandoned_run(e: &Env, name: &str, n: usize, slow_ms: u64) -> String {
    let rows = month(e, n);
    e.s.set_finish_abandoned(true);
    e.s.add_fault(Fault::slow(Route::Create, 100_000, slow_ms));
    e.file(name, &csv(&rows, "cliente,monto,vencimiento,producto"))
}

/// Runs `bulk` for `file` again until it says every row is settled.
fn resumed_until_settled(e: &Env, file: &str) {
    cli_env::until_settled(|| {
        let mut c = e.cli();
        c.args(["bulk", file, "--yes", "--concurrency", "16"]);
        c
    });
}

/// Runs the CLI for `args` until it has sent `n` more creates, then kills it (-9).
fn killed_after(e: &Env, args: &[&str], n: u64) {
    let before = e.creates();
    let mut child = short_windows(e)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while e.creates() < before + n {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no creates came");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn a_run_killed_twenty_times_while_the_service_keeps_working_issues_each_row_once() {
    killed_many_times(env(), 500, 20);
}

/// The same on a desk's shared journal: ten `kill -9` of a run, each followed by the
/// next run (the killed process's claims wait out their window and are checked at the
/// service before anyone may send them).
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_shared_run_killed_ten_times_issues_each_row_once() {
    let Some(e) = shared_env() else {
        return;
    };
    killed_many_times(e, 300, 10);
}

fn killed_many_times(e: Env, n: usize, kills: u64) {
    // The service goes on with a request after its client is killed, and takes 400 ms
    // before an invoice is in its listing.
    let file = abandoned_run(&e, "kill.csv", n, 400);
    let args = ["bulk", file.as_str(), "--yes", "--concurrency", "16"];
    for i in 0..kills {
        killed_after(&e, &args, 5 + (i * 7) % 17);
    }
    // Then it is run again until it says every row is settled.
    resumed_until_settled(&e, &file);
    let issued = e.issued("BULK-");
    each_once(&issued, n);
    // The journal never says "not created" of an invoice that exists: each reference's
    // latest entry is done, with the very invoice the service holds. (An earlier entry
    // of a process killed before its request left may say "not created": of that
    // request, truly.)
    let mut latest: BTreeMap<String, Value> = BTreeMap::new();
    for v in e.entries(None) {
        let r = v["external_id"].as_str().unwrap().to_string();
        let newer = latest
            .get(&r)
            .is_none_or(|old| old["seq"].as_i64() < v["seq"].as_i64());
        if newer {
            latest.insert(r, v);
        }
    }
    for (r, ids) in &issued {
        let v = &latest[r];
        assert_eq!(v["outcome"], "done", "{r}: {v}");
        assert_eq!(v["invoice_id"].as_str(), Some(ids[0].as_str()), "{r}: {v}");
    }
}

/// A billing run claims each worker's next row while its request is on its way. A claim
/// that waited for its turn longer than a claim made ahead may (here 125 ms: an eighth of
/// a 1 s in-flight margin, against answers of 300 ms) is given back unsent and the row
/// claimed again when it can go at once: no request leaves on a claim a colleague could
/// by then take for a stopped run's, and nothing is sent twice or lost.
#[test]
fn a_claim_made_ahead_that_waited_too_long_is_given_back_and_claimed_again() {
    let e = env();
    let rows = month(&e, 12);
    e.s.add_fault(Fault::slow(Route::Create, 100_000, 300));
    let file = e.file(
        "ahead.csv",
        &csv(&rows, "cliente,monto,vencimiento,producto"),
    );
    let out = short_windows(&e)
        .args(["bulk", file.as_str(), "--yes", "--concurrency", "2"])
        .output()
        .unwrap();
    exits(&out, 0);
    each_once(&e.issued("BULK-"), 12);
    assert_eq!(e.creates(), 12, "one request a row");
    let entries = e.entries(None);
    let given_back = entries
        .iter()
        .filter(|v| v["outcome"] == "refused" && v["error_kind"] == "NotSent")
        .count();
    assert!(given_back > 0, "no claim was given back: {entries:?}");
    let done = entries.iter().filter(|v| v["outcome"] == "done").count();
    assert_eq!((done, given_back), (12, entries.len() - 12), "{entries:?}");
}

/// Group commit: a billing run stopped dead (abort) inside one of its group commits —
/// after the group's writes ran but before the commit, or after the commit but before
/// any writer was told — at points drawn from a fixed seed. After each stop, every
/// create the service received has its intent in the journal (no request left before
/// its intent was on disk); resumed, each row is issued once.
#[cfg(all(unix, debug_assertions))]
#[test]
fn a_run_stopped_dead_inside_its_group_commits_sent_nothing_unjournaled_and_issues_once() {
    use std::os::unix::process::ExitStatusExt;
    let e = env();
    let n = 240;
    // Slow creates: sixteen workers' intents meet in time, and the service goes on with
    // a request after its client is gone.
    let file = abandoned_run(&e, "group.csv", n, 150);
    let args = ["bulk", file.as_str(), "--yes", "--concurrency", "16"];
    let mut seed: u64 = 0x5eed_0038;
    let mut draw = |below: u64| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 33) % below
    };
    for _ in 0..8 {
        let group = 3 + draw(6);
        let point = ["before-commit", "before-telling"][draw(2) as usize];
        let status = short_windows(&e)
            .env(
                "INVOICE_DESK_TEST_ABORT_AT_GROUP",
                format!("{group}:{point}"),
            )
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert_eq!(
            status.signal(),
            Some(6),
            "the run was to stop at group {group} {point}: {status:?}"
        );
        let journaled: std::collections::BTreeSet<String> = e
            .entries(None)
            .iter()
            .filter_map(|v| v["external_id"].as_str().map(str::to_string))
            .collect();
        // Read after the journal: a request that reaches the service only now was sent
        // before the stop, so its intent was in the journal just read.
        let unjournaled: Vec<String> =
            e.s.received_references()
                .into_iter()
                .filter(|r| r.starts_with("BULK-") && !journaled.contains(r))
                .collect();
        assert!(
            unjournaled.is_empty(),
            "sent without an intent on disk (stopped at group {group} {point}): {unjournaled:?}"
        );
    }
    resumed_until_settled(&e, &file);
    each_once(&e.issued("BULK-"), n);
}

/// libfaketime, as Debian's `faketime` package installs it (its thread-safe build).
const LIBFAKETIME: &str = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1";

/// `c` run on a clock `offset` away from this computer's (libfaketime preloaded, as
/// `faketime -f +5m` does, but with no wrapper process, so killing it kills the program
/// itself): the process's wall clock is moved, as an NTP step after sleep, or a PC
/// minutes off, do. The monotonic clock, which no step moves, is left as it is: faked,
/// it made the standard library's timed waits (an absolute time on the kernel's real
/// monotonic clock) last the offset, and a run hung for minutes in the journal's group
/// commit.
fn on_stepped_clock(mut c: Command, offset: Option<&str>) -> Command {
    if let Some(offset) = offset {
        c.env("LD_PRELOAD", LIBFAKETIME)
            .env("FAKETIME", offset)
            .env("FAKETIME_DONT_FAKE_MONOTONIC", "1");
    }
    c
}

/// A billing run killed while the service still works on its last requests, then
/// resumed at once on a clock stepped `resumed_at` (or killed on a clock stepped
/// `killed_at`, resumed on the true one): each row is issued once. A wall clock moved
/// forward between the crash and the resume would have concluded "not created" for the
/// requests still on their way, and sent them again.
fn stepped_between_crash_and_resume(e: Env, killed_at: Option<&str>, resumed_at: Option<&str>) {
    if !cli_env::have_file("faketime", LIBFAKETIME, "faketime") {
        return;
    }
    let n = 120;
    // Each create takes 1.5 s, and the service finishes it after its client is gone.
    let file = abandoned_run(&e, "stepped.csv", n, 1500);
    let args = ["bulk", file.as_str(), "--yes", "--concurrency", "16"];
    let before = e.creates();
    let mut child = on_stepped_clock(
        {
            let mut c = short_windows(&e);
            c.args(args).stdout(Stdio::null()).stderr(Stdio::null());
            c
        },
        killed_at,
    )
    .spawn()
    .unwrap();
    let start = Instant::now();
    while e.creates() < before + 20 {
        assert!(start.elapsed() < Duration::from_secs(60), "no creates came");
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    cli_env::until_settled(|| {
        let mut c = e.cli();
        c.args(args);
        on_stepped_clock(c, resumed_at)
    });
    each_once(&e.issued("BULK-"), n);
}

#[test]
#[cfg_attr(
    tests_lack = "faketime",
    ignore = "needs libfaketime (apt-get install faketime)"
)]
fn a_clock_stepped_forward_between_a_crash_and_the_resume_issues_nothing_twice() {
    stepped_between_crash_and_resume(env(), None, Some("+5m"));
    stepped_between_crash_and_resume(env(), None, Some("+10m"));
}

#[test]
#[cfg_attr(
    tests_lack = "faketime",
    ignore = "needs libfaketime (apt-get install faketime)"
)]
fn a_crash_on_a_clock_behind_then_a_resume_on_the_true_one_issues_nothing_twice() {
    stepped_between_crash_and_resume(env(), Some("-10m"), None);
    stepped_between_crash_and_resume(env(), Some("-3m"), Some("+3m"));
}

/// On the desk's journal the server's clock decides: a clerk whose PC is three minutes
/// ahead resumes a colleague's (or its own) crashed run without sending anything twice,
/// and one three minutes behind does not wait longer than the window.
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    any(tests_lack = "postgres", tests_lack = "faketime"),
    ignore = "needs PostgreSQL and libfaketime (apt-get install postgresql faketime)"
)]
fn on_the_shared_journal_a_pc_minutes_off_issues_nothing_twice() {
    for (crash, resume) in [(None, Some("+3m")), (Some("+10m"), Some("-10m"))] {
        let Some(e) = shared_env() else {
            return;
        };
        stepped_between_crash_and_resume(e, crash, resume);
    }
}

/// Two computers, each with a journal file of its own, start the same month at the
/// same moment (what a local journal cannot prevent: neither can see the other's
/// claims). Each watches the service while it runs: seeing an invoice of the file that
/// it did not issue, it stops at once and says another computer is issuing the same
/// file, so only rows already on their way go twice, never the whole file; the file
/// then run again on one computer issues the rest, each once.
#[test]
fn two_computers_with_journals_of_their_own_stop_at_once_on_one_file() {
    let e = env();
    let n = 200;
    let concurrency = 4;
    let rows = month(&e, n);
    e.s.add_fault(Fault::slow(Route::Create, 100_000, 40));
    let file = e.file("mes.csv", &csv(&rows, "cliente,monto,vencimiento,producto"));
    let computer = |journal: &str| {
        e.cli()
            .env("INVOICE_DESK_JOURNAL", e.dir.path().join(journal))
            .args(["bulk", &file, "--yes", "--concurrency"])
            .arg(concurrency.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (computer("pc1.sqlite3"), computer("pc2.sqlite3"));
    let outs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
    let stopped: Vec<&Output> = outs
        .iter()
        .filter(|o| text(&o.stderr).contains("another computer is issuing this same file"))
        .collect();
    assert!(
        !stopped.is_empty(),
        "{:?}",
        outs.iter().map(|o| text(&o.stderr)).collect::<Vec<_>>()
    );
    for o in &stopped {
        exits(o, 1);
        assert!(
            text(&o.stderr).contains("shared journal"),
            "{}",
            text(&o.stderr)
        );
    }
    let issued = e.issued("BULK-");
    let twice = issued.values().filter(|ids| ids.len() > 1).count();
    eprintln!("{twice} of {n} rows went twice, {} issued", issued.len());
    // Each computer had at most `concurrency` rows on their way when the other's showed
    // (4 to 8 of 200 measured here); a little slack for the time a listing takes on a
    // busy machine, and still a small part of the file.
    assert!(
        twice <= 3 * concurrency,
        "{twice} rows issued twice (the whole file is {n})"
    );
    // One computer finishes the month: the rest once each, nothing more twice.
    resumed_until_settled_on(&e, &file, "pc1.sqlite3");
    let issued = e.issued("BULK-");
    assert_eq!(issued.len(), n);
    assert_eq!(issued.values().filter(|ids| ids.len() > 1).count(), twice);
}

/// Runs `bulk` for `file` on the journal file `journal` until every row is settled.
fn resumed_until_settled_on(e: &Env, file: &str, journal: &str) {
    cli_env::until_settled(|| {
        let mut c = e.cli();
        c.env("INVOICE_DESK_JOURNAL", e.dir.path().join(journal))
            .args(["bulk", file, "--yes"]);
        c
    });
}

#[test]
fn a_check_right_after_a_kill_does_not_conclude_not_created_while_the_service_works() {
    let e = env();
    e.s.set_finish_abandoned(true);
    e.s.add_fault(Fault::slow(Route::Create, 1, 1500));
    let args = [
        "create",
        "--customer",
        &e.customer(),
        "--amount",
        "4321",
        "--external-id",
        "SLOW-1",
    ];
    killed_after(&e, &args, 1);
    // Checked at once: the service has not listed it yet.
    let out = e
        .cli()
        .env("INVOICE_DESK_TIMEOUT", "2")
        .env("INVOICE_DESK_IN_FLIGHT_MARGIN", "1")
        .args(["journal", "resolve", "--include-recent"])
        .output()
        .unwrap();
    exits(&out, 6);
    let entry = |e: &Env| {
        e.entries(None)
            .into_iter()
            .find(|v| v["external_id"] == "SLOW-1")
            .unwrap()
    };
    assert_eq!(entry(&e)["outcome"], "unknown", "{}", text(&out.stdout));
    // A create of the same reference now is not sent.
    let again = e.run(&args);
    exits(&again, 2);
    // Once the service has it, a check finds it.
    let start = Instant::now();
    while e.issued("SLOW-").is_empty() {
        assert!(start.elapsed() < Duration::from_secs(20));
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = e.run(&["journal", "resolve", "--include-recent"]);
    exits(&out, 0);
    assert_eq!(entry(&e)["outcome"], "done");
    each_once(&e.issued("SLOW-"), 1);
}

#[test]
fn a_look_alike_is_refused_unless_the_clerk_allows_it() {
    let e = env();
    let c = e.customer();
    let args = |r: &str| -> Vec<String> {
        [
            "create",
            "--customer",
            &c,
            "--amount",
            "77000",
            "--due",
            "31-12-2026",
            "--external-id",
            r,
        ]
        .map(str::to_string)
        .to_vec()
    };
    let first = e.cli().args(args("LA-1")).output().unwrap();
    exits(&first, 0);
    let second = e.cli().args(args("LA-2")).output().unwrap();
    exits(&second, 2);
    let said = text(&second.stderr);
    assert!(
        said.contains("LA-1") && said.contains("--allow-similar"),
        "{said}"
    );
    assert_eq!(e.creates(), 1);
    let mut allowed = args("LA-2");
    allowed.push("--allow-similar".into());
    exits(&e.cli().args(allowed).output().unwrap(), 0);
    assert_eq!(e.creates(), 2);
    // The decision is in the journal.
    let entries = e.entries(None);
    let la2 = entries.iter().find(|v| v["external_id"] == "LA-2").unwrap();
    assert!(
        la2["decision"].as_str().unwrap_or("").contains("similar"),
        "{la2}"
    );
}

#[test]
fn a_reference_the_service_already_has_is_not_sent_from_a_fresh_journal() {
    let e = env();
    let c = e.customer();
    let args = [
        "create",
        "--customer",
        &c,
        "--amount",
        "5000",
        "--external-id",
        "ERP-SVC",
    ];
    exits(&e.run(&args), 0);
    let fresh: PathBuf = e.dir.path().join("fresh.sqlite3");
    let out = e
        .cli()
        .env("INVOICE_DESK_JOURNAL", &fresh)
        .args(args)
        .output()
        .unwrap();
    exits(&out, 2);
    assert!(text(&out.stderr).contains("ERP-SVC"), "{out:?}");
    assert_eq!(e.creates(), 1);
}

#[test]
fn journal_json_carries_every_field_on_every_entry() {
    let e = env();
    exits(
        &e.run(&["create", "--customer", &e.customer(), "--amount", "1000"]),
        0,
    );
    let entries = e.entries(None);
    // The documented fields: those of `journal export`'s CSV.
    for field in invoice_desk::journal::CSV_HEADER {
        assert!(
            entries.iter().all(|v| v.get(field).is_some()),
            "{field} missing: {entries:?}"
        );
    }
}

#[test]
fn a_billing_row_like_an_earlier_invoice_is_skipped_unless_allowed() {
    let e = env();
    let c = e.customer();
    // Issued earlier with its own reference.
    exits(
        &e.run(&[
            "create",
            "--customer",
            &c,
            "--amount",
            "30000",
            "--due",
            "2026-12-31",
            "--external-id",
            "A-MANO-1",
        ]),
        0,
    );
    let file = e.file(
        "abril.csv",
        &format!("cliente,monto,vencimiento\n{c},30000,31-12-2026\n{c},31000,31-12-2026\n"),
    );
    let report = e.dir.path().join("abril-informe.csv");
    let out = e.run(&["bulk", &file, "--yes", "--report", report.to_str().unwrap()]);
    exits(&out, 2);
    assert!(
        text(&out.stdout).contains(
            "1 created, 0 already issued, 0 refused, 0 unknown, 1 possible duplicates skipped"
        ),
        "{}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stderr).contains("--allow-similar"),
        "{}",
        text(&out.stderr)
    );
    let written = std::fs::read_to_string(&report).unwrap();
    assert!(written.contains("\n2,BULK-"), "{written}");
    assert!(written.contains(",possible_duplicate,,"), "{written}");
    assert_eq!(e.creates(), 2);
    // Allowed: issued; the decision names the earlier invoice.
    let out = e.run(&["bulk", &file, "--yes", "--allow-similar"]);
    exits(&out, 0);
    assert!(
        text(&out.stdout).contains("1 created, 1 already issued"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(e.creates(), 3);
    let earlier = e.issued("A-MANO-1")["A-MANO-1"][0].clone();
    assert!(
        e.entries(None)
            .iter()
            .any(|v| v["decision"].as_str().is_some_and(|d| d.contains(&earlier))),
        "the clerk's decision is journaled"
    );
}
