//! Following a deploy on a manager with service profiles: each host's profile until it is
//! associated (its FSM stages and power reported on the way), then its server's controller
//! until it has mounted the profile's media or failed to.

use std::time::Instant;

use bootsmith_ucs::policies;
use bootsmith_ucs::{ActualMount, Endpoint};

use super::{node, profile_dn, vmedia_policy, Profiles, ASSOCIATION_WAIT, MOUNT_WAIT, POLL};
use crate::error::Result;
use crate::jobs::{JobCtx, JobStep, StepState};
use crate::managers::model::*;
use crate::managers::ucs::{media_progress, mount_reason, report_media, ImageMount, Mounted};

/// A host whose profile is associated, its server mounting the profile's media.
struct Mounting {
    /// Index of the host.
    host: usize,
    /// The server's DN.
    server: String,
    /// The vMedia policy in force for the profile (`operVmediaPolicyName`).
    policy: String,
    /// When the association ended.
    since: Instant,
}

impl<const CENTRAL: bool> Profiles<CENTRAL> {
    /// Watch every host's profile until it is associated or failed (or the wait runs out),
    /// reporting per host the `association`, each FSM stage its server passes (`fsm`) and
    /// the server's `power`; then whether its server's controller mounted the images of the
    /// profile's vMedia policy (`media`: mounted, or which URL failed and why). Two reads
    /// per poll however many hosts: the profiles, then their servers; and while servers
    /// mount, their mount entries (one read; under UCS Central one per server).
    pub(super) async fn follow_profiles(
        &self,
        ep: &Endpoint,
        spec: &DeploySpec,
        job: &JobCtx,
    ) -> Result<Vec<HostProgress>> {
        let hosts = &spec.hosts;
        let dns: Vec<String> = hosts.iter().map(|h| profile_dn(spec, h)).collect();
        for h in hosts {
            job.step(
                Some(h.name.as_str()),
                JobStep::Association,
                StepState::Started,
                None,
            );
        }
        let started = Instant::now();
        let mut open: Vec<usize> = (0..hosts.len()).collect();
        let mut mounting: Vec<Mounting> = Vec::new();
        let mut out: Vec<Option<HostProgress>> = vec![None; hosts.len()];
        let mut stage: Vec<String> = vec![String::new(); hosts.len()];
        while !open.is_empty() || !mounting.is_empty() {
            let profiles = if open.is_empty() {
                Vec::new()
            } else {
                ep.resolve_dns(&dns).await?
            };
            let profile = |i: usize| profiles.iter().find(|m| m.get("dn") == dns[i]);
            let mut servers: Vec<String> = open
                .iter()
                .filter_map(|&i| profile(i).map(|m| m.get("pnDn").to_owned()))
                .filter(|s| !s.is_empty())
                .collect();
            servers.sort();
            servers.dedup();
            let servers = if servers.is_empty() {
                Vec::new()
            } else {
                ep.resolve_dns(&servers).await?
            };
            let timed_out = started.elapsed() > ASSOCIATION_WAIT;
            let mut still = Vec::new();
            for i in open {
                let name = hosts[i].name.as_str();
                let sp = profile(i);
                let get = |prop: &str| sp.map(|m| m.get(prop).to_owned()).unwrap_or_default();
                let (state, server) = (get("assocState"), get("pnDn"));
                let blade = servers.iter().find(|m| m.get("dn") == server);
                // UCS Manager shows the FSM on the server; UCS Central keeps none for its
                // servers, and shows the profile's own instead.
                let fsm = blade
                    .filter(|b| !b.get("fsmStatus").is_empty())
                    .or(sp.filter(|_| CENTRAL));
                if let Some(f) = fsm {
                    let now = f.get("fsmStatus");
                    if !now.is_empty() && now != "nop" && now != stage[i] {
                        let progress = f.get("fsmProgr");
                        let msg = if progress.is_empty() {
                            now.to_owned()
                        } else {
                            format!("{now} ({progress}%)")
                        };
                        job.step(Some(name), JobStep::Fsm, StepState::Started, Some(&msg));
                        stage[i] = now.to_owned();
                    }
                }
                let progress = |association: &str, power: &str| HostProgress {
                    host: name.to_owned(),
                    association: association.to_owned(),
                    server: server.clone(),
                    power: power.to_owned(),
                    media: None,
                };
                // Right after a host moves, its profile may still show the old server for a moment.
                let moving = hosts[i]
                    .server
                    .as_ref()
                    .is_some_and(|n| node(CENTRAL, n).dn() != server);
                match state.as_str() {
                    "associated" if !moving => {
                        job.step(
                            Some(name),
                            JobStep::Association,
                            StepState::Done,
                            Some(&server),
                        );
                        let power = blade.map(|b| b.get("operPower")).unwrap_or_default();
                        job.step(Some(name), JobStep::Power, StepState::Done, Some(power));
                        out[i] = Some(progress(&state, power));
                        mounting.push(Mounting {
                            host: i,
                            server: server.clone(),
                            policy: get("operVmediaPolicyName"),
                            since: Instant::now(),
                        });
                    }
                    "failed" => {
                        let why = get("configQualifier");
                        job.step(
                            Some(name),
                            JobStep::Association,
                            StepState::Failed,
                            Some(&why),
                        );
                        out[i] = Some(progress(&state, ""));
                    }
                    // UCSM could not apply the profile (no free server in the pool, …).
                    _ if get("configState") == "failed-to-apply" => {
                        let why = get("configQualifier");
                        let msg = if why == "insufficient-resources" && hosts[i].server.is_none() {
                            format!(
                                "{why}: no free server in the pool; select more servers for {} or free one",
                                spec.group.name
                            )
                        } else {
                            format!("the manager could not apply the profile: {why}")
                        };
                        job.step(
                            Some(name),
                            JobStep::Association,
                            StepState::Failed,
                            Some(&msg),
                        );
                        out[i] = Some(progress("failed", ""));
                    }
                    other if timed_out => {
                        let msg = format!(
                            "still {} after {} min; follow {}'s FSM stages",
                            if other.is_empty() {
                                "unassociated"
                            } else {
                                other
                            },
                            ASSOCIATION_WAIT.as_secs() / 60,
                            spec.group.name
                        );
                        job.step(
                            Some(name),
                            JobStep::Association,
                            StepState::Skipped,
                            Some(&msg),
                        );
                        out[i] = Some(progress(other, ""));
                    }
                    _ => still.push(i),
                }
            }
            open = still;
            mounting = self.watch_mounts(ep, spec, job, mounting, &mut out).await?;
            if !open.is_empty() || !mounting.is_empty() {
                tokio::time::sleep(POLL).await;
            }
        }
        Ok(out.into_iter().flatten().collect())
    }

