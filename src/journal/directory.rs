//! The customer directory, in the journal's file: the service has no customer search and
//! clerks do not remember `cus_…` ids. Imported from CSV/XLSX (id, name, RUT, notes),
//! and learnt from every id the app or CLI sees (listings, journal entries).

use super::db::{Db, DbError, vals};
use super::store::write_error;
use super::{Journal, JournalError};
use crate::rut::Rut;
use std::collections::HashMap;

/// A customer as the directory knows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Customer {
    /// The service's id (`cus_…`).
    pub id: String,
    /// Name, when known.
    pub name: Option<String>,
    /// RUT, written the usual way (`76.123.456-7`), when known.
    pub rut: Option<String>,
    /// The clerk's notes.
    pub notes: Option<String>,
    /// Where its statements, invoices and reminders are e-mailed (checked addresses;
    /// any that is not one is left out when read back).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub emails: Vec<String>,
}

impl Customer {
    /// One line for a suggestion: `Name · 76.123.456-7 · cus_id`.
    pub fn line(&self) -> String {
        let mut parts: Vec<&str> = Vec::new();
        if let Some(n) = &self.name {
            parts.push(n);
        }
        if let Some(r) = &self.rut {
            parts.push(r);
        }
        parts.push(&self.id);
        parts.join(" · ")
    }
}

/// Lowercase, without accents or RUT punctuation: what searches compare.
pub fn fold(text: &str) -> String {
    fold_text(text)
        .chars()
        .filter(|c| !matches!(c, '.' | '-'))
        .collect()
}

/// Lowercase, without accents: how headers and names are compared.
pub fn fold_text(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'ä' | 'â' => 'a',
            'é' | 'è' | 'ë' | 'ê' => 'e',
            'í' | 'ì' | 'ï' | 'î' => 'i',
            'ó' | 'ò' | 'ö' | 'ô' => 'o',
            'ú' | 'ù' | 'ü' | 'û' => 'u',
            'ñ' => 'n',
            other => other,
        })
        .collect()
}

