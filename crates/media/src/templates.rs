//! Answer files rendered with Tera from the defaults shipped here, or from the
//! operator's override `svc/<os>.tmpl`. The variables are the same for every
//! family (see [`Vars`]); a template error names the file and the line.

use serde::Serialize;
use tera::{Context, Tera};

use crate::error::{Error, Result};
use crate::fat::ImageFile;
pub use crate::install_disk::DiskVars;

/// OS family: one enum with the catalog's, which decides the answer-file format.
pub use bootsmith_model::catalog::Family;

/// A host as templates see it.
#[derive(Debug, Clone, Serialize)]
pub struct HostVars {
    /// Host name (= service-profile name).
    pub name: String,
    /// Address.
    pub ip: String,
    /// Role.
    pub role: String,
    /// OS id.
    pub os: String,
    /// Network group name.
    pub network_group: String,
    /// Server group name.
    pub server_group: Option<String>,
    /// The MACs of the NICs the host's network goes on (lower case, colons): one is that NIC,
    /// two or more are the bond of its network group; none: the first NIC with a link.
    pub macs: Vec<String>,
    /// Static IPv6 address with its prefix (`2001:db8::10/64`).
    pub ipv6: Option<String>,
    /// The IPv6 address alone.
    pub ipv6_address: Option<String>,
    /// The IPv6 prefix length.
    pub ipv6_prefix: Option<u8>,
}

/// The host's network settings.
#[derive(Debug, Clone, Serialize)]
pub struct NetworkVars {
    /// Group name.
    pub name: String,
    /// Dotted netmask (or as entered).
    pub netmask: String,
    /// Prefix length.
    pub prefix: u8,
    /// Gateway.
    pub gateway: String,
    /// DNS server.
    pub nameserver: String,
    /// NTP server.
    pub ntpserver: String,
    /// Proxy URL.
    pub proxy: Option<String>,
    /// VLAN id.
    pub vlan: Option<String>,
    /// MTU of the host's interface (and bond and VLAN).
    pub mtu: Option<u16>,
    /// The bond its hosts make of two or more NICs.
    pub bond: Option<BondVars>,
    /// Static routes.
    pub routes: Vec<RouteVars>,
    /// IPv6 default router.
    pub ipv6_gateway: Option<String>,
}

/// A network group's bond, in Linux's words.
#[derive(Debug, Clone, Serialize)]
pub struct BondVars {
    /// `active-backup`, `802.3ad`, …
    pub mode: String,
    /// `slow` or `fast` (802.3ad only).
    pub lacp_rate: Option<String>,
    /// `layer2`, `layer3+4`, … (hashing modes only).
    pub xmit_hash_policy: Option<String>,
    /// The bonding driver's options as one comma-separated list, link monitoring included:
    /// `mode=802.3ad,miimon=100,lacp_rate=fast` (kickstart's `--bondopts`, dracut's `bond=`).
    pub opts: String,
}

/// One static route.
#[derive(Debug, Clone, Serialize)]
pub struct RouteVars {
    /// Destination in CIDR form (`10.0.0.0/8`).
    pub to: String,
    /// Destination network address (`10.0.0.0`).
    pub network: String,
    /// Destination prefix length.
    pub prefix: u8,
    /// Destination netmask: dotted for IPv4, the prefix length for IPv6.
    pub netmask: String,
    /// The router.
    pub via: String,
    /// An IPv6 route.
    pub ipv6: bool,
}

/// The OS being installed.
#[derive(Debug, Clone, Serialize)]
pub struct OsVars {
    /// OS id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Family name (`rhel`, `rhvh`, `esxi`, `ubuntu`, `windows`).
    pub family: String,
    /// Version.
    pub version: String,
    /// Major version number.
    pub major: u32,
}

