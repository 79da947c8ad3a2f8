//! The async API layer: the four endpoints of the invoicing service and how requests are
//! authorized. It knows nothing of any user interface; the desktop app and the CLI both
//! use it.

pub mod auth;
pub mod client;
pub mod error;
pub mod http;
pub mod model;
pub mod money;

pub use auth::{ApiKeySettings, AuthSettings, OAuthSettings, TokenBodyStyle, TokenState};
pub use client::{
    Client, ClientConfig, ConnectionReport, ListProgress, checked_customer_id, checked_invoice_id,
};
pub use error::{
    Action, ApiError, CertError, Detail, ErrorKind, FieldError, InputError, Resource, Setting,
};
pub use model::{
    CurrencyChoice, Invoice, InvoiceStatus, NewInvoice, NextPage, Other, Page, safe_payment_link,
};
pub use money::{AmountError, Currency};
