//! The hardware a simulator starts with: a UCS Manager domain (chassis with
//! blades, rack units, disks, FSMs, VLANs, templates), one standalone IMC
//! rack server, or a UCS Central with several registered UCS domains (its
//! aggregated inventory, global templates and profiles, and behind it each
//! domain's own tree holding what Central does not keep: the server FSMs).

use std::collections::BTreeMap;

use crate::tree::{split_dn, Obj, Tree};

/// Which manager to simulate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// UCS Manager.
    Ucsm,
    /// Standalone Cisco IMC.
    Imc,
    /// UCS Central with its registered UCS domains.
    Ucsc,
}

/// The id UCS Central gives the first registered domain; the next ones count up from it.
pub const FIRST_DOMAIN_ID: u32 = 1001;

/// The domain id and domain-local dn of a Central inventory dn
/// (`compute/sys-1001/chassis-1/blade-3` → `1001`, `sys/chassis-1/blade-3`).
pub fn split_central_dn(dn: &str) -> Option<(u32, String)> {
    let rest = dn.strip_prefix("compute/sys-")?;
    let (id, local) = rest.split_once('/').unwrap_or((rest, ""));
    let id = id.parse().ok()?;
    Some((
        id,
        if local.is_empty() {
            "sys".to_owned()
        } else {
            format!("sys/{local}")
        },
    ))
}

/// The dn of `<prefix><name>` where `path` is `name` (in org-root) or `Org/Sub/name` (in a sub-org).
pub fn org_path_dn(path: &str, prefix: &str) -> String {
    let mut dn = String::from("org-root");
    let mut parts: Vec<&str> = path.split('/').collect();
    let name = parts.pop().unwrap_or_default();
    for org in parts {
        dn.push_str("/org-");
        dn.push_str(org);
    }
    format!("{dn}/{prefix}{name}")
}

/// The computeRequirement UCS Central keeps for a global service profile (`…/ls-x` → `…/req-x`).
pub fn requirement_dn(sp: &str) -> String {
    let (org, rn) = split_dn(sp);
    format!("{org}/req-{}", rn.strip_prefix("ls-").unwrap_or(rn))
}

/// Shape of the simulated domain.
#[derive(Debug, Clone)]
pub struct Domain {
    /// Manager kind.
    pub kind: Kind,
    /// Chassis count (UCSM; per domain for UCS Central).
    pub chassis: u32,
    /// Blades in each chassis, at most 8 (UCSM, UCS Central).
    pub blades_per_chassis: u32,
    /// Rack units managed by UCSM (per domain for UCS Central).
    pub rack_units: u32,
    /// Service-profile templates: a name (in org-root) or `Org/Sub/name` (in a sub-org).
    pub templates: Vec<String>,
    /// Existing service profiles bound to servers: (name or `Org/name`, server dn), associated,
    /// powered on, and booting from a SAN LUN (boot policy [`SAN_BOOT_POLICY`]).
    pub profiles: Vec<(String, String)>,
    /// UCS domains registered with UCS Central, ids from [`FIRST_DOMAIN_ID`] up; the shape
    /// fields above apply to each.
    pub domains: u32,
}

impl Domain {
    /// A small UCSM domain: 2 chassis × 4 blades, 2 rack units (the second with a RAID 1
    /// virtual drive, see [`RAID_RACK_UNIT`]), two templates, one associated profile.
    pub fn ucsm() -> Domain {
        Domain {
            kind: Kind::Ucsm,
            chassis: 2,
            blades_per_chassis: 4,
            rack_units: 2,
            templates: vec!["c7-template".into(), "esxi-template".into()],
            profiles: vec![("existing-sp".into(), "sys/chassis-1/blade-1".into())],
            domains: 0,
        }
    }

    /// A UCS Central with `domains` registered UCS domains, each 2 chassis × 4 blades and
    /// 1 rack unit; global templates in org-root and in org-Dept1, one associated global profile.
    pub fn ucsc(domains: u32) -> Domain {
        Domain {
            kind: Kind::Ucsc,
            chassis: 2,
            blades_per_chassis: 4,
            rack_units: 1,
            templates: vec![
                "c7-template".into(),
                "esxi-template".into(),
                "Dept1/dept-template".into(),
            ],
            profiles: vec![(
                "existing-sp".into(),
                format!("compute/sys-{FIRST_DOMAIN_ID}/chassis-1/blade-1"),
            )],
            domains,
        }
    }

    /// The ids of the UCS domains registered with UCS Central.
    pub fn domain_ids(&self) -> impl Iterator<Item = u32> {
        (0..self.domains).map(|i| FIRST_DOMAIN_ID + i)
    }

