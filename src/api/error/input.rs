//! What is refused before anything is sent (typed, so each front end says it in its own
//! words), and why a certificate was not trusted.

use crate::text::escape_controls;

/// A setting or value the clerk enters, named in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// The service's base URL.
    BaseUrl,
    /// The identity provider's URL.
    AuthUrl,
    /// The OAuth client id.
    ClientId,
    /// The OAuth client secret.
    ClientSecret,
    /// The OAuth audience.
    Audience,
    /// The API key.
    ApiKey,
    /// An invoice id.
    InvoiceId,
    /// A customer id.
    CustomerId,
}

impl Setting {
    /// The setting in English words.
    pub fn words(self) -> &'static str {
        match self {
            Setting::BaseUrl => "base URL",
            Setting::AuthUrl => "auth URL",
            Setting::ClientId => "client id",
            Setting::ClientSecret => "client secret",
            Setting::Audience => "audience",
            Setting::ApiKey => "API key",
            Setting::InvoiceId => "invoice id",
            Setting::CustomerId => "customer id",
        }
    }
}

/// Why something was refused before anything was sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// A required setting or value is empty.
    Missing(Setting),
    /// A value cannot be sent (too long, control characters).
    NotValid(Setting),
    /// An address that does not parse.
    BadAddress {
        /// Which address.
        what: Setting,
        /// As typed.
        text: String,
    },
    /// An address with a scheme other than https (or http to this computer).
    WrongScheme {
        /// Which address.
        what: Setting,
        /// The scheme it has.
        scheme: String,
    },
    /// The API-key header name is not a valid HTTP header name.
    BadHeaderName(String),
    /// The API key has characters that cannot go in a header.
    UnsendableKey,
    /// The system's certificate store could not be used (why, for engineers).
    NoCertificateStore(String),
    /// A new invoice without a customer.
    NoCustomer,
    /// A new invoice's amount is zero or negative.
    AmountNotPositive,
    /// More decimals than the currency has.
    TooManyDecimals {
        /// The currency's code.
        currency: String,
        /// Its decimals.
        max: u32,
    },
    /// A due date that is not `YYYY-MM-DD`.
    BadDueDate(String),
    /// An extra field that has its own place in the form.
    ReservedField(String),
    /// An extra field without a name.
    UnnamedField,
    /// A text longer than the service is sent (the field's name as the service knows it).
    TooLong {
        /// The field (`invoice_external_id`, `customer`, …).
        field: String,
        /// The most characters sent.
        max: usize,
    },
    /// The extra fields and metadata together are larger than is sent.
    ExtraTooLarge {
        /// The most bytes (as JSON).
        max: usize,
    },
    /// A sentence the front end already put in the clerk's language (e.g. "connect to a
    /// profile first").
    Said(String),
}

crate::engineers_text!(InputError);

/// Why a server's certificate was not trusted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CertError {
    /// Issued by an authority this computer does not know (a corporate proxy's own, or
    /// self-signed).
    UnknownIssuer,
    /// Expired or not yet valid.
    Expired,
    /// Issued for another name than the address used.
    WrongName,
    /// Another reason, as the TLS library said it.
    Other(String),
}

impl CertError {
    /// Classifies rustls's reason for refusing a certificate.
    pub fn from_certificate_error(e: &rustls::CertificateError) -> CertError {
        use rustls::CertificateError as C;
        match e {
            C::UnknownIssuer => CertError::UnknownIssuer,
            C::Expired
            | C::ExpiredContext { .. }
            | C::NotValidYet
            | C::NotValidYetContext { .. } => CertError::Expired,
            C::NotValidForName | C::NotValidForNameContext { .. } => CertError::WrongName,
            other => CertError::Other(escape_controls(&format!("{other:?}")).into_owned()),
        }
    }
}

crate::engineers_text!(CertError);
