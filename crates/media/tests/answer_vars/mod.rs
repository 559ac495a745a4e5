//! Answer-file variables for the template tests: one host of a two-host Kubernetes pod on a
//! VLAN, with a proxy, a key and an install callback.
#![allow(dead_code)]

use bootsmith_media::templates::{
    new_password, CallbackVars, DiskVars, Family, HostVars, NetworkVars, OsVars, RouteVars, Vars,
};

/// A static route as the templates see it: `to` a CIDR; its netmask dotted for IPv4, the
/// prefix for IPv6.
pub fn route(to: &str, via: &str) -> RouteVars {
    let (network, prefix) = to.split_once('/').unwrap();
    let prefix: u8 = prefix.parse().unwrap();
    let ipv6 = to.contains(':');
    let netmask = if ipv6 {
        prefix.to_string()
    } else {
        let bits = u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0);
        std::net::Ipv4Addr::from(bits).to_string()
    };
    RouteVars {
        to: to.into(),
        network: network.into(),
        prefix,
        netmask,
        via: via.into(),
        ipv6,
    }
}

/// An IPv4 and an IPv6 route, for the families' route cases.
pub fn two_routes() -> Vec<RouteVars> {
    vec![
        route("10.0.0.0/8", "192.0.2.254"),
        route("2001:db8:1::/48", "2001:db8::fe"),
    ]
}

fn host(name: &str, ip: &str, role: &str) -> HostVars {
    HostVars {
        name: name.into(),
        ip: ip.into(),
        role: role.into(),
        os: "x".into(),
        network_group: "mgmt".into(),
        server_group: Some("pod1".into()),
        macs: Vec::new(),
        ipv6: None,
        ipv6_address: None,
        ipv6_prefix: None,
    }
}

pub fn vars(os_id: &str, family: &str, version: &str, major: u32) -> Vars {
    let (_, hash) = new_password();
    let me = host("node01", "192.0.2.21", "k8s master");
    Vars {
        svc_ip: "192.0.2.10".into(),
        svc_port: 8080,
        svc_url: "http://192.0.2.10:8080/svc".into(),
        host: me.clone(),
        hosts: vec![me.clone(), host("node02", "192.0.2.22", "k8s node")],
        master: Some(me),
        network: NetworkVars {
            name: "mgmt".into(),
            netmask: "255.255.255.0".into(),
            prefix: 24,
            gateway: "192.0.2.1".into(),
            nameserver: "192.0.2.53".into(),
            ntpserver: "192.0.2.123".into(),
            proxy: Some("http://proxy.example:3128".into()),
            vlan: Some("30".into()),
            mtu: None,
            bond: None,
            routes: Vec::new(),
            ipv6_gateway: None,
        },
        os: OsVars { id: os_id.into(), name: os_id.into(), family: family.into(), version: version.into(), major },
        keys: vec!["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJRsCR05CTCVLtFICOdFoTw56mQeLuHhOQNlJKwXUwaI ops@example".into()],
        root_password_hash: hash,
        admin_password: None,
        uefi: major >= 8,
        callback: Some(CallbackVars {
            installed: "http://192.0.2.10:8080/api/v2/hosts/node01/installed".into(),
            failed: "http://192.0.2.10:8080/api/v2/hosts/node01/failed".into(),
            logs: "http://192.0.2.10:8080/api/v2/hosts/node01/logs".into(),
            token: "0123456789abcdef0123456789abcdef0123456789abcdef".into(),
        }),
        disk: DiskVars::new(None, family_of(family)),
        // A zone from the host's parameters, so the parsers read that path of the templates
        // (the default zone, a fixed word, needs no parser to prove it).
        params: [("timezone".to_owned(), "America/New_York".to_owned())].into(),
    }
}

pub fn family_of(name: &str) -> Family {
    [
        Family::Rhel,
        Family::Rhvh,
        Family::Esxi,
        Family::Ubuntu,
        Family::Windows,
    ]
    .into_iter()
    .find(|f| f.as_str() == name)
    .unwrap_or_else(|| panic!("no family {name}"))
}
