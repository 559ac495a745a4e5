//! Settings: the boot-server address (`svc_ip`, where servers fetch their install media; KUBAM
//! called it `kubam_ip`), the default proxy of network groups that name none, and the default
//! UCS org of server groups that name none.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::App;
use crate::error::{Error, ErrorCode, Result};
pub use bootsmith_model::types::{IpAddress, OrgDn, ProxyUrl};
use bootsmith_model::validate::Check;
use bootsmith_store::{self as store, Conn};

pub(crate) const SVC_IP: &str = "svc_ip";
pub(crate) const PROXY: &str = "proxy";
pub(crate) const ORG: &str = "org";

/// Body of `POST /api/v1/ip`: `svc_ip`, or `kubam_ip` as KUBAM's clients send it.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SvcIpInput {
    /// The boot-server address, IPv4 or IPv6 (this or `kubam_ip` is required).
    #[schema(schema_with = bootsmith_model::schema::optional_ip)]
    pub svc_ip: Option<String>,
    /// The same address under KUBAM's name; when both are sent they must agree.
    #[schema(schema_with = bootsmith_model::schema::optional_ip)]
    pub kubam_ip: Option<String>,
}

/// Body of `POST /api/v1/proxy`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ProxyInput {
    /// `http://host:port` (or https); `""` clears it.
    #[schema(schema_with = bootsmith_model::schema::proxy_setting, required = true)]
    pub proxy: Option<String>,
}

/// Body of `POST /api/v1/org`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct OrgInput {
    /// An org DN (`org-root/org-lab`) or a bare org name (`lab`); `""` clears it.
    #[schema(schema_with = bootsmith_model::schema::org_setting, required = true)]
    pub org: Option<String>,
}

/// The stored boot-server address, if set.
pub async fn svc_ip(app: &App) -> Result<Option<IpAddress>> {
    let stored = app.store().setting(SVC_IP).await?;
    Ok(stored.and_then(|s| IpAddress::parse(&s).ok()))
}

/// The boot-server address as saved, with what stands between it and the servers.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SvcIpSaved {
    /// The address now stored.
    #[schema(value_type = String)]
    pub svc_ip: IpAddress,
    /// Why servers may not reach it (loopback, not an address of this machine, a listener
    /// elsewhere), in the operator's words; empty when nothing is in the way. Saved anyway:
    /// an address behind a NAT or a forward may be right although it is not ours.
    pub warnings: Vec<String>,
}

/// Set the boot-server address; what would keep servers from fetching from it comes back
/// with it, so the operator hears it when saving rather than later on the overview.
pub async fn set_svc_ip(app: &App, input: SvcIpInput) -> Result<SvcIpSaved> {
    let ip = check_svc_ip(&input)?;
    app.store().set_setting(SVC_IP, &ip.to_string()).await?;
    tracing::info!(svc_ip = %ip, "boot-server address set");
    let mut warnings = Vec::new();
    // The overview accepts loopback for a lab on one machine (the simulator fetches from
    // it); servers on a network never can, so saving it is worth a sentence.
    if ip.0.is_loopback() {
        warnings.push(format!(
            "{ip} is this machine's loopback address: only programs on this machine (such as the simulator) can fetch from it, servers cannot; give this machine's address on the servers' management network"
        ));
    }
    warnings.extend(crate::media::reach::problems(
        ip.0,
        app.svc_port(),
        app.svc_listen_ip(),
    ));
    Ok(SvcIpSaved {
        svc_ip: ip,
        warnings,
    })
}

/// The address a `POST /api/v1/ip` body sets (the KUBAM import checks `kubam_ip` with it).
pub(crate) fn check_svc_ip(input: &SvcIpInput) -> Result<IpAddress> {
    let mut check = Check::default();
    let (field, value) = match (&input.svc_ip, &input.kubam_ip) {
        (Some(a), Some(b)) if a.trim() != b.trim() => {
            check.fail(
                "kubam_ip",
                format!("is '{b}' while svc_ip is '{a}': send one of them"),
            );
            ("svc_ip", &input.svc_ip)
        }
        (None, Some(_)) => ("kubam_ip", &input.kubam_ip),
        _ => ("svc_ip", &input.svc_ip),
    };
    let ip = check.required(field, value, |v| {
        let ip = IpAddress::parse(v)?;
        // Servers must be able to fetch from it; the managers refuse these in a media policy.
        let unusable = ip.0.is_unspecified()
            || ip.0.is_multicast()
            || ip.0 == std::net::IpAddr::V4(std::net::Ipv4Addr::BROADCAST);
        if unusable {
            Err(format!(
                "{ip} is not an address servers can fetch from: give this machine's address on their management network"
            ))
        } else {
            Ok(ip)
        }
    });
    check.finish(
        ErrorCode::InvalidSvcIp,
        "The boot-server address is invalid",
    )?;
    Ok(ip.expect("checked"))
}