/// Everything a template can use.
#[derive(Debug, Clone, Serialize)]
pub struct Vars {
    /// Boot-server address.
    pub svc_ip: String,
    /// Port of the svc HTTP server.
    pub svc_port: u16,
    /// `http://<svc_ip>:<port>/svc`.
    pub svc_url: String,
    /// This host.
    pub host: HostVars,
    /// Every host.
    pub hosts: Vec<HostVars>,
    /// The first `k8s master`, if any.
    pub master: Option<HostVars>,
    /// Network settings.
    pub network: NetworkVars,
    /// The OS.
    pub os: OsVars,
    /// SSH public keys.
    pub keys: Vec<String>,
    /// SHA-512 crypt hash of the host's generated password.
    pub root_password_hash: String,
    /// The generated password in clear: Windows only (its unattend cannot take a hash).
    pub admin_password: Option<String>,
    /// UEFI boot (else legacy BIOS).
    pub uefi: bool,
    /// Where the installer reports back, with the host's own token; absent in previews.
    pub callback: Option<CallbackVars>,
    /// The disk to install on: the host's hint, and the program that finds it.
    pub disk: DiskVars,
    /// The host's template parameters (`params.<key>`): its own over its server group's, its
    /// network group's and the defaults. The default templates read `timezone` (an IANA zone)
    /// and `windows_timezone` (a Windows zone name); an operator's templates may read any.
    pub params: std::collections::BTreeMap<String, String>,
}

/// The install callbacks of one host: its answer file sends its installer's logs to `logs`, then
/// ends by calling `installed`, and its error hook sends the logs and calls `failed`, each with
/// the token (valid for this host and these calls only).
#[derive(Debug, Clone, Serialize)]
pub struct CallbackVars {
    /// `http://<svc_ip>:<port>/api/v2/hosts/<host>/installed`.
    pub installed: String,
    /// `http://<svc_ip>:<port>/api/v2/hosts/<host>/failed`.
    pub failed: String,
    /// `http://<svc_ip>:<port>/api/v2/hosts/<host>/logs`: POST a log's raw bytes to it with
    /// `?file=<name>` and the token in the `X-Install-Token` header.
    pub logs: String,
    /// The host's install token (random per image build).
    pub token: String,
}

/// (default template, file name in the image) per family; the first is the one `svc/<os>.tmpl` replaces.
fn files(family: Family) -> &'static [(&'static str, &'static str)] {
    match family {
        Family::Rhel => &[("rhel.ks", "ks.cfg")],
        Family::Rhvh => &[("rhvh.ks", "ks.cfg")],
        Family::Esxi => &[("esxi.ks", "KS.CFG")],
        Family::Ubuntu => &[
            ("ubuntu-user-data.yaml", "user-data"),
            ("ubuntu-meta-data.yaml", "meta-data"),
        ],
        Family::Windows => &[
            ("windows-autounattend.xml", "autounattend.xml"),
            ("windows-network.txt", "network.txt"),
            // Called by the operator's startnet.cmd in WinPE: picks the disk, names it to Setup.
            ("windows-disk.cmd", "bootsmith-disk.cmd"),
            ("windows-disk.ps1", "bootsmith-disk.ps1"),
            // Run at the first logon: the host's network from network.txt.
            ("windows-network.ps1", "bootsmith-network.ps1"),
        ],
    }
}

/// Volume label the family's installer looks for.
pub fn label(family: Family) -> &'static str {
    match family {
        // Anaconda reads ks.cfg from a volume labelled OEMDRV without any boot argument.
        Family::Rhel | Family::Rhvh => "OEMDRV",
        // cloud-init's NoCloud source looks for this label.
        Family::Ubuntu => "CIDATA",
        // Windows Setup looks for autounattend.xml on every drive; the label only names the disk (11 characters at most on FAT).
        Family::Windows => "UNATTEND",
        Family::Esxi => "ESXIKS",
    }
}

const DEFAULTS: [(&str, &str); 10] = [
    ("rhel.ks", include_str!("../templates/rhel.ks")),
    ("rhvh.ks", include_str!("../templates/rhvh.ks")),
    ("esxi.ks", include_str!("../templates/esxi.ks")),
    (
        "ubuntu-user-data.yaml",
        include_str!("../templates/ubuntu-user-data.yaml"),
    ),
    (
        "ubuntu-meta-data.yaml",
        include_str!("../templates/ubuntu-meta-data.yaml"),
    ),
    (
        "windows-autounattend.xml",
        include_str!("../templates/windows-autounattend.xml"),
    ),
    (
        "windows-network.txt",
        include_str!("../templates/windows-network.txt"),
    ),
    (
        "windows-disk.cmd",
        include_str!("../templates/windows-disk.cmd"),
    ),
    (
        "windows-disk.ps1",
        include_str!("../templates/windows-disk.ps1"),
    ),
    (
        "windows-network.ps1",
        include_str!("../templates/windows-network.ps1"),
    ),
];

