//! How the process asks the C allocator for memory.

/// Keeps large blocks out of glibc's main heap. glibc raises its mmap threshold each
/// time a large block is freed, after which the growing buffers of a long PDF come from
/// the main heap and its high-water mark stays: a 2,000-invoice statement peaked at
/// 245 MB of RSS with 5.5 MB in use. A fixed threshold of 1 MB keeps such blocks in
/// their own mappings, returned when freed (18 MB, as fast; 128 KB cost a third more
/// time in page faults; `benches/statements.sh`). zlib's states, below that threshold,
/// are kept out by [`Allocator`]. Call it first thing, before any thread starts.
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

#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub use mappings::Allocator;

/// glibc's own: large aligned blocks in mappings of their own ([`Allocator`]).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod mappings {
    use std::alloc;

    /// Large blocks with a stricter alignment than malloc's get a mapping of their own. zlib
    /// (through flate2 and zlib-rs, for every image in a PDF and every part of a workbook)
    /// asks for its 380 KB state aligned to 64 bytes, once per stream. In glibc's main heap
    /// each freed state was carved up by the small blocks made before the next one, which
    /// then no longer fitted and grew the heap: a statement of 2,000 invoices, one QR image
    /// each, peaked at 251 MB of RSS with 9 MB in use (`valgrind --tool=massif`; `strace`:
    /// 758 heap extensions of 372 KB, each from `zlib_rs::deflate::init`). The mmap threshold
    /// cannot separate them: it would also map the export's page bodies and hyper's read
    /// buffer (330–410 KB, one a page) afresh, at 160 page faults a page (+40 % CPU). Every
    /// other request goes to malloc as before.
    pub struct Allocator;

    #[global_allocator]
    static GLOBAL: Allocator = Allocator;

    /// The smallest aligned block that gets a mapping of its own.
    const MAPPED_FROM: usize = 256 * 1024;

    /// Whether a block of this layout is mapped: large, aligned more strictly than malloc's
    /// 16 bytes, and no more than a page (a mapping's own alignment).
    fn mapped(layout: alloc::Layout) -> bool {
        layout.size() >= MAPPED_FROM && layout.align() > 16 && layout.align() <= 4096
    }

    /// One freed mapped block, kept for the next request of the same length in pages: zlib
    /// asks for a state per stream, and a fresh mapping is faulted in afresh (85 page faults
    /// a state, which doubled a 2,000-QR statement's time). Its address and length.
    static SPARE: std::sync::Mutex<Option<(usize, usize)>> = std::sync::Mutex::new(None);

    /// A mapping's length for a block of `size` bytes: whole pages (of 4 KB; two sizes alike
    /// in 4 KB pages are alike in larger ones too).
    fn pages(size: usize) -> usize {
        size.div_ceil(4096) * 4096
    }

    fn spare() -> std::sync::MutexGuard<'static, Option<(usize, usize)>> {
        // Nothing panics while it is held: never poisoned, but taken as it is if it were.
        SPARE.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A block of `size` bytes: the spare one when it has the same length, else a new
    /// mapping (whose bytes are zero). The flag says whether it was the spare.
    fn map(size: usize) -> (*mut u8, bool) {
        {
            let mut spare = spare();
            if let Some((at, len)) = *spare
                && len == pages(size)
            {
                *spare = None;
                return (at as *mut u8, true);
            }
        }
        // SAFETY: a new private anonymous mapping; nothing else is touched.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            (std::ptr::null_mut(), false)
        } else {
            (p.cast(), false)
        }
    }

    /// Gives a mapped block back: kept as the spare when there is none, else unmapped.
    fn unmap(ptr: *mut u8, size: usize) {
        {
            let mut spare = spare();
            if spare.is_none() {
                *spare = Some((ptr as usize, pages(size)));
                return;
            }
        }
        // SAFETY: `ptr` is a mapping of `size` bytes that nothing uses any more.
        unsafe { libc::munmap(ptr.cast(), size) };
    }

    // SAFETY: mapped blocks are page-aligned (so aligned as asked), of the whole pages their
    // size needs (a spare is reused only for a size of as many pages), and given back by
    // munmap; which kind a block is follows from its layout alone, which
    // `dealloc` and `realloc` are given unchanged. Everything else is `System`'s.
    unsafe impl alloc::GlobalAlloc for Allocator {
        unsafe fn alloc(&self, layout: alloc::Layout) -> *mut u8 {
            if mapped(layout) {
                map(layout.size()).0
            } else {
                // SAFETY: as the caller promised.
                unsafe { alloc::System.alloc(layout) }
            }
        }

        unsafe fn alloc_zeroed(&self, layout: alloc::Layout) -> *mut u8 {
            if mapped(layout) {
                // A new anonymous mapping reads as zeros; the spare may not.
                let (p, reused) = map(layout.size());
                if reused {
                    // SAFETY: `p` is a block of `layout.size()` bytes, ours alone.
                    unsafe { p.write_bytes(0, layout.size()) };
                }
                p
            } else {
                // SAFETY: as the caller promised.
                unsafe { alloc::System.alloc_zeroed(layout) }
            }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: alloc::Layout) {
            if mapped(layout) {
                unmap(ptr, layout.size());
            } else {
                // SAFETY: as the caller promised.
                unsafe { alloc::System.dealloc(ptr, layout) }
            }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: alloc::Layout, new_size: usize) -> *mut u8 {
            // SAFETY: the caller promises `new_size` makes a valid layout with this alignment.
            let new = unsafe { alloc::Layout::from_size_align_unchecked(new_size, layout.align()) };
            match (mapped(layout), mapped(new)) {
                // SAFETY: as the caller promised.
                (false, false) => unsafe { alloc::System.realloc(ptr, layout, new_size) },
                (true, true) => {
                    // SAFETY: `ptr` is a mapping of `layout.size()` bytes; the kernel moves it
                    // when it cannot grow in place, and a mapping stays page-aligned.
                    let p = unsafe {
                        libc::mremap(ptr.cast(), layout.size(), new_size, libc::MREMAP_MAYMOVE)
                    };
                    if p == libc::MAP_FAILED {
                        std::ptr::null_mut()
                    } else {
                        p.cast()
                    }
                }
                _ => {
                    // From one kind to the other: a new block, the contents copied.
                    // SAFETY: `new` is a valid layout of nonzero size (the caller's promise).
                    let p = unsafe { self.alloc(new) };
                    if !p.is_null() {
                        // SAFETY: both blocks hold at least the smaller size; they are distinct.
                        unsafe {
                            std::ptr::copy_nonoverlapping(ptr, p, layout.size().min(new_size));
                            self.dealloc(ptr, layout);
                        }
                    }
                    p
                }
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use alloc::{GlobalAlloc, Layout};

        #[test]
        fn a_large_aligned_block_is_a_mapping_of_its_own_and_keeps_its_contents() {
            let a = Allocator;
            let layout = Layout::from_size_align(380_032, 64).unwrap();
            assert!(mapped(layout));
            unsafe {
                let p = a.alloc_zeroed(layout);
                assert!(!p.is_null());
                // A mapping starts on a page.
                assert!((p as usize).is_multiple_of(4096));
                assert!(
                    std::slice::from_raw_parts(p, layout.size())
                        .iter()
                        .all(|&b| b == 0)
                );
                for i in 0..layout.size() {
                    *p.add(i) = (i % 251) as u8;
                }
                // Larger (mapped to mapped), smaller than the threshold (to malloc), and back.
                let p = a.realloc(p, layout, 1_000_000);
                let big = Layout::from_size_align(1_000_000, 64).unwrap();
                assert!(!p.is_null() && (p as usize).is_multiple_of(64));
                assert!((0..layout.size()).all(|i| *p.add(i) == (i % 251) as u8));
                let p = a.realloc(p, big, 1000);
                let small = Layout::from_size_align(1000, 64).unwrap();
                assert!(!p.is_null() && (p as usize).is_multiple_of(64));
                assert!(!mapped(small));
                assert!((0..1000).all(|i| *p.add(i) == (i % 251) as u8));
                let p = a.realloc(p, small, 300_000);
                assert!(!p.is_null() && (p as usize).is_multiple_of(4096));
                assert!((0..1000).all(|i| *p.add(i) == (i % 251) as u8));
                a.dealloc(p, Layout::from_size_align(300_000, 64).unwrap());
            }
        }

        #[test]
        fn a_block_asked_for_zeroed_is_zero_when_a_freed_one_is_reused() {
            let layout = Layout::from_size_align(380_032, 64).unwrap();
            unsafe {
                let p = Allocator.alloc(layout);
                assert!(!p.is_null());
                p.write_bytes(0xff, layout.size());
                Allocator.dealloc(p, layout);
                // Most likely the same block, given back as the spare.
                let q = Allocator.alloc_zeroed(layout);
                assert!(!q.is_null() && (q as usize).is_multiple_of(4096));
                assert!(
                    std::slice::from_raw_parts(q, layout.size())
                        .iter()
                        .all(|&b| b == 0)
                );
                Allocator.dealloc(q, layout);
            }
        }

        #[test]
        fn other_blocks_go_to_malloc() {
            // Plain large blocks (an export's page body), small aligned ones, and alignments
            // a mapping cannot promise.
            for (size, align) in [(400_000, 8), (400_000, 16), (1000, 64), (300_000, 8192)] {
                let layout = Layout::from_size_align(size, align).unwrap();
                assert!(!mapped(layout), "{size} {align}");
                unsafe {
                    let p = Allocator.alloc(layout);
                    assert!(!p.is_null() && (p as usize).is_multiple_of(align));
                    p.write_bytes(7, size);
                    Allocator.dealloc(p, layout);
                }
            }
        }
    }
}
