// A failed install in the page: a deploy followed to "installed" runs while the Overview is
// open; the installers of two hosts then call back (one installed, one failed), as their
// kickstarts' %post and %onerror do. Without a reload the Overview must show the job ended
// "finished with failures" and warn of the failed install; the Deploy screen lists the failed
// host first, red, with its next actions and the last lines of the log its installer sent
// (as %onerror does, before it reports the failure); its timeline links that log, which opens
// as text. The installed host's media read as used (not stale). Started by tests/browser.rs,
// which checks the JSON this prints.
//
// env: BOOTSMITH_URL, BOOTSMITH_TOKEN, FAILING and SUCCEEDING (host names), SCREENSHOT and
// SCREENSHOT_SMALL (.png, at 1280x900 and 1024x700)

import { launch, signIn } from "./chromium.mjs";

const base = process.env.BOOTSMITH_URL;
const token = process.env.BOOTSMITH_TOKEN;
const failing = process.env.FAILING;
const succeeding = process.env.SUCCEEDING;
if (!base || !token || !failing || !succeeding) throw new Error("BOOTSMITH_URL, BOOTSMITH_TOKEN, FAILING and SUCCEEDING must be set");

const api = async (path) => {
  const r = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  return r.json();
};

/** The installer's own call: its token is in the `curl` line of its kickstart that reports
 * `what` (its JSON may be built in the shell, quotes escaped). */
async function callBack(host, what, extra) {
  const ks = await (await fetch(`${base}/svc/${host}/ks.cfg`)).text();
  const line = ks.split("\n").find((l) => l.includes("curl ") && l.includes("token") && l.includes(`/${what}`));
  const found = line && /\\?"token\\?": \\?"([0-9a-f]{48})/.exec(line);
  if (!found) throw new Error(`no ${what} callback with a token in ${host}'s kickstart`);
  const r = await fetch(`${base}/api/v2/hosts/${host}/${what}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: found[1], ...extra }),
  });
  if (!r.ok) throw new Error(`${host} ${what}: HTTP ${r.status} ${await r.text()}`);
}

/** The installer's log upload, as the kickstart's %onerror sends it: the token is the hex
 * after `X-Install-Token: ` in its kickstart. */
async function sendLog(host, file, text) {
  const ks = await (await fetch(`${base}/svc/${host}/ks.cfg`)).text();
  const found = /X-Install-Token: ([0-9a-f]{48})/.exec(ks);
  if (!found) throw new Error(`no log upload with a token in ${host}'s kickstart`);
  const r = await fetch(`${base}/api/v2/hosts/${host}/logs?file=${file}`, {
    method: "POST",
    headers: { "content-type": "application/octet-stream", "x-install-token": found[1] },
    body: text,
  });
  if (!r.ok) throw new Error(`${host} log ${file}: HTTP ${r.status} ${await r.text()}`);
}

const browser = await launch();
const seen = {};
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page, base, token);
  await page.locator("#screen-overview").waitFor();
  await page.locator("#recent-jobs li").filter({ hasText: "running" }).first().waitFor({ timeout: 30_000 }).catch(async () => {
    throw new Error(`no running job on the Overview: it lists ${JSON.stringify(await page.locator("#recent-jobs").innerText())}; the API: ${JSON.stringify(await api("/api/v2/jobs"))}`);
  });
  seen.jobWhileRunning = await page.locator("#recent-jobs li").first().innerText();

  // The installers call back once the deploy has written the hosts' profiles.
  for (let i = 0; ; i++) {
    const hosts = await api("/api/v2/hosts");
    const at = (n) => hosts.hosts.find((h) => h.name === n)?.status.state;
    if ([failing, succeeding].every((n) => !["media-ready", null, undefined].includes(at(n)))) break;
    if (i > 600) throw new Error(`the hosts were never deployed: ${JSON.stringify(hosts)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await callBack(succeeding, "installed", {});
  const lines = Array.from({ length: 40 }, (_, i) => `INFO anaconda: step ${i + 1}`);
  lines.push("ERROR anaconda: no usable disks have been found");
  await sendLog(failing, "program.log", "program: nothing to see\n");
  await sendLog(failing, "anaconda.log", lines.join("\n") + "\n");
  await callBack(failing, "failed", { reason: "no disk found" });

  // No reload, no click: the Overview keeps up by itself.
  const ended = page.locator("#recent-jobs li").filter({ hasText: "finished with failures" }).first();
  await ended.waitFor({ timeout: 30_000 }).catch(() => undefined);
  seen.jobAfter = await page.locator("#recent-jobs li").first().innerText();
  seen.jobClass = await page.locator("#recent-jobs li").first().getAttribute("class");
  // The warnings come with the Overview's next read of the counts, a poll after the job list.
  await page.locator("#warnings").filter({ hasText: `The install of ${failing} failed` }).waitFor({ timeout: 15_000 }).catch(() => undefined);
  seen.warnings = await page.locator("#warnings").innerText();

  await page.click("#nav-deploy");
  await page.locator("#screen-deploy").waitFor();
  const rows = page.locator("#deploy-installs tbody tr");
  await rows.first().waitFor();
  seen.firstRow = await rows.first().innerText();
  seen.firstRowClass = (await rows.first().getAttribute("class")) ?? "";
  seen.firstRowColor = await rows.first().locator("td").first().evaluate((e) => getComputedStyle(e).color);
  seen.firstRowActions = await rows.first().locator("button").allInnerTexts();
  seen.succeededRow = await rows.filter({ hasText: succeeding }).first().innerText();
  seen.badges = await page.locator("#deploy-installs .badge").allInnerTexts();
  // Under the failed host, the last lines of the log that tells why.
  const why = page.locator("#deploy-installs tr.why-row pre.log");
  await why.waitFor({ timeout: 10_000 }).catch(() => undefined);
  seen.whyTitle = await page.locator("#deploy-installs tr.why-row").innerText();
  seen.why = await why.innerText().catch(() => "");
  if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: false });
  // Its timeline links each log; one opens as text.
  await rows.first().getByRole("button", { name: "Timeline" }).click();
  const logButtons = page.locator("#deploy-installs .timeline-row .attempts button");
  await logButtons.first().waitFor({ timeout: 10_000 });
  seen.logLinks = await logButtons.allInnerTexts();
  await logButtons.filter({ hasText: "program.log" }).click();
  const opened = page.locator("#deploy-installs .timeline-row pre.log");
  await opened.waitFor({ timeout: 10_000 });
  seen.opened = await opened.innerText();
  await page.setViewportSize({ width: 1024, height: 700 });
  seen.sideways = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
  await page.locator("#deploy-installs .timeline-row .logs-title").scrollIntoViewIfNeeded();
  if (process.env.SCREENSHOT_SMALL) await page.screenshot({ path: process.env.SCREENSHOT_SMALL, fullPage: false });
} finally {
  await browser.close();
}
console.log(JSON.stringify(seen));
