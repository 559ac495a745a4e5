//! One-time boot from the virtual CD: the standard Boot PATCH with `If-Match` (target `Cd`, or
//! Supermicro's `UsbCd`), falling back to a minimal Boot object, the `@Redfish.Settings`
//! object (iDRAC 10) and HPE's `BootOnNextServerReset`; then read back. On iDRAC 8 / 9 < 6.00,
//! Dell's OEM configuration import instead ([`crate::dell`]). Left alone where the system
//! holds it already; and clearing it, read back.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::client::Client;
use crate::dell::{self, BusyRetry};
use crate::error::Result;
use crate::quirks::Effect;
use crate::request::Request;
use crate::systems::{system, System};
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
    /// True when the BMC held this one-time boot already and nothing was written.
    #[serde(default)]
    pub unchanged: bool,
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
    set_boot_once_cd(client, s, mode, cd_slot).await
}

/// The target that boots the virtual CD on this BMC (`Cd`, or Supermicro's `UsbCd` where
/// offered), with the rule that chose it.
fn cd_target(client: &Client, s: &System) -> (&'static str, Option<String>) {
    let allows = |t: &str| s.boot.allowed_targets.iter().any(|a| a == t);
    match client.quirks().rule_id(Effect::BootTargetUsbcd) {
        Some(id) if allows("UsbCd") => ("UsbCd", Some(id.to_owned())),
        _ => ("Cd", None),
    }
}

/// How the system `s` (as just read) already boots once from the virtual CD in `cd_slot`, in
/// words, or `None` when it does not (or cannot tell: Dell's OEM import is not read back).
/// `mode` must match too where the system reports one.
pub fn boot_once_held(
    client: &Client,
    s: &System,
    mode: Option<&str>,
    cd_slot: Option<&Slot>,
) -> Option<String> {
    if client.has_quirk(Effect::DellOemVirtualBoot) {
        return None;
    }
    if let Some(slot) = cd_slot.filter(|s| s.boot_on_next_reset == Some(true)) {
        return Some(format!("BootOnNextServerReset on slot {}", slot.id));
    }
    let (target, _) = cd_target(client, s);
    let enabled = s.boot.enabled.as_deref()?;
    let mode_ok = match (mode, s.boot.mode.as_deref()) {
        (Some(want), Some(has)) => want == has,
        _ => true,
    };
    (s.boot.target.as_deref() == Some(target)
        && matches!(enabled, "Once" | "Continuous")
        && mode_ok)
        .then(|| {
            format!(
                "{target} / {enabled}{}",
                s.boot
                    .mode
                    .as_deref()
                    .map(|m| format!(" ({m})"))
                    .unwrap_or_default()
            )
        })
}

/// [`boot_once_cd`] unless the system already boots once from the virtual CD
/// ([`boot_once_held`]): then nothing is written, and the outcome says `unchanged`.
pub async fn ensure_boot_once_cd(
    client: &Client,
    path: &str,
    mode: Option<&str>,
    cd_slot: Option<&Slot>,
) -> Result<BootOutcome> {
    let s = system(client, path).await?;
    // The slot as it is now: HPE's flag on it goes with an eject or insert (only HPE's slots
    // have it, so only theirs are read again).
    let now = match cd_slot {
        Some(slot) if client.has_quirk(Effect::HpeBootOnNextReset) => {
            Some(crate::vmedia::reread(client, slot).await?)
        }
        _ => None,
    };
    if let Some(held) = boot_once_held(client, &s, mode, now.as_ref()) {
        return Ok(BootOutcome {
            target: cd_target(client, &s).0.into(),
            mode: s.boot.mode.clone(),
            via: "unchanged".into(),
            read_target: s.boot.target.clone(),
            read_enabled: s.boot.enabled.clone(),
            unchanged: true,
            warnings: vec![format!("already set: {held}")],
            ..BootOutcome::default()
        });
    }
    set_boot_once_cd(client, s, mode, cd_slot).await
}

async fn set_boot_once_cd(
    client: &Client,
    s: System,
    mode: Option<&str>,
    cd_slot: Option<&Slot>,
) -> Result<BootOutcome> {
    let quirks = client.quirks();
    let mut out = BootOutcome::default();
    let allowed = &s.boot.allowed_targets;
    let allows = |t: &str| allowed.iter().any(|a| a == t);
    let (target, rule) = cd_target(client, &s);
    out.target = target.into();
    out.quirks.extend(rule);
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

/// Clear the boot override: target `None` and `Enabled: Disabled` (with the current mode for
/// full-triple vendors), then read back. sushy-tools refuses a Boot PATCH without a target
/// and reports `Continuous` whatever it is told, so the target is what says the override is
/// gone; a BMC that refuses `None` gets `Disabled` alone.
pub async fn clear_boot_override(client: &Client, path: &str) -> Result<()> {
    let s = system(client, path).await?;
    let mut boot =
        json!({"BootSourceOverrideEnabled": "Disabled", "BootSourceOverrideTarget": "None"});
    if client.has_quirk(Effect::FullBootTriple) {
        boot["BootSourceOverrideMode"] = json!(s.boot.mode.as_deref().unwrap_or("UEFI"));
    }
    match client
        .execute(Request::patch(&s.path, json!({ "Boot": boot })))
        .await
    {
        Err(e) if e.status() == Some(400) => {
            client.note_applied("clear_boot_without_target");
            let body = json!({"Boot": {"BootSourceOverrideEnabled": "Disabled"}});
            client.execute(Request::patch(&s.path, body)).await?;
        }
        other => {
            other?;
        }
    }
    let back = system(client, &s.path).await?;
    if !boot_cleared(&back) {
        return Err(client.protocol(&format!(
            "the boot override reads back as {} / {} after clearing it: the BMC kept it",
            back.boot.target.as_deref().unwrap_or("?"),
            back.boot.enabled.as_deref().unwrap_or("?")
        )));
    }
    Ok(())
}

/// True when the system boots no override: its target is `None` (or absent), or the override
/// is `Disabled` (Dell's and HPE's own flags are cleared with the slots' eject).
pub fn boot_cleared(s: &System) -> bool {
    s.boot.target.as_deref().is_none_or(|t| t == "None")
        || s.boot.enabled.as_deref() == Some("Disabled")
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
