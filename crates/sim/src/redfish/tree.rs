//! The resource tree a persona serves: one JSON document per Redfish path. The documents a
//! persona starts with (a captured iLO mockup, or a tree built in code) are shared by every
//! simulator of that persona through an `Arc`; each simulator keeps only what it changed in an
//! overlay, so starting fifty BMCs parses and copies nothing.

use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

/// Documents by path (`/redfish/v1/Systems/1`, no trailing slash).
pub(crate) type Docs = BTreeMap<String, Value>;

/// A persona's documents plus what this simulator changed.
pub(crate) struct Tree {
    base: Arc<Docs>,
    /// Changed documents; `None` is a deleted one.
    overlay: HashMap<String, Option<Value>>,
}

/// A request path as the tree keys it: no query, no trailing slash, `//` collapsed.
pub(crate) fn normalize(path: &str) -> String {
    let path = path.split('?').next().unwrap_or_default();
    let mut out = String::with_capacity(path.len());
    for seg in path.split('/').filter(|s| !s.is_empty()) {
        out.push('/');
        out.push_str(seg);
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

impl Tree {
    pub fn new(base: Arc<Docs>) -> Tree {
        Tree {
            base,
            overlay: HashMap::new(),
        }
    }

    pub fn get(&self, path: &str) -> Option<&Value> {
        match self.overlay.get(path) {
            Some(v) => v.as_ref(),
            None => self.base.get(path),
        }
    }

    /// The document at `path`, copied into the overlay on first change.
    pub fn get_mut(&mut self, path: &str) -> Option<&mut Value> {
        if !self.overlay.contains_key(path) {
            let v = self.base.get(path)?.clone();
            self.overlay.insert(path.to_owned(), Some(v));
        }
        self.overlay.get_mut(path).and_then(Option::as_mut)
    }

    /// Delete `path` and drop it from the `Members` of its parent collection.
    pub fn remove(&mut self, path: &str) -> bool {
        if self.get(path).is_none() {
            return false;
        }
        self.overlay.insert(path.to_owned(), None);
        if let Some((parent, _)) = path.rsplit_once('/') {
            if let Some(coll) = self.get_mut(parent) {
                if let Some(Value::Array(members)) = coll.get_mut("Members") {
                    members.retain(|m| m["@odata.id"] != path);
                    let n = members.len();
                    coll["Members@odata.count"] = n.into();
                }
            }
        }
        true
    }
}

/// The entity tag of a document: a hash of its content (its own `@odata.etag` left out), so it
/// changes whenever the document does. `weak` gives iLO's `W/"…"` form.
pub(crate) fn etag(doc: &Value, weak: bool) -> String {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    match doc {
        Value::Object(m) => {
            for (k, v) in m.iter().filter(|(k, _)| *k != "@odata.etag") {
                k.hash(&mut h);
                v.to_string().hash(&mut h);
            }
        }
        other => other.to_string().hash(&mut h),
    }
    let tag = format!("\"{:08X}\"", h.finish() as u32);
    if weak {
        format!("W/{tag}")
    } else {
        tag
    }
}

/// Whether an `If-Match` value names the current tag: `*`, or equal once `W/` is stripped
/// (sushy retries a weak tag without its `W/`, so both forms are accepted).
pub(crate) fn etag_matches(if_match: &str, current: &str) -> bool {
    let strip = |s: &str| s.trim().trim_start_matches("W/").to_owned();
    if_match.trim() == "*" || if_match.split(',').any(|t| strip(t) == strip(current))
}

/// Every `index.json` under `dir`, keyed by its Redfish path (`dir/index.json` is
/// `/redfish/v1`).
pub(crate) fn load_mockup(dir: &Path) -> std::io::Result<Docs> {
    let mut docs = Docs::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let here = dir.join(&rel);
        let entries = std::fs::read_dir(&here)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", here.display())))?;
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name();
            if entry.file_type()?.is_dir() {
                stack.push(rel.join(&name));
            } else if name == "index.json" {
                let text = std::fs::read(entry.path())?;
                let doc: Value = serde_json::from_slice(&text).map_err(|e| {
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("{}: {e}", entry.path().display()),
                    )
                })?;
                let mut path = String::from("/redfish/v1");
                for c in rel.components() {
                    path.push('/');
                    path.push_str(&c.as_os_str().to_string_lossy());
                }
                docs.insert(path, doc);
            }
        }
    }
    if docs.contains_key("/redfish/v1") {
        Ok(docs)
    } else {
        Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("{}: no index.json at the mockup's root", dir.display()),
        ))
    }
}

/// A captured mockup, parsed once per process and shared by every simulator serving it.
pub(crate) fn cached_mockup(dir: &Path) -> std::io::Result<Arc<Docs>> {
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, Arc<Docs>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Mutex::default);
    if let Some(d) = cache.lock().expect("mockup cache").get(dir) {
        return Ok(d.clone());
    }
    // Parsed outside the lock: another thread may parse the same tree meanwhile; either copy is
    // the same.
    let docs = Arc::new(load_mockup(dir)?);
    Ok(cache
        .lock()
        .expect("mockup cache")
        .entry(dir.to_owned())
        .or_insert(docs)
        .clone())
}

/// A tree built in code, built once per process and key.
pub(crate) fn cached_built(key: &'static str, build: fn() -> Docs) -> Arc<Docs> {
    static CACHE: OnceLock<Mutex<HashMap<&'static str, Arc<Docs>>>> = OnceLock::new();
    CACHE
        .get_or_init(Mutex::default)
        .lock()
        .expect("built tree cache")
        .entry(key)
        .or_insert_with(|| Arc::new(build()))
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_normalize() {
        assert_eq!(normalize("/redfish/v1/"), "/redfish/v1");
        assert_eq!(normalize("/redfish//v1/Systems?x=1"), "/redfish/v1/Systems");
        assert_eq!(normalize("/"), "/");
    }

    #[test]
    fn etags_change_with_content_and_match_weak_or_strong() {
        let a = serde_json::json!({"A": 1, "@odata.etag": "x"});
        let b = serde_json::json!({"A": 2});
        assert_ne!(etag(&a, true), etag(&b, true));
        assert_eq!(etag(&a, false), etag(&serde_json::json!({"A": 1}), false));
        let t = etag(&a, true);
        assert!(etag_matches(&t, &t));
        assert!(etag_matches(t.trim_start_matches("W/"), &t));
        assert!(etag_matches("*", &t));
        assert!(!etag_matches("\"0\"", &t));
    }
}
