//! Applying `configConfMo(s)` writes the way UCS Manager and the IMC do: each
//! object checked against the class model (class, rn pattern, parent,
//! properties, values, access, verbs, status), the whole request
//! all-or-nothing. (An IMC takes one object per request, so for it a request
//! is one object and its children.)

use std::collections::BTreeMap;

use bootsmith_ucs::xml::Mo;

use crate::meta::{Model, ENVELOPE};
use crate::tree::{split_dn, Obj, Tree};

/// A rejected write: UCS error code and description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reject {
    /// `errorCode`.
    pub code: String,
    /// `errorDescr`.
    pub descr: String,
    /// True when it is a schema error (answered with an `<error>` root like UCSM's parser).
    pub parse: bool,
}

impl Reject {
    fn parse(descr: String) -> Reject {
        Reject {
            code: "ERR-xml-parse-error".into(),
            descr: format!("XML PARSING ERROR: {descr}"),
            parse: true,
        }
    }
    pub(crate) fn api(code: &str, descr: String) -> Reject {
        Reject {
            code: code.into(),
            descr,
            parse: false,
        }
    }
}

/// What a write did to one object, for replies and side effects.
#[derive(Debug, Clone)]
pub struct Change {
    /// The object's dn.
    pub dn: String,
    /// Its class.
    pub class: String,
    /// created, modified or deleted.
    pub status: &'static str,
    /// The properties the request set.
    pub set: BTreeMap<String, String>,
}

