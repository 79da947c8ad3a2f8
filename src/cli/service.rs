//! The commands that talk to the service, each in its own function (as ripgrep hands
//! each mode to its own): `run` opens the profile's service once and dispatches; create
//! and void are in `create_cmd.rs`, list and export in `export_cmd.rs`, statements in
//! `statement_cmd.rs`, receivables in `receivables_cmd.rs`; the service itself and what
//! the writing commands share in `at_service.rs`. Here: the dispatch, `token`, `get`.

use super::at_service::Service;
use super::output::print_invoice;
use super::{CliError, Command};
use crate::api::TokenState;
use crate::tr;

/// Runs a command that talks to the service: each to its own function.
pub(super) async fn run(cmd: Command, profile: Option<&str>, json: bool) -> Result<(), CliError> {
    let svc = Service::open(profile)?;
    match cmd {
        Command::Token => token(&svc).await,
        Command::Create(a) => super::create_cmd::create(&svc, a, json).await,
        Command::Get { id } => get(&svc, &id, json).await,
        Command::Void { id, yes } => super::create_cmd::void(&svc, &id, yes, json).await,
        Command::List { customer, format } => {
            super::export_cmd::list(&svc, &customer, format, json).await
        }
        Command::Export {
            customer,
            out,
            format,
            dialect,
            as_of,
        } => {
            let ask = super::export_cmd::Export {
                customer,
                out,
                format,
                dialect,
                as_of,
            };
            super::export_cmd::export(&svc, ask).await
        }
        Command::Statement {
            customer,
            out,
            as_of,
            all,
            uf_pesos,
        } => {
            let ctx = svc.statement_ctx(as_of, all, uf_pesos).await;
            super::statement_cmd::one(&ctx, &customer, &out).await
        }
        Command::Statements {
            customers,
            all_known,
            out,
            as_of,
            all,
            dialect,
            uf_pesos,
        } => {
            let ctx = svc.statement_ctx(as_of, all, uf_pesos).await;
            super::statement_cmd::many(
                &ctx,
                customers.as_deref(),
                all_known,
                &out,
                dialect.map_or_else(
                    || match crate::i18n::current() {
                        crate::i18n::Lang::Es => crate::export::Dialect::ExcelEs,
                        crate::i18n::Lang::En => crate::export::Dialect::Standard,
                    },
                    Into::into,
                ),
            )
            .await
        }
        Command::Receivables {
            customers,
            as_of,
            only_overdue,
            older_than,
            out,
        } => {
            let ask = super::receivables_cmd::Ask {
                customers: customers.as_deref(),
                as_of: as_of.unwrap_or_else(|| chrono::Local::now().date_naive()),
                only: crate::receivables::Only {
                    overdue: only_overdue,
                    older_than,
                },
                out: out.as_deref(),
                json,
            };
            super::receivables_cmd::run(&svc.client, &ask).await
        }
        // Dispatched by `cli::run` before the service is opened.
        Command::Profile(_)
        | Command::Sandbox(_)
        | Command::Doctor
        | Command::Journal(_)
        | Command::Customers(_)
        | Command::Email(_)
        | Command::Uf(_)
        | Command::Find { .. }
        | Command::Bulk(_)
        | Command::Contracts(_)
        | Command::Approvals(_) => Ok(()),
    }
}

/// `invoice-desk token`: whether the profile's credentials get a token, and until when.
async fn token(svc: &Service) -> Result<(), CliError> {
    let report = svc.client.check_connection().await?;
    match report.token {
        TokenState::Valid {
            expires_at: Some(t),
        } => {
            let left = (t - chrono::Utc::now()).num_minutes();
            say!(
                "{}",
                tr!(
                    "cli-token-valid-until",
                    until = crate::i18n::moment(&t.to_rfc3339()),
                    minutes = left
                )
            );
        }
        TokenState::Valid { expires_at: None } => {
            say!("{}", tr!("cli-token-valid"))
        }
        TokenState::NotUsed => {
            say!("{}", tr!("cli-token-api-key"))
        }
        other => say!("{}", tr!("cli-token-state", state = format!("{other:?}"))),
    }
    Ok(())
}

/// `invoice-desk get ID`.
async fn get(svc: &Service, id: &str, json: bool) -> Result<(), CliError> {
    print_invoice(&svc.client.get_invoice(id).await?, json);
    Ok(())
}
