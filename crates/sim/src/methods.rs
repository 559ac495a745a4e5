//! The XML API methods: sessions, queries and configuration (and, for UCS
//! Central, reading a registered domain's own objects).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bootsmith_ucs::xml::Mo;
use regex::Regex;

use crate::config::{self, Change, Reject};
use crate::domain::Kind;
use crate::meta::Model;
use crate::tree::Tree;
use crate::{Session, Shared, State};

/// The UCS Central DME a method is served on; None for the session methods, served on all.
fn central_dme(method: &str) -> Option<&'static str> {
    match method {
        "aaaLogin" | "aaaRefresh" | "aaaLogout" | "aaaKeepAlive" => None,
        "configRemoteResolveChildren" => Some("resource-mgr"),
        _ => Some("central-mgr"),
    }
}

/// Answer one request element; `dme` is the UCS Central DME it was posted to (None: `/nuova`).
pub(crate) fn dispatch(shared: &Arc<Shared>, req: &Mo, dme: Option<&str>) -> Mo {
    let method = req.class.as_str();
    let mut st = shared.state.lock().expect("sim state lock");
    *st.methods.entry(method.to_owned()).or_default() += 1;
    match method {
        "aaaLogin" => login(shared, &mut st, req),
        "aaaRefresh" => refresh(shared, &mut st, req),
        "aaaLogout" => {
            let cookie = req.get("inCookie");
            if st.sessions.remove(cookie).is_some() {
                reply(req).with("outStatus", "success")
            } else {
                fail(req, "555", "Session not found")
            }
        }
        _ => {
            let cookie = req.get("cookie");
            if !session_valid(&mut st, cookie) {
                return fail(req, "552", "Authorization required");
            }
            // A DME knows only its own methods; another DME's are unknown to it.
            if dme.is_some_and(|d| central_dme(method).is_some_and(|want| want != d)) {
                return parse_error(&format!("unknown method '{method}'"));
            }
            let mut answer = match method {
                "aaaKeepAlive" => reply(req),
                "configRemoteResolveChildren" if shared.kind == Kind::Ucsc => {
                    remote_children(shared, &st, req)
                }
                "configResolveDn" => resolve_dn(&st.tree, req),
                // imcsdk has no configResolveDns for a standalone IMC.
                "configResolveDns" if shared.kind == Kind::Imc => {
                    return parse_error(&format!("unknown method '{method}'"))
                }
                "configResolveDns" => resolve_dns(&st.tree, req),
                "configResolveClass" => {
                    resolve_classes(shared, &st.tree, req, &[req.get("classId")])
                }
                "configResolveClasses" => {
                    let ids: Vec<&str> = req
                        .find("inIds")
                        .map(|i| i.children.iter().map(|c| c.get("value")).collect())
                        .unwrap_or_default();
                    resolve_classes(shared, &st.tree, req, &ids)
                }
                "configResolveChildren" => resolve_children(&shared.model, &st.tree, req),
                // A standalone IMC is modelled as writing one object per request (the
                // reference names configConfMo only), so a client that batches its IMC
                // writes gets the reply of an unknown method rather than a transaction
                // no IMC gives. (imcsdk 0.9.17 does send a configConfMos of at most 10
                // objects with per-object results to IMCs; that is not modelled.)
                "configConfMos" if shared.kind == Kind::Imc => {
                    return parse_error(&format!("unknown method '{method}'"))
                }
                "configConfMo" | "configConfMos" => {
                    let (answer, changes) = configure(shared, &mut st, req);
                    drop(st);
                    crate::effects::spawn(shared, &changes);
                    return answer;
                }
                _ => return parse_error(&format!("unknown method '{method}'")),
            };
            answer.attrs.insert("cookie".into(), cookie.to_owned());
            answer
        }
    }
}

fn reply(req: &Mo) -> Mo {
    Mo::new(req.class.clone())
        .with("cookie", "")
        .with("response", "yes")
}

/// A method failure: the method element with errorCode / errorDescr.
pub(crate) fn fail(req: &Mo, code: &str, descr: &str) -> Mo {
    reply(req)
        .with("cookie", req.get("cookie"))
        .with("errorCode", code)
        .with("errorDescr", descr)
        .with("invocationResult", "unidentified-fail")
}

