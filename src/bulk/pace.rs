//! How many of a billing run's requests go at once: the run's concurrency while the
//! service answers in its usual time, fewer while its answers grow slow (a service
//! that queues work answers later the more it is sent), as the run already waits
//! when it answers 429 (#51).
//!
//! Written here rather than taken from a crate: the adaptive limiters on crates.io
//! are Tower layers or young, and this one must share the run's own turns (the
//! claims made ahead wait on them). It is a few comparisons a window of answers.

use std::time::Duration;

/// Answers this many times the service's unhurried time mean it is queuing...
const SLOW: u32 = 2;

/// ...when they are also this much later: on a service that answers within a few
/// milliseconds (the sandbox on this computer) twice is the scheduler's doing.
const SLOW_BY: Duration = Duration::from_millis(20);

/// Answers within 1.5 times the unhurried time (or within [`QUICK_BY`] of it) let more
/// go at once again.
const QUICK_NUM: u32 = 3;
const QUICK_DEN: u32 = 2;
const QUICK_BY: Duration = Duration::from_millis(10);

/// The fewest answers a decision rests on.
const WINDOW_MIN: usize = 8;

/// The limit, and what it rests on.
#[derive(Debug)]
pub struct Pace {
    most: usize,
    limit: usize,
    /// The service's unhurried answer time: the fastest seen, drifting up a twentieth a
    /// window towards each window's fastest, so a service that stays slower (not
    /// because of us) becomes the new usual and the run goes back to its concurrency.
    base: Option<Duration>,
    window: Vec<Duration>,
}

impl Pace {
    /// At most `most` at once (at least one).
    pub fn new(most: usize) -> Pace {
        let most = most.max(1);
        Pace {
            most,
            limit: most,
            base: None,
            window: Vec::with_capacity(most.max(WINDOW_MIN)),
        }
    }

    /// How many may go at once now.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// One successful answer's time. Once a window of them is in (as many as may go
    /// at once, at least [`WINDOW_MIN`]), returns the new limit when it changes: three
    /// quarters of it when their median is twice the unhurried time or more (and
    /// [`SLOW_BY`] later), a quarter more (up to the run's concurrency) when it is within
    /// 1.5 times.
    pub fn answered(&mut self, took: Duration) -> Option<usize> {
        self.window.push(took);
        if self.window.len() < self.limit.max(WINDOW_MIN) {
            return None;
        }
        self.window.sort_unstable();
        let (fastest, median) = (self.window[0], self.window[self.window.len() / 2]);
        self.window.clear();
        let Some(base) = self.base else {
            // The first window only says what usual is: its answers came on new
            // connections.
            self.base = Some(fastest);
            return None;
        };
        let base = fastest.min(base.saturating_add(base / 20));
        self.base = Some(base);
        let new = if median >= base.saturating_mul(SLOW) && median >= base.saturating_add(SLOW_BY) {
            (self.limit * 3 / 4).max(1)
        } else if median.saturating_mul(QUICK_DEN) <= base.saturating_mul(QUICK_NUM)
            || median <= base.saturating_add(QUICK_BY)
        {
            (self.limit + self.limit.div_ceil(4)).min(self.most)
        } else {
            self.limit
        };
        if new == self.limit {
            return None;
        }
        self.limit = new;
        Some(new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Feeds `n` answers of `took` (ms, cycling), returns the limit after.
    fn feed(p: &mut Pace, n: usize, took: &[u64]) -> usize {
        for i in 0..n {
            p.answered(ms(took[i % took.len()]));
        }
        p.limit()
    }

    #[test]
    fn answers_in_the_usual_time_keep_the_run_at_its_concurrency() {
        // The sandbox at 50 ms under load: 51–62 ms.
        let mut p = Pace::new(64);
        assert_eq!(
            feed(&mut p, 64 * 200, &[51, 53, 52, 56, 62, 54, 51, 58]),
            64
        );
    }

    #[test]
    fn answers_twice_as_slow_send_fewer_at_once_and_quick_ones_more_again() {
        let mut p = Pace::new(16);
        feed(&mut p, 32, &[50, 51, 52]);
        assert_eq!(p.limit(), 16);
        // The service queues: every window of slow answers takes a quarter off.
        assert_eq!(feed(&mut p, 16, &[120, 130]), 12);
        assert_eq!(feed(&mut p, 12, &[120, 130]), 9);
        let low = feed(&mut p, 9 + 8 + 8 + 8 + 8, &[120, 130]);
        assert!(low <= 3, "{low}");
        // It answers quickly again: back up to the run's concurrency, never beyond.
        let back = feed(&mut p, 400, &[50, 52]);
        assert_eq!(back, 16);
        assert_eq!(feed(&mut p, 400, &[49, 50]), 16);
    }

    #[test]
    fn answers_of_a_few_milliseconds_that_jitter_cut_nothing() {
        // The sandbox without latency under load: 0–9 ms, the scheduler's doing.
        let mut p = Pace::new(32);
        assert_eq!(feed(&mut p, 32 * 100, &[0, 1, 3, 9, 4, 6, 8, 2]), 32);
    }

    #[test]
    fn never_fewer_than_one_at_once() {
        let mut p = Pace::new(4);
        feed(&mut p, 8, &[10]);
        assert_eq!(feed(&mut p, 8 * 40, &[1000]), 1);
        // A run of one stays one.
        let mut one = Pace::new(0);
        assert_eq!(feed(&mut one, 100, &[10, 500]), 1);
    }

    #[test]
    fn a_service_that_stays_slower_becomes_the_usual_and_the_run_goes_back_to_its_concurrency() {
        let mut p = Pace::new(32);
        feed(&mut p, 32 * 3, &[20, 21]);
        // Slower for good (another route to it, say): fewer at once at first...
        let low = feed(&mut p, 32 + 24 + 18, &[100, 101]);
        assert!(low < 32, "{low}");
        // ...then 100 ms is what usual is, and the run takes its concurrency back.
        assert_eq!(feed(&mut p, 8 * 200 + 32 * 20, &[100, 101]), 32);
    }

    #[test]
    fn the_first_window_on_new_connections_cuts_nothing() {
        let mut p = Pace::new(8);
        // New connections (a TLS handshake each) then the usual time.
        assert_eq!(feed(&mut p, 8, &[300, 320, 290]), 8);
        assert_eq!(feed(&mut p, 80, &[50, 52]), 8);
    }
}
