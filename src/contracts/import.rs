//! Contracts read from a CSV or XLSX file: columns by their header, in English or
//! Spanish (case and accents aside), every row checked first; any problem and nothing is
//! kept, each wrong row named with why.

use super::{BillIn, Contract, Event, Every, Period, Terms};
use crate::api::Currency;
use crate::bulk::{Resolve, Why};
use crate::sheet::Rows;
use rust_decimal::Decimal;
use std::collections::{BTreeMap, HashSet};

/// A column a contracts file may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// The contract's id.
    Contract,
    /// Who is billed.
    Customer,
    /// The amount.
    Amount,
    /// Its currency.
    Currency,
    /// What it is billed in.
    BillIn,
    /// How often.
    Every,
    /// The day of the period's month.
    Day,
    /// Days until due.
    DueDays,
    /// Its first period.
    Start,
    /// Its last period.
    End,
    /// The reference pattern.
    Reference,
    /// The description.
    Description,
}

impl Column {
    /// Its English name (the file's first spelling).
    pub fn name(self) -> &'static str {
        match self {
            Column::Contract => "contract",
            Column::Customer => "customer",
            Column::Amount => "amount",
            Column::Currency => "currency",
            Column::BillIn => "bill_in",
            Column::Every => "every",
            Column::Day => "day",
            Column::DueDays => "due_days",
            Column::Start => "start",
            Column::End => "end",
            Column::Reference => "reference",
            Column::Description => "description",
        }
    }

    /// The column a header names.
    fn of(header: &str) -> Option<Column> {
        let h = crate::journal::fold_text(header.trim()).replace([' ', '-'], "_");
        Some(match h.as_str() {
            "contract" | "contrato" | "contract_id" | "id" => Column::Contract,
            "customer" | "cliente" | "customer_id" => Column::Customer,
            "amount" | "monto" => Column::Amount,
            "currency" | "currency_code" | "moneda" => Column::Currency,
            "bill_in" | "facturar_en" => Column::BillIn,
            "every" | "cada" | "periodicidad" => Column::Every,
            "day" | "dia" => Column::Day,
            "due_days" | "dias_vencimiento" | "dias_de_vencimiento" | "dias_para_vencer" => {
                Column::DueDays
            }
            "start" | "desde" | "inicio" => Column::Start,
            "end" | "hasta" | "fin" | "termino" => Column::End,
            "reference" | "referencia" => Column::Reference,
            "description" | "glosa" | "descripcion" | "detalle" => Column::Description,
            _ => return None,
        })
    }
}

/// Why a row (or the header) is refused.
#[derive(Clone, Debug)]
pub enum ImportWhy {
    /// The file could not be read.
    Unreadable(crate::sheet::SheetError),
    /// The file has no header.
    Empty,
    /// A required column is missing.
    MissingColumn(Column),
    /// Columns that are none of the known ones.
    UnknownColumns(Vec<String>),
    /// A column named twice.
    TwiceNamed(Column),
    /// A required cell is empty.
    EmptyCell(Column),
    /// The contract id is longer than [`super::MAX_ID`] or has a control character.
    BadId,
    /// The same contract twice in the file.
    Duplicate(String),
    /// The customer (a name or RUT the directory knows exactly once, or an id).
    Customer(Why),
    /// The amount (more than zero).
    Amount(Why),
    /// A currency the profile does not offer, or none.
    Currency(String),
    /// Billed in pesos at the UF, and the contract is not in UF.
    PesosNeedUf,
    /// What to bill in, unread.
    BillIn(String),
    /// How often, unread.
    Every(String),
    /// A day that is not 1 to 31.
    Day(String),
    /// Days until due that are not 0 to 365.
    DueDays(String),
    /// A period that is not `YYYY-MM`.
    Period(String),
    /// It ends before it starts.
    EndBeforeStart,
    /// A reference pattern without `{period}`, or too long.
    Reference(String),
    /// The contract is kept already, with other terms: a change names its period
    /// (`contracts change`), an import does not rewrite it.
    Exists(String),
}

crate::engineers_text!(ImportWhy);

/// A problem with one row of the file (1: its header).
#[derive(Clone, Debug)]
pub struct ImportProblem {
    /// The row, as the spreadsheet numbers it.
    pub row: usize,
    /// The column's header as written ("" for the row).
    pub column: String,
    /// What is wrong.
    pub why: ImportWhy,
}

