//! Virtual media: finding the slots (System first, then each managing Manager), choosing one
//! slot for the boot ISO and a different one for the answer image, ejecting until empty, and
//! inserting with the payload ladder of redfish.md §1.3, verified by reading back; and finding
//! media a host's slots hold already, which a run leaves in.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::client::{Client, Reply};
use crate::error::{Error, Result};
use crate::identity::{link, members, text};
use crate::quirks::Effect;
use crate::request::Request;
use crate::systems::{strings, System};

/// How long an eject or insert may take to show in the slot.
pub const SETTLE: Duration = Duration::from_secs(60);

/// What is being mounted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MediaKind {
    /// The boot ISO (a CD/DVD slot).
    Iso,
    /// The small FAT answer image (a USB stick or floppy slot).
    Image,
}

/// One virtual media slot.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    /// Resource path.
    pub path: String,
    /// `Id` (`Cd`, `1`, `0`, `CD1`, `EXT1`, …).
    pub id: String,
    /// `MediaTypes` (CD, DVD, USBStick, Floppy, …).
    pub media_types: Vec<String>,
    /// `Inserted`.
    pub inserted: bool,
    /// `Image` (empty string counts as none).
    pub image: Option<String>,
    /// `ConnectedVia` (NotConnected, URI, Applet, Oem).
    pub connected_via: Option<String>,
    /// `WriteProtected`.
    pub write_protected: Option<bool>,
    /// `#VirtualMedia.InsertMedia` target.
    pub insert_target: Option<String>,
    /// `#VirtualMedia.EjectMedia` target.
    pub eject_target: Option<String>,
    /// The `Allow` header lists PATCH (Lenovo XCC inserts that way).
    pub patch_allowed: bool,
    /// True when the slot was found under a Manager rather than the System.
    pub on_manager: bool,
    /// HPE's `Oem.Hpe.BootOnNextServerReset` (the slot boots once at the next reset).
    #[serde(default)]
    pub boot_on_next_reset: Option<bool>,
}

impl Slot {
    /// A slot from a GET of it.
    pub fn from_reply(path: &str, reply: &Reply, on_manager: bool) -> Slot {
        let v = &reply.body;
        let action = |name: &str| {
            v.get("Actions")
                .and_then(|a| a.get(name))
                .and_then(|a| text(a, "target"))
        };
        Slot {
            path: text(v, "@odata.id").unwrap_or_else(|| path.to_owned()),
            id: text(v, "Id").unwrap_or_default(),
            media_types: strings(v.get("MediaTypes")),
            inserted: v.get("Inserted").and_then(Value::as_bool).unwrap_or(false),
            image: text(v, "Image"),
            connected_via: text(v, "ConnectedVia"),
            write_protected: v.get("WriteProtected").and_then(Value::as_bool),
            insert_target: action("#VirtualMedia.InsertMedia"),
            eject_target: action("#VirtualMedia.EjectMedia"),
            patch_allowed: reply.allow().iter().any(|m| m == "PATCH"),
            on_manager,
            boot_on_next_reset: v
                .pointer("/Oem/Hpe/BootOnNextServerReset")
                .and_then(Value::as_bool),
        }
    }

    /// True when the slot can take a URL: an insert action, or PATCH.
    pub fn usable(&self) -> bool {
        self.insert_target.is_some() || self.patch_allowed
    }

    /// True when something may be mounted: Inserted, or an Image, or a connection
    /// (some firmware lags in clearing `Inserted`; bmclib `occupied()`).
    pub fn occupied(&self) -> bool {
        self.inserted
            || self.image.is_some()
            || self
                .connected_via
                .as_deref()
                .is_some_and(|c| c != "NotConnected")
    }

    /// True when an eject has finished: not Inserted and no Image, and with
    /// `eject_until_not_connected` also NotConnected (Supermicro).
    pub fn is_empty(&self, strict: bool) -> bool {
        !self.inserted
            && self.image.is_none()
            && (!strict
                || self
                    .connected_via
                    .as_deref()
                    .is_none_or(|c| c == "NotConnected"))
    }

    /// True when the slot shows `url` inserted.
    pub fn holds(&self, url: &str) -> bool {
        self.inserted && self.image.as_deref() == Some(url)
    }

    fn has(&self, t: &str) -> bool {
        self.media_types.iter().any(|m| m.eq_ignore_ascii_case(t))
    }
}

