//! The shared journal on PostgreSQL: a desk of clerks on several computers writes to one
//! journal, so a reference claimed on one computer is claimed on all of them.
//!
//! The journal's logic is the same as for the SQLite file (see `db.rs`); what is
//! PostgreSQL's is here: connecting (TLS through rustls and the platform's verifier,
//! the password never in the address; time limits on every lock, statement and idle
//! transaction, TCP keepalives both ways), and the layout. From layout 2 the clerks'
//! role writes nothing directly: it reads, and calls the journal's functions
//! (`SECURITY DEFINER`, owned by the journal's owner), which number each row, stamp it
//! with the server's clock and the database role (`session_user`), chain it to the row
//! before it of the same writer (one connection: per-writer chains, so no global lock
//! serialises the desk), and allow only the changes the design allows: a claim is taken
//! by a unique key, taken over only from an intent whose latest outcome is "refused";
//! a request's answer is recorded by the writer that sent it, anyone else only records
//! what a check found, and another role's "not created" only after the in-flight floor
//! on the server's clock.
//!
//! tokio-postgres is driven by a thread of its own (its connection task on a small
//! runtime); each call waits on the client's channels with a plain executor, under a
//! time limit kept by that runtime's timer, so the journal can be used from async code
//! (the CLI) and from blocking threads alike, as the SQLite journal is.

use super::db::{Db, DbError, DbRow, Val, dollar_placeholders};
use super::error::Trouble;
use futures_util::{StreamExt, pin_mut};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;
use tokio_postgres::types::{IsNull, ToSql, Type, to_sql_checked};

/// The layout this program writes; a database with a newer one is refused.
pub(super) const LAYOUT: i64 = 6;

/// The journal's advisory lock ("invoice-desk journal", any fixed number): held only
/// while the layout is made or brought up to date, never on the write path.
const LOCK: i64 = 0x4944_4a4f_5552_4e4c;

/// How long a write waits for a row another transaction holds before saying who holds
/// it (a colleague claiming the same reference commits in milliseconds; longer means a
/// computer that stopped mid-write, which the server ends after [`IDLE_LIMIT`]).
pub(super) const LOCK_WAIT: Duration = Duration::from_secs(2);

/// How long the server keeps a transaction whose client went quiet (a dead laptop's
/// claim): then it is ended and its locks freed; its intent was never committed.
const IDLE_LIMIT: Duration = Duration::from_secs(10);

/// How long a write that met a colleague's open transaction is tried again before the
/// journal is said to be busy: past the server's [`IDLE_LIMIT`] (when a stalled
/// laptop's transaction is ended and its locks freed) and one more lock wait.
pub const BUSY_PATIENCE: Duration =
    Duration::from_secs(IDLE_LIMIT.as_secs() + 2 * LOCK_WAIT.as_secs() + 1);

/// After a connection that could not be made, how long until the next is tried: a
/// server back is found within it (and its connection's own time).
const RECONNECT_PAUSE: Duration = Duration::from_secs(2);

/// How long a connection may take to be made, start-up and password included.
const CONNECT_LIMIT: Duration = Duration::from_secs(10);

/// How long one statement may run on the server.
const STATEMENT_LIMIT: Duration = Duration::from_secs(30);

/// How long this side waits for any answer (a server or proxy that stalls): a little
/// more than the server's own limit.
const ANSWER_LIMIT: Duration = Duration::from_secs(40);

/// The in-flight floor the server keeps for "not created" recorded by another database
/// role than the one that sent the request: the default window (the 30 s request limit
/// and the 90 s margin). A role's own processes use their own window.
const IN_FLIGHT_FLOOR_SECONDS: i64 = 120;

/// Layout 1: the tables as the SQLite file has them, with PostgreSQL's types.
const SCHEMA_1: &str = r#"
CREATE TABLE IF NOT EXISTS journal_layout (version BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    seq BIGINT PRIMARY KEY,
    kind TEXT NOT NULL,
    intent_seq BIGINT,
    time TEXT NOT NULL,
    "user" TEXT NOT NULL,
    profile TEXT NOT NULL,
    base_url TEXT NOT NULL,
    action TEXT NOT NULL,
    customer TEXT,
    amount TEXT,
    currency_code TEXT,
    account_last4 TEXT,
    external_id TEXT,
    invoice_id TEXT,
    outcome TEXT,
    error_kind TEXT,
    error_code TEXT,
    file_name TEXT,
    rows BIGINT,
    checked BOOLEAN NOT NULL DEFAULT false,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    service TEXT,
    due_date TEXT,
    decision TEXT
);
CREATE INDEX IF NOT EXISTS entries_intent ON entries(intent_seq);
CREATE INDEX IF NOT EXISTS entries_time ON entries(kind, time);
CREATE INDEX IF NOT EXISTS entries_reference ON entries(external_id);
CREATE INDEX IF NOT EXISTS entries_look_alike ON entries(customer, amount)
    WHERE kind = 'intent' AND action = 'create';
