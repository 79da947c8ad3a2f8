//! Monthly billing runs: a spreadsheet of invoices read, mapped by its header (Spanish or
//! English, case and accents ignored, changeable in the app) and checked row by row
//! before anything is sent. Sending, with the journal so that no row is ever issued
//! twice, is [`run`]'s; the results file is [`report`]'s. The CLI's `bulk` command and
//! the app's Bulk issue panel both use these.

mod pace;
pub mod run;

use crate::api::{AmountError, ApiError, Currency, CurrencyChoice, NewInvoice, money};
use crate::input::DateError;
use crate::journal::fold_text;
pub use crate::sheet::{Row, Rows};
use rust_decimal::Decimal;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};

/// One row ready to send.
#[derive(Clone, Debug, PartialEq)]
pub struct BulkRow {
    /// The row as the spreadsheet numbers it (the header is row 1).
    pub row: usize,
    /// What will be sent.
    pub invoice: NewInvoice,
    /// The row's own account key (else the profile's).
    pub account_key: Option<String>,
    /// The reference older versions gave this row (`BULK-<file digest>-<row>`), when the
    /// file gives none: a run they started is recognised and resumed.
    pub legacy_reference: Option<String>,
    /// The reference versions before this one made from its content with its metadata
    /// (metadata does not change what is invoiced, so it is no longer part of the key):
    /// a month issued then is recognised when its columns change.
    pub metadata_reference: Option<String>,
}

impl BulkRow {
    /// The other references that name this row's invoice (older versions' ones).
    pub fn aliases(&self) -> Vec<String> {
        self.legacy_reference
            .iter()
            .chain(self.metadata_reference.iter())
            .cloned()
            .collect()
    }

    /// Every reference that names this row's invoice: its own, then the aliases.
    pub fn references(&self) -> impl Iterator<Item = &str> {
        self.invoice
            .invoice_external_id
            .iter()
            .chain(self.legacy_reference.iter())
            .chain(self.metadata_reference.iter())
            .map(String::as_str)
    }
}

/// A problem with one cell (or the header).
#[derive(Clone, Debug)]
pub struct RowError {
    /// The row as the spreadsheet numbers it.
    pub row: usize,
    /// The column (0-based) it is about, if one.
    pub col: Option<usize>,
    /// The column's header as written ("" for the whole row or header).
    pub column: String,
    /// What is wrong.
    pub why: Why,
}

/// Why a row (or the header) cannot be sent, said in the clerk's language by
/// `i18n::bulk_why` (`Display` is for engineers).
#[derive(Clone, Debug)]
pub enum Why {
    /// Columns that are not a known field and were not set aside.
    UnknownColumns(Vec<String>),
    /// No column says who the customer is.
    NoCustomerColumn,
    /// No column has the amount.
    NoAmountColumn,
    /// Two columns are mapped to the same field.
    TwiceMapped(Field),
    /// The customer cell is empty.
    CustomerEmpty,
    /// The customer is not one the directory knows by that name or RUT.
    CustomerNotFound(String),
    /// Likewise, and the directory has no names at all (a journal just switched to, or
    /// never imported into): the clerk is told why.
    DirectoryEmpty(String),
    /// The name or RUT matches several customers of the directory.
    CustomerAmbiguous(String, usize),
    /// The directory could not be read (the reason, for engineers).
    DirectoryUnreadable(String),
    /// The amount cell is empty.
    AmountEmpty,
    /// The amount cannot be read (or is not above zero).
    Amount(AmountError),
    /// A currency the profile does not offer.
    Currency {
        /// As written.
        text: String,
        /// The codes offered.
        offered: Vec<String>,
    },
    /// A due date that cannot be read.
    Date(DateError),
    /// The reference is already used by an earlier row.
    DuplicateReference {
        /// The reference.
        reference: String,
        /// The earlier row.
        first_row: usize,
    },
    /// The invoice would be refused before sending (sizes, decimals).
    Invoice(ApiError),
}

crate::engineers_text!(Why);

crate::engineers_text!(RowError);

/// What a file would do.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// The valid rows, in file order.
    pub rows: Vec<BulkRow>,
    /// Every problem found.
    pub problems: Vec<RowError>,
    /// Rows with a problem (spreadsheet numbers).
    pub invalid_rows: Vec<usize>,
    /// What the rows with a problem had that did read (spreadsheet number → values), so
    /// the table shows `UF 35,8870` there too, not the cell's `35.887`.
    pub read_of_invalid: BTreeMap<usize, ReadBack>,
}

