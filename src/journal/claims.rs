//! Claims: a create's reference, or a void's invoice id, is claimed in the same
//! transaction that records the intent, under the `claims` table's unique key (service
//! identity, reference). The claim is held by the intent until its outcome says nothing
//! happened (refused, or checked and not created): then the next intent takes it over.
//! A reference done, or whose outcome is not known yet, is never sent again; a create
//! that looks like an invoice already issued (same customer, amount, currency and due
//! date) needs the clerk's explicit yes.

use super::db::{Db, DbError, Val, vals};
use super::store::{Row, append_in, intent_row, list_on, local_day_start, outcome_in};
use super::{Action, Entry, Filter, Intent, Journal, JournalError, Outcome, Settled, identity};
use std::collections::HashSet;
use std::sync::Arc;

/// How a create is guarded besides its own reference.
#[derive(Clone, Debug, Default)]
pub struct Guard {
    /// Other references that name the same invoice (a billing row's reference as older
    /// versions made it): if any is done or pending, so is this one.
    pub aliases: Vec<String>,
    /// Whether look-alikes stop it.
    pub similar: Similar,
    /// The journal has the reference as issued as this invoice (empty: without an id),
    /// and the service, asked, has no such invoice and no invoice of that reference:
    /// the clerk decided to issue it. Taken over from that entry, the decision journaled
    /// (`issued-although-missing:<id>`); any other holder still stops it.
    pub missing: Option<String>,
    /// The desk's approval (a request's number) this create or void carries out, on a
    /// shared journal whose policy asks for one: recorded as used by this very intent
    /// in the claim's transaction, which the server checks.
    pub approval: Option<i64>,
}

/// What is done about look-alikes of a create.
#[derive(Clone, Debug, Default)]
pub struct Similar {
    /// References that are not look-alikes however alike (the other rows of the same
    /// billing run: identical rows of one file are distinct invoices, told apart by
    /// their occurrence).
    pub siblings: Arc<HashSet<String>>,
    /// The clerk said to issue it even if it looks like an earlier invoice: it is sent,
    /// and the earlier invoice is journaled as the intent's decision.
    pub allow: bool,
    /// An earlier invoice the clerk was shown and allowed (one found at the service),
    /// named in the decision when the journal has none.
    pub shown: Option<String>,
}

/// What a claim came to.
#[derive(Clone, Debug)]
pub enum Claimed {
    /// Claimed, intent recorded (its sequence number): send it.
    Claimed(i64),
    /// Already done by this entry: nothing is sent.
    Done(Entry),
    /// Held by this entry, whose outcome is not known yet (on its way, maybe in another
    /// process, or to check): nothing is sent.
    Pending(Entry),
    /// It looks like this earlier invoice (done, or not known yet): nothing is sent
    /// unless the clerk says so ([`Similar::Allowed`]).
    LooksLike(Entry),
}

impl Journal {
    /// Records `intent` and claims what it is about, in one transaction: a create's
    /// reference (`external_id`) or a void's invoice id, under `intent.service`. Returns
    /// why not when the claim is held, done, or the create looks like an earlier invoice.
    pub fn claim(
        &mut self,
        action: Action,
        intent: &Intent,
        guard: &Guard,
    ) -> Result<Claimed, JournalError> {
        let path = self.path.clone();
        let who = self.who.clone();
        let attempt = |j: &mut Journal| j.write(|tx| claim_in(tx, &who, action, intent, guard));
        match attempt(self) {
            // Another computer claimed it between our read and our insert (the shared
            // journal's unique key said no): asked again, the claim names its holder. So
            // is a claim the server undid to end a deadlock with another computer's
            // writes (each waiting for a key the other had claimed in its transaction).
            Err(e) if e.unique || e.deadlock => attempt(self),
            other => other,
        }
        .map_err(super::store::write_error(&path))
    }
}