CREATE TABLE IF NOT EXISTS customers (
    id TEXT PRIMARY KEY,
    name TEXT,
    rut TEXT,
    notes TEXT,
    search TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS bulk_runs (
    id BIGSERIAL PRIMARY KEY,
    path TEXT NOT NULL,
    file_id TEXT NOT NULL,
    profile TEXT NOT NULL,
    base_url TEXT NOT NULL,
    rows BIGINT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    mapping TEXT
);
CREATE TABLE IF NOT EXISTS pushed (
    origin TEXT PRIMARY KEY,
    seq BIGINT NOT NULL,
    pushed_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS claims (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    intent_seq BIGINT NOT NULL,
    PRIMARY KEY (scope, key)
);
"#;

/// The journal's functions, in the order they are granted (see [`grants`]).
const FUNCTIONS: &[&str] = &[
    "journal_append",
    "journal_claim",
    "journal_customer_put",
    "journal_customer_learn",
    "journal_run_start",
    "journal_run_finish",
    "journal_pushed",
    "journal_customer_emails",
    "journal_uf_keep",
    "journal_claim_missing",
];

/// Layout 2, from layout 1 (`{schema}`: the tables' schema, the functions' only search
/// path). Rows of layout 1 keep their one chain (no writer); new rows are numbered by
/// the server (an identity no role may set: one insert cannot exhaust it), stamped and
/// chained per writer by `journal_append`.
const UPGRADE_2: &str = r#"
ALTER TABLE entries ADD COLUMN IF NOT EXISTS clock TEXT;
ALTER TABLE entries ADD COLUMN IF NOT EXISTS db_user TEXT;
ALTER TABLE entries ADD COLUMN IF NOT EXISTS server_time TIMESTAMPTZ;
ALTER TABLE entries ADD COLUMN IF NOT EXISTS writer BIGINT;
DO $do$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'entries'::regclass
                 AND attname = 'seq' AND attidentity <> '') THEN
    ALTER TABLE entries ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY;
    PERFORM setval(pg_get_serial_sequence('entries', 'seq'),
                   coalesce((SELECT max(seq) FROM entries), 0) + 1, false);
  END IF;
END
$do$;
CREATE INDEX IF NOT EXISTS entries_writer ON entries(writer, seq);
ALTER TABLE customers ADD COLUMN IF NOT EXISTS updated_by TEXT;
ALTER TABLE bulk_runs ADD COLUMN IF NOT EXISTS started_by TEXT;
ALTER TABLE pushed ADD COLUMN IF NOT EXISTS pushed_by TEXT;
CREATE TABLE IF NOT EXISTS writers (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    db_user TEXT NOT NULL,
    pid INTEGER NOT NULL,
    backend_start TIMESTAMPTZ NOT NULL,
    started TIMESTAMPTZ NOT NULL,
    tip_seq BIGINT,
    tip_hash TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS writers_backend ON writers(pid, backend_start);

-- A row's canonical text for its hash: every column, each quoted (NULL as NULL), times
-- in one fixed format whatever the session's DateStyle.
CREATE OR REPLACE FUNCTION journal_row_text(e entries) RETURNS text
LANGUAGE sql STABLE SET search_path = {schema}, pg_temp AS $fn$
  SELECT {row_text}
$fn$;

-- This connection's writer (made on its first row): the server's backend, its role.
CREATE OR REPLACE FUNCTION journal_writer() RETURNS writers
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
DECLARE
  w writers;
  began timestamptz;
BEGIN
  SELECT backend_start INTO began FROM pg_stat_activity WHERE pid = pg_backend_pid();
  SELECT * INTO w FROM writers WHERE pid = pg_backend_pid() AND backend_start = began FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO writers (db_user, pid, backend_start, started, tip_hash)
    VALUES (session_user, pg_backend_pid(), began, clock_timestamp(), repeat('0', 64))
    RETURNING * INTO w;
  END IF;
  RETURN w;
END
$fn$;

{append}
-- Claims `p_key` under `p_scope` for this writer's intent `p_seq`: new (the unique key
-- decides; `p_if_free`: a holder already there keeps it), or taken over from `p_old`
-- only when that intent's latest outcome is "refused".
CREATE OR REPLACE FUNCTION journal_claim(
  p_scope text, p_key text, p_seq bigint, p_old bigint, p_if_free boolean) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
DECLARE
  w writers;
  latest text;
  n bigint;
BEGIN
  w := journal_writer();
  IF NOT EXISTS (SELECT 1 FROM entries WHERE seq = p_seq AND kind = 'intent' AND writer = w.id) THEN
    RAISE EXCEPTION 'entry % is not this writer''s intent', p_seq USING ERRCODE = '42501';
  END IF;
  IF p_old IS NULL THEN
    IF p_if_free THEN
      INSERT INTO claims (scope, key, intent_seq) VALUES (p_scope, p_key, p_seq)
      ON CONFLICT DO NOTHING;
      GET DIAGNOSTICS n = ROW_COUNT;
      RETURN n = 1;
    END IF;
    INSERT INTO claims (scope, key, intent_seq) VALUES (p_scope, p_key, p_seq);
    RETURN true;
  END IF;
  SELECT outcome INTO latest FROM entries WHERE intent_seq = p_old ORDER BY seq DESC LIMIT 1;
  IF latest IS DISTINCT FROM 'refused' THEN
    RAISE EXCEPTION 'the claim on % is held by entry %', p_key, p_old USING ERRCODE = '23505';
  END IF;
  UPDATE claims SET intent_seq = p_seq WHERE scope = p_scope AND key = p_key AND intent_seq = p_old;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n <> 1 THEN
    RAISE EXCEPTION 'the claim on % was taken over meanwhile', p_key USING ERRCODE = '23505';
  END IF;
  RETURN true;
END
$fn$;

CREATE OR REPLACE FUNCTION journal_customer_put(
  p_id text, p_name text, p_rut text, p_notes text, p_search text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
BEGIN
  IF length(p_id) NOT BETWEEN 1 AND 200 OR length(coalesce(p_name, '')) > 500
     OR length(coalesce(p_rut, '')) > 50 OR length(coalesce(p_notes, '')) > 5000
     OR length(p_search) > 1000 THEN
    RAISE EXCEPTION 'a customer''s fields are too long' USING ERRCODE = '22023';
  END IF;
  INSERT INTO customers (id, name, rut, notes, search, updated, updated_by)
  VALUES (p_id, p_name, p_rut, p_notes, p_search,
          to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), session_user)
  ON CONFLICT (id) DO UPDATE SET name = excluded.name, rut = excluded.rut,
    notes = excluded.notes, search = excluded.search, updated = excluded.updated,
    updated_by = excluded.updated_by;
END
$fn$;

CREATE OR REPLACE FUNCTION journal_customer_learn(p_id text, p_search text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
BEGIN
  IF length(p_id) BETWEEN 1 AND 200 AND length(p_search) <= 1000 THEN
    INSERT INTO customers (id, search, updated, updated_by)
    VALUES (p_id, p_search,
            to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), session_user)
    ON CONFLICT DO NOTHING;
  END IF;
END
$fn$;

CREATE OR REPLACE FUNCTION journal_run_start(
  p_path text, p_file_id text, p_profile text, p_base_url text, p_rows bigint,
  p_mapping text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
DECLARE
  id bigint;
BEGIN
  INSERT INTO bulk_runs (path, file_id, profile, base_url, rows, started, mapping, started_by)
  VALUES (p_path, p_file_id, p_profile, p_base_url, greatest(p_rows, 0),
          to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
          p_mapping, session_user)
  RETURNING bulk_runs.id INTO id;
  RETURN id;
END
$fn$;

CREATE OR REPLACE FUNCTION journal_run_finish(p_id bigint) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
BEGIN
  UPDATE bulk_runs SET finished = to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
  WHERE id = p_id AND finished IS NULL;
END
$fn$;

CREATE OR REPLACE FUNCTION journal_pushed(p_origin text, p_seq bigint) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
DECLARE
  w writers;
BEGIN
  w := journal_writer();
  IF NOT EXISTS (SELECT 1 FROM entries WHERE seq = p_seq AND writer = w.id) THEN
    RAISE EXCEPTION 'entry % is not this writer''s', p_seq USING ERRCODE = '42501';
  END IF;
  INSERT INTO pushed (origin, seq, pushed_at, pushed_by)
  VALUES (p_origin, p_seq,
          to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), session_user);
END
$fn$;

-- Nobody but the owner until `journal init --clerks` grants: functions are everyone's
-- by default, and layout 1 let clerks insert and update.
REVOKE ALL ON FUNCTION journal_writer, journal_append, journal_claim, journal_customer_put,
  journal_customer_learn, journal_run_start, journal_run_finish, journal_pushed FROM PUBLIC;
DO $do$
DECLARE
  g record;
BEGIN
  FOR g IN SELECT DISTINCT grantee, table_name FROM information_schema.role_table_grants
           WHERE table_schema = current_schema()
             AND table_name IN ('entries', 'claims', 'bulk_runs', 'customers', 'pushed', 'journal_layout')
             AND privilege_type IN ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER')
             AND grantee <> current_user LOOP
    EXECUTE format('REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON %I FROM %I',
                   g.table_name, g.grantee);
  END LOOP;
END
$do$;
REVOKE ALL ON writers FROM PUBLIC;
UPDATE journal_layout SET version = 2;
"#;

/// The journal's one way to add a row (layouts 2, 3 and 5 make it: 3 lets an intent be
/// an e-mail, 5 stamps a copied row with the server's time and keeps the time it says
/// beside it; an upgrade from an older layout runs them in order, the last one wins).
const APPEND: &str = r#"
CREATE OR REPLACE FUNCTION journal_append(
  p_kind text, p_intent_seq bigint, p_user text, p_profile text, p_base_url text,
  p_action text, p_customer text, p_amount text, p_currency_code text,
  p_account_last4 text, p_external_id text, p_invoice_id text, p_outcome text,
  p_error_kind text, p_error_code text, p_file_name text, p_rows bigint,
  p_checked boolean, p_service text, p_due_date text, p_decision text,
  p_copied_time text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
DECLARE
  w writers;
  i entries;
  e entries;
BEGIN
  w := journal_writer();
  IF p_kind = 'intent' THEN
    IF p_intent_seq IS NOT NULL OR p_action NOT IN ('create', 'void', 'export', 'email') THEN
      RAISE EXCEPTION 'an intent is a create, a void, an export or an e-mail, and follows no entry'
        USING ERRCODE = '22023';
    END IF;
  ELSIF p_kind = 'outcome' THEN
    SELECT * INTO i FROM entries WHERE seq = p_intent_seq AND kind = 'intent';
    IF NOT FOUND THEN
      RAISE EXCEPTION 'there is no entry %', p_intent_seq USING ERRCODE = '22023';
    END IF;
    -- A copied outcome is the end of a copied intent's own history, nothing else's.
    IF p_copied_time IS NOT NULL AND (i.copied_time IS NULL OR i.writer IS DISTINCT FROM w.id) THEN
      RAISE EXCEPTION 'a copied outcome follows only a copied intent of the same writer'
        USING ERRCODE = '42501';
    END IF;
    IF p_outcome NOT IN ('done', 'refused', 'unknown') THEN
      RAISE EXCEPTION 'an outcome is done, refused or unknown' USING ERRCODE = '22023';
    END IF;
    IF i.writer IS DISTINCT FROM w.id THEN
      -- Only the connection that sent a request had its answer: anyone else records
      -- what a check at the service found.
      IF NOT p_checked THEN
        RAISE EXCEPTION 'entry % was sent by another writer: only a check may settle it', p_intent_seq
          USING ERRCODE = '42501';
      END IF;
      -- A check settles what is still unknown, once: a settled entry stays settled.
      IF coalesce((SELECT o.outcome FROM entries o WHERE o.intent_seq = p_intent_seq
                   ORDER BY o.seq DESC LIMIT 1), 'unknown') <> 'unknown' THEN
        RAISE EXCEPTION 'entry % is already settled', p_intent_seq USING ERRCODE = '42501';
      END IF;
      IF p_outcome = 'refused' AND i.action IN ('create', 'void')
         AND i.db_user IS DISTINCT FROM session_user
         AND clock_timestamp() < coalesce(i.server_time, i.time::timestamptz)
                                 + make_interval(secs => {floor}) THEN
        RAISE EXCEPTION 'entry % may still be on its way (sent by %): not concluded before % s on the server''s clock',
          p_intent_seq, i.db_user, {floor} USING ERRCODE = '42501';
      END IF;
    END IF;
  ELSE
    RAISE EXCEPTION 'a row is an intent or an outcome' USING ERRCODE = '22023';
  END IF;
  e.seq := nextval(pg_get_serial_sequence('entries', 'seq'));
  e.kind := p_kind;
  e.intent_seq := p_intent_seq;
  IF p_copied_time IS NOT NULL AND (length(p_copied_time) > 40
     OR p_copied_time !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9:.]+(Z|[+-][0-9:]+)?$') THEN
    RAISE EXCEPTION 'a copied row''s time is a time' USING ERRCODE = '22023';
  END IF;
  e.server_time := clock_timestamp();
  -- Every row's time is the server's; a copied row's own is kept beside it, as it says.
  e.time := to_char(e.server_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
  e.copied_time := p_copied_time;
  e."user" := p_user;
  e.db_user := session_user;
  e.profile := p_profile;
  e.base_url := p_base_url;
  e.action := p_action;
  e.customer := p_customer;
  e.amount := p_amount;
  e.currency_code := p_currency_code;
  e.account_last4 := p_account_last4;
  e.external_id := p_external_id;
  e.invoice_id := p_invoice_id;
  e.outcome := p_outcome;
  e.error_kind := p_error_kind;
  e.error_code := p_error_code;
  e.file_name := p_file_name;
  e.rows := p_rows;
  e.checked := coalesce(p_checked, false);
  e.service := p_service;
  e.due_date := p_due_date;
  e.decision := p_decision;
  e.writer := w.id;
  e.prev_hash := w.tip_hash;
  e.hash := encode(sha256(convert_to(e.prev_hash || E'\n' || journal_row_text(e), 'UTF8')), 'hex');
  INSERT INTO entries OVERRIDING SYSTEM VALUE SELECT e.*;
  UPDATE writers SET tip_seq = e.seq, tip_hash = e.hash WHERE id = w.id;
  RETURN e.seq;
END
$fn$;
"#;

/// Layout 3, from layout 2: e-mails are journaled (an intent may be `email`) and a
/// customer has contacts. The new function is granted to every role that could put a
/// customer (the clerks of `journal init --clerks`), so a desk keeps working.
const UPGRADE_3: &str = r#"
ALTER TABLE customers ADD COLUMN IF NOT EXISTS emails TEXT;
{append}
CREATE OR REPLACE FUNCTION journal_customer_emails(p_id text, p_emails text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
BEGIN
  IF length(p_id) NOT BETWEEN 1 AND 200 OR length(coalesce(p_emails, '')) > 3000 THEN
    RAISE EXCEPTION 'a customer''s contacts are too long' USING ERRCODE = '22023';
  END IF;
  INSERT INTO customers (id, search, emails, updated, updated_by)
  VALUES (p_id, lower(p_id), p_emails,
          to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), session_user)
  ON CONFLICT (id) DO UPDATE SET emails = excluded.emails, updated = excluded.updated,
    updated_by = excluded.updated_by;
END
$fn$;
REVOKE ALL ON FUNCTION journal_customer_emails FROM PUBLIC;
{to_clerks_3}
UPDATE journal_layout SET version = 3;
"#;

/// Layout 4, from layout 3: the UF's value per day, one row a day, the first kept (a
/// clerk's role adds a day it lacks, never changes one), who stored it the server's
/// word. Granted as layout 3's function was.
const UPGRADE_4: &str = r#"
CREATE TABLE IF NOT EXISTS uf_values (
    day TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    source TEXT NOT NULL,
    stored TEXT NOT NULL,
    stored_by TEXT
);
CREATE OR REPLACE FUNCTION journal_uf_put(p_day text, p_value text, p_source text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
DECLARE
  n bigint;
BEGIN
  IF p_day !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' OR p_value !~ '^[0-9]{4,7}(\.[0-9]{1,2})?$'
     OR length(p_source) NOT BETWEEN 1 AND 100 THEN
    RAISE EXCEPTION 'not a UF value' USING ERRCODE = '22023';
  END IF;
  IF to_char(p_day::date, 'YYYY-MM-DD') <> p_day
     OR p_value::numeric NOT BETWEEN 1000 AND 1000000 THEN
    RAISE EXCEPTION 'not a UF value' USING ERRCODE = '22023';
  END IF;
  INSERT INTO uf_values (day, value, source, stored, stored_by)
  VALUES (p_day, p_value, p_source,
          to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), session_user)
  ON CONFLICT (day) DO NOTHING;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n = 1;
END
$fn$;
REVOKE ALL ON uf_values FROM PUBLIC;
REVOKE ALL ON FUNCTION journal_uf_put FROM PUBLIC;
{to_clerks_4}
UPDATE journal_layout SET version = 4;
"#;

/// Layout 5, from layout 4: what a managed server (its owner an ordinary role) allows,
/// and nothing a clerk's role can forge.
///
/// - A writer is no longer the server's backend as `pg_stat_activity` shows it: that
///   view hides other roles' sessions from a role without `pg_read_all_stats`, which a
///   managed server's owner lacks (the SECURITY DEFINER function read `backend_start`
///   as null). A writer is a secret the connection names at its start
///   (`invoice_desk.writer`, 64 random hex digits; the table keeps its SHA-256 and
///   role): unknown to any other session, it outlives a reconnection, so a computer
///   whose server restarted goes on with its own chain and records the answers to its
///   own requests. A session that names none (psql by hand) gets one of its own.
/// - A row copied by `journal push` is stamped with the server's time like any other,
///   the time it says it was first recorded kept beside it (`copied_time`): nothing is
///   back-dated. Only a copied intent of the same writer takes a copied outcome.
/// - A reference the journal has as issued may be claimed again only by an intent
///   whose decision says the service has no such invoice
///   (`issued-although-missing:<invoice id>`), so the decision is journaled.
const UPGRADE_5: &str = r#"
ALTER TABLE writers ALTER COLUMN backend_start DROP NOT NULL;
ALTER TABLE writers ADD COLUMN IF NOT EXISTS token_hash TEXT;
CREATE UNIQUE INDEX IF NOT EXISTS writers_token ON writers(token_hash);
ALTER TABLE entries ADD COLUMN IF NOT EXISTS copied_time TEXT;
-- The desk's settings, set by the owner (`journal init --time-zone`): one calendar for
-- every clerk.
CREATE TABLE IF NOT EXISTS desk_settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    set_by TEXT NOT NULL DEFAULT session_user,
    set_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
REVOKE ALL ON desk_settings FROM PUBLIC;

-- A row's canonical text for its hash (layout 2's, and a copied row's own time after it
-- when it has one: rows without it hash as they always did).
CREATE OR REPLACE FUNCTION journal_row_text(e entries) RETURNS text
LANGUAGE sql STABLE SET search_path = {schema}, pg_temp AS $fn$
  SELECT {row_text}
  || CASE WHEN e.copied_time IS NULL THEN '' ELSE ',' || quote_literal(e.copied_time) END
$fn$;

-- This connection's writer: the one its secret names (made on its first row).
CREATE OR REPLACE FUNCTION journal_writer() RETURNS writers
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
DECLARE
  w writers;
  secret text := current_setting('invoice_desk.writer', true);
  digest text;
BEGIN
  IF secret IS NULL OR secret !~ '^[0-9a-f]{64}$' THEN
    -- A session that named none: one of its own, for as long as it lasts.
    secret := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
    PERFORM set_config('invoice_desk.writer', secret, false);
  END IF;
  digest := encode(sha256(convert_to(secret, 'UTF8')), 'hex');
  SELECT * INTO w FROM writers WHERE token_hash = digest FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO writers (db_user, pid, backend_start, started, tip_hash, token_hash)
    VALUES (session_user, pg_backend_pid(), NULL, clock_timestamp(), repeat('0', 64), digest)
    ON CONFLICT (token_hash) DO NOTHING;
    SELECT * INTO w FROM writers WHERE token_hash = digest FOR UPDATE;
  END IF;
  IF w.db_user IS DISTINCT FROM session_user THEN
    RAISE EXCEPTION 'this writer belongs to another role' USING ERRCODE = '42501';
  END IF;
  RETURN w;
END
$fn$;

{append}
-- Claims `p_key` under `p_scope` for this writer's intent `p_seq` over `p_old`, an
-- intent recorded as done: only when `p_seq`'s decision says the service has no
-- invoice of that reference (the clerk looked, and decided to issue it).
CREATE OR REPLACE FUNCTION journal_claim_missing(
  p_scope text, p_key text, p_seq bigint, p_old bigint) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
DECLARE
  w writers;
  mine entries;
  latest entries;
  n bigint;
BEGIN
  w := journal_writer();
  SELECT * INTO mine FROM entries WHERE seq = p_seq AND kind = 'intent' AND writer = w.id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'entry % is not this writer''s intent', p_seq USING ERRCODE = '42501';
  END IF;
  SELECT * INTO latest FROM entries WHERE intent_seq = p_old ORDER BY seq DESC LIMIT 1;
  IF latest.outcome IS DISTINCT FROM 'done'
     OR mine.decision IS DISTINCT FROM 'issued-although-missing:' || coalesce(latest.invoice_id, '') THEN
    RAISE EXCEPTION 'the claim on % is held by entry %', p_key, p_old USING ERRCODE = '23505';
  END IF;
  UPDATE claims SET intent_seq = p_seq WHERE scope = p_scope AND key = p_key AND intent_seq = p_old;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n <> 1 THEN
    RAISE EXCEPTION 'the claim on % was taken over meanwhile', p_key USING ERRCODE = '23505';
  END IF;
  RETURN true;
END
$fn$;
REVOKE ALL ON FUNCTION journal_claim_missing FROM PUBLIC;
REVOKE ALL ON FUNCTION journal_writer FROM PUBLIC;
{to_clerks_5}
UPDATE journal_layout SET version = 5;
"#;

/// Layout 6, from layout 5: the UF's values keyed by day and source, each checked by
/// the server against the days kept around it (a clerk's role cannot plant a value
/// that breaks continuity, `uf::CONTINUITY`), a CMF value that contradicts the kept
/// one of the CMF replacing it, the contradicted value kept in `uf_corrections` with
/// who had stored it. `journal_uf_keep` is `journal::uf`'s `keep_here` on the server:
/// the two say the same, in the same words.
const UPGRADE_6: &str = r#"
ALTER TABLE uf_values DROP CONSTRAINT IF EXISTS uf_values_pkey;
ALTER TABLE uf_values ADD PRIMARY KEY (day, source);
CREATE TABLE IF NOT EXISTS uf_corrections (
    id BIGSERIAL PRIMARY KEY,
    day TEXT NOT NULL,
    source TEXT NOT NULL,
    old_value TEXT NOT NULL,
    old_stored_by TEXT,
    new_value TEXT NOT NULL,
    corrected_by TEXT NOT NULL,
    corrected_at TEXT NOT NULL
);
REVOKE ALL ON uf_corrections FROM PUBLIC;

-- The nearest kept day before and after p_day (the CMF's value of a day first) that
-- p_value breaks continuity with (more than 0.5 % a day between them apart), as
-- 'day:value'; null when it holds: with both (a new value), or with one (p_either, a
-- correction, whose neighbour may be wrong too).
CREATE OR REPLACE FUNCTION journal_uf_breaks(p_day date, p_value numeric, p_either boolean)
RETURNS text
LANGUAGE plpgsql STABLE SET search_path = {schema}, pg_temp AS $fn$
DECLARE
  b_day text; b_v numeric; a_day text; a_v numeric;
  b_ok boolean; a_ok boolean;
BEGIN
  SELECT day, value::numeric INTO b_day, b_v FROM uf_values
   WHERE day < to_char(p_day, 'YYYY-MM-DD')
   ORDER BY day DESC, (source = 'CMF') DESC, stored LIMIT 1;
  SELECT day, value::numeric INTO a_day, a_v FROM uf_values
   WHERE day > to_char(p_day, 'YYYY-MM-DD')
   ORDER BY day, (source = 'CMF') DESC, stored LIMIT 1;
  b_ok := b_day IS NULL
    OR abs(p_value - b_v) / b_v <= 0.005 * least(greatest(p_day - b_day::date, 1), 36500);
  a_ok := a_day IS NULL
    OR abs(p_value - a_v) / a_v <= 0.005 * least(greatest(a_day::date - p_day, 1), 36500);
  IF p_either THEN
    IF (b_day IS NULL AND a_day IS NULL) OR (b_day IS NOT NULL AND b_ok)
       OR (a_day IS NOT NULL AND a_ok) THEN
      RETURN NULL;
    END IF;
  ELSIF b_ok AND a_ok THEN
    RETURN NULL;
  END IF;
  IF NOT b_ok THEN
    RETURN b_day || ':' || b_v::text;
  END IF;
  RETURN a_day || ':' || a_v::text;
END
$fn$;

-- Keeps p_day's value from p_source ('CMF' or a file's name): 'added', 'same',
-- 'corrected:<old>:<who had stored it>', 'differs:<other>:<its source>' or
-- 'breaks:<day>:<value>' (refused). Who stored it is the server's word.
CREATE OR REPLACE FUNCTION journal_uf_keep(p_day text, p_value text, p_source text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
DECLARE
  v numeric;
  now_text text := to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
  k_value text; k_by text;
  o_value text; o_source text; o_by text;
  brk text;
BEGIN
  IF p_day !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' OR p_value !~ '^[0-9]{4,7}(\.[0-9]{1,2})?$'
     OR length(p_source) NOT BETWEEN 1 AND 100 THEN
    RAISE EXCEPTION 'not a UF value' USING ERRCODE = '22023';
  END IF;
  IF to_char(p_day::date, 'YYYY-MM-DD') <> p_day
     OR p_value::numeric NOT BETWEEN 1000 AND 1000000 THEN
    RAISE EXCEPTION 'not a UF value' USING ERRCODE = '22023';
  END IF;
  v := p_value::numeric;
  -- One keeper at a time: a value is checked against what is kept when it is added.
  LOCK TABLE uf_values IN SHARE ROW EXCLUSIVE MODE;
  SELECT value, stored_by INTO k_value, k_by FROM uf_values WHERE day = p_day AND source = p_source;
  IF FOUND THEN
    IF k_value::numeric = v THEN
      RETURN 'same';
    END IF;
    IF p_source <> 'CMF' THEN
      RETURN 'differs:' || k_value || ':' || p_source;
    END IF;
    brk := journal_uf_breaks(p_day::date, v, true);
    IF brk IS NOT NULL THEN
      RETURN 'breaks:' || brk;
    END IF;
    INSERT INTO uf_corrections (day, source, old_value, old_stored_by, new_value, corrected_by, corrected_at)
    VALUES (p_day, p_source, k_value, k_by, p_value, session_user, now_text);
    UPDATE uf_values SET value = p_value, stored = now_text, stored_by = session_user
     WHERE day = p_day AND source = p_source;
    RETURN 'corrected:' || k_value || ':' || coalesce(k_by, '');
  END IF;
  brk := journal_uf_breaks(p_day::date, v, false);
  IF brk IS NOT NULL THEN
    RETURN 'breaks:' || brk;
  END IF;
  INSERT INTO uf_values (day, value, source, stored, stored_by)
  VALUES (p_day, p_value, p_source, now_text, session_user);
  SELECT value, source, stored_by INTO o_value, o_source, o_by FROM uf_values
   WHERE day = p_day AND source <> p_source ORDER BY (source = 'CMF') DESC, stored LIMIT 1;
  IF FOUND AND o_value::numeric <> v THEN
    IF p_source = 'CMF' THEN
      INSERT INTO uf_corrections (day, source, old_value, old_stored_by, new_value, corrected_by, corrected_at)
      VALUES (p_day, o_source, o_value, o_by, p_value, session_user, now_text);
    END IF;
    RETURN 'differs:' || o_value || ':' || o_source;
  END IF;
  RETURN 'added';
END
$fn$;
REVOKE ALL ON FUNCTION journal_uf_breaks FROM PUBLIC;
REVOKE ALL ON FUNCTION journal_uf_keep FROM PUBLIC;
-- Layout 4's door, which kept any value of any day: closed.
DROP FUNCTION IF EXISTS journal_uf_put(text, text, text);
{to_clerks_6}
UPDATE journal_layout SET version = 6;
"#;

/// A row's columns in the order its hash covers them, each quoted (NULL as NULL), times in
/// one fixed format whatever the session's DateStyle: layout 2's text, which layout 5
/// extends only for rows that have a copied time (every other row hashes as before).
const ROW_TEXT: &str = r#"concat_ws(',', quote_nullable(e.seq), quote_nullable(e.writer), quote_nullable(e.kind),
    quote_nullable(e.intent_seq), quote_nullable(e.time),
    quote_nullable(to_char(e.server_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')),
    quote_nullable(e."user"), quote_nullable(e.db_user), quote_nullable(e.profile),
    quote_nullable(e.base_url), quote_nullable(e.action), quote_nullable(e.customer),
    quote_nullable(e.amount), quote_nullable(e.currency_code), quote_nullable(e.account_last4),
    quote_nullable(e.external_id), quote_nullable(e.invoice_id), quote_nullable(e.outcome),
    quote_nullable(e.error_kind), quote_nullable(e.error_code), quote_nullable(e.file_name),
    quote_nullable(e.rows), quote_nullable(e.checked), quote_nullable(e.service),
    quote_nullable(e.due_date), quote_nullable(e.decision), quote_nullable(e.clock))"#;

/// A layout's SQL for `schema`: the functions' search path, the in-flight floor, and
/// the one text of `journal_append`.
fn fill(sql: &str, schema: &str) -> String {
    sql.replace("{append}", APPEND)
        .replace("{row_text}", ROW_TEXT)
        .replace(
            "{to_clerks_3}",
            &to_clerks(&["GRANT EXECUTE ON FUNCTION journal_customer_emails(text, text) TO %I"]),
        )
        .replace(
            "{to_clerks_4}",
            &to_clerks(&[
                "GRANT EXECUTE ON FUNCTION journal_uf_put(text, text, text) TO %I",
                "GRANT SELECT ON uf_values TO %I",
            ]),
        )
        .replace(
            "{to_clerks_5}",
            &to_clerks(&[
                "GRANT EXECUTE ON FUNCTION journal_claim_missing(text, text, bigint, bigint) TO %I",
                "GRANT SELECT ON desk_settings TO %I",
            ]),
        )
        .replace(
            "{to_clerks_6}",
            &to_clerks(&[
                "GRANT EXECUTE ON FUNCTION journal_uf_keep(text, text, text) TO %I",
                "GRANT SELECT ON uf_corrections TO %I",
            ]),
        )
        .replace("{schema}", &quote_ident(schema))
        .replace("{floor}", &IN_FLIGHT_FLOOR_SECONDS.to_string())
}

/// A layout's grants to every role that could put a customer (the clerks of `journal
/// init --clerks`), so a desk keeps working after the upgrade: each `%I` is the role.
fn to_clerks(grants: &[&str]) -> String {
    let each: String = grants
        .iter()
        .map(|g| format!("    EXECUTE format('{g}', g.grantee);\n"))
        .collect();
    format!(
        "DO $do$\nDECLARE\n  g record;\nBEGIN\n  FOR g IN SELECT DISTINCT grantee FROM information_schema.routine_privileges\n           WHERE routine_schema = current_schema() AND routine_name = 'journal_customer_put'\n             AND privilege_type = 'EXECUTE' AND grantee <> current_user LOOP\n{each}  END LOOP;\nEND\n$do$;"
    )
}

/// What the clerks' role may do: read every table and call the journal's functions;
/// never insert, change or remove a row itself (the functions decide what is added).
pub fn grants(role: &str) -> String {
    let role = quote_ident(role);
    format!(
        "REVOKE ALL ON entries, claims, bulk_runs, customers, journal_layout, pushed, writers, uf_values, uf_corrections, desk_settings FROM PUBLIC;\n\
         GRANT SELECT ON entries, claims, bulk_runs, customers, journal_layout, pushed, writers, uf_values, uf_corrections, desk_settings TO {role};\n\
         GRANT EXECUTE ON FUNCTION {} TO {role};\n",
        FUNCTIONS.join(", ")
    )
}

/// A role's name as an SQL identifier.
fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// libpq's keywords, the first word of a keyword/value address ("host=… dbname=…").
const KEYWORDS: &[&str] = &[
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "password",
    "passfile",
    "sslmode",
    "service",
    "application_name",
    "connect_timeout",
    "options",
    "target_session_attrs",
];

/// Whether `text` names a PostgreSQL database rather than a file: a `postgres://` or
/// `postgresql://` address, or libpq's keyword/value form (`host=… dbname=…`), which is
/// never taken for a file's name (it may hold a password).
pub fn is_database_url(text: &str) -> bool {
    let t = text.trim().to_ascii_lowercase();
    if t.starts_with("postgres://") || t.starts_with("postgresql://") {
        return true;
    }
    t.split_whitespace().next().is_some_and(|first| {
        first
            .split_once('=')
            .is_some_and(|(k, _)| KEYWORDS.contains(&k.trim()))
    }) || KEYWORDS
        .iter()
        .any(|k| t.starts_with(&format!("{k} =")) || t.starts_with(&format!("{k}=")))
}

/// The address as it may be shown and kept: any password in it taken out (the user
/// information's, a `password=` parameter's, or a keyword's value).
pub fn without_password(url: &str) -> String {
    let url = url.trim();
    let Some((scheme, rest)) = url.split_once("://") else {
        return keywords_without_password(url);
    };
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let authority = match authority.rsplit_once('@') {
        Some((user, host)) => {
            let user = user.split(':').next().unwrap_or("");
            format!("{user}@{host}")
        }
        None => authority.to_string(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let kept: Vec<&str> = query
                .split('&')
                .filter(|p| {
                    let key = p.split('=').next().unwrap_or("").to_ascii_lowercase();
                    key != "password" && key != "passfile"
                })
                .collect();
            if kept.is_empty() {
                path.to_string()
            } else {
                format!("{path}?{}", kept.join("&"))
            }
        }
        None => tail.to_string(),
    };
    format!("{scheme}://{authority}{tail}")
}

/// A keyword/value address without its password: every word after `password` (or
/// `passfile`) up to the next keyword is dropped, quoted or not.
fn keywords_without_password(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let Some(eq) = rest.find('=') else {
            out.push(rest.to_string());
            break;
        };
        let key = rest[..eq].trim().to_string();
        let mut value = rest[eq + 1..].trim_start();
        // The value: quoted (backslash escapes) or up to white space.
        let end = if let Some(inner) = value.strip_prefix('\'') {
            let mut escaped = false;
            let mut end = None;
            for (i, c) in inner.char_indices() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '\'' => {
                        end = Some(i + 2);
                        break;
                    }
                    _ => {}
                }
            }
            end.unwrap_or(value.len())
        } else {
            value.find(char::is_whitespace).unwrap_or(value.len())
        };
        let shown = &value[..end];
        value = &value[end..];
        let lower = key.to_ascii_lowercase();
        if lower != "password" && lower != "passfile" {
            out.push(format!("{key}={shown}"));
        }
        rest = value.trim_start();
    }
    out.join(" ")
}

/// The shared journal's connection, made again when the server went away.
///
/// Why tokio-postgres driven from a thread of its own, not the `postgres` crate (which
/// wraps the same client in the same way): every answer here is bounded by
/// [`ANSWER_LIMIT`] — each call, and each row of a long walk — and a connection whose
/// server stopped answering is marked broken and never used again. The `postgres`
/// crate's blocking calls take no such limit: a stalled server or network would hold a
/// clerk's run until the operating system gave up on the connection (Linux's 30 s user
/// timeout; minutes elsewhere), which the stalled-network test
/// (`tests/shared_journal.rs`) forbids.
///
/// A server restarts, fails over to its standby, or a laptop's Wi-Fi drops: a
/// connection found closed or broken is made anew at the next call that does not
/// belong to a transaction begun on it (a transaction never goes on on another
/// connection: its beginning was lost with the old one). It names the same writer
/// secret, so the computer goes on with its own chain and may record the answers to the
/// requests it sent before.
pub(crate) struct Pg {
    /// How to connect (the writer's secret among its options).
    config: tokio_postgres::Config,
    /// The connection in use.
    conn: Mutex<std::sync::Arc<Conn>>,
    /// A transaction was begun on the connection in use: it is not replaced until the
    /// transaction ends.
    in_transaction: std::sync::atomic::AtomicBool,
    /// A new connection could not be made: none is tried again before then (each try
    /// may take [`CONNECT_LIMIT`] on a stalled network), and calls fail at once with
    /// why the last one failed.
    retry: Mutex<Option<(std::time::Instant, DbError)>>,
    /// This writer's newest row appended in the transaction under way, and the newest
    /// one committed: a server found without it (a failover to a standby that had not
    /// received it) has lost what this computer was told was written.
    appended: std::sync::atomic::AtomicI64,
    committed: std::sync::atomic::AtomicI64,
    /// The server came back without rows this writer had committed, or another server
    /// took over from one that confirmed commits without a standby: no more writes.
    rewound: std::sync::atomic::AtomicBool,
    /// The server connected to (its address and port as it sees them) and whether it
    /// confirms a commit only once a standby has it (`synchronous_standby_names`).
    server: Mutex<Option<ServerSeen>>,
    /// The advisory lock this writer's connection holds while it lives (two int4s made
    /// from its secret's SHA-256, as `writers.token_hash` begins): a colleague's run asks
    /// `pg_locks`, which every role may read, whether the writer of a claim with no
    /// outcome is still connected ([`Journal::writer_alive`]).
    alive_key: (i32, i32),
    /// This connection holds it (a new connection takes it at its first write when the
    /// server still gave it to the old one).
    alive: std::sync::atomic::AtomicBool,
}

/// What a connection found of its server.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ServerSeen {
    /// `inet_server_addr():inet_server_port()` (empty over a local socket).
    place: String,
    /// A commit is confirmed once a standby has it.
    synchronous: bool,
}

