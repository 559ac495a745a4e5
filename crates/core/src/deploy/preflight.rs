//! Before a deploy or a virtual-media run gives the manager its URLs, see that they work
//! from here: `HEAD` every `http://<svc_ip>:<port>/svc/<file>` the hosts' servers will mount
//! (each host's boot media and answer disk), a few at a time with a short timeout, and
//! compare the size each answers with the file in svc. A URL that does not answer, answers
//! an error or the wrong size would only show much later, as a server that cannot boot its
//! installer; so a run is refused (`409 svc_unreachable`, naming the hosts, the URL and why)
//! and a dry run lists the same sentences in its `warnings`.
//!
//! Bootsmith asks its own listener through the boot-server address, as the servers will:
//! this proves the address reaches this process, not that the servers' network does, which
//! the simulator's and the real managers' mounts report after the deploy (the `media` step).

use std::time::Duration;

use futures::StreamExt;

use crate::app::App;
use crate::error::{Error, ErrorCode, Problem, Result};
use crate::managers::DeploySpec;
use crate::managers::ADVICE;

use super::targets::media_files;

/// The `User-Agent` of the preflight's requests, so what records the servers' fetches from
/// svc can tell Bootsmith's own checks from a management controller mounting media.
pub const USER_AGENT: &str = concat!("bootsmith-preflight/", env!("CARGO_PKG_VERSION"));

/// How long a URL may take to answer.
const TIMEOUT: Duration = Duration::from_secs(3);
/// How many URLs are asked at the same time.
const AT_ONCE: usize = 16;
/// How many problems the refusal's sentence spells out (its details list all).
const IN_SENTENCE: usize = 3;

/// One URL the run hands out, with the hosts whose servers mount it.
struct Url {
    url: String,
    file: String,
    hosts: Vec<String>,
}

/// Check every URL of the run. A dry run gets the problems back as sentences for its
/// warnings; a real run with problems is refused with `409 svc_unreachable`.
pub(super) async fn check(app: &App, spec: &DeploySpec, dry_run: bool) -> Result<Vec<String>> {
    // Files never built are the Images screen's business, not the address's: asking the
    // listener for them would only blame the boot-server address for a 404.
    let unbuilt = unbuilt(app, spec);
    if !unbuilt.is_empty() && !dry_run {
        let heads: Vec<&str> = unbuilt.iter().map(|u| u.head.as_str()).collect();
        return Err(Error::Conflict {
            code: ErrorCode::MediaMissing,
            message: format!("{}: {BUILD}", heads.join("; ")),
            details: unbuilt
                .iter()
                .map(|u| Problem::field("media", u.sentence()))
                .collect(),
        });
    }
    let mut problems: Vec<(String, String)> = unbuilt
        .iter()
        .map(|u| (u.head.clone(), u.sentence()))
        .collect();
    problems.extend(self::problems(app, spec).await);
    if problems.is_empty() || dry_run {
        return Ok(problems.into_iter().map(|(_, s)| s).collect());
    }
    let heads: Vec<&str> = problems.iter().map(|(head, _)| head.as_str()).collect();
    let mut said = heads[..heads.len().min(IN_SENTENCE)].join("; ");
    if heads.len() > IN_SENTENCE {
        said.push_str(&format!(" (and {} more)", heads.len() - IN_SENTENCE));
    }
    Err(Error::Conflict {
        code: ErrorCode::SvcUnreachable,
        message: format!("{said}: servers could not fetch their install media; {ADVICE}"),
        details: problems
            .into_iter()
            .map(|(_, sentence)| Problem::field("media", sentence))
            .collect(),
    })
}

/// What an operator does about media that are not in svc.
const BUILD: &str = "not built yet; make the hosts' images on the Images screen first";

/// A host whose media files are not in svc at all.
pub(super) struct Unbuilt {
    pub(super) host: String,
    /// `node01: svc/node01.img missing`.
    head: String,
}

impl Unbuilt {
    /// The whole sentence, with what to do.
    fn sentence(&self) -> String {
        format!("{}, {BUILD}", self.head)
    }
}

