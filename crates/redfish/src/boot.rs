//! One-time boot from the virtual CD: the standard Boot PATCH with `If-Match` (target `Cd`, or
//! Supermicro's `UsbCd`), falling back to a minimal Boot object, the `@Redfish.Settings`
//! object (iDRAC 10) and HPE's `BootOnNextServerReset`; then read back. On iDRAC 8 / 9 < 6.00,
//! Dell's OEM configuration import instead ([`crate::dell`]). And clearing it.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::client::Client;
use crate::dell::{self, BusyRetry};
use crate::error::Result;
use crate::quirks::Effect;
use crate::request::Request;
use crate::systems::system;
use crate::vmedia::Slot;

/// How the one-time boot was set and what the BMC reads back.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BootOutcome {
    /// The target sent (`Cd`, `UsbCd`; `VCD-DVD` for Dell's OEM import).
    pub target: String,
    /// The mode sent, if any.
    pub mode: Option<String>,
    /// `system`, `system_minimal`, `settings_object`, `hpe_boot_on_next_reset` or
    /// `dell_oem_import` (iDRAC 8 / 9 < 6.00: nothing standard to read back).
    pub via: String,
    /// `BootSourceOverrideTarget` read back.
    pub read_target: Option<String>,
    /// `BootSourceOverrideEnabled` read back.
    pub read_enabled: Option<String>,
    /// Quirk rule ids that shaped the request.
    pub quirks: Vec<String>,
    /// Things the operator should know (an ignored Once, a Dell OEM boot not done).
    pub warnings: Vec<String>,
}

/// The Boot PATCH body: `{"Boot": {Target, Enabled: "Once"[, Mode]}}`.
pub fn boot_once_body(target: &str, mode: Option<&str>) -> Value {
    let mut b = Map::new();
    b.insert("BootSourceOverrideTarget".into(), json!(target));
    b.insert("BootSourceOverrideEnabled".into(), json!("Once"));
    if let Some(m) = mode {
        b.insert("BootSourceOverrideMode".into(), json!(m));
    }
    json!({ "Boot": b })
}

/// HPE's one-time boot from the CD slot.
pub fn hpe_boot_on_next_reset_body() -> Value {
    json!({"Oem": {"Hpe": {"BootOnNextServerReset": true}}})
}

