//! Contracts: repeating invoices (an office rented at UF 45 a month, a maintenance plan
//! at $350.000 a quarter), each period issued once. A contract is kept in the journal as
//! the events that made it (created, changed from a period, paused, resumed, ended), so a
//! desk shares them, every change says who and when, and nothing is rewritten: its state
//! is those events folded in order ([`Contract::fold`]).
//!
//! A period's run ([`plan`]) finds what every contract owes through a period — periods
//! missed since its last bill too, each said — and makes billing-run rows of it; the
//! billing runs' machinery sends them (journal first, paced, resumable, never twice). A
//! (contract, period) is claimed once because its reference is made from both and never
//! changes (`<contract>-<YYYY-MM>`, or the contract's own pattern with `{period}`).

pub mod import;

use crate::api::{Currency, CurrencyChoice, NewInvoice};
use chrono::{Datelike, NaiveDate};
use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};

/// The longest contract id kept (it becomes part of a reference of at most 255).
pub const MAX_ID: usize = 100;

/// A billing period: the month it begins (`YYYY-MM`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Period {
    /// Its year.
    pub year: i32,
    /// Its first month, 1 to 12.
    pub month: u32,
}

impl Period {
    /// `YYYY-MM` (years 2000 to 2999: a contract's dates are this century's).
    pub fn parse(text: &str) -> Option<Period> {
        let t = text.trim();
        let (y, m) = t.split_once('-')?;
        if y.len() != 4 || m.len() != 2 || !(y.bytes().chain(m.bytes())).all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let (year, month) = (y.parse().ok()?, m.parse().ok()?);
        ((2000..=2999).contains(&year) && (1..=12).contains(&month))
            .then_some(Period { year, month })
    }

    /// The period (month) of `day`.
    pub fn of_day(day: NaiveDate) -> Period {
        Period {
            year: day.year(),
            month: day.month(),
        }
    }

    /// Months since year 0, to step and compare by.
    fn index(self) -> i64 {
        i64::from(self.year) * 12 + i64::from(self.month) - 1
    }

    fn from_index(i: i64) -> Period {
        Period {
            year: i32::try_from(i.div_euclid(12)).unwrap_or(i32::MAX),
            month: u32::try_from(i.rem_euclid(12)).unwrap_or(0) + 1,
        }
    }

    /// `months` later (earlier when negative).
    pub fn plus(self, months: i64) -> Period {
        Period::from_index(self.index() + months)
    }

    /// Day `day` of its month, the month's last when it has fewer (31 in February is
    /// the 28th, or the 29th in a leap year).
    pub fn day(self, day: u32) -> NaiveDate {
        let first = NaiveDate::from_ymd_opt(self.year, self.month, 1).unwrap_or_default();
        let last = first
            .checked_add_months(chrono::Months::new(1))
            .and_then(|d| d.pred_opt())
            .map_or(28, |d| d.day());
        first.with_day(day.clamp(1, last)).unwrap_or(first)
    }
}

impl std::fmt::Display for Period {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)
    }
}

/// How often a contract bills.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Every {
    /// Every month.
    #[default]
    Month,
    /// Every three months, from its start.
    Quarter,
    /// Every twelve months, from its start.
    Year,
}

impl Every {
    /// Months between two periods.
    pub fn months(self) -> i64 {
        match self {
            Every::Month => 1,
            Every::Quarter => 3,
            Every::Year => 12,
        }
    }

    /// As a file writes it, in English or Spanish (case and accents aside).
    pub fn parse(text: &str) -> Option<Every> {
        match crate::journal::fold_text(text.trim()).as_str() {
            "month" | "monthly" | "mes" | "mensual" => Some(Every::Month),
            "quarter" | "quarterly" | "trimestre" | "trimestral" => Some(Every::Quarter),
            "year" | "yearly" | "annual" | "ano" | "anual" => Some(Every::Year),
            _ => None,
        }
    }

    /// Its code (`month`, `quarter`, `year`).
    pub fn code(self) -> &'static str {
        match self {
            Every::Month => "month",
            Every::Quarter => "quarter",
            Every::Year => "year",
        }
    }
}

/// What an invoice of the contract is issued in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BillIn {
    /// The contract's own currency.
    #[default]
    Contract,
    /// Pesos, at the UF of the day the invoice is issued (a contract in UF; common for
    /// rents), exact to the peso, half up.
    PesosAtUf,
}

