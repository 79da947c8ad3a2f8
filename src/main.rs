//! invoice-desk: no subcommand opens the desktop app; subcommands run headless.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<_> = std::env::args_os().collect();
    // The help and a usage error are said in the clerk's language, before clap reads on.
    let lang = invoice_desk::cli::help::lang_of(&args);
    invoice_desk::i18n::set(lang);
    let cli = invoice_desk::cli::help::parse_or_exit(args, lang);
    let _log = invoice_desk::logfile::start(&match &cli.command {
        Some(c) => invoice_desk::text::variant_name(c).to_lowercase(),
        None => "app".to_string(),
    });
    if cli.command.is_some() {
        return invoice_desk::cli::run(cli);
    }
    // The app's own language setting applies once it is running; until then, the system's.
    invoice_desk::i18n::set(invoice_desk::cli::LangArg::or_os(cli.lang));
    let rt = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("{}", invoice_desk::tr!("cli-could-not-start", why = e));
            return ExitCode::from(invoice_desk::cli::Exit::Failed.code());
        }
    };
    match invoice_desk::ui::run(&rt) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!(
                "{}",
                invoice_desk::tr!("cli-window-failed", why = e.to_string())
            );
            ExitCode::from(invoice_desk::cli::Exit::Failed.code())
        }
    }
}
