//! invoice-desk: a desktop app (and CLI) for issuing, looking up, voiding and exporting
//! invoices on a Chilean invoicing service.

#![warn(missing_docs)]

pub mod address;
pub mod api;
pub mod bulk;
pub mod cli;
pub mod contracts;
pub mod doctor;
pub mod export;
pub mod fsutil;
pub mod i18n;
pub mod input;
pub mod journal;
pub mod logfile;
pub mod mail;
pub mod pdf;
pub mod profile;
pub mod receivables;
pub mod rut;
#[cfg(feature = "sandbox")]
pub mod sandbox;
pub mod search;
pub mod sheet;
pub mod text;
pub mod uf;
pub mod ui;
