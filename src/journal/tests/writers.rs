//! The journal's writers: grouped commits, the writer thread, colleagues alive or
//! gone, the server's stamps and chains, and the two stores kept alike.

use super::*;

/// A grouped write that sends its result where the test can read it.
fn grouped<R: Send + 'static>(
    durable: bool,
    f: impl FnOnce(&mut Journal) -> Result<R, JournalError> + Send + 'static,
    out: std::sync::mpsc::Sender<Result<R, JournalError>>,
) -> store::GroupedWrite {
    store::GroupedWrite::new(durable, f, move |r| {
        let _ = out.send(r);
    })
}

#[test]
fn a_group_commits_its_writes_in_one_transaction_and_a_failing_one_is_undone_alone() {
    let (dir, mut j) = open();
    let (tx, rx) = std::sync::mpsc::channel();
    let (bad_tx, bad_rx) = std::sync::mpsc::channel();
    let claim = |c: &'static str| {
        move |j: &mut Journal| j.claim(Action::Create, &intent(c, "100"), &Guard::default())
    };
    let writes = vec![
        grouped(true, claim("cus_a"), tx.clone()),
        // Its outcome names no intent: refused inside the group, undone alone.
        grouped(
            false,
            |j| j.record_outcome(9_999, &Settled::done(None)),
            bad_tx,
        ),
        grouped(true, claim("cus_b"), tx),
    ];
    let synced = j.commit_together(writes);
    assert!(synced.is_some(), "one synced commit for the group");
    let claimed: Vec<_> = rx.iter().map(|r| self::claimed(r.unwrap())).collect();
    assert_eq!(claimed.len(), 2);
    assert!(bad_rx.recv().unwrap().is_err());
    // Another connection sees both intents, and the chain holds.
    let other = Journal::open(&dir.path().join("j.sqlite3")).unwrap();
    for (seq, c) in claimed.iter().zip(["cus_a", "cus_b"]) {
        let e = other.entry(*seq).unwrap().unwrap();
        assert_eq!(e.customer.as_deref(), Some(c));
        assert_eq!(e.outcome, Outcome::Unknown);
    }
    assert_eq!(other.verify().unwrap(), Ok(2));
    // The same reference claimed twice in one group: the second finds the first.
    let (tx, rx) = std::sync::mpsc::channel();
    j.commit_together(vec![
        grouped(true, claim("cus_c"), tx.clone()),
        grouped(true, claim("cus_c"), tx),
    ]);
    let got: Vec<_> = rx.iter().map(Result::unwrap).collect();
    assert!(matches!(got[0], Claimed::Claimed(_)), "{got:?}");
    assert!(matches!(got[1], Claimed::Pending(_)), "{got:?}");
}

/// The journal's writer thread ([`group::Group::serve`]): 64 tasks claiming at once
/// are each told their own claim, every one committed (another connection sees it); a
/// write that panics fails its caller and every later one (the journal is left
/// half-written), and none of them hangs: the writer outlives the panic. A write handed
/// over whose caller stopped waiting is committed by the time the last handle is gone.
#[test]
fn the_journals_writer_commits_many_tasks_claims_and_outlives_a_panicking_write() {
    use futures_util::FutureExt;
    let (dir, j) = open();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let shared = SharedJournal::new(j);
    let claim = |i: usize| {
        move |j: &mut Journal| {
            j.claim(
                Action::Create,
                &intent(&format!("cus_{i}"), "100"),
                &Guard::default(),
            )
        }
    };
    let seqs = rt.block_on(async {
        let tasks: Vec<_> = (0..64)
            .map(|i| {
                let s = shared.clone();
                tokio::spawn(async move { s.write_together(Write::Intent, claim(i)).await })
            })
            .collect();
        let mut seqs = Vec::new();
        for t in tasks {
            seqs.push(claimed(t.await.unwrap().unwrap()));
        }
        seqs
    });
    let mut distinct = seqs.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 64, "each task its own claim: {seqs:?}");
    let other = Journal::open(&dir.path().join("j.sqlite3")).unwrap();
    for (i, seq) in seqs.iter().enumerate() {
        let e = other.entry(*seq).unwrap().unwrap();
        assert_eq!(e.customer.as_deref(), Some(format!("cus_{i}").as_str()));
    }
    // An outcome handed over by a caller that stopped waiting at once.
    let last = seqs[63];
    let left = shared.write_together(Write::Outcome, move |j| {
        j.record_outcome(last, &Settled::done(Some("inv_left".into())))
    });
    let _ = left.now_or_never();
    drop(shared);
    let e = other.entry(last).unwrap().unwrap();
    assert_eq!(e.outcome, Outcome::Done);
    assert_eq!(e.invoice_id.as_deref(), Some("inv_left"));
    let shared = SharedJournal::new(Journal::open(&dir.path().join("j.sqlite3")).unwrap());
    let limit = std::time::Duration::from_secs(30);
    rt.block_on(async {
        let panicked = tokio::time::timeout(
            limit,
            shared.write_together(Write::Intent, |_| -> Result<(), JournalError> {
                panic!("a write stopped half-way (on purpose)")
            }),
        )
        .await
        .expect("the caller of a panicking write is told");
        assert!(panicked.is_err());
        let seq = seqs[0];
        let after = tokio::time::timeout(
            limit,
            shared.write_together(Write::Outcome, move |j| {
                j.record_outcome(seq, &Settled::done(None))
            }),
        )
        .await
        .expect("a write after the panic is told");
        assert!(after.is_err(), "a half-written journal takes nothing more");
    });
}

