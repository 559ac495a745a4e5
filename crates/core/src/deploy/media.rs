//! Are the hosts' install media right for a deploy? Media built from inputs that changed
//! since (a new address, key or template) or missing from svc would install the wrong thing
//! or nothing: such a run is refused unless the operator says to go ahead (`allow_stale`).

use super::DeployRequest;
use crate::app::App;
use crate::error::{Error, ErrorCode, Problem, Result};
use crate::managers::DeploySpec;

/// Sentences naming each host whose media are stale or missing. A run with such hosts is
/// refused with `409 media_stale`, unless `allow_stale` or a dry run (whose plan lists them).
pub(super) async fn unusable(
    app: &App,
    spec: &DeploySpec,
    request: DeployRequest,
) -> Result<Vec<String>> {
    let mut bad = crate::host_views::unusable_media(app, &spec.hosts).await?;
    // Hosts with files not in svc at all hear it from the preflight, with what to do.
    let unbuilt = super::preflight::unbuilt(app, spec);
    bad.retain(|(h, _)| !unbuilt.iter().any(|u| u.host == *h));
    let sentences: Vec<String> = bad.iter().map(|(h, why)| format!("{h}: {why}")).collect();
    if bad.is_empty() || request.dry_run || request.allow_stale {
        if !bad.is_empty() && request.allow_stale && !request.dry_run {
            tracing::warn!(group = %spec.group.name, hosts = %sentences.join("; "), "deploying with stale or missing media, as asked (allow_stale)");
        }
        return Ok(sentences);
    }
    let names: Vec<&str> = bad.iter().map(|(h, _)| h.as_str()).collect();
    Err(Error::Conflict {
        code: ErrorCode::MediaStale,
        message: format!(
            "The install media of {} are stale or missing: make their images again, or go ahead anyway with allow_stale. {}",
            names.join(", "),
            sentences.join("; ")
        ),
        details: bad
            .into_iter()
            .map(|(h, why)| {
                let i = spec.hosts.iter().position(|x| x.name.as_str() == h).unwrap_or(0);
                Problem::field("media", why).at(i, Some(&h))
            })
            .collect(),
    })
}