/// Apply one top-level config element (and its children) to `tree`.
pub fn apply(
    model: &Model,
    tree: &mut Tree,
    parent_dn: Option<&str>,
    el: &Mo,
    out: &mut Vec<Change>,
) -> Result<(), Reject> {
    let class_id = el.class.as_str();
    let class = model
        .class(class_id)
        .ok_or_else(|| Reject::parse(format!("unknown element '{class_id}'")))?;
    let dn = match (el.attr("dn"), el.attr("rn"), parent_dn) {
        (Some(dn), _, _) => dn.to_owned(),
        (None, Some(rn), Some(p)) => format!("{p}/{rn}"),
        _ => {
            return Err(Reject::api(
                "101",
                format!("{class_id}: the object has neither dn nor rn"),
            ))
        }
    };
    if let Some(p) = parent_dn {
        if split_dn(&dn).0 != p {
            return Err(Reject::api("101", format!("dn {dn} is not a child of {p}")));
        }
    }
    let (pdn, rn) = split_dn(&dn);
    let naming = class
        .parse_rn(class_id, rn)
        .map_err(|m| Reject::api("101", m))?;
    // A naming value sent only inside the dn obeys the same rules as when sent as a property
    // (an IMC volume name of 48 characters is refused either way).
    for (k, v) in &naming {
        if class.meta.props.contains_key(k) {
            class
                .check_value(class_id, k, v)
                .map_err(|m| Reject::api("101", m))?;
        }
    }
    let parent_class = if pdn.is_empty() {
        "topRoot".to_owned()
    } else {
        tree.get(pdn).map(|o| o.class.clone()).ok_or_else(|| {
            Reject::api(
                "102",
                format!("can't create {dn}: parent {pdn} does not exist"),
            )
        })?
    };
    // The root org hangs off the model's root, which the metadata leaves implicit.
    let root_org = class_id == "orgOrg" && dn == "org-root";
    if !root_org && !class.meta.parents.contains(&parent_class) {
        return Err(Reject::api(
            "101",
            format!("{class_id} cannot be a child of {parent_class} ({dn})"),
        ));
    }
    for k in el.attrs.keys() {
        if !ENVELOPE.contains(&k.as_str()) && !class.meta.props.contains_key(k) {
            return Err(Reject::parse(format!(
                "unknown attribute '{k}' in element '{class_id}'"
            )));
        }
    }
    let status = el.attr("status").unwrap_or("");
    let exists = tree.get(&dn).is_some();
    let verb = |v: &str| class.meta.verbs.iter().any(|x| x == v);
    match status {
        "deleted" | "removed" => {
            if !exists {
                return if status == "removed" {
                    Ok(())
                } else {
                    Err(Reject::api(
                        "102",
                        format!("can't delete object {dn}; object doesn't exist"),
                    ))
                };
            }
            if !verb("Remove") {
                return Err(Reject::api(
                    "101",
                    format!("objects of class {class_id} cannot be deleted"),
                ));
            }
            tree.remove_subtree(&dn);
            out.push(Change {
                dn,
                class: class_id.into(),
                status: "deleted",
                set: BTreeMap::new(),
            });
            return Ok(());
        }
        "created" if exists => {
            return Err(Reject::api(
                "103",
                "can't create; object already exists.".into(),
            ))
        }
        "modified" if !exists => {
            return Err(Reject::api(
                "102",
                format!("can't modify {dn}; object doesn't exist"),
            ))
        }
        "" | "created" | "modified" | "created,modified" | "modified,created" => {}
        other => {
            return Err(Reject::parse(format!(
                "invalid value '{other}' for attribute 'status'"
            )))
        }
    }
    if !exists && !verb("Add") {
        return Err(Reject::api(
            "101",
            format!("can't create an object of class {class_id} ({dn})"),
        ));
    }
    let mut set = BTreeMap::new();
    for (k, v) in &el.attrs {
        if ENVELOPE.contains(&k.as_str()) {
            continue;
        }
        let prop = &class.meta.props[k];
        match prop.access.as_str() {
            "ro" | "internal" => {
                return Err(Reject::api(
                    "101",
                    format!("property {k} of {class_id} is read-only"),
                ));
            }
            "naming" if naming.iter().any(|(n, nv)| n == k && nv != v) => {
                return Err(Reject::api(
                    "101",
                    format!("{k}='{v}' does not match the rn {rn}"),
                ));
            }
            "create-only" if exists => {
                let current = tree.get(&dn).map(|o| o.get(k)).unwrap_or("");
                if current != v {
                    return Err(Reject::api(
                        "101",
                        format!("property {k} of {class_id} can only be set on create"),
                    ));
                }
            }
            _ => {}
        }
        class
            .check_value(class_id, k, v)
            .map_err(|m| Reject::api("101", m))?;
        set.insert(k.clone(), v.clone());
    }
    // Without the Set verb an object keeps its properties once created (an IMC mapping must
    // be removed and made again); sending the values it already has changes nothing. An
    // adminAction is a one-shot request, not state: imcsdk sends save-unmapped-volume to an
    // existing commVMediaMap.
    if exists && !verb("Set") {
        let current = tree.get(&dn).expect("exists");
        if let Some(k) = set
            .iter()
            .find(|(k, v)| {
                !(k.as_str() == "adminAction" && model.admin_action_without_set)
                    && current.get(k) != v.as_str()
            })
            .map(|(k, _)| k)
        {
            return Err(Reject::api(
                "101",
                format!(
                    "can't modify {k} of {dn}: objects of class {class_id} cannot be changed in place"
                ),
            ));
        }
    }
    let change_status = if exists { "modified" } else { "created" };
    let obj = match tree.get_mut(&dn) {
        Some(o) => o,
        None => {
            let mut o = Obj::new(class_id, &[]);
            for (k, v) in &naming {
                o.set(k, v.clone());
            }
            tree.put(dn.clone(), o);
            tree.get_mut(&dn).expect("just stored")
        }
    };
    for (k, v) in &set {
        obj.set(k, v.clone());
    }
    out.push(Change {
        dn: dn.clone(),
        class: class_id.into(),
        status: change_status,
        set,
    });
    let listed: Vec<String> = el
        .children
        .iter()
        .map(|c| {
            c.attr("rn")
                .map_or_else(|| c.get("dn").to_owned(), |rn| format!("{dn}/{rn}"))
        })
        .collect();
    for child in &el.children {
        if !class.meta.children.contains(&child.class) && model.class(&child.class).is_some() {
            return Err(Reject::api(
                "101",
                format!("{} cannot be a child of {class_id}", child.class),
            ));
        }
        apply(model, tree, Some(&dn), child, out)?;
    }
    if el.attr("childAction") == Some("deleteNonPresent") {
        let stale: Vec<String> = tree
            .children(&dn)
            .map(|(d, _)| d.to_owned())
            .filter(|d| !listed.contains(d))
            .collect();
        for d in stale {
            let class = tree.get(&d).map(|o| o.class.clone()).unwrap_or_default();
            tree.remove_subtree(&d);
            out.push(Change {
                dn: d,
                class,
                status: "deleted",
                set: BTreeMap::new(),
            });
        }
    }
    Ok(())
}
