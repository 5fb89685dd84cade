// Driven by scripts/test-preview.sh: headless Chromium against a running promptc serve. Exits 1 on the first failed
// check, naming it.
"use strict";
const { chromium } = require("playwright-core");
const fs = require("fs");
const path = require("path");

const url = process.env.PREVIEW_URL;
const project = process.env.PROJECT;
const origin = new URL(url).origin;

function check(ok, what) {
  if (!ok) {
    console.error("FAIL: " + what);
    process.exit(1);
  }
  console.log("ok   " + what);
}

async function main() {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  const foreign = [];
  page.on("request", (r) => { if (!r.url().startsWith(origin)) foreign.push(r.url()); });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));

  await page.goto(url);
  await page.waitForSelector("#artifact .line");
  await page.waitForSelector("#prefix-svg");
  await page.waitForSelector("#sim-svg");

  const api = async (p) => (await page.request.get(origin + p)).json();
  const index = await api("/api/index");
  const links = await page.$$eval("#index a[data-path]", (as) => as.map((a) => a.dataset.path));
  check(links.length === index.artifacts.length && index.artifacts.every((a) => links.includes(a.path)),
    `the index links every artifact (${links.length})`);

  const first = index.artifacts.find((a) => a.kind === "runbook").path;
  const view = await api(`/api/artifact?path=${encodeURIComponent(first)}&provider=anthropic`);
  const shown = await page.$eval("#artifact", (e) => e.textContent);
  check(shown === view.text, `${first}: the artifact pane holds the artifact's bytes exactly (${view.text.length} chars)`);
  const starts = await page.$$eval("#artifact .line.block-start", (ls) => ls.map((l) => l.dataset.block));
  check(starts.length === view.blocks.length, `every block's start is outlined (${starts.length} blocks)`);
  const scopes = await page.$$eval("#artifact .line", (ls) => [...new Set(ls.flatMap((l) => [...l.classList].filter((c) => c.startsWith("scope-"))))]);
  check(["scope-global", "scope-task", "scope-session"].every((s) => scopes.includes(s)), `lines are coloured by scope (${scopes.join(", ")})`);
  const okStatus = await page.$eval("#status", (e) => e.textContent);
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  check(okStatus === `${plural(index.artifacts.length, "artifact", "artifacts")}, ${plural(index.problems.length, "finding", "findings")}`, `the header counts artifacts and findings (${okStatus})`);
  const bps = await page.$$eval("#artifact .mark.bp", (m) => m.length);
  check(bps === view.breakpoints.length && bps > 0, `Anthropic's cache breakpoints are marked (${bps})`);
  const segs = await page.$$eval("#artifact .line.segment-start", (m) => m.length);
  check(segs === view.segments.length - 1, `segment boundaries are marked (${segs})`);

  const bars = await page.$$eval("#prefix-svg rect.bar", (r) => r.length);
  check(bars === 3 * index.tasks.length, `the shared-prefix chart has three bars per task (${bars})`);
  const lines = await page.$$eval("#sim-svg polyline.layout", (p) => p.map((l) => l.dataset.layout));
  check(lines.length === 3 && lines.includes("promptc"), `the simulation chart has a line per layout (${lines.join(", ")})`);

  // Selecting a line shows that line's block, scope and source: the first line, a line of a block in the middle
  // that neither the first nor the last line belongs to, and the last line. What the page must show is the server's:
  // the block whose span holds the line's first byte in /api/artifact, and /api/explain's answer for the line.
  const textLines = view.text.split("\n");
  if (textLines[textLines.length - 1] === "") textLines.pop();
  const lineStart = [];
  for (let i = 0, off = 0; i < textLines.length; i++) {
    lineStart.push(off);
    off += Buffer.byteLength(textLines[i], "utf8") + 1;
  }
  const spanAt = (off) => view.blocks.find((b) => off >= b.start && off < b.end);
  const lastN = textLines.length;
  const firstBlock = spanAt(lineStart[0]).id, lastBlock = spanAt(lineStart[lastN - 1]).id;
  let middleN = 0;
  for (let n = Math.floor(lastN / 2); n < lastN && !middleN; n++) {
    const b = spanAt(lineStart[n - 1]);
    if (b && b.id !== firstBlock && b.id !== lastBlock && textLines[n - 1] !== "") middleN = n;
  }
  check(firstBlock !== lastBlock && middleN > 1, `${first}: lines 1, ${middleN} and ${lastN} belong to three blocks (${firstBlock}, ${middleN ? spanAt(lineStart[middleN - 1]).id : "?"}, ${lastBlock})`);
  for (const n of [1, middleN, lastN]) {
    const want = spanAt(lineStart[n - 1]);
    const ex = await api(`/api/explain?path=${encodeURIComponent(first)}&line=${n}`);
    check(ex.block === want.id && ex.scope === want.scope, `line ${n}: the server's explain and artifact views agree on its block (${want.id}, ${want.scope})`);
    await page.click(`#artifact .line[data-line='${n}']`);
    // The details are complete when explain's answer has been added to them (its "written at" row).
    await page.waitForFunction((n) => {
      const dts = [...document.querySelectorAll("#details dt")].map((d) => d.textContent);
      const dds = [...document.querySelectorAll("#details dd")].map((d) => d.textContent);
      return dds[dts.indexOf("line")] === String(n) && (dts.includes("written at") || dts.includes("explain"));
    }, n, { timeout: 5000 });
    const got = await page.$$eval("#details dl > *", (es) => {
      const o = {};
      for (let i = 0; i + 1 < es.length; i += 2) o[es[i].textContent] = es[i + 1].textContent;
      return o;
    });
    const selected = await page.$$eval("#artifact .line.selected", (ls) => ls.map((l) => l.dataset.line));
    const block = want.id + (want.title ? " (" + want.title + ")" : "");
    check(selected.length === 1 && selected[0] === String(n), `line ${n}: it is the one line marked selected (${selected.join(", ")})`);
    check(got.block === block, `line ${n}: the details name its block ${block} (shown: ${got.block})`);
    check(got.scope === want.scope, `line ${n}: the details name its scope ${want.scope} (shown: ${got.scope})`);
    check(got.source === want.source, `line ${n}: the details name its block's source ${want.source} (shown: ${got.source})`);
    const origins = await page.$$eval("#details .origins li", (ls) => ls.map((l) => l.textContent));
    const wantOrigins = (ex.from || []).map((o) => `${o.kind}${o.name ? " " + o.name : ""}${o.at ? " at " + o.at : ""}`);
    check(JSON.stringify(origins) === JSON.stringify(wantOrigins), `line ${n}: the details list what wrote it (${origins.length} origins)`);
    check(got["written at"] === ex.source && got.part === ex.part, `line ${n}: the details say where it is written, ${ex.part} at ${ex.source} (shown: ${got.part} at ${got["written at"]})`);
  }

  // Markup in a constant is text: edit the constants file, live.
  await page.evaluate(() => { window.__sameDocument = true; });
  const before = await page.evaluate(() => Number(document.body.dataset.version));
  const consts = path.join(project, "blocks", "consts.toml");
  const src = fs.readFileSync(consts, "utf8");
  const m = src.match(/^(\w+)\s*=\s*"/m);
  check(m !== null, "the reference project has a constant to edit");
  const hostile = '<b id=\\"forged\\">bold</b><script>window.__pwned=1</script><img src=x onerror=\\"window.__pwned=2\\">';
  fs.writeFileSync(consts, src.replace(m[0], m[0] + "EDITED " + hostile + " "));
  await page.waitForFunction((v) => Number(document.body.dataset.version) > v, before, { timeout: 5000 });
  await page.waitForFunction(() => document.getElementById("artifact").textContent.includes("EDITED"), null, { timeout: 5000 });
  check(await page.evaluate(() => window.__sameDocument === true), "the page followed the edit without reloading");
  const live = await page.$eval("#artifact", (e) => e.textContent);
  check(live.includes('<b id="forged">bold</b><script>'), "markup in a constant shows as text");
  check(await page.evaluate(() => window.__pwned === undefined && !document.getElementById("forged") && !document.querySelector("#artifact img, #artifact script, #artifact b")),
    "markup in a constant creates no element and runs nothing");

  // A project that stops compiling shows its diagnostics, not stale bytes.
  const broken = fs.readFileSync(consts, "utf8").replace(m[0], "[[[" + m[0]);
  fs.writeFileSync(consts, broken);
  await page.waitForFunction(() => document.getElementById("status").classList.contains("bad"), null, { timeout: 5000 });
  const stale = await page.$eval("#artifact", (e) => e.textContent);
  const problems = await page.$eval("#problem-list", (e) => e.textContent);
  check(stale === "" && problems.includes("consts.toml"), "a broken project shows its diagnostics instead of stale bytes");
  const brokenIndex = await api("/api/index");
  const errs = brokenIndex.problems.filter((p) => p.severity === "error").length;
  const status = await page.$eval("#status", (e) => e.textContent);
  check(status === `the project does not compile: ${errs} ${errs === 1 ? "error" : "errors"}`, `the header counts the errors in English (${status})`);
  fs.writeFileSync(consts, src);
  await page.waitForFunction(() => !document.getElementById("status").classList.contains("bad") && document.getElementById("artifact").textContent.length > 0, null, { timeout: 5000 });
  check(true, "the page recovers when the project compiles again");

  check(foreign.length === 0, "nothing is fetched from another origin" + (foreign.length ? ": " + foreign.join(", ") : ""));
  check(errors.length === 0, "no script error" + (errors.length ? ": " + errors.join("; ") : ""));

  await page.waitForTimeout(300);
  const shot = await page.screenshot({ fullPage: false });
  fs.writeFileSync(process.env.SHOT, shot);
  const blankPage = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  await blankPage.setContent("<html><body></body></html>");
  const blank = await blankPage.screenshot();
  check(shot.length > 4 * blank.length && shot.length > 30000, `the screenshot is not blank (${shot.length} bytes; a blank page: ${blank.length})`);
  await browser.close();
}

main().catch((e) => {
  console.error("FAIL: " + (e && e.stack || e));
  process.exit(1);
});
