//! Reading `kubam.yaml`, KUBAM's whole state in one YAML file (prior-art §2), as PyYAML's
//! `safe_dump` wrote it or a person edited it. Every value keeps its line, so the plan and the
//! errors point into the file. Scalars are kept as written (`vlan: 030` stays "030"): the
//! records' own checks decide what a value means, as they do for the REST bodies.

use std::collections::BTreeMap;

use saphyr::{MarkedYaml, ScalarStyle, YamlData, YamlLoader};

use crate::error::{Error, ErrorCode, Problem, Result};

/// A value and the line of kubam.yaml it is on (1-based).
#[derive(Debug, Clone)]
pub(crate) struct Spanned<T> {
    pub value: T,
    pub line: usize,
}

/// The parts of kubam.yaml the import takes (prior-art §2.2).
#[derive(Debug, Default)]
pub(crate) struct KubamFile {
    pub kubam_ip: Option<Spanned<String>>,
    pub public_keys: Vec<Spanned<String>>,
    pub proxy: Option<Spanned<String>>,
    pub org: Option<Spanned<String>>,
    /// Keys KUBAM v1 left behind and v2 never read (`network`, `ucsm.credentials`, …): listed
    /// in the plan as skipped, with the line.
    pub leftovers: Vec<Spanned<String>>,
    pub iso_map: Vec<Record>,
    pub server_groups: Vec<Record>,
    pub network_groups: Vec<Record>,
    pub aci: Vec<Record>,
    pub hosts: Vec<Record>,
}

/// One record of a KUBAM list: its text fields by key (`credentials.ip` for the nested login),
/// the selected servers of a server group, and the keys the import does not keep.
#[derive(Debug, Default)]
pub(crate) struct Record {
    /// Where it starts.
    pub line: usize,
    fields: BTreeMap<&'static str, Spanned<String>>,
    /// A server group's `server_pool`, in whichever of KUBAM's shapes it was stored.
    pub pool: Option<Spanned<Pool>>,
    /// Keys present in the file that the import leaves out, with why.
    pub ignored: Vec<String>,
}

impl Record {
    /// A text field, absent when missing or null.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields.get(key).map(|s| s.value.as_str())
    }

    /// A text field as the record inputs take it.
    pub fn text(&self, key: &str) -> Option<String> {
        self.get(key).map(str::to_owned)
    }
}

/// The servers a KUBAM group had selected, as ids (`1/3`, `1009/1/3`, `7`); the ids are checked
/// by the server group's own rules.
#[derive(Debug, Default, Clone)]
pub(crate) struct Pool {
    pub blades: Vec<String>,
    pub racks: Vec<String>,
    /// How the selection was read, and entries left out.
    pub notes: Vec<String>,
}

/// What a record kind may hold: text fields, whether it has `credentials {ip, user, password}`
/// and a `server_pool`, and keys KUBAM kept that Bootsmith does not (with why).
struct Schema {
    what: &'static str,
    fields: &'static [&'static str],
    credentials: bool,
    pool: bool,
    dropped: &'static [(&'static str, &'static str)],
}