/// Pieces a template (an operator's `svc/<os>.tmpl` too) may `{% include %}` by name: the
/// parts of a kickstart `%pre --erroronfail`, in this order, and the logs' upload.
const PARTIALS: [(&str, &str); 4] = [
    // `tmp`, `sys` and `bootsmith_failed`, which the other two use.
    ("pre-report", include_str!("../templates/pre-report.ks")),
    // Names the host's NICs by MAC and writes /tmp/bootsmith-network.ks (`network`).
    ("network-pre", include_str!("../templates/network-pre.ks")),
    // Finds the install disk and writes /tmp/bootsmith-disks.ks (ignoredisk, clearpart,
    // bootloader).
    (
        "install-disk-pre",
        include_str!("../templates/install-disk-pre.ks"),
    ),
    // Not of %pre: sends Anaconda's logs to Bootsmith, from %post --nochroot and %onerror.
    ("upload-logs", include_str!("../templates/upload-logs.ks")),
];

fn engine() -> Tera {
    let mut tera = Tera::default();
    // Answer files are not HTML: no escaping.
    tera.autoescape_on(vec![]);
    // Templates may come from svc; they must not read the service's environment.
    tera.register_function(
        "get_env",
        |_: &std::collections::HashMap<String, tera::Value>| -> tera::Result<tera::Value> {
            Err("get_env is not available in Bootsmith templates".into())
        },
    );
    tera
}

/// The whole error chain of a Tera error: the outer message names the template, the inner ones the line.
fn describe(e: &tera::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        parts.push(s.to_string());
        src = s.source();
    }
    parts.join(": ")
}

/// Render the family's answer files. `override_template` is `(file name for messages, text)` of `svc/<os>.tmpl`.
pub fn render(
    family: Family,
    vars: &Vars,
    override_template: Option<(&str, &str)>,
) -> Result<Vec<ImageFile>> {
    let ctx = Context::from_serialize(vars)
        .map_err(|e| Error::Invalid(format!("template variables: {e}")))?;
    let mut out = Vec::new();
    for (i, (default_name, file_name)) in files(family).iter().enumerate() {
        let (label, text) = match (i, override_template) {
            (0, Some((name, text))) => (name.to_owned(), text.to_owned()),
            _ => (
                format!("default template {default_name}"),
                default_text(default_name).to_owned(),
            ),
        };
        let mut tera = engine();
        tera.add_raw_templates(
            PARTIALS
                .into_iter()
                .chain([(label.as_str(), text.as_str())]),
        )
        .map_err(|e| Error::Template {
            file: label.clone(),
            message: describe(&e),
        })?;
        let rendered = tera.render(&label, &ctx).map_err(|e| Error::Template {
            file: label.clone(),
            message: describe(&e),
        })?;
        out.push(ImageFile {
            name: (*file_name).to_owned(),
            contents: rendered.into_bytes(),
        });
    }
    Ok(out)
}

/// The texts of the family's default templates, in file order (what its answer files are
/// made from when no `svc/<os>.tmpl` replaces the first).
pub fn default_texts(family: Family) -> Vec<&'static str> {
    files(family).iter().map(|(d, _)| default_text(d)).collect()
}

fn default_text(name: &str) -> &'static str {
    DEFAULTS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
        .expect("every family's templates are bundled")
}

/// A random password and its SHA-512 crypt hash (`$6$…`).
pub fn new_password() -> (String, String) {
    use rand::Rng;
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    let clear: String = (0..20)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect();
    let params = sha_crypt::Sha512Params::new(5000).expect("valid rounds");
    let hash = sha_crypt::sha512_simple(&clear, &params).expect("hashing an in-memory password");
    (clear, hash)
}
