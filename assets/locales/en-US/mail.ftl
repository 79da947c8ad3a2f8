# What customers read: the e-mails sent with their statements, invoices and reminders.
# A clerk may replace any of them with a file of their own (`invoice-desk email template`).

mail-statement-subject = Statement of account as of { $date } · { $organization }
mail-statement-body =
    Dear { $customer },

    Please find attached your statement of account as of { $date }. On that date, the balance due is { $owed }.

    The statement lists each invoice and how to pay it. If you have already paid, please disregard this message.

    If you have any questions, reply to this e-mail or write to us at { $contact }.

    Kind regards,
    { $organization }

mail-invoice-subject = Invoice { $invoice } · { $organization }
mail-invoice-body =
    Dear { $customer },

    Please find attached invoice { $invoice } for { $amount }, due on { $due }.

    The document says how to pay it. If you have any questions, reply to this e-mail or write to us at { $contact }.

    Kind regards,
    { $organization }

mail-reminder-30-subject = Payment reminder · { $organization }
mail-reminder-30-body =
    Dear { $customer },

    This is a reminder that, as of { $date }, your account shows a balance due of { $owed }, with invoices { $days } days overdue.

    The attached statement lists each invoice and how to pay it. If you have already paid, please disregard this message and, if you can, send us the receipt.

    If you have any questions, reply to this e-mail or write to us at { $contact }.

    Kind regards,
    { $organization }

mail-reminder-60-subject = Second notice: balance overdue · { $organization }
mail-reminder-60-body =
    Dear { $customer },

    We have not yet received payment for invoices { $days } days overdue. As of { $date }, the balance due is { $owed }.

    The attached statement has the details. Please settle this balance soon or, if there is a problem, contact us so we can agree on a solution.

    You can reply to this e-mail or write to us at { $contact }.

    Kind regards,
    { $organization }

mail-reminder-90-subject = Notice: invoices more than 90 days overdue · { $organization }
mail-reminder-90-body =
    Dear { $customer },

    Your account has invoices { $days } days overdue. As of { $date }, the balance due is { $owed }.

    The attached statement has the details. Please settle this balance or contact us in the next few days to review it.

    You can reply to this e-mail or write to us at { $contact }.

    Kind regards,
    { $organization }
