use super::store::migrate_to;
use super::*;
use proptest::prelude::*;

fn intent(customer: &str, amount: &str) -> Intent {
    Intent {
        profile: "Producción".into(),
        base_url: "https://api.example.cl".into(),
        customer: Some(customer.into()),
        amount: Some(amount.into()),
        currency_code: None,
        account_last4: Intent::last4("acc_secret_key_1234"),
        external_id: Some(format!("REF-{customer}")),
        ..Intent::default()
    }
}

/// A new journal in a temporary folder (kept while the folder lives).
pub(super) fn open() -> (tempfile::TempDir, Journal) {
    let dir = tempfile::tempdir().unwrap();
    let j = Journal::open(&dir.path().join("j.sqlite3")).unwrap();
    (dir, j)
}

#[cfg(unix)]
#[path = "../../../tests/pg_server/mod.rs"]
mod pg_server;

/// Where a test's journal is kept: a new file, or a new database on the tests'
/// PostgreSQL server. The journal's tests run on both, so the stores cannot drift.
pub(super) enum Place {
    /// The embedded SQLite file.
    File(tempfile::TempDir),
    /// A shared journal (its address). Only where the test server runs (Unix).
    #[cfg_attr(not(unix), allow(dead_code))]
    Shared(String),
}

impl Place {
    /// Opens (another connection to) the journal.
    pub(super) fn open(&self) -> Journal {
        match self {
            Place::File(d) => Journal::open(&d.path().join("j.sqlite3")).unwrap(),
            #[cfg(unix)]
            Place::Shared(url) => Journal::open_shared(url, Some(pg_server::PASSWORD)).unwrap(),
            #[cfg(not(unix))]
            Place::Shared(_) => unreachable!("no test server here"),
        }
    }

    /// Which store, for messages.
    pub(super) fn name(&self) -> &'static str {
        match self {
            Place::File(_) => "SQLite",
            Place::Shared(_) => "PostgreSQL",
        }
    }
}

/// Both stores, new and empty (the shared one when the test server can run here).
pub(super) fn places() -> Vec<Place> {
    let file = Place::File(tempfile::tempdir().unwrap());
    #[cfg(unix)]
    if let Some(server) = pg_server::server() {
        return vec![file, Place::Shared(server.database())];
    }
    vec![file]
}

/// Runs `test` on a new journal of each store.
pub(super) fn on_both(test: impl Fn(&Place, Journal)) {
    for place in places() {
        let j = place.open();
        test(&place, j);
    }
}

#[test]
fn intents_outcomes_and_the_listing() {
    on_both(|_place, mut j| {
        let a = j
            .record_intent(Action::Create, &intent("cus_a", "12.3456"))
            .unwrap();
        let b = j
            .record_intent(Action::Create, &intent("cus_b", "1000"))
            .unwrap();
        j.record_outcome(a, &Settled::done(Some("in_1".into())))
            .unwrap();
        let c = j
            .record_intent(
                Action::Void,
                &Intent {
                    invoice_id: Some("in_9".into()),
                    ..intent("cus_c", "5")
                },
            )
            .unwrap();
        j.record_outcome(
            c,
            &Settled {
                outcome: Outcome::Refused,
                error_kind: Some("Conflict".into()),
                error_code: Some("TK10601".into()),
                ..Settled::done(None)
            },
        )
        .unwrap();
        let all = j.list(&Filter::default(), false, 0, 100).unwrap();
        assert_eq!(all.len(), 3);
        assert_eq!(
            (all[0].outcome, all[0].invoice_id.as_deref()),
            (Outcome::Done, Some("in_1"))
        );
        assert_eq!(all[0].amount.as_deref(), Some("12.3456"));
        assert_eq!(all[0].account_last4.as_deref(), Some("1234"));
        assert_eq!(all[1].outcome, Outcome::Unknown, "no outcome yet");
        assert_eq!(all[2].error_code.as_deref(), Some("TK10601"));
        assert_eq!(j.unknown().unwrap().len(), 1);
        assert_eq!(j.unknown().unwrap()[0].seq, b);
        // The directory learnt the customers of the intents.
        assert_eq!(j.find_customers("cus_", 10).unwrap().len(), 3);
        // Settled later: the latest outcome counts.
        j.record_outcome(
            b,
            &Settled {
                checked: true,
                ..Settled::done(Some("in_2".into()))
            },
        )
        .unwrap();
        assert!(j.unknown().unwrap().is_empty());
        let newest = j.list(&Filter::default(), true, 0, 1).unwrap();
        assert_eq!(newest[0].seq, c);
        let voids = Filter {
            action: Some(Action::Void),
            ..Filter::default()
        };
        assert_eq!(j.count(&voids).unwrap(), 1);
        let text = Filter {
            text: Some("in_2".into()),
            ..Filter::default()
        };
        assert_eq!(j.list(&text, false, 0, 10).unwrap()[0].seq, b);
        // LIKE wildcards in the search are plain characters.
        let wild = Filter {
            text: Some("%".into()),
            ..Filter::default()
        };
        assert_eq!(j.count(&wild).unwrap(), 0);
        let today = chrono::Local::now().date_naive();
        let since_tomorrow = Filter {
            since: today.succ_opt(),
            ..Filter::default()
        };
        assert_eq!(j.count(&since_tomorrow).unwrap(), 0);
        let today_only = Filter {
            since: Some(today),
            until: Some(today),
            ..Filter::default()
        };
        assert_eq!(j.count(&today_only).unwrap(), 3);
        assert_eq!(j.verify().unwrap(), Ok(6));
    });
}

