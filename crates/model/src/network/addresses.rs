//! The addresses a host's network names beyond the seed's one IP: a NIC's MAC address, a
//! host's IPv6 address with its prefix, and a network's IPv6 gateway.

use std::fmt;
use std::net::{IpAddr, Ipv6Addr};
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{RefOr, Schema};
use utoipa::ToSchema;

use crate::types::shorten;
use crate::validate::Check;

/// The most MACs a host may name: more NICs than any bond of a server takes.
pub const MAX_MACS: usize = 8;

/// A NIC's MAC address: six octets of a unicast address that is not all zero. Read in the
/// three ways vendors print it (`aa:bb:cc:dd:ee:ff`, `AA-BB-CC-DD-EE-FF`, `aabb.ccdd.eeff`),
/// always written in lower case with colons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MacAddress([u8; 6]);

impl MacAddress {
    /// Parse a MAC address in any of its three common forms.
    pub fn parse(s: &str) -> Result<Self, String> {
        let form = || {
            format!(
                "'{}' is not a MAC address: give six two-digit hex octets, like aa:bb:cc:dd:ee:ff (aa-bb-cc-dd-ee-ff and aabb.ccdd.eeff are read too)",
                shorten(s)
            )
        };
        let t = s.trim();
        let digits: String = if t.contains(':') || t.contains('-') {
            let sep = if t.contains(':') { ':' } else { '-' };
            let parts: Vec<&str> = t.split(sep).collect();
            if parts.len() != 6 || parts.iter().any(|p| p.len() != 2) {
                return Err(form());
            }
            parts.concat()
        } else if t.contains('.') {
            let parts: Vec<&str> = t.split('.').collect();
            if parts.len() != 3 || parts.iter().any(|p| p.len() != 4) {
                return Err(form());
            }
            parts.concat()
        } else {
            return Err(form());
        };
        if digits.len() != 12 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(form());
        }
        let mut octets = [0u8; 6];
        for (i, o) in octets.iter_mut().enumerate() {
            *o = u8::from_str_radix(&digits[2 * i..2 * i + 2], 16).map_err(|_| form())?;
        }
        let mac = MacAddress(octets);
        if octets == [0xff; 6] {
            Err(format!(
                "{mac} is the broadcast address, not a NIC's; give the MAC printed on the NIC or in its server's inventory"
            ))
        } else if octets[0] & 1 == 1 {
            // The group bit: a multicast address is shared by many receivers, never one NIC's.
            Err(format!(
                "{mac} is a multicast address (its first octet is odd), not a NIC's; give the NIC's own MAC"
            ))
        } else if octets == [0; 6] {
            Err(format!(
                "{mac} is all zero, which no NIC has; give the NIC's own MAC"
            ))
        } else {
            Ok(mac)
        }
    }

    /// The six octets.
    pub fn octets(&self) -> [u8; 6] {
        self.0
    }
}

impl fmt::Display for MacAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = self.0;
        write!(
            f,
            "{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}",
            o[0], o[1], o[2], o[3], o[4], o[5]
        )
    }
}

impl Serialize for MacAddress {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for MacAddress {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        MacAddress::parse(&s).map_err(serde::de::Error::custom)
    }
}

impl utoipa::PartialSchema for MacAddress {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(crate::schema::MAC))
            .description(Some(
                "A NIC's MAC address, answered in lower case with colons, like aa:bb:cc:dd:ee:ff (sent also as AA-BB-CC-DD-EE-FF or aabb.ccdd.eeff); never multicast, broadcast or all zero",
            ))
            .into()
    }
}

impl ToSchema for MacAddress {}

