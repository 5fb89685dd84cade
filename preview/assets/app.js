// promptc serve's page: every byte of a prompt reaches the DOM through textContent or a text node, never as
// markup (docs/preview.md). The data comes from the JSON endpoints under /api/.
"use strict";

const state = { index: null, path: "", provider: "anthropic", version: 0, selected: 0, highlight: null };
const enc = new TextEncoder();
const dec = new TextDecoder();
const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else if (k === "onclick") e.addEventListener("click", v);
    else e[k] = v;
  }
  for (const k of kids) e.append(typeof k === "string" ? document.createTextNode(k) : k);
  return e;
}

function svg(tag, attrs, text) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

async function getJSON(url) {
  const r = await fetch(url, { cache: "no-store" });
  const v = await r.json();
  if (!r.ok) throw new Error(v.error || r.statusText);
  return v;
}

const thousands = (n) => n.toLocaleString("en-US");
// count is n with its noun, singular for one: "1 error", "2 errors", "0 findings".
const count = (n, one, many) => `${thousands(n)} ${n === 1 ? one : many}`;

async function reload() {
  const ix = await getJSON("/api/index");
  state.index = ix;
  state.version = ix.version;
  document.body.dataset.version = String(ix.version);
  $("project").textContent = ix.ok ? "promptc preview: " + ix.project : "promptc preview";
  const errs = ix.problems.filter((p) => p.severity === "error").length;
  $("status").textContent = ix.ok ? `${count(ix.artifacts.length, "artifact", "artifacts")}, ${count(ix.problems.length, "finding", "findings")}` : `the project does not compile: ${count(errs, "error", "errors")}`;
  $("status").className = ix.ok ? "" : "bad";
  renderProviders(ix.providers);
  renderIndex(ix);
  renderProblems(ix);
  if (!ix.ok) {
    // Never stale bytes: a project that stops compiling shows its diagnostics instead.
    $("artifact").replaceChildren();
    $("artifact-title").textContent = "no artifacts: fix the diagnostics below";
    $("artifact-meta").textContent = "";
    $("prefix-chart").replaceChildren();
    $("sim-chart").replaceChildren();
    return;
  }
  if (!ix.artifacts.some((a) => a.path === state.path)) {
    const first = ix.artifacts.find((a) => a.kind === "runbook") || ix.artifacts[0];
    state.path = first ? first.path : "";
  }
  renderSimTasks(ix.tasks);
  await Promise.all([loadArtifact(), loadStats(), loadSimulation()]);
}

function renderProviders(providers) {
  const sel = $("provider");
  if (sel.options.length === providers.length) return;
  sel.replaceChildren(...providers.map((p) => el("option", { value: p, textContent: p })));
  sel.value = state.provider;
}

function renderIndex(ix) {
  const table = el("table");
  table.append(el("tr", {}, el("th", {}, "task"), el("th", {}, "artifacts")));
  for (const task of ix.tasks) {
    const cell = el("td");
    for (const a of ix.artifacts.filter((a) => a.task === task)) {
      const label = a.kind === "runbook" ? `${a.fixture}: runbook` : `${a.fixture}: turn ${a.turn}`;
      const sub = a.kind === "runbook"
        ? `${thousands(a.bytes)} B, ${thousands(a.tokens)} tok, global prefix ${thousands(a.global_prefix)} B`
        : `${thousands(a.bytes)} B, ${thousands(a.tokens)} tok`;
      const link = el("a", { href: "#" + a.path, class: a.path === state.path ? "current" : "", "data-path": a.path,
        onclick: (ev) => { ev.preventDefault(); state.path = a.path; state.highlight = null; renderIndex(state.index); loadArtifact(); } },
        label, el("div", { class: "sub" }, sub));
      cell.append(link);
    }
    table.append(el("tr", {}, el("th", {}, task), cell));
  }
  $("index").replaceChildren(table);
}

function renderProblems(ix) {
  const list = $("problem-list");
  list.replaceChildren();
  if (ix.problems.length === 0) list.append(el("li", { class: "hint" }, "No diagnostics, no lint findings."));
  for (const p of ix.problems) {
    const where = p.file ? `${p.file}:${p.line || "?"}:${p.col || "?"}` : "";
    const li = el("li", {}, el("span", { class: p.severity }, p.severity), " ", where, ": ", p.message);
    if (p.lint) li.append(" (" + p.lint + ")");
    for (const pl of (p.bytes || []).slice(0, 6)) {
      li.append(el("button", { type: "button", onclick: () => { state.path = pl.artifact; state.highlight = pl; renderIndex(state.index); loadArtifact(); } },
        `${pl.artifact} bytes ${pl.start}-${pl.end}`));
    }
    list.append(li);
  }
}

async function loadArtifact() {
  if (!state.path) return;
  let v;
  try {
    v = await getJSON(`/api/artifact?path=${encodeURIComponent(state.path)}&provider=${encodeURIComponent(state.provider)}`);
  } catch (e) {
    $("artifact-title").textContent = String(e.message);
    return;
  }
  renderArtifact(v);
}

