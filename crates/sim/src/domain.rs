//! The hardware a simulator starts with: a UCS Manager domain (chassis with
//! blades, rack units, disks, FSMs, VLANs, templates) or one standalone IMC
//! rack server.

use crate::tree::{Obj, Tree};

/// Which manager to simulate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// UCS Manager.
    Ucsm,
    /// Standalone Cisco IMC.
    Imc,
}

/// Shape of the simulated domain.
#[derive(Debug, Clone)]
pub struct Domain {
    /// Manager kind.
    pub kind: Kind,
    /// Chassis count (UCSM).
    pub chassis: u32,
    /// Blades in each chassis, at most 8 (UCSM).
    pub blades_per_chassis: u32,
    /// Rack units managed by UCSM.
    pub rack_units: u32,
    /// Service-profile templates in org-root (UCSM).
    pub templates: Vec<String>,
    /// Existing service profiles bound to servers: (name, server dn), associated and powered on.
    pub profiles: Vec<(String, String)>,
}

impl Domain {
    /// A small UCSM domain: 2 chassis × 4 blades, 2 rack units, two templates, one associated profile.
    pub fn ucsm() -> Domain {
        Domain {
            kind: Kind::Ucsm,
            chassis: 2,
            blades_per_chassis: 4,
            rack_units: 2,
            templates: vec!["c7-template".into(), "esxi-template".into()],
            profiles: vec![("existing-sp".into(), "sys/chassis-1/blade-1".into())],
        }
    }

    /// One standalone C-series server behind its IMC.
    pub fn imc() -> Domain {
        Domain {
            kind: Kind::Imc,
            chassis: 0,
            blades_per_chassis: 0,
            rack_units: 1,
            templates: Vec::new(),
            profiles: Vec::new(),
        }
    }

    /// Build the object tree.
    pub fn build(&self) -> Tree {
        match self.kind {
            Kind::Ucsm => self.build_ucsm(),
            Kind::Imc => build_imc(),
        }
    }

