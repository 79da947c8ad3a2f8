## The command line (invoice-desk <command>): what it says on stderr and as results.
## Machine output (--json, CSV, exit codes) never goes through these.

cli-could-not-start = Could not start: { $why }
cli-window-failed = The window could not be opened: { $why }
cli-details = Details:
cli-cannot-write-output = Could not write the output: { $why }
cli-sandbox-stop = Press Ctrl+C to stop.
cli-sandbox-failed = The sandbox could not start: { $why }
cli-sandbox-port-in-use = Port { $port } is in use: choose another with --port (0 picks a free one).
cli-no-sandbox = This build has no built-in sandbox.
cli-not-a-terminal = Refusing to { $what } without --yes: the input is not a terminal, so nobody can confirm.
cli-what-void = void
cli-what-send = send
cli-could-not-read-answer = Could not read the answer: { $why }
cli-yes-no = [y/N]

## Token
cli-token-valid-until = Token valid until { $until } (in { $minutes } minutes).
cli-token-valid = Token valid (the provider did not say for how long).
cli-token-api-key = This profile uses an API key: there is no token. The key was accepted.
cli-token-state = Token state: { $state }

## Create, void
cli-currency-not-offered = { $code } is not among this profile's currencies ({ $offered }). Add it to the profile (invoice-desk profile add … --currencies { $list },{ $code }) or set INVOICE_DESK_CURRENCIES.
cli-field-problem = --field: { $why }
cli-due-problem = --due: { $why }
cli-to-check = To check: invoice-desk journal resolve
cli-unknown-create-ref = (The external reference is { $reference }; it is not sent again before it is checked.)
cli-unknown-void = (The invoice is { $id }; it is not voided again before it is checked.)
cli-void-confirm = Void invoice { $id } of customer { $customer } for { $amount }? This cannot be undone.
cli-not-voided = Not voided.
cli-nothing-sent = Nothing was sent.
cli-journal-where = The journal: { $path } (INVOICE_DESK_JOURNAL moves it). Every create, void and export is written there first.
cli-not-sent = Not sent: { $why }
cli-allow-similar = If it really is another invoice, run the same command with --allow-similar.
cli-see-resolve = See what became of it: invoice-desk journal resolve
cli-blocked-voided = invoice { $id } was already voided by { $who } on { $when }.
cli-blocked-issued = the reference { $reference } was already issued by { $who } on { $when }: invoice { $id }.
cli-blocked-issued-missing = the journal says the reference { $reference } was issued as invoice { $id } by { $who } on { $when }, but the service has no such invoice and no invoice with that reference.
cli-reissue-missing = If it was never issued, issue it with --reissue-missing (the decision is written in the journal, with who took it).
cli-blocked-pending-void = invoice { $id } is being voided right now by { $who }, or that void's outcome is still to check (since { $when }).
cli-blocked-pending = the reference { $reference } is being issued right now by { $who }, or its outcome is still to check (since { $when }).
cli-blocked-similar = this looks like an invoice already issued: { $id } (reference { $reference }) to { $customer } for { $amount }{ $due } on { $when }.
cli-blocked-due = , due { $date }
cli-not-known-yet = not known yet
cli-none = none
cli-at-service = Not sent: the reference { $reference } is already at the service: invoice { $id }{ $created }.
cli-created-on = , created { $when }
cli-at-service-unchecked = Not sent: whether the reference { $reference } is already at the service could not be checked.
cli-outcome-not-recorded = Note: the outcome could not be written to the journal; it shows as unknown until `invoice-desk journal resolve` checks it. { $why }