// renderArtifact draws the text line by line; each line is coloured by the scope of the block owning its first
// byte, block starts and segment starts are marked, breakpoints are empty marks at their byte. Offsets are bytes of
// UTF-8, so the text is cut as bytes and decoded piece by piece.
function renderArtifact(v) {
  $("artifact-title").textContent = v.path;
  const meta = [`${thousands(v.bytes)} bytes`, `${thousands(v.tokens)} tokens`];
  if (v.kind === "runbook") meta.push(`global prefix ${thousands(v.global_prefix)} B`, `task prefix ${thousands(v.task_prefix)} B`);
  if (v.provider) meta.push(`${count(v.breakpoints.length, "cache breakpoint", "cache breakpoints")} for ${v.model}`);
  $("artifact-meta").textContent = meta.join(" · ") + (v.note ? " · " + v.note : "");
  const bytes = enc.encode(v.text);
  const cuts = new Set([0, bytes.length]);
  const bps = new Set(v.breakpoints.map((b) => b.offset));
  for (const b of v.blocks) { cuts.add(b.start); cuts.add(b.text_start); cuts.add(b.end); }
  for (const o of bps) cuts.add(o);
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) cuts.add(i + 1);
  const points = [...cuts].filter((o) => o >= 0 && o <= bytes.length).sort((a, b) => a - b);
  const blockAt = (off) => v.blocks.find((b) => off >= b.start && off < b.end);
  const segStarts = new Set(v.segments.slice(1).map((s) => s.start));
  const blockStarts = new Set(v.blocks.map((b) => b.text_start));
  const pre = $("artifact");
  pre.replaceChildren();
  let line = null, lineNo = 0;
  const newLine = (off) => {
    lineNo++;
    const b = blockAt(off);
    // The handler holds this line's own element and number: `line` moves on to the next line as the loop runs.
    const l = el("div", { class: "line" + (b ? " scope-" + b.scope : ""), "data-line": String(lineNo), "data-offset": String(off) });
    if (b) l.dataset.blockId = b.id;
    const n = lineNo;
    l.addEventListener("click", () => select(v, n, l));
    pre.append(l);
    line = l;
  };
  for (let k = 0; k < points.length; k++) {
    const off = points[k];
    if (line === null || (off > 0 && bytes[off - 1] === 10 && off < bytes.length)) newLine(off);
    if (blockStarts.has(off) && line.dataset.offset && Number(line.dataset.offset) <= off) {
      const b = blockAt(off);
      if (b) { line.classList.add("block-start"); line.dataset.block = b.id + " · " + b.scope; line.classList.remove(...[...line.classList].filter((c) => c.startsWith("scope-"))); line.classList.add("scope-" + b.scope); }
    }
    if (segStarts.has(off)) line.classList.add("segment-start");
    if (bps.has(off) && off > 0) {
      const m = el("span", { class: "mark bp", title: "cache breakpoint: the provider caches everything before it" });
      (bytes[off - 1] === 10 && line.previousSibling ? line.previousSibling : line).append(m);
    }
    if (k + 1 < points.length) line.append(document.createTextNode(dec.decode(bytes.subarray(off, points[k + 1]))));
  }
  if (state.highlight && state.highlight.artifact === v.path) {
    for (const l of pre.children) {
      const o = Number(l.dataset.offset);
      if (o >= state.highlight.start && o < state.highlight.end) l.classList.add("highlight");
    }
  }
}

async function select(v, n, line) {
  for (const l of document.querySelectorAll(".line.selected")) l.classList.remove("selected");
  line.classList.add("selected");
  const d = $("details");
  const b = v.blocks.find((b) => b.id === line.dataset.blockId);
  const dl = el("dl");
  const row = (k, val) => dl.append(el("dt", {}, k), el("dd", {}, val));
  row("line", String(n));
  if (b) {
    row("block", b.id + (b.title ? " (" + b.title + ")" : ""));
    row("scope", b.scope);
    row("source", b.source);
    row("tasks", b.tasks);
    row("bytes", `${b.start}-${b.end}`);
  }
  d.replaceChildren(dl);
  try {
    const r = await getJSON(`/api/explain?path=${encodeURIComponent(v.path)}&line=${n}`);
    const ul = el("ul");
    for (const o of r.from || []) ul.append(el("li", {}, `${o.kind}${o.name ? " " + o.name : ""}${o.at ? " at " + o.at : ""}`));
    row("part", r.part);
    row("written at", r.source);
    row("segment", r.segment);
    dl.append(el("dt", {}, "what wrote it"), el("dd", { class: "origins" }, ul));
  } catch (e) {
    dl.append(el("dt", {}, "explain"), el("dd", {}, String(e.message)));
  }
}

