// Driven by scripts/test-vscode.sh: the packaged extension in a real VS Code, code-server's (VS Code served to a
// browser), driven by headless Chromium through playwright-core as a person would use it:
//   - the workbench opens the copy of the reference project, and VS Code activates the extension by itself (its
//     workspaceContains:**/promptc.toml event): the promptc.path binary, a wrapper that logs its arguments, is run
//     as `promptc lsp`;
//   - opening blocks/00-core.toml, which holds a misspelt constant, shows promptc's diagnostic in the Problems panel
//     at its line and column, with the suggestion;
//   - the quick fix (Ctrl+.) changes the name to the one suggested, the problem goes away, and saved (Ctrl+S) the
//     file on disk holds the fixed name.
//
// Environment: URL (code-server's, with ?folder=), PROJECT (the project it opened), INVOCATIONS (the wrapper's
// log), SHOT (a screenshot written at the end, or when a check fails).
"use strict";
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");

const url = process.env.URL, project = process.env.PROJECT, invocations = process.env.INVOCATIONS, shot = process.env.SHOT;
let page;

async function check(cond, what, detail) {
  if (!cond) {
    console.log("FAIL: code-server: " + what + (detail ? ": " + detail : ""));
    if (page && shot) await page.screenshot({ path: shot }).catch(() => {});
    process.exit(1);
  }
  console.log("ok   code-server: " + what);
}

// until polls f every 250 ms until it returns something truthy, or gives up after ms; returns the last value.
async function until(f, ms) {
  const end = Date.now() + ms;
  let v;
  while (!(v = await f()) && Date.now() < end) await new Promise((r) => setTimeout(r, 250));
  return v;
}

const problems = () => page.$$eval(".markers-panel .monaco-list-row", (rows) => rows.map((r) => r.textContent));
const status = () => page.$eval("#status\\.problems", (e) => e.getAttribute("aria-label") || e.textContent).catch(() => "");

(async () => {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  await page.goto(url);
  await page.waitForSelector(".monaco-workbench .part.editor", { timeout: 90000 });
  const title = await until(() => page.$eval(".monaco-workbench .explorer-folders-view, .monaco-workbench .pane-header", (e) => e.textContent).catch(() => ""), 30000);
  await check(title.toLowerCase().includes(path.basename(project).toLowerCase()), "the workbench opens the project", title);

  const started = await until(() => fs.existsSync(invocations) && fs.readFileSync(invocations, "utf8"), 60000);
  await check(started === "lsp\n", "VS Code activates the extension by itself, which runs the promptc.path binary as `promptc lsp`", JSON.stringify(started));

  // Quick open, as a person opens a file.
  await page.keyboard.press("Control+P");
  await page.waitForSelector(".quick-input-widget input", { state: "visible" });
  await page.keyboard.type("blocks/00-core.toml");
  await until(() => page.$$eval(".quick-input-list .monaco-list-row", (r) => r.length).catch(() => 0), 10000);
  await page.keyboard.press("Enter");
  await page.waitForSelector(".monaco-editor .view-lines", { timeout: 30000 });
  await page.keyboard.press("Control+Shift+M"); // the Problems panel
  const want = 'block "safety" uses unknown constant "command_boundry" (did you mean "command_boundary"?)';
  const rows = await until(async () => { const r = await problems(); return r.some((t) => t.includes(want)) && r; }, 60000);
  const row = (rows || []).find((t) => t.includes(want)) || "";
  await check(row.includes("promptc") && row.includes("[Ln 19, Col 11]"), "the Problems panel shows promptc's diagnostic at 19:11, with the suggestion", JSON.stringify(rows || (await problems())));

  // The quick fix: the cursor on the misspelt name, Ctrl+. and the first fix.
  await page.click(".monaco-editor .view-lines");
  await page.keyboard.press("Control+G");
  await page.waitForSelector(".quick-input-widget input", { state: "visible" });
  await page.keyboard.type("19:15");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Control+.");
  const fix = await until(() => page.$$eval(".action-widget .monaco-list-row, .context-view .action-label", (r) => r.map((e) => e.textContent).join("|")).catch(() => ""), 20000);
  await check(fix.includes('Change "command_boundry" to "command_boundary"'), "Ctrl+. offers promptc's quick fix", fix);
  await page.keyboard.press("Enter");
  const after = await until(async () => { const s = await status(); return /no problems|errors: 0/i.test(s) && s; }, 30000);
  await check(after, "the fix applied, the problem goes away", await status());
  // Saved, the file on disk holds the name suggested, in place of the misspelt one and nowhere else.
  await page.keyboard.press("Control+S");
  const file = path.join(project, "blocks", "00-core.toml");
  const saved = await until(() => { const t = fs.readFileSync(file, "utf8"); return !t.includes("command_boundry") && t; }, 20000);
  await check(saved && saved.includes('- {{const "command_boundary"}}\n'), "saved, blocks/00-core.toml holds the name suggested");
  if (shot) await page.screenshot({ path: shot });
  await browser.close();
  process.exit(0);
})().catch(async (e) => {
  console.log("FAIL: code-server: " + (e && e.stack || e));
  if (page && shot) await page.screenshot({ path: shot }).catch(() => {});
  process.exit(1);
});
