//! A real PostgreSQL server for the tests (Debian's `postgresql` package): one throwaway
//! cluster per test process, in a temporary folder, on a free loopback port, with a
//! fresh database for each test. Started as the `postgres` user when the tests run as
//! root (PostgreSQL refuses root), and stopped with the test process (the server is
//! told to shut down when the thread that started it goes, which is at exit).
//!
//! Shared by the library's unit tests (`#[path]`) and the integration tests.
#![allow(dead_code)]

// Each helper module is used alone by some test crates and beside the others by more:
// each carries its own copy of the one skipping rule.
#[allow(clippy::duplicate_mod)]
#[path = "../skip/mod.rs"]
mod skip;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

/// Every role's password (scram over TCP: the password path is the real one).
pub const PASSWORD: &str = "pw-for-tests";

/// A running cluster.
pub struct Server {
    /// Its port on 127.0.0.1.
    pub port: u16,
    dir: PathBuf,
}

static OWN: AtomicU32 = AtomicU32::new(0);

static SERVER: OnceLock<Result<Server, String>> = OnceLock::new();
static NEXT: AtomicU32 = AtomicU32::new(0);

/// The test process's server, started on first use. Without PostgreSQL's programs the
/// test that asked is skipped with one loud line naming the package (`None`), unless
/// `INVOICE_DESK_TESTS_REQUIRE` names `postgres` (CI sets it): then it fails.
pub fn server() -> Option<&'static Server> {
    match SERVER.get_or_init(start) {
        Ok(s) => Some(s),
        Err(e) => unavailable(e.clone()),
    }
}

/// A server that cannot start: the test is skipped with one loud line naming the
/// package, unless `INVOICE_DESK_TESTS_REQUIRE` names `postgres` (CI), when it fails.
fn unavailable<T>(e: String) -> Option<T> {
    skip::unavailable(
        "postgres",
        &format!("PostgreSQL cannot start here ({e}; apt-get install postgresql)"),
    );
    None
}

