use serde_json::json;

use super::*;

fn problems_of(f: impl FnOnce(&mut Check)) -> Vec<(String, String)> {
    let mut c = Check::default();
    f(&mut c);
    c.problems
        .into_iter()
        .map(|p| (p.field, p.message))
        .collect()
}

fn fields(problems: &[(String, String)]) -> Vec<&str> {
    problems.iter().map(|(f, _)| f.as_str()).collect()
}

fn link() -> Ipv4Link {
    Ipv4Link::of(
        &IpAddress::parse("192.0.2.1").unwrap(),
        &Netmask::parse("255.255.255.0").unwrap(),
        None,
    )
}

#[test]
fn an_mtu_is_a_whole_number_of_bytes_from_576_to_9216() {
    for ok in [
        json!(576),
        json!(1500),
        json!(9000),
        json!(9216),
        json!("9000"),
    ] {
        let m = Mtu::parse(&ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
        assert_eq!(json!(m), json!(m.get()), "answered as a number");
    }
    for bad in [
        json!(575),
        json!(9217),
        json!(0),
        json!(-1),
        json!(1500.5),
        json!("jumbo"),
        json!(true),
    ] {
        let e = Mtu::parse(&bad).unwrap_err();
        assert!(
            e.contains("576 to 9216") && e.contains("leave mtu out"),
            "{bad}: {e}"
        );
    }
    let p = problems_of(|c| {
        assert_eq!(mtu(c, "mtu", None), Some(None));
        assert_eq!(mtu(c, "mtu", Some(&json!(null))), Some(None));
        assert_eq!(mtu(c, "mtu", Some(&json!(""))), Some(None));
        assert_eq!(mtu(c, "mtu", Some(&json!(100000))), None);
    });
    assert_eq!(fields(&p), ["mtu"]);
}

#[test]
fn bond_modes_and_their_options_are_linux_words() {
    let words: Vec<&str> = BondMode::ALL.iter().map(|m| m.as_str()).collect();
    assert_eq!(
        words,
        [
            "balance-rr",
            "active-backup",
            "balance-xor",
            "broadcast",
            "802.3ad",
            "balance-tlb",
            "balance-alb"
        ]
    );
    for m in BondMode::ALL {
        assert_eq!(json!(m), json!(m.as_str()), "serde says the same word");
    }
    for p in XmitHashPolicy::ALL {
        assert_eq!(json!(p), json!(p.as_str()));
    }
    assert_eq!(json!(LacpRate::Fast), json!("fast"));
    let e = BondMode::parse("lacp").unwrap_err();
    assert!(e.contains("802.3ad") && e.contains("active-backup"), "{e}");
}

#[test]
fn a_bond_takes_a_rate_only_with_lacp_and_a_hash_policy_only_where_the_mode_hashes() {
    let lacp = Bond::parse(
        &json!({"mode": "802.3ad", "lacp_rate": "fast", "xmit_hash_policy": "layer3+4"}),
        "bond",
    )
    .unwrap();
    assert_eq!(lacp.mode(), BondMode::Lacp);
    assert_eq!(lacp.lacp_rate(), Some(LacpRate::Fast));
    assert_eq!(
        json!(lacp),
        json!({"mode": "802.3ad", "lacp_rate": "fast", "xmit_hash_policy": "layer3+4"})
    );
    let backup = Bond::parse(&json!({"mode": "active-backup"}), "bond").unwrap();
    assert_eq!(
        json!(backup),
        json!({"mode": "active-backup"}),
        "absent options left out"
    );
    for mode in ["balance-xor", "balance-tlb", "balance-alb", "802.3ad"] {
        Bond::parse(
            &json!({"mode": mode, "xmit_hash_policy": "encap2+3"}),
            "bond",
        )
        .unwrap_or_else(|p| panic!("{mode}: {p:?}"));
    }

    for mode in [
        "balance-rr",
        "active-backup",
        "balance-xor",
        "broadcast",
        "balance-tlb",
        "balance-alb",
    ] {
        let p = Bond::parse(&json!({"mode": mode, "lacp_rate": "slow"}), "bond").unwrap_err();
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].field, "bond.lacp_rate");
        assert!(
            p[0].message
                .contains(&format!("mode {mode} has no LACP rate"))
                && p[0].message.contains("leave lacp_rate out"),
            "{}",
            p[0].message
        );
    }
    for mode in ["balance-rr", "active-backup", "broadcast"] {
        let p =
            Bond::parse(&json!({"mode": mode, "xmit_hash_policy": "layer2"}), "bond").unwrap_err();
        assert_eq!(p[0].field, "bond.xmit_hash_policy");
        assert!(
            p[0].message.contains("takes no hash policy"),
            "{}",
            p[0].message
        );
    }

    // Every problem at once, each under its key.
    let p = Bond::parse(
        &json!({"lacp_rate": "sometimes", "xmit_hash_policy": 3, "miimon": 100}),
        "bond",
    )
    .unwrap_err();
    let mut got: Vec<&str> = p.iter().map(|p| p.field.as_str()).collect();
    got.sort_unstable();
    assert_eq!(
        got,
        [
            "bond.lacp_rate",
            "bond.miimon",
            "bond.mode",
            "bond.xmit_hash_policy"
        ]
    );
    let mode = p.iter().find(|p| p.field == "bond.mode").unwrap();
    assert!(mode.message.starts_with("is required"), "{}", mode.message);
    let p = Bond::parse(&json!("802.3ad"), "bond").unwrap_err();
    assert_eq!(p[0].field, "bond");
    let p = problems_of(|c| {
        assert_eq!(bond(c, "bond", Some(&json!(null))), Some(None));
        assert_eq!(bond(c, "bond", Some(&json!({"mode": "lacp"}))), None);
    });
    assert_eq!(fields(&p), ["bond.mode"]);
    assert!(
        p[0].1.contains("'lacp' is not a bonding mode"),
        "{}",
        p[0].1
    );
}

