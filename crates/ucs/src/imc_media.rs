//! The standalone-IMC objects an install needs, as wanted states for [`Endpoint::plan`]:
//! the installer image mapped over HTTP as the IMC's virtual CD (and optionally a second
//! image as virtual HDD), and the precision boot order local disk, mapped CD, mapped HDD.
//! A blank disk falls through to the installer; an installed one boots itself.
//!
//! Pure builders: every object carries its `dn`, and only classes, rns, parents,
//! properties and values of Cisco's IMC object model (imcsdk) are used.
//!
//! Two IMC rules shape the use:
//! * The IMC writes one object per request, without a transaction
//!   ([`Endpoint::configure`]), so the lists here are in the order to write them: parents
//!   before children, mappings before the boot devices, boot devices by ascending order
//!   (imcsdk: "IMC expects the devices to be configured in sorted order").
//! * A mapping cannot be changed in place (`commVMediaMap` has no Set verb): when a plan
//!   modifies one, pass its writes through [`remount`], which deletes the mapping and
//!   creates it again:
//!
//! ```ignore
//! let wanted = imc_media::wanted("sys/rack-unit-1", &media);
//! let (changes, send) = endpoint.plan(&wanted).await?;
//! endpoint.configure(imc_media::remount(&wanted, send)).await?;
//! ```
//!
//! [`Endpoint::plan`]: crate::Endpoint::plan
//! [`Endpoint::configure`]: crate::Endpoint::configure

use crate::changes::Wanted;
use crate::xml::Mo;

/// DN of the IMC's virtual-media service (`commVMedia`), parent of every mapping.
pub const VMEDIA_DN: &str = "sys/svc-ext/vmedia-svc";
/// Volume name of the CD mapping, also the name of its boot device.
pub const CD_VOLUME: &str = "bootsmith-cd";
/// Volume name of the HDD mapping, also the name of its boot device.
pub const HDD_VOLUME: &str = "bootsmith-hdd";
/// Name of the local-disk boot device.
pub const DISK_DEVICE: &str = "bootsmith-disk";

/// An image the IMC mounts over HTTP: `share` is the directory URL ending in '/', `file` the name in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteImage {
    /// Directory URL, `http://192.0.2.10:8080/svc/`: the IMC joins it to `file` as is.
    pub share: String,
    /// File name in `share`, `rhel8.4-boot.iso`.
    pub file: String,
}

impl RemoteImage {
    /// Split a full image URL at its last '/' (as imcsdk's `vmedia_mount_iso_uri` does);
    /// `None` when the URL has no file name.
    pub fn from_url(url: &str) -> Option<RemoteImage> {
        let (dir, file) = url.rsplit_once('/')?;
        if file.is_empty() || dir.is_empty() || dir.ends_with('/') {
            return None;
        }
        Some(RemoteImage {
            share: format!("{dir}/"),
            file: file.to_owned(),
        })
    }
}

/// What a standalone server should boot the installer from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImcMedia {
    /// The installer, mapped as virtual CD/DVD.
    pub cd: RemoteImage,
    /// A second image (answer files, drivers) mapped as virtual HDD.
    pub hdd: Option<RemoteImage>,
    /// Boot in UEFI mode (else legacy BIOS).
    pub uefi: bool,
}

/// DN of the mapping with this volume name.
pub fn mapping_dn(volume: &str) -> String {
    format!("{VMEDIA_DN}/vmmap-{volume}")
}

/// DN of a rack unit's precision boot order.
pub fn boot_order_dn(server_dn: &str) -> String {
    format!("{server_dn}/boot-precision")
}