impl ServerSeen {
    /// Asks the server over a new connection `conn` what it is, and takes this writer's
    /// advisory lock `key` there (see [`Conn::say_alive`]): one round trip at start-up;
    /// whether the lock was taken.
    fn greet(conn: &Conn, key: (i32, i32)) -> Result<(ServerSeen, bool), DbError> {
        let stmt = conn.statement(
            "SELECT coalesce(host(inet_server_addr()), '') || ':' || coalesce(inet_server_port()::text, ''),
                    current_setting('synchronous_standby_names') <> ''
                    AND current_setting('synchronous_commit') NOT IN ('off', 'local'),
                    pg_try_advisory_lock($1::int4, $2::int4)",
        )?;
        let rows = conn.block(conn.client.query(&stmt, &[&key.0, &key.1]))?;
        let row = rows
            .first()
            .ok_or_else(|| DbError::said("the server said nothing of itself"))?;
        Ok((
            ServerSeen {
                place: row.try_get(0)?,
                synchronous: row.try_get(1)?,
            },
            row.try_get(2)?,
        ))
    }
}

/// One connection to the server.
struct Conn {
    client: tokio_postgres::Client,
    statements: Mutex<HashMap<String, tokio_postgres::Statement>>,
    /// The connection thread's runtime: its timer keeps [`ANSWER_LIMIT`].
    runtime: tokio::runtime::Handle,
    /// An answer did not come within [`ANSWER_LIMIT`]: the connection is not used again
    /// (each later call would wait as long), every call on it fails at once.
    broken: std::sync::atomic::AtomicBool,
    /// Drives the connection; it ends when the client is dropped.
    _driver: std::thread::JoinHandle<()>,
}

