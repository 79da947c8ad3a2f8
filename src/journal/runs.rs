//! Billing runs started and not finished: kept so that the app (or the clerk, with the
//! CLI) is offered to resume one that a crash, a closed window or Ctrl-C cut short.
//! Resuming is running the same file again: the journal's entries say which rows are
//! already issued.

use super::db::{Db, DbError, Val, vals};
use super::store::{now, write_error};
use super::{Journal, JournalError};
use std::path::PathBuf;

/// The profile name journaled for a CLI run whose credentials came from environment
/// variables (no profile): the app shows it in the clerk's language.
pub const ENVIRONMENT_PROFILE: &str = "(environment)";

/// A billing run that was started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BulkRunRecord {
    /// Its number in the journal.
    pub id: i64,
    /// The file.
    pub path: PathBuf,
    /// The file's digest when the run started (a changed file is not the same run).
    pub file_id: String,
    /// The profile it ran with.
    pub profile: String,
    /// The service it sent to.
    pub base_url: String,
    /// How many rows it was to send.
    pub rows: u64,
    /// When it started (UTC, RFC 3339).
    pub started: String,
    /// How the clerk mapped the file's columns (the app's own text, see
    /// `bulk::Mapping`), so a resumed run reads the file the same way.
    pub mapping: Option<String>,
}

impl Journal {
    /// Notes that a run of `path` starts (the file is named by its canonical path when it
    /// exists); its number, for [`Journal::finish_run`].
    pub fn start_run(
        &mut self,
        path: &std::path::Path,
        file_id: &str,
        profile: &str,
        base_url: &str,
        rows: u64,
        mapping: Option<&str>,
    ) -> Result<i64, JournalError> {
        let journal_path = self.path.clone();
        let err = write_error(&journal_path);
        // One name per file, however it was typed (relative, through a link, a short
        // Windows name): the key that lets a new run of it replace an unfinished one.
        let canonical = dunce::canonicalize(path);
        let path = canonical.as_deref().unwrap_or(path);
        // The same file at the same service replaces an older unfinished run of it (the
        // service by any spelling of its address).
        let canonical_url = super::identity::canonical_url(base_url);
        let path_text = path.to_string_lossy().into_owned();
        let rows = i64::try_from(rows).unwrap_or(i64::MAX);
        self.write(|tx| {
            let older = tx.query(
                "SELECT id, base_url FROM bulk_runs WHERE finished IS NULL AND path = ?1",
                &vals![&path_text],
            )?;
            for r in older {
                if super::identity::canonical_url(&r.text(1)?) == canonical_url {
                    finish_in(tx, r.int(0)?)?;
                }
            }
            let mut values = vals![
                &path_text,
                &file_id,
                &profile,
                &canonical_url,
                rows,
                mapping
            ]
            .to_vec();
            let sql = if tx.shared() {
                "SELECT journal_run_start(?1, ?2, ?3, ?4, ?5, ?6)"
            } else {
                values.push(Val::from(now()));
                "INSERT INTO bulk_runs (path, file_id, profile, base_url, rows, mapping, started)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id"
            };
            tx.one(sql, &values)?
                .ok_or_else(|| DbError::said("the run was not recorded"))?
                .int(0)
        })
        .map_err(&err)
    }

    /// Notes that run `id` ended (every row settled, or the clerk chose not to resume).
    pub fn finish_run(&mut self, id: i64) -> Result<(), JournalError> {
        finish_in(self.db(), id).map_err(write_error(&self.path))
    }

    /// Runs started and never finished, newest first.
    pub fn interrupted_runs(&self) -> Result<Vec<BulkRunRecord>, JournalError> {
        let rows = self
            .db()
            .query(
                "SELECT id, path, file_id, profile, base_url, rows, started, mapping FROM bulk_runs
                 WHERE finished IS NULL ORDER BY id DESC",
                &[],
            )
            .map_err(write_error(&self.path))?;
        rows.iter()
            .map(|r| {
                Ok(BulkRunRecord {
                    id: r.int(0)?,
                    path: PathBuf::from(r.text(1)?),
                    file_id: r.text(2)?,
                    profile: r.text(3)?,
                    base_url: r.text(4)?,
                    rows: u64::try_from(r.int(5)?).unwrap_or(0),
                    started: r.text(6)?,
                    mapping: r.opt_text(7)?,
                })
            })
            .collect::<Result<_, DbError>>()
            .map_err(write_error(&self.path))
    }
}

