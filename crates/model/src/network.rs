//! A network group's settings beyond the seed's one gateway (issue 29): the MTU, a bond of
//! the host's NICs, static routes and an IPv6 gateway; and what a host names of its own
//! network (`addresses`: its NICs' MACs and its IPv6 address). Values only, each read from
//! JSON with every problem noted under its path (`bond.lacp_rate`, `routes[2].via`), so one
//! request hears of every bad field at once. The answer files that use them live above.

pub mod addresses;

use std::fmt;
use std::net::IpAddr;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{RefOr, Schema};
use utoipa::ToSchema;

use crate::error::Problem;
use crate::types::{shorten, IpAddress, Netmask, Subnet};
use crate::validate::Check;

pub use addresses::{gateway_misfit, macs, Ipv6Gateway, Ipv6Interface, MacAddress, MAX_MACS};

/// The least MTU: what every IPv4 host must take (RFC 791).
pub const MTU_MIN: u16 = 576;
/// The largest MTU: the jumbo frame most switches (UCS fabric interconnects among them) carry.
pub const MTU_MAX: u16 = 9216;
/// The most static routes a network group holds.
pub const MAX_ROUTES: usize = 64;

/// The MTU of a network's interfaces, in bytes: 576–9216.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct Mtu(u16);

impl Mtu {
    /// Check an MTU given as a JSON number (or a string of digits, as forms send).
    pub fn parse(v: &Value) -> Result<Self, String> {
        let n = match v {
            Value::Number(n) => n.as_u64(),
            Value::String(s) if !s.trim().is_empty() => s.trim().parse::<u64>().ok(),
            _ => None,
        };
        match n {
            Some(n) if (u64::from(MTU_MIN)..=u64::from(MTU_MAX)).contains(&n) => {
                Ok(Mtu(n as u16))
            }
            _ => Err(format!(
                "{} is not an MTU: give a whole number of bytes from {MTU_MIN} to {MTU_MAX} (1500 is Ethernet's usual, 9000 a jumbo frame), or leave mtu out to keep the NIC's",
                shorten(&v.to_string())
            )),
        }
    }

    /// The MTU in bytes.
    pub fn get(self) -> u16 {
        self.0
    }
}

impl<'de> Deserialize<'de> for Mtu {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Mtu::parse(&Value::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

impl utoipa::PartialSchema for Mtu {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(f64::from(MTU_MIN)))
            .maximum(Some(f64::from(MTU_MAX)))
            .description(Some(
                "The MTU of the host's interfaces in bytes (1500 Ethernet's usual, 9000 a jumbo frame); left out: the NIC's own",
            ))
            .into()
    }
}

impl ToSchema for Mtu {}

/// Read an optional `mtu` into `c`: `Some(None)` when absent, null or blank.
pub fn mtu(c: &mut Check, field: &str, value: Option<&Value>) -> Option<Option<Mtu>> {
    match value {
        None | Some(Value::Null) => Some(None),
        Some(Value::String(s)) if s.trim().is_empty() => Some(None),
        Some(v) => match Mtu::parse(v) {
            Ok(m) => Some(Some(m)),
            Err(m) => {
                c.fail(field, m);
                None
            }
        },
    }
}

/// Implements `as_str`, `parse` (naming every word on a miss), Display and the wire form of
/// an enum of fixed words.
macro_rules! words {
    ($ty:ident, $what:literal, { $($variant:ident = $wire:literal,)* }) => {
        impl $ty {
            /// Every value, in the order the documentation lists them.
            pub const ALL: &[$ty] = &[$($ty::$variant,)*];

            /// The word on the wire (and in Linux's bonding options).
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $wire,)*
                }
            }

            /// The value of a word, or a sentence naming every word there is.
            pub fn parse(s: &str) -> Result<Self, String> {
                let t = s.trim();
                $ty::ALL.iter().copied().find(|v| v.as_str() == t).ok_or_else(|| {
                    let all: Vec<&str> = $ty::ALL.iter().map(|v| v.as_str()).collect();
                    format!("'{}' is not {}; use one of {}", shorten(t), $what, all.join(", "))
                })
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

/// A Linux bonding mode: how a bond spreads traffic over its NICs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
pub enum BondMode {
    /// Round robin over every NIC.
    #[serde(rename = "balance-rr")]
    BalanceRr,
    /// One NIC carries traffic, another takes over when its link drops; needs nothing of the switch.
    #[serde(rename = "active-backup")]
    ActiveBackup,
    /// A NIC chosen by a hash of each packet's addresses.
    #[serde(rename = "balance-xor")]
    BalanceXor,
    /// Every packet on every NIC.
    #[serde(rename = "broadcast")]
    Broadcast,
    /// IEEE 802.3ad link aggregation (LACP): the switch ports must form a port channel.
    #[serde(rename = "802.3ad")]
    Lacp,
    /// Adaptive transmit load balancing.
    #[serde(rename = "balance-tlb")]
    BalanceTlb,
    /// Adaptive load balancing, both directions.
    #[serde(rename = "balance-alb")]
    BalanceAlb,
}

words!(BondMode, "a bonding mode", {
    BalanceRr = "balance-rr",
    ActiveBackup = "active-backup",
    BalanceXor = "balance-xor",
    Broadcast = "broadcast",
    Lacp = "802.3ad",
    BalanceTlb = "balance-tlb",
    BalanceAlb = "balance-alb",
});

impl BondMode {
    /// Whether the mode negotiates with the switch (LACP), so a rate of its messages applies.
    pub fn takes_lacp_rate(self) -> bool {
        self == BondMode::Lacp
    }

    /// Whether the mode picks a NIC by hashing, so a hash policy applies.
    pub fn takes_hash_policy(self) -> bool {
        matches!(
            self,
            BondMode::Lacp | BondMode::BalanceXor | BondMode::BalanceTlb | BondMode::BalanceAlb
        )
    }
}

/// How often an 802.3ad bond asks its partner for LACP messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum LacpRate {
    /// Every 30 seconds (the kernel's default).
    Slow,
    /// Every second: a failed link is noticed in 3 seconds instead of 90.
    Fast,
}

