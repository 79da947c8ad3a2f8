//! Writing files so that a crash or a failure never leaves half a file or destroys the old
//! one: a synced temporary file beside the target, then a rename.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// A temporary file beside `target` (same folder, so the rename is atomic), named
/// `.<name>.<pid>.<random>.tmp` so that [`remove_stale_temps`] knows a killed process's
/// from a running one's. Created readable and writable by its owner only (tempfile's
/// mode): it holds invoice data.
fn temp_beside(target: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("file");
    tempfile::Builder::new()
        .prefix(&format!(".{name}.{}.", std::process::id()))
        .suffix(".tmp")
        .tempfile_in(dir)
}

/// Writes `target` through `write`, which streams into a buffered temporary file. If
/// `write` fails, the temporary file is removed and `target` is untouched. Creates the
/// folder if needed: for the program's own files (profiles, sandbox data).
pub fn write_atomic_with<F>(target: &Path, write: F) -> std::io::Result<()>
where
    F: FnOnce(&mut BufWriter<std::fs::File>) -> std::io::Result<()>,
{
    if let Some(dir) = target.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    fill(Replacement::start(target, None)?, write)
}

/// Writes a file the user chose, `target` as [`check_destination`] resolved it: no
/// folder is created, and an existing file keeps its permissions (a new one is readable
/// by its owner only: it holds invoice data).
pub fn write_user_file<F>(target: &Path, write: F) -> std::io::Result<()>
where
    F: FnOnce(&mut BufWriter<std::fs::File>) -> std::io::Result<()>,
{
    fill(Replacement::user_file(target)?, write)
}

/// Writes a replacement's content through `write` and puts it in place.
fn fill<F>((pending, file): (Replacement, std::fs::File), write: F) -> std::io::Result<()>
where
    F: FnOnce(&mut BufWriter<std::fs::File>) -> std::io::Result<()>,
{
    let mut w = BufWriter::new(file);
    write(&mut w)?;
    w.flush()?;
    pending.finish(w.into_inner().map_err(|e| e.into_error())?)
}

/// A file being replaced: its new content goes to a temporary file beside it, which
/// [`Replacement::finish`] syncs and renames over it (tempfile's `persist`, which on
/// Windows replaces an existing file too). Dropped unfinished (a failure, a cancel), the
/// temporary file is removed and the file stays as it was.
pub struct Replacement {
    tmp: tempfile::NamedTempFile,
    target: PathBuf,
    permissions: Option<std::fs::Permissions>,
}

impl Replacement {
    /// Starts replacing `target`: the temporary file, open for reading and writing (a
    /// streamed export reads back what it wrote, `StreamingCsv`).
    fn start(
        target: &Path,
        permissions: Option<std::fs::Permissions>,
    ) -> std::io::Result<(Replacement, std::fs::File)> {
        let tmp = temp_beside(target)?;
        let file = tmp.as_file().try_clone()?;
        let pending = Replacement {
            tmp,
            target: target.to_path_buf(),
            permissions,
        };
        Ok((pending, file))
    }

    /// Starts replacing a file the user chose, as [`write_user_file`] does.
    pub fn user_file(target: &Path) -> std::io::Result<(Replacement, std::fs::File)> {
        let keep = std::fs::metadata(target).ok().map(|m| m.permissions());
        Replacement::start(target, keep)
    }

    /// The file being replaced.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Puts the new content, written to `file` (the temporary file), in place. A file
    /// being replaced keeps its permissions; a new one stays its owner's only.
    pub fn finish(self, file: std::fs::File) -> std::io::Result<()> {
        if let Some(p) = &self.permissions {
            file.set_permissions(p.clone())?;
        }
        file.sync_all()?;
        drop(file);
        self.tmp
            .persist(&self.target)
            .map(|_| ())
            .map_err(|e| e.error)
    }
}

/// Asks the system to start writing `len` bytes of `file`, from `offset`, to the disk now,
/// without waiting for it: a long file's final `sync_all` then waits only for its last
/// part, not for all of it (a 17 MB export's took 7–10 ms here, in the clerk's wait).
/// Linux with glibc only (`sync_file_range`); elsewhere the final sync writes it all, as
/// before. A failure (a file system that cannot) changes nothing: the final sync does
/// the work.
pub fn start_writeback(file: &std::fs::File, offset: u64, len: u64) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::fd::AsRawFd;
        let (Ok(offset), Ok(len)) = (i64::try_from(offset), i64::try_from(len)) else {
            return;
        };
        // SAFETY: sync_file_range reads only the descriptor (open: `file` is borrowed)
        // and the three numbers.
        unsafe {
            libc::sync_file_range(file.as_raw_fd(), offset, len, libc::SYNC_FILE_RANGE_WRITE);
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = (file, offset, len);
}

/// Why a file the user named cannot be written.
#[derive(Debug)]
pub enum DestinationError {
    /// The path is a folder.
    IsFolder(PathBuf),
    /// Its folder does not exist (it is not created for the user).
    NoFolder(PathBuf),
    /// The file exists and is read-only.
    ReadOnly(PathBuf),
    /// Nothing can be written in its folder.
    NotWritable(PathBuf, std::io::Error),
    /// A pipe, a device or a socket: never replaced by a file.
    Special(PathBuf),
}

crate::engineers_text!(DestinationError);

impl std::error::Error for DestinationError {}

