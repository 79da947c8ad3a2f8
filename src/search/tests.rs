use super::*;
use crate::journal::{Intent, Settled};
use chrono::TimeZone;

const URL: &str = "https://api.example.cl";

fn journal() -> (tempfile::TempDir, Journal) {
    let dir = tempfile::tempdir().unwrap();
    let j = Journal::open(&dir.path().join("journal.sqlite3")).unwrap();
    (dir, j)
}

/// Records a create that the service answered with `id`.
fn created(j: &mut Journal, url: &str, id: &str, customer: &str, amount: &str, reference: &str) {
    let seq = j
        .record_intent(
            Action::Create,
            &Intent {
                profile: "p".into(),
                base_url: identity::canonical_url(url),
                customer: Some(customer.into()),
                amount: Some(amount.into()),
                currency_code: Some(if amount.contains('.') { "CLF" } else { "CLP" }.into()),
                external_id: Some(reference.into()),
                due_date: Some("2026-12-31".into()),
                service: format!("{url}#test"),
                ..Intent::default()
            },
        )
        .unwrap();
    j.record_outcome(seq, &Settled::done(Some(id.into())))
        .unwrap();
}

fn voided(j: &mut Journal, id: &str) {
    let seq = j
        .record_intent(
            Action::Void,
            &Intent::for_void("p", URL, None, id, Some("cus_1".into())),
        )
        .unwrap();
    j.record_outcome(seq, &Settled::done(Some(id.into())))
        .unwrap();
}

fn ids(a: &Answer) -> Vec<&str> {
    a.invoices.iter().map(|h| h.id.as_str()).collect()
}

fn at(minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 26, 12, minute, 0).unwrap()
}

fn listed(id: &str, customer: &str, status: Status, minute: u32) -> Seen {
    Seen {
        id: id.into(),
        customer: Some(customer.into()),
        reference: None,
        amount: Some(Decimal::from(1_341_000)),
        currency: Some("CLP".into()),
        status,
        due: NaiveDate::from_ymd_opt(2026, 12, 1),
        at: at(minute),
        from: Source::Listing,
    }
}

#[test]
fn the_journals_invoices_are_found_by_id_reference_amount_name_and_rut() {
    let (_d, mut j) = journal();
    j.import_customers(&[Customer {
        id: "cus_1".into(),
        name: Some("Comercial Ñuñoa Ltda.".into()),
        rut: Some("76.123.456-0".into()),
        ..Customer::default()
    }])
    .unwrap();
    created(
        &mut j,
        URL,
        "in_aaa111",
        "cus_1",
        "1341000",
        "FAC-2026-0042",
    );
    created(&mut j, URL, "in_bbb222", "cus_2", "23.193", "FAC-2026-0043");
    // The same reference at another service is another invoice: never shown here.
    created(
        &mut j,
        "http://127.0.0.1:9",
        "in_ccc333",
        "cus_1",
        "5000",
        "FAC-2026-0042",
    );
    let mut index = Index::open_in_memory().unwrap();
    let service = service_of(URL);
    let find = |index: &mut Index, text: &str| find(&j, index, &service, text).unwrap();

    assert_eq!(ids(&find(&mut index, "in_aaa111")), ["in_aaa111"]);
    assert_eq!(ids(&find(&mut index, "FAC-2026-0042")), ["in_aaa111"]);
    // Part of a reference, in any case.
    assert_eq!(
        ids(&find(&mut index, "fac-2026")),
        ["in_bbb222", "in_aaa111"]
    );
    assert_eq!(ids(&find(&mut index, "1.341.000")), ["in_aaa111"]);
    assert_eq!(ids(&find(&mut index, "$1.341.000")), ["in_aaa111"]);
    assert_eq!(ids(&find(&mut index, "UF 23,193")), ["in_bbb222"]);
    assert_eq!(ids(&find(&mut index, "23,1930 UF")), ["in_bbb222"]);
    // An amount in the other currency is not the same amount.
    assert!(find(&mut index, "UF 1.341.000").invoices.is_empty());
    // A name without its accents, a RUT without its dots: the customer and its invoices.
    let nunoa = find(&mut index, "nunoa");
    assert_eq!(nunoa.customers[0].id, "cus_1");
    assert_eq!(ids(&nunoa), ["in_aaa111"]);
    assert_eq!(
        nunoa.invoices[0].customer_name.as_deref(),
        Some("Comercial Ñuñoa Ltda.")
    );
    assert_eq!(ids(&find(&mut index, "76123456-0")), ["in_aaa111"]);
    let hit = &find(&mut index, "in_aaa111").invoices[0];
    assert_eq!(hit.status, Status::Issued);
    assert_eq!(hit.amount, Some(Decimal::from(1_341_000)));
    assert_eq!(hit.due, NaiveDate::from_ymd_opt(2026, 12, 31));
    assert_eq!(hit.freshest().0, Source::Journal);
    // An id nothing here knows: the service may.
    let unknown = find(&mut index, "in_zzz999");
    assert!(unknown.invoices.is_empty() && unknown.ask_service);
    assert!(!find(&mut index, "in_aaa111").ask_service);
    assert!(!find(&mut index, "1.341.000").ask_service);
    // A name: its customers, never an offer to look "nunoa" up as an invoice id.
    assert!(!find(&mut index, "nunoa").ask_service);
}