words!(LacpRate, "an LACP rate", {
    Slow = "slow",
    Fast = "fast",
});

/// What a hashing bond hashes to choose each packet's NIC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
pub enum XmitHashPolicy {
    /// The MAC addresses (the kernel's default).
    #[serde(rename = "layer2")]
    Layer2,
    /// MAC and IP addresses.
    #[serde(rename = "layer2+3")]
    Layer2And3,
    /// IP addresses and ports.
    #[serde(rename = "layer3+4")]
    Layer3And4,
    /// MAC and IP addresses of the inner packet of a tunnel.
    #[serde(rename = "encap2+3")]
    Encap2And3,
    /// IP addresses and ports of the inner packet of a tunnel.
    #[serde(rename = "encap3+4")]
    Encap3And4,
}

words!(XmitHashPolicy, "a transmit hash policy", {
    Layer2 = "layer2",
    Layer2And3 = "layer2+3",
    Layer3And4 = "layer3+4",
    Encap2And3 = "encap2+3",
    Encap3And4 = "encap3+4",
});

/// The bond a network's hosts make of their NICs: an LACP rate only for 802.3ad, a hash
/// policy only for the modes that hash (what `Bond::parse` lets through, the only way to
/// make one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, ToSchema)]
pub struct Bond {
    /// The bonding mode.
    mode: BondMode,
    /// How often LACP messages are asked for (802.3ad only); left out: slow.
    #[serde(skip_serializing_if = "Option::is_none")]
    lacp_rate: Option<LacpRate>,
    /// What is hashed to pick a NIC (802.3ad, balance-xor, balance-tlb and balance-alb only);
    /// left out: layer2.
    #[serde(skip_serializing_if = "Option::is_none")]
    xmit_hash_policy: Option<XmitHashPolicy>,
}

/// The keys of a bond.
const BOND_KEYS: [&str; 3] = ["mode", "lacp_rate", "xmit_hash_policy"];

impl Bond {
    /// The bonding mode.
    pub fn mode(&self) -> BondMode {
        self.mode
    }
    /// The LACP rate, when given (802.3ad only).
    pub fn lacp_rate(&self) -> Option<LacpRate> {
        self.lacp_rate
    }
    /// The transmit hash policy, when given.
    pub fn xmit_hash_policy(&self) -> Option<XmitHashPolicy> {
        self.xmit_hash_policy
    }

