//! Verifying the journal: the file's own check, then every row's hash along its chain
//! (one chain in a file, one per writer on a desk).

use super::*;

impl Journal {
    /// Walks the chain: `Ok(rows)` when every row's hash matches, else the first that
    /// does not.
    pub fn verify(&self) -> Result<Result<u64, Broken>, JournalError> {
        // The file itself first: a truncated or overwritten page is damage, said as such.
        if let Store::Lite(conn) = &self.store {
            let check: Result<String, rusqlite::Error> =
                conn.query_row("PRAGMA quick_check", [], |r| r.get(0));
            match check {
                Ok(ok) if ok == "ok" => {}
                Ok(found) => {
                    return Ok(Err(Broken {
                        seq: 0,
                        why: format!("the file is damaged ({found})"),
                    }));
                }
                Err(e) if is_damage(&e) => {
                    return Ok(Err(Broken {
                        seq: 0,
                        why: format!("the file is damaged ({e})"),
                    }));
                }
                Err(e) => return Err(self.read_err(e.into())),
            }
        }
        if self.is_shared() {
            return self.verify_shared();
        }
        let walked =
            self.verify_one_chain(&format!("SELECT {COLUMNS}, hash FROM entries ORDER BY seq"));
        // The write-ahead log folded into the file (connections close without it): a
        // copy of the file alone after `journal verify` is the whole journal. Busy (a
        // colleague's program writing) it is left for later: nothing is lost either way.
        if let Store::Lite(conn) = &self.store {
            let _ = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        }
        walked
    }

    /// Walks one chain, the rows `sql` gives in order, hashed here ([`Row::hash`]).
    fn verify_one_chain(&self, sql: &str) -> Result<Result<u64, Broken>, JournalError> {
        let mut prev = GENESIS.to_string();
        let mut n = 0u64;
        let mut broken = None;
        let walked = self.db().each(sql, &[], &mut |r| {
            let seq = r.int(0).unwrap_or(-1);
            let (row, hash) = match Row::from_db(&r) {
                Ok(x) => x,
                Err(e) => {
                    broken = Some(Broken {
                        seq,
                        why: format!("unreadable row: {e}"),
                    });
                    return Ok(false);
                }
            };
            if row.prev_hash != prev {
                broken = Some(Broken {
                    seq,
                    why: "it does not follow the row before it (a row was removed or changed)"
                        .into(),
                });
                return Ok(false);
            }
            if row.hash() != hash {
                broken = Some(Broken {
                    seq,
                    why: "its content was changed after it was written".into(),
                });
                return Ok(false);
            }
            prev = hash;
            n += 1;
            Ok(true)
        });
        match walked {
            Ok(()) => Ok(broken.map_or(Ok(n), Err)),
            Err(e) if e.trouble == Trouble::Corrupt => Ok(Err(Broken {
                seq: n as i64 + 1,
                why: format!("the file is damaged from here on ({e})"),
            })),
            Err(e) => Err(self.read_err(e)),
        }
    }

    /// The shared journal's chains: the rows of layout 1 (one chain, hashed here), then
    /// each writer's chain as the server hashed it (`journal_row_text`), every row by
    /// the role its writer connected as, and each chain ending where its writer's tip
    /// says (rows removed from its end are found too).
    fn verify_shared(&self) -> Result<Result<u64, Broken>, JournalError> {
        // A long journal is walked as long as rows keep coming; the connection's limit
        // comes back however the walk ends.
        let _ = self.db().exec("SET statement_timeout = 0", &[]);
        let walked = match self.walk_shared_chains() {
            Ok(Ok(n)) => self.walk_approvals().map(|a| a.map(|m| n + m)),
            other => other,
        };
        let _ = self.db().exec("RESET statement_timeout", &[]);
        walked
    }

