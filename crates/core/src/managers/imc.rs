//! The standalone IMC driver: one rack server behind its own Cisco IMC. It has no service
//! profiles, templates or FSM: a deploy (and a media run, the same thing here) maps the
//! host's boot media as virtual CD and its answer disk as virtual HDD over HTTP from svc,
//! and sets a boot order of local disk, then those.

use async_trait::async_trait;
use bootsmith_ucs::imc_media::{self, ImcMedia, RemoteImage};
use bootsmith_ucs::xml::Mo;
use bootsmith_ucs::{Endpoint, Kind, Wanted};

use super::model::*;
use super::ucs::{Flavor, UcsDriver, Wants};
use super::{Capability, Driver, GroupKind, Numbering};
use crate::catalog::BootMode;
use crate::error::{Error, Result};
use crate::hosts::Host;
use crate::images;
use crate::jobs::JobCtx;
use crate::types::NodeId;

/// A standalone IMC: no templates, FSM stages or association to follow.
pub(super) const DRIVER: Driver = Driver {
    kind: GroupKind::Imc,
    numbering: Numbering::Domain,
    capabilities: &[
        Capability::Inventory,
        Capability::Power,
        Capability::Disks,
        Capability::DiskReset,
        Capability::InstallMedia,
        Capability::Deploy,
        Capability::Undeploy,
    ],
    connect: UcsDriver::<Imc>::connect,
};

/// The standalone IMC dialect.
#[derive(Default)]
pub(super) struct Imc;

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
                "deploy_not_ready",
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
            cd: image(images::boot_media(&spec.os, h.name.as_str())),
            hdd: images::answer_disk(&spec.os, h.name.as_str()).map(image),
            uefi: spec.os.boot == BootMode::Uefi,
        };
        Ok(Wants::from(imc_media::wanted(&server_dn(h), &media)))
    }

    fn host_of<'a>(&self, _spec: &'a DeploySpec, _dn: &str) -> Option<&'a Host> {
        None
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

    async fn follow(
        &self,
        _ep: &Endpoint,
        _spec: &DeploySpec,
        _job: &JobCtx,
    ) -> Result<Vec<HostProgress>> {
        // The capability is not declared, so the core never asks.
        Ok(Vec::new())
    }

    /// Both mappings and their boot devices go; the server boots its local disk.
    fn unmount(
        &self,
        _spec: &DeploySpec,
        host: &Host,
    ) -> std::result::Result<Vec<Wanted>, &'static str> {
        Ok(imc_media::unwanted(&server_dn(host)))
    }
}