#[test]
fn account_keys_keep_only_their_last_four_characters() {
    assert_eq!(Intent::last4("acc_oauth_clp").as_deref(), Some("_clp"));
    assert_eq!(Intent::last4("short123"), None);
    assert_eq!(
        Intent::last4("  ñandú-cuenta-ÑÑÑÑ ").as_deref(),
        Some("ÑÑÑÑ")
    );
}

#[test]
fn a_changed_or_removed_row_is_found() {
    on_both(|_place, mut j| {
        for i in 0..5 {
            let s = j
                .record_intent(Action::Create, &intent(&format!("cus_{i}"), "10"))
                .unwrap();
            j.record_outcome(s, &Settled::done(Some(format!("in_{i}"))))
                .unwrap();
        }
        assert_eq!(j.verify().unwrap(), Ok(10));
        j.raw("UPDATE entries SET amount = '100' WHERE seq = 5");
        let broken = j.verify().unwrap().unwrap_err();
        assert_eq!(broken.seq, 5);
        assert!(broken.why.contains("changed"), "{}", broken.why);
        j.raw("UPDATE entries SET amount = '10' WHERE seq = 5");
        assert_eq!(j.verify().unwrap(), Ok(10));
        j.raw("DELETE FROM entries WHERE seq = 3");
        let broken = j.verify().unwrap().unwrap_err();
        assert_eq!(broken.seq, 4);
        assert!(broken.why.contains("removed"), "{}", broken.why);
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any journal verifies; changing any byte of any stored text is found.
    #[test]
    fn every_chain_verifies_and_a_changed_byte_is_found(
        customers in proptest::collection::vec("[a-zA-Z0-9ñ _\\-]{0,12}", 1..8),
        victim in 0usize..64,
        column in 0usize..4,
    ) {
        let (_d, mut j) = open();
        for (i, c) in customers.iter().enumerate() {
            let s = j.record_intent(Action::Create, &intent(c, &format!("{i}.5"))).unwrap();
            if i % 2 == 0 {
                j.record_outcome(s, &Settled::done(Some(format!("in_{i}")))).unwrap();
            }
        }
        let rows = j.verify().unwrap().unwrap();
        prop_assert!(rows >= customers.len() as u64);
        let seq = (victim as u64 % rows) + 1;
        let col = ["user", "profile", "base_url", "time"][column];
        j.raw(&format!("UPDATE entries SET {col} = {col} || 'x' WHERE seq = {seq}"));
        let broken = j.verify().unwrap().unwrap_err();
        prop_assert_eq!(broken.seq, seq as i64);
    }
}

#[test]
fn migrations_from_each_version_up_and_a_newer_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for from in 0..=super::store::LAYOUT {
        let path = dir.path().join(format!("v{from}.sqlite3"));
        migrate_to(&path, from);
        let mut j = Journal::open(&path).unwrap();
        let s = j
            .record_intent(Action::Export, &intent("cus_x", "1"))
            .unwrap();
        assert_eq!(s, 1);
        drop(j);
        let j = Journal::open(&path).unwrap();
        assert_eq!(j.verify().unwrap(), Ok(1), "from version {from}");
        let version: i64 = rusqlite::Connection::open(&path)
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, super::store::LAYOUT as i64);
    }
    let path = dir.path().join("v1.sqlite3");
    rusqlite::Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", super::store::LAYOUT as i64 + 1)
        .unwrap();
    let err = Journal::open(&path).err().unwrap();
    let newer = super::store::LAYOUT as i64 + 1;
    assert!(
        matches!(err, JournalError::TooNew { found, .. } if found == newer),
        "{err}"
    );
}

