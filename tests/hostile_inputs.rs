//! Files and destinations from the real world (and from an attacker): every hostile
//! spreadsheet (tests/hostile_files) is refused with exit 2 and a message naming the limit
//! and the file, by `bulk --dry-run`, `customers import` and the app's reader, never
//! aborting and never using more than 200 MB; destinations that are not files are never
//! replaced; nothing secret or live reaches the journal or a spreadsheet.

mod cli_env;
mod hostile_files;

use cli_env::{exits, text};
use std::process::Stdio;
#[cfg(unix)]
use std::process::{Command, Output};

/// Peak memory allowed to a child reading a hostile file.
#[cfg(unix)]
const MAX_RSS_MB: u64 = 200;

/// Runs `cmd` to its end: its output, and its peak resident memory in MB (Linux's
/// `ru_maxrss`, from `wait4` on that child alone).
#[cfg(unix)]
fn run_measured(mut cmd: Command) -> (Output, u64) {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    finish_measured(&mut child)
}

#[cfg(unix)]
#[test]
fn every_hostile_file_is_refused_clearly_with_bounded_memory() {
    let env = cli_env::Env::new(0);
    let dir = tempfile::tempdir().unwrap();
    for h in hostile_files::all(dir.path()) {
        let name = h.path.file_name().unwrap().to_string_lossy().into_owned();
        // The app's reader, in this process: an error, never an abort.
        let read = invoice_desk::sheet::read_rows(&h.path, None);
        let e = read.err().unwrap_or_else(|| panic!("{}: read", h.what));
        assert!(
            invoice_desk::i18n::sheet_error(&e).contains(h.says),
            "{}: the reader says {}",
            h.what,
            invoice_desk::i18n::sheet_error(&e)
        );
        for args in [
            vec!["bulk", h.path.to_str().unwrap(), "--dry-run"],
            vec!["customers", "import", h.path.to_str().unwrap()],
        ] {
            let mut cmd = env.oauth();
            cmd.args(&args);
            let (out, mb) = run_measured(cmd);
            exits(&out, 2);
            let said = text(&out.stderr);
            assert!(said.contains(h.says), "{} ({args:?}): {said}", h.what);
            assert!(said.contains(&name), "{}: names the file: {said}", h.what);
            assert!(
                mb <= MAX_RSS_MB,
                "{} ({args:?}): {mb} MB at the peak",
                h.what
            );
        }
    }
}

#[test]
fn a_month_within_the_limits_is_read_whole() {
    // 200,000 rows of 10 cells: the most rows a file may have, read to the end.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("grande.csv");
    let mut body = String::from("cliente,monto,moneda,vencimiento,producto,a,b,c,d,e\n");
    for i in 0..200_000 {
        body.push_str(&format!(
            "cus_{},{},,31-12-2026,prod_a,1,2,3,4,5\n",
            i % 50,
            1000 + i
        ));
    }
    std::fs::write(&p, body).unwrap();
    let read = invoice_desk::sheet::read_rows(&p, None).unwrap();
    assert_eq!(read.rows.len(), 200_001);
}

#[cfg(unix)]
#[test]
fn destinations_that_are_not_files_are_never_replaced() {
    let env = cli_env::Env::new(0);
    let dir = env.dir.path();
    let fifo = dir.join("salida.csv");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let file = dir.join("mes.csv");
    std::fs::write(&file, format!("cliente,monto\n{},1000\n", env.customer())).unwrap();
    for target in [fifo.to_str().unwrap(), "/dev/null"] {
        for args in [
            vec!["export", &env.customer(), "--out", target],
            vec!["journal", "export", "--out", target],
            vec!["bulk", file.to_str().unwrap(), "--yes", "--report", target],
        ] {
            let out = env.oauth().args(&args).output().unwrap();
            exits(&out, 2);
            assert!(
                text(&out.stderr).contains("not a regular file"),
                "{args:?}: {}",
                text(&out.stderr)
            );
        }
    }
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(
        std::os::unix::fs::FileTypeExt::is_fifo(&kind),
        "still a FIFO"
    );
    assert_eq!(
        env.s.counters().api.get("create").copied().unwrap_or(0),
        0,
        "nothing sent"
    );
}

