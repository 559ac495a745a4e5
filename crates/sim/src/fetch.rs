//! What a management controller does when it mounts an image over HTTP: it asks the server
//! for the file's size (`HEAD`), then reads its first part by range (`Range: bytes=0-…`)
//! before it presents the image to the host. The simulator does the same against the URL in
//! the mount, so a deploy against it proves the URLs it was given work. The outcome is
//! reported as the manager reports it: on UCS Manager the server's actual mount entry
//! (`cimcvmediaActualMountEntry`: `operMountStatus` `mounted` or `mount-failed`, the reason in
//! `errorType`, whose words are ucsmsdk 0.9.27's value list), on an IMC the mapping's
//! `mappingStatus` (`OK`, or a text starting `ERROR`, which imcsdk's `vmedia_mount_create`
//! tests for).
//!
//! The fetches run in tasks of their own: the XML API answers at once, and the mount shows
//! `mounting` (`In Progress`) until the fetch ends.

use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{CONTENT_LENGTH, CONTENT_RANGE, RANGE};
use reqwest::StatusCode;

use crate::tree::Tree;
use crate::Shared;

/// How long a controller waits to connect, and for an answer.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);
/// The first part a controller reads, by range.
const FIRST_PART: u64 = 64 * 1024;

/// The HTTP client every mount of a simulator fetches with: no proxy (the controller talks to
/// the media server directly), short timeouts.
pub(crate) fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .connect_timeout(CONNECT_TIMEOUT)
        .timeout(ANSWER_TIMEOUT)
        .build()
        .expect("an HTTP client without TLS settings builds")
}

/// An image a controller mounts: the object reporting the mount and the URL to fetch.
#[derive(Debug, Clone)]
pub(crate) struct Mount {
    /// The UCS domain whose own tree holds the report (behind UCS Central), or None.
    pub domain: Option<u32>,
    /// The object reporting it: an actual mount entry (UCS Manager) or a mapping (IMC).
    pub dn: String,
    /// What to fetch; None for shares the simulator does not read (NFS, CIFS): mounted at once.
    pub url: Option<String>,
    /// Which mount of the object this is: a later one replaces it.
    pub seq: u64,
}

/// Why a mount failed: UCS Manager's `errorType` and the words an IMC shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    pub error_type: &'static str,
    pub text: String,
}

fn failure(error_type: &'static str, text: impl Into<String>) -> Failure {
    Failure {
        error_type,
        text: text.into(),
    }
}

/// Fetch every mount's URL, each in a task of its own, and report how it went.
pub(crate) fn mount(shared: &Arc<Shared>, mounts: Vec<Mount>) {
    for m in mounts {
        let shared = shared.clone();
        tokio::spawn(async move {
            let outcome = match &m.url {
                Some(url) => probe(&shared.http, url).await.map(|_| ()),
                None => Ok(()),
            };
            let mut st = shared.state.lock().expect("sim state lock");
            if st.mount_seq.get(&(m.domain, m.dn.clone())) != Some(&m.seq) {
                return; // unmounted or mounted again meanwhile
            }
            st.mount_seq.remove(&(m.domain, m.dn.clone()));
            let tree = match m.domain {
                Some(d) => match st.remote.get_mut(&d) {
                    Some(r) => &mut r.tree,
                    None => return,
                },
                None => &mut st.tree,
            };
            report(tree, &m.dn, outcome);
        });
    }
}

/// Write the outcome into the mount's object, in its manager's words.
fn report(tree: &mut Tree, dn: &str, outcome: Result<(), Failure>) {
    let Some(obj) = tree.get_mut(dn) else { return };
    if obj.class == "commVMediaMap" {
        match outcome {
            Ok(()) => obj.set("mappingStatus", "OK"),
            Err(f) => obj.set("mappingStatus", format!("ERROR: {}", f.text)),
        }
        return;
    }
    match outcome {
        Ok(()) => {
            obj.set("operMountStatus", "mounted");
            obj.set("errorType", "none");
        }
        Err(f) => {
            obj.set("operMountStatus", "mount-failed");
            obj.set("errorType", f.error_type);
        }
    }
}