/// A colleague's computer that died in the middle of a claim (its transaction open, the
/// reference's key taken): another clerk claiming the same reference waits at most the
/// lock limit, is told who holds it, and once the server has ended the dead write
/// (idle-in-transaction limit) the claim goes through. Nothing waits for ever.
#[cfg(unix)]
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_dead_colleagues_open_claim_is_named_within_seconds_and_ended_by_the_server() {
    let Some(server) = pg_server::server() else {
        return;
    };
    let place = Place::Shared(server.database());
    let holder = place.open();
    let reference = create("https://api.example.cl", "cus_d", "10", "DEAD-1", None);
    // The holder's claim, as `claim_in` makes it, left uncommitted: the laptop's lid
    // closed between the claim and the commit.
    holder.raw(&format!(
        "BEGIN;
         SELECT journal_append('intent', NULL, 'beto', 'p', 'https://api.example.cl', 'create',
           'cus_d', '10', NULL, NULL, 'DEAD-1', NULL, NULL, NULL, NULL, NULL, NULL, false,
           '{0}', NULL, NULL, NULL);
         SELECT journal_claim('{0}', 'DEAD-1', currval(pg_get_serial_sequence('entries', 'seq')),
           NULL, false);",
        reference.service.replace('\'', "''")
    ));
    let mut waiting = place.open();
    let began = std::time::Instant::now();
    let said = waiting
        .claim(Action::Create, &reference, &Guard::default())
        .expect_err("a claim held by an open write is not taken");
    let waited = began.elapsed();
    assert_eq!(said.trouble(), Trouble::Busy, "{said}");
    assert!(
        waited >= super::pg::LOCK_WAIT && waited < super::pg::LOCK_WAIT * 3,
        "told after {waited:?}"
    );
    // Who: the holder's program names its writer, the server its role.
    assert!(said.reason().contains(&host_name()), "{}", said.reason());
    let Place::Shared(url) = &place else {
        unreachable!()
    };
    let owner = pg_server::Server::owner_of(url.rsplit('/').next().unwrap());
    assert!(
        said.reason().contains(&format!("role {owner}")),
        "{}",
        said.reason()
    );
    // The server ends the dead write; the claim then goes through (bounded).
    let claimed_at = loop {
        match waiting.claim(Action::Create, &reference, &Guard::default()) {
            Ok(Claimed::Claimed(seq)) => break seq,
            Ok(other) => panic!("the dead write's claim survived: {other:?}"),
            Err(e) if e.trouble() == Trouble::Busy => {
                assert!(began.elapsed() < std::time::Duration::from_secs(40), "{e}");
            }
            Err(e) => panic!("{e}"),
        }
    };
    assert!(began.elapsed() < std::time::Duration::from_secs(30));
    // The dead write left nothing: one intent, the live one's, and an intact journal.
    let all = waiting.list(&Filter::default(), true, 0, 10).unwrap();
    assert_eq!(all.len(), 1, "{all:?}");
    assert_eq!(all[0].seq, claimed_at);
    assert_eq!(waiting.verify().unwrap(), Ok(1));
}