#[test]
fn a_report_that_cannot_be_written_stops_the_run_before_anything_is_sent() {
    let env = cli_env::Env::new(0);
    let file = env.dir.path().join("mes.csv");
    std::fs::write(&file, format!("cliente,monto\n{},1000\n", env.customer())).unwrap();
    let missing = env.dir.path().join("no-existe").join("informe.csv");
    let out = env
        .oauth()
        .args([
            "bulk",
            file.to_str().unwrap(),
            "--yes",
            "--report",
            missing.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    exits(&out, 2);
    assert!(text(&out.stderr).contains("does not exist"), "{out:?}");
    assert_eq!(env.s.counters().api.get("create").copied().unwrap_or(0), 0);
}

#[test]
fn two_hundred_thousand_invalid_rows_are_reported_one_line_each() {
    let env = cli_env::Env::new(0);
    let file = env.dir.path().join("malo.csv");
    let mut body = String::from("cliente,monto\n");
    for i in 0..200_000 {
        body.push_str(&format!("{},-{i}\n", env.customer()));
    }
    std::fs::write(&file, body).unwrap();
    let report = env.dir.path().join("informe.csv");
    let out = env
        .oauth()
        .args([
            "bulk",
            file.to_str().unwrap(),
            "--yes",
            "--skip-invalid",
            "--report",
            report.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    exits(&out, 0);
    let written = std::fs::read_to_string(&report).unwrap();
    assert_eq!(written.lines().count(), 200_001);
    assert_eq!(written.matches(",skipped_invalid,").count(), 200_000);
}

#[test]
fn oversized_text_is_refused_before_it_is_journaled_or_sent() {
    let env = cli_env::Env::new(0);
    // (A single argument may not pass 128 KB on Linux.)
    let long = "R".repeat(100 * 1024);
    let out = env
        .oauth()
        .args([
            "create",
            "--customer",
            &env.customer(),
            "--amount",
            "1000",
            "--external-id",
            &long,
        ])
        .output()
        .unwrap();
    exits(&out, 2);
    assert!(text(&out.stderr).contains("255 characters"), "{out:?}");
    // 300 metadata fields of 250 characters: each allowed, together too much.
    let mut args: Vec<String> = ["create", "--customer", &env.customer(), "--amount", "1000"]
        .map(str::to_string)
        .to_vec();
    for i in 0..300 {
        args.push("--field".into());
        args.push(format!("metadata.k{i}={}", "n".repeat(250)));
    }
    let out = env.oauth().args(&args).output().unwrap();
    exits(&out, 2);
    assert!(text(&out.stderr).contains("64 KB"), "{out:?}");
    let out = env
        .oauth()
        .args(["void", "--yes", &"i".repeat(300)])
        .output()
        .unwrap();
    exits(&out, 2);
    // Nothing reached the journal, nothing the service.
    let listed = env
        .oauth()
        .args(["journal", "list", "--json"])
        .output()
        .unwrap();
    assert!(text(&listed.stdout).trim().is_empty(), "{listed:?}");
    assert!(!env.s.counters().api.contains_key("create"));
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    let env = cli_env::Env::new(20_000);
    let file = env.dir.path().join("mes.csv");
    let mut body = String::from("cliente,monto\n");
    for i in 0..20_000 {
        body.push_str(&format!("{},{}\n", env.customer(), 1000 + i));
    }
    std::fs::write(&file, body).unwrap();
    for args in [
        vec!["bulk", file.to_str().unwrap(), "--dry-run"],
        vec!["list", "cus_big"],
    ] {
        let mut child = env
            .oauth()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader reads nothing and goes away, like `| head -0`.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let said = text(&out.stderr);
        assert!(!said.contains("panicked"), "{args:?}: {said}");
        assert!(
            matches!(out.status.code(), Some(0 | 141)),
            "{args:?}: {out:?}"
        );
    }
}

#[test]
fn a_journal_that_keeps_nothing_is_refused() {
    let env = cli_env::Env::new(0);
    for path in [":memory:", "file:x?mode=memory", "file::memory:"] {
        let out = env
            .oauth()
            .env("INVOICE_DESK_JOURNAL", path)
            .args(["create", "--customer", &env.customer(), "--amount", "1000"])
            .output()
            .unwrap();
        exits(&out, 1);
        assert!(text(&out.stderr).contains("not a file on disk"), "{out:?}");
    }
    assert!(!env.s.counters().api.contains_key("create"));
}

#[test]
fn processes_opening_a_new_journal_at_once_all_wait_their_turn() {
    let env = cli_env::Env::new(0);
    let journal = env.dir.path().join("nuevo").join("journal.sqlite3");
    let children: Vec<_> = (0..6)
        .map(|_| {
            env.oauth()
                .env("INVOICE_DESK_JOURNAL", &journal)
                .args(["journal", "list"])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        exits(&out, 0);
    }
}

#[test]
fn a_truncated_journal_is_damage_and_verify_says_so() {
    let env = cli_env::Env::new(0);
    for i in 0..30 {
        let out = env
            .oauth()
            .args([
                "create",
                "--customer",
                &env.customer(),
                "--amount",
                &format!("{}", 1000 + i),
            ])
            .output()
            .unwrap();
        exits(&out, 0);
    }
    let journal = env.dir.path().join("journal.sqlite3");
    // Everything in the main file, then cut it.
    {
        let c = rusqlite::Connection::open(&journal).unwrap();
        c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .unwrap();
    }
    let len = std::fs::metadata(&journal).unwrap().len();
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(&journal)
        .unwrap();
    f.set_len(len / 2).unwrap();
    drop(f);
    let out = env.oauth().args(["journal", "verify"]).output().unwrap();
    exits(&out, 8);
    assert!(text(&out.stderr).contains("damaged"), "{out:?}");
}

#[cfg(unix)]
#[test]
fn the_journal_and_every_file_with_invoice_data_are_private_and_no_url_secret_is_kept() {
    use std::os::unix::fs::PermissionsExt;
    let env = cli_env::Env::new(0);
    let port = env.s.base_url.rsplit(':').next().unwrap().to_string();
    let with_secrets = format!("http://clerk:pw-secreto@127.0.0.1:{port}/?key=llave-secreta#x");
    let out = env
        .oauth()
        .env("INVOICE_DESK_BASE_URL", &with_secrets)
        .args(["create", "--customer", &env.customer(), "--amount", "1000"])
        .output()
        .unwrap();
    // Whatever the service made of it, nothing secret is kept.
    let _ = out;
    let csv = env.dir.path().join("facturas.csv");
    exits(
        &env.oauth()
            .args(["export", &env.customer(), "--out", csv.to_str().unwrap()])
            .output()
            .unwrap(),
        0,
    );
    let exported = env.dir.path().join("registro.csv");
    exits(
        &env.oauth()
            .args(["journal", "export", "--out", exported.to_str().unwrap()])
            .output()
            .unwrap(),
        0,
    );
    let journal = env.dir.path().join("journal.sqlite3");
    for f in [&journal, &csv, &exported] {
        let mode = std::fs::metadata(f).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", f.display());
    }
    for f in [&journal, &exported] {
        let bytes = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        for secret in ["pw-secreto", "llave-secreta", "clerk"] {
            assert!(!bytes.contains(secret), "{secret} in {}", f.display());
        }
    }
    // An existing file keeps its permissions.
    std::fs::set_permissions(&csv, std::fs::Permissions::from_mode(0o640)).unwrap();
    exits(
        &env.oauth()
            .args(["export", &env.customer(), "--out", csv.to_str().unwrap()])
            .output()
            .unwrap(),
        0,
    );
    let mode = std::fs::metadata(&csv).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

/// Writes every hostile file into `$INVOICE_DESK_HOSTILE_DIR` (to try them by hand, or
/// on another build): `cargo test --test hostile_inputs -- --ignored write_them`.
#[test]
#[ignore]
fn write_them() {
    let dir = std::path::PathBuf::from(std::env::var("INVOICE_DESK_HOSTILE_DIR").unwrap());
    std::fs::create_dir_all(&dir).unwrap();
    for h in hostile_files::all(&dir) {
        println!("{}\t{}", h.path.display(), h.what);
    }
}

/// Mutates `bytes` one way, chosen by `r` (a simple xorshift).
#[cfg(unix)]
fn mutate(bytes: &mut Vec<u8>, r: &mut u64) {
    let mut next = || {
        *r ^= *r << 13;
        *r ^= *r >> 7;
        *r ^= *r << 17;
        *r
    };
    if bytes.is_empty() {
        bytes.push(b'x');
    }
    let at = (next() % bytes.len() as u64) as usize;
    match next() % 9 {
        0 => bytes[at] ^= 1 << (next() % 8),
        1 => bytes.truncate(at),
        2 => {
            let n = (next() % 5_000) as usize;
            let b = next() as u8;
            bytes.splice(at..at, std::iter::repeat_n(b, n));
        }
        3 => bytes.splice(at..at, b"\"".iter().copied()).for_each(drop),
        4 => bytes
            .splice(at..at, b"99999999999999999999".iter().copied())
            .for_each(drop),
        5 => bytes
            .splice(at..at, b"XFD1048576".iter().copied())
            .for_each(drop),
        6 => {
            let piece: Vec<u8> = bytes[at..].iter().take(200).copied().collect();
            for _ in 0..(next() % 200) {
                bytes.splice(at..at, piece.iter().copied()).for_each(drop);
            }
        }
        7 => bytes
            .splice(at..at, b",;\r\n".iter().copied())
            .for_each(drop),
        _ => {
            let b = next() as u8;
            bytes[at] = b;
        }
    }
}

/// The parts of a small good workbook, as (name, content).
#[cfg(unix)]
fn good_parts() -> Vec<(String, Vec<u8>)> {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("g.xlsx");
    let mut book = rust_xlsxwriter::Workbook::new();
    let ws = book.add_worksheet();
    for (c, h) in ["cliente", "monto", "vencimiento", "referencia"]
        .iter()
        .enumerate()
    {
        ws.write_string(0, c as u16, *h).unwrap();
    }
    for r in 1..30u32 {
        ws.write_string(r, 0, "cus_a").unwrap();
        ws.write_number(r, 1, 1000.0 + r as f64).unwrap();
        ws.write_string(r, 2, "31-12-2026").unwrap();
        ws.write_string(r, 3, format!("R-{r}")).unwrap();
    }
    book.save(&p).unwrap();
    let mut z = zip::ZipArchive::new(std::fs::File::open(&p).unwrap()).unwrap();
    (0..z.len())
        .map(|i| {
            let mut f = z.by_index(i).unwrap();
            let mut v = Vec::new();
            std::io::Read::read_to_end(&mut f, &mut v).unwrap();
            (f.name().unwrap().to_string(), v)
        })
        .collect()
}

/// Randomized files (`INVOICE_DESK_FUZZ_FILES`, 1,000 by default; seed
/// `INVOICE_DESK_FUZZ_SEED`): good CSV and XLSX files mutated, each read by
/// `bulk --dry-run` in its own process. None may abort, hang (20 s) or pass 200 MB; every
/// exit is 0 (read) or 2 (refused, said).
#[cfg(unix)]
#[test]
#[ignore]
fn randomized_files_never_abort_hang_or_eat_memory() {
    use std::io::Write as _;
    let n: usize = std::env::var("INVOICE_DESK_FUZZ_FILES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let mut seed: u64 = std::env::var("INVOICE_DESK_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x9E37_79B9_7F4A_7C15)
        | 1;
    let env = cli_env::Env::new(0);
    let dir = tempfile::tempdir().unwrap();
    let parts = good_parts();
    let mut csv = String::from("cliente;monto;vencimiento;referencia\n");
    for r in 1..30 {
        csv.push_str(&format!("cus_a;{};31-12-2026;\"R-{r}\"\n", 1000 + r));
    }
    let (mut codes, mut max_mb, mut slowest) = (
        std::collections::BTreeMap::new(),
        0u64,
        std::time::Duration::ZERO,
    );
    for i in 0..n {
        let xlsx = i % 2 == 0;
        let path = dir.path().join(if xlsx { "f.xlsx" } else { "f.csv" });
        if xlsx {
            // A part's XML mutated, then zipped again (mutating the compressed bytes
            // would mostly test the zip's checksum).
            let mut parts = parts.clone();
            let k = (seed % parts.len() as u64) as usize;
            for _ in 0..1 + seed % 3 {
                mutate(&mut parts[k].1, &mut seed);
            }
            let f = std::fs::File::create(&path).unwrap();
            let mut z = zip::ZipWriter::new(f);
            let opts = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated);
            for (name, body) in &parts {
                z.start_file(name.as_str(), opts).unwrap();
                z.write_all(body).unwrap();
            }
            z.finish().unwrap();
        } else {
            let mut bytes = csv.clone().into_bytes();
            for _ in 0..1 + seed % 3 {
                mutate(&mut bytes, &mut seed);
            }
            std::fs::write(&path, bytes).unwrap();
        }
        let mut cmd = env.oauth();
        cmd.args(["bulk", path.to_str().unwrap(), "--dry-run"]);
        let started = std::time::Instant::now();
        let killer = {
            let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            (done.clone(), done)
        };
        let (done, flag) = killer;
        let child_pid = std::sync::Arc::new(std::sync::atomic::AtomicI32::new(0));
        let watch = {
            let pid = child_pid.clone();
            std::thread::spawn(move || {
                let start = std::time::Instant::now();
                while !flag.load(std::sync::atomic::Ordering::SeqCst) {
                    if start.elapsed() > std::time::Duration::from_secs(20) {
                        let p = pid.load(std::sync::atomic::Ordering::SeqCst);
                        if p > 0 {
                            unsafe { libc::kill(p, libc::SIGKILL) };
                        }
                        return true;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                false
            })
        };
        let (out, mb) = run_measured_with(cmd, &child_pid);
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        let hung = watch.join().unwrap();
        let took = started.elapsed();
        assert!(!hung, "file {i} hung: {}", path.display());
        let code = out.status.code();
        assert!(
            matches!(code, Some(0 | 2)),
            "file {i} ({}): {out:?}",
            path.display()
        );
        assert!(!text(&out.stderr).contains("panicked"), "file {i}: {out:?}");
        assert!(mb <= MAX_RSS_MB, "file {i}: {mb} MB");
        *codes.entry(code).or_insert(0) += 1;
        max_mb = max_mb.max(mb);
        slowest = slowest.max(took);
    }
    println!("{n} files: exits {codes:?}, peak RSS {max_mb} MB, slowest {slowest:?}");
}

/// [`run_measured`], publishing the child's pid (for a watchdog).
#[cfg(unix)]
fn run_measured_with(mut cmd: Command, pid_out: &std::sync::atomic::AtomicI32) -> (Output, u64) {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    pid_out.store(child.id() as i32, std::sync::atomic::Ordering::SeqCst);
    finish_measured(&mut child)
}

/// Reads a spawned child's output and reaps it with `wait4`.
#[cfg(unix)]
fn finish_measured(child: &mut std::process::Child) -> (Output, u64) {
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let o = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut v).unwrap();
        v
    });
    let e = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut v).unwrap();
        v
    });
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid);
    let status = std::os::unix::process::ExitStatusExt::from_raw(status);
    let output = Output {
        status,
        stdout: o.join().unwrap(),
        stderr: e.join().unwrap(),
    };
    (output, usage.ru_maxrss as u64 / 1024)
}

