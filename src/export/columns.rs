//! The columns of an export: the known fields' (from the table of known fields) and the
//! derived status, in their fixed order; the optional and extra ones as rows bring them;
//! their titles in the dialect's words.

use super::*;

/// Where a column's cells come from: a known field (its index in
/// [`KNOWN_FIELDS`]), or the status derived from several of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Source {
    Known(usize),
    Status,
}

/// The column of the derived status, and its position.
pub(super) const STATUS_COLUMN: (&str, u8) = ("status", 5);

/// The columns that come from known fields and the derived status, in CSV order (from
/// the table of known fields: positions 0–8 always written, 9 on when any row has them).
pub(super) fn typed_columns() -> &'static [(&'static str, u8, Source)] {
    static COLUMNS: std::sync::OnceLock<Vec<(&'static str, u8, Source)>> =
        std::sync::OnceLock::new();
    COLUMNS.get_or_init(|| {
        let mut v: Vec<_> = KNOWN_FIELDS
            .iter()
            .enumerate()
            .filter_map(|(i, f)| f.csv.map(|(name, pos)| (name, pos, Source::Known(i))))
            .collect();
        v.push((STATUS_COLUMN.0, STATUS_COLUMN.1, Source::Status));
        v.sort_by_key(|c| c.1);
        v
    })
}

/// The fixed columns, always present, in this order.
pub fn fixed_columns() -> Vec<&'static str> {
    typed_columns()
        .iter()
        .filter(|c| c.1 < FIRST_OPTIONAL_COLUMN)
        .map(|c| c.0)
        .collect()
}

/// The most distinct extra fields a streamed export accepts: a service that invents a
/// new field name for every invoice cannot make the header (held in memory) grow without
/// end.
pub const MAX_EXTRA_COLUMNS: usize = 1000;

/// A column that only some rows bring: an optional known one (its position) or another
/// field (its name).
#[derive(Clone, Debug)]
pub(super) enum Brought {
    Optional(u8),
    Extra(String),
}

/// The columns a set of rows needs, learnt row by row.
#[derive(Clone, Debug, Default)]
pub struct ColumnSet {
    /// Positions of the optional columns some row has, as bits.
    optional: u32,
    extra: BTreeSet<String>,
    /// The optional and extra columns above, in the order rows first brought them.
    brought: Vec<Brought>,
}

impl ColumnSet {
    /// Notes the fields of one row; true when it brought a column not seen before.
    pub fn add(&mut self, r: &Invoice) -> bool {
        let before = self.brought.len();
        for (_, pos, source) in typed_columns() {
            if *pos >= FIRST_OPTIONAL_COLUMN
                && let Source::Known(i) = source
                && self.optional & (1 << pos) == 0
                && r.known(*i).is_some()
            {
                self.optional |= 1 << pos;
                self.brought.push(Brought::Optional(*pos));
            }
        }
        for k in r.other_names() {
            if !self.extra.contains(k) {
                self.extra.insert(k.to_string());
                self.brought.push(Brought::Extra(k.to_string()));
            }
        }
        self.brought.len() > before
    }

    /// How many optional and extra columns were seen: with [`ColumnSet::first`], what the
    /// set was at a given moment.
    pub(super) fn seen(&self) -> usize {
        self.brought.len()
    }

    /// The set as it was when it held its first `n` optional and extra columns.
    pub(super) fn first(&self, n: usize) -> ColumnSet {
        let mut set = ColumnSet::default();
        for b in &self.brought[..n.min(self.brought.len())] {
            match b {
                Brought::Optional(pos) => set.optional |= 1 << pos,
                Brought::Extra(k) => {
                    set.extra.insert(k.clone());
                }
            }
            set.brought.push(b.clone());
        }
        set
    }

    /// How many distinct extra fields were seen.
    pub fn extra_count(&self) -> usize {
        self.extra.len()
    }

    /// The header: fixed columns, known optional ones present, then the rest, sorted.
    pub fn columns(&self) -> Vec<String> {
        let mut out: Vec<String> = typed_columns()
            .iter()
            .filter(|(_, pos, _)| *pos < FIRST_OPTIONAL_COLUMN || self.optional & (1 << pos) != 0)
            .map(|(name, _, _)| name.to_string())
            .collect();
        let extra: Vec<String> = self
            .extra
            .iter()
            .filter(|k| !out.iter().any(|c| c == *k))
            .cloned()
            .collect();
        out.extend(extra);
        out
    }
}

/// The header for these rows: fixed columns, known optional ones present, then the rest.
pub fn columns<'a>(rows: impl Iterator<Item = &'a Invoice>) -> Vec<String> {
    let mut set = ColumnSet::default();
    for r in rows {
        set.add(r);
    }
    set.columns()
}

/// Where each header column's cells come from: a typed column (its index in
/// [`typed_columns`]), or an extra field by name. Resolved once per export, not per cell.
pub(super) fn column_sources(header: &[String]) -> Vec<Result<usize, &str>> {
    header
        .iter()
        .map(|c| {
            typed_columns()
                .iter()
                .position(|t| t.0 == c)
                .ok_or(c.as_str())
        })
        .collect()
}

/// The header as the dialect titles it: the stable English names for programs; for
/// Excel in Spanish the words a clerk reads ("Vencimiento", "Estado"), the service's
/// other fields keeping their names. Cells are matched to columns by the names, never
/// by these titles.
pub(super) fn titles(header: &[String], dialect: Dialect) -> Vec<String> {
    if dialect == Dialect::Standard {
        return header.to_vec();
    }
    let es = |key: &str| crate::i18n::text_in(crate::i18n::Lang::Es, key);
    header
        .iter()
        .map(|h| {
            if h == STATUS_COLUMN.0 {
                return es("col-status");
            }
            match typed_columns().iter().find(|t| t.0 == h) {
                Some((_, _, Source::Known(i))) => es(&format!(
                    "field-{}",
                    KNOWN_FIELDS[*i].name.replace('_', "-")
                )),
                _ => h.clone(),
            }
        })
        .collect()
}
