//! A run and the desk's four eyes: what the shared journal's policy asks of a run's rows
//! before any is sent (shared by the CLI's `bulk` and `contracts run` and the app's
//! billing run).

use super::{BulkRow, Runner};
use crate::journal::approvals::{FourEyes, FourEyesError, Item, Request, Summary, What, ask};

impl Runner {
    /// What the policy asks of a run of `rows` (from the file named `file`, or
    /// contracts): its size for every row's intent on a shared journal, and when the
    /// policy holds it (more rows than its limit, or a row over the amount) the
    /// approved request the rows carry out (returned too, to be said).
    pub async fn four_eyes_for(
        &self,
        rows: &[BulkRow],
        file: Option<String>,
    ) -> Result<(FourEyes, Option<Box<Request>>), FourEyesError> {
        let mut eyes = FourEyes::default();
        if !self.journal.is_shared() || rows.is_empty() {
            return Ok((eyes, None));
        }
        let n = rows.len() as u64;
        eyes.run_rows = Some(n);
        let policy = self
            .journal
            .run(|j| j.policy())
            .await
            .map_err(FourEyesError::Journal)?;
        let Some(policy) = policy else {
            return Ok((eyes, None));
        };
        let intents: Vec<crate::journal::Intent> = rows
            .iter()
            .map(|r| {
                let mut i = self.intent_for(r);
                i.rows = Some(n);
                i
            })
            .collect();
        let held = rows.iter().zip(&intents).any(|(r, i)| {
            policy
                .for_create(r.invoice.amount, i.currency_code.as_deref(), Some(n))
                .is_some()
        });
        if !held {
            return Ok((eyes, None));
        }
        let mut totals: std::collections::BTreeMap<String, rust_decimal::Decimal> =
            Default::default();
        for r in rows {
            let code = r.invoice.currency.currency().map(|c| c.code().to_string());
            *totals.entry(code.unwrap_or_default()).or_default() += r.invoice.amount;
        }
        let summary = Summary {
            file,
            rows: Some(n),
            totals: totals
                .into_iter()
                .map(|(c, a)| (c, a.to_string()))
                .collect(),
            ..Summary::default()
        };
        let service = intents[0].service.clone();
        let items: Vec<Item> = intents.iter().map(Item::of_create).collect();
        let request = ask(&self.journal, What::Run, service, items, summary).await?;
        eyes.approval = Some(request.id);
        Ok((eyes, Some(Box::new(request))))
    }
}