#[test]
fn concurrent_writers_lose_nothing_and_keep_the_chain() {
    for place in places() {
        concurrent_writers_on(place);
    }
}

fn concurrent_writers_on(place: Place) {
    let place = std::sync::Arc::new(place);
    drop(place.open());
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let place = place.clone();
            std::thread::spawn(move || {
                let mut j = place.open();
                for i in 0..50 {
                    let s = j
                        .record_intent(Action::Create, &intent(&format!("cus_{t}_{i}"), "1"))
                        .unwrap();
                    j.record_outcome(s, &Settled::done(None)).unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let j = place.open();
    assert_eq!(j.verify().unwrap(), Ok(400), "{}", place.name());
    assert_eq!(j.count(&Filter::default()).unwrap(), 200);
    assert!(j.unknown().unwrap().is_empty());
}

#[cfg(unix)]
#[test]
fn a_read_only_journal_refuses_to_record() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.sqlite3");
    drop(Journal::open(&path).unwrap());
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let opened = Journal::open(&path);
    // Root ignores file modes: then there is nothing to prove here.
    if std::fs::OpenOptions::new().write(true).open(&path).is_ok() {
        return;
    }
    match opened {
        Err(e) => assert!(e.to_string().contains("journal"), "{e}"),
        Ok(mut j) => {
            let e = j
                .record_intent(Action::Create, &intent("cus_a", "1"))
                .unwrap_err();
            assert!(matches!(e, JournalError::Write { .. }), "{e}");
        }
    }
}

/// A create of `amount` to `customer` with reference `reference`, claimed at the
/// service `url` with account `acc_secret_key_1234`.
fn create(url: &str, customer: &str, amount: &str, reference: &str, due: Option<&str>) -> Intent {
    let inv = crate::api::NewInvoice {
        customer: customer.into(),
        amount: amount.parse().unwrap(),
        due_date: due.map(str::to_string),
        invoice_external_id: Some(reference.into()),
        ..crate::api::NewInvoice::default()
    };
    Intent::for_create("Producción", url, Some("acc_secret_key_1234"), &inv)
}

fn claimed(c: Claimed) -> i64 {
    match c {
        Claimed::Claimed(seq) => seq,
        other => panic!("not claimed: {other:?}"),
    }
}

#[test]
fn a_reference_is_claimed_once_until_its_outcome_frees_it() {
    on_both(|_place, mut j| {
        let g = Guard::default();
        let first = claimed(
            j.claim(
                Action::Create,
                &create("https://api.example.cl", "cus_a", "10", "R-1", None),
                &g,
            )
            .unwrap(),
        );
        // Another spelling of the service, the same account: the same claim, on its way.
        let again = create("HTTPS://API.example.cl:443/", "cus_b", "20", "R-1", None);
        assert!(matches!(
            j.claim(Action::Create, &again, &g).unwrap(),
            Claimed::Pending(e) if e.seq == first
        ));
        // Another account: another claim.
        let other = Intent {
            service: identity::create_scope("https://api.example.cl", Some("acc_other_key_9999")),
            ..again.clone()
        };
        claimed(j.claim(Action::Create, &other, &g).unwrap());
        // Refused: nothing was created, the next intent takes the claim over.
        j.record_outcome(
            first,
            &Settled {
                outcome: Outcome::Refused,
                error_kind: Some("Validation".into()),
                ..Settled::done(None)
            },
        )
        .unwrap();
        let second = claimed(j.claim(Action::Create, &again, &g).unwrap());
        j.record_outcome(second, &Settled::done(Some("in_7".into())))
            .unwrap();
        match j.claim(Action::Create, &again, &g).unwrap() {
            Claimed::Done(e) => assert_eq!(e.invoice_id.as_deref(), Some("in_7")),
            other => panic!("{other:?}"),
        }
        // A void claims the invoice id the same way.
        let void = Intent::for_void("P", "https://api.example.cl/", None, "in_7", None);
        let v = claimed(j.claim(Action::Void, &void, &g).unwrap());
        assert!(matches!(
            j.claim(Action::Void, &void, &g).unwrap(),
            Claimed::Pending(e) if e.seq == v
        ));
        assert_eq!(j.verify().unwrap(), Ok(6));
    });
}

#[test]
fn racing_writers_claim_a_reference_exactly_once() {
    for place in places() {
        racing_writers_on(place);
    }
}

fn racing_writers_on(place: Place) {
    let place = std::sync::Arc::new(place);
    drop(place.open());
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(8));
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let (place, barrier) = (place.clone(), barrier.clone());
            std::thread::spawn(move || {
                let mut j = place.open();
                barrier.wait();
                (0..20)
                    .filter(|i| {
                        let amount = (i + 1).to_string();
                        let intent = create(
                            "http://127.0.0.1:1",
                            "cus_a",
                            &amount,
                            &format!("RACE-{i}"),
                            None,
                        );
                        matches!(
                            j.claim(Action::Create, &intent, &Guard::default()).unwrap(),
                            Claimed::Claimed(_)
                        )
                    })
                    .count()
            })
        })
        .collect();
    let won: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
    assert_eq!(
        won,
        20,
        "{}: each of 20 references claimed by exactly one writer",
        place.name()
    );
}