/// The run's hosts with files that are not in svc at all.
pub(super) fn unbuilt(app: &App, spec: &DeploySpec) -> Vec<Unbuilt> {
    let mut out = Vec::new();
    for h in &spec.hosts {
        let missing: Vec<String> = media_files(&spec.os, h)
            .into_iter()
            .filter(|f| !app.svc_dir().join(f).is_file())
            .map(|f| format!("svc/{f}"))
            .collect();
        if !missing.is_empty() {
            out.push(Unbuilt {
                host: h.name.to_string(),
                head: format!("{}: {} missing", h.name, missing.join(" and ")),
            });
        }
    }
    out
}

/// What is wrong with the run's URLs (those whose file is in svc): for each, the short form (`node01: <url> does not
/// answer (connection refused)`) and the whole sentence with what it means and what to check.
async fn problems(app: &App, spec: &DeploySpec) -> Vec<(String, String)> {
    let base = spec.media.url();
    let mut urls: Vec<Url> = Vec::new();
    for h in &spec.hosts {
        for file in media_files(&spec.os, h) {
            if !app.svc_dir().join(&file).is_file() {
                continue; // unbuilt() names it
            }
            let url = format!("{base}{file}");
            match urls.iter_mut().find(|u| u.url == url) {
                Some(u) => u.hosts.push(h.name.to_string()),
                None => urls.push(Url {
                    url,
                    file,
                    hosts: vec![h.name.to_string()],
                }),
            }
        }
    }
    let client = match reqwest::Client::builder()
        .no_proxy()
        .timeout(TIMEOUT)
        .user_agent(USER_AGENT)
        .build()
    {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!(error = %e, "no HTTP client to check the install-media URLs with");
            return Vec::new();
        }
    };
    // Owned inputs: the stream's futures borrow nothing, so the caller's future stays Send.
    let asks: Vec<(usize, String, String, Option<u64>)> = urls
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let size = std::fs::metadata(app.svc_dir().join(&u.file))
                .map(|m| m.len())
                .ok();
            (i, u.url.clone(), u.file.clone(), size)
        })
        .collect();
    let answers: Vec<(usize, Option<String>)> = futures::stream::iter(asks)
        .map(move |(i, url, file, size)| {
            let client = client.clone();
            async move { (i, problem(&client, &url, &file, size).await) }
        })
        .buffer_unordered(AT_ONCE)
        .collect()
        .await;
    let mut found: Vec<(usize, String)> = answers
        .into_iter()
        .filter_map(|(i, p)| p.map(|p| (i, p)))
        .collect();
    found.sort();
    found
        .into_iter()
        .map(|(i, why)| {
            let u = &urls[i];
            let head = format!("{}: {} {why}", u.hosts.join(", "), u.url);
            let sentence = format!("{head}: servers could not fetch their install media; {ADVICE}");
            (head, sentence)
        })
        .collect()
}

/// What is wrong with one URL, in the operator's words (None: it answers with the size of
/// `svc/<file>`, `size` bytes).
async fn problem(
    client: &reqwest::Client,
    url: &str,
    file: &str,
    size: Option<u64>,
) -> Option<String> {
    let answer = match client.head(url).send().await {
        Ok(a) => a,
        Err(e) => return Some(unanswered(&e)),
    };
    let status = answer.status();
    if !status.is_success() {
        return Some(format!(
            "answers HTTP {} {}",
            status.as_u16(),
            status.canonical_reason().unwrap_or_default()
        ));
    }
    let length = answer
        .headers()
        .get(reqwest::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    match (length, size) {
        (None, _) => Some("answers without the file's size".to_owned()),
        (Some(got), Some(want)) if got != want => Some(format!(
            "answers with {got} bytes where svc/{file} has {want}"
        )),
        _ => None,
    }
}

/// A request that got no answer, in the operator's words.
fn unanswered(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        return format!("does not answer within {} s", TIMEOUT.as_secs());
    }
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            match io.kind() {
                std::io::ErrorKind::ConnectionRefused => {
                    return "does not answer (connection refused)".to_owned()
                }
                std::io::ErrorKind::TimedOut => {
                    return format!("does not answer within {} s", TIMEOUT.as_secs())
                }
                std::io::ErrorKind::AddrNotAvailable => {
                    return "does not answer (no route from this machine to that address)"
                        .to_owned()
                }
                _ => {}
            }
        }
        source = s.source();
    }
    let mut why = e.to_string();
    if let Some(inner) = std::error::Error::source(e) {
        why = format!("{why}: {inner}");
    }
    format!("does not answer ({why})")
}
