// The window's words (issue 17): a deploy plan by host and meaning with the raw objects one
// click away, virtual media previewed and confirmed before it writes, readable logs, and
// recent jobs on the overview. Called from browser.mjs after a deploy; fills `seen` for
// tests/browser.rs to check.

export async function words(page, seen, { nav, text, waitFor }) {
  // The plan on screen is the deploy's: by host and meaning, the class and DN behind a click.
  seen.planGroups = await page.locator("#deploy-plan h4").allInnerTexts();
  const profile = page.locator("#deploy-plan summary", { hasText: "profile kube-node-01 from template" }).first();
  seen.planLine = await profile.innerText();
  seen.planRawHidden = await page.locator("#deploy-plan").innerText();
  await profile.click();
  seen.planRaw = await profile.locator("xpath=..").innerText();

  // Virtual media only: the preview and a question first; Cancel writes nothing.
  await page.click("#deploy-vmedia");
  seen.vmediaAsk = await waitFor("#confirm", "virtual-media");
  seen.vmediaStatus = await text("#deploy-status");
  await page.click("#confirm-no");
  await page.locator("#confirm").waitFor({ state: "hidden" });
  seen.vmediaPlan = await text("#deploy-plan");
  seen.deployAfterVmediaPreview = await page.locator("#deploy-apply").isDisabled();

  // Logs: records by name, fields readable, searched as typed.
  await nav("logs");
  await page.fill("#logs-q", "job started");
  // Typing filters the list (after a pause): every row left is a match.
  await page.waitForFunction(
    () => {
      const rows = [...document.querySelectorAll("#logs tbody tr")];
      return rows.length > 0 && rows.every((r) => r.textContent.includes("job started"));
    },
    null,
    { timeout: 20_000 },
  );
  seen.logs = await text("#logs tbody");

  // The overview: the jobs just run, and no next steps left once a deploy is done.
  await nav("overview");
  seen.recentJobs = await waitFor("#recent-jobs", "Deploy", 10_000);
  seen.nextSteps = (await page.locator("#next-steps").count()) ? await text("#next-steps") : "";
}
