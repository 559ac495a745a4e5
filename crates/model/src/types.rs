//! Validated values. Each newtype can only hold a value that passed its rule,
//! so the services and the store never see a malformed name, address or id.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr};
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Implements Display, Serialize, Deserialize (through `parse`) and `as_str` for a string newtype.
macro_rules! string_newtype {
    ($ty:ident) => {
        impl $ty {
            /// Wrap a value read back from the store, where only checked values are written.
            #[allow(dead_code)]
            pub fn from_stored(s: String) -> Self {
                $ty(s)
            }
            /// The value as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.0)
            }
        }
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                $ty::parse(&s).map_err(serde::de::Error::custom)
            }
        }
    };
}

/// `s` when it passed its check (`ok`), else the sentence `why` gives: what the parsers of
/// the text types share.
fn accept(s: &str, ok: bool, why: impl FnOnce() -> String) -> Result<String, String> {
    if ok {
        Ok(s.to_owned())
    } else {
        Err(why())
    }
}

fn chars_ok(s: &str, extra: &str) -> bool {
    s.chars()
        .all(|c| c.is_ascii_alphanumeric() || extra.contains(c))
}

/// Name of a network group, server group or ACI instance: 1–64 printable characters, no `/`
/// (it is a path segment of the API), no control characters, no leading or trailing space.
/// These names stay inside Bootsmith (host names are what reaches UCS), so "Lab Pod 1" is fine.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Name(String);

impl Name {
    /// Check and wrap a group name.
    pub fn parse(s: &str) -> Result<Self, String> {
        let problem = if s.is_empty() {
            Some("is empty")
        } else if s.chars().count() > 64 {
            Some("is longer than 64 characters")
        } else if s.contains('/') {
            Some("contains '/'")
        } else if s.chars().any(char::is_control) {
            Some("contains a control character")
        } else if s.starts_with(char::is_whitespace) || s.ends_with(char::is_whitespace) {
            Some("starts or ends with a space")
        } else {
            None
        };
        match problem {
            None => Ok(Name(s.to_owned())),
            Some(why) => Err(format!(
                "'{}' is not a valid name: it {why}; use 1 to 64 printable characters without '/' and without leading or trailing spaces",
                shorten(s)
            )),
        }
    }
}
string_newtype!(Name);

/// Host name. It is also the UCS service-profile name and a file name in svc,
/// so it must satisfy all three: 2–32 letters, digits or `-`, no leading or
/// trailing `-`, no dots.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HostName(String);

impl HostName {
    /// Check and wrap a host name.
    pub fn parse(s: &str) -> Result<Self, String> {
        let ok = (2..=32).contains(&s.len())
            && chars_ok(s, "-")
            && !s.starts_with('-')
            && !s.ends_with('-');
        let why = || {
            format!("'{s}' is not a valid host name: use 2 to 32 letters, digits or '-' (not first or last, no dots); it becomes the service-profile name and a file name")
        };
        accept(s, ok, why).map(HostName)
    }
}
string_newtype!(HostName);

/// An IPv4 or IPv6 address, parsed strictly (no `10`, no `1.2.3`, no leading zeros).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IpAddress(pub IpAddr);

impl IpAddress {
    /// Parse an address.
    pub fn parse(s: &str) -> Result<Self, String> {
        IpAddr::from_str(s)
            .map(IpAddress)
            .map_err(|_| format!("'{s}' is not a valid IPv4 or IPv6 address"))
    }
}