impl Journal {
    /// Rehearses a create's claim on the desk's journal in a transaction undone at its
    /// end (`Pg::rehearse`): a command about to claim does it while it waits for the
    /// service's token, so that the server's first call of the journal's functions on a
    /// new connection (4–5 ms) is not paid between the token and the request. A file's
    /// journal has nothing to warm. A failure is the real claim's to say.
    pub fn rehearse_claim(&self) {
        let super::store::Store::Shared(pg) = &self.store else {
            return;
        };
        // Its own reference and customer: no colleague's rehearsal waits on its keys.
        let own = format!("rehearsal-{}", uuid::Uuid::new_v4().simple());
        let intent = Intent {
            service: "rehearsal".into(),
            external_id: Some(own.clone()),
            customer: Some(own),
            amount: Some("0".into()),
            ..Intent::default()
        };
        // The claim, and its outcome: the intent's and the outcome's ways through the
        // server's function are compiled apart.
        let _ = pg.rehearse(|tx| {
            let claimed = claim_in(tx, &self.who, Action::Create, &intent, &Guard::default())?;
            if let Claimed::Claimed(seq) = claimed {
                let of = intent.outcome_of(Action::Create);
                outcome_in(tx, &self.who, seq, &Settled::done(None), false, Some(of))?;
            }
            Ok(())
        });
    }

    /// The claims under `scope` whose key begins with `prefix`, each with its holder
    /// (and its latest outcome): an e-mail's claims for one address each.
    pub fn claims_beginning(
        &self,
        scope: &str,
        prefix: &str,
    ) -> Result<Vec<(String, Entry)>, JournalError> {
        let db = self.db();
        let read = super::store::read_error(&self.path);
        let held = db
            .query(
                "SELECT key, intent_seq FROM claims
                 WHERE scope = ?1 AND substr(key, 1, length(?2)) = ?2 ORDER BY key LIMIT 200",
                &vals![scope, prefix],
            )
            .map_err(&read)?;
        let mut out = Vec::with_capacity(held.len());
        for r in held {
            let (key, seq) = (r.text(0).map_err(&read)?, r.int(1).map_err(&read)?);
            let f = Filter {
                seq: Some(seq),
                ..Filter::default()
            };
            if let Some(e) = list_on(db, &f, true, 0, 1)
                .map_err(&read)?
                .into_iter()
                .next()
            {
                out.push((key, e));
            }
        }
        Ok(out)
    }

    /// Who holds the claim on `key` under `scope` (with its latest outcome), if anyone:
    /// a read, to know before any work whether a claim would be refused.
    pub fn claim_holder(&self, scope: &str, key: &str) -> Result<Option<Entry>, JournalError> {
        let db = self.db();
        let held = db
            .one(
                "SELECT intent_seq FROM claims WHERE scope = ?1 AND key = ?2",
                &vals![scope, key],
            )
            .and_then(|r| r.map(|r| r.int(0)).transpose());
        let read = super::store::read_error(&self.path);
        let Some(seq) = held.map_err(&read)? else {
            return Ok(None);
        };
        let f = Filter {
            seq: Some(seq),
            ..Filter::default()
        };
        Ok(list_on(db, &f, true, 0, 1)
            .map_err(read)?
            .into_iter()
            .next())
    }
}

impl Journal {
    /// Whether the writer of entry `seq` is still connected to the shared journal (its
    /// session holds the writer's advisory lock): a request it claimed and has not
    /// settled may then really be on its way now. On a file nobody can tell: `false`.
    pub fn writer_alive(&self, seq: i64) -> Result<bool, JournalError> {
        if !self.is_shared() {
            return Ok(false);
        }
        self.db()
            .one(
                "SELECT EXISTS (SELECT 1 FROM entries e JOIN writers w ON w.id = e.writer
                   JOIN pg_locks l ON l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                    AND l.classid::bigint = (('x' || substr(w.token_hash, 1, 8))::bit(32)::int::bigint & 4294967295)
                    AND l.objid::bigint = (('x' || substr(w.token_hash, 9, 8))::bit(32)::int::bigint & 4294967295)
                   WHERE e.seq = ?1 AND w.token_hash IS NOT NULL)",
                &vals![seq],
            )
            .and_then(|r| r.map(|r| r.flag(0)).transpose())
            .map(|alive| alive.unwrap_or(false))
            .map_err(super::store::read_error(&self.path))
    }
}