/// A billing run claims row after row: each claim reads the earlier creates that look
/// like it, and the entries they name, with other values bound each time. SQLite
/// compiled those statements again at every new value (it may plan for the value), a
/// third of a run's CPU at C = 64 (#51); each is compiled once.
#[test]
fn a_claims_reads_are_compiled_once_whatever_is_bound() {
    let (_dir, mut j) = open();
    let url = "https://api.example.cl";
    let refs: Vec<String> = (0..12).map(|i| format!("M-{i}")).collect();
    // The rows of one run: alike, and not look-alikes of each other.
    let run = Guard {
        similar: Similar {
            siblings: std::sync::Arc::new(refs.iter().cloned().collect()),
            ..Similar::default()
        },
        ..Guard::default()
    };
    for r in &refs {
        let seq = claimed(
            j.claim(Action::Create, &create(url, "cus_a", "990", r, None), &run)
                .unwrap(),
        );
        j.record_outcome(seq, &Settled::done(Some(format!("in_{r}"))))
            .unwrap();
        assert!(j.entry(seq).unwrap().is_some());
    }
    let conn = j.lite().unwrap();
    let (entry, _) = super::store::list_sql(
        &Filter {
            seq: Some(1),
            ..Filter::default()
        },
        true,
        0,
        1,
    );
    for sql in [entry.as_str(), super::claims::LOOK_ALIKES] {
        let stmt = conn.prepare_cached(sql).unwrap();
        assert_eq!(
            stmt.get_status(rusqlite::StatementStatus::RePrepare),
            0,
            "{sql}"
        );
    }
}

