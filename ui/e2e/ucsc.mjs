// The window in headless Chromium with a UCS Central that lost one of its two domains: the
// lost domain's servers are greyed, with the reason on hover, in the group's inventory and on
// the Power screen, and cannot be chosen there nor as a host's server on the Hosts sheet (the
// boxes over the ticks leave them out). Run by crates/api/tests/ucsc.rs
// against the REST listener (no WebKit build needed): this script serves the built page
// (ui/dist) and passes /api/ through to the listener, so the page is one origin as under
// `bootsmith serve`. Prints one JSON object of what the page showed.
//
// env: BOOTSMITH_URL (the REST listener), BOOTSMITH_TOKEN; the group `central` exists.

import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { chromium } from "playwright-core";

const api = process.env.BOOTSMITH_URL;
const token = process.env.BOOTSMITH_TOKEN;
if (!api || !token) throw new Error("BOOTSMITH_URL and BOOTSMITH_TOKEN must be set");
const dist = new URL("../dist/", import.meta.url).pathname;
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png" };

const server = createServer(async (req, res) => {
  if (req.url.startsWith("/api/")) {
    const body = await new Promise((ok) => {
      const parts = [];
      req.on("data", (c) => parts.push(c)).on("end", () => ok(Buffer.concat(parts)));
    });
    const headers = { ...req.headers };
    delete headers.host;
    const r = await fetch(`${api}${req.url}`, { method: req.method, headers, body: body.length ? body : undefined });
    res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "application/json" });
    res.end(Buffer.from(await r.arrayBuffer()));
    return;
  }
  const path = normalize(req.url.split("?")[0].replace(/^\/ui\/?/, "/")).replace(/^\/+/, "") || "index.html";
  try {
    const file = await readFile(join(dist, path));
    res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" });
    res.end(file);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  // This machine's network is closed: without these Chromium tries Google's hosts at every start.
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const seen = {};
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("dialog", (d) => d.dismiss());
  // Each row: its text, whether it is marked stale, its hover text, its cells' background, and
  // whether its tick can be set (with the tick's hover text).
  const rows = (table) =>
    page.locator(`${table} tbody tr`).evaluateAll((trs) =>
      trs.map((tr) => {
        const tick = tr.querySelector("input[type=checkbox]");
        return { text: tr.innerText, stale: tr.classList.contains("stale"), title: tr.title, background: getComputedStyle(tr.cells[1]).backgroundColor, pickable: !!tick && !tick.disabled, why: tick?.title ?? "" };
      }),
    );
  const ticked = (table) => page.locator(`${table} tbody input[type=checkbox]:checked`).evaluateAll((bs) => bs.map((b) => b.id));
  const nav = async (screen) => {
    await page.click(`#nav-${screen}`);
    await page.locator(`#screen-${screen}`).waitFor();
  };
  await page.goto(`${base}/ui/`);
  await page.locator("#token-form").waitFor();
  await page.fill("#token", token);
  await page.click("#token-form button[type=submit]");
  await page.locator("#status").filter({ hasText: /^ok$/ }).waitFor({ timeout: 60_000 });

  await nav("server-groups");
  await page.click("#group-open-central");
  await page.locator("#inventory tbody tr").nth(17).waitFor({ timeout: 30_000 });
  seen.inventory = await rows("#inventory");
  // "Use every server": the reachable ones only.
  await page.check("#inventory-pick-shown");
  seen.inventoryAll = await ticked("#inventory");

  await nav("power");
  await page.locator("#power-servers tbody tr").nth(17).waitFor({ timeout: 30_000 });
  seen.power = await rows("#power-servers");
  await page.check("#power-pick-shown");
  seen.powerAll = await ticked("#power-servers");

  // The Hosts sheet offers the lost domain's servers as a host's server, but not to choose.
  await nav("hosts");
  const server = page.locator('#screen-hosts select[data-row="0"][data-field="server"]');
  await server.locator("option", { hasText: "1001/1/2" }).waitFor({ state: "attached", timeout: 30_000 });
  seen.hostServers = await server.locator("option").evaluateAll((os) => os.filter((o) => o.value).map((o) => ({ value: o.value, label: o.textContent, disabled: o.disabled, title: o.title })));
} finally {
  await browser.close();
  server.close();
}
console.log(JSON.stringify(seen));