/// The amount and due date a row with a problem read as, where they did.
#[derive(Clone, Debug, Default)]
pub struct ReadBack {
    /// The amount and its currency (`None`: the account's).
    pub amount: Option<(Decimal, Option<Currency>)>,
    /// The due date, ISO.
    pub due: Option<String>,
}

impl Plan {
    /// Count and total per currency code of the valid rows ("" for the account's
    /// currency), exact.
    pub fn totals(&self) -> BTreeMap<String, (usize, Decimal)> {
        self.totals_of(0..self.rows.len())
    }

    /// [`Plan::totals`] of the valid rows at these indexes.
    pub fn totals_of(
        &self,
        rows: impl IntoIterator<Item = usize>,
    ) -> BTreeMap<String, (usize, Decimal)> {
        let mut out: BTreeMap<String, (usize, Decimal)> = BTreeMap::new();
        for r in rows.into_iter().filter_map(|i| self.rows.get(i)) {
            let code = r
                .invoice
                .currency
                .currency()
                .map_or(String::new(), |c| c.code().to_string());
            let e = out.entry(code).or_default();
            e.0 += 1;
            e.1 += r.invoice.amount;
        }
        out
    }

    /// How many distinct customers the valid rows go to.
    pub fn customers(&self) -> usize {
        self.customers_of(0..self.rows.len())
    }

    /// How many distinct customers the valid rows at these indexes go to.
    pub fn customers_of(&self, rows: impl IntoIterator<Item = usize>) -> usize {
        self.customer_ids_of(rows).len()
    }

    /// The distinct customer ids the valid rows go to, sorted.
    pub fn customer_ids(&self) -> Vec<&str> {
        self.customer_ids_of(0..self.rows.len())
    }

    /// The distinct customer ids the valid rows at these indexes go to, sorted.
    fn customer_ids_of(&self, rows: impl IntoIterator<Item = usize>) -> Vec<&str> {
        let mut ids: Vec<&str> = rows
            .into_iter()
            .filter_map(|i| self.rows.get(i))
            .map(|r| r.invoice.customer.as_str())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Gives the rows' older-style references the file's digest, for a plan made with
    /// [`DIGEST_LATER`] (the file was read as it was planned, so its digest came last).
    pub fn set_digest(&mut self, digest: &str) {
        let placeholder = format!("BULK-{DIGEST_LATER}-");
        for r in &mut self.rows {
            if let Some(rest) = r
                .legacy_reference
                .as_deref()
                .and_then(|l| l.strip_prefix(&placeholder))
            {
                r.legacy_reference = Some(format!("BULK-{digest}-{rest}"));
            }
        }
    }

    /// True when the header itself is wrong (then no row was read).
    pub fn header_refused(&self) -> bool {
        self.problems.iter().any(|p| p.row == 1)
    }
}

/// What a column of the file fills in.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Field {
    /// Who is invoiced: an id, or a name or RUT from the customer directory.
    Customer,
    /// The amount, in the file's style.
    Amount,
    /// The currency code (empty: the account's).
    Currency,
    /// The due date.
    Due,
    /// The product.
    Product,
    /// The invoice's reference (`invoice_external_id`).
    Reference,
    /// The account key of the row.
    Account,
    /// An extra field (`metadata.NAME`; other headers give their own name).
    Metadata,
}

impl Field {
    /// Every field, in the order the app offers them.
    pub const ALL: [Field; 8] = [
        Field::Customer,
        Field::Amount,
        Field::Currency,
        Field::Due,
        Field::Product,
        Field::Reference,
        Field::Account,
        Field::Metadata,
    ];

    /// The field's name as the service knows it.
    pub fn key(self) -> &'static str {
        match self {
            Field::Customer => "customer",
            Field::Amount => "amount",
            Field::Currency => "currency_code",
            Field::Due => "due_date",
            Field::Product => "product_id",
            Field::Reference => "invoice_external_id",
            Field::Account => "account_key",
            Field::Metadata => "metadata",
        }
    }
}

/// What is done with a column.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ColumnUse {
    /// It fills in this field.
    Field(Field),
    /// Set aside on purpose.
    Ignore,
    /// Not recognised, and nobody said what it is: a problem unless set aside.
    Unrecognised,
}