/// The objects that mount the media as virtual CD (and HDD) and put them after the local
/// disk in the boot order, for rack unit `server_dn` (e.g. "sys/rack-unit-1"). An HDD
/// mapping and boot device we no longer want are removed. Other boot devices are left
/// alone; the IMC keeps the orders unique by moving them down.
pub fn wanted(server_dn: &str, media: &ImcMedia) -> Vec<Wanted> {
    let boot = boot_order_dn(server_dn);
    let mut out = vec![
        // imcsdk's vmedia_enable writes, and vmedia_exists expects back, the lower-case value.
        Wanted::present(
            Mo::new("commVMedia")
                .with("dn", VMEDIA_DN)
                .with("adminState", "enabled"),
        ),
        Wanted::present(mapping(CD_VOLUME, &media.cd)),
    ];
    if let Some(hdd) = &media.hdd {
        out.push(Wanted::present(mapping(HDD_VOLUME, hdd)));
    }
    out.extend([
        Wanted::present(
            Mo::new("lsbootDevPrecision")
                .with("dn", boot.as_str())
                .with(
                    "configuredBootMode",
                    if media.uefi { "Uefi" } else { "Legacy" },
                )
                // Changing the order must not reboot a server in the middle of an install.
                .with("rebootOnUpdate", "no"),
        ),
        Wanted::present(
            Mo::new("lsbootHdd")
                .with("dn", format!("{boot}/hdd-{DISK_DEVICE}"))
                .with("name", DISK_DEVICE)
                .with("type", "LOCALHDD")
                .with("order", "1")
                .with("state", "Enabled"),
        ),
        Wanted::present(vmedia_device(&boot, CD_VOLUME, "cimc-mapped-dvd", "2")),
    ]);
    match &media.hdd {
        Some(_) => out.push(Wanted::present(vmedia_device(
            &boot,
            HDD_VOLUME,
            "cimc-mapped-hdd",
            "3",
        ))),
        // The boot device goes before its mapping.
        None => out.extend([
            Wanted::absent("lsbootVMedia", &format!("{boot}/vm-{HDD_VOLUME}")),
            Wanted::absent("commVMediaMap", &mapping_dn(HDD_VOLUME)),
        ]),
    }
    out
}

/// The objects that unmount the media again (for undeploy), as `Wanted::absent` entries:
/// the two virtual-media boot devices, then both mappings. The local-disk boot device, the
/// boot mode and the virtual-media service stay, so the server keeps booting its disk.
pub fn unwanted(server_dn: &str) -> Vec<Wanted> {
    let boot = boot_order_dn(server_dn);
    vec![
        Wanted::absent("lsbootVMedia", &format!("{boot}/vm-{CD_VOLUME}")),
        Wanted::absent("lsbootVMedia", &format!("{boot}/vm-{HDD_VOLUME}")),
        Wanted::absent("commVMediaMap", &mapping_dn(CD_VOLUME)),
        Wanted::absent("commVMediaMap", &mapping_dn(HDD_VOLUME)),
    ]
}

/// Rewrite a plan's writes for the IMC: a mapping the plan would modify (different share,
/// file or protocol) is deleted and then created again from `wanted`, in its place in the
/// sequence, because the IMC cannot change a mapping in place. Everything else passes
/// through unchanged. The plan still reports such a mapping as `Modify`.
pub fn remount(wanted: &[Wanted], send: Vec<Mo>) -> Vec<Mo> {
    let mut out = Vec::with_capacity(send.len());
    for m in send {
        let full = wanted
            .iter()
            .find(|w| !w.delete && w.mo.class == m.class && w.mo.get("dn") == m.get("dn"));
        match full {
            Some(w) if m.class == "commVMediaMap" && m.get("status") == "modified" => {
                out.push(
                    Mo::new("commVMediaMap")
                        .with("dn", m.get("dn"))
                        .with("status", "deleted"),
                );
                out.push(w.mo.clone().with("status", "created"));
            }
            _ => out.push(m),
        }
    }
    out
}

/// A mapping of `image` over HTTP (`www`; imcsdk maps both http and https URLs so).
fn mapping(volume: &str, image: &RemoteImage) -> Mo {
    Mo::new("commVMediaMap")
        .with("dn", mapping_dn(volume))
        .with("volumeName", volume)
        .with("map", "www")
        .with("remoteShare", image.share.as_str())
        .with("remoteFile", image.file.as_str())
}

