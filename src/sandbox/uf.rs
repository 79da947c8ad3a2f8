//! The sandbox's UF: a series shaped as the Banco Central's, served as the CMF serves
//! it, so the app's pesos work offline and in tests. From the 10th of a month to the 9th
//! of the next the UF moves by the month before's CPI, a little each day
//! (`UF₉ · (1 + IPC)^(k/N)`, rounded to the cent); the CPI here is a made-up but
//! plausible sequence (a month of deflation among them), and 26-11-2026 is 39.643,59.

use chrono::{Datelike, Months, NaiveDate};
use rust_decimal::{Decimal, MathematicalOps, RoundingStrategy};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The first day served.
pub const FIRST: (i32, u32, u32) = (2024, 1, 1);
/// The last 9th the series is made to (the days after are "not published").
const LAST_NINTH: (i32, u32) = (2027, 12);

/// The known day the series passes through.
const ANCHOR: (i32, u32, u32, &str) = (2026, 11, 26, "39643.59");

/// The monthly CPI, in tenths of a percent, month after month (cycled).
const CPI_TENTHS: [i64; 12] = [4, 3, 5, 2, 3, 1, 6, 2, 4, 3, -1, 2];

fn ninth(y: i32, m: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, 9).expect("the 9th is a day")
}

/// The CPI that moves the UF from the 9th of `d`'s month to the next 9th (the month
/// before's, in the real series).
fn cpi(from: NaiveDate) -> Decimal {
    let n = i64::from(from.year()) * 12 + i64::from(from.month0());
    Decimal::new(CPI_TENTHS[n.rem_euclid(12) as usize], 3)
}

/// A day's value in the period from the 9th `start` (value `v9`): `k` days in, of `n`.
fn within(v9: Decimal, rate: Decimal, k: u32, n: u32) -> Decimal {
    let factor = (Decimal::ONE + rate).powd(Decimal::from(k) / Decimal::from(n));
    (v9 * factor).round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero)
}

/// Every value of the series, by day.
fn series() -> &'static BTreeMap<NaiveDate, Decimal> {
    static SERIES: OnceLock<BTreeMap<NaiveDate, Decimal>> = OnceLock::new();
    SERIES.get_or_init(|| {
        let (ay, am, ad, av) = ANCHOR;
        let anchor_day = NaiveDate::from_ymd_opt(ay, am, ad).expect("a day");
        let anchor_value: Decimal = av.parse().expect("a value");
        // The 9th before the anchor whose period gives the anchor's value to the cent.
        let start = ninth(ay, am);
        let n = days_to_next_ninth(start);
        let k = (anchor_day - start).num_days() as u32;
        let rate = cpi(start);
        let guess = (anchor_value
            / (Decimal::ONE + rate).powd(Decimal::from(k) / Decimal::from(n)))
        .round_dp(2);
        let v9 = (-200..=200)
            .map(|c| guess + Decimal::new(c, 2))
            .min_by_key(|v| (within(*v, rate, k, n) - anchor_value).abs())
            .expect("a value");
        let mut nines = BTreeMap::from([(start, v9)]);
        // Back to the first month, then on to the last.
        let mut at = start;
        let mut value = v9;
        let first = NaiveDate::from_ymd_opt(FIRST.0, FIRST.1, FIRST.2).expect("a day");
        while at > first {
            let before = at - Months::new(1);
            value = (value / (Decimal::ONE + cpi(before))).round_dp(2);
            at = before;
            nines.insert(at, value);
        }
        // And from the anchor's 9th again, forward.
        let (mut at, mut value) = (start, v9);
        while at < ninth(LAST_NINTH.0, LAST_NINTH.1) {
            value = (value * (Decimal::ONE + cpi(at))).round_dp(2);
            at = at + Months::new(1);
            nines.insert(at, value);
        }
        let mut out = BTreeMap::new();
        for (&from, &v9) in &nines {
            out.insert(from, v9);
            let Some(&next) = nines.get(&(from + Months::new(1))) else {
                continue;
            };
            let n = days_to_next_ninth(from);
            for k in 1..n {
                out.insert(
                    from + chrono::Days::new(u64::from(k)),
                    within(v9, cpi(from), k, n),
                );
            }
            out.insert(from + Months::new(1), next);
        }
        out.retain(|d, _| *d >= first);
        out
    })
}

fn days_to_next_ninth(from: NaiveDate) -> u32 {
    ((from + Months::new(1)) - from).num_days() as u32
}

/// The values from `from` to `to` (both included) published by `today`.
pub fn values(from: NaiveDate, to: NaiveDate, today: NaiveDate) -> Vec<(NaiveDate, Decimal)> {
    let last = crate::uf::published_through(today).min(to);
    if last < from {
        return Vec::new();
    }
    series().range(from..=last).map(|(d, v)| (*d, *v)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn the_series_passes_through_the_known_day_and_moves_from_ninth_to_ninth() {
        let today = on(2026, 11, 26);
        let v = values(on(2026, 11, 26), on(2026, 11, 26), today);
        assert_eq!(v, vec![(on(2026, 11, 26), "39643.59".parse().unwrap())]);
        // Every day from the first has a value, up to the 9th of next month only.
        let all = values(on(2024, 1, 1), on(2030, 1, 1), today);
        assert_eq!(all.first().unwrap().0, on(2024, 1, 1));
        assert_eq!(all.last().unwrap().0, on(2026, 12, 9));
        assert_eq!(
            all.len() as i64,
            (on(2026, 12, 9) - on(2024, 1, 1)).num_days() + 1
        );
        // Within a period the UF moves one way only, by the CPI's sign.
        for w in all.windows(2) {
            let (a, b) = (w[0], w[1]);
            let rate = cpi(if a.0.day() >= 9 {
                ninth(a.0.year(), a.0.month())
            } else {
                ninth(a.0.year(), a.0.month()) - Months::new(1)
            });
            let step = b.1 - a.1;
            assert!(
                (step >= Decimal::ZERO) == (rate >= Decimal::ZERO) || step.is_zero(),
                "{a:?} → {b:?} at {rate}"
            );
            // And never by more than a cent or two a day per tenth of a percent.
            assert!(step.abs() < Decimal::from(30), "{a:?} → {b:?}");
        }
    }
}