impl fmt::Display for IpAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
impl Serialize for IpAddress {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Written whole into a buffer first: `collect_str` hands the serializer each piece of
        // Display's output (digits, dots) to escape on its own, which showed in host lists.
        use std::io::Write;
        let mut buf = [0u8; 45]; // the longest address text (IPv4-mapped IPv6)
        let mut rest = &mut buf[..];
        write!(rest, "{}", self.0).map_err(serde::ser::Error::custom)?;
        let len = 45 - rest.len();
        s.serialize_str(std::str::from_utf8(&buf[..len]).map_err(serde::ser::Error::custom)?)
    }
}
impl<'de> Deserialize<'de> for IpAddress {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        IpAddress::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// A netmask: a contiguous dotted IPv4 mask (`255.255.255.0`) or a prefix length (`24`, `/64`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Netmask(String);

impl Netmask {
    /// Check and wrap a netmask.
    pub fn parse(s: &str) -> Result<Self, String> {
        let err = || {
            format!("'{s}' is not a valid netmask: give a dotted mask like 255.255.255.0 or a prefix length like 24")
        };
        if let Ok(mask) = Ipv4Addr::from_str(s) {
            let bits = u32::from(mask);
            // Contiguous ones followed by zeros: inverting gives 0…01…1, and x & (x+1) == 0.
            let inv = !bits;
            return if inv & inv.wrapping_add(1) == 0 {
                Ok(Netmask(s.to_owned()))
            } else {
                Err(err())
            };
        }
        let digits = s.strip_prefix('/').unwrap_or(s);
        match digits.parse::<u8>() {
            Ok(n) if n <= 128 && !digits.starts_with('+') => Ok(Netmask(s.to_owned())),
            _ => Err(err()),
        }
    }

    /// Prefix length of the mask.
    pub fn prefix_len(&self) -> u8 {
        match Ipv4Addr::from_str(&self.0) {
            Ok(mask) => u32::from(mask).count_ones() as u8,
            Err(_) => self
                .0
                .trim_start_matches('/')
                .parse()
                .expect("validated at parse"),
        }
    }
}
string_newtype!(Netmask);

/// A network in CIDR form (`192.0.2.0/24`, `2001:db8::/64`): the address is the network's
/// first (no host bits set), so what it holds is never ambiguous.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Subnet {
    network: IpAddr,
    prefix: u8,
}

impl Subnet {
    /// Parse `<address>/<prefix>`; an address with host bits set names the network to write.
    pub fn parse(s: &str) -> Result<Self, String> {
        let form = || {
            format!(
                "'{}' is not a subnet: give it as address/prefix, like 192.0.2.0/24",
                shorten(s)
            )
        };
        let (addr, prefix) = s.split_once('/').ok_or_else(form)?;
        let addr = IpAddr::from_str(addr).map_err(|_| form())?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix.parse::<u8>() {
            Ok(p) if p <= max && !prefix.starts_with('+') => p,
            _ => {
                return Err(format!(
                    "'{}' has no valid prefix length: use 0 to {max} after the /",
                    shorten(s)
                ))
            }
        };
        let subnet = Subnet {
            network: addr,
            prefix,
        };
        let network = subnet.first();
        if network != addr {
            return Err(format!(
                "'{s}' has host bits set: the subnet of {addr}/{prefix} is {network}/{prefix}"
            ));
        }
        Ok(subnet)
    }

    /// The subnet of `prefix` bits that holds `addr` (its host bits cleared); none for a
    /// prefix longer than the address.
    pub fn containing(addr: IpAddr, prefix: u8) -> Option<Self> {
        let max = if addr.is_ipv4() { 32 } else { 128 };
        (prefix <= max).then(|| {
            let s = Subnet {
                network: addr,
                prefix,
            };
            Subnet {
                network: s.first(),
                prefix,
            }
        })
    }

    /// The prefix length.
    pub fn prefix_len(&self) -> u8 {
        self.prefix
    }

    /// Whether it is an IPv4 network.
    pub fn is_ipv4(&self) -> bool {
        self.network.is_ipv4()
    }

    /// The netmask the subnet implies: dotted for IPv4 (`/24` is `255.255.255.0`), the prefix
    /// length for IPv6.
    pub fn netmask(&self) -> Netmask {
        match self.network {
            IpAddr::V4(_) => {
                let bits = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                Netmask(Ipv4Addr::from(bits).to_string())
            }
            IpAddr::V6(_) => Netmask(self.prefix.to_string()),
        }
    }

    fn mask_bits(&self, width: u32) -> u128 {
        let host_bits = width - u32::from(self.prefix);
        let all = if width == 32 {
            u128::from(u32::MAX)
        } else {
            u128::MAX
        };
        all.checked_shl(host_bits).unwrap_or(0) & all
    }

    /// The network address: `addr` with the host bits cleared.
    fn first(&self) -> IpAddr {
        match self.network {
            IpAddr::V4(a) => {
                let m = self.mask_bits(32) as u32;
                IpAddr::V4(Ipv4Addr::from(u32::from(a) & m))
            }
            IpAddr::V6(a) => IpAddr::V6(std::net::Ipv6Addr::from(
                u128::from(a) & self.mask_bits(128),
            )),
        }
    }