/// A precision boot device for the IMC-mapped CD or HDD.
fn vmedia_device(boot: &str, name: &str, subtype: &str, order: &str) -> Mo {
    Mo::new("lsbootVMedia")
        .with("dn", format!("{boot}/vm-{name}"))
        .with("name", name)
        .with("type", "VMEDIA")
        .with("subtype", subtype)
        .with("order", order)
        .with("state", "Enabled")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn media(hdd: bool, uefi: bool) -> ImcMedia {
        ImcMedia {
            cd: RemoteImage::from_url("http://192.0.2.10:8080/svc/rhel8.4-boot.iso").unwrap(),
            hdd: hdd.then(|| RemoteImage {
                share: "http://192.0.2.10:8080/svc/".into(),
                file: "node01.img".into(),
            }),
            uefi,
        }
    }

    fn summary(w: &[Wanted]) -> Vec<(bool, &str, &str)> {
        w.iter()
            .map(|x| (x.delete, x.mo.class.as_str(), x.mo.get("dn")))
            .collect()
    }

    #[test]
    fn urls_split_into_share_and_file() {
        let i = RemoteImage::from_url("http://h:8080/a/b/x.iso").unwrap();
        assert_eq!(
            (i.share.as_str(), i.file.as_str()),
            ("http://h:8080/a/b/", "x.iso")
        );
        assert_eq!(RemoteImage::from_url("http://h/a/"), None);
        assert_eq!(RemoteImage::from_url("x.iso"), None);
    }

    #[test]
    fn uefi_with_hdd_maps_both_and_boots_disk_cd_hdd() {
        let w = wanted("sys/rack-unit-1", &media(true, true));
        assert_eq!(
            summary(&w),
            [
                (false, "commVMedia", "sys/svc-ext/vmedia-svc"),
                (
                    false,
                    "commVMediaMap",
                    "sys/svc-ext/vmedia-svc/vmmap-bootsmith-cd"
                ),
                (
                    false,
                    "commVMediaMap",
                    "sys/svc-ext/vmedia-svc/vmmap-bootsmith-hdd"
                ),
                (
                    false,
                    "lsbootDevPrecision",
                    "sys/rack-unit-1/boot-precision"
                ),
                (
                    false,
                    "lsbootHdd",
                    "sys/rack-unit-1/boot-precision/hdd-bootsmith-disk"
                ),
                (
                    false,
                    "lsbootVMedia",
                    "sys/rack-unit-1/boot-precision/vm-bootsmith-cd"
                ),
                (
                    false,
                    "lsbootVMedia",
                    "sys/rack-unit-1/boot-precision/vm-bootsmith-hdd"
                ),
            ]
        );
        assert_eq!(w[1].mo.get("remoteShare"), "http://192.0.2.10:8080/svc/");
        assert_eq!(w[1].mo.get("remoteFile"), "rhel8.4-boot.iso");
        assert_eq!(w[3].mo.get("configuredBootMode"), "Uefi");
        let devices: Vec<(&str, &str)> = w[4..]
            .iter()
            .map(|x| (x.mo.get("order"), x.mo.get("subtype")))
            .collect();
        assert_eq!(
            devices,
            [
                ("1", ""),
                ("2", "cimc-mapped-dvd"),
                ("3", "cimc-mapped-hdd")
            ]
        );
    }

    #[test]
    fn legacy_without_hdd_removes_a_stale_hdd_device_then_its_mapping() {
        let w = wanted("sys/rack-unit-1", &media(false, false));
        assert_eq!(w[2].mo.get("configuredBootMode"), "Legacy");
        let tail = summary(&w[w.len() - 2..]);
        assert_eq!(
            tail,
            [
                (
                    true,
                    "lsbootVMedia",
                    "sys/rack-unit-1/boot-precision/vm-bootsmith-hdd"
                ),
                (
                    true,
                    "commVMediaMap",
                    "sys/svc-ext/vmedia-svc/vmmap-bootsmith-hdd"
                ),
            ]
        );
    }

    #[test]
    fn undeploy_keeps_the_disk_device() {
        let u = unwanted("sys/rack-unit-1");
        assert!(u.iter().all(|x| x.delete));
        assert!(u.iter().all(|x| x.mo.class != "lsbootHdd"));
        assert_eq!(u.len(), 4);
    }

    #[test]
    fn a_modified_mapping_is_deleted_and_created_again() {
        let w = wanted("sys/rack-unit-1", &media(false, false));
        let cd = mapping_dn(CD_VOLUME);
        let send = vec![
            Mo::new("commVMediaMap")
                .with("dn", cd.as_str())
                .with("remoteFile", "rhel8.4-boot.iso")
                .with("status", "modified"),
            Mo::new("lsbootDevPrecision")
                .with("dn", "sys/rack-unit-1/boot-precision")
                .with("configuredBootMode", "Legacy")
                .with("status", "modified"),
        ];
        let out = remount(&w, send);
        let steps: Vec<(&str, &str)> = out.iter().map(|m| (m.get("dn"), m.get("status"))).collect();
        assert_eq!(
            steps,
            [
                (cd.as_str(), "deleted"),
                (cd.as_str(), "created"),
                ("sys/rack-unit-1/boot-precision", "modified"),
            ]
        );
        assert_eq!(out[1].get("remoteFile"), "rhel8.4-boot.iso");
        assert_eq!(out[1].get("map"), "www");
    }
}