fn search_text(c: &Customer) -> String {
    let rut = c
        .rut
        .as_deref()
        .and_then(|r| Rut::parse(r).ok())
        .map(|r| r.compact())
        .unwrap_or_default();
    fold(&format!(
        "{} {} {}",
        c.name.as_deref().unwrap_or(""),
        rut,
        c.id
    ))
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

impl Journal {
    fn dir_err(&self, e: DbError) -> JournalError {
        write_error(&self.path)(e)
    }

    /// Brings this journal's directory into `other`'s (switching to the desk's shared
    /// journal, or `journal push`): every customer known here by name, RUT or notes
    /// that `other` knows by none of them. What the desk already wrote is kept.
    /// How many were brought.
    pub fn bring_directory_into(&self, other: &mut Journal) -> Result<usize, JournalError> {
        other.bring_customers(&self.directory_to_bring()?)
    }

    /// The customers this journal knows by name, RUT or notes (what
    /// [`Journal::bring_directory_into`] brings).
    pub fn directory_to_bring(&self) -> Result<Vec<Customer>, JournalError> {
        Ok(self
            .known_customers(u64::MAX >> 1)?
            .into_iter()
            .filter(|c| {
                c.name.is_some() || c.rut.is_some() || c.notes.is_some() || !c.emails.is_empty()
            })
            .collect())
    }

    /// Adds those of `customers` this directory knows by none of name, RUT or notes;
    /// how many.
    pub fn bring_customers(&mut self, customers: &[Customer]) -> Result<usize, JournalError> {
        let mut missing = Vec::new();
        for c in customers {
            let there = self.customer(&c.id)?;
            if there.is_none_or(|t| t.name.is_none() && t.rut.is_none() && t.notes.is_none()) {
                missing.push(c.clone());
            }
        }
        self.import_customers(&missing)
    }

    /// Whether the directory knows any customer by name or RUT (not only ids learnt from
    /// listings and entries).
    pub fn has_named_customers(&self) -> Result<bool, JournalError> {
        self.db()
            .one(
                "SELECT 1 FROM customers WHERE name IS NOT NULL OR rut IS NOT NULL LIMIT 1",
                &[],
            )
            .map(|r| r.is_some())
            .map_err(|e| super::store::read_error(&self.path)(e))
    }

    /// Adds or replaces customers (an import), all or none.
    pub fn import_customers(&mut self, customers: &[Customer]) -> Result<usize, JournalError> {
        let path = self.path.clone();
        self.write(|tx| {
            for c in customers {
                if tx.shared() {
                    tx.exec(
                        "SELECT journal_customer_put(?1, ?2, ?3, ?4, ?5)",
                        &vals![&c.id, &c.name, &c.rut, &c.notes, search_text(c)],
                    )?;
                } else {
                    tx.exec(
                        "INSERT INTO customers (id, name, rut, notes, search, updated)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                         ON CONFLICT(id) DO UPDATE SET name = ?2, rut = ?3, notes = ?4,
                            search = ?5, updated = ?6",
                        &vals![&c.id, &c.name, &c.rut, &c.notes, search_text(c), now()],
                    )?;
                }
                // A file without contacts leaves the ones the directory has.
                if !c.emails.is_empty() {
                    emails_in(tx, &c.id, &c.emails)?;
                }
            }
            Ok(customers.len())
        })
        .map_err(write_error(&path))
    }

    /// Sets where customer `id` is e-mailed (replacing what was there; none: no e-mail).
    /// The addresses must be checked ones ([`crate::address::parse_addresses`]).
    pub fn set_customer_emails(&mut self, id: &str, emails: &[String]) -> Result<(), JournalError> {
        let path = self.path.clone();
        self.write(|tx| emails_in(tx, id, emails))
            .map_err(write_error(&path))
    }

    /// Notes customer ids seen (a listing, a journal entry); known ones are left as they
    /// are.
    pub fn learn_customers<'a>(
        &mut self,
        ids: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), JournalError> {
        let path = self.path.clone();
        self.write(|tx| {
            for id in ids {
                learn_in(tx, id)?;
            }
            Ok(())
        })
        .map_err(write_error(&path))
    }

    /// Customers whose name, RUT or id contains `text` (case, accents and RUT punctuation
    /// ignored), at most `limit`: first the one whose id, name or RUT is exactly `text`,
    /// then named ones by name. (Exact ones first, or a billing run naming "Banco" would
    /// not find it behind 50 names that contain it, and take "Banco" for an id.)
    pub fn find_customers(&self, text: &str, limit: usize) -> Result<Vec<Customer>, JournalError> {
        let folded = fold(text.trim());
        let escape = |s: &str| {
            s.replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_")
        };
        let escaped = escape(&folded);
        // `search` is "name rut id", folded: an exact name is its start, an exact RUT a
        // word of it. Not a RUT: a pattern no `search` matches (it always holds the id).
        let rut_word = Rut::parse(text)
            .map(|r| format!("% {} %", escape(&fold(&r.compact()))))
            .unwrap_or_default();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self
            .db()
            .query(
                "SELECT id, name, rut, notes, emails FROM customers WHERE search LIKE ?1 ESCAPE '\\'
                 ORDER BY CASE WHEN id = ?3 THEN 0 WHEN search LIKE ?4 ESCAPE '\\' THEN 1
                               WHEN search LIKE ?5 ESCAPE '\\' THEN 2 ELSE 3 END,
                          (name IS NULL), lower(name), id LIMIT ?2",
                &vals![
                    format!("%{escaped}%"),
                    limit,
                    text.trim(),
                    format!("{escaped} %"),
                    rut_word
                ],
            )
            .map_err(|e| self.dir_err(e))?;
        rows.iter()
            .map(customer_of)
            .collect::<Result<_, DbError>>()
            .map_err(|e| self.dir_err(e))
    }

    /// The customer with this id, as the directory knows it.
    pub fn customer(&self, id: &str) -> Result<Option<Customer>, JournalError> {
        let row = self
            .db()
            .one(
                "SELECT id, name, rut, notes, emails FROM customers WHERE id = ?1",
                &vals![id],
            )
            .map_err(|e| self.dir_err(e))?;
        row.as_ref()
            .map(customer_of)
            .transpose()
            .map_err(|e| self.dir_err(e))
    }

    /// The customer with this id as the directory knows it, or only its id when the
    /// directory has nothing (an e-mail or a statement still names it).
    pub fn customer_or_id(&self, id: &str) -> Result<Customer, JournalError> {
        Ok(self.customer(id)?.unwrap_or_else(|| Customer {
            id: id.to_string(),
            ..Customer::default()
        }))
    }

    /// Every customer the directory knows (imported, or seen in the journal), by id;
    /// at most `limit`.
    pub fn known_customers(&self, limit: u64) -> Result<Vec<Customer>, JournalError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.db()
            .query(
                "SELECT id, name, rut, notes, emails FROM customers ORDER BY id LIMIT ?1",
                &vals![limit],
            )
            .and_then(|rows| rows.iter().map(customer_of).collect())
            .map_err(|e| self.dir_err(e))
    }

    /// The names known for these ids.
    pub fn customer_names(&self, ids: &[&str]) -> Result<HashMap<String, String>, JournalError> {
        let mut out = HashMap::new();
        for id in ids {
            let name = self
                .db()
                .one(
                    "SELECT name FROM customers WHERE id = ?1 AND name IS NOT NULL",
                    &vals![*id],
                )
                .map_err(|e| self.dir_err(e))?;
            if let Some(name) = name.and_then(|r| r.text(0).ok()) {
                out.insert(id.to_string(), name);
            }
        }
        Ok(out)
    }
}

