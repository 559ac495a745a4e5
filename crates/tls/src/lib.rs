//! TLS for connections to managers and BMCs (UCS XML API and Redfish alike): verified
//! normally, pinned to a fingerprint the operator accepted, or (explicitly) unverified. UCS
//! managers and BMCs ship self-signed certificates, so first contact reports the fingerprint
//! the operator can accept instead of silently trusting it. A failed request is classified
//! here too ([`classify`]), so every client tells a refused certificate from an unreachable
//! peer the same way.

use std::sync::{Arc, Mutex};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{ring, CryptoProvider};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use sha2::{Digest, Sha256};

/// How to trust a manager's or BMC's certificate.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Trust {
    /// Normal verification against the public web PKI roots.
    #[default]
    Verify,
    /// Accept exactly the certificate with this SHA-256 fingerprint (`AB:CD:…`).
    Pinned(String),
    /// Accept any certificate (the operator's explicit choice).
    Insecure,
}

/// SHA-256 of a DER certificate as upper-case hex pairs joined by `:`.
pub fn fingerprint(der: &[u8]) -> String {
    Sha256::digest(der)
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// Normalise a fingerprint as an operator may type it (case, separators).
pub fn normalize_fingerprint(s: &str) -> Option<String> {
    let hex: String = s
        .trim()
        .trim_start_matches("sha256:")
        .trim_start_matches("SHA256:")
        .chars()
        .filter(|c| !matches!(c, ':' | ' ' | '-'))
        .collect();
    if hex.len() != 64 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let up = hex.to_ascii_uppercase();
    Some(
        up.as_bytes()
            .chunks(2)
            .map(|p| std::str::from_utf8(p).expect("ascii"))
            .collect::<Vec<_>>()
            .join(":"),
    )
}

/// The certificate the server presented on the last handshake, for error messages.
#[derive(Debug, Default, Clone)]
pub struct Seen(Arc<Mutex<Option<String>>>);

impl Seen {
    /// Fingerprint of the last presented certificate.
    pub fn get(&self) -> Option<String> {
        self.0.lock().expect("seen lock").clone()
    }
}

/// What a failed request to a manager or BMC came to, told from its error's chain of causes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The certificate was refused. `presented` is the fingerprint it had, for the operator to
    /// accept; `pinned` the one it should have had when the trust was [`Trust::Pinned`].
    Certificate {
        presented: String,
        pinned: Option<String>,
        reason: String,
    },
    /// Anything else: refused, reset, DNS, or a handshake that failed before a certificate came.
    Unreachable { reason: String },
}

/// Classify the error of a request made with `trust` on a connection that noted its
/// certificates in `seen`. The `reason` is the error's last two causes: an HTTP client's outer
/// ones repeat the URL, the innermost say what happened ("invalid peer certificate: Expired").
pub fn classify(error: &dyn std::error::Error, trust: &Trust, seen: &Seen) -> Failure {
    let mut chain = error.to_string();
    let mut source = error.source();
    while let Some(s) = source {
        chain.push_str(": ");
        chain.push_str(&s.to_string());
        source = s.source();
    }
    let reason = short_reason(&chain);
    // rustls names the certificate, our verifier the fingerprint; without a certificate seen the
    // handshake broke off before one came, and there is nothing to accept.
    if chain.contains("certificate") || chain.contains("fingerprint") {
        if let Some(presented) = seen.get() {
            let pinned = match trust {
                Trust::Pinned(p) => Some(p.clone()),
                Trust::Verify | Trust::Insecure => None,
            };
            return Failure::Certificate {
                presented,
                pinned,
                reason,
            };
        }
    }
    Failure::Unreachable { reason }
}

fn short_reason(chain: &str) -> String {
    let parts: Vec<&str> = chain.split(": ").collect();
    parts[parts.len().saturating_sub(2)..].join(": ")
}

#[derive(Debug)]
struct Verifier {
    trust: Trust,
    webpki: Arc<dyn ServerCertVerifier>,
    provider: Arc<CryptoProvider>,
    seen: Seen,
}

impl ServerCertVerifier for Verifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let fp = fingerprint(end_entity.as_ref());
        *self.seen.0.lock().expect("seen lock") = Some(fp.clone());
        match &self.trust {
            Trust::Insecure => Ok(ServerCertVerified::assertion()),
            Trust::Pinned(p) if *p == fp => Ok(ServerCertVerified::assertion()),
            Trust::Pinned(_) => Err(rustls::Error::General(
                "certificate fingerprint does not match the pinned one".into(),
            )),
            Trust::Verify => {
                self.webpki
                    .verify_server_cert(end_entity, intermediates, server_name, ocsp, now)
            }
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

/// A rustls client configuration for `trust`, and the slot where the presented certificate is noted.
pub fn client_config(trust: Trust) -> (rustls::ClientConfig, Seen) {
    let provider = Arc::new(ring::default_provider());
    let roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let webpki = rustls::client::WebPkiServerVerifier::builder_with_provider(
        Arc::new(roots),
        provider.clone(),
    )
    .build()
    .expect("the web PKI roots are valid");
    let seen = Seen::default();
    let verifier = Verifier {
        trust,
        webpki,
        provider: provider.clone(),
        seen: seen.clone(),
    };
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("ring supports the default protocol versions")
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    (config, seen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_normalise() {
        let fp = fingerprint(b"cert");
        assert_eq!(fp.len(), 95);
        assert_eq!(
            normalize_fingerprint(&fp.to_lowercase().replace(':', "")),
            Some(fp.clone())
        );
        assert_eq!(normalize_fingerprint(&format!("sha256:{fp}")), Some(fp));
        assert_eq!(normalize_fingerprint("AB:CD"), None);
    }

    /// An error with a chain of causes, as reqwest's are.
    #[derive(Debug)]
    struct Chain(&'static str, Option<Box<Chain>>);

    impl std::fmt::Display for Chain {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
    }

    impl std::error::Error for Chain {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|c| c as _)
        }
    }

    fn chain(parts: &[&'static str]) -> Chain {
        let (first, rest) = parts.split_first().unwrap();
        Chain(first, (!rest.is_empty()).then(|| Box::new(chain(rest))))
    }

    #[test]
    fn failures_are_told_by_their_causes() {
        let expired = chain(&[
            "error sending request for url (https://10.0.0.5/nuova)",
            "client error (Connect)",
            "invalid peer certificate",
            "Expired",
        ]);
        let seen = Seen::default();
        assert_eq!(
            classify(&expired, &Trust::Verify, &seen),
            Failure::Unreachable {
                reason: "invalid peer certificate: Expired".into()
            },
            "no certificate seen: nothing to accept"
        );
        *seen.0.lock().unwrap() = Some("AA:BB".into());
        assert_eq!(
            classify(&expired, &Trust::Verify, &seen),
            Failure::Certificate {
                presented: "AA:BB".into(),
                pinned: None,
                reason: "invalid peer certificate: Expired".into()
            }
        );
        let changed = chain(&[
            "error sending request",
            "certificate fingerprint does not match the pinned one",
        ]);
        assert_eq!(
            classify(&changed, &Trust::Pinned("CC:DD".into()), &seen),
            Failure::Certificate {
                presented: "AA:BB".into(),
                pinned: Some("CC:DD".into()),
                reason:
                    "error sending request: certificate fingerprint does not match the pinned one"
                        .into()
            }
        );
        assert_eq!(
            classify(&chain(&["refused"]), &Trust::Insecure, &seen),
            Failure::Unreachable {
                reason: "refused".into()
            }
        );
    }
}
