//! A real mail server for the tests (Debian's `postfix`): one throwaway instance per
//! test, in a temporary folder, on free loopback ports (STARTTLS on one, implicit TLS on
//! another) with a certificate for 127.0.0.1 signed by a throwaway authority
//! ([`Smtp::ca`]) no computer trusts, delivering every address to one Maildir. A few
//! addresses are refused on purpose (see [`REFUSED`], [`LATER`]).
//!
//! Postfix's master runs as root and its daemons as the `postfix` user; without root or
//! the package the tests that need it are skipped loudly (or fail where
//! INVOICE_DESK_TESTS_REQUIRE names `smtp`).
#![allow(dead_code)]

// Each helper module is used alone by some test crates and beside the others by more:
// each carries its own copy of the one skipping rule.
#[allow(clippy::duplicate_mod)]
#[path = "../skip/mod.rs"]
mod skip;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// An address the server refuses for good (550).
pub const REFUSED: &str = "nadie@rechazo.test";
/// An address the server refuses for now (451), every time.
pub const LATER: &str = "ocupado@demora.test";

/// A running instance.
pub struct Smtp {
    dir: tempfile::TempDir,
    /// A Dovecot beside it checks logins (only for [`start_with_login`]).
    dovecot: bool,
    /// STARTTLS port.
    pub starttls_port: u16,
    /// Implicit TLS port.
    pub tls_port: u16,
}

/// One message as delivered to one recipient.
#[derive(Debug)]
pub struct Delivered {
    /// The recipient it was delivered to (the envelope's, from `Delivered-To`).
    pub to: String,
    /// The raw message.
    pub raw: Vec<u8>,
}

impl Delivered {
    /// Its parsed form.
    pub fn parsed(&self) -> mailparse::ParsedMail<'_> {
        mailparse::parse_mail(&self.raw).expect("a delivered message parses")
    }

    /// Its decoded subject.
    pub fn subject(&self) -> String {
        self.parsed()
            .headers
            .iter()
            .find(|h| h.get_key().eq_ignore_ascii_case("subject"))
            .map(|h| h.get_value())
            .unwrap_or_default()
    }

    /// A header's decoded value.
    pub fn header(&self, name: &str) -> Option<String> {
        self.parsed()
            .headers
            .iter()
            .find(|h| h.get_key().eq_ignore_ascii_case(name))
            .map(|h| h.get_value())
    }

    /// The text part, decoded.
    pub fn text(&self) -> String {
        let p = self.parsed();
        let part = if p.subparts.is_empty() {
            &p
        } else {
            &p.subparts[0]
        };
        // Lines end in CRLF on the wire.
        part.get_body().expect("a text part").replace("\r\n", "\n")
    }

    /// Every attachment: its file name, content type and bytes.
    pub fn attachments(&self) -> Vec<(String, String, Vec<u8>)> {
        let p = self.parsed();
        p.subparts
            .iter()
            .skip(1)
            .map(|part| {
                let name = part
                    .get_content_disposition()
                    .params
                    .get("filename")
                    .cloned()
                    .unwrap_or_default();
                let body = part.get_body_raw().expect("the attachment decodes");
                (name, part.ctype.mimetype.clone(), body)
            })
            .collect()
    }

    /// The (first) attachment's file name and bytes, when there is one.
    pub fn attachment(&self) -> Option<(String, Vec<u8>)> {
        self.attachments()
            .into_iter()
            .next()
            .map(|(name, _, bytes)| (name, bytes))
    }
}

/// Starts an instance, or says loudly why not (`None`).
pub fn start() -> Option<Smtp> {
    can_start()?;
    Some(Smtp::start_in(None).expect("a postfix instance for the tests"))
}

/// Starts an instance that takes mail only after a login (`user`, `password`, checked
/// by a Dovecot of its own through SASL, offered only over TLS), or says why not.
pub fn start_with_login(user: &str, password: &str) -> Option<Smtp> {
    can_start()?;
    if !Path::new("/usr/sbin/dovecot").is_file() {
        return skipped("dovecot is not installed (apt-get install dovecot-core)");
    }
    Some(Smtp::start_in(Some((user, password))).expect("postfix with logins for the tests"))
}