/// A contract read from a file: the event that makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    /// Its row in the file.
    pub row: usize,
    /// Its id.
    pub id: String,
    /// Its creation.
    pub create: Event,
}

/// Reads `rows` (header first). `currencies`: those the profile offers; `resolve`: a
/// customer cell to an id, as a billing run does.
pub fn read(
    rows: &Rows,
    currencies: &[Currency],
    resolve: Resolve<'_>,
) -> Result<Vec<Read>, Vec<ImportProblem>> {
    let Some(header) = rows.get(0) else {
        return Err(vec![ImportProblem {
            row: 1,
            column: String::new(),
            why: ImportWhy::Empty,
        }]);
    };
    let header = header.to_vec();
    let mut cols: BTreeMap<usize, Column> = BTreeMap::new();
    let mut metadata_cols: Vec<(usize, String)> = Vec::new();
    let mut unknown = Vec::new();
    let mut problems = Vec::new();
    let header_problem = |why| ImportProblem {
        row: 1,
        column: String::new(),
        why,
    };
    for (i, h) in header.iter().enumerate() {
        let folded = crate::journal::fold_text(h.trim());
        if let Some(name) = folded.strip_prefix("metadata.").filter(|n| !n.is_empty()) {
            metadata_cols.push((i, name.to_string()));
        } else if let Some(c) = Column::of(h) {
            if cols.values().any(|x| *x == c) {
                problems.push(header_problem(ImportWhy::TwiceNamed(c)));
            }
            cols.insert(i, c);
        } else if !h.trim().is_empty() {
            unknown.push(crate::text::escape_controls(h).into_owned());
        }
    }
    if !unknown.is_empty() {
        problems.push(header_problem(ImportWhy::UnknownColumns(unknown)));
    }
    let col = |c: Column| cols.iter().find(|(_, x)| **x == c).map(|(i, _)| *i);
    for required in [
        Column::Contract,
        Column::Customer,
        Column::Amount,
        Column::Currency,
        Column::Start,
    ] {
        if col(required).is_none() {
            problems.push(header_problem(ImportWhy::MissingColumn(required)));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for (n, r) in rows.iter().enumerate().skip(1) {
        let row = n + 1;
        if r.is_blank() {
            continue;
        }
        let cell = |c: Column| {
            col(c)
                .and_then(|i| r.get(i))
                .map(str::trim)
                .unwrap_or("")
                .to_string()
        };
        let mut said = Vec::new();
        let mut problem = |c: Column, why: ImportWhy| {
            let column = col(c).map(|i| header[i].clone()).unwrap_or_default();
            said.push(ImportProblem { row, column, why });
        };
        let id = cell(Column::Contract);
        if id.is_empty() {
            problem(Column::Contract, ImportWhy::EmptyCell(Column::Contract));
        } else if id.chars().count() > super::MAX_ID
            || id.chars().any(crate::text::is_unsafe)
            || id.contains('{')
        {
            problem(Column::Contract, ImportWhy::BadId);
        } else if !seen.insert(id.clone()) {
            problem(Column::Contract, ImportWhy::Duplicate(id.clone()));
        }
        let customer = match cell(Column::Customer) {
            t if t.is_empty() => {
                problem(Column::Customer, ImportWhy::EmptyCell(Column::Customer));
                None
            }
            t => match resolve(&t) {
                Ok(id) => Some(id),
                Err(why) => {
                    problem(Column::Customer, ImportWhy::Customer(why));
                    None
                }
            },
        };
        let currency_text = cell(Column::Currency);
        let currency = crate::bulk::currency_word(&currency_text)
            .or_else(|| Currency::from_code(&currency_text.to_uppercase()))
            .filter(|c| currencies.is_empty() || currencies.contains(c));
        if currency.is_none() {
            problem(Column::Currency, ImportWhy::Currency(currency_text.clone()));
        }
        let amount_text = cell(Column::Amount);
        let number = col(Column::Amount).is_some_and(|i| r.is_number(i));
        let amount = match crate::bulk::read_amount(&amount_text, number, currency) {
            Ok(a) => Some(a),
            Err(why) => {
                problem(Column::Amount, ImportWhy::Amount(why));
                None
            }
        };
        let bill_in = match BillIn::parse(&cell(Column::BillIn)) {
            Some(BillIn::PesosAtUf) if currency != Some(Currency::CLF) => {
                problem(Column::BillIn, ImportWhy::PesosNeedUf);
                None
            }
            Some(b) => Some(b),
            None => {
                problem(Column::BillIn, ImportWhy::BillIn(cell(Column::BillIn)));
                None
            }
        };
        let every = match cell(Column::Every) {
            t if t.is_empty() => Some(Every::Month),
            t => Every::parse(&t).or_else(|| {
                problem(Column::Every, ImportWhy::Every(t.clone()));
                None
            }),
        };
        let small = |text: &str, default: u32, range: std::ops::RangeInclusive<u32>| {
            if text.is_empty() {
                return Some(default);
            }
            // A spreadsheet's number cell may read "5.0".
            let t = text.strip_suffix(".0").unwrap_or(text);
            t.parse::<u32>().ok().filter(|d| range.contains(d))
        };
        let day_text = cell(Column::Day);
        let day = small(&day_text, 1, 1..=31);
        if day.is_none() {
            problem(Column::Day, ImportWhy::Day(day_text));
        }
        let due_text = cell(Column::DueDays);
        let due_days = small(&due_text, 30, 0..=365);
        if due_days.is_none() {
            problem(Column::DueDays, ImportWhy::DueDays(due_text));
        }
        let period = |c: Column, problem: &mut dyn FnMut(Column, ImportWhy)| {
            let t = cell(c);
            if t.is_empty() {
                return None;
            }
            let p = Period::parse(&t);
            if p.is_none() {
                problem(c, ImportWhy::Period(t));
            }
            p
        };
        let start = period(Column::Start, &mut problem);
        if cell(Column::Start).is_empty() {
            problem(Column::Start, ImportWhy::EmptyCell(Column::Start));
        }
        let end = period(Column::End, &mut problem);
        if let (Some(s), Some(e)) = (start, end)
            && e < s
        {
            problem(Column::End, ImportWhy::EndBeforeStart);
        }
        let reference = match cell(Column::Reference) {
            t if t.is_empty() => None,
            t if !t.contains("{period}")
                || t.chars().count() > crate::api::model::MAX_TEXT - 10
                || t.chars().any(crate::text::is_unsafe) =>
            {
                problem(Column::Reference, ImportWhy::Reference(t));
                None
            }
            t => Some(t),
        };
        if !id.is_empty()
            && reference.is_none()
            && Contract::default_reference(&id).chars().count() > crate::api::model::MAX_TEXT - 10
        {
            problem(Column::Contract, ImportWhy::BadId);
        }
        let description = Some(cell(Column::Description)).filter(|d| !d.is_empty());
        let metadata: BTreeMap<String, String> = metadata_cols
            .iter()
            .filter_map(|(i, name)| {
                let v = r.get(*i).map(str::trim).unwrap_or("");
                (!v.is_empty()).then(|| (name.clone(), v.to_string()))
            })
            .collect();
        if !said.is_empty() {
            problems.extend(said);
            continue;
        }
        let (
            Some(customer),
            Some(currency),
            Some(amount),
            Some(bill_in),
            Some(every),
            Some(day),
            Some(due_days),
            Some(start),
        ) = (
            customer, currency, amount, bill_in, every, day, due_days, start,
        )
        else {
            continue;
        };
        out.push(Read {
            row,
            id: id.clone(),
            create: Event::Create {
                customer,
                every,
                start,
                end,
                reference,
                terms: Terms {
                    amount: amount.normalize().max(Decimal::ZERO),
                    currency: currency.code().to_string(),
                    bill_in,
                    day,
                    due_days,
                    description,
                    metadata,
                },
            },
        });
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// Events to add, each with its contract's id.
pub type Events = Vec<(String, Event)>;

/// Of `read`, the contracts to add (those not kept yet), and how many were kept already
/// as they are; a contract kept with other terms is a problem (nothing is added).
pub fn new_ones(read: Vec<Read>, kept: &[Contract]) -> Result<(Events, usize), Vec<ImportProblem>> {
    let mut add = Vec::new();
    let mut same = 0;
    let mut problems = Vec::new();
    for r in read {
        match kept.iter().find(|c| c.id == r.id) {
            None => add.push((r.id, r.create)),
            Some(c) if c.history.first().is_some_and(|k| k.event == r.create) => same += 1,
            Some(_) => problems.push(ImportProblem {
                row: r.row,
                column: String::new(),
                why: ImportWhy::Exists(r.id),
            }),
        }
    }
    if problems.is_empty() {
        Ok((add, same))
    } else {
        Err(problems)
    }
}
