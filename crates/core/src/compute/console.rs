//! The KVM console: the page of the group's manager where one server's console opens.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::App;
use crate::error::{Error, ErrorCode, Result};
use crate::managers::Capability;
use bootsmith_model::types::NodeId;

use super::connect;

/// Where a server's KVM console opens (`GET /api/v2/servers/<group>/console?server=<id>`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ConsoleLink {
    /// Server group name.
    pub server_group: String,
    /// The server's id (`1/3`, `2`).
    pub server: String,
    /// The page to open in a browser: UCS Manager's KVM launcher, the IMC's or the BMC's web
    /// interface. It carries no credential: the page asks the person to sign in.
    pub url: String,
    /// What the page is and what to do on it.
    pub note: String,
}

/// Query of the console call.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(default)]
pub struct ConsoleQuery {
    /// The server's id in the group (`1/3` for a blade, `2` for a rack server).
    #[param(required = true, schema_with = bootsmith_model::schema::server_id)]
    pub server: Option<String>,
}

/// The page of the group's manager where `server`'s KVM console opens.
pub async fn console(app: &App, group: &str, query: ConsoleQuery) -> Result<ConsoleLink> {
    let Some(wanted) = query
        .server
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    else {
        return Err(Error::invalid_field(
            ErrorCode::MissingServer,
            "Which server's console?",
            "server",
            "is required: the server's id in the group, like 1/3 for a blade or 2 for a rack server",
        ));
    };
    let id = NodeId::parse(wanted).map_err(|m| {
        Error::invalid_field(
            ErrorCode::InvalidServer,
            "Which server's console?",
            "server",
            m,
        )
    })?;
    let (g, m) = connect(app, group, Capability::Inventory).await?;
    let servers = m.servers().await?;
    let Some(server) = servers.iter().find(|s| s.id == id) else {
        return Err(Error::not_found(
            ErrorCode::ServerNotFound,
            format!("Server group '{}' has no server {id}", g.name),
        ));
    };
    let Some(page) = m.console(server) else {
        return Err(Error::Unprocessable {
            code: ErrorCode::NotSupported,
            message: format!(
                "Server group '{}' is a {} (type {}), which has no console page Bootsmith can open; open the console from the domain's own UCS Manager",
                g.name,
                g.kind.title(),
                g.kind.as_str()
            ),
            details: Vec::new(),
        });
    };
    Ok(ConsoleLink {
        server_group: g.name.to_string(),
        server: server.id.to_string(),
        url: page.url,
        note: page.note,
    })
}
