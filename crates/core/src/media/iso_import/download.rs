//! Bringing an ISO into svc from a URL ([`fetch`]): the address and checksum checked, the
//! server asked and its first bytes seen to be an ISO image before the job starts, then the
//! download streamed into a hidden file of svc with byte progress, its size and SHA-256
//! checked, and named like any other import.

use std::fs::File;
use std::path::Path;
use std::time::{Duration, Instant};

use serde::Deserialize;
use tokio::io::AsyncWriteExt;
use utoipa::ToSchema;

use super::{
    check_name, check_os, conclude, create_temp, dest_free, is_iso_head, not_an_iso, place,
    write_error, Throttle, CHUNK, HEAD_LEN,
};
use crate::app::{blocking, App};
use crate::error::{Error, ErrorCode, Result};
use crate::jobs::{self, JobCtx, JobId, JobKind, JobStep, StepState};
use crate::media::isos::SVC_PREFIX;
use crate::media::svc::{self, SvcPath};

/// Job kind of downloads from a URL.
pub const FETCH_JOB_KIND: JobKind = JobKind::IsoFetch;

/// How long a web server may take to accept the connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long it may take to answer, and then to send the next piece: a server that stops
/// sending fails the download instead of leaving the job running for ever.
const SILENCE_TIMEOUT: Duration = Duration::from_secs(60);

/// What to download into svc: an ISO served over HTTP(S), typically on the local network.
#[derive(Clone, Deserialize, ToSchema)]
pub struct FetchInput {
    /// `http://` or `https://` address of the ISO file.
    #[schema(schema_with = bootsmith_model::schema::web_address)]
    pub url: String,
    /// The SHA-256 the file must have (64 hex digits); a download that differs is not kept.
    #[serde(default)]
    pub sha256: Option<String>,
    /// The name in svc; without one, the last part of the URL's path.
    #[serde(default)]
    #[schema(schema_with = bootsmith_model::schema::optional_iso_name)]
    pub file_name: Option<String>,
    /// Catalog OS id to map it to; without one it is mapped to the OS it is recognised as.
    #[serde(default)]
    pub os: Option<String>,
}

impl std::fmt::Debug for FetchInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The address may carry a password.
        let url =
            url::Url::parse(&self.url).map_or_else(|_| "(not a URL)".to_owned(), |u| shown_url(&u));
        f.debug_struct("FetchInput")
            .field("url", &url)
            .field("sha256", &self.sha256)
            .field("file_name", &self.file_name)
            .field("os", &self.os)
            .finish()
    }
}

