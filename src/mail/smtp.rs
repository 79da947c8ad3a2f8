//! One delivery, step by step with lettre's connection (not its transport's `send`):
//! what the server said is read by stage, because what may be concluded differs. Until
//! the message's end is sent the server holds nothing (a refusal or a lost connection
//! then means "not sent"); after it, only the server's answer says "sent" or "refused",
//! and no answer means nobody knows.

use crate::profile::mail::{Checked, Security};
use lettre::Address;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{AsyncSmtpConnection, Certificate, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail, Rcpt, Rset};
use lettre::transport::smtp::extension::ClientId;
use secrecy::{ExposeSecret, SecretString};
use std::time::Duration;

/// How one delivery ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// The server took it (its answer); `refused`: recipients it would not take (address,
    /// answer), the message went to the others.
    Accepted {
        /// The server's answer to the message's end (`250 2.0.0 Ok: queued as …`).
        reply: String,
        /// Recipients refused one by one.
        refused: Vec<(String, String)>,
    },
    /// Refused for good (5xx), or every recipient was: nothing was delivered.
    Refused {
        /// The server's answer.
        reply: String,
        /// Recipients refused one by one.
        refused: Vec<(String, String)>,
    },
    /// Nothing delivered, and it may work later: a temporary refusal (4xx), or the
    /// server not reached or lost before the message's end was sent.
    Later {
        /// The server's answer, or what went wrong.
        reply: String,
        /// Whether it was refused after the content was handed over (then the journal
        /// holds a claim for it, settled as refused by the caller).
        after_claim: bool,
    },
    /// The connection could not be made usable: TLS, no STARTTLS offered, the login
    /// refused. The same for every e-mail: the run stops.
    Setup {
        /// What went wrong.
        why: String,
    },
    /// The caller's claim said not to send it (or could not be recorded): nothing sent.
    NotClaimed,
    /// The message's end was sent and no answer came: the server may have it.
    Unknown {
        /// What went wrong.
        why: String,
    },
}

/// What a delivery is asked to do.
pub struct Envelope2<'a> {
    /// The customer's addresses.
    pub to: &'a [Address],
    /// The desk's blind copy (its refusal is said, never counted as the customer's).
    pub copy_to: Option<&'a Address>,
    /// The message, formatted.
    pub bytes: &'a [u8],
}

/// The mail server of one profile, checked, with its password.
pub struct Mailer {
    settings: Checked,
    password: Option<SecretString>,
    tls: Option<TlsParameters>,
    /// How long one step (connect, a command, the content) may take.
    pub step_timeout: Duration,
}

/// How long a step may take unless the caller says (the server's answer to the content
/// may take a while: it is written to its queue first).
pub const STEP_TIMEOUT: Duration = Duration::from_secs(60);

impl Mailer {
    /// A mailer for `settings`; `password` when the server wants a login.
    pub fn new(settings: Checked, password: Option<SecretString>) -> Result<Mailer, String> {
        let tls = match settings.security {
            Security::None => None,
            _ => {
                let mut b = TlsParameters::builder(settings.server.clone());
                if let Some(pem) = &settings.ca_pem {
                    b = b.add_root_certificate(
                        Certificate::from_pem(pem).map_err(|e| e.to_string())?,
                    );
                }
                Some(b.build_rustls().map_err(|e| e.to_string())?)
            }
        };
        Ok(Mailer {
            settings,
            password,
            tls,
            step_timeout: STEP_TIMEOUT,
        })
    }

    /// The settings it sends with.
    pub fn settings(&self) -> &Checked {
        &self.settings
    }