    /// Whether `ip` lies in the subnet (an address of the other IP version never does).
    pub fn contains(&self, ip: &IpAddr) -> bool {
        match (self.network, ip) {
            (IpAddr::V4(n), IpAddr::V4(a)) => {
                let m = self.mask_bits(32) as u32;
                u32::from(*a) & m == u32::from(n)
            }
            (IpAddr::V6(n), IpAddr::V6(a)) => u128::from(*a) & self.mask_bits(128) == u128::from(n),
            _ => false,
        }
    }
}

impl fmt::Display for Subnet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.network, self.prefix)
    }
}

impl Serialize for Subnet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

/// An address or DNS host name (NTP server, manager address without port).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostOrIp(String);

impl HostOrIp {
    /// Check and wrap an address or DNS name.
    pub fn parse(s: &str) -> Result<Self, String> {
        let ok = IpAddr::from_str(s).is_ok() || is_dns_name(s);
        accept(s, ok, || {
            format!("'{s}' is neither an IP address nor a valid DNS host name")
        })
        .map(HostOrIp)
    }
}
string_newtype!(HostOrIp);

fn is_dns_name(s: &str) -> bool {
    let s = s.strip_suffix('.').unwrap_or(s);
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && chars_ok(label, "-")
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
        // An all-numeric dotted string is a malformed IP, not a name.
        && !s.split('.').all(|l| l.chars().all(|c| c.is_ascii_digit()))
}

/// An HTTP(S) proxy URL for hosts behind a firewall.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProxyUrl(String);

impl ProxyUrl {
    /// Check and wrap a proxy URL.
    pub fn parse(s: &str) -> Result<Self, String> {
        let ok = url::Url::parse(s)
            .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some());
        accept(s, ok, || {
            format!("'{s}' is not a valid proxy URL: give http://host:port or https://host:port")
        })
        .map(ProxyUrl)
    }
}
string_newtype!(ProxyUrl);

/// An 802.1Q VLAN id, 1–4094.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VlanId(String);

impl VlanId {
    /// Check and wrap a VLAN id.
    pub fn parse(s: &str) -> Result<Self, String> {
        let ok = s
            .parse::<u16>()
            .is_ok_and(|n| (1..=4094).contains(&n) && !s.starts_with(['+', '0']));
        accept(s, ok, || {
            format!("'{s}' is not a valid VLAN id: use a number from 1 to 4094")
        })
        .map(VlanId)
    }
}
string_newtype!(VlanId);

/// Name of a VLAN in a UCS domain (`default`, `mgmt-30`): 1–32 of letters, digits, `-_.:`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VlanName(String);

impl VlanName {
    /// Check and wrap a UCS VLAN name.
    pub fn parse(s: &str) -> Result<Self, String> {
        let ok = (1..=32).contains(&s.len()) && chars_ok(s, "-_.:");
        let why = || {
            format!("'{s}' is not a valid UCS VLAN name: use 1 to 32 letters, digits, '-', '_', '.' or ':'")
        };
        accept(s, ok, why).map(VlanName)
    }
}
string_newtype!(VlanName);

/// Address of a UCS Manager, IMC or APIC: an IP or host name, optionally with a
/// port and an `http://`/`https://` scheme (`10.0.0.5`, `10.0.0.5:8443`, `http://127.0.0.1:9000`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManagerAddress(String);

impl ManagerAddress {
    /// Check and wrap a manager address.
    pub fn parse(s: &str) -> Result<Self, String> {
        let err = || {
            format!(
                "'{s}' is not a valid manager address: give an IP or host name, optionally with :port or an http:// or https:// prefix"
            )
        };
        let with_scheme = if s.contains("://") {
            s.to_owned()
        } else {
            format!("https://{s}")
        };
        let url = url::Url::parse(&with_scheme).map_err(|_| err())?;
        let host_ok = match url.host() {
            Some(url::Host::Domain(d)) => is_dns_name(d),
            Some(_) => true,
            None => false,
        };
        let plain = url.path() == "/"
            && url.query().is_none()
            && url.fragment().is_none()
            && url.username().is_empty()
            && url.password().is_none()
            && !s.ends_with('/');
        if matches!(url.scheme(), "http" | "https") && host_ok && plain {
            Ok(ManagerAddress(s.to_owned()))
        } else {
            Err(err())
        }
    }
}
string_newtype!(ManagerAddress);

