//! Which servers a group selects for deployment: the selection checked against the group's
//! manager (unknown ids refused, servers running someone else's profile refused unless
//! forced, a lost domain's servers warned about), then stored with the group.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::App;
use crate::error::{Error, ErrorCode, Result};
use crate::managers::GroupKind;
use crate::records::server_groups::{self, write_pool};
use bootsmith_model::selector::{SelectorInput, ServerSelector};

use super::{in_use_line, inventory, refuse_in_use, ServerRecord, ServerType};

/// Body of `POST /api/v2/servers/<group>/servers`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SelectInput {
    /// The servers to select: `{blades, rack_servers}`, or the list of server records (as
    /// `GET …/servers` lists them) with `selected` flags that KUBAM's web UI sends back.
    #[serde(default, deserialize_with = "selection")]
    #[schema(value_type = SelectorInput, required = true, nullable = false)]
    pub servers: Option<SelectorInput>,
    /// Select servers that run a service profile Bootsmith did not create (refused with
    /// `server_in_use` without it, unless the group has them selected already). Deploys never
    /// pool such a server.
    #[serde(default)]
    pub force: bool,
}

/// Read a selection in either of the shapes clients send.
fn selection<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<SelectorInput>, D::Error> {
    use serde::de::Error as _;
    let value = serde_json::Value::deserialize(d)?;
    let serde_json::Value::Array(records) = value else {
        return bootsmith_model::bodies::object(value).map_err(D::Error::custom);
    };
    let mut sel = SelectorInput {
        blades: Some(Vec::new()),
        rack_servers: Some(Vec::new()),
    };
    for (i, r) in records.iter().enumerate() {
        let Some(r) = r.as_object() else {
            return Err(D::Error::custom(format!(
                "servers: item {} is not a server record; send {{\"blades\": [...], \"rack_servers\": [...]}} or the server records with \"selected\"",
                i + 1
            )));
        };
        if r.get("selected") != Some(&serde_json::Value::Bool(true)) {
            continue;
        }
        let field = |k: &str| r.get(k).and_then(|v| v.as_str()).map(str::to_owned);
        // `id` is what GET …/servers answers; KUBAM's records have the parts instead.
        let blade = field("id").or_else(|| {
            let (c, s) = (field("chassis_id")?, field("slot")?);
            Some(match field("domain_id") {
                Some(d) => format!("{d}/{c}/{s}"),
                None => format!("{c}/{s}"),
            })
        });
        match field("type").as_deref() {
            Some("blade") => sel.blades.as_mut().expect("set above").extend(blade),
            Some("rack") => sel
                .rack_servers
                .as_mut()
                .expect("set above")
                .extend(field("id").or_else(|| field("rack_id"))),
            _ => {
                return Err(D::Error::custom(format!(
                    "servers: item {} has no \"type\" of blade or rack",
                    i + 1
                )))
            }
        }
    }
    Ok(Some(sel))
}

/// A stored selection, with what could not be checked.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Selection {
    /// The servers now selected.
    pub servers: ServerSelector,
    /// Why some of them could not be checked against the manager (it could not be asked).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Replace the servers selected in group `name`. Ids the manager does not have are refused