const SERVER_GROUP: Schema = Schema {
    what: "server group",
    fields: &["id", "name", "type", "description", "org", "vlan"],
    credentials: true,
    pool: true,
    dropped: &[(
        "sp_template",
        "sp_template is not imported: KUBAM's deploy never used it (each host names its template)",
    )],
};
const NETWORK_GROUP: Schema = Schema {
    what: "network group",
    fields: &[
        "id",
        "name",
        "netmask",
        "gateway",
        "nameserver",
        "ntpserver",
        "vlan",
        "proxy",
    ],
    credentials: false,
    pool: false,
    dropped: &[(
        "aci_group",
        "aci_group is not imported: KUBAM never used it, and Bootsmith's network groups do not name an ACI instance",
    )],
};
const ACI: Schema = Schema {
    what: "ACI instance",
    fields: &["id", "name", "tenant_name", "vrf_name", "bridge_domain"],
    credentials: true,
    pool: false,
    dropped: &[
        (
            "tenant_descr",
            "tenant_descr is not imported (Bootsmith does not keep it)",
        ),
        (
            "vrf_description",
            "vrf_description is not imported (Bootsmith does not keep it)",
        ),
    ],
};
const HOST: Schema = Schema {
    what: "host",
    fields: &[
        "name",
        "ip",
        "os",
        "role",
        "network_group",
        "server_group",
        "service_profile_template",
        "server",
        "template",
    ],
    credentials: false,
    pool: false,
    dropped: &[],
};
const ISO_MAP: Schema = Schema {
    what: "ISO mapping",
    fields: &["os", "file"],
    credentials: false,
    pool: false,
    dropped: &[(
        "type",
        "type is not imported: KUBAM's docs described it, its code never used it",
    )],
};

const TOP_KEYS: &str =
    "kubam_ip, public_keys, proxy, ucsm, iso_map, server_groups, network_groups, aci, hosts";

/// Parse the text of kubam.yaml; bad YAML is `invalid_kubam_yaml` naming the line, a shape
/// KUBAM did not write is `invalid_kubam_file` naming every key and line that is off.
pub(crate) fn parse(text: &str) -> Result<KubamFile> {
    let mut parser = saphyr_parser::Parser::new_from_str(text);
    let mut loader: YamlLoader<'_, MarkedYaml<'_>> = YamlLoader::default();
    // Keep scalars as written; see the module doc.
    loader.early_parse(false);
    let loaded = parser.load(&mut loader, true);
    if let Some(e) = loaded.err().or_else(|| loader.error().cloned()) {
        let m = e.marker();
        return Err(Error::invalid_field(
            ErrorCode::InvalidKubamYaml,
            "kubam.yaml is not valid YAML",
            format!("line {}", m.line()),
            format!("column {}: {}", m.col() + 1, e.info()),
        ));
    }
    let docs = loader.into_documents();
    let doc = match &docs[..] {
        [] => {
            return Err(Error::bad(
                ErrorCode::InvalidKubamFile,
                "kubam.yaml is empty: KUBAM writes its settings and records there (give the file from KUBAM's data directory, ~/kubam/kubam.yaml)",
            ))
        }
        [doc] => N(doc),
        [_, second, ..] => {
            return Err(shape_error(
                "(document)",
                N(second).line(),
                "KUBAM writes one YAML document; this file has several",
            ))
        }
    };
    let mut r = Reader::default();
    let file = r.file(doc);
    if r.problems.is_empty() {
        Ok(file)
    } else {
        Err(Error::invalid(
            ErrorCode::InvalidKubamFile,
            "kubam.yaml does not have the shape KUBAM writes",
            r.problems,
        ))
    }
}

fn shape_error(path: &str, line: usize, message: &str) -> Error {
    Error::invalid_field(
        ErrorCode::InvalidKubamFile,
        "kubam.yaml does not have the shape KUBAM writes",
        path,
        format!("line {line}: {message}"),
    )
}

/// A node of the file.
#[derive(Clone, Copy)]
struct N<'a>(&'a MarkedYaml<'a>);

/// A node's value, seen through tags (PyYAML may tag a string `!!python/unicode`).
enum Shape<'a> {
    Null,
    Text(&'a str),
    Map(&'a saphyr::AnnotatedMapping<'a, MarkedYaml<'a>>),
    List(&'a [MarkedYaml<'a>]),
    Other,
}

impl<'a> N<'a> {
    fn line(self) -> usize {
        self.0.span.start.line()
    }

