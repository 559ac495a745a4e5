// The ISOs screen in a browser, after browser.mjs uploaded the sample ISO and mapped it to
// centos7.4: the OS list (newest first by family, end of life last and collapsible, the filter),
// and an ISO from a URL that is not there, whose error replaces the last success instead of
// showing under it. Throws with what it saw when the screen does otherwise.

/** Check the ISOs screen on `page` (already on it); `base` is the REST listener's URL. */
export async function checkIsosScreen(page, base, seen) {
  const rows = () => page.locator("#catalog tr[id^=os-]").evaluateAll((els) => els.map((e) => e.id.slice(3)));
  const fail = (what) => {
    throw new Error(`ISOs screen: ${what}; saw ${JSON.stringify(seen.isosScreen)}`);
  };
  seen.isosScreen = {};
  const s = seen.isosScreen;

  s.rows = await rows();
  if (s.rows[0] !== "alma10" || s.rows[2] !== "rhel10.1") fail("the newest RHEL rebuilds do not come first");
  if (s.rows.at(-1) !== "rhvh4.1" || s.rows.indexOf("esxi8.0") > s.rows.indexOf("centos7.4")) fail("the end-of-life versions are not last");
  // Hidden: of the end-of-life versions only centos7.4 stays, because an ISO is mapped to it.
  await page.click("#os-eol-toggle");
  s.collapsed = await rows();
  if (s.collapsed.at(-1) !== "centos7.4" || s.collapsed.includes("esxi6.7")) fail("Hide leaves the end-of-life versions");
  await page.click("#os-eol-toggle");
  if ((await rows()).length !== s.rows.length) fail("Show does not bring the end-of-life versions back");

  await page.fill("#os-filter", "esxi");
  s.filtered = await rows();
  if (s.filtered.join() !== "esxi9.0,esxi8.0,esxi7.0,esxi6.7,esxi6.5,esxi6.0") fail("the filter does not keep ESXi, newest first");
  await page.fill("#os-filter", "");

  // A success is on screen; a failed download replaces it.
  s.before = await page.locator("#isos-status").innerText();
  if (!s.before.includes("centos7.4")) fail("the mapping said nothing");
  await page.fill("#iso-url", `${base}/svc/missing.iso`);
  await page.click("#iso-fetch-go");
  await page.locator("#import-status.error").filter({ hasText: "404" }).waitFor({ timeout: 30_000 });
  s.error = await page.locator("#import-status").innerText();
  s.after = await page.locator("#isos-status").innerText();
  if (s.after !== "") fail("the old sentence stays next to the error");
  if (!s.error.includes("no file at that address")) fail("the error does not say what is wrong");
  // The refused address stays in the form to be corrected, kept as unsaved input (leaving the
  // page would ask): given up on, it is cleared.
  if ((await page.inputValue("#iso-url")) !== `${base}/svc/missing.iso`) fail("a refused download's address is gone from the form");
  await page.fill("#iso-url", "");
}
