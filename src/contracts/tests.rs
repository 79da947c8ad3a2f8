use super::*;

fn dec(text: &str) -> Decimal {
    text.parse().unwrap()
}

fn p(text: &str) -> Period {
    Period::parse(text).unwrap()
}

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

fn terms(amount: Decimal, currency: &str, day: u32) -> Terms {
    Terms {
        amount,
        currency: currency.into(),
        bill_in: BillIn::Contract,
        day,
        due_days: 10,
        description: None,
        metadata: BTreeMap::new(),
    }
}

fn kept(id: i64, contract: &str, event: Event) -> Kept {
    Kept {
        id,
        contract: contract.into(),
        event,
        time: "2026-01-01T00:00:00Z".into(),
        user: "ana".into(),
        db_user: None,
    }
}

fn create(contract: &str, every: Every, start: &str, t: Terms) -> Kept {
    kept(
        1,
        contract,
        Event::Create {
            customer: format!("cus_{contract}"),
            every,
            start: p(start),
            end: None,
            reference: None,
            terms: t,
        },
    )
}

/// A run through `through` on `today` with the references in `billed` issued already.
fn run(
    contracts: &[Contract],
    through: &str,
    today: &str,
    billed: &std::cell::RefCell<HashSet<String>>,
) -> Plan {
    let uf = |_: NaiveDate| Ok(dec("39643.59"));
    let is_billed = |refs: &[String]| -> HashSet<String> {
        refs.iter()
            .filter(|r| billed.borrow().contains(*r))
            .cloned()
            .collect()
    };
    let made = plan(
        contracts,
        &PlanInput {
            through: p(through),
            today: day(today),
            currencies: &[Currency::CLP, Currency::CLF],
            uf: &uf,
            billed: &is_billed,
        },
    );
    billed
        .borrow_mut()
        .extend(made.due.iter().map(|d| d.reference.clone()));
    made
}

#[test]
fn periods_are_months_and_a_day_beyond_the_month_is_its_last() {
    assert_eq!(p("2026-12").plus(1), p("2027-01"));
    assert_eq!(p("2027-01").plus(-1), p("2026-12"));
    assert_eq!(p("2026-02").day(31), day("2026-02-28"));
    assert_eq!(p("2028-02").day(31), day("2028-02-29"));
    assert_eq!(p("2026-04").day(31), day("2026-04-30"));
    assert_eq!(p("2026-01").day(31), day("2026-01-31"));
    for bad in ["2026-13", "2026-1", "26-01", "2026/01", "", "1999-12"] {
        assert_eq!(Period::parse(bad), None, "{bad}");
    }
}

/// A year run period by period: monthly, quarterly and yearly contracts each issue
/// their periods once, on their day (31 clamped), due `due_days` later.
#[test]
fn a_year_run_period_by_period_issues_each_period_once() {
    let contracts = Contract::fold(vec![
        create("M", Every::Month, "2027-01", terms(dec("45"), "CLF", 31)),
        kept(
            2,
            "Q",
            Event::Create {
                customer: "cus_Q".into(),
                every: Every::Quarter,
                start: p("2027-02"),
                end: None,
                reference: Some("MANT-{period}".into()),
                terms: terms(dec("350000"), "CLP", 5),
            },
        ),
        create("Y", Every::Year, "2027-03", terms(dec("1200000"), "CLP", 1)),
    ]);
    let billed = std::cell::RefCell::new(HashSet::new());
    let mut issued = Vec::new();
    for m in 1..=12 {
        let through = format!("2027-{m:02}");
        let plan = run(&contracts, &through, "2026-12-01", &billed);
        for d in &plan.due {
            assert!(!d.catch_up, "{d:?}");
            issued.push((d.reference.clone(), d.issued, d.due, d.invoice.amount));
        }
        // Run again: nothing.
        assert!(
            run(&contracts, &through, "2026-12-01", &billed)
                .due
                .is_empty()
        );
    }
    let refs: Vec<&str> = issued.iter().map(|i| i.0.as_str()).collect();
    assert_eq!(issued.len(), 12 + 4 + 1, "{refs:?}");
    assert_eq!(refs.iter().filter(|r| r.starts_with("M-")).count(), 12);
    assert_eq!(
        refs.iter()
            .filter(|r| r.starts_with("MANT-"))
            .copied()
            .collect::<Vec<_>>(),
        [
            "MANT-2027-02",
            "MANT-2027-05",
            "MANT-2027-08",
            "MANT-2027-11"
        ]
    );
    assert!(refs.contains(&"Y-2027-03"));
    let feb = issued.iter().find(|i| i.0 == "M-2027-02").unwrap();
    assert_eq!((feb.1, feb.2), (day("2027-02-28"), day("2027-03-10")));
    assert_eq!(feb.3, dec("45"));
}

/// Three months missed: the next run issues them, each said as a catch-up, issued today.
#[test]
fn missed_periods_are_caught_up_each_said() {
    let contracts = Contract::fold(vec![create(
        "M",
        Every::Month,
        "2026-06",
        terms(dec("100000"), "CLP", 1),
    )]);
    let billed = std::cell::RefCell::new(HashSet::new());
    assert_eq!(
        run(&contracts, "2026-07", "2026-07-02", &billed).due.len(),
        2
    );
    let plan = run(&contracts, "2026-11", "2026-11-15", &billed);
    let said: Vec<(String, bool, NaiveDate)> = plan
        .due
        .iter()
        .map(|d| (d.period.to_string(), d.catch_up, d.issued))
        .collect();
    assert_eq!(
        said,
        [
            ("2026-08".to_string(), true, day("2026-11-15")),
            ("2026-09".to_string(), true, day("2026-11-15")),
            ("2026-10".to_string(), true, day("2026-11-15")),
            ("2026-11".to_string(), false, day("2026-11-15")),
        ]
    );
    assert_eq!(plan.billed, 2);
}