    /// Read a bond from JSON, every problem at once, each named after its key under `field`
    /// (`bond.lacp_rate`).
    pub fn parse(value: &Value, field: &str) -> Result<Self, Vec<Problem>> {
        let mut c = Check::default();
        let Value::Object(map) = value else {
            c.fail(
                field,
                "must be an object like {\"mode\": \"802.3ad\", \"lacp_rate\": \"fast\"}, or null for no bond",
            );
            return Err(c.problems);
        };
        for key in map.keys().filter(|k| !BOND_KEYS.contains(&k.as_str())) {
            c.fail(
                &format!("{field}.{key}"),
                format!("is not a bond setting; use {}", BOND_KEYS.join(", ")),
            );
        }
        let mode = word(&mut c, map, field, "mode", BondMode::parse);
        let lacp_rate = word(&mut c, map, field, "lacp_rate", LacpRate::parse);
        let xmit_hash_policy = word(
            &mut c,
            map,
            field,
            "xmit_hash_policy",
            XmitHashPolicy::parse,
        );
        if !map.contains_key("mode") || map.get("mode") == Some(&Value::Null) {
            let all: Vec<&str> = BondMode::ALL.iter().map(|m| m.as_str()).collect();
            c.fail(
                &format!("{field}.mode"),
                format!(
                    "is required: say how the bond spreads traffic, one of {} (active-backup needs nothing of the switch; 802.3ad needs a port channel on it)",
                    all.join(", ")
                ),
            );
        }
        if let Some(mode) = mode {
            if lacp_rate.is_some() && !mode.takes_lacp_rate() {
                c.fail(
                    &format!("{field}.lacp_rate"),
                    format!(
                        "only an 802.3ad bond talks LACP with the switch, so mode {mode} has no LACP rate; leave lacp_rate out, or use mode 802.3ad"
                    ),
                );
            }
            if xmit_hash_policy.is_some() && !mode.takes_hash_policy() {
                c.fail(
                    &format!("{field}.xmit_hash_policy"),
                    format!(
                        "mode {mode} does not hash packets to choose a NIC, so it takes no hash policy; leave xmit_hash_policy out, or use mode 802.3ad, balance-xor, balance-tlb or balance-alb"
                    ),
                );
            }
        }
        match mode {
            Some(mode) if c.problems.is_empty() => Ok(Bond {
                mode,
                lacp_rate,
                xmit_hash_policy,
            }),
            _ => Err(c.problems),
        }
    }
}

/// The word under `key` of a bond, parsed; null or absent is none.
fn word<T>(
    c: &mut Check,
    map: &serde_json::Map<String, Value>,
    field: &str,
    key: &str,
    parse: fn(&str) -> Result<T, String>,
) -> Option<T> {
    let at = format!("{field}.{key}");
    match map.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => match parse(s) {
            Ok(w) => Some(w),
            Err(m) => {
                c.fail(&at, m);
                None
            }
        },
        Some(_) => {
            c.fail(&at, "must be a string");
            None
        }
    }
}

impl<'de> Deserialize<'de> for Bond {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Bond::parse(&Value::deserialize(d)?, "bond").map_err(joined)
    }
}

/// Problems as one sentence, for a value read back that no longer passes.
fn joined<E: serde::de::Error>(problems: Vec<Problem>) -> E {
    let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
    E::custom(list.join("; "))
}

/// Read an optional `bond` into `c`: `Some(None)` when absent or null.
pub fn bond(c: &mut Check, field: &str, value: Option<&Value>) -> Option<Option<Bond>> {
    match value {
        None | Some(Value::Null) => Some(None),
        Some(v) => match Bond::parse(v, field) {
            Ok(b) => Some(Some(b)),
            Err(p) => {
                c.problems.extend(p);
                None
            }
        },
    }
}

/// A static route: traffic to the network `to` goes through the router `via`, an address of
/// the same IP version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub struct Route {
    /// The destination network in CIDR form, host bits zero, like 10.0.0.0/8.
    #[schema(value_type = String)]
    to: Subnet,
    /// The router to send it to, like 192.0.2.1: in the group's IPv4 subnet for an IPv4 route.
    #[schema(value_type = String)]
    via: IpAddress,
}

impl Route {
    /// The destination network.
    pub fn to(&self) -> Subnet {
        self.to
    }
    /// The router.
    pub fn via(&self) -> IpAddr {
        self.via.0
    }
}

impl<'de> Deserialize<'de> for Route {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        let mut c = Check::default();
        let route = route(&mut c, "route", &v, &Ipv4Link::Unknown);
        match route {
            Some(r) if c.problems.is_empty() => Ok(r),
            _ => Err(joined(c.problems)),
        }
    }
}

/// What a network group says of its hosts' IPv4 link, against which a route's IPv4 router is
/// checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ipv4Link {
    /// Not known (the group's gateway or netmask has problems of its own): not checked.
    Unknown,
    /// The group's gateway is IPv6: no IPv4 router can be reached.
    None,
    /// The IPv4 subnet the hosts are on: a router must lie in it.
    Subnet(Subnet),
}

impl Ipv4Link {
    /// The link of a group: its `subnet` when it names one, else its gateway's network under
    /// its netmask.
    pub fn of(gateway: &IpAddress, netmask: &Netmask, subnet: Option<Subnet>) -> Self {
        match (gateway.0, subnet) {
            (IpAddr::V4(_), Some(s)) => Ipv4Link::Subnet(s),
            (IpAddr::V4(_), None) => match Subnet::containing(gateway.0, netmask.prefix_len()) {
                Some(s) => Ipv4Link::Subnet(s),
                None => Ipv4Link::Unknown,
            },
            (IpAddr::V6(_), _) => Ipv4Link::None,
        }
    }
}

