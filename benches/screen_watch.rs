//! Watches the X screen (`DISPLAY`) the way a person would: grabs the whole root window
//! as fast as it can and notes when its pixels change. Prints, in Unix milliseconds, when
//! the screen first differed from how it looked at the start, and when it reached the
//! picture it then kept for `STABLE_MS` (the final picture, e.g. every row shown).
//!   cargo run --release --example screen-watch -- STABLE_MS TIMEOUT_S
//! Output: `first_change=… final=… frames=… stable=yes|no`.

#[cfg(target_os = "linux")]
fn main() {
    use std::hash::{Hash, Hasher};
    use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ConnectionExt, ImageFormat};

    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("STABLE_MS TIMEOUT_S"))
        .collect();
    let (stable, timeout) = (Duration::from_millis(args[0]), Duration::from_secs(args[1]));
    let (conn, screen) = x11rb::connect(None).expect("an X display");
    let root = &conn.setup().roots[screen];
    let (w, h) = (root.width_in_pixels, root.height_in_pixels);
    let grab = || {
        let image = conn
            .get_image(ImageFormat::Z_PIXMAP, root.root, 0, 0, w, h, !0)
            .expect("request")
            .reply()
            .expect("image");
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        image.data.hash(&mut hasher);
        hasher.finish()
    };
    let unix_ms = || {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis())
    };
    let start = Instant::now();
    let initial = grab();
    let mut first_change = None;
    let mut last = initial;
    let mut last_since = (Instant::now(), unix_ms());
    let mut frames = 1u64;
    let stable_yes = loop {
        let now = Instant::now();
        let hash = grab();
        frames += 1;
        if hash != last {
            last = hash;
            last_since = (now, unix_ms());
            first_change.get_or_insert(last_since.1);
        }
        if first_change.is_some() && now.duration_since(last_since.0) >= stable {
            break true;
        }
        if now.duration_since(start) >= timeout {
            break false;
        }
    };
    println!(
        "first_change={} final={} frames={frames} stable={}",
        first_change.unwrap_or(0),
        last_since.1,
        if stable_yes { "yes" } else { "no" }
    );
}

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("screen-watch needs X11 (Linux)");
}