/// The default proxy, used by network groups that name none.
pub async fn proxy(app: &App) -> Result<Option<ProxyUrl>> {
    let stored = app.store().setting(PROXY).await?;
    Ok(stored.and_then(|s| ProxyUrl::parse(&s).ok()))
}

/// Set (or with `""` clear) the default proxy.
pub async fn set_proxy(app: &App, input: ProxyInput) -> Result<Option<ProxyUrl>> {
    let proxy = check_proxy(input)?;
    store_optional(app, PROXY, proxy.as_ref().map(ProxyUrl::as_str)).await?;
    tracing::info!(
        proxy = proxy.as_ref().map_or("none", ProxyUrl::as_str),
        "default proxy set"
    );
    Ok(proxy)
}

/// The default UCS org, used by server groups that name none.
pub async fn org(app: &App) -> Result<Option<OrgDn>> {
    let stored = app.store().setting(ORG).await?;
    Ok(stored.and_then(|s| OrgDn::parse(&s).ok()))
}

/// Set (or with `""` clear) the default UCS org.
pub async fn set_org(app: &App, input: OrgInput) -> Result<Option<OrgDn>> {
    let org = check_org(input)?;
    store_optional(app, ORG, org.as_ref().map(OrgDn::as_str)).await?;
    tracing::info!(
        org = org.as_ref().map_or("none", OrgDn::as_str),
        "default org set"
    );
    Ok(org)
}

/// The proxy a `POST /api/v1/proxy` body sets (`None`: clear it).
pub(crate) fn check_proxy(input: ProxyInput) -> Result<Option<ProxyUrl>> {
    let value = required_or_clear(input.proxy, "proxy", "http://proxy.example:3128")?;
    value
        .map(|v| ProxyUrl::parse(&v))
        .transpose()
        .map_err(|m| invalid(PROXY, m))
}

/// The org a `POST /api/v1/org` body sets (`None`: clear it).
pub(crate) fn check_org(input: OrgInput) -> Result<Option<OrgDn>> {
    let value = required_or_clear(input.org, "org", "org-root/org-lab")?;
    value
        .map(|v| OrgDn::parse(&v))
        .transpose()
        .map_err(|m| invalid(ORG, m))
}

/// One setting as stored, read in `conn` (the KUBAM import reads inside its transaction).
pub(crate) async fn read(conn: &mut Conn, key: &str) -> Result<Option<String>> {
    Ok(store::settings::get(conn, key).await?)
}

/// Write one setting in `conn`, as the store's own writer does.
pub(crate) async fn write(conn: &mut Conn, key: &str, value: &str) -> Result<()> {
    Ok(store::settings::set(conn, key, value).await?)
}

/// A setting's value from its body: required, with `""` meaning "clear it".
fn required_or_clear(value: Option<String>, field: &str, example: &str) -> Result<Option<String>> {
    match value {
        None => Err(invalid(
            field,
            format!("is required: {{\"{field}\": \"{example}\"}}, or \"\" to clear it"),
        )),
        Some(v) if v.trim().is_empty() => Ok(None),
        Some(v) => Ok(Some(v)),
    }
}

fn invalid(field: &str, message: impl Into<String>) -> Error {
    Error::invalid_field(
        ErrorCode::InvalidSetting,
        &format!("The {field} setting is invalid"),
        field,
        message,
    )
}

async fn store_optional(app: &App, key: &str, value: Option<&str>) -> Result<()> {
    match value {
        Some(v) => Ok(app.store().set_setting(key, v).await?),
        None => Ok(app.store().delete_setting(key).await?),
    }
}
