// Screens that broke at 1024×700 and 1280×900 (issue 27): the Logs screen after the routine
// untrusted-certificate refusal, the Settings timeouts and a boot-server address servers cannot
// reach, the Power screen's servers outside the group, and the Deploy screen's questions
// (hosts nobody can log in to, the servers a restart power-cycles) and its follow table.
//
// Called by browser.mjs after its deploy (the seed's pod-east deployed, no SSH key, no default
// org): `screens(browser, opts)`
// records what it saw in `opts.seen.screens`; `tlsManager` is the address of a UCS Manager
// simulator whose certificate nobody trusted yet. env: LAYOUT_SHOTS, a directory for
// logs-, settings-, power- and deploy-<size>.png. Also runs on its own against a seeded
// `bootsmith serve`: `node e2e/screens.mjs` with BOOTSMITH_URL, BOOTSMITH_TOKEN, UCSM_TLS.

import { pageScroll } from "./layout.mjs";

const SIZES = [
  { width: 1024, height: 700 },
  { width: 1280, height: 900 },
];

/** How `css`'s box and its cells sit in the window: whether the box is inside the screen's
 * own scroll box (`main`) and the viewport, and whether any cell's text overflows it. */
const fit = (page, css) =>
  page.locator(css).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    const m = document.querySelector("main").getBoundingClientRect();
    const cells = [...el.querySelectorAll("th, td")];
    return {
      right: Math.round(r.right),
      mainRight: Math.round(m.right),
      viewport: window.innerWidth,
      inside: r.left >= m.left - 1 && r.right <= m.right + 1 && r.right <= window.innerWidth,
      overflowing: cells.filter((c) => c.scrollWidth > c.clientWidth + 1).length,
    };
  });