/// The advisory lock's two keys for writer `secret`: the first 8 bytes of its SHA-256,
/// as `('x' || substr(token_hash, 1, 8))::bit(32)::int` and the next 8 hex digits read.
fn alive_key(secret: &str) -> (i32, i32) {
    use sha2::Digest;
    let d = sha2::Sha256::digest(secret.as_bytes());
    (
        i32::from_be_bytes([d[0], d[1], d[2], d[3]]),
        i32::from_be_bytes([d[4], d[5], d[6], d[7]]),
    )
}

/// A writer's secret: 64 random hex digits (two v4 UUIDs' 244 random bits), named by
/// every connection of this journal's handle and known to no other session.
fn writer_secret() -> String {
    format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

impl Pg {
    /// Connects to `url` with `password` (the address must not hold one: addresses are
    /// shown and kept, passwords never); `who` names this writer to colleagues who wait
    /// on it (the server's own role name is said beside it).
    pub fn connect(url: &str, password: Option<&str>, who: &str) -> Result<Pg, DbError> {
        // rustls always checks the server's certificate and name: `verify-full` is what
        // `require` gets here, so both are read as `require`.
        let url = url
            .replace("sslmode=verify-full", "sslmode=require")
            .replace("sslmode=verify-ca", "sslmode=require");
        // The parser's own words may repeat what it could not read: never said.
        let mut config: tokio_postgres::Config = url.parse().map_err(|_| {
            DbError::said("the address cannot be read as a PostgreSQL address (postgres://user@host:port/database, or host=… dbname=… user=…)")
        })?;
        if config.get_password().is_some() {
            return Err(DbError::said(
                "the address holds a password: give it in INVOICE_DESK_JOURNAL_PASSWORD (or the keyring), never in the address",
            ));
        }
        if let Some(p) = password {
            config.password(p);
        }
        let secret = writer_secret();
        let alive_key = alive_key(&secret);
        let name: String = format!("invoice-desk {who}")
            .chars()
            .filter(|c| !c.is_control())
            .take(60)
            .collect();
        config.application_name(name);
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        // Never frozen: a lock waited for says who holds it, a transaction left open by
        // a computer that died is ended by the server, a statement is bounded; the
        // server notices a vanished client and this side a vanished server. The
        // writer's secret names this computer's chain on every connection it makes.
        config.options(format!(
            "-c lock_timeout={} -c idle_in_transaction_session_timeout={} -c statement_timeout={} \
             -c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3 \
             -c invoice_desk.writer={}",
            LOCK_WAIT.as_millis(),
            IDLE_LIMIT.as_millis(),
            STATEMENT_LIMIT.as_millis(),
            secret
        ));
        config.keepalives(true);
        config.keepalives_idle(Duration::from_secs(10));
        config.keepalives_interval(Duration::from_secs(5));
        config.keepalives_retries(3);
        #[cfg(target_os = "linux")]
        config.tcp_user_timeout(Duration::from_secs(30));
        let conn = Conn::open(config.clone())?;
        let (server, alive) = ServerSeen::greet(&conn, alive_key)?;
        Ok(Pg {
            config,
            conn: Mutex::new(std::sync::Arc::new(conn)),
            in_transaction: std::sync::atomic::AtomicBool::new(false),
            retry: Mutex::new(None),
            appended: std::sync::atomic::AtomicI64::new(0),
            committed: std::sync::atomic::AtomicI64::new(0),
            rewound: std::sync::atomic::AtomicBool::new(false),
            server: Mutex::new(Some(server)),
            alive_key,
            alive: std::sync::atomic::AtomicBool::new(alive),
        })
    }

    /// The connection to use now: the one in use while it works (or while a
    /// transaction was begun on it), else a new one.
    fn conn(&self) -> Result<std::sync::Arc<Conn>, DbError> {
        let mut current = self
            .conn
            .lock()
            .map_err(|_| DbError::said("the connection's lock was poisoned"))?;
        let gone =
            current.broken.load(std::sync::atomic::Ordering::SeqCst) || current.client.is_closed();
        if gone
            && !self
                .in_transaction
                .load(std::sync::atomic::Ordering::SeqCst)
        {
            let mut retry = self
                .retry
                .lock()
                .map_err(|_| DbError::said("the connection's lock was poisoned"))?;
            if let Some((at, why)) = retry.as_ref()
                && std::time::Instant::now() < *at
            {
                return Err(why.clone());
            }
            match Conn::open(self.config.clone()) {
                Ok(conn) => {
                    *retry = None;
                    let (server, alive) = ServerSeen::greet(&conn, self.alive_key)?;
                    self.check_not_rewound(&conn, server)?;
                    self.alive.store(alive, std::sync::atomic::Ordering::SeqCst);
                    *current = std::sync::Arc::new(conn);
                }
                Err(e) => {
                    *retry = Some((std::time::Instant::now() + RECONNECT_PAUSE, e.clone()));
                    return Err(e);
                }
            }
        }
        Ok(current.clone())
    }

    /// On a connection made anew: whether the server still has this writer's newest
    /// committed row. A failover to an asynchronous standby may lose the last moments'
    /// rows; a claim lost so would let the reference be sent again on this run's word.
    /// Then nothing more is written through this handle (a new run, or the app's journal
    /// opened again, asks the service before it sends).
    ///
    /// Another server taking over (a failover: another address or port) from one that
    /// confirmed commits without waiting for a standby may lack the last moments' rows
    /// of any clerk: a run here could take a colleague's lost claim for free. That too
    /// ends writing through this handle.
    fn check_not_rewound(&self, conn: &Conn, now: ServerSeen) -> Result<(), DbError> {
        use std::sync::atomic::Ordering;
        if let Ok(mut server) = self.server.lock() {
            if let Some(before) = server.as_ref()
                && before.place != now.place
                && !before.synchronous
            {
                self.rewound.store(true, Ordering::SeqCst);
            }
            *server = Some(now);
        }
        let committed = self.committed.load(Ordering::SeqCst);
        if committed == 0 {
            return Ok(());
        }
        let stmt = conn.statement(
            "SELECT coalesce(max(e.seq), 0) FROM entries e JOIN writers w ON w.id = e.writer
             WHERE w.token_hash = encode(sha256(convert_to(current_setting('invoice_desk.writer'), 'UTF8')), 'hex')",
        )?;
        let rows = conn.block(conn.client.query(&stmt, &[]))?;
        let found: i64 = rows.first().map_or(Ok(0), |r| r.try_get(0))?;
        if found < committed {
            self.rewound.store(true, Ordering::SeqCst);
        }
        Ok(())
    }

    /// Refuses a write once the server was found without this writer's rows.
    fn not_rewound(&self) -> Result<(), DbError> {
        if self.rewound.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(DbError {
                trouble: Trouble::Rewound,
                why: "the journal's server came back without the newest rows this computer had written, or another server took over from one that did not wait for a standby (a failover that may have lost the last moments' rows)".into(),
                unique: false,
                lock_timeout: false,
            });
        }
        Ok(())
    }

    /// Marks the connection in use as gone: the next call makes a new one.
    fn forget(&self) {
        if let Ok(current) = self.conn.lock() {
            current
                .broken
                .store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }

    /// The layout recorded, if the tables exist.
    pub fn layout(&self) -> Result<Option<i64>, DbError> {
        let exists = self
            .one("SELECT to_regclass('journal_layout') IS NOT NULL", &[])?
            .map(|r| r.flag(0))
            .transpose()?
            .unwrap_or(false);
        if !exists {
            return Ok(None);
        }
        self.one("SELECT max(version) FROM journal_layout", &[])?
            .map(|r| r.opt_int(0))
            .transpose()
            .map(Option::flatten)
    }

    /// Makes the tables and functions, or brings an older layout up to date, under the
    /// journal's advisory lock (two computers starting at once do it once). Only the
    /// journal's owner (or a role that may create in its schema) can.
    pub fn prepare_layout(&self) -> Result<(), DbError> {
        self.locked(|db| {
            let found = self.layout()?;
            if found.is_none() {
                self.batch(SCHEMA_1)?;
                db.exec(
                    "INSERT INTO journal_layout (version) SELECT ?1
                     WHERE NOT EXISTS (SELECT 1 FROM journal_layout)",
                    &[Val::Int(1)],
                )?;
            }
            let schema = self.schema()?;
            for (layout, sql) in [
                (2, UPGRADE_2),
                (3, UPGRADE_3),
                (4, UPGRADE_4),
                (5, UPGRADE_5),
                (6, UPGRADE_6),
            ] {
                if found.unwrap_or(1) < layout {
                    self.batch(&fill(sql, &schema))?;
                }
            }
            Ok(())
        })
    }

    /// The schema the journal's tables are in.
    fn schema(&self) -> Result<String, DbError> {
        self.one("SELECT current_schema()", &[])?
            .map(|r| r.text(0))
            .transpose()?
            .ok_or_else(|| DbError::said("the database has no schema to make it in"))
    }

    /// Runs statements that take no parameters.
    pub fn batch(&self, sql: &str) -> Result<(), DbError> {
        let conn = self.conn()?;
        conn.block(conn.client.batch_execute(sql))
    }

    /// Runs `f` in one transaction. No lock is taken for the journal as a whole: claims
    /// are decided by unique keys and row locks, each writer's chain by its own row.
    /// A row lock held by another computer for longer than [`LOCK_WAIT`] ends the
    /// transaction with a word of who holds it. The whole transaction runs on one
    /// connection: one lost midway fails it (nothing of it was committed).
    pub fn write<R>(&self, f: impl FnOnce(&dyn Db) -> Result<R, DbError>) -> Result<R, DbError> {
        use std::sync::atomic::Ordering;
        self.not_rewound()?;
        if !self.alive.load(Ordering::SeqCst)
            && let Ok(conn) = self.conn()
            && conn.say_alive(self.alive_key).unwrap_or(false)
        {
            self.alive.store(true, Ordering::SeqCst);
        }
        self.appended.store(0, Ordering::SeqCst);
        if let Err(e) = self.batch("BEGIN") {
            // A connection whose server went away is found closed by its first
            // statement: a transaction not yet begun begins on a new one.
            if e.trouble != Trouble::Unreachable {
                return Err(e);
            }
            self.forget();
            self.batch("BEGIN")?;
        }
        if let Err(e) = self.not_rewound() {
            let _ = self.batch("ROLLBACK");
            return Err(e);
        }
        self.in_transaction.store(true, Ordering::SeqCst);
        let done = match f(self) {
            Ok(r) => self.batch("COMMIT").map(|()| {
                self.committed
                    .fetch_max(self.appended.load(Ordering::SeqCst), Ordering::SeqCst);
                r
            }),
            Err(e) => {
                let _ = self.batch("ROLLBACK");
                Err(self.who_holds(e))
            }
        };
        self.in_transaction.store(false, Ordering::SeqCst);
        done
    }

    /// Runs `f` in one transaction begun once the journal's advisory lock is held (the
    /// layout): begun after, so it sees what the previous holder made (a transaction
    /// begun before may not see a table made meanwhile).
    fn locked<R>(&self, f: impl FnOnce(&dyn Db) -> Result<R, DbError>) -> Result<R, DbError> {
        self.exec("SELECT pg_advisory_lock(?1)", &[Val::Int(LOCK)])?;
        let done = self.write(f);
        let _ = self.exec("SELECT pg_advisory_unlock(?1)", &[Val::Int(LOCK)]);
        done
    }

    /// A lock waited for too long, said with who holds a write open on the journal now
    /// (their database role and program), so a waiting clerk knows whom to ask.
    fn who_holds(&self, e: DbError) -> DbError {
        if !e.lock_timeout {
            return e;
        }
        let holders = self
            .query(
                "SELECT DISTINCT a.usename::text, coalesce(a.application_name, '')
                 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                 WHERE l.locktype = 'transactionid' AND l.mode = 'ExclusiveLock' AND l.granted
                   AND a.datname = current_database() AND a.pid <> pg_backend_pid()
                 ORDER BY 1, 2 LIMIT 5",
                &[],
            )
            .unwrap_or_default();
        let names: Vec<String> = holders
            .iter()
            .filter_map(|r| {
                let role = r.text(0).ok()?;
                let app = r.text(1).unwrap_or_default();
                let app = app
                    .strip_prefix("invoice-desk ")
                    .unwrap_or(&app)
                    .to_string();
                Some(crate::text::escape_controls(&format!("{app} (role {role})")).into_owned())
            })
            .collect();
        let who = if names.is_empty() {
            "another computer".to_string()
        } else {
            names.join(", ")
        };
        DbError {
            why: format!(
                "waited {} s for {who}, whose write on the journal holds this row; the server ends a write left open for {} s",
                LOCK_WAIT.as_secs(),
                IDLE_LIMIT.as_secs()
            ),
            ..e
        }
    }
}

impl Conn {
    /// Connects with `config`, from a thread of its own that drives the connection.
    fn open(config: tokio_postgres::Config) -> Result<Conn, DbError> {
        let tls = LazyTls;
        let (sent, got) = std::sync::mpsc::channel();
        let driver = std::thread::Builder::new()
            .name("shared-journal".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = sent.send(Err(DbError::said(e.to_string())));
                        return;
                    }
                };
                let handle = rt.handle().clone();
                rt.block_on(async move {
                    // tokio-postgres bounds the socket's connection only: a server or
                    // network that takes the connection and then stalls (a half-dead
                    // Wi-Fi, a proxy) would hold the start-up and the password for ever.
                    match tokio::time::timeout(CONNECT_LIMIT, config.connect(tls)).await {
                        Ok(Ok((client, connection))) => {
                            let _ = sent.send(Ok((client, handle)));
                            let _ = connection.await;
                        }
                        Ok(Err(e)) => {
                            let _ = sent.send(Err(DbError::from(e)));
                        }
                        Err(_) => {
                            let _ = sent.send(Err(DbError {
                                trouble: Trouble::Unreachable,
                                why: format!(
                                    "the server did not answer the connection within {} s",
                                    CONNECT_LIMIT.as_secs()
                                ),
                                unique: false,
                                lock_timeout: false,
                            }));
                        }
                    }
                });
            })
            .map_err(|e| DbError::said(e.to_string()))?;
        let (client, runtime) = got
            .recv()
            .map_err(|_| DbError::said("the connection's thread stopped"))??;
        Ok(Conn {
            client,
            statements: Mutex::new(HashMap::new()),
            runtime,
            broken: std::sync::atomic::AtomicBool::new(false),
            _driver: driver,
        })
    }

    /// Takes this writer's advisory lock for the session (never waits: a server that
    /// still gives it to this writer's previous connection says no); whether it holds it.
    fn say_alive(&self, key: (i32, i32)) -> Result<bool, DbError> {
        let stmt = self.statement("SELECT pg_try_advisory_lock($1::int4, $2::int4)")?;
        let rows = self.block(self.client.query(&stmt, &[&key.0, &key.1]))?;
        Ok(rows
            .first()
            .map(|r| r.try_get(0))
            .transpose()?
            .unwrap_or(false))
    }

    fn statement(&self, sql: &str) -> Result<tokio_postgres::Statement, DbError> {
        if let Ok(cache) = self.statements.lock()
            && let Some(s) = cache.get(sql)
        {
            return Ok(s.clone());
        }
        let stmt = self.block(self.client.prepare(&dollar_placeholders(sql)))?;
        if let Ok(mut cache) = self.statements.lock() {
            cache.insert(sql.to_string(), stmt.clone());
        }
        Ok(stmt)
    }

    /// Waits for a call's answer, at most [`ANSWER_LIMIT`] (see [`within`]).
    fn block<T, E, F>(&self, f: F) -> Result<T, DbError>
    where
        F: std::future::Future<Output = Result<T, E>>,
        DbError: From<E>,
    {
        self.usable()?;
        futures_executor::block_on(within(&self.runtime, f))
            .inspect_err(|_| self.broken.store(true, std::sync::atomic::Ordering::SeqCst))?
            .map_err(DbError::from)
    }

    /// Fails at once on a connection whose server stopped answering earlier.
    fn usable(&self) -> Result<(), DbError> {
        if self.broken.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(DbError {
                trouble: Trouble::Unreachable,
                why: format!(
                    "the server stopped answering earlier (nothing came within {} s)",
                    ANSWER_LIMIT.as_secs()
                ),
                unique: false,
                lock_timeout: false,
            });
        }
        Ok(())
    }
}

