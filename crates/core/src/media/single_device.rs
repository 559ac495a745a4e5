//! Single-device media: for a BMC with one virtual-media device, one boot ISO per host
//! (`svc/<host>/boot.iso`) whose boot entries fetch the host's answer files over HTTP instead
//! of from a second, answer-disk device.

use serde::Serialize;
use utoipa::ToSchema;

use crate::app::{blocking, App};
use crate::error::{Error, ErrorCode, Result};
use crate::jobs::JobCtx;
use crate::media::isos;
use crate::records::hosts::{self, Host};
use crate::records::{networks, settings};
use bootsmith_media::boot::BootNet;
use bootsmith_model::catalog::Family;

use super::boot_isos::{build_boot_iso, AnswerSource};
use super::layout::{
    base_url, boot_media, host_os, http_answers, shadows_a_tree, single_device_iso, target,
    target_nested,
};

/// Remove `h`'s single-device ISO when what it was built from changed (the boot-server
/// address or port in its URLs, the OS's ISO): [`single_device_media`] builds it again.
/// Called before a rebuild records the new inputs.
pub(super) async fn drop_outdated_single_device_iso(
    app: &App,
    h: &Host,
    now: &crate::lifecycle::Inputs,
) -> Result<()> {
    let path = target_nested(app.svc_dir(), &single_device_iso(h.name.as_str()))?;
    if !path.exists() {
        return Ok(());
    }
    let then = crate::lifecycle::recorded_inputs(app.store(), h).await?;
    let same = |k: &str| then.as_ref().is_some_and(|t| t.get(k) == now.get(k));
    if same("boot_server") && same("iso") {
        return Ok(());
    }
    std::fs::remove_file(&path)
        .map_err(|e| Error::io(format!("removing the outdated {}", path.display()), e))?;
    tracing::info!(host = %h.name, "single-device ISO removed: built from other inputs");
    Ok(())
}

/// What a BMC with one virtual-media device mounts for a host.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SingleDevice {
    /// Host name.
    pub host: String,
    /// `/svc/<host>/boot.iso` (an ESXi host: its own `/svc/<host>.iso`).
    pub file: String,
    /// The URL to mount: `http://<svc_ip>:<port>/svc/…`.
    pub url: String,
    /// True when built now, false when it was there.
    pub built: bool,
    /// The answer files its installer fetches over HTTP (`/svc/<host>/ks.cfg`); empty for
    /// ESXi, whose kickstart is on its ISO.
    pub answers: Vec<String>,
}

