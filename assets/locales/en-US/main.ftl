# invoice-desk, en-US. Keys are shared with the other language file.
action-create = create the invoice
action-void = void the invoice
amount-ambiguous = "{ $text }" is ambiguous: it could be { $a } or { $b }. Write it without the dot, or with a comma for decimals.
amount-bad-grouping = "{ $text }" has misplaced thousands separators.
amount-empty = Enter an amount.
amount-not-a-number = "{ $text }" is not a number. Use digits, "." between thousands and "," for decimals.
amount-not-positive = The amount must be greater than zero.
amount-too-large = The amount is too large.
amount-too-precise = { $max ->
    [0] { $currency } amounts have no decimals; "{ $text }" has { $got }.
    [one] { $currency } amounts can have at most 1 decimal; "{ $text }" has { $got }.
   *[other] { $currency } amounts can have at most { $max } decimals; "{ $text }" has { $got }.
}
cancel = Cancel
col-amount = Amount
col-currency = Currency
col-due = Due date
col-external = External reference
col-invoice = Invoice
col-status = Status
connect-first = Connect a profile first (Credentials).
cr-account-currency = Account currency (default)
cr-account-currency-code = Account currency (default, { $code })
cr-account-key = account key { $key }
cr-amount-help = Type the amount: "." between thousands, "," before decimals.
cr-another = Issue another invoice
cr-check = Check whether it was created
cr-checking = Looking through the customer's invoices…
cr-create = Create invoice
cr-created = Invoice { $id } created.
cr-enter-customer = Enter the customer id.
cr-issuing-with = Issuing with the profile "{ $profile }" ({ $key }).
cr-new-reference = New reference
cr-no-account-key = no account key set
cr-no-reference = Without a reference, an invoice whose outcome is unknown cannot be recognised.
cr-no-reference-check = This invoice had no external reference, so it cannot be recognised. Look at the customer's invoices before sending it again.
cr-not-created = It was not created: no invoice of this customer has this external reference. You can send it again.
cr-reads-account = = { $amount } (the account's currency, { $code })
cr-reads-code = = { $amount } { $code }
cr-reads-unknown = = { $amount } in the account's currency
cr-sandbox-customers = Sandbox customers
cr-sandbox-customers-hint = Fill in a customer of the sandbox
cr-send-again = I checked: send it again
cr-sending = Sending…
cr-was-created = It was created: invoice { $id }. Nothing needs to be sent again.
cred-connection-works = Connection works: the service answered.
cred-delete = Delete profile
cred-delete-body = The profile "{ $name }" and its stored secret will be deleted from this computer.
cred-delete-title = Delete profile?
cred-enter-secret = Enter the { $what }.
cred-key-accepted = The API key was accepted.
cred-new-profile = New profile
cred-opening-keyring = Opening the system keyring…
cred-profile = Profile
cred-profiles = Profiles
cred-sandbox-note = The built-in sandbox runs on this computer: its address and credentials are set automatically.
cred-save-first = Save your changes first.
cred-saved-keyring = Saved. Secrets are in the system keyring ({ $store }).
cred-saved-session = Saved, but there is no system keyring: the secret is kept only until the app closes.
cred-secret-not-saved = The secret could not be saved: { $error }
cred-testing = Testing…
cred-token-issued = A token was issued, valid until { $time }.
cred-use-first = Use this profile first.
cred-use-profile = Use this profile
cu-cancel-export = Cancel export
cu-currency-missing = missing
cu-dialog-title = Export invoices to CSV
cu-done = { $count ->
    [one] { $count } invoice
   *[other] { $count } invoices
} of customer { $customer }.
cu-export = Export CSV… ({ $count ->
    [one] { $count } row
   *[other] { $count } rows
})
cu-export-cancelled = Export cancelled; no file was written.
cu-export-failed = The file could not be written to { $path }: { $error }. Nothing was changed.
cu-exported = Exported { $count ->
    [one] { $count } invoice
   *[other] { $count } invoices
} to { $path }.
cu-file = File
cu-filter = Filter
cu-filter-hint = id, reference, date, amount…
cu-hide-void = Hide voided
cu-load = Load invoices
cu-loading = Loading… { $pages ->
    [one] { $pages } page
   *[other] { $pages } pages
}, { $count ->
    [one] { $count } invoice
   *[other] { $count } invoices
} so far
cu-no-file = No file was chosen. If no save window appeared, type the file's path in the row below and press Save file.
cu-table = The customer's invoices
cu-open-row = Click to open in Lookup
cu-open-row-overdue = Click to open in Lookup. Overdue: not paid and past its due date.
cu-partial = { $count ->
    [one] { $count } invoice arrived before the problem; it is shown below.
   *[other] { $count } invoices arrived before the problem; they are shown below.
}
cu-save-to-path = Save to a path
cu-shown = { $shown } shown of { $total }
cu-sort-by = Sort by this column
cu-sorted-asc = Sorted ascending; click to reverse
cu-sorted-desc = Sorted descending; click to reverse
cu-sorting = Sorting…
cu-stopped = Stopped: { $count ->
    [one] { $count } invoice
   *[other] { $count } invoices
} loaded before you cancelled.
cu-totals = Totals (voided left out):
currency-label = currency { $code }
currency-missing = The service did not say this invoice's currency.
delete-ellipsis = Delete…
details = Details
det-http-status = HTTP status: { $status }
det-service-code = Service code: { $code }
det-service-message = Service message: { $message }
det-cause = Cause: { $cause }
det-body = Body: { $body }
dialect-excel = Excel (Spanish, Chile)
dialect-standard = Standard (RFC 4180)
err-cancelled = Cancelled.
err-conflict = The service refused: this does not fit the invoice's current state.
err-connection = The service could not be reached. Check the network connection and the base URL. Nothing was sent.
err-credentials-rejected = The identity provider rejected the client id or client secret. Check them in the profile.
err-decode = The service's answer could not be understood.
err-forbidden = These credentials are not allowed to do this. Ask the service operator for access.
err-insecure-url = The address { $url } is not secure. Use an https:// address (http:// is only allowed for this computer).
err-listing-runaway = The list of invoices did not end: the service kept sending more pages, so it was stopped after { $pages ->
    [one] { $pages } page
   *[other] { $pages } pages
}.
err-no-sandbox = This build has no built-in sandbox.
err-no-secret = No { $what } is stored for the profile "{ $profile }". Enter it in Credentials and save.
err-not-found = There is no { $what }.
err-outcome-unknown = The request to { $action } was sent but no answer came back, so we do not know whether it happened. Check before trying again.
err-rate-limited = The service is busy and asks us to slow down.
err-sandbox-start = The sandbox could not start: { $error }
err-server = The service had an internal problem. Try again later.
err-timeout = The service did not answer in time. Try again.
err-token-failed = The identity provider failed to issue a token. Try again later.
err-token-rate-limited = The identity provider is limiting how often we sign in.
err-token-rejected = The identity provider refused to issue a token.
err-token-unreachable = The identity provider could not be reached. Check the network connection and the auth URL.
err-too-large = The service's answer was too large to accept.
err-unauthorized = The service did not accept our credentials. Check the profile's credentials.
err-unexpected = The service answered in an unexpected way (status { $status }).
err-validation = The service did not accept the data.
err-wrong-audience = The identity provider does not accept the audience set in the profile. Check the audience with the service operator.
f-account-currency = Account currency
f-account-key = Account key
f-amount = Amount
f-amount-hint = e.g. 1.234.567 or 12,3456
f-api-key = API key
f-audience = Audience
f-audience-hint = as assigned by the operator
f-auth-url = Auth URL
f-authentication = Authentication
f-base-url = Base URL
f-client-id = Client id
f-client-secret = Client secret
f-currency = Currency
f-customer-id = Customer id
f-due-date = Due date
f-due-date-hint = YYYY-MM-DD
f-external-ref = External reference
f-extra = Extra fields
f-extra-hint = name=value, one per line; metadata.name=value for metadata
f-form-body = Send the token request form-encoded (only if the provider requires it)
f-header = Header name
f-invoice-id = Invoice id
f-keep-secret = leave empty to keep the saved one
f-name = Name
f-name-hint = e.g. Producción
f-oauth = OAuth client credentials
f-product-id = Product id
lk-already-void = This invoice is already void.
lk-amount = Amount
lk-cannot-undo = Voiding cannot be undone.
lk-check = Check the invoice
lk-void-unknown-for = The void of invoice { $id } is not known to have happened: check the invoice before anything else.
lk-confirm-title = Void this invoice?
lk-customer = Customer
lk-invoice = Invoice
lk-look-up = Look up
lk-looking-up = Looking up…
lk-paid = A paid invoice cannot be voided.
lk-void = Void…
lk-void-did-not = The invoice is not void: the void did not happen. You can void it again.
lk-void-invoice = Void invoice
lk-void-maybe = The void may or may not have happened ({ $error }). Check the invoice.
lk-void-went-through = The invoice is void: the void went through.
lk-voided = Invoice { $id } was voided.
lk-voiding = Voiding…
menu-help = Help
menu-language = Language
menu-shortcuts = Keyboard shortcuts
menu-tab-hint = Tab moves between fields; Space or Enter presses the focused button.
menu-theme = Theme
menu-view = View
msg-choose-profile = Choose a profile first.
nf-customer = customer with id { $id }
nf-invoice = invoice with id { $id }
nf-other = such resource
nf-account = account with this account key
not-known = Not known
open-in-lookup = Open in Lookup
save = Save
sc-close = Close a dialog
sc-export = Export the customer's invoices (Excel or CSV)
sc-lookup = Look up an invoice
sc-new = New invoice
sc-search = Search everything (invoice, reference, RUT, customer, amount)
sc-quit = Quit
sc-submit = Submit the current form
sc-zoom = Zoom in / out
secret-api-key = API key
secret-client = client secret
status-open = Open
status-paid = Paid
status-unknown = Status unknown
status-void = Void
tab-create = New invoice
tab-credentials = Credentials
tab-customers = Customer invoices
tab-lookup = Lookup and void
test-connection = Test connection
theme-dark = Dark
theme-light = Light
theme-system = As the system
token-api-key = API key (not checked yet)
token-failed = Token: failed
token-fetching = Token: signing in…
token-none = Token: not requested yet
token-valid = Token valid
token-valid-until = Token valid until { $time }
top-connecting = Connecting…
top-no-profile = none
top-not-connected = Not connected
top-profile = Profile
try-sandbox = Try the sandbox
wait-moment = Try again in a moment.
wait-seconds = Try again in { $seconds ->
    [one] { $seconds } second
   *[other] { $seconds } seconds
}.
welcome-add = Add a profile
welcome-add-body = Connect to the real service with the credentials your operator gave you.
welcome-body = Issue, look up and void invoices, and export a customer's invoices to Excel or CSV.
welcome-sandbox = A practice copy of the service on this computer, with sample customers. Nothing is sent anywhere.
welcome-title = Welcome to invoice-desk
wait-minutes = Try again in about { $minutes ->
    [one] { $minutes } minute
   *[other] { $minutes } minutes
}.
err-token-timeout = The identity provider did not answer within { $seconds } s. Try again later; if it keeps happening, tell the service operator.
err-certificate = The server's certificate is not trusted by this computer ({ $reason }). If your organisation inspects secure traffic, ask IT to install its certificate on this computer.
err-connection-lost = The connection to the service broke before its answer arrived. Try again.
err-done-unreadable = The service accepted the request to { $action } (it answered with success), but its answer could not be read. It was most likely done: check the result before trying again.
err-listing-too-long = The list has more than { $cap ->
        [one] 1 invoice
       *[other] { $cap } invoices
    }, the most the app reads at once; it was stopped there.
cred-connection-unsure = A server answered at this address, but not the way the invoicing service does (its "not found" answer was not the service's), so it cannot be told whether this is the invoicing service. Check the base URL.
cert-unknown-issuer = issuer unknown
cert-expired = expired or not yet valid
cert-wrong-name = issued for another name
expiry-today = { $time }
expiry-day = { $date } { $time }
err-internal = Something went wrong inside the app ({ $error }). Nothing more was done; try again.
set-base-url = base URL
set-auth-url = auth URL
set-client-id = client id
set-client-secret = client secret
set-audience = audience
set-api-key = API key
set-invoice-id = invoice id
set-customer-id = customer id
in-missing = Enter the { $what }.
in-not-valid = The { $what } is not valid.
in-bad-address = The { $what } "{ $text }" is not a valid address.
in-wrong-scheme = The { $what } must start with https:// (it starts with { $scheme }://).
in-bad-header = "{ $name }" is not a valid header name.
in-unsendable-key = The API key contains characters that cannot be sent.
in-no-certificate-store = Secure connections cannot be set up: this computer's certificate store could not be used. Ask IT to check it (on Linux, the ca-certificates package).
in-too-many-decimals = { $max ->
    [0] { $currency } amounts have no decimals.
    [one] { $currency } amounts can have at most 1 decimal.
   *[other] { $currency } amounts can have at most { $max } decimals.
}
in-bad-due-date = The due date "{ $date }" is not a date of the form YYYY-MM-DD.
in-reserved-field = The extra field "{ $name }" has its own place in the form; remove it from the extra fields.
in-unnamed-field = An extra field has no name.
pr-no-name = Give the profile a name.
pr-exists = A profile named "{ $name }" already exists.
pr-unreadable = The profiles file { $path } could not be read. It was left as it is; ask IT to check it.
pr-unsaved = The profiles could not be saved to { $path }.
pr-keyring-read = The secret could not be read from the system keyring. Unlock the keyring, or enter the secret again in Credentials.
as-no-equals = "{ $item }": write name=value.
as-no-name = "{ $item }": the field has no name.
as-metadata-long = "{ $name }": metadata values are limited to 256 characters.
date-calendar = Calendar
date-plus-30 = +30 days
date-plus-60 = +60 days
date-end-of-month = End of month
date-prev-month = Previous month
date-next-month = Next month
date-long = { $weekday } { $day } { $month } { $year }
date-format-es = "{ $text }" is not a date: write it as DD-MM-YYYY (or YYYY-MM-DD).
date-format-en = "{ $text }" is not a date: write it as YYYY-MM-DD.
date-no-such-day = { $month } { $year } has no day { $day }.
date-no-such-month = There is no month { $month }.
date-year = The year { $year } looks mistyped.
weekday-1 = Monday
weekday-2 = Tuesday
weekday-3 = Wednesday
weekday-4 = Thursday
weekday-5 = Friday
weekday-6 = Saturday
weekday-7 = Sunday
weekday-short-1 = Mo
weekday-short-2 = Tu
weekday-short-3 = We
weekday-short-4 = Th
weekday-short-5 = Fr
weekday-short-6 = Sa
weekday-short-7 = Su
month-1 = January
month-2 = February
month-3 = March
month-4 = April
month-5 = May
month-6 = June
month-7 = July
month-8 = August
month-9 = September
month-10 = October
month-11 = November
month-12 = December
cred-active = active
cred-active-hint = This is the profile in use: invoices are issued, looked up and listed with it.
cred-store-keyring = Secrets are stored in the system keyring ({ $store }).
cred-store-session = There is no system keyring on this computer. Secrets you enter are kept only until the app closes; they are never written to a file. Ask IT to set up a keyring to keep them.
store-secret-service = Secret Service
store-keychain = macOS Keychain
store-windows = Windows Credential Manager
check-not-yet = Connection: not checked yet.
check-working = Connection: working (checked at { $time }).
check-failed = Connection failed at { $time }: { $why }
err-validation-fields = The service did not accept the data. Check: { $fields }.
err-already-void = The invoice was already void.
err-paid-cannot-void = The invoice is paid: a paid invoice cannot be voided.
cr-no-such-customer = There is no customer { $id }.
cr-no-such-account = The service does not know the account key { $key } of this profile. Check it in Credentials.
cr-service-refused = The service did not accept this value (details below).
check-failed-short = Connection failed at { $time }
field-id = Id
field-customer = Customer
field-customer-id = Customer
field-product-id = Product
field-due-date = Due date
field-amount = Amount
field-currency-code = Currency
field-is-paid = Paid
field-is-void = Void
field-status = Status at the service
field-link-payment = Payment link
field-invoice-external-id = External reference
field-metadata = Metadata
yes = Yes
no = No
amount-unreadable = { $raw } (not a readable amount)
cu-file-name = invoices-{ $customer }.csv
cu-file-customer = customer
cu-open-folder = Open folder
dest-is-folder = { $path } is a folder: give a file name.
dest-no-folder = The folder { $path } does not exist. Choose another or create it first.
dest-read-only = { $path } is read-only: it cannot be replaced.
dest-not-writable = Nothing can be written in { $path }.
cr-missing = To create the invoice, fill in: { $fields }.
cr-fix-marked = To create the invoice, correct what is marked in red.
cu-sort-amount-hint = Amounts are sorted within each currency, one currency after the other (pesos and UF are not compared with each other).
lk-back-to-list = Back to the list
f-currencies = Currencies offered
cred-bad-currency = "{ $code }" is not an ISO 4217 currency code (like CLP, CLF, USD).
currency-not-iso = currency "{ $code }" (not an ISO 4217 code: amounts shown as sent)
doc-ok = ok
doc-problem = PROBLEM
doc-all-well = All is well.
doc-not-well = Something needs attention (see PROBLEM above).
doc-version = Version
doc-keyring = Keyring
doc-keyring-ok = { $store }: a test secret was written, read back and deleted.
doc-keyring-none = no system keyring can be used: secrets are kept only while the app runs.
doc-keyring-refused = { $store } refused to keep a secret.
doc-keyring-unreliable = { $store } did not give back the test secret it was given.
doc-profiles = Profiles
doc-data = Data
doc-log = Support log
doc-detail = in the system's own words: { $detail }
doc-log-off = Off (INVOICE_DESK_LOG_DIR is empty)
doc-no-folder = no folder could be found for it on this system.
doc-folder-ok = { $path } (can be written)
doc-folder-bad = { $path } cannot be written.
doc-certificates = Certificates
doc-certificates-ok = the system's certificate store can be used for secure connections.
doc-certificates-bad = the system's certificate store cannot be used.
menu-diagnostics = Diagnostics…
diag-title = Diagnostics
diag-running = Checking…
diag-copy = Copy
diag-close = Close

# The journal (every create, void and export, written down first)
journal-to-check = { $count ->
    [one] 1 to check
   *[other] { $count } to check
}
journal-to-check-hint = Creates or voids whose outcome is not known (no answer came, or the app closed before it did). Check them before trying again.
journal-to-check-hint-shared = Creates or voids of the whole desk (the shared journal) whose outcome is not known (no answer came, or the app closed before it did). Anyone may check them.
journal-down-since = The shared journal has not answered since { $time }; trying again…
journal-down-hint = Nothing is issued, voided or e-mailed while the desk's journal cannot record it. The app tries again every few seconds and goes on by itself once the server is back (after a restart or a failover).
journal-check-now = Check now
journal-checked = Checked: { $settled ->
    [one] 1 settled
   *[other] { $settled } settled
}, { $left } still to check.
journal-check-failed = Could not check: the journal cannot be read.
journal-not-sent = Nothing was sent: the journal, where every create and void is written down first, cannot be written.
tab-activity = Activity
journal-unreadable = The journal cannot be read.
journal-busy = Another program is using it; try again in a moment.
journal-disk-full = The disk is full: free some space and try again.
journal-read-only = It may not be written: check the permissions of the file and its folder, or whether the disk is read-only.
journal-corrupt = The file is damaged: keep it and ask for support.
journal-unreachable = The shared journal's server cannot be reached: check the network, or ask whoever looks after the server. Nothing is sent until it can be.
journal-untrusted = This computer does not trust the shared journal server's certificate: ask IT to install your organisation's certificate, or to give the server one this computer trusts. Nothing is sent until then.
journal-cannot-open = The journal cannot be opened.
journal-cannot-write = The journal cannot be written.
journal-too-new = The journal was made by a newer invoice-desk: update this one.
journal-damaged = The journal is damaged: keep the file and ask for support.
act-title = Activity: what was issued, voided, exported and e-mailed on this computer
act-email-invoice = Invoice { $id }
act-email-statement = Statement of { $month }
act-email-reminder = Reminder, { $days ->
        [one] 1 day
       *[other] { $days } days
    } overdue ({ $month })
act-title-shared = Activity: what the desk issued, voided, exported and e-mailed (the shared journal)
act-days = Days
act-since = From
act-until = to
act-since-hint = first day
act-until-hint = last day
act-today = Today
act-all-days = All days
act-action = Action
act-outcome = Outcome
act-any = Any
act-search = Search
act-search-hint = customer, invoice id, reference or clerk
act-bad-date = "{ $text }" is not a date (YYYY-MM-DD).
act-count = { $count ->
    [one] 1 entry
   *[other] { $count } entries
}
act-reading = Reading the journal…
act-export = Export CSV…
act-file-name = activity
act-dialog-title = Export the activity
act-exported = { $count ->
        [one] 1 entry
       *[other] { $count } entries
    } exported to { $path }.
act-export-failed = Could not write { $path }. Any existing file was left as it was.
act-connect-to-check = Connect to the service to check them.
act-open-row = Open this invoice in Lookup
act-table = Activity journal
act-col-time = Time
act-col-who = Who
act-col-action = Action
act-col-customer = Customer
act-col-amount = Amount
act-col-what = Reference / invoice / file
act-col-outcome = Outcome
act-create = Create
act-void = Void
act-export-action = Export
act-email-action = E-mail
act-done = Done
act-refused = Refused
act-unknown = To check
act-checked = (checked)
act-rows = { $count ->
        [one] 1 row
       *[other] { $count } rows
    }
act-account-currency = { $amount } (account currency)
dir-pick = Put this customer's id in the field
dir-import = Import customer directory…
dir-dialog-title = Customer directory (CSV or Excel)
dir-filter = CSV or Excel
dir-imported = { $count ->
    [one] 1 customer imported into the directory.
   *[other] { $count } customers imported into the directory.
}
dir-problem-cell = Row { $row }, column { $column }: { $what }
dir-no-id-column = The file has no id column (its header must name one of: id, cliente, customer). Nothing was imported.
dir-no-id = the id is empty
dir-bad-rut = "{ $rut }" is not a RUT
dir-check-digit = the check digit of { $rut } should be { $digit }
dir-duplicate = { $id } is already in a row above

## Bulk issue (billing runs)
tab-bulk = Bulk issue
bulk-title = Bulk issue: a month's invoices from a spreadsheet
bulk-file = File
bulk-file-hint = a .csv or .xlsx file
bulk-choose = Choose…
bulk-chose-nothing = No file was chosen. If no window to choose one opened, type the file's path in File and press Read and check.
bulk-read = Read and check
bulk-reading = Reading and checking the file…
bulk-dialog-title = Choose the billing spreadsheet
bulk-filter = Spreadsheets (CSV, Excel)
bulk-unreadable = Cannot read { $path }. Is it there, and is it a CSV or Excel (.xlsx) file?
bulk-empty-file = { $path } has no rows.
bulk-columns = Columns of the file
bulk-col-unrecognised = not recognised: choose a field, or "Not used"
bulk-use-none = Not used
bulk-field-customer = Customer (id, name or RUT)
bulk-field-amount = Amount
bulk-field-currency = Currency
bulk-field-due = Due date
bulk-field-product = Product
bulk-field-reference = Reference
bulk-field-account = Account key
bulk-field-metadata = Extra field
bulk-and = and
bulk-in-account-currency = { $amount } in the account's currency
bulk-summary = { $count ->
    [one] 1 invoice
   *[other] { $count } invoices
} to { $customers ->
    [one] 1 customer
   *[other] { $customers } customers
}: { $totals }
bulk-nothing-valid = No row can be issued.
bulk-problem-rows = { $count ->
    [one] 1 row has problems
   *[other] { $count } rows have problems
}
bulk-only-problems = Only rows with problems
bulk-skip-invalid = Issue the valid rows and skip those with problems
bulk-fix-first = Correct the rows with problems in the file and read it again, or choose to skip them.
bulk-skipping = The rows with problems are left out; the valid rows are issued.
bulk-concurrency = Requests at a time
bulk-issue = { $count ->
    [one] Issue 1 invoice…
   *[other] Issue { $count } invoices…
}
bulk-confirm-title = Confirm the billing run
bulk-confirm = { $count ->
    [one] Issue 1 invoice
   *[other] Issue { $count } invoices
}: { $totals } to { $customers ->
    [one] 1 customer
   *[other] { $customers } customers
}?
bulk-confirm-note = Each invoice is written in the journal before it is sent. Running the same file again never issues a row twice.
bulk-confirm-skipped = { $count ->
    [one] 1 row with problems is not issued.
   *[other] { $count } rows with problems are not issued.
}
bulk-confirm-yes = Issue them
bulk-progress = { $done } of { $total ->
        [one] 1 row
       *[other] { $total } rows
    } · { $rate } a second · about { $left } left
bulk-checking = Reading what the service already has of { $of ->
    [one] 1 customer
   *[other] { $of } customers
} ({ $read } of { $of })…
bulk-waiting-in-flight = Waiting { $secs } s at most: { $rows ->
    [one] 1 row
   *[other] { $rows } rows
} of a run cut short may still be on their way to the service; none is sent twice.
bulk-waiting-for = Waiting for { $who }: { $count ->
    [one] their computer does not answer
   *[other] their computers do not answer
}. { $rows ->
    [one] 1 row
   *[other] { $rows } rows
} of their run may still be on their way to the service; waiting up to { $secs } s, and none is sent twice.
bulk-progress-start = { $done } of { $total ->
        [one] 1 row
       *[other] { $total } rows
    }
bulk-pause = Pause
bulk-resume = Resume
bulk-cancel = Stop sending
bulk-paused = Paused: requests already on their way finish; nothing more is sent until you resume.
bulk-cancelling = Stopping: the requests on their way finish and are recorded; nothing more is sent.
bulk-finished = Finished: { $created } issued, { $existing } already issued before, { $refused } refused, { $unknown } to check, { $similar } possible duplicates, { $notsent } not sent.
bulk-finished-again = Rows not sent or to check: read the same file again and issue; nothing already issued is sent twice.
bulk-save-csv = Save results (CSV)
bulk-save-xlsx = Save results (Excel)
bulk-saved = Results saved in { $path }
bulk-save-failed = Could not save the results in { $path }.
bulk-results-suffix = results
bulk-sheet-name = Results
bulk-table = The file's rows
bulk-col-row = Row
bulk-col-status = Status
bulk-col-reference = Reference
bulk-col-invoice = Invoice
bulk-col-problem = Problem
bulk-col-customer = Customer
bulk-col-name = Name
bulk-col-amount = Amount
bulk-col-currency = Currency
bulk-st-ready = Ready
bulk-st-waiting = Waiting
bulk-st-created = Issued
bulk-st-existing-by = Issued by { $who }
bulk-unsure-elsewhere = { $who } has it on its way; it is not sent again.
bulk-st-existing = Already issued
bulk-confirmed-by = The answer never reached this computer (it was paused or asleep); { $who } found it issued at the service.
bulk-st-refused = Refused
bulk-st-unknown = To check
bulk-st-not-sent = Not sent
bulk-st-invalid = Not issued (problems)
bulk-unsure-sent = No answer said whether it was issued. Read and issue the same file again later (it checks first), or use Check now in Activity.
bulk-unsure-earlier = An earlier run left it unknown and the service could not be asked now: not sent again.
bulk-journal-unreadable = The journal could not be read, so it was not sent.
bulk-rate-limited = The service kept saying there were too many requests.
bulk-resume-offer = A billing run of { $file } with the profile { $profile } (started { $when }) was interrupted.
bulk-profile-environment = (environment variables)
bulk-resume-open = Open it to resume
bulk-resume-dismiss = Forget it
bulk-resume-hint = Rows already issued are skipped; rows whose outcome is unknown are checked first.
bulk-file-changed = The file changed since the interrupted run: rows without a reference now get new references and could be issued twice. Check Activity before issuing.
bulk-why-unknown-columns = Columns not recognised: { $columns }. Choose a field for them, or "Not used".
bulk-why-no-customer-column = No column is the customer (customer or cliente).
bulk-why-no-amount-column = No column is the amount (amount or monto).
bulk-why-twice = Two columns are "{ $field }".
bulk-why-customer-empty = The customer is empty.
bulk-why-customer-not-found = No customer "{ $text }" in the customer directory.
bulk-why-directory-empty = No customer "{ $text }": this journal's customer directory has no names yet (a journal just switched to starts empty). Import the directory again, or bring this computer's own along with `invoice-desk journal push`.
bulk-why-customer-ambiguous = "{ $text }" matches { $count ->
        [one] 1 customer
       *[other] { $count } customers
    } in the directory: write the id.
bulk-why-directory = The customer directory cannot be read.
bulk-why-amount-empty = The amount is empty.
bulk-why-currency = "{ $text }" is not one of this profile's currencies ({ $offered }).
bulk-why-duplicate = The reference { $reference } is already in row { $row }.
bulk-problem-cell = { $column }: { $what }
bulk-st-with-id = { $status } · { $id }
bulk-st-with-why = { $status }: { $why }

# Statement: overdue, aging, chart, filters, Excel workbook (#17)
status-overdue = Overdue
overdue-days = Overdue · { $days ->
    [one] 1 day
   *[other] { $days } days
}
overdue-hint = Not paid and past its due date.
aging-current = Current
aging-1-30 = 1–30 days
aging-31-60 = 31–60 days
aging-61-90 = 61–90 days
aging-over-90 = Over 90 days
chart-invoiced = Invoiced
chart-paid = Paid
chart-open = Owed
cu-statement = Statement (what is shown)
cu-aging-title = Owed, by days past due
cu-aging-hint = Show only these invoices
cu-aging-none = Nothing is owed in the invoices shown.
cu-aging-count = { $count ->
    [one] 1 invoice
   *[other] { $count } invoices
}
cu-chart-title = By month due, last 24 months
cu-chart-currency = Chart currency
cu-chart-none = No invoices fall due in the last 24 months.
cu-status-filter = Status
cu-status-any = Any status
cu-due-from = Due from
cu-due-to = Due to
cu-amount-from = Amount from
cu-amount-to = Amount to
cu-clear-filters = Clear filters
cu-bad-date = “{ $text }” is not a date; write it as { $example }.
cu-bad-amount = “{ $text }” is not an amount.
cu-bucket-only = Only { $bucket } ({ $currency })
cu-bucket-clear = Show all
cu-format = Format
format-xlsx = Excel workbook (.xlsx)
cu-export-xlsx = Export Excel… ({ $count ->
    [one] 1 invoice
   *[other] { $count } invoices
})
cu-save-file = Save file
cu-dialog-title-xlsx = Export invoices to Excel
cu-file-name-xlsx = invoices-{ $customer }.xlsx
cu-as-text = { $count ->
    [one] 1 amount has more than 15 digits: Excel cannot hold it as a number, so it was written as text (marked in yellow).
   *[other] { $count } amounts have more than 15 digits: Excel cannot hold them as numbers, so they were written as text (marked in yellow).
}
xl-sheet-invoices = Invoices
xl-sheet-summary = Summary
xl-days-overdue = Days overdue
xl-customer-name = Customer name
xl-too-large = Too large to add up
xl-customer = Customer
xl-as-of = As of
xl-as-text-note = { $count ->
    [one] 1 amount is written as text: Excel cannot hold it exactly (more than 15 digits). It is marked in yellow.
   *[other] { $count } amounts are written as text: Excel cannot hold them exactly (more than 15 digits). They are marked in yellow.
}
xl-aging = Owed, by days past due
xl-bucket = Days past due
xl-count = Invoices
xl-total = Total
xl-nothing-owed = Nothing is owed.
xl-monthly = Totals by month due
xl-month = Month
lk-copy-link = Copy payment link
lk-open-link = Open payment link
lk-link-copied = The payment link was copied.
lk-link-not-https = This payment link is not a secure (https) address, so it is not offered.
xl-cut-note = { $count ->
    [one] 1 text is longer than an Excel cell holds (32,767 characters): it is cut, ends in “…” and is marked in yellow. The CSV export keeps it whole.
   *[other] { $count } texts are longer than an Excel cell holds (32,767 characters): they are cut, end in “…” and are marked in yellow. The CSV export keeps them whole.
}

# Never twice: claimed references, look-alikes, waits (#31)
bulk-st-existing-service = Already issued (at the service)
bulk-st-similar = Possible duplicate
bulk-unsure-waiting = An earlier request for this row may still be at work at the service: it is not sent again, and can be confirmed after { $time }. Issue the file again then.
bulk-unchecked = Whether it was already issued could not be asked of the service: { $why }
bulk-issued-elsewhere = Not sent: another computer is issuing this same file right now (invoice { $invoice }, reference { $reference }, was not issued from here). A desk that bills from several computers needs the shared journal.
looks-like = Looks repeated: { $id } issued on { $date } ({ $alike }).
looks-like-service = Looks repeated: { $id } issued on { $date }, found at the service ({ $alike }).
bulk-allow-similar = Issue it anyway
bulk-finished-similar = { $count ->
    [one] 1 row looks repeated and was not sent
   *[other] { $count } rows look repeated and were not sent
}: tick "Issue it anyway" on those that are right and issue again.
bulk-finished-found = { $count ->
    [one] 1 was already issued at the service
   *[other] { $count } were already issued at the service
} (not in this journal): not sent again.
bulk-finished-waiting = { $count ->
    [one] 1 row waits for confirmation
   *[other] { $count } rows wait for confirmation
} until { $time }.
bulk-already-known = { $count ->
    [one] 1 row is already issued according to the journal: it is not sent again.
   *[other] { $count } rows are already issued according to the journal: they are not sent again.
}
journal-checked-waiting = { $count ->
    [one] 1 waits
   *[other] { $count } wait
} until { $time }: the request may still be at work at the service, and until then it cannot be concluded that nothing happened.
journal-checked-unreachable = { $count ->
    [one] 1 could not be checked
   *[other] { $count } could not be checked
}: the service did not answer.
journal-checked-nothing = Nothing to check at this service.
who-unknown = another process
who-on = { $user } on { $host }
who-role = role { $role } · { $said }
who-copied = { $who } (copied; recorded { $when } as its computer says)
cr-already-issued = Already issued by { $who } on { $when }: { $id }. This reference was used already; nothing was sent.
cr-issued-missing = The journal says the reference { $reference } was issued as invoice { $id } (recorded by { $who } on { $when }), but the service has no such invoice and no invoice with that reference.
cr-reissue-missing = It was never issued: issue it now (your decision is written in the journal)
cr-new-invoice = New invoice
cr-in-progress = Being issued right now by { $who }, or its outcome is not known yet (since { $when }). Nothing was sent: check whether it was created.
cr-similar-title = Repeated invoice?
cr-similar-question = Issue it anyway?
cr-similar-by = Issued by { $who }.
cr-similar-by-now = Issued by { $who }; at the service it is now { $status }.
cr-issue-anyway = Issue it anyway
cr-check-waiting = Not at the service yet, but the request may still be at work there: check again after { $time }. Do not send it again before.
cr-restored-unknown = This invoice was sent before and no answer came: check whether it was created before sending it again.
lk-already-voided = Already voided: { $id } on { $when }. Nothing was sent.
lk-void-in-progress = Being voided right now (another process), or its outcome is not known yet (since { $when }). Nothing was sent: check the invoice.
lk-void-waiting = Not void yet, but the request may still be at work: check again after { $time }.
quit-title = Close invoice-desk?
quit-bulk = A billing run is sending invoices. If you close now, the requests on their way are left to check and the rest is not sent (you are offered to resume it when you open the app again).
quit-create = An invoice or void was sent and its answer has not come yet. If you close now, its outcome is left to check.
quit-stay = Stay in the app
quit-anyway = Close anyway

# Files from the real world: limits when reading (#32)
dir-unreadable-why = Nothing was imported: { $why }
sheet-unreadable = The file cannot be read. Does it exist, and may you read it?
sheet-not-a-file = It is not a file (it is a folder, a pipe or a device).
sheet-too-large = It is larger than { $mb } MB, the most a spreadsheet may be.
sheet-too-many-rows = It has more than { $limit ->
        [one] 1 row
       *[other] { $limit } rows
    }, the most a file may have.
sheet-too-many-columns = Row { $row } has more than { $limit } columns, the most a file may have.
sheet-too-many-cells = It has more than { $limit } cells, the most a file may have.
sheet-cell-too-long = Row { $row }, column { $column }: a cell has more than { $limit } characters, the most a cell holds.
sheet-text-too-long = A text in the workbook has more than { $limit } characters, the most a cell holds.
sheet-unclosed-quote = Row { $row }: a quote (") opened there is never closed.
sheet-uncompressed = Uncompressed, the workbook is larger than { $mb } MB, the most accepted (it may be a zip bomb).
sheet-too-many-parts = The workbook has more than { $limit } parts.
sheet-not-a-workbook = It is not an Excel .xlsx workbook, or it is damaged (an old .xls or a password-protected workbook cannot be read: save it as .xlsx without a password).
sheet-no-such-sheet = The workbook has no sheet named "{ $name }".
sheet-no-sheet = The workbook has no sheets.
sheet-of-csv = Only an Excel workbook (.xlsx) has sheets.
bulk-unreadable-why = { $path } cannot be read: { $why }
dest-special = { $path } is not a regular file (a pipe, a device or a socket): it is not replaced. Choose a file name.
in-too-long = { $what }: more than { $max } characters, the most that is sent.
in-extra-too-large = The extra fields and metadata together are larger than { $kb } KB, the most that is sent.
bulk-wait-too-long = The service asked to wait { $minutes } minutes (too many requests), longer than a run waits: issue the file again later.
bulk-rate-waiting = The service asked to wait; sending resumes at { $time }.
bulk-slowed = The service is answering slowly: { $now ->
    [one] one invoice is sent
   *[other] { $now } invoices are sent
} at a time until it answers quickly again.
bulk-unsure-not-recorded = The service answered, but the journal could not record it: it stays to check (Check now, in Activity).
looks-like-due = same customer, amount, currency and due date
looks-like-same-day = same customer, amount and currency, no due date, issued the same day
# A clerk's second day (#33)
cur-clf = UF (CLF)
cur-short-clf = UF
cur-clp = Chilean pesos (CLP)
cust-looking = Looking in the customer directory…
cust-not-found = There is no customer "{ $text }" in the customer directory: type its id (cus_…) or its RUT.
cust-unread = The customer directory could not be searched: { $why } Type the customer's id (cus_…), or the name again once the journal answers.
cust-did-you-mean = Did you mean { $names }? Pick one from the list.
bulk-forget-title = Forget the interrupted run?
bulk-forget-body = The run of { $file } will no longer be offered to resume. Rows not sent are not issued unless you issue the file again (what was issued is never repeated).
bulk-forget-keep = Keep it
bulk-forget-yes = Forget it
lk-link-not-opened = The browser could not be opened. The link was copied: paste it in your browser. { $url }
cu-folder-not-opened = The folder could not be opened. The file is in { $path }
dir-no-file = No file was chosen. If no window appeared to choose one, type its path here:
dir-import-path = Directory file
dir-import-path-hint = /path/customers.xlsx or .csv
dir-import-from = Import
field-created-at = Created
code-tk20400 = no such customer
code-tk20100 = no such account
code-tk20600 = no such invoice
code-tk10601 = it was void already
code-tk10602 = it is paid
code-tk30000 = data not valid
date-past = · already past ({ $days ->
    [one] 1 day
   *[other] { $days } days
} ago): is it right?
date-far = · more than two years ahead: is it right?

## The journal setting (Credentials panel)
sj-title = Shared journal
sj-now-local = This computer records every create and void in its own journal: { $place }
sj-now-shared = This computer records every create and void in the desk's shared journal: { $place }
sj-in-memory = (kept in memory only)
sj-fixed = INVOICE_DESK_JOURNAL chooses the journal on this computer; remove that variable to choose it here.
sj-explain = A desk of several clerks shares one journal on a PostgreSQL server, so nobody issues what a colleague already issued. Leave the address empty to use this computer's own journal.
sj-address = Shared journal address
sj-password = Database password
sj-password-hint = kept in the system keyring; empty keeps the saved one
sj-clerk = Your name in the journal
sj-clerk-hint = optional, e.g. Ana Pérez
sj-test = Test
sj-testing = Opening the journal…
sj-wait-in-flight = Something is being sent: switch journals once it has finished.
sj-nothing-changed = Nothing has changed.
sj-works = It works: the shared journal answers and holds { $entries ->
        [one] 1 entry
       *[other] { $entries } entries
    }.
sj-saved-shared = Saved: from now on every create and void is recorded in the desk's shared journal ({ $entries ->
        [one] 1 entry
       *[other] { $entries } entries
    }).
sj-saved-local = Saved: from now on this computer's own journal is used.
sj-password-session-only = The password could not be stored in the keyring: it is kept only until the app closes.
sj-not-an-address = Write an address that starts with postgres:// or postgresql://, or leave it empty for this computer's journal.
sj-password-in-address = The address must not hold the password: write it in the password field, which keeps it in the keyring.
sj-push-hint = What this computer recorded before stays in its own file; once the shared journal is in use, you will be offered to bring it there.
sj-push-offer = { $entries ->
    [one] This computer has 1 earlier entry (a create, void, export or e-mail) the shared journal does not have yet. Brought there, the desk sees it with who did it and when, and nobody issues again what it claimed.
   *[other] This computer has { $entries } earlier entries (creates, voids, exports or e-mails) the shared journal does not have yet. Brought there, the desk sees them with who did them and when, and nobody issues again what they claimed.
}
sj-push = Bring to the shared journal
sj-pushed = { $copied ->
    [one] 1 entry brought to the shared journal
   *[other] { $copied } entries brought to the shared journal
}{ $already ->
    [0] .
    [one] ; 1 was there already.
   *[other] ; { $already } were there already.
}
sj-bring-directory-hint = The shared journal has the desk's customer directory, not this computer's: the names, RUTs and notes you imported here stay behind unless you bring them.
sj-bring-directory = Bring this computer's directory
sj-brought = { $count ->
    [one] Brought 1 customer to the desk's directory (those it already knew by name, RUT or notes were left as the desk wrote them).
   *[other] Brought { $count } customers to the desk's directory (those it already knew by name, RUT or notes were left as the desk wrote them).
}
act-clerk = Clerk
bulk-progress-others = { $count } issued by colleagues
bulk-already-known-others = { $count } of them were issued by colleagues.
sj-save = Use this journal

## The sender's details (statements of account)
sender-title = Sender's details (statements of account)
sender-f-organization = Organization
sender-f-rut = RUT
sender-f-address = Address
sender-f-email = E-mail
sender-f-phone = Phone
sender-f-logo = Logo (PNG or JPEG)
sender-f-logo-hint = a file on this computer, at most 1 MB
sender-f-payment = How to pay
sender-f-payment-hint = bank, account type and number, to whom
sender-bad-rut = The sender's RUT { $rut } is not valid (check its digit after the dash).
sender-bad-email = The sender's e-mail { $email } is not valid.
sender-too-long = The sender's { $what } is longer than { $max } characters.
sender-logo-unreadable = The logo { $path } cannot be used: it must be a PNG or JPEG image that can be read.
sender-logo-too-large = The logo { $path } is too large: at most { $max } KB.
sender-logo-too-many-pixels = The logo { $path } is { $width } × { $height } pixels: at most { $max } on each side. Save it smaller and choose it again.

## Statements of account (PDF)
st-file-stem = statement
st-title = Statement of account
st-as-of = As of { $date }
st-customer-id = Customer { $id }
st-nothing-owed = Nothing is owed as of { $date }.
st-page = Page { $page } of { $pages }
st-aging-title = Owed, by days past due
st-currency = Currency
st-total-owed = Total owed
st-too-large = too large to add
st-too-many = The customer has more than { $limit ->
        [one] 1 invoice
       *[other] { $limit } invoices
    } to list: more than a statement carries. Export their invoices (Export) instead of making a statement.
st-render-failed = The PDF could not be made: { $why }
st-cut-note = This statement covers { $total ->
        [one] 1 invoice
       *[other] { $total } invoices
    }: here are the { $shown } due longest ago. Every one is in the Excel workbook sent with it (same name, ending in .xlsx).
st-col-invoice = Invoice
st-col-reference = Reference
st-col-due = Due
st-col-days = Days late
st-col-status = Status
st-col-amount = Amount
st-col-pay = Pay
st-overdue = Overdue
st-current = Not yet due
st-pay-alt = Pay invoice { $id }
st-pay-online = Pay online
st-not-tax-document = This document is not a tax document (DTE): the electronic invoice is issued through the SII.
st-issued-on = Issued { $date }
st-watermark-void = VOID
st-watermark-paid = PAID
st-notice-void = This invoice is void: it is not to be paid.
st-notice-paid = This invoice is paid: nothing is owed on it.
st-how-to-pay = How to pay
st-summary-stem = summary
st-sum-customer = customer
st-sum-name = name
st-sum-file = file
st-sum-currency = currency
st-sum-owed = owed
st-sum-oldest = oldest_overdue_days
st-sum-problem = problem
st-sum-workbook = detail workbook
cu-statement-pdf = Statement of account (PDF)
cu-statement-pdf-hint = Every invoice still owed, with its payment link and QR code, from the sender's details of the profile; opened in the system's viewer, from which you print, save or send it.
cu-statement-needs-list = First load all of one customer's invoices: a statement says what is owed, and is not made of an incomplete list.
cu-statement-making = Making the statement…
cu-statement-opened = Statement opened in the system's viewer (print it from there). The file: { $path }
cu-statement-workbook = It has more invoices than fit in print: every one is in the workbook { $path }, beside the PDF.
cu-statement-not-opened = The statement is made, but no viewer could open it. The file is here: { $path }
cu-statement-failed = The statement could not be made: { $why }
journal-denied = The shared journal's server did not accept the user or the password: check them (the password is the database's, given by IT).
journal-no-database = The shared journal's server has no database of that name: check the address's last part.
journal-rewound = The shared journal is now on a server that may lack its last entries (its server switched to a standby that did not have them yet), so nothing more is sent on its word. Run the same file again: the service is asked first, and nothing it has is sent twice.
cu-statement-no-sender = No sender's details yet: the statement will not say who it is from (in Credentials, under Sender's details).