impl ColumnUse {
    /// Its name in a saved mapping (`amount`, `ignore`, …).
    pub fn code(self) -> &'static str {
        match self {
            ColumnUse::Field(f) => f.key(),
            ColumnUse::Ignore => "ignore",
            ColumnUse::Unrecognised => "unrecognised",
        }
    }

    /// From [`ColumnUse::code`].
    pub fn from_code(code: &str) -> Option<ColumnUse> {
        Field::ALL
            .into_iter()
            .map(ColumnUse::Field)
            .chain([ColumnUse::Ignore, ColumnUse::Unrecognised])
            .find(|u| u.code() == code)
    }
}

/// A file's header and how its columns are mapped, as text kept with a billing run (so
/// resuming it reads the file the same way).
pub fn mapping_text(header: &[String], mapping: &[ColumnUse]) -> String {
    serde_json::json!({
        "header": header,
        "mapping": mapping.iter().map(|u| u.code()).collect::<Vec<_>>(),
    })
    .to_string()
}

/// The mapping kept by [`mapping_text`], when it is for this header.
pub fn mapping_for(text: &str, header: &[String]) -> Option<Vec<ColumnUse>> {
    let v: Value = serde_json::from_str(text).ok()?;
    let saved: Vec<String> = serde_json::from_value(v.get("header")?.clone()).ok()?;
    if saved != header {
        return None;
    }
    let codes: Vec<String> = serde_json::from_value(v.get("mapping")?.clone()).ok()?;
    let mapping: Option<Vec<ColumnUse>> = codes.iter().map(|c| ColumnUse::from_code(c)).collect();
    mapping.filter(|m| m.len() == header.len())
}

/// A currency as a Chilean clerk writes it in a sheet: "UF" is the CLF, "$" and "pesos"
/// the CLP (case and accents ignored); `None` for anything else (an ISO code is read
/// as such).
pub fn currency_word(text: &str) -> Option<Currency> {
    match fold_text(text.trim()).as_str() {
        "uf" | "u.f." | "unidad de fomento" => Some(Currency::CLF),
        "$" | "peso" | "pesos" | "peso chileno" | "pesos chilenos" | "clp$" => Some(Currency::CLP),
        _ => None,
    }
}

/// The field a header names, if it names one.
pub fn detect(header: &str) -> ColumnUse {
    let h = fold_text(header.trim());
    if h.starts_with("metadata.") && h.len() > "metadata.".len() {
        return ColumnUse::Field(Field::Metadata);
    }
    ColumnUse::Field(match h.as_str() {
        "customer" | "cliente" | "customer_id" | "id cliente" => Field::Customer,
        "amount" | "monto" => Field::Amount,
        "currency_code" | "currency" | "moneda" => Field::Currency,
        "due_date" | "vencimiento" | "fecha de vencimiento" => Field::Due,
        "product_id" | "producto" | "product" => Field::Product,
        "invoice_external_id" | "external_id" | "referencia" | "reference" => Field::Reference,
        "account_key" | "cuenta" => Field::Account,
        "" => return ColumnUse::Ignore,
        _ => return ColumnUse::Unrecognised,
    })
}

/// The mapping of a header as detected.
pub fn detect_all(header: &[String]) -> Vec<ColumnUse> {
    header.iter().map(|h| detect(h)).collect()
}

/// How a customer cell is resolved: an id as written, or a name or RUT found in the
/// directory. `Err` says why not (not found, more than one).
pub type Resolve<'a> = &'a dyn Fn(&str) -> Result<String, Why>;

/// The file id to plan with when the file's digest is known only after its rows (see
/// [`Plan::set_digest`]).
pub const DIGEST_LATER: &str = "digest-later";

/// What [`plan`] needs besides the rows.
pub struct PlanInput<'a> {
    /// A digest of the file: older versions made the references of rows without one from
    /// it, so the rows of a run they started are recognised by it.
    pub file_id: &'a str,
    /// The currencies a row may name.
    pub currencies: &'a [Currency],
    /// The currency amounts without one are read in (the account's, if known).
    pub reading: Option<Currency>,
    /// Customer names and RUTs to ids.
    pub resolve: Resolve<'a>,
    /// What each column is (`None`: as the header says).
    pub mapping: Option<&'a [ColumnUse]>,
    /// Unrecognised columns are left out rather than refused.
    pub ignore_unknown_columns: bool,
}

