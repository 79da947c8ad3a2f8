//! Before a run: the service's listing of every customer of its rows, which references
//! are already there and which rows look like an invoice there.

use super::*;

impl Runner {
    /// The service's listing of every customer of `rows`, a few at a time: which rows'
    /// references are already there (issued, whatever the journal says), and which rows
    /// look like an invoice there (same customer, amount and currency, same due date;
    /// without a due date, created the same day). Only what concerns the rows is kept.
    pub async fn at_service(&self, rows: &[BulkRow]) -> AtService {
        let mut by_ref: HashMap<&str, usize> = HashMap::new();
        let mut by_look: HashMap<LookKey, Vec<usize>> = HashMap::new();
        let mut customers: Vec<String> = Vec::new();
        for (i, r) in rows.iter().enumerate() {
            for reference in r.references() {
                by_ref.insert(reference, i);
            }
            by_look
                .entry((
                    r.invoice.customer.clone(),
                    r.invoice.amount.normalize().to_string(),
                    r.invoice.due_date.clone(),
                ))
                .or_default()
                .push(i);
            customers.push(r.invoice.customer.clone());
        }
        customers.sort_unstable();
        customers.dedup();
        let of = customers.len();
        self.control.set_checking(Some((0, of)));
        let today = chrono::Local::now().date_naive();
        let same_day = |t: &str| {
            chrono::DateTime::parse_from_rfc3339(t)
                .map(|t| t.with_timezone(&chrono::Local).date_naive() == today)
                .unwrap_or(false)
        };
        let (by_ref, by_look, same_day) = (&by_ref, &by_look, &same_day);
        let listings = futures_util::stream::iter(customers.into_iter().map(|c: String| {
            let client = self.client.clone();
            async move {
                let mut found: HashMap<usize, Status> = HashMap::new();
                let mut seen: Vec<String> = Vec::new();
                let listed = client
                    .list_customer_invoices(&c, |page, _| {
                        for inv in page.iter() {
                            if let Some(&i) = inv
                                .invoice_external_id
                                .as_deref()
                                .and_then(|r| by_ref.get(r))
                            {
                                seen.push(inv.id.clone());
                                found.insert(
                                    i,
                                    Status::SkippedExisting(Existing {
                                        id: Some(inv.id.clone()),
                                        time: inv.created_at().map(str::to_string),
                                        at_service: true,
                                        by: None,
                                        confirmed_by: None,
                                    }),
                                );
                                continue;
                            }
                            if inv.is_void == Some(true) {
                                continue;
                            }
                            let (Some(customer), Some(amount)) = (&inv.customer, inv.amount) else {
                                continue;
                            };
                            let key = (
                                customer.clone(),
                                amount.normalize().to_string(),
                                inv.due_date.clone(),
                            );
                            let Some(rows_like) = by_look.get(&key) else {
                                continue;
                            };
                            let created = inv.created_at().map(str::to_string);
                            if inv.due_date.is_none() && !created.as_deref().is_some_and(same_day) {
                                continue;
                            }
                            for &i in rows_like {
                                let row = &rows[i];
                                let currency_matches =
                                    match (row.invoice.currency.currency(), &inv.currency_code) {
                                        (Some(c), Some(code)) => c.code() == code,
                                        _ => true,
                                    };
                                if currency_matches {
                                    found.entry(i).or_insert_with(|| {
                                        Status::PossibleDuplicate(Earlier {
                                            id: Some(inv.id.clone()),
                                            time: created.clone(),
                                            at_service: true,
                                            due: inv.due_date.is_some(),
                                        })
                                    });
                                }
                            }
                        }
                        std::ops::ControlFlow::Continue(())
                    })
                    .await;
                match listed {
                    Ok(_) => (found, seen),
                    // A customer the service does not know has no invoices there.
                    Err(e) if matches!(e.kind, ErrorKind::NotFound(_)) => (found, seen),
                    Err(e) => {
                        for (i, r) in rows.iter().enumerate() {
                            if r.invoice.customer == *c {
                                found.insert(i, Status::NotSent(Held::Unchecked(e.clone())));
                            }
                        }
                        (found, seen)
                    }
                }
            }
        }))
        .buffer_unordered(LISTINGS_AT_ONCE);
        let mut out = AtService::default();
        futures_util::pin_mut!(listings);
        let mut read = 0;
        while let Some((found, seen)) = listings.next().await {
            read += 1;
            self.control.set_checking(Some((read, of)));
            out.seen.extend(seen);
            for (i, s) in found {
                // A reference found wins over a look-alike found in another page.
                match (out.found.get(&i), &s) {
                    (Some(Status::SkippedExisting(_)), _) => {}
                    _ => {
                        out.found.insert(i, s);
                    }
                }
            }
        }
        self.control.set_checking(None);
        out
    }
}
