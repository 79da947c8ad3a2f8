//! invoice-desk: no subcommand opens the desktop app; subcommands run headless.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "invoice-desk",
    version,
    about = "Issue, look up, void and export invoices (CLP/CLF)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the built-in sandbox: a local copy of the service and its token issuer.
    Sandbox {
        /// Port of the invoice API (0: any free port).
        #[arg(long, default_value_t = 8787)]
        port: u16,
        /// A separate port for the token issuer (default: same as the API).
        #[arg(long)]
        auth_port: Option<u16>,
        /// Seed of the generated data.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Invoices of the big customer cus_big (0: none).
        #[arg(long, default_value_t = 0)]
        big_customer: usize,
        /// Keep the data in this JSON file (loaded if it exists).
        #[arg(long)]
        data: Option<PathBuf>,
        /// Lifetime of issued tokens, in seconds.
        #[arg(long, default_value_t = 3600)]
        token_lifetime: u64,
        /// Latency added to every request, in milliseconds.
        #[arg(long, default_value_t = 0)]
        latency_ms: u64,
        /// Address to listen on (loopback unless told otherwise).
        #[arg(long, default_value = "127.0.0.1")]
        bind: std::net::IpAddr,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => run_app(),
        Some(Command::Sandbox {
            port,
            auth_port,
            seed,
            big_customer,
            data,
            token_lifetime,
            latency_ms,
            bind,
        }) => {
            let cfg = invoice_desk::sandbox::SandboxConfig {
                bind,
                port,
                auth_port,
                seed,
                big_customer_invoices: big_customer,
                data_file: data,
                token_lifetime: std::time::Duration::from_secs(token_lifetime.max(1)),
                latency: std::time::Duration::from_millis(latency_ms),
                ..Default::default()
            };
            run_sandbox(cfg)
        }
    }
}

fn run_app() -> ExitCode {
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

fn run_sandbox(cfg: invoice_desk::sandbox::SandboxConfig) -> ExitCode {
    let rt = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("Could not start: {e}");
            return ExitCode::from(1);
        }
    };
    rt.block_on(async {
        let port = cfg.port;
        match invoice_desk::sandbox::Sandbox::start(cfg).await {
            Ok(sandbox) => {
                println!("{}", sandbox.describe());
                println!("Press Ctrl+C to stop.");
                let _ = tokio::signal::ctrl_c().await;
                sandbox.stop().await;
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("The sandbox could not start: {e}");
                if e.kind() == std::io::ErrorKind::AddrInUse {
                    eprintln!(
                        "Port {port} is in use: choose another with --port (0 picks a free one)."
                    );
                }
                ExitCode::from(1)
            }
        }
    })
}