#[test]
fn look_alikes_need_the_clerks_yes_and_it_is_journaled() {
    on_both(|_place, mut j| {
        let url = "https://api.example.cl";
        let first = claimed(
            j.claim(
                Action::Create,
                &create(url, "cus_a", "150000", "A-1", Some("2026-12-31")),
                &Guard::default(),
            )
            .unwrap(),
        );
        j.record_outcome(first, &Settled::done(Some("in_1".into())))
            .unwrap();
        let alike = create(url, "cus_a", "150000.00", "A-2", Some("2026-12-31"));
        match j.claim(Action::Create, &alike, &Guard::default()).unwrap() {
            Claimed::LooksLike(e) => assert_eq!(e.invoice_id.as_deref(), Some("in_1")),
            other => panic!("{other:?}"),
        }
        // Not alike: another due date, customer or amount.
        for other in [
            create(url, "cus_a", "150000", "A-3", Some("2027-01-31")),
            create(url, "cus_b", "150000", "A-4", Some("2026-12-31")),
            create(url, "cus_a", "150001", "A-5", Some("2026-12-31")),
        ] {
            claimed(j.claim(Action::Create, &other, &Guard::default()).unwrap());
        }
        // A row of the same run is not a look-alike of its sibling.
        let siblings = Guard {
            similar: Similar {
                siblings: std::sync::Arc::new(["A-1".to_string()].into()),
                ..Similar::default()
            },
            ..Guard::default()
        };
        let sib = create(url, "cus_a", "150000", "A-6", Some("2026-12-31"));
        claimed(j.claim(Action::Create, &sib, &siblings).unwrap());
        // Allowed: sent, and the decision names the earlier invoice.
        let allowed = Guard {
            similar: Similar {
                allow: true,
                ..Similar::default()
            },
            ..Guard::default()
        };
        let seq = claimed(j.claim(Action::Create, &alike, &allowed).unwrap());
        let e = j.entry(seq).unwrap().unwrap();
        assert!(
            e.decision
                .as_deref()
                .is_some_and(|d| d.contains("in_1") || d.contains("A-")),
            "{e:?}"
        );
        assert_eq!(e.due_date.as_deref(), Some("2026-12-31"));
        assert_eq!(j.verify().unwrap().map(|n| n > 0), Ok(true));
    });
}

/// The layout-5 journal written by the build before claims (tests/fixtures/journal-v5).
fn v5_fixture() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.sqlite3");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/journal-v5");
    std::fs::copy(root.join("journal.sqlite3"), &path).unwrap();
    (dir, path)
}

#[test]
fn a_journal_written_before_claims_keeps_its_chain_and_every_reference_it_used() {
    let (_dir, path) = v5_fixture();
    let mut j = Journal::open(&path).unwrap();
    assert_eq!(j.verify().unwrap(), Ok(19), "the old rows still verify");
    let base = "http://127.0.0.1:8787";
    let key = Some("acc_oauth_clp");
    let inv = |customer: &str, amount: &str, reference: &str| crate::api::NewInvoice {
        customer: customer.into(),
        amount: amount.parse().unwrap(),
        invoice_external_id: Some(reference.into()),
        ..crate::api::NewInvoice::default()
    };
    let g = Guard::default();
    // ERP-77 was done: not sent again, under any spelling of the service.
    let erp77 = Intent::for_create(
        "x",
        "http://localhost:8787/",
        key,
        &inv("cus_0qy0e55vx7", "33000", "ERP-77"),
    );
    assert!(
        matches!(j.claim(Action::Create, &erp77, &g).unwrap(), Claimed::Done(e) if e.invoice_id.as_deref() == Some("in_ihjqmwmwdl2nxl"))
    );
    // ERP-78 was killed on its way: still held, to check.
    let erp78 = Intent::for_create("x", base, key, &inv("cus_acq0dv0fpk", "12000", "ERP-78"));
    assert!(matches!(
        j.claim(Action::Create, &erp78, &g).unwrap(),
        Claimed::Pending(_)
    ));
    // The void done is done.
    let void = Intent::for_void("x", base, key, "in_8gwoqv06ud3q64", None);
    assert!(matches!(
        j.claim(Action::Void, &void, &g).unwrap(),
        Claimed::Done(_)
    ));
    // The billing run: its file planned by this version (content references), each row
    // recognised through the reference the old version gave it.
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/journal-v5/marzo.csv");
    let bytes = std::fs::read(&file).unwrap();
    let rows = crate::sheet::read_rows(&file, None).unwrap().rows;
    let by_id = |t: &str| -> Result<String, crate::bulk::Why> { Ok(t.to_string()) };
    let plan = crate::bulk::plan(
        &rows,
        &crate::bulk::PlanInput {
            file_id: &crate::bulk::file_id(&bytes),
            currencies: &crate::api::Currency::DEFAULT_OFFERED,
            reading: Some(crate::api::Currency::CLP),
            resolve: &by_id,
            mapping: None,
            ignore_unknown_columns: false,
        },
    );
    assert_eq!(plan.rows.len(), 6, "{:?}", plan.problems);
    let mut seen = Vec::new();
    for r in &plan.rows {
        assert!(
            r.invoice
                .invoice_external_id
                .as_deref()
                .unwrap()
                .starts_with("BULK-")
        );
        let intent = Intent::for_create("x", base, key, &r.invoice);
        let guard = Guard {
            aliases: r.aliases(),
            ..Guard::default()
        };
        seen.push(match j.claim(Action::Create, &intent, &guard).unwrap() {
            Claimed::Done(_) => "done",
            Claimed::Pending(_) => "pending",
            other => panic!("row {}: {other:?}", r.row),
        });
    }
    // Row 2 was left unknown by a broken connection; rows 3 to 7 were issued.
    assert_eq!(seen, ["pending", "done", "done", "done", "done", "done"]);
    // The interrupted run is still offered.
    let runs = j.interrupted_runs().unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].file_id, crate::bulk::file_id(&bytes));
}

