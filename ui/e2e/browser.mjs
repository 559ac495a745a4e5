// Browser mode, end to end: headless Chromium (Debian's) driven by playwright-core against a
// running `bootsmith serve`. Started by tests/browser.rs, which seeds the records, runs the
// simulator and checks what this prints: one JSON object of what the page showed.
//
// env: BOOTSMITH_URL (http://127.0.0.1:port), BOOTSMITH_TOKEN, SCREENSHOT (a .png path)

import { chromium } from "playwright-core";

const base = process.env.BOOTSMITH_URL;
const token = process.env.BOOTSMITH_TOKEN;
if (!base || !token) throw new Error("BOOTSMITH_URL and BOOTSMITH_TOKEN must be set");

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  // This machine's network is closed: without these Chromium tries Google's hosts at every start.
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const seen = {};
const started = Date.now();
const mark = (what) => console.error(`${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const text = (css) => page.locator(css).innerText();
  // `wanted`: a string (Playwright matches it case-insensitively anywhere: "ok" is in "token")
  // or a RegExp.
  const waitFor = async (css, wanted, ms = 60_000) => {
    await page.locator(css).filter({ hasText: wanted }).waitFor({ timeout: ms });
    return text(css);
  };

  mark("browser started");
  await page.goto(`${base}/ui/`);
  // No token yet: the API says unauthorized and the page asks for one.
  await page.locator("#token-form").waitFor();
  seen.before = await text("#status");
  await page.fill("#token", token);
  await page.click("#token-form button[type=submit]");
  seen.status = await waitFor("#status", /^ok$/);
  seen.hosts = await text("#hosts tbody");
  seen.groups = await text("#server-groups tbody");

  mark("records shown");
  await page.click("#make-images");
  seen.images = await waitFor("#images-status", "Done:");

  mark("images made");
  await page.click("#deploy-preview");
  seen.plan = await waitFor("#deploy-status", "to create");
  seen.planRows = await text("#deploy-plan tbody");
  await page.click("#deploy-apply");
  seen.deploy = await waitFor("#deploy-status", "Deployed to");
  seen.log = await text("#deploy-log");

  mark("deployed");
  await page.locator("section[aria-labelledby=h-deploy]").scrollIntoViewIfNeeded();
  if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT });

  // A reload keeps the token (this browser's storage): straight to the records.
  await page.reload();
  seen.afterReload = await waitFor("#status", /^ok$/);
} finally {
  await browser.close();
  mark("browser closed");
}
console.log(JSON.stringify(seen));