/// Reads the rows (header first) into a plan.
pub fn plan(rows: &Rows, input: &PlanInput<'_>) -> Plan {
    let Some(header) = rows.get(0) else {
        return Plan::default();
    };
    let mut planner = Planner::new(header, input);
    for (i, cells) in rows.iter().enumerate().skip(1) {
        planner.push(i + 1, cells);
    }
    planner.finish()
}

/// A plan built one row at a time, as a file is read (nothing of the file is kept but
/// what the plan needs).
pub struct Planner<'a> {
    input: &'a PlanInput<'a>,
    header: Vec<String>,
    cols: Vec<ColumnUse>,
    plan: Plan,
    /// The header was refused: no row is read.
    refused: bool,
    reference_col: Option<usize>,
    seen: HashMap<String, usize>,
    /// How many valid rows so far issue each content (identical rows are distinct
    /// invoices, told apart by their occurrence).
    occurrences: HashMap<String, usize>,
    /// Likewise, of the content keys older versions made (with metadata).
    occurrences_with_metadata: HashMap<String, usize>,
    /// Customer cells already resolved (a file names few customers many times).
    resolved: HashMap<String, Result<String, Why>>,
}

impl<'a> Planner<'a> {
    /// A planner for rows under `header`.
    pub fn new(header: &Row, input: &'a PlanInput<'a>) -> Planner<'a> {
        let header = header.to_vec();
        let mut plan = Plan::default();
        let mut cols: Vec<ColumnUse> = match input.mapping {
            Some(m) => m.to_vec(),
            None => detect_all(&header),
        };
        cols.resize(header.len(), ColumnUse::Ignore);
        let header_problem = |why: Why| RowError {
            row: 1,
            col: None,
            column: String::new(),
            why,
        };
        let unknown: Vec<String> = header
            .iter()
            .zip(&cols)
            .filter(|(_, c)| **c == ColumnUse::Unrecognised)
            .map(|(h, _)| h.clone())
            .collect();
        if !unknown.is_empty() && !input.ignore_unknown_columns {
            plan.problems
                .push(header_problem(Why::UnknownColumns(unknown)));
        }
        for required in [Field::Customer, Field::Amount] {
            if !cols.contains(&ColumnUse::Field(required)) {
                plan.problems.push(header_problem(match required {
                    Field::Customer => Why::NoCustomerColumn,
                    _ => Why::NoAmountColumn,
                }));
            }
        }
        for field in Field::ALL.into_iter().filter(|f| *f != Field::Metadata) {
            if cols
                .iter()
                .filter(|c| **c == ColumnUse::Field(field))
                .count()
                > 1
            {
                plan.problems.push(header_problem(Why::TwiceMapped(field)));
            }
        }
        let reference_col = cols
            .iter()
            .position(|k| *k == ColumnUse::Field(Field::Reference));
        Planner {
            input,
            refused: !plan.problems.is_empty(),
            header,
            cols,
            plan,
            reference_col,
            seen: HashMap::new(),
            occurrences: HashMap::new(),
            occurrences_with_metadata: HashMap::new(),
            resolved: HashMap::new(),
        }
    }

    /// The plan so far.
    pub fn finish(self) -> Plan {
        self.plan
    }

    /// Reads row `row` (as the spreadsheet numbers it) into the plan.
    pub fn push(&mut self, row: usize, cells: &Row) {
        if self.refused || cells.is_blank() {
            return;
        }
        let input = self.input;
        let (header, cols, plan) = (&self.header, &self.cols, &mut self.plan);
        let resolved = &mut self.resolved;
        let before = plan.problems.len();
        let mut problem = |c: Option<usize>, why: Why| {
            plan.problems.push(RowError {
                row,
                col: c,
                column: c.map_or(String::new(), |c| header[c].clone()),
                why,
            })
        };
        let mut customer = String::new();
        let mut amount_text = (0, String::new(), false);
        let mut currency = CurrencyChoice::AccountDefault;
        let mut due = None;
        let mut product = None;
        let mut reference = None;
        let mut account = None;
        let mut metadata = Map::new();
        for (c, kind) in cols.iter().enumerate() {
            let ColumnUse::Field(kind) = kind else {
                continue;
            };
            let text = cells.get(c).map(|s| s.trim()).unwrap_or("");
            match kind {
                Field::Customer if text.is_empty() => problem(Some(c), Why::CustomerEmpty),
                Field::Customer => match resolved
                    .entry(text.to_string())
                    .or_insert_with(|| (input.resolve)(text))
                {
                    Ok(id) => customer = id.clone(),
                    Err(why) => problem(Some(c), why.clone()),
                },
                Field::Amount => amount_text = (c, text.to_string(), cells.is_number(c)),
                Field::Currency if text.is_empty() => {}
                Field::Currency => {
                    match currency_word(text)
                        .or_else(|| Currency::from_code(&text.to_ascii_uppercase()))
                        .filter(|cur| input.currencies.contains(cur))
                    {
                        Some(cur) => currency = CurrencyChoice::Code(cur),
                        None => problem(
                            Some(c),
                            Why::Currency {
                                text: text.to_string(),
                                offered: input
                                    .currencies
                                    .iter()
                                    .map(|c| c.code().to_string())
                                    .collect(),
                            },
                        ),
                    }
                }
                Field::Due if text.is_empty() => {}
                Field::Due => {
                    match crate::input::parse_date(text, crate::input::DateOrder::DayFirst) {
                        Ok(d) => due = Some(d.format("%Y-%m-%d").to_string()),
                        Err(e) => problem(Some(c), Why::Date(e)),
                    }
                }
                Field::Product => product = Some(text.to_string()).filter(|t| !t.is_empty()),
                Field::Reference => reference = Some(text.to_string()).filter(|t| !t.is_empty()),
                Field::Account => account = Some(text.to_string()).filter(|t| !t.is_empty()),
                Field::Metadata if text.is_empty() => {}
                Field::Metadata => {
                    let name = metadata_name(&header[c]).to_string();
                    metadata.insert(name, Value::String(text.to_string()));
                }
            }
        }
        let (ac, text, number_cell) = amount_text;
        let amount = match read_amount(&text, number_cell, currency.currency().or(input.reading)) {
            Ok(a) => Some(a),
            Err(why) => {
                problem(Some(ac), why);
                None
            }
        };
        if let Some(reference) = &reference {
            if let Some(first) = self.seen.get(reference) {
                problem(
                    Some(self.reference_col.unwrap_or(0)),
                    Why::DuplicateReference {
                        reference: reference.clone(),
                        first_row: *first,
                    },
                );
            } else {
                self.seen.insert(reference.clone(), row);
            }
        }
        if plan.problems.len() > before {
            plan.invalid_rows.push(row);
            let amount = amount.map(|a| (a, currency.currency().or(input.reading)));
            plan.read_of_invalid.insert(row, ReadBack { amount, due });
            return;
        }
        let Some(amount) = amount else { return };
        let mut invoice = NewInvoice {
            customer,
            amount,
            currency,
            product_id: product,
            due_date: due,
            invoice_external_id: reference.clone(),
            metadata: (!metadata.is_empty()).then_some(metadata),
            ..NewInvoice::default()
        };
        // The same checks as any invoice sent (decimals for the currency, sizes).
        if let Err(e) = invoice.to_json() {
            plan.problems.push(RowError {
                row,
                col: None,
                column: String::new(),
                why: Why::Invoice(e),
            });
            plan.invalid_rows.push(row);
            let amount = Some((
                invoice.amount,
                invoice.currency.currency().or(input.reading),
            ));
            let due = invoice.due_date;
            plan.read_of_invalid.insert(row, ReadBack { amount, due });
            return;
        }
        let legacy_reference = reference
            .is_none()
            .then(|| format!("BULK-{}-{row}", input.file_id));
        let metadata_reference = if reference.is_none() {
            self.reference_by_content(&mut invoice)
        } else {
            None
        };
        let plan = &mut self.plan;
        plan.rows.push(BulkRow {
            row,
            invoice,
            account_key: account,
            legacy_reference,
            metadata_reference,
        });
    }

    /// A row without a reference gets one from its content (`BULK-<key>-<n>`, the n-th
    /// row with that content), so that a file read again claims the same references;
    /// the reference earlier versions gave a row with metadata, to find it again.
    fn reference_by_content(&mut self, invoice: &mut NewInvoice) -> Option<String> {
        let key = content_key(invoice);
        let n = self.occurrences.entry(key.clone()).or_insert(0);
        *n += 1;
        invoice.invoice_external_id = Some(format!("BULK-{key}-{n}"));
        if invoice.metadata.as_ref().is_none_or(|m| m.is_empty()) {
            return None;
        }
        let old = content_key_of(invoice, true);
        let n = self
            .occurrences_with_metadata
            .entry(old.clone())
            .or_insert(0);
        *n += 1;
        Some(format!("BULK-{old}-{n}"))
    }
}

