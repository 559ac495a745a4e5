"""The README's walkthrough through a client generated from the served OpenAPI document
(openapi-python-client), as an automation engineer would write it: typed models in, typed
models out, long work started with ?wait=false and followed through GET /api/v2/jobs/<id>.
Run by scripts/client-test.sh; env BOOTSMITH_URL, BOOTSMITH_TOKEN, SIM (a simulated UCS Manager)."""

import os
import sys
import time

from bootsmith_client import AuthenticatedClient
from bootsmith_client.api.deploy import deploy_server_group
from bootsmith_client.api.hosts import list_hosts, replace_hosts
from bootsmith_client.api.images import create_images
from bootsmith_client.api.isos import list_isos, set_iso_map
from bootsmith_client.api.jobs import get_job, stream_job_events
from bootsmith_client.api.networks import create_network, list_networks
from bootsmith_client.api.server_groups import create_server_group, select_servers
from bootsmith_client.api.servers import list_servers
from bootsmith_client.api.settings import replace_keys, set_svc_ip
from bootsmith_client.models import (
    DeployResult,
    DeployServerGroupUntil,
    HostInput,
    Images,
    IsoMapInput,
    Job,
    JobAccepted,
    JobState,
    KeysInput,
    NetworkCreate,
    SelectInput,
    ServerGroupCreate,
    SvcIpInput,
)

KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJRsCR05CTCVLtFICOdFoTw56mQeLuHhOQNlJKwXUwaI ops@example"
ISO = "/svc/CentOS-7-x86_64-Minimal-1708.iso"


def expect(value, kind, what):
    """The typed answer the document promises, or a failure naming what came instead."""
    if not isinstance(value, kind):
        sys.exit(f"{what}: expected {kind.__name__}, got {value!r}")
    return value


def follow(client, accepted, what):
    """Follow a job started with ?wait=false to its end, through the typed Job model."""
    expect(accepted, JobAccepted, what)
    for _ in range(600):
        job = expect(get_job.sync(str(accepted.job), client=client), Job, f"{what}: GET /api/v2/jobs/<id>")
        if job.state != JobState.RUNNING:
            break
        time.sleep(0.1)
    if job.state != JobState.SUCCEEDED:
        sys.exit(f"{what}: the job ended {job.state}: {job.error!r}")
    seqs = [e.seq for e in job.events]
    if seqs != sorted(seqs) or job.events[-1].type_ != "finished":
        sys.exit(f"{what}: events out of order or not ending with finished: {seqs}")
    return job


def main():
    client = AuthenticatedClient(
        base_url=os.environ["BOOTSMITH_URL"],
        token=os.environ["BOOTSMITH_TOKEN"],
        raise_on_unexpected_status=True,
        timeout=120,
    )
    # 1. ISOs in svc, mapped
    isos = list_isos.sync(client=client)
    if ISO.removeprefix("/svc/") not in isos.isos:
        sys.exit(f"the sample ISO is not listed: {isos!r}")
    set_iso_map.sync(client=client, body=IsoMapInput.from_dict({"iso_map": [{"file": ISO, "os": "centos7.4"}]}))
    # 2. A UCS Manager domain, its servers, a selection
    group = {"name": "pod1", "type": "ucsm", "vlan": "default",
             "credentials": {"ip": os.environ["SIM"], "user": "admin", "password": "password"}}
    create_server_group.sync(client=client, body=ServerGroupCreate.from_dict(group))
    servers = list_servers.sync("pod1", client=client)
    if not servers.servers or not all(s.dn for s in servers.servers):
        sys.exit(f"no inventory: {servers!r}")
    select_servers.sync("pod1", client=client,
                        body=SelectInput.from_dict({"servers": {"blades": ["1/2", "1/3"], "rack_servers": ["1"]}}))
    # 3., 4. Keys and the boot-server address
    replace_keys.sync(client=client, body=KeysInput.from_dict({"keys": [KEY]}))
    ip = set_svc_ip.sync(client=client, body=SvcIpInput.from_dict({"svc_ip": "127.0.0.1"}))
    if ip.kubam_ip != "127.0.0.1":
        sys.exit(f"the address under KUBAM's name: {ip!r}")
    # 5. A network group
    create_network.sync(client=client, body=NetworkCreate.from_dict(
        {"name": "mgmt", "netmask": "255.255.255.0", "gateway": "192.0.2.1",
         "nameserver": "192.0.2.53", "ntpserver": "pool.ntp.org"}))
    if [n.name for n in list_networks.sync(client=client).networks] != ["mgmt"]:
        sys.exit("the network group is not listed")
    # 6. The hosts
    hosts = [
        {"name": "kube01", "ip": "192.0.2.21", "os": "centos7.4", "role": "k8s master",
         "network_group": "mgmt", "server_group": "pod1"},
        {"name": "kube02", "ip": "192.0.2.22", "os": "centos7.4", "role": "k8s node",
         "network_group": "mgmt", "server_group": "pod1"},
    ]
    replace_hosts.sync(client=client, body=[HostInput.from_dict(h) for h in hosts])
    listed = [h.name for h in list_hosts.sync(client=client).hosts]
    if listed != ["kube01", "kube02"]:
        sys.exit(f"hosts: {listed}")
    # 7. Install media, followed as a job
    job = follow(client, create_images.sync(client=client, wait=False), "images")
    images = expect(job.result, Images, "the images job's result")
    if sorted(i.host for i in images.images) != ["kube01", "kube02"]:
        sys.exit(f"images: {images!r}")
    # 8. The plan, then the deploy followed to association
    plan = expect(deploy_server_group.sync("pod1", client=client, dry_run=True), DeployResult, "the plan")
    if not plan.dry_run or not plan.objects:
        sys.exit(f"an empty plan: {plan!r}")
    job = follow(client, deploy_server_group.sync("pod1", client=client, until=DeployServerGroupUntil.ASSOCIATED, wait=False), "deploy")
    done = expect(job.result, DeployResult, "the deploy job's result")
    outcomes = done.outcomes.additional_properties if done.outcomes else {}
    if outcomes != {"associated": 2} or done.failed_hosts:
        sys.exit(f"deploy outcomes: {outcomes} failed: {done.failed_hosts}")
    # The job's Server-Sent Events, as the generated call hands them over: the stream's text.
    stream = stream_job_events.sync(str(job.id), client=client)
    if not isinstance(stream, str) or "event: finished" not in stream or '"state":"succeeded"' not in stream:
        sys.exit(f"the event stream: {stream!r}")
    print(f"walkthrough through the generated client: {len(plan.objects)} objects planned, "
          f"{len(job.events)} deploy events, outcomes {outcomes}")


if __name__ == "__main__":
    main()