## The Cartera (receivables) panel
tab-receivables = Receivables
rv-title = Receivables: what every customer owes
rv-explain = Every customer in the customer directory (imported, or seen in the journal), listed a few at a time. Click a customer to see their invoices.
rv-review = Review receivables
rv-stop = Stop
rv-progress = { $done } of { $total ->
        [one] 1 customer
       *[other] { $total } customers
    }…
rv-stopped = Stopped after { $done } of { $total ->
        [one] 1 customer
       *[other] { $total } customers
    }: those shown were listed.
rv-no-customers = The customer directory is empty: import it in Customer invoices (Import customer directory…), or issue invoices first.
rv-done = { $count ->
        [one] 1 customer
       *[other] { $count } customers
    } reviewed.
rv-show = Show
rv-show-all = Every customer
rv-show-overdue = Only with overdue invoices
rv-show-60 = Overdue more than 60 days
rv-show-90 = Overdue more than 90 days
rv-order = Order
rv-order-oldest = Oldest overdue first
rv-order-clp = Most owed in pesos first
rv-order-clf = Most owed in UF first
rv-order-name = By name
rv-total = Total { $currency }: { $owed } owed, { $overdue } of it overdue
rv-failed = { $count ->
        [one] 1 customer
       *[other] { $count } customers
    } could not be listed: what they owe is not known (shown in red).
