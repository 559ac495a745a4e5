// The Hosts sheet in an operator's day (issue 27): edits survive a visit to another screen and
// the menu says they are unsaved (as do the Networks, Settings and ISO download forms); one
// save names every problem of every row; pasted rows and new rows get what a typed row gets;
// the install status shows without scrolling sideways and no badge runs under the next
// column; a row's install disk is typed, saved, read back and refused on its field (issue 29).
// Prints what it saw as one JSON object and throws, naming
// what went wrong, when the page does otherwise.
//
// Started by tests/browser.rs against `bootsmith serve` holding tests/common's seed (the
// network lab-mgmt without a subnet, the group pod-east, the hosts kube-master-01 and
// kube-node-01). env: BOOTSMITH_URL, BOOTSMITH_TOKEN.

import { launch, tokenPage } from "./chromium.mjs";

const base = process.env.BOOTSMITH_URL;
const token = process.env.BOOTSMITH_TOKEN;
if (!base || !token) throw new Error("BOOTSMITH_URL and BOOTSMITH_TOKEN must be set");

const seen = {};
const fail = (what) => {
  throw new Error(`Hosts sheet: ${what}; saw ${JSON.stringify(seen, null, 1)}`);
};

async function call(method, path, body) {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
  return json;
}

// A network that names its subnet: its rows get suggested addresses.
await call("POST", "/api/v2/networks", {
  name: "lab-sub",
  subnet: "198.51.100.0/24",
  netmask: "255.255.255.0",
  gateway: "198.51.100.1",
  nameserver: "198.51.100.53",
  ntpserver: "198.51.100.123",
});

