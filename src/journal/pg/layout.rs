//! The shared journal's layout on PostgreSQL: the tables, each upgrade from layout 1 to
//! the one this program writes, the journal's functions (`SECURITY DEFINER`: what the
//! clerks' role may do), and the grants.

use super::IN_FLIGHT_FLOOR_SECONDS;

/// Layout 1: the tables as the SQLite file has them, with PostgreSQL's types.
pub(super) const SCHEMA_1: &str = r#"
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
pub(super) const FUNCTIONS: &[&str] = &[
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
    "journal_contract_event",
    "journal_approval_request",
    "journal_approval_decide",
    "journal_approval_use",
];

/// Layout 2, from layout 1 (`{schema}`: the tables' schema, the functions' only search
/// path). Rows of layout 1 keep their one chain (no writer); new rows are numbered by
/// the server (an identity no role may set: one insert cannot exhaust it), stamped and
/// chained per writer by `journal_append`.
pub(super) const UPGRADE_2: &str = r#"
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
pub(super) const APPEND: &str = r#"
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
pub(super) const UPGRADE_3: &str = r#"
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
pub(super) const UPGRADE_4: &str = r#"
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
pub(super) const UPGRADE_5: &str = r#"
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
pub(super) const UPGRADE_6: &str = r#"
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

/// Layout 7, from layout 6: the contracts' events (repeating invoices). A clerk's role
/// adds one only through `journal_contract_event`, which stamps the server's time and
/// the role that asks; no role changes or removes one.
pub(super) const UPGRADE_7: &str = r#"
CREATE TABLE IF NOT EXISTS contract_events (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    contract TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    time TEXT NOT NULL,
    "user" TEXT NOT NULL,
    db_user TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS contract_events_contract ON contract_events(contract, id);
CREATE OR REPLACE FUNCTION journal_contract_event(
  p_contract text, p_kind text, p_body text, p_user text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
DECLARE
  n bigint;
BEGIN
  IF length(p_contract) NOT BETWEEN 1 AND 100
     OR p_kind NOT IN ('create', 'change', 'end', 'pause', 'resume')
     OR length(p_body) NOT BETWEEN 2 AND 16384
     OR length(p_user) NOT BETWEEN 1 AND 300 THEN
    RAISE EXCEPTION 'not a contract event' USING ERRCODE = '22023';
  END IF;
  IF (p_body::jsonb) ->> 'kind' IS DISTINCT FROM p_kind THEN
    RAISE EXCEPTION 'not a contract event' USING ERRCODE = '22023';
  END IF;
  INSERT INTO contract_events (contract, kind, body, time, "user", db_user)
  VALUES (p_contract, p_kind, p_body,
          to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          p_user, session_user)
  RETURNING id INTO n;
  RETURN n;
END
$fn$;
REVOKE ALL ON contract_events FROM PUBLIC;
REVOKE ALL ON FUNCTION journal_contract_event FROM PUBLIC;
{to_clerks_7}
UPDATE journal_layout SET version = 7;
"#;

/// A row's columns in the order its hash covers them, each quoted (NULL as NULL), times in
/// one fixed format whatever the session's DateStyle: layout 2's text, which layout 5
/// extends only for rows that have a copied time (every other row hashes as before).
pub(super) const ROW_TEXT: &str = r#"concat_ws(',', quote_nullable(e.seq), quote_nullable(e.writer), quote_nullable(e.kind),
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
pub(super) fn fill(sql: &str, schema: &str) -> String {
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
        .replace(
            "{to_clerks_7}",
            &to_clerks(&[
                "GRANT EXECUTE ON FUNCTION journal_contract_event(text, text, text, text) TO %I",
                "GRANT SELECT ON contract_events TO %I",
            ]),
        )
        .replace(
            "{to_clerks_8}",
            &to_clerks(&[
                "GRANT EXECUTE ON FUNCTION journal_approval_request(text, text, text, text, text) TO %I",
                "GRANT EXECUTE ON FUNCTION journal_approval_decide(bigint, boolean, text, text) TO %I",
                "GRANT EXECUTE ON FUNCTION journal_approval_use(bigint, bigint) TO %I",
                "GRANT SELECT ON approval_events, approval_items TO %I",
            ]),
        )
        .replace("{schema}", &quote_ident(schema))
        .replace("{floor}", &IN_FLIGHT_FLOOR_SECONDS.to_string())
}

/// A layout's grants to every role that could put a customer (the clerks of `journal
/// init --clerks`), so a desk keeps working after the upgrade: each `%I` is the role.
pub(super) fn to_clerks(grants: &[&str]) -> String {
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
        "REVOKE ALL ON entries, claims, bulk_runs, customers, journal_layout, pushed, writers, uf_values, uf_corrections, desk_settings, contract_events, approval_events, approval_items FROM PUBLIC;\n\
         GRANT SELECT ON entries, claims, bulk_runs, customers, journal_layout, pushed, writers, uf_values, uf_corrections, desk_settings, contract_events, approval_events, approval_items TO {role};\n\
         GRANT EXECUTE ON FUNCTION {} TO {role};\n",
        FUNCTIONS.join(", ")
    )
}

/// A role's name as an SQL identifier.
pub(super) fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}