    /// One standalone C-series server behind its IMC, its boot disk the single member of a
    /// RAID 0 virtual drive.
    pub fn imc() -> Domain {
        Domain {
            kind: Kind::Imc,
            chassis: 0,
            blades_per_chassis: 0,
            rack_units: 1,
            templates: Vec::new(),
            profiles: Vec::new(),
            domains: 0,
        }
    }

    /// Build the object tree (for UCS Central: Central's own).
    pub fn build(&self) -> Tree {
        match self.kind {
            Kind::Ucsm => self.build_ucsm(),
            Kind::Imc => build_imc(),
            Kind::Ucsc => self.build_ucsc(),
        }
    }

    /// Each UCS domain's own tree behind UCS Central (UCS Manager classes: servers and their
    /// FSMs), by domain id; empty for the other kinds.
    pub fn build_remote(&self) -> BTreeMap<u32, Tree> {
        if self.kind != Kind::Ucsc {
            return BTreeMap::new();
        }
        self.domain_ids()
            .enumerate()
            .map(|(i, id)| (id, self.build_domain_side(i as u32 + 1, id)))
            .collect()
    }

    /// The chassis under `parent` (`sys`, or a Central domain's `compute/sys-<id>`), each
    /// with its blades, which `blade` puts at their dn (chassis, slot).
    fn put_chassis(&self, t: &mut Tree, parent: &str, blade: impl Fn(&mut Tree, &str, u32, u32)) {
        for c in 1..=self.chassis {
            let cdn = format!("{parent}/chassis-{c}");
            t.put(
                &cdn,
                Obj::new(
                    "equipmentChassis",
                    &[("id", &c.to_string()), ("model", "UCSB-5108-AC2")],
                ),
            );
            for s in 1..=self.blades_per_chassis.min(8) {
                blade(t, &format!("{cdn}/blade-{s}"), c, s);
            }
        }
    }

    fn build_ucsm(&self) -> Tree {
        let mut t = Tree::default();
        put_top_system(&mut t, "sim-ucsm", "127.0.0.1");
        put_interconnects(&mut t, "sys");
        self.put_chassis(&mut t, "sys", |t, dn, c, s| {
            let serial = format!("FCH{c:03}{s:04}SIM");
            let uuid = format!("1b4e28ba-2fa1-11d2-{c:04x}-{s:012x}");
            let mut blade = blade_obj(c, s, &serial, &uuid);
            blade.set("fsmStatus", "nop");
            t.put(dn, blade);
            add_disks_and_fsm(t, dn, "computeBladeFsm", "computeBladeFsmStage", "disk");
        });
        for r in 1..=self.rack_units {
            let dn = format!("sys/rack-unit-{r}");
            let mut rack = rack_obj(r, &format!("WZP{r:05}SIM"));
            rack.set("fsmStatus", "nop");
            t.put(&dn, rack);
            add_disks_and_fsm(
                &mut t,
                &dn,
                "computeRackUnitFsm",
                "computeRackUnitFsmStage",
                "disk",
            );
            if r == RAID_RACK_UNIT {
                add_mirror(&mut t, &dn);
            }
        }
        t.put(
            "org-root",
            Obj::new("orgOrg", &[("name", "root"), ("descr", "")]),
        );
        put_templates(&mut t, &self.templates);
        put_san_boot_policy(&mut t);
        for (name, server) in &self.profiles {
            put_profile(&mut t, &format!("org-root/ls-{name}"), name, server);
        }
        put_vlans(&mut t, "fabric");
        t
    }
}

/// `sys` as a UCS Manager or UCS Central shows it at login.
fn put_top_system(t: &mut Tree, name: &str, address: &str) {
    t.put(
        "sys",
        Obj::new(
            "topSystem",
            &[("name", name), ("address", address), ("mode", "cluster")],
        ),
    );
}

/// The two fabric interconnects of a UCS domain under `parent`.
fn put_interconnects(t: &mut Tree, parent: &str) {
    for fi in ["A", "B"] {
        t.put(
            format!("{parent}/switch-{fi}"),
            Obj::new("networkElement", &[("id", fi), ("model", "UCS-FI-6454")]),
        );
    }
}

/// The LAN cloud under `fabric` with its two VLANs (default, and mgmt-30).
fn put_vlans(t: &mut Tree, fabric: &str) {
    t.put(fabric, Obj::new("fabricEp", &[]));
    t.put(format!("{fabric}/lan"), Obj::new("fabricLanCloud", &[]));
    for (name, id, default) in [("default", "1", "yes"), ("mgmt-30", "30", "no")] {
        t.put(
            format!("{fabric}/lan/net-{name}"),
            Obj::new(
                "fabricVlan",
                &[("name", name), ("id", id), ("defaultNet", default)],
            ),
        );
    }
}