/// A blade: `<chassis>/<slot>`, or `<domain>/<chassis>/<slot>` under a central manager.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BladeId {
    /// Domain id under UCS Central, absent for a single UCSM domain.
    pub domain: Option<u32>,
    /// Chassis number.
    pub chassis: u32,
    /// Slot number in the chassis.
    pub slot: u32,
}

impl BladeId {
    /// Parse `c/s` or `d/c/s`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let err = || {
            format!("'{s}' is not a blade id: use <chassis>/<slot> like 1/3 (or <domain>/<chassis>/<slot>)")
        };
        let parts: Vec<&str> = s.split('/').collect();
        let nums: Vec<u32> = parts
            .iter()
            .map(|p| parse_index(p))
            .collect::<Option<_>>()
            .ok_or_else(err)?;
        match nums[..] {
            [chassis, slot] => Ok(BladeId {
                domain: None,
                chassis,
                slot,
            }),
            [domain, chassis, slot] => Ok(BladeId {
                domain: Some(domain),
                chassis,
                slot,
            }),
            _ => Err(err()),
        }
    }
}

fn parse_index(p: &str) -> Option<u32> {
    if p.is_empty() || p.len() > 9 || !p.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    p.parse::<u32>().ok().filter(|n| *n >= 1)
}

impl fmt::Display for BladeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.domain {
            Some(d) => write!(f, "{d}/{}/{}", self.chassis, self.slot),
            None => write!(f, "{}/{}", self.chassis, self.slot),
        }
    }
}
impl Serialize for BladeId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl<'de> Deserialize<'de> for BladeId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        BladeId::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// A rack server id: `<number>` as UCSM numbers rack units, or `<domain>/<number>` under a
/// central manager.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RackId {
    /// Domain id under UCS Central, absent for a single UCSM domain.
    pub domain: Option<u32>,
    /// Rack unit number.
    pub id: u32,
}

impl RackId {
    /// A rack unit of a single domain.
    pub fn local(id: u32) -> Self {
        RackId { domain: None, id }
    }

    /// Parse `n` or `d/n`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let err = || {
            format!("'{s}' is not a rack server id: use its number, like 1 (or <domain>/<number>)")
        };
        match s.split_once('/') {
            None => parse_index(s).map(RackId::local).ok_or_else(err),
            Some((d, n)) => match (parse_index(d), parse_index(n)) {
                (Some(domain), Some(id)) => Ok(RackId {
                    domain: Some(domain),
                    id,
                }),
                _ => Err(err()),
            },
        }
    }
}
impl fmt::Display for RackId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.domain {
            Some(d) => write!(f, "{d}/{}", self.id),
            None => self.id.fmt(f),
        }
    }
}
impl Serialize for RackId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl<'de> Deserialize<'de> for RackId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        RackId::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// The node a host is tied to: a blade (`1/3`, `d/1/3`) or a rack server (`7`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeId {
    /// A blade in a chassis.
    Blade(BladeId),
    /// A rack unit.
    Rack(RackId),
}