impl BillIn {
    /// As a file writes it: empty or the contract's currency is [`BillIn::Contract`];
    /// CLP or pesos is [`BillIn::PesosAtUf`].
    pub fn parse(text: &str) -> Option<BillIn> {
        match crate::journal::fold_text(text.trim()).as_str() {
            "" | "contract" | "contrato" | "same" | "moneda" => Some(BillIn::Contract),
            "clp" | "pesos" | "peso" | "$" | "clp at uf" | "pesos al dia" => {
                Some(BillIn::PesosAtUf)
            }
            other => match crate::bulk::currency_word(other)
                .or_else(|| Currency::from_code(&other.to_uppercase()))
            {
                Some(Currency::CLP) => Some(BillIn::PesosAtUf),
                _ => None,
            },
        }
    }

    /// Its code (`contract`, `pesos_at_uf`).
    pub fn code(self) -> &'static str {
        match self {
            BillIn::Contract => "contract",
            BillIn::PesosAtUf => "pesos_at_uf",
        }
    }
}

/// What a contract bills from a period on: a change takes effect from a named period,
/// earlier periods keep what they were billed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Terms {
    /// The amount, in `currency` (kept as its exact text).
    #[serde(with = "exact")]
    pub amount: Decimal,
    /// Its currency's ISO code (CLF for UF).
    pub currency: String,
    /// What the invoice is issued in.
    #[serde(default)]
    pub bill_in: BillIn,
    /// The day of the period's month it is issued (1 to 31; beyond the month's last day,
    /// its last).
    pub day: u32,
    /// Days from issue to due.
    pub due_days: u32,
    /// Its description (sent as the invoice's metadata).
    #[serde(default)]
    pub description: Option<String>,
    /// Further metadata sent with each invoice.
    #[serde(default)]
    pub metadata: BTreeMap<String, String>,
}

impl Terms {
    /// The currency, when its code is one.
    pub fn currency(&self) -> Option<Currency> {
        Currency::from_code(&self.currency)
    }
}

/// A contract's events as kept in the journal (their body is this, as JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// Made: who it bills, how often, from when, its reference pattern and first terms.
    Create {
        /// The customer's id.
        customer: String,
        /// How often.
        every: Every,
        /// Its first period.
        start: Period,
        /// Its last period, if it has one.
        #[serde(default)]
        end: Option<Period>,
        /// The reference pattern (with `{period}`); `None`: `<contract>-{period}`.
        #[serde(default)]
        reference: Option<String>,
        /// What it bills.
        terms: Terms,
    },
    /// Its terms from `from` on.
    Change {
        /// The first period they apply to.
        from: Period,
        /// The new terms.
        terms: Terms,
    },
    /// No period after `after` is billed (`None`: the end taken away).
    End {
        /// Its last period.
        after: Option<Period>,
    },
    /// No period from `from` on is billed until it is resumed.
    Pause {
        /// The first period not billed.
        from: Period,
    },
    /// Billed again from `from` on (the paused periods before stay unbilled).
    Resume {
        /// The first period billed again.
        from: Period,
    },
}

/// A decimal kept as its exact text ("45.5"), never a float.
mod exact {
    use rust_decimal::Decimal;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Decimal, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&d.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Decimal, D::Error> {
        let text = String::deserialize(d)?;
        text.parse::<Decimal>()
            .ok()
            .filter(|v| *v > Decimal::ZERO && v.scale() <= 4)
            .ok_or_else(|| serde::de::Error::custom("not an amount"))
    }
}

impl Serialize for Period {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Period {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Period, D::Error> {
        let text = String::deserialize(d)?;
        Period::parse(&text).ok_or_else(|| serde::de::Error::custom("not a period YYYY-MM"))
    }
}

impl Event {
    /// Its kind as the journal's row names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Create { .. } => "create",
            Event::Change { .. } => "change",
            Event::End { .. } => "end",
            Event::Pause { .. } => "pause",
            Event::Resume { .. } => "resume",
        }
    }
}

/// One event as the journal keeps it: who wrote it and when (the server's word on a
/// desk).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    /// Its number, in the order written.
    pub id: i64,
    /// The contract.
    pub contract: String,
    /// The event.
    pub event: Event,
    /// When, RFC 3339 UTC.
    pub time: String,
    /// Who (the journal's writer: user, computer, clerk's name).
    pub user: String,
    /// On a desk, the database role that wrote it.
    pub db_user: Option<String>,
}

