//! `list` and `export`: a customer's invoices as they are listed, never held whole for
//! CSV (spooled as pages arrive).

use super::at_service::{Service, refused};
use super::journal_open::{journal_before_sending, not_sent};
use super::output::ListSink;
use super::{CliError, ListFormat, write_failure};
use crate::journal::{Action, Intent, Settled};
use crate::tr;
use std::io::IsTerminal;

/// `invoice-desk list CUSTOMER`.
pub(super) async fn list(
    svc: &Service,
    customer: &str,
    format: ListFormat,
    json: bool,
) -> Result<(), CliError> {
    let format = if json { ListFormat::Json } else { format };
    // Rows go to a temporary file as pages arrive (memory does not grow with the
    // listing) and to stdout only when the listing is complete.
    let mut sink = ListSink::new(format).map_err(write_failure)?;
    let mut failed = None;
    // What was listed is kept for `find` (and the app's search).
    let at = chrono::Utc::now();
    let mut seen = Vec::new();
    svc.client
        .list_customer_invoices(customer, |page, _| {
            crate::search::Seen::keep_page(&mut seen, page, at);
            for inv in page.iter() {
                if let Err(e) = sink.push(inv) {
                    failed = Some(e);
                    return std::ops::ControlFlow::Break(());
                }
            }
            std::ops::ControlFlow::Continue(())
        })
        .await
        .map_err(|e| match failed.take() {
            Some(io) => write_failure(io),
            None => CliError::from(e),
        })?;
    if let Ok(choice) = super::settings::journal_choice() {
        crate::search::keep_listed(choice.index_place().as_deref(), &svc.base_url, &seen);
    }
    let n = sink
        .finish(&mut std::io::stdout().lock())
        .map_err(write_failure)?;
    note!("{}", tr!("cli-invoices", count = n));
    Ok(())
}

/// What `export` is asked.
pub(super) struct Export {
    pub customer: String,
    pub out: std::path::PathBuf,
    pub format: Option<super::args::ExportFormat>,
    pub dialect: super::args::DialectArg,
    pub as_of: Option<chrono::NaiveDate>,
}

/// `invoice-desk export CUSTOMER --out FILE`.
pub(super) async fn export(svc: &Service, ask: Export) -> Result<(), CliError> {
    let Export {
        customer,
        out,
        format,
        dialect,
        as_of,
    } = ask;
    let format = super::args::ExportFormat::for_path(format, &out);
    // Checked before the first request: a bad path fails now, not after the
    // whole download.
    let target = super::destination(&out)?;
    let mut journal = journal_before_sending()?;
    let record = Intent::for_export(
        &svc.profile_name,
        &svc.base_url,
        &customer,
        out.file_name().map(|f| f.to_string_lossy().into_owned()),
    );
    let seq = journal
        .record_intent(Action::Export, &record)
        .map_err(not_sent)?;
    // The customer's name from the directory, when known: a last CSV column.
    let name = journal
        .customer_names(&[customer.as_str()])
        .ok()
        .and_then(|mut names| names.remove(&customer));
    let mut settle = |s: Settled| super::journal_open::settle_export(&mut journal, seq, &s);
    let progress = std::io::stderr().is_terminal();
    // CSV is written as it arrives, to the temporary file that replaces the
    // destination at the end; a workbook's rows are spooled to a temporary file (its
    // header and summary need them all) and the sheet written from it at the end.
    let could_not_start = |e: std::io::Error| {
        settle(refused("WriteFailed"));
        CliError {
            code: super::Exit::Failed,
            message: tr!(
                "cli-export-could-not-start",
                why = crate::i18n::io_words(&e)
            ),
        }
    };
    let mut sink = match format {
        super::args::ExportFormat::Csv => Sink::Csv(
            crate::export::StreamingCsv::to_file(dialect.into(), &target)
                .map(|c| Box::new(c.with_customer_name(name.clone())))
                .map_err(could_not_start)?,
        ),
        super::args::ExportFormat::Xlsx => Sink::Workbook(Box::new(
            crate::export::xlsx::Spool::new().map_err(could_not_start)?,
        )),
    };
    let mut spooled = Ok(());
    let listed = svc
        .client
        .list_customer_invoices(&customer, |page, p| {
            if let Err(e) = sink.take(page) {
                spooled = Err(e);
                return std::ops::ControlFlow::Break(());
            }
            if progress {
                note_part!(
                    "\r{}",
                    tr!("cli-export-progress", items = p.items, pages = p.pages)
                );
            }
            std::ops::ControlFlow::Continue(())
        })
        .await;
    // The spool's own error (a full disk, too many fields) comes first: it is
    // why the listing was stopped.
    match (listed, spooled) {
        (_, Err(io)) => {
            settle(refused("WriteFailed"));
            return Err(CliError {
                code: super::Exit::Refused,
                message: format!(
                    "{}\n{}",
                    tr!("cli-export-failed", why = io),
                    tr!("cli-not-changed", path = out.display())
                ),
            });
        }
        (Err(e), Ok(_)) => {
            settle(Settled::from_error(&e));
            let mut f = CliError::from(e);
            f.message.push('\n');
            f.message
                .push_str(&tr!("cli-not-changed", path = out.display()));
            return Err(f);
        }
        (Ok(_), Ok(())) => {}
    }
    if progress {
        note!();
    }
    let never = std::sync::atomic::AtomicBool::new(false);
    let mut notes = (0, 0);
    let written = match sink {
        Sink::Csv(csv) => csv.finish_file(&never),
        Sink::Workbook(spool) => {
            let about = crate::export::xlsx::About {
                customer: &customer,
                customer_name: name.as_deref(),
                today: as_of.unwrap_or_else(|| chrono::Local::now().date_naive()),
                lang: crate::i18n::current(),
            };
            spool.write_file(&target, &about, &never).map(|w| {
                notes = (w.as_text, w.cut);
                w.rows
            })
        }
    };
    let n = written.map_err(|e| {
        settle(refused("WriteFailed"));
        CliError {
            code: super::Exit::Failed,
            message: tr!(
                "cli-write-failed",
                path = out.display(),
                why = crate::i18n::io_words(&e)
            ),
        }
    })?;
    settle(Settled {
        rows: Some(n),
        ..Settled::done(None)
    });
    note!("{}", tr!("cli-exported", count = n, path = out.display()));
    let (as_text, cut) = notes;
    if as_text > 0 {
        note!("{}", tr!("cli-xlsx-as-text", count = as_text));
    }
    if cut > 0 {
        note!("{}", tr!("cli-xlsx-cut", count = cut));
    }
    Ok(())
}

/// Where an export's rows go while the listing arrives.
enum Sink {
    /// CSV, spooled to a temporary file.
    Csv(Box<crate::export::StreamingCsv>),
    /// A workbook's rows, spooled to a temporary file (at most Excel's row limit): one
    /// page held at a time, whatever the customer's size.
    Workbook(Box<crate::export::xlsx::Spool>),
}

impl Sink {
    /// Takes a page's rows: each is written to the spool (the page is left as it was,
    /// its room reused for the next).
    fn take(&mut self, page: &[crate::api::Invoice]) -> std::io::Result<()> {
        match self {
            Sink::Csv(csv) => page.iter().try_for_each(|inv| csv.push(inv)),
            Sink::Workbook(spool) => {
                if spool.rows() + page.len() > crate::export::xlsx::MAX_ROWS {
                    return Err(std::io::Error::other(tr!(
                        "cli-too-many-for-excel",
                        max = crate::export::xlsx::MAX_ROWS
                    )));
                }
                page.iter().try_for_each(|inv| spool.push(inv))
            }
        }
    }
}
