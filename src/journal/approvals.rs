//! Four eyes on the desk (the shared journal's layout 8): the owner's policy says which
//! voids and creates need another clerk's approval; a clerk asks, a colleague approves
//! or rejects, and the clerk who asked carries it out, once. The server enforces it
//! (`pg/approvals_sql.rs`); what is here asks, lists, decides and says. A journal on
//! this computer has no policy: one computer is one person.

use super::db::{Db, DbError, DbRow, vals};
use super::{Journal, JournalError, WrittenBy};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// The desk's policy, as the owner set it (`journal policy`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// Every void needs an approval.
    pub voids: bool,
    /// A billing or contracts run of more rows than this needs one.
    pub runs_over: Option<u64>,
    /// A create of more than this amount, in this currency, needs one (a create left
    /// to the account's currency too).
    pub amount_over: Option<(Decimal, String)>,
    /// How long a request stands (hours, the server's clock).
    pub hours: u32,
}

/// What a request is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum What {
    /// Voiding one invoice.
    Void,
    /// Issuing one invoice over the amount.
    Create,
    /// A run's invoices.
    Run,
    /// A run's e-mails (statements, reminders), by customer.
    Mail,
}

impl What {
    /// Its word in the journal.
    pub fn as_str(self) -> &'static str {
        match self {
            What::Void => "void",
            What::Create => "create",
            What::Run => "run",
            What::Mail => "mail",
        }
    }

    fn parse(s: &str) -> Option<What> {
        [What::Void, What::Create, What::Run, What::Mail]
            .into_iter()
            .find(|w| w.as_str() == s)
    }
}

impl Policy {
    /// Whether anything needs an approval.
    pub fn is_on(&self) -> bool {
        self.voids || self.runs_over.is_some() || self.amount_over.is_some()
    }

    /// What approval a create of `amount` in `currency` (`None`: the account's) needs,
    /// sent as one of a run of `run_rows` rows (`None`: alone): the server's rule.
    pub fn for_create(
        &self,
        amount: Decimal,
        currency: Option<&str>,
        run_rows: Option<u64>,
    ) -> Option<What> {
        if let (Some(limit), Some(n)) = (self.runs_over, run_rows)
            && n > limit
        {
            return Some(What::Run);
        }
        match &self.amount_over {
            Some((limit, code)) if currency.is_none_or(|c| c == code) && amount > *limit => {
                Some(What::Create)
            }
            _ => None,
        }
    }
}

impl Policy {
    /// Whether an e-mail run to `customers` needs an approval (more than the runs' limit).
    pub fn for_mail(&self, customers: u64) -> bool {
        self.runs_over.is_some_and(|limit| customers > limit)
    }
}

/// One thing a request would do: a void's invoice (`key`), or a create's reference with
/// its customer, amount (as the journal writes it) and currency.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Item {
    /// The invoice id (a void) or the reference (a create).
    pub key: String,
    /// The customer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub customer: Option<String>,
    /// The amount, as the journal writes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<String>,
    /// The currency sent (`None`: the account's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency_code: Option<String>,
}

impl Item {
    /// A create's item, from the intent the journal will record for it.
    pub fn of_create(intent: &super::Intent) -> Item {
        Item {
            key: intent.external_id.clone().unwrap_or_default(),
            customer: intent.customer.clone(),
            amount: intent.amount.clone(),
            currency_code: intent.currency_code.clone(),
        }
    }
}

/// What the policy asks before `action` of `intent` alone (a void, or one invoice): the
/// request it needs — what for, its one item, what the clerks are shown — or `None`.
pub fn one_request(
    policy: &Policy,
    action: super::Action,
    intent: &super::Intent,
) -> Option<(What, Item, Summary)> {
    match action {
        super::Action::Void if policy.voids => {
            let id = intent.invoice_id.clone().unwrap_or_default();
            let item = Item {
                key: id.clone(),
                customer: None,
                amount: None,
                currency_code: None,
            };
            let summary = Summary {
                invoice: Some(id),
                customer: intent.customer.clone(),
                totals: intent
                    .amount
                    .iter()
                    .map(|a| (intent.currency_code.clone().unwrap_or_default(), a.clone()))
                    .collect(),
                ..Summary::default()
            };
            Some((What::Void, item, summary))
        }
        super::Action::Create => {
            let amount: Decimal = intent.amount.as_deref()?.parse().ok()?;
            policy.for_create(amount, intent.currency_code.as_deref(), None)?;
            let summary = Summary {
                reference: intent.external_id.clone(),
                customer: intent.customer.clone(),
                totals: vec![(
                    intent.currency_code.clone().unwrap_or_default(),
                    amount.to_string(),
                )],
                ..Summary::default()
            };
            Some((What::Create, Item::of_create(intent), summary))
        }
        _ => None,
    }
}

