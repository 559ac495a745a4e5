// Reads the records through the app's Tauri commands and shows them.
// The full interface (forms, drag-and-drop, progress) replaces this page later.
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
    setStatus("ok", "ok");
  } catch (e) {
    setStatus(e && e.error ? e.error : String(e), "error");
  }
}

document.getElementById("refresh").addEventListener("click", refresh);
refresh();
