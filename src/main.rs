//! invoice-desk: no subcommand opens the desktop app; subcommands run headless.

use clap::Parser;
use invoice_desk::cli::Cli;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.command.is_some() {
        return invoice_desk::cli::run(cli);
    }
    let rt = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("Could not start: {e}");
            return ExitCode::from(1);
        }
    };
    match invoice_desk::ui::run(&rt) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("The window could not be opened: {e}");
            ExitCode::from(1)
        }
    }
}