/// The boot policy of the seeded profiles (in org-root): boot from LUN 0 of one array port,
/// so their servers show a SAN LUN among their disks.
pub const SAN_BOOT_POLICY: &str = "san-boot";

/// The array port (a target WWPN) the seeded profiles boot from.
pub const SAN_TARGET: &str = "50:06:01:60:3E:A0:12:34";

/// Boot policy [`SAN_BOOT_POLICY`]: SAN first, its primary image (vHBA `fc0`) with one path to
/// LUN 0 of [`SAN_TARGET`], as ucsmsdk's `lsbootSan` → `lsbootSanCatSanImage` →
/// `lsbootSanCatSanImagePath` has it.
fn put_san_boot_policy(t: &mut Tree) {
    let policy = format!("org-root/boot-policy-{SAN_BOOT_POLICY}");
    t.put(
        &policy,
        Obj::new(
            "lsbootPolicy",
            &[
                ("name", SAN_BOOT_POLICY),
                ("bootMode", "legacy"),
                ("enforceVnicName", "yes"),
                ("rebootOnUpdate", "no"),
                ("descr", "Boot from the array"),
            ],
        ),
    );
    let san = format!("{policy}/san");
    t.put(
        &san,
        Obj::new(
            "lsbootSan",
            &[("order", "1"), ("type", "san"), ("access", "read-write")],
        ),
    );
    let image = format!("{san}/sanimg-primary");
    t.put(
        &image,
        Obj::new(
            "lsbootSanCatSanImage",
            &[("type", "primary"), ("vnicName", "fc0")],
        ),
    );
    t.put(
        format!("{image}/sanimgpath-primary"),
        Obj::new(
            "lsbootSanCatSanImagePath",
            &[
                ("type", "primary"),
                ("wwn", SAN_TARGET),
                ("lun", "0"),
                ("vnicName", "fc0"),
            ],
        ),
    );
}

/// Service profile `sp` (named `name`) associated with `server`, powered on and booting from
/// [`SAN_BOOT_POLICY`]: the profile, its power and binding, and the server as it shows then.
fn put_profile(t: &mut Tree, sp: &str, name: &str, server: &str) {
    t.put(
        sp,
        Obj::new(
            "lsServer",
            &[
                ("name", name),
                ("type", "instance"),
                ("assocState", "associated"),
                ("pnDn", server),
                ("descr", ""),
                ("bootPolicyName", SAN_BOOT_POLICY),
                (
                    "operBootPolicyName",
                    &format!("org-root/boot-policy-{SAN_BOOT_POLICY}"),
                ),
            ],
        ),
    );
    t.put(
        format!("{sp}/power"),
        Obj::new("lsPower", &[("state", "up")]),
    );
    t.put(
        format!("{sp}/pn"),
        Obj::new(
            "lsBinding",
            &[("pnDn", server), ("restrictMigration", "no")],
        ),
    );
    t.update(
        server,
        &[
            ("association", "associated"),
            ("assignedToDn", sp),
            ("operPower", "on"),
            ("operState", "ok"),
            ("availability", "unavailable"),
        ],
    );
}

/// A board with one controller and two disks, and a finished discovery FSM.
fn add_disks_and_fsm(
    t: &mut Tree,
    server: &str,
    fsm_class: &str,
    stage_class: &str,
    disk_prefix: &str,
) {
    add_disks(t, server, disk_prefix, &[("adminAction", "unspecified")]);
    add_fsm(t, server, fsm_class, stage_class);
}

/// The two local disks every simulated server has: an install-sized SSD and a data HDD, so
/// install-disk hints and the default rule (the smallest local disk) have a choice to make.
struct SimDisk {
    /// Size in MB (MiB), as UCS reports it.
    mb: &'static str,
    model: &'static str,
    vendor: &'static str,
    /// `deviceType` (UCS Manager) and `mediaType` (IMC).
    media: &'static str,
    /// `connectionProtocol` (UCS Manager) and `interfaceType` (IMC).
    protocol: &'static str,
    /// First letters of its serials.
    serial: &'static str,
}

const DISKS: [SimDisk; 2] = [
    SimDisk {
        mb: "457862",
        model: "MTFDDAK480TDS",
        vendor: "MICRON",
        media: "SSD",
        protocol: "SATA",
        serial: "MSA",
    },
    SimDisk {
        mb: "915715",
        model: "ST1000NX0423",
        vendor: "SEAGATE",
        media: "HDD",
        protocol: "SAS",
        serial: "ZBS",
    },
];

impl SimDisk {
    /// Its size in 512-byte blocks, as a virtual drive over it counts them.
    fn blocks(&self) -> String {
        let mb: u64 = self.mb.parse().expect("sizes are numbers");
        (mb * 2048).to_string()
    }
}