#[test]
fn what_the_journal_writes_next_is_found_at_once_and_a_void_is_said() {
    let (_d, mut j) = journal();
    let mut index = Index::open_in_memory().unwrap();
    let service = service_of(URL);
    assert!(
        find(&j, &mut index, &service, "in_new1")
            .unwrap()
            .invoices
            .is_empty()
    );
    created(&mut j, URL, "in_new1", "cus_1", "1000", "R-1");
    let hit = find(&j, &mut index, &service, "in_new1").unwrap().invoices;
    assert_eq!(hit[0].status, Status::Issued);
    voided(&mut j, "in_new1");
    let hit = find(&j, &mut index, &service, "R-1").unwrap().invoices;
    assert_eq!(hit[0].status, Status::Void);
    // The void kept what the create said.
    assert_eq!(hit[0].amount, Some(Decimal::from(1000)));
    assert_eq!(index.len().unwrap(), 1);
}

#[test]
fn a_listing_brings_the_status_up_to_date_and_an_older_word_never_wins() {
    let (_d, j) = journal();
    let mut index = Index::open_in_memory().unwrap();
    let service = service_of(URL);
    index
        .put(&service, &[listed("in_1", "cus_1", Status::Open, 10)])
        .unwrap();
    let first = find(&j, &mut index, &service, "in_1").unwrap().invoices;
    assert_eq!(first[0].status, Status::Open);
    assert_eq!(first[0].freshest(), (Source::Listing, Some(at(10))));
    // Read again later: paid.
    index
        .put(&service, &[listed("in_1", "cus_1", Status::Paid, 20)])
        .unwrap();
    // A listing read before that one, kept late (a slow reader): not the newer word.
    index
        .put(&service, &[listed("in_1", "cus_1", Status::Open, 15)])
        .unwrap();
    let hit = find(&j, &mut index, &service, "in_1").unwrap().invoices;
    assert_eq!(hit[0].status, Status::Paid);
    // When it was seen is the latest listing's time, not the last one kept.
    assert_eq!(hit[0].listed, Some(at(20)));
}

#[test]
fn listing_a_customer_again_writes_no_words_unless_they_changed() {
    let (d, j) = journal();
    let path = d.path().join("search.sqlite3");
    let mut index = Index::open(&path).unwrap();
    assert_eq!(
        index.triggers(),
        ["invoices_ad", "invoices_ai", "invoices_words"]
    );
    let service = service_of(URL);
    let page = |minute, status| -> Vec<Seen> {
        (0..1_000)
            .map(|n| Seen {
                reference: Some(format!("REF-{n:04}")),
                ..listed(&format!("in_{n:04}"), "cus_1", status, minute)
            })
            .collect()
    };
    index.put(&service, &page(1, Status::Open)).unwrap();
    let written = index.text_rows();
    // The same listing later, some invoices paid since: the words are the same.
    index.put(&service, &page(2, Status::Paid)).unwrap();
    assert_eq!(
        index.text_rows(),
        written,
        "unchanged words were written again"
    );
    let hit = find(&j, &mut index, &service, "REF-0007").unwrap().invoices;
    assert_eq!(hit[0].status, Status::Paid);
    assert_eq!(hit[0].listed, Some(at(2)));
    // A reference that changed is found by its new words only.
    let mut changed = page(3, Status::Paid);
    changed[7].reference = Some("NUEVA-77".into());
    index.put(&service, &changed).unwrap();
    assert_eq!(
        ids(&find(&j, &mut index, &service, "NUEVA-77").unwrap()),
        ["in_0007"]
    );
    assert!(
        find(&j, &mut index, &service, "REF-0007")
            .unwrap()
            .invoices
            .is_empty()
    );
}

