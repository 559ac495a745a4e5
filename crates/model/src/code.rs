//! Every error code Bootsmith answers with, in one enum: the REST answers' and the window's
//! `code`, an enum in the OpenAPI document (so a union in the generated TypeScript), and the
//! key of the REST door's hints and the window's fixes, so a new code without one is found by
//! the type checker, not by an operator.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

macro_rules! codes {
    ($($variant:ident = $wire:literal,)*) => {
        /// A stable, machine-readable error code (snake_case on the wire).
        // The wire name is the variant's in snake_case (the test below holds `as_str` to it).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum ErrorCode {
            $($variant,)*
        }

        impl ErrorCode {
            /// Every code, in the order of the wire names.
            pub const ALL: &[ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The wire name.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $wire,)*
                }
            }
        }
    };
}

codes! {
    AciNotFound = "aci_not_found",
    AnswerFilesTooLarge = "answer_files_too_large",
    BmcChanged = "bmc_changed",
    BmcError = "bmc_error",
    BmcLoginFailed = "bmc_login_failed",
    BmcProtocolError = "bmc_protocol_error",
    BmcTimeout = "bmc_timeout",
    BmcUnreachable = "bmc_unreachable",
    BodyTooLarge = "body_too_large",
    BodyUnreadable = "body_unreadable",
    CertificateChanged = "certificate_changed",
    ChecksumMismatch = "checksum_mismatch",
    CorruptRecord = "corrupt_record",
    DeployNotReady = "deploy_not_ready",
    DiskFull = "disk_full",
    DomainNotFound = "domain_not_found",
    DomainUnreachable = "domain_unreachable",
    DownloadFailed = "download_failed",
    DuplicateName = "duplicate_name",
    EmptyHostList = "empty_host_list",
    EmptySelection = "empty_selection",
    FileUnreadable = "file_unreadable",
    HostNotFound = "host_not_found",
    HostsOutsideSubnet = "hosts_outside_subnet",
    ImagesNotReady = "images_not_ready",
    InUse = "in_use",
    InstallDiskAmbiguous = "install_disk_ambiguous",
    InstallDiskNotFound = "install_disk_not_found",
    InstallDiskUnsupported = "install_disk_unsupported",
    InstallLogNotFound = "install_log_not_found",
    InstallLogTooLarge = "install_log_too_large",
    InternalError = "internal_error",
    Interrupted = "interrupted",
    InvalidAci = "invalid_aci",
    InvalidBmcRequest = "invalid_bmc_request",
    InvalidBody = "invalid_body",
    InvalidCatalog = "invalid_catalog",
    InvalidHost = "invalid_host",
    InvalidHosts = "invalid_hosts",
    InvalidId = "invalid_id",
    InvalidInstallToken = "invalid_install_token",
    InvalidIsoMap = "invalid_iso_map",
    InvalidIsoName = "invalid_iso_name",
    InvalidKeys = "invalid_keys",
    InvalidKubamFile = "invalid_kubam_file",
    InvalidKubamImport = "invalid_kubam_import",
    InvalidKubamKey = "invalid_kubam_key",
    InvalidKubamYaml = "invalid_kubam_yaml",
    InvalidLogFileName = "invalid_log_file_name",
    InvalidLogQuery = "invalid_log_query",
    InvalidMediaRequest = "invalid_media_request",
    InvalidNetwork = "invalid_network",
    InvalidPack = "invalid_pack",
    InvalidPath = "invalid_path",
    InvalidRequest = "invalid_request",
    InvalidSelection = "invalid_selection",
    InvalidServer = "invalid_server",
    InvalidServerGroup = "invalid_server_group",
    InvalidSetting = "invalid_setting",
    InvalidSha256 = "invalid_sha256",
    InvalidSvcIp = "invalid_svc_ip",
    InvalidUcsRequest = "invalid_ucs_request",
    InvalidUrl = "invalid_url",
    IoError = "io_error",
    IpOutsideSubnet = "ip_outside_subnet",
    IsoExists = "iso_exists",
    IsoOsMismatch = "iso_os_mismatch",
    JobRunning = "job_running",
    KubamConflicts = "kubam_conflicts",
    KubamKeyMismatch = "kubam_key_mismatch",
    LogLimitTooLarge = "log_limit_too_large",
    MacInUse = "mac_in_use",
    MalformedHeader = "malformed_header",
    MalformedJson = "malformed_json",
    MalformedPath = "malformed_path",
    MalformedQuery = "malformed_query",
    MediaMissing = "media_missing",
    MediaStale = "media_stale",
    MediaToolFailed = "media_tool_failed",
    MethodNotAllowed = "method_not_allowed",
    MissingBody = "missing_body",
    MissingId = "missing_id",
    MissingServer = "missing_server",
    MissingServerGroup = "missing_server_group",
    MixedOsInServerGroup = "mixed_os_in_server_group",
    NetworkInUse = "network_in_use",
    NetworkNotFound = "network_not_found",
    NoHosts = "no_hosts",
    NoServerGroup = "no_server_group",
    NoServers = "no_servers",
    NoSuchRoute = "no_such_route",
    NotAFile = "not_a_file",
    NotAnIso = "not_an_iso",
    NotImplemented = "not_implemented",
    NotSupported = "not_supported",
    OsNotInCatalog = "os_not_in_catalog",
    PackInUse = "pack_in_use",
    PackNotFound = "pack_not_found",
    PasswordMissing = "password_missing",
    PathNotFound = "path_not_found",
    PrivateKey = "private_key",
    ProfileNameTaken = "profile_name_taken",
    SecretError = "secret_error",
    ServerGroupInUse = "server_group_in_use",
    ServerGroupNotFound = "server_group_not_found",
    ServerInUse = "server_in_use",
    ServerNotFound = "server_not_found",
    SingleDeviceUnsupported = "single_device_unsupported",
    SourceChanged = "source_changed",
    StorageError = "storage_error",
    SvcContainsData = "svc_contains_data",
    SvcIpNotSet = "svc_ip_not_set",
    SvcNotServed = "svc_not_served",
    SvcUnreachable = "svc_unreachable",
    TemplateError = "template_error",
    UcsError = "ucs_error",
    UcsLoginFailed = "ucs_login_failed",
    UcsProtocolError = "ucs_protocol_error",
    UcsTimeout = "ucs_timeout",
    UcsUnreachable = "ucs_unreachable",
    UiNotBuilt = "ui_not_built",
    Unauthorized = "unauthorized",
    UnknownJob = "unknown_job",
    UnknownOrg = "unknown_org",
    UnknownOs = "unknown_os",
    UnknownPowerAction = "unknown_power_action",
    UnknownServerGroup = "unknown_server_group",
    UnknownServers = "unknown_servers",
    UnknownTemplate = "unknown_template",
    UnsupportedMediaType = "unsupported_media_type",
    UntrustedCertificate = "untrusted_certificate",
    UploadInterrupted = "upload_interrupted",
    UrlNotFound = "url_not_found",
    UrlUnreachable = "url_unreachable",
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ErrorCode {
    type Err = ();

    /// The code with this wire name; `Err` for a name Bootsmith never answers with.
    fn from_str(s: &str) -> Result<Self, ()> {
        Self::ALL
            .iter()
            .copied()
            .find(|c| c.as_str() == s)
            .ok_or(())
    }
}

// Scripts and tests compare a code with its wire name.
impl PartialEq<str> for ErrorCode {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for ErrorCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_code_reads_back_from_its_wire_name_and_serde_agrees() {
        for &c in ErrorCode::ALL {
            assert_eq!(c.as_str().parse::<ErrorCode>(), Ok(c));
            assert_eq!(serde_json::to_value(c).unwrap(), c.as_str());
            assert!(
                c.as_str()
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                "{c} is snake_case"
            );
        }
        let mut names: Vec<_> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(
            names.len(),
            ErrorCode::ALL.len(),
            "no two codes share a wire name"
        );
    }
}