/// What the clerks are shown of a request (kept with it; read back as hostile text).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// The invoice to void.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invoice: Option<String>,
    /// The customer (a void's or a create's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer: Option<String>,
    /// A create's reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// The file a run comes from (its name only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The run's rows (an e-mail run's customers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<u64>,
    /// An e-mail run's month (YYYY-MM).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub month: Option<String>,
    /// Totals by currency (`""`: the account's), amounts as text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub totals: Vec<(String, String)>,
}

/// Where a request stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum State {
    /// Waiting for a colleague.
    Pending,
    /// Approved: the clerk who asked may carry it out until it expires.
    Approved {
        /// Who approved it (the role first).
        #[serde(serialize_with = "by_json")]
        by: WrittenBy,
        /// When (RFC 3339, the server's clock).
        time: String,
        /// What they added.
        note: Option<String>,
    },
    /// Rejected, with why.
    Rejected {
        /// Who rejected it.
        #[serde(serialize_with = "by_json")]
        by: WrittenBy,
        /// When.
        time: String,
        /// Why.
        note: Option<String>,
    },
    /// Expired before anyone decided.
    Expired,
}

fn by_json<S: serde::Serializer>(by: &WrittenBy, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(2))?;
    m.serialize_entry("user", &by.user)?;
    m.serialize_entry("db_user", &by.db_user)?;
    m.end()
}

/// A request for approval, as the journal holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Request {
    /// Its number.
    pub id: i64,
    /// What for.
    pub what: What,
    /// Who asked (their computer's word and the server's role).
    #[serde(serialize_with = "by_json")]
    pub by: WrittenBy,
    /// When (RFC 3339, the server's clock).
    pub time: String,
    /// Until when it stands.
    pub expires: String,
    /// What it would do, as shown.
    pub summary: Summary,
    /// How many invoices it covers.
    pub items: u64,
    /// How many of them were carried out.
    pub used: u64,
    /// Past its time (the server's clock): nothing more of it can be carried out.
    pub lapsed: bool,
    /// Where it stands.
    #[serde(flatten)]
    pub state: State,
    /// Asked by this connection's own role.
    #[serde(skip)]
    pub mine: bool,
}

impl Request {
    /// Approved, in time, with something of it still to carry out.
    pub fn to_carry_out(&self) -> bool {
        matches!(self.state, State::Approved { .. }) && !self.lapsed && self.used < self.items
    }

    /// Waiting for someone else than its asker.
    pub fn awaits_another(&self) -> bool {
        self.state == State::Pending && !self.mine
    }
}

/// Which requests to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// Every request (newest first, at most 200).
    All,
    /// Those waiting for this role's decision: pending, not expired, asked by another.
    ForMe,
    /// One by its number.
    One(i64),
}

/// The policy's settings in `desk_settings`.
const KEYS: [&str; 4] = [
    "approve_voids",
    "approve_runs_over",
    "approve_amount_over",
    "approval_hours",
];

/// What `journal policy` changes (the owner): `None` leaves a setting as it is.
#[derive(Clone, Debug, Default)]
pub struct PolicyChange {
    /// Voids need an approval.
    pub voids: bool,
    /// Runs over this many rows.
    pub runs_over: Option<u64>,
    /// Creates over this amount in this currency.
    pub amount_over: Option<(Decimal, String)>,
    /// Hours a request stands.
    pub hours: Option<u32>,
    /// Everything off.
    pub off: bool,
}

impl PolicyChange {
    /// Whether it changes anything (else `journal policy` only shows the policy).
    pub fn changes(&self) -> bool {
        self.voids
            || self.runs_over.is_some()
            || self.amount_over.is_some()
            || self.hours.is_some()
            || self.off
    }
}

/// Reads the policy from `db` (a shared journal's `desk_settings`).
pub(super) fn policy_in(db: &dyn Db) -> Result<Policy, DbError> {
    let rows = db.query(
        "SELECT key, value FROM desk_settings WHERE key IN (?1, ?2, ?3, ?4)",
        &vals![KEYS[0], KEYS[1], KEYS[2], KEYS[3]],
    )?;
    let mut p = Policy {
        hours: 24,
        ..Policy::default()
    };
    for r in rows {
        let (key, value) = (r.text(0)?, r.text(1)?);
        // What the owner's role wrote by hand and this program cannot read is no
        // policy of this program's; the server's functions read the same text.
        match key.as_str() {
            "approve_voids" => p.voids = value == "on",
            "approve_runs_over" => p.runs_over = value.parse().ok(),
            "approve_amount_over" => {
                p.amount_over = value
                    .split_once(' ')
                    .and_then(|(a, c)| Some((a.parse().ok()?, c.to_string())));
            }
            "approval_hours" => p.hours = value.parse().unwrap_or(24),
            _ => {}
        }
    }
    Ok(p)
}