impl NodeId {
    /// Parse a blade id or a rack number.
    pub fn parse(s: &str) -> Result<Self, String> {
        if s.contains('/') {
            BladeId::parse(s).map(NodeId::Blade)
        } else {
            RackId::parse(s)
                .map(NodeId::Rack)
                .map_err(|_| format!("'{s}' is not a server: use a blade <chassis>/<slot> like 1/3 or a rack server number like 2"))
        }
    }
}
impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NodeId::Blade(b) => b.fmt(f),
            NodeId::Rack(r) => r.fmt(f),
        }
    }
}
impl Serialize for NodeId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The DN of a service-profile template: `org-root[/org-<name>…]/ls-<name>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateDn(String);

impl TemplateDn {
    /// Check and wrap a template DN.
    pub fn parse(s: &str) -> Result<Self, String> {
        let err = || {
            format!("'{s}' is not a service-profile template path: use org-root/ls-<name> or org-root/org-<sub>/ls-<name>")
        };
        let parts: Vec<&str> = s.split('/').collect();
        let (last, orgs) = parts.split_last().ok_or_else(err)?;
        let ucs_name = |n: &str, max: usize| (1..=max).contains(&n.len()) && chars_ok(n, "-_.:");
        let orgs_ok = orgs.first() == Some(&"org-root")
            && orgs[1..]
                .iter()
                .all(|o| o.strip_prefix("org-").is_some_and(|n| ucs_name(n, 16)));
        let leaf_ok = last.strip_prefix("ls-").is_some_and(|n| ucs_name(n, 32));
        accept(s, orgs_ok && leaf_ok, err).map(TemplateDn)
    }
}
string_newtype!(TemplateDn);

/// The DN of a UCS organisation: `org-root` or `org-root/org-<name>[/org-<name>…]`. KUBAM's
/// settings call took a bare name, so `lab` reads as `org-root/org-lab` and `root` as `org-root`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrgDn(String);

impl OrgDn {
    /// Check (and complete a bare name into) an org DN.
    pub fn parse(s: &str) -> Result<Self, String> {
        let org_name = |n: &str| (1..=16).contains(&n.len()) && chars_ok(n, "-_.:");
        let dn = match s {
            "root" => "org-root".to_owned(),
            _ if !s.contains('/') && !s.starts_with("org-") && org_name(s) => {
                format!("org-root/org-{s}")
            }
            _ => s.to_owned(),
        };
        let mut parts = dn.split('/');
        let root_ok = parts.next() == Some("org-root");
        let subs_ok = parts.all(|o| o.strip_prefix("org-").is_some_and(org_name));
        if root_ok && subs_ok {
            Ok(OrgDn(dn))
        } else {
            Err(format!(
                "'{}' is not a UCS org: use org-root or org-root/org-<name> (names of 1 to 16 letters, digits, '-', '_', '.' or ':')",
                shorten(s)
            ))
        }
    }
}
string_newtype!(OrgDn);

/// One public SSH key in OpenSSH format (`ssh-ed25519 AAAA… comment`): every type OpenSSH
/// accepts (ed25519, ecdsa-sha2-nistp256/384/521, rsa, dss, and the `sk-` security-key forms).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SshPublicKey(String);

impl SshPublicKey {
    /// Parse and normalise (trim) an OpenSSH public key.
    pub fn parse(s: &str) -> Result<Self, String> {
        Self::decode(s).map(|(text, _)| SshPublicKey(text))
    }

    /// Whether `s` is (part of) a private key: PEM/OpenSSH armour or a PuTTY key file.
    pub fn is_private(s: &str) -> bool {
        s.contains("PRIVATE KEY")
            || s.contains("PuTTY-User-Key-File")
            || s.contains("Private-Lines:")
    }

    fn decode(s: &str) -> Result<(String, ssh_key::PublicKey), String> {
        let trimmed = s.trim();
        if trimmed.is_empty() {
            return Err("an SSH key is empty".into());
        }
        // Never echo any of it: a pasted private key is a secret.
        if Self::is_private(trimmed) {
            return Err("this is a private key; paste the public key instead (the .pub file, one line starting with ssh-… or ecdsa-…)".into());
        }
        if trimmed.contains(['\n', '\r']) {
            return Err(
                "an SSH key must be one line; send several keys as separate list items".into(),
            );
        }
        match ssh_key::PublicKey::from_openssh(trimmed) {
            Ok(k) => Ok((trimmed.to_owned(), k)),
            Err(e) => {
                let why = match e {
                    ssh_key::Error::Encoding(_) => {
                        "its key text is damaged or cut short; copy the whole line again".to_owned()
                    }
                    other => other.to_string(),
                };
                Err(format!(
                    "'{}' is not a valid OpenSSH public key: {why}",
                    shorten(trimmed)
                ))
            }
        }
    }
}
string_newtype!(SshPublicKey);

/// Cut long input for an error message.
pub fn shorten(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_owned()
    } else {
        let head: String = s.chars().take(MAX).collect();
        format!("{head}…")
    }
}

#[cfg(test)]
mod tests;