/// The slots that already hold a host's media: the ISO in a CD/DVD slot and (when given) the
/// image in another; `None` when either is missing. A run finding them held writes nothing
/// (a re-insert while the server installs from them breaks the install).
pub fn held(all: &[Slot], iso_url: &str, image_url: Option<&str>) -> Option<SlotChoice> {
    let iso = all
        .iter()
        .find(|s| s.holds(iso_url) && (s.has("CD") || s.has("DVD")))?;
    let image = match image_url {
        Some(url) => Some(
            all.iter()
                .find(|s| s.path != iso.path && s.holds(url))?
                .clone(),
        ),
        None => None,
    };
    Some(SlotChoice {
        iso: Some(iso.clone()),
        image,
    })
}

/// The slots chosen for the ISO and the answer image.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlotChoice {
    /// Slot for the boot ISO.
    pub iso: Option<Slot>,
    /// A different slot for the answer image; `None` on single-device BMCs (the caller
    /// falls back, e.g. to an answer file inside the ISO).
    pub image: Option<Slot>,
}

/// Read every slot: those of the System, or when it has none, those of each managing Manager.
pub async fn slots(client: &Client, system: &System) -> Result<Vec<Slot>> {
    let mut out = Vec::new();
    if let Some(coll) = &system.virtual_media {
        for p in members(&client.get(coll).await?) {
            out.push(Slot::from_reply(&p, &client.get_reply(&p).await?, false));
        }
    }
    if out.is_empty() {
        let mut seen = Vec::new();
        for m in &system.managed_by {
            let manager = client.get(m).await?;
            let Some(coll) = link(&manager, "VirtualMedia") else {
                continue;
            };
            // sushy's Manager links to the System's collection: read each one once.
            if seen.contains(&coll) || system.virtual_media.as_deref() == Some(coll.as_str()) {
                continue;
            }
            seen.push(coll.clone());
            for p in members(&client.get(&coll).await?) {
                out.push(Slot::from_reply(&p, &client.get_reply(&p).await?, true));
            }
        }
    }
    Ok(out)
}

/// Choose the ISO slot (CD, else DVD; Id "1" first where several qualify, as iDRAC boots only
/// from slot 1) and a different image slot (USBStick preferred, else Floppy). Slots without an
/// insert action and without PATCH are skipped.
pub fn choose_slots(all: &[Slot], iso_slot_1: bool) -> SlotChoice {
    let usable: Vec<&Slot> = all.iter().filter(|s| s.usable()).collect();
    let mut cds: Vec<&Slot> = usable.iter().copied().filter(|s| s.has("CD")).collect();
    if cds.is_empty() {
        // Cisco UCS B/X blades list DVD only (ironic bug 2031595).
        cds = usable.iter().copied().filter(|s| s.has("DVD")).collect();
    }
    // Rank: Id "1" (iDRAC) when asked or when several CD slots exist; then slots that are not
    // also USB/floppy, keeping those for the image.
    let several = cds.len() > 1;
    let rank = |s: &&&Slot| {
        let one = (iso_slot_1 || several) && s.id == "1";
        let removable = s.has("USBStick") || s.has("Floppy");
        (!one, removable)
    };
    let iso = cds.iter().min_by_key(rank).map(|s| (*s).clone());
    let others: Vec<Slot> = usable
        .iter()
        .filter(|s| Some(&s.path) != iso.as_ref().map(|i| &i.path))
        .map(|s| (*s).clone())
        .collect();
    let image = image_slot(&others);
    SlotChoice { iso, image }
}

/// The slot for the answer image among `slots`: USBStick preferred, else Floppy (ironic:
/// "Prefer USB devices since floppies are outdated"); slots that cannot take media are skipped.
pub fn image_slot(slots: &[Slot]) -> Option<Slot> {
    let usable: Vec<&Slot> = slots.iter().filter(|s| s.usable()).collect();
    usable
        .iter()
        .find(|s| s.has("USBStick"))
        .or_else(|| usable.iter().find(|s| s.has("Floppy")))
        .map(|s| (*s).clone())
}

/// Read a slot again.
pub async fn reread(client: &Client, slot: &Slot) -> Result<Slot> {
    Ok(Slot::from_reply(
        &slot.path,
        &client.get_reply(&slot.path).await?,
        slot.on_manager,
    ))
}