    /// The desk's approvals (layout 8), one chain, each row as the server hashed it
    /// (`journal_approval_text`) and held to the rules the server's functions keep: a
    /// decision by another role than who asked, before the request expired; a use by
    /// who asked, after an approval, before it expired.
    fn walk_approvals(&self) -> Result<Result<u64, Broken>, JournalError> {
        if !self.keeps_approvals()? {
            return Ok(Ok(0));
        }
        let (mut prev, mut n, mut broken) = (GENESIS.to_string(), 0u64, None);
        let walked = self.db().each(
            "SELECT e.id, e.prev_hash, e.hash,
               encode(sha256(convert_to(e.prev_hash || E'\\n' || journal_approval_text(e), 'UTF8')), 'hex'),
               CASE
                 WHEN e.kind = 'request' AND e.request <> e.id THEN 'a request that names another'
                 WHEN e.kind IN ('approve', 'reject') AND (r.id IS NULL OR r.db_user = e.db_user)
                   THEN 'a decision by the role that asked'
                 WHEN e.kind IN ('approve', 'reject') AND e.time::timestamptz > r.expires::timestamptz
                   THEN 'a decision after the request expired'
                 WHEN e.kind = 'use' AND (r.id IS NULL OR r.db_user <> e.db_user)
                   THEN 'carried out by another role than the one that asked'
                 WHEN e.kind = 'use' AND NOT EXISTS (SELECT 1 FROM approval_events d
                        WHERE d.request = e.request AND d.kind = 'approve' AND d.id < e.id)
                   THEN 'carried out without an approval'
                 WHEN e.kind = 'use' AND e.time::timestamptz > r.expires::timestamptz
                   THEN 'carried out after the request expired'
                 WHEN e.kind NOT IN ('request', 'approve', 'reject', 'use') THEN 'not an approval event'
               END
             FROM approval_events e
             LEFT JOIN approval_events r ON r.id = e.request AND r.kind = 'request'
             ORDER BY e.id",
            &[],
            &mut |r| {
                let id = r.int(0)?;
                let (prev_hash, hash, recomputed) = (r.text(1)?, r.text(2)?, r.text(3)?);
                let why = if prev_hash != prev {
                    Some("it does not follow the approval event before it (one was removed or changed)".to_string())
                } else if recomputed != hash {
                    Some("its content was changed after it was written".to_string())
                } else {
                    r.opt_text(4)?
                };
                if let Some(why) = why {
                    broken = Some(Broken {
                        seq: 0,
                        why: format!("approval event {id}: {why}"),
                    });
                    return Ok(false);
                }
                prev = hash;
                n += 1;
                Ok(true)
            },
        );
        walked.map_err(|e| self.read_err(e))?;
        Ok(broken.map_or(Ok(n), Err))
    }

    /// [`Journal::verify_shared`]'s walk.
    fn walk_shared_chains(&self) -> Result<Result<u64, Broken>, JournalError> {
        let legacy = self.verify_one_chain(&format!(
            "SELECT {COLUMNS}, hash FROM entries WHERE writer IS NULL ORDER BY seq"
        ));
        let mut n = match legacy {
            Ok(Ok(n)) => n,
            other => return other,
        };
        let mut broken: Option<Broken> = None;
        // (writer, previous hash, its tip as the writer row says)
        let mut current: Option<(i64, String, Option<String>)> = None;
        let end_of = |w: &Option<(i64, String, Option<String>)>| -> Option<Broken> {
            match w {
                Some((id, last, tip)) if tip.as_deref() != Some(last.as_str()) => Some(Broken {
                    seq: 0,
                    why: format!("rows were removed from the end of writer {id}'s chain"),
                }),
                _ => None,
            }
        };
        let walked = self.db().each(
            "SELECT e.seq, e.writer, e.prev_hash, e.hash,
                    encode(sha256(convert_to(e.prev_hash || E'\\n' || journal_row_text(e), 'UTF8')), 'hex'),
                    e.db_user, w.db_user, w.tip_hash
             FROM entries e LEFT JOIN writers w ON w.id = e.writer
             WHERE e.writer IS NOT NULL ORDER BY e.writer, e.seq",
            &[],
            &mut |r| {
                let seq = r.int(0)?;
                let writer = r.int(1)?;
                let (prev_hash, hash, recomputed) = (r.text(2)?, r.text(3)?, r.text(4)?);
                let (by, writer_role, tip) = (r.opt_text(5)?, r.opt_text(6)?, r.opt_text(7)?);
                if current.as_ref().is_none_or(|c| c.0 != writer) {
                    if let Some(b) = end_of(&current) {
                        broken = Some(b);
                        return Ok(false);
                    }
                    current = Some((writer, GENESIS.to_string(), tip));
                }
                let Some(c) = current.as_mut() else {
                    return Ok(false);
                };
                let why = if writer_role.is_none() {
                    Some("its writer is not in the journal (a row added by hand)")
                } else if by != writer_role {
                    Some("it names another database role than its writer's")
                } else if prev_hash != c.1 {
                    Some("it does not follow the row before it (a row was removed or changed)")
                } else if recomputed != hash {
                    Some("its content was changed after it was written")
                } else {
                    None
                };
                if let Some(why) = why {
                    broken = Some(Broken {
                        seq,
                        why: why.into(),
                    });
                    return Ok(false);
                }
                c.1 = hash;
                n += 1;
                Ok(true)
            },
        );
        if let Err(e) = walked {
            return Err(self.read_err(e));
        }
        if broken.is_none() {
            broken = end_of(&current);
        }
        if broken.is_none() {
            // A writer whose rows are all gone.
            let emptied = self
                .db()
                .one(
                    "SELECT w.id FROM writers w WHERE w.tip_seq IS NOT NULL
                     AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.writer = w.id) LIMIT 1",
                    &[],
                )
                .map_err(|e| self.read_err(e))?;
            if let Some(r) = emptied {
                broken = Some(Broken {
                    seq: 0,
                    why: format!(
                        "every row of writer {} was removed",
                        r.int(0).unwrap_or_default()
                    ),
                });
            }
        }
        Ok(broken.map_or(Ok(n), Err))
    }
}
