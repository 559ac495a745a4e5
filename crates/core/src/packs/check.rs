//! What a pack's templates must pass before the pack is applied: each renders for a sample
//! host of every role of its entry, with the variables real hosts get, and a kickstart (RHEL
//! family) passes pykickstart's `ksvalidator` where one is configured.

use std::path::PathBuf;
use std::process::Command;

use bootsmith_media::install_disk::DiskVars;
use bootsmith_media::templates::{self, HostVars, NetworkVars, OsVars, Vars};
use bootsmith_model::catalog::{BootMode, Catalog, Family, OsEntry, Pack};

/// pykickstart's `ksvalidator`, found, with the syntax versions it knows (`ksvalidator -l`).
pub(crate) struct Ksvalidator {
    path: PathBuf,
    syntaxes: String,
}

/// How a pack's kickstarts were checked, in a sentence for the operator.
pub(crate) fn kickstart_words(checked: &[String], tool: Option<&Ksvalidator>) -> String {
    match (checked.is_empty(), tool) {
        (true, _) => "the pack has no kickstart template to check with ksvalidator".into(),
        (false, Some(t)) => format!(
            "the kickstart templates of {} were checked by ksvalidator ({})",
            checked.join(", "),
            t.path.display()
        ),
        (false, None) => format!(
            "the kickstart templates of {} were NOT checked by ksvalidator: none is configured (set BOOTSMITH_KSVALIDATOR to pykickstart's ksvalidator, or put ksvalidator on PATH); they were only rendered",
            checked.join(", ")
        ),
    }
}

/// The `ksvalidator` to run, when one runs: `BOOTSMITH_KSVALIDATOR` when set, else
/// `ksvalidator` on PATH. Looked for only where a pack has templates: it is a Python start.
pub(crate) fn ksvalidator(packs: &[&Pack]) -> Option<Ksvalidator> {
    if packs.iter().all(|p| p.templates.is_empty()) {
        return None;
    }
    let path = std::env::var_os("BOOTSMITH_KSVALIDATOR")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("ksvalidator"));
    let out = Command::new(&path).arg("-l").output().ok()?;
    out.status.success().then(|| Ksvalidator {
        syntaxes: String::from_utf8_lossy(&out.stdout).into_owned(),
        path,
    })
}

/// Render every template of `pack` (as applied in `catalog`) for a sample host of each role
/// of its entry, and run `tool` on each kickstart. Answers the OS ids whose kickstarts
/// were rendered (and checked when `tool` is given), or why the pack is refused.
pub(crate) fn templates(
    pack: &Pack,
    catalog: &Catalog,
    tool: Option<&Ksvalidator>,
) -> Result<Vec<String>, String> {
    let mut kickstarts = Vec::new();
    for id in pack.templates.keys() {
        let (Some(os), Some(t)) = (catalog.get(id), catalog.pack_template(id)) else {
            continue;
        };
        for role in &os.roles {
            let vars = sample_vars(os, role);
            let files = templates::render(os.family, &vars, Some((&t.label, &t.text)))
                .map_err(|e| {
                    format!("the template of {id} does not render for a sample host of role {role:?}: {e}")
                })?;
            if matches!(os.family, Family::Rhel | Family::Rhvh) {
                if let (Some(tool), Some(ks)) = (tool, files.first()) {
                    validate(tool, os, role, &ks.contents)?;
                }
            }
        }
        if matches!(os.family, Family::Rhel | Family::Rhvh) {
            kickstarts.push(id.clone());
        }
    }
    Ok(kickstarts)
}

/// Run `ksvalidator` on one rendered kickstart, with the syntax of the OS's RHEL release when
/// the tool knows it.
fn validate(tool: &Ksvalidator, os: &OsEntry, role: &str, ks: &[u8]) -> Result<(), String> {
    let syntax = match os.family {
        // RHV-H 4 is built on RHEL 7.
        Family::Rhvh => "RHEL7".to_owned(),
        _ => format!("RHEL{}", major(os)),
    };
    let known = tool.syntaxes.split_whitespace().any(|v| v == syntax);
    let file = std::env::temp_dir().join(format!(
        "bootsmith-pack-{}-{}.ks",
        std::process::id(),
        rand::random::<u64>()
    ));
    std::fs::write(&file, ks).map_err(|e| format!("writing {}: {e}", file.display()))?;
    let mut cmd = Command::new(&tool.path);
    if known {
        cmd.arg("-v").arg(&syntax);
    }
    let out = cmd.arg(&file).output();
    let _ = std::fs::remove_file(&file);
    let out = out.map_err(|e| format!("running ksvalidator {}: {e}", tool.path.display()))?;
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() {
        return Ok(());
    }
    let said = said.replace(&file.display().to_string(), "ks.cfg");
    Err(format!(
        "ksvalidator{} refuses the kickstart of {} rendered for a sample host of role {role:?}: {}",
        if known {
            format!(" -v {syntax}")
        } else {
            String::new()
        },
        os.id,
        said.trim()
    ))
}