/// An amount changed from a period: earlier periods keep what they were billed; pause
/// and end bill nothing, and are said.
#[test]
fn a_change_applies_from_its_period_and_pauses_and_ends_bill_nothing() {
    let contracts = Contract::fold(vec![
        create("M", Every::Month, "2027-01", terms(dec("100"), "CLP", 1)),
        kept(
            5,
            "M",
            Event::Change {
                from: p("2027-03"),
                terms: terms(dec("120"), "CLP", 1),
            },
        ),
        kept(6, "M", Event::Pause { from: p("2027-05") }),
        kept(7, "M", Event::Resume { from: p("2027-07") }),
        kept(
            8,
            "M",
            Event::End {
                after: Some(p("2027-08")),
            },
        ),
    ]);
    let billed = std::cell::RefCell::new(HashSet::new());
    let plan = run(&contracts, "2027-12", "2026-12-01", &billed);
    let got: Vec<(String, Decimal)> = plan
        .due
        .iter()
        .map(|d| (d.period.to_string(), d.invoice.amount))
        .collect();
    assert_eq!(
        got,
        [
            ("2027-01".to_string(), dec("100")),
            ("2027-02".to_string(), dec("100")),
            ("2027-03".to_string(), dec("120")),
            ("2027-04".to_string(), dec("120")),
            ("2027-07".to_string(), dec("120")),
            ("2027-08".to_string(), dec("120")),
        ]
    );
    let paused: Vec<String> = plan
        .skipped
        .iter()
        .filter_map(|(_, s)| match s {
            Skip::Paused { period, .. } => Some(period.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(paused, ["2027-05", "2027-06"]);
    // After its end, nothing more, and it is said.
    let plan = run(&contracts, "2028-01", "2026-12-01", &billed);
    assert!(plan.due.is_empty());
    assert!(
        plan.skipped
            .iter()
            .any(|(_, s)| *s == Skip::Ended(p("2027-08"))),
        "{:?}",
        plan.skipped
    );
}

/// A UF contract billed in pesos at the day's UF: UF 45 × $39.643,59 = $1.783.961,55,
/// billed $1.783.962 (half up), the day and value sent with it.
#[test]
fn a_uf_contract_is_billed_in_pesos_at_the_days_uf() {
    let mut t = terms(dec("45"), "CLF", 1);
    t.bill_in = BillIn::PesosAtUf;
    let contracts = Contract::fold(vec![create("R", Every::Month, "2026-11", t)]);
    let billed = std::cell::RefCell::new(HashSet::new());
    let ran = run(&contracts, "2026-11", "2026-11-26", &billed);
    let d = &ran.due[0];
    assert_eq!(d.invoice.amount, dec("1783962"));
    assert_eq!(d.invoice.currency, CurrencyChoice::Code(Currency::CLP));
    let ps = d.pesos.unwrap();
    assert_eq!((ps.day, ps.value), (day("2026-11-26"), dec("39643.59")));
    let meta = d.invoice.metadata.as_ref().unwrap();
    assert_eq!(meta["uf_amount"], "45");
    assert_eq!(meta["uf_value"], "39643.59");
    // Without a value that day: not issued, said.
    let none = |_: NaiveDate| Err("no value".to_string());
    let made = plan(
        &contracts,
        &PlanInput {
            through: p("2026-11"),
            today: day("2026-11-26"),
            currencies: &[],
            uf: &none,
            billed: &|_| HashSet::new(),
        },
    );
    assert!(made.due.is_empty());
    assert!(matches!(made.skipped[0].1, Skip::NoUf { .. }));
    // A contract billed in UF: its total is said with the day's pesos.
    let in_uf = Contract::fold(vec![create(
        "U",
        Every::Month,
        "2026-11",
        terms(dec("45"), "CLF", 1),
    )]);
    let billed = std::cell::RefCell::new(HashSet::new());
    let ran = run(&in_uf, "2026-11", "2026-11-26", &billed);
    assert_eq!(ran.uf, Some((day("2026-11-26"), dec("39643.59"))));
    assert_eq!(
        ran.due[0].invoice.currency,
        CurrencyChoice::Code(Currency::CLF)
    );
}

/// 10,000 contracts, five years monthly, each billed through last month: the plan looks
/// back two periods a contract, not sixty.
#[test]
fn the_plan_asks_for_few_references_when_contracts_are_billed_through_last_month() {
    let events: Vec<Kept> = (0..10_000)
        .map(|i| {
            let mut k = create(
                &format!("C{i}"),
                Every::Month,
                "2022-01",
                terms(dec("1000"), "CLP", 1),
            );
            k.id = i;
            k
        })
        .collect();
    let contracts = Contract::fold(events);
    let asked = std::cell::Cell::new(0usize);
    let billed = |refs: &[String]| -> HashSet<String> {
        asked.set(asked.get() + refs.len());
        refs.iter()
            .filter(|r| !r.ends_with("2026-11"))
            .cloned()
            .collect()
    };
    let uf = |_: NaiveDate| Ok(dec("1"));
    let made = plan(
        &contracts,
        &PlanInput {
            through: p("2026-11"),
            today: day("2026-11-28"),
            currencies: &[],
            uf: &uf,
            billed: &billed,
        },
    );
    assert_eq!(made.due.len(), 10_000);
    assert_eq!(asked.get(), 20_000);
}