/// A spreadsheet's cells with terminal escape sequences in the amount and the due date:
/// `bulk` names each problem with the sequences escaped, visibly, in both languages —
/// nothing reaches the terminal that could retitle it or clear it.
#[test]
fn escape_sequences_in_amount_and_due_date_cells_never_reach_the_terminal() {
    let env = cli_env::Env::new(0);
    let file = env.dir.path().join("malicioso.csv");
    let c = env.customer();
    std::fs::write(
        &file,
        format!(
            "cliente,monto,vencimiento\n{c},1\u{1b}]0;PWNED\u{7}\u{1b}[2J000,31-12-2026\n\
             {c},1000,3\u{1b}]0;PWNED\u{7}1-12-2026\n"
        ),
    )
    .unwrap();
    for lang in ["C.UTF-8", "es_CL.UTF-8"] {
        let out = env
            .oauth()
            .env("LANG", lang)
            .args(["bulk", file.to_str().unwrap(), "--dry-run"])
            .output()
            .unwrap();
        let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(
            !said.contains('\u{1b}') && !said.contains('\u{7}'),
            "{said:?}"
        );
        assert!(said.contains("\\x1b]0;PWNED"), "escaped, visibly: {said}");
        assert!(said.contains("row 2") || said.contains("fila 2"), "{said}");
        // With no valid row left, the plan says so (it said "0 invoices to 0
        // customers ()").
        let out = env
            .oauth()
            .env("LANG", lang)
            .args([
                "bulk",
                file.to_str().unwrap(),
                "--dry-run",
                "--skip-invalid",
            ])
            .output()
            .unwrap();
        let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(
            said.contains("No row is valid.") || said.contains("Ninguna fila es válida."),
            "{said}"
        );
        assert!(!said.contains("()"), "{said}");
    }
}
