//! How long ago an intent was recorded, on a clock that cannot step.
//!
//! "Not created" may be concluded only once a request can no longer be on its way, so
//! the age of its intent must never come out too large. A wall clock can: an NTP step
//! after sleep, a PC minutes ahead, `faketime`. The shared journal asks its server
//! (every row is stamped by the server's clock). A journal file records with each
//! intent the kernel's boot id and the time since boot (Linux's `/proc`, which no clock
//! step or `LD_PRELOAD` clock changes): on the same boot the age is the difference; on
//! a later boot the intent is older than the time since that boot, a lower bound. Where
//! there is no such anchor (an older row, another system), the wall clock is all there is.

/// This moment as an anchor: `boot:<boot id>:<milliseconds since boot>`, or `None`
/// where the system does not say.
pub(super) fn anchor_now() -> Option<String> {
    let (boot, ms) = read_boot()?;
    Some(format!("boot:{boot}:{ms}"))
}

/// The kernel's boot id and the milliseconds since that boot (sleep included).
#[cfg(target_os = "linux")]
fn read_boot() -> Option<(String, i64)> {
    let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
    let boot = boot.trim();
    if boot.is_empty() || boot.len() > 64 || boot.contains(':') {
        return None;
    }
    let uptime = std::fs::read_to_string("/proc/uptime").ok()?;
    let ms = uptime_ms(uptime.split_whitespace().next()?)?;
    Some((boot.to_string(), ms))
}

#[cfg(not(target_os = "linux"))]
fn read_boot() -> Option<(String, i64)> {
    None
}

/// "12345.67" (seconds, as `/proc/uptime` writes them) as milliseconds.
#[cfg(any(target_os = "linux", test))]
fn uptime_ms(text: &str) -> Option<i64> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, "0"));
    let secs: i64 = whole.parse().ok()?;
    let frac: String = frac.chars().chain("000".chars()).take(3).collect();
    let ms: i64 = frac.parse().ok()?;
    secs.checked_mul(1000)?.checked_add(ms)
}

/// An anchor's boot id and milliseconds.
fn parse(anchor: &str) -> Option<(&str, i64)> {
    let rest = anchor.strip_prefix("boot:")?;
    let (boot, ms) = rest.rsplit_once(':')?;
    Some((boot, ms.parse().ok()?))
}

/// The age of something recorded at `anchor` (as [`anchor_now`] made it) seen from
/// `now` (the same), never more than the time that really passed; `None` when either
/// cannot be read.
fn anchored_age(anchor: &str, now: &str) -> Option<chrono::Duration> {
    let (then_boot, then_ms) = parse(anchor)?;
    let (now_boot, now_ms) = parse(now)?;
    let ms = if then_boot == now_boot {
        now_ms.saturating_sub(then_ms)
    } else {
        // Recorded before this boot: at least as old as the time since it.
        now_ms
    };
    Some(chrono::Duration::milliseconds(ms.max(0)))
}

/// How long ago an intent recorded at `anchor` (if it has one) and wall time `time`
/// (RFC 3339) was recorded, as a lower bound where an anchor allows.
pub(super) fn age(anchor: Option<&str>, time: &str) -> chrono::Duration {
    age_from(anchor, time, anchor_now().as_deref(), chrono::Utc::now())
}

fn age_from(
    anchor: Option<&str>,
    time: &str,
    now_anchor: Option<&str>,
    now_wall: chrono::DateTime<chrono::Utc>,
) -> chrono::Duration {
    if let (Some(a), Some(n)) = (anchor, now_anchor)
        && let Some(age) = anchored_age(a, n)
    {
        return age;
    }
    chrono::DateTime::parse_from_rfc3339(time)
        .map(|t| now_wall - t.with_timezone(&chrono::Utc))
        .unwrap_or_else(|_| chrono::Duration::zero())
        .max(chrono::Duration::zero())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wall(s: &str) -> chrono::DateTime<chrono::Utc> {
        chrono::DateTime::parse_from_rfc3339(s).unwrap().to_utc()
    }

    #[test]
    fn on_one_boot_the_age_ignores_the_wall_clock() {
        let then = "boot:abc:100000";
        let now = "boot:abc:103500";
        // The wall clock says ten minutes, or minus ten: 3.5 s passed.
        for now_wall in ["2026-11-26T10:10:00Z", "2026-11-26T09:50:00Z"] {
            let age = age_from(
                Some(then),
                "2026-11-26T10:00:00Z",
                Some(now),
                wall(now_wall),
            );
            assert_eq!(age, chrono::Duration::milliseconds(3500));
        }
    }

    #[test]
    fn after_a_reboot_the_age_is_at_least_the_time_since_it() {
        let age = age_from(
            Some("boot:old:999999999"),
            "2026-11-26T10:00:00Z",
            Some("boot:new:42000"),
            wall("2026-11-26T12:00:00Z"),
        );
        assert_eq!(age, chrono::Duration::seconds(42));
    }

    #[test]
    fn without_an_anchor_the_wall_clock_is_used_and_never_negative() {
        let at = "2026-11-26T10:00:00Z";
        assert_eq!(
            age_from(None, at, Some("boot:x:1"), wall("2026-11-26T10:02:00Z")),
            chrono::Duration::minutes(2)
        );
        assert_eq!(
            age_from(Some("garbage"), at, None, wall("2026-11-26T09:00:00Z")),
            chrono::Duration::zero()
        );
    }

    #[test]
    fn uptime_text_is_read_to_the_millisecond() {
        assert_eq!(uptime_ms("12345.67"), Some(12_345_670));
        assert_eq!(uptime_ms("7"), Some(7000));
        assert_eq!(uptime_ms("x.1"), None);
        #[cfg(target_os = "linux")]
        assert!(anchor_now().is_some_and(|a| parse(&a).is_some()));
    }
}