    fn shape(self) -> Shape<'a> {
        let mut node = self.0;
        while let YamlData::Tagged(_, inner) = &node.data {
            node = inner;
        }
        match &node.data {
            YamlData::Representation(text, style, _) => {
                let text: &str = text;
                if *style == ScalarStyle::Plain
                    && matches!(text, "" | "~" | "null" | "Null" | "NULL")
                {
                    Shape::Null
                } else {
                    Shape::Text(text)
                }
            }
            YamlData::Mapping(m) => Shape::Map(m),
            YamlData::Sequence(s) => Shape::List(s),
            _ => Shape::Other,
        }
    }

    fn found(self) -> &'static str {
        match self.shape() {
            Shape::Null => "nothing (null)",
            Shape::Text(_) => "a single value",
            Shape::Map(_) => "a mapping (key: value lines)",
            Shape::List(_) => "a list",
            Shape::Other => "a value KUBAM never writes",
        }
    }
}

#[derive(Default)]
struct Reader {
    problems: Vec<Problem>,
}

impl Reader {
    fn fail(&mut self, path: &str, line: usize, message: impl Into<String>) {
        self.problems.push(Problem::field(
            path,
            format!("line {line}: {}", message.into()),
        ));
    }

    fn wrong(&mut self, path: &str, node: N<'_>, expected: &str) {
        let found = node.found();
        self.fail(
            path,
            node.line(),
            format!("expected {expected}, found {found}"),
        );
    }