/// [`Journal::claim`] inside the write transaction `tx`.
fn claim_in(
    tx: &dyn Db,
    who: &str,
    action: Action,
    intent: &Intent,
    guard: &Guard,
) -> Result<Claimed, DbError> {
    let key = claim_key(action, intent);
    let entry = |seq: i64| -> Result<Option<Entry>, DbError> {
        let f = Filter {
            seq: Some(seq),
            ..Filter::default()
        };
        Ok(list_on(tx, &f, true, 0, 1)?.into_iter().next())
    };
    let places = places(action, intent, key, &guard.aliases);
    let held = held_at(tx, &places)?;
    let mut takeover = None;
    let mut missing = None;
    for (i, held) in held.into_iter().enumerate() {
        let Some(seq) = held else { continue };
        let Some(holder) = entry(seq)? else { continue };
        match holder.outcome {
            Outcome::Done
                if i == 0
                    && action == Action::Create
                    && guard.missing.as_deref()
                        == Some(holder.invoice_id.as_deref().unwrap_or("")) =>
            {
                missing = Some(seq);
            }
            Outcome::Done => return Ok(Claimed::Done(holder)),
            Outcome::Unknown => return Ok(Claimed::Pending(holder)),
            Outcome::Refused if i == 0 => takeover = Some(seq),
            Outcome::Refused => {}
        }
    }
    let mut intent = intent.clone();
    if action == Action::Create {
        let mut own: HashSet<&str> = guard.aliases.iter().map(String::as_str).collect();
        own.extend(key);
        let similar = &guard.similar;
        let earlier = look_alike(tx, &intent, &similar.siblings, &own)?;
        match earlier {
            Some(e) if !similar.allow => return Ok(Claimed::LooksLike(e)),
            Some(e) => {
                let id = e.invoice_id.or(e.external_id).unwrap_or_default();
                intent.decision = Some(format!("issued-although-similar-to:{id}"));
            }
            None => {
                if let (true, Some(shown)) = (similar.allow, &similar.shown) {
                    intent.decision = Some(format!("issued-although-similar-to:{shown}"));
                }
            }
        }
    }
    if let (Some(_), Some(id)) = (missing, &guard.missing) {
        intent.decision = Some(format!("issued-although-missing:{id}"));
    }
    let row: Row = intent_row(action, &intent, who);
    let seq = append_in(tx, row)?;
    if let (Some(request), true) = (guard.approval, tx.shared()) {
        super::approvals::use_in(tx, request, seq)?;
    }
    if let (Some(k), Some(old), true) = (key, missing, tx.shared()) {
        // Over an entry done as an invoice the service does not have: the server takes
        // it over only for an intent whose decision says so.
        tx.exec(
            "SELECT journal_claim_missing(?1, ?2, ?3, ?4)",
            &vals![&intent.service, k, seq, old],
        )?;
    } else if let Some(k) = key
        && tx.shared()
    {
        // The server decides: a new claim by its unique key, a takeover only from an
        // intent whose latest outcome is "refused" (a refusal is said as a unique one,
        // so the claim is asked again and names its holder).
        tx.exec(
            "SELECT journal_claim(?1, ?2, ?3, ?4, false)",
            &vals![&intent.service, k, seq, takeover],
        )?;
    } else if let Some(k) = key {
        let changed = match takeover.or(missing) {
            Some(old) => tx.exec(
                "UPDATE claims SET intent_seq = ?1 WHERE scope = ?2 AND key = ?3 AND intent_seq = ?4",
                &vals![seq, &intent.service, k, old],
            ),
            None => tx.exec(
                "INSERT INTO claims (scope, key, intent_seq) VALUES (?1, ?2, ?3)",
                &vals![&intent.service, k, seq],
            ),
        }?;
        if changed != 1 {
            return Err(DbError::said("the claim was taken over meanwhile"));
        }
    }
    Ok(Claimed::Claimed(seq))
}

/// What an intent claims: a create's reference, a void's invoice id, an e-mail's key
/// (none for exports, or a create without a reference).
fn claim_key(action: Action, intent: &Intent) -> Option<&str> {
    match action {
        Action::Create => intent.external_id.as_deref(),
        Action::Void => intent.invoice_id.as_deref(),
        Action::Export => None,
        // An e-mail's key: its kind, customer and document or month (`mail::Draft::key`).
        Action::Email => intent.external_id.as_deref(),
    }
    .map(str::trim)
    .filter(|k| !k.is_empty())
}