/// A request the XML parser refuses: an `<error>` root.
pub(crate) fn parse_error(descr: &str) -> Mo {
    Mo::new("error")
        .with("cookie", "")
        .with("response", "yes")
        .with("errorCode", "ERR-xml-parse-error")
        .with("invocationResult", "594")
        .with("errorDescr", format!("XML PARSING ERROR: {descr}"))
}

fn session_valid(st: &mut State, cookie: &str) -> bool {
    let now = Instant::now();
    match st.sessions.get(cookie) {
        Some(s) if s.expires > now => true,
        Some(_) => {
            st.sessions.remove(cookie);
            false
        }
        None => false,
    }
}

fn new_session(
    shared: &Shared,
    st: &mut State,
    user: &str,
) -> Result<String, (&'static str, &'static str)> {
    let now = Instant::now();
    st.sessions.retain(|_, s| s.expires > now);
    if st.sessions.values().filter(|s| s.user == user).count() >= shared.max_sessions {
        return Err(("572", "user reached maximum session limit"));
    }
    let epoch = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let cookie = format!("{epoch}/{}", uuid::Uuid::new_v4());
    let ttl = st
        .faults
        .session_ttl
        .unwrap_or(Duration::from_secs(u64::from(shared.refresh_period) + 60));
    st.sessions.insert(
        cookie.clone(),
        Session {
            user: user.to_owned(),
            expires: now + ttl,
        },
    );
    Ok(cookie)
}

fn session_reply(shared: &Shared, req: &Mo, cookie: String, user: &str) -> Mo {
    let priv_ = if shared.kind == Kind::Imc {
        "admin"
    } else {
        "admin,read-only"
    };
    let version = match shared.kind {
        Kind::Imc => "4.1(3b)",
        Kind::Ucsm => "4.2(3d)",
        Kind::Ucsc => "2.0(1p)",
    };
    reply(req)
        .with("outCookie", cookie)
        .with("outRefreshPeriod", shared.refresh_period.to_string())
        .with("outPriv", priv_)
        .with("outVersion", version)
        .with("outName", user)
        .with("outSessionId", "web_sim")
}

fn login(shared: &Shared, st: &mut State, req: &Mo) -> Mo {
    if req.get("inName") != shared.user || req.get("inPassword") != shared.password {
        return fail(req, "551", "Authentication failed");
    }
    match new_session(shared, st, &shared.user) {
        Ok(cookie) => session_reply(shared, req, cookie, &shared.user),
        Err((code, descr)) => fail(req, code, descr),
    }
}

fn refresh(shared: &Shared, st: &mut State, req: &Mo) -> Mo {
    if req.get("inName") != shared.user || req.get("inPassword") != shared.password {
        return fail(req, "551", "Authentication failed");
    }
    let old = req.get("inCookie");
    if !session_valid(st, old) {
        return fail(req, "552", "Authorization required");
    }
    st.sessions.remove(old);
    match new_session(shared, st, &shared.user) {
        Ok(cookie) => session_reply(shared, req, cookie, &shared.user),
        Err((code, descr)) => fail(req, code, descr),
    }
}

fn hierarchical(req: &Mo) -> bool {
    matches!(req.get("inHierarchical"), "true" | "yes")
}

fn resolve_dn(tree: &Tree, req: &Mo) -> Mo {
    let mut out = Mo::new("outConfig");
    if let Some(mo) = tree.to_mo(req.get("dn"), hierarchical(req)) {
        out.children.push(mo);
    }
    reply(req).with("dn", req.get("dn")).child(out)
}

fn resolve_dns(tree: &Tree, req: &Mo) -> Mo {
    let mut found = Mo::new("outConfigs");
    let mut missing = Mo::new("outUnresolved");
    for d in req
        .find("inDns")
        .map(|i| i.children.as_slice())
        .unwrap_or_default()
    {
        match tree.to_mo(d.get("value"), hierarchical(req)) {
            Some(mo) => found.children.push(mo),
            None => missing
                .children
                .push(Mo::new("dn").with("value", d.get("value"))),
        }
    }
    reply(req).child(found).child(missing)
}

