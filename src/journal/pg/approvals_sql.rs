//! Layout 8: four eyes on the desk. The owner's policy (`journal policy`, kept in
//! `desk_settings`) says which voids and creates need a second clerk's approval; the
//! server holds every claim to it, whatever the client says, by a trigger on `claims`.
//!
//! A request, its decision and each use are rows of one append-only table, chained by
//! their hashes like the entries (`journal verify` walks it), added to only through the
//! functions below: a request is bound to exactly what it would do (its items: a void's
//! invoice, each create's reference, customer, amount and currency; their SHA-256 is
//! the request's content), decided once by a role other than the one that asked, before
//! it expires (the server's clock), and carried out by the role that asked, each item
//! once (again only after the service refused it: nothing happened).

/// Layout 8, from layout 7 (`{schema}` as in `layout::fill`).
pub(super) const UPGRADE_8: &str = r#"
CREATE TABLE IF NOT EXISTS approval_events (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    request BIGINT NOT NULL,
    kind TEXT NOT NULL,
    what TEXT,
    service TEXT,
    content TEXT,
    items BIGINT,
    summary TEXT,
    expires TEXT,
    note TEXT,
    item TEXT,
    intent_seq BIGINT,
    time TEXT NOT NULL,
    "user" TEXT NOT NULL,
    db_user TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS approval_events_request ON approval_events(request, kind);
CREATE UNIQUE INDEX IF NOT EXISTS approval_events_decided ON approval_events(request)
    WHERE kind IN ('approve', 'reject');
CREATE INDEX IF NOT EXISTS approval_events_use ON approval_events(intent_seq) WHERE kind = 'use';
CREATE TABLE IF NOT EXISTS approval_items (
    request BIGINT NOT NULL,
    key TEXT NOT NULL,
    customer TEXT,
    amount TEXT,
    currency_code TEXT,
    PRIMARY KEY (request, key)
);
REVOKE ALL ON approval_events, approval_items FROM PUBLIC;

-- An approval event's canonical text for its hash.
CREATE OR REPLACE FUNCTION journal_approval_text(e approval_events) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT concat_ws(',', quote_nullable(e.id), quote_nullable(e.request), quote_nullable(e.kind),
    quote_nullable(e.what), quote_nullable(e.service), quote_nullable(e.content),
    quote_nullable(e.items), quote_nullable(e.summary), quote_nullable(e.expires),
    quote_nullable(e.note), quote_nullable(e.item), quote_nullable(e.intent_seq),
    quote_nullable(e.time), quote_nullable(e."user"), quote_nullable(e.db_user))
$fn$;

-- Adds `e` at the end of the approvals' one chain, stamped with the server's time and
-- the role that asks (a request is its own request). Called only by the functions below.
CREATE OR REPLACE FUNCTION journal_approval_add(e approval_events, p_is_request boolean)
RETURNS bigint
LANGUAGE plpgsql SET search_path = {schema}, pg_temp AS $fn$
BEGIN
  -- One chain: approvals are few, and each waits for the one before it.
  LOCK TABLE approval_events IN SHARE ROW EXCLUSIVE MODE;
  e.id := nextval(pg_get_serial_sequence('approval_events', 'id'));
  IF p_is_request THEN
    e.request := e.id;
  END IF;
  e.time := to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
  e.db_user := session_user;
  e.prev_hash := coalesce((SELECT hash FROM approval_events ORDER BY id DESC LIMIT 1), repeat('0', 64));
  e.hash := encode(sha256(convert_to(e.prev_hash || E'\n' || journal_approval_text(e), 'UTF8')), 'hex');
  INSERT INTO approval_events OVERRIDING SYSTEM VALUE SELECT e.*;
  RETURN e.id;
END
$fn$;

-- What the desk's policy asks of intent `i` before its claim: 'void', 'run', 'create'
-- or 'mail' (the approval it needs), or null. A row copied by `journal push` is history.
CREATE OR REPLACE FUNCTION journal_approval_needed(i entries) RETURNS text
LANGUAGE plpgsql STABLE SET search_path = {schema}, pg_temp AS $fn$
DECLARE
  v text;
  cur text;
BEGIN
  IF i.copied_time IS NOT NULL THEN
    RETURN NULL;
  END IF;
  IF i.action = 'void' THEN
    IF EXISTS (SELECT 1 FROM desk_settings WHERE key = 'approve_voids' AND value = 'on') THEN
      RETURN 'void';
    END IF;
    RETURN NULL;
  END IF;
  -- An e-mail of a run (statements, reminders) of more customers than the limit.
  IF i.action = 'email' THEN
    SELECT value INTO v FROM desk_settings WHERE key = 'approve_runs_over';
    IF v IS NOT NULL AND coalesce(i.rows, 0) > v::bigint THEN
      RETURN 'mail';
    END IF;
    RETURN NULL;
  END IF;
  IF i.action IS DISTINCT FROM 'create' THEN
    RETURN NULL;
  END IF;
  SELECT value INTO v FROM desk_settings WHERE key = 'approve_runs_over';
  IF v IS NOT NULL AND coalesce(i.rows, 0) > v::bigint THEN
    RETURN 'run';
  END IF;
  SELECT value INTO v FROM desk_settings WHERE key = 'approve_amount_over';
  IF v IS NOT NULL THEN
    cur := split_part(v, ' ', 2);
    -- An amount left to the account's currency may be in the policy's: asked too.
    IF coalesce(i.currency_code, cur) = cur
       AND (coalesce(i.amount, '') !~ '^-?[0-9]{1,30}(\.[0-9]{1,10})?$'
            OR i.amount::numeric > split_part(v, ' ', 1)::numeric) THEN
      RETURN 'create';
    END IF;
  END IF;
  RETURN NULL;
END
$fn$;

-- Every claim (whichever function makes it) of an intent the policy holds needs an
-- approval carried out by that very intent (`journal_approval_use`, in its transaction).
CREATE OR REPLACE FUNCTION journal_claim_approved() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
DECLARE
  i entries;
  needed text;
BEGIN
  SELECT * INTO i FROM entries WHERE seq = NEW.intent_seq;
  IF NOT FOUND THEN
    RETURN NEW;
  END IF;
  needed := journal_approval_needed(i);
  IF needed IS NOT NULL AND NOT EXISTS (
       SELECT 1 FROM approval_events WHERE kind = 'use' AND intent_seq = NEW.intent_seq) THEN
    RAISE EXCEPTION 'entry % needs the approval of another member of the desk (%)', NEW.intent_seq, needed
      USING ERRCODE = 'IDA01';
  END IF;
  RETURN NEW;
END
$fn$;
DROP TRIGGER IF EXISTS claims_approved ON claims;
CREATE TRIGGER claims_approved BEFORE INSERT OR UPDATE OF intent_seq ON claims
  FOR EACH ROW EXECUTE FUNCTION journal_claim_approved();

-- Asks for approval of `p_items` (a JSON array of {key, customer, amount, currency_code})
-- as `p_what` at `p_service`; the same request of this role, still open, decided or
-- approved and not expired, is returned instead of a new one. `p_summary` is what the
-- clerks are shown.
CREATE OR REPLACE FUNCTION journal_approval_request(
  p_what text, p_service text, p_items text, p_summary text, p_user text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
DECLARE
  items jsonb;
  n bigint;
  digest text;
  found_id bigint;
  hours numeric;
  e approval_events;
BEGIN
  IF p_what NOT IN ('void', 'create', 'run', 'mail') OR length(p_service) NOT BETWEEN 1 AND 500
     OR length(p_summary) NOT BETWEEN 2 AND 16384 OR length(p_user) NOT BETWEEN 1 AND 300
     OR length(p_items) > 20000000 THEN
    RAISE EXCEPTION 'not a request for approval' USING ERRCODE = '22023';
  END IF;
  items := p_items::jsonb;
  IF jsonb_typeof(items) <> 'array' OR jsonb_array_length(items) NOT BETWEEN 1 AND 200000
     OR (p_what NOT IN ('run', 'mail') AND jsonb_array_length(items) <> 1) THEN
    RAISE EXCEPTION 'not a request for approval' USING ERRCODE = '22023';
  END IF;
  IF EXISTS (SELECT 1 FROM jsonb_array_elements(items) x
             WHERE jsonb_typeof(x) <> 'object'
                OR length(coalesce(x ->> 'key', '')) NOT BETWEEN 1 AND 300
                OR length(coalesce(x ->> 'customer', '')) > 300
                OR length(coalesce(x ->> 'currency_code', '')) > 10
                OR coalesce(x ->> 'amount', '0') !~ '^-?[0-9]{1,30}(\.[0-9]{1,10})?$') THEN
    RAISE EXCEPTION 'not a request for approval' USING ERRCODE = '22023';
  END IF;
  SELECT count(DISTINCT x ->> 'key'),
         encode(sha256(convert_to(string_agg(concat_ws(',', quote_nullable(x ->> 'key'),
           quote_nullable(x ->> 'customer'), quote_nullable(x ->> 'amount'),
           quote_nullable(x ->> 'currency_code')), E'\n' ORDER BY x ->> 'key'), 'UTF8')), 'hex')
    INTO n, digest FROM jsonb_array_elements(items) x;
  IF n <> jsonb_array_length(items) THEN
    RAISE EXCEPTION 'not a request for approval' USING ERRCODE = '22023';
  END IF;
  SELECT r.request INTO found_id FROM approval_events r
   WHERE r.kind = 'request' AND r.db_user = session_user AND r.what = p_what
     AND r.service = p_service AND r.content = digest
     AND r.expires::timestamptz > clock_timestamp()
   ORDER BY r.id DESC LIMIT 1;
  IF found_id IS NOT NULL THEN
    RETURN found_id;
  END IF;
  hours := coalesce((SELECT value::numeric FROM desk_settings WHERE key = 'approval_hours'), 24);
  e.kind := 'request';
  e.what := p_what;
  e.service := p_service;
  e.content := digest;
  e.items := n;
  e.summary := p_summary;
  e.expires := to_char((clock_timestamp() + make_interval(secs => hours * 3600)) AT TIME ZONE 'UTC',
                       'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
  e."user" := p_user;
  found_id := journal_approval_add(e, true);
  INSERT INTO approval_items (request, key, customer, amount, currency_code)
  SELECT found_id, x ->> 'key', x ->> 'customer', x ->> 'amount', x ->> 'currency_code'
    FROM jsonb_array_elements(items) x;
  RETURN found_id;
END
$fn$;

-- Approves or rejects request `p_request` (a rejection says why): once, before it
-- expires, by a role other than the one that asked.
CREATE OR REPLACE FUNCTION journal_approval_decide(
  p_request bigint, p_approve boolean, p_note text, p_user text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
DECLARE
  r approval_events;
  e approval_events;
BEGIN
  IF p_approve IS NULL OR length(coalesce(p_note, '')) > 2000 OR length(p_user) NOT BETWEEN 1 AND 300
     OR (NOT p_approve AND length(trim(coalesce(p_note, ''))) = 0) THEN
    RAISE EXCEPTION 'a decision is an approval, or a rejection that says why' USING ERRCODE = '22023';
  END IF;
  SELECT * INTO r FROM approval_events WHERE id = p_request AND kind = 'request';
  IF NOT FOUND THEN
    RAISE EXCEPTION 'there is no request %', p_request USING ERRCODE = 'IDA02';
  END IF;
  IF r.db_user = session_user THEN
    RAISE EXCEPTION 'request % is decided by another member of the desk than who asked', p_request
      USING ERRCODE = 'IDA03';
  END IF;
  IF r.expires::timestamptz <= clock_timestamp() THEN
    RAISE EXCEPTION 'request % expired at %', p_request, r.expires USING ERRCODE = 'IDA04';
  END IF;
  IF EXISTS (SELECT 1 FROM approval_events WHERE request = p_request AND kind IN ('approve', 'reject')) THEN
    RAISE EXCEPTION 'request % was already decided', p_request USING ERRCODE = 'IDA05';
  END IF;
  e.request := p_request;
  e.kind := CASE WHEN p_approve THEN 'approve' ELSE 'reject' END;
  e.note := nullif(trim(coalesce(p_note, '')), '');
  e."user" := p_user;
  PERFORM journal_approval_add(e, false);
END
$fn$;

-- Carries out approved request `p_request` with this writer's intent `p_seq` (before
-- its claim, in the same transaction): only what was approved, by who asked, before
-- it expires, each item once (again only after the service refused it).
CREATE OR REPLACE FUNCTION journal_approval_use(p_request bigint, p_seq bigint) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $fn$
DECLARE
  w writers;
  i entries;
  r approval_events;
  d approval_events;
  it approval_items;
  k text;
  e approval_events;
BEGIN
  w := journal_writer();
  SELECT * INTO i FROM entries WHERE seq = p_seq AND kind = 'intent' AND writer = w.id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'entry % is not this writer''s intent', p_seq USING ERRCODE = '42501';
  END IF;
  SELECT * INTO r FROM approval_events WHERE id = p_request AND kind = 'request';
  IF NOT FOUND THEN
    RAISE EXCEPTION 'there is no request %', p_request USING ERRCODE = 'IDA01';
  END IF;
  IF r.db_user IS DISTINCT FROM session_user THEN
    RAISE EXCEPTION 'request % is carried out by the role that asked for it', p_request USING ERRCODE = 'IDA01';
  END IF;
  SELECT * INTO d FROM approval_events WHERE request = p_request AND kind IN ('approve', 'reject');
  IF NOT FOUND THEN
    RAISE EXCEPTION 'request % is not approved yet', p_request USING ERRCODE = 'IDA01';
  END IF;
  IF d.kind <> 'approve' OR d.db_user = r.db_user THEN
    RAISE EXCEPTION 'request % was rejected', p_request USING ERRCODE = 'IDA01';
  END IF;
  IF r.expires::timestamptz <= clock_timestamp() THEN
    RAISE EXCEPTION 'request % expired at %', p_request, r.expires USING ERRCODE = 'IDA01';
  END IF;
  IF i.action NOT IN ('void', 'create', 'email') OR (r.what = 'void') <> (i.action = 'void')
     OR (r.what = 'mail') <> (i.action = 'email') THEN
    RAISE EXCEPTION 'request % was approved for another action', p_request USING ERRCODE = 'IDA01';
  END IF;
  -- What is carried out once: the invoice voided, the reference issued, the e-mail sent
  -- (an e-mail run's items are its customers: each may have a statement and a reminder).
  k := CASE WHEN i.action = 'void' THEN i.invoice_id ELSE i.external_id END;
  SELECT * INTO it FROM approval_items WHERE request = p_request
     AND key = CASE WHEN i.action = 'email' THEN i.customer ELSE k END;
  -- A run's rows may each have an account of their own: its items bind it.
  IF NOT FOUND OR (r.what NOT IN ('run', 'mail') AND r.service IS DISTINCT FROM i.service)
     OR (i.action = 'create' AND (it.customer IS DISTINCT FROM i.customer
         OR it.amount IS DISTINCT FROM i.amount OR it.currency_code IS DISTINCT FROM i.currency_code)) THEN
    RAISE EXCEPTION 'request % was approved for other content', p_request USING ERRCODE = 'IDA01';
  END IF;
  IF EXISTS (SELECT 1 FROM approval_events u WHERE u.request = p_request AND u.kind = 'use' AND u.item = k
             AND coalesce((SELECT o.outcome FROM entries o WHERE o.intent_seq = u.intent_seq
                           ORDER BY o.seq DESC LIMIT 1), 'unknown') <> 'refused') THEN
    -- Said as a unique key's refusal: the intent that used it holds the claim (a use is
    -- made with its claim, and a claim is taken over only from a refused intent), so a
    -- second computer running the same approved file that read no holder a moment
    -- before asks its claim again and is told who holds it, instead of stopping.
    RAISE EXCEPTION 'request % was already carried out for %', p_request, k USING ERRCODE = '23505';
  END IF;
  e.request := p_request;
  e.kind := 'use';
  e.item := k;
  e.intent_seq := p_seq;
  e."user" := i."user";
  PERFORM journal_approval_add(e, false);
END
$fn$;
REVOKE ALL ON FUNCTION journal_approval_add FROM PUBLIC;
REVOKE ALL ON FUNCTION journal_approval_needed FROM PUBLIC;
REVOKE ALL ON FUNCTION journal_claim_approved FROM PUBLIC;
REVOKE ALL ON FUNCTION journal_approval_request FROM PUBLIC;
REVOKE ALL ON FUNCTION journal_approval_decide FROM PUBLIC;
REVOKE ALL ON FUNCTION journal_approval_use FROM PUBLIC;
{to_clerks_8}
UPDATE journal_layout SET version = 8;
"#;
