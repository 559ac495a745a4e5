//! HTTPS with a self-signed certificate, the way a UCS Manager ships.

use std::sync::Arc;

use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio_rustls::rustls::{self, ServerConfig};
use tokio_rustls::server::TlsStream;
use tokio_rustls::TlsAcceptor;

/// A new self-signed certificate and its key.
pub struct SelfSigned {
    cert: CertificateDer<'static>,
    key: PrivatePkcs8KeyDer<'static>,
    /// SHA-256 fingerprint as `AB:CD:…`.
    pub fingerprint: String,
}

impl SelfSigned {
    /// Generate one for 127.0.0.1 and localhost.
    pub fn generate() -> SelfSigned {
        let ck = rcgen::generate_simple_self_signed(vec!["127.0.0.1".into(), "localhost".into()])
            .expect("certificate generation");
        let cert = ck.cert.der().clone();
        let fingerprint = bootsmith_ucs::tls::fingerprint(cert.as_ref());
        SelfSigned {
            cert,
            key: PrivatePkcs8KeyDer::from(ck.key_pair.serialize_der()),
            fingerprint,
        }
    }
}

/// A TCP listener that completes the TLS handshake before handing connections to axum.
pub struct TlsListener {
    tcp: TcpListener,
    acceptor: TlsAcceptor,
}

impl TlsListener {
    pub fn new(tcp: TcpListener, cert: SelfSigned) -> std::io::Result<TlsListener> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(std::io::Error::other)?
            .with_no_client_auth()
            .with_single_cert(vec![cert.cert], PrivateKeyDer::Pkcs8(cert.key))
            .map_err(std::io::Error::other)?;
        Ok(TlsListener {
            tcp,
            acceptor: TlsAcceptor::from(Arc::new(config)),
        })
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let Ok((tcp, addr)) = self.tcp.accept().await else {
                continue;
            };
            // A client that rejects our certificate fails here; keep serving the others.
            if let Ok(tls) = self.acceptor.accept(tcp).await {
                return (tls, addr);
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.tcp.local_addr()
    }
}
