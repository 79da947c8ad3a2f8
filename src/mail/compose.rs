//! What an e-mail says and carries: its kind, the texts from a template (the Fluent
//! files' `mail-*`, or the clerk's own file), the PDF, and the message lettre formats.

use crate::i18n::Lang;
use lettre::Address;
use lettre::message::{Attachment as MimeAttachment, Mailbox, MultiPart, SinglePart, header};
use std::path::{Path, PathBuf};

/// Which e-mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A statement of account (the month's, or one asked for).
    Statement,
    /// One invoice.
    Invoice,
    /// A reminder to a customer whose oldest unpaid invoice is this many days overdue
    /// (30, 60 or 90), the statement attached.
    Reminder(u16),
}

/// The reminders' steps, in days overdue.
pub const REMINDER_DAYS: [u16; 3] = [30, 60, 90];

impl Kind {
    /// The name stored in the journal's key and the template's file (`statement`,
    /// `invoice`, `reminder-30`).
    pub fn as_str(self) -> String {
        match self {
            Kind::Statement => "statement".into(),
            Kind::Invoice => "invoice".into(),
            Kind::Reminder(d) => format!("reminder-{d}"),
        }
    }

    /// From [`Kind::as_str`].
    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "statement" => Some(Kind::Statement),
            "invoice" => Some(Kind::Invoice),
            _ => s
                .strip_prefix("reminder-")
                .and_then(|d| d.parse().ok())
                .filter(|d| REMINDER_DAYS.contains(d))
                .map(Kind::Reminder),
        }
    }

    /// The reminder for a customer whose oldest unpaid invoice is `days` overdue: the
    /// highest step reached, none below 30.
    pub fn reminder_for(days: i64) -> Option<Kind> {
        REMINDER_DAYS
            .iter()
            .rev()
            .find(|d| days >= i64::from(**d))
            .map(|d| Kind::Reminder(*d))
    }

    /// Every kind, for the template list.
    pub fn all() -> Vec<Kind> {
        let mut v = vec![Kind::Statement, Kind::Invoice];
        v.extend(REMINDER_DAYS.iter().map(|d| Kind::Reminder(*d)));
        v
    }
}

/// A file attached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    /// Its name as the customer sees it.
    pub name: String,
    /// The PDF (or the workbook of a statement too long to print whole).
    pub bytes: Vec<u8>,
}

impl Attachment {
    /// Its content type, by what it is: a workbook, or the PDF.
    fn content_type(&self) -> &'static str {
        if self.name.ends_with(".xlsx") {
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        } else {
            "application/pdf"
        }
    }
}

/// What a template is filled with (each already in the e-mail's language).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fill {
    /// The customer's name (its id when the directory has none).
    pub customer: String,
    /// Who sends it (the sender's organization).
    pub organization: String,
    /// The day the statement is made on, or the invoice was issued (dd-mm-yyyy).
    pub date: String,
    /// What is owed, in words ("$1.234.567 · UF 12,3456").
    pub owed: String,
    /// The invoice's number (invoices).
    pub invoice: String,
    /// The invoice's amount (invoices).
    pub amount: String,
    /// Its due date (invoices).
    pub due: String,
    /// Days overdue (reminders).
    pub days: String,
    /// How to reach the desk (e-mail, phone).
    pub contact: String,
    /// Whether the customer is a person (its RUT says so): written to as one ("Estimado
    /// o estimada", "usted"), not as a company's people ("Estimados", "ustedes").
    pub person: bool,
}

/// The longest value a template is filled with (a customer's name is at most 200
/// characters when imported; older directories may hold longer ones).
const MAX_VALUE: usize = 200;

impl Fill {
    /// Each value as one line, its control characters gone: a name from the directory
    /// with a line break cannot forge lines ("Bcc: …") in what the customer reads.
    fn pairs(&self) -> [(&'static str, String); 9] {
        let one = |v: &str| crate::text::one_line(v, MAX_VALUE);
        [
            ("customer", one(&self.customer)),
            ("organization", one(&self.organization)),
            ("date", one(&self.date)),
            ("owed", one(&self.owed)),
            ("invoice", one(&self.invoice)),
            ("amount", one(&self.amount)),
            ("due", one(&self.due)),
            ("days", one(&self.days)),
            ("contact", one(&self.contact)),
        ]
    }
}

/// An e-mail's subject and text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Texts {
    /// The subject.
    pub subject: String,
    /// The text.
    pub body: String,
}

pub use crate::profile::mail::TemplateError;