fn major(os: &OsEntry) -> u32 {
    os.version
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|m| m.parse().ok())
        .unwrap_or(0)
}

/// The variables of a sample host of `role` with OS `os`: one NIC by MAC on a plain IPv4
/// network, a master beside it, one SSH key, a callback.
fn sample_vars(os: &OsEntry, role: &str) -> Vars {
    let host = |name: &str, ip: &str, role: &str| HostVars {
        name: name.into(),
        ip: ip.into(),
        role: role.into(),
        os: os.id.clone(),
        network_group: "sample-net".into(),
        server_group: Some("sample-group".into()),
        macs: vec!["52:54:00:12:34:01".into()],
        ipv6: None,
        ipv6_address: None,
        ipv6_prefix: None,
    };
    let me = host("sample-host", "192.0.2.10", role);
    let master = host("sample-master", "192.0.2.11", "k8s master");
    let svc = "http://192.0.2.1:8080";
    Vars {
        svc_ip: "192.0.2.1".into(),
        svc_port: 8080,
        svc_url: format!("{svc}/svc"),
        hosts: vec![me.clone(), master.clone()],
        host: me,
        master: Some(master),
        network: NetworkVars {
            name: "sample-net".into(),
            netmask: "255.255.255.0".into(),
            prefix: 24,
            gateway: "192.0.2.254".into(),
            nameserver: "192.0.2.53".into(),
            ntpserver: "192.0.2.123".into(),
            proxy: None,
            vlan: None,
            mtu: None,
            bond: None,
            routes: Vec::new(),
            ipv6_gateway: None,
        },
        os: OsVars {
            id: os.id.clone(),
            name: os.name.clone(),
            family: os.family.as_str().into(),
            version: os.version.clone(),
            major: major(os),
        },
        keys: vec!["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGJvb3RzbWl0aC1zYW1wbGUta2V5LXh4eHh4eHh4 sample".into()],
        root_password_hash: "$6$samplesalt$0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ./0123456789abcdefghijklmn".into(),
        admin_password: (os.family == Family::Windows).then(|| "Sample-Passw0rd".into()),
        uefi: os.boot == BootMode::Uefi,
        callback: Some(templates::CallbackVars {
            installed: format!("{svc}/api/v2/hosts/sample-host/installed"),
            failed: format!("{svc}/api/v2/hosts/sample-host/failed"),
            logs: format!("{svc}/api/v2/hosts/sample-host/logs"),
            token: "sample-token".into(),
        }),
        disk: DiskVars::new(None, os.family),
        // A host with no parameters: a pack's template reads one with a default
        // (`params.repo_url | default(value="…")`), as the built-in templates do.
        params: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack(template: &str) -> (Pack, Catalog) {
        let pack = Pack::from_json(&format!(
            r#"{{"name": "t", "version": "1", "entries": [{{"id": "site1", "name": "Site 1",
              "family": "rhel", "version": "10.1", "code": "s1", "roles": ["generic", "k8s node"],
              "boot": "uefi", "marker": {{"file": ".treeinfo", "contains": "Site 1"}}}}],
              "templates": {{"site1": {}}}}}"#,
            serde_json::to_string(template).unwrap()
        ))
        .unwrap();
        let catalog = Catalog::embedded().unwrap().with_pack(&pack).unwrap();
        (pack, catalog)
    }

    #[test]
    fn without_ksvalidator_a_kickstart_is_rendered_for_each_role_and_said_unchecked() {
        let (p, c) = pack("# {{ host.name }} as {{ host.role }}\ntext\n");
        let checked = templates(&p, &c, None).unwrap();
        assert_eq!(checked, ["site1"]);
        let words = kickstart_words(&checked, None);
        assert!(words.contains("were NOT checked by ksvalidator"), "{words}");
        let (p, c) = pack("{% if host.role == \"k8s node\" %}{{ master.nothing }}{% endif %}");
        let why = templates(&p, &c, None).unwrap_err();
        assert!(why.contains("role \"k8s node\""), "{why}");
    }
}