/// The contract events `j` keeps, oldest first; a row whose body is not an event is left
/// out and said in the support log.
pub fn kept_in(j: &crate::journal::Journal) -> Result<Vec<Kept>, crate::journal::JournalError> {
    Ok(j.contract_event_rows()?
        .into_iter()
        .filter_map(|r| match serde_json::from_str::<Event>(&r.body) {
            Ok(event) if r.body.len() <= crate::journal::MAX_CONTRACT_EVENT => Some(Kept {
                id: r.id,
                contract: r.contract,
                event,
                time: r.time,
                user: r.user,
                db_user: r.db_user,
            }),
            _ => {
                tracing::warn!(id = r.id, "a contract event that is not one: left out");
                None
            }
        })
        .collect())
}

/// The contracts `j` keeps.
pub fn contracts_in(
    j: &crate::journal::Journal,
) -> Result<Vec<Contract>, crate::journal::JournalError> {
    Ok(Contract::fold(kept_in(j)?))
}

/// Keeps `events` (contract id, event) in `j`, all or none.
pub fn keep(
    j: &mut crate::journal::Journal,
    events: &[(String, Event)],
) -> Result<(), crate::journal::JournalError> {
    let rows: Vec<(String, &'static str, String)> = events
        .iter()
        .map(|(id, e)| {
            (
                id.clone(),
                e.kind(),
                serde_json::to_string(e).unwrap_or_default(),
            )
        })
        .collect();
    j.add_contract_event_rows(&rows)
}

/// A contract as its events made it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contract {
    /// Its id.
    pub id: String,
    /// The customer's id.
    pub customer: String,
    /// How often it bills.
    pub every: Every,
    /// Its first period.
    pub start: Period,
    /// Its last period, if ended.
    pub end: Option<Period>,
    /// The reference pattern, with `{period}`.
    pub reference: String,
    /// Its terms, each from its first period (ascending).
    pub versions: Vec<(Period, Terms)>,
    /// Paused spans: from, and the period it was resumed from (`None`: still paused).
    pub pauses: Vec<(Period, Option<Period>)>,
    /// Its events, oldest first.
    pub history: Vec<Kept>,
}

impl Contract {
    /// The default reference pattern of contract `id`.
    pub fn default_reference(id: &str) -> String {
        format!("{id}-{{period}}")
    }

    /// The contracts `events` make (ordered by their number), each by its id, sorted;
    /// a contract whose first event is not its creation is left out.
    pub fn fold(mut events: Vec<Kept>) -> Vec<Contract> {
        events.sort_by_key(|e| e.id);
        let mut by_id: BTreeMap<String, Contract> = BTreeMap::new();
        for kept in events {
            match (&kept.event, by_id.get_mut(&kept.contract)) {
                (
                    Event::Create {
                        customer,
                        every,
                        start,
                        end,
                        reference,
                        terms,
                    },
                    None,
                ) => {
                    let c = Contract {
                        id: kept.contract.clone(),
                        customer: customer.clone(),
                        every: *every,
                        start: *start,
                        end: *end,
                        reference: reference
                            .clone()
                            .unwrap_or_else(|| Contract::default_reference(&kept.contract)),
                        versions: vec![(*start, terms.clone())],
                        pauses: Vec::new(),
                        history: vec![kept.clone()],
                    };
                    by_id.insert(kept.contract.clone(), c);
                }
                // Created twice (two clerks importing at once): the first stands.
                (Event::Create { .. }, Some(_)) | (_, None) => {}
                (event, Some(c)) => {
                    match event {
                        Event::Change { from, terms } => {
                            c.versions.retain(|(p, _)| p < from);
                            c.versions.push((*from, terms.clone()));
                        }
                        Event::End { after } => c.end = *after,
                        Event::Pause { from } => {
                            if c.paused_at(*from).is_none() {
                                c.pauses.push((*from, None));
                            }
                        }
                        Event::Resume { from } => {
                            if let Some(open) = c
                                .pauses
                                .iter_mut()
                                .rev()
                                .find(|(p, until)| until.is_none() && p <= from)
                            {
                                open.1 = Some(*from);
                            }
                        }
                        Event::Create { .. } => {}
                    }
                    c.history.push(kept.clone());
                }
            }
        }
        by_id.into_values().collect()
    }

