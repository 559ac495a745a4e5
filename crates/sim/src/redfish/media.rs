//! Virtual media: InsertMedia/EjectMedia actions, the PATCH insert of BMCs without actions
//! (Lenovo), HPE's `BootOnNextServerReset` PATCH, and the fetch a BMC makes of an inserted
//! image. Like a real BMC, the simulator asks the media server for the image's size (`HEAD`)
//! and reads its first part by range (the probe in `crate::fetch`); when that fails the slot
//! reports it as the vendors do (`Inserted: false`, `ConnectedVia: NotConnected`) and the
//! failure goes into the fetch log tests read.

use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::Value;

use super::errors::{error, missing, not_allowed};
use super::persona::Quirks;
use super::routes::action_ok;
use super::state::{FetchRecord, Shared, State};

/// Whether `path` is a slot of the persona's VirtualMedia collection.
pub(crate) fn is_slot(q: &Quirks, path: &str) -> bool {
    path.rsplit_once('/')
        .is_some_and(|(parent, _)| parent == q.vmedia)
}

fn slot_id(path: &str) -> String {
    path.rsplit('/').next().unwrap_or_default().to_owned()
}

fn bad(q: &Quirks, id: &str, msg: &str) -> Response {
    error(StatusCode::BAD_REQUEST, &format!("{}.{id}", q.base), msg)
}

/// `POST <slot>/Actions/VirtualMedia.InsertMedia`.
pub(crate) fn insert_action(
    sh: &Arc<Shared>,
    st: &mut State,
    slot: &str,
    body: Option<Value>,
) -> Response {
    let q = &sh.q;
    let Some(body) = body.filter(Value::is_object) else {
        return error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            &format!("{}.UnsupportedMediaType", q.base),
            "InsertMedia needs a JSON object body.",
        );
    };
    if q.insert_rejects_flags {
        // Supermicro: sushy omits these when they equal the defaults for this reason.
        for key in ["Inserted", "WriteProtected"] {
            if body.get(key).is_some() {
                return bad(
                    q,
                    "PropertyUnknown",
                    &format!("The property {key} is not valid: it is not in the list of valid properties for the action InsertMedia."),
                );
            }
        }
    }
    if q.insert_only_true {
        for key in ["Inserted", "WriteProtected"] {
            if body.get(key).is_some_and(|v| v != &Value::Bool(true)) {
                return bad(
                    q,
                    "ActionParameterValueNotInList",
                    &format!("The value {} for the parameter {key} in the action InsertMedia is not in the list of acceptable values (true).", body[key]),
                );
            }
        }
        if body.get("TransferMethod").is_some_and(|v| v != "Stream") {
            return bad(
                q,
                "ActionParameterValueNotInList",
                "The value for the parameter TransferMethod in the action InsertMedia is not in the list of acceptable values (Stream).",
            );
        }
    }
    let Some(image) = body["Image"].as_str().filter(|s| !s.is_empty()) else {
        return bad(
            q,
            "ActionParameterMissing",
            "The action InsertMedia requires the parameter Image to be present in the request body.",
        );
    };
    let wp = body["WriteProtected"].as_bool().unwrap_or(true);
    let proto = body["TransferProtocolType"].as_str();
    match insert(sh, st, slot, image, wp, proto) {
        Ok(()) => action_ok(q),
        Err(r) => *r,
    }
}

/// Put `image` in `slot` and start the BMC's fetch of it.
fn insert(
    sh: &Arc<Shared>,
    st: &mut State,
    slot: &str,
    image: &str,
    write_protected: bool,
    proto: Option<&str>,
) -> Result<(), Box<Response>> {
    let q = &sh.q;
    if q.eject_lag && st.ejecting.contains(slot) {
        // iDRAC: the eject is still running; ironic retries 3 × 3 s for this.
        return Err(Box::new(error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "IDRAC.2.8.SYS518",
            "iDRAC is currently unable to complete the request: the virtual media device is busy (an eject is in progress). Retry the operation.",
        )));
    }
    if q.dell_extensions {
        let p = image.to_ascii_lowercase();
        if p.contains('?') || !(p.ends_with(".iso") || p.ends_with(".img")) {
            return Err(Box::new(error(
                StatusCode::BAD_REQUEST,
                "IDRAC.2.8.RAC0720",
                "Unable to locate the ISO or IMG image file or folder in the network share location because the file or folder path or the user credentials entered are incorrect.",
            )));
        }
    }
    let doc = st.tree.get(slot).cloned().unwrap_or_default();
    if q.insert_needs_empty {
        let image_set = doc["Image"].as_str().is_some_and(|s| !s.is_empty());
        let connected = doc["ConnectedVia"]
            .as_str()
            .is_some_and(|c| c != "NotConnected");
        if image_set || connected {
            return Err(Box::new(bad(
                q,
                "GeneralError",
                "Virtual media is already in use: the device still has an Image. Eject it first.",
            )));
        }
    }
    let name = image
        .split(['?', '#'])
        .next()
        .unwrap_or_default()
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .to_owned();
    let proto = proto.map(str::to_owned).unwrap_or_else(|| {
        image
            .split_once("://")
            .map(|(s, _)| s.to_ascii_uppercase())
            .unwrap_or_else(|| "HTTP".into())
    });
    let d = st.tree.get_mut(slot).expect("slot exists");
    d["Image"] = image.into();
    d["ImageName"] = name.into();
    d["Inserted"] = true.into();
    d["WriteProtected"] = write_protected.into();
    d["ConnectedVia"] = "URI".into();
    if d.get("TransferProtocolType").is_some() {
        d["TransferProtocolType"] = proto.into();
    }
    start_fetch(sh, st, slot, image);
    Ok(())
}