/// `HEAD`, then a range read of the first part: the image's size when both answer as an
/// HTTP server a controller can mount from must.
pub(crate) async fn probe(client: &reqwest::Client, url: &str) -> Result<u64, Failure> {
    let head = client.head(url).send().await.map_err(transport)?;
    status(head.status())?;
    let size = head
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .ok_or_else(|| {
            failure(
                "http-server-no-content-length",
                "the server did not give the image's size",
            )
        })?;
    if size == 0 {
        return Err(failure("invalid-argument", "the image is empty"));
    }
    let last = size.min(FIRST_PART) - 1;
    let part = client
        .get(url)
        .header(RANGE, format!("bytes=0-{last}"))
        .send()
        .await
        .map_err(transport)?;
    if part.status() == StatusCode::OK {
        return Err(failure(
            "http-server-no-range-support",
            "the server does not support byte ranges",
        ));
    }
    status(part.status())?;
    if part.status() != StatusCode::PARTIAL_CONTENT {
        return Err(failure(
            "generic-failure",
            format!("a range read answered HTTP {}", part.status()),
        ));
    }
    let total = part
        .headers()
        .get(CONTENT_RANGE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit_once('/'))
        .and_then(|(_, t)| t.parse::<u64>().ok());
    if total != Some(size) {
        return Err(failure(
            "disk-io-failure",
            format!("the image's size changed between reads ({size} bytes, then {total:?})"),
        ));
    }
    let body = part.bytes().await.map_err(transport)?;
    if body.len() as u64 != last + 1 {
        return Err(failure(
            "disk-io-failure",
            format!(
                "read {} bytes of the first {} of the image",
                body.len(),
                last + 1
            ),
        ));
    }
    Ok(size)
}

/// A status a controller does not mount from.
fn status(s: StatusCode) -> Result<(), Failure> {
    if s.is_success() {
        return Ok(());
    }
    let text = format!(
        "HTTP {} {}",
        s.as_u16(),
        s.canonical_reason().unwrap_or_default()
    );
    Err(match s {
        StatusCode::NOT_FOUND | StatusCode::GONE => failure("file-not-found", text),
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => failure("authentication-failed", text),
        _ => failure("bad-path", text),
    })
}

/// A request that got no answer: refused, timed out, or cut.
fn transport(e: reqwest::Error) -> Failure {
    if e.is_timeout() {
        return failure("connection-timeout", "Connection timed out");
    }
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&e);
    while let Some(s) = source {
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::ConnectionRefused {
                return failure("connection-rejected", "Connection refused");
            }
            if io.kind() == std::io::ErrorKind::TimedOut {
                return failure("connection-timeout", "Connection timed out");
            }
        }
        source = s.source();
    }
    failure("generic-failure", e.to_string())
}

/// The URL a UCS Manager mount entry fetches: `<protocol>://<host>:<port><path><file>`, the
/// path joined to the file as is; None for shares it does not read over HTTP.
pub(crate) fn entry_url(
    protocol: &str,
    host: &str,
    port: &str,
    path: &str,
    file: &str,
) -> Option<String> {
    let default = match protocol {
        "http" => "80",
        "https" => "443",
        _ => return None,
    };
    let port = if port.is_empty() || port == "0" {
        default
    } else {
        port
    };
    let host = if host.contains(':') {
        format!("[{host}]")
    } else {
        host.to_owned()
    };
    let slash = if path.starts_with('/') { "" } else { "/" };
    Some(format!("{protocol}://{host}:{port}{slash}{path}{file}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_urls_join_path_and_file_as_ucs_does() {
        assert_eq!(
            entry_url("http", "127.0.0.1", "8080", "/svc/", "a.iso").as_deref(),
            Some("http://127.0.0.1:8080/svc/a.iso")
        );
        assert_eq!(
            entry_url("http", "fd00::5", "", "svc/", "a.img").as_deref(),
            Some("http://[fd00::5]:80/svc/a.img")
        );
        assert_eq!(entry_url("nfs", "10.0.0.1", "", "/x/", "a.iso"), None);
    }
}