    /// One look at the mounts of the servers in `mounting`: a host whose images are all
    /// mounted, or one failed, gets its `media` step and result; the others are given back
    /// to look at again. The images expected are those of Bootsmith's vMedia policy when the
    /// profile runs on it (an entry not listed yet is still on its way); under another
    /// policy, whatever the server lists.
    async fn watch_mounts(
        &self,
        ep: &Endpoint,
        spec: &DeploySpec,
        job: &JobCtx,
        mounting: Vec<Mounting>,
        out: &mut [Option<HostProgress>],
    ) -> Result<Vec<Mounting>> {
        if mounting.is_empty() {
            return Ok(mounting);
        }
        let mounts: Vec<ActualMount> = if CENTRAL {
            let reads = mounting.iter().map(|m| ep.central_actual_mounts(&m.server));
            let mut all = Vec::new();
            for read in futures::future::join_all(reads).await {
                all.extend(read?);
            }
            all
        } else {
            ep.actual_mounts().await?
        };
        let ours = vmedia_policy(spec);
        let mut expected = vec![policies::CD_MAPPING];
        if ours.hdd_per_profile {
            expected.push(policies::HDD_MAPPING);
        }
        let mut still = Vec::new();
        for m in mounting {
            let host = &spec.hosts[m.host];
            let name = host.name.as_str();
            let listed: Vec<&ActualMount> =
                mounts.iter().filter(|a| a.server_dn == m.server).collect();
            let mut mounts: Vec<ImageMount> = listed
                .iter()
                .map(|a| ImageMount {
                    url: a.url(name),
                    state: if a.failed() {
                        Mounted::Failed(mount_reason(&a.error_type))
                    } else if a.is_pending() {
                        Mounted::Pending
                    } else {
                        Mounted::Yes
                    },
                })
                .collect();
            if m.policy == ours.dn() {
                let missing = expected
                    .iter()
                    .filter(|e| !listed.iter().any(|a| a.mapping_name == **e));
                for mapping in missing {
                    let media = spec.media_of(name);
                    let file = if *mapping == policies::CD_MAPPING {
                        media.boot.clone()
                    } else {
                        media.answer.clone().unwrap_or_default()
                    };
                    mounts.push(ImageMount {
                        url: format!("{}{file}", spec.media.url()),
                        state: Mounted::Pending,
                    });
                }
            }
            if mounts.is_empty() {
                continue; // its policy mounts nothing
            }
            let waited = m.since.elapsed();
            match media_progress(name, &m.server, &mounts, waited > MOUNT_WAIT) {
                Some(media) => {
                    report_media(job, name, &media, waited);
                    if let Some(p) = out[m.host].as_mut() {
                        p.media = Some(media);
                    }
                }
                None => still.push(m),
            }
        }
        Ok(still)
    }
}