/// Check everything, connect to `input.url` and see that it serves an ISO image, then download
/// it into svc as a job; the id comes back at once.
///
/// Refused before the job starts: an address that is not http(s) or names no file
/// (`invalid_url`), a malformed `sha256` (`invalid_sha256`), a bad name or OS, a name taken in
/// svc (409 `iso_exists`), a server that cannot be reached (502 `url_unreachable`), that
/// answers 404 (422 `url_not_found`) or another failure (502 `download_failed`), and content
/// that is not an ISO image (`not_an_iso`). Steps: `download` (with byte progress), `verify`
/// (with a `sha256`), then `inspect` and `map`; the result is an [`ImportResult`](super::ImportResult). The file is
/// written under a hidden name and named only when complete and verified: a download cut short
/// or with another SHA-256 (422 `checksum_mismatch`, naming both) leaves nothing in svc.
pub async fn fetch(app: &App, input: FetchInput) -> Result<JobId> {
    let FetchInput {
        url,
        sha256,
        file_name,
        os,
    } = input;
    let url = check_url(&url)?;
    let name = match file_name.filter(|n| !n.is_empty()) {
        Some(n) => n,
        None => url_file_name(&url)?,
    };
    let name = check_name(app, &name).await?;
    let os = check_os(app, os)?;
    let sha256 = sha256.as_deref().map(check_sha256).transpose()?.flatten();
    let svc = app.svc_dir().to_owned();
    {
        let (svc, name) = (svc.clone(), name.clone());
        blocking(move || dest_free(&svc, &name, None)).await?;
    }
    let shown = shown_url(&url);
    let client = reqwest::Client::builder()
        // The ISO is on the operator's network; a proxy meant for the internet would not reach it.
        .no_proxy()
        .connect_timeout(CONNECT_TIMEOUT)
        .build()
        .map_err(|e| Error::io("making an HTTP client", std::io::Error::other(e)))?;
    let mut response = open_url(&client, url, &shown).await?;
    let total = response.content_length();
    let head = read_head(&mut response, &shown).await?;
    if !is_iso_head(&head) {
        return Err(not_an_iso(&format!("what {shown} serves")));
    }
    let core = app.clone();
    let scope = format!("{SVC_PREFIX}{name}");
    jobs::start(app, FETCH_JOB_KIND, Some(scope), move |ctx| async move {
        ctx.step(None, JobStep::Download, StepState::Started, Some(&shown));
        let download = Download {
            shown: &shown,
            total,
            sha256: sha256.as_deref(),
            ctx: &ctx,
        };
        let bytes = match download.run(response, head, &svc, &name).await {
            Ok(b) => b,
            Err(e) => {
                ctx.step(
                    None,
                    JobStep::Download,
                    StepState::Failed,
                    Some(&e.to_string()),
                );
                return Err(e);
            }
        };
        let result = conclude(&core, name.as_str(), os, false, bytes, Some(&ctx)).await?;
        serde_json::to_value(result)
            .map_err(|e| Error::Corrupt(format!("import results do not serialize: {e}")))
    })
    .await
}

/// Only web addresses: a `file://` or other scheme would read what the operator did not mean to publish.
fn check_url(url: &str) -> Result<url::Url> {
    let parsed = url::Url::parse(url.trim()).map_err(|e| {
        // Said back as typed, unless it may hold a password (user:password@host).
        let what = if url.contains('@') {
            "The address".to_owned()
        } else {
            format!("'{}'", url.escape_debug())
        };
        url_error(format!("{what} is not a web address ({e})"))
    })?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        return Err(url_error(format!(
            "'{}' is not an http:// or https:// address",
            shown_url(&parsed)
        )));
    }
    Ok(parsed)
}

/// The last part of the URL's path, decoded: the name the file gets in svc unless one is given.
fn url_file_name(url: &url::Url) -> Result<String> {
    let last = url
        .path_segments()
        .and_then(|mut s| s.next_back())
        .unwrap_or("");
    let name = svc::percent_decode(last).unwrap_or_default();
    if name.is_empty() {
        return Err(url_error(format!(
            "{} does not end in a file name; give the name the ISO should have",
            shown_url(url)
        )));
    }
    Ok(name)
}

/// The URL as it may be shown and logged: without a password it may carry.
fn shown_url(url: &url::Url) -> String {
    let mut u = url.clone();
    if u.password().is_some() {
        let _ = u.set_password(Some("***"));
    }
    u.to_string()
}

/// 64 hex digits, any case, spaces around allowed; an empty field is none.
fn check_sha256(sha: &str) -> Result<Option<String>> {
    let sha = sha.trim();
    if sha.is_empty() {
        return Ok(None);
    }
    if sha.len() != 64 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Error::invalid_field(
            ErrorCode::InvalidSha256,
            "The ISO cannot be downloaded",
            "sha256",
            "a SHA-256 checksum is 64 hexadecimal digits (as sha256sum prints it)",
        ));
    }
    Ok(Some(sha.to_ascii_lowercase()))
}