/// The request's `<inFilter>`, if it has one.
fn request_filter(req: &Mo) -> Result<Option<Filter>, String> {
    req.find("inFilter")
        .and_then(|f| f.children.first())
        .map(Filter::parse)
        .transpose()
}

fn resolve_classes(shared: &Shared, tree: &Tree, req: &Mo, ids: &[&str]) -> Mo {
    let filter = match request_filter(req) {
        Ok(f) => f,
        Err(e) => return parse_error(&e),
    };
    let mut out = Mo::new("outConfigs");
    for id in ids {
        if shared.model.class(id).is_none() {
            return parse_error(&format!("unknown class '{id}'"));
        }
        for (dn, obj) in tree.of_class(id) {
            if filter.as_ref().is_none_or(|f| f.matches(dn, obj)) {
                out.children.extend(tree.to_mo(dn, hierarchical(req)));
            }
        }
    }
    if ids.len() == 1 {
        reply(req).with("classId", ids[0]).child(out)
    } else {
        reply(req).child(out)
    }
}

/// configRemoteResolveChildren (UCS Central): the children of `inDn` in the own tree of domain
/// `inDomainId`, which Central must reach to answer.
fn remote_children(shared: &Shared, st: &State, req: &Mo) -> Mo {
    let id = req.get("inDomainId");
    let Some(remote) = id.parse::<u32>().ok().and_then(|d| st.remote.get(&d)) else {
        return fail(
            req,
            "102",
            &format!("domain '{id}' is not registered with UCS Central"),
        );
    };
    if !remote.reachable {
        return fail(
            req,
            "503",
            &format!("domain {id} is unreachable: UCS Central lost visibility of it"),
        )
        .with("invocationResult", "end-point-unavailable");
    }
    let model = shared.remote_model.as_ref().unwrap_or(&shared.model);
    let answer = resolve_children(model, &remote.tree, req);
    if answer.class == "error" {
        answer
    } else {
        answer.with("inDomainId", id)
    }
}

fn resolve_children(model: &Model, tree: &Tree, req: &Mo) -> Mo {
    let class = req.attr("classId").filter(|c| !c.is_empty());
    if let Some(c) = class {
        if model.class(c).is_none() {
            return parse_error(&format!("unknown class '{c}'"));
        }
    }
    let filter = match request_filter(req) {
        Ok(f) => f,
        Err(e) => return parse_error(&e),
    };
    let mut out = Mo::new("outConfigs");
    let parent = req.get("inDn");
    for (dn, obj) in tree.children(parent) {
        if class.is_none_or(|c| obj.class == c)
            && filter.as_ref().is_none_or(|f| f.matches(dn, obj))
        {
            out.children.extend(tree.to_mo(dn, hierarchical(req)));
        }
    }
    reply(req).with("inDn", parent).child(out)
}

/// configConfMo / configConfMos: all or nothing against a copy of the tree.
fn configure(shared: &Shared, st: &mut State, req: &Mo) -> (Mo, Vec<Change>) {
    let cookie = req.get("cookie").to_owned();
    let items: Vec<(&str, &Mo)> = if req.class == "configConfMo" {
        match req.find("inConfig").and_then(|c| c.children.first()) {
            Some(obj) => vec![(req.get("dn"), obj)],
            None => {
                return (
                    parse_error("configConfMo needs one object in inConfig"),
                    Vec::new(),
                )
            }
        }
    } else {
        req.find("inConfigs")
            .map(|c| {
                c.children
                    .iter()
                    .filter_map(|p| p.children.first().map(|o| (p.get("key"), o)))
                    .collect()
            })
            .unwrap_or_default()
    };
    if items.is_empty() {
        return (
            parse_error(&format!("{} has nothing to configure", req.class)),
            Vec::new(),
        );
    }
    let mut work = st.tree.clone();
    let mut changes = Vec::new();
    let mut tops = Vec::new();
    for (key, obj) in items {
        let mut obj = obj.clone();
        if obj.attr("dn").is_none() && !key.is_empty() {
            obj.attrs.insert("dn".into(), key.to_owned());
        }
        let first = changes.len();
        if let Err(r) = config::apply(&shared.model, &mut work, None, &obj, &mut changes) {
            return (reject(req, &cookie, &r), Vec::new());
        }
        tops.push(
            changes
                .get(first)
                .map(|c| (c.dn.clone(), c.status))
                .unwrap_or_else(|| (obj.get("dn").to_owned(), "deleted")),
        );
    }
    if let Err(r) = crate::binding::apply(&st.tree, &mut work, &changes) {
        return (reject(req, &cookie, &r), Vec::new());
    }
    st.tree = work;
    let mut answer = reply(req).with("cookie", cookie);
    if req.class == "configConfMo" {
        let (dn, status) = &tops[0];
        let mo = st
            .tree
            .to_mo(dn, hierarchical(req))
            .map(|m| m.with("status", *status));
        answer = answer.with("dn", dn.clone()).child(Mo {
            class: "outConfig".into(),
            attrs: BTreeMap::new(),
            children: mo.into_iter().collect(),
        });
    } else {
        let mut out = Mo::new("outConfigs");
        for (dn, status) in &tops {
            let mo = st
                .tree
                .to_mo(dn, hierarchical(req))
                .map(|m| m.with("status", *status));
            out.children.push(
                Mo::new("pair")
                    .with("key", dn.clone())
                    .child(mo.unwrap_or_else(|| Mo::new("deleted").with("dn", dn.clone()))),
            );
        }
        answer = answer.child(out);
    }
    (answer, changes)
}