/// Read an optional `routes` list into `c`: `Some(list)` (empty when absent, null or `[]`),
/// `None` when a problem was noted. Each problem is named by its place (`routes[2].via`).
pub fn routes(
    c: &mut Check,
    field: &str,
    value: Option<&Value>,
    link: &Ipv4Link,
) -> Option<Vec<Route>> {
    let before = c.problems.len();
    let items = c.list(
        field,
        value,
        "must be a list of routes, like [{\"to\": \"10.0.0.0/8\", \"via\": \"192.0.2.1\"}]",
        MAX_ROUTES,
        |n| format!("holds {n} routes; a network group takes at most {MAX_ROUTES}: join neighbouring networks into a shorter prefix"),
    )?;
    // Each sound route with its place in the list, for naming the first of a duplicate.
    let mut out: Vec<(usize, Route)> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("{field}[{i}]");
        let Some(r) = route(c, &at, item, link) else {
            continue;
        };
        match out.iter().find(|(_, o)| o.to == r.to) {
            Some((first, _)) => c.fail(
                &format!("{at}.to"),
                format!(
                    "{} is already routed by {field}[{first}]; give each destination once",
                    r.to
                ),
            ),
            None => out.push((i, r)),
        }
    }
    (c.problems.len() == before).then(|| out.into_iter().map(|(_, r)| r).collect())
}

/// One route at `at`, its problems noted.
fn route(c: &mut Check, at: &str, item: &Value, link: &Ipv4Link) -> Option<Route> {
    let Value::Object(map) = item else {
        c.fail(
            at,
            "must be an object like {\"to\": \"10.0.0.0/8\", \"via\": \"192.0.2.1\"}",
        );
        return None;
    };
    for key in map.keys().filter(|k| !matches!(k.as_str(), "to" | "via")) {
        c.fail(
            &format!("{at}.{key}"),
            "is not part of a route; a route is its destination to and its router via",
        );
    }
    let text = |c: &mut Check, key: &str, example: &str| match map.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        None | Some(Value::Null) => {
            c.fail(
                &format!("{at}.{key}"),
                format!("is required, like {example}"),
            );
            None
        }
        Some(Value::String(_)) => {
            c.fail(
                &format!("{at}.{key}"),
                format!("is empty; give it, like {example}"),
            );
            None
        }
        Some(_) => {
            c.fail(
                &format!("{at}.{key}"),
                format!("must be a string, like {example}"),
            );
            None
        }
    };
    let to = text(c, "to", "\"10.0.0.0/8\"").and_then(|s| match Subnet::parse(&s) {
        Ok(net) if net.prefix_len() == 0 => {
            let gateway = if net.is_ipv4() {
                "gateway"
            } else {
                "ipv6_gateway"
            };
            c.fail(
                &format!("{at}.to"),
                format!("{net} is the default route, which the group's {gateway} already gives; set {gateway} instead"),
            );
            None
        }
        Ok(net) => Some(net),
        Err(m) => {
            c.fail(&format!("{at}.to"), m);
            None
        }
    });
    let via = text(c, "via", "\"192.0.2.1\"").and_then(|s| match IpAddress::parse(&s) {
        Ok(ip) => Some(ip),
        Err(m) => {
            c.fail(&format!("{at}.via"), m);
            None
        }
    });
    let (to, via) = (to?, via?);
    let family = |v4: bool| if v4 { "IPv4" } else { "IPv6" };
    if to.is_ipv4() != via.0.is_ipv4() {
        c.fail(
            &format!("{at}.via"),
            format!(
                "{via} is an {} address but {to} is an {} network; give a router of the same IP version",
                family(via.0.is_ipv4()),
                family(to.is_ipv4())
            ),
        );
        return None;
    }
    if via.0.is_ipv4() {
        match link {
            Ipv4Link::Unknown => {}
            Ipv4Link::None => {
                c.fail(
                    &format!("{at}.via"),
                    format!("the group's gateway is IPv6, so its hosts have no IPv4 network on which {via} could be reached; give an IPv6 route"),
                );
                return None;
            }
            Ipv4Link::Subnet(net) if !net.contains(&via.0) => {
                c.fail(
                    &format!("{at}.via"),
                    format!(
                        "{via} is not in the group's subnet {net}, so its hosts cannot reach it; give a router on that subnet"
                    ),
                );
                return None;
            }
            Ipv4Link::Subnet(_) => {}
        }
    }
    Some(Route { to, via })
}

#[cfg(test)]
mod tests;