/// Ask for the file; anything but a success is refused in the operator's words.
async fn open_url(
    client: &reqwest::Client,
    url: url::Url,
    shown: &str,
) -> Result<reqwest::Response> {
    let response = match tokio::time::timeout(SILENCE_TIMEOUT, client.get(url).send()).await {
        Err(_) => {
            return Err(unreachable_url(
                shown,
                &format!("it did not answer within {} s", SILENCE_TIMEOUT.as_secs()),
            ))
        }
        Ok(Err(e)) => return Err(unreachable_url(shown, &reason(&e.without_url()))),
        Ok(Ok(r)) => r,
    };
    let status = response.status();
    if status.is_success() {
        return Ok(response);
    }
    if matches!(status.as_u16(), 404 | 410) {
        return Err(Error::Unprocessable {
            code: ErrorCode::UrlNotFound,
            message: format!(
                "{shown} answered {status}: there is no file at that address; check the URL"
            ),
            details: Vec::new(),
        });
    }
    Err(Error::Remote {
        code: ErrorCode::DownloadFailed,
        message: format!("{shown} answered {status}: the ISO could not be downloaded"),
    })
}

/// The first bytes of the answer, enough to see the ISO signature (or all there is).
async fn read_head(response: &mut reqwest::Response, shown: &str) -> Result<Vec<u8>> {
    let mut head = Vec::with_capacity(HEAD_LEN);
    while head.len() < HEAD_LEN {
        match next_chunk(response, shown).await? {
            Some(c) => head.extend_from_slice(c.as_ref()),
            None => break,
        }
    }
    Ok(head)
}

/// The next piece of the body, or why the download broke off.
async fn next_chunk(
    response: &mut reqwest::Response,
    shown: &str,
) -> Result<Option<impl AsRef<[u8]> + Send>> {
    match tokio::time::timeout(SILENCE_TIMEOUT, response.chunk()).await {
        Ok(Ok(c)) => Ok(c),
        Ok(Err(e)) => Err(download_failed(shown, &reason(&e.without_url()))),
        Err(_) => Err(download_failed(
            shown,
            &format!("it sent nothing for {} s", SILENCE_TIMEOUT.as_secs()),
        )),
    }
}

/// One download into svc.
struct Download<'a> {
    shown: &'a str,
    /// The size the server announced.
    total: Option<u64>,
    sha256: Option<&'a str>,
    ctx: &'a JobCtx,
}