/// Sets customer `id`'s contacts inside the caller's transaction.
fn emails_in(tx: &dyn Db, id: &str, emails: &[String]) -> Result<(), DbError> {
    let text = (!emails.is_empty()).then(|| emails.join(", "));
    if tx.shared() {
        return tx
            .exec("SELECT journal_customer_emails(?1, ?2)", &vals![id, &text])
            .map(|_| ());
    }
    tx.exec(
        "INSERT INTO customers (id, search, emails, updated) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(id) DO UPDATE SET emails = ?3, updated = ?4",
        &vals![id, fold(id), &text, now()],
    )
    .map(|_| ())
}

/// A customer from a row of `id, name, rut, notes, emails` (a shared journal's rows are
/// anyone's: an address that is not one is left out).
fn customer_of(r: &super::db::DbRow) -> Result<Customer, DbError> {
    Ok(Customer {
        id: r.text(0)?,
        name: r.opt_text(1)?,
        rut: r.opt_text(2)?,
        notes: r.opt_text(3)?,
        emails: r
            .opt_text(4)?
            .map(|t| emails_of(t.as_str()))
            .unwrap_or_default(),
    })
}

/// The good addresses of a stored list, at most [`crate::address::MAX_RECIPIENTS`].
fn emails_of(text: &str) -> Vec<String> {
    text.split([',', ';', ' '])
        .filter_map(crate::address::parse_address)
        .map(|a| a.to_string())
        .take(crate::address::MAX_RECIPIENTS)
        .collect()
}

