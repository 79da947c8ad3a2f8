//! The `contracts` command's arguments (apart from args.rs, which holds the others), and
//! `--concurrency`'s reading, which `bulk` shares.

use clap::{Args, Subcommand};
use std::path::PathBuf;

/// `contracts` subcommands.
#[derive(Subcommand, Debug)]
pub enum ContractsCommand {
    /// Add contracts from a CSV or XLSX file with a header naming the columns, in
    /// English or Spanish: contract|contrato, customer|cliente (an id, or a name or RUT
    /// the directory knows), amount|monto, currency|moneda (CLP, UF/CLF or any the
    /// profile offers), bill_in|facturar_en (empty: the contract's currency; CLP: pesos
    /// at the UF of the day issued), every|cada (month|mes, quarter|trimestre,
    /// year|año; empty: month), day|dia (1–31, beyond the month's last day its last;
    /// empty: 1), due_days|dias_vencimiento (empty: 30), start|desde and end|hasta
    /// (YYYY-MM), reference|referencia (a pattern with {period}; empty:
    /// <contract>-<YYYY-MM>), description|glosa, metadata.NAME. Every row is checked
    /// first: any problem and nothing is kept (exit 2).
    Import {
        /// The file.
        file: PathBuf,
        /// The Excel sheet (default: the first).
        #[arg(long)]
        sheet: Option<String>,
    },
    /// List the contracts (with --json, one object per line).
    List,
    /// Show a contract: its terms from each period, pauses, end, and every change with
    /// who made it and when.
    Show {
        /// Contract id.
        id: String,
    },
    /// Change a contract's terms from a period on (earlier periods keep what they were
    /// billed); only the options given change.
    Change {
        /// Contract id.
        id: String,
        /// The first period the change applies to, YYYY-MM.
        #[arg(long, value_parser = parse_period)]
        from: crate::contracts::Period,
        /// The new amount.
        #[arg(long, allow_hyphen_values = true)]
        amount: Option<String>,
        /// The day of the period's month it is issued (1 to 31).
        #[arg(long)]
        day: Option<u32>,
        /// Days from issue to due.
        #[arg(long)]
        due_days: Option<u32>,
        /// The description.
        #[arg(long)]
        description: Option<String>,
    },
    /// End a contract: no period after this one is billed.
    End {
        /// Contract id.
        id: String,
        /// Its last period billed, YYYY-MM.
        #[arg(long, value_parser = parse_period)]
        after: crate::contracts::Period,
    },
    /// Pause a contract from a period on (those periods are never billed), until resumed.
    Pause {
        /// Contract id.
        id: String,
        /// The first period not billed, YYYY-MM.
        #[arg(long, value_parser = parse_period)]
        from: crate::contracts::Period,
    },
    /// Bill a paused contract again from a period on.
    Resume {
        /// Contract id.
        id: String,
        /// The first period billed again, YYYY-MM.
        #[arg(long, value_parser = parse_period)]
        from: crate::contracts::Period,
    },
    /// A period's run: every contract's periods through it not billed yet (missed ones
    /// too, each said), issued with the billing runs' machinery — each (contract,
    /// period) once. Without --yes, the plan only.
    Run(ContractsRunArgs),
}

/// `contracts run` arguments.
#[derive(Args, Debug)]
pub struct ContractsRunArgs {
    /// The period, YYYY-MM (default: the current one, on the desk's clock in its time
    /// zone).
    #[arg(long, value_parser = parse_period)]
    pub period: Option<crate::contracts::Period>,
    /// Send; without it the plan is shown and nothing is sent.
    #[arg(long)]
    pub yes: bool,
    /// Requests at once (1 to 64).
    #[arg(long, default_value_t = 4, value_parser = concurrency)]
    pub concurrency: u8,
    /// Write a CSV report (as `bulk --report`).
    #[arg(long)]
    pub report: Option<PathBuf>,
}

/// A period written `YYYY-MM`.
fn parse_period(s: &str) -> Result<crate::contracts::Period, String> {
    crate::contracts::Period::parse(s).ok_or_else(|| crate::tr!("cli-arg-not-a-period"))
}

/// `--concurrency`: 1 to 64 (clap's own range check would say why in English).
pub(super) fn concurrency(text: &str) -> Result<u8, String> {
    match text.trim().parse::<u8>() {
        Ok(n @ 1..=64) => Ok(n),
        _ => Err(crate::tr!("cli-arg-concurrency")),
    }
}