/// `f`'s result, unless no answer came within [`ANSWER_LIMIT`]: the connection thread's
/// timer wakes the wait, so a server or network that stalls is said, not waited on for
/// ever.
async fn within<T>(
    runtime: &tokio::runtime::Handle,
    f: impl std::future::Future<Output = T>,
) -> Result<T, DbError> {
    let limit = {
        let _in = runtime.enter();
        tokio::time::sleep(ANSWER_LIMIT)
    };
    pin_mut!(f);
    pin_mut!(limit);
    match futures_util::future::select(f, limit).await {
        futures_util::future::Either::Left((r, _)) => Ok(r),
        futures_util::future::Either::Right(_) => Err(DbError {
            trouble: Trouble::Unreachable,
            why: format!(
                "the server did not answer within {} s",
                ANSWER_LIMIT.as_secs()
            ),
            unique: false,
            lock_timeout: false,
        }),
    }
}

impl Db for Pg {
    fn exec(&self, sql: &str, params: &[Val]) -> Result<u64, DbError> {
        let conn = self.conn()?;
        let stmt = conn.statement(sql)?;
        conn.block(conn.client.execute_raw(&stmt, params.iter()))
    }

    fn each(
        &self,
        sql: &str,
        params: &[Val],
        f: &mut dyn FnMut(DbRow) -> Result<bool, DbError>,
    ) -> Result<(), DbError> {
        let conn = self.conn()?;
        conn.usable()?;
        let stmt = conn.statement(sql)?;
        let rt = &conn.runtime;
        let broken = || conn.broken.store(true, std::sync::atomic::Ordering::SeqCst);
        // The limit is per answer (the first rows, then each next one): a long walk
        // (`journal verify`) goes on as long as rows keep coming.
        futures_executor::block_on(async {
            let rows = within(rt, conn.client.query_raw(&stmt, params.iter()))
                .await
                .inspect_err(|_| broken())??;
            pin_mut!(rows);
            while let Some(row) = within(rt, rows.next()).await.inspect_err(|_| broken())? {
                if !f(read_row(&row?)?)? {
                    break;
                }
            }
            Ok(())
        })
    }

