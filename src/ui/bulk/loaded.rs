//! A file read and checked: what the table and the totals show of it.

use super::*;

impl Loaded {
    pub(super) fn new(
        path: PathBuf,
        rows: Arc<crate::sheet::Rows>,
        file_id: String,
        mapping: Vec<ColumnUse>,
        plan: Plan,
        account_currency: Option<Currency>,
        known: HashMap<usize, Known>,
    ) -> Loaded {
        let mut problems: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (i, p) in plan.problems.iter().enumerate() {
            if p.row > 1 {
                problems.entry(p.row).or_default().push(i);
            }
        }
        let valid = plan
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| (r.row, i))
            .collect();
        let all_rows = rows
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(_, cells)| !cells.is_blank())
            .map(|(i, _)| i + 1)
            .collect();
        let header = rows.header();
        let problem_rows = problems.keys().copied().collect();
        Loaded {
            path,
            rows,
            header,
            file_id,
            mapping,
            plan: Arc::new(plan),
            problems,
            valid,
            all_rows,
            problem_rows,
            account_currency,
            known,
        }
    }

    /// How many valid rows are still to issue: not issued already (the journal says), nor
    /// settled by the last run (issued, found issued, invalid), nor a possible duplicate
    /// the clerk did not tick.
    /// The valid rows (indexes in the plan) a run would still issue: not known, not
    /// settled by a run, a look-alike only when the clerk allowed it.
    pub(super) fn to_issue(
        &self,
        progress: Option<&Progress>,
        allowed: &HashSet<usize>,
    ) -> Vec<usize> {
        (0..self.plan.rows.len())
            .filter(|i| !self.known.contains_key(i))
            .filter(
                |&i| match progress.and_then(|p| p.statuses.get(i).cloned().flatten()) {
                    Some(
                        Status::Created(_) | Status::SkippedExisting(_) | Status::SkippedInvalid,
                    ) => false,
                    Some(Status::PossibleDuplicate(_)) => allowed.contains(&self.plan.rows[i].row),
                    _ => true,
                },
            )
            .collect()
    }

    /// What spreadsheet row `row` shows in column `c` when that column is its amount or
    /// its due date and the value did read (a row with a problem elsewhere too): the
    /// value as the clerk reads it (`$1.341.000`, `UF 33,0956`, `31-12-2026`).
    pub(super) fn shown_value(&self, row: usize, c: usize) -> Option<String> {
        let (amount, due) = match self.valid.get(&row) {
            Some(&i) => {
                let inv = &self.plan.rows.get(i)?.invoice;
                let currency = inv.currency.currency().or(self.account_currency);
                (Some((inv.amount, currency)), inv.due_date.as_deref())
            }
            None => {
                let read = self.plan.read_of_invalid.get(&row)?;
                (read.amount, read.due.as_deref())
            }
        };
        match self.mapping.get(c)? {
            ColumnUse::Field(Field::Amount) => {
                let (amount, currency) = amount?;
                Some(money::format_amount(amount, currency.map(Currency::code)))
            }
            ColumnUse::Field(Field::Due) => due.map(crate::i18n::date),
            _ => None,
        }
    }

    /// The problems of spreadsheet row `row` in the clerk's words (`None`: it has none).
    pub(super) fn problems_text(&self, row: usize) -> Option<Vec<String>> {
        let ps = self.problems.get(&row)?;
        Some(
            ps.iter()
                .map(|&i| crate::i18n::bulk_problem(&self.plan.problems[i]))
                .collect(),
        )
    }

    /// The totals per currency of the valid rows at these indexes, in words, the UF's
    /// with its pesos on `uf`'s day: "$48.213.000 y UF 1.234,5678 ≈ $48.941.113 al
    /// 26-11-2026".
    pub(super) fn totals_text(
        &self,
        rows: impl IntoIterator<Item = usize>,
        uf: Option<&crate::uf::UfDay>,
    ) -> String {
        let parts: Vec<String> = self
            .plan
            .totals_of(rows)
            .iter()
            .map(|(code, (_, sum))| {
                let code = match (code.as_str(), self.account_currency) {
                    ("", Some(c)) => c.code(),
                    (code, _) => code,
                };
                match code {
                    "" => tr!(
                        "bulk-in-account-currency",
                        amount = money::format_amount(*sum, None)
                    ),
                    "CLF" => crate::i18n::uf_amount(*sum, uf),
                    code => money::format_amount(*sum, Some(code)),
                }
            })
            .collect();
        match parts.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} {} {last}", rest.join(", "), tr!("bulk-and")),
        }
    }
}

pub(super) fn use_word(u: ColumnUse) -> String {
    match u {
        ColumnUse::Field(f) => crate::i18n::bulk_field(f),
        ColumnUse::Ignore => tr!("bulk-use-none"),
        ColumnUse::Unrecognised => "—".to_string(),
    }
}

pub(super) fn duration_words(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 120 {
        format!("{} min", s.div_ceil(60))
    } else {
        format!("{} s", s.max(1))
    }
}