const browser = await launch();
try {
  const { context, page } = await tokenPage(browser, token, seen);
  const cell = (row, field) => page.locator(`#hosts-edit [data-row='${row}'][data-field='${field}']`);
  const nav = async (screen) => {
    await page.click(`#nav-${screen}`);
    await page.locator(`#screen-${screen}`).waitFor();
  };
  await page.goto(`${base}/ui/#/hosts`);
  await page.locator("#status", { hasText: /^ok$/ }).waitFor();
  await cell(1, "name").waitFor();
  // The parent loads the records after the page; wait until both hosts are in.
  await page.waitForFunction(() => document.querySelector("#hosts-edit [data-row='1'][data-field='name']")?.value === "kube-node-01");

  // ---- The install status without scrolling sideways, at both sizes; no badge cut off.
  for (const size of [
    { width: 1280, height: 900 },
    { width: 1024, height: 700 },
  ]) {
    await page.setViewportSize(size);
    await page.locator(".hosts-scroll").evaluate((el) => (el.scrollLeft = 0));
    const got = await page.evaluate(() => {
      const box = document.querySelector(".hosts-scroll").getBoundingClientRect();
      const head = document.querySelector("#hosts-install-head")?.getBoundingClientRect();
      const cells = [...document.querySelectorAll("#hosts-edit td.install")];
      const badges = cells.flatMap((td) => {
        const c = td.getBoundingClientRect();
        return [...td.querySelectorAll(".badge")].map((b) => {
          const r = b.getBoundingClientRect();
          return { text: b.textContent, inside: r.left >= c.left - 0.5 && r.right <= c.right + 0.5 && r.width > 0, full: b.scrollWidth <= b.clientWidth + 1 };
        });
      });
      const inView = (r) => !!r && r.width > 0 && r.left >= Math.max(0, box.left) && r.right <= Math.min(window.innerWidth, box.right);
      return { head: inView(head), cells: cells.length, cellsInView: cells.every((td) => inView(td.getBoundingClientRect())), badges };
    });
    seen[`install${size.width}`] = got;
    if (!got.head || !got.cells || !got.cellsInView) fail(`the Install column is not in view at ${size.width}×${size.height} without scrolling sideways`);
    if (!got.badges.length || got.badges.some((b) => !b.inside || !b.full)) fail(`a badge is cut off at ${size.width}×${size.height}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // ---- The OS list as on the ISOs screen: newest first, end of life last.
  seen.osOptions = await cell(0, "os").locator("option").evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
  const at = (id) => seen.osOptions.indexOf(id);
  if (seen.osOptions[0] !== "alma10" || !(at("ubuntu24.04") < at("centos7.4")) || !(at("esxi8.0") < at("esxi6.7"))) fail("the OS list is not newest first with end of life last");

  // ---- Nothing typed is lost: an edited IP and a new row survive another screen.
  await cell(0, "ip").fill("192.0.2.31");
  await page.click("#hosts-add");
  // The new row is like the one above it (kube-node-01): its OS, role and network.
  seen.newRow = { os: await cell(2, "os").inputValue(), role: await cell(2, "role").inputValue(), network: await cell(2, "network_group").inputValue() };
  if (seen.newRow.os !== "centos7.4" || seen.newRow.role !== "k8s node" || seen.newRow.network !== "lab-mgmt") fail("the new row does not take the OS and role of the row above");
  await cell(2, "name").fill("kube-node-02");
  await cell(2, "ip").fill("192.0.2.23");
  await nav("networks");
  seen.navMark = await page.locator("#nav-hosts").innerText();
  if (!(await page.locator("#nav-hosts-unsaved").count())) fail("the menu does not say the Hosts screen has unsaved changes");
  // Leaving the tab now would ask (the browser's own question).
  seen.leaveAsks = await page.evaluate(() => {
    const e = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(e);
    return e.defaultPrevented;
  });
  if (!seen.leaveAsks) fail("closing the tab with unsaved hosts does not ask");
  await nav("hosts");
  seen.back = { ip: await cell(0, "ip").inputValue(), name: await cell(2, "name").inputValue(), newIp: await cell(2, "ip").inputValue() };
  seen.backStatus = await page.locator("#hosts-status").innerText();
  if (seen.back.ip !== "192.0.2.31" || seen.back.name !== "kube-node-02" || seen.back.newIp !== "192.0.2.23") fail("the edits are gone after another screen");
  await page.click("#hosts-discard");
  if (await page.locator("#nav-hosts-unsaved").count()) fail("discarded edits still count as unsaved");

  // Every form keeps what was typed: a network half filled in, while the Hosts screen is open.
  await nav("networks");
  await page.fill("#network-name", "half-typed");
  await page.fill("#network-gateway", "203.0.113.1");
  await nav("hosts");
  if (!(await page.locator("#nav-networks-unsaved").count())) fail("the menu does not say the Networks form has unsaved input");
  await nav("networks");
  seen.networkForm = [await page.inputValue("#network-name"), await page.inputValue("#network-gateway")];
  if (seen.networkForm.join() !== "half-typed,203.0.113.1") fail("the network form lost what was typed");
  await page.fill("#network-name", "");
  await page.fill("#network-gateway", "");
  if (await page.locator("#nav-networks-unsaved").count()) fail("an emptied form still counts as unsaved");

  // The Settings forms too: the boot-server address, the default proxy and a timeout.
  await nav("settings");
  await page.locator("#install-booting_minutes").waitFor();
  const settingsForm = async () => [await page.inputValue("#svc-ip"), await page.inputValue("#settings-proxy"), await page.inputValue("#install-booting_minutes")];
  seen.settingsStored = await settingsForm();
  await page.fill("#svc-ip", "198.51.100.77");
  await page.fill("#settings-proxy", "http://proxy.lab:3128");
  await page.fill("#install-booting_minutes", "47");
  await nav("hosts");
  if (!(await page.locator("#nav-settings-unsaved").count())) fail("the menu does not say the Settings screen has unsaved input");
  seen.settingsMark = await page.locator("#nav-settings").getAttribute("title");
  await nav("settings");
  await page.locator("#install-booting_minutes").waitFor();
  // The stored values are read again as the screen opens: they must not replace what was typed.
  await page.waitForTimeout(500);
  seen.settingsForm = await settingsForm();
  seen.settingsStatus = await page.locator("#settings-status").innerText();
  if (seen.settingsForm.join() !== "198.51.100.77,http://proxy.lab:3128,47") fail("the Settings forms lost what was typed");
  if (!seen.settingsStatus.includes("unsaved")) fail("the Settings screen does not say the input is unsaved");
  // Typed back to what is stored: nothing is unsaved.
  await page.fill("#svc-ip", seen.settingsStored[0]);
  await page.fill("#settings-proxy", seen.settingsStored[1]);
  await page.fill("#install-booting_minutes", seen.settingsStored[2]);
  if (await page.locator("#nav-settings-unsaved").count()) fail("Settings typed back to the stored values still count as unsaved");
  // And the ISOs screen's download form.
  await nav("isos");
  await page.fill("#iso-url", "http://fileserver.lab/isos/alma-9.iso");
  await nav("settings");
  if (!(await page.locator("#nav-isos-unsaved").count())) fail("the menu does not say the ISOs screen has an unsaved download");
  await nav("isos");
  seen.isoUrl = await page.inputValue("#iso-url");
  if (seen.isoUrl !== "http://fileserver.lab/isos/alma-9.iso") fail("the ISO download form lost what was typed");
  await page.fill("#iso-url", "");
  if (await page.locator("#nav-isos-unsaved").count()) fail("an emptied download form still counts as unsaved");
  await nav("hosts");

  // ---- Pasted rows without an address get suggested ones, each its own.
  await page.fill("#hosts-paste", "name,ip,os,role,network\npaste-01,,centos7.4,generic,lab-sub\npaste-02,,centos7.4,generic,lab-sub");
  await page.click("#hosts-paste-add");
  seen.pastedIps = [await cell(2, "ip").inputValue(), await cell(3, "ip").inputValue()];
  if (seen.pastedIps.join() !== "198.51.100.2,198.51.100.3") fail("pasted rows did not get suggested addresses");

  // ---- The bulk menu gives a range of addresses to the selected rows.
  await page.check("#hosts-edit tbody tr:nth-child(3) .row-pick input");
  await page.check("#hosts-edit tbody tr:nth-child(4) .row-pick input");
  await page.selectOption("#hosts-bulk-field", "ip");
  await page.fill("#hosts-bulk-value", "198.51.100.50");
  await page.click("#hosts-bulk-apply");
  seen.rangeIps = [await cell(2, "ip").inputValue(), await cell(3, "ip").inputValue()];
  if (seen.rangeIps.join() !== "198.51.100.50,198.51.100.51") fail("Set IPs did not give the selected rows a range");
  await page.click("#hosts-bulk .link");

  // ---- One save, every problem: a duplicate address and one outside its subnet, both rows.
  await cell(0, "ip").fill("192.0.2.22");
  await cell(3, "ip").fill("10.9.9.9");
  await page.click("#hosts-save");
  await page.locator("#hosts-problem-rows").waitFor();
  seen.problemRows = await page.locator("#hosts-problem-rows").innerText();
  seen.rowErrors = await page.locator("#hosts-edit .row-error").allInnerTexts();
  seen.fixes = await page.locator("#hosts-fixes a").allInnerTexts();
  if (!seen.problemRows.includes("row 2") || !seen.problemRows.includes("row 4")) fail("the summary does not link both rows with a problem");
  if (!seen.rowErrors.some((t) => t.includes("192.0.2.22")) || !seen.rowErrors.some((t) => t.includes("10.9.9.9"))) fail("the duplicate and the out-of-subnet address are not both marked");
  if (seen.fixes.some((t) => t.includes("(Hosts)"))) fail("the summary links to the screen the operator is on");
  // A row link shows its bad cell.
  await page.locator("#hosts-problem-rows button", { hasText: "row 4" }).click();
  seen.focused = await page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
  if (seen.focused !== "IP of row 4") fail("the row link does not go to the bad cell");
  // Every bad row is linked, however many (the summary once stopped at eight).
  const far = Array.from({ length: 9 }, (_, i) => `far-0${i + 1},10.9.8.${i + 1},centos7.4,generic,lab-sub`);
  await page.fill("#hosts-paste", `name,ip,os,role,network\n${far.join("\n")}`);
  await page.click("#hosts-paste-add");
  await page.click("#hosts-save");
  await page.locator("#hosts-problem-rows", { hasText: "11 rows" }).waitFor();
  seen.linked = await page.locator("#hosts-problem-rows button").count();
  if (seen.linked !== 11) fail("the summary does not link every row with a problem");

  // ---- The install disk: a row's hint typed, saved, read back after a reload, a bad one marked
  // on its field, and cleared back to the default disk.
  await page.click("#hosts-discard");
  const diskButton = page.locator("#hosts-edit tbody tr:nth-child(1) td.disk button");
  const disk = (f) => page.locator(`#hosts-edit tr.disk-editor [id$='-${f}']`);
  seen.diskDefault = await diskButton.innerText();
  if (seen.diskDefault !== "Default") fail("a host without an install disk does not say it takes the default");
  await diskButton.click();
  await disk("serial").fill(" 21033A4E ");
  await disk("size_min").fill("400");
  await disk("size_max").fill("500");
  await disk("rotational").selectOption("false");
  seen.diskSummary = await diskButton.innerText();
  if (seen.diskSummary !== "S/N 21033A4E · 400–500 GiB · SSD") fail("the install disk's cell does not sum up its hint");
  await page.click("#hosts-save");
  await page.locator("#hosts-status", { hasText: "Saved 2 hosts" }).waitFor();
  seen.diskStored = (await call("GET", "/api/v2/hosts")).hosts[0].install_disk;
  if (JSON.stringify(seen.diskStored) !== JSON.stringify({ serial: "21033A4E", size_gb: { min: 400, max: 500 }, rotational: false }))
    fail("the install disk was not stored as typed");
  await page.reload();
  await page.waitForFunction(() => document.querySelector("#hosts-edit [data-row='1'][data-field='name']")?.value === "kube-node-01");
  await diskButton.click();
  seen.diskRead = [await disk("serial").inputValue(), await disk("size_min").inputValue(), await disk("size_max").inputValue(), await disk("rotational").inputValue()];
  if (seen.diskRead.join() !== "21033A4E,400,500,false") fail("the stored install disk does not read back into its fields");
  if (await page.locator("#nav-hosts-unsaved").count()) fail("a stored install disk read back counts as unsaved");
  // A range that runs downwards: refused, the row's fields stay open with the bad one marked.
  await disk("size_min").fill("600");
  await page.click("#hosts-save");
  await page.locator("#hosts-problem-rows").waitFor();
  seen.diskInvalid = await disk("size_min").getAttribute("aria-invalid");
  seen.diskErrors = await page.locator("#hosts-edit .row-error").allInnerTexts();
  if (seen.diskInvalid !== "true") fail("the refused size is not marked");
  if (!seen.diskErrors.some((t) => t.includes("Install disk, size: min (600 GiB) is more than max (500 GiB)"))) fail("the refused size is not said in words");
  await page.locator("#hosts-edit tr.disk-editor button", { hasText: "Clear" }).click();
  await page.click("#hosts-save");
  await page.locator("#hosts-status", { hasText: "Saved 2 hosts" }).waitFor();
  seen.diskCleared = (await call("GET", "/api/v2/hosts")).hosts[0].install_disk ?? null;
  if (seen.diskCleared !== null) fail("a cleared install disk is still stored");
  if ((await diskButton.innerText()) !== "Default") fail("a cleared install disk does not say it takes the default");

  if (seen.pageError) fail("the page threw");
  if (seen.nativeDialog) fail("a webview dialog was shown");
  await context.close();
} finally {
  await browser.close();
}
console.log(JSON.stringify(seen));