/// Whether a claim's writer is still connected is the server's word (its session holds
/// the writer's advisory lock, read in `pg_locks` by any role): alive while its journal is
/// open, gone once it is closed (a killed program's connection ends the same way). A
/// file cannot tell, and never says alive.
#[cfg(unix)]
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_claims_writer_is_known_alive_only_while_it_is_connected() {
    let Some(server) = pg_server::server() else {
        return;
    };
    let place = Place::Shared(server.database());
    let mut sender = place.open();
    let reference = create("https://api.example.cl", "cus_w", "10", "ALIVE-1", None);
    let Claimed::Claimed(seq) = sender
        .claim(Action::Create, &reference, &Guard::default())
        .unwrap()
    else {
        panic!("not claimed")
    };
    let colleague = place.open();
    assert!(colleague.writer_alive(seq).unwrap());
    drop(sender);
    let started = std::time::Instant::now();
    while colleague.writer_alive(seq).unwrap() {
        assert!(started.elapsed() < std::time::Duration::from_secs(30));
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let (_dir, mut file) = open();
    let Claimed::Claimed(seq) = file
        .claim(Action::Create, &reference, &Guard::default())
        .unwrap()
    else {
        panic!("not claimed")
    };
    assert!(!file.writer_alive(seq).unwrap());
}

/// The shared journal's server numbers and stamps every row: its time is the server's
/// clock, its role the database role that wrote it; each connection writes a chain of
/// its own, so concurrent clerks never wait on one lock.
#[cfg(unix)]
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn the_server_stamps_each_row_and_each_writer_keeps_a_chain_of_its_own() {
    let Some(server) = pg_server::server() else {
        return;
    };
    let place = Place::Shared(server.database());
    let mut a = place.open();
    let mut b = place.open();
    for i in 0..3 {
        let s = a
            .record_intent(Action::Create, &intent(&format!("cus_a{i}"), "10"))
            .unwrap();
        b.record_intent(Action::Create, &intent(&format!("cus_b{i}"), "10"))
            .unwrap();
        assert!(a.age(s).unwrap() < chrono::Duration::seconds(30));
    }
    let Place::Shared(url) = &place else {
        unreachable!()
    };
    let db = url.rsplit('/').next().unwrap();
    let stamped = server.psql(
        db,
        &format!(
            "SELECT count(DISTINCT writer), bool_and(db_user = '{}'),
                    bool_and(abs(extract(epoch FROM server_time - now())) < 600)
             FROM entries",
            pg_server::Server::owner_of(db)
        ),
    );
    assert_eq!(stamped.trim(), "2|t|t");
    assert_eq!(a.verify().unwrap(), Ok(6));
    // A row removed from the end of one writer's chain is found.
    a.raw("DELETE FROM entries WHERE seq = (SELECT max(seq) FROM entries)");
    let broken = a.verify().unwrap().unwrap_err();
    assert!(broken.why.contains("removed"), "{}", broken.why);
}

/// The two stores' layouts are written twice (schema.rs's migrations for SQLite, pg/layout.rs's
/// layout for PostgreSQL): every table they share has the same columns in the same
/// order, and the journal's own tables are in both.
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn both_stores_have_the_same_tables_and_columns() {
    use std::collections::BTreeMap;
    let places = places();
    if places.len() < 2 {
        // No PostgreSQL here (pg_server says so loudly on Linux).
        return;
    }
    let columns = |p: &Place| -> BTreeMap<String, Vec<String>> {
        let j = p.open();
        let sql = match p {
            Place::File(_) => {
                "SELECT m.name, c.name FROM sqlite_master m, pragma_table_info(m.name) c \
                 WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, c.cid"
            }
            Place::Shared(_) => {
                "SELECT table_name::text, column_name::text FROM information_schema.columns \
                 WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
            }
        };
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for row in j.db().query(sql, &[]).unwrap() {
            out.entry(row.text(0).unwrap())
                .or_default()
                .push(row.text(1).unwrap());
        }
        out
    };
    let lite = columns(&places[0]);
    let mut pg = columns(&places[1]);
    // What only a desk's server keeps, stamped by the server (a clerk's computer is not
    // believed about who it is or what time it is): when the server wrote an entry and
    // which writer's chain it is in, which database role started a billing run or last
    // changed a customer.
    for (table, column) in [
        ("entries", "server_time"),
        ("entries", "writer"),
        ("bulk_runs", "started_by"),
        ("customers", "updated_by"),
    ] {
        let cols = pg.get_mut(table).unwrap();
        assert!(cols.iter().any(|c| c == column), "{table}.{column}");
        cols.retain(|c| c != column);
    }
    for table in ["entries", "claims", "customers", "bulk_runs", "uf_values"] {
        assert!(lite.contains_key(table), "SQLite has no {table}: {lite:?}");
        assert!(pg.contains_key(table), "PostgreSQL has no {table}: {pg:?}");
    }
    for (table, cols) in &lite {
        if let Some(other) = pg.get(table) {
            assert_eq!(cols, other, "the columns of {table}");
        }
    }
}

#[test]
fn what_changed_after_a_point_is_listed_on_both_stores() {
    // The search index reads only what was written, or given an outcome, since it last
    // read: an intent settled later must come back, one untouched must not.
    on_both(|place, mut j| {
        let a = j
            .record_intent(Action::Create, &intent("cus_a", "1"))
            .unwrap();
        let b = j
            .record_intent(Action::Create, &intent("cus_b", "2"))
            .unwrap();
        j.record_outcome(b, &Settled::done(Some("in_b".into())))
            .unwrap();
        let (mark, first) = j.last_seq().unwrap();
        assert!(!first.is_empty(), "{}", place.name());
        j.record_outcome(a, &Settled::done(Some("in_a".into())))
            .unwrap();
        let c = j
            .record_intent(Action::Create, &intent("cus_c", "3"))
            .unwrap();
        let changed = Filter {
            changed_after: Some(mark),
            ..Filter::default()
        };
        let seqs: Vec<i64> = j
            .list(&changed, false, 0, 100)
            .unwrap()
            .iter()
            .map(|e| e.seq)
            .collect();
        assert_eq!(seqs, [a, c], "{}", place.name());
        assert_eq!(j.last_seq().unwrap(), (c, first), "{}", place.name());
    });
}

/// A colleague's write still open that taught the directory a new customer (its
/// transaction not committed yet) never undoes an intent for the same customer here: the
/// directory is taught after the intent's commit, on its own (#71: 8 to 32 clerks on one
/// file stopped, "the journal cannot be written", their groups waiting on each other's
/// new customers until a lock timeout or a deadlock).
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_colleagues_open_lesson_of_a_new_customer_never_undoes_an_intent() {
    let Some(server) = pg_server::server() else {
        return;
    };
    let place = Place::Shared(server.database());
    let colleague = place.open();
    colleague.raw("BEGIN; SELECT journal_customer_learn('cus_new', 'cus_new');");
    let mut here = place.open();
    let reference = create("https://api.example.cl", "cus_new", "10", "NEW-1", None);
    let claimed = here
        .claim(Action::Create, &reference, &Guard::default())
        .expect("the intent is claimed");
    let Claimed::Claimed(seq) = claimed else {
        panic!("{claimed:?}")
    };
    colleague.raw("COMMIT;");
    let e = here.entry(seq).unwrap().unwrap();
    assert_eq!(e.customer.as_deref(), Some("cus_new"));
    assert!(here.customer("cus_new").unwrap().is_some());
    assert_eq!(here.verify().unwrap(), Ok(1));
}

/// A claim rehearsed on the desk's journal (a create's command does it while the token is
/// fetched) leaves no row and no claim, and warms what the real claim then runs: that
/// claim prepares no statement of its own, and the chain holds.
#[cfg(unix)]
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_rehearsed_claim_leaves_nothing_and_warms_the_real_one() {
    let Some(server) = pg_server::server() else {
        return;
    };
    let place = Place::Shared(server.database());
    let mut j = place.open();
    let store::Store::Shared(pg) = &j.store else {
        unreachable!()
    };
    let before = pg.statements_prepared();
    j.rehearse_claim();
    let store::Store::Shared(pg) = &j.store else {
        unreachable!()
    };
    let warmed = pg.statements_prepared();
    assert!(warmed > before, "the rehearsal ran nothing");
    let reference = create("https://api.example.cl", "cus_r", "10", "REH-1", None);
    let seq = claimed(
        j.claim(Action::Create, &reference, &Guard::default())
            .unwrap(),
    );
    let store::Store::Shared(pg) = &j.store else {
        unreachable!()
    };
    assert_eq!(
        pg.statements_prepared(),
        warmed,
        "the claim prepared statements of its own"
    );
    let of = reference.outcome_of(Action::Create);
    j.record_answer(seq, of, &Settled::done(Some("in_r1".into())))
        .unwrap();
    let store::Store::Shared(pg) = &j.store else {
        unreachable!()
    };
    assert_eq!(
        pg.statements_prepared(),
        warmed,
        "the outcome prepared statements of its own"
    );
    // What stays is the real claim's: its intent and outcome, one claim, one customer.
    let all = j.list(&Filter::default(), true, 0, 10).unwrap();
    assert_eq!(all.len(), 1, "{all:?}");
    assert_eq!(all[0].seq, seq);
    assert_eq!(all[0].outcome, Outcome::Done);
    assert_eq!(j.verify().unwrap(), Ok(2));
    let Place::Shared(url) = &place else {
        unreachable!()
    };
    let db = url.rsplit('/').next().unwrap();
    assert_eq!(server.psql(db, "SELECT count(*) FROM claims"), "1");
    assert_eq!(
        server.psql(db, "SELECT string_agg(id, ',') FROM customers"),
        "cus_r"
    );
    // A file's journal has nothing to rehearse, and is left as it was.
    let (_dir, file) = open();
    file.rehearse_claim();
    assert!(
        file.list(&Filter::default(), true, 0, 10)
            .unwrap()
            .is_empty()
    );
}

/// On the desk's journal, as on a file, an outcome's commit does not wait for the
/// server's disk (lost in a crash, its intent is "to check", never sent again), an
/// intent's does; the session's own setting is left as it was.
#[cfg(unix)]
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn an_outcome_on_the_desks_journal_does_not_wait_for_the_disk_an_intent_does() {
    let Some(server) = pg_server::server() else {
        return;
    };
    let mut j = Place::Shared(server.database()).open();
    let setting = |j: &mut Journal, durable: bool| {
        j.write_synced(durable, |tx| {
            tx.one("SELECT current_setting('synchronous_commit')", &[])?
                .unwrap()
                .text(0)
        })
        .unwrap()
    };
    assert_eq!(setting(&mut j, false), "off");
    assert_eq!(setting(&mut j, true), "on");
    assert_eq!(setting(&mut j, false), "off");
    let after = j
        .db()
        .one("SELECT current_setting('synchronous_commit')", &[]);
    assert_eq!(after.unwrap().unwrap().text(0).unwrap(), "on");
}

/// A check's result found settled by the server at its append (the writer's own answer
/// committed between the check's read of the latest outcome and its row: a colleague's
/// billing run checking a row still on its way) is a check that came second, recorded
/// nowhere, as when its read saw it settled: not a journal that cannot be written (which
/// stopped a clerk's run of four sharing a file).
#[cfg(unix)]
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_check_whose_entry_is_settled_meanwhile_records_nothing_and_fails_nothing() {
    let Some(server) = pg_server::server() else {
        return;
    };
    let place = Place::Shared(server.database());
    let mut sender = place.open();
    let reference = create("https://api.example.cl", "cus_s", "10", "RACE-1", None);
    let seq = claimed(
        sender
            .claim(Action::Create, &reference, &Guard::default())
            .unwrap(),
    );
    // The checker has a writer of its own (a row of its own), which a third session
    // holds: its check's append waits there, after its read saw the entry unknown.
    let mut checker = place.open();
    let own = checker
        .record_intent(Action::Create, &intent("cus_t", "11"))
        .unwrap();
    let Place::Shared(url) = &place else {
        unreachable!()
    };
    let db = url.rsplit('/').next().unwrap().to_string();
    let writer = server.psql(
        &db,
        &format!("SELECT writer FROM entries WHERE seq = {own}"),
    );
    let holder = place.open();
    holder.raw(&format!(
        "BEGIN; SELECT 1 FROM writers WHERE id = {writer} FOR UPDATE;"
    ));
    let checking = std::thread::spawn(move || {
        let found = Settled {
            checked: true,
            ..Settled::done(Some("in_s".into()))
        };
        checker.record_checked(seq, &found)
    });
    // Until the check waits on the writer's row (bounded).
    let began = std::time::Instant::now();
    while server.psql(
        &db,
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'",
    ) == "0"
    {
        assert!(began.elapsed() < std::time::Duration::from_secs(20));
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // The sender's own answer, committed meanwhile; then the check goes on.
    let of = reference.outcome_of(Action::Create);
    sender
        .record_answer(seq, of, &Settled::done(Some("in_s".into())))
        .unwrap();
    holder.raw("COMMIT;");
    let checked = checking.join().unwrap();
    assert_eq!(checked.unwrap(), None, "the check came second");
    let e = sender.entry(seq).unwrap().unwrap();
    assert_eq!(e.outcome, Outcome::Done);
    assert!(!e.checked, "the sender's answer settled it");
    // Two intents and one outcome: the check wrote nothing.
    assert_eq!(sender.verify().unwrap(), Ok(3));
}