/// A create's reference found done in the journal by [`Journal::done_in_scope`]: its
/// invoice, who issued it and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DoneBy {
    /// The invoice issued.
    pub invoice_id: Option<String>,
    /// Who wrote the intent.
    pub by: super::WrittenBy,
    /// When (RFC 3339).
    pub time: String,
}

impl Journal {
    /// Which of `keys` (at most a few hundred) are claimed under `scope` by an intent
    /// whose latest outcome is done: one statement for many rows, so the clerks sharing
    /// a billing run skip each other's issued rows without a read each. What is not
    /// there (free, on its way, refused, or claimed in an older scope) is for the claim
    /// to decide.
    pub fn done_in_scope(
        &self,
        scope: &str,
        keys: &[String],
    ) -> Result<std::collections::HashMap<String, DoneBy>, JournalError> {
        let mut out = std::collections::HashMap::new();
        if keys.is_empty() {
            return Ok(out);
        }
        let mut args = vec![super::db::Val::from(scope)];
        args.extend(keys.iter().map(super::db::Val::from));
        let list = super::store::placeholders(2..=args.len());
        // Each claim's latest outcome looked up by the intent's index, row by row: a join
        // on "the latest outcome" was planned as a hash of every outcome in the journal
        // while a run grew it (1.7 against 1.0 ms a statement on 4,000 entries, the same
        // at 200,000: benches/journal-done-query.sh), and it is the desk's busiest read.
        let rows = self
            .db()
            .query(
                &format!(
                    "SELECT c.key, i.invoice_id, i.\"user\", i.time,
                       (SELECT o.outcome FROM entries o WHERE o.intent_seq = i.seq
                        ORDER BY o.seq DESC LIMIT 1),
                       (SELECT o.invoice_id FROM entries o WHERE o.intent_seq = i.seq
                        ORDER BY o.seq DESC LIMIT 1),
                       i.db_user, i.copied_time
                     FROM claims c JOIN entries i ON i.seq = c.intent_seq
                     WHERE c.scope = ?1 AND c.key IN ({list})"
                ),
                &args,
            )
            .map_err(super::store::read_error(&self.path))?;
        for r in rows {
            let read = || -> Result<Option<(String, DoneBy)>, super::db::DbError> {
                if r.opt_text(4)?.as_deref() != Some("done") {
                    return Ok(None);
                }
                Ok(Some((
                    r.text(0)?,
                    DoneBy {
                        invoice_id: r.opt_text(5)?.or(r.opt_text(1)?),
                        by: super::WrittenBy {
                            user: r.text(2)?,
                            db_user: r.opt_text(6)?,
                            copied_time: r.opt_text(7)?,
                        },
                        time: r.text(3)?,
                    },
                )))
            };
            let Some((key, done)) = read().map_err(super::store::read_error(&self.path))? else {
                continue;
            };
            out.insert(key, done);
        }
        Ok(out)
    }
}

/// Every place the thing an intent is about may have been claimed: its own scope first
/// (a refused holder there is taken over), then the scope older journals used, and the
/// same for each alias.
fn places(
    action: Action,
    intent: &Intent,
    key: Option<&str>,
    aliases: &[String],
) -> Vec<(String, String)> {
    let mut places: Vec<(String, String)> = Vec::new();
    if let Some(k) = key {
        places.push((intent.service.clone(), k.to_string()));
    }
    if action == Action::Create {
        let legacy =
            identity::legacy_create_scope(&intent.base_url, intent.account_last4.as_deref());
        for k in key.into_iter().chain(aliases.iter().map(String::as_str)) {
            places.push((legacy.clone(), k.to_string()));
            if Some(k) != key {
                places.push((intent.service.clone(), k.to_string()));
            }
        }
    }
    places
}

