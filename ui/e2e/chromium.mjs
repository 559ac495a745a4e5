// Debian's Chromium, headless, as every browser check here starts it.

import { chromium } from "playwright-core";

/** A headless Chromium; this machine's network is closed, so nothing may reach for Google. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    // Without these Chromium tries Google's hosts at every start.
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
}

/** Open the page at `base` on `page` and give it the API token, as an operator does. */
export async function signIn(page, base, token) {
  await page.goto(`${base}/ui/`);
  await page.locator("#token-form").waitFor();
  await page.fill("#token", token);
  await page.click("#token-form button[type=submit]");
  await page.locator("#status").filter({ hasText: /^ok$/ }).waitFor({ timeout: 60_000 });
}

/** A REST call with the API token, answering the JSON; a refusal throws with it. */
export function restCaller(base, token) {
  return async (method, path) => {
    const r = await fetch(`${base}${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
    const json = await r.json();
    if (!r.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
    return json;
  };
}

/** A page at 1280×900 already given the API `token`, noting in `seen` what the page threw
 * (`pageError`) and any webview dialog it opened (`nativeDialog`, dismissed). */
export async function tokenPage(browser, token, seen) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript((t) => window.localStorage.setItem("bootsmith-token", t), token);
  const page = await context.newPage();
  page.on("pageerror", (e) => (seen.pageError = String(e)));
  page.on("dialog", (d) => {
    seen.nativeDialog = d.message();
    d.dismiss();
  });
  return { context, page };
}