/// The template file a clerk may write for `kind` in `lang`: `<dir>/<kind>.<lang>.txt`.
pub fn template_path(dir: &Path, kind: Kind, lang: Lang) -> PathBuf {
    dir.join(format!("{}.{}.txt", kind.as_str(), lang.tag()))
}

/// The built-in template of `kind` in `lang`, as a clerk's file would say it
/// (`Subject: …`, a blank line, the text, with `{customer}`-style placeholders).
pub fn default_template(kind: Kind, lang: Lang) -> String {
    let fill = Fill {
        customer: "{customer}".into(),
        organization: "{organization}".into(),
        date: "{date}".into(),
        owed: "{owed}".into(),
        invoice: "{invoice}".into(),
        amount: "{amount}".into(),
        due: "{due}".into(),
        days: "{days}".into(),
        contact: "{contact}".into(),
        person: false,
    };
    let t = builtin(kind, lang, &fill);
    format!("{}: {}\n\n{}\n", subject_word(lang), t.subject, t.body)
}

fn subject_word(lang: Lang) -> &'static str {
    match lang {
        Lang::Es => "Asunto",
        Lang::En => "Subject",
    }
}

fn builtin(kind: Kind, lang: Lang, fill: &Fill) -> Texts {
    let mut args = fill.pairs().to_vec();
    let whom = if fill.person {
        "person"
    } else {
        "organization"
    };
    args.push(("whom", whom.to_string()));
    let (s, b) = match kind {
        Kind::Statement => ("mail-statement-subject", "mail-statement-body"),
        Kind::Invoice => ("mail-invoice-subject", "mail-invoice-body"),
        Kind::Reminder(30) => ("mail-reminder-30-subject", "mail-reminder-30-body"),
        Kind::Reminder(60) => ("mail-reminder-60-subject", "mail-reminder-60-body"),
        Kind::Reminder(_) => ("mail-reminder-90-subject", "mail-reminder-90-body"),
    };
    Texts {
        subject: crate::i18n::text_args_in(lang, s, &args),
        body: crate::i18n::text_args_in(lang, b, &args),
    }
    .cleaned()
}

/// The longest subject sent.
const MAX_SUBJECT: usize = 250;

impl Texts {
    /// As a customer reads them: the subject one line, the text's lines without control
    /// characters (a template written with ESC or BEL in it, a value that held them).
    fn cleaned(self) -> Texts {
        Texts {
            subject: crate::text::one_line(&self.subject, MAX_SUBJECT),
            body: crate::text::plain_lines(&self.body),
        }
    }
}

/// The largest template file read.
const MAX_TEMPLATE_BYTES: u64 = 64 * 1024;

/// The texts of `kind` in `lang` filled with `fill`: from the clerk's file in `dir` when
/// there is one, else the built-in template.
pub fn texts(
    kind: Kind,
    lang: Lang,
    fill: &Fill,
    dir: Option<&Path>,
) -> Result<Texts, TemplateError> {
    let Some(path) = dir
        .map(|d| template_path(d, kind, lang))
        .filter(|p| p.is_file())
    else {
        return Ok(builtin(kind, lang, fill));
    };
    use std::io::Read;
    let bad = |why: String| TemplateError::Unreadable(path.clone(), why);
    let mut bytes = Vec::new();
    std::fs::File::open(&path)
        .and_then(|f| f.take(MAX_TEMPLATE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| bad(e.to_string()))?;
    if bytes.len() as u64 > MAX_TEMPLATE_BYTES {
        return Err(bad("larger than 64 KB".into()));
    }
    let text = String::from_utf8(bytes).map_err(|_| bad("not UTF-8 text".into()))?;
    let text = text.trim_start_matches('\u{feff}').replace("\r\n", "\n");
    let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let subject = ["Subject:", "Asunto:"]
        .iter()
        .find_map(|w| first.strip_prefix(w))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| TemplateError::NoSubject(path.clone()))?;
    let Some(body) = rest
        .strip_prefix('\n')
        .or_else(|| rest.is_empty().then_some(""))
    else {
        return Err(TemplateError::NoSubject(path.clone()));
    };
    Ok(Texts {
        subject: fill_in(subject, fill, &path)?,
        body: fill_in(body.trim_end(), fill, &path)?,
    }
    .cleaned())
}

