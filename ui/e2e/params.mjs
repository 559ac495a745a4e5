// Template parameters in the window (issue 30): Settings keeps the defaults, the Networks screen
// a network group's, the Hosts sheet a host's (a secret among them, shown as ******** and kept
// when the sheet is saved again), and the answer preview lists each parameter the host's
// templates see with the record it came from. Prints what it saw as one JSON object and throws,
// naming what went wrong, when the page does otherwise.
//
// Started by tests/browser.rs against `bootsmith serve` holding tests/common's seed (the
// network lab-mgmt; the hosts kube-master-01 and kube-node-01; the boot-server address set).
// env: BOOTSMITH_URL, BOOTSMITH_TOKEN, LAYOUT_SHOTS (a folder for screenshots, optional).

import { launch, restCaller, tokenPage } from "./chromium.mjs";

const base = process.env.BOOTSMITH_URL;
const token = process.env.BOOTSMITH_TOKEN;
if (!base || !token) throw new Error("BOOTSMITH_URL and BOOTSMITH_TOKEN must be set");
const SECRET = "s3cret-for-the-repo";

const seen = {};
const fail = (what) => {
  throw new Error(`Template parameters: ${what}; saw ${JSON.stringify(seen, null, 1)}`);
};

const call = restCaller(base, token);

const browser = await launch();
try {
  const { context, page } = await tokenPage(browser, token, seen);
  const shots = process.env.LAYOUT_SHOTS;
  const shoot = async (name, locator) => {
    if (!shots) return;
    for (const size of [{ width: 1280, height: 900 }, { width: 1024, height: 700 }]) {
      await page.setViewportSize(size);
      await locator.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/${name}-${size.width}x${size.height}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  };

  // ---- Settings: the defaults, a bad name marked before anything is sent.
  await page.goto(`${base}/ui/#/settings`);
  await page.locator("#status", { hasText: /^ok$/ }).waitFor();
  await page.click("#settings-params-add");
  await page.fill("#settings-params-key-0", "Repo-URL");
  await page.fill("#settings-params-value-0", "http://mirror.example/el");
  await page.click("#params-save");
  seen.localProblem = await page.locator("#settings-params .field-error").first().innerText();
  if (!seen.localProblem.includes("not a parameter name")) fail("a bad parameter name is not marked at its row");
  await page.fill("#settings-params-key-0", "repo_url");
  await page.click("#settings-params-add");
  await page.fill("#settings-params-key-1", "timezone");
  await page.fill("#settings-params-value-1", "UTC");
  await page.click("#params-save");
  await page.locator("#params-status", { hasText: "2 default parameters saved" }).waitFor();
  seen.defaults = await call("GET", "/api/v2/params");
  if (seen.defaults.repo_url !== "http://mirror.example/el" || seen.defaults.timezone !== "UTC") fail("the defaults were not stored");
  await shoot("settings-params", page.locator("#params-form"));

  // ---- Networks: the group's own zone.
  await page.click("#nav-networks");
  await page.click("#networks button[aria-label='Edit network lab-mgmt']");
  await page.click("#network-params-add");
  await page.fill("#network-params-key-0", "timezone");
  await page.fill("#network-params-value-0", "Europe/Berlin");
  await page.click("#network-save");
  await page.locator("#networks-status", { hasText: "updated" }).waitFor();
  seen.network = (await call("GET", "/api/v2/networks/lab-mgmt")).params;
  if (seen.network?.timezone !== "Europe/Berlin") fail("the network group's parameter was not stored");

  // ---- Hosts: the master's own zone and a secret, in the row's editor.
  await page.click("#nav-hosts");
  await page.locator("#screen-hosts").waitFor();
  await page.waitForFunction(() => document.querySelector("#hosts-edit [data-row='1'][data-field='name']")?.value === "kube-node-01");
  await page.click("#hosts-edit button[aria-label^='Install disk of row 1']");
  const editor = page.locator("#hosts-edit fieldset.params");
  await editor.locator("button", { hasText: "Add parameter" }).click();
  await editor.locator("input[id$='-key-0']").fill("timezone");
  await editor.locator("input[id$='-value-0']").fill("Asia/Tokyo");
  await editor.locator("button", { hasText: "Add parameter" }).click();
  await editor.locator("input[id$='-key-1']").fill("repo_password");
  await editor.locator("input[id$='-secret-1']").check();
  await editor.locator("input[id$='-value-1']").fill(SECRET);
  seen.secretInputType = await editor.locator("input[id$='-value-1']").getAttribute("type");
  if (seen.secretInputType !== "password") fail("a secret's value is typed in the clear");
  await shoot("hosts-params", editor);
  await page.click("#hosts-save");
  await page.locator("#hosts-status", { hasText: "Saved 2 hosts" }).waitFor();
  let master = (await call("GET", "/api/v2/hosts")).hosts.find((h) => h.name === "kube-master-01");
  seen.hostParams = master.params;
  const secret = master.params?.repo_password;
  if (master.params?.timezone !== "Asia/Tokyo" || secret?.value !== "********" || secret?.secret !== true || Object.keys(master.params).length !== 2) fail("the host's parameters were not stored, the secret masked");
  seen.summary = await page.locator("#hosts-edit button[aria-label^='Install disk of row 1']").innerText();
  if (!seen.summary.endsWith("· 2 parameters")) fail("the row does not say it has parameters");

  // Saved again with another change: the secret (shown masked) keeps its value.
  await page.locator("#hosts-edit [data-row='1'][data-field='ipv6']").fill("2001:db8::22/64");
  await page.click("#hosts-save");
  await page.locator("#hosts-status", { hasText: "Saved 2 hosts" }).waitFor();
  master = (await call("GET", "/api/v2/hosts")).hosts.find((h) => h.name === "kube-master-01");
  if (master.params?.repo_password?.secret !== true) fail("saving the sheet again lost the secret");

  // ---- The answer preview: each parameter with where it came from.
  await page.check("#hosts-edit tbody tr:nth-child(1) .row-pick input");
  await page.click("button[aria-label='Show the answer file of kube-master-01']");
  const table = page.locator("table.answer-params");
  await table.waitFor();
  seen.preview = (await table.locator("tbody tr").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
  const want = [
    "params.repo_password ******** (secret) the host",
    "params.repo_url http://mirror.example/el the defaults (Settings)",
    "params.timezone Asia/Tokyo the host",
  ];
  if (JSON.stringify(seen.preview) !== JSON.stringify(want)) fail("the preview does not list each parameter with its source");
  seen.zoneLine = (await page.locator("pre.answer-text").innerText()).split("\n").find((l) => l.startsWith("timezone "));
  if (!seen.zoneLine?.startsWith("timezone Asia/Tokyo --utc")) fail("the kickstart does not use the host's zone");
  if ((await page.locator(".answer-preview").innerText()).includes(SECRET)) fail("the preview shows the secret");
  await shoot("answer-params", page.locator(".answer-preview"));

  if (seen.pageError) fail("the page threw");
  if (seen.nativeDialog) fail("a webview dialog was shown");
  await context.close();
} finally {
  await browser.close();
}
console.log(JSON.stringify(seen));