#[test]
fn a_stored_bond_reads_back_and_a_broken_one_does_not() {
    let b: Bond = serde_json::from_str(r#"{"mode":"802.3ad","lacp_rate":"fast"}"#).unwrap();
    assert_eq!(b.lacp_rate(), Some(LacpRate::Fast));
    let e = serde_json::from_str::<Bond>(r#"{"mode":"active-backup","lacp_rate":"fast"}"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("bond.lacp_rate"), "{e}");
}

#[test]
fn routes_go_to_a_network_through_a_router_on_the_groups_subnet() {
    let sent = json!([
        {"to": "10.0.0.0/8", "via": "192.0.2.1"},
        {"to": "2001:db8:100::/48", "via": "fe80::1"},
        {"to": "198.51.100.0/24", "via": "192.0.2.254"},
    ]);
    let mut c = Check::default();
    let got = routes(&mut c, "routes", Some(&sent), &link()).unwrap();
    assert!(c.problems.is_empty(), "{:?}", c.problems);
    assert_eq!(json!(got), sent, "answered as sent");
    assert_eq!(got[0].via(), "192.0.2.1".parse::<IpAddr>().unwrap());

    let p = problems_of(|c| {
        assert_eq!(routes(c, "routes", None, &link()), Some(vec![]));
        assert_eq!(
            routes(c, "routes", Some(&json!(null)), &link()),
            Some(vec![])
        );
        assert_eq!(routes(c, "routes", Some(&json!([])), &link()), Some(vec![]));
    });
    assert!(p.is_empty());
}

#[test]
fn every_bad_route_is_named_by_its_place_and_says_what_to_do() {
    let sent = json!([
        {"to": "10.0.0.1/8", "via": "192.0.2.1"},
        {"to": "172.16.0.0/12", "via": "2001:db8::1"},
        {"to": "172.17.0.0/16", "via": "198.51.100.1"},
        {"to": "10.0.0.0/8", "via": "192.0.2.1"},
        {"to": "10.0.0.0/8", "via": "192.0.2.2"},
        {"to": "0.0.0.0/0", "via": "192.0.2.1"},
        {"to": "192.168.0.0/16"},
        {"to": "192.168.1.0/24", "via": "192.0.2.1", "metric": 100},
        "10.1.0.0/16 via 192.0.2.1",
        {"to": "not-a-net", "via": "192.0.2.300"},
    ]);
    let p = problems_of(|c| {
        assert_eq!(routes(c, "routes", Some(&sent), &link()), None);
    });
    let by = |f: &str| {
        p.iter()
            .find(|(field, _)| field == f)
            .map(|(_, m)| m.as_str())
            .unwrap_or_else(|| panic!("no problem on {f}: {p:#?}"))
    };
    assert!(
        by("routes[0].to").contains("host bits set") && by("routes[0].to").contains("10.0.0.0/8")
    );
    assert!(by("routes[1].via").contains("IPv6 address but 172.16.0.0/12 is an IPv4 network"));
    assert!(by("routes[2].via").contains("not in the group's subnet 192.0.2.0/24"));
    assert!(by("routes[4].to").contains("already routed by routes[3]"));
    assert!(
        by("routes[5].to").contains("default route") && by("routes[5].to").contains("set gateway")
    );
    assert!(by("routes[6].via").starts_with("is required"));
    assert!(by("routes[7].metric").contains("not part of a route"));
    assert!(by("routes[8]").contains("must be an object"));
    assert!(by("routes[9].to").contains("not a subnet"));
    assert!(by("routes[9].via").contains("not a valid IPv4 or IPv6 address"));
    // routes[3] itself is sound: the first to name 10.0.0.0/8 keeps it.
    assert!(!fields(&p).contains(&"routes[3].to"), "{p:#?}");

    let many: Vec<Value> = (0..65)
        .map(|i| json!({"to": format!("10.{i}.0.0/16"), "via": "192.0.2.1"}))
        .collect();
    let p = problems_of(|c| {
        routes(c, "routes", Some(&Value::Array(many)), &link());
    });
    assert_eq!(fields(&p), ["routes"]);
    assert!(p[0].1.contains("at most 64"), "{}", p[0].1);

    let p = problems_of(|c| {
        routes(c, "routes", Some(&json!({"to": "10.0.0.0/8"})), &link());
    });
    assert_eq!(fields(&p), ["routes"]);
}

#[test]
fn the_ipv4_link_is_the_named_subnet_else_the_gateways_network_and_none_for_an_ipv6_gateway() {
    let gw = IpAddress::parse("192.0.2.1").unwrap();
    assert_eq!(
        Ipv4Link::of(&gw, &Netmask::parse("24").unwrap(), None),
        Ipv4Link::Subnet(Subnet::parse("192.0.2.0/24").unwrap())
    );
    let named = Subnet::parse("192.0.2.0/25").unwrap();
    assert_eq!(
        Ipv4Link::of(&gw, &Netmask::parse("24").unwrap(), Some(named)),
        Ipv4Link::Subnet(named)
    );
    let v6 = Ipv4Link::of(
        &IpAddress::parse("2001:db8::1").unwrap(),
        &Netmask::parse("64").unwrap(),
        None,
    );
    assert_eq!(v6, Ipv4Link::None);
    let p = problems_of(|c| {
        routes(
            c,
            "routes",
            Some(&json!([{"to": "10.0.0.0/8", "via": "192.0.2.1"}])),
            &v6,
        );
    });
    assert_eq!(fields(&p), ["routes[0].via"]);
    assert!(p[0].1.contains("gateway is IPv6"), "{}", p[0].1);
    // Not known (the group's own fields are bad): the router is not checked against it.
    let p = problems_of(|c| {
        routes(
            c,
            "routes",
            Some(&json!([{"to": "10.0.0.0/8", "via": "203.0.113.1"}])),
            &Ipv4Link::Unknown,
        );
    });
    assert!(p.is_empty());
}

#[test]
fn macs_are_read_in_three_forms_and_answered_lower_case_with_colons() {
    for s in [
        "aa:bb:cc:dd:ee:f0",
        "AA-BB-CC-DD-EE-F0",
        "aabb.ccdd.eef0",
        " AA:bb:CC:dd:EE:f0 ",
    ] {
        let m = MacAddress::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(m.to_string(), "aa:bb:cc:dd:ee:f0");
        assert_eq!(json!(m), json!("aa:bb:cc:dd:ee:f0"));
    }
    for bad in [
        "aa:bb:cc:dd:ee",
        "aa:bb:cc:dd:ee:ff:00",
        "aabbccddeeff",
        "aa:bb-cc:dd:ee:f0",
        "gg:bb:cc:dd:ee:f0",
        "a:bb:cc:dd:ee:f0",
        "",
    ] {
        let e = MacAddress::parse(bad).unwrap_err();
        assert!(e.contains("aa:bb:cc:dd:ee:ff"), "{bad}: {e}");
    }
    assert!(MacAddress::parse("ff:ff:ff:ff:ff:ff")
        .unwrap_err()
        .contains("broadcast"));
    assert!(MacAddress::parse("01:00:5e:00:00:01")
        .unwrap_err()
        .contains("multicast"));
    assert!(MacAddress::parse("00:00:00:00:00:00")
        .unwrap_err()
        .contains("all zero"));
    // A locally administered address (a VM's, a vNIC's) is a NIC's all the same.
    MacAddress::parse("02:00:00:00:00:01").unwrap();
}

#[test]
fn a_hosts_macs_are_at_most_eight_each_once_each_problem_at_its_place() {
    let mut c = Check::default();
    let got = macs(
        &mut c,
        "macs",
        Some(&json!(["AA-BB-CC-DD-EE-01", "aabb.ccdd.ee02"])),
    )
    .unwrap();
    assert!(c.problems.is_empty());
    assert_eq!(
        json!(got),
        json!(["aa:bb:cc:dd:ee:01", "aa:bb:cc:dd:ee:02"])
    );

    let p = problems_of(|c| {
        let sent = json!([
            "aa:bb:cc:dd:ee:01",
            "AA:BB:CC:DD:EE:01",
            "ff:ff:ff:ff:ff:ff",
            7
        ]);
        assert_eq!(macs(c, "macs", Some(&sent)), None);
    });
    assert_eq!(fields(&p), ["macs[1]", "macs[2]", "macs[3]"]);
    assert!(
        p[0].1.contains("already macs[0]") && p[0].1.contains("name each NIC once"),
        "{}",
        p[0].1
    );

    let nine: Vec<String> = (1..=9).map(|i| format!("02:00:00:00:00:0{i}")).collect();
    let p = problems_of(|c| {
        macs(c, "macs", Some(&json!(nine)));
    });
    assert_eq!(fields(&p), ["macs"]);
    assert!(p[0].1.contains("at most 8"), "{}", p[0].1);
    let p = problems_of(|c| {
        macs(c, "macs", Some(&json!("aa:bb:cc:dd:ee:01")));
    });
    assert_eq!(fields(&p), ["macs"]);
    assert!(p[0].1.contains("must be a list"), "{}", p[0].1);
    let p = problems_of(|c| {
        assert_eq!(macs(c, "macs", None), Some(vec![]));
        assert_eq!(macs(c, "macs", Some(&json!(null))), Some(vec![]));
    });
    assert!(p.is_empty());
}

#[test]
fn a_hosts_ipv6_is_a_unicast_address_with_its_prefix() {
    let i = Ipv6Interface::parse("2001:db8::10/64").unwrap();
    assert_eq!(i.to_string(), "2001:db8::10/64");
    assert_eq!(
        i.network(),
        "2001:db8::".parse::<std::net::Ipv6Addr>().unwrap()
    );
    assert!(i.contains(&"2001:db8::1".parse().unwrap()));
    assert!(!i.contains(&"2001:db8:1::1".parse().unwrap()));
    Ipv6Interface::parse("2001:db8::/127").unwrap();
    Ipv6Interface::parse("2001:DB8:0:0::10/64")
        .map(|i| assert_eq!(i.to_string(), "2001:db8::10/64"))
        .unwrap();
    for (bad, says) in [
        ("2001:db8::10", "no prefix length"),
        ("192.0.2.10/24", "IPv4 address"),
        ("192.0.2.10", "IPv4 address"),
        ("2001:db8::10/129", "1 to 128"),
        ("2001:db8::10/0", "1 to 128"),
        ("2001:db8::/64", "network's own address"),
        ("ff02::1/64", "multicast"),
        ("::1/128", "loopback"),
        ("::/64", "unspecified"),
        ("::ffff:192.0.2.1/96", "IPv4 address written as IPv6"),
        ("2001:db8::zz/64", "address/prefix"),
    ] {
        let e = Ipv6Interface::parse(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

#[test]
fn an_ipv6_gateway_is_a_unicast_address_and_link_local_is_taken() {
    let ll = Ipv6Gateway::parse("fe80::1").unwrap();
    assert!(ll.is_link_local());
    let global = Ipv6Gateway::parse("2001:db8::1").unwrap();
    assert!(!global.is_link_local());
    for (bad, says) in [
        ("192.0.2.1", "IPv4 address"),
        ("2001:db8::1/64", "has a prefix"),
        ("ff02::2", "multicast"),
        ("::", "unspecified"),
        ("gateway", "not an IPv6 address"),
    ] {
        let e = Ipv6Gateway::parse(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

#[test]
fn a_hosts_ipv6_must_reach_its_networks_global_gateway() {
    let host = Ipv6Interface::parse("2001:db8::10/64").unwrap();
    let inside = Ipv6Gateway::parse("2001:db8::1").unwrap();
    let outside = Ipv6Gateway::parse("2001:db8:1::1").unwrap();
    let ll = Ipv6Gateway::parse("fe80::1").unwrap();
    assert_eq!(addresses::gateway_misfit(&host, &inside, "mgmt"), None);
    assert_eq!(
        addresses::gateway_misfit(&host, &ll, "mgmt"),
        None,
        "a link-local router is on every link"
    );
    let why = addresses::gateway_misfit(&host, &outside, "mgmt").unwrap();
    assert!(
        why.contains("network mgmt's IPv6 gateway 2001:db8:1::1 is not in 2001:db8::/64")
            && why.contains("change the group's ipv6_gateway"),
        "{why}"
    );
    let same = Ipv6Interface::parse("2001:db8::1/64").unwrap();
    assert!(addresses::gateway_misfit(&same, &inside, "mgmt")
        .unwrap()
        .contains("is network mgmt's IPv6 gateway"));
}
