// Settings → Catalog (issue 30): a pack with a kickstart that does not render is refused with
// the reason and nothing of it shows; the example pack of docs/packs, pasted, is added, listed
// as applied, and its entry (rocky10.1) is in the catalog with its source and end of life and
// at once in the Hosts sheet's OS choice; removed, it is gone. Pictures of the section at
// 1280×900 and 1024×700. Prints what it saw as one JSON object and throws, naming what went
// wrong, when the page does otherwise.
//
// Started by tests/browser.rs against `bootsmith serve` holding tests/common's seed (hosts, so
// the Hosts sheet has rows). env: BOOTSMITH_URL, BOOTSMITH_TOKEN,
// PACK (the example pack's file), LAYOUT_SHOTS (where the pictures go).

import { readFileSync } from "node:fs";
import { launch, tokenPage } from "./chromium.mjs";

const base = process.env.BOOTSMITH_URL;
const token = process.env.BOOTSMITH_TOKEN;
const packFile = process.env.PACK;
const shots = process.env.LAYOUT_SHOTS;
if (!base || !token || !packFile || !shots) throw new Error("BOOTSMITH_URL, BOOTSMITH_TOKEN, PACK and LAYOUT_SHOTS must be set");
const example = readFileSync(packFile, "utf8");

const seen = {};
const fail = (what) => {
  throw new Error(`Settings → Catalog: ${what}; saw ${JSON.stringify(seen, null, 1)}`);
};

const browser = await launch();
try {
  const { context, page } = await tokenPage(browser, token, seen);
  await page.goto(`${base}/ui/#/settings`);
  await page.locator("#status", { hasText: /^ok$/ }).waitFor({ timeout: 60_000 });
  await page.locator("#catalog-packs").waitFor();
  seen.before = await page.locator("#catalog-packs tbody").innerText();
  if (!seen.before.includes("No pack")) fail("a fresh install lists a pack");

  // Refused: a template that does not render; the reason is shown, nothing is listed.
  const broken = JSON.parse(example);
  broken.name = "broken";
  broken.templates["rocky10.1"] = "text\nnetwork --hostname={{ host.fqdn }}\n";
  await page.fill("#pack-text", JSON.stringify(broken));
  await page.click("#pack-add");
  await page.locator("#catalog-status.error").waitFor({ timeout: 60_000 });
  seen.refused = await page.locator("#catalog-status").innerText();
  if (!seen.refused.includes("catalog pack broken") || !seen.refused.includes("does not render")) fail("the refusal does not say why");
  if (!(await page.locator("#catalog-packs tbody").innerText()).includes("No pack")) fail("a refused pack is listed");

  // Added: the example pack, pasted.
  await page.fill("#pack-text", example);
  await page.click("#pack-add");
  await page.locator("#catalog-status.ok").waitFor({ timeout: 60_000 });
  seen.added = await page.locator("#catalog-status").innerText();
  if (!seen.added.includes("site-os") || !seen.added.includes("rocky10.1")) fail("the pack added is not named");
  if (!/ksvalidator/.test(seen.added)) fail("the answer does not say whether ksvalidator checked the kickstart");
  seen.packRow = await page.locator("#catalog-packs tbody tr").first().innerText();
  if (!seen.packRow.includes("site-os") || !seen.packRow.includes("applied")) fail("the pack is not listed as applied");
  await page.click("#catalog-entries summary");
  const row = page.locator("#catalog-entries tr", { hasText: "rocky10.1" });
  seen.entryRow = await row.innerText();
  if (!seen.entryRow.includes("pack site-os 3") || !seen.entryRow.includes("2035-05-31")) fail("the entry does not show its source and end of life");
  seen.builtIn = await page.locator("#catalog-entries tr", { hasText: "Rocky Linux 10" }).first().innerText();

  for (const size of [{ width: 1280, height: 900 }, { width: 1024, height: 700 }]) {
    await page.setViewportSize(size);
    await page.locator("#catalog-settings").scrollIntoViewIfNeeded();
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    if (sideways) fail(`the page scrolls sideways at ${size.width}×${size.height}`);
    await page.screenshot({ path: `${shots}/settings-catalog-${size.width}x${size.height}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // At once in the Hosts sheet's OS choice, without a restart.
  await page.click("#nav-hosts");
  await page.locator("#screen-hosts").waitFor();
  const osCell = page.locator("#hosts-edit [data-row='0'][data-field='os']");
  await osCell.waitFor();
  seen.hostsOffer = await osCell.locator("option[value='rocky10.1']").count();
  if (seen.hostsOffer < 1) fail("the Hosts sheet does not offer rocky10.1");

  // Removed: asked in the window's dialog, then gone.
  await page.click("#nav-settings");
  await page.locator("#catalog-packs").waitFor();
  await page.locator("#catalog-packs tbody tr", { hasText: "site-os" }).locator(".pack-remove").click();
  await page.click("#confirm-yes");
  await page.locator("#catalog-status.ok", { hasText: "removed" }).waitFor({ timeout: 30_000 });
  seen.after = await page.locator("#catalog-packs tbody").innerText();
  if (!seen.after.includes("No pack")) fail("the removed pack is still listed");

  if (seen.pageError) fail("the page threw");
  if (seen.nativeDialog) fail("a webview dialog was shown");
  await context.close();
} finally {
  await browser.close();
}
console.log(JSON.stringify(seen));
