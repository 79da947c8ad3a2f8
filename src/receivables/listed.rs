//! A customer's listing, read page by page from the service and folded as it comes: what
//! statements, reminders and the book are made from (the app, the CLI, e-mail and PDFs).

use super::{Keep, Listing};

/// A customer's invoices, every page, folded as each page comes (see [`Listing`]):
/// what a listing holds is bounded whatever the service sends. `progress` hears how
/// many invoices are listed so far and says whether to go on (the clerk may stop a long
/// one: the listing is then [`Listing::stopped`]); the listing stops once it keeps too
/// many.
pub async fn listed(
    client: &crate::api::Client,
    customer: &str,
    as_of: chrono::NaiveDate,
    keep: Keep,
    mut progress: impl FnMut(usize) -> bool,
) -> Result<Listing, crate::api::ApiError> {
    let mut folded = Listing::new(as_of, keep);
    let listing = client
        .list_customer_invoices(customer, |page, _| {
            for inv in page.iter() {
                if !folded.add(inv) {
                    return std::ops::ControlFlow::Break(());
                }
            }
            if !progress(folded.summary.invoices) {
                folded.stopped = true;
                return std::ops::ControlFlow::Break(());
            }
            std::ops::ControlFlow::Continue(())
        })
        .await;
    match listing {
        Ok(_) => Ok(folded),
        // Stopped here, for a reason the listing says.
        Err(e)
            if e.kind == crate::api::ErrorKind::Cancelled
                && (folded.stopped || folded.too_many) =>
        {
            Ok(folded)
        }
        Err(e) => Err(e),
    }
}