/// Writes `change` into `db`'s `desk_settings` (the owner's connection).
pub(super) fn set_policy_in(db: &dyn Db, change: &PolicyChange) -> Result<(), DbError> {
    let put = |key: &str, value: String| {
        db.exec(
            "INSERT INTO desk_settings (key, value) VALUES (?1, ?2)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, set_by = session_user,
                set_at = clock_timestamp()",
            &vals![key, value],
        )
    };
    if change.off {
        db.exec(
            "DELETE FROM desk_settings WHERE key IN (?1, ?2, ?3)",
            &vals![KEYS[0], KEYS[1], KEYS[2]],
        )?;
    }
    if change.voids {
        put(KEYS[0], "on".into())?;
    }
    if let Some(n) = change.runs_over {
        put(KEYS[1], n.to_string())?;
    }
    if let Some((amount, code)) = &change.amount_over {
        put(KEYS[2], format!("{} {code}", amount.normalize()))?;
    }
    if let Some(h) = change.hours {
        put(KEYS[3], h.to_string())?;
    }
    Ok(())
}

/// A request's columns, with its decision and how many of its items were carried out
/// (each once, however often a refused one was sent again).
const REQUESTS: &str = "SELECT r.id, r.what, r.summary, r.items, r.expires, r.time, r.\"user\",
    r.db_user, d.kind, d.\"user\", d.db_user, d.time, d.note,
    (SELECT count(DISTINCT u.item) FROM approval_events u WHERE u.request = r.id AND u.kind = 'use'),
    r.expires::timestamptz <= clock_timestamp(), r.db_user = session_user
  FROM approval_events r
  LEFT JOIN approval_events d ON d.request = r.id AND d.kind IN ('approve', 'reject')
  WHERE r.kind = 'request'";

fn request_of(r: &DbRow) -> Result<Request, DbError> {
    let what = What::parse(&r.text(1)?).ok_or_else(|| DbError::said("not a request"))?;
    // The summary is another computer's text: read as such, shown escaped.
    let summary = serde_json::from_str(&r.text(2)?).unwrap_or_default();
    let by = WrittenBy {
        user: r.text(6)?,
        db_user: r.opt_text(7)?,
        copied_time: None,
    };
    let decided = |r: &DbRow| -> Result<(WrittenBy, String, Option<String>), DbError> {
        Ok((
            WrittenBy {
                user: r.text(9)?,
                db_user: r.opt_text(10)?,
                copied_time: None,
            },
            r.text(11)?,
            r.opt_text(12)?,
        ))
    };
    let state = match r.opt_text(8)?.as_deref() {
        Some("approve") => {
            let (by, time, note) = decided(r)?;
            State::Approved { by, time, note }
        }
        Some("reject") => {
            let (by, time, note) = decided(r)?;
            State::Rejected { by, time, note }
        }
        _ if r.flag(14)? => State::Expired,
        _ => State::Pending,
    };
    Ok(Request {
        id: r.int(0)?,
        what,
        by,
        time: r.text(5)?,
        expires: r.text(4)?,
        summary,
        items: r.int(3)?.max(0) as u64,
        used: r.int(13)?.max(0) as u64,
        lapsed: r.flag(14)?,
        state,
        mine: r.flag(15)?,
    })
}

impl Journal {
    /// Whether this is a desk's journal of layout 8 or later (one made before keeps no
    /// approvals until its owner brings it up to date).
    pub fn keeps_approvals(&self) -> Result<bool, JournalError> {
        if !self.is_shared() {
            return Ok(false);
        }
        self.db()
            .one("SELECT to_regclass('approval_events') IS NOT NULL", &[])
            .and_then(|r| r.map(|r| r.flag(0)).transpose())
            .map(|there| there == Some(true))
            .map_err(super::store::read_error(&self.path))
    }

    /// The desk's policy; `None` on this computer's journal, or where none is set.
    pub fn policy(&self) -> Result<Option<Policy>, JournalError> {
        if !self.is_shared() {
            return Ok(None);
        }
        let p = policy_in(self.db()).map_err(super::store::read_error(&self.path))?;
        Ok(p.is_on().then_some(p))
    }