/// Read a host's `macs` into `c`: `Some(list)` (empty when absent, null or `[]`), `None`
/// when a problem was noted. Each MAC's problem is named by its place (`macs[1]`).
pub fn macs(c: &mut Check, field: &str, value: Option<&Value>) -> Option<Vec<MacAddress>> {
    let before = c.problems.len();
    let items = c.list(
        field,
        value,
        "must be a list of MAC addresses, like [\"aa:bb:cc:dd:ee:ff\"]: one for the NIC to install over, two or more for the network's bond",
        MAX_MACS,
        |n| format!("names {n} NICs; a host takes at most {MAX_MACS}: give the ones its install uses"),
    )?;
    let mut out: Vec<MacAddress> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("{field}[{i}]");
        let Value::String(s) = item else {
            c.fail(
                &at,
                "must be a MAC address as a string, like \"aa:bb:cc:dd:ee:ff\"",
            );
            continue;
        };
        match MacAddress::parse(s) {
            Err(m) => c.fail(&at, m),
            Ok(mac) => match out.iter().position(|m| *m == mac) {
                Some(first) => c.fail(
                    &at,
                    format!("{mac} is already {field}[{first}]; name each NIC once"),
                ),
                None => out.push(mac),
            },
        }
    }
    (c.problems.len() == before).then_some(out)
}

/// Why an IPv6 address cannot be a host's or a gateway's, if it cannot.
fn not_unicast(a: &Ipv6Addr) -> Option<&'static str> {
    if a.is_unspecified() {
        Some("is the unspecified address (::)")
    } else if a.is_loopback() {
        Some("is the loopback address (::1)")
    } else if a.is_multicast() {
        Some("is a multicast address (ff00::/8)")
    } else if a.to_ipv4_mapped().is_some() {
        Some("is an IPv4 address written as IPv6 (::ffff:…)")
    } else {
        None
    }
}

/// A host's static IPv6 address with the prefix length of its network
/// (`2001:db8::10/64`): a unicast address that is not the prefix's own network address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ipv6Interface {
    addr: Ipv6Addr,
    prefix: u8,
}

impl Ipv6Interface {
    /// Parse `address/prefix`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let t = s.trim();
        let form = || {
            format!(
                "'{}' is not an IPv6 address with its prefix: give it as address/prefix, like 2001:db8::10/64",
                shorten(s)
            )
        };
        let Some((addr, prefix)) = t.split_once('/') else {
            return match IpAddr::from_str(t) {
                Ok(IpAddr::V6(_)) => Err(format!(
                    "'{t}' has no prefix length: give the network's too, like {t}/64"
                )),
                Ok(IpAddr::V4(_)) => Err(format!(
                    "'{t}' is an IPv4 address; ipv6 takes an IPv6 one like 2001:db8::10/64 (the IPv4 address is ip)"
                )),
                Err(_) => Err(form()),
            };
        };
        let addr = match IpAddr::from_str(addr) {
            Ok(IpAddr::V6(a)) => a,
            Ok(IpAddr::V4(_)) => {
                return Err(format!(
                    "'{}' is an IPv4 address; ipv6 takes an IPv6 one like 2001:db8::10/64 (the IPv4 address is ip)",
                    shorten(t)
                ))
            }
            Err(_) => return Err(form()),
        };
        let prefix = match prefix.parse::<u8>() {
            Ok(p) if (1..=128).contains(&p) && !prefix.starts_with('+') => p,
            _ => {
                return Err(format!(
                "'{}' has no valid prefix length: use 1 to 128 after the / (64 on most networks)",
                shorten(t)
            ))
            }
        };
        if let Some(why) = not_unicast(&addr) {
            return Err(format!("{addr} {why}, not a host's address"));
        }
        let iface = Ipv6Interface { addr, prefix };
        // On /127 and /128 every address is a host's (RFC 6164); below, the first is the
        // subnet-router anycast address, which routers answer, not hosts.
        if prefix < 127 && iface.network() == addr {
            return Err(format!(
                "{addr}/{prefix} is the network's own address (its subnet-router anycast address); give the host's address in it, like {}/{prefix}",
                Ipv6Addr::from(u128::from(addr) | 0x10)
            ));
        }
        Ok(iface)
    }

    /// The address.
    pub fn addr(&self) -> Ipv6Addr {
        self.addr
    }

    /// The prefix length.
    pub fn prefix_len(&self) -> u8 {
        self.prefix
    }

    fn mask(&self) -> u128 {
        u128::MAX
            .checked_shl(128 - u32::from(self.prefix))
            .unwrap_or(0)
    }

    /// The network the address lies in, with host bits cleared.
    pub fn network(&self) -> Ipv6Addr {
        Ipv6Addr::from(u128::from(self.addr) & self.mask())
    }

    /// Whether `other` lies in the same prefix.
    pub fn contains(&self, other: &Ipv6Addr) -> bool {
        u128::from(*other) & self.mask() == u128::from(self.addr) & self.mask()
    }
}

