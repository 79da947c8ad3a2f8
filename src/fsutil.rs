//! Writing files so that a crash or a failure never leaves half a file or destroys the old
//! one: a synced temporary file beside the target, then a rename.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// A temporary path beside `target` (same folder, so the rename is atomic).
pub fn temp_beside(target: &Path) -> PathBuf {
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("file");
    dir.join(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        uuid::Uuid::new_v4().simple()
    ))
}

/// Writes `target` through `write`, which streams into a buffered temporary file. If
/// `write` fails, the temporary file is removed and `target` is untouched. Creates the
/// folder if needed.
pub fn write_atomic_with<F>(target: &Path, write: F) -> std::io::Result<()>
where
    F: FnOnce(&mut BufWriter<std::fs::File>) -> std::io::Result<()>,
{
    if let Some(dir) = target.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = temp_beside(target);
    let result = (|| {
        let mut w = BufWriter::new(std::fs::File::create(&tmp)?);
        write(&mut w)?;
        w.flush()?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        std::fs::rename(&tmp, target)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Writes `bytes` to `target` atomically.
pub fn write_atomic(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(target, |w| w.write_all(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

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