    /// Connects, secures and logs in.
    async fn open(&self) -> Result<AsyncSmtpConnection, Delivery> {
        let hello = ClientId::default();
        let s = &self.settings;
        let implicit = (s.security == Security::Tls)
            .then(|| self.tls.clone())
            .flatten();
        let connect = AsyncSmtpConnection::connect_tokio1(
            (s.server.as_str(), s.port),
            Some(self.step_timeout),
            &hello,
            implicit,
            None,
        );
        let mut conn = match tokio::time::timeout(self.step_timeout, connect).await {
            Ok(Ok(c)) => c,
            // A certificate not trusted, or a greeting that refuses us: every e-mail alike.
            Ok(Err(e)) if e.is_tls() || e.is_permanent() => {
                return Err(Delivery::Setup { why: said(&e) });
            }
            // TLS asked of a port that answers in plain text (rustls reads the greeting
            // as a broken record): every e-mail alike, not "later".
            Ok(Err(e)) if s.security == Security::Tls && tls_refused(&e) => {
                return Err(Delivery::Setup {
                    why: crate::i18n::text_args(
                        "mail-no-tls-here",
                        &[("port", s.port.to_string()), ("why", said(&e))],
                    ),
                });
            }
            Ok(Err(e)) => {
                return Err(Delivery::Later {
                    reply: said(&e),
                    after_claim: false,
                });
            }
            Err(_) => {
                return Err(Delivery::Later {
                    reply: no_answer(self.step_timeout),
                    after_claim: false,
                });
            }
        };
        if s.security == Security::StartTls {
            if !conn.can_starttls() {
                conn.abort().await;
                return Err(Delivery::Setup {
                    why: crate::i18n::text("mail-why-no-starttls"),
                });
            }
            let tls = self.tls.clone().ok_or_else(|| Delivery::Setup {
                why: crate::i18n::text("mail-why-no-starttls"),
            })?;
            if let Err(e) = self.step(conn.starttls(tls, &hello)).await {
                // Not `abort`: a failed upgrade leaves lettre's connection without a
                // stream, and its QUIT would panic. Dropped, the socket closes.
                return Err(Delivery::Setup { why: e });
            }
        }
        if let Some(user) = &s.user {
            let Some(pw) = &self.password else {
                conn.abort().await;
                return Err(Delivery::Setup {
                    why: crate::i18n::text("mail-why-no-password"),
                });
            };
            let creds = Credentials::new(user.clone(), pw.expose_secret().to_string());
            let auth = conn.auth(&[Mechanism::Plain, Mechanism::Login], &creds);
            if let Err(e) = self.step(auth).await {
                conn.abort().await;
                return Err(Delivery::Setup { why: e });
            }
        }
        Ok(conn)
    }

    /// A step under [`Mailer::step_timeout`]; its error as text (lettre's, which names
    /// the server's code and words, never our password).
    async fn step<T>(
        &self,
        f: impl std::future::Future<Output = Result<T, lettre::transport::smtp::Error>>,
    ) -> Result<T, String> {
        match tokio::time::timeout(self.step_timeout, f).await {
            Ok(Ok(t)) => Ok(t),
            Ok(Err(e)) => Err(said(&e)),
            Err(_) => Err(no_answer(self.step_timeout)),
        }
    }

    /// Delivers one message: connect, sender, each recipient, then `ready` is asked
    /// (with the recipients the server took) right before the content is handed over
    /// — the journal's claim; `false` and nothing is sent.
    pub async fn deliver(
        &self,
        what: &Envelope2<'_>,
        ready: impl AsyncFnOnce(&[String]) -> bool,
    ) -> Delivery {
        let mut conn = match self.open().await {
            Ok(c) => c,
            Err(d) => return d,
        };
        let d = self.deliver_on(&mut conn, what, ready).await;
        // After DATA with no content (not claimed) or a content without an answer, the
        // server is not listening for commands: the connection is dropped, which ends
        // the transaction without a message (a QUIT would be read as content).
        if !matches!(d, Delivery::Unknown { .. } | Delivery::NotClaimed) {
            let _ = tokio::time::timeout(Duration::from_secs(5), conn.quit()).await;
        }
        d
    }

    async fn deliver_on(
        &self,
        conn: &mut AsyncSmtpConnection,
        what: &Envelope2<'_>,
        ready: impl AsyncFnOnce(&[String]) -> bool,
    ) -> Delivery {
        let later = |reply: String| Delivery::Later {
            reply,
            after_claim: false,
        };
        let from = self.settings.from.email.clone();
        let mut params = Vec::new();
        if !what.bytes.is_ascii() {
            params.push(lettre::transport::smtp::extension::MailParameter::Body(
                lettre::transport::smtp::extension::MailBodyParameter::EightBitMime,
            ));
        }
        if let Err(e) = self.command(conn, Mail::new(Some(from), params)).await {
            return refusal(e, Vec::new());
        }
        let mut taken: Vec<String> = Vec::new();
        let mut refused: Vec<(String, String)> = Vec::new();
        let mut temporary: Option<String> = None;
        for to in what.to.iter().chain(what.copy_to) {
            match self.command(conn, Rcpt::new(to.clone(), vec![])).await {
                Ok(_) => taken.push(to.to_string()),
                Err(Refusal::Permanent(r)) => refused.push((to.to_string(), r)),
                Err(Refusal::Temporary(r)) => temporary = Some(r),
                Err(Refusal::Lost(r)) => return later(r),
            }
        }
        let customers_taken = taken
            .iter()
            .filter(|t| what.copy_to.is_none_or(|c| c.to_string() != **t))
            .count();
        if customers_taken == 0 {
            let _ = self.command(conn, Rset).await;
            return match temporary {
                Some(r) => later(r),
                None => Delivery::Refused {
                    reply: refused.first().map(|r| r.1.clone()).unwrap_or_default(),
                    refused,
                },
            };
        }
        if let Some(r) = temporary {
            // One of the customer's addresses said "later": all of them later, together.
            let _ = self.command(conn, Rset).await;
            return later(r);
        }
        if let Err(e) = self.command(conn, Data).await {
            return refusal(e, refused);
        }
        if !ready(&taken).await {
            // The content was never sent: dropping the connection (by the caller) ends
            // the transaction without a message.
            return Delivery::NotClaimed;
        }
        match tokio::time::timeout(self.step_timeout, conn.message(what.bytes)).await {
            Ok(Ok(r)) => Delivery::Accepted {
                reply: answer(r.code(), r.message()),
                refused,
            },
            Ok(Err(e)) if e.is_permanent() => Delivery::Refused {
                reply: said(&e),
                refused,
            },
            Ok(Err(e)) if e.is_transient() => Delivery::Later {
                reply: said(&e),
                after_claim: true,
            },
            Ok(Err(e)) => Delivery::Unknown { why: said(&e) },
            Err(_) => Delivery::Unknown {
                why: no_answer(self.step_timeout),
            },
        }
    }