impl fmt::Display for Ipv6Interface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

impl Serialize for Ipv6Interface {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Ipv6Interface {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ipv6Interface::parse(&s).map_err(serde::de::Error::custom)
    }
}

impl utoipa::PartialSchema for Ipv6Interface {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(crate::schema::IPV6_PREFIXED))
            .description(Some(
                "A static IPv6 address with its network's prefix length, like 2001:db8::10/64",
            ))
            .into()
    }
}

impl ToSchema for Ipv6Interface {}

/// A network's IPv6 default gateway: a unicast address. A link-local one (`fe80::1`) is the
/// usual IPv6 router address and is taken: it is reached on the link whatever the hosts'
/// global prefix is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ipv6Gateway(Ipv6Addr);

impl Ipv6Gateway {
    /// Parse an IPv6 gateway address.
    pub fn parse(s: &str) -> Result<Self, String> {
        let t = s.trim();
        match IpAddr::from_str(t) {
            Ok(IpAddr::V6(a)) => match not_unicast(&a) {
                Some(why) => Err(format!("{a} {why}, not a router's address")),
                None => Ok(Ipv6Gateway(a)),
            },
            Ok(IpAddr::V4(_)) => Err(format!(
                "'{t}' is an IPv4 address; ipv6_gateway takes the IPv6 router's address, like 2001:db8::1 or fe80::1 (the IPv4 one is gateway)"
            )),
            Err(_) if t.contains('/') => Err(format!(
                "'{}' has a prefix; give the gateway's address alone, like 2001:db8::1",
                shorten(t)
            )),
            Err(_) => Err(format!(
                "'{}' is not an IPv6 address: give the router's, like 2001:db8::1 or fe80::1",
                shorten(t)
            )),
        }
    }

    /// The address.
    pub fn addr(&self) -> Ipv6Addr {
        self.0
    }

    /// Whether it is a link-local address (fe80::/10), reached on the link whatever the
    /// hosts' prefix.
    pub fn is_link_local(&self) -> bool {
        self.0.segments()[0] & 0xffc0 == 0xfe80
    }
}

impl fmt::Display for Ipv6Gateway {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Serialize for Ipv6Gateway {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Ipv6Gateway {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ipv6Gateway::parse(&s).map_err(serde::de::Error::custom)
    }
}

impl utoipa::PartialSchema for Ipv6Gateway {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(utoipa::openapi::schema::SchemaFormat::Custom(
                "ipv6".into(),
            )))
            .description(Some(
                "The IPv6 default gateway, like 2001:db8::1; a link-local one like fe80::1 is taken",
            ))
            .into()
    }
}

impl ToSchema for Ipv6Gateway {}

/// Why a host's `ipv6` does not fit its network's IPv6 gateway, if it does not: the gateway
/// is the host's own address, or a global gateway lies outside the host's prefix (the host
/// could not reach it). A link-local gateway always fits.
pub fn gateway_misfit(
    host: &Ipv6Interface,
    gateway: &Ipv6Gateway,
    network: &str,
) -> Option<String> {
    if host.addr() == gateway.addr() {
        Some(format!(
            "{} is network {network}'s IPv6 gateway; give the host another address",
            host.addr()
        ))
    } else if !gateway.is_link_local() && !host.contains(&gateway.addr()) {
        Some(format!(
            "network {network}'s IPv6 gateway {gateway} is not in {}/{} (the prefix of {host}), so the host could not reach it; give an address in the gateway's prefix, or change the group's ipv6_gateway",
            host.network(),
            host.prefix_len()
        ))
    } else {
        None
    }
}
