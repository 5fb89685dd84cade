// Driven by scripts/test-preview.sh, in two phases: "export" (no server running: pages promptc serve --export
// wrote, opened from disk, and a plain `chromium --headless --screenshot` of one) and "live" (headless Chromium
// against running promptc serve processes). Exits 1 on the first failed check, naming it.
"use strict";
const { chromium } = require("playwright-core");
const fs = require("fs");
const path = require("path");

const env = process.env;
const phase = process.argv[2];

function check(ok, what) {
  if (!ok) {
    console.error("FAIL: " + what);
    process.exit(1);
  }
  console.log("ok   " + what);
}

const plural = (n, one, many) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
const thousands = (n) => n.toLocaleString("en-US");

async function launch() {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
}

const viewport = { width: 1440, height: 1000 };

// watch records what a page requests outside what it may, its script errors and its console errors (a CSP
// violation is one).
function watch(page, allowed) {
  const w = { foreign: [], errors: [], console: [] };
  page.on("request", (r) => { if (!allowed(r.url())) w.foreign.push(r.url()); });
  page.on("pageerror", (e) => w.errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") w.console.push(m.text()); });
  return w;
}

function checkWatched(w, what) {
  check(w.foreign.length === 0, `${what}: nothing is fetched from elsewhere` + (w.foreign.length ? ": " + w.foreign.join(", ") : ""));
  check(w.errors.length === 0, `${what}: no script error` + (w.errors.length ? ": " + w.errors.join("; ") : ""));
  check(w.console.length === 0, `${what}: no console error (no CSP violation)` + (w.console.length ? ": " + w.console.join("; ") : ""));
}

// The text a reader sees and copies: the pane's text nodes, and what selecting the whole pane gives. Chromium
// leaves the final newline out of any selection that ends with one (whatever the markup: it writes a newline only
// before more rendered text), so a copy is the bytes but that newline.
const copied = (t, text) => t.text === text && (t.selected === text || t.selected + "\n" === text);

async function paneTexts(page) {
  return page.evaluate(() => {
    const pre = document.getElementById("artifact");
    const s = getSelection();
    s.selectAllChildren(pre);
    const selected = s.toString();
    s.removeAllRanges();
    return { text: pre.textContent, selected };
  });
}

async function layout(page) {
  return page.$eval("#artifact", (e) => {
    const plain = [...e.querySelectorAll(".line:not(.block-start)")].map((l) => l.getBoundingClientRect().height);
    return { scroll: e.scrollWidth, client: e.clientWidth, tallest: Math.max(...plain), row: Math.min(...plain) };
  });
}

// checkWrap: long lines wrap by default, and with the toggle off keep the exact layout (one row each, the pane
// scrolls sideways); the pane's text, and a selection of all of it, are the artifact's bytes in both modes.
async function checkWrap(page, text, what) {
  check(await page.$eval("#wrap", (e) => e.checked), `${what}: long lines wrap by default`);
  let t = await paneTexts(page);
  check(copied(t, text), `${what}, wrapped: the pane's text is the artifact's bytes exactly (${text.length} chars), and so is a selection of it`);
  let m = await layout(page);
  check(m.scroll <= m.client + 1 && m.tallest > 1.8 * m.row, `${what}, wrapped: no line runs past the pane (${m.scroll} ≤ ${m.client} px) and a long line takes ${Math.round(m.tallest / m.row)} rows`);
  await page.click("#wrap");
  t = await paneTexts(page);
  check(copied(t, text), `${what}, exact layout: the pane's text is the artifact's bytes exactly, and so is a selection of it`);
  m = await layout(page);
  check(m.scroll > m.client + 50 && m.tallest < 1.5 * m.row, `${what}, exact layout: every line keeps one row (${m.tallest} px ≤ 1.5 × ${m.row}) and the pane scrolls sideways (${m.scroll} > ${m.client} px)`);
  await page.click("#wrap");
  m = await layout(page);
  check(m.scroll <= m.client + 1, `${what}: wrapping again when the toggle is back on`);
}

// detailsInView: the selected line and its details are both in the viewport, the details beside the artifact.
async function detailsInView(page, sel) {
  return page.evaluate((sel) => {
    const r = (e) => e.getBoundingClientRect();
    const d = r(document.getElementById("details")), l = r(document.querySelector(sel)), a = r(document.getElementById("artifact"));
    const h = innerHeight;
    return { ok: d.top >= 0 && d.bottom <= h && l.top >= 0 && l.bottom <= h && d.left >= a.right, scrollY: Math.round(scrollY), top: Math.round(d.top), bottom: Math.round(d.bottom), left: Math.round(d.left), right: Math.round(a.right) };
  }, sel);
}

// checkSeries: each layout has its own dash, its points stay apart even where the figures coincide (the test
// checks that they do), and the legend names each layout, its figures and what it is.
async function checkSeries(page, sim, what) {
  await page.waitForSelector("#sim-svg");
  const lines = await page.$$eval("#sim-svg polyline.layout", (ps) => ps.map((p) => ({ name: p.dataset.layout, dash: p.getAttribute("stroke-dasharray"), points: p.getAttribute("points") })));
  check(lines.length === sim.layouts.length && lines.every((l, i) => l.name === sim.layouts[i].name), `${what}: a line per layout (${lines.map((l) => l.name).join(", ")})`);
  check(new Set(lines.map((l) => l.dash)).size === lines.length, `${what}: each layout has its own dash (${lines.map((l) => l.dash).join(" | ")})`);
  const rates = sim.layouts.map((l) => JSON.stringify(l.turns.map((u) => u.hit_rate)));
  const coincide = rates.filter((r, i) => rates.indexOf(r) !== i).length;
  check(coincide > 0, `${what}: two layouts have the same hit rate at every turn (the case to draw apart)`);
  check(new Set(lines.map((l) => l.points)).size === lines.length, `${what}: layouts with the same figures are drawn apart`);
  const keys = await page.$$eval("#sim-legend .layout-key", (ks) => ks.map((k) => ({ name: k.dataset.layout, text: k.textContent, what: (k.querySelector(".what") || {}).textContent || "", sample: k.querySelector("svg line").getAttribute("stroke-dasharray") })));
  check(keys.length === lines.length && keys.every((k, i) => k.name === lines[i].name && k.sample === lines[i].dash), `${what}: the legend shows each layout's line as the chart draws it`);
  for (const [i, l] of sim.layouts.entries()) {
    const k = keys[i];
    check(k.text.includes(`${l.name}: relative cost ${l.total.relative_cost.toFixed(2)}, hit rate ${(l.total.hit_rate * 100).toFixed(1)}%`) && k.what.length > 30,
      `${what}: the legend says what ${l.name} is and its figures ("${k.what.slice(0, 50)}…")`);
  }
  check(keys.some((k) => k.text.includes("drawn 3 px below")), `${what}: the legend says which lines are drawn apart`);
}

// checkTaskFollows: opening an artifact points the simulation at its task.
async function checkTaskFollows(page, index, what) {
  for (const task of [index.tasks[1], index.tasks[index.tasks.length - 1], index.tasks[0]]) {
    const a = index.artifacts.find((a) => a.task === task && a.kind === "turn") || index.artifacts.find((a) => a.task === task);
    await page.click(`#index a[data-path='${a.path}']`);
    const shown = await page.waitForFunction((task) => {
      const s = document.getElementById("sim-svg") || document.querySelector("#sim-chart [data-task]");
      return s && s.dataset.task === task;
    }, task, { timeout: 5000 }).then(() => true, () => false);
    check(shown, `${what}: opening ${a.path} draws the simulation of ${task}`);
    const sel = await page.$eval("#sim-task", (s) => s.value);
    check(sel === task, `${what}: opening ${a.path} shows the simulation of ${task}`);
  }
}

// lineStarts are the byte offsets where each line of text starts (text ends with a newline).
function lineStarts(text) {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const starts = [];
  for (let i = 0, off = 0; i < lines.length; i++) {
    starts.push(off);
    off += Buffer.byteLength(lines[i], "utf8") + 1;
  }
  return { lines, starts };
}

// checkDetails clicks lines 1, a line of a block in the middle and the last, and checks each one's details
// against the views (get), and that they are in view beside the line.
async function checkDetails(page, get, first, view) {
  const { lines: textLines, starts: lineStart } = lineStarts(view.text);
  const spanAt = (off) => view.blocks.find((b) => off >= b.start && off < b.end);
  const lastN = textLines.length;
  const firstBlock = spanAt(lineStart[0]).id, lastBlock = spanAt(lineStart[lastN - 1]).id;
  let middleN = 0;
  for (let n = Math.floor(lastN / 2); n < lastN && !middleN; n++) {
    const b = spanAt(lineStart[n - 1]);
    if (b && b.id !== firstBlock && b.id !== lastBlock && textLines[n - 1] !== "") middleN = n;
  }
  check(firstBlock !== lastBlock && middleN > 1, `${first}: lines 1, ${middleN} and ${lastN} belong to three blocks (${firstBlock}, ${middleN ? spanAt(lineStart[middleN - 1]).id : "?"}, ${lastBlock})`);
  for (const n of [1, lastN, middleN]) {
    const want = spanAt(lineStart[n - 1]);
    const ex = await get("explain", { path: first, line: n });
    check(ex.block === want.id && ex.scope === want.scope, `line ${n}: the explain and artifact views agree on its block (${want.id}, ${want.scope})`);
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
    const v = await detailsInView(page, `#artifact .line[data-line='${n}']`);
    check(v.ok, `line ${n}: its details are in view beside it (page scrolled ${v.scrollY} px; details at y ${v.top}-${v.bottom}, x ≥ ${v.left}, right of the artifact's ${v.right})`);
  }
  return middleN;
}

async function checkArtifact(page, view, what) {
  const starts = await page.$$eval("#artifact .line.block-start", (ls) => ls.map((l) => l.dataset.block));
  check(starts.length === view.blocks.length, `${what}: every block's start is outlined (${starts.length} blocks)`);
  const scopes = await page.$$eval("#artifact .line", (ls) => [...new Set(ls.flatMap((l) => [...l.classList].filter((c) => c.startsWith("scope-"))))]);
  check(["scope-global", "scope-task", "scope-session"].every((s) => scopes.includes(s)), `${what}: lines are coloured by scope (${scopes.join(", ")})`);
  const bps = await page.$$eval("#artifact .mark.bp", (m) => m.length);
  check(bps === view.breakpoints.length && bps > 0, `${what}: Anthropic's cache breakpoints are marked (${bps})`);
  const segs = await page.$$eval("#artifact .line.segment-start", (m) => m.length);
  check(segs === view.segments.length - 1, `${what}: segment boundaries are marked (${segs})`);
}

// sliceBytes is the text of bytes [s, e) of text.
const sliceBytes = (text, s, e) => Buffer.from(text, "utf8").subarray(s, e).toString("utf8");

// checkBase checks a page comparing with a base revision against the views (get) and promptc diff --format json's
// report of the same revision (diff).
async function checkBase(page, get, diff, what) {
  const ix = await get("index");
  const base = await get("base");
  const changed = new Map(diff.changes.map((c) => [c.path, c]));
  check(ix.base === base.rev && base.title === `promptc diff ${base.rev}: ${plural(diff.changes.length, "artifact", "artifacts")} changed`,
    `${what}: the page compares with ${base.rev} (${base.title})`);
  await page.waitForSelector("#index a[data-status]");
  const marks = await page.$$eval("#index a[data-path]", (as) => as.map((a) => [a.dataset.path, a.dataset.status || ""]));
  check(marks.length === ix.artifacts.length && marks.every(([p, s]) => s === (changed.has(p) ? "changed" : "same")),
    `${what}: the index marks the ${diff.changes.length} artifacts promptc diff reports changed, and only those`);
  const summary = await page.$eval("#base-summary", (e) => e.textContent);
  check(!await page.$eval("#base-summary", (e) => e.hidden) && summary.includes(base.title) && diff.summary.lines.every((l) => summary.includes(l)),
    `${what}: the summary above the artifact is promptc diff's (${diff.summary.lines.join("; ")})`);
  const rows = await page.$$eval("#base-svg g.task-row", (gs) => gs.map((g) => ({ task: g.dataset.task, lost: Number(g.dataset.lost), kept: Number(g.dataset.kept), text: g.textContent, lostBox: !!g.querySelector("rect.lost") })));
  check(rows.length === ix.tasks.length, `${what}: the before-and-after chart has a row per task (${rows.length})`);
  for (const t of base.tasks) {
    const r = rows.find((r) => r.task === t.task);
    const d = changed.get(t.artifact);
    const lost = d ? d.invalidated_tokens : 0;
    check(r && r.lost === lost && t.lost === lost && r.lostBox === (lost > 0) &&
      (t.before ? r.text.includes(`before ${thousands(t.before.tokens)} · after ${thousands(t.after.tokens)} · kept ${thousands(t.kept)} · lost ${thousands(lost)}`) : true),
      `${what}: ${t.task}'s cached prefix before and after, ${thousands(lost)} tokens lost as promptc diff counts them for ${t.artifact}`);
  }
  return { ix, base, changed };
}

// checkBaseArtifact opens path on a page comparing with a base revision and checks the interleaved drawing.
async function checkBaseArtifact(page, get, diff, p, what) {
  await page.click(`#index a[data-path='${p}']`);
  await page.waitForFunction((p) => document.getElementById("artifact-title").textContent === p && document.getElementById("change-meta"), p, { timeout: 5000 });
  const v = await get("artifact", { path: p, provider: "anthropic" });
  const c = v.base, old = c.old;
  const d = diff.changes.find((x) => x.path === p);
  const got = await page.evaluate(() => {
    const ls = [...document.querySelectorAll("#artifact .line")];
    const text = (sides) => ls.filter((l) => sides.includes(l.dataset.side)).map((l) => l.textContent).join("");
    const q = (s) => document.querySelectorAll("#artifact " + s).length;
    return {
      news: text(["new", "both"]), olds: text(["old", "both"]), del: q(".line.del"), ins: q(".line.ins"),
      chgIns: [...document.querySelectorAll("#artifact .chg.ins")].map((e) => e.textContent),
      chgDel: [...document.querySelectorAll("#artifact .chg.del")].map((e) => e.textContent),
      bp: q(".mark.bp"), bpOld: q(".mark.bp-old"), seg: q(".line.segment-start"), segOld: q(".line.segment-start-old"),
      meta: document.getElementById("artifact-meta").textContent,
    };
  });
  check(got.news === v.text && got.olds === old.text, `${what}: the kept and added lines are the working tree's bytes, the kept and removed ones ${c.rev}'s`);
  check(got.del === c.lines.filter((l) => l.op === "-").length && got.ins === c.lines.filter((l) => l.op === "+").length && got.del + got.ins > 0,
    `${what}: promptc diff's lines, interleaved (${got.del} removed, ${got.ins} added)`);
  const joinMarks = (text, marks) => marks.map(([s, e]) => sliceBytes(text, s, e)).join("");
  check(got.chgIns.join("") === joinMarks(v.text, c.new_marks) && got.chgDel.join("") === joinMarks(old.text, c.old_marks) && got.chgIns.length > 0,
    `${what}: the changed words are marked (${JSON.stringify(got.chgDel.join("|")).slice(0, 60)} → ${JSON.stringify(got.chgIns.join("|")).slice(0, 60)})`);
  if (v.kind === "runbook") {
    check(got.bp === v.breakpoints.length && got.bpOld === old.breakpoints.length && got.bp > 0,
      `${what}: the cache breakpoints of both sides are marked (${got.bp} now, ${got.bpOld} at ${c.rev})`);
    check(got.seg === v.segments.length - 1 && got.segOld === old.segments.length - 1,
      `${what}: the scope boundaries of both sides are marked (${got.seg} now, ${got.segOld} at ${c.rev})`);
  } else {
    check(got.bp + got.bpOld + got.seg + got.segOld === 0, `${what}: a turn message has no breakpoint or segment on either side`);
  }
  const ch = c.change;
  check(ch.offset === d.offset && ch.invalidated_tokens === d.invalidated_tokens && ch.block === d.block && ch.scope === d.scope,
    `${what}: the change is promptc diff's (byte ${d.offset}, block ${d.block}, scope ${d.scope}, ${d.invalidated_tokens} tokens)`);
  const says = `changed since ${c.rev} at byte ${thousands(d.offset)} (line ${d.line}, col ${d.col}), block ${d.block}`;
  check(got.meta.includes(says) && (v.kind !== "runbook" || got.meta.includes(`invalidates ${plural(d.invalidated_tokens, "token", "tokens")} of cached prefix`)),
    `${what}: the header says where it changed and what it costs ("${says}…")`);
  await page.click("#first-change");
  await page.waitForSelector("#artifact .line.selected");
  const v2 = await detailsInView(page, "#artifact .line.selected");
  const sel = await page.$eval("#artifact .line.selected", (l) => l.dataset.side);
  check(v2.ok && (sel === "old" || sel === "new"), `${what}: "go to the first change" selects a changed line (${sel}) and shows it with its details`);
  return v;
}

async function apiOf(page, origin) {
  return async (name, params) => {
    const q = new URLSearchParams(params || {}).toString();
    const r = await page.request.get(`${origin}/api/${name}${q ? "?" + q : ""}`);
    return r.json();
  };
}

// exportData reads the data of an exported page, and answers views from it as the page's own code does not: the
// artifact's text with a provider's breakpoints laid over it.
function exportData(file) {
  const html = fs.readFileSync(file, "utf8");
  const m = html.match(/<script type="application\/json" id="promptc-data">([\s\S]*?)<\/script>/);
  check(m !== null, `${path.basename(path.dirname(file))}: the page holds its data`);
  const d = JSON.parse(m[1]);
  const get = async (name, p) => {
    switch (name) {
      case "index": return d.index;
      case "stats": return d.stats;
      case "base": return d.base;
      case "artifact": {
        const v = JSON.parse(JSON.stringify(d.artifacts[p.path]));
        const bp = d.breakpoints[p.path][p.provider];
        Object.assign(v, { breakpoints: bp.breakpoints, model: bp.model, provider: bp.provider });
        if (bp.old) Object.assign(v.base.old, { breakpoints: bp.old.breakpoints });
        return v;
      }
      case "explain": return d.explain[p.path][p.line - 1];
      case "simulate": return d.simulate[p.task][p.provider];
    }
  };
  return { d, get, html };
}

// pixels compares two PNG screenshots in a page's canvas: the share of pixels that differ, and in each region the
// count of pixels of each colour asked for.
async function pixels(browser, a, b, regions, colors) {
  const page = await browser.newPage();
  await page.setContent("<html><body></body></html>");
  const r = await page.evaluate(async ([a, b, regions, colors]) => {
    const load = (src) => new Promise((ok, bad) => { const i = new Image(); i.onload = () => ok(i); i.onerror = bad; i.src = src; });
    const data = async (src) => {
      const i = await load(src);
      const c = document.createElement("canvas");
      c.width = i.width; c.height = i.height;
      const g = c.getContext("2d");
      g.drawImage(i, 0, 0);
      return { w: i.width, h: i.height, px: g.getImageData(0, 0, i.width, i.height).data };
    };
    const A = await data(a), B = b ? await data(b) : null;
    let differ = 0;
    if (B && A.w === B.w && A.h === B.h) {
      for (let i = 0; i < A.px.length; i += 4) {
        if (Math.abs(A.px[i] - B.px[i]) > 24 || Math.abs(A.px[i + 1] - B.px[i + 1]) > 24 || Math.abs(A.px[i + 2] - B.px[i + 2]) > 24) differ++;
      }
    }
    const found = {};
    for (const [name, rc] of Object.entries(regions)) {
      found[name] = {};
      for (const [cname, [cr, cg, cb]] of Object.entries(colors)) {
        let n = 0;
        for (let y = Math.max(0, Math.floor(rc.y)); y < Math.min(A.h, rc.y + rc.h); y++) {
          for (let x = Math.max(0, Math.floor(rc.x)); x < Math.min(A.w, rc.x + rc.w); x++) {
            const i = (y * A.w + x) * 4;
            if (Math.abs(A.px[i] - cr) < 8 && Math.abs(A.px[i + 1] - cg) < 8 && Math.abs(A.px[i + 2] - cb) < 8) n++;
          }
        }
        found[name][cname] = n;
      }
    }
    return { w: A.w, h: A.h, same: B && A.w === B.w && A.h === B.h, share: B ? differ / (A.w * A.h) : 0, found };
  }, [a, b, regions, colors]);
  await page.close();
  return r;
}

const png = (file) => "data:image/png;base64," + fs.readFileSync(file).toString("base64");

async function exportPhase() {
  const browser = await launch();
  const site = env.EXPORT, shotFile = env.PLAIN_SHOT, dom = fs.readFileSync(env.PLAIN_DOM, "utf8");
  const file = path.join(site, "index.html");
  const { d, get } = exportData(file);
  const url = "file://" + file;
  const first = d.index.artifacts.find((a) => a.kind === "runbook").path;
  const view = await get("artifact", { path: first, provider: "anthropic" });

  // The plain screenshot: chromium --headless --screenshot, no DevTools driver, no server.
  const lines = (dom.match(/<div class="line[ "]/g) || []).length;
  check(lines === lineStarts(view.text).lines.length, `plain chromium --dump-dom: the exported page drew ${first}'s ${lines} lines with no server and no driver`);
  check(dom.includes('id="prefix-svg"') && dom.includes('id="sim-svg"') && (dom.match(/class="bar /g) || []).length === 3 * d.index.tasks.length,
    "plain chromium --dump-dom: the prefixes chart and the simulation are drawn");

  const page = await browser.newPage({ viewport });
  const w = watch(page, (u) => u === url || u.startsWith("data:"));
  await page.goto(url);
  await page.waitForSelector("#sim-svg");
  const regions = {};
  for (const id of ["artifact", "prefix-svg", "sim-svg"]) {
    const r = await page.$eval("#" + id, (e) => { const b = e.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: Math.min(b.height, innerHeight - b.y) }; });
    regions[id] = r;
  }
  const mine = path.join(path.dirname(shotFile), "driven.png");
  fs.writeFileSync(mine, await page.screenshot());
  const px = await pixels(browser, png(shotFile), png(mine), regions, { green: [47, 125, 50], grey: [215, 215, 207] });
  check(px.w === viewport.width && px.h === viewport.height, `the plain screenshot is ${px.w}×${px.h}`);
  check(px.same && px.share < 0.01, `the plain screenshot shows what a driven browser shows (${(px.share * 100).toFixed(2)}% of pixels differ)`);
  check(px.found.artifact.green > 500, `the plain screenshot shows the artifact, its global lines' green edge (${px.found.artifact.green} px)`);
  check(px.found["prefix-svg"].green > 2000 && px.found["prefix-svg"].grey > 500, `the plain screenshot shows the prefixes chart's bars (${px.found["prefix-svg"].green} green px)`);
  check(px.found["sim-svg"].green > 150, `the plain screenshot shows the simulation's promptc line (${px.found["sim-svg"].green} green px)`);

  // The exported page is the live page, driven.
  const status = await page.$eval("#status", (e) => e.textContent);
  check(status.endsWith("exported page (no server)") && await page.evaluate(() => document.body.dataset.mode) === "export", `the exported page says what it is (${status})`);
  await checkArtifact(page, view, `export: ${first}`);
  await checkWrap(page, view.text, `export: ${first}`);
  await checkDetails(page, get, first, view);
  await checkSeries(page, await get("simulate", { task: d.index.tasks[0], provider: "anthropic" }), "export");
  await checkTaskFollows(page, d.index, "export");
  // Another provider's breakpoints come from the page too.
  await page.click(`#index a[data-path='${first}']`);
  await page.selectOption("#provider", "openai");
  const openai = await get("artifact", { path: first, provider: "openai" });
  await page.waitForFunction((m) => document.getElementById("artifact-meta").textContent.includes(m), `for ${openai.model}`, { timeout: 5000 });
  check(await page.$$eval("#artifact .mark.bp", (m) => m.length) === openai.breakpoints.length, `export: choosing openai shows its breakpoints (${openai.breakpoints.length}, ${openai.model})`);
  checkWatched(w, "export");

  // Markup in a constant of an exported project shows as text and runs nothing.
  const hp = await browser.newPage({ viewport });
  const hurl = "file://" + path.join(env.EXPORT_HOSTILE, "index.html");
  const hw = watch(hp, (u) => u === hurl);
  await hp.goto(hurl);
  await hp.waitForSelector("#artifact .line");
  const htext = await hp.$eval("#artifact", (e) => e.textContent);
  check(htext.includes("</script><script>window.__pwned=1</script>") && htext.includes('<img src=x onerror="window.__pwned=2">'), "export: markup in a constant shows as text");
  check(await hp.evaluate(() => window.__pwned === undefined && !document.querySelector("#artifact img, #artifact script, body > img")), "export: markup in a constant creates no element and runs nothing");
  checkWatched(hw, "export of hostile markup");

  // The export with --base: the comparison, from disk.
  const bfile = path.join(env.EXPORT_BASE, "index.html");
  const b = exportData(bfile);
  const bp = await browser.newPage({ viewport });
  const burl = "file://" + bfile;
  const bw = watch(bp, (u) => u === burl);
  await bp.goto(burl);
  await bp.waitForSelector("#base-svg");
  const diff = JSON.parse(fs.readFileSync(env.DIFF_GLOBAL, "utf8"));
  await checkBase(bp, b.get, diff, "export --base");
  await checkBaseArtifact(bp, b.get, diff, first, `export --base: ${first}`);
  checkWatched(bw, "export --base");
  const bshot = await pixels(browser, png(env.PLAIN_SHOT_BASE), null, {}, {});
  check(bshot.w === viewport.width, "plain chromium --screenshot of the export with --base");
  await browser.close();
}

async function livePhase() {
  const browser = await launch();
  const url = env.PREVIEW_URL, project = env.PROJECT;
  const origin = new URL(url).origin;
  const page = await browser.newPage({ viewport });
  const w = watch(page, (u) => u.startsWith(origin));
  await page.goto(url);
  await page.waitForSelector("#artifact .line");
  await page.waitForSelector("#prefix-svg");
  await page.waitForSelector("#sim-svg");
  const get = await apiOf(page, origin);

  const index = await get("index");
  const links = await page.$$eval("#index a[data-path]", (as) => as.map((a) => a.dataset.path));
  check(links.length === index.artifacts.length && index.artifacts.every((a) => links.includes(a.path)), `the index links every artifact (${links.length})`);
  const first = index.artifacts.find((a) => a.kind === "runbook").path;
  const view = await get("artifact", { path: first, provider: "anthropic" });
  await checkArtifact(page, view, first);
  const okStatus = await page.$eval("#status", (e) => e.textContent);
  check(okStatus === `${plural(index.artifacts.length, "artifact", "artifacts")}, ${plural(index.problems.length, "finding", "findings")}`, `the header counts artifacts and findings (${okStatus})`);
  const bars = await page.$$eval("#prefix-svg rect.bar", (r) => r.length);
  check(bars === 3 * index.tasks.length, `the shared-prefix chart has three bars per task (${bars})`);
  await checkWrap(page, view.text, first);
  await checkSeries(page, await get("simulate", { task: index.tasks[0], provider: "anthropic" }), "live");
  await checkTaskFollows(page, index, "live");
  await page.click(`#index a[data-path='${first}']`);
  await page.waitForFunction((p) => document.getElementById("artifact-title").textContent === p, first);
  const middleN = await checkDetails(page, get, first, view);

  // The picture in README.md and docs/preview.md: the line a global constant wrote selected, its details beside it.
  await page.evaluate(() => scrollTo(0, 0));
  const secretN = lineStarts(view.text).lines.findIndex((l) => l.includes("Never put a secret")) + 1;
  check(secretN > 0 && middleN > 0, `${first}: line ${secretN} is the one the constant never_post_secrets wrote`);
  await page.click(`#artifact .line[data-line='${secretN}']`);
  await page.waitForFunction(() => [...document.querySelectorAll("#details dt")].some((d) => d.textContent === "written at"));
  await page.evaluate(() => scrollTo(0, 0));
  await page.waitForTimeout(300);
  fs.writeFileSync(env.SHOT, await page.screenshot());
  await page.evaluate(() => scrollTo(0, 0));

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
  fs.writeFileSync(consts, fs.readFileSync(consts, "utf8").replace(m[0], "[[[" + m[0]));
  await page.waitForFunction(() => document.getElementById("status").classList.contains("bad"), null, { timeout: 5000 });
  const stale = await page.$eval("#artifact", (e) => e.textContent);
  const problems = await page.$eval("#problem-list", (e) => e.textContent);
  check(stale === "" && problems.includes("consts.toml"), "a broken project shows its diagnostics instead of stale bytes");
  const brokenIndex = await get("index");
  const errs = brokenIndex.problems.filter((p) => p.severity === "error").length;
  const status = await page.$eval("#status", (e) => e.textContent);
  check(status === `the project does not compile: ${errs} ${errs === 1 ? "error" : "errors"}`, `the header counts the errors in English (${status})`);
  fs.writeFileSync(consts, src);
  await page.waitForFunction(() => !document.getElementById("status").classList.contains("bad") && document.getElementById("artifact").textContent.length > 0, null, { timeout: 5000 });
  check(true, "the page recovers when the project compiles again");
  checkWatched(w, "live");
  const blankPage = await browser.newPage({ viewport });
  await blankPage.setContent("<html><body></body></html>");
  const blank = (await blankPage.screenshot()).length;
  const shot = fs.statSync(env.SHOT).size;
  check(shot > 4 * blank && shot > 30000, `the screenshot is not blank (${shot} bytes; a blank page: ${blank})`);

  // --base HEAD~2: a commit that changed a global constant (and one after it that changed turn text).
  const gurl = env.BASE_GLOBAL_URL, gorigin = new URL(gurl).origin;
  const gp = await browser.newPage({ viewport });
  const gw = watch(gp, (u) => u.startsWith(gorigin));
  await gp.goto(gurl);
  await gp.waitForSelector("#base-svg");
  const gget = await apiOf(gp, gorigin);
  const gdiff = JSON.parse(fs.readFileSync(env.DIFF_GLOBAL, "utf8"));
  const { ix: gix } = await checkBase(gp, gget, gdiff, "--base HEAD~2");
  check(gix.artifacts.filter((a) => a.kind === "runbook").every((a) => a.status === "changed"), "--base HEAD~2: a global constant changed every runbook");
  const gv = await checkBaseArtifact(gp, gget, gdiff, first, `--base HEAD~2: ${first}`);
  check(gv.base.change.scope === "global", `--base HEAD~2: the first change is in the global prefix (${gv.base.change.block})`);
  await gp.evaluate(() => scrollTo(0, 0));
  await gp.waitForTimeout(300);
  fs.writeFileSync(env.SHOT_BASE, await gp.screenshot());
  checkWatched(gw, "--base HEAD~2");

  // --base HEAD~1: only turn text changed; no runbook, no cached token.
  const turl = env.BASE_TURN_URL, torigin = new URL(turl).origin;
  const tp = await browser.newPage({ viewport });
  const tw = watch(tp, (u) => u.startsWith(torigin));
  await tp.goto(turl);
  await tp.waitForSelector("#base-svg");
  const tget = await apiOf(tp, torigin);
  const tdiff = JSON.parse(fs.readFileSync(env.DIFF_TURN, "utf8"));
  const { ix: tix, base: tbase } = await checkBase(tp, tget, tdiff, "--base HEAD~1");
  const tchanged = tix.artifacts.filter((a) => a.status !== "same");
  check(tchanged.length > 0 && tchanged.every((a) => a.kind === "turn" && a.status === "changed"), `--base HEAD~1: only turn messages changed (${tchanged.length})`);
  check(tbase.tasks.every((t) => t.lost === 0 && t.task_lost === 0), "--base HEAD~1: no task loses a cached token");
  const rowsText = await tp.$$eval("#base-svg g.task-row", (gs) => gs.map((g) => g.textContent));
  check(rowsText.every((t) => t.includes("cached prefix intact") || t.includes("lose 0")), "--base HEAD~1: the chart says every cached prefix is intact");
  const turn = tdiff.changes[0].path;
  await checkBaseArtifact(tp, tget, tdiff, turn, `--base HEAD~1: ${turn}`);
  const tmeta = await tp.$eval("#artifact-meta", (e) => e.textContent);
  check(tmeta.includes("a turn message: no cached prefix lost"), "--base HEAD~1: a changed turn message says it costs no cached prefix");
  checkWatched(tw, "--base HEAD~1");

  // The timeline of --usage with --log: a bar per day, titled with its numbers, and the commit that invalidated a
  // prefix as a marker with its short hash and subject; the turn-only commit is no marker. Without --usage, no
  // timeline.
  check(await page.$eval("#timeline", (e) => e.hidden), "without --usage the page shows no timeline");
  const lp = await browser.newPage({ viewport });
  await lp.goto(env.TIMELINE_URL);
  await lp.waitForSelector("#timeline-svg");
  const dayBars = await lp.$$eval("#timeline-svg rect.period title", (ts) => ts.map((t) => t.textContent));
  const day = new Date().toISOString().slice(0, 10);
  check(dayBars.length === 1 && dayBars[0] === `${day}T00:00:00Z (day, UTC): 2 requests, hit rate 75.0%`, `the timeline's bar says its day, requests and hit rate (${dayBars})`);
  const marks = await lp.$$eval("#timeline-svg .commit-marker text", (ts) => ts.map((t) => t.textContent));
  check(marks.length === 1 && marks[0] === `${env.GLOBAL_COMMIT.slice(0, 7)} a global constant`, `the timeline marks the commit that invalidated a prefix, and only it (${marks})`);
  const markTitle = await lp.$eval("#timeline-svg .commit-marker title", (t) => t.textContent);
  check(/tokens of cached prefix invalidated/.test(markTitle) && markTitle.includes("commit time "), `a marker's title gives its commit time and the tokens it invalidated (${markTitle})`);
  await browser.close();
}

(phase === "export" ? exportPhase() : livePhase()).catch((e) => {
  console.error("FAIL: " + (e && e.stack || e));
  process.exit(1);
});