/// (naming them); when the manager cannot be asked, the selection is kept with a warning.
pub async fn select_servers(app: &App, name: &str, input: SelectInput) -> Result<Selection> {
    let group = server_groups::get(app, name).await?;
    let Some(sel) = input.servers else {
        return Err(Error::invalid_field(
            ErrorCode::InvalidSelection,
            "The server selection is invalid",
            "servers",
            "is required ({blades: [...], rack_servers: [...]})",
        ));
    };
    let pool = sel.check("servers").map_err(|p| {
        Error::invalid(
            ErrorCode::InvalidSelection,
            "The server selection is invalid",
            p,
        )
    })?;
    if group.kind == GroupKind::Imc && !pool.blades.is_empty() {
        return Err(Error::bad(
            ErrorCode::InvalidSelection,
            format!("Server group '{name}' is an IMC (one rack server) and has no blades"),
        ));
    }
    crate::managers::numbering(group.kind).check(name, &pool)?;
    let mut warnings = Vec::new();
    if !pool.is_empty() {
        match inventory(app, name).await {
            Ok(servers) => {
                let unknown: Vec<String> = pool
                    .blades
                    .iter()
                    .map(|b| (b.to_string(), ServerType::Blade))
                    .chain(
                        pool.rack_servers
                            .iter()
                            .map(|r| (r.to_string(), ServerType::Rack)),
                    )
                    .filter(|(id, kind)| !servers.iter().any(|s| s.id == *id && s.kind == *kind))
                    .map(|(id, kind)| {
                        if kind == ServerType::Blade {
                            format!("blade {id}")
                        } else {
                            format!("rack server {id}")
                        }
                    })
                    .collect();
                if !unknown.is_empty() {
                    return Err(Error::bad(
                        ErrorCode::UnknownServers,
                        format!(
                            "The manager of server group '{name}' has no {}; pick servers from its inventory",
                            unknown.join(", ")
                        ),
                    ));
                }
                // Servers the group has selected already are kept, not selected anew: a
                // selection sent back as GET …/servers lists it is not refused.
                let busy: Vec<String> = servers
                    .iter()
                    .filter(|s| selects(&pool, s) && !selects(&group.server_pool, s))
                    .filter_map(|s| {
                        let sp = s.in_use_by.as_deref()?;
                        Some(in_use_line(
                            s.kind == ServerType::Blade,
                            &s.id,
                            sp,
                            s.oper_power.as_ref(),
                        ))
                    })
                    .collect();
                refuse_in_use(
                    name,
                    &busy,
                    "select",
                    input.force,
                    " (deploys never pool such a server)",
                )?;
                // A central manager lists a lost domain's servers as it last read them.
                let lost: Vec<String> = servers
                    .iter()
                    .filter(|s| selects(&pool, s) && s.domain_reachable == Some(false))
                    .map(|s| {
                        let kind = if s.kind == ServerType::Blade {
                            "blade"
                        } else {
                            "rack server"
                        };
                        let read = s.domain_last_read.as_deref().unwrap_or("an unknown time");
                        format!(
                            "{kind} {} (domain {}, last read at {read} UTC)",
                            s.id,
                            s.domain_id.as_deref().unwrap_or("?")
                        )
                    })
                    .collect();
                if !lost.is_empty() {
                    warnings.push(format!(
                        "{} could not be checked: the manager of '{name}' cannot reach their domain now, so they were checked against what it last read; power, disks and deploy wait until it reads the domain again",
                        lost.join(", ")
                    ));
                }
            }
            // An offline group (stored with check_login: false, or a manager that is down)
            // keeps the selection, naming the servers that were not checked.
            Err(e) if e.kind() != crate::error::ErrorKind::Invalid => warnings.push(format!(
                "{} {} not checked against the manager of '{name}': {e}",
                pool_words(&pool),
                if pool.blades.len() + pool.rack_servers.len() == 1 {
                    "was"
                } else {
                    "were"
                }
            )),
            Err(e) => return Err(e),
        }
    }
    let mut tx = app.store().begin().await?;
    write_pool(&mut tx, group.id, &pool).await?;
    tx.commit().await?;
    for w in &warnings {
        tracing::warn!(group = name, "{w}");
    }
    Ok(Selection {
        servers: pool,
        warnings,
    })
}

/// The servers `pool` names, as operators name them: `blade 1/3, rack server 2`.
fn pool_words(pool: &ServerSelector) -> String {
    pool.blades
        .iter()
        .map(|b| format!("blade {b}"))
        .chain(pool.rack_servers.iter().map(|r| format!("rack server {r}")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// True when `pool` names the listed server `s`.
fn selects(pool: &ServerSelector, s: &ServerRecord) -> bool {
    if s.kind == ServerType::Blade {
        pool.blades.iter().any(|b| b.to_string() == s.id)
    } else {
        pool.rack_servers.iter().any(|r| r.to_string() == s.id)
    }
}
