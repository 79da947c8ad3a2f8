//! Watches the X screen (`DISPLAY`) the way a person would: grabs the whole root window
//! as fast as it can and notes when its pixels change. Prints, in Unix milliseconds, when
//! the screen first differed from how it looked at the start, and when it reached the
//! picture it then kept for `STABLE_MS` (the final picture, e.g. every row shown).
//! With a rectangle (X Y W H, screen pixels), also when text first appeared in it after
//! it had held none (`part=`; e.g. the table's rows, cleared by a new listing and drawn
//! again from its first page, wherever the layout puts them then). Text is light on the
//! dark theme: a rectangle "holds text" with more than 100 pixels brighter than 120.
//!   cargo run --release --example screen-watch -- STABLE_MS TIMEOUT_S [X Y W H]
//! Output: `first_change=… final=… frames=… stable=yes|no [part=…]`.

#[cfg(target_os = "linux")]
fn main() {
    use std::hash::{Hash, Hasher};
    use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ConnectionExt, ImageFormat};

    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("STABLE_MS TIMEOUT_S [X Y W H]"))
        .collect();
    let (stable, timeout) = (Duration::from_millis(args[0]), Duration::from_secs(args[1]));
    let part = (args.len() == 6).then(|| (args[2], args[3], args[4], args[5]));
    let (conn, screen) = x11rb::connect(None).expect("an X display");
    let root = &conn.setup().roots[screen];
    let (w, h) = (root.width_in_pixels, root.height_in_pixels);
    let hash_of = |bytes: &[u8]| {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        bytes.hash(&mut hasher);
        hasher.finish()
    };
    // The whole screen's hash, and the rectangle's (0 without one).
    let grab = || {
        let image = conn
            .get_image(ImageFormat::Z_PIXMAP, root.root, 0, 0, w, h, !0)
            .expect("request")
            .reply()
            .expect("image");
        let data = &image.data;
        let stride = data.len() / usize::from(h);
        let bpp = stride / usize::from(w);
        let lit = part.map_or(0, |(x, y, pw, ph)| {
            let mut n = 0u64;
            for row in y..(y + ph).min(u64::from(h)) {
                let start = row as usize * stride + x as usize * bpp;
                let end = (start + pw as usize * bpp).min((row as usize + 1) * stride);
                n += data[start..end]
                    .chunks_exact(bpp)
                    .filter(|px| px[1] > 120)
                    .count() as u64;
            }
            n
        });
        (hash_of(data), lit > 100)
    };
    let unix_ms = || {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis())
    };
    let start = Instant::now();
    let (initial, mut held_text) = grab();
    let mut first_change = None;
    let mut last = initial;
    let mut last_since = (Instant::now(), unix_ms());
    let mut frames = 1u64;
    // When the rectangle held no text, and when text came into it after that.
    let mut emptied = !held_text;
    let mut text_back = None;
    let stable_yes = loop {
        let now = Instant::now();
        let (hash, has_text) = grab();
        frames += 1;
        if hash != last {
            last = hash;
            last_since = (now, unix_ms());
            first_change.get_or_insert(last_since.1);
        }
        if part.is_some() && has_text != held_text {
            held_text = has_text;
            if !has_text {
                emptied = true;
            } else if emptied && text_back.is_none() {
                text_back = Some(unix_ms());
            }
        }
        if first_change.is_some() && now.duration_since(last_since.0) >= stable {
            break true;
        }
        if now.duration_since(start) >= timeout {
            break false;
        }
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
