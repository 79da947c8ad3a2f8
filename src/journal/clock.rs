//! How long ago an intent was recorded, on a clock that cannot step.
//!
//! "Not created" may be concluded only once a request can no longer be on its way, so
//! the age of its intent must never come out too large. A wall clock can: an NTP step
//! after sleep, a PC minutes ahead, `faketime`. The shared journal asks its server
//! (every row is stamped by the server's clock). A journal file records with each
//! intent the kernel's boot id and the time since boot (Linux's boot clock, which no
//! clock step changes, read through the vDSO by rustix: not through libc, so no
//! `LD_PRELOAD` clock changes it either): on the same boot the age is the difference; on
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
fn read_boot() -> Option<(&'static str, i64)> {
    // Read once: a process never outlives its boot (it was a file read per intent).
    static BOOT: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let boot = BOOT.get_or_init(|| {
        let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
        let boot = boot.trim();
        (!boot.is_empty() && boot.len() <= 64 && !boot.contains(':')).then(|| boot.to_string())
    });
    Some((boot.as_deref()?, since_boot()?))
}

#[cfg(not(target_os = "linux"))]
fn read_boot() -> Option<(&'static str, i64)> {
    None
}

/// The milliseconds since boot, sleep included: `CLOCK_BOOTTIME`, the clock
/// `/proc/uptime` shows, without a file read and four system calls each time.
#[cfg(target_os = "linux")]
fn since_boot() -> Option<i64> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::Boottime);
    t.tv_sec
        .checked_mul(1000)?
        .checked_add(t.tv_nsec / 1_000_000)
}

#[cfg(not(target_os = "linux"))]
fn since_boot() -> Option<i64> {
    None
}

/// "12345.67" (seconds, as `/proc/uptime` writes them) as milliseconds (the tests
/// hold the boot clock to it).
#[cfg(test)]
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

/// A moment on this computer, to ask later whether little time has passed since it
/// (a claim made ahead of its request, [`super::write_ahead_gated`]): every clock it can
/// read must agree. The monotonic clock does not count a laptop's sleep, the wall clock
/// counts it but can be stepped, the boot clock (Linux) counts it and cannot be stepped.
#[derive(Clone, Copy, Debug)]
pub struct Moment {
    mono: std::time::Instant,
    wall: std::time::SystemTime,
    boot_ms: Option<i64>,
}

impl Moment {
    /// Now.
    pub fn now() -> Moment {
        Moment {
            mono: std::time::Instant::now(),
            wall: std::time::SystemTime::now(),
            boot_ms: since_boot(),
        }
    }

    /// Whether less than `limit` has passed since this moment on every clock; a wall
    /// clock gone backwards is a step that may hide a sleep, so it says no too.
    pub fn within(&self, limit: std::time::Duration) -> bool {
        let later = Moment::now();
        self.within_at(&later, limit)
    }

    fn within_at(&self, later: &Moment, limit: std::time::Duration) -> bool {
        let mono = later.mono.saturating_duration_since(self.mono) < limit;
        let wall = later
            .wall
            .duration_since(self.wall)
            .is_ok_and(|d| d < limit);
        let boot = match (self.boot_ms, later.boot_ms) {
            (Some(a), Some(b)) => {
                b >= a && u128::try_from(b - a).is_ok_and(|ms| ms < limit.as_millis())
            }
            _ => true,
        };
        mono && wall && boot
    }
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
    fn the_boot_clock_is_the_one_proc_uptime_shows() {
        assert_eq!(uptime_ms("12345.67"), Some(12_345_670));
        assert_eq!(uptime_ms("7"), Some(7000));
        assert_eq!(uptime_ms("x.1"), None);
        #[cfg(target_os = "linux")]
        {
            let uptime = || {
                let text = std::fs::read_to_string("/proc/uptime").unwrap();
                uptime_ms(text.split_whitespace().next().unwrap()).unwrap()
            };
            let before = uptime();
            let boot = since_boot().unwrap();
            let after = uptime();
            // /proc/uptime shows hundredths, cut.
            assert!(
                before <= boot && boot < after + 10,
                "{before} {boot} {after}"
            );
            let anchor = anchor_now().unwrap();
            let (id, ms) = parse(&anchor).unwrap();
            assert!(ms >= boot, "{anchor}");
            let file = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").unwrap();
            assert_eq!(id, file.trim());
        }
    }

    #[test]
    fn a_moment_is_recent_only_when_every_clock_says_so() {
        use std::time::{Duration, Instant, SystemTime};
        let t0 = Moment {
            mono: Instant::now(),
            wall: SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000),
            boot_ms: Some(50_000),
        };
        let later = |mono: u64, wall: i64, boot: Option<i64>| Moment {
            mono: t0.mono + Duration::from_millis(mono),
            wall: SystemTime::UNIX_EPOCH
                + Duration::from_secs(1_000_000)
                + Duration::from_millis(wall.max(0) as u64)
                - Duration::from_millis((-wall).max(0) as u64),
            boot_ms: boot,
        };
        let limit = Duration::from_secs(5);
        assert!(t0.within_at(&later(100, 100, Some(50_100)), limit));
        // A laptop's sleep: the monotonic clock stood still, the others went on.
        assert!(!t0.within_at(&later(100, 3_600_000, Some(3_650_000)), limit));
        assert!(!t0.within_at(&later(100, 100, Some(3_650_000)), limit));
        // The wall clock stepped back: no one can say how long passed.
        assert!(!t0.within_at(&later(100, -2_000, Some(50_100)), limit));
        assert!(!t0.within_at(&later(6_000, 100, Some(50_100)), limit));
        // Where there is no boot clock, the other two decide.
        assert!(t0.within_at(&later(100, 100, None), limit));
    }
}