/// A serial unique to the disk in slot `id` of `server`: the vendor's letters, the digits of
/// the server's DN and the slot (`MSA131` for slot 1 of `sys/chassis-1/blade-3`).
fn disk_serial(server: &str, d: &SimDisk, id: &str) -> String {
    let digits: String = server.chars().filter(char::is_ascii_digit).collect();
    format!("{}{digits}{id}", d.serial)
}

/// A MAC unique to NIC `nic` of `server`, from the digits of its DN, in Cisco's pool prefix.
pub fn sim_mac(server: &str, nic: u8) -> String {
    let digits: String = server.chars().filter(char::is_ascii_digit).collect();
    let n: u32 = digits.parse().unwrap_or(0);
    format!(
        "00:25:B5:{:02X}:{:02X}:{nic:02X}",
        (n >> 8) & 0xff,
        n & 0xff
    )
}

/// The server's adapter with two host NICs, `eth0` on fabric A (link up) and `eth1` on B.
fn add_nics(t: &mut Tree, server: &str) {
    let adaptor = format!("{server}/adaptor-1");
    let model = if server.contains("blade") {
        "UCSB-MLOM-40G-04"
    } else {
        "UCSC-PCIE-C40Q-03"
    };
    t.put(
        &adaptor,
        Obj::new(
            "adaptorUnit",
            &[
                ("id", "1"),
                ("model", model),
                ("vendor", "Cisco Systems Inc"),
            ],
        ),
    );
    for (id, name, side, link) in [(1u8, "eth0", "A", "up"), (2, "eth1", "B", "down")] {
        t.put(
            format!("{adaptor}/host-eth-{id}"),
            Obj::new(
                "adaptorHostEthIf",
                &[
                    ("id", &id.to_string()),
                    ("name", name),
                    ("mac", &sim_mac(server, id)),
                    ("switchId", side),
                    ("linkState", link),
                    ("order", &id.to_string()),
                ],
            ),
        );
    }
}

/// A board with one controller and two disks (one online, one JBOD), each with `extra` set.
fn add_disks(t: &mut Tree, server: &str, disk_prefix: &str, extra: &[(&str, &str)]) -> Vec<String> {
    t.put(
        format!("{server}/board"),
        Obj::new("computeBoard", &[("id", "1")]),
    );
    let ctl = format!("{server}/board/storage-SAS-1");
    t.put(
        &ctl,
        Obj::new(
            "storageController",
            &[
                ("type", "SAS"),
                ("id", "1"),
                ("model", "Cisco 12G SAS RAID"),
            ],
        ),
    );
    let mut disks = Vec::new();
    for (id, state, d) in [("1", "online", &DISKS[0]), ("2", "jbod", &DISKS[1])] {
        let serial = disk_serial(server, d, id);
        let mut disk = Obj::new(
            "storageLocalDisk",
            &[
                ("id", id),
                ("diskState", state),
                ("size", d.mb),
                ("model", d.model),
                ("vendor", d.vendor),
                ("serial", &serial),
                ("deviceType", d.media),
                ("connectionProtocol", d.protocol),
            ],
        );
        for (k, v) in extra {
            disk.set(k, *v);
        }
        let dn = format!("{ctl}/{disk_prefix}-{id}");
        t.put(&dn, disk);
        disks.push(dn);
    }
    add_nics(t, server);
    if server.contains("rack-unit") {
        // A 32 GB FlexFlash SD card: it must never be taken for the install disk.
        let ff = format!("{server}/board/storage-flexflash-1");
        t.put(&ff, Obj::new("storageFlexFlashController", &[("id", "1")]));
        let digits: String = server.chars().filter(char::is_ascii_digit).collect();
        t.put(
            format!("{ff}/card-1"),
            Obj::new(
                "storageFlexFlashCard",
                &[
                    ("slotNumber", "1"),
                    ("size", "30436"),
                    ("cardType", "FX3S configured"),
                    ("vendor", "Cypress"),
                    ("model", "FlexFlash SD"),
                    ("serial", &format!("FF{digits}1")),
                ],
            ),
        );
    }
    disks
}

/// The UCS Manager rack unit whose controller presents a RAID 1 virtual drive.
pub const RAID_RACK_UNIT: u32 = 2;

