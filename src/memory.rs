//! How the process asks the C allocator for memory.

/// Keeps large blocks out of glibc's main heap. glibc raises its mmap threshold each
/// time a large block is freed, after which the growing buffers of a long PDF come from
/// the main heap and its high-water mark stays: a 2,000-invoice statement peaked at
/// 245 MB of RSS with 5.5 MB in use. A fixed threshold of 1 MB keeps such blocks in
/// their own mappings, returned when freed (18 MB, as fast; 128 KB cost a third more
/// time in page faults; `benches/statements.sh`). Call it first thing, before any
/// thread starts. Elsewhere than glibc it does nothing.
pub fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; called before other threads.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1024 * 1024);
    }
}