/// Checks, before any work, that `path` can be written, and returns the file that will
/// really be replaced: a symbolic link is followed to its target, so the link stays a
/// link and its target gets the new content (written atomically beside the target).
pub fn check_destination(path: &Path) -> Result<PathBuf, DestinationError> {
    let mut target = path.to_path_buf();
    // Follow a chain of links by hand: a dangling link still names where to write.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&target) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&target)
                    .map_err(|e| DestinationError::NotWritable(target.clone(), e))?;
                target = match target.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => break,
        }
    }
    if let Ok(m) = std::fs::metadata(&target) {
        if m.is_dir() {
            return Err(DestinationError::IsFolder(path.to_path_buf()));
        }
        if !m.is_file() {
            return Err(DestinationError::Special(path.to_path_buf()));
        }
        if m.permissions().readonly() {
            return Err(DestinationError::ReadOnly(path.to_path_buf()));
        }
    }
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    match std::fs::metadata(&dir) {
        Ok(m) if m.is_dir() => {}
        _ => return Err(DestinationError::NoFolder(dir)),
    }
    match probe_write(&dir) {
        Ok(()) => Ok(target),
        Err(e) => Err(DestinationError::NotWritable(dir, e)),
    }
}

/// Whether a file can be created in the folder `dir`: the only sure test is to try, so a
/// probe file is created and removed at once.
pub fn probe_write(dir: &Path) -> std::io::Result<()> {
    let probe = dir.join(format!(
        ".invoice-desk-probe.{}.{}.tmp",
        std::process::id(),
        uuid::Uuid::new_v4().simple()
    ));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Removes temporary files that a killed process left beside `target` (named as
/// `temp_beside` names them).
pub fn remove_stale_temps(target: &Path) {
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let Some(name) = target.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let prefix = format!(".{name}.");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(f) = file.to_str() else { continue };
        let Some(pid) = f
            .strip_prefix(&prefix)
            .filter(|r| r.ends_with(".tmp"))
            .and_then(|r| r.split('.').next())
        else {
            continue;
        };
        // Ours, from this process, may still be being written.
        if pid != std::process::id().to_string() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Writes `bytes` to `target` atomically.
pub fn write_atomic(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(target, |w| w.write_all(bytes))
}

/// An id as part of a file name on every file system: ASCII letters, digits, `-` and `_`
/// kept, anything else `_`, at most 80 characters.
pub fn id_part(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect()
}

/// A name (a customer's) as part of a file name on every file system: its letters and
/// digits (accents and `ñ` kept), every run of anything else one `-`, at most 60
/// characters; `None` when nothing is left. The one rule for every file the app names
/// after a customer (statements, exports).
pub fn name_part(name: &str) -> Option<String> {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
        if out.chars().count() >= 60 {
            break;
        }
    }
    let out = out.trim_end_matches('-').to_string();
    (!out.is_empty()).then_some(out)
}

/// Writes `bytes` as a new file in `dir` named `stem.ext`, or `stem-2.ext`, `stem-3.ext`
/// … when that exists: never over an existing file (even one made at the same moment),
/// never half-written. Returns the file's path.
pub fn write_new(dir: &Path, stem: &str, ext: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let mut tmp = tempfile::Builder::new()
        .prefix(".invoice-desk-")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    for n in 1..10_000u32 {
        let name = if n == 1 {
            format!("{stem}.{ext}")
        } else {
            format!("{stem}-{n}.{ext}")
        };
        match tmp.persist_noclobber(dir.join(&name)) {
            Ok(_) => return Ok(dir.join(name)),
            Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => tmp = e.file,
            Err(e) => return Err(e.error),
        }
    }
    Err(std::io::Error::other("too many files of that name"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_customers_name_and_id_as_parts_of_a_file_name() {
        assert_eq!(
            super::name_part("Comercial Ñuñoa Ltda.").as_deref(),
            Some("Comercial-Ñuñoa-Ltda")
        );
        assert_eq!(
            super::name_part("a/../../b:c*?\"<>|\u{202e}").as_deref(),
            Some("a-b-c")
        );
        assert_eq!(super::name_part("../..").as_deref(), None);
        assert_eq!(
            super::name_part(&"ñ".repeat(100)).map(|n| n.chars().count()),
            Some(60)
        );
        assert_eq!(super::id_part("cus_1/../x y"), "cus_1____x_y");
    }

    use super::*;

    #[test]
    fn destinations_are_checked_before_any_work() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            check_destination(dir.path()),
            Err(DestinationError::IsFolder(_))
        ));
        let missing = dir.path().join("nope").join("a.csv");
        assert!(matches!(
            check_destination(&missing),
            Err(DestinationError::NoFolder(_))
        ));
        assert!(!dir.path().join("nope").exists(), "no folder created");
        let ok = dir.path().join("a.csv");
        assert_eq!(check_destination(&ok).unwrap(), ok);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "probe removed"
        );
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_and_permissions_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.csv");
        std::fs::write(&real, b"old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
        let link = dir.path().join("link.csv");
        std::os::unix::fs::symlink("real.csv", &link).unwrap();
        let target = check_destination(&link).unwrap();
        assert_eq!(target, dir.path().join("real.csv"));
        write_user_file(&target, |w| w.write_all(b"new")).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&link).unwrap(), b"new");
        let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }

    #[test]
    fn stale_temporary_files_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("data.json");
        let stale = dir.path().join(".data.json.1.abc.tmp");
        std::fs::write(&stale, b"x").unwrap();
        let other = dir.path().join(".other.json.1.abc.tmp");
        std::fs::write(&other, b"x").unwrap();
        remove_stale_temps(&target);
        assert!(!stale.exists());
        assert!(other.exists());
    }

    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a.txt");
        write_atomic(&target, b"old").unwrap();
        let err = write_atomic_with(&target, |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("interrupted"))
        });
        assert!(err.is_err());
        assert_eq!(std::fs::read(&target).unwrap(), b"old");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );
    }
}