/// A third disk on `server`'s controller, a twin of its SSD in slot 1, and virtual drive
/// `vd-0` mirroring the two: the installed system sees `vd-0`, not disks 1 and 3.
fn add_mirror(t: &mut Tree, server: &str) {
    let ctl = format!("{server}/board/storage-SAS-1");
    let d = &DISKS[0];
    t.put(
        format!("{ctl}/disk-3"),
        Obj::new(
            "storageLocalDisk",
            &[
                ("id", "3"),
                ("diskState", "online"),
                ("size", d.mb),
                ("model", d.model),
                ("vendor", d.vendor),
                ("serial", &disk_serial(server, d, "3")),
                ("deviceType", d.media),
                ("connectionProtocol", d.protocol),
                ("adminAction", "unspecified"),
            ],
        ),
    );
    let vd = format!("{ctl}/vd-0");
    t.put(
        &vd,
        Obj::new(
            "storageVirtualDrive",
            &[
                ("id", "0"),
                ("name", "Boot"),
                ("type", "mirror"),
                ("size", d.mb),
                ("numberOfBlocks", &d.blocks()),
                ("blockSize", "512"),
                ("driveState", "optimal"),
                ("operState", "online"),
                ("presence", "equipped"),
                ("bootable", "true"),
                ("connectionProtocol", d.protocol),
                ("vendorUuid", "6c4f5e5a-7b1d-4d3e-9c1a-2b3c4d5e6f70"),
            ],
        ),
    );
    for id in ["1", "3"] {
        t.put(
            format!("{vd}/member-{id}"),
            Obj::new(
                "storageVDMemberEp",
                &[
                    ("id", id),
                    ("role", "normal"),
                    ("spanId", "0"),
                    ("presence", "equipped"),
                    ("operability", "operable"),
                    ("serial", &disk_serial(server, d, id)),
                ],
            ),
        );
    }
}

/// A finished discovery FSM under `server`.
fn add_fsm(t: &mut Tree, server: &str, fsm_class: &str, stage_class: &str) {
    let fsm = format!("{server}/fsm");
    t.put(
        &fsm,
        Obj::new(
            fsm_class,
            &[
                ("currentFsm", "Discover"),
                ("progress", "100"),
                ("completionTime", STAMP),
            ],
        ),
    );
    for (i, (name, status)) in [
        ("DiscoverBegin", "success"),
        ("DiscoverBiosPostCompletion", "success"),
        ("DiscoverSuccess", "success"),
        ("DiscoverPnuOSIdent", "skip"),
    ]
    .iter()
    .enumerate()
    {
        t.put(
            format!("{fsm}/stage-{name}"),
            Obj::new(
                stage_class,
                &[
                    ("name", name),
                    ("order", &(i + 1).to_string()),
                    ("retry", "0"),
                    ("stageStatus", status),
                    ("descr", &format!("{name} of the server")),
                    ("lastUpdateTime", STAMP),
                ],
            ),
        );
    }
}

/// The time stamp UCSM-style: milliseconds, no zone.
pub const STAMP: &str = "2026-01-01T00:00:00.000";

