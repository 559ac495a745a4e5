// Reads the records through the app's Tauri commands and shows them.
// Starts image runs and deploys and shows their progress. The full interface
// (forms, drag-and-drop, every screen) replaces this page later.
"use strict";

const invoke = window.__TAURI__ ? window.__TAURI__.core.invoke : null;

function text(v) {
  return v === null || v === undefined || v === "" ? "—" : String(v);
}

function fillTable(id, rows, cells) {
  const body = document.querySelector(`#${id} tbody`);
  body.replaceChildren();
  if (rows.length === 0) {
    const tr = body.insertRow();
    const td = tr.insertCell();
    td.colSpan = document.querySelectorAll(`#${id} thead th`).length;
    td.className = "empty";
    td.textContent = "None yet";
    return;
  }
  for (const row of rows) {
    const tr = body.insertRow();
    for (const value of cells(row)) tr.insertCell().textContent = text(value);
  }
}

function setStatus(label, cls) {
  const el = document.getElementById("status");
  el.textContent = label;
  el.className = `badge ${cls}`;
}

async function refresh() {
  if (!invoke) {
    setStatus("not running inside the Bootsmith app", "error");
    return;
  }
  try {
    const [ov, groups, nets, hosts, map] = await Promise.all([
      invoke("overview"),
      invoke("list_server_groups"),
      invoke("list_networks"),
      invoke("list_hosts"),
      invoke("iso_map"),
    ]);
    const dl = document.getElementById("overview");
    dl.replaceChildren();
    const facts = [
      ["Boot-server address", ov.svc_ip],
      ["REST API", ov.listen_url || ov.listen_error],
      ["Data directory", ov.data_dir],
      ["svc directory", ov.svc_dir],
      ["Records", `${ov.counts.server_groups} server groups, ${ov.counts.networks} networks, ${ov.counts.hosts} hosts, ${ov.counts.isos} ISOs (${ov.counts.mapped_isos} mapped), ${ov.counts.keys} SSH keys`],
      ["Version", ov.version],
    ];
    for (const [k, v] of facts) {
      const dt = document.createElement("dt");
      dt.textContent = k;
      const dd = document.createElement("dd");
      dd.textContent = text(v);
      dl.append(dt, dd);
    }
    const warnings = document.getElementById("warnings");
    warnings.replaceChildren(...ov.warnings.map((w) => Object.assign(document.createElement("li"), { textContent: w })));
    fillTable("server-groups", groups, (g) => [g.name, g.type, g.credentials.ip, g.credentials.user,
      [...g.server_pool.blades, ...g.server_pool.rack_servers.map((r) => `rack ${r}`)].join(", ")]);
    fillTable("networks", nets, (n) => [n.name, n.netmask, n.gateway, n.nameserver, n.ntpserver, n.vlan]);
    fillTable("hosts", hosts, (h) => [h.name, h.ip, h.os, h.role, h.network_group, h.server_group]);
    fillTable("iso-map", map, (m) => [m.file, m.os]);
    fillGroups(groups.map((g) => g.name));
    setStatus("ok", "ok");
  } catch (e) {
    setStatus(e && e.error ? e.error : String(e), "error");
  }
}

// An error from a command, in words: the sentence, then each listed problem.
function describe(e) {
  if (!e || !e.error) return String(e);
  return e.error;
}

// Follow a job's events into a log list, a status line and (for byte progress) a bar;
// `done(result)` words the outcome of a job that succeeded.
async function watchJob(id, { log, status, bar }, done) {
  status.className = "";
  status.textContent = "Working…";
  const channel = new window.__TAURI__.core.Channel();
  channel.onmessage = (ev) => {
    if (ev.type === "bytes" && bar) {
      bar.hidden = ev.done >= ev.total;
      bar.max = ev.total || 1;
      bar.value = ev.done;
      status.textContent = `${ev.step}: ${Math.floor(ev.done / 1048576)} of ${Math.ceil(ev.total / 1048576)} MiB`;
    } else if (ev.type === "step") {
      const who = ev.host ? `${ev.host}: ` : "";
      const what = ev.message ? ` (${ev.message})` : "";
      const li = document.createElement("li");
      li.textContent = `${who}${ev.step} ${ev.state}${what}`;
      li.className = ev.state;
      log.append(li);
    } else if (ev.type === "finished") {
      if (bar) bar.hidden = true;
      if (ev.state === "succeeded") {
        status.textContent = done(ev.result);
        status.className = "ok";
      } else {
        status.textContent = describe(ev.error);
        status.className = "error";
      }
    }
  };
  try {
    await invoke("job_watch", { id, onEvent: channel });
  } catch (e) {
    status.textContent = describe(e);
    status.className = "error";
  }
}