    /// Asks for approval of `items` as `what` at `service` (the request already asked
    /// for the same, still standing, when there is one), and says where it stands.
    pub fn request_approval(
        &mut self,
        what: What,
        service: &str,
        items: &[Item],
        summary: &Summary,
    ) -> Result<Request, JournalError> {
        let path = self.path.clone();
        let (items, summary) = (
            serde_json::to_string(items).unwrap_or_default(),
            serde_json::to_string(summary).unwrap_or_default(),
        );
        let who = self.who.clone();
        let id = self
            .write(|tx| {
                tx.one(
                    "SELECT journal_approval_request(?1, ?2, ?3, ?4, ?5)",
                    &vals![what.as_str(), service, items, summary, who],
                )?
                .ok_or_else(|| DbError::said("no request came back"))?
                .int(0)
            })
            .map_err(super::store::write_error(&path))?;
        self.approval_requests(Which::One(id))?
            .into_iter()
            .next()
            .ok_or_else(|| JournalError::Write {
                path,
                trouble: super::Trouble::Other,
                why: format!("request {id} is not in the journal"),
            })
    }

    /// The requests `which` selects, newest first.
    pub fn approval_requests(&self, which: Which) -> Result<Vec<Request>, JournalError> {
        if !self.is_shared() {
            return Ok(Vec::new());
        }
        let read = super::store::read_error(&self.path);
        let rows = match which {
            Which::All => self
                .db()
                .query(&format!("{REQUESTS} ORDER BY r.id DESC LIMIT 200"), &[]),
            Which::ForMe => self.db().query(
                &format!(
                    "{REQUESTS} AND d.id IS NULL AND r.db_user <> session_user
                     AND r.expires::timestamptz > clock_timestamp() ORDER BY r.id DESC LIMIT 200"
                ),
                &[],
            ),
            Which::One(id) => self
                .db()
                .query(&format!("{REQUESTS} AND r.id = ?1"), &vals![id]),
        }
        .map_err(&read)?;
        rows.iter()
            .map(request_of)
            .collect::<Result<_, _>>()
            .map_err(read)
    }

    /// Approves (`approve`) or rejects request `id`, with `note` (a rejection's reason).
    pub fn decide_approval(
        &mut self,
        id: i64,
        approve: bool,
        note: Option<&str>,
    ) -> Result<(), JournalError> {
        let path = self.path.clone();
        let who = self.who.clone();
        self.write(|tx| {
            tx.exec(
                "SELECT journal_approval_decide(?1, ?2, ?3, ?4)",
                &vals![id, approve, note, who],
            )
            .map(|_| ())
        })
        .map_err(super::store::write_error(&path))
    }
}

/// Who approved what an entry carried out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ApprovedBy {
    /// The request's number.
    pub request: i64,
    /// Who asked (their computer's word and the server's role).
    #[serde(serialize_with = "by_json")]
    pub asked_by: WrittenBy,
    /// Who approved it.
    #[serde(serialize_with = "by_json")]
    pub approved_by: WrittenBy,
    /// When it was approved (RFC 3339, the server's clock).
    pub time: String,
}

impl Journal {
    /// Every entry (by its intent's number) that carried out an approval, with who asked
    /// and who approved: few (approvals are), read once for a listing.
    pub fn approvals_used(
        &self,
    ) -> Result<std::collections::HashMap<i64, ApprovedBy>, JournalError> {
        let mut out = std::collections::HashMap::new();
        if !self.is_shared() {
            return Ok(out);
        }
        let read = super::store::read_error(&self.path);
        if !self.keeps_approvals()? {
            return Ok(out);
        }
        let rows = self
            .db()
            .query(
                "SELECT u.intent_seq, r.id, r.\"user\", r.db_user, d.\"user\", d.db_user, d.time
                 FROM approval_events u
                 JOIN approval_events r ON r.id = u.request AND r.kind = 'request'
                 JOIN approval_events d ON d.request = u.request AND d.kind = 'approve'
                 WHERE u.kind = 'use'",
                &[],
            )
            .map_err(&read)?;
        for r in rows {
            let by = |user: usize, role: usize| -> Result<WrittenBy, DbError> {
                Ok(WrittenBy {
                    user: r.text(user)?,
                    db_user: r.opt_text(role)?,
                    copied_time: None,
                })
            };
            let one = (|| -> Result<(i64, ApprovedBy), DbError> {
                Ok((
                    r.int(0)?,
                    ApprovedBy {
                        request: r.int(1)?,
                        asked_by: by(2, 3)?,
                        approved_by: by(4, 5)?,
                        time: r.text(6)?,
                    },
                ))
            })()
            .map_err(&read)?;
            out.insert(one.0, one.1);
        }
        Ok(out)
    }
}