fn can_start() -> Option<()> {
    let master = Path::new("/usr/lib/postfix/sbin/master");
    if !master.is_file() {
        skipped("postfix is not installed (apt-get install postfix)")?;
    }
    // SAFETY: getuid has no preconditions.
    if unsafe { libc::getuid() } != 0 {
        skipped("postfix's master runs as root, and the tests do not")?;
    }
    Some(())
}

fn skipped(why: &str) -> Option<Smtp> {
    skip::unavailable("smtp", why);
    None
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn run(cmd: &mut std::process::Command) {
    let out = cmd.output().expect("the program runs");
    assert!(
        out.status.success(),
        "{cmd:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn ids(user: &str) -> (u32, u32) {
    let name = std::ffi::CString::new(user).unwrap();
    // SAFETY: getpwnam reads a static record; copied out at once.
    let pw = unsafe { libc::getpwnam(name.as_ptr()) };
    assert!(!pw.is_null(), "the {user} user exists");
    // SAFETY: checked non-null just above.
    unsafe { ((*pw).pw_uid, (*pw).pw_gid) }
}

fn group(name: &str) -> u32 {
    let n = std::ffi::CString::new(name).unwrap();
    // SAFETY: getgrnam reads a static record; copied out at once.
    let gr = unsafe { libc::getgrnam(n.as_ptr()) };
    assert!(!gr.is_null(), "the {name} group exists");
    // SAFETY: checked non-null just above.
    unsafe { (*gr).gr_gid }
}

fn own(path: &Path, uid: u32, gid: u32, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::os::unix::fs::chown(path, Some(uid), Some(gid)).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

impl Smtp {
    fn start_in(login: Option<(&str, &str)>) -> Result<Smtp, String> {
        let dir = tempfile::Builder::new()
            .prefix("smtp")
            .tempdir()
            .map_err(|e| e.to_string())?;
        let d = dir.path();
        let (pf_uid, pf_gid) = ids("postfix");
        let postdrop = group("postdrop");
        // The postfix user walks to its queue and the Maildir.
        own(d, 0, 0, 0o755);
        for sub in ["conf", "queue", "queue/pid", "data", "mail"] {
            std::fs::create_dir_all(d.join(sub)).unwrap();
        }
        own(&d.join("queue"), 0, 0, 0o755);
        own(&d.join("data"), pf_uid, pf_gid, 0o700);
        own(&d.join("mail"), pf_uid, pf_gid, 0o700);
        for q in [
            "incoming", "active", "deferred", "bounce", "defer", "flush", "hold", "trace",
            "corrupt", "saved", "private",
        ] {
            let p = d.join("queue").join(q);
            std::fs::create_dir_all(&p).unwrap();
            own(&p, pf_uid, pf_gid, 0o700);
        }
        for (q, mode) in [("public", 0o710), ("maildrop", 0o730)] {
            let p = d.join("queue").join(q);
            std::fs::create_dir_all(&p).unwrap();
            own(&p, pf_uid, postdrop, mode);
        }
        // A throwaway authority and a certificate for 127.0.0.1 it signs.
        let ssl = |args: &[&str]| {
            run(std::process::Command::new("openssl")
                .args(args)
                .current_dir(d))
        };
        ssl(&[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            // Past the next month's end: a test runs a CLI on a clock moved there.
            "40",
            "-subj",
            "/CN=invoice-desk test authority",
        ]);
        ssl(&[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "key.pem",
            "-out",
            "req.csr",
            "-subj",
            "/CN=127.0.0.1",
        ]);
        std::fs::write(
            d.join("ext.cnf"),
            "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
        )
        .unwrap();
        ssl(&[
            "x509",
            "-req",
            "-in",
            "req.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "cert.pem",
            "-days",
            // Past the next month's end: a test runs a CLI on a clock moved there.
            "40",
            "-extfile",
            "ext.cnf",
        ]);
        let (starttls_port, tls_port) = (free_port(), free_port());
        let p = d.display();
        // With logins: only an authenticated client may send, and only over TLS.
        let auth = match login {
            None => String::new(),
            Some((user, password)) => {
                std::fs::create_dir_all(d.join("dovecot/run")).unwrap();
                std::fs::create_dir_all(d.join("dovecot/state")).unwrap();
                std::fs::write(
                    d.join("dovecot/users"),
                    format!("{user}:{{PLAIN}}{password}\n"),
                )
                .unwrap();
                std::fs::write(
                    d.join("dovecot/dovecot.conf"),
                    format!(
                        "protocols =
base_dir = {p}/dovecot/run
state_dir = {p}/dovecot/state
log_path = {p}/dovecot/log
ssl = no
auth_mechanisms = plain login
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {p}/dovecot/users
}}
userdb {{
  driver = static
  args = uid=postfix gid=postfix home={p}/dovecot
}}
service auth {{
  unix_listener {p}/dovecot/auth {{
    mode = 0666
  }}
}}
"
                    ),
                )
                .unwrap();
                // It goes to the background with our pipes unless they are not pipes.
                let started = std::process::Command::new("/usr/sbin/dovecot")
                    .arg("-c")
                    .arg(d.join("dovecot/dovecot.conf"))
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .status()
                    .expect("dovecot runs");
                assert!(started.success(), "dovecot did not start");
                let until = Instant::now() + Duration::from_secs(30);
                while !d.join("dovecot/auth").exists() {
                    assert!(
                        Instant::now() < until,
                        "dovecot's auth socket did not appear"
                    );
                    std::thread::sleep(Duration::from_millis(20));
                }
                format!(
                    "smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = {p}/dovecot/auth
smtpd_tls_auth_only = yes
"
                )
            }
        };
        let (relay, mynetworks) = if login.is_some() {
            ("permit_sasl_authenticated, reject", "127.0.0.2/32")
        } else {
            ("permit_mynetworks, reject", "127.0.0.0/8")
        };
        std::fs::write(
            d.join("conf/main.cf"),
            format!(
                "compatibility_level = 3.6
queue_directory = {p}/queue
data_directory = {p}/data
mail_owner = postfix
setgid_group = postdrop
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = smtp.test
mydestination =
mynetworks = {mynetworks}
relay_domains =
virtual_mailbox_domains = static:all
virtual_mailbox_base = {p}/mail
virtual_mailbox_maps = static:box/
virtual_uid_maps = static:{pf_uid}
virtual_gid_maps = static:{pf_gid}
smtpd_tls_cert_file = {p}/cert.pem
smtpd_tls_key_file = {p}/key.pem
smtpd_tls_security_level = may
smtpd_relay_restrictions = {relay}
smtpd_recipient_restrictions = check_recipient_access inline:{{ {{ {REFUSED} = 550 5.1.1 no such mailbox }}, {{ {LATER} = 451 4.3.0 mailbox busy, try later }} }}, {relay}
maillog_file = {p}/maillog
maillog_file_prefixes = {p}
smtputf8_enable = yes
message_size_limit = 20000000
{auth}"
            ),
        )
        .unwrap();
        std::fs::write(
            d.join("conf/master.cf"),
            format!(
                "127.0.0.1:{starttls_port} inet n - n - - smtpd
127.0.0.1:{tls_port} inet n - n - - smtpd -o smtpd_tls_wrappermode=yes
pickup unix n - n 60 1 pickup
cleanup unix n - n - 0 cleanup
qmgr unix n - n 300 1 qmgr
tlsmgr unix - - n 1000? 1 tlsmgr
rewrite unix - - n - - trivial-rewrite
bounce unix - - n - 0 bounce
defer unix - - n - 0 bounce
trace unix - - n - 0 bounce
verify unix - - n - 1 verify
flush unix n - n 1000? 0 flush
proxymap unix - - n - - proxymap
smtp unix - - n - - smtp
relay unix - - n - - smtp
showq unix n - n - - showq
error unix - - n - - error
retry unix - - n - - error
discard unix - - n - - discard
local unix - n n - - local
virtual unix - n n - - virtual
lmtp unix - - n - - lmtp
anvil unix - - n - 1 anvil
scache unix - - n - 1 scache
postlog unix-dgram n - n - 1 postlogd
"
            ),
        )
        .unwrap();
        run(std::process::Command::new("/usr/lib/postfix/sbin/master")
            .args(["-c"])
            .arg(d.join("conf"))
            .arg("-w"));
        let s = Smtp {
            dir,
            dovecot: login.is_some(),
            starttls_port,
            tls_port,
        };
        s.wait_listening()?;
        Ok(s)
    }

    fn wait_listening(&self) -> Result<(), String> {
        let until = Instant::now() + Duration::from_secs(30);
        for port in [self.starttls_port, self.tls_port] {
            while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
                if Instant::now() > until {
                    return Err(format!("postfix does not listen on {port}: {}", self.log()));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        Ok(())
    }

    /// The authority that signed the server's certificate.
    pub fn ca(&self) -> PathBuf {
        self.dir.path().join("ca.pem")
    }

    /// The server's log.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("maillog")).unwrap_or_default()
    }

    /// Messages in the queue not yet delivered (or deferred).
    fn queued(&self) -> usize {
        ["incoming", "active", "deferred", "maildrop", "hold"]
            .iter()
            .map(|q| count_files(&self.dir.path().join("queue").join(q)))
            .sum()
    }

    /// Every message delivered so far, once the queue is empty (waited for, up to 60 s).
    pub fn delivered(&self) -> Vec<Delivered> {
        let until = Instant::now() + Duration::from_secs(60);
        while self.queued() > 0 {
            assert!(
                Instant::now() < until,
                "postfix's queue did not drain: {}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let new = self.dir.path().join("mail/box/new");
        let mut out = Vec::new();
        for e in std::fs::read_dir(&new).into_iter().flatten().flatten() {
            let raw = std::fs::read(e.path()).unwrap();
            let to = mailparse::parse_headers(&raw)
                .ok()
                .and_then(|(h, _)| {
                    h.iter()
                        .find(|h| h.get_key().eq_ignore_ascii_case("delivered-to"))
                        .map(|h| h.get_value())
                })
                .unwrap_or_default();
            out.push(Delivered { to, raw });
        }
        out
    }

    /// How many messages are in the Maildir now (the queue not waited for).
    pub fn delivered_so_far(&self) -> usize {
        count_files(&self.dir.path().join("mail/box/new"))
    }

    /// Delivered messages to `address`.
    pub fn to(&self, address: &str) -> Vec<Delivered> {
        self.delivered()
            .into_iter()
            .filter(|d| d.to.eq_ignore_ascii_case(address))
            .collect()
    }
}

fn count_files(dir: &Path) -> usize {
    let mut n = 0;
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            n += count_files(&p);
        } else {
            n += 1;
        }
    }
    n
}

impl Drop for Smtp {
    fn drop(&mut self) {
        if self.dovecot {
            let _ = std::process::Command::new("/usr/sbin/dovecot")
                .arg("-c")
                .arg(self.dir.path().join("dovecot/dovecot.conf"))
                .arg("stop")
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status();
        }
        let pid = std::fs::read_to_string(self.dir.path().join("queue/pid/master.pid"))
            .ok()
            .and_then(|t| t.trim().parse::<i32>().ok());
        if let Some(pid) = pid {
            // SAFETY: kill has no memory preconditions; the pid is postfix's master.
            unsafe { libc::kill(pid, libc::SIGTERM) };
            let until = Instant::now() + Duration::from_secs(10);
            // SAFETY: signal 0 only asks whether the process exists.
            while unsafe { libc::kill(pid, 0) } == 0 && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}