    /// The entries of a mapping with text keys; `None` (and a problem) for anything else.
    fn entries<'a>(&mut self, path: &str, node: N<'a>) -> Option<Vec<(String, N<'a>)>> {
        let Shape::Map(map) = node.shape() else {
            self.wrong(path, node, "a mapping (key: value lines)");
            return None;
        };
        let mut out = Vec::new();
        for (k, v) in map {
            match N(k).shape() {
                Shape::Text(key) => out.push((key.to_owned(), N(v))),
                _ => self.fail(path, N(k).line(), "a key must be a plain name"),
            }
        }
        Some(out)
    }

    /// A list, with null read as empty.
    fn items<'a>(&mut self, path: &str, node: N<'a>, expected: &str) -> Vec<N<'a>> {
        match node.shape() {
            Shape::Null => Vec::new(),
            Shape::List(items) => items.iter().map(N).collect(),
            _ => {
                self.wrong(path, node, expected);
                Vec::new()
            }
        }
    }

    /// A single value; `None` when null, or (with a problem) when it is a list or mapping.
    fn text(&mut self, path: &str, node: N<'_>) -> Option<Spanned<String>> {
        match node.shape() {
            Shape::Null => None,
            Shape::Text(t) => Some(Spanned {
                value: t.to_owned(),
                line: node.line(),
            }),
            _ => {
                self.wrong(path, node, "a single value");
                None
            }
        }
    }

    fn file(&mut self, doc: N<'_>) -> KubamFile {
        let mut file = KubamFile::default();
        let Some(entries) = self.entries("(top level)", doc) else {
            return file;
        };
        for (key, node) in entries {
            let path = key.as_str();
            match path {
                "kubam_ip" => file.kubam_ip = self.text(path, node),
                "proxy" => file.proxy = self.text(path, node),
                "public_keys" => {
                    for (i, item) in self
                        .items(path, node, "a list of SSH public keys")
                        .into_iter()
                        .enumerate()
                    {
                        file.public_keys
                            .extend(self.text(&format!("public_keys[{i}]"), item));
                    }
                }
                "ucsm" => self.ucsm(node, &mut file),
                "network" => file.leftovers.push(Spanned {
                    value: "network".into(),
                    line: node.line(),
                }),
                "iso_map" => file.iso_map = self.records(path, node, &ISO_MAP),
                "server_groups" => file.server_groups = self.records(path, node, &SERVER_GROUP),
                "network_groups" => file.network_groups = self.records(path, node, &NETWORK_GROUP),
                "aci" => file.aci = self.records(path, node, &ACI),
                "hosts" => file.hosts = self.records(path, node, &HOST),
                other => self.fail(
                    other,
                    node.line(),
                    format!("'{other}' is not a key KUBAM writes (it writes {TOP_KEYS})"),
                ),
            }
        }
        file
    }

    /// `ucsm`: the default `org`; the rest is KUBAM v1's single domain, never read by v2.
    fn ucsm(&mut self, node: N<'_>, file: &mut KubamFile) {
        if matches!(node.shape(), Shape::Null) {
            return;
        }
        let Some(entries) = self.entries("ucsm", node) else {
            return;
        };
        for (key, value) in entries {
            if key == "org" {
                file.org = self.text("ucsm.org", value);
            } else {
                file.leftovers.push(Spanned {
                    value: format!("ucsm.{key}"),
                    line: value.line(),
                });
            }
        }
    }

    fn records(&mut self, path: &str, node: N<'_>, schema: &Schema) -> Vec<Record> {
        let expected = format!("a list of {}s", schema.what);
        self.items(path, node, &expected)
            .into_iter()
            .enumerate()
            .filter_map(|(i, item)| self.record(&format!("{path}[{i}]"), item, schema))
            .collect()
    }

    fn record(&mut self, path: &str, node: N<'_>, schema: &Schema) -> Option<Record> {
        let entries = self.entries(path, node)?;
        let mut rec = Record {
            line: node.line(),
            ..Record::default()
        };
        for (key, value) in entries {
            let here = format!("{path}.{key}");
            if let Some(field) = schema.fields.iter().find(|f| **f == key) {
                if let Some(v) = self.text(&here, value) {
                    rec.fields.insert(field, v);
                }
            } else if key == "credentials" && schema.credentials {
                if matches!(value.shape(), Shape::Null) {
                    continue;
                }
                for (k, v) in self.entries(&here, value).unwrap_or_default() {
                    let field = match k.as_str() {
                        "ip" => "credentials.ip",
                        "user" => "credentials.user",
                        "password" => "credentials.password",
                        _ => {
                            rec.ignored.push(format!(
                                "credentials.{k} is not imported (not a login field)"
                            ));
                            continue;
                        }
                    };
                    if let Some(t) = self.text(&format!("{here}.{k}"), v) {
                        rec.fields.insert(field, t);
                    }
                }
            } else if key == "server_pool" && schema.pool {
                rec.pool = self.pool(&here, value);
            } else if let Some((_, why)) = schema.dropped.iter().find(|(k, _)| *k == key) {
                if !matches!(value.shape(), Shape::Null) {
                    rec.ignored.push((*why).to_owned());
                }
            } else {
                rec.ignored.push(format!(
                    "{key} is not imported (not a field of a {})",
                    schema.what
                ));
            }
        }
        Some(rec)
    }

    /// A group's `server_pool` in any of KUBAM's shapes (prior-art §1.3 (12), (13)): the
    /// documented `{blades, rack_servers}`, its `rack` spelling, or what KUBAM's UI posted —
    /// the list of its server objects with `selected` flags — stored as it came.
    fn pool(&mut self, path: &str, node: N<'_>) -> Option<Spanned<Pool>> {
        let mut pool = Pool::default();
        match node.shape() {
            Shape::Null => return None,
            Shape::Map(_) => {
                for (key, value) in self.entries(path, node).unwrap_or_default() {
                    let here = format!("{path}.{key}");
                    let into = match key.as_str() {
                        "blades" => &mut pool.blades,
                        "rack_servers" | "rack" => &mut pool.racks,
                        _ => {
                            pool.notes
                                .push(format!("server_pool.{key} is not a server list; left out"));
                            continue;
                        }
                    };
                    for (i, item) in self
                        .items(&here, value, "a list of server ids")
                        .into_iter()
                        .enumerate()
                    {
                        into.extend(self.text(&format!("{here}[{i}]"), item).map(|t| t.value));
                    }
                }
            }
            Shape::List(items) => self.server_list(path, items, &mut pool),
            _ => {
                self.wrong(
                    path,
                    node,
                    "{blades: [...], rack_servers: [...]} or a list of servers",
                );
                return None;
            }
        }
        Some(Spanned {
            value: pool,
            line: node.line(),
        })
    }

    /// A list of server ids, or of KUBAM's server objects. An object is selected when its
    /// `selected` is true; when no object has the flag at all, the list is the selection.
    fn server_list(&mut self, path: &str, items: &[MarkedYaml<'_>], pool: &mut Pool) {
        let mut objects = Vec::new();
        for (i, item) in items.iter().map(N).enumerate() {
            let here = format!("{path}[{i}]");
            match item.shape() {
                Shape::Text(id) if id.contains('/') => pool.blades.push(id.to_owned()),
                Shape::Text(id) => pool.racks.push(id.to_owned()),
                Shape::Map(_) => {
                    let mut fields = BTreeMap::new();
                    for (k, v) in self.entries(&here, item).unwrap_or_default() {
                        // Inventory fields (model, ram, …) may be anything; only ids and the flag count.
                        if let Shape::Text(t) = v.shape() {
                            fields.insert(k, t.to_owned());
                        }
                    }
                    objects.push((item.line(), fields));
                }
                _ => self.wrong(&here, item, "a server id or a server object"),
            }
        }
        if objects.is_empty() {
            return;
        }
        let flagged = objects.iter().any(|(_, f)| f.contains_key("selected"));
        let mut picked = 0;
        for (line, fields) in &objects {
            let selected = match fields.get("selected") {
                Some(v) => is_true(v),
                None => !flagged,
            };
            if !selected {
                continue;
            }
            picked += 1;
            match server_id(fields) {
                Some(ServerId::Blade(id)) => pool.blades.push(id),
                Some(ServerId::Rack(id)) => pool.racks.push(id),
                None => pool.notes.push(format!(
                    "the selected server on line {line} names no blade or rack server; left out"
                )),
            }
        }
        pool.notes.push(format!(
            "selection read from KUBAM's server list: {picked} of {} servers selected",
            objects.len()
        ));
    }
}

