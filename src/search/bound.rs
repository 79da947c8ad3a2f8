//! The search index's bound: at most so many invoices, the least recently seen
//! forgotten first (a module of its own: the index's file would pass 900 lines).

use rusqlite::{OptionalExtension, params};

/// Drops the least recently seen invoices past `max_rows` (and a hundredth of it more),
/// never one the put `just` saw again without news (unless nothing else is left to
/// drop); the size kept up to date (`added` rows just now; counted once in a file made
/// before it was kept).
pub(super) fn trim(
    tx: &rusqlite::Transaction<'_>,
    max_rows: u64,
    added: i64,
    just: (i64, &[String]),
) -> rusqlite::Result<()> {
    let kept: Option<i64> = tx
        .query_row("SELECT n FROM invoices_size", [], |r| r.get(0))
        .optional()?;
    let rows = match kept {
        Some(n) => {
            if added != 0 {
                tx.execute("UPDATE invoices_size SET n = n + ?1", params![added])?;
            }
            n + added
        }
        None => {
            let n: i64 = tx.query_row("SELECT count(*) FROM invoices", [], |r| r.get(0))?;
            tx.execute("INSERT INTO invoices_size (n) VALUES (?1)", params![n])?;
            n
        }
    };
    let over = u64::try_from(rows).unwrap_or(0).saturating_sub(max_rows);
    if over == 0 {
        return Ok(());
    }
    // What the put just saw again is not what it forgets: a listing read again the same
    // day keeps its rows' time seen to the day, so they are among the least recently seen,
    // and forgetting them brought them back at the next reading, forgetting as many
    // others of the same listing, at every reading (#71: 1,000 of a 20,000-row listing
    // written anew each time at 1,000,000). A hundredth more than the excess, so that
    // what comes back next fits (and the walk of the table that finds the least recently
    // seen, not indexed, is made once in that many new rows).
    let many = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    tx.execute_batch(
        "CREATE TEMP TABLE IF NOT EXISTS just_seen (id TEXT PRIMARY KEY) WITHOUT ROWID;
         DELETE FROM temp.just_seen;",
    )?;
    {
        let mut add = tx.prepare_cached("INSERT OR IGNORE INTO temp.just_seen (id) VALUES (?1)")?;
        for id in just.1 {
            add.execute(params![id])?;
        }
    }
    // `sparing`: not one the put just saw again.
    let forget = |n: u64, sparing: bool| {
        tx.execute(
            "DELETE FROM invoices WHERE rowid IN (SELECT rowid FROM invoices
                WHERE NOT (?3 AND service = ?2 AND id IN (SELECT id FROM temp.just_seen))
                ORDER BY max(coalesce(listed, 0), coalesce(journaled, 0)) LIMIT ?1)",
            params![many(n), just.0, sparing],
        )
        .map(|gone| gone as u64)
    };
    let mut gone = forget(over + max_rows / 100, true)?;
    if gone < over {
        // The put alone is more than the bound: the bound holds all the same.
        gone += forget(over - gone, false)?;
    }
    tx.execute_batch("DELETE FROM temp.just_seen")?;
    tx.execute("UPDATE invoices_size SET n = n - ?1", params![many(gone)])?;
    Ok(())
}
