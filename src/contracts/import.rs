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
pub struct ImportError {
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

/// A file's header: each column's meaning.
struct Header {
    names: Vec<String>,
    cols: BTreeMap<usize, Column>,
    metadata: Vec<(usize, String)>,
}

impl Header {
    /// The header row read, or every problem with it.
    fn of(names: Vec<String>) -> Result<Header, Vec<ImportError>> {
        let mut h = Header {
            names,
            cols: BTreeMap::new(),
            metadata: Vec::new(),
        };
        let mut unknown = Vec::new();
        let mut problems = Vec::new();
        let header_problem = |why| ImportError {
            row: 1,
            column: String::new(),
            why,
        };
        for (i, name) in h.names.iter().enumerate() {
            let folded = crate::journal::fold_text(name.trim());
            if let Some(m) = folded.strip_prefix("metadata.").filter(|n| !n.is_empty()) {
                h.metadata.push((i, m.to_string()));
            } else if let Some(c) = Column::of(name) {
                if h.cols.values().any(|x| *x == c) {
                    problems.push(header_problem(ImportWhy::TwiceNamed(c)));
                }
                h.cols.insert(i, c);
            } else if !name.trim().is_empty() {
                unknown.push(crate::text::escape_controls(name).into_owned());
            }
        }
        if !unknown.is_empty() {
            problems.push(header_problem(ImportWhy::UnknownColumns(unknown)));
        }
        for required in [
            Column::Contract,
            Column::Customer,
            Column::Amount,
            Column::Currency,
            Column::Start,
        ] {
            if h.col(required).is_none() {
                problems.push(header_problem(ImportWhy::MissingColumn(required)));
            }
        }
        if problems.is_empty() {
            Ok(h)
        } else {
            Err(problems)
        }
    }

    fn col(&self, c: Column) -> Option<usize> {
        self.cols.iter().find(|(_, x)| **x == c).map(|(i, _)| *i)
    }
}

/// One row being read: its cells by column, and its problems.
struct RowReader<'a> {
    h: &'a Header,
    row: usize,
    cells: &'a crate::sheet::Row,
    said: Vec<ImportError>,
}

