//! The journal's own cost of one create in a running program (the app, a billing run):
//! claim the reference with its intent, then record the outcome — on the journal named
//! by the first argument (a file path or a postgres:// address; the password from
//! INVOICE_DESK_JOURNAL_PASSWORD), N times (second argument, default 200). Prints the
//! median and the 90th percentile in microseconds. Used by benches/shared-journal.sh.

use invoice_desk::journal::{Action, Claimed, Guard, Intent, Journal, Settled};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(place) = args.next() else {
        eprintln!("usage: journal-claim PATH-OR-URL [N]");
        std::process::exit(2);
    };
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let mut j = match Journal::open(std::path::Path::new(&place)) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let run = std::process::id();
    let mut took = Vec::with_capacity(n);
    for i in 0..n {
        let intent = Intent {
            profile: "bench".into(),
            base_url: "http://127.0.0.1:1".into(),
            customer: Some(format!("cus_{}", i % 50)),
            amount: Some(format!("{}", 1000 + i)),
            external_id: Some(format!("BENCH-{run}-{i}")),
            service: "bench".into(),
            ..Intent::default()
        };
        let t = Instant::now();
        let seq = match j.claim(Action::Create, &intent, &Guard::default()) {
            Ok(Claimed::Claimed(seq)) => seq,
            other => panic!("{other:?}"),
        };
        j.record_outcome(seq, &Settled::done(Some(format!("in_{i}"))))
            .unwrap();
        took.push(t.elapsed().as_micros());
    }
    took.sort_unstable();
    println!(
        "{} {}",
        took[took.len() / 2],
        took[(took.len() * 9 / 10).min(took.len() - 1)]
    );
}
