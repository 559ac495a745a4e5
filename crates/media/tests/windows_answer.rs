//! Windows' answer disk keeps Setup to the plan's disk and carries the host's network (issue
//! 29). autounattend.xml is parsed (quick-xml) and has exactly one target disk, named by
//! @BOOTSMITH_DISK@ until bootsmith-disk.ps1 puts the number WinPE found there; network.txt
//! names the adapters by MAC and carries VLAN, MTU, bond, routes and IPv6 for
//! bootsmith-network.ps1. No PowerShell runs here (none is packaged for this machine): the
//! scripts are checked for their settings and balanced brackets only.

mod answer_vars;

use std::collections::HashMap;

use answer_vars::vars;
use bootsmith_media::install_disk::DiskVars;
use bootsmith_media::templates::{render, BondVars, Family, Vars};
use bootsmith_model::install_disk::InstallDiskHint;
use quick_xml::events::Event;
use serde_json::{json, Value};

fn win(hint: Option<Value>) -> Vars {
    let mut v = vars("win2022", "windows", "2022", 2022);
    v.admin_password = Some("Generated-Pass-1".into());
    let hint = hint.map(|h| InstallDiskHint::parse(&h, "install_disk").unwrap());
    v.disk = DiskVars::new(hint.as_ref(), Family::Windows);
    v
}

fn files(v: &Vars) -> HashMap<String, String> {
    render(Family::Windows, v, None)
        .unwrap()
        .into_iter()
        .map(|f| (f.name, String::from_utf8(f.contents).unwrap()))
        .collect()
}

/// Each element's path (`unattend/settings/component/DiskConfiguration/Disk/DiskID`) with its
/// text, in document order; panics on XML that is not well-formed.
fn elements(xml: &str) -> Vec<(String, String)> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut path: Vec<String> = Vec::new();
    let mut out = Vec::new();
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                path.push(String::from_utf8_lossy(e.local_name().as_ref()).into_owned());
                out.push((path.join("/"), String::new()));
            }
            Ok(Event::End(_)) => {
                path.pop();
            }
            Ok(Event::Text(t)) => {
                let text = t.unescape().unwrap().trim().to_owned();
                if let Some(last) = out.last_mut() {
                    if last.0 == path.join("/") {
                        last.1.push_str(&text);
                    }
                }
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("autounattend.xml is not well-formed: {e}\n{xml}"),
        }
    }
    out
}

fn values<'a>(els: &'a [(String, String)], suffix: &str) -> Vec<&'a str> {
    els.iter()
        .filter(|(p, _)| p.ends_with(suffix))
        .map(|(_, t)| t.as_str())
        .collect()
}

/// Exactly one disk is configured and installed to, both named `id`, and only it is wiped.
fn one_target_disk(xml: &str, id: &str) {
    let els = elements(xml);
    assert_eq!(values(&els, "DiskConfiguration/Disk").len(), 1, "one disk");
    assert_eq!(values(&els, "DiskConfiguration/Disk/DiskID"), [id]);
    assert_eq!(
        values(&els, "DiskConfiguration/Disk/WillWipeDisk"),
        ["true"]
    );
    assert_eq!(values(&els, "InstallTo/DiskID"), [id]);
    assert_eq!(
        els.iter().filter(|(p, _)| p.ends_with("/DiskID")).count(),
        2
    );
}

fn brackets_balance(name: &str, text: &str) {
    for (open, close) in [('{', '}'), ('(', ')'), ('[', ']')] {
        assert_eq!(
            text.matches(open).count(),
            text.matches(close).count(),
            "{name}: {open}{close} balance\n{text}"
        );
    }
    assert!(
        !text.contains("{{") && !text.contains("{%"),
        "{name}: Tera left over"
    );
}

/// What bootsmith-disk.ps1 does to the XML once it has found disk 2.
fn as_winpe_writes(xml: &str) -> String {
    xml.replace("@BOOTSMITH_DISK@", "2").replace(
        "@BOOTSMITH_DISK_WORDS@",
        "disk 2 (447 GiB, ATA MTFDDAK480TDS, S/N 21033A4E)",
    )
}

#[test]
fn the_answer_file_names_one_disk_which_winpe_fills_in() {
    for uefi in [true, false] {
        let mut v = win(Some(json!({"serial": "21033A4E"})));
        v.uefi = uefi;
        let f = files(&v);
        let xml = &f["autounattend.xml"];
        // As written: no disk number at all, so Setup reading it on its own stops.
        one_target_disk(xml, "@BOOTSMITH_DISK@");
        assert!(!xml.contains("<DiskID>0</DiskID>"));
        let done = as_winpe_writes(xml);
        one_target_disk(&done, "2");
        assert!(
            done.contains("disk = 'disk 2 (447 GiB"),
            "the installed callback names the disk"
        );
    }
}