#[test]
fn the_index_is_bounded_and_forgets_what_was_seen_longest_ago() {
    let (_d, j) = journal();
    let mut index = Index::open_in_memory().unwrap().with_max_rows(3);
    let service = service_of(URL);
    for (n, minute) in [(1, 5), (2, 1), (3, 4), (4, 3), (5, 2)] {
        index
            .put(
                &service,
                &[listed(&format!("in_{n}"), "cus_1", Status::Open, minute)],
            )
            .unwrap();
    }
    assert_eq!(index.len().unwrap(), 3);
    let all = find(&j, &mut index, &service, "1.341.000").unwrap();
    let mut kept = ids(&all);
    kept.sort();
    assert_eq!(kept, ["in_1", "in_3", "in_4"]);
    // An id past 255 characters is not kept (never cut: #66).
    let long = format!("in_{}", "x".repeat(400));
    index
        .put(&service, &[listed(&long, "cus_1", Status::Open, 30)])
        .unwrap();
    let hit = find(&j, &mut index, &service, &long[..100])
        .unwrap()
        .invoices;
    assert!(hit.is_empty(), "{hit:?}");
}

/// The size the bound is held to is kept, not counted each time (#71): listed again
/// (updates only) it stays; a file made before it was kept is counted once, then kept.
#[test]
fn the_bound_holds_on_the_size_kept_and_a_file_made_before_is_counted_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("search.sqlite3");
    let service = service_of(URL);
    let put = |index: &mut Index, n: u32, minute: u32| {
        let seen: Vec<Seen> = (0..n)
            .map(|i| listed(&format!("in_{i}"), "cus_1", Status::Open, minute))
            .collect();
        index.put(&service, &seen).unwrap();
    };
    {
        let mut index = Index::open(&path).unwrap().with_max_rows(10);
        put(&mut index, 8, 1);
        put(&mut index, 8, 2);
        assert_eq!(index.len().unwrap(), 8, "the same 8 listed again");
    }
    // As a file made before the size was kept: the row gone.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("DROP TABLE invoices_size")
        .unwrap();
    let mut index = Index::open(&path).unwrap().with_max_rows(10);
    put(&mut index, 12, 3);
    assert_eq!(index.len().unwrap(), 10);
    let size: i64 = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row("SELECT n FROM invoices_size", [], |r| r.get(0))
        .unwrap();
    assert_eq!(size, 10);
}

#[test]
fn what_a_clerk_types_never_breaks_the_full_text_search() {
    let (_d, j) = journal();
    let mut index = Index::open_in_memory().unwrap();
    let service = service_of(URL);
    index
        .put(&service, &[listed("in_1", "cus_1", Status::Open, 1)])
        .unwrap();
    for text in [
        "\"",
        "a\"b OR *",
        "NEAR(in_1)",
        "in_1*",
        "- -",
        "((",
        "\u{1b}[2J",
        "%_\\",
        "^in",
        "ñ",
        "🙂🙂🙂",
        // Lower case of more characters than the letter ("i̇"): still one trigram.
        "İSTANBUL İİİ",
        "x".repeat(5_000).as_str(),
    ] {
        let a = find(&j, &mut index, &service, text).unwrap();
        assert!(a.text.chars().count() <= MAX_QUERY, "{text:?}");
    }
    assert!(
        find(&j, &mut index, &service, "   ")
            .unwrap()
            .invoices
            .is_empty()
    );
}