/// Each kind of SQLite trouble is known by its code, so it gets its own words; a
/// damaged file is one whatever the error says.
#[test]
fn sqlite_troubles_are_told_apart_by_their_code() {
    use rusqlite::ffi;
    let failure = |code| rusqlite::Error::SqliteFailure(ffi::Error::new(code), None);
    assert_eq!(Trouble::of(&failure(ffi::SQLITE_BUSY)), Trouble::Busy);
    assert_eq!(Trouble::of(&failure(ffi::SQLITE_LOCKED)), Trouble::Busy);
    assert_eq!(Trouble::of(&failure(ffi::SQLITE_FULL)), Trouble::DiskFull);
    assert_eq!(
        Trouble::of(&failure(ffi::SQLITE_READONLY)),
        Trouble::ReadOnly
    );
    assert_eq!(Trouble::of(&failure(ffi::SQLITE_PERM)), Trouble::ReadOnly);
    assert_eq!(Trouble::of(&failure(ffi::SQLITE_CORRUPT)), Trouble::Corrupt);
    assert_eq!(Trouble::of(&failure(ffi::SQLITE_NOTADB)), Trouble::Corrupt);
    assert_eq!(Trouble::of(&failure(ffi::SQLITE_IOERR)), Trouble::Other);
    assert_eq!(
        Trouble::of(&rusqlite::Error::QueryReturnedNoRows),
        Trouble::Other
    );
    let full =
        store::write_error(std::path::Path::new("j.sqlite3"))(failure(ffi::SQLITE_FULL).into());
    assert_eq!(full.trouble(), Trouble::DiskFull);
    let said = crate::i18n::journal_error(&full);
    assert!(said.contains("disk is full"), "{said}");
    // A file that is not a journal is opened as damaged.
    let (dir, _) = open();
    let junk = dir.path().join("junk.sqlite3");
    std::fs::write(&junk, vec![b'x'; 8192]).unwrap();
    let Err(e) = Journal::open(&junk) else {
        panic!("a file of junk opened as a journal")
    };
    assert_eq!(e.trouble(), Trouble::Corrupt, "{e}");
}

/// A shared journal made by a newer invoice-desk is refused, as a newer file is.
#[cfg(unix)]
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_shared_journal_with_a_newer_layout_is_refused() {
    let Some(server) = pg_server::server() else {
        return;
    };
    let url = server.database();
    drop(Journal::open_shared(&url, Some(pg_server::PASSWORD)).unwrap());
    let db = url.rsplit('/').next().unwrap();
    server.psql(db, "INSERT INTO journal_layout (version) VALUES (99)");
    match Journal::open_shared(&url, Some(pg_server::PASSWORD)) {
        Err(JournalError::TooNew { found: 99, .. }) => {}
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("a newer layout was opened"),
    }
}

/// Activity's search finds a clerk's entries by who wrote them (on a desk's shared
/// journal: "ana@PC-CAJA-2").
#[test]
fn entries_are_found_by_who_wrote_them() {
    on_both(|place, mut j| {
        j.record_intent(Action::Create, &intent("cus_q", "10"))
            .unwrap();
        let who = j.who().to_string();
        let by = |text: &str| {
            let f = Filter {
                text: Some(text.into()),
                ..Filter::default()
            };
            j.count(&f).unwrap()
        };
        assert_eq!(by(&who), 1, "{}", place.name());
        assert_eq!(by("nadie-con-este-nombre"), 0, "{}", place.name());
    });
}