/// Fetch `url` as the BMC does, in a task of its own, and report a failure on the slot.
fn start_fetch(sh: &Arc<Shared>, st: &mut State, slot: &str, url: &str) {
    let seq = st.next();
    st.fetch_seq.insert(slot.to_owned(), seq);
    let (sh, slot, url) = (sh.clone(), slot.to_owned(), url.to_owned());
    tokio::spawn(async move {
        let outcome = crate::fetch::probe(&sh.http, &url).await;
        let mut st = sh.lock();
        st.fetches.push(FetchRecord {
            slot: slot_id(&slot),
            url,
            result: outcome.clone().map_err(|f| f.text),
        });
        if st.fetch_seq.get(&slot) != Some(&seq) {
            return; // ejected or replaced meanwhile
        }
        st.fetch_seq.remove(&slot);
        if outcome.is_err() {
            if let Some(d) = st.tree.get_mut(&slot) {
                d["Inserted"] = false.into();
                d["ConnectedVia"] = "NotConnected".into();
            }
        }
    });
}

/// `POST <slot>/Actions/VirtualMedia.EjectMedia`.
pub(crate) fn eject_action(
    sh: &Arc<Shared>,
    st: &mut State,
    slot: &str,
    body: Option<Value>,
) -> Response {
    let q = &sh.q;
    if body.is_none() {
        if let Some(status) = q.eject_needs_body {
            // HPE 415, Dell 400: sushy commits 9bd1d6b and 219d93a send `{}` for this.
            return error(
                status,
                &format!(
                    "{}.{}",
                    q.base,
                    if status == StatusCode::UNSUPPORTED_MEDIA_TYPE {
                        "UnsupportedMediaType"
                    } else {
                        "MalformedJSON"
                    }
                ),
                "EjectMedia needs a JSON body (send {}).",
            );
        }
    }
    eject(sh, st, slot);
    action_ok(q)
}

/// Eject `slot`: at once, or after the eject lag where the vendor's eject is asynchronous.
fn eject(sh: &Arc<Shared>, st: &mut State, slot: &str) {
    st.fetch_seq.remove(slot);
    if !sh.q.eject_lag {
        clear(&sh.q, st, slot);
        return;
    }
    st.ejecting.insert(slot.to_owned());
    let (sh, slot) = (sh.clone(), slot.to_owned());
    tokio::spawn(async move {
        tokio::time::sleep(sh.eject_lag).await;
        let mut st = sh.lock();
        if st.ejecting.remove(&slot) {
            clear(&sh.q, &mut st, &slot);
        }
    });
}

fn clear(q: &Quirks, st: &mut State, slot: &str) {
    if let Some(d) = st.tree.get_mut(slot) {
        d["Image"] = q.empty_image.clone();
        if !q.keeps_image_name {
            d["ImageName"] = "".into();
        }
        d["Inserted"] = false.into();
        d["ConnectedVia"] = "NotConnected".into();
        if d["Oem"]["Hpe"].get("BootOnNextServerReset").is_some() {
            d["Oem"]["Hpe"]["BootOnNextServerReset"] = false.into();
        }
    }
}

/// `PATCH <slot>`: Lenovo's insert and eject, or HPE's `BootOnNextServerReset`.
pub(crate) fn patch_slot(sh: &Arc<Shared>, st: &mut State, slot: &str, body: Value) -> Response {
    let q = &sh.q;
    if q.patch_insert {
        const KNOWN: [&str; 7] = [
            "Image",
            "Inserted",
            "WriteProtected",
            "TransferProtocolType",
            "TransferMethod",
            "UserName",
            "Password",
        ];
        if let Some(k) = body
            .as_object()
            .and_then(|o| o.keys().find(|k| !KNOWN.contains(&k.as_str())))
        {
            return bad(
                q,
                "PropertyUnknown",
                &format!(
                    "The property {k} is not in the list of valid properties for the resource."
                ),
            );
        }
        let image = body["Image"].as_str().filter(|s| !s.is_empty());
        if image.is_none() || body["Inserted"] == Value::Bool(false) {
            eject(sh, st, slot);
            return action_ok(q);
        }
        let wp = body["WriteProtected"].as_bool().unwrap_or(true);
        let proto = body["TransferProtocolType"].as_str();
        return match insert(sh, st, slot, image.expect("checked"), wp, proto) {
            Ok(()) => action_ok(q),
            Err(r) => *r,
        };
    }
    if q.hpe_boot_on_next_reset {
        let has_flag = st
            .tree
            .get(slot)
            .is_some_and(|d| d["Oem"]["Hpe"].get("BootOnNextServerReset").is_some());
        let flag = body["Oem"]["Hpe"]["BootOnNextServerReset"].as_bool();
        let only_flag = body.as_object().is_some_and(|o| o.len() == 1)
            && body["Oem"].as_object().is_some_and(|o| o.len() == 1)
            && body["Oem"]["Hpe"].as_object().is_some_and(|o| o.len() == 1);
        return match (has_flag, flag, only_flag) {
            (true, Some(f), true) => {
                let d = st.tree.get_mut(slot).expect("slot exists");
                d["Oem"]["Hpe"]["BootOnNextServerReset"] = f.into();
                action_ok(q)
            }
            (false, Some(_), _) => bad(
                q,
                "PropertyUnknown",
                "The property Oem/Hpe/BootOnNextServerReset is not in the list of valid properties for this slot.",
            ),
            _ => bad(
                q,
                "PropertyNotWritable",
                "Only Oem/Hpe/BootOnNextServerReset can be changed on a virtual media slot; use the actions to insert or eject.",
            ),
        };
    }
    if st.tree.get(slot).is_none() {
        return missing(q.base, slot);
    }
    not_allowed(q.base, "PATCH", slot)
}