#[test]
fn a_damaged_index_is_started_again_and_a_new_journal_at_its_place_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("search.sqlite3");
    std::fs::write(
        &path,
        b"this is not a database, and it is long enough to look like one",
    )
    .unwrap();
    let mut index = Index::open(&path).unwrap();
    assert!(index.is_empty().unwrap());
    let service = service_of(URL);
    let journal_file = dir.path().join("journal.sqlite3");
    {
        let mut j = Journal::open(&journal_file).unwrap();
        created(&mut j, URL, "in_first", "cus_1", "1000", "R-1");
        assert_eq!(
            ids(&find(&j, &mut index, &service, "R-1").unwrap()),
            ["in_first"]
        );
    }
    // Another journal at the same place, as long as the first: read whole.
    std::fs::remove_file(&journal_file).unwrap();
    let mut j = Journal::open(&journal_file).unwrap();
    created(&mut j, URL, "in_other", "cus_1", "3000", "R-3");
    assert_eq!(
        ids(&find(&j, &mut index, &service, "R-3").unwrap()),
        ["in_other"]
    );
}

#[test]
fn amounts_are_read_the_chilean_way() {
    let d = |s: &str| s.parse::<Decimal>().unwrap();
    assert_eq!(amounts_in("1.341.000"), [(None, d("1341000"))]);
    assert_eq!(
        amounts_in("$ 1.341.000"),
        [(Some(Currency::CLP), d("1341000"))]
    );
    assert_eq!(
        amounts_in("UF 23,193"),
        [(Some(Currency::CLF), d("23.193"))]
    );
    // Thousands, or three decimals: both.
    assert_eq!(
        amounts_in("23.193"),
        [(None, d("23193")), (None, d("23.193"))]
    );
    assert!(amounts_in("FAC-2026").is_empty());
    assert!(amounts_in("0").is_empty());
    assert!(could_be_id("in_8f3a") && could_be_id("INV-2026-7"));
    for not_an_id in ["12345", "a b", "nunoa", "Ñuñoa", "in"] {
        assert!(!could_be_id(not_an_id), "{not_an_id}");
    }
}

#[test]
fn a_hundred_thousand_invoices_are_kept_and_found() {
    // The bound and the answer at the size the issue names; how fast is measured by
    // benches/search.rs, not here.
    let (d, j) = journal();
    let path = d.path().join("search.sqlite3");
    let mut index = Index::open(&path).unwrap();
    let service = service_of(URL);
    let seen: Vec<Seen> = (0..100_000)
        .map(|n| Seen {
            reference: Some(format!("REF-{n:06}")),
            ..listed(
                &format!("in_{n:08x}"),
                &format!("cus_{}", n % 500),
                Status::Open,
                1,
            )
        })
        .collect();
    index.put(&service, &seen).unwrap();
    assert_eq!(index.len().unwrap(), 100_000);
    // Its size on disk, its log included (#71: 1,088 bytes an invoice; benches/search.rs
    // measures it at 1,000,000 with the sandbox's longer ids).
    let on_disk: u64 = ["", "-wal"]
        .iter()
        .filter_map(|x| std::fs::metadata(format!("{}{x}", path.display())).ok())
        .map(|m| m.len())
        .sum();
    assert!(
        on_disk / 100_000 <= 250,
        "{} B an invoice",
        on_disk / 100_000
    );
    let a = find(&j, &mut index, &service, "REF-054321").unwrap();
    assert_eq!(ids(&a), ["in_0000d431"]);
    let many = find(&j, &mut index, &service, "1.341.000").unwrap();
    assert_eq!(many.invoices.len(), SHOWN);
    assert!(many.more);
}