/// `{name}` replaced by its value; `{{` and `}}` are braces.
fn fill_in(text: &str, fill: &Fill, path: &Path) -> Result<String, TemplateError> {
    let pairs = fill.pairs();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        let Some(end) = tail.find('}').filter(|_| tail.starts_with('{')) else {
            out.push_str(&tail[..1]);
            rest = &tail[1..];
            continue;
        };
        let name = tail[1..end].trim();
        match pairs.iter().find(|(k, _)| *k == name) {
            Some((_, v)) => out.push_str(v),
            None => {
                return Err(TemplateError::UnknownPlaceholder(
                    path.to_path_buf(),
                    name.into(),
                ));
            }
        }
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// What a key for one address of an e-mail adds to the e-mail's own key.
pub const TO_ONE: &str = "#to:";

/// One e-mail to send.
#[derive(Clone, Debug)]
pub struct Draft {
    /// Which.
    pub kind: Kind,
    /// The customer's id.
    pub customer: String,
    /// What it is about: the invoice's id, or the month (`2026-11`) of a statement or
    /// a reminder. With the kind and the customer, the key it is sent once under.
    pub document: String,
    /// The customer's addresses (checked).
    pub to: Vec<Address>,
    /// Subject and text.
    pub texts: Texts,
    /// The PDF, and a long statement's workbook.
    pub attachments: Vec<Attachment>,
    /// Sent again to this one address, which the server refused when the others took it
    /// (`to` holds only it): claimed under a key of its own, `…#to:<address>`.
    pub again_to: Option<String>,
}

impl Draft {
    /// The key the journal claims: `statement:cus_1:2026-11` (for one address the
    /// server refused before: `statement:cus_1:2026-11#to:malo@cliente.cl`).
    pub fn key(&self) -> String {
        match &self.again_to {
            Some(a) => format!("{}{TO_ONE}{a}", self.whole_key()),
            None => self.whole_key(),
        }
    }

    /// The key of the e-mail as a whole, whatever address it goes to now.
    pub fn whole_key(&self) -> String {
        format!("{}:{}:{}", self.kind.as_str(), self.customer, self.document)
    }

    /// The message as lettre formats it; `message_id` names this send (a receiving
    /// system sees one id per claim).
    pub fn message(
        &self,
        settings: &crate::profile::mail::Checked,
        message_id: &str,
    ) -> Result<lettre::Message, String> {
        let mut b = lettre::Message::builder()
            .from(settings.from.clone())
            .subject(self.texts.subject.clone())
            .message_id(Some(message_id.to_string()));
        if let Some(r) = &settings.reply_to {
            b = b.reply_to(r.clone());
        }
        for to in &self.to {
            b = b.to(Mailbox::new(None, to.clone()));
        }
        if let Some(c) = &settings.copy_to {
            b = b.bcc(Mailbox::new(None, c.clone()));
        }
        let text = SinglePart::builder()
            .header(header::ContentType::TEXT_PLAIN)
            .body(self.texts.body.clone());
        let m = if self.attachments.is_empty() {
            b.singlepart(text)
        } else {
            let mut parts = MultiPart::mixed().singlepart(text);
            for a in &self.attachments {
                let kind =
                    header::ContentType::parse(a.content_type()).map_err(|e| e.to_string())?;
                parts = parts
                    .singlepart(MimeAttachment::new(a.name.clone()).body(a.bytes.clone(), kind));
            }
            b.multipart(parts)
        };
        m.map_err(|e| e.to_string())
    }
}

/// What an e-mail entry of the journal was about, as a clerk reads it, from the key it
/// was sent once under (`invoice:cus_1:in_9` → "Invoice in_9"); the key itself when it
/// is not one.
pub fn key_words_in(lang: crate::i18n::Lang, key: &str) -> String {
    use crate::tr_in;
    let mut parts = key.splitn(3, ':');
    let (Some(kind), Some(_customer), Some(document)) = (parts.next(), parts.next(), parts.next())
    else {
        return key.to_string();
    };
    match Kind::parse(kind) {
        Some(Kind::Invoice) => tr_in!(lang, "act-email-invoice", id = document),
        Some(Kind::Statement) => tr_in!(lang, "act-email-statement", month = document),
        Some(Kind::Reminder(days)) => {
            tr_in!(lang, "act-email-reminder", days = days, month = document)
        }
        None => key.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill() -> Fill {
        Fill {
            customer: "Comercial Los Andes SpA".into(),
            organization: "ACME".into(),
            date: "26-11-2026".into(),
            owed: "$1.234.567".into(),
            days: "45".into(),
            ..Fill::default()
        }
    }

    /// #66 (9): a person is written to as one ("Estimado o estimada", "usted"), a company
    /// as its people ("Estimados", "ustedes"), in every built-in text.
    #[test]
    fn a_person_is_written_to_as_one() {
        for kind in Kind::all() {
            let company = builtin(kind, Lang::Es, &fill()).body;
            assert!(company.starts_with("Estimados Comercial"), "{company}");
            let person = Fill {
                customer: "José Muñoz Pérez".into(),
                person: true,
                ..fill()
            };
            let one = builtin(kind, Lang::Es, &person).body;
            assert!(
                one.starts_with("Estimado o estimada José Muñoz Pérez:"),
                "{one}"
            );
            for plural in [
                "ustedes",
                "Estimados",
                "les ",
                "Les ",
                "pueden",
                "realizaron",
            ] {
                assert!(!one.contains(plural), "{plural}: {one}");
            }
            assert!(one.to_lowercase().contains("puede responder"), "{one}");
        }
    }

    #[test]
    fn kinds_and_reminder_steps() {
        for k in Kind::all() {
            assert_eq!(Kind::parse(&k.as_str()), Some(k));
        }
        assert_eq!(Kind::parse("reminder-45"), None);
        assert_eq!(Kind::reminder_for(29), None);
        assert_eq!(Kind::reminder_for(30), Some(Kind::Reminder(30)));
        assert_eq!(Kind::reminder_for(75), Some(Kind::Reminder(60)));
        assert_eq!(Kind::reminder_for(400), Some(Kind::Reminder(90)));
    }

    #[test]
    fn built_in_texts_are_in_the_language_asked_and_filled() {
        for k in Kind::all() {
            let es = texts(k, Lang::Es, &fill(), None).unwrap();
            let en = texts(k, Lang::En, &fill(), None).unwrap();
            assert_ne!(es.subject, en.subject, "{k:?}");
            assert!(
                !es.subject.contains('{') && !es.body.contains('{'),
                "{es:?}"
            );
            assert!(es.body.contains("ACME"), "{k:?}: {}", es.body);
        }
        let t = texts(Kind::Statement, Lang::Es, &fill(), None).unwrap();
        assert!(t.subject.contains("Estado de cuenta"), "{}", t.subject);
        assert!(t.body.contains("Comercial Los Andes SpA"));
    }

    #[test]
    fn a_clerks_template_is_used_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        // The built-in template, written out, reads back to the same texts.
        for k in Kind::all() {
            std::fs::write(
                template_path(dir.path(), k, Lang::Es),
                default_template(k, Lang::Es),
            )
            .unwrap();
            assert_eq!(
                texts(k, Lang::Es, &fill(), Some(dir.path())).unwrap(),
                texts(k, Lang::Es, &fill(), None).unwrap(),
                "{k:?}"
            );
        }
        let p = template_path(dir.path(), Kind::Statement, Lang::Es);
        std::fs::write(&p, "Asunto: Hola {customer}\n\nDebe {owed} {{nota}}.\n").unwrap();
        let t = texts(Kind::Statement, Lang::Es, &fill(), Some(dir.path())).unwrap();
        assert_eq!(t.subject, "Hola Comercial Los Andes SpA");
        assert_eq!(t.body, "Debe $1.234.567 {nota}.");
        std::fs::write(&p, "Asunto: Hola {cliente}\n\nx").unwrap();
        assert!(matches!(
            texts(Kind::Statement, Lang::Es, &fill(), Some(dir.path())),
            Err(TemplateError::UnknownPlaceholder(_, n)) if n == "cliente"
        ));
        std::fs::write(&p, "Hola\n\nx").unwrap();
        assert!(matches!(
            texts(Kind::Statement, Lang::Es, &fill(), Some(dir.path())),
            Err(TemplateError::NoSubject(_))
        ));
    }

    #[test]
    fn an_emails_key_reads_as_what_it_was_about() {
        for (key, en, es) in [
            ("invoice:cus_1:in_9", "Invoice in_9", "Factura in_9"),
            (
                "statement:cus_1:2026-11",
                "Statement of 2026-11",
                "Estado de cuenta de 2026-11",
            ),
            (
                "reminder-30:cus_1:2026-11",
                "Reminder, 30 days overdue (2026-11)",
                "Recordatorio, 30 días de atraso (2026-11)",
            ),
            ("odd", "odd", "odd"),
            ("letter:cus_1:x", "letter:cus_1:x", "letter:cus_1:x"),
        ] {
            assert_eq!(key_words_in(crate::i18n::Lang::En, key), en);
            assert_eq!(key_words_in(crate::i18n::Lang::Es, key), es);
        }
    }
}