    fn build_ucsm(&self) -> Tree {
        let mut t = Tree::default();
        t.put(
            "sys",
            Obj::new(
                "topSystem",
                &[
                    ("name", "sim-ucsm"),
                    ("address", "127.0.0.1"),
                    ("mode", "cluster"),
                ],
            ),
        );
        for fi in ["A", "B"] {
            t.put(
                format!("sys/switch-{fi}"),
                Obj::new("networkElement", &[("id", fi), ("model", "UCS-FI-6454")]),
            );
        }
        for c in 1..=self.chassis {
            let cdn = format!("sys/chassis-{c}");
            t.put(
                &cdn,
                Obj::new(
                    "equipmentChassis",
                    &[("id", &c.to_string()), ("model", "UCSB-5108-AC2")],
                ),
            );
            for s in 1..=self.blades_per_chassis.min(8) {
                let dn = format!("{cdn}/blade-{s}");
                let serial = format!("FCH{c:03}{s:04}SIM");
                let uuid = format!("1b4e28ba-2fa1-11d2-{c:04x}-{s:012x}");
                t.put(
                    &dn,
                    Obj::new(
                        "computeBlade",
                        &[
                            ("chassisId", &c.to_string()),
                            ("slotId", &s.to_string()),
                            (
                                "model",
                                if s % 2 == 1 {
                                    "UCSB-B200-M5"
                                } else {
                                    "UCSB-B200-M6"
                                },
                            ),
                            ("serial", &serial),
                            ("uuid", &uuid),
                            ("numOfCpus", "2"),
                            ("numOfCores", if s % 2 == 1 { "24" } else { "32" }),
                            ("numOfThreads", if s % 2 == 1 { "48" } else { "64" }),
                            ("totalMemory", if s % 2 == 1 { "196608" } else { "262144" }),
                            ("memorySpeed", if s % 2 == 1 { "2666" } else { "3200" }),
                            ("operPower", "off"),
                            ("adminPower", "policy"),
                            ("association", "none"),
                            ("assignedToDn", ""),
                            ("availability", "available"),
                            ("presence", "equipped"),
                            ("operState", "unassociated"),
                            ("usrLbl", ""),
                            ("fsmStatus", "nop"),
                        ],
                    ),
                );
                add_disks_and_fsm(
                    &mut t,
                    &dn,
                    "computeBladeFsm",
                    "computeBladeFsmStage",
                    "disk",
                );
            }
        }
        for r in 1..=self.rack_units {
            let dn = format!("sys/rack-unit-{r}");
            t.put(
                &dn,
                Obj::new(
                    "computeRackUnit",
                    &[
                        ("id", &r.to_string()),
                        ("model", "UCSC-C220-M5SX"),
                        ("serial", &format!("WZP{r:05}SIM")),
                        ("numOfCpus", "2"),
                        ("numOfCores", "28"),
                        ("numOfThreads", "56"),
                        ("totalMemory", "393216"),
                        ("memorySpeed", "2933"),
                        ("operPower", "off"),
                        ("adminPower", "policy"),
                        ("association", "none"),
                        ("assignedToDn", ""),
                        ("availability", "available"),
                        ("presence", "equipped"),
                        ("operState", "unassociated"),
                        ("usrLbl", ""),
                        ("fsmStatus", "nop"),
                    ],
                ),
            );
            add_disks_and_fsm(
                &mut t,
                &dn,
                "computeRackUnitFsm",
                "computeRackUnitFsmStage",
                "disk",
            );
        }
        t.put(
            "org-root",
            Obj::new("orgOrg", &[("name", "root"), ("descr", "")]),
        );
        for name in &self.templates {
            t.put(
                format!("org-root/ls-{name}"),
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
        for (name, server) in &self.profiles {
            let sp = format!("org-root/ls-{name}");
            t.put(
                &sp,
                Obj::new(
                    "lsServer",
                    &[
                        ("name", name),
                        ("type", "instance"),
                        ("assocState", "associated"),
                        ("pnDn", server),
                        ("descr", ""),
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
            if let Some(s) = t.get_mut(server) {
                s.set("association", "associated");
                s.set("assignedToDn", sp.clone());
                s.set("operPower", "on");
                s.set("operState", "ok");
                s.set("availability", "unavailable");
            }
        }
        t.put("fabric", Obj::new("fabricEp", &[]));
        t.put("fabric/lan", Obj::new("fabricLanCloud", &[]));
        t.put(
            "fabric/lan/net-default",
            Obj::new(
                "fabricVlan",
                &[("name", "default"), ("id", "1"), ("defaultNet", "yes")],
            ),
        );
        t.put(
            "fabric/lan/net-mgmt-30",
            Obj::new(
                "fabricVlan",
                &[("name", "mgmt-30"), ("id", "30"), ("defaultNet", "no")],
            ),
        );
        t
    }
}

/// A board with one controller and two disks, and a finished discovery FSM.
fn add_disks_and_fsm(
    t: &mut Tree,
    server: &str,
    fsm_class: &str,
    stage_class: &str,
    disk_prefix: &str,
) {
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
    for (id, state) in [("1", "online"), ("2", "jbod")] {
        t.put(
            format!("{ctl}/{disk_prefix}-{id}"),
            Obj::new(
                "storageLocalDisk",
                &[
                    ("id", id),
                    ("diskState", state),
                    ("adminAction", "unspecified"),
                    ("size", "915715"),
                    ("model", "ST1000NX0423"),
                ],
            ),
        );
    }
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
    for (id, state) in [("1", "Online"), ("2", "JBOD")] {
        t.put(
            format!("{ctl}/pd-{id}"),
            Obj::new(
                "storageLocalDisk",
                &[
                    ("id", id),
                    ("pdState", state),
                    ("coercedSize", "952720 MB"),
                    ("productId", "ST1000NX0423"),
                ],
            ),
        );
    }
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