    fn shared(&self) -> bool {
        true
    }

    fn appended(&self, seq: i64) {
        self.appended
            .fetch_max(seq, std::sync::atomic::Ordering::SeqCst);
    }
}

/// A row's values by their column types.
fn read_row(row: &tokio_postgres::Row) -> Result<DbRow, DbError> {
    let mut out = Vec::with_capacity(row.len());
    for (i, c) in row.columns().iter().enumerate() {
        let v = match *c.type_() {
            Type::INT8 => row.try_get::<_, Option<i64>>(i)?.map(Val::Int),
            Type::INT4 => row
                .try_get::<_, Option<i32>>(i)?
                .map(|n| Val::Int(n.into())),
            Type::INT2 => row
                .try_get::<_, Option<i16>>(i)?
                .map(|n| Val::Int(n.into())),
            Type::BOOL => row.try_get::<_, Option<bool>>(i)?.map(Val::Bool),
            _ => row.try_get::<_, Option<String>>(i)?.map(Val::Text),
        };
        out.push(v.unwrap_or(Val::Null));
    }
    Ok(DbRow(out))
}

impl ToSql for Val {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Val::Null => Ok(IsNull::Yes),
            Val::Int(n) => match *ty {
                Type::INT4 => i32::try_from(*n)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*n)?.to_sql(ty, out),
                Type::BOOL => (*n != 0).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR => n.to_string().to_sql(ty, out),
                _ => n.to_sql(ty, out),
            },
            Val::Text(t) => match *ty {
                Type::INT8 => t.parse::<i64>()?.to_sql(ty, out),
                _ => t.as_str().to_sql(ty, out),
            },
            Val::Bool(b) => match *ty {
                Type::INT8 => i64::from(*b).to_sql(ty, out),
                _ => b.to_sql(ty, out),
            },
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// Whether the server asked for a password the connection did not have (tokio-postgres
/// says so only in words, as the source of a configuration error).
fn password_missing(e: &tokio_postgres::Error) -> bool {
    let mut source: Option<&dyn std::error::Error> = Some(e);
    while let Some(s) = source {
        if s.to_string().contains("password missing") {
            return true;
        }
        source = s.source();
    }
    false
}

