// The page's own memory over a day's walk, in headless Chromium (which, unlike WebKit, can be
// asked to collect garbage and to count the DOM): every screen ROUNDS times (default 20), the
// long host sheet searched, four log pages read back, a deploy of pod-east followed and taken
// back, an images run, the shortcuts dialog; every 5 rounds the JavaScript heap after a
// collection, DOM nodes and event listeners. Not run by the tests (figures, not assertions):
//
//   BOOTSMITH_URL=http://127.0.0.1:8080 ROUNDS=20 node e2e/heapwalk.mjs
//
// against `bootsmith serve --no-auth` holding what benches/footprint.rs seeds (a group pod-east
// on `bootsmith-sim` with its hosts' media in svc, a second group of 200 hosts, an SSH key, a
// long log).

import { launch } from "./chromium.mjs";
const base = process.env.BOOTSMITH_URL;
const rounds = Number(process.env.ROUNDS ?? 20);
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const cdp = await page.context().newCDPSession(page);
await page.goto(`${base}/ui/`);
await page.locator("#status").filter({ hasText: /^ok$/ }).waitFor({ timeout: 60_000 });
const screens = await page.$$eval('nav button[id^="nav-"]', (bs) => bs.map((b) => b.id.slice(4)));
const until = (fn, ms = 60000) => page.waitForFunction(fn, null, { timeout: ms });
async function answerUntil(done, ms = 120000) {
  const t = Date.now();
  for (;;) {
    const r = await page.evaluate(`(() => { const y = document.querySelector('#confirm-yes'); if (y) { y.click(); return 'asked'; } return !!(${done}); })()`);
    if (r === true) return;
    if (Date.now() - t > ms) throw new Error("never " + done + ": " + (await page.locator("#deploy-status").innerText()));
    await page.waitForTimeout(200);
  }
}
async function measure(label) {
  await cdp.send("HeapProfiler.collectGarbage");
  const h = await cdp.send("Runtime.getHeapUsage");
  const d = await cdp.send("Memory.getDOMCounters");
  const cb = await page.evaluate(() => document.getElementsByTagName("*").length);
  console.log(`${label}: JS heap used ${(h.usedSize / 1048576).toFixed(1)} MiB of ${(h.totalSize / 1048576).toFixed(1)}; nodes ${d.nodes}, listeners ${d.jsEventListeners}, documents ${d.documents}; elements ${cb}`);
}
await measure("fresh");
const ended = "/\\b(ok|warn|error)\\b/.test(document.querySelector('#deploy-status').className)";
for (let r = 1; r <= rounds; r++) {
  for (const s of screens) {
    await page.click(`#nav-${s}`);
    await page.locator(`#screen-${s}`).waitFor();
    if (s === "hosts") {
      await until(() => document.querySelectorAll("#screen-hosts tbody tr").length >= 200);
      await page.fill("main [data-search]", "node-1");
      await page.waitForTimeout(300);
      await page.fill("main [data-search]", "");
    } else if (s === "logs") {
      await until(() => document.querySelectorAll("#logs tbody tr").length >= 200);
      for (let n = 2; n <= 4; n++) {
        await page.click("#logs-older");
        await page.waitForFunction((n) => document.querySelectorAll("#logs tbody tr").length >= n * 200, n);
      }
      await page.fill("#logs-q", "job");
      await page.click("#logs-search");
      await page.waitForTimeout(500);
      await page.fill("#logs-q", "");
      await page.click("#logs-search");
    } else if (s === "deploy") {
      await page.selectOption("#deploy-group", "pod-east");
      await page.click("#deploy-preview");
      await page.waitForFunction(`!document.querySelector('#deploy-apply').disabled || ${ended}`);
      if (!(await page.$eval("#deploy-apply", (b) => b.disabled))) {
        await page.click("#deploy-apply");
        await answerUntil(ended);
      }
      await page.click("#deploy-remove");
      await answerUntil(`${ended} || document.querySelector('#deploy-status').textContent.includes('Nothing to remove')`);
      if (r === 1) console.log("deploy:", await page.locator("#deploy-status").innerText());
    } else if (s === "images") {
      await page.click("#make-images");
      await until(() => /\b(ok|warn|error)\b/.test(document.querySelector("#images-status").className));
      if (r === 1) console.log("images:", await page.locator("#images-status").innerText());
    } else {
      await page.waitForTimeout(s === "power" ? 1500 : 300);
    }
  }
  await page.click("#shortcuts-open");
  await until(() => document.querySelector("#shortcuts").open);
  await page.click("#shortcuts-close");
  if (r % 5 === 0) {
    await page.click("#nav-overview");
    await measure(`round ${r}`);
  }
}
await browser.close();