    async fn command(
        &self,
        conn: &mut AsyncSmtpConnection,
        c: impl std::fmt::Display,
    ) -> Result<(), Refusal> {
        match tokio::time::timeout(self.step_timeout, conn.command(c)).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) if e.is_permanent() => Err(Refusal::Permanent(said(&e))),
            Ok(Err(e)) if e.is_transient() => Err(Refusal::Temporary(said(&e))),
            Ok(Err(e)) => Err(Refusal::Lost(said(&e))),
            Err(_) => Err(Refusal::Lost(no_answer(self.step_timeout))),
        }
    }
}

/// A command's refusal before any content was sent.
enum Refusal {
    Permanent(String),
    Temporary(String),
    Lost(String),
}

fn refusal(r: Refusal, refused: Vec<(String, String)>) -> Delivery {
    match r {
        Refusal::Permanent(reply) => Delivery::Refused { reply, refused },
        Refusal::Temporary(reply) | Refusal::Lost(reply) => Delivery::Later {
            reply,
            after_claim: false,
        },
    }
}

/// An answer as kept: its code and first line, control characters escaped, at most
/// 200 characters.
fn answer<'a>(
    code: lettre::transport::smtp::response::Code,
    lines: impl Iterator<Item = &'a str>,
) -> String {
    let first = lines.into_iter().next().unwrap_or("");
    short(&format!("{code} {first}"))
}

/// An error as kept: a server's refusal as it said it (`550 5.1.1 <a@b.cl>: …`),
/// anything else in lettre's words.
/// Whether rustls refused what the server sent (a plain-text greeting read as TLS, a
/// handshake it would not finish): read by type through the error's sources.
fn tls_refused(e: &lettre::transport::smtp::Error) -> bool {
    std::error::Error::source(e)
        .and_then(crate::api::http::tls_error)
        .is_some()
}

fn said(e: &lettre::transport::smtp::Error) -> String {
    use std::error::Error as _;
    if let (Some(code), Some(words)) = (e.status(), e.source()) {
        // The server's own words, quoted as they came (escaped, cut).
        return crate::i18n::text_args(
            "mail-server-words",
            &[("words", short(&format!("{code} {words}")))],
        );
    }
    // Anything else in the reader's words, never lettre's English.
    let mut io = None;
    let mut source = e.source();
    while let Some(s) = source {
        if let Some(i) = s.downcast_ref::<std::io::Error>() {
            io = Some(i.kind());
            break;
        }
        source = s.source();
    }
    use std::io::ErrorKind as K;
    let key = if e.is_timeout() {
        "mail-why-timeout"
    } else if e.is_tls() || tls_refused(e) {
        "mail-why-tls"
    } else if e.is_response() {
        "mail-why-garbled"
    } else {
        match io {
            Some(K::ConnectionRefused) => "mail-why-refused-connection",
            Some(K::ConnectionReset | K::ConnectionAborted | K::BrokenPipe | K::UnexpectedEof) => {
                "mail-why-cut"
            }
            _ => "mail-why-connection",
        }
    };
    crate::i18n::text(key)
}

/// No answer within a step's time limit, in words.
fn no_answer(limit: Duration) -> String {
    crate::i18n::text_args(
        "mail-why-no-answer",
        &[("secs", limit.as_secs().to_string())],
    )
}

fn short(text: &str) -> String {
    crate::text::escape_controls(text.trim())
        .chars()
        .take(200)
        .collect()
}
