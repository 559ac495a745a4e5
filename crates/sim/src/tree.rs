//! The managed-object tree: every object by dn.

use std::collections::BTreeMap;

use bootsmith_ucs::xml::Mo;

/// One stored object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Obj {
    /// Class id.
    pub class: String,
    /// Properties (without dn, rn and status).
    pub attrs: BTreeMap<String, String>,
}

impl Obj {
    /// A new object of `class` with these properties.
    pub fn new(class: &str, attrs: &[(&str, &str)]) -> Obj {
        Obj {
            class: class.to_owned(),
            attrs: attrs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        }
    }

    /// The object with these properties set as well.
    pub fn with(mut self, props: &[(&str, &str)]) -> Obj {
        for (k, v) in props {
            self.set(k, *v);
        }
        self
    }

    /// A property, or "".
    pub fn get(&self, k: &str) -> &str {
        self.attrs.get(k).map_or("", String::as_str)
    }

    /// Set a property.
    pub fn set(&mut self, k: &str, v: impl Into<String>) {
        self.attrs.insert(k.to_owned(), v.into());
    }
}

/// Every object by dn, ordered so that a subtree is a contiguous range.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    objs: BTreeMap<String, Obj>,
}

/// The parent dn and rn of a dn (`sys/chassis-1/blade-2` → `sys/chassis-1`, `blade-2`).
pub fn split_dn(dn: &str) -> (&str, &str) {
    match dn.rfind('/') {
        Some(i) => (&dn[..i], &dn[i + 1..]),
        None => ("", dn),
    }
}

impl Tree {
    /// The object at `dn`.
    pub fn get(&self, dn: &str) -> Option<&Obj> {
        self.objs.get(dn)
    }

    /// The object at `dn`, mutable.
    pub fn get_mut(&mut self, dn: &str) -> Option<&mut Obj> {
        self.objs.get_mut(dn)
    }

    /// Set these properties of the object at `dn`, when there is one.
    pub fn update(&mut self, dn: &str, props: &[(&str, &str)]) {
        if let Some(o) = self.objs.get_mut(dn) {
            for (k, v) in props {
                o.set(k, *v);
            }
        }
    }

    /// Store an object at `dn` (replacing any).
    pub fn put(&mut self, dn: impl Into<String>, obj: Obj) {
        self.objs.insert(dn.into(), obj);
    }

    /// Remove the object at `dn` and its whole subtree.
    pub fn remove_subtree(&mut self, dn: &str) {
        let doomed: Vec<String> = self.subtree(dn).map(|(d, _)| d.to_owned()).collect();
        for d in doomed {
            self.objs.remove(&d);
        }
        self.objs.remove(dn);
    }

    /// Every descendant of `dn` (not `dn` itself).
    pub fn subtree<'a>(&'a self, dn: &str) -> impl Iterator<Item = (&'a str, &'a Obj)> + 'a {
        let lo = format!("{dn}/");
        // '0' is the character after '/', so this range holds exactly the dns under `dn/`.
        let hi = format!("{dn}0");
        self.objs.range(lo..hi).map(|(d, o)| (d.as_str(), o))
    }

    /// Direct children of `dn`.
    pub fn children<'a>(&'a self, dn: &'a str) -> impl Iterator<Item = (&'a str, &'a Obj)> + 'a {
        self.subtree(dn)
            .filter(move |(d, _)| !d[dn.len() + 1..].contains('/'))
    }

    /// Every object of a class.
    pub fn of_class<'a>(&'a self, class: &'a str) -> impl Iterator<Item = (&'a str, &'a Obj)> + 'a {
        self.objs
            .iter()
            .filter(move |(_, o)| o.class == class)
            .map(|(d, o)| (d.as_str(), o))
    }

    /// Number of objects.
    pub fn len(&self) -> usize {
        self.objs.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.objs.is_empty()
    }

    /// The object as XML, with `dn`; with `hierarchical`, its descendants nested (carrying `rn`).
    pub fn to_mo(&self, dn: &str, hierarchical: bool) -> Option<Mo> {
        let obj = self.get(dn)?;
        let mut mo = base_mo(obj).with("dn", dn);
        if hierarchical {
            mo.children = self.child_mos(dn);
        }
        Some(mo)
    }

    fn child_mos(&self, dn: &str) -> Vec<Mo> {
        self.children(dn)
            .map(|(d, o)| {
                let mut m = base_mo(o).with("rn", split_dn(d).1);
                m.children = self.child_mos(d);
                m
            })
            .collect()
    }
}

fn base_mo(obj: &Obj) -> Mo {
    Mo {
        class: obj.class.clone(),
        attrs: obj.attrs.clone(),
        children: Vec::new(),
    }
}

impl Tree {
    /// Every object.
    pub fn of_class_all(&self) -> impl Iterator<Item = (&str, &Obj)> {
        self.objs.iter().map(|(d, o)| (d.as_str(), o))
    }
}