## Invoices as text
cli-invoice = Invoice { $id }  [{ $status }]
cli-currency-missing = (missing from the service's answer)

## List, export
cli-invoices = { $count ->
    [one] 1 invoice.
   *[other] { $count } invoices.
}
cli-cannot-export-to = Cannot export to { $path }: { $why }
cli-export-not-recorded = Note: the journal could not record how the export ended. { $why }
cli-export-could-not-start = Could not start the export: { $why }
cli-export-progress = { $items ->
        [one] 1 invoice
       *[other] { $items } invoices
    } ({ $pages ->
        [one] 1 page
       *[other] { $pages } pages
    })…
cli-export-failed = Could not export: { $why }
cli-not-changed = { $path } was not changed.
cli-write-failed = Could not write { $path }: { $why }. Any existing file was left as it was.
cli-exported = { $count ->
    [one] Exported 1 invoice to { $path }.
   *[other] Exported { $count } invoices to { $path }.
}
cli-too-many-for-excel = the customer has more invoices than an Excel sheet holds ({ $max })
cli-xlsx-as-text = Note: { $count } amounts have more than 15 significant digits; Excel cannot hold them as numbers, so they are written as text (marked in yellow).
cli-xlsx-cut = Note: { $count } texts are longer than an Excel cell holds (32,767 characters); they are cut, end in "…" and are marked in yellow. The CSV export keeps them whole.

## Billing runs
cli-report-unwritable = Cannot write the report to { $path }: { $why }
cli-cannot-read = Cannot read { $path }: { $why }
cli-problems = { $count ->
    [one] 1 problem in { $path }: nothing was sent (--skip-invalid sends the valid rows).
   *[other] { $count } problems in { $path }: nothing was sent (--skip-invalid sends the valid rows).
}
cli-row = row { $row }: { $what }
cli-row-cell = row { $row }, column { $column }: { $what }
cli-unknown-columns = columns not recognised: { $columns } (--ignore-columns leaves them out).
cli-dry-run = Dry run: nothing was sent.
cli-nothing-to-send = Nothing to send.
cli-send-them = Send them?
cli-stopping = Stopping: the requests on their way finish and are journaled; nothing more is sent.
cli-waiting-429 = The service asked to wait (429); sending resumes at { $time } (Ctrl-C stops).
cli-journal-down = The shared journal has not answered since { $time }; trying again (nothing is sent meanwhile)…
cli-journal-back = The shared journal answers again: sending goes on.
cli-no-such-time-zone = { $zone } is not a time zone: write it as its IANA name, such as America/Santiago.
cli-journal-back-mail = The shared journal answers again: the e-mails go on.
cli-slowed = The service is answering slowly: { $now ->
    [one] one invoice is sent
   *[other] { $now } invoices are sent
} at a time until it answers quickly again.
cli-run-progress = { $done } of { $total ->
        [one] 1 row
       *[other] { $total } rows
    } ({ $rate }/s, about { $left } s left)…
cli-found-at-service = { $count } found already issued at the service (not in this journal): not sent again.
cli-rows-waiting = { $count ->
        [one] 1 row waits
       *[other] { $count } rows wait
    } for confirmation until { $time }: an earlier request may still be at work at the service. Run the same file again after that to settle it.
cli-row-outcome = row { $row } ({ $reference }): { $status } — { $why }
cli-run-journal-stopped = Stopped: { $why } Nothing is sent that the journal cannot record; the rows above say what became of each. Run the same file again once the journal can be written.
cli-run-elsewhere = Stopped: another computer is issuing this same file right now, with a journal of its own — invoice { $invoice } (reference { $reference }) was not issued from this computer. Nothing more was sent; only rows already on their way may have gone twice (the report lists each row). Agree who runs the file; a desk that bills from several computers needs the shared journal (see `invoice-desk journal init`).
cli-run-cancelled = Stopped: some rows were not sent. Run the same file again to send them (rows already issued are skipped).
cli-run-unknown = Some rows' outcome is unknown: run the same file again (it checks them first, and sends nothing twice) or `invoice-desk journal resolve`.
cli-run-refused = Some rows were refused or not sent (see above).
cli-run-similar = { $count ->
        [one] 1 row looks like an invoice already issued and was not sent
       *[other] { $count } rows look like invoices already issued and were not sent
    } (see above). If they really are other invoices, run the same file again with --allow-similar.
cli-run-counts = { $created } created, { $existing } already issued, { $refused } refused, { $unknown } unknown
cli-run-by-others = {" "}({ $count } of them by colleagues)
cli-run-similar-skipped = , { $count } possible duplicates skipped
cli-run-not-sent = , { $count } not sent
cli-run-invalid = , { $count } invalid rows skipped
cli-plan-in-account = { $count } in the account's currency: { $sum }
cli-plan-in = { $count } in { $code }: { $sum }
cli-plan = { $count } { $count ->
    [one] invoice
   *[other] invoices
} to { $customers } { $customers ->
    [one] customer
   *[other] customers
} ({ $totals }).
cli-plan-empty = No row is valid.
cli-checking = Reading what the service already has of { $of ->
    [one] 1 customer
   *[other] { $of } customers
}…
cli-report-failed = Could not write the report { $path }: { $why }
cli-report-written = Report written to { $path }.

## Journal
cli-init-not-a-database = journal init prepares a shared journal: give a PostgreSQL address, postgres://owner@host/database.
cli-init-done = The shared journal's tables are ready. Give the clerks' role its rights with these statements (or run this again with --clerks ROLE):
cli-init-done-for = The shared journal is ready: the role { $role } may add entries and read them, never change or remove them.
cli-push-not-a-database = journal push copies into a shared journal: give its PostgreSQL address with --to.
cli-push-no-local = There is no local journal at { $path } to copy.
cli-pushed = Copied { $copied ->
        [one] 1 entry
       *[other] { $copied } entries
    } of { $path } into the shared journal ({ $already } were there already).
cli-pushed-directory = { $count ->
    [one] Brought 1 customer of this computer's directory to the shared journal's (those it already knew by name, RUT or notes were left as they are).
   *[other] Brought { $count } customers of this computer's directory to the shared journal's (those it already knew by name, RUT or notes were left as they are).
}
cli-journal-damaged = The journal { $path } is damaged: { $why }. Keep a copy of the file and restore the last backup.
cli-journal-intact = The journal is intact: { $count ->
        [one] 1 row
       *[other] { $count } rows
    }, every hash matches.
cli-journal-broken = The journal is broken: { $why }.
cli-journal-broken-at = The journal is broken at row { $seq }: { $why }.
cli-resolved-done = done: { $id }
cli-resolved-waiting = not at the service yet; its request may still be at work until { $time }
cli-resolved-unreachable = still unknown: the service could not be asked
cli-nothing-to-check = Nothing to check.
cli-entries-wait = { $count ->
        [one] 1 entry waits
       *[other] { $count } entries wait
    }: its request may still be at work at the service; run this again after { $time } to settle it.
cli-still-unknown = { $count ->
    [one] 1 outcome is still unknown.
   *[other] { $count } outcomes are still unknown.
}
cli-journal-header = seq|time|who|action|customer|amount|reference / file|outcome
cli-account-currency = (account currency)
cli-ref = ref { $reference }
cli-rows = { $count ->
    [one] 1 row
   *[other] { $count } rows
}
cli-checked = [checked]
cli-entries = { $count ->
    [one] 1 entry.
   *[other] { $count } entries.
}
cli-journal-exported = { $count ->
    [one] Exported 1 journal entry to { $path }.
   *[other] Exported { $count } journal entries to { $path }.
}
cli-not-imported = { $path } was not imported:
cli-imported = { $count ->
    [one] 1 customer imported into the directory.
   *[other] { $count } customers imported into the directory.
}
cli-customers = { $count ->
    [one] 1 customer.
   *[other] { $count } customers.
}

## Profiles and settings
cli-no-profiles = No profiles. Add one with `invoice-desk profile add`.
cli-no-such-profile = There is no profile named "{ $name }".
cli-no-active-profile = There is no active profile.
cli-now-active = "{ $name }" is now the active profile.
cli-profile-removed = Removed the profile "{ $name }" and its stored secret.
cli-required-for-oauth = { $option } is required for OAuth.
cli-secret-client = the client secret
cli-secret-api-key = the API key
cli-saved-in-keyring = Saved "{ $name }"; { $what } is in the keyring ({ $store }).
cli-saved-not-stored = Saved "{ $name }", but { $what } could NOT be stored: no keyring is available ({ $why }). Set it in the environment of the job instead ({ $variable }).
cli-secret-unreadable = Could not read { $what }: { $why }
cli-secret-missing = Nothing was given on the input for { $what }.
cli-no-config-folder = No configuration folder could be found; set INVOICE_DESK_CONFIG_DIR.
cli-sandbox-profile = The Sandbox profile works only inside the app. Run `invoice-desk sandbox` and set INVOICE_DESK_* from what it prints, or add a profile for it.
cli-no-base-url = No profile and no INVOICE_DESK_BASE_URL: add a profile (`invoice-desk profile add`) or set the INVOICE_DESK_* variables.
cli-no-api-key = No API key: set INVOICE_DESK_API_KEY or store it with `invoice-desk profile add`.
cli-no-client-id = No client id or API key: set INVOICE_DESK_CLIENT_ID (or INVOICE_DESK_API_KEY), or use a profile.
cli-no-setting = Missing { $what }: set { $variable }.
cli-setting-auth-url = an auth URL
cli-setting-audience = an audience
cli-no-client-secret = No client secret: set INVOICE_DESK_CLIENT_SECRET or store it with `invoice-desk profile add`.
cli-token-body = INVOICE_DESK_TOKEN_BODY must be json or form, not "{ $value }".
cli-timeout = INVOICE_DESK_TIMEOUT must be a number of seconds from 1 to 3600, not "{ $value }".
cli-max-invoices = INVOICE_DESK_MAX_INVOICES must be a whole number above 0, not "{ $value }".
cli-bad-currency = INVOICE_DESK_CURRENCIES: "{ $value }" is not an ISO 4217 currency code.
cli-run-progress-others = ({ $count } issued by colleagues)
cli-no-profile-chosen = Name a profile, or make one active with: invoice-desk profile use NAME
cli-statement-failed = The statement could not be made: { $why }
cli-statement-written = Statement written to { $path }: { $invoices ->
        [one] 1 invoice
       *[other] { $invoices } invoices
    }, { $pages ->
        [one] 1 page
       *[other] { $pages } pages
    }.
cli-statement-listing = { $count ->
        [one] 1 invoice
       *[other] { $count } invoices
    } listed…
cli-statement-stopped = Stopped: no statement was written.
cli-statement-workbook = More invoices than fit in print: the PDF carries the { $shown } due longest ago, and all { $invoices } are in { $path }.
cli-statement-nothing-owed = Nothing is owed.
cli-statement-owed = Owed: { $owed }.
cli-statement-owed-overdue = Owed: { $owed }; the oldest { $days ->
        [one] 1 day
       *[other] { $days } days
    } overdue.
cli-customers-file = The customers file { $path } cannot be used: { $why }
cli-customers-too-large = it is larger than { $mb } MB
cli-customers-bad-id = line { $line } is not a customer id: { $id }
cli-customers-too-many = it names more than { $max ->
        [one] 1 customer
       *[other] { $max } customers
    }
cli-customers-none = No customers to make statements for: give --customers FILE (one id per line) or --all-known.
cli-statements-progress = { $done } of { $total ->
        [one] 1 customer
       *[other] { $total } customers
    }…
cli-statements-done = { $pdfs ->
        [one] 1 statement written
       *[other] { $pdfs } statements written
    }, { $nothing ->
        [one] 1 customer owes nothing
       *[other] { $nothing } customers owe nothing
    } (no PDF), { $failed } could not be listed. Summary: { $summary }
cli-statements-customer-failed = { $customer }: no statement: { $why }
cli-statements-stopped = Stopped after { $done } of { $total ->
        [one] 1 customer
       *[other] { $total } customers
    }: the summary lists those done; run it again for the rest (files already written are kept, never overwritten).
cli-receivables-too-large = too large to add
cli-receivables-csv-only = Receivables are written as CSV or as an Excel workbook: give --out a name ending in .csv or .xlsx.
cli-receivables-none = No customers: import the customer directory (invoice-desk customers import FILE) or give --customers FILE.
cli-receivables-progress = { $done } of { $total ->
        [one] 1 customer
       *[other] { $total } customers
    }…
cli-receivables-written = { $count ->
    [one] 1 customer written to { $path }.
   *[other] { $count } customers written to { $path }.
}
cli-receivables-failed = { $count ->
        [one] 1 customer
       *[other] { $count } customers
    } could not be listed: what they owe is not known (see their lines).
cli-receivables-customer = Customer
cli-receivables-name = Name
cli-receivables-owed = Owed
cli-receivables-oldest = Oldest (days)
cli-receivables-last = Last invoice
cli-receivables-not-listed = not listed: { $why }
cli-receivables-nothing = nothing owed
cli-receivables-total = Total { $currency }

## email, profile mail, customers contacts
cli-secret-mail = the mail server's password
cli-mail-none = (none)
cli-mail-f-server = Server
cli-mail-f-security = Security
cli-mail-f-user = User
cli-mail-f-from = From
cli-mail-f-reply-to = Reply to
cli-mail-f-copy-to = Desk's copy
cli-mail-f-per-minute = E-mails a minute
cli-mail-no-password = No password is kept for the mail server's user: set it with `invoice-desk profile mail --user USER` (or INVOICE_DESK_SMTP_PASSWORD).
cli-mail-no-sender = An e-mail says who it is from: set the organization first (`invoice-desk profile sender --organization …`). Nothing was sent.
cli-mail-unusable = The mail server's settings cannot be used: { $why }
cli-mail-previewed = { $count ->
    [one] 1 e-mail shown; nothing was sent.
   *[other] { $count } e-mails shown; nothing was sent.
}
cli-mail-summary = Sent: { $sent } · sent before: { $before } · unknown: { $unknown } · without an address: { $none } · not sent: { $refused }
cli-mail-stopped = Stopped: the mail server could not be used ({ $why }). Nothing more was sent.
cli-mail-unknown-hint = Some e-mails may or may not have reached the server: they are not sent again. Check with the customer or in the desk's copy; to send one again, run the command for that customer with --again.
cli-mail-no-address = { $customer }: no e-mail address in the directory (set one with `invoice-desk customers contacts`); nothing sent.
cli-mail-not-made = { $customer }: the statement could not be made ({ $why }); nothing sent.
cli-mail-preview-to = To { $customer }: { $to }
cli-mail-preview-subject = Subject: { $subject }
cli-mail-preview-attachment = Attached: { $name } ({ $kb } KB)
cli-mail-preview-sent-before = Already sent on { $when } by { $by }: it will not be sent again (unless --again --again-all).
cli-mail-preview-in-doubt = Perhaps sent on { $when } by { $by }: no answer came, so nobody knows whether the server took it. Not sent again unless --again.
cli-mail-sent = { $customer }: sent to { $to } (the server answered "{ $reply }").
cli-mail-recipient-refused =   { $address } was refused by the server: { $reply }
cli-mail-sent-to-refused = { $customer }: sent again to { $address } alone, which the server had refused (it answered "{ $reply }"); the other addresses had it already.
cli-mail-addresses-refused = { $count ->
    [one] 1 address was refused while the others took the e-mail: the next run sends it there alone.
   *[other] { $count } addresses were refused while the others took the e-mail: the next run sends it to each alone.
}
cli-mail-already = { $customer }: already sent on { $when } by { $by }; not sent again.
cli-mail-on-its-way = { $customer }: being sent right now by { $by }, whose program is connected to the desk's journal; not sent here.
cli-mail-unknown = { $customer }: not known whether it was sent: an earlier send ({ $when }, journal entry { $seq }) has no outcome (no answer came from the server, or its program stopped); it may have arrived. Not sent again.
cli-mail-refused = { $customer }: refused by the mail server ({ $reply }); nothing sent.
cli-mail-later = { $customer }: the mail server said to try later ({ $reply }); nothing sent. Run the command again later.
cli-mail-lost = { $customer }: the e-mail was handed to the server and no answer came ({ $why }); it may have arrived. Journal entry { $seq }; not sent again.
cli-mail-no-such-template = "{ $kind }" is not a template: statement, invoice, reminder-30, reminder-60 or reminder-90.
cli-mail-template-used = Your template, { $path }:
cli-mail-template-builtin = The built-in template (to change it, run this with --write and edit { $path }):
cli-mail-template-exists = { $path } already exists: edit it there.
cli-mail-template-written = Written to { $path }: edit it; it is used from now on.
cli-contacts-bad-id = "{ $id }" is not a customer id.
cli-contacts-none = { $customer } has no e-mail address.
cli-contacts-bad-email = "{ $email }" is not an e-mail address; nothing changed.
cli-contacts-set = { $count ->
    [0] { $customer }: no address kept; it gets no e-mail.
    [one] { $customer }: 1 address kept.
   *[other] { $customer }: { $count } addresses kept.
}

## uf
cli-secret-cmf-key = the CMF key
cli-uf-check-range = Cannot check from { $from } to { $to }: the first day must come before the last, and five years at most.
cli-uf-unconfirmed = { $date }: the CMF publishes no value for that day; the kept one could not be confirmed.
cli-uf-checked = Checked against the CMF from { $from } to { $to }: { $count ->
        [one] 1 kept value
       *[other] { $count } kept values
    }, { $agree } agree; { $differ ->
        [0] no differences.
        [one] 1 difference (above).
       *[other] { $differ } differences (above).
    }
cli-find-not-asked = The service could not be asked; this is what this computer knows. { $why }
sbx-title = invoice-desk sandbox: a local copy of the invoicing service (not the real one).
sbx-base-url = base URL
sbx-auth-url = auth URL
sbx-audience = audience
sbx-oauth-org = OAuth organization (client credentials):
sbx-client-id = client id
sbx-client-secret = client secret
sbx-account-keys = account keys
sbx-old-api-key = old API key
sbx-old-api-key-refused = (refused: OAuth is enabled)
sbx-key-org = API-key organization:
sbx-api-key = API key
sbx-api-key-header = (header x-api-key)
sbx-customers = Customers (invoices of both organizations):
sbx-try = Try it (API-key organization):
sbx-oauth-try = OAuth: get a token, then use it:
sbx-admin = Admin (loopback only):

# What clap says after "invalid value 'X' for '--arg':"
cli-arg-not-a-day = not a day YYYY-MM-DD
cli-arg-not-a-currency = not an ISO 4217 currency code (like CLP, CLF or USD)
cli-arg-concurrency = requests at once go from 1 to 64
cli-arg-not-a-period = not a period YYYY-MM

## Contracts (`contracts`)
ct-why-empty = The file is empty: it has no header.
ct-why-missing-column = The file has no { $column } column.
ct-why-unknown-columns = Columns that are none of the known ones: { $columns }.
ct-why-twice = The { $column } column is named twice.
ct-why-empty-cell = Empty.
ct-why-bad-id = A contract id has at most 100 characters, no control characters and no braces.
ct-why-duplicate = Contract { $id } is in the file twice.
ct-why-currency = "{ $text }" is not a currency this profile offers.
ct-why-pesos-need-uf = Billing in pesos at the day's UF is for a contract in UF.
ct-why-bill-in = "{ $text }": leave it empty (the contract's currency) or write CLP (pesos at the UF of the day issued).
ct-why-every = "{ $text }": write month, quarter or year.
ct-why-day = "{ $text }": a day from 1 to 31.
ct-why-due-days = "{ $text }": a number of days from 0 to 365.
ct-why-period = "{ $text }" is not a period YYYY-MM.
ct-why-end-before-start = It ends before it starts.
ct-why-reference = "{ $text }": a reference pattern has { "{period}" } in it (each period's invoice its own reference) and at most 245 characters.
ct-why-exists = Contract { $id } is kept already, with other terms: an import does not rewrite it. Change it from a period with: invoice-desk contracts change { $id } --from YYYY-MM.
ct-every-month = monthly
ct-every-quarter = quarterly
ct-every-year = yearly
ct-bill-in-pesos = pesos at the UF of the day issued
ct-skip-not-started = { $id }: starts in { $period }.
ct-skip-ended = { $id }: ended after { $period }; nothing more to bill.
ct-skip-paused = { $id } · { $period }: paused since { $since }, not billed.
ct-skip-no-uf = { $id } · { $period }: not issued, no UF value for the day ({ $why }).
ct-skip-currency = { $id } · { $period }: not issued, this profile does not offer { $code }.
ct-state-active = active
ct-state-paused = paused
ct-state-ended = ended
ct-state-not-started = not started
cli-ct-problems = { $count ->
    [one] 1 problem in { $path }: no contract was kept.
   *[other] { $count } problems in { $path }: no contract was kept.
}
cli-ct-imported = { $added ->
    [one] 1 contract added
   *[other] { $added } contracts added
}{ $same ->
    [0] .
    [one] ; 1 was kept already as it is.
   *[other] ; { $same } were kept already as they are.
}
cli-ct-none = No contract is kept in this journal.
cli-ct-header = Contract|Customer|Every|Amount|Bills in|From|To|State
cli-ct-no-such = No contract { $id } is kept in this journal.
cli-ct-noted = Contract { $id }: { $what }.
cli-ct-what-change = new terms from { $period }
cli-ct-what-end = its last period is { $period }
cli-ct-what-pause = paused from { $period }
cli-ct-what-resume = billed again from { $period }
cli-ct-nothing-to-change = Nothing to change: give --amount, --day, --due-days or --description.
cli-ct-show-head = Contract { $id } · { $customer } · { $every } from { $start }{ $end }; reference { $reference }; { $state }.
cli-ct-show-end = { " " }to { $period }
cli-ct-show-terms = From { $period }: { $amount }, billed in { $bill_in }, issued on day { $day }, due { $due_days } days later{ $description }.
cli-ct-show-pause = Paused from { $from }{ $until }.
cli-ct-show-until = { " " }to { $period } (billed again from then)
cli-ct-show-event = { $time } · { $who } · { $what }
cli-ct-event-create = created
cli-ct-event-change = terms changed from { $period }: { $amount }
cli-ct-event-end = end after { $period }
cli-ct-event-no-end = end taken away
cli-ct-event-pause = paused from { $period }
cli-ct-event-resume = resumed from { $period }
cli-ct-plan = Period { $period }: { $count ->
    [one] 1 invoice
   *[other] { $count } invoices
} of { $contracts ->
    [one] 1 contract
   *[other] { $contracts } contracts
}{ $totals }.
cli-ct-plan-empty = Period { $period }: nothing to issue.
cli-ct-due = { $contract } · { $period } · { $customer } · { $amount } · due { $due } · { $reference }
cli-ct-due-pesos = { " " }(UF { $uf } at { $value }, the UF of { $day })
cli-ct-due-catch-up = { " " }— missed period, caught up now
cli-ct-billed-before = { $count ->
    [one] 1 period was billed before: nothing is issued for it again.
   *[other] { $count } periods were billed before: nothing is issued for them again.
}
cli-ct-plan-only = Nothing sent: run it again with --yes to issue these invoices.
cli-ct-no-uf = No UF value for { $day }: contracts billed in pesos at the UF are not issued ({ $why }).

## approvals, journal policy
cli-ap-local = This journal is on this computer: it has no approval policy (one computer, one person). Approvals belong to the desk's shared journal.
cli-ap-none = There are no requests for approval.
cli-ap-none-for-me = Nothing is waiting for your approval.
cli-ap-note-too-long = The note is too long: at most { $max } characters.
cli-ap-reject-needs-note = A rejection says why: --note "…".
cli-ap-own = Request { $id } is your own: another member of the desk approves or rejects it.
cli-ap-already = Request { $id } is no longer waiting: { $state }.
cli-ap-not-found = There is no request for approval { $id } in this journal.
cli-ap-approved = You approved request { $id }: { $what }. { $who } may carry it out, once, until { $until }.
cli-ap-rejected = You rejected request { $id }: { $what }. Nothing of it will be sent.
cli-ap-carrying-out = Request { $id }, { $state }: carrying it out.
cli-ap-asked = Request for approval { $id }: { $what } (another member of the desk must approve it). Nothing was sent. Once it is approved (invoice-desk approvals approve { $id }), run the same command again.
cli-ap-needs-reference = The desk's policy wants an invoice of this amount approved, and an approval names the invoice by its reference: give one with --external-id.
cli-policy-owner = The desk's policy is changed by the database's owner: give the owner's address (invoice-desk journal policy postgres://owner@host/database …).
cli-policy-off = The desk's policy: nothing needs another clerk's approval.
cli-policy-voids = every void
cli-policy-runs = every run of more than { $rows ->
    [one] 1 row
   *[other] { $rows } rows
}
cli-policy-amount = every invoice of more than { $amount } (and one left to the account's currency)
cli-policy-on = The desk's policy: another member of the desk approves { $what }. A request stands { $hours } hours.
cli-policy-bad-amount = --approve-amount-over takes an amount and a currency: --approve-amount-over 5000000 CLP.
cli-policy-bad-amount-is = --approve-amount-over: "{ $amount } { $currency }" is not an amount above zero and a currency code (CLP, CLF, USD…).
cli-bad-per-minute = a number of e-mails a minute, 1 to { $max }, or "server"
cli-ap-older-layout = The desk's shared journal has no approvals yet: its owner brings it up to date with invoice-desk journal policy (or journal init). Invoices, voids and e-mails go on as before.