impl From<tokio_postgres::Error> for DbError {
    fn from(e: tokio_postgres::Error) -> DbError {
        use tokio_postgres::error::SqlState;
        let code = e.code();
        let trouble = match code {
            Some(c) if *c == SqlState::DISK_FULL => Trouble::DiskFull,
            Some(c)
                if *c == SqlState::INSUFFICIENT_PRIVILEGE
                    || *c == SqlState::READ_ONLY_SQL_TRANSACTION =>
            {
                Trouble::ReadOnly
            }
            Some(c)
                if *c == SqlState::LOCK_NOT_AVAILABLE || *c == SqlState::T_R_DEADLOCK_DETECTED =>
            {
                Trouble::Busy
            }
            Some(c) if *c == SqlState::DATA_CORRUPTED || *c == SqlState::INDEX_CORRUPTED => {
                Trouble::Corrupt
            }
            Some(c)
                if *c == SqlState::INVALID_PASSWORD
                    || *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION =>
            {
                Trouble::Denied
            }
            Some(c) if *c == SqlState::INVALID_CATALOG_NAME => Trouble::NoDatabase,
            // The server is shutting down, restarting or still starting (a restart or
            // a failover): out of reach for now, not a refusal.
            Some(c)
                if *c == SqlState::ADMIN_SHUTDOWN
                    || *c == SqlState::CRASH_SHUTDOWN
                    || *c == SqlState::CANNOT_CONNECT_NOW =>
            {
                Trouble::Unreachable
            }
            Some(_) => Trouble::Other,
            // The server asked for a password and none was given (the keyring lost it,
            // or it was never saved): a refusal, not a server out of reach.
            None if password_missing(&e) => Trouble::Denied,
            // A certificate this computer does not trust: said as such, never as "down".
            None if refused_certificate(&e) => Trouble::Untrusted,
            // No answer from the server at all: it cannot be reached, or went away.
            None => Trouble::Unreachable,
        };
        // The server's own words, when it said something; else the connection's.
        let why = match e.as_db_error() {
            Some(d) => d.message().to_string(),
            None => {
                let mut why = e.to_string();
                let mut source = std::error::Error::source(&e);
                while let Some(s) = source {
                    why = format!("{why}: {s}");
                    source = s.source();
                }
                why
            }
        };
        DbError {
            trouble,
            unique: code == Some(&SqlState::UNIQUE_VIOLATION),
            lock_timeout: code == Some(&SqlState::LOCK_NOT_AVAILABLE),
            why,
        }
    }
}