impl Download<'_> {
    /// Write `head` and the rest of `response` into a hidden file in svc, check the size and
    /// SHA-256, and name it `name`; on any failure the hidden file is removed.
    async fn run(
        &self,
        response: reqwest::Response,
        head: Vec<u8>,
        svc: &Path,
        name: &SvcPath,
    ) -> Result<u64> {
        let (tmp, file) = {
            let svc = svc.to_owned();
            blocking(move || create_temp(&svc)).await?
        };
        match self.write(response, head, file, name.as_str()).await {
            Ok(bytes) => {
                let (svc, name) = (svc.to_owned(), name.clone());
                blocking(move || place(tmp, &svc, &name)).await?;
                Ok(bytes)
            }
            Err(e) => {
                // Removing a large file can take a while: not on the async threads.
                let _ = blocking(move || {
                    drop(tmp);
                    Ok(())
                })
                .await;
                Err(e)
            }
        }
    }

    async fn write(
        &self,
        mut response: reqwest::Response,
        head: Vec<u8>,
        file: File,
        name: &str,
    ) -> Result<u64> {
        use sha2::{Digest, Sha256};
        let mut out = tokio::io::BufWriter::with_capacity(CHUNK, tokio::fs::File::from_std(file));
        let mut hash = Sha256::new();
        let mut throttle = Throttle::new(self.total.unwrap_or(0));
        let mut done = 0u64;
        let mut piece = head;
        loop {
            hash.update(&piece);
            out.write_all(&piece)
                .await
                .map_err(|e| write_error(name, e))?;
            done += piece.len() as u64;
            if throttle.due(done, Instant::now()) {
                let total = self.total.unwrap_or(done).max(done);
                self.ctx.bytes(JobStep::Download, None, done, total);
            }
            match next_chunk(&mut response, self.shown).await? {
                // Hyper hands out small pieces; the copy is cheap next to the disk write.
                Some(c) => {
                    piece.clear();
                    piece.extend_from_slice(c.as_ref());
                }
                None => break,
            }
        }
        out.flush().await.map_err(|e| write_error(name, e))?;
        out.into_inner()
            .sync_all()
            .await
            .map_err(|e| write_error(name, e))?;
        if let Some(total) = self.total.filter(|t| *t != done) {
            return Err(download_failed(
                self.shown,
                &format!("it announced {total} bytes and sent {done}"),
            ));
        }
        self.ctx.bytes(JobStep::Download, None, done, done);
        self.ctx.step(
            None,
            JobStep::Download,
            StepState::Done,
            Some(&format!("{done} bytes downloaded")),
        );
        let got = format!("{:x}", hash.finalize());
        if let Some(expected) = self.sha256 {
            if got != expected {
                let message = format!(
                    "The file downloaded from {} has the SHA-256 {got}, not the {expected} that was given: it was not kept. Check the checksum and the address.",
                    self.shown
                );
                self.ctx
                    .step(None, JobStep::Verify, StepState::Failed, Some(&message));
                return Err(Error::Unprocessable {
                    code: ErrorCode::ChecksumMismatch,
                    message,
                    details: Vec::new(),
                });
            }
            self.ctx.step(
                None,
                JobStep::Verify,
                StepState::Done,
                Some(&format!("SHA-256 {got}")),
            );
        }
        Ok(done)
    }
}

/// An error's sentence with its causes (reqwest's own says little: "error sending request").
fn reason(e: &dyn std::error::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ")
}

fn url_error(message: String) -> Error {
    Error::invalid_field(
        ErrorCode::InvalidUrl,
        "The ISO cannot be downloaded",
        "url",
        message,
    )
}

fn unreachable_url(shown: &str, why: &str) -> Error {
    Error::Remote {
        code: ErrorCode::UrlUnreachable,
        message: format!("{shown} could not be reached ({why}); check the address and that the machine serving it is up"),
    }
}

fn download_failed(shown: &str, why: &str) -> Error {
    Error::Remote {
        code: ErrorCode::DownloadFailed,
        message: format!(
            "the download from {shown} broke off ({why}); nothing was kept, try again"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_checksums_of_downloads() {
        let name = |u: &str| url_file_name(&check_url(u).unwrap());
        assert_eq!(
            name("http://files.lab/isos/Rocky%209.iso?x=1").unwrap(),
            "Rocky 9.iso"
        );
        assert_eq!(name("https://files.lab/a/b.iso#top").unwrap(), "b.iso");
        for none in [
            "http://files.lab/",
            "http://files.lab/isos/",
            "http://x/%ff.iso",
        ] {
            assert_eq!(name(none).unwrap_err().code(), "invalid_url", "{none}");
        }
        for bad in [
            "ftp://files.lab/x.iso",
            "file:///x.iso",
            "files.lab/x.iso",
            "",
        ] {
            assert_eq!(check_url(bad).unwrap_err().code(), "invalid_url", "{bad}");
        }
        let shown = shown_url(&check_url("http://me:pw@files.lab/x.iso").unwrap());
        assert_eq!(shown, "http://me:***@files.lab/x.iso");
        let sha = "AB".repeat(32);
        assert_eq!(
            check_sha256(&format!(" {sha} ")).unwrap(),
            Some("ab".repeat(32))
        );
        assert_eq!(check_sha256("  ").unwrap(), None);
        for bad in ["abc", &"g".repeat(64), &"a".repeat(65)] {
            assert_eq!(check_sha256(bad).unwrap_err().code(), "invalid_sha256");
        }
    }
}