/// The eject request: `EjectMedia` with `{}` (HPE 415 and Dell 400 without a body), else the
/// PATCH form `{Image: null, Inserted: false}`.
pub fn eject_request(slot: &Slot) -> Option<Request> {
    if let Some(t) = &slot.eject_target {
        Some(Request::action(t, json!({})))
    } else if slot.patch_allowed {
        Some(Request::patch(
            &slot.path,
            json!({"Image": null, "Inserted": false}),
        ))
    } else {
        None
    }
}

/// Eject when the slot looks occupied, then wait until it reads empty. An error answer
/// (400/409/5xx) is accepted when the slot reads empty afterwards (sushy 7d7ee4b).
pub async fn eject(client: &Client, slot: &Slot) -> Result<()> {
    let strict = client.has_quirk(Effect::EjectUntilNotConnected);
    let slot = reread(client, slot).await?;
    if !slot.occupied() {
        return Ok(());
    }
    let Some(req) = eject_request(&slot) else {
        if slot.is_empty(strict) {
            return Ok(());
        }
        return Err(client.not_supported(&format!("ejecting virtual media slot {}", slot.id)));
    };
    if slot.eject_target.is_none() {
        client.note_applied("lenovo-patch-insert");
    }
    match client.execute(req).await {
        Ok(_) => {}
        Err(e) if matches!(e.status(), Some(400 | 409 | 500..=599)) => {
            if reread(client, &slot).await?.is_empty(strict) {
                client.note_applied("eject_error_but_empty");
                return Ok(());
            }
            if !matches!(e.status(), Some(500..=599)) {
                return Err(e);
            }
            tracing::debug!(address = client.address(), error = %e, "eject answered a server error; waiting for the slot");
        }
        Err(e) => return Err(e),
    }
    let deadline = Instant::now() + SETTLE;
    loop {
        if reread(client, &slot).await?.is_empty(strict) {
            if strict {
                client.note_applied("supermicro-not-connected-is-empty");
            }
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(client.timeout(&format!("ejecting slot {}", slot.id), SETTLE));
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Which optional parts an insert payload carries (the rungs of the ladder).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InsertRung {
    /// `{Image}` alone, without Inserted/WriteProtected.
    pub image_only: bool,
    /// Add `TransferProtocolType` from the URL scheme.
    pub protocol: bool,
    /// Add `TransferMethod: "Stream"`.
    pub method: bool,
    /// Add dummy `UserName`/`Password` ("none"; NVIDIA DGX).
    pub credentials: bool,
}

/// `TransferProtocolType` for a URL's scheme.
pub fn transfer_protocol(url: &str) -> Option<&'static str> {
    let scheme = url.split("://").next()?.to_ascii_lowercase();
    Some(match scheme.as_str() {
        "http" => "HTTP",
        "https" => "HTTPS",
        "nfs" => "NFS",
        "cifs" | "smb" => "CIFS",
        "ftp" => "FTP",
        "sftp" => "SFTP",
        "scp" => "SCP",
        "tftp" => "TFTP",
        _ => return None,
    })
}

/// The insert payload for one rung.
pub fn insert_body(url: &str, rung: InsertRung) -> Value {
    let mut m = Map::new();
    m.insert("Image".into(), json!(url));
    if !rung.image_only {
        m.insert("Inserted".into(), json!(true));
        m.insert("WriteProtected".into(), json!(true));
    }
    if rung.protocol {
        if let Some(p) = transfer_protocol(url) {
            m.insert("TransferProtocolType".into(), json!(p));
        }
    }
    if rung.method {
        m.insert("TransferMethod".into(), json!("Stream"));
    }
    if rung.credentials {
        m.insert("UserName".into(), json!("none"));
        m.insert("Password".into(), json!("none"));
    }
    Value::Object(m)
}

/// The next rung after a refusal, when the refusal names what the rung changes.
pub fn next_rung(rung: InsertRung, e: &Error) -> Option<(InsertRung, &'static str)> {
    if !matches!(e.status(), Some(400..=499)) {
        return None;
    }
    let mut r = rung;
    if !r.image_only && (e.mentions("Inserted") || e.mentions("WriteProtected")) {
        r.image_only = true;
        return Some((r, "image_only"));
    }
    if !r.protocol && e.mentions("TransferProtocolType") {
        r.protocol = true;
        return Some((r, "+TransferProtocolType"));
    }
    if !r.method && e.mentions("TransferMethod") {
        r.method = true;
        return Some((r, "+TransferMethod"));
    }
    if !r.credentials && (e.mentions("UserName") || e.mentions("Password")) {
        r.credentials = true;
        return Some((r, "+UserName/Password"));
    }
    None
}

/// What an insert did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InsertOutcome {
    /// The slot's Id.
    pub slot: String,
    /// The rungs tried, in order (`full`, `image_only`, `+TransferProtocolType`, …); the last one worked.
    pub rungs: Vec<String>,
    /// Inserted by PATCH on the slot (no action).
    pub via_patch: bool,
    /// Quirk rule ids that shaped the insert.
    pub quirks: Vec<String>,
}

fn check_dell_url(url: &str, kind: MediaKind) -> Option<String> {
    let path = url.split('#').next().unwrap_or(url);
    let ext = match kind {
        MediaKind::Iso => ".iso",
        MediaKind::Image => ".img",
    };
    if path.contains('?') || !path.to_ascii_lowercase().ends_with(ext) {
        return Some(format!(
            "iDRAC needs a {kind:?} URL ending in {ext} without a query string, not {url}"
        ));
    }
    None
}

/// Insert `url` into `slot` (eject it first), climbing the payload ladder only when the BMC
/// names the property, then read back until `Inserted` and `Image == url`.
pub async fn insert(
    client: &Client,
    slot: &Slot,
    url: &str,
    kind: MediaKind,
) -> Result<InsertOutcome> {
    let mut out = InsertOutcome {
        slot: slot.id.clone(),
        ..InsertOutcome::default()
    };
    if client.has_quirk(Effect::DellIsoImgExtensions) {
        if let Some(why) = check_dell_url(url, kind) {
            return Err(Error::Invalid(why));
        }
        out.quirks.push("dell-iso-img-extensions".into());
    }
    eject(client, slot).await?;
    let mut rung = InsertRung::default();
    if let Some(id) = client.quirks().rule_id(Effect::InsertImageOnly) {
        rung.image_only = true;
        out.quirks.push(id.to_owned());
    }
    out.rungs.push(
        if rung.image_only {
            "image_only"
        } else {
            "full"
        }
        .into(),
    );
    let via_patch = slot.insert_target.is_none();
    if via_patch {
        if !slot.patch_allowed {
            return Err(client.not_supported(&format!("inserting media into slot {}", slot.id)));
        }
        // PATCH insert (Lenovo XCC): the protocol goes along from the start.
        rung.protocol = true;
        out.via_patch = true;
        out.quirks.push("lenovo-patch-insert".into());
    }
    let mut server_errors = 0;
    loop {
        let body = insert_body(url, rung);
        let req = match &slot.insert_target {
            Some(t) => Request::action(t, body),
            None => Request::patch(&slot.path, body),
        };
        match client.execute(req).await {
            Ok(_) => break,
            Err(e) => {
                if let Some((next, name)) = next_rung(rung, &e) {
                    tracing::info!(address = client.address(), slot = %slot.id, rung = name, error = %e, "insert refused; next rung");
                    rung = next;
                    out.rungs.push(name.into());
                    continue;
                }
                // iDRAC: a quick re-insert after an eject gets a 500 (ironic retries 3×3 s).
                if matches!(e.status(), Some(500..=599)) && server_errors < 2 {
                    server_errors += 1;
                    tokio::time::sleep(client.config().backoff * 3).await;
                    continue;
                }
                return Err(e);
            }
        }
    }
    for q in &out.quirks {
        client.note_applied(q);
    }
    let deadline = Instant::now() + SETTLE;
    loop {
        let now = reread(client, slot).await?;
        if now.inserted && now.image.as_deref() == Some(url) {
            return Ok(out);
        }
        if Instant::now() >= deadline {
            return Err(client.protocol(&format!(
                "slot {} did not show the inserted image within {} s (Inserted {}, Image {:?})",
                slot.id,
                SETTLE.as_secs(),
                now.inserted,
                now.image
            )));
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot(id: &str, types: &[&str]) -> Slot {
        Slot {
            path: format!("/vm/{id}"),
            id: id.into(),
            media_types: types.iter().map(|t| (*t).to_owned()).collect(),
            insert_target: Some(format!("/vm/{id}/Actions/VirtualMedia.InsertMedia")),
            ..Slot::default()
        }
    }

    fn ids(c: &SlotChoice) -> (Option<&str>, Option<&str>) {
        (
            c.iso.as_ref().map(|s| s.id.as_str()),
            c.image.as_ref().map(|s| s.id.as_str()),
        )
    }

    #[test]
    fn slots_are_chosen_per_vendor_layout() {
        // sushy-tools
        let c = choose_slots(
            &[
                slot("Cd", &["CD", "DVD"]),
                slot("Floppy", &["Floppy", "USBStick"]),
            ],
            false,
        );
        assert_eq!(ids(&c), (Some("Cd"), Some("Floppy")));
        // HPE iLO 5: 1 is Floppy/USBStick, 2 is CD/DVD
        let c = choose_slots(
            &[
                slot("1", &["Floppy", "USBStick"]),
                slot("2", &["CD", "DVD"]),
            ],
            false,
        );
        assert_eq!(ids(&c), (Some("2"), Some("1")));
        // iDRAC ≥ 6, collection order not guaranteed
        let c = choose_slots(
            &[
                slot("2", &["CD", "DVD", "USBStick"]),
                slot("1", &["CD", "DVD", "USBStick"]),
            ],
            true,
        );
        assert_eq!(ids(&c), (Some("1"), Some("2")));
        // Cisco blade: DVD only; Supermicro: one slot
        let c = choose_slots(&[slot("0", &["DVD"])], false);
        assert_eq!(ids(&c), (Some("0"), None));
        // a slot without action nor PATCH is skipped
        let mut dead = slot("kvm", &["CD"]);
        dead.insert_target = None;
        let c = choose_slots(&[dead, slot("1", &["Floppy"])], false);
        assert_eq!(ids(&c), (None, Some("1")));
    }

    #[test]
    fn occupied_and_empty() {
        let mut s = slot("Cd", &["CD"]);
        s.connected_via = Some("URI".into());
        assert!(s.occupied());
        assert!(s.is_empty(false));
        assert!(!s.is_empty(true));
        s.connected_via = Some("NotConnected".into());
        assert!(!s.occupied() && s.is_empty(true));
    }

    #[test]
    fn the_insert_ladder() {
        let url = "http://10.0.0.1/m/boot.iso";
        assert_eq!(
            insert_body(url, InsertRung::default()),
            json!({"Image": url, "Inserted": true, "WriteProtected": true})
        );
        let refused = |msg: &str, id: &str| Error::Refused {
            address: "a".into(),
            request: "POST /p".into(),
            status: 400,
            message: msg.into(),
            message_id: Some(id.into()),
            related: vec![],
        };
        let e = refused(
            "The property Inserted is not valid",
            "Base.1.4.PropertyUnknown",
        );
        let (r, name) = next_rung(InsertRung::default(), &e).unwrap();
        assert_eq!(name, "image_only");
        assert_eq!(insert_body(url, r), json!({"Image": url}));
        let e = refused(
            "TransferProtocolType is missing",
            "Base.1.4.ActionParameterMissing",
        );
        let (r, _) = next_rung(r, &e).unwrap();
        assert_eq!(
            insert_body(url, r),
            json!({"Image": url, "TransferProtocolType": "HTTP"})
        );
        let (r, _) = next_rung(r, &refused("TransferMethod required", "x")).unwrap();
        let (r, _) = next_rung(r, &refused("UserName required", "x")).unwrap();
        assert_eq!(
            insert_body(url, r),
            json!({"Image": url, "TransferProtocolType": "HTTP", "TransferMethod": "Stream", "UserName": "none", "Password": "none"})
        );
        assert!(next_rung(r, &refused("UserName required", "x")).is_none());
        assert!(next_rung(InsertRung::default(), &refused("Cannot download", "x")).is_none());
    }

    #[test]
    fn dell_urls() {
        assert!(check_dell_url("http://h/m/boot.iso", MediaKind::Iso).is_none());
        assert!(check_dell_url("http://h/m/boot.iso?x=1", MediaKind::Iso).is_some());
        assert!(check_dell_url("http://h/m/oemdrv.img", MediaKind::Iso).is_some());
        assert!(check_dell_url("http://h/m/oemdrv.img", MediaKind::Image).is_none());
    }
}

/// What [`mount`] did (or found done: [`Mounted::held`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mounted {
    /// True when the slots held the media already and nothing was written.
    #[serde(default)]
    pub unchanged: bool,
    /// The ISO's insert.
    pub iso: InsertOutcome,
    /// The answer image's insert; `None` when no second slot exists (single-device BMC: the
    /// caller falls back, e.g. to an answer file inside the ISO).
    pub image: Option<InsertOutcome>,
    /// The slot holding the ISO (for HPE's BootOnNextServerReset).
    pub iso_slot: Slot,
    /// Slots skipped because they refused media (405, internal-only slots).
    pub skipped: Vec<String>,
}

impl Mounted {
    /// The media found in `held` slots (see [`held`]): nothing inserted.
    pub fn held(held: SlotChoice) -> Option<Mounted> {
        let iso_slot = held.iso?;
        let outcome = |s: &Slot| InsertOutcome {
            slot: s.id.clone(),
            ..InsertOutcome::default()
        };
        Some(Mounted {
            unchanged: true,
            iso: outcome(&iso_slot),
            image: held.image.as_ref().map(outcome),
            iso_slot,
            skipped: Vec::new(),
        })
    }
}

/// Insert into the first candidate slot that takes the media; a 405, or a 400 on a slot that
/// is not the last, moves on to the next slot (CIMC vKVM slots, OpenBMC NBD-only slots).
async fn insert_first(
    client: &Client,
    candidates: &[Slot],
    url: &str,
    kind: MediaKind,
    skipped: &mut Vec<String>,
) -> Result<(Slot, InsertOutcome)> {
    let mut last = None;
    for (i, slot) in candidates.iter().enumerate() {
        match insert(client, slot, url, kind).await {
            Ok(o) => return Ok((slot.clone(), o)),
            Err(e)
                if e.status() == Some(405)
                    || (e.status() == Some(400) && i + 1 < candidates.len()) =>
            {
                tracing::info!(address = client.address(), slot = %slot.id, error = %e, "slot refused the media; trying the next");
                skipped.push(slot.id.clone());
                last = Some(e);
            }
            Err(e) => return Err(e),
        }
    }
    Err(last
        .unwrap_or_else(|| client.not_supported(&format!("a virtual media slot for the {kind:?}"))))
}

/// The whole mount of redfish.md §1.3: find and choose the slots, then eject, insert and read
/// back the ISO and (when `image_url` is given and a second slot exists) the image.
pub async fn mount(
    client: &Client,
    system: &System,
    iso_url: &str,
    image_url: Option<&str>,
) -> Result<Mounted> {
    mount_in(client, &slots(client, system).await?, iso_url, image_url).await
}

/// [`mount`] into `all`, the system's slots as just read (by [`slots`]).
pub async fn mount_in(
    client: &Client,
    all: &[Slot],
    iso_url: &str,
    image_url: Option<&str>,
) -> Result<Mounted> {
    let choice = choose_slots(all, client.has_quirk(Effect::IsoSlot1));
    let Some(first) = choice.iso.clone() else {
        return Err(client.not_supported("a CD/DVD virtual media slot"));
    };
    let image_path = choice.image.as_ref().map(|i| i.path.clone());
    // The chosen slot first, then the other usable CD/DVD slots (not the image's).
    let mut iso_candidates = vec![first.clone()];
    iso_candidates.extend(
        all.iter()
            .filter(|s| s.usable() && s.path != first.path && (s.has("CD") || s.has("DVD")))
            .filter(|s| Some(&s.path) != image_path.as_ref())
            .cloned(),
    );
    let mut skipped = Vec::new();
    let (iso_slot, iso) = insert_first(
        client,
        &iso_candidates,
        iso_url,
        MediaKind::Iso,
        &mut skipped,
    )
    .await?;
    let mut image = None;
    if let Some(url) = image_url {
        let rest: Vec<Slot> = all
            .iter()
            .filter(|s| s.path != iso_slot.path && !skipped.contains(&s.id))
            .cloned()
            .collect();
        // Not choose_slots: it would take a CD-capable slot (iDRAC's 2) for an ISO first.
        if let Some(slot) = image_slot(&rest) {
            image = Some(
                insert_first(client, &[slot], url, MediaKind::Image, &mut skipped)
                    .await?
                    .1,
            );
        } else {
            if let Some(id) = client.quirks().rule_id(Effect::SingleVmediaDevice) {
                client.note_applied(id);
            }
            tracing::warn!(
                address = client.address(),
                "no second virtual media slot for the answer image"
            );
        }
    }
    Ok(Mounted {
        unchanged: false,
        iso,
        image,
        iso_slot,
        skipped,
    })
}