impl RowReader<'_> {
    fn cell(&self, c: Column) -> String {
        self.h
            .col(c)
            .and_then(|i| self.cells.get(i))
            .map(str::trim)
            .unwrap_or("")
            .to_string()
    }

    fn problem(&mut self, c: Column, why: ImportWhy) {
        let column = self
            .h
            .col(c)
            .map(|i| self.h.names[i].clone())
            .unwrap_or_default();
        self.said.push(ImportError {
            row: self.row,
            column,
            why,
        });
    }

    /// The contract's id (checked, once in the file).
    fn id(&mut self, seen: &mut HashSet<String>) -> String {
        let id = self.cell(Column::Contract);
        if id.is_empty() {
            self.problem(Column::Contract, ImportWhy::EmptyCell(Column::Contract));
        } else if id.chars().count() > super::MAX_ID
            || id.chars().any(crate::text::is_unsafe)
            || id.contains('{')
        {
            self.problem(Column::Contract, ImportWhy::BadId);
        } else if !seen.insert(id.clone()) {
            self.problem(Column::Contract, ImportWhy::Duplicate(id.clone()));
        }
        id
    }

    fn customer(&mut self, resolve: Resolve<'_>) -> Option<String> {
        match self.cell(Column::Customer) {
            t if t.is_empty() => {
                self.problem(Column::Customer, ImportWhy::EmptyCell(Column::Customer));
                None
            }
            t => resolve(&t)
                .map_err(|why| self.problem(Column::Customer, ImportWhy::Customer(why)))
                .ok(),
        }
    }

    /// The currency, the amount in it, and what it is billed in.
    fn money(
        &mut self,
        currencies: &[Currency],
    ) -> (Option<Currency>, Option<Decimal>, Option<BillIn>) {
        let text = self.cell(Column::Currency);
        let currency = crate::bulk::currency_word(&text)
            .or_else(|| Currency::from_code(&text.to_uppercase()))
            .filter(|c| currencies.is_empty() || currencies.contains(c));
        if currency.is_none() {
            self.problem(Column::Currency, ImportWhy::Currency(text));
        }
        let number = self
            .h
            .col(Column::Amount)
            .is_some_and(|i| self.cells.is_number(i));
        let amount = crate::bulk::read_amount(&self.cell(Column::Amount), number, currency)
            .map_err(|why| self.problem(Column::Amount, ImportWhy::Amount(why)))
            .ok();
        let bill_in = match BillIn::parse(&self.cell(Column::BillIn)) {
            Some(BillIn::PesosAtUf) if currency != Some(Currency::CLF) => {
                self.problem(Column::BillIn, ImportWhy::PesosNeedUf);
                None
            }
            Some(b) => Some(b),
            None => {
                let t = self.cell(Column::BillIn);
                self.problem(Column::BillIn, ImportWhy::BillIn(t));
                None
            }
        };
        (currency, amount, bill_in)
    }

    /// How often, the day it is issued and the days until due.
    fn schedule(&mut self) -> (Option<Every>, Option<u32>, Option<u32>) {
        let every = match self.cell(Column::Every) {
            t if t.is_empty() => Some(Every::Month),
            t => Every::parse(&t).or_else(|| {
                self.problem(Column::Every, ImportWhy::Every(t.clone()));
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
        let day_text = self.cell(Column::Day);
        let day = small(&day_text, 1, 1..=31);
        if day.is_none() {
            self.problem(Column::Day, ImportWhy::Day(day_text));
        }
        let due_text = self.cell(Column::DueDays);
        let due_days = small(&due_text, 30, 0..=365);
        if due_days.is_none() {
            self.problem(Column::DueDays, ImportWhy::DueDays(due_text));
        }
        (every, day, due_days)
    }

    /// Its first and last periods.
    fn span(&mut self) -> (Option<Period>, Option<Period>) {
        let mut period = |c: Column| {
            let t = self.cell(c);
            if t.is_empty() {
                return None;
            }
            let p = Period::parse(&t);
            if p.is_none() {
                self.problem(c, ImportWhy::Period(t));
            }
            p
        };
        let (start, end) = (period(Column::Start), period(Column::End));
        if self.cell(Column::Start).is_empty() {
            self.problem(Column::Start, ImportWhy::EmptyCell(Column::Start));
        }
        if let (Some(s), Some(e)) = (start, end)
            && e < s
        {
            self.problem(Column::End, ImportWhy::EndBeforeStart);
        }
        (start, end)
    }

    /// Its reference pattern (`None`: the default one), checked with the id.
    fn reference(&mut self, id: &str) -> Option<String> {
        let max = crate::api::model::MAX_TEXT - 10;
        let reference = match self.cell(Column::Reference) {
            t if t.is_empty() => None,
            t if !t.contains("{period}")
                || t.chars().count() > max
                || t.chars().any(crate::text::is_unsafe) =>
            {
                self.problem(Column::Reference, ImportWhy::Reference(t));
                None
            }
            t => Some(t),
        };
        if !id.is_empty()
            && reference.is_none()
            && Contract::default_reference(id).chars().count() > max
        {
            self.problem(Column::Contract, ImportWhy::BadId);
        }
        reference
    }

    fn metadata(&self) -> BTreeMap<String, String> {
        self.h
            .metadata
            .iter()
            .filter_map(|(i, name)| {
                let v = self.cells.get(*i).map(str::trim).unwrap_or("");
                (!v.is_empty()).then(|| (name.clone(), v.to_string()))
            })
            .collect()
    }
}

/// Reads `rows` (header first). `currencies`: those the profile offers; `resolve`: a
/// customer cell to an id, as a billing run does.
pub fn read(
    rows: &Rows,
    currencies: &[Currency],
    resolve: Resolve<'_>,
) -> Result<Vec<Read>, Vec<ImportError>> {
    let Some(header) = rows.get(0) else {
        return Err(vec![ImportError {
            row: 1,
            column: String::new(),
            why: ImportWhy::Empty,
        }]);
    };
    let h = Header::of(header.to_vec())?;
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let mut seen = HashSet::new();
    for (n, cells) in rows.iter().enumerate().skip(1) {
        if cells.is_blank() {
            continue;
        }
        let mut r = RowReader {
            h: &h,
            row: n + 1,
            cells,
            said: Vec::new(),
        };
        let id = r.id(&mut seen);
        let customer = r.customer(resolve);
        let (currency, amount, bill_in) = r.money(currencies);
        let (every, day, due_days) = r.schedule();
        let (start, end) = r.span();
        let reference = r.reference(&id);
        let description = Some(r.cell(Column::Description)).filter(|d| !d.is_empty());
        let metadata = r.metadata();
        if !r.said.is_empty() {
            problems.extend(r.said);
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
            row: r.row,
            id,
            create: Event::Create {
                customer,
                every,
                start,
                end,
                reference,
                terms: Terms {
                    amount: amount.normalize(),
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
pub fn new_ones(read: Vec<Read>, kept: &[Contract]) -> Result<(Events, usize), Vec<ImportError>> {
    let mut add = Vec::new();
    let mut same = 0;
    let mut problems = Vec::new();
    for r in read {
        match kept.iter().find(|c| c.id == r.id) {
            None => add.push((r.id, r.create)),
            Some(c) if c.history.first().is_some_and(|k| k.event == r.create) => same += 1,
            Some(_) => problems.push(ImportError {
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

/// Why the contracts of a file were not kept: its rows, or the journal.
#[derive(Debug)]
pub enum NotKept {
    /// Every problem of the file (nothing kept).
    Rows(Vec<ImportError>),
    /// The journal could not be read or written.
    Journal(crate::journal::JournalError),
}

/// Reads `rows` as a contracts file (customers resolved in `j`'s directory, as a billing
/// run does) and keeps in `j` the contracts it adds, all or none: the events added, and
/// how many contracts were kept already as they are. The CLI's import, the panel's import
/// and its form all keep contracts through this.
pub fn import_rows(
    j: &mut crate::journal::Journal,
    rows: &Rows,
    currencies: &[Currency],
) -> Result<(Events, usize), NotKept> {
    let kept = super::contracts_in(j).map_err(NotKept::Journal)?;
    let read = {
        let resolve = |text: &str| crate::bulk::resolve_customer(j, text);
        read(rows, currencies, &resolve).map_err(NotKept::Rows)?
    };
    let (add, same) = new_ones(read, &kept).map_err(NotKept::Rows)?;
    super::keep(j, &add).map_err(NotKept::Journal)?;
    Ok((add, same))
}
