// The host's network as records, in the window (issue 29): the Networks screen edits a group's
// MTU, bond (its LACP rate and hash policy offered only for the modes that take them), routes
// (a refused router marked under its row) and IPv6 gateway; the Hosts sheet takes each host's
// MACs and IPv6 address, marks a NIC given to two hosts on its cell, and reads the MACs back
// as the service keeps them; the Hosts sheet picks a host's install disk and a NIC from the
// inventory of its server. Prints what it saw as one JSON object and throws, naming what went
// wrong, when the page does otherwise.
//
// Started by tests/browser.rs against `bootsmith serve` holding tests/common's seed (the
// network lab-mgmt, 192.0.2.1/24, without a subnet; the hosts kube-master-01 and kube-node-01).
// env: BOOTSMITH_URL, BOOTSMITH_TOKEN.

import { launch, tokenPage } from "./chromium.mjs";

const base = process.env.BOOTSMITH_URL;
const token = process.env.BOOTSMITH_TOKEN;
if (!base || !token) throw new Error("BOOTSMITH_URL and BOOTSMITH_TOKEN must be set");

const seen = {};
const fail = (what) => {
  throw new Error(`Network records: ${what}; saw ${JSON.stringify(seen, null, 1)}`);
};

async function call(method, path) {
  const r = await fetch(`${base}${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
  const json = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
  return json;
}

const browser = await launch();
try {
  const { context, page } = await tokenPage(browser, token, seen);
  const shown = (css) => page.locator(css).isVisible();

  // ---- Networks: the bond's options follow its mode; a bad router is marked on its row.
  await page.goto(`${base}/ui/#/networks`);
  await page.locator("#status", { hasText: /^ok$/ }).waitFor();
  await page.locator("#networks tbody", { hasText: "lab-mgmt" }).waitFor();
  await page.click("#networks button[aria-label='Edit network lab-mgmt']");
  await page.locator("#network-name").waitFor();
  if ((await page.inputValue("#network-name")) !== "lab-mgmt") fail("Edit did not fill the form");
  seen.noBondOptions = [await shown("#network-bond-lacp"), await shown("#network-bond-hash")];
  await page.selectOption("#network-bond-mode", "802.3ad");
  seen.lacpOptions = [await shown("#network-bond-lacp"), await shown("#network-bond-hash")];
  await page.selectOption("#network-bond-mode", "active-backup");
  seen.backupOptions = [await shown("#network-bond-lacp"), await shown("#network-bond-hash")];
  if (seen.noBondOptions.some(Boolean) || seen.backupOptions.some(Boolean)) fail("a bond option is offered where the mode takes none");
  if (!seen.lacpOptions.every(Boolean)) fail("802.3ad does not offer its LACP rate and hash policy");
  await page.selectOption("#network-bond-mode", "802.3ad");
  await page.selectOption("#network-bond-lacp", "fast");
  await page.selectOption("#network-bond-hash", "layer3+4");
  await page.fill("#network-mtu", "9000");
  await page.fill("#network-ipv6_gateway", "fe80::1");
  await page.click("#network-route-add");
  await page.click("#network-route-add");
  await page.fill("#network-route-0-to", "10.0.0.0/8");
  await page.fill("#network-route-0-via", "192.0.2.254");
  await page.fill("#network-route-1-to", "172.16.0.0/12");
  await page.fill("#network-route-1-via", "203.0.113.1");
  await page.click("#network-save");
  seen.routeError = await page.locator("#network-route-1-via-error").innerText();
  if (!seen.routeError.includes("not in the group's subnet 192.0.2.0/24")) fail("the refused router is not said under its row");
  await page.fill("#network-route-1-via", "192.0.2.253");
  await page.click("#network-save");
  await page.locator("#networks-status", { hasText: "updated" }).waitFor();
  // The list reloads after the sentence: wait for the stored row, not the old one.
  await page.locator("#networks tbody tr", { hasText: "802.3ad" }).waitFor({ timeout: 10_000 }).catch(() => undefined);
  seen.row = await page.locator("#networks tbody tr", { hasText: "lab-mgmt" }).innerText();
  if (!seen.row.includes("9000") || !seen.row.includes("802.3ad, fast, layer3+4") || !seen.row.includes("fe80::1")) fail("the list does not show the group's new settings");
  const net = (await call("GET", "/api/v2/networks/lab-mgmt"));
  seen.stored = { mtu: net.mtu, bond: net.bond, routes: net.routes, ipv6_gateway: net.ipv6_gateway };
  if (net.routes?.length !== 2 || net.bond?.lacp_rate !== "fast") fail("the settings were not stored as typed");
  // Edit again: the form reads the stored settings back, routes as rows.
  await page.click("#networks button[aria-label='Edit network lab-mgmt']");
  seen.readBack = [await page.inputValue("#network-mtu"), await page.inputValue("#network-bond-mode"), await page.inputValue("#network-route-1-via")];
  if (seen.readBack.join() !== "9000,802.3ad,192.0.2.253") fail("the form does not read the stored settings back");
  await page.locator("#network-form button", { hasText: "Cancel" }).click();

  // ---- Hosts: MACs in one cell; a NIC on two hosts is marked; stored lower case with colons.
  await page.click("#nav-hosts");
  await page.locator("#screen-hosts").waitFor();
  const cell = (row, field) => page.locator(`#hosts-edit [data-row='${row}'][data-field='${field}']`);
  await page.waitForFunction(() => document.querySelector("#hosts-edit [data-row='1'][data-field='name']")?.value === "kube-node-01");
  await cell(0, "macs").fill("AA-BB-CC-00-00-01, aabb.cc00.0002");
  await cell(0, "ipv6").fill("2001:db8::21/64");
  await cell(1, "macs").fill("aa:bb:cc:00:00:02");
  await page.click("#hosts-save");
  await page.locator("#hosts-problem-rows").waitFor();
  seen.macInvalid = await cell(1, "macs").getAttribute("aria-invalid");
  seen.macErrors = await page.locator("#hosts-edit .row-error").allInnerTexts();
  if (seen.macInvalid !== "true") fail("the reused MAC's cell is not marked");
  if (!seen.macErrors.some((t) => t.includes("MAC 1: aa:bb:cc:00:00:02 is a NIC of host kube-master-01"))) fail("the reused MAC is not said with its host");
  await cell(1, "macs").fill("aa:bb:cc:00:00:03");
  await page.click("#hosts-save");
  await page.locator("#hosts-status", { hasText: "Saved 2 hosts" }).waitFor();
  const hosts = (await call("GET", "/api/v2/hosts")).hosts;
  seen.storedMacs = hosts.map((h) => h.macs ?? []);
  if (JSON.stringify(seen.storedMacs) !== JSON.stringify([["aa:bb:cc:00:00:01", "aa:bb:cc:00:00:02"], ["aa:bb:cc:00:00:03"]])) fail("the MACs were not stored");
  await page.reload();
  await page.waitForFunction(() => document.querySelector("#hosts-edit [data-row='1'][data-field='name']")?.value === "kube-node-01");
  seen.macsRead = await cell(0, "macs").inputValue();
  seen.ipv6Read = await cell(0, "ipv6").inputValue();
  if (seen.macsRead !== "aa:bb:cc:00:00:01, aa:bb:cc:00:00:02" || seen.ipv6Read !== "2001:db8::21/64") fail("the stored MACs and IPv6 do not read back into their cells");
  if (await page.locator("#nav-hosts-unsaved").count()) fail("MACs read back count as unsaved");

  // ---- Hosts: the disk and a NIC picked from the inventory of the host's server: one click
  // names the disk by its serial alone, a tick adds the NIC's MAC to the host's MACs.
  const nics = (await call("GET", "/api/v2/servers/pod-east/nics")).blades["1/2"] ?? [];
  const disks = (await call("GET", "/api/v2/servers/pod-east/disks")).blades["1/2"] ?? [];
  if (!nics.length || !disks.some((d) => d.serial)) fail("the simulator lists no NICs or serials for blade 1/2");
  await cell(1, "macs").fill("");
  await page.locator("#hosts-edit [data-row='1'][data-field='server'] option[value='1/2']").waitFor({ state: "attached" });
  await cell(1, "server").selectOption("1/2");
  await page.click("#hosts-edit button[aria-label^='Install disk of row 2']");
  const pick = page.locator("#hosts-edit .inventory-pick");
  await pick.locator("button[id^=hosts-inventory-read-]").click();
  await pick.locator("li", { hasText: nics[0].mac }).waitFor({ timeout: 30_000 });
  const disk = disks.find((d) => d.serial);
  await pick.locator("li", { hasText: `S/N ${disk.serial}` }).locator("button", { hasText: "Use" }).click();
  await pick.locator("li", { hasText: nics[0].mac }).locator("input[type=checkbox]").check();
  seen.pickedSummary = await page.locator("#hosts-edit button[aria-label^='Install disk of row 2']").innerText();
  seen.pickedMacs = await cell(1, "macs").inputValue();
  if (seen.pickedSummary !== `S/N ${disk.serial}`) fail("Use did not name the disk by its serial");
  if (seen.pickedMacs !== nics[0].mac) fail("the ticked NIC's MAC is not in the host's MACs");
  const shots = process.env.LAYOUT_SHOTS;
  if (shots) {
    for (const size of [{ width: 1280, height: 900 }, { width: 1024, height: 700 }]) {
      await page.setViewportSize(size);
      await pick.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/hosts-inventory-${size.width}x${size.height}.png` });
    }
  }
  await page.click("#hosts-save");
  await page.locator("#hosts-status", { hasText: "Saved 2 hosts" }).waitFor();
  const node = (await call("GET", "/api/v2/hosts")).hosts.find((h) => h.name === "kube-node-01");
  seen.pickedStored = { install_disk: node.install_disk, macs: node.macs, server: node.server };
  if (node.install_disk?.serial !== disk.serial || JSON.stringify(node.macs) !== JSON.stringify([nics[0].mac])) fail("the picked disk and MAC were not stored");

  if (seen.pageError) fail("the page threw");
  if (seen.nativeDialog) fail("a webview dialog was shown");
  await context.close();
} finally {
  await browser.close();
}
console.log(JSON.stringify(seen));