    /// The terms period `p` is billed with.
    pub fn terms_at(&self, p: Period) -> &Terms {
        self.versions
            .iter()
            .rev()
            .find(|(from, _)| *from <= p)
            .or(self.versions.first())
            .map(|(_, t)| t)
            .expect("a contract has its first terms")
    }

    /// The pause period `p` falls in, if any (its first period).
    pub fn paused_at(&self, p: Period) -> Option<Period> {
        self.pauses
            .iter()
            .find(|(from, until)| *from <= p && until.is_none_or(|u| p < u))
            .map(|(from, _)| *from)
    }

    /// Whether it is paused now that `p` is the current period.
    pub fn is_paused(&self, p: Period) -> bool {
        self.paused_at(p).is_some()
    }

    /// Its periods from its start through `through` (and its end), paused ones too.
    pub fn periods_through(&self, through: Period) -> Vec<Period> {
        let last = match self.end {
            Some(end) if end < through => end,
            _ => through,
        };
        let step = self.every.months();
        let n = (last.index() - self.start.index()).div_euclid(step);
        (0..=n.max(-1))
            .map(|i| self.start.plus(i * step))
            .filter(|p| *p <= last)
            .collect()
    }

    /// The reference of period `p`'s invoice.
    pub fn reference_of(&self, p: Period) -> String {
        self.reference.replace("{period}", &p.to_string())
    }
}

/// Why a contract bills nothing through a period, or one of its periods is not billed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// It starts after the period.
    NotStarted(Period),
    /// It ended before the period (its last period).
    Ended(Period),
    /// This period falls in a pause (from this period).
    Paused {
        /// The period not billed.
        period: Period,
        /// The pause's first period.
        since: Period,
    },
    /// Billed in pesos at the UF of the day, and there is no UF value for that day (why).
    NoUf {
        /// The period.
        period: Period,
        /// Why.
        why: String,
    },
    /// Its currency is not one the profile offers (the code).
    Currency {
        /// The period.
        period: Period,
        /// The currency's code.
        code: String,
    },
}

/// One invoice a run issues: a contract's period, as it will be sent.
#[derive(Clone, Debug, PartialEq)]
pub struct Due {
    /// The contract.
    pub contract: String,
    /// The period.
    pub period: Period,
    /// The period is earlier than the run's: a period missed since the last bill.
    pub catch_up: bool,
    /// The day the invoice is issued on (today for a period whose day has passed).
    pub issued: NaiveDate,
    /// Its due date.
    pub due: NaiveDate,
    /// The contract's amount and currency for the period.
    pub amount: Decimal,
    /// Its currency.
    pub currency: Currency,
    /// Billed in pesos: the UF's day and value and the pesos (exact, half up).
    pub pesos: Option<Pesos>,
    /// The reference (the claim's key).
    pub reference: String,
    /// The invoice.
    pub invoice: NewInvoice,
}

/// A UF amount billed in pesos on a day's UF value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pesos {
    /// The UF's day.
    pub day: NaiveDate,
    /// Its value in pesos.
    pub value: Decimal,
    /// The pesos billed: the amount × the value, rounded to the peso half up.
    pub pesos: Decimal,
}

/// `amount` UF in pesos at `value`, exact to the peso, half up.
pub fn pesos_of(amount: Decimal, value: Decimal) -> Option<Decimal> {
    amount
        .checked_mul(value)
        .map(|p| p.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero))
}

/// What a run through a period would do.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// The invoices to issue, by contract then period.
    pub due: Vec<Due>,
    /// Contract periods billed before (skipped: the run issues nothing for them).
    pub billed: usize,
    /// Why contracts, or some of their periods, bill nothing.
    pub skipped: Vec<(String, Skip)>,
    /// The UF of the day the plan was made, when it has invoices in UF (their total is
    /// said with its pesos, as a reference).
    pub uf: Option<(NaiveDate, Decimal)>,
}

impl Plan {
    /// Count and total per currency of what it issues (pesos for one billed in pesos).
    pub fn totals(&self) -> BTreeMap<String, (usize, Decimal)> {
        let mut out: BTreeMap<String, (usize, Decimal)> = BTreeMap::new();
        for d in &self.due {
            let e = out
                .entry(
                    d.invoice
                        .currency
                        .currency()
                        .map_or(String::new(), |c| c.code().to_string()),
                )
                .or_default();
            e.0 += 1;
            e.1 += d.invoice.amount;
        }
        out
    }