/// YAML 1.1 (PyYAML) and JSON spellings of true.
fn is_true(v: &str) -> bool {
    matches!(
        v,
        "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" | "1"
    )
}

enum ServerId {
    Blade(String),
    Rack(String),
}

/// The id of one of KUBAM's server objects: from `chassis_id`/`slot` (and `domain_id` under
/// UCS Central) or `rack_id`, else from its DN (`sys/chassis-1/blade-3`,
/// `compute/sys-1009/chassis-1/blade-3`, `sys/rack-unit-7`).
fn server_id(f: &BTreeMap<String, String>) -> Option<ServerId> {
    let dn = f.get("dn").map(String::as_str).unwrap_or("");
    let from_dn = |prefix: &str| {
        dn.split('/')
            .find_map(|part| part.strip_prefix(prefix))
            .map(str::to_owned)
    };
    let kind = f.get("type").map(String::as_str);
    let is_rack = kind == Some("rack")
        || (kind.is_none() && (f.contains_key("rack_id") || dn.contains("rack-unit-")));
    if is_rack {
        let id = f
            .get("rack_id")
            .cloned()
            .or_else(|| from_dn("rack-unit-"))?;
        return Some(ServerId::Rack(id));
    }
    let chassis = f
        .get("chassis_id")
        .cloned()
        .or_else(|| from_dn("chassis-"))?;
    let slot = f.get("slot").cloned().or_else(|| from_dn("blade-"))?;
    let domain = f.get("domain_id").cloned().or_else(|| from_dn("sys-"));
    Some(ServerId::Blade(match domain {
        Some(d) => format!("{d}/{chassis}/{slot}"),
        None => format!("{chassis}/{slot}"),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_stay_as_written_and_null_is_absent() {
        let f = parse(
            "kubam_ip: 10.0.0.1\nproxy: ~\nnetwork_groups:\n- name: '030'\n  vlan: 030\n  gateway: null\n",
        )
        .unwrap();
        assert_eq!(f.kubam_ip.unwrap().value, "10.0.0.1");
        assert!(f.proxy.is_none());
        let n = &f.network_groups[0];
        assert_eq!(n.get("vlan"), Some("030"));
        assert_eq!(n.get("name"), Some("030"));
        assert_eq!(n.get("gateway"), None);
        assert_eq!(n.line, 4);
    }

    #[test]
    fn pyyaml_folds_long_keys_over_lines_and_they_read_back_whole() {
        let f = parse("public_keys:\n- ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJRsCR05CTCVLtFICOdFoTw56mQeLuHhOQNlJKwXUwaI\n  ops@lab\n").unwrap();
        assert_eq!(
            f.public_keys[0].value,
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJRsCR05CTCVLtFICOdFoTw56mQeLuHhOQNlJKwXUwaI ops@lab"
        );
    }

    #[test]
    fn bad_yaml_names_the_line() {
        let e = parse("hosts:\n- name: a\n  ip: [1.2\n").unwrap_err();
        assert_eq!(e.code(), "invalid_kubam_yaml");
        assert!(e.details()[0].field.starts_with("line "), "{e}");
        let e = parse("a: 1\na: 2\n").unwrap_err();
        assert_eq!(e.code(), "invalid_kubam_yaml", "{e}");
    }

    #[test]
    fn a_wrong_shape_names_the_key_and_line() {
        let e = parse("kubam_ip: 10.0.0.1\nserver_groups:\n  name: pod1\nhostz: []\n").unwrap_err();
        assert_eq!(e.code(), "invalid_kubam_file");
        let d = e.details();
        assert_eq!(d[0].field, "server_groups");
        assert!(
            d[0].message
                .starts_with("line 3: expected a list of server groups"),
            "{e}"
        );
        assert_eq!(d[1].field, "hostz");
        assert!(
            d[1].message.starts_with("line 4: 'hostz' is not a key"),
            "{e}"
        );
        let e = parse("hosts:\n- name: [a, b]\n").unwrap_err();
        assert_eq!(e.details()[0].field, "hosts[0].name");
        assert!(parse("").is_err());
        assert!(parse("- a\n").is_err());
    }

    #[test]
    fn every_pool_shape_kubam_stored() {
        let f = parse(
            "server_groups:
- name: documented
  server_pool: {blades: ['1/1', 1/2], rack_servers: ['3']}
- name: rack-spelling
  server_pool: {blades: [], rack: ['4']}
- name: from-the-ui
  server_pool:
  - {type: blade, chassis_id: '1', slot: '5', selected: true, model: UCSB-B200-M4}
  - {type: blade, chassis_id: '1', slot: '6', selected: false}
  - {type: rack, rack_id: '7', selected: true}
  - {dn: sys/chassis-2/blade-8, selected: True}
  - {type: blade, dn: compute/sys-1009/chassis-1/blade-3, selected: true}
- name: ids
  server_pool: [1/1, '9']
",
        )
        .unwrap();
        let pool = |i: usize| f.server_groups[i].pool.as_ref().unwrap().value.clone();
        assert_eq!(
            (pool(0).blades, pool(0).racks),
            (vec!["1/1".to_owned(), "1/2".into()], vec!["3".to_owned()])
        );
        assert_eq!(pool(1).racks, vec!["4"]);
        let ui = pool(2);
        assert_eq!(ui.blades, vec!["1/5", "2/8", "1009/1/3"]);
        assert_eq!(ui.racks, vec!["7"]);
        assert_eq!(
            ui.notes,
            vec!["selection read from KUBAM's server list: 4 of 5 servers selected"]
        );
        assert_eq!(
            (pool(3).blades, pool(3).racks),
            (vec!["1/1".to_owned()], vec!["9".to_owned()])
        );
    }
}
