//! The boot-server address (`svc_ip`): where servers fetch their install media.

use serde::Deserialize;
use utoipa::ToSchema;

use crate::app::App;
use crate::error::Result;
use crate::types::IpAddress;
use crate::validate::Check;

const SVC_IP: &str = "svc_ip";

/// Body of `POST /api/v1/ip`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SvcIpInput {
    /// The boot-server address, IPv4 or IPv6.
    #[schema(schema_with = crate::schema::ip, required = true)]
    pub svc_ip: Option<String>,
}

/// The stored boot-server address, if set.
pub async fn svc_ip(app: &App) -> Result<Option<IpAddress>> {
    let stored = app.store().setting(SVC_IP).await?;
    Ok(stored.and_then(|s| IpAddress::parse(&s).ok()))
}

/// Set the boot-server address.
pub async fn set_svc_ip(app: &App, input: SvcIpInput) -> Result<IpAddress> {
    let mut check = Check::default();
    let ip = check.required("svc_ip", &input.svc_ip, IpAddress::parse);
    check.finish("invalid_svc_ip", "The boot-server address is invalid")?;
    let ip = ip.expect("checked");
    app.store().set_setting(SVC_IP, &ip.to_string()).await?;
    tracing::info!(svc_ip = %ip, "boot-server address set");
    Ok(ip)
}