    /// The billing-run rows of its invoices (numbered from 1 in its order).
    pub fn rows(&self) -> Vec<crate::bulk::BulkRow> {
        self.due
            .iter()
            .enumerate()
            .map(|(i, d)| crate::bulk::BulkRow {
                row: i + 1,
                invoice: d.invoice.clone(),
                account_key: None,
                legacy_reference: None,
                metadata_reference: None,
            })
            .collect()
    }
}

/// What [`plan`] needs besides the contracts.
pub struct PlanInput<'a> {
    /// The run's period: every period through it is due.
    pub through: Period,
    /// Today for the desk: an invoice whose day has passed is issued today.
    pub today: NaiveDate,
    /// The currencies the profile offers.
    pub currencies: &'a [Currency],
    /// The UF's value on a day, or why there is none (only asked for contracts billed in
    /// pesos).
    pub uf: &'a dyn Fn(NaiveDate) -> Result<Decimal, String>,
    /// Which of these references are issued already (the journal's word): asked in
    /// batches, newest periods first, until a contract's last bill is found.
    pub billed: &'a dyn Fn(&[String]) -> HashSet<String>,
}

/// The periods batch asked of [`PlanInput::billed`] a round, per contract (doubled each
/// round): most contracts are found billed through last period in the first.
const FIRST_LOOK: usize = 2;

/// Period `p`'s invoice of contract `c`, or why it is not issued.
fn due_of(
    c: &Contract,
    p: Period,
    input: &PlanInput<'_>,
    uf_cache: &mut BTreeMap<NaiveDate, Result<Decimal, String>>,
) -> Result<Due, Skip> {
    if let Some(since) = c.paused_at(p) {
        return Err(Skip::Paused { period: p, since });
    }
    let terms = c.terms_at(p);
    let currency = terms
        .currency()
        .filter(|cur| input.currencies.is_empty() || input.currencies.contains(cur))
        .ok_or_else(|| Skip::Currency {
            period: p,
            code: terms.currency.clone(),
        })?;
    let scheduled = p.day(terms.day);
    let issued = scheduled.max(input.today);
    let due = issued + chrono::Days::new(u64::from(terms.due_days));
    let pesos = match terms.bill_in {
        BillIn::PesosAtUf if currency == Currency::CLF => {
            let value = uf_cache
                .entry(input.today)
                .or_insert_with(|| (input.uf)(input.today))
                .clone();
            let ps = value
                .and_then(|v| {
                    pesos_of(terms.amount, v)
                        .map(|pesos| Pesos {
                            day: input.today,
                            value: v,
                            pesos,
                        })
                        .ok_or_else(|| "too large".to_string())
                })
                .map_err(|why| Skip::NoUf { period: p, why })?;
            Some(ps)
        }
        _ => None,
    };
    let reference = c.reference_of(p);
    let mut metadata = serde_json::Map::new();
    metadata.insert("contract".into(), c.id.clone().into());
    metadata.insert("period".into(), p.to_string().into());
    if let Some(d) = terms.description.as_ref().filter(|d| !d.trim().is_empty()) {
        metadata.insert("description".into(), d.clone().into());
    }
    if let Some(ps) = &pesos {
        metadata.insert("uf_amount".into(), terms.amount.to_string().into());
        metadata.insert("uf_day".into(), ps.day.to_string().into());
        metadata.insert("uf_value".into(), ps.value.to_string().into());
    }
    for (k, v) in &terms.metadata {
        metadata
            .entry(k.clone())
            .or_insert_with(|| v.clone().into());
    }
    let (amount, code) = match &pesos {
        Some(ps) => (ps.pesos, Currency::CLP),
        None => (terms.amount, currency),
    };
    Ok(Due {
        contract: c.id.clone(),
        period: p,
        catch_up: p < input.through,
        issued,
        due,
        amount: terms.amount,
        currency,
        pesos,
        reference: reference.clone(),
        invoice: NewInvoice {
            customer: c.customer.clone(),
            amount,
            currency: CurrencyChoice::Code(code),
            product_id: None,
            due_date: Some(due.to_string()),
            invoice_external_id: Some(reference),
            metadata: Some(metadata),
            extra: serde_json::Map::new(),
        },
    })
}

