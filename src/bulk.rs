//! Monthly billing runs: a spreadsheet of invoices read, mapped by its header (Spanish or
//! English, case and accents ignored) and checked row by row before anything is sent.
//! Sending (with the journal, so no row is ever issued twice) is the caller's: the CLI's
//! `bulk` command.

use crate::api::{Currency, CurrencyChoice, NewInvoice, money};
use crate::journal::fold_text;
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
}

/// A problem with one cell (or the header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The row as the spreadsheet numbers it.
    pub row: usize,
    /// The column's header as written.
    pub column: String,
    /// What is wrong, in English.
    pub why: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let esc = |s: &str| crate::text::escape_controls(s).into_owned();
        if self.column.is_empty() {
            write!(f, "row {}: {}", self.row, esc(&self.why))
        } else {
            write!(
                f,
                "row {}, column {}: {}",
                self.row,
                esc(&self.column),
                esc(&self.why)
            )
        }
    }
}

/// What a file would do.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// The valid rows, in file order.
    pub rows: Vec<BulkRow>,
    /// Every problem found.
    pub problems: Vec<Problem>,
    /// Rows with a problem (spreadsheet numbers).
    pub invalid_rows: Vec<usize>,
}

impl Plan {
    /// Count and total per currency code of the valid rows ("" for the account's
    /// currency), exact.
    pub fn totals(&self) -> BTreeMap<String, (usize, Decimal)> {
        let mut out: BTreeMap<String, (usize, Decimal)> = BTreeMap::new();
        for r in &self.rows {
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
        let mut ids: Vec<&str> = self
            .rows
            .iter()
            .map(|r| r.invoice.customer.as_str())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids.len()
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Col {
    Customer,
    Amount,
    Currency,
    Due,
    Product,
    Reference,
    Account,
    Metadata,
}

fn column(header: &str) -> Option<Col> {
    let h = fold_text(header.trim());
    if h.starts_with("metadata.") && h.len() > "metadata.".len() {
        return Some(Col::Metadata);
    }
    Some(match h.as_str() {
        "customer" | "cliente" | "customer_id" | "id cliente" => Col::Customer,
        "amount" | "monto" => Col::Amount,
        "currency_code" | "currency" | "moneda" => Col::Currency,
        "due_date" | "vencimiento" | "fecha de vencimiento" => Col::Due,
        "product_id" | "producto" | "product" => Col::Product,
        "invoice_external_id" | "external_id" | "referencia" | "reference" => Col::Reference,
        "account_key" | "cuenta" => Col::Account,
        _ => return None,
    })
}

/// How a customer cell is resolved: an id as written, or a name or RUT found in the
/// directory. `Err` says why not (not found, more than one).
pub type Resolve<'a> = &'a dyn Fn(&str) -> Result<String, String>;

/// Reads the rows (header first) into a plan. `file_id` (a digest of the file) makes the
/// references of rows without one: the same file gives the same references, so running
/// it again finds what it already issued. `currencies`: the codes a row may name.
/// `reading`: the currency amounts without one are read in (the account's, if known).
pub fn plan(
    rows: &[Vec<String>],
    file_id: &str,
    currencies: &[Currency],
    reading: Option<Currency>,
    resolve: Resolve<'_>,
    ignore_unknown_columns: bool,
) -> Plan {
    let mut plan = Plan::default();
    let Some((header, body)) = rows.split_first() else {
        return plan;
    };
    let cols: Vec<Option<Col>> = header.iter().map(|h| column(h)).collect();
    let header_problem = |why: String| Problem {
        row: 1,
        column: String::new(),
        why,
    };
    let unknown: Vec<&str> = header
        .iter()
        .zip(&cols)
        .filter(|(h, c)| c.is_none() && !h.trim().is_empty())
        .map(|(h, _)| h.as_str())
        .collect();
    if !unknown.is_empty() && !ignore_unknown_columns {
        plan.problems.push(header_problem(format!(
            "unknown columns: {} (--ignore-columns leaves them out)",
            unknown.join(", ")
        )));
    }
    for required in [Col::Customer, Col::Amount] {
        if !cols.contains(&Some(required)) {
            plan.problems.push(header_problem(match required {
                Col::Customer => "no customer column (customer or cliente)".into(),
                _ => "no amount column (amount or monto)".into(),
            }));
        }
    }
    if !plan.problems.is_empty() {
        return plan;
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (i, cells) in body.iter().enumerate() {
        let row = i + 2;
        if cells.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        let before = plan.problems.len();
        let mut problem = |c: usize, why: String| {
            plan.problems.push(Problem {
                row,
                column: header[c].clone(),
                why,
            })
        };
        let mut customer = String::new();
        let mut amount_text = (0, String::new());
        let mut currency = CurrencyChoice::AccountDefault;
        let mut due = None;
        let mut product = None;
        let mut reference = None;
        let mut account = None;
        let mut metadata = Map::new();
        for (c, kind) in cols.iter().enumerate() {
            let Some(kind) = kind else { continue };
            let text = cells.get(c).map(|s| s.trim()).unwrap_or("");
            match kind {
                Col::Customer if text.is_empty() => problem(c, "the customer is empty".into()),
                Col::Customer => match resolve(text) {
                    Ok(id) => customer = id,
                    Err(why) => problem(c, why),
                },
                Col::Amount => amount_text = (c, text.to_string()),
                Col::Currency if text.is_empty() => {}
                Col::Currency => {
                    match Currency::from_code(&text.to_ascii_uppercase())
                        .filter(|cur| currencies.contains(cur))
                    {
                        Some(cur) => currency = CurrencyChoice::Code(cur),
                        None => {
                            let offered: Vec<&str> = currencies.iter().map(|c| c.code()).collect();
                            problem(
                                c,
                                format!(
                                    "\"{text}\" is not one of this profile's currencies ({})",
                                    offered.join(", ")
                                ),
                            )
                        }
                    }
                }
                Col::Due if text.is_empty() => {}
                Col::Due => match crate::input::parse_date(text, crate::input::DateOrder::DayFirst)
                {
                    Ok(d) => due = Some(d.format("%Y-%m-%d").to_string()),
                    Err(e) => problem(c, e.to_string()),
                },
                Col::Product => product = Some(text.to_string()).filter(|t| !t.is_empty()),
                Col::Reference => reference = Some(text.to_string()).filter(|t| !t.is_empty()),
                Col::Account => account = Some(text.to_string()).filter(|t| !t.is_empty()),
                Col::Metadata if text.is_empty() => {}
                Col::Metadata => {
                    let name = header[c].trim()["metadata.".len()..].to_string();
                    metadata.insert(name, Value::String(text.to_string()));
                }
            }
        }
        let (ac, text) = amount_text;
        let amount = if text.is_empty() {
            problem(ac, "the amount is empty".into());
            None
        } else {
            match money::parse_amount_input(&text, currency.currency().or(reading)) {
                Ok(a) if a > Decimal::ZERO => Some(a),
                Ok(_) => {
                    problem(ac, "the amount must be greater than zero".into());
                    None
                }
                Err(e) => {
                    problem(ac, e.to_string());
                    None
                }
            }
        };
        let reference = reference.unwrap_or_else(|| format!("BULK-{file_id}-{row}"));
        if let Some(first) = seen.get(&reference) {
            let c = cols
                .iter()
                .position(|k| *k == Some(Col::Reference))
                .unwrap_or(0);
            problem(
                c,
                format!("the reference {reference} is already in row {first}"),
            );
        } else {
            seen.insert(reference.clone(), row);
        }
        if plan.problems.len() > before {
            plan.invalid_rows.push(row);
            continue;
        }
        let Some(amount) = amount else { continue };
        let invoice = NewInvoice {
            customer,
            amount,
            currency,
            product_id: product,
            due_date: due,
            invoice_external_id: Some(reference),
            metadata: (!metadata.is_empty()).then_some(metadata),
            ..NewInvoice::default()
        };
        // The same checks as any invoice sent (decimals for the currency, sizes).
        if let Err(e) = invoice.to_json() {
            plan.problems.push(Problem {
                row,
                column: String::new(),
                why: e.to_string(),
            });
            plan.invalid_rows.push(row);
            continue;
        }
        plan.rows.push(BulkRow {
            row,
            invoice,
            account_key: account,
        });
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(lines: &[&[&str]]) -> Vec<Vec<String>> {
        lines
            .iter()
            .map(|l| l.iter().map(|s| s.to_string()).collect())
            .collect()
    }

    fn by_id(text: &str) -> Result<String, String> {
        match text {
            "Distribuidora" => Ok("cus_big".into()),
            t if t.starts_with("cus_") => Ok(t.into()),
            t => Err(format!("no customer named \"{t}\" in the directory")),
        }
    }

    #[test]
    fn headers_in_spanish_amounts_in_the_files_style_and_totals_per_currency() {
        let file = rows(&[
            &[
                "Cliente",
                "Monto",
                "Moneda",
                "Vencimiento",
                "Referencia",
                "metadata.centro",
            ],
            &["cus_a", "$1.234.567", "", "31-12-2026", "ERP-1", "Ñuñoa"],
            &["Distribuidora", "12,3456", "CLF", "", "", ""],
            &["cus_b", "12.3456", "clf", "2026-12-31", "", ""],
            &["", "", "", "", "", ""],
        ]);
        let p = plan(
            &file,
            "abc",
            &Currency::DEFAULT_OFFERED,
            Some(Currency::CLP),
            &by_id,
            false,
        );
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        assert_eq!(p.rows.len(), 3);
        assert_eq!(p.rows[0].invoice.amount.to_string(), "1234567");
        assert_eq!(p.rows[0].invoice.due_date.as_deref(), Some("2026-12-31"));
        assert_eq!(
            p.rows[0].invoice.metadata.as_ref().unwrap()["centro"],
            "Ñuñoa"
        );
        assert_eq!(p.rows[1].invoice.customer, "cus_big");
        assert_eq!(
            p.rows[1].invoice.invoice_external_id.as_deref(),
            Some("BULK-abc-3")
        );
        assert_eq!(p.rows[2].invoice.amount.to_string(), "12.3456");
        let totals = p.totals();
        assert_eq!(totals[""], (1, Decimal::from(1_234_567)));
        assert_eq!(totals["CLF"], (2, "24.6912".parse().unwrap()));
        assert_eq!(p.customers(), 3);
    }

    #[test]
    fn every_problem_is_named_by_row_and_column() {
        let file = rows(&[
            &[
                "customer",
                "amount",
                "currency_code",
                "due_date",
                "external_id",
            ],
            &["Nadie", "1000", "", "", "R-1"],
            &["cus_a", "0", "", "", "R-2"],
            &["cus_a", "1.000,5", "", "31-02-2026", "R-3"],
            &["cus_a", "10", "USD", "", "R-1"],
            &["cus_a", "12.345", "CLF", "", "R-5"],
        ]);
        let p = plan(
            &file,
            "f",
            &Currency::DEFAULT_OFFERED,
            Some(Currency::CLP),
            &by_id,
            false,
        );
        let text: Vec<String> = p.problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(p.rows.len(), 0, "{text:#?}");
        assert_eq!(p.invalid_rows, [2, 3, 4, 5, 6]);
        assert!(
            text[0].starts_with("row 2, column customer: no customer named"),
            "{text:#?}"
        );
        assert!(
            text.iter()
                .any(|t| t == "row 3, column amount: The amount must be greater than zero.")
        );
        assert!(
            text.iter()
                .any(|t| t.starts_with("row 4, column due_date:"))
        );
        assert!(
            text.iter()
                .any(|t| t.starts_with("row 5, column currency_code: \"USD\" is not one"))
        );
        assert!(
            text.iter()
                .any(|t| t == "row 5, column external_id: the reference R-1 is already in row 2")
        );
        assert!(
            text.iter()
                .any(|t| t.starts_with("row 6, column amount: \"12.345\" is ambiguous")),
            "{text:#?}"
        );
    }

    #[test]
    fn unknown_or_missing_columns_stop_everything() {
        let file = rows(&[&["cliente", "monto", "color"], &["cus_a", "1000", "rojo"]]);
        let p = plan(&file, "f", &Currency::DEFAULT_OFFERED, None, &by_id, false);
        assert_eq!(
            p.problems[0].to_string(),
            "row 1: unknown columns: color (--ignore-columns leaves them out)"
        );
        let p = plan(&file, "f", &Currency::DEFAULT_OFFERED, None, &by_id, true);
        assert_eq!(p.rows.len(), 1);
        let p = plan(
            &rows(&[&["monto"], &["5"]]),
            "f",
            &Currency::DEFAULT_OFFERED,
            None,
            &by_id,
            false,
        );
        assert!(p.problems[0].why.contains("no customer column"));
    }
}