/// A metadata column's key: its header, without a `metadata.` before it.
fn metadata_name(header: &str) -> &str {
    let h = header.trim();
    if fold_text(h).starts_with("metadata.") {
        &h["metadata.".len()..]
    } else {
        h
    }
}

/// An amount cell's text (`number_cell`: the spreadsheet typed it as a number), read in
/// the currency `reading`: more than zero, or why not.
pub(crate) fn read_amount(
    text: &str,
    number_cell: bool,
    reading: Option<Currency>,
) -> Result<Decimal, Why> {
    if text.is_empty() {
        return Err(Why::AmountEmpty);
    }
    let parsed = if number_cell {
        money::parse_number_cell(text, reading)
    } else {
        money::parse_amount_input(text, reading)
    };
    match parsed {
        Ok(a) if a > Decimal::ZERO => Ok(a),
        Ok(_) => Err(Why::Amount(AmountError::NotPositive)),
        Err(e) => Err(Why::Amount(e)),
    }
}

/// A customer cell: an id as written, or a name or RUT the directory knows (exactly one).
pub fn resolve_customer(journal: &crate::journal::Journal, text: &str) -> Result<String, Why> {
    let found = journal
        .find_customers(text, 50)
        .map_err(|e| Why::DirectoryUnreadable(e.to_string()))?;
    let wanted = crate::journal::fold(text);
    let rut = crate::rut::Rut::parse(text).ok().map(|r| r.to_string());
    let exact: Vec<&crate::journal::Customer> = found
        .iter()
        .filter(|c| {
            c.id == text
                || c.name
                    .as_deref()
                    .is_some_and(|n| crate::journal::fold(n) == wanted)
                || (rut.is_some() && c.rut == rut)
        })
        .collect();
    match exact.as_slice() {
        [one] => Ok(one.id.clone()),
        [] if !text.contains(char::is_whitespace) && rut.is_none() => Ok(text.to_string()),
        [] if !journal.has_named_customers().unwrap_or(true) => {
            Err(Why::DirectoryEmpty(text.to_string()))
        }
        [] => Err(Why::CustomerNotFound(text.to_string())),
        many => Err(Why::CustomerAmbiguous(text.to_string(), many.len())),
    }
}