/// What a run through `input.through` issues: for each contract, every period after its
/// last bill (catch-up), not paused, within its start and end.
pub fn plan(contracts: &[Contract], input: &PlanInput<'_>) -> Plan {
    let mut out = Plan::default();
    // Each contract's periods through the run's, newest first, and how many were looked
    // at; a contract is done once a billed period is found (older ones were billed by
    // the runs before) or every period was looked at.
    struct Look<'c> {
        c: &'c Contract,
        periods: Vec<Period>,
        looked: usize,
        last_billed: Option<usize>,
    }
    let mut looks: Vec<Look<'_>> = Vec::new();
    for c in contracts {
        if c.start > input.through {
            out.skipped.push((c.id.clone(), Skip::NotStarted(c.start)));
            continue;
        }
        let mut periods = c.periods_through(input.through);
        if periods.is_empty() {
            if let Some(end) = c.end {
                out.skipped.push((c.id.clone(), Skip::Ended(end)));
            }
            continue;
        }
        periods.reverse();
        looks.push(Look {
            c,
            periods,
            looked: 0,
            last_billed: None,
        });
    }
    let mut batch = FIRST_LOOK;
    loop {
        let mut asked: Vec<String> = Vec::new();
        let mut open = 0;
        for l in looks
            .iter()
            .filter(|l| l.last_billed.is_none() && l.looked < l.periods.len())
        {
            open += 1;
            let upto = (l.looked + batch).min(l.periods.len());
            asked.extend(
                l.periods[l.looked..upto]
                    .iter()
                    .map(|p| l.c.reference_of(*p)),
            );
        }
        if open == 0 {
            break;
        }
        let billed = (input.billed)(&asked);
        for l in looks
            .iter_mut()
            .filter(|l| l.last_billed.is_none() && l.looked < l.periods.len())
        {
            let upto = (l.looked + batch).min(l.periods.len());
            l.last_billed =
                (l.looked..upto).find(|&i| billed.contains(&l.c.reference_of(l.periods[i])));
            l.looked = upto;
        }
        batch = batch.saturating_mul(2);
    }
    let mut uf_cache: BTreeMap<NaiveDate, Result<Decimal, String>> = BTreeMap::new();
    let any_uf = looks.iter().any(|l| {
        l.c.versions
            .iter()
            .any(|(_, t)| t.currency() == Some(Currency::CLF) && t.bill_in == BillIn::Contract)
    });
    if any_uf {
        out.uf = uf_cache
            .entry(input.today)
            .or_insert_with(|| (input.uf)(input.today))
            .clone()
            .ok()
            .map(|v| (input.today, v));
    }
    for l in looks {
        let c = l.c;
        let unbilled = l.last_billed.unwrap_or(l.periods.len());
        out.billed += l.periods.len() - unbilled;
        if let Some(end) = c.end.filter(|e| *e < input.through && unbilled == 0) {
            out.skipped.push((c.id.clone(), Skip::Ended(end)));
        }
        // Oldest first.
        for &p in l.periods[..unbilled].iter().rev() {
            match due_of(c, p, input, &mut uf_cache) {
                Ok(d) => out.due.push(d),
                Err(skip) => out.skipped.push((c.id.clone(), skip)),
            }
        }
    }
    out
}

/// The most references asked of the journal at once.
const ASK_AT_ONCE: usize = 300;

/// [`plan`] on journal `j`: which periods were billed is asked of it (references done
/// under `scope`, the service and account sent to, in batches), the customers' names read
/// from its directory. `uf`: the UF of `today`, or why there is none.
pub fn plan_on(
    j: &crate::journal::Journal,
    contracts: &[Contract],
    through: Period,
    today: NaiveDate,
    currencies: &[Currency],
    scope: &str,
    uf: Result<Decimal, String>,
) -> (Plan, std::collections::HashMap<String, String>) {
    let uf = |_: NaiveDate| uf.clone();
    let billed = |refs: &[String]| -> HashSet<String> {
        let mut out = HashSet::new();
        for chunk in refs.chunks(ASK_AT_ONCE) {
            // Unreadable: not known as billed; the claim decides when sending.
            if let Ok(done) = j.done_in_scope(scope, chunk) {
                out.extend(done.into_keys());
            }
        }
        out
    };
    let made = plan(
        contracts,
        &PlanInput {
            through,
            today,
            currencies,
            uf: &uf,
            billed: &billed,
        },
    );
    let ids: Vec<&str> = made
        .due
        .iter()
        .map(|d| d.invoice.customer.as_str())
        .collect();
    let names = j.customer_names(&ids).unwrap_or_default();
    (made, names)
}

#[cfg(test)]
mod tests;