fn build_imc() -> Tree {
    let mut t = Tree::default();
    t.put(
        "sys",
        Obj::new(
            "topSystem",
            &[("name", "sim-imc"), ("address", "127.0.0.1")],
        ),
    );
    let ru = "sys/rack-unit-1";
    t.put(
        ru,
        Obj::new(
            "computeRackUnit",
            &[
                ("serverId", "1"),
                ("model", "UCSC-C220-M5SX"),
                ("serial", "WZP23100SIM"),
                ("uuid", "5ec1b2a4-0000-4000-8000-00000000c220"),
                ("numOfCpus", "2"),
                ("numOfCores", "20"),
                ("numOfThreads", "40"),
                ("totalMemory", "131072"),
                ("memorySpeed", "2666"),
                ("operPower", "off"),
                ("adminPower", "policy"),
                ("usrLbl", ""),
                ("name", "sim-c220"),
            ],
        ),
    );
    t.put(
        format!("{ru}/bios"),
        Obj::new("biosUnit", &[("model", "UCSC-C220-M5SX")]),
    );
    t.put(format!("{ru}/board"), Obj::new("computeBoard", &[]));
    let ctl = format!("{ru}/board/storage-SAS-MRAID");
    t.put(
        &ctl,
        Obj::new(
            "storageController",
            &[
                ("type", "SAS"),
                ("id", "MRAID"),
                ("model", "Cisco 12G Modular Raid Controller"),
            ],
        ),
    );
    for (id, state, d) in [("1", "Online", &DISKS[0]), ("2", "JBOD", &DISKS[1])] {
        let serial = disk_serial(ru, d, id);
        t.put(
            format!("{ctl}/pd-{id}"),
            Obj::new(
                "storageLocalDisk",
                &[
                    ("id", id),
                    ("pdState", state),
                    ("coercedSize", &format!("{} MB", d.mb)),
                    ("productId", d.model),
                    ("vendor", d.vendor),
                    ("driveSerialNumber", &serial),
                    ("mediaType", d.media),
                    ("interfaceType", d.protocol),
                ],
            ),
        );
    }
    // Disk 1 is `Online` because it is the single member of a RAID 0 virtual drive, as an
    // IMC sets up a boot disk; the JBOD disk 2 is seen by itself.
    let vd = format!("{ctl}/vd-0");
    t.put(
        &vd,
        Obj::new(
            "storageVirtualDrive",
            &[
                ("id", "0"),
                ("name", "boot"),
                ("raidLevel", "0"),
                ("size", &format!("{} MB", DISKS[0].mb)),
                ("physicalDrivesList", "1"),
                ("driveState", "Optimal"),
                ("vdStatus", "Optimal"),
                ("bootDrive", "true"),
            ],
        ),
    );
    t.put(
        format!("{vd}/pd-1"),
        Obj::new(
            "storageLocalDiskUsage",
            &[
                ("physicalDrive", "1"),
                ("virtualDrive", "0"),
                ("state", "online"),
                ("span", "0"),
                ("startingBlock", "0"),
                ("numberOfBlocks", &DISKS[0].blocks()),
            ],
        ),
    );
    t.put(
        format!("{ru}/adaptor-1"),
        Obj::new("adaptorUnit", &[("id", "1")]),
    );
    for (id, name) in [(1u8, "eth0"), (2, "eth1")] {
        t.put(
            format!("{ru}/adaptor-1/host-eth-{name}"),
            Obj::new(
                "adaptorHostEthIf",
                &[("name", name), ("mac", &sim_mac(ru, id)), ("mtu", "1500")],
            ),
        );
    }
    let ff = format!("{ru}/board/storage-flexflash-FlexFlash-0");
    t.put(
        &ff,
        Obj::new("storageFlexFlashController", &[("id", "FlexFlash-0")]),
    );
    t.put(
        format!("{ff}/card-1"),
        Obj::new(
            "storageFlexFlashPhysicalDrive",
            &[
                ("physicalDriveId", "1"),
                ("capacity", "30436 MB"),
                ("cardType", "FX3S configured"),
                ("productName", "FlexFlash SD"),
                ("serialNumber", "FF11"),
            ],
        ),
    );
    t.put("sys/svc-ext", Obj::new("commSvcEp", &[]));
    t.put(
        "sys/svc-ext/vmedia-svc",
        // Lower case: imcsdk's vmedia_exists expects to read back "enabled".
        Obj::new("commVMedia", &[("adminState", "enabled")]),
    );
    t.put(
        format!("{ru}/boot-precision"),
        Obj::new(
            "lsbootDevPrecision",
            &[("configuredBootMode", "Legacy"), ("rebootOnUpdate", "no")],
        ),
    );
    t
}

/// A server's properties while no profile holds it: as discovered, and once released.
pub(crate) const UNASSOCIATED: &[(&str, &str)] = &[
    ("association", "none"),
    ("assignedToDn", ""),
    ("availability", "available"),
    ("operState", "unassociated"),
    ("operPower", "off"),
];

/// A blade as both managers show it (UCSM adds its FSM status on top).
fn blade_obj(c: u32, s: u32, serial: &str, uuid: &str) -> Obj {
    let odd = s % 2 == 1;
    Obj::new(
        "computeBlade",
        &[
            ("chassisId", &c.to_string()),
            ("slotId", &s.to_string()),
            ("model", if odd { "UCSB-B200-M5" } else { "UCSB-B200-M6" }),
            ("serial", serial),
            ("uuid", uuid),
            ("numOfCpus", "2"),
            ("numOfCores", if odd { "24" } else { "32" }),
            ("numOfThreads", if odd { "48" } else { "64" }),
            ("totalMemory", if odd { "196608" } else { "262144" }),
            ("memorySpeed", if odd { "2666" } else { "3200" }),
            ("adminPower", "policy"),
            ("presence", "equipped"),
            ("usrLbl", ""),
        ],
    )
    .with(UNASSOCIATED)
}

/// A UCS-managed rack unit (UCSM adds its FSM status on top).
fn rack_obj(r: u32, serial: &str) -> Obj {
    Obj::new(
        "computeRackUnit",
        &[
            ("id", &r.to_string()),
            ("model", "UCSC-C220-M5SX"),
            ("serial", serial),
            ("numOfCpus", "2"),
            ("numOfCores", "28"),
            ("numOfThreads", "56"),
            ("totalMemory", "393216"),
            ("memorySpeed", "2933"),
            ("adminPower", "policy"),
            ("presence", "equipped"),
            ("usrLbl", ""),
        ],
    )
    .with(UNASSOCIATED)
}