/// Two clerks checking the same unknown entry record what they found once: the second
/// check finds it settled and writes nothing.
#[test]
fn a_checks_result_is_recorded_once() {
    on_both(|place, mut j| {
        let seq = j
            .record_intent(Action::Create, &intent("cus_k", "10"))
            .unwrap();
        let found = Settled {
            checked: true,
            ..Settled::done(Some("in_k".into()))
        };
        assert!(
            j.record_checked(seq, &found).unwrap().is_some(),
            "{}",
            place.name()
        );
        let mut other = place.open();
        assert_eq!(
            other.record_checked(seq, &found).unwrap(),
            None,
            "{}",
            place.name()
        );
        // Intent and one outcome: two rows.
        assert_eq!(j.verify().unwrap(), Ok(2), "{}", place.name());
        assert_eq!(
            j.entry(seq).unwrap().unwrap().invoice_id.as_deref(),
            Some("in_k")
        );
    });
}

#[test]
fn entries_carry_the_clerks_name_and_are_filtered_by_clerk() {
    on_both(|place, mut j| {
        j.record_intent(Action::Create, &intent("cus_a", "1000"))
            .unwrap();
        // A colleague, under a display name (hostile characters taken out).
        let mut other = place.open();
        other.set_clerk_name("  Ana\u{202e} (Pérez)\n ");
        assert!(other.who().starts_with("Ana Pérez ("), "{}", other.who());
        other
            .record_intent(Action::Create, &intent("cus_b", "2000"))
            .unwrap();
        other
            .record_intent(Action::Create, &intent("cus_c", "3000"))
            .unwrap();
        let clerks = j.clerks(10).unwrap();
        assert_eq!(clerks.len(), 2, "{}: {clerks:?}", place.name());
        assert!(clerks.contains(&other.who().to_string()));
        let hers = Filter {
            user: Some(other.who().to_string()),
            ..Filter::default()
        };
        assert_eq!(j.count(&hers).unwrap(), 2, "{}", place.name());
        let listed = j.list(&hers, true, 0, 10).unwrap();
        assert!(listed.iter().all(|e| e.user == other.who()));
        let mine = Filter {
            user: Some(j.who().to_string()),
            ..Filter::default()
        };
        assert_eq!(j.count(&mine).unwrap(), 1, "{}", place.name());
        // An empty name changes nothing.
        let mut plain = place.open();
        let before = plain.who().to_string();
        plain.set_clerk_name(" \u{7} ");
        assert_eq!(plain.who(), before);
    });
}

mod writers;

/// The CMF's word on a file's journal: a CMF value contradicting the kept CMF value
/// replaces it, a CMF value beside a differing file value is kept and used; both are
/// recorded in `uf_corrections` with the value they contradicted.
#[test]
fn a_value_the_cmf_contradicts_is_replaced_and_recorded() {
    let (_d, mut j) = open();
    let day = |d: u32| chrono::NaiveDate::from_ymd_opt(2026, 11, d).unwrap();
    let v = |s: &str| s.parse::<rust_decimal::Decimal>().unwrap();
    let month: Vec<_> = (1..=5)
        .map(|d| (day(d), v("39600") + v("4") * rust_decimal::Decimal::from(d)))
        .collect();
    j.put_uf_values(&month, "CMF", false).unwrap();
    j.put_uf_values(&[(day(7), v("39640.00"))], "uf.xlsx", true)
        .unwrap();
    let said = j
        .put_uf_values(
            &[(day(3), v("39620.00")), (day(7), v("39629.00"))],
            "CMF",
            false,
        )
        .unwrap();
    assert_eq!(
        said.each[0].1,
        UfPut::Corrected {
            was: v("39612"),
            by: Some(os_user())
        }
    );
    assert!(matches!(&said.each[1].1, UfPut::Differs { source, .. } if source == "uf.xlsx"));
    let kept = j.uf_values(day(3), day(7)).unwrap();
    assert_eq!(kept[0].value, v("39620.00"));
    assert_eq!(kept.iter().find(|k| k.day == day(7)).unwrap().source, "CMF");
    let c = j.uf_corrections(day(1), day(30)).unwrap();
    assert_eq!(c.len(), 2);
    assert_eq!((c[0].old_value, c[0].new_value), (v("39612"), v("39620")));
    assert_eq!(
        (c[1].source.as_str(), c[1].old_value),
        ("uf.xlsx", v("39640"))
    );
}