/// Whether the connection failed because rustls refused the server's certificate
/// (read by type, through the error's sources).
fn refused_certificate(e: &tokio_postgres::Error) -> bool {
    matches!(
        std::error::Error::source(e).and_then(crate::api::http::tls_error),
        Some(rustls::Error::InvalidCertificate(_) | rustls::Error::NoCertificatesPresented)
    )
}

/// rustls with the platform's certificate verifier, as the API layer uses.
fn tls() -> Result<tokio_postgres_rustls::MakeRustlsConnect, String> {
    let provider = std::sync::Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let verifier = rustls_platform_verifier::Verifier::new(provider.clone())
        .map_err(|e| format!("the certificate store cannot be used ({e})"))?;
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(std::sync::Arc::new(verifier))
        .with_no_client_auth();
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
}

/// The stream TLS gives the shared journal.
type TlsStream =
    <tokio_postgres_rustls::MakeRustlsConnect as tokio_postgres::tls::MakeTlsConnect<
        tokio_postgres::Socket,
    >>::Stream;

/// TLS for the shared journal, made only once the server has agreed to it. The system's
/// certificate store (a file and a folder of some 140 certificates, read and parsed) is
/// loaded by the verifier when it is made: every CLI process paid for it, even with
/// `sslmode=prefer` (the default) against a server that speaks plain.
#[derive(Clone, Copy)]
struct LazyTls;

impl tokio_postgres::tls::MakeTlsConnect<tokio_postgres::Socket> for LazyTls {
    type Stream = TlsStream;
    type TlsConnect = LazyConnect;
    type Error = std::convert::Infallible;

    fn make_tls_connect(&mut self, domain: &str) -> Result<LazyConnect, Self::Error> {
        Ok(LazyConnect(domain.to_string()))
    }
}

/// [`LazyTls`] for one server name.
struct LazyConnect(String);

impl tokio_postgres::tls::TlsConnect<tokio_postgres::Socket> for LazyConnect {
    type Stream = TlsStream;
    type Error = Box<dyn std::error::Error + Send + Sync>;
    type Future =
        std::pin::Pin<Box<dyn std::future::Future<Output = Result<TlsStream, Self::Error>> + Send>>;

    fn connect(self, stream: tokio_postgres::Socket) -> Self::Future {
        use tokio_postgres::tls::MakeTlsConnect;
        Box::pin(async move {
            let mut make = tls()?;
            let Ok(connect) =
                MakeTlsConnect::<tokio_postgres::Socket>::make_tls_connect(&mut make, &self.0);
            Ok(connect.connect(stream).await?)
        })
    }
}
