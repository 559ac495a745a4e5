//! What a server's management controller has mounted from a vMedia policy, as UCS Manager
//! reports it: one `cimcvmediaActualMountEntry` per image under
//! `<server>/mgmt/actual-mount-list` (ucsmsdk: rn `actual-mount-entry-[virtual_disk_id]`,
//! parent `cimcvmediaActualMountList`, parent `mgmtController`), with `operMountStatus`
//! (`mounting`, `mounted`, `mount-failed`, …) and, when it failed, why in `errorType`
//! (`connection-rejected`, `file-not-found`, `http-server-no-range-support`, …).
//!
//! UCS Manager is asked for every entry of the domain in one class query; UCS Central keeps
//! none of its own, so each server's entries are read from its domain
//! (`configRemoteResolveChildren`, as for FSM stages).

use crate::endpoint::{out_configs, Dme, Endpoint};
use crate::error::{Error, Result};
use crate::servers::domain_of;
use crate::xml::Mo;

/// The class of an actual mount entry.
pub const ACTUAL_MOUNT_CLASS: &str = "cimcvmediaActualMountEntry";

/// One image a server's controller has mounted (or tried to).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActualMount {
    /// DN of the server (Central's form behind UCS Central).
    pub server_dn: String,
    /// The mount entry's mapping name (`bootsmith-cd`).
    pub mapping_name: String,
    /// `cdd` or `hdd`.
    pub device_type: String,
    /// `operMountStatus`: `mounting`, `mounted`, `mount-failed`, `unmounting`, …
    pub status: String,
    /// `errorType`: why it failed (`none` otherwise).
    pub error_type: String,
    /// `http`, `https`, `nfs`, `cifs`.
    pub protocol: String,
    /// The media server's address.
    pub host: String,
    /// Its port (empty: the protocol's default).
    pub port: String,
    /// The directory part, joined to the file as is.
    pub path: String,
    /// The image file (empty when UCS names it after the profile and does not say).
    pub file: String,
    /// `none` or `service-profile-name`.
    pub name_variable: String,
}

impl ActualMount {
    fn from_mo(server_dn: &str, m: &Mo) -> ActualMount {
        ActualMount {
            server_dn: server_dn.to_owned(),
            mapping_name: m.get("mappingName").to_owned(),
            device_type: m.get("deviceType").to_owned(),
            status: m.get("operMountStatus").to_owned(),
            error_type: m.get("errorType").to_owned(),
            protocol: m.get("mountProtocol").to_owned(),
            host: m.get("remoteIpAddress").to_owned(),
            port: m.get("remotePort").to_owned(),
            path: m.get("imagePath").to_owned(),
            file: m.get("imageFileName").to_owned(),
            name_variable: m.get("imageNameVariable").to_owned(),
        }
    }

    /// Still on its way: mounting, unmounting, or not known yet.
    pub fn is_pending(&self) -> bool {
        matches!(
            self.status.as_str(),
            "mounting" | "unmounting" | "unknown" | ""
        )
    }

    /// The controller could not mount it.
    pub fn failed(&self) -> bool {
        self.status == "mount-failed"
    }

    /// The URL it fetches: `<protocol>://<host>:<port><path><file>`; a file UCS names after
    /// the profile and does not report is `<profile>.iso` (CD) or `<profile>.img` (HDD).
    pub fn url(&self, profile_name: &str) -> String {
        let file = if self.file.is_empty() && self.name_variable == "service-profile-name" {
            let ext = if self.device_type == "hdd" {
                "img"
            } else {
                "iso"
            };
            format!("{profile_name}.{ext}")
        } else {
            self.file.clone()
        };
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        let port = if self.port.is_empty() || self.port == "0" {
            String::new()
        } else {
            format!(":{}", self.port)
        };
        let slash = if self.path.starts_with('/') { "" } else { "/" };
        format!("{}://{host}{port}{slash}{}{file}", self.protocol, self.path)
    }
}

/// The server a mount entry's DN belongs to (`…/mgmt/actual-mount-list/actual-mount-entry-1`).
fn server_of(dn: &str) -> &str {
    dn.split("/mgmt/actual-mount-list/").next().unwrap_or(dn)
}

impl Endpoint {
    /// Every actual mount entry of a UCS Manager domain, in one request.
    pub async fn actual_mounts(&self) -> Result<Vec<ActualMount>> {
        Ok(self
            .resolve_class(ACTUAL_MOUNT_CLASS, None)
            .await?
            .iter()
            .map(|m| ActualMount::from_mo(server_of(m.get("dn")), m))
            .collect())
    }

    /// The actual mount entries of one server of a UCS Central (`compute/sys-<id>/…`), read
    /// from its domain: one request, which fails for a domain Central cannot reach.
    pub async fn central_actual_mounts(&self, server_dn: &str) -> Result<Vec<ActualMount>> {
        let domain = domain_of(server_dn).ok_or_else(|| {
            Error::Invalid(format!(
                "{server_dn} is not a server of a UCS Central domain"
            ))
        })?;
        // `compute/sys-1009/chassis-1/blade-2` is `sys/chassis-1/blade-2` in domain 1009.
        let local = format!(
            "sys/{}",
            server_dn.splitn(3, '/').nth(2).unwrap_or_default()
        );
        let request = Mo::new("configRemoteResolveChildren")
            .with("inDn", format!("{local}/mgmt/actual-mount-list"))
            .with("inDomainId", domain.to_string())
            .with("inHierarchical", "false")
            .child(Mo::new("inFilter"));
        let reply = self.call_on(Dme::Resource, request).await?;
        Ok(out_configs(&reply)
            .iter()
            .filter(|m| m.class == ACTUAL_MOUNT_CLASS)
            .map(|m| ActualMount::from_mo(server_dn, m))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(file: &str, variable: &str, device: &str) -> ActualMount {
        ActualMount::from_mo(
            "sys/chassis-1/blade-2",
            &Mo::new(ACTUAL_MOUNT_CLASS)
                .with("mappingName", "bootsmith-hdd")
                .with("deviceType", device)
                .with("operMountStatus", "mount-failed")
                .with("errorType", "connection-rejected")
                .with("mountProtocol", "http")
                .with("remoteIpAddress", "10.0.0.5")
                .with("remotePort", "18280")
                .with("imagePath", "/svc/")
                .with("imageFileName", file)
                .with("imageNameVariable", variable),
        )
    }

    #[test]
    fn urls_are_what_the_controller_fetches() {
        assert_eq!(
            entry("rhel8.4-boot.iso", "none", "cdd").url("node01"),
            "http://10.0.0.5:18280/svc/rhel8.4-boot.iso"
        );
        assert_eq!(
            entry("", "service-profile-name", "hdd").url("node01"),
            "http://10.0.0.5:18280/svc/node01.img"
        );
        assert_eq!(
            entry("", "service-profile-name", "cdd").url("esx01"),
            "http://10.0.0.5:18280/svc/esx01.iso"
        );
        let e = entry("x.img", "none", "hdd");
        assert!(e.failed() && !e.is_pending());
    }

    #[test]
    fn entries_belong_to_their_server() {
        assert_eq!(
            server_of("sys/chassis-1/blade-2/mgmt/actual-mount-list/actual-mount-entry-1"),
            "sys/chassis-1/blade-2"
        );
    }
}