export async function screens(browser, { base, token, seen, tlsManager, mark = () => {} }) {
  const shots = process.env.LAYOUT_SHOTS;
  const s = (seen.screens = { pictures: [] });
  const call = async (method, path, body) => {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: r.status, json: await r.json().catch(() => null) };
  };
  // The routine refusal: a manager whose certificate is not trusted yet. Its log line carries
  // the certificate's fingerprint, one long word.
  const refused = await call("POST", "/api/v2/servers", {
    name: "tls-pod",
    type: "ucsm",
    credentials: { ip: tlsManager, user: "admin", password: "password" },
  });
  s.refusal = refused.json?.code;
  const { hosts } = (await call("GET", "/api/v2/hosts")).json;
  const group = hosts[0].server_group;

  const context = await browser.newContext({ viewport: SIZES[0] });
  await context.addInitScript((t) => window.localStorage.setItem("bootsmith-token", t), token);
  const page = await context.newPage();
  page.on("pageerror", (e) => (s.pageError = String(e)));
  const nav = async (screen) => {
    await page.click(`#nav-${screen}`);
    await page.locator(`#screen-${screen}`).waitFor();
  };
  const picture = async (name, size) => {
    if (!shots) return;
    const path = `${shots}/${name}-${size.width}x${size.height}.png`;
    await page.screenshot({ path });
    s.pictures.push(path);
  };
  try {
    await page.goto(`${base}/ui/#/overview`);
    await page.locator("#status", { hasText: /^ok$/ }).waitFor();

    // Logs: the refusal's line wraps its fingerprint; the columns stay on screen.
    s.logs = {};
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await nav("logs");
      await page.fill("#logs-q", "certificate");
      await page.locator("#logs tbody tr", { hasText: "fingerprint" }).first().waitFor({ timeout: 20_000 });
      const at = `${size.width}`;
      s.logs[at] = {
        longest: await page.locator("#logs tbody").evaluate((b) => Math.max(...b.innerText.split(/\s+/).map((w) => w.length))),
        table: await fit(page, "#logs"),
        details: await page.locator("#logs thead th:last-child").evaluate((th) => {
          const r = th.getBoundingClientRect();
          return r.width > 40 && r.right <= window.innerWidth;
        }),
        // A short word (the refusal's code) stays whole: only the long tokens wrap.
        codeWhole: await page.locator("#logs tbody tr:first-child td.fields .field", { hasText: "untrusted_certificate" }).evaluate((f) => {
          const r = document.createRange();
          r.selectNodeContents(f.lastChild ?? f);
          return r.getClientRects().length <= 1;
        }),
        scroll: await pageScroll(page),
      };
      await picture("logs", size);
    }

    // Settings: each timeout's unit on its input's line; an address servers cannot reach is
    // said when it is saved.
    s.settings = {};
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await nav("settings");
      await page.locator("#install-deployed_minutes").waitFor();
      s.settings[`${size.width}`] = await page.locator("#install-settings input[type=number]").evaluateAll((inputs) =>
        inputs.map((input) => {
          // The unit is the text right after the input.
          const unit = input.nextSibling;
          const range = document.createRange();
          range.selectNodeContents(unit);
          const u = range.getBoundingClientRect();
          const i = input.getBoundingClientRect();
          return { id: input.id, unit: unit.textContent.trim(), sameLine: u.width > 0 && u.top < i.bottom && u.bottom > i.top };
        }),
      );
    }
    await page.setViewportSize(SIZES[0]);
    await page.fill("#svc-ip", "127.0.0.1");
    await page.click("#settings-save");
    s.svcWarning = await page.locator("#svc-ip-warnings").innerText({ timeout: 10_000 }).catch(() => "");
    await picture("settings", SIZES[0]);

    // Power, every server of the manager: those outside the group show their power state,
    // also after the screen's live poll (every 3 s) read the group's.
    await nav("power");
    await page.selectOption("#power-group", group);
    await page.locator("#power-servers tbody", { hasText: "blade" }).waitFor();
    await page.check("#power-show-all");
    const outside = page.locator("#power-servers tbody tr", { hasText: "blade 2/1" });
    await outside.waitFor();
    await page.waitForTimeout(3500);
    s.powerOutside = await outside.locator("td.power").innerText();
    await outside.locator("input[type=checkbox]").check();
    await page.click("#power-off");
    s.powerAsked = await page.locator("#confirm-list").innerText();
    await page.click("#confirm-no");
    await outside.locator("input[type=checkbox]").uncheck();
    await picture("power", SIZES[0]);

    // Networks: a subnet stands for the netmask; a network hosts use says so instead of asking.
    await nav("networks");
    await page.fill("#network-name", "lab-sub");
    await page.fill("#network-subnet", "198.51.100.0/24");
    for (const [k, v] of [["gateway", "198.51.100.1"], ["nameserver", "198.51.100.53"], ["ntpserver", "198.51.100.123"]]) await page.fill(`#network-${k}`, v);
    await page.click("#network-save");
    await page.locator("#networks-status", { hasText: "lab-sub" }).waitFor({ timeout: 10_000 });
    s.subnetOnly = await page.locator("#networks-status").innerText();
    s.subnetNetmask = await page.locator("#networks tbody tr", { hasText: "lab-sub" }).innerText();
    await page.click("[aria-label='Delete network lab-sub']");
    await page.click("#confirm-yes");
    await page.locator("#networks-status", { hasText: "deleted" }).waitFor();
    const used = hosts[0].network_group;
    await page.click(`[aria-label='Delete network ${used}']`);
    await page.waitForTimeout(300);
    s.inUseAsked = await page.locator("#confirm").isVisible();
    if (s.inUseAsked) await page.click("#confirm-no");
    s.inUse = await page.locator("#networks-status").innerText();

    // Adding a manager: the certificate trusted once stays trusted in the form; a wrong
    // password is said at the password field; then the group's servers are in view.
    await page.setViewportSize(SIZES[0]);
    await nav("server-groups");
    await page.fill("#group-name", "tls-pod");
    await page.fill("#group-ip", tlsManager);
    await page.fill("#group-password", "wrong");
    // The group's default install disk for its hosts, kept across an edit below.
    await page.fill("#group-disk-serial", "MSA11");
    await page.selectOption("#group-disk-rotational", "false");
    await page.click("#group-save");
    await page.click("#certificate-trust");
    await page.locator("#groups-status.error", { hasText: /password|login/i }).waitFor({ timeout: 20_000 });
    s.passwordError = await page.locator("#group-password-error").innerText().catch(() => "");
    await page.fill("#group-password", "password");
    await page.click("#group-save");
    await page.locator("#groups-status", { hasText: /created|certificate/ }).waitFor({ timeout: 20_000 });
    s.afterFix = await page.locator("#groups-status").innerText();
    s.untrustedAgain = await page.locator("#certificate").isVisible();
    if (!s.untrustedAgain) {
      await page.locator("#inventory tbody tr").first().waitFor({ timeout: 20_000 });
      await page.waitForTimeout(800);
      // The new group's section, from its heading to the end of its servers, inside the window.
      s.inventoryBox = await page.locator("#inventory").evaluate((t) => {
        const r = t.getBoundingClientRect();
        const h = document.querySelector("#group-servers").getBoundingClientRect();
        return { headingTop: Math.round(h.top), top: Math.round(r.top), bottom: Math.round(r.bottom), viewport: window.innerHeight };
      });
      const box = s.inventoryBox;
      s.inventoryInView = box.headingTop >= 0 && box.top >= 0 && box.bottom <= box.viewport;
      await picture("server-groups", SIZES[0]);
    }
    // Edited and saved again without touching the disk: the hint comes back and stays.
    await page.click('button[aria-label="Edit server group tls-pod"]');
    s.groupDiskShown = [await page.inputValue("#group-disk-serial"), await page.inputValue("#group-disk-rotational")].join(" ");
    await page.locator("#group-disk").scrollIntoViewIfNeeded();
    await picture("server-group-form", SIZES[0]);
    await page.fill("#group-description", "TLS lab");
    await page.click("#group-save");
    await page.locator("#groups-status", { hasText: /tls-pod updated/ }).waitFor({ timeout: 20_000 });
    await page.click('button[aria-label="Edit server group tls-pod"]');
    s.groupDiskKept = await page.inputValue("#group-disk-serial");
    await page.click("#group-cancel");

    // Deploy: no SSH key, so a deploy asks first; with restart, the servers it power-cycles are
    // listed in the same dialog the Power screen uses. Cancelled, nothing runs.
    await nav("deploy");
    await page.selectOption("#deploy-group", group);
    await page.click("#deploy-preview");
    await page.locator("#deploy-status", { hasText: "to create" }).waitFor({ timeout: 30_000 });
    s.planWarnings = await page.locator("#deploy-plan").innerText();
    // The preview names each bound host's install disk; seen at both sizes.
    s.planDisks = (await page.locator("#install-disks").count()) ? await page.locator("#install-disks").innerText() : "";
    s.planNics = (await page.locator("#install-nics").count()) ? await page.locator("#install-nics").innerText() : "";
    for (const size of [SIZES[1], SIZES[0]]) {
      await page.setViewportSize(size);
      await picture("deploy-preview", size);
    }
    await page.check("#deploy-restart");
    await page.click("#deploy-apply");
    s.noKeyAsked = await page.locator("#confirm").innerText();
    await page.click("#confirm-yes");
    await page.locator("#confirm-title", { hasText: "Restart" }).waitFor({ timeout: 10_000 });
    s.restartAsked = await page.locator("#confirm").innerText();
    await page.click("#confirm-no");
    await page.locator("#confirm").waitFor({ state: "hidden" });
    s.jobsAfterCancel = (await call("GET", "/api/v2/jobs")).json.jobs.filter((j) => j.kind === "deploy" && j.state === "running").length;
    // Deployed again, followed to association: the table fits, one line a host.
    await page.uncheck("#deploy-restart");
    await page.selectOption("#deploy-until", "associated");
    await page.click("#deploy-apply");
    await page.click("#confirm-yes");
    await page.locator("#deploy-status", { hasText: "Deployed to" }).waitFor({ timeout: 60_000 });
    s.follow = {};
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.waitForTimeout(200);
      s.follow[`${size.width}`] = {
        table: await fit(page, "#deploy-hosts"),
        // One line a host: no row as tall as two lines of its text.
        oneLine: await page.locator("#deploy-hosts tbody tr").evaluateAll((rows) =>
          rows.every((r) => r.getBoundingClientRect().height < 2.4 * parseFloat(getComputedStyle(r.cells[1]).fontSize)),
        ),
        // No word broken: every stage cell's text is whole on its line.
        words: await page.locator("#deploy-hosts tbody td.stage").evaluateAll((cells) => cells.every((c) => c.scrollWidth <= c.clientWidth + 1)),
        fsm: await page.locator("#deploy-hosts tbody tr td:nth-child(4)").allInnerTexts(),
      };
      await picture("deploy", size);
    }
    await page.locator("#deploy-hosts tbody tr:first-child button").click();
    s.followDetails = await page.locator("#deploy-hosts tr.stage-details").innerText();
    mark("screens checked at 1024×700 and 1280×900");
  } finally {
    await context.close();
  }
}

// On its own: `node e2e/screens.mjs`, printing what it saw.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const seen = {};
  try {
    await screens(browser, { base: process.env.BOOTSMITH_URL, token: process.env.BOOTSMITH_TOKEN, seen, tlsManager: process.env.UCSM_TLS });
  } finally {
    await browser.close();
    console.log(JSON.stringify(seen, null, 1));
  }
}
