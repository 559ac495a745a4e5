//! The svc layout: which file in svc each install medium is, and the URL servers fetch it
//! from. Names only, made from checked host names and catalog ids; the services that write
//! and read the files use these, so every one of them agrees on where a medium lives.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::media::svc::SvcPath;
use bootsmith_model::catalog::{Catalog, Family, OsEntry};

/// The file Windows hosts boot from; the operator builds it (WinPE with our startup script).
pub const WINPE_ISO: &str = "WinPE_SVC.iso";

/// Where the medium `name` Bootsmith writes goes at the top of svc. Names are made of checked
/// host names and catalog ids, so one the svc rule refuses means corrupt data.
pub(crate) fn target(svc_dir: &Path, name: &str) -> Result<PathBuf> {
    SvcPath::top(name)
        .map(|p| p.under(svc_dir))
        .map_err(|why| Error::Corrupt(format!("{name} cannot be written into svc: {why}")))
}

/// The catalog entry of the OS host `host` records (`os`), which the host's check promised
/// is there: missing means the catalog changed under a stored host, so corrupt data.
pub(crate) fn host_os(catalog: &Catalog, host: &str, os: &str) -> Result<OsEntry> {
    catalog
        .get(os)
        .cloned()
        .ok_or_else(|| Error::Corrupt(format!("host {host}: OS {os} left the catalog")))
}

/// `http://<svc_ip>:<port>`, an IPv6 address in brackets: where servers reach Bootsmith.
pub(crate) fn base_url(svc_ip: &str, svc_port: u16) -> String {
    if svc_ip.contains(':') {
        format!("http://[{svc_ip}]:{svc_port}")
    } else {
        format!("http://{svc_ip}:{svc_port}")
    }
}

/// The file in svc a host boots from (its CD), by family: the OS's boot ISO, the host's own
/// ISO for ESXi, the operator's WinPE ISO for Windows.
pub fn boot_media(os: &OsEntry, host: &str) -> String {
    match os.family {
        Family::Rhel | Family::Rhvh | Family::Ubuntu => format!("{}-boot.iso", os.id),
        Family::Esxi => format!("{host}.iso"),
        Family::Windows => WINPE_ISO.to_owned(),
    }
}

/// The boot ISO every host of `os` shares, or None when each host boots its own (ESXi).
pub fn shared_boot_media(os: &OsEntry) -> Option<String> {
    (os.family != Family::Esxi).then(|| boot_media(os, ""))
}

/// The answer-file disk a host gets (its HDD), or None for ESXi (its kickstart is on its ISO).
pub fn answer_disk(os: &OsEntry, host: &str) -> Option<String> {
    (os.family != Family::Esxi).then(|| format!("{host}.img"))
}

/// The files in svc that belong to `host` alone (its answer disk, and an ESXi host's own ISO):
/// what a shared vMedia mapping of several hosts finds for this one.
pub fn own_media(os: &OsEntry, host: &str) -> Vec<String> {
    let iso = (os.family == Family::Esxi).then(|| boot_media(os, host));
    answer_disk(os, host).into_iter().chain(iso).collect()
}

/// The single-device boot ISO of `host`, in its directory of svc: the OS's boot ISO whose
/// entries fetch the answer file over HTTP, for a BMC with one virtual-media device.
pub fn single_device_iso(host: &str) -> String {
    format!("{host}/{SINGLE_DEVICE_ISO}")
}

/// File name of a host's single-device boot ISO inside `svc/<host>/`.
pub const SINGLE_DEVICE_ISO: &str = "boot.iso";

/// Names of answer files Bootsmith serves in `svc/<host>/` (any family): what a rebuild for
/// another family removes.
pub(crate) const HTTP_ANSWER_NAMES: [&str; 3] = ["ks.cfg", "user-data", "meta-data"];

/// The answer files of `host` that svc serves over HTTP, as `<host>/<file>`: `ks.cfg` (RHEL
/// family, RHVH, ESXi), `user-data` and `meta-data` (Ubuntu's NoCloud seed); none for Windows
/// (WinPE reads its answer disk), nor for a host named like a catalog OS, whose directory
/// would be that OS's install tree.
pub fn http_answers(catalog: &Catalog, os: &OsEntry, host: &str) -> Vec<String> {
    if shadows_a_tree(catalog, host) {
        return Vec::new();
    }
    let names: &[&str] = match os.family {
        Family::Rhel | Family::Rhvh | Family::Esxi => &["ks.cfg"],
        Family::Ubuntu => &["user-data", "meta-data"],
        Family::Windows => &[],
    };
    names.iter().map(|n| format!("{host}/{n}")).collect()
}

/// Whether `svc/<host>/` is (or would be) the install tree of a catalog OS (`rocky9`).
pub(crate) fn shadows_a_tree(catalog: &Catalog, host: &str) -> bool {
    catalog
        .entries()
        .iter()
        .any(|o| o.id.eq_ignore_ascii_case(host))
}

/// Where a nested medium Bootsmith writes (`<host>/ks.cfg`) goes in svc; names are made of
/// checked host names, so one the svc rule refuses means corrupt data.
pub(crate) fn target_nested(svc_dir: &Path, rel: &str) -> Result<PathBuf> {
    SvcPath::new(rel)
        .map(|p| p.under(svc_dir))
        .map_err(|why| Error::Corrupt(format!("{rel} cannot be written into svc: {why}")))
}
