//! The import of hosts: each one's group references followed to what the file's records
//! became, then checked against the host rules like a host sent to the API.

use std::collections::HashMap;

use crate::error::Result;
use crate::records::hosts::{self, Host, HostInput, HostRules};
use bootsmith_model::types::Name;
use bootsmith_store::{Conn, Named};

use super::file::KubamFile;
use super::{item, skip, CustomTemplate, RecordKind, Run};

/// Where a group name of the file leads after its own import.
pub(super) enum Ref {
    /// Stored under this name (the file's, or a new one).
    Stored(Name),
    /// Bootsmith has a record of this name already, which stays.
    Existing(Name),
    /// Not imported, for this reason.
    Skipped(String),
}

impl Run<'_> {
    /// Resolve a host's group reference: the group the file's record became, a stored group of
    /// that name, or the reason there is none.
    pub(super) async fn follow(
        conn: &mut Conn,
        refs: &HashMap<String, Ref>,
        table: Named,
        what: &str,
        raw: &str,
        notes: &mut Vec<String>,
    ) -> Result<Result<String, String>> {
        match refs.get(raw) {
            Some(Ref::Stored(name)) => {
                if name.as_str() != raw {
                    notes.push(format!("{what} '{raw}' is stored as '{name}'"));
                }
                Ok(Ok(name.to_string()))
            }
            Some(Ref::Existing(name)) => {
                notes.push(format!(
                    "joins the existing {what} '{name}' (the file's is not imported)"
                ));
                Ok(Ok(name.to_string()))
            }
            Some(Ref::Skipped(why)) => {
                Ok(Err(format!("its {what} '{raw}' is in the file but {why}")))
            }
            None => {
                let found = match Name::parse(raw) {
                    Ok(n) => Self::exists(conn, table, &n).await?,
                    Err(_) => false,
                };
                if found {
                    notes.push(format!("joins the existing {what} '{raw}'"));
                    Ok(Ok(raw.to_owned()))
                } else {
                    Ok(Err(format!(
                        "there is no {what} named '{raw}', in the file or in Bootsmith"
                    )))
                }
            }
        }
    }

    pub(super) async fn hosts(
        &mut self,
        conn: &mut Conn,
        file: &KubamFile,
        groups: &HashMap<String, Ref>,
        networks: &HashMap<String, Ref>,
    ) -> Result<()> {
        if file.hosts.is_empty() {
            return Ok(());
        }
        let stored = hosts::list_in(conn).await?;
        let mut rules = HostRules::load(self.app, conn).await?;
        for h in &stored {
            rules.register(&format!("host {}", h.name), &HostInput::from(h), Some(h));
        }
        let mut added: Vec<Host> = Vec::new();
        for (i, rec) in file.hosts.iter().enumerate() {
            let raw = rec.get("name").unwrap_or("(no name)").to_owned();
            let mut it = item(RecordKind::Host, raw.clone(), rec.line);
            if let Some(t) = rec.get("template") {
                self.custom_templates.push(CustomTemplate {
                    host: raw.clone(),
                    template: t.to_owned(),
                });
                it.notes.push(format!(
                    "KUBAM's custom template {t} is not used: Bootsmith renders svc/<os>.tmpl for every host of the OS (copy it there if it should apply)"
                ));
            }
            if let Some(existing) = stored
                .iter()
                .find(|h| h.name.as_str().eq_ignore_ascii_case(&raw))
            {
                self.clash(
                    it,
                    format!("hosts[{i}].name"),
                    format!("a host named '{}' exists already", existing.name),
                );
                continue;
            }
            let mut input = HostInput {
                name: rec.text("name"),
                ip: rec.text("ip"),
                os: rec.text("os"),
                role: rec.text("role"),
                network_group: None,
                server_group: None,
                service_profile_template: rec.text("service_profile_template"),
                server: rec.text("server"),
                // KUBAM never named an install disk: the host takes its group's, or the default.
                install_disk: None,
                // Nor NICs by MAC, an IPv6 address or template parameters.
                macs: None,
                ipv6: None,
                params: None,
            };
            let mut missing = Vec::new();
            for (raw, refs, table, what, slot) in [
                (
                    rec.get("network_group"),
                    networks,
                    Named::NetworkGroups,
                    "network group",
                    &mut input.network_group,
                ),
                (
                    rec.get("server_group"),
                    groups,
                    Named::ServerGroups,
                    "server group",
                    &mut input.server_group,
                ),
            ] {
                let Some(raw) = raw else { continue };
                match Self::follow(conn, refs, table, what, raw, &mut it.notes).await? {
                    Ok(name) => *slot = Some(name),
                    Err(why) => missing.push(why),
                }
            }
            if !missing.is_empty() {
                self.push(skip(it, missing.join("; ")));
                continue;
            }
            let (host, problems) = rules.check(&input);
            if !problems.is_empty() {
                let mut why: Vec<String> = problems.iter().map(ToString::to_string).collect();
                if problems
                    .iter()
                    .any(|p| p.field == "name" && p.message.contains("not a valid host name"))
                {
                    why.push("the import never renames a host".to_owned());
                }
                self.push(skip(it, why.join("; ")));
                continue;
            }
            let host = host.expect("no problems means the row parsed");
            if let Some(why) = rules.off_subnet(&host) {
                self.push(skip(it, why));
                continue;
            }
            if let Some(why) = rules.os_clash(&host) {
                self.push(skip(it, why));
                continue;
            }
            rules.register(&format!("host {}", host.name), &input, Some(&host));
            it.notes.extend(rec.ignored.iter().cloned());
            added.push(host);
            self.push(it);
        }
        if added.is_empty() {
            return Ok(());
        }
        // The list as it will be must pass the very check of POST /api/v2/hosts.
        let all: Vec<HostInput> = stored.iter().chain(&added).map(HostInput::from).collect();
        hosts::check_list(self.app, conn, &all).await?;
        hosts::append(conn, &added).await
    }
}