// Start an image run and follow its events until it finishes.
async function makeImages() {
  const status = document.getElementById("images-status");
  const log = document.getElementById("images-log");
  const bar = document.getElementById("images-bytes");
  const button = document.getElementById("make-images");
  log.replaceChildren();
  bar.hidden = true;
  status.className = "";
  status.textContent = "Checking the records…";
  let id;
  try {
    id = await invoke("make_images", {});
  } catch (e) {
    status.textContent = describe(e);
    status.className = "error";
    return;
  }
  button.disabled = true;
  await watchJob(id, { log, status, bar }, (r) =>
    `Done: ${r.images.length} answer images, ${r.boot_isos.length} boot ISOs.`);
  button.disabled = false;
  refresh();
}

// The group picker of the deploy section, keeping the current choice.
function fillGroups(names) {
  const select = document.getElementById("deploy-group");
  const current = select.value;
  select.replaceChildren(...names.map((n) => Object.assign(document.createElement("option"), { value: n, textContent: n })));
  if (names.includes(current)) select.value = current;
}

const deployEls = () => ({
  group: document.getElementById("deploy-group").value,
  status: document.getElementById("deploy-status"),
  log: document.getElementById("deploy-log"),
  plan: document.getElementById("deploy-plan"),
  apply: document.getElementById("deploy-apply"),
});

// What a deploy would do, as a table and a one-line count; enables Deploy.
async function previewDeploy() {
  const { group, status, log, plan, apply } = deployEls();
  log.replaceChildren();
  apply.disabled = true;
  status.className = "";
  status.textContent = `Reading ${group}…`;
  try {
    const p = await invoke("deploy_plan", { group });
    plan.hidden = false;
    fillTable("deploy-plan", p.objects, (o) => [o.action, o.dn, o.class, (o.changed || []).join("; ")]);
    // Row colour by action, so what will change stands out from what stays.
    [...plan.tBodies[0].rows].forEach((tr, i) => { if (p.objects[i]) tr.className = p.objects[i].action; });
    const count = (a) => p.objects.filter((o) => o.action === a).length;
    status.textContent = `${p.os} on ${group}: ${count("create")} to create, ${count("modify")} to modify, ${count("delete")} to delete, ${count("unchanged")} unchanged.`;
    apply.disabled = false;
  } catch (e) {
    plan.hidden = true;
    status.textContent = describe(e);
    status.className = "error";
  }
}

// Deploy (or only the vMedia policy) and follow the job: objects, association, FSM stages, power.
async function runDeploy(command) {
  const { group, status, log, apply } = deployEls();
  const follow = document.getElementById("deploy-follow").checked;
  const restart = document.getElementById("deploy-restart").checked;
  log.replaceChildren();
  apply.disabled = true;
  let id;
  try {
    id = await invoke(command, command === "deploy" ? { group, follow, restart } : { group });
  } catch (e) {
    status.textContent = describe(e);
    status.className = "error";
    return;
  }
  await watchJob(id, { log, status }, (r) => {
    const written = r.objects.filter((o) => o.action !== "unchanged").length;
    const hosts = (r.hosts || []).map((h) => `${h.host} ${h.association}${h.server ? ` on ${h.server}` : ""}`);
    return `Deployed to ${group}: ${written} of ${r.objects.length} objects written.${hosts.length ? ` ${hosts.join(", ")}.` : ""}`;
  });
  refresh();
}

document.getElementById("refresh").addEventListener("click", refresh);
document.getElementById("make-images").addEventListener("click", () => {
  if (invoke) makeImages();
});
document.getElementById("deploy-preview").addEventListener("click", () => {
  if (invoke) previewDeploy();
});
document.getElementById("deploy-apply").addEventListener("click", () => {
  if (invoke) runDeploy("deploy");
});
document.getElementById("deploy-vmedia").addEventListener("click", () => {
  if (invoke) runDeploy("deploy_vmedia");
});
refresh();
