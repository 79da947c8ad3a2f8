//! TLS for the shared journal: rustls with the platform's verifier, made only when a
//! connection asks for it (a desk on this computer's loopback never needs it).

/// rustls with the platform's certificate verifier, as the API layer uses.
fn tls() -> Result<tokio_postgres_rustls::MakeRustlsConnect, String> {
    let provider = std::sync::Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let verifier = rustls_platform_verifier::Verifier::new(provider.clone())
        .map_err(|e| format!("the certificate store cannot be used ({e})"))?;
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(std::sync::Arc::new(verifier))
        .with_no_client_auth();
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
}

/// The stream TLS gives the shared journal.
type TlsStream =
    <tokio_postgres_rustls::MakeRustlsConnect as tokio_postgres::tls::MakeTlsConnect<
        tokio_postgres::Socket,
    >>::Stream;

/// TLS for the shared journal, made only once the server has agreed to it. The system's
/// certificate store (a file and a folder of some 140 certificates, read and parsed) is
/// loaded by the verifier when it is made: every CLI process paid for it, even with
/// `sslmode=prefer` (the default) against a server that speaks plain.
#[derive(Clone, Copy)]
pub(super) struct LazyTls;

impl tokio_postgres::tls::MakeTlsConnect<tokio_postgres::Socket> for LazyTls {
    type Stream = TlsStream;
    type TlsConnect = LazyConnect;
    type Error = std::convert::Infallible;

    fn make_tls_connect(&mut self, domain: &str) -> Result<LazyConnect, Self::Error> {
        Ok(LazyConnect(domain.to_string()))
    }
}

/// [`LazyTls`] for one server name.
pub(super) struct LazyConnect(String);

impl tokio_postgres::tls::TlsConnect<tokio_postgres::Socket> for LazyConnect {
    type Stream = TlsStream;
    type Error = Box<dyn std::error::Error + Send + Sync>;
    type Future =
        std::pin::Pin<Box<dyn std::future::Future<Output = Result<TlsStream, Self::Error>> + Send>>;

    fn connect(self, stream: tokio_postgres::Socket) -> Self::Future {
        use tokio_postgres::tls::MakeTlsConnect;
        Box::pin(async move {
            let mut make = tls()?;
            let Ok(connect) =
                MakeTlsConnect::<tokio_postgres::Socket>::make_tls_connect(&mut make, &self.0);
            Ok(connect.connect(stream).await?)
        })
    }
}