/// Set a one-time boot from the virtual CD on the system at `path`. `mode` is sent when it
/// differs from the current one (always, with the current mode, for full-triple vendors).
/// `cd_slot` enables HPE's fallback on the slot holding the ISO.
pub async fn boot_once_cd(
    client: &Client,
    path: &str,
    mode: Option<&str>,
    cd_slot: Option<&Slot>,
) -> Result<BootOutcome> {
    let s = system(client, path).await?;
    let quirks = client.quirks();
    let mut out = BootOutcome::default();
    let allowed = &s.boot.allowed_targets;
    let allows = |t: &str| allowed.iter().any(|a| a == t);
    out.target = match quirks.rule_id(Effect::BootTargetUsbcd) {
        Some(id) if allows("UsbCd") => {
            out.quirks.push(id.to_owned());
            "UsbCd".into()
        }
        _ => "Cd".into(),
    };
    if let Some(id) = quirks.rule_id(Effect::DellOemVirtualBoot) {
        // iDRAC 8 / 9 < 6.00: Cd boots the physical drive; only the OEM import boots the
        // virtual CD (redfish.md §2 ★1).
        out.quirks.push(id.to_owned());
        let manager = s
            .managed_by
            .first()
            .cloned()
            .unwrap_or_else(|| dell::MANAGER.to_owned());
        let done = dell::import_boot_once(client, &manager, dell::VIRTUAL_CD, BusyRetry::default())
            .await?;
        out.target = dell::VIRTUAL_CD.into();
        out.via = "dell_oem_import".into();
        out.warnings.push(format!(
            "one-time boot from the virtual CD set by Dell's ImportSystemConfiguration (job {}{}); the standard Boot object does not show it, so it was not read back",
            done.job.as_deref().unwrap_or("without an id"),
            if done.message.is_empty() {
                String::new()
            } else {
                format!(": {}", done.message)
            }
        ));
        if done.busy_retries > 0 {
            out.warnings.push(format!(
                "the iDRAC was busy (config pending or a job running): the import was retried {} times",
                done.busy_retries
            ));
        }
        return finish(client, out);
    }
    let full = quirks.rule_id(Effect::FullBootTriple);
    out.mode = match (mode, full) {
        (m, Some(id)) => {
            out.quirks.push(id.to_owned());
            m.map(str::to_owned)
                .or(s.boot.mode.clone())
                .or(Some("UEFI".into()))
        }
        (Some(m), None) if s.boot.mode.as_deref() != Some(m) => Some(m.to_owned()),
        _ => None,
    };
    if !allowed.is_empty()
        && !allows(&out.target)
        && quirks.rule_id(Effect::HpeBootOnNextReset).is_none()
    {
        return Err(client.not_supported(&format!(
            "booting once from {} (targets offered: {})",
            out.target,
            allowed.join(", ")
        )));
    }
    // If IfMatchRequired: the system was just read, so its ETag is fresh.
    let body = boot_once_body(&out.target, out.mode.as_deref());
    let mut result = client.execute(Request::patch(&s.path, body)).await;
    out.via = "system".into();
    if result.is_err() && out.mode.is_some() && full.is_none() {
        // HP DL160 Gen10 rejects the full object; Gen9 has no mode at all.
        if let Some(id) = quirks.rule_id(Effect::MinimalBootObject) {
            out.quirks.push(id.to_owned());
        }
        out.via = "system_minimal".into();
        result = client
            .execute(Request::patch(&s.path, boot_once_body(&out.target, None)))
            .await;
    }
    if let (Err(_), Some(settings)) = (&result, &s.settings_object) {
        if let Some(id) = quirks.rule_id(Effect::BootSettingsObject) {
            out.quirks.push(id.to_owned());
        }
        out.via = "settings_object".into();
        client.get_reply(settings).await?;
        let body = boot_once_body(&out.target, out.mode.as_deref());
        result = client.execute(Request::patch(settings, body)).await;
        if result.is_ok() {
            let back = client.get(settings).await?;
            out.read_target = back["Boot"]["BootSourceOverrideTarget"]
                .as_str()
                .map(str::to_owned);
            out.read_enabled = back["Boot"]["BootSourceOverrideEnabled"]
                .as_str()
                .map(str::to_owned);
            out.warnings
                .push("set through @Redfish.Settings: applied at the next reset".into());
            return finish(client, out);
        }
    }
    if let (Err(_), Some(id), Some(slot)) =
        (&result, quirks.rule_id(Effect::HpeBootOnNextReset), cd_slot)
    {
        out.quirks.push(id.to_owned());
        out.via = "hpe_boot_on_next_reset".into();
        client.get_reply(&slot.path).await?;
        client
            .execute(Request::patch(&slot.path, hpe_boot_on_next_reset_body()))
            .await?;
        let back = client.get(&slot.path).await?;
        if back["Oem"]["Hpe"]["BootOnNextServerReset"].as_bool() != Some(true) {
            return Err(client.protocol("BootOnNextServerReset did not read back as true"));
        }
        out.read_target = Some("Cd".into());
        out.read_enabled = Some("Once".into());
        return finish(client, out);
    }
    result?;
    let back = system(client, &s.path).await?;
    out.read_target = back.boot.target.clone();
    out.read_enabled = back.boot.enabled.clone();
    if out.read_target.as_deref() != Some(out.target.as_str()) {
        return Err(client.protocol(&format!(
            "the boot target reads back as {:?}, not {}: the BMC ignored the change",
            out.read_target, out.target
        )));
    }
    if out.read_enabled.as_deref() != Some("Once") {
        out.warnings.push(format!(
            "BootSourceOverrideEnabled reads back as {:?}, not Once (sushy-tools ignores Once); clear it after the install",
            out.read_enabled
        ));
    }
    finish(client, out)
}

fn finish(client: &Client, out: BootOutcome) -> Result<BootOutcome> {
    for q in &out.quirks {
        client.note_applied(q);
    }
    Ok(out)
}

/// Clear the boot override (`Enabled: Disabled`; with target `None` and the current mode for
/// full-triple vendors).
pub async fn clear_boot_override(client: &Client, path: &str) -> Result<()> {
    let s = system(client, path).await?;
    let body = if client.has_quirk(Effect::FullBootTriple) {
        json!({"Boot": {"BootSourceOverrideEnabled": "Disabled", "BootSourceOverrideTarget": "None",
            "BootSourceOverrideMode": s.boot.mode.as_deref().unwrap_or("UEFI")}})
    } else {
        json!({"Boot": {"BootSourceOverrideEnabled": "Disabled"}})
    };
    match client.execute(Request::patch(&s.path, body)).await {
        Err(e) if e.status() == Some(400) => {
            // Some BMCs (sushy-tools) refuse a Boot PATCH without a target; with Disabled the
            // current target is ignored anyway.
            client.note_applied("clear_boot_with_target");
            let body = json!({"Boot": {"BootSourceOverrideEnabled": "Disabled",
                "BootSourceOverrideTarget": s.boot.target.as_deref().unwrap_or("None")}});
            client.execute(Request::patch(&s.path, body)).await?;
        }
        other => {
            other?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies() {
        assert_eq!(
            boot_once_body("UsbCd", Some("UEFI")),
            json!({"Boot": {"BootSourceOverrideTarget": "UsbCd", "BootSourceOverrideEnabled": "Once", "BootSourceOverrideMode": "UEFI"}})
        );
        assert_eq!(
            boot_once_body("Cd", None),
            json!({"Boot": {"BootSourceOverrideTarget": "Cd", "BootSourceOverrideEnabled": "Once"}})
        );
    }
}