/// A run as the shared journal's policy sees it: its size, written on each of its
/// intents (so the server knows a run's rows), and the approval they carry out.
#[derive(Clone, Copy, Debug, Default)]
pub struct FourEyes {
    /// How many rows (invoices, or an e-mail run's customers) the run has; `None` on a
    /// journal of this computer's own, which has no policy.
    pub run_rows: Option<u64>,
    /// The approved request the run carries out.
    pub approval: Option<i64>,
}

/// Why a run is not sent: the journal could not say, or the request it needs is not
/// approved (asked now, waiting, or rejected).
#[derive(Clone, Debug)]
pub enum FourEyesError {
    /// The journal could not be read or written: nothing was sent.
    Journal(JournalError),
    /// This request stands for it, not approved.
    NotApproved(Box<Request>),
}

/// The request for `items` as `what` (asked now, or the one asked before): `Ok` when it
/// is approved, else why nothing is sent.
pub async fn ask(
    journal: &super::SharedJournal,
    what: What,
    service: String,
    items: Vec<Item>,
    summary: Summary,
) -> Result<Request, FourEyesError> {
    let request = journal
        .run(move |j| j.request_approval(what, &service, &items, &summary))
        .await
        .map_err(FourEyesError::Journal)?;
    match request.state {
        State::Approved { .. } => Ok(request),
        _ => Err(FourEyesError::NotApproved(Box::new(request))),
    }
}

/// What the policy asks of an e-mail run to `customers` in `month` at the mail scope
/// `scope`: its size on every e-mail's intent (a shared journal), and over the runs'
/// limit the approved request its e-mails carry out (returned too, to be said).
pub async fn mail_four_eyes(
    journal: &super::SharedJournal,
    scope: &str,
    customers: &[String],
    month: chrono::NaiveDate,
) -> Result<(FourEyes, Option<Box<Request>>), FourEyesError> {
    let mut eyes = FourEyes::default();
    if !journal.is_shared() || customers.is_empty() {
        return Ok((eyes, None));
    }
    let mut ids: Vec<String> = customers.to_vec();
    ids.sort();
    ids.dedup();
    let n = ids.len() as u64;
    eyes.run_rows = Some(n);
    let policy = journal
        .run(|j| j.policy())
        .await
        .map_err(FourEyesError::Journal)?;
    if !policy.is_some_and(|p| p.for_mail(n)) {
        return Ok((eyes, None));
    }
    let items = ids
        .into_iter()
        .map(|id| Item {
            key: id.clone(),
            customer: Some(id),
            amount: None,
            currency_code: None,
        })
        .collect();
    let summary = Summary {
        rows: Some(n),
        month: Some(month.format("%Y-%m").to_string()),
        ..Summary::default()
    };
    let request = ask(journal, What::Mail, scope.to_string(), items, summary).await?;
    eyes.approval = Some(request.id);
    Ok((eyes, Some(Box::new(request))))
}

/// Carries out approved request `request` with intent `seq` (inside the claim's
/// transaction, before the claim: the server's trigger looks for it).
pub(super) fn use_in(tx: &dyn Db, request: i64, seq: i64) -> Result<(), DbError> {
    tx.exec("SELECT journal_approval_use(?1, ?2)", &vals![request, seq])
        .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn the_policy_asks_for_runs_over_the_rows_and_creates_over_the_amount_in_its_currency() {
        let p = Policy {
            runs_over: Some(50),
            amount_over: Some((dec("5000000"), "CLP".into())),
            hours: 24,
            ..Policy::default()
        };
        assert!(p.is_on());
        assert_eq!(p.for_create(dec("1000"), None, Some(51)), Some(What::Run));
        assert_eq!(p.for_create(dec("1000"), None, Some(50)), None);
        assert_eq!(
            p.for_create(dec("5000001"), Some("CLP"), None),
            Some(What::Create)
        );
        // Left to the account's currency: it may be pesos, so it is asked.
        assert_eq!(p.for_create(dec("5000001"), None, None), Some(What::Create));
        assert_eq!(p.for_create(dec("5000001"), Some("CLF"), None), None);
        assert_eq!(p.for_create(dec("5000000"), Some("CLP"), None), None);
        assert!(!Policy::default().is_on());
    }
}
