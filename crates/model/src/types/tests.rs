//! Each validated type's parser: what it accepts, what it refuses and the sentence it says.
use super::*;

#[test]
fn subnets_hold_their_own_addresses_only() {
    let net = Subnet::parse("192.0.2.0/24").unwrap();
    assert_eq!(net.to_string(), "192.0.2.0/24");
    assert!(net.contains(&"192.0.2.77".parse().unwrap()));
    assert!(!net.contains(&"10.9.9.9".parse().unwrap()));
    assert!(!net.contains(&"192.0.3.1".parse().unwrap()));
    assert!(!net.contains(&"2001:db8::1".parse().unwrap()));
    let v6 = Subnet::parse("2001:db8::/64").unwrap();
    assert!(v6.contains(&"2001:db8::1".parse().unwrap()));
    assert!(!v6.contains(&"2001:db9::1".parse().unwrap()));
    assert!(Subnet::parse("0.0.0.0/0")
        .unwrap()
        .contains(&"8.8.8.8".parse().unwrap()));
    assert!(Subnet::parse("10.0.0.5/32")
        .unwrap()
        .contains(&"10.0.0.5".parse().unwrap()));
    let host_bits = Subnet::parse("192.0.2.5/24").unwrap_err();
    assert!(host_bits.contains("192.0.2.0/24"), "{host_bits}");
    for bad in [
        "192.0.2.0",
        "192.0.2.0/33",
        "192.0.2.0/+8",
        "x/24",
        "/24",
        "2001:db8::/129",
        "",
    ] {
        assert!(Subnet::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn host_names_follow_ucs_and_file_rules() {
    for ok in ["node01", "ab", "a-b", "N1-blade-03", &"x".repeat(32)] {
        assert!(HostName::parse(ok).is_ok(), "{ok}");
    }
    for bad in [
        "a",
        "-ab",
        "ab-",
        "a.b",
        "a b",
        "../x",
        "a/b",
        "",
        &"x".repeat(33),
        "nodé",
    ] {
        assert!(HostName::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn ips_are_strict() {
    assert!(IpAddress::parse("10.0.0.1").is_ok());
    assert!(IpAddress::parse("fe80::1").is_ok());
    for bad in ["10", "1.2.3", "010.0.0.1", "1.2.3.4 ", "256.1.1.1", ""] {
        assert!(IpAddress::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn netmasks_must_be_contiguous() {
    assert_eq!(Netmask::parse("255.255.255.0").unwrap().prefix_len(), 24);
    assert_eq!(Netmask::parse("0.0.0.0").unwrap().prefix_len(), 0);
    assert_eq!(Netmask::parse("/64").unwrap().prefix_len(), 64);
    for bad in ["255.0.255.0", "255.255.255.1", "129", "abc", "+24", ""] {
        assert!(Netmask::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn blade_and_rack_ids() {
    assert_eq!(BladeId::parse("1/3").unwrap().to_string(), "1/3");
    assert_eq!(BladeId::parse("1009/1/12").unwrap().slot, 12);
    for bad in ["1", "1/", "/3", "1/3/4/5", "0/1", "a/b", "1/-3"] {
        assert!(BladeId::parse(bad).is_err(), "{bad}");
    }
    assert_eq!(NodeId::parse("7").unwrap(), NodeId::Rack(RackId::local(7)));
    assert_eq!(RackId::parse("1009/7").unwrap().to_string(), "1009/7");
    for bad in ["0", "1009/", "/7", "1/2/3", "x/7"] {
        assert!(RackId::parse(bad).is_err(), "{bad}");
    }
    assert!(NodeId::parse("x").is_err());
}

#[test]
fn manager_addresses() {
    for ok in [
        "10.0.0.5",
        "10.0.0.5:8443",
        "http://127.0.0.1:9000",
        "ucsm.lab.example",
        "[fe80::1]:443",
    ] {
        assert!(ManagerAddress::parse(ok).is_ok(), "{ok}");
    }
    for bad in [
        "",
        "ftp://x",
        "http://x/path",
        "a b",
        "http://user:pw@x",
        "10.0.0.5:99999",
    ] {
        assert!(ManagerAddress::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn group_names_are_printable_text_without_slashes() {
    for ok in [
        "pod1",
        "Lab Pod 1",
        "Ünïcode-Labor",
        "a",
        &"x".repeat(64),
        "mgmt.v30_a",
    ] {
        assert!(Name::parse(ok).is_ok(), "{ok}");
    }
    for bad in [
        "",
        " lead",
        "trail ",
        "a/b",
        "tab\there",
        "nl\n",
        &"x".repeat(65),
    ] {
        assert!(Name::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn org_dns() {
    for ok in ["org-root", "org-root/org-lab", "org-root/org-a/org-b-2"] {
        assert_eq!(OrgDn::parse(ok).unwrap().as_str(), ok);
    }
    assert_eq!(OrgDn::parse("lab").unwrap().as_str(), "org-root/org-lab");
    assert_eq!(OrgDn::parse("root").unwrap().as_str(), "org-root");
    for bad in [
        "",
        "a b",
        "org-root/",
        "org-root/lab",
        "org-root/org-",
        "org-root/org-x/ls-y",
        "x/org-y",
    ] {
        assert!(OrgDn::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn template_dns() {
    assert!(TemplateDn::parse("org-root/ls-centos").is_ok());
    assert!(TemplateDn::parse("org-root/org-lab/ls-c7").is_ok());
    for bad in [
        "ls-x",
        "org-root/x",
        "org-root/ls-",
        "root/ls-a",
        "org-root/org-/ls-a",
    ] {
        assert!(TemplateDn::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn ssh_keys() {
    let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJRsCR05CTCVLtFICOdFoTw56mQeLuHhOQNlJKwXUwaI alice@lab";
    assert!(SshPublicKey::parse(key).is_ok());
    assert!(SshPublicKey::parse("ssh-rsa AAAAnotbase64").is_err());
    assert!(SshPublicKey::parse("").is_err());
    assert!(SshPublicKey::parse(&format!("{key}\n{key}")).is_err());
}

#[test]
fn private_keys_are_named_and_never_echoed() {
    let private = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----";
    let err = SshPublicKey::parse(private).unwrap_err();
    assert!(err.contains("private key"), "{err}");
    assert!(!err.contains("b3Bl"), "{err}");
}