#[cfg(target_os = "linux")]
#[test]
fn the_index_is_kept_in_the_background_on_a_thread_of_lower_priority() {
    use rustix::process::getpriority_process;
    use rustix::thread::gettid;
    let before = getpriority_process(Some(gettid())).unwrap();
    let lowered = std::thread::spawn(|| {
        lower_this_threads_priority();
        getpriority_process(Some(gettid())).unwrap()
    })
    .join()
    .unwrap();
    if before < BACKGROUND_NICE {
        assert_eq!(lowered, BACKGROUND_NICE);
    }
    assert_eq!(getpriority_process(Some(gettid())).unwrap(), before);
    // What it keeps is there once it is done (waited for, not slept on).
    let (d, j) = journal();
    let place = d.path().join("search.sqlite3");
    let seen = vec![listed("in_bg", "cus_1", Status::Open, 1)];
    keep_listed_in_background(Some(place.clone()), URL.into(), seen);
    let service = service_of(URL);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let mut index = Index::open(&place).unwrap();
        if ids(&find(&j, &mut index, &service, "in_bg").unwrap()) == ["in_bg"] {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "never kept");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The journal is never the index, whatever the names and links: a journal named like the
/// index is refused; a file at the index's place that is another database (the journal,
/// through a link) is neither written nor removed; a damaged file there is set aside, not
/// deleted — it may be someone's journal.
#[test]
fn the_index_never_writes_or_removes_a_journal_whatever_its_name_or_link() {
    let dir = tempfile::tempdir().unwrap();
    // A journal named like the index: refused before any file is made.
    let named = dir.path().join(crate::journal::INDEX_FILE);
    assert!(Journal::open(&named).is_err());
    assert!(!named.exists());
    // A journal of 200 entries, and the index's place a link to it.
    let journal_file = dir.path().join("journal.sqlite3");
    {
        let mut j = Journal::open(&journal_file).unwrap();
        for i in 0..100 {
            created(
                &mut j,
                URL,
                &format!("in_{i}"),
                "cus_1",
                "1000",
                &format!("R-{i}"),
            );
        }
    }
    #[cfg(unix)]
    {
        let bytes = std::fs::read(&journal_file).unwrap();
        std::os::unix::fs::symlink(&journal_file, &named).unwrap();
        let j = Journal::open(&journal_file).unwrap();
        let service = service_of(URL);
        match find_at(&j, Some(&named), &service, "R-1") {
            Err(SearchError::Index(index::IndexError::NotAnIndex(_))) => {}
            other => panic!("the journal was taken for the index: {other:?}"),
        }
        keep_listed(
            Some(&named),
            URL,
            &[listed("in_x", "cus_1", Status::Open, 1)],
        );
        drop(j);
        assert_eq!(std::fs::read(&journal_file).unwrap(), bytes, "written");
        assert_eq!(
            Journal::open(&journal_file).unwrap().verify().unwrap(),
            Ok(200)
        );
        // Its header damaged: the link is set aside, the journal's bytes are kept.
        let mut damaged = bytes.clone();
        damaged[..16].copy_from_slice(b"not a database!!");
        std::fs::write(&journal_file, &damaged).unwrap();
        let index = Index::open(&named).unwrap();
        assert!(index.is_empty().unwrap());
        assert_eq!(
            std::fs::read(&journal_file).unwrap(),
            damaged,
            "removed or written"
        );
        assert!(
            std::fs::symlink_metadata(dir.path().join("search.sqlite3.damaged"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }
    // A damaged file of its own is set aside too, never deleted.
    let other = tempfile::tempdir().unwrap();
    let place = other.path().join(crate::journal::INDEX_FILE);
    std::fs::write(
        &place,
        b"this is not a database, and it is long enough to look like one",
    )
    .unwrap();
    Index::open(&place).unwrap();
    assert!(other.path().join("search.sqlite3.damaged").exists());
}

/// #66 (9): an id or reference longer than the index keeps is never kept cut: two
/// long ids sharing their first 255 characters stay two (none of them opened by a cut
/// id), and a long reference is not kept in part.
#[test]
fn a_long_id_or_reference_is_never_kept_cut() {
    let (_d, j) = journal();
    let mut index = Index::open_in_memory().unwrap();
    let service = service_of(URL);
    let stem = "x".repeat(255);
    let (a, b) = (format!("in_{stem}a"), format!("in_{stem}b"));
    let mut long_ref = listed("in_short", "cus_1", Status::Open, 10);
    long_ref.reference = Some(format!("REF-{}", "9".repeat(300)));
    index
        .put(
            &service,
            &[
                listed(&a, "cus_1", Status::Open, 10),
                listed(&b, "cus_1", Status::Paid, 11),
                long_ref,
            ],
        )
        .unwrap();
    let found = find(&j, &mut index, &service, "cus_1").unwrap();
    for hit in &found.invoices {
        assert!(
            hit.id == a || hit.id == b || hit.id == "in_short",
            "a cut id: {}",
            hit.id.len()
        );
        assert!(
            hit.reference.as_ref().is_none_or(|r| r.len() > 300),
            "a cut reference"
        );
    }
}

/// Several openers of a new index file at once (the app's background keeper, a search,
/// the CLI): none is told "database is locked" while another makes or marks the file
/// (the wait for the other was set only after the file was checked as the index's own).
#[test]
fn openers_of_a_new_index_at_once_wait_for_each_other() {
    for round in 0..40 {
        let d = tempfile::tempdir().unwrap();
        let place = d.path().join("search.sqlite3");
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(6));
        let handles: Vec<_> = (0..6)
            .map(|i| {
                let (place, barrier) = (place.clone(), barrier.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    let mut index = Index::open(&place)?;
                    let id = format!("in_{i}");
                    index.put(URL, &[listed(&id, "cus_1", Status::Open, 1)])
                })
            })
            .collect();
        for h in handles {
            let r = h.join().unwrap();
            assert!(r.is_ok(), "round {round}: {r:?}");
        }
    }
}

/// A listing read again the same day writes no row that has no news (#71): when an
/// invoice was seen is kept to the day, so the bound forgets by day; news (a status, an
/// amount) is kept at once.
#[test]
fn a_listing_read_again_the_same_day_rewrites_nothing_but_news() {
    let (_d, j) = journal();
    let mut index = Index::open_in_memory().unwrap().with_max_rows(2);
    let service = service_of(URL);
    let day = 24 * 60;
    let put = |index: &mut Index, id: &str, status: Status, minute: i64| {
        let seen = Seen {
            at: Utc.with_ymd_and_hms(2026, 11, 26, 0, 0, 0).unwrap()
                + chrono::Duration::minutes(minute),
            ..listed(id, "cus_1", status, 0)
        };
        index.put(&service, &[seen]).unwrap();
    };
    let kept = |index: &mut Index| {
        let all = find(&j, index, &service, "1.341.000").unwrap();
        let mut kept: Vec<String> = ids(&all).into_iter().map(String::from).collect();
        kept.sort();
        kept
    };
    put(&mut index, "in_a", Status::Open, 0);
    put(&mut index, "in_b", Status::Open, 60);
    // A again the same day: still seen at 0 (nothing new), so it goes first.
    put(&mut index, "in_a", Status::Open, 120);
    put(&mut index, "in_c", Status::Open, 180);
    assert_eq!(kept(&mut index), ["in_b", "in_c"]);
    // B a day later: seen anew, so C goes first; and B's new status is kept.
    put(&mut index, "in_b", Status::Paid, day + 200);
    put(&mut index, "in_d", Status::Open, day + 300);
    assert_eq!(kept(&mut index), ["in_b", "in_d"]);
    // News the same day is kept at once: D's status, seen again an hour later.
    put(&mut index, "in_d", Status::Void, day + 360);
    let d = find(&j, &mut index, &service, "in_d").unwrap().invoices;
    assert_eq!(d.first().map(|h| h.status), Some(Status::Void), "{d:?}");
}

/// A file of the earlier layout (#71: words kept twice, times as text, 1,088 bytes an
/// invoice) is started again: its rows go, and what the journal knows is read into it
/// again at the next search, not from where the earlier file had read to.
#[test]
fn an_index_of_the_earlier_layout_is_started_again_and_the_journal_read_whole() {
    let (d, mut j) = journal();
    created(&mut j, URL, "in_journaled", "cus_1", "1000", "R-1");
    let path = d.path().join("search.sqlite3");
    {
        let old = rusqlite::Connection::open(&path).unwrap();
        old.execute_batch(
            "PRAGMA application_id = 1229214552;
             CREATE TABLE invoices (service TEXT NOT NULL, id TEXT NOT NULL, customer TEXT,
                 reference TEXT, amount TEXT, currency TEXT, status TEXT NOT NULL,
                 status_at TEXT NOT NULL, due TEXT, listed TEXT, journaled TEXT,
                 words TEXT NOT NULL, UNIQUE (service, id));
             CREATE VIRTUAL TABLE invoices_text USING fts5(words, content='invoices',
                 content_rowid='rowid', tokenize='trigram');
             CREATE TRIGGER invoices_ai AFTER INSERT ON invoices BEGIN
                 INSERT INTO invoices_text(rowid, words) VALUES (new.rowid, new.words);
             END;
             CREATE TABLE invoices_size (n INTEGER NOT NULL);
             INSERT INTO invoices_size VALUES (1);
             CREATE TABLE journals (place TEXT PRIMARY KEY, last_seq INTEGER NOT NULL);",
        )
        .unwrap();
        old.execute(
            "INSERT INTO invoices VALUES (?1, 'in_old', 'cus_1', 'VIEJA-1', '5', 'CLP', 'open',
                 '2026-11-01T00:00:00Z', '2026-12-01', '2026-11-01T00:00:00Z', NULL,
                 'in_old VIEJA-1 cus_1')",
            [service_of(URL)],
        )
        .unwrap();
        // It had read the journal to its end.
        let (last, first) = j.last_seq().unwrap();
        old.execute(
            "INSERT INTO journals VALUES (?1, ?2)",
            rusqlite::params![format!("{}#{first}", j.path().to_string_lossy()), last],
        )
        .unwrap();
    }
    let mut index = Index::open(&path).unwrap();
    assert_eq!(index.len().unwrap(), 0, "the earlier rows are dropped");
    let service = service_of(URL);
    assert!(
        find(&j, &mut index, &service, "VIEJA-1")
            .unwrap()
            .invoices
            .is_empty()
    );
    assert_eq!(
        ids(&find(&j, &mut index, &service, "R-1").unwrap()),
        ["in_journaled"]
    );
    let layout: i32 = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(layout, 2);
    drop(index);
    // Opened again: kept, not started again.
    let mut index = Index::open(&path).unwrap();
    assert_eq!(index.len().unwrap(), 1);
    assert_eq!(
        ids(&find(&j, &mut index, &service, "R-1").unwrap()),
        ["in_journaled"]
    );
}

/// A file a newer build laid out is never changed: the search says so and goes on with
/// the journal.
#[test]
fn an_index_of_a_newer_layout_is_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("search.sqlite3");
    drop(Index::open(&path).unwrap());
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch("PRAGMA user_version = 3; CREATE TABLE invoices_later (x);")
        .unwrap();
    drop(conn);
    let before = std::fs::read(&path).unwrap();
    match Index::open(&path) {
        Err(index::IndexError::Newer(p)) => assert_eq!(p, path),
        other => panic!("{:?}", other.map(|_| ())),
    }
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let text = crate::i18n::text_args_in(
        crate::i18n::Lang::Es,
        "search-index-newer",
        &[("path", path.display().to_string())],
    );
    assert!(text.contains("versión más nueva"), "{text}");
}

