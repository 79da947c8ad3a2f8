//! Opening something outside the app — a payment link in the browser, a folder in the
//! file manager — off the UI thread, and saying so when it cannot be opened (the link is
//! then copied, the folder's path shown): no button stays silent.

use std::path::PathBuf;
use std::sync::Arc;

/// Something to open outside the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum External {
    /// A web address, in the system's browser.
    Link(String),
    /// A folder, in the system's file manager.
    Folder(PathBuf),
    /// A file (a statement's PDF), in the system's viewer for it.
    File(PathBuf),
}

/// Opens an [`External`]; `Err` says why it could not.
pub type Opener = Arc<dyn Fn(&External) -> Result<(), String> + Send + Sync>;

/// The system's way: the browser for a link, the file manager for a folder.
pub fn system_opener() -> Opener {
    Arc::new(|what: &External| match what {
        External::Link(url) => webbrowser::open(url).map_err(|e| e.to_string()),
        External::Folder(dir) | External::File(dir) => {
            #[cfg(target_os = "windows")]
            let program = "explorer";
            #[cfg(target_os = "macos")]
            let program = "open";
            #[cfg(not(any(target_os = "windows", target_os = "macos")))]
            let program = "xdg-open";
            match std::process::Command::new(program).arg(dir).status() {
                // Explorer answers 1 even when it opened the folder.
                Ok(s) if s.success() || cfg!(target_os = "windows") => Ok(()),
                Ok(s) => Err(crate::tr!(
                    "ext-program-ended",
                    program = program,
                    code = s.code().map_or_else(|| "?".to_string(), |c| c.to_string())
                )),
                Err(e) => Err(format!("{program}: {}", crate::i18n::io_words(&e))),
            }
        }
    })
}

/// A document made, written and handed to the system's viewer: its file, and whether
/// the viewer opened it (why not).
pub type Shown = Result<Document, String>;

/// A document written and handed to the viewer.
#[derive(Debug)]
pub struct Document {
    /// The PDF written.
    pub path: PathBuf,
    /// The workbook beside it (a statement too long to print whole).
    pub book: Option<PathBuf>,
    /// Whether the viewer opened it (why not).
    pub opened: Result<(), String>,
}

/// Where documents the clerk opens are kept: `invoice-desk` in the user's Documents
/// folder (a file the clerk can find again, not one the system may clear), else in the
/// home folder, else the temporary one.
pub fn documents() -> PathBuf {
    let user = directories::UserDirs::new();
    user.as_ref()
        .and_then(|u| u.document_dir().map(|d| d.to_path_buf()))
        .or_else(|| user.as_ref().map(|u| u.home_dir().join("Documents")))
        .unwrap_or_else(std::env::temp_dir)
        .join("invoice-desk")
}

/// Writes `pdf` as a new file named `name` (never over another) in `folder` (made if
/// missing) and opens it with `opener`, from which the clerk prints, saves or sends it.
/// `failed` words a write that did not happen.
pub fn show_pdf(
    folder: &std::path::Path,
    name: &str,
    pdf: &[u8],
    opener: &Opener,
    failed: impl Fn(std::io::Error) -> String,
) -> Shown {
    std::fs::create_dir_all(folder).map_err(&failed)?;
    let path = crate::fsutil::write_new(folder, name.trim_end_matches(".pdf"), "pdf", pdf)
        .map_err(&failed)?;
    let opened = opener(&External::File(path.clone()));
    Ok(Document {
        path,
        book: None,
        opened,
    })
}

/// What a PDF shows.
pub enum Printed {
    /// A customer's statement of these invoices (with `all`, paid and void ones too).
    Statement {
        /// The invoices, as listed.
        invoices: Vec<crate::api::Invoice>,
        /// Paid and void invoices too.
        all: bool,
    },
    /// One invoice, to print.
    Invoice(Box<crate::api::Invoice>),
}

/// A customer's document to make and show: the statement of account (Customer invoices)
/// or one invoice printed (Lookup).
pub struct PdfRequest {
    /// Which document.
    pub what: Printed,
    /// Its language.
    pub lang: crate::i18n::Lang,
    /// Who it is from (the profile's sender).
    pub sender: crate::profile::Sender,
    /// The customer's id (the directory gives the name and RUT, when it knows them).
    pub customer: String,
    /// The day it is made for.
    pub as_of: chrono::NaiveDate,
    /// The file's name.
    pub file_name: String,
    /// The folder it is written into.
    pub folder: PathBuf,
    /// The panel's words for a document that could not be made or written.
    pub failed: fn(String) -> String,
    /// The UF's value of the day, for a statement's line in pesos (`None`: UF alone).
    pub uf: Option<crate::uf::UfDay>,
}

/// Makes the document off the UI thread and hands it to the system's viewer with
/// `opener` ([`show_pdf`]). A directory that cannot be read only loses the customer's
/// name and RUT.
pub async fn make_and_show_pdf(
    req: PdfRequest,
    journal: super::journal::AppJournal,
    opener: Opener,
) -> Shown {
    let id = req.customer.clone();
    let known = journal.read(move |j| j.customer(&id)).await.ok().flatten();
    tokio::task::spawn_blocking(move || {
        let document = crate::pdf::Statement {
            lang: req.lang,
            sender: &req.sender,
            customer: &req.customer,
            name: known.as_ref().and_then(|c| c.name.as_deref()),
            rut: known.as_ref().and_then(|c| c.rut.as_deref()),
            as_of: req.as_of,
            uf: req.uf.as_ref(),
        };
        let made = match &req.what {
            Printed::Statement { invoices, all } => {
                crate::pdf::statement_pdf(&document, invoices, *all)
            }
            Printed::Invoice(inv) => crate::pdf::invoice_pdf(&document, inv),
        }
        .map_err(|e| match e {
            crate::pdf::PdfError::Logo(p) => crate::i18n::sender_problem(&p),
            other => (req.failed)(other.words()),
        })?;
        let failed = |e: std::io::Error| (req.failed)(crate::i18n::io_words(&e));
        // Every invoice of a statement too long to print whole: its workbook beside the
        // PDF, under the same name, written before the PDF is opened.
        let book = match &made.workbook {
            Some(bytes) => {
                std::fs::create_dir_all(&req.folder).map_err(failed)?;
                let stem = req.file_name.trim_end_matches(".pdf");
                Some(crate::fsutil::write_new(&req.folder, stem, "xlsx", bytes).map_err(failed)?)
            }
            None => None,
        };
        show_pdf(&req.folder, &req.file_name, &made.pdf, &opener, failed)
            .map(|d| Document { book, ..d })
    })
    .await
    .map_err(|e| e.to_string())?
}

#[cfg(test)]
mod tests {
    #[test]
    fn documents_go_to_the_users_documents_folder() {
        let d = super::documents();
        assert!(d.ends_with("invoice-desk"), "{}", d.display());
        if let Some(u) = directories::UserDirs::new() {
            assert!(d.starts_with(u.home_dir()), "{}", d.display());
            assert!(!d.starts_with(std::env::temp_dir()), "{}", d.display());
        }
    }
}