/// Notes one customer id in the directory, inside the caller's transaction (a journal
/// intent learns its customer in the same commit); known ids are left as they are.
pub(super) fn learn_in(conn: &dyn Db, id: &str) -> Result<(), DbError> {
    let id = id.trim();
    if id.is_empty() || id.chars().count() > 200 || id.chars().any(char::is_control) {
        return Ok(());
    }
    if conn.shared() {
        // After the commit, on its own: in the writer's transaction, the same new
        // customer inserted by the groups of several clerks at once waited on each other
        // until a lock timeout or a deadlock, which undid the intent and stopped the run.
        conn.learn_after_commit(id, fold(id));
        return Ok(());
    }
    conn.exec(
        "INSERT INTO customers (id, search, updated) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
        &vals![id, fold(id), now()],
    )
    .map(|_| ())
}

/// A problem with one cell of an import file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    /// The row as the spreadsheet numbers it (the header is row 1).
    pub row: usize,
    /// The column's header.
    pub column: String,
    /// What is wrong, in English (the CLI's words; the app has its own).
    pub why: ImportWhy,
}

/// What is wrong with a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportWhy {
    /// The id is empty.
    NoId,
    /// The RUT is not one.
    BadRut(String),
    /// The RUT's check digit is wrong.
    WrongCheckDigit(String, char),
    /// The same id twice in the file.
    Duplicate(String),
    /// Not an e-mail address (or more than ten of them).
    BadEmail(String),
    /// A name that is not one line of text (a line break, a control character).
    NameNotOneLine(String),
    /// A name longer than [`MAX_NAME`] characters (how many it has).
    NameTooLong(usize),
    /// No id column: the header names none of `id`, `cliente`, `customer`.
    NoIdColumn,
    /// The file cannot be read, or passes a limit.
    Unreadable(crate::sheet::SheetError),
}

crate::engineers_text!(ImportError);

/// The longest customer name imported.
pub const MAX_NAME: usize = 200;

fn header_key(h: &str) -> Option<&'static str> {
    match fold(h.trim()).as_str() {
        "id" | "cliente" | "customer" | "customer_id" | "id cliente" | "id_cliente" => Some("id"),
        "name" | "nombre" | "razon social" | "razon_social" => Some("name"),
        "rut" => Some("rut"),
        "notes" | "notas" | "nota" | "observaciones" => Some("notes"),
        "email"
        | "emails"
        | "e-mail"
        | "correo"
        | "correos"
        | "mail"
        | "contacto"
        | "correo electronico"
        | "correos electronicos" => Some("emails"),
        _ => None,
    }
}

/// Reads a directory file: CSV (comma or semicolon; UTF-8, a BOM allowed) or XLSX (first
/// sheet). Every problem is reported; any problem means nothing is imported.
pub fn read_import(path: &std::path::Path) -> Result<Vec<Customer>, Vec<ImportError>> {
    let unreadable = |e: crate::sheet::SheetError| {
        vec![ImportError {
            row: 0,
            column: String::new(),
            why: ImportWhy::Unreadable(e),
        }]
    };
    let rows = crate::sheet::read_rows(path, None)
        .map_err(unreadable)?
        .rows;
    parse_rows(&rows)
}

