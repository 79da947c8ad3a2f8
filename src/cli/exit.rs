//! The command line's exit codes: this enum is their only list. The help's text is made
//! from it, and a test holds docs/cli.md to it.

/// How a command ended, as its exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Success (`find`: something found; `journal verify`: the chain is intact).
    Success = 0,
    /// The journal cannot be read or written, nothing was sent; or the program could not
    /// start (`find`: nothing found; `doctor`: a check found a problem).
    Failed = 1,
    /// Bad usage, or input refused before anything was sent.
    Usage = 2,
    /// Authentication failed (the token endpoint, or a 401/403; the keyring unreadable).
    Auth = 3,
    /// The service, the mail server or the CMF answered with an error (some not sent;
    /// `uf check`: a kept value differed).
    Refused = 4,
    /// A network failure, a timeout or an untrusted certificate (the mail server
    /// unusable).
    Network = 5,
    /// Outcome unknown: something was sent and no answer came, or the answer could not
    /// be read; check before retrying.
    Unknown = 6,
    /// The desk's policy wants another clerk's approval (asked, still waiting, or
    /// rejected): nothing was sent.
    Approval = 7,
    /// `journal verify`: an entry was changed or removed.
    Tampered = 8,
    /// Stopped by Ctrl-C (as a shell reports SIGINT).
    Interrupted = 130,
    /// The output's reader went away (`… | head`; as a shell reports SIGPIPE).
    PipeClosed = 141,
}

impl Exit {
    /// Every code, in order.
    pub const ALL: [Exit; 11] = [
        Exit::Success,
        Exit::Failed,
        Exit::Usage,
        Exit::Auth,
        Exit::Refused,
        Exit::Network,
        Exit::Unknown,
        Exit::Approval,
        Exit::Tampered,
        Exit::Interrupted,
        Exit::PipeClosed,
    ];

    /// The number the process exits with.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// What it means, for `--help` (English, as clap's help is).
    pub fn meaning(self) -> &'static str {
        match self {
            Exit::Success => "success",
            Exit::Failed => {
                "the journal cannot be read or written, nothing was sent, or the program could not start (`find`: nothing found; `doctor`: a check found a problem)"
            }
            Exit::Usage => "bad usage or input refused before sending",
            Exit::Auth => "authentication failed (token endpoint or 401/403)",
            Exit::Refused => {
                "the service, the mail server or the CMF answered with an error (`uf check`: a kept value differed)"
            }
            Exit::Network => "network failure, timeout or an untrusted certificate",
            Exit::Unknown => {
                "outcome unknown: check before retrying (sent and no answer came, or the answer could not be read)"
            }
            Exit::Approval => {
                "the desk's policy wants another clerk's approval (asked, waiting or rejected): nothing was sent"
            }
            Exit::Tampered => "`journal verify` found a changed or removed entry",
            Exit::Interrupted => "stopped by Ctrl-C",
            Exit::PipeClosed => "the output's reader went away",
        }
    }

    /// "Códigos de salida: 0 …" for the help in `lang` (English: [`Exit::help`]).
    pub fn help_in(lang: crate::i18n::Lang) -> String {
        if lang == crate::i18n::Lang::En {
            return Exit::help();
        }
        let each: Vec<String> = Exit::ALL
            .iter()
            .map(|e| {
                let key = format!("help-exit-{}", e.code());
                let said = crate::i18n::help_text(lang, &key).unwrap_or(key);
                format!("{} {said}", e.code())
            })
            .collect();
        let title = crate::i18n::help_text(lang, "help-exit-title").unwrap_or_default();
        format!("{title}: {}.", each.join("; "))
    }

    /// "Exit codes: 0 success; 1 …; …" for the help.
    pub fn help() -> String {
        let each: Vec<String> = Exit::ALL
            .iter()
            .map(|e| format!("{} {}", e.code(), e.meaning()))
            .collect();
        format!("Exit codes: {}.", each.join("; "))
    }
}