async function loadStats() {
  const s = await getJSON("/api/stats");
  const tasks = s.tasks || [];
  const w = 400, rowH = 34, top = 24, left = 80, width = w - left - 10;
  const max = Math.max(1, ...tasks.map((t) => t.tokens));
  const g = svg("svg", { viewBox: `0 0 ${w} ${top + rowH * tasks.length + 30}`, role: "img", "aria-label": "shared prefixes per task", id: "prefix-svg" });
  g.append(svg("text", { x: left, y: 14 }, `tokens (${s.encoding}); shared by all tasks: ${thousands(s.shared_prefix.tokens)} (red line)`));
  tasks.forEach((t, i) => {
    const y = top + i * rowH;
    const scale = (n) => (n / max) * width;
    g.append(svg("text", { x: 4, y: y + 14 }, t.task));
    g.append(svg("rect", { x: left, y, width: scale(t.tokens), height: 18, fill: "#d7d7cf", class: "bar total" }));
    g.append(svg("rect", { x: left, y, width: scale(t.task_prefix.tokens), height: 18, fill: "#1565c0", opacity: .55, class: "bar task-prefix" }));
    g.append(svg("rect", { x: left, y, width: scale(t.global_prefix.tokens), height: 18, fill: "#2f7d32", class: "bar global-prefix" }));
    g.append(svg("text", { x: left, y: y + 30 }, `${thousands(t.global_prefix.tokens)} global · ${thousands(t.task_prefix.tokens)} task · ${thousands(t.tokens)} total`));
  });
  const shared = (s.shared_prefix.tokens / max) * width;
  g.append(svg("line", { x1: left + shared, x2: left + shared, y1: top - 4, y2: top + rowH * tasks.length, stroke: "#c62828", "stroke-dasharray": "4 3", class: "shared" }));
  $("prefix-chart").replaceChildren(g);
}

function renderSimTasks(tasks) {
  const sel = $("sim-task");
  const keep = sel.value;
  sel.replaceChildren(...tasks.map((t) => el("option", { value: t, textContent: t })));
  sel.value = tasks.includes(keep) ? keep : tasks[0];
}

async function loadSimulation() {
  const task = $("sim-task").value;
  if (!task) return;
  let sim;
  try {
    sim = await getJSON(`/api/simulate?task=${encodeURIComponent(task)}&provider=${encodeURIComponent(state.provider)}`);
  } catch (e) {
    $("sim-chart").replaceChildren(el("p", { class: "hint" }, String(e.message)));
    return;
  }
  const layouts = sim.layouts || [];
  const turns = Math.max(0, ...layouts.map((l) => l.turns.length));
  if (turns === 0) {
    $("sim-chart").replaceChildren(el("p", { class: "hint" }, `No fixture of ${task} has turns to replay.`));
    return;
  }
  const w = 400, h = 180, left = 36, top = 16, width = w - left - 10, height = h - top - 60;
  const colors = { "promptc": "#2f7d32", "volatile-first": "#c62828", "rewrite": "#8e24aa" };
  const g = svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": "cache hit rate per turn", id: "sim-svg" });
  g.append(svg("text", { x: left, y: 12 }, `hit rate per turn, ${sim.provider} ${sim.model} (${sim.cache})`));
  g.append(svg("line", { x1: left, x2: left + width, y1: top + height, y2: top + height, stroke: "#999" }));
  g.append(svg("text", { x: 4, y: top + 8 }, "100%"));
  g.append(svg("text", { x: 4, y: top + height }, "0%"));
  const x = (i) => left + (turns === 1 ? width / 2 : (i / (turns - 1)) * width);
  const y = (r) => top + height - r * height;
  layouts.forEach((l, k) => {
    const pts = l.turns.map((u, i) => `${x(i)},${y(u.hit_rate)}`).join(" ");
    g.append(svg("polyline", { points: pts, fill: "none", stroke: colors[l.name] || "#333", "stroke-width": 2, class: "layout", "data-layout": l.name }));
    l.turns.forEach((u, i) => g.append(svg("circle", { cx: x(i), cy: y(u.hit_rate), r: 2.5, fill: colors[l.name] || "#333" })));
    g.append(svg("text", { x: left + 4, y: top + height + 16 + k * 14, fill: colors[l.name] || "#333" },
      `${l.name}: relative cost ${l.total.relative_cost.toFixed(2)}, hit rate ${(l.total.hit_rate * 100).toFixed(1)}%`));
  });
  $("sim-chart").replaceChildren(g);
}

function follow() {
  const es = new EventSource("/api/events");
  es.addEventListener("version", (ev) => {
    if (Number(ev.data) !== state.version) reload();
  });
}

$("provider").addEventListener("change", () => { state.provider = $("provider").value; loadArtifact(); loadSimulation(); });
$("sim-task").addEventListener("change", loadSimulation);
if (location.hash.length > 1) state.path = decodeURIComponent(location.hash.slice(1));
reload().then(follow, (e) => { $("status").textContent = String(e.message); follow(); });