#[test]
fn the_disk_picker_carries_the_hint_and_the_failed_callback() {
    let f = files(&win(Some(
        json!({"serial": "S/N 'x'", "size_gb": {"min": 400, "max": 500}, "rotational": false}),
    )));
    let ps = &f["bootsmith-disk.ps1"];
    assert!(ps.contains("$want_serial = 'S/N ''x'''\n"), "{ps}");
    assert!(ps.contains("$want_min = '400'\n$want_max = '500'\n$want_rot = '0'\n$hinted = '1'\n"));
    assert!(ps.contains("$callback_failed = 'http://192.0.2.10:8080/api/v2/hosts/node01/failed'"));
    assert!(ps.contains("Get-Disk") && ps.contains("Get-PhysicalDisk"));
    // param() must come first in a script: only comments before it.
    let before = &ps[..ps.find("param(").unwrap()];
    assert!(
        before.lines().all(|l| l.starts_with('#') || l.is_empty()),
        "{before}"
    );
    brackets_balance("bootsmith-disk.ps1", ps);

    let cmd = &f["bootsmith-disk.cmd"];
    assert!(cmd.starts_with("@echo off\r\n"), "{cmd}");
    assert!(
        !cmd.replace("\r\n", "").contains('\n') && cmd.ends_with("\r\n"),
        "CRLF line ends"
    );
    assert!(cmd.contains(
        "bootsmith-disk.ps1\" -Source \"%BOOTSMITH_SRC%\" -Out X:\\bootsmith\\autounattend.xml"
    ));
    assert!(cmd.contains("if errorlevel 1 ("));

    let mut v = win(None);
    v.callback = None;
    let f = files(&v);
    assert!(f["bootsmith-disk.ps1"].contains("$hinted = '0'\n$hint_words = 'the default disk"));
    assert!(f["bootsmith-disk.ps1"].contains("$callback_failed = ''"));
    assert!(
        !f["bootsmith-network.ps1"].contains("/api/v2/hosts/"),
        "a preview calls nothing"
    );
}

fn kv(txt: &str) -> HashMap<String, String> {
    txt.lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

/// The matrix of hosts: no hint; serial; size range; bond of two MACs; VLAN + MTU; routes; IPv6.
#[test]
fn network_txt_carries_the_hosts_network_for_every_host_of_the_matrix() {
    let macs = vec![
        "00:25:b5:00:00:1a".to_owned(),
        "00:25:b5:00:00:1b".to_owned(),
    ];
    let mut cases: Vec<(&str, Vars)> = vec![
        ("no hint", win(None)),
        ("serial", win(Some(json!({"serial": "21033A4E"})))),
        (
            "size range",
            win(Some(json!({"size_gb": {"min": 400, "max": 500}}))),
        ),
    ];
    let mut v = win(None);
    v.host.macs = macs.clone();
    v.network.bond = Some(BondVars {
        mode: "802.3ad".into(),
        lacp_rate: Some("fast".into()),
        xmit_hash_policy: Some("layer3+4".into()),
        opts: "mode=802.3ad,miimon=100,lacp_rate=fast,xmit_hash_policy=layer3+4".into(),
    });
    cases.push(("bond", v));
    let mut v = win(None);
    v.host.macs = macs[..1].to_vec();
    v.network.mtu = Some(9000);
    cases.push(("VLAN + MTU", v));
    let mut v = win(None);
    v.network.routes = answer_vars::two_routes();
    cases.push(("routes", v));
    let mut v = win(None);
    v.host.ipv6 = Some("2001:db8::21/64".into());
    v.network.ipv6_gateway = Some("fe80::1".into());
    cases.push(("IPv6", v));

    for (name, v) in &cases {
        let f = files(v);
        one_target_disk(&f["autounattend.xml"], "@BOOTSMITH_DISK@");
        let net = kv(&f["network.txt"]);
        assert!(
            !f["network.txt"].contains('\\'),
            "{name}: no backslash for ConvertFrom-StringData"
        );
        assert_eq!(net["IP"], "192.0.2.21", "{name}");
        assert_eq!(net["VLAN"], "30", "{name}");
        let want_macs = match *name {
            "bond" => "00-25-B5-00-00-1A,00-25-B5-00-00-1B",
            "VLAN + MTU" => "00-25-B5-00-00-1A",
            _ => "",
        };
        assert_eq!(net["MACS"], want_macs, "{name}");
        match *name {
            "bond" => {
                assert_eq!(
                    (
                        net["BOND"].as_str(),
                        net["BOND_LACP_RATE"].as_str(),
                        net["BOND_HASH"].as_str()
                    ),
                    ("802.3ad", "fast", "layer3+4")
                );
            }
            "VLAN + MTU" => assert_eq!(net["MTU"], "9000"),
            "routes" => assert_eq!(
                net["ROUTES"],
                "10.0.0.0/8 192.0.2.254,2001:db8:1::/48 2001:db8::fe"
            ),
            "IPv6" => {
                assert_eq!(net["IPV6"], "2001:db8::21/64");
                assert_eq!(net["IPV6_GATEWAY"], "fe80::1");
            }
            _ => {
                assert!(net["BOND"].is_empty() && net["MTU"].is_empty() && net["ROUTES"].is_empty())
            }
        }
        let ps = &f["bootsmith-network.ps1"];
        brackets_balance("bootsmith-network.ps1", ps);
        assert!(ps.contains("Get-NetAdapter -Physical | Where-Object { $_.MacAddress -eq $m }"));
        assert!(ps.contains("New-NetLbfoTeam @team"));
        // The first logon runs it, and the installed callback waits for it to have worked.
        let xml = &f["autounattend.xml"];
        let els = elements(xml);
        let cmds = values(&els, "FirstLogonCommands/SynchronousCommand/CommandLine");
        assert!(
            cmds[0].ends_with("-File C:\\Windows\\Setup\\Scripts\\bootsmith-network.ps1"),
            "{cmds:?}"
        );
        assert!(cmds.iter().any(
            |c| c.contains("bootsmith-network.failed) { exit 1 }") && c.contains("/installed")
        ));
        // Setup's logs go just before it, while the token is good; Windows runs no command
        // line longer than 1024 characters.
        let logs = cmds.iter().position(|c| c.contains("/logs?file=")).unwrap();
        assert!(cmds[logs + 1].contains("/installed"), "{cmds:?}");
        assert!(cmds[logs].contains("X-Install-Token") && cmds[logs].contains("setuperr.log"));
        assert!(cmds.iter().all(|c| c.len() <= 1024), "{cmds:?}");
    }
}
