//! The standalone IMC driver: one rack server behind its own Cisco IMC. It has no service
//! profiles, templates or FSM: a deploy (and a media run, the same thing here) maps the
//! host's boot media as virtual CD and its answer disk as virtual HDD over HTTP from svc,
//! and sets a boot order of local disk, then those. The IMC mounts a mapping as soon as it
//! is made, so every run then follows the mappings until mounted or failed.

use std::time::{Duration, Instant};

use async_trait::async_trait;
use bootsmith_ucs::imc_media::{self, ImcMedia, RemoteImage};
use bootsmith_ucs::xml::Mo;
use bootsmith_ucs::{Endpoint, Kind, Wanted};

use super::model::*;
use super::ucs::{
    media_progress, report_media, Flavor, ImageMount, Mounted, UcsDriver, Unmount, Wants,
};
use super::{Driver, GroupKind, Numbering, ONE_SERVER_CAPABILITIES};
use crate::error::{Error, ErrorCode, Result};
use crate::jobs::{JobCtx, JobStep, StepState};
use crate::records::hosts::Host;
use bootsmith_model::catalog::BootMode;
use bootsmith_model::types::NodeId;

/// A standalone IMC: no templates, FSM stages or association to follow.
pub(super) const DRIVER: Driver = Driver {
    kind: GroupKind::Imc,
    numbering: Numbering::Domain,
    capabilities: ONE_SERVER_CAPABILITIES,
    connect: UcsDriver::<Imc>::connect,
};

/// The standalone IMC dialect.
#[derive(Default)]
pub(super) struct Imc;

/// How often a run looks at the mappings, and how long it waits for them.
const POLL: Duration = Duration::from_millis(500);
use super::ucsm::MOUNT_WAIT;

/// A mapping's `mappingStatus` (`OK`, `In Progress`, or the IMC's error text, which starts
/// with `ERROR`) as far as the mount got.
fn mapping_state(status: &str) -> Mounted {
    match status.trim() {
        "OK" => Mounted::Yes,
        "" | "In Progress" => Mounted::Pending,
        other => {
            let why = other
                .strip_prefix("ERROR")
                .or_else(|| other.strip_prefix("Error"))
                .unwrap_or(other)
                .trim_start_matches([':', ' ', '-']);
            Mounted::Failed(if why.is_empty() {
                "the IMC gives no reason".to_owned()
            } else {
                why.to_owned()
            })
        }
    }
}

/// The rack server of a standalone IMC: the one the host names, else the first.
fn server_dn(h: &Host) -> String {
    match &h.server {
        Some(NodeId::Rack(r)) => format!("sys/rack-unit-{}", r.id),
        _ => "sys/rack-unit-1".to_owned(),
    }
}

#[async_trait]
impl Flavor for Imc {
    const KIND: Kind = Kind::Imc;
    const REFUSED_KEEPS: &'static str =
        "the objects before it were written; run it again once fixed";
    const MOUNTS_WHEN_WRITTEN: bool = true;

    /// Its one host's boot media mapped as virtual CD (and the answer disk as HDD) over
    /// HTTP, and a boot order of local disk, CD, HDD.
    async fn wanted(
        &self,
        _ep: &Endpoint,
        spec: &DeploySpec,
        _what: What,
        _recorded: &[Recorded],
    ) -> Result<Wants> {
        let [h] = spec.hosts.as_slice() else {
            let names: Vec<&str> = spec.hosts.iter().map(|h| h.name.as_str()).collect();
            return Err(Error::invalid_field(
                ErrorCode::DeployNotReady,
                &format!("Server group {} cannot be deployed yet", spec.group.name),
                "hosts",
                format!(
                    "an IMC group is one rack server, so it takes one host; it has {}",
                    names.join(", ")
                ),
            ));
        };
        let share = spec.media.url();
        let image = |file: String| RemoteImage {
            share: share.clone(),
            file,
        };
        let media = ImcMedia {
            cd: image(spec.media_of(h.name.as_str()).boot.clone()),
            hdd: spec.media_of(h.name.as_str()).answer.clone().map(image),
            uefi: spec.os.boot == BootMode::Uefi,
        };
        Ok(Wants::from(imc_media::wanted(&server_dn(h), &media)))
    }

    /// An IMC group is one server with one host: every object of its plan is that host's.
    fn host_of<'a>(&self, spec: &'a DeploySpec, _dn: &str) -> Option<&'a Host> {
        match spec.hosts.as_slice() {
            [h] => Some(h),
            _ => None,
        }
    }

    /// An IMC cannot edit a mapping in place: unmount, then mount the new one.
    fn to_send(&self, wanted: &[Wanted], send: Vec<Mo>) -> Vec<Mo> {
        imc_media::remount(wanted, send)
    }

    fn server_of<'a>(
        &self,
        _spec: &DeploySpec,
        host: &Host,
        servers: &'a [Server],
    ) -> Option<&'a Server> {
        let dn = server_dn(host);
        servers.iter().find(|s| s.dn == dn)
    }

    /// Watch the host's mappings until the IMC has mounted them (`mappingStatus` `OK`) or
    /// failed (`ERROR…`), reporting the `media` step: one read per poll, the mappings and the
    /// rack server together.
    async fn follow(
        &self,
        ep: &Endpoint,
        spec: &DeploySpec,
        job: &JobCtx,
    ) -> Result<Vec<HostProgress>> {
        let [h] = spec.hosts.as_slice() else {
            return Ok(Vec::new()); // refused before anything was written
        };
        let name = h.name.as_str();
        let server = server_dn(h);
        let mut dns = vec![imc_media::mapping_dn(imc_media::CD_VOLUME)];
        if spec.media_of(name).answer.is_some() {
            dns.push(imc_media::mapping_dn(imc_media::HDD_VOLUME));
        }
        dns.push(server.clone());
        job.step(Some(name), JobStep::Media, StepState::Started, None);
        let started = Instant::now();
        loop {
            let found = ep.resolve_dns(&dns).await?;
            let power = found
                .iter()
                .find(|m| m.get("dn") == server)
                .map(|m| m.get("operPower").to_owned())
                .unwrap_or_default();
            let mounts: Vec<ImageMount> = dns[..dns.len() - 1]
                .iter()
                .map(
                    |dn| match found.iter().find(|m| m.get("dn") == dn.as_str()) {
                        Some(m) => ImageMount {
                            url: format!("{}{}", m.get("remoteShare"), m.get("remoteFile")),
                            state: mapping_state(m.get("mappingStatus")),
                        },
                        None => ImageMount {
                            url: dn.clone(),
                            state: Mounted::Pending,
                        },
                    },
                )
                .collect();
            let waited = started.elapsed();
            if let Some(media) = media_progress(name, &server, &mounts, waited > MOUNT_WAIT) {
                report_media(job, name, &media, waited);
                return Ok(vec![HostProgress {
                    host: name.to_owned(),
                    association: String::new(),
                    server,
                    power,
                    media: Some(media),
                }]);
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Both mappings and their boot devices go; the server boots its local disk.
    async fn unmount(&self, _ep: &Endpoint, _spec: &DeploySpec, host: &Host) -> Result<Unmount> {
        Ok(Unmount::Write {
            wanted: imc_media::unwanted(&server_dn(host)),
            done: None,
        })
    }
}
