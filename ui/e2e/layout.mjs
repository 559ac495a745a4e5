// The window at the sizes that matter (1024×700, a small laptop, and 1280×900): nothing scrolls
// the page sideways or a few pixels down, the header's and the lists' buttons are in view, and
// a sheet of 200 hosts keeps Name and IP in view, its last row clickable and its errors
// readable. Also the search, select-shown, shortcut and unit bits of the long lists.
//
// Called by browser.mjs (after its flow, so the records are there): `layout(browser, opts)`
// records what it saw in `opts.seen` under `layout*` keys. env: LAYOUT_SHOTS, a directory for
// hosts-1024x700.png, power-1024x700.png, hosts-1280x900.png and power-1280x900.png.

const SIZES = [
  { width: 1024, height: 700 },
  { width: 1280, height: 900 },
];

/** Make the host list `wanted` long (more rows in the first host's network and groups). */
async function manyHosts(base, token, wanted) {
  const call = async (method, path, body) => {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await r.json();
    if (!r.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json).slice(0, 400)}`);
    return json;
  };
  const { hosts } = await call("GET", "/api/v2/hosts");
  const first = hosts[0];
  if (!first) throw new Error("layout: the seed has no host to copy");
  const { networks } = await call("GET", "/api/v2/networks");
  const net = networks.find((n) => n.name === first.network_group);
  const prefix = (net?.gateway ?? first.ip).split(".").slice(0, 3).join(".");
  const used = new Set([...hosts.map((h) => h.ip), net?.gateway]);
  const keep = (h) => Object.fromEntries(["name", "ip", "os", "role", "network_group", "server_group", "service_profile_template", "server"].filter((k) => h[k]).map((k) => [k, h[k]]));
  const list = hosts.map(keep);
  for (let x = 2; x < 255 && list.length < wanted; x++) {
    const ip = `${prefix}.${x}`;
    if (used.has(ip)) continue;
    list.push({ name: `rack-host-${String(x).padStart(3, "0")}`, ip, os: first.os, role: first.role, network_group: first.network_group, server_group: first.server_group });
  }
  await call("POST", "/api/v2/hosts", list);
  return { count: list.length, group: first.server_group, restore: () => call("POST", "/api/v2/hosts", hosts.map(keep)) };
}

/** Whether the page itself scrolls (it must not: only the screen's own box does). */
export const pageScroll = (page) =>
  page.evaluate(() => {
    const d = document.documentElement;
    return { x: d.scrollWidth - d.clientWidth, y: d.scrollHeight - d.clientHeight };
  });

/** Whether `css`'s centre is on screen and is that element (not under a sticky column, a
 * scrollbar or outside its scroll box). */
const reachable = (page, css) =>
  page.locator(css).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return hit === el || el.contains(hit);
  });

export async function layout(browser, { base, token, seen, mark = () => {} }) {
  const shots = process.env.LAYOUT_SHOTS;
  const { count, group, restore } = await manyHosts(base, token, 200);
  const context = await browser.newContext({ viewport: SIZES[0] });
  await context.addInitScript((t) => window.localStorage.setItem("bootsmith-token", t), token);
  const page = await context.newPage();
  page.on("pageerror", (e) => (seen.layoutPageError = String(e)));
  const nav = async (screen) => {
    await page.click(`#nav-${screen}`);
    await page.locator(`#screen-${screen}`).waitFor();
  };
  try {
    await page.goto(`${base}/ui/#/hosts`);
    await page.locator("#status", { hasText: /^ok$/ }).waitFor();
    await page.locator(`#hosts-edit tbody tr:nth-child(${count})`).waitFor();
    seen.layoutHostsRows = await page.locator("#hosts-edit tbody tr").count();

    // Every screen at 1024×700: no page scroll either way, the header's Refresh in view.
    const overflow = {};
    for (const id of await page.locator("nav button[id^=nav-]").evaluateAll((els) => els.map((e) => e.id.slice(4)))) {
      await nav(id);
      await page.waitForTimeout(150);
      const s = await pageScroll(page);
      if (s.x > 0 || s.y > 0) overflow[id] = s;
    }
    seen.layoutOverflow = overflow;
    seen.layoutRefreshInView = await reachable(page, "#refresh");

    // Hosts: scrolled all the way right, Name and IP still show, and Remove is reachable.
    await nav("hosts");
    const box = page.locator(".hosts-scroll");
    await box.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    seen.layoutNameWhenRight = await reachable(page, "#hosts-edit [data-row='0'][data-field='name']");
    seen.layoutIpWhenRight = await reachable(page, "#hosts-edit [data-row='0'][data-field='ip']");
    seen.layoutRemoveWhenRight = await reachable(page, "#hosts-edit tbody tr:first-child button[aria-label^=Remove]");
    // Tabbing right from Name to the Server cell: Name stays, and the focused cell is not hidden.
    await box.evaluate((el) => (el.scrollLeft = 0));
    await page.focus("#hosts-edit [data-row='1'][data-field='name']");
    for (let i = 0; i < 7; i++) await page.keyboard.press("Tab");
    seen.layoutTabbedTo = await page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
    seen.layoutTabbedVisible = await page.evaluate(() => {
      const el = document.activeElement;
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit === el || el.contains(hit);
    });
    seen.layoutNameWhileTabbing = await reachable(page, "#hosts-edit [data-row='1'][data-field='name']");
    // Back left with Shift+Tab: the cell comes out from under the sticky Name and IP.
    for (let i = 0; i < 5; i++) await page.keyboard.press("Shift+Tab");
    seen.layoutBackTabbedVisible = await page.evaluate(() => {
      const el = document.activeElement;
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit === el || el.contains(hit);
    });
    // The last row, scrolled to: its Remove takes a click (nothing drawn over it).
    await box.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
      el.scrollLeft = el.scrollWidth;
    });
    // The row's own Remove: its Install disk cell holds a button too.
    const lastRemove = "#hosts-edit tbody tr:last-child button.row-remove";
    seen.layoutLastRowReachable = await reachable(page, lastRemove);
    await page.click(lastRemove, { trial: false });
    seen.layoutLastRowRemoved = await page.locator("#hosts-edit tbody tr:last-child").getAttribute("class");
    await page.click(lastRemove);
    // A bad address saved with Ctrl+S: the row's error is readable within the visible sheet.
    await box.evaluate((el) => (el.scrollTop = 0));
    await page.fill("#hosts-edit [data-row='2'][data-field='ip']", "192.0.2.999");
    await page.keyboard.press("Control+s");
    await page.locator("#hosts-edit .row-error").waitFor();
    seen.layoutRowError = await page.locator("#hosts-edit .row-error").innerText();
    await box.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    seen.layoutRowErrorInView = await page.evaluate(() => {
      const t = document.querySelector("#hosts-edit .row-error-text").getBoundingClientRect();
      const b = document.querySelector(".hosts-scroll").getBoundingClientRect();
      return t.width > 0 && t.left >= b.left && t.right <= b.right + 1;
    });
    seen.layoutPageScrollAfterError = await pageScroll(page);
    await page.click("#hosts-discard");

    // Column choice: a hidden column leaves the sheet narrower, and comes back.
    const widthOf = () => page.locator("#hosts-edit").evaluate((t) => t.getBoundingClientRect().width);
    const wide = await widthOf();
    await page.click("#hosts-columns summary");
    await page.uncheck("#hosts-column-install");
    await page.uncheck("#hosts-column-role");
    seen.layoutColumnsHidden = (await widthOf()) < wide && !(await page.locator("#hosts-edit thead").innerText()).includes("Role");
    await page.check("#hosts-column-install");
    await page.check("#hosts-column-role");
    await page.click("#hosts-columns summary");

    // `/` searches; the box over the ticks selects the shown rows only.
    await page.locator("#hosts-status").click();
    await page.keyboard.press("/");
    seen.layoutSlashFocus = await page.evaluate(() => document.activeElement?.id);
    await page.keyboard.type("rack-host-01");
    seen.layoutHostsSearch = await page.locator("#hosts-search-count").innerText();
    await page.check("#hosts-pick-shown");
    seen.layoutHostsBulk = await page.locator("#hosts-bulk strong").innerText();
    await page.keyboard.press("Escape");
    await page.uncheck("#hosts-pick-shown").catch(() => undefined);
    await page.locator("#hosts-search").fill("");

    // `?` lists the shortcuts; Alt+2 goes to the second screen.
    await page.locator("#hosts-status").click();
    await page.keyboard.press("?");
    seen.layoutShortcuts = await page.locator("#shortcuts").innerText();
    await page.keyboard.press("Escape");
    await page.keyboard.press("Alt+2");
    seen.layoutAlt2 = await page.locator("section[id^=screen-]").getAttribute("id");

    // Server groups: memory in GiB, and the add form above the inventory.
    await nav("server-groups");
    await page.click(`[id="group-open-${group}"]`);
    seen.layoutInventory = await page.locator("#inventory tbody", { hasText: "GiB" }).innerText({ timeout: 30_000 });
    seen.layoutFormAboveInventory = await page.evaluate(
      () => document.querySelector("#group-form").getBoundingClientRect().top < document.querySelector("#inventory").getBoundingClientRect().top,
    );
    await page.locator("#inventory-search").fill("M5");
    seen.layoutInventorySearch = await page.locator("#inventory-search-count").innerText();

    // Power & disks: disk sizes with units; with every server listed and the list scrolled
    // down, the actions are in view.
    await nav("power");
    await page.selectOption("#power-group", group);
    await page.locator("#power-servers tbody", { hasText: "blade" }).waitFor();
    const firstPick = page.locator("#power-servers tbody input[type=checkbox]").first();
    await firstPick.check();
    await page.click("#disks-show");
    seen.layoutDisks = await page.locator("#disks tbody", { hasText: "iB" }).innerText({ timeout: 30_000 });
    await firstPick.uncheck();
    if (await page.locator("#power-show-all").count()) await page.check("#power-show-all");
    await page.locator("#power-servers tbody tr:nth-child(8)").waitFor();
    await page.locator("main").evaluate((el) => (el.scrollTop = el.scrollHeight));
    seen.layoutPowerActionsInView = (await reachable(page, "#power-off")) && (await reachable(page, "#disks-reset"));
    await page.locator("main").evaluate((el) => (el.scrollTop = 0));

    // Pictures of both sizes.
    const pictures = [];
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (const screen of ["hosts", "power"]) {
        await nav(screen);
        if (screen === "power") {
          // Every server listed, one picked and its disks shown: the screen as it is used.
          await page.selectOption("#power-group", group);
          await page.locator("#power-servers tbody", { hasText: "blade" }).waitFor();
          if (await page.locator("#power-show-all").count()) await page.check("#power-show-all");
          await page.locator("#power-servers tbody tr:nth-child(3) input[type=checkbox]").check();
          await page.click("#disks-show");
          await page.locator("#disks tbody", { hasText: "iB" }).waitFor({ timeout: 30_000 }).catch(() => undefined);
        }
        await page.waitForTimeout(300);
        const s = await pageScroll(page);
        if (s.x > 0 || s.y > 0) overflow[`${screen}@${size.width}`] = s;
        if (shots) {
          const path = `${shots}/${screen}-${size.width}x${size.height}.png`;
          await page.screenshot({ path });
          pictures.push(path);
        }
      }
    }
    seen.layoutPictures = pictures;
    mark("layout checked at 1024×700 and 1280×900");
  } finally {
    await context.close();
    await restore();
  }
}