/// Every org on the way from org-root down to `org` (org-root itself included).
fn ensure_orgs(t: &mut Tree, org: &str) {
    let mut dn = String::new();
    for rn in org.split('/') {
        if !dn.is_empty() {
            dn.push('/');
        }
        dn.push_str(rn);
        if t.get(&dn).is_none() {
            let name = if dn == "org-root" {
                "root"
            } else {
                rn.strip_prefix("org-").unwrap_or(rn)
            };
            t.put(&dn, Obj::new("orgOrg", &[("name", name), ("descr", "")]));
        }
    }
}

/// Updating templates, each in org-root or the sub-org its path names.
fn put_templates(t: &mut Tree, templates: &[String]) {
    for path in templates {
        let dn = org_path_dn(path, "ls-");
        ensure_orgs(t, split_dn(&dn).0);
        let name = path.rsplit('/').next().unwrap_or(path);
        t.put(
            dn,
            Obj::new(
                "lsServer",
                &[
                    ("name", name),
                    ("type", "updating-template"),
                    ("assocState", "unassociated"),
                    ("descr", ""),
                ],
            ),
        );
    }
}

/// The name UCS Central shows for a registered domain.
pub fn domain_name(id: u32) -> String {
    format!("ucs-{id}")
}

/// Global profile `sp` as Central shows it once `server` (a domain's) is its server: the
/// domain it is deployed to.
pub(crate) fn set_domain(t: &mut Tree, sp: &str, server: &str) {
    if let Some((domain, _)) = split_central_dn(server) {
        t.update(
            sp,
            &[
                ("domain", &domain_name(domain)),
                ("domainDn", &format!("compute/sys-{domain}")),
            ],
        );
    }
}

/// What UCS Central keeps once a global profile is deployed to a domain: its requirement,
/// the domain's instance, and the instance's operation objects (implicit on a real Central,
/// so a Set on them is accepted).
pub(crate) fn put_instance(t: &mut Tree, sp: &str, server: &str, assoc: &str) {
    let Some((domain, _)) = split_central_dn(server) else {
        return;
    };
    let name = split_dn(sp)
        .1
        .strip_prefix("ls-")
        .unwrap_or_default()
        .to_owned();
    let req = requirement_dn(sp);
    if t.get(&req).is_none() {
        t.put(&req, Obj::new("computeRequirement", &[("name", &name)]));
    }
    let ok = if assoc == "associated" {
        "ok"
    } else {
        "config"
    };
    t.update(&req, &[("operState", ok)]);
    // A profile lives on one server: an instance in another domain is gone.
    let stale: Vec<String> = t
        .children(&req)
        .filter(|(d, _)| split_dn(d).1 != format!("inst-{domain}"))
        .map(|(d, _)| d.to_owned())
        .collect();
    for d in stale {
        t.remove_subtree(&d);
    }
    let inst = format!("{req}/inst-{domain}");
    if t.get(&inst).is_none() {
        t.put(
            &inst,
            Obj::new(
                "computeInstance",
                &[("id", &domain.to_string()), ("name", &name)],
            ),
        );
    }
    let applied = if assoc == "associated" {
        "applied"
    } else {
        "applying"
    };
    t.update(
        &inst,
        &[
            ("assocState", assoc),
            ("configState", applied),
            ("operState", ok),
            ("physDn", server),
            ("globalLsDn", sp),
            ("systemName", &domain_name(domain)),
        ],
    );
    if t.get(&format!("{inst}/power")).is_none() {
        t.put(
            format!("{inst}/power"),
            Obj::new("lsPower", &[("state", "up")]),
        );
    }
    if t.get(&format!("{inst}/remote-oper")).is_none() {
        t.put(
            format!("{inst}/remote-oper"),
            Obj::new("lsServerOperation", &[("state", "up")]),
        );
    }
}