/// What a clerk types is found wherever it is in the id, reference or customer, in any
/// case (the full-text table holds only which rows have each trigram: the text itself is
/// then looked for in the row), and a row holding the same trigrams elsewhere is not.
#[test]
fn a_text_is_found_as_typed_in_any_case_and_never_by_its_trigrams_alone() {
    let (_d, j) = journal();
    let mut index = Index::open_in_memory().unwrap();
    let service = service_of(URL);
    let seen = |id: &str, reference: &str| Seen {
        reference: Some(reference.into()),
        ..listed(id, "cus_ñandú", Status::Open, 1)
    };
    index
        .put(
            &service,
            &[
                seen("in_1", "ÑANDÚ-2026-0042"),
                // The same trigrams as "2026-004", not that text.
                seen("in_2", "004-2026-00"),
                seen("in_3", "x%_y"),
                seen("in_4", "ab"),
            ],
        )
        .unwrap();
    let mut found = |text: &str| {
        let mut v: Vec<String> = ids(&find(&j, &mut index, &service, text).unwrap())
            .into_iter()
            .map(String::from)
            .collect();
        v.sort();
        v
    };
    assert_eq!(found("2026-004"), ["in_1"]);
    assert_eq!(found("ñandú-2026"), ["in_1"]);
    assert_eq!(found("ÑANDÚ-2026-0042"), ["in_1"]);
    assert_eq!(found("%_y"), ["in_3"]);
    assert_eq!(found("x_%"), Vec::<String>::new());
    // A reference too short for a trigram, exactly.
    assert_eq!(found("ab"), ["in_4"]);
    assert_eq!(found("CUS_Ñ"), ["in_1", "in_2", "in_3", "in_4"]);
}

