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
        invoice_id: None,
        file_name: None,
    }
}

/// A new journal in a temporary folder (kept while the folder lives).
pub(super) fn open() -> (tempfile::TempDir, Journal) {
    let dir = tempfile::tempdir().unwrap();
    let j = Journal::open(&dir.path().join("j.sqlite3")).unwrap();
    (dir, j)
}

#[test]
fn intents_outcomes_and_the_listing() {
    let (_d, mut j) = open();
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
    let (_d, mut j) = open();
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
        .pragma_update(None, "user_version", 9)
        .unwrap();
    let err = Journal::open(&path).err().unwrap();
    assert!(
        matches!(err, JournalError::TooNew { found: 9, .. }),
        "{err}"
    );
}

#[test]
fn concurrent_writers_lose_nothing_and_keep_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.sqlite3");
    Journal::open(&path).unwrap();
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut j = Journal::open(&path).unwrap();
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
    let j = Journal::open(&path).unwrap();
    assert_eq!(j.verify().unwrap(), Ok(400));
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