impl Domain {
    fn build_ucsc(&self) -> Tree {
        let mut t = Tree::default();
        // The SDK reads sys at login for the Central's name and address.
        put_top_system(&mut t, "sim-ucsc", "127.0.0.1");
        t.put("compute", Obj::new("computeResourceAggrEp", &[]));
        t.put("extpol", Obj::new("extpolEp", &[]));
        t.put("extpol/reg", Obj::new("extpolRegistry", &[]));
        t.put("extpol/reg/clients", Obj::new("extpolClientCont", &[]));
        for (i, id) in self.domain_ids().enumerate() {
            let n = i as u32 + 1;
            let name = domain_name(id);
            let address = format!("10.10.{n}.10");
            let sys = format!("compute/sys-{id}");
            t.put(
                &sys,
                Obj::new(
                    "computeSystem",
                    &[
                        ("id", &id.to_string()),
                        ("name", &name),
                        ("address", &address),
                        ("descr", ""),
                    ],
                ),
            );
            t.put(
                format!("extpol/reg/clients/client-{id}"),
                Obj::new(
                    "extpolClient",
                    &[
                        ("id", &id.to_string()),
                        ("name", &name),
                        ("ip", &address),
                        ("type", "managed-endpoint"),
                        ("operState", "registered"),
                        ("connectionState", "connected"),
                        // Central polls each registered domain; the last poll that reached
                        // it is `lastPollTs` (ucscsdk ExtpolClient, UCS's time-stamp form).
                        ("lastPollTs", &crate::effects::stamp()),
                        ("lossVisibilitySource", "unknown"),
                        ("version", "4.2(3d)"),
                    ],
                ),
            );
            put_interconnects(&mut t, &sys);
            self.put_chassis(&mut t, &sys, |t, dn, c, s| {
                t.put(
                    dn,
                    blade_obj(c, s, &blade_serial(n, c, s), &blade_uuid(n, c, s)),
                );
                add_central_disks(t, dn);
            });
            for r in 1..=self.rack_units {
                let dn = format!("{sys}/rack-unit-{r}");
                let mut rack = rack_obj(r, &rack_serial(n, r));
                rack.set("uuid", format!("5ec1b2a4-0000-4000-{n:04x}-{r:012x}"));
                t.put(&dn, rack);
                add_central_disks(&mut t, &dn);
            }
        }
        ensure_orgs(&mut t, "org-root");
        put_templates(&mut t, &self.templates);
        put_san_boot_policy(&mut t);
        for (path, server) in &self.profiles {
            let sp = org_path_dn(path, "ls-");
            ensure_orgs(&mut t, split_dn(&sp).0);
            let name = path.rsplit('/').next().unwrap_or(path);
            put_profile(&mut t, &sp, name, server);
            t.update(&sp, &[("configState", "applied"), ("operState", "ok")]);
            set_domain(&mut t, &sp, server);
            t.put(
                format!("{sp}/remote-oper"),
                Obj::new("lsServerOperation", &[("state", "up")]),
            );
            put_instance(&mut t, &sp, server, "associated");
        }
        // Global VLANs live in the root domain group.
        t.put(
            "domaingroup-root",
            Obj::new("orgDomainGroup", &[("name", "root"), ("descr", "")]),
        );
        put_vlans(&mut t, "domaingroup-root/fabric");
        t
    }

    /// The part of domain `id`'s own UCS Manager tree that Central does not aggregate: its
    /// servers with their FSMs (`sys/chassis-<c>/blade-<s>/fsm`, `sys/rack-unit-<r>/fsm`).
    fn build_domain_side(&self, n: u32, id: u32) -> Tree {
        let mut t = Tree::default();
        put_top_system(&mut t, &domain_name(id), &format!("10.10.{n}.10"));
        self.put_chassis(&mut t, "sys", |t, dn, c, s| {
            t.put(
                dn,
                Obj::new(
                    "computeBlade",
                    &[
                        ("chassisId", &c.to_string()),
                        ("slotId", &s.to_string()),
                        ("serial", &blade_serial(n, c, s)),
                        ("uuid", &blade_uuid(n, c, s)),
                        ("fsmStatus", "nop"),
                    ],
                ),
            );
            add_fsm(t, dn, "computeBladeFsm", "computeBladeFsmStage");
        });
        for r in 1..=self.rack_units {
            let dn = format!("sys/rack-unit-{r}");
            t.put(
                &dn,
                Obj::new(
                    "computeRackUnit",
                    &[
                        ("id", &r.to_string()),
                        ("serial", &rack_serial(n, r)),
                        ("fsmStatus", "nop"),
                    ],
                ),
            );
            add_fsm(&mut t, &dn, "computeRackUnitFsm", "computeRackUnitFsmStage");
        }
        t
    }
}

/// Serials and uuids carry the domain's number, so they are unique across domains.
fn blade_serial(n: u32, c: u32, s: u32) -> String {
    format!("FCH{n:02}{c:03}{s:02}SIM")
}

fn blade_uuid(n: u32, c: u32, s: u32) -> String {
    format!("1b4e28ba-2fa1-11d2-{n:04x}-{c:04x}{s:08x}")
}

fn rack_serial(n: u32, r: u32) -> String {
    format!("WZP{n:02}{r:03}SIM")
}

/// A server's operation object and disks as Central shows them, each with its implicit
/// `remote-oper`: the only way to power a server without a profile, or change a disk, through
/// Central (the server and storageLocalDisk themselves are read-only there).
fn add_central_disks(t: &mut Tree, server: &str) {
    t.put(
        format!("{server}/remote-oper"),
        Obj::new("computePhysicalOperation", &[("adminPower", "policy")]),
    );
    for disk in add_disks(t, server, "disk", &[]) {
        t.put(
            format!("{disk}/remote-oper"),
            Obj::new("storageLocalDiskOperation", &[]),
        );
    }
}