/// At the bound, the rows forgotten to make room are a hundredth more than the excess: a
/// part of a listing read again the same day (its rows' time seen kept to the day, so
/// they are the least recently seen) comes back once, not at every reading, each time
/// forgetting as many of its own (#71: 1,000 of 20,000 rows written anew at every reading
/// at 1,000,000).
#[test]
fn at_the_bound_a_listing_read_again_the_same_day_is_added_back_once() {
    let mut index = Index::open_in_memory().unwrap().with_max_rows(1_000);
    let service = service_of(URL);
    let listing: Vec<Seen> = (0..1_000)
        .map(|n| listed(&format!("in_{n:04}"), "cus_1", Status::Open, 1))
        .collect();
    index.put(&service, &listing).unwrap();
    let later: Vec<Seen> = (0..5)
        .map(|n| listed(&format!("in_new{n}"), "cus_2", Status::Open, 2))
        .collect();
    index.put(&service, &later).unwrap();
    assert_eq!(index.len().unwrap(), 990, "5 over, and 10 more");
    let mut tops = Vec::new();
    for _ in 0..4 {
        index.put(&service, &listing[..100]).unwrap();
        tops.push(index.top_rowid());
        assert!(index.len().unwrap() <= 1_000);
    }
    assert!(
        tops.windows(2).all(|w| w[0] == w[1]),
        "rows added anew at each reading: {tops:?}"
    );
}