impl Server {
    /// A new, empty database owned by a role of its own, as on a managed server (RDS,
    /// Azure, Cloud SQL): an ordinary role — no superuser, no `pg_read_all_stats` —
    /// that owns the database and nothing else. Its address, as that owner (the
    /// password is [`PASSWORD`]).
    pub fn database(&self) -> String {
        let name = format!(
            "t{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        );
        let owner = Self::owner_of(&name);
        self.psql(
            "postgres",
            &format!(
                "CREATE ROLE {owner} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE \
                 NOBYPASSRLS PASSWORD '{PASSWORD}'"
            ),
        );
        self.psql("postgres", &format!("CREATE DATABASE {name} OWNER {owner}"));
        self.url(&name)
    }

    /// The role that owns database `name` (made by [`Server::database`]).
    pub fn owner_of(name: &str) -> String {
        format!("owner_{name}")
    }

    /// The address of database `name` as its owner (an ordinary role).
    pub fn url(&self, name: &str) -> String {
        self.url_as(&Self::owner_of(name), name)
    }

    /// The address of database `name` for the role that needs no password (an ordinary
    /// role, made a member of the database's owner: it may do what the owner does).
    pub fn trusted_url(&self, name: &str) -> String {
        self.psql(
            "postgres",
            &format!("GRANT {} TO trusted", Self::owner_of(name)),
        );
        self.url_as("trusted", name)
    }

    /// The address of database `name` as `role`.
    pub fn url_as(&self, role: &str, name: &str) -> String {
        format!("postgres://{role}@127.0.0.1:{}/{name}", self.port)
    }

    /// Runs SQL as the superuser in database `db` (through psql, over the socket).
    pub fn psql(&self, db: &str, sql: &str) -> String {
        let out = self.psql_command(db, sql).output().expect("psql runs");
        assert!(
            out.status.success(),
            "psql {sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// psql as the superuser in database `db`, over the socket, running `sql`.
    fn psql_command(&self, db: &str, sql: &str) -> std::process::Command {
        let mut cmd = std::process::Command::new(bin("psql").unwrap());
        as_postgres(&mut cmd)
            .args(["-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-h"])
            .arg(&self.dir)
            .args([
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
                "-d",
                db,
                "-c",
                sql,
            ]);
        cmd
    }

    /// Holds the journal's claims in database `db` for `secs` seconds, as a colleague's
    /// transaction stalled mid-claim would: returns once the lock is held; the caller
    /// waits for the child (which ends the transaction without writing).
    pub fn hold_claims(&self, db: &str, secs: u32) -> std::process::Child {
        let sql = format!(
            "BEGIN; LOCK TABLE claims IN EXCLUSIVE MODE; SELECT pg_sleep({secs}); ROLLBACK;"
        );
        let child = self
            .psql_command(db, &sql)
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("psql runs");
        self.until(
            db,
            "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation \
             WHERE c.relname = 'claims' AND l.mode = 'ExclusiveLock' AND l.granted",
            "1",
            "the claims held",
        );
        child
    }

    /// Runs SQL in database `db` as `role` over TCP with its password `pw` (as a clerk's
    /// computer would); whether psql succeeded, and what it printed.
    pub fn psql_as(&self, role: &str, pw: &str, db: &str, sql: &str) -> (bool, String) {
        let out = std::process::Command::new(bin("psql").unwrap())
            .args(["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1"])
            .args([
                "-p",
                &self.port.to_string(),
                "-U",
                role,
                "-d",
                db,
                "-c",
                sql,
            ])
            .env("PGPASSWORD", pw)
            .output()
            .expect("psql runs");
        (
            out.status.success(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        )
    }

    /// A cluster of the caller's own (a test that stops and starts its server).
    pub fn own() -> Option<Server> {
        let n = OWN.fetch_add(1, Ordering::SeqCst);
        start_in(&format!("own{n}"), false).map_or_else(unavailable, Some)
    }

    /// A cluster of the caller's own that speaks only TLS over TCP, with a certificate
    /// for 127.0.0.1 signed by a test authority ([`Server::ca_file`]) no computer trusts.
    pub fn own_with_tls() -> Option<Server> {
        let n = OWN.fetch_add(1, Ordering::SeqCst);
        start_in(&format!("tls{n}"), true).map_or_else(unavailable, Some)
    }

    /// The certificate authority that signed a TLS server's certificate (trusted by no
    /// computer unless a test says so, with `SSL_CERT_FILE`).
    pub fn ca_file(&self) -> PathBuf {
        self.dir.with_file_name("ca.crt")
    }

    /// Stops the server (`immediate`: as a crash would), for tests of a server gone.
    pub fn stop(&self) {
        self.pg_ctl(&["stop", "-m", "immediate"]);
    }

    /// `pg_ctl ARGS -w -D <data>` as `postgres`; it must succeed.
    fn pg_ctl(&self, args: &[&str]) {
        let out = as_postgres(&mut std::process::Command::new(bin("pg_ctl").unwrap()))
            .args(args)
            .args(["-w", "-D"])
            .arg(&self.dir)
            .output()
            .expect("pg_ctl runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// A streaming standby of this server (`pg_basebackup -R -X stream`), started on a
    /// port of its own: read-only until [`Server::promote`]d. Roles and databases are
    /// the primary's.
    pub fn standby(&self) -> Server {
        let n = OWN.fetch_add(1, Ordering::SeqCst);
        let root = self
            .dir
            .parent()
            .unwrap()
            .with_file_name(format!("invoice-desk-pg-{}-standby{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        if is_root() {
            let (uid, gid) = postgres_ids().unwrap();
            std::os::unix::fs::chown(&root, Some(uid), Some(gid)).unwrap();
        }
        let dir = root.join("data");
        let out = as_postgres(&mut std::process::Command::new(
            bin("pg_basebackup").unwrap(),
        ))
        .arg("-D")
        .arg(&dir)
        .args(["-R", "-X", "stream", "--checkpoint=fast", "-h"])
        .arg(&self.dir)
        .args(["-p", &self.port.to_string(), "-U", "postgres"])
        .output()
        .expect("pg_basebackup runs");
        assert!(
            out.status.success(),
            "pg_basebackup: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let port = free_port().unwrap();
        spawn_postgres(&dir, port, &root.join("log")).expect("the standby starts");
        wait_ready(&dir, port).expect("the standby answers");
        Server { port, dir }
    }

    /// Makes every commit on this server wait until a standby has it
    /// (`synchronous_standby_names = '*'`), once one streams in sync.
    pub fn synchronous(&self) {
        self.psql(
            "postgres",
            "ALTER SYSTEM SET synchronous_standby_names = '*'",
        );
        self.psql("postgres", "SELECT pg_reload_conf()");
        self.until(
            "postgres",
            "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'",
            "1",
            "a standby in sync",
        );
    }

    /// A standby takes over as the primary (`pg_ctl promote`), and writes are taken.
    pub fn promote(&self) {
        self.pg_ctl(&["promote"]);
        self.until(
            "postgres",
            "SELECT pg_is_in_recovery()",
            "f",
            "the standby taking writes",
        );
    }

    /// Waits (at most a minute) until `sql` in database `db` answers `want`.
    pub fn until(&self, db: &str, sql: &str, want: &str, what: &str) {
        let started = std::time::Instant::now();
        while self.psql(db, sql) != want {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(60),
                "never came: {what}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Starts it again after [`Server::stop`], on the same port and data.
    pub fn restart(&self) {
        spawn_postgres(&self.dir, self.port, &self.dir.with_file_name("log2"))
            .expect("postgres starts again");
        wait_ready(&self.dir, self.port).expect("postgres answers again");
    }
}

/// A PostgreSQL program, from Debian's versioned folder (the newest) or the PATH.
fn bin(name: &str) -> Result<PathBuf, String> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|d| d.flatten().map(|e| e.path().join("bin")).collect())
        .unwrap_or_default();
    versions.sort();
    if let Some(b) = versions
        .iter()
        .rev()
        .map(|d| d.join(name))
        .find(|p| p.exists())
    {
        return Ok(b);
    }
    std::env::var_os("PATH")
        .and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join(name))
                .find(|p| p.exists())
        })
        .ok_or_else(|| format!("{name} not found (install the postgresql package)"))
}

/// Whether the tests run as root (then PostgreSQL runs as `postgres`).
fn is_root() -> bool {
    // SAFETY: getuid has no preconditions.
    unsafe { libc::getuid() == 0 }
}

/// The `postgres` user's ids.
fn postgres_ids() -> Option<(libc::uid_t, libc::gid_t)> {
    let name = std::ffi::CString::new("postgres").ok()?;
    // SAFETY: getpwnam reads a static record; copied out at once.
    let pw = unsafe { libc::getpwnam(name.as_ptr()) };
    if pw.is_null() {
        return None;
    }
    // SAFETY: checked non-null just above.
    unsafe { Some(((*pw).pw_uid, (*pw).pw_gid)) }
}

/// `cmd`, run as `postgres` when we are root.
fn as_postgres(cmd: &mut std::process::Command) -> &mut std::process::Command {
    use std::os::unix::process::CommandExt;
    if is_root()
        && let Some((uid, gid)) = postgres_ids()
    {
        cmd.uid(uid).gid(gid);
        // A folder postgres may enter, whatever the caller's.
        cmd.current_dir("/");
    }
    cmd
}

fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| e.to_string())
}

/// Folders of earlier test runs whose server has stopped (no `postmaster.pid`).
fn sweep(root: &Path) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Some(rest) = name.strip_prefix("invoice-desk-pg-") else {
            continue;
        };
        // Only a finished test process's folder, whose server has stopped.
        let pid = rest.split('-').next().unwrap_or("");
        let alive = Path::new("/proc").join(pid).exists();
        if !alive && !p.join("data").join("postmaster.pid").exists() {
            let _ = std::fs::remove_dir_all(&p);
        }
    }
}

fn start() -> Result<Server, String> {
    start_in("main", false)
}

fn start_in(name: &str, tls: bool) -> Result<Server, String> {
    let initdb = bin("initdb")?;
    let tmp = std::env::temp_dir();
    if name == "main" {
        sweep(&tmp);
    }
    let root = tmp.join(format!("invoice-desk-pg-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).map_err(|e| e.to_string())?;
    let dir = root.join("data");
    let pwfile = root.join("pw");
    std::fs::write(&pwfile, PASSWORD).map_err(|e| e.to_string())?;
    if is_root() {
        let (uid, gid) = postgres_ids().ok_or("there is no postgres user")?;
        for p in [&root, &pwfile] {
            std::os::unix::fs::chown(p, Some(uid), Some(gid)).map_err(|e| e.to_string())?;
        }
    }
    let out = as_postgres(&mut std::process::Command::new(initdb))
        .arg("-D")
        .arg(&dir)
        .args([
            "-U",
            "postgres",
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            "-E",
            "UTF8",
            "--no-sync",
        ])
        .arg(format!("--pwfile={}", pwfile.display()))
        .output()
        .map_err(|e| format!("initdb: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "initdb failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    // The role `trusted` logs in over TCP without a password (tests that cannot hand
    // one over, such as the app's, whose password would come from the keyring).
    let hba = dir.join("pg_hba.conf");
    let rules = std::fs::read_to_string(&hba).map_err(|e| e.to_string())?;
    std::fs::write(
        &hba,
        format!("host all trusted 127.0.0.1/32 trust\n{rules}"),
    )
    .map_err(|e| e.to_string())?;
    if tls {
        // A certificate authority of the test's own (in `root`: its certificate is
        // what a test may choose to trust), and the server's certificate signed by it.
        let ext = root.join("server.ext");
        std::fs::write(
            &ext,
            "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n\
             keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n",
        )
        .map_err(|e| e.to_string())?;
        let openssl = |args: &[&std::ffi::OsStr]| -> Result<(), String> {
            let out = std::process::Command::new("openssl")
                .args(args)
                .output()
                .map_err(|e| format!("openssl: {e}"))?;
            if out.status.success() {
                Ok(())
            } else {
                Err(String::from_utf8_lossy(&out.stderr).into_owned())
            }
        };
        let os = |s: &str| std::ffi::OsString::from(s);
        let (ca_key, ca_crt) = (root.join("ca.key"), root.join("ca.crt"));
        let csr = root.join("server.csr");
        openssl(&[
            &os("req"),
            &os("-x509"),
            &os("-newkey"),
            &os("rsa:2048"),
            &os("-nodes"),
            &os("-days"),
            &os("2"),
            &os("-subj"),
            &os("/CN=invoice-desk tests CA"),
            &os("-keyout"),
            ca_key.as_os_str(),
            &os("-out"),
            ca_crt.as_os_str(),
        ])?;
        openssl(&[
            &os("req"),
            &os("-newkey"),
            &os("rsa:2048"),
            &os("-nodes"),
            &os("-subj"),
            &os("/CN=127.0.0.1"),
            &os("-keyout"),
            dir.join("server.key").as_os_str(),
            &os("-out"),
            csr.as_os_str(),
        ])?;
        openssl(&[
            &os("x509"),
            &os("-req"),
            &os("-in"),
            csr.as_os_str(),
            &os("-CA"),
            ca_crt.as_os_str(),
            &os("-CAkey"),
            ca_key.as_os_str(),
            &os("-CAcreateserial"),
            &os("-days"),
            &os("2"),
            &os("-extfile"),
            ext.as_os_str(),
            &os("-out"),
            dir.join("server.crt").as_os_str(),
        ])?;
        // Only TLS connections over TCP: a test that gets in has spoken TLS.
        let rules = std::fs::read_to_string(&hba).map_err(|e| e.to_string())?;
        let rules: String = rules
            .lines()
            .map(|l| match l.strip_prefix("host ") {
                Some(rest) => format!("hostssl {rest}\n"),
                None => format!("{l}\n"),
            })
            .collect();
        std::fs::write(&hba, rules).map_err(|e| e.to_string())?;
        use std::os::unix::fs::PermissionsExt;
        let key = dir.join("server.key");
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| e.to_string())?;
        if is_root() {
            let (uid, gid) = postgres_ids().ok_or("there is no postgres user")?;
            for f in ["server.key", "server.crt"] {
                std::os::unix::fs::chown(dir.join(f), Some(uid), Some(gid))
                    .map_err(|e| e.to_string())?;
            }
        }
        let conf = dir.join("postgresql.conf");
        let mut text = std::fs::read_to_string(&conf).map_err(|e| e.to_string())?;
        text.push_str("\nssl = on\n");
        std::fs::write(&conf, text).map_err(|e| e.to_string())?;
    }
    let port = free_port()?;
    spawn_postgres(&dir, port, &root.join("log"))?;
    wait_ready(&dir, port)?;
    let server = Server { port, dir };
    // Ordinary, as every role the journal meets: what works here works on a managed
    // server, whose owner is no superuser.
    server.psql("postgres", "CREATE ROLE trusted LOGIN NOSUPERUSER");
    Ok(server)
}

/// Starts `postgres` on `dir` from a thread that lives as long as the test process:
/// when the process ends, the server is told to shut down (a fast shutdown, SIGINT).
fn spawn_postgres(dir: &Path, port: u16, log: &Path) -> Result<(), String> {
    let postgres = bin("postgres")?;
    let (started, got) = std::sync::mpsc::channel();
    let (data, log) = (dir.to_path_buf(), log.to_path_buf());
    std::thread::Builder::new()
        .name("postgres-for-tests".into())
        .spawn(move || {
            let mut cmd = std::process::Command::new(postgres);
            as_postgres(&mut cmd)
                .arg("-D")
                .arg(&data)
                .args(["-p", &port.to_string(), "-c", "listen_addresses=127.0.0.1"])
                .arg("-c")
                .arg(format!("unix_socket_directories={}", data.display()))
                .args(["-c", "fsync=off", "-c", "max_connections=200"])
                .stdout(std::process::Stdio::null());
            if let Ok(f) = std::fs::File::create(&log) {
                cmd.stderr(f);
            }
            // SAFETY: only async-signal-safe calls between fork and exec.
            #[cfg(target_os = "linux")]
            unsafe {
                use std::os::unix::process::CommandExt;
                cmd.pre_exec(|| {
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGINT);
                    Ok(())
                });
            }
            let child = cmd.spawn();
            let _ = started.send(child.map(|c| c.id()).map_err(|e| e.to_string()));
            loop {
                std::thread::park();
            }
        })
        .map_err(|e| e.to_string())?;
    got.recv().map_err(|e| e.to_string())??;
    Ok(())
}

/// Waits until the server at `dir`/`port` answers (psql's `SELECT 1`).
fn wait_ready(dir: &Path, port: u16) -> Result<(), String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let ok = as_postgres(&mut std::process::Command::new(bin("psql")?))
            .args(["-X", "-q", "-h"])
            .arg(dir)
            .args([
                "-p",
                &port.to_string(),
                "-U",
                "postgres",
                "-d",
                "postgres",
                "-c",
                "SELECT 1",
            ])
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Ok(());
        }
        if std::time::Instant::now() > deadline {
            let log = std::fs::read_to_string(dir.with_file_name("log")).unwrap_or_default();
            return Err(format!("the server did not start: {log}"));
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}