/// What a row issues, as a digest (16 hex digits of SHA-256): customer, amount, currency,
/// due date, product and extra fields — not its metadata (notes for the desk, such as a
/// cost centre: they change nothing invoiced), the file, its format, its row order or its
/// column names. A row without a reference is `BULK-<this>-<occurrence>`, so the same
/// month saved again as CSV or XLSX, re-sorted, or with a column renamed or added
/// (metadata too), is the same run.
pub fn content_key(inv: &NewInvoice) -> String {
    content_key_of(inv, false)
}

/// [`content_key`], with the metadata when `with_metadata` (as versions before this one
/// made it: their references are aliases of the new ones).
fn content_key_of(inv: &NewInvoice, with_metadata: bool) -> String {
    use sha2::Digest;
    let sorted = |m: Option<&Map<String, Value>>| -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = m
            .into_iter()
            .flatten()
            .map(|(k, v)| (k.clone(), v.to_string()))
            .collect();
        v.sort();
        v
    };
    let canonical = serde_json::json!([
        inv.customer,
        inv.amount.normalize().to_string(),
        inv.currency.currency().map(|c| c.code()).unwrap_or(""),
        inv.due_date.as_deref().unwrap_or(""),
        inv.product_id.as_deref().unwrap_or(""),
        sorted(inv.metadata.as_ref().filter(|_| with_metadata)),
        sorted(Some(&inv.extra)),
    ]);
    sha2::Sha256::digest(canonical.to_string().as_bytes())
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `reference` is one this app made for a row without one
/// (`BULK-<hex digest>-<number>`), not one a clerk wrote: a customer is never shown it.
pub fn is_made_reference(reference: &str) -> bool {
    let Some(rest) = reference.strip_prefix("BULK-") else {
        return false;
    };
    let Some((digest, n)) = rest.split_once('-') else {
        return false;
    };
    (10..=16).contains(&digest.len())
        && digest.bytes().all(|b| b.is_ascii_hexdigit())
        && !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
}

/// The first 10 hex digits of the file's SHA-256: how older versions named the rows of a
/// file without references (`BULK-<this>-<row>`).
pub fn file_id(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .take(5)
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests;