fn parse_rows(rows: &crate::sheet::Rows) -> Result<Vec<Customer>, Vec<ImportError>> {
    let Some(header) = rows.get(0) else {
        return Ok(Vec::new());
    };
    let header = header.to_vec();
    let body = rows.iter().skip(1);
    let keys: Vec<Option<&str>> = header.iter().map(|h| header_key(h)).collect();
    let col = |k: &str| keys.iter().position(|x| *x == Some(k));
    let Some(id_col) = col("id") else {
        return Err(vec![ImportError {
            row: 1,
            column: String::new(),
            why: ImportWhy::NoIdColumn,
        }]);
    };
    let (name_col, rut_col, notes_col) = (col("name"), col("rut"), col("notes"));
    let emails_col = col("emails");
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, r) in body.enumerate() {
        let row = i + 2;
        let cell = |c: Option<usize>| {
            c.and_then(|c| r.get(c))
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
        };
        if r.is_blank() {
            continue;
        }
        let problem = |c: usize, why| ImportError {
            row,
            column: header[c].clone(),
            why,
        };
        let Some(id) = cell(Some(id_col)) else {
            problems.push(problem(id_col, ImportWhy::NoId));
            continue;
        };
        if !seen.insert(id.clone()) {
            problems.push(problem(id_col, ImportWhy::Duplicate(id)));
            continue;
        }
        let rut = match (cell(rut_col), rut_col) {
            (Some(text), Some(c)) => match Rut::parse(&text) {
                Ok(r) => Some(r.to_string()),
                Err(crate::rut::RutError::WrongCheckDigit { expected }) => {
                    problems.push(problem(c, ImportWhy::WrongCheckDigit(text, expected)));
                    continue;
                }
                Err(crate::rut::RutError::NotARut) => {
                    problems.push(problem(c, ImportWhy::BadRut(text)));
                    continue;
                }
            },
            _ => None,
        };
        let emails = match (cell(emails_col), emails_col) {
            (Some(text), Some(c)) => match crate::address::parse_addresses(&text) {
                Ok(list) => list,
                Err(bad) => {
                    problems.push(problem(c, ImportWhy::BadEmail(bad)));
                    continue;
                }
            },
            _ => Vec::new(),
        };
        let name = cell(name_col);
        if let (Some(n), Some(c)) = (&name, name_col) {
            // What customers read their name in (an e-mail's text, a statement): one
            // line of a sane length, checked here rather than trusted later.
            if n.chars().any(crate::text::is_unsafe) {
                problems.push(problem(c, ImportWhy::NameNotOneLine(n.clone())));
                continue;
            }
            let chars = n.chars().count();
            if chars > MAX_NAME {
                problems.push(problem(c, ImportWhy::NameTooLong(chars)));
                continue;
            }
        }
        out.push(Customer {
            id,
            name,
            rut,
            notes: cell(notes_col),
            emails,
        });
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn import_find_by_name_rut_or_id_and_learn() {
        crate::journal::tests::on_both(|_, j| import_find_learn(j));
    }

    fn import_find_learn(mut j: crate::journal::Journal) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("clientes.csv");
        std::fs::write(
            &file,
            "\u{feff}Cliente;Razón social;RUT;Notas\ncus_big;Distribuidora Grande del Sur S.A.;76123456-0;paga a 60 días\ncus_b;Ñandú Ltda.;12.345.678-5;\n",
        )
        .unwrap();
        let rows = read_import(&file).unwrap();
        assert_eq!(j.import_customers(&rows).unwrap(), 2);
        let hit = j.find_customers("distri", 8).unwrap();
        assert_eq!(hit.len(), 1);
        assert_eq!(
            hit[0].line(),
            "Distribuidora Grande del Sur S.A. · 76.123.456-0 · cus_big"
        );
        assert_eq!(hit[0].notes.as_deref(), Some("paga a 60 días"));
        assert_eq!(j.find_customers("nandu", 8).unwrap()[0].id, "cus_b");
        assert_eq!(j.find_customers("12345678", 8).unwrap()[0].id, "cus_b");
        assert_eq!(j.find_customers("12.345.678-5", 8).unwrap()[0].id, "cus_b");
        assert_eq!(j.find_customers("CUS_BIG", 8).unwrap()[0].id, "cus_big");
        assert!(j.find_customers("%", 8).unwrap().is_empty());
        j.learn_customers(["cus_nuevo", "cus_b", ""]).unwrap();
        let learnt = j.find_customers("cus_", 8).unwrap();
        assert_eq!(learnt.len(), 3);
        assert_eq!(learnt.last().unwrap().id, "cus_nuevo", "unnamed ones last");
        assert_eq!(
            j.customer_names(&["cus_b", "cus_nuevo"]).unwrap(),
            HashMap::from([("cus_b".to_string(), "Ñandú Ltda.".to_string())])
        );
    }

    #[test]
    fn an_exact_name_is_found_among_many_that_contain_it() {
        crate::journal::tests::on_both(|_, j| exact_among_many(j));
    }

    /// A billing run names "Banco" while 60 customers' names contain it and sort before it:
    /// the search's first page must still hold the exact one, or the row would go to a
    /// customer id "Banco".
    fn exact_among_many(mut j: crate::journal::Journal) {
        let mut rows: Vec<Customer> = (0..60)
            .map(|i| Customer {
                id: format!("cus_a{i}"),
                name: Some(format!("Agrícola del Banco {i:02}")),
                rut: None,
                notes: None,
                emails: Vec::new(),
            })
            .collect();
        rows.push(Customer {
            id: "cus_banco".into(),
            name: Some("Banco".into()),
            rut: None,
            notes: None,
            emails: Vec::new(),
        });
        rows.push(Customer {
            id: "cus_z".into(),
            name: Some("Zapatería 12.345.678-5".into()),
            rut: None,
            notes: None,
            emails: Vec::new(),
        });
        rows.push(Customer {
            id: "cus_rut".into(),
            name: Some("Zurita Ltda.".into()),
            rut: Some("12.345.678-5".into()),
            notes: None,
            emails: Vec::new(),
        });
        j.import_customers(&rows).unwrap();
        assert_eq!(
            crate::bulk::resolve_customer(&j, "Banco").ok().as_deref(),
            Some("cus_banco")
        );
        assert_eq!(
            crate::bulk::resolve_customer(&j, "BANCO").ok().as_deref(),
            Some("cus_banco")
        );
        assert_eq!(j.find_customers("banco", 50).unwrap()[0].id, "cus_banco");
        assert_eq!(
            crate::bulk::resolve_customer(&j, "Agrícola del Banco 59")
                .ok()
                .as_deref(),
            Some("cus_a59")
        );
        assert_eq!(
            crate::bulk::resolve_customer(&j, "cus_a7").ok().as_deref(),
            Some("cus_a7")
        );
        assert_eq!(
            crate::bulk::resolve_customer(&j, "12.345.678-5")
                .ok()
                .as_deref(),
            Some("cus_rut")
        );
    }

    #[test]
    fn an_excel_workbook_is_read_from_its_first_sheet() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/clientes.xlsx");
        let rows = read_import(&path).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(
            rows[0].name.as_deref(),
            Some("Distribuidora Grande del Sur S.A.")
        );
        assert_eq!(rows[0].notes.as_deref(), Some("paga a 60 días"));
        // A RUT typed as a number in Excel is read as its digits.
        assert_eq!(
            (rows[1].id.as_str(), rows[1].rut.as_deref()),
            ("cus_num", Some("12.345.678-5"))
        );
    }

    #[test]
    fn a_bad_file_names_each_problem_and_imports_nothing() {
        let rows: crate::sheet::Rows = [
            vec!["id", "nombre", "rut"],
            vec!["cus_a", "A", "12.345.678-9"],
            vec!["", "B", ""],
            vec!["cus_c", "C", "hola"],
            vec!["cus_a", "A otra vez", ""],
            vec!["cus_d", "D", "12.345.678-5"],
        ]
        .into_iter()
        .collect();
        let problems = parse_rows(&rows).unwrap_err();
        let text: Vec<String> = problems.iter().map(crate::i18n::import_problem).collect();
        assert_eq!(
            text,
            [
                "Row 2, column rut: the check digit of 12.345.678-9 should be 5",
                "Row 3, column id: the id is empty",
                "Row 4, column rut: \"hola\" is not a RUT",
                "Row 5, column id: cus_a is already in a row above",
            ]
        );
        let no_id: crate::sheet::Rows = [vec!["nombre"], vec!["x"]].into_iter().collect();
        assert_eq!(
            parse_rows(&no_id).unwrap_err()[0].why,
            ImportWhy::NoIdColumn
        );
    }
}