/// A put that alone holds more than the bound, every row of it seen again without news:
/// nothing else is left to forget, and the bound holds all the same.
#[test]
fn the_bound_holds_when_the_put_itself_is_all_that_is_left() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("search.sqlite3");
    let service = service_of(URL);
    let listing: Vec<Seen> = (0..10)
        .map(|n| listed(&format!("in_{n}"), "cus_1", Status::Open, 1))
        .collect();
    Index::open(&path).unwrap().put(&service, &listing).unwrap();
    let mut index = Index::open(&path).unwrap().with_max_rows(5);
    index.put(&service, &listing).unwrap();
    assert_eq!(index.len().unwrap(), 5);
}

/// A file made with the index of when rows were seen (#71) loses that index, not its rows.
#[test]
fn an_index_made_with_when_seen_indexed_loses_that_index_and_keeps_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("search.sqlite3");
    let service = service_of(URL);
    let mut index = Index::open(&path).unwrap();
    index
        .put(&service, &[listed("in_1", "cus_a", Status::Open, 1)])
        .unwrap();
    drop(index);
    let indexes = |path: &std::path::Path| -> Vec<String> {
        let conn = rusqlite::Connection::open(path).unwrap();
        let mut names = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
            .unwrap();
        names
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "CREATE INDEX invoices_seen ON invoices(max(coalesce(listed, 0), coalesce(journaled, 0)))",
    )
    .unwrap();
    drop(conn);
    assert!(indexes(&path).contains(&"invoices_seen".to_string()));
    let index = Index::open(&path).unwrap();
    assert!(!indexes(&path).contains(&"invoices_seen".to_string()));
    let hits = index
        .find(&service, &[index::Way::Id("in_1".into())], 10)
        .unwrap();
    assert_eq!(hits.len(), 1);
}

/// A listing read a day later: each row seen anew is written as seen (the bound forgets
/// the one not seen since), news is kept, the new row added, in any order (#71).
#[test]
fn a_listing_read_a_day_later_keeps_news_and_when_each_row_was_seen() {
    let (_d, j) = journal();
    let mut index = Index::open_in_memory().unwrap().with_max_rows(4);
    let service = service_of(URL);
    let at = |minute: i64, id: &str, status: Status| Seen {
        at: Utc.with_ymd_and_hms(2026, 11, 26, 0, 0, 0).unwrap()
            + chrono::Duration::minutes(minute),
        ..listed(id, "cus_1", status, 0)
    };
    let day = 24 * 60 + 5;
    let first: Vec<Seen> = ["in_a", "in_b", "in_c", "in_x"]
        .iter()
        .map(|id| at(0, id, Status::Open))
        .collect();
    index.put(&service, &first).unwrap();
    index
        .put(
            &service,
            &[
                at(day, "in_a", Status::Open),
                at(day, "in_c", Status::Open),
                at(day, "in_b", Status::Paid),
                at(day, "in_e", Status::Open),
                at(day, "in_a", Status::Void),
            ],
        )
        .unwrap();
    let all = find(&j, &mut index, &service, "1.341.000")
        .unwrap()
        .invoices;
    let mut kept: Vec<(&str, Status)> = all.iter().map(|h| (h.id.as_str(), h.status)).collect();
    kept.sort_by_key(|k| k.0);
    // X, not seen since the day before, is what the bound forgot for E.
    assert_eq!(
        kept,
        [
            ("in_a", Status::Void),
            ("in_b", Status::Paid),
            ("in_c", Status::Open),
            ("in_e", Status::Open)
        ]
    );
}
