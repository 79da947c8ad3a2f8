//! Watches the X screen (`DISPLAY`) the way a person would: notes when its pixels change.
//! Prints, in Unix milliseconds, when the screen first differed from how it looked at the
//! start, and when it reached the picture it then kept for `STABLE_MS` (the final picture,
//! e.g. every row shown).
//! With a rectangle (X Y W H, screen pixels), also when text first appeared in it after
//! it had held none (`part=`, 0 when it never did; e.g. the table's rows, empty before a
//! listing and drawn from its first page, wherever the layout puts them then). Text is
//! light on the dark theme: a rectangle "holds text" with more than 100 pixels brighter
//! than 120.
//!   cargo run --release --example screen-watch -- STABLE_MS TIMEOUT_S [X Y W H]
//! Output: `first_change=… final=… frames=… stable=yes|no [part=…]` (`frames`: how many
//! times the screen was drawn on).
//!
//! The X server says where it drew (the DAMAGE extension), and only that area is read and
//! compared with the copy kept here: a drawing that changed no pixel is no change. This
//! watcher grabbed the whole screen as fast as it could until #51 found that it took the
//! CPU from what it measured on two cores: the app's listing took 397–470 ms watched so
//! and 332–354 ms unwatched (its own trace, two busy loops beside).

#[cfg(target_os = "linux")]
fn main() {
    use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
    use x11rb::connection::Connection;
    use x11rb::protocol::Event;
    use x11rb::protocol::damage::{self, ConnectionExt as _, ReportLevel};
    use x11rb::protocol::xproto::{ConnectionExt as _, ImageFormat, Rectangle};

    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("STABLE_MS TIMEOUT_S [X Y W H]"))
        .collect();
    let (stable, timeout) = (Duration::from_millis(args[0]), Duration::from_secs(args[1]));
    let part = (args.len() == 6).then(|| {
        let c = |v: u64| i32::try_from(v).expect("a screen coordinate");
        (c(args[2]), c(args[3]), c(args[4]), c(args[5]))
    });
    let (conn, screen) = x11rb::connect(None).expect("an X display");
    let root = conn.setup().roots[screen].clone();
    let (w, h) = (
        i32::from(root.width_in_pixels),
        i32::from(root.height_in_pixels),
    );
    conn.damage_query_version(1, 1)
        .expect("request")
        .reply()
        .expect("the X server's DAMAGE extension");
    // Every drawing's rectangle, as it happens: nothing to reset between them.
    let watched = conn.generate_id().expect("an id");
    conn.damage_create(watched, root.root, ReportLevel::RAW_RECTANGLES)
        .expect("request");
    conn.flush().expect("flush");

    // The screen's pixels as last read: 4 bytes a pixel (24-bit depth, Z format).
    let bpp = 4usize;
    let read = |x: i32, y: i32, rw: i32, rh: i32| -> Vec<u8> {
        conn.get_image(
            ImageFormat::Z_PIXMAP,
            root.root,
            x as i16,
            y as i16,
            rw as u16,
            rh as u16,
            !0,
        )
        .expect("request")
        .reply()
        .expect("image")
        .data
    };
    let mut screen_copy = read(0, 0, w, h);
    let stride = screen_copy.len() / h as usize;
    assert_eq!(stride, w as usize * bpp, "a 32-bit Z image with no padding");
    let holds_text = |copy: &[u8]| {
        part.is_some_and(|(x, y, pw, ph)| {
            let mut n = 0u64;
            for row in y..(y + ph).min(h) {
                let start = row as usize * stride + x as usize * bpp;
                let end = (start + pw as usize * bpp).min((row as usize + 1) * stride);
                n += copy[start..end]
                    .chunks_exact(bpp)
                    .filter(|px| px[1] > 120)
                    .count() as u64;
            }
            n > 100
        })
    };
    // Reads `area` into the copy; true when a pixel in it changed.
    let update = |copy: &mut Vec<u8>, area: (i32, i32, i32, i32)| -> bool {
        let (x0, y0, x1, y1) = (area.0.max(0), area.1.max(0), area.2.min(w), area.3.min(h));
        if x0 >= x1 || y0 >= y1 {
            return false;
        }
        let fresh = read(x0, y0, x1 - x0, y1 - y0);
        let row_len = (x1 - x0) as usize * bpp;
        let mut changed = false;
        for (r, new_row) in fresh.chunks_exact(row_len).enumerate() {
            let start = (y0 as usize + r) * stride + x0 as usize * bpp;
            let old_row = &mut copy[start..start + row_len];
            if old_row != new_row {
                old_row.copy_from_slice(new_row);
                changed = true;
            }
        }
        changed
    };
    let unix_ms = || {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis())
    };

    let start = Instant::now();
    let mut held_text = holds_text(&screen_copy);
    let mut emptied = !held_text;
    let mut text_back = None;
    let mut first_change = None;
    let mut last_since = (Instant::now(), unix_ms());
    let mut frames = 0u64;
    let stable_yes = loop {
        // Drawings that came together are read as one area (their bounding box).
        let mut area: Option<(i32, i32, i32, i32)> = None;
        while let Some(event) = conn.poll_for_event().expect("the X connection") {
            if let Event::DamageNotify(damage::NotifyEvent {
                area:
                    Rectangle {
                        x,
                        y,
                        width,
                        height,
                    },
                ..
            }) = event
            {
                let (x, y) = (i32::from(x), i32::from(y));
                let r = (x, y, x + i32::from(width), y + i32::from(height));
                area = Some(area.map_or(r, |a| {
                    (a.0.min(r.0), a.1.min(r.1), a.2.max(r.2), a.3.max(r.3))
                }));
            }
        }
        let now = Instant::now();
        if let Some(area) = area {
            let at = unix_ms();
            frames += 1;
            if update(&mut screen_copy, area) {
                last_since = (now, at);
                first_change.get_or_insert(at);
                let has_text = holds_text(&screen_copy);
                if part.is_some() && has_text != held_text {
                    held_text = has_text;
                    if !has_text {
                        emptied = true;
                    } else if emptied && text_back.is_none() {
                        text_back = Some(at);
                    }
                }
            }
            continue;
        }
        if first_change.is_some() && now.duration_since(last_since.0) >= stable {
            break true;
        }
        if now.duration_since(start) >= timeout {
            break false;
        }
        // Events are looked for every millisecond: a read that finds none costs nothing
        // a frame would notice.
        std::thread::sleep(Duration::from_millis(1));
    };
    let part_text = match part {
        None => String::new(),
        Some(_) => format!(" part={}", text_back.unwrap_or(0)),
    };
    println!(
        "first_change={} final={} frames={frames} stable={}{part_text}",
        first_change.unwrap_or(0),
        last_since.1,
        if stable_yes { "yes" } else { "no" }
    );
}

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("screen-watch needs X11 (Linux)");
}