fn reject(req: &Mo, cookie: &str, r: &Reject) -> Mo {
    if r.parse {
        parse_error(r.descr.trim_start_matches("XML PARSING ERROR: "))
    } else {
        fail(req, &r.code, &r.descr).with("cookie", cookie)
    }
}

/// A query filter (`<inFilter>` content).
enum Filter {
    Cmp {
        op: String,
        prop: String,
        value: String,
    },
    Wcard {
        prop: String,
        re: Regex,
    },
    And(Vec<Filter>),
    Or(Vec<Filter>),
    Not(Box<Filter>),
}

impl Filter {
    fn parse(m: &Mo) -> Result<Filter, String> {
        let kids = || {
            m.children
                .iter()
                .map(Filter::parse)
                .collect::<Result<Vec<_>, _>>()
        };
        match m.class.as_str() {
            "and" => Ok(Filter::And(kids()?)),
            "or" => Ok(Filter::Or(kids()?)),
            "not" => Ok(Filter::Not(Box::new(Filter::parse(
                m.children.first().ok_or("empty not filter")?,
            )?))),
            "wcard" => Ok(Filter::Wcard {
                prop: m.get("property").to_owned(),
                re: Regex::new(m.get("value")).map_err(|e| format!("bad wcard value: {e}"))?,
            }),
            op @ ("eq" | "ne" | "gt" | "ge" | "lt" | "le") => Ok(Filter::Cmp {
                op: op.to_owned(),
                prop: m.get("property").to_owned(),
                value: m.get("value").to_owned(),
            }),
            other => Err(format!("unknown filter '{other}'")),
        }
    }

    fn matches(&self, dn: &str, obj: &crate::tree::Obj) -> bool {
        let prop = |p: &str| {
            if p == "dn" {
                dn.to_owned()
            } else {
                obj.get(p).to_owned()
            }
        };
        match self {
            Filter::And(fs) => fs.iter().all(|f| f.matches(dn, obj)),
            Filter::Or(fs) => fs.iter().any(|f| f.matches(dn, obj)),
            Filter::Not(f) => !f.matches(dn, obj),
            Filter::Wcard { prop: p, re } => re.is_match(&prop(p)),
            Filter::Cmp { op, prop: p, value } => {
                let have = prop(p);
                let ord = match (have.parse::<f64>(), value.parse::<f64>()) {
                    (Ok(a), Ok(b)) => a.partial_cmp(&b),
                    _ => Some(have.as_str().cmp(value.as_str())),
                };
                use std::cmp::Ordering::*;
                match op.as_str() {
                    "eq" => have == *value,
                    "ne" => have != *value,
                    "gt" => ord == Some(Greater),
                    "ge" => matches!(ord, Some(Greater | Equal)),
                    "lt" => ord == Some(Less),
                    _ => matches!(ord, Some(Less | Equal)),
                }
            }
        }
    }
}