rv-col-customer = Customer
rv-col-rut = RUT
rv-col-clp = Owed (CLP)
rv-col-clf = Owed (UF)
rv-col-oldest = Oldest overdue
rv-col-last = Last invoice
rv-not-listed = Not listed: { $why }
rv-days = { $days ->
        [one] 1 day
       *[other] { $days } days
    }
rv-none-overdue = none overdue
rv-table = Receivables by customer
rv-open-row = Open this customer's invoices
rv-too-large = too large to add
lk-print = Print…
lk-print-hint = The invoice as a PDF (with the profile's sender, its payment link and QR code), opened in the system's viewer, from which you print it.
lk-print-opened = The invoice is open in the system's viewer: print it from there. The file: { $path }
lk-print-not-opened = The invoice's PDF is made, but no viewer could open it. The file is here: { $path }
lk-print-failed = The invoice could not be printed: { $why }
st-invoice-title = Invoice { $id }
st-invoice-stem = invoice
rv-folder = Statements folder
rv-statements = Statements for these ({ $count })
rv-statements-hint = One PDF per customer shown who owes something, in this folder (made if missing), never over an existing file; a summary CSV of them all. Journaled.
rv-book = Excel workbook of these…
rv-book-hint = The customers shown, in this order, with what each owes per currency, and every invoice they owe on a second sheet: into the folder above, never over a file.
rv-book-stem = receivables
rv-book-written = Workbook written: { $path }
rv-making = Statements: { $done } of { $total }…
rv-made = { $pdfs ->
        [one] 1 statement written
       *[other] { $pdfs } statements written
    }; { $nothing ->
        [one] 1 customer owes nothing
       *[other] { $nothing } customers owe nothing
    }. Summary: { $summary }
rv-made-failed = { $count } could not be made (the summary says why).
rv-made-stopped = Stopped: the rest were not made.
rv-folder-failed = The folder { $path } cannot be used: { $why }
xl-sheet-receivables = Receivables
xl-sheet-owed = Invoices owed
xl-col-name = Name
xl-col-currency = Currency
xl-col-owed = Owed
xl-col-problem = Problem
xl-col-days-overdue = Days overdue
rv-col-buckets = Owed by days past due

## E-mail (settings, contacts, templates)
dir-bad-email = "{ $email }" is not an e-mail address
dir-name-not-one-line = the name "{ $name }" is not one line of text (a line break or a control character): write it on one line.
dir-name-too-long = the name has { $count } characters; at most { $max } are kept.
mail-no-server = No mail server is set: set one with `invoice-desk profile mail --server …`.
mail-bad-server = "{ $server }" is not a server name.
mail-f-from = From
mail-f-reply-to = Reply to
mail-f-copy-to = Desk's copy
mail-bad-address = { $field }: "{ $address }" is not an e-mail address.
mail-plain-not-local = Without encryption, e-mail may only go to a server on this computer, not to { $server }: choose starttls or tls.
mail-bad-rate = { $rate ->
        [one] 1 e-mail
       *[other] { $rate } e-mails
    } per minute is not a rate: 1 to { $max }, or "server" (as fast as the server takes them).
mail-ca-unreadable = The certificate authority { $path } cannot be used: { $why }
mail-template-unreadable = The e-mail template { $path } cannot be read: { $why }
mail-template-no-subject = The e-mail template { $path } must start with a "Subject: …" line, then a blank line.
mail-template-placeholder = The e-mail template { $path } names {"{"}{ $name }{"}"}, which is not a placeholder (a typo would reach the customer).

## Lookup: e-mailing the invoice
mail-no-sender = An e-mail says who it is from: fill in the sender's organization first (Credentials → sender's details).
lk-mail = E-mail to the customer…
lk-mail-hint = The invoice's PDF to the customer's addresses in the directory; you see it before it is sent, and it is sent once.
lk-mail-making = Making the e-mail…
lk-mail-sending = Sending the e-mail…
lk-mail-title = E-mail the invoice
lk-mail-to = To
lk-mail-subject = Subject
lk-mail-attachment = Attached
lk-mail-sent-before = This e-mail was already sent on { $when } ({ $by }).
lk-mail-unknown-before = This e-mail was sent on { $when } ({ $by }) and the mail server never answered: it may have arrived.
lk-mail-again = Send it again anyway
lk-mail-send = Send
lk-mail-sent = Sent to { $customer } ({ $to }).
lk-mail-sent-some-refused = Sent to { $customer }, but the mail server refused: { $refused }.
lk-mail-sent-again-to = Sent again to { $customer } at { $to } alone, which the mail server had refused; the other addresses had it already.
lk-mail-already = Already sent on { $when } ({ $by }); not sent again.
lk-mail-on-its-way = { $by } is sending this e-mail right now (their program is connected to the desk's journal); not sent again.
lk-mail-unknown = The e-mail to { $customer } was handed to the mail server and no answer came: it may have arrived. It is not sent again unless you ask.
lk-mail-no-address = { $customer } has no e-mail address in the directory: add one (customers contacts, or an email column in the directory file).
lk-mail-nothing-owed = { $customer } owes nothing: no statement to send.
lk-mail-refused = The mail server refused the e-mail ({ $reply }); nothing was sent.
lk-mail-later = The mail server said to try later ({ $reply }); nothing was sent.
lk-mail-setup = The mail server cannot be used: { $why }. Nothing was sent.
mail-too-large = the e-mail would be { $mb } MB, more than the { $max } MB mail servers take; send the statement's workbook another way
mail-no-tls-here = the server does not speak TLS on port { $port } (for implicit TLS, usually 465; with STARTTLS, usually 587: `profile mail --security starttls`) [{ $why }]
mail-server-words = “{ $words }”
mail-why-no-starttls = the server does not offer STARTTLS (a secure connection); try `--security tls` on port 465, or ask whoever runs the mail
mail-why-no-password = the mail server's password is not stored: type it in Credentials, or run `invoice-desk profile mail --user USER`, which asks for it
mail-why-no-answer = the server did not answer within { $secs } s
mail-why-timeout = the server did not answer in time
mail-why-tls = a secure connection (TLS) with the server could not be made
mail-why-garbled = the server's answer came incomplete or could not be read
mail-why-refused-connection = the server refused the connection (a wrong address or port, or the server stopped?)
mail-why-cut = the connection with the server was cut
mail-why-connection = the server could not be reached
mail-why-not-handed-over = the content was not handed over
lk-mail-not-made = The e-mail could not be made: { $why }
lk-mail-no-password = The mail server asks for a login and no password is kept for it: set it with `invoice-desk profile mail --user …`.

## Cartera: the month's e-mails
rv-mail = E-mail these ({ $count })…
rv-mail-hint = The month's statement (or a reminder) to each customer shown who owes something, with the PDF, at the addresses in the directory; each customer gets it once.
rv-mailing = E-mails: { $done } of { $total }…
rv-mail-title = E-mail the month's statements
rv-mail-title-reminders = Send the month's payment reminders
rv-mail-done-reminders = Reminders sent: { $sent }; sent before: { $before }; no invoice 30 days overdue or more: { $nothing }.
rv-mail-reminders = A reminder instead (30, 60 or 90 days overdue)
rv-mail-what = { $count ->
        [one] The customer shown, if they owe something, gets
       *[other] Each of the { $count } customers shown who owe something gets
    } their statement of { $month }, the PDF attached, at the addresses in the directory.
rv-mail-what-reminders = { $count ->
        [one] The customer shown, if their oldest unpaid invoice is at least 30 days overdue, gets
       *[other] Each of the { $count } customers shown whose oldest unpaid invoice is at least 30 days overdue gets
    } a reminder ({ $month }), the statement attached.
rv-mail-once = Each customer gets it once: those already sent this month are left out, and an e-mail whose answer never came is not sent again.
rv-mail-sample = Show the first customer's e-mail
rv-mail-sample-making = Making the first customer's e-mail…
rv-mail-sample-title = This is how the first customer with an e-mail address gets it (each with their own):
rv-mail-sample-none = { $count ->
        [one] The first customer would not get an e-mail: they have no address or owe nothing.
       *[other] None of the first { $count } customers would get an e-mail: they have no address or owe nothing.
    }
rv-mail-done = Sent: { $sent }; sent before: { $before }; owing nothing: { $nothing }.
rv-mail-no-address = Without an e-mail address ({ $count }): { $names }.
rv-mail-not-sent = Not sent ({ $count }): { $names }.
rv-mail-unknown = No answer from the mail server, may have arrived, not sent again ({ $count }): { $names }.
mail-title = Mail server (e-mails to customers)
mail-f-server = Server
mail-f-security = Security
mail-security-starttls = STARTTLS (587)
mail-security-tls = TLS (465)
mail-security-none = None (this computer only)
mail-f-port = Port
mail-f-user = User
mail-f-password = Password
mail-f-rate = E-mails a minute
mail-f-ca = Certificate authority (PEM)
mail-f-ca-hint = only for a desk's own server
mail-bad-port = "{ $port }" is not a port: a number from 1 to 65535.
cu-mail = E-mail the statement…
cu-mail-hint = This customer's statement (every invoice listed) to their addresses in the directory; you see it before it is sent, and it is sent once this month.
cu-mail-title = E-mail the statement of account

## The UF's value in pesos
uf-value = UF on { $date }: { $value } ({ $source })
uf-stored-by = { $source }; stored by { $who } on { $when }
uf-source-cmf = CMF
uf-source-file = file “{ $file }”
uf-breaks = The UF value received for { $date } ({ $value }) is not used: it is more than 0.5% away from the value of { $near } ({ $near_value }), and the UF moves by hundredths of a percent a day. Amounts are shown in UF only; check the values with `invoice-desk uf check`.
uf-put-breaks = { $date }: { $value } was not kept: it is more than 0.5% away from the kept value of { $near } ({ $near_value }); the UF moves by hundredths of a percent a day.
uf-put-corrected = { $date }: the CMF publishes { $value }; the kept value ({ $was }, stored by { $who }) contradicted it and was replaced. Recorded in the journal.
uf-put-cmf-differs = { $date }: the CMF publishes { $value } and the { $source } said { $other }; the CMF's is used. Recorded in the journal.
uf-put-differs-cmf = { $date }: this value ({ $value }) differs from the one the CMF publishes ({ $other }); the CMF's is used.
uf-put-differs = { $date }: this value ({ $value }) differs from the one kept from the { $source } ({ $other }); the one kept first is used.
uf-imported = Kept { $count } UF values from { $file }, { $first } to { $last } ({ $added } new).
uf-file-refused = Nothing of { $file } was kept: its values do not fit the days around them (the UF moves by hundredths of a percent a day). Check these days:
uf-pesos = ≈ { $pesos } on { $date }
uf-no-key = No CMF key, so UF amounts are shown without pesos. Ask for a free key at api.cmfchile.cl and keep it in Credentials (UF value).
uf-not-published = The UF's value for { $date } is not published yet: amounts are shown in UF only.
uf-key-refused = The CMF refused the key (HTTP { $status }): check it in Credentials. Amounts are shown in UF only.
uf-unreachable = The UF's value could not be read from the CMF ({ $why }): amounts are shown in UF only.
uf-bad-address = "{ $address }" is not an https address for the UF's value.
uf-secret-in-address = The address of the UF's value cannot hold a query (?apikey=…), a user, a password or a fragment: give the address alone, and the key where the app or `invoice-desk uf key` asks for it (it goes to the keyring). Nothing was kept.
uf-bad = The UF's value for { $date } could not be read: { $why }. Amounts are shown in UF only.

## Search across customers
search-status-issued = Issued here
search-from-service = seen at the service on { $when }
search-from-journal = per the journal, { $when }
search-no-customer = customer not given
search-due = due { $date }
search-index-unusable = This computer's search index could not be used ({ $why }). The journal is untouched; close other invoice-desk windows and search again.
search-index-not-ours = The search index's file ({ $path }) is another database, perhaps the journal itself (by its name or a link to it): it is left untouched and nothing is written to it. Move it away, or give the journal another name; the journal is untouched.
search-index-newer = The search index ({ $path }) was laid out by a newer version of invoice-desk: it is left as it is. The search goes on with what the journal knows; the newer version finds everything again.
search-hint = Find invoice, RUT, amount… (Ctrl+F)
search-hint-long = Find an invoice, reference, RUT, customer or amount (Ctrl+F)
search-searching = Searching…
search-none = Nothing found for “{ $text }” among the invoices of profile { $profile } that this computer and the desk know.
search-found = { $invoices ->
        [one] 1 invoice
       *[other] { $invoices } invoices
    }{ $customers ->
        [0] {""}
        [one] {" and 1 customer"}
       *[other] {" and "}{ $customers }{" customers"}
    }
search-scrolls = There is more below: go down with the arrows or the mouse wheel.
search-more = There are more results: type something more precise.
search-ask-service = Look up “{ $text }” at the service
search-customer = Customer: { $name }
search-help = Up and down arrows to choose, Enter to open, Esc to close.
uf-book-pesos = In pesos, with the UF of { $date } ({ $value }): { $owed } owed, { $overdue } overdue ({ $buckets }).
uf-book-others = Other currencies are not added.
uf-why-row = row { $row }: { $why }
uf-why-not-a-value = "{ $text }" is not a UF value (like 39.643,59)
uf-why-not-a-date = "{ $text }" is not a date
uf-why-not-a-day = "{ $text }" is not a day of a month
uf-why-no-such-day = { $month } { $day }, { $year } does not exist
uf-why-too-large = it is larger than { $kb } KB
uf-why-too-many = it has more than { $count } values
uf-why-two-values = it has two values for { $date }: { $a } and { $b }
uf-why-not-cmf-json = it is not a CMF answer ({"{"}"UFs": [{"{"}"Valor": …, "Fecha": …{"}"}]{"}"})
uf-why-no-columns = it has no Fecha and Valor columns, nor Día and the months as the SII's table
uf-why-no-year = the SII's table does not say its year: put it in the file's name (uf2026.xlsx) or give --year
uf-why-no-values = it has no values
uf-why-status = the CMF answered with HTTP status { $status }
uf-why-no-file = the file does not exist
uf-why-denied = there is no permission to read the file
uf-why-unreadable = the file could not be read
uf-why-no-path = the sandbox's address cannot hold a path
ufs-title = The UF's value
ufs-reading = Reading today's value…
ufs-explain = UF amounts are also shown in pesos on the day's value the Banco Central publishes through the CMF's API. The key is free: ask for one at api.cmfchile.cl ("Solicitar API key"); it arrives by e-mail. It is kept in the system's keyring.
ufs-address = API address
ufs-key = CMF key
ufs-key-hint = paste the key here (kept in the keyring)
ufs-save = Save and read the value
ufs-saved = Key saved in { $store }.
ufs-file-explain = Without a CMF key, or for days the CMF does not have: keep a file of values (the Banco Central's or the SII's table in Excel or CSV, or a saved CMF answer). Kept whole or not at all: a day that does not fit the days around it refuses it.
ufs-file = File of values
ufs-file-hint = the file's path (.xlsx, .csv, .json)
ufs-import = Keep the values
ufs-choose = Choose file…
ufs-file-dialog = File of UF values
ufs-file-filter = UF tables
st-uf-pesos = For reference: { $uf } is { $pesos } with the UF of { $date } ({ $value }, { $from }). Paid in pesos, the UF's value on the day of payment applies.
st-uf-from-cmf = as published by the CMF
st-uf-from-table = from a table of UF values
st-uf-pesos-choice = With the UF in pesos
st-uf-pesos-hint = Under what is owed in UF, a line with its pesos on today's value (a reference: paid in pesos, the value on the day of payment applies).
io-not-found = the file or folder does not exist
io-permission = this user has no permission
io-exists = it exists already
io-full = the disk is full (or a space limit was reached)
io-read-only = the disk is read-only
io-is-folder = it is a folder, not a file
io-not-folder = part of the path is not a folder
io-invalid-data = the content is not valid
io-timed-out = it did not answer in time
io-interrupted = it was interrupted
io-broken-pipe = whoever read the output stopped reading
io-system = system error number { $code }
ext-program-ended = { $program } ended with code { $code }
journal-details-where = Journal: { $path }. What its database said:

## Contracts panel
tab-contracts = Contracts
ctp-title = Contracts: invoices that repeat
ctp-intro = Each period of a contract is issued once, on this computer or a colleague's. Import them from a spreadsheet (contract, customer, amount, currency, every, start…); a period's run issues what each owes through it.
ctp-file = Contracts file
ctp-import = Import
ctp-import-refused = { $count ->
    [one] 1 problem in the file: no contract was kept.
   *[other] { $count } problems in the file: no contract was kept.
}
ctp-loading = Reading the contracts…
ctp-none = No contract is kept yet.
ctp-filter = Filter
ctp-table = Contracts
ctp-col-contract = Contract
ctp-col-customer = Customer
ctp-col-every = Every
ctp-col-amount = Amount
ctp-col-bill-in = Billed in
ctp-col-from = From
ctp-col-to = To
ctp-col-state = State
ctp-col-period = Period
ctp-col-due = Due
ctp-col-note = Note
ctp-period = Period (YYYY-MM)
ctp-preview = See what it issues
ctp-not-a-period = Write the period as YYYY-MM, for example 2026-11.
ctp-no-uf-kept = no value kept for the day
ctp-plan-table = The period's invoices
ctp-note-catch-up = missed period
ctp-note-uf = { $uf } at { $value } (UF of { $day })
ctp-confirm-title = Confirm the period's run
ctp-confirm = { $count ->
    [one] Issue 1 invoice
   *[other] Issue { $count } invoices
} of { $contracts ->
    [one] 1 contract
   *[other] { $contracts } contracts
} for { $period }?
ctp-confirm-note = Each invoice is written to the journal before it is sent; a period is never issued twice, on this computer or another.
journal-older-layout = The desk's shared journal does not keep contracts yet: its owner brings it up to date by running invoice-desk journal init again (invoices, voids and e-mails go on as before).
act-contract-changes = Contract changes ({ $count })
act-contract-change = { $time } · { $who } · contract { $id }: { $what }
rv-contracts-next = Contracts: { $count ->
    [one] 1 invoice
   *[other] { $count } invoices
} to issue through next period ({ $period }, missed periods included): { $totals }.
ctp-new = New contract
ctp-change = Change a contract from a period
ctp-f-id = Contract
ctp-f-customer = Customer (id, name or RUT)
ctp-f-amount = Amount
ctp-f-currency = Currency
ctp-f-every = Every
ctp-f-day = Day of the month it is issued
ctp-f-due-days = Days until due
ctp-f-start = From (YYYY-MM)
ctp-f-end = To (YYYY-MM, optional)
ctp-f-description = Description
ctp-f-from = From period (YYYY-MM)
ctp-f-new-amount = New amount
ctp-read-back = { $id } · { $customer } · { $amount }, { $every }, issued on day { $day }, from { $start }.
ctp-save = Keep the contract
ctp-saved = Contract { $id } kept.
ctp-kept-already = That contract is kept already, as it is.
ctp-apply-amount = Change the amount
ctp-apply-pause = Pause
ctp-apply-resume = Resume
ctp-apply-end = End after it
ctp-f-which = Contract to change

## The desk's four eyes (approvals)
journal-needs-approval = The desk's policy wants another member of the desk to approve this first, and the journal has no approval that holds for it (not approved yet, rejected, expired, or given for something else): nothing was sent.
journal-approval-refused = The shared journal did not take the decision: the request is your own, has expired, was already decided, or does not exist.
ap-what-void = void { $invoice }
ap-what-void-of = void { $invoice } of { $customer } for { $amount }
ap-what-void-of-customer = void { $invoice } of { $customer }
ap-what-create = issue invoice { $reference } to { $customer } for { $amount }
ap-what-run-file = issue { $count ->
    [one] 1 invoice
   *[other] { $count } invoices
} from { $file } ({ $amount })
ap-what-run = issue { $count ->
    [one] 1 contract invoice
   *[other] { $count } contract invoices
} ({ $amount })
ap-pending = waiting for approval until { $until }
ap-approved = approved by { $who } on { $when }
ap-rejected = rejected by { $who } on { $when }
ap-expired = expired on { $when } without a decision
ap-carried-out = { $items ->
    [one] carried out
   *[other] carried out: { $used } of { $items }
}
ap-lapsed = expired on { $when } before it was carried out
ap-line = Request { $id }: { $what } · asked by { $who } on { $when } · { $state }
ap-ui-badge = { $count } to approve
ap-ui-title = Requests for approval ({ $count })
ap-ui-note = A note (a rejection says why)
ap-ui-note-label = Note on request { $id }
ap-ui-approve-n = Approve request { $id }
ap-ui-reject-n = Reject request { $id }
ap-ui-approve = Approve
ap-ui-reject = Reject
ap-ui-reject-needs-note = A rejection says why: write it in the note.
ap-ui-approved = You approved request { $id }: { $what }. { $who } may carry it out, once.
ap-ui-rejected = You rejected request { $id }: { $what }. Nothing of it will be sent.
ap-ui-mine-approved = Approved: do it again (Void, Issue or Send) to carry it out.
lk-approval-asked = Request for approval { $id }: { $what } (another member of the desk must approve it). Nothing was sent. Once it is approved, press Void again.
ap-refused = Nothing was sent: request for approval { $id } ({ $what }): { $state }.
cr-approval-asked = Request for approval { $id }: { $what } (another member of the desk must approve it). Nothing was sent. Once it is approved, press Issue again.
ap-approved-entry = approved by { $who } (request { $id })
mail-rate-server = server
ap-what-mail = e-mail { $count ->
    [one] 1 customer
   *[other] { $count } customers
} their statements and reminders ({ $month })