/// Notes that run `id` ended (on the shared journal through the journal's function: the
/// clerks' role changes no row itself).
fn finish_in(db: &dyn Db, id: i64) -> Result<(), DbError> {
    if db.shared() {
        db.exec("SELECT journal_run_finish(?1)", &vals![id])?;
    } else {
        db.exec(
            "UPDATE bulk_runs SET finished = ?1 WHERE id = ?2",
            &vals![now(), id],
        )?;
    }
    Ok(())
}

impl Journal {
    /// Takes part `part` (a number made from the run's rows and the part's place, see
    /// `bulk::run`) of a billing run the desk shares, for this connection, unless a
    /// colleague has it: whether it is ours now. The desk's clerks then work on
    /// different rows instead of reaching for the same ones. A hint only: every row is
    /// still claimed on its own, so a part taken twice costs time, never an invoice. On
    /// the server it is a session advisory lock, which a dead laptop's connection gives
    /// back by itself (no lease to time out, no clock). A journal of this computer's own
    /// has no colleague: every part is its own.
    pub fn take_part(&self, part: i64) -> Result<bool, JournalError> {
        let db = self.db();
        if !db.shared() {
            return Ok(true);
        }
        db.one("SELECT pg_try_advisory_lock(?1)", &[Val::Int(part)])
            .map_err(super::store::read_error(&self.path))?
            .map(|r| r.flag(0))
            .transpose()
            .map_err(super::store::read_error(&self.path))
            .map(|taken| taken.unwrap_or(false))
    }

    /// Gives back parts taken with [`Journal::take_part`].
    pub fn leave_parts(&self, parts: &[i64]) -> Result<(), JournalError> {
        let db = self.db();
        if !db.shared() || parts.is_empty() {
            return Ok(());
        }
        let args: Vec<Val> = parts.iter().map(|&p| Val::Int(p)).collect();
        let list = super::store::placeholders(1..=args.len());
        db.one(
            &format!("SELECT count(pg_advisory_unlock(p)) FROM unnest(ARRAY[{list}]::bigint[]) p"),
            &args,
        )
        .map_err(super::store::read_error(&self.path))
        .map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_unfinished_run_is_offered_until_it_ends_and_a_new_run_of_the_file_replaces_it() {
        super::super::tests::on_both(|_, j| offered_until_it_ends(j));
    }

    fn offered_until_it_ends(mut j: super::Journal) {
        let p = std::path::Path::new("/tmp/enero.xlsx");
        let first = j
            .start_run(p, "abc", "Sandbox", "http://x", 214, None)
            .unwrap();
        let other = j
            .start_run(
                std::path::Path::new("/tmp/b.csv"),
                "d",
                "S",
                "http://x",
                3,
                None,
            )
            .unwrap();
        let runs = j.interrupted_runs().unwrap();
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[1].id, first);
        assert_eq!(runs[1].rows, 214);
        assert_eq!(runs[1].path, p);
        let again = j
            .start_run(p, "abc", "Sandbox", "HTTP://x/", 214, Some("m"))
            .unwrap();
        let runs = j.interrupted_runs().unwrap();
        let ids: Vec<i64> = runs.iter().map(|r| r.id).collect();
        // Another spelling of the same service is the same run; its mapping is kept.
        assert_eq!(ids, [again, other]);
        assert_eq!(runs[0].mapping.as_deref(), Some("m"));
        j.finish_run(again).unwrap();
        j.finish_run(other).unwrap();
        assert!(j.interrupted_runs().unwrap().is_empty());
    }

    #[test]
    fn a_file_named_another_way_is_the_same_run() {
        super::super::tests::on_both(|_, j| named_another_way(j));
    }

    fn named_another_way(mut j: super::Journal) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("febrero.csv");
        std::fs::write(&file, "cliente,monto\n").unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let roundabout = dir.path().join("sub").join("..").join("febrero.csv");
        j.start_run(&roundabout, "abc", "Sandbox", "http://x", 3, None)
            .unwrap();
        let again = j
            .start_run(&file, "abc", "Sandbox", "http://x", 3, None)
            .unwrap();
        let runs = j.interrupted_runs().unwrap();
        assert_eq!(runs.iter().map(|r| r.id).collect::<Vec<_>>(), [again]);
        // Named as the clerk knows it: no `\\?\` prefix on Windows.
        assert_eq!(runs[0].path, dunce::canonicalize(&file).unwrap());
        assert!(!runs[0].path.to_string_lossy().starts_with(r"\\?\"));
    }
}
