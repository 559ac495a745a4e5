//! What the simulator's tests share: sending XML over real HTTP, building a
//! `configConfMos`, reading error codes, the objects both modes write, and checking a tree
//! against its object model.

#![allow(dead_code)]

use bootsmith_sim::meta::Model;
use bootsmith_sim::tree::{split_dn, Tree};
use bootsmith_sim::Sim;
use bootsmith_ucs::xml::Mo;

/// POST `xml` to `path` on the simulator: the HTTP status and the body.
pub async fn post_raw(sim: &Sim, path: &str, xml: &str) -> (u16, String) {
    let r = reqwest::Client::new()
        .post(format!("{}{path}", sim.address()))
        .body(xml.to_owned())
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.text().await.unwrap())
}

/// The reply as an object; a body that is not XML fails the test.
pub fn parse_reply(body: &str) -> Mo {
    Mo::parse(body).unwrap_or_else(|e| panic!("reply is not XML ({e}): {body}"))
}

/// The cookie of a successful `aaaLogin` reply; an error reply fails the test.
pub fn cookie_of(login_reply: &Mo) -> String {
    let r = login_reply;
    assert_eq!(r.attr("errorCode"), None, "{r:?}");
    r.get("outCookie").to_owned()
}

/// A `configConfMos` writing `objs`, each keyed by its dn, in one transaction.
pub fn conf_mos(cookie: &str, objs: Vec<Mo>) -> Mo {
    let mut configs = Mo::new("inConfigs");
    for o in objs {
        configs = configs.child(Mo::new("pair").with("key", o.get("dn")).child(o));
    }
    Mo::new("configConfMos")
        .with("cookie", cookie)
        .with("inHierarchical", "false")
        .child(configs)
}

/// A `configResolveClass` of every blade, not hierarchical.
pub fn every_blade(cookie: &str) -> String {
    format!(
        r#"<configResolveClass cookie="{cookie}" classId="computeBlade" inHierarchical="false"/>"#
    )
}

/// The reply's error code, if it is an error.
pub fn error_code(m: &Mo) -> Option<&str> {
    m.attr("errorCode")
}

/// Fails unless the reply carries no error code.
#[track_caller]
pub fn assert_accepted(r: &Mo) {
    assert_eq!(error_code(r), None, "{}", r.to_xml());
}

/// The service profile `org-root/ls-{name}`, with only its dn set.
pub fn profile(name: &str) -> Mo {
    Mo::new("lsServer").with("dn", format!("org-root/ls-{name}"))
}

/// A service profile instantiated from the template `tmpl`.
pub fn instance(name: &str) -> Mo {
    profile(name)
        .with("name", name)
        .with("type", "instance")
        .with("srcTemplName", "tmpl")
}

/// The updating template `tmpl`, requiring the pool `pool1`.
pub fn template() -> Mo {
    profile("tmpl")
        .with("name", "tmpl")
        .with("type", "updating-template")
        .child(
            Mo::new("lsRequirement")
                .with("rn", "pn-req")
                .with("name", "pool1"),
        )
}

/// Power the blade of `org-root/ls-existing-sp` to `state` through its profile.
pub fn existing_sp_power(state: &str) -> Mo {
    Mo::new("lsPower")
        .with("dn", "org-root/ls-existing-sp/power")
        .with("state", state)
}

/// The mount entry `boot` of a vMedia policy: `file` under `http://{ip}/svc/`.
pub fn boot_mount_entry(ip: &str, file: &str) -> Mo {
    Mo::new("cimcvmediaConfigMountEntry")
        .with("rn", "cfg-mnt-entry-boot")
        .with("mappingName", "boot")
        .with("deviceType", "cdd")
        .with("mountProtocol", "http")
        .with("remoteIpAddress", ip)
        .with("imagePath", "/svc/")
        .with("imageFileName", file)
        .with("imageNameVariable", "none")
}

/// A loopback port nothing listens on (bound, then let go).
pub fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// Check every object of `tree` against `model`: class, rn, parent, properties and values.
pub fn check_tree(model: &Model, tree: &Tree, roots: &[&str]) {
    for (dn, o) in tree.of_class_all() {
        let class = model
            .class(&o.class)
            .unwrap_or_else(|| panic!("{dn}: class {} is not in the model", o.class));
        let (parent, rn) = split_dn(dn);
        class.parse_rn(&o.class, rn).unwrap();
        let pclass = if parent.is_empty() {
            "topRoot".to_owned()
        } else {
            tree.get(parent)
                .unwrap_or_else(|| panic!("{dn}: no parent"))
                .class
                .clone()
        };
        assert!(
            class.meta.parents.contains(&pclass) || roots.contains(&dn),
            "{dn}: {} under {pclass}",
            o.class
        );
        for (k, v) in &o.attrs {
            assert!(
                class.meta.props.contains_key(k),
                "{dn}: {} has no property {k}",
                o.class
            );
            class
                .check_value(&o.class, k, v)
                .unwrap_or_else(|e| panic!("{dn}: {e}"));
        }
    }
}
