//! The commands that talk to the service: token, create, get, void, list, export.

use super::output::{ListSink, print_invoice};
use super::{Command, Failure, ListFormat, settings, write_failure};
use crate::api::{Client, CurrencyChoice, NewInvoice, TokenState, money};
use crate::text::escape_controls;
use std::io::{IsTerminal, Write};

pub(super) async fn service_command(
    cmd: Command,
    profile: Option<&str>,
    json: bool,
) -> Result<(), Failure> {
    let resolved = settings::resolve(profile)?;
    let client = Client::new(resolved.config).map_err(Failure::from)?;
    match cmd {
        Command::Token => {
            let report = client.check_connection().await?;
            match report.token {
                TokenState::Valid {
                    expires_at: Some(t),
                } => {
                    let left = (t - chrono::Utc::now()).num_minutes();
                    println!(
                        "Token valid until {} (in {left} minutes).",
                        t.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M")
                    );
                }
                TokenState::Valid { expires_at: None } => {
                    println!("Token valid (the provider did not say for how long).")
                }
                TokenState::NotUsed => println!(
                    "This profile uses an API key: there is no token. The key was accepted."
                ),
                other => println!("Token state: {other:?}"),
            }
            Ok(())
        }
        Command::Create(a) => {
            let currency = match a.currency {
                Some(c) if !resolved.currencies.contains(&c) => {
                    let offered: Vec<&str> = resolved.currencies.iter().map(|c| c.code()).collect();
                    return Err(Failure::usage(format!(
                        "{c} is not among this profile's currencies ({}). Add it to the profile \
                         (invoice-desk profile add … --currencies {},{c}) or set \
                         INVOICE_DESK_CURRENCIES.",
                        offered.join(", "),
                        offered.join(",")
                    )));
                }
                Some(c) => CurrencyChoice::Code(c),
                None => CurrencyChoice::AccountDefault,
            };
            let reading = currency.currency().or(resolved.account_currency);
            let amount = money::parse_amount_input(&a.amount, reading)
                .map_err(|e| Failure::usage(e.to_string()))?;
            let (extra, metadata) =
                crate::input::parse_assignments(a.fields.iter().map(String::as_str))
                    .map_err(|e| Failure::usage(format!("--field {e}")))?;
            let reference = a
                .external_id
                .clone()
                .unwrap_or_else(crate::input::fresh_reference);
            let inv = NewInvoice {
                customer: a.customer.clone(),
                amount,
                currency,
                product_id: a.product.clone(),
                due_date: a
                    .due
                    .as_deref()
                    .map(|d| {
                        crate::input::parse_date(d, crate::input::DateOrder::DayFirst)
                            .map(|d| d.format("%Y-%m-%d").to_string())
                            .map_err(|e| Failure::usage(format!("--due: {e}")))
                    })
                    .transpose()?,
                invoice_external_id: Some(reference.clone()).filter(|r| !r.is_empty()),
                metadata,
                extra,
            };
            match client.create_invoice(&inv, a.account_key.as_deref()).await {
                Ok(created) => {
                    print_invoice(&created, json);
                    Ok(())
                }
                Err(e) if e.is_outcome_unknown() => Err(Failure {
                    code: 6,
                    message: format!(
                        "{e}\nTo check: invoice-desk list {} --format json | grep '{reference}'\n(the external reference is {reference}; do not create it again before checking)",
                        a.customer
                    ),
                }),
                Err(e) => Err(e.into()),
            }
        }
        Command::Get { id } => {
            print_invoice(&client.get_invoice(&id).await?, json);
            Ok(())
        }
        Command::Void { id, yes } => {
            if !yes {
                if !std::io::stdin().is_terminal() {
                    return Err(Failure::usage(
                        "Refusing to void without --yes: stdin is not a terminal, so nobody can confirm.",
                    ));
                }
                let inv = client.get_invoice(&id).await?;
                eprint!(
                    "Void invoice {} of customer {} for {}? This cannot be undone. [y/N] ",
                    escape_controls(&inv.id),
                    escape_controls(inv.customer.as_deref().unwrap_or("?")),
                    escape_controls(&inv.amount_display())
                );
                let _ = std::io::stderr().flush();
                let mut answer = String::new();
                std::io::stdin()
                    .read_line(&mut answer)
                    .map_err(|e| Failure::usage(e.to_string()))?;
                if !matches!(answer.trim(), "y" | "Y" | "yes" | "s" | "si" | "sí") {
                    return Err(Failure::usage("Not voided."));
                }
            }
            match client.void_invoice(&id).await {
                Ok(v) => {
                    print_invoice(&v, json);
                    Ok(())
                }
                Err(e) if e.is_outcome_unknown() => Err(Failure {
                    code: 6,
                    message: format!(
                        "{e}\nTo check: invoice-desk get {id}   (look at is_void; do not void again before checking)"
                    ),
                }),
                Err(e) => Err(e.into()),
            }
        }
        Command::List { customer, format } => {
            let format = if json { ListFormat::Json } else { format };
            // Rows go to a temporary file as pages arrive (memory does not grow with the
            // listing) and to stdout only when the listing is complete.
            let mut sink = ListSink::new(format).map_err(write_failure)?;
            let mut failed = None;
            client
                .list_customer_invoices(&customer, |page, _| {
                    for inv in &page {
                        if let Err(e) = sink.push(inv) {
                            failed = Some(e);
                            return std::ops::ControlFlow::Break(());
                        }
                    }
                    std::ops::ControlFlow::Continue(())
                })
                .await
                .map_err(|e| match failed.take() {
                    Some(io) => write_failure(io),
                    None => Failure::from(e),
                })?;
            let n = sink
                .finish(&mut std::io::stdout().lock())
                .map_err(write_failure)?;
            eprintln!("{n} invoices.");
            Ok(())
        }
        Command::Export {
            customer,
            out,
            dialect,
        } => {
            // Checked before the first request: a bad path fails now, not after the
            // whole download.
            let target = crate::fsutil::check_destination(&out).map_err(|e| Failure {
                code: 2,
                message: format!("Cannot export to {}: {e}", out.display()),
            })?;
            let progress = std::io::stderr().is_terminal();
            let mut csv =
                crate::export::StreamingCsv::new(dialect.into()).map_err(|e| Failure {
                    code: 1,
                    message: format!("Could not start the export: {e}"),
                })?;
            let mut failed = None;
            client
                .list_customer_invoices(&customer, |page, p| {
                    for inv in &page {
                        if let Err(e) = csv.push(inv) {
                            failed = Some(e);
                            return std::ops::ControlFlow::Break(());
                        }
                    }
                    if progress {
                        eprint!("\r{} invoices ({} pages)…", p.items, p.pages);
                    }
                    std::ops::ControlFlow::Continue(())
                })
                .await
                .map_err(|e| match failed.take() {
                    Some(io) => Failure {
                        code: 4,
                        message: format!(
                            "Could not export: {io}. {} was not changed.",
                            out.display()
                        ),
                    },
                    None => {
                        let mut f = Failure::from(e);
                        f.message
                            .push_str(&format!("\n{} was not changed.", out.display()));
                        f
                    }
                })?;
            if progress {
                eprintln!();
            }
            let mut n = 0;
            crate::fsutil::write_user_file(&target, |w| {
                n = csv.finish(w, &std::sync::atomic::AtomicBool::new(false))?;
                Ok(())
            })
            .map_err(|e| Failure {
                code: 1,
                message: format!(
                    "Could not write {}: {e}. Any existing file was left as it was.",
                    out.display()
                ),
            })?;
            eprintln!("Exported {n} invoices to {}.", out.display());
            Ok(())
        }
        Command::Profile(_) | Command::Sandbox(_) | Command::Doctor => Ok(()),
    }
}