/// Who holds each of `places` (scope and key): its claim's intent, in the places' order.
/// One statement for all (on the desk's journal each is a round trip to the server).
fn held_at(db: &dyn Db, places: &[(String, String)]) -> Result<Vec<Option<i64>>, DbError> {
    if places.is_empty() {
        return Ok(Vec::new());
    }
    let wanted: Vec<String> = (0..places.len())
        .map(|i| format!("(scope = ?{} AND key = ?{})", 2 * i + 1, 2 * i + 2))
        .collect();
    let sql = format!(
        "SELECT scope, key, intent_seq FROM claims WHERE {}",
        wanted.join(" OR ")
    );
    let params: Vec<Val> = places
        .iter()
        .flat_map(|(scope, k)| [Val::Text(scope.clone()), Val::Text(k.clone())])
        .collect();
    let mut held = vec![None; places.len()];
    for r in db.query(&sql, &params)? {
        let (scope, k, seq) = (r.text(0)?, r.text(1)?, r.int(2)?);
        for (i, place) in places.iter().enumerate() {
            if place.0 == scope && place.1 == k {
                held[i] = Some(seq);
            }
        }
    }
    Ok(held)
}

impl Journal {
    /// The entry a claim of `intent` would meet (done, or not known yet), without
    /// claiming anything: what the app shows of a file's rows before they are sent.
    pub fn holder(
        &self,
        action: Action,
        intent: &Intent,
        aliases: &[String],
    ) -> Result<Option<Entry>, JournalError> {
        let key = claim_key(action, intent);
        let read = super::store::read_error(&self.path);
        let places = places(action, intent, key, aliases);
        for held in held_at(self.db(), &places).map_err(&read)? {
            if let Some(seq) = held
                && let Some(e) = self.entry(seq)?
                && e.outcome != Outcome::Refused
            {
                return Ok(Some(e));
            }
        }
        Ok(None)
    }
}

/// The creates to a customer of an amount (as written, and normalized), newest first.
pub(super) const LOOK_ALIKES: &str =
    "SELECT seq FROM entries WHERE kind = 'intent' AND action = 'create'
     AND customer = ?1 AND amount IN (?2, ?3) ORDER BY seq DESC LIMIT 500";

/// The latest earlier create to the same customer, of the same amount and currency (a
/// create that left the currency to the account matches any), due the same day — or,
/// without a due date, recorded the same local day — at the same service, done or not
/// known yet; not one of `siblings` nor named by `own`.
fn look_alike(
    tx: &dyn Db,
    intent: &Intent,
    siblings: &HashSet<String>,
    own: &HashSet<&str>,
) -> Result<Option<Entry>, DbError> {
    let (Some(customer), Some(amount)) = (&intent.customer, &intent.amount) else {
        return Ok(None);
    };
    let normalized = amount
        .parse::<rust_decimal::Decimal>()
        .map(|d| d.normalize().to_string())
        .unwrap_or_else(|_| amount.clone());
    let seqs: Vec<i64> = tx
        .query(LOOK_ALIKES, &vals![customer, amount, normalized])?
        .iter()
        .map(|r| r.int(0))
        .collect::<Result<_, _>>()?;
    let url = identity::canonical_url(&intent.base_url);
    let today = local_day_start(chrono::Local::now().date_naive());
    let tomorrow = chrono::Local::now()
        .date_naive()
        .succ_opt()
        .map(local_day_start)
        .unwrap_or_default();
    for seq in seqs {
        let f = Filter {
            seq: Some(seq),
            ..Filter::default()
        };
        let Some(e) = list_on(tx, &f, true, 0, 1)?.into_iter().next() else {
            continue;
        };
        let same_currency = match (&e.currency_code, &intent.currency_code) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        let same_due = match (&intent.due_date, &e.due_date) {
            (Some(a), Some(b)) => a == b,
            (None, None) => e.time >= today && e.time < tomorrow,
            _ => false,
        };
        let reference = e.external_id.as_deref().unwrap_or("");
        if e.outcome != Outcome::Refused
            && same_currency
            && same_due
            && identity::canonical_url(&e.base_url) == url
            && !siblings.contains(reference)
            && !own.contains(reference)
        {
            return Ok(Some(e));
        }
    }
    Ok(None)
}