/// The one image a BMC with a single virtual-media device mounts to install `name`, built
/// when missing: `svc/<host>/boot.iso`, whose boot entries fetch the host's answer files
/// from `svc/<host>/` over HTTP. An ESXi host's own ISO already carries its kickstart, so it
/// is returned as it is. The host's images must have been made (they write the answer
/// files, with the install token); Windows cannot install this way (WinPE reads its answer
/// disk). Progress goes to `job` (the deploy's). For the Redfish driver: mount `url`.
///
/// `inventory_macs` is the NIC inventory gives a host that names no MAC (see
/// [`crate::deploy`]'s plan): its boot address goes on that NIC.
pub async fn single_device_media(
    app: &App,
    job: &JobCtx,
    name: &str,
    inventory_macs: &[String],
) -> Result<SingleDevice> {
    let h = hosts::get(app, name).await?;
    let os = host_os(&app.catalog(), h.name.as_str(), &h.os)?;
    let host = h.name.to_string();
    let svc_port = app.svc_port();
    let svc_ip = settings::svc_ip(app).await?;
    let (Some(svc_ip), true) = (svc_ip, svc_port != 0) else {
        return Err(Error::Unprocessable {
            code: ErrorCode::SvcNotServed,
            message: format!("{host}: single-device media need the boot-server address set and svc served over HTTP by this process"),
            details: Vec::new(),
        });
    };
    let base = base_url(&svc_ip.to_string(), svc_port);
    let missing = |what: String| {
        Error::conflict(
            ErrorCode::MediaStale,
            format!("The install media of {host} are missing: {what} is not in svc; make its images first (Images screen, or create images for the host)"),
        )
    };
    match os.family {
        Family::Windows => {
            return Err(Error::Unprocessable {
                code: ErrorCode::SingleDeviceUnsupported,
                message: format!("{host} installs {}: WinPE reads its answer files from the UNATTEND disk, a second virtual-media device, so it cannot install from one device", os.name),
                details: Vec::new(),
            })
        }
        Family::Esxi => {
            let file = boot_media(&os, &host);
            if !target(app.svc_dir(), &file)?.is_file() {
                return Err(missing(format!("/svc/{file}")));
            }
            return Ok(SingleDevice {
                url: format!("{base}/svc/{file}"),
                file: format!("/svc/{file}"),
                host,
                built: false,
                answers: Vec::new(),
            });
        }
        Family::Rhel | Family::Rhvh | Family::Ubuntu => {}
    }
    if shadows_a_tree(&app.catalog(), &host) {
        return Err(Error::Unprocessable {
            code: ErrorCode::SingleDeviceUnsupported,
            message: format!("{host} is also the name of a catalog OS, so svc/{host}/ is that OS's install tree and cannot hold the host's answer files: rename the host to install it from one device"),
            details: Vec::new(),
        });
    }
    let answers = http_answers(&app.catalog(), &os, &host);
    for f in &answers {
        if !target_nested(app.svc_dir(), f)?.is_file() {
            return Err(missing(format!("/svc/{f}")));
        }
    }
    let file = single_device_iso(&host);
    let answer_url = match os.family {
        Family::Ubuntu => format!("{base}/svc/{host}/"),
        _ => format!("{base}/svc/{}", answers[0]),
    };
    let net = match os.family {
        Family::Rhel | Family::Rhvh => boot_net(app, &h, inventory_macs).await?,
        _ => None,
    };
    // What the entries must say: the URL, and the host's address after it (or none).
    let words = match &net {
        Some(n) => format!("{answer_url} {}", n.kernel_words()?),
        None => answer_url.clone(),
    };
    // An ISO whose entries name another URL or address (the address changed and the images
    // were not made again since) would send the installer elsewhere: built again.
    let out = target_nested(app.svc_dir(), &file)?;
    if out.is_file() {
        let (iso, static_net) = (out.clone(), net.is_some());
        let right = blocking(move || {
            use bootsmith_media::boot::boot_configs_mention;
            Ok(boot_configs_mention(&iso, &words)?
                && (static_net || !boot_configs_mention(&iso, "ifname=bootnet")?))
        })
        .await
        .unwrap_or(false);
        if !right {
            std::fs::remove_file(&out)
                .map_err(|e| Error::io(format!("removing the outdated {}", out.display()), e))?;
        }
    }
    let map = isos::map(app).await?;
    let source = map
        .iter()
        .find(|m| m.os == os.id)
        .ok_or_else(|| missing(format!("an ISO mapped to {}", os.id)))
        .and_then(|m| {
            isos::svc_file(app.svc_dir(), &m.file).map_err(|why| {
                Error::invalid_field(
                    ErrorCode::ImagesNotReady,
                    "Single-device media cannot be made yet",
                    "iso_map",
                    format!("the ISO mapped to {} is not usable: {why}", os.id),
                )
            })
        })?;
    let iso = build_boot_iso(
        app.svc_dir(),
        job,
        &os,
        &source,
        &file,
        Some(&host),
        AnswerSource::Http(answer_url, net),
    )
    .await?;
    Ok(SingleDevice {
        url: format!("{base}{}", iso.file),
        file: iso.file,
        host,
        built: iso.built,
        answers: answers.iter().map(|f| format!("/svc/{f}")).collect(),
    })
}

/// The host's address for its installer's first fetch, on the NIC of its MAC (its bond and
/// VLAN as its network group says), else on the NIC inventory gave it; none when neither is
/// known: then the installer asks DHCP until the kickstart sets up the network (the plan
/// and the README say so).
async fn boot_net(app: &App, h: &Host, inventory_macs: &[String]) -> Result<Option<BootNet>> {
    let macs: Vec<String> = if h.macs.is_empty() {
        inventory_macs.to_vec()
    } else {
        h.macs.iter().map(ToString::to_string).collect()
    };
    if macs.is_empty() {
        return Ok(None);
    }
    let net = networks::get(app, h.network_group.as_str()).await?;
    let vars = super::answers::network_words(&net);
    Ok(Some(BootNet {
        ip: h.ip.to_string(),
        netmask: vars.netmask,
        gateway: Some(net.gateway.to_string()).filter(|g| !g.is_empty()),
        hostname: h.name.to_string(),
        nameservers: net
            .nameserver
            .to_string()
            .split(',')
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty())
            .collect(),
        macs,
        bond_opts: vars.bond_opts,
        vlan: net.vlan.as_ref().map(ToString::to_string),
    }))
}
