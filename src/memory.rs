//! How the process asks the C allocator for memory.

/// Keeps large blocks out of glibc's main heap. glibc raises its mmap threshold each
/// time a large block is freed, after which the growing buffers of a long PDF come from
/// the main heap and its high-water mark stays: a 2,000-invoice statement peaked at
/// 245 MB of RSS with 5.5 MB in use. A fixed threshold of 1 MB keeps such blocks in
/// their own mappings, returned when freed (18 MB, as fast; 128 KB cost a third more
/// time in page faults; `benches/statements.sh`). Call it first thing, before any thread
/// starts.
/// Elsewhere than glibc it does nothing.
///
/// A fixed mmap threshold also fixes glibc's trim threshold, at 128 KB: the top of a
/// heap is given back whenever that much of it is free. An export's page of 1,000
/// invoices (330 KB) is read on one thread and freed on another, and its room was given
/// back and faulted in afresh for every page: 87 page faults a page, 6 % of the export's
/// CPU (`perf record` of a 1,000,000-invoice export). Up to 4 MB of free room is kept
/// instead: 2,600 faults in that export against 53,000–79,000.
pub fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets allocator parameters; called before other threads.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1024 * 1024);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 4 * 1024 * 1024);
    }
}
