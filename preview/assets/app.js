// promptc serve's page: every byte of a prompt reaches the DOM through textContent or a text node, never as
// markup (docs/preview.md). The data comes from the JSON endpoints under /api/, or, in a page promptc serve --export
// wrote, from the JSON in the page's #promptc-data element, which holds the same views.
"use strict";

const state = { index: null, path: "", provider: "anthropic", version: 0, highlight: null, base: null, view: null };
const enc = new TextEncoder();
const dec = new TextDecoder();
const $ = (id) => document.getElementById(id);

// exported is the data of an exported page, null on the live one.
const exported = (() => {
  const e = document.getElementById("promptc-data");
  return e ? JSON.parse(e.textContent) : null;
})();

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

// api answers one view: from the server, or from the exported page's data, which holds the answer to every request
// the page makes.
async function api(name, params) {
  if (exported) return fromExport(name, params || {});
  const q = new URLSearchParams(params || {}).toString();
  return getJSON(`/api/${name}${q ? "?" + q : ""}`);
}

function fromExport(name, p) {
  const d = exported;
  const need = (v, what) => {
    if (v === undefined || v === null) throw new Error(`${what} is not in this exported page`);
    if (v.error) throw new Error(v.error);
    return v;
  };
  switch (name) {
    case "index": return d.index;
    case "stats": return d.stats;
    case "timeline": return d.timeline || null;
    case "base": return need(d.base, "the comparison with a base revision");
    case "artifact": {
      const v = need(d.artifacts[p.path], p.path);
      if (!p.provider) return v;
      // The text is in the page once; each provider's breakpoints are laid over it.
      const bp = need((d.breakpoints[p.path] || {})[p.provider], `${p.path} for ${p.provider}`);
      const out = Object.assign({}, v, { provider: bp.provider, model: bp.model, breakpoints: bp.breakpoints, note: bp.note });
      if (v.base && v.base.old && bp.old) {
        out.base = Object.assign({}, v.base, { old: Object.assign({}, v.base.old, { breakpoints: bp.old.breakpoints, note: bp.old.note, model: bp.old.model, provider: bp.old.provider }) });
      }
      return out;
    }
    case "explain": return need((d.explain[p.path] || [])[Number(p.line) - 1], `line ${p.line} of ${p.path}`);
    case "simulate": return need((d.simulate[p.task] || {})[p.provider], `the simulation of ${p.task} for ${p.provider}`);
  }
  throw new Error("unknown view " + name);
}

const thousands = (n) => n.toLocaleString("en-US");
// count is n with its noun, singular for one: "1 error", "2 errors", "0 findings".
const count = (n, one, many) => `${thousands(n)} ${n === 1 ? one : many}`;

async function reload() {
  const ix = await api("index");
  state.index = ix;
  state.version = ix.version;
  document.body.dataset.version = String(ix.version);
  document.body.dataset.mode = exported ? "export" : "live";
  document.body.classList.toggle("based", Boolean(ix.base));
  $("project").textContent = ix.ok ? "promptc preview: " + ix.project : "promptc preview";
  const errs = ix.problems.filter((p) => p.severity === "error").length;
  let status = ix.ok ? `${count(ix.artifacts.filter((a) => a.status !== "removed").length, "artifact", "artifacts")}, ${count(ix.problems.length, "finding", "findings")}` : `the project does not compile: ${count(errs, "error", "errors")}`;
  if (exported) status += " · exported page (no server)";
  $("status").textContent = status;
  $("status").className = ix.ok ? "" : "bad";
  renderProviders(ix.providers);
  state.base = null;
  if (ix.ok && ix.base) {
    try { state.base = await api("base"); } catch (e) { state.base = null; }
  }
  renderBase();
  renderIndex(ix);
  renderProblems(ix);
  if (!ix.ok) {
    // Never stale bytes: a project that stops compiling shows its diagnostics instead.
    $("artifact").replaceChildren();
    $("artifact-title").textContent = "no artifacts: fix the diagnostics below";
    $("artifact-meta").textContent = "";
    $("prefix-chart").replaceChildren();
    $("sim-chart").replaceChildren();
    $("sim-legend").replaceChildren();
    return;
  }
  if (!ix.artifacts.some((a) => a.path === state.path)) {
    const first = ix.artifacts.find((a) => a.kind === "runbook") || ix.artifacts[0];
    state.path = first ? first.path : "";
  }
  renderSimTasks(ix.tasks);
  followTask();
  await Promise.all([loadArtifact(), loadStats(), loadSimulation(), loadTimeline()]);
}

function renderProviders(providers) {
  const sel = $("provider");
  if (sel.options.length === providers.length) return;
  sel.replaceChildren(...providers.map((p) => el("option", { value: p, textContent: p })));
  sel.value = state.provider;
}

// open shows the artifact at path, and the simulation of its task.
function open(path, highlight) {
  state.path = path;
  state.highlight = highlight || null;
  renderIndex(state.index);
  const task = followTask();
  loadArtifact();
  if (task) loadSimulation();
}

// followTask points the simulation at the task of the artifact in view; it returns the task when it changed.
function followTask() {
  const a = state.index && state.index.artifacts.find((a) => a.path === state.path);
  const sel = $("sim-task");
  if (!a || !state.index.tasks.includes(a.task) || sel.value === a.task) return "";
  sel.value = a.task;
  return a.task;
}

const statusWord = { changed: "changed", added: "new", removed: "removed" };

function renderIndex(ix) {
  const table = el("table");
  table.append(el("tr", {}, el("th", {}, "task"), el("th", {}, "artifacts")));
  const tasks = [...ix.tasks];
  for (const a of ix.artifacts) if (!tasks.includes(a.task)) tasks.push(a.task);
  for (const task of tasks) {
    const cell = el("td");
    for (const a of ix.artifacts.filter((a) => a.task === task)) {
      const label = a.kind === "runbook" ? `${a.fixture}: runbook` : `${a.fixture}: turn ${a.turn}`;
      const sub = a.kind === "runbook"
        ? `${thousands(a.bytes)} B, ${thousands(a.tokens)} tok, global prefix ${thousands(a.global_prefix)} B`
        : `${thousands(a.bytes)} B, ${thousands(a.tokens)} tok`;
      const cls = [a.path === state.path ? "current" : "", a.status ? "status-" + a.status : ""].filter(Boolean).join(" ");
      const link = el("a", { href: "#" + a.path, class: cls, "data-path": a.path,
        onclick: (ev) => { ev.preventDefault(); open(a.path); } }, label);
      if (a.status) link.dataset.status = a.status;
      if (statusWord[a.status]) link.append(el("span", { class: "badge" }, statusWord[a.status]));
      link.append(el("div", { class: "sub" }, sub));
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
      li.append(el("button", { type: "button", onclick: () => open(pl.artifact, pl) }, `${pl.artifact} bytes ${pl.start}-${pl.end}`));
    }
    list.append(li);
  }
}

// renderBase draws the account of the change since the base revision: promptc diff's title and summary above the
// artifact, and per task the cached prefix before and after.
function renderBase() {
  const b = state.base;
  const box = $("base-summary");
  $("base-charts").hidden = !b;
  box.hidden = !b;
  if (!b) {
    box.replaceChildren();
    $("base-chart").replaceChildren();
    return;
  }
  const lines = el("ul", {}, ...b.summary.lines.map((l) => el("li", {}, l)));
  box.replaceChildren(el("h2", {}, b.title), lines);
  if (b.summary.invalidated_tokens > 0) {
    box.append(el("p", {}, `cached prefix invalidated, summed over artifacts: ${count(b.summary.invalidated_bytes, "byte", "bytes")}, ${count(b.summary.invalidated_tokens, "token", "tokens")} (${b.encoding} estimates)`));
  }
  if (b.note) box.append(el("p", { class: "note" }, b.note));

  const w = 400, rowH = 58, top = 22, left = 80, width = w - left - 10;
  const max = Math.max(1, ...b.tasks.flatMap((t) => [t.after.tokens, t.before ? t.before.tokens : 0]));
  const scale = (n) => (n / max) * width;
  const g = svg("svg", { viewBox: `0 0 ${w} ${top + rowH * b.tasks.length + 8}`, role: "img", "aria-label": "cached prefix per task, before and after", id: "base-svg" });
  g.append(svg("text", { x: 4, y: 13 }, `tokens of each task's first runbook: ${b.rev} above, now below`));
  b.tasks.forEach((t, i) => {
    const y = top + i * rowH;
    const row = svg("g", { class: "task-row", "data-task": t.task, "data-status": t.status, "data-lost": t.lost, "data-kept": t.kept });
    row.append(svg("text", { x: 4, y: y + 12 }, t.task));
    row.append(svg("text", { x: 4, y: y + 26, fill: "#6b6b66" }, t.status));
    const bar = (p, yy, cls) => {
      row.append(svg("rect", { x: left, y: yy, width: scale(p.tokens), height: 11, fill: "#d7d7cf", class: cls + " total" }));
      row.append(svg("rect", { x: left, y: yy, width: scale(p.task_prefix), height: 11, fill: "#1565c0", opacity: .55, class: cls + " task-prefix" }));
      row.append(svg("rect", { x: left, y: yy, width: scale(p.global_prefix), height: 11, fill: "#2f7d32", class: cls + " global-prefix" }));
    };
    if (t.before) {
      bar(t.before, y, "before");
      if (t.lost > 0) row.append(svg("rect", { x: left + scale(t.kept), y: y - 1, width: Math.max(1, scale(t.before.tokens - t.kept)), height: 13, fill: "none", stroke: "#c62828", "stroke-width": 1.5, class: "lost" }));
    }
    bar(t.after, y + 14, "after");
    if (t.before && t.lost > 0) row.append(svg("line", { x1: left + scale(t.kept), x2: left + scale(t.kept), y1: y - 3, y2: y + 28, stroke: "#c62828", "stroke-dasharray": "3 2", class: "first-change" }));
    const what = t.before
      ? `before ${thousands(t.before.tokens)} · after ${thousands(t.after.tokens)} · kept ${thousands(t.kept)} · lost ${thousands(t.lost)}`
      : `new: ${thousands(t.after.tokens)} tokens, nothing cached before`;
    row.append(svg("text", { x: left, y: y + 38, class: "figures" }, what));
    const why = t.lost > 0 ? `${t.block ? t.block + ", " : ""}scope ${t.scope}; task's runbooks lose ${thousands(t.task_lost)}` : (t.task_lost > 0 ? `its runbooks lose ${thousands(t.task_lost)}` : "cached prefix intact");
    row.append(svg("text", { x: left, y: y + 50, fill: "#6b6b66" }, why));
    g.append(row);
  });
  $("base-chart").replaceChildren(g);
}

async function loadArtifact() {
  if (!state.path) return;
  let v;
  try {
    v = await api("artifact", { path: state.path, provider: state.provider });
  } catch (e) {
    $("artifact-title").textContent = String(e.message);
    return;
  }
  renderArtifact(v);
}

// drawLines draws a text line by line: each line is coloured by the scope of the block owning its first byte,
// block starts and segment starts are marked, breakpoints are empty marks at their byte, and the changed bytes
// (marks, [start, end) pairs) are wrapped in a span. Offsets are bytes of UTF-8, so the text is cut as bytes and
// decoded piece by piece. side is "new" or "old"; extra holds the other side's breakpoints and segment starts
// mapped onto this text (a kept line shows both sides'). It returns the lines, each with its first byte.
function drawLines(v, side, marks, extra) {
  const bytes = enc.encode(v.text);
  const bpClass = side === "old" ? "bp-old" : "bp";
  const bps = new Map(v.breakpoints.map((b) => [b.offset, bpClass]));
  const bpsExtra = new Set((extra && extra.breakpoints) || []);
  const segStarts = new Set(v.segments.slice(1).map((s) => s.start));
  const segExtra = new Set((extra && extra.segments) || []);
  const cuts = new Set([0, bytes.length]);
  for (const b of v.blocks) { cuts.add(b.start); cuts.add(b.text_start); cuts.add(b.end); }
  for (const o of bps.keys()) cuts.add(o);
  for (const o of bpsExtra) cuts.add(o);
  for (const [s, e] of marks || []) { cuts.add(s); cuts.add(e); }
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) cuts.add(i + 1);
  const points = [...cuts].filter((o) => o >= 0 && o <= bytes.length).sort((a, b) => a - b);
  const blockAt = (off) => v.blocks.find((b) => off >= b.start && off < b.end);
  const markAt = (off) => (marks || []).some(([s, e]) => off >= s && off < e);
  const blockStarts = new Set(v.blocks.map((b) => b.text_start));
  const lines = [];
  let line = null;
  const newLine = (off) => {
    const b = blockAt(off);
    const l = el("div", { class: "line" + (b ? " scope-" + b.scope : ""), "data-offset": String(off) });
    if (b) l.dataset.blockId = b.id;
    lines.push({ el: l, start: off, n: lines.length + 1 });
    line = l;
  };
  for (let k = 0; k < points.length; k++) {
    const off = points[k];
    if (line === null || (off > 0 && bytes[off - 1] === 10 && off < bytes.length)) newLine(off);
    if (blockStarts.has(off) && Number(line.dataset.offset) <= off) {
      const b = blockAt(off);
      if (b) {
        line.classList.add("block-start");
        line.dataset.block = b.id + " · " + b.scope;
        line.classList.remove(...[...line.classList].filter((c) => c.startsWith("scope-")));
        line.classList.add("scope-" + b.scope);
      }
    }
    if (segStarts.has(off)) line.classList.add(side === "old" ? "segment-start-old" : "segment-start");
    if (segExtra.has(off)) line.classList.add("segment-start-old");
    const prev = lines.length > 1 ? lines[lines.length - 2].el : null;
    // A marker after a newline ends the line before it.
    const host = off > 0 && bytes[off - 1] === 10 && prev && Number(line.dataset.offset) === off ? prev : line;
    if (bps.has(off) && off > 0) mark(host, el("span", { class: "mark " + bps.get(off), title: side === "old" ? "the base's cache breakpoint" : "cache breakpoint: the provider caches everything before it" }));
    if (bpsExtra.has(off) && off > 0) mark(host, el("span", { class: "mark bp-old", title: "the base's cache breakpoint" }));
    if (k + 1 < points.length) {
      const t = document.createTextNode(dec.decode(bytes.subarray(off, points[k + 1])));
      line.append(markAt(off) ? el("span", { class: "chg " + (side === "old" ? "del" : "ins") }, t) : t);
    }
  }
  return lines;
}

// mark puts a breakpoint mark at the end of a line, before its newline: after it, the mark would open a row of its
// own.
function mark(line, m) {
  let t = line.lastChild;
  while (t && t.nodeType !== Node.TEXT_NODE && t.lastChild) t = t.lastChild;
  if (t && t.nodeType === Node.TEXT_NODE && t.data.endsWith("\n")) {
    const nl = t.splitText(t.data.length - 1);
    nl.parentNode.insertBefore(m, nl);
  } else {
    line.append(m);
  }
}

function renderArtifact(v) {
  state.view = v;
  $("artifact-title").textContent = v.path;
  const meta = $("artifact-meta");
  meta.replaceChildren();
  const parts = [`${thousands(v.bytes)} bytes`, `${thousands(v.tokens)} tokens`];
  if (v.kind === "runbook") parts.push(`global prefix ${thousands(v.global_prefix)} B`, `task prefix ${thousands(v.task_prefix)} B`);
  if (v.provider) parts.push(`${count(v.breakpoints.length, "cache breakpoint", "cache breakpoints")} for ${v.model}`);
  meta.append(parts.join(" · ") + (v.note ? " · " + v.note : ""));
  const pre = $("artifact");
  pre.replaceChildren();
  if (v.base) {
    renderComparison(v, pre, meta);
  } else {
    for (const l of drawLines(v, "new")) {
      l.el.dataset.line = String(l.n);
      l.el.addEventListener("click", () => select(v, l.el));
      pre.append(l.el);
    }
  }
  if (state.highlight && state.highlight.artifact === v.path) {
    for (const l of pre.children) {
      const o = Number(l.dataset.offset);
      if (!l.classList.contains("del") && o >= state.highlight.start && o < state.highlight.end) l.classList.add("highlight");
    }
  }
}

// renderComparison draws the artifact against the base revision, interleaved as a review diff: the lines kept and
// added from the working tree's text, the lines removed from the revision's, each with its own side's scopes,
// blocks, segment boundaries and breakpoints (a kept line shows both sides' breakpoints), the changed bytes marked.
function renderComparison(v, pre, meta) {
  const c = v.base;
  const old = c.old || { text: "", blocks: [], segments: [], breakpoints: [] };
  // Map the revision's breakpoints and segment starts on kept lines to the working tree's bytes.
  const extra = { breakpoints: [], segments: [] };
  const oldSegs = old.segments.slice(1).map((s) => s.start);
  for (const l of c.lines) {
    if (l.op !== " ") continue;
    for (const b of old.breakpoints) if (b.offset > l.old[0] && b.offset <= l.old[1]) extra.breakpoints.push(l.new[0] + b.offset - l.old[0]);
    for (const s of oldSegs) if (s === l.old[0]) extra.segments.push(l.new[0]);
  }
  const news = drawLines(v, "new", c.new_marks, extra);
  const olds = drawLines(old, "old", c.old_marks);
  const byStart = (ls) => new Map(ls.map((l) => [l.start, l]));
  const newAt = byStart(news), oldAt = byStart(olds);
  let first = null;
  for (const d of c.lines) {
    const l = d.op === "-" ? oldAt.get(d.old[0]) : newAt.get(d.new[0]);
    if (!l) continue;
    const e = l.el;
    if (d.op === "-") {
      e.classList.add("del");
      e.dataset.side = "old";
      e.dataset.oldLine = String(l.n);
    } else {
      e.dataset.side = d.op === "+" ? "new" : "both";
      e.dataset.line = String(l.n);
      if (d.op === "+") e.classList.add("ins");
    }
    if (d.op !== " " && !first) first = e;
    e.addEventListener("click", () => select(v, e));
    pre.append(e);
  }
  const ch = c.change;
  const say = { same: `the same as at ${c.rev}`, added: `new since ${c.rev}`, removed: `no longer produced: ${c.rev}'s bytes shown` };
  let text = say[c.status] || `changed since ${c.rev}`;
  if (ch && c.status === "changed") {
    text = `changed since ${c.rev} at byte ${thousands(ch.offset)} (line ${ch.line}, col ${ch.col})`;
    if (ch.block) text += `, block ${ch.block}${ch.source ? " (" + ch.source + ")" : ""}, scope ${ch.scope}`;
    else if (ch.after) text += `, after block ${ch.after}`;
    if (ch.origin) text += `; written by ${ch.origin.kind} ${ch.origin.name} (${ch.origin.source})`;
  }
  if (ch && v.kind === "runbook" && c.status !== "added") text += ` · invalidates ${count(ch.invalidated_tokens, "token", "tokens")} of cached prefix`;
  if (ch && v.kind === "turn") text += " · a turn message: no cached prefix lost";
  meta.append(el("br"), el("span", { class: "change", id: "change-meta" }, text));
  if (first) {
    meta.append(" · ", el("a", { href: "#", id: "first-change", onclick: (ev) => { ev.preventDefault(); first.scrollIntoView({ block: "center" }); select(v, first); } }, "go to the first change"));
  }
}

async function select(v, line) {
  for (const l of document.querySelectorAll(".line.selected")) l.classList.remove("selected");
  line.classList.add("selected");
  const d = $("details");
  const removed = line.dataset.side === "old";
  const src = removed ? v.base.old : v;
  const b = src.blocks.find((b) => b.id === line.dataset.blockId);
  const dl = el("dl");
  const row = (k, val) => dl.append(el("dt", {}, k), el("dd", {}, val));
  if (removed) {
    row("line", `${line.dataset.oldLine} at ${v.base.rev} (removed)`);
  } else {
    row("line", line.dataset.line);
  }
  if (b) {
    row("block", b.id + (b.title ? " (" + b.title + ")" : ""));
    row("scope", b.scope);
    row("source", b.source);
    row("tasks", b.tasks);
    row("bytes", `${b.start}-${b.end}`);
  }
  d.replaceChildren(el("h2", {}, removed ? `${v.path} at ${v.base.rev}` : v.path), dl);
  if (removed) return;
  try {
    const r = await api("explain", { path: v.path, line: line.dataset.line });
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
  const s = await api("stats");
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

// layouts says how each layout of the simulation is drawn and what it is (docs/providers.md): a colour, a dash
// and a marker each, so that two layouts with the same figures (both at 0%) stay apart.
const layouts = {
  "promptc": { color: "#2f7d32", dash: "", marker: "circle", what: "the request promptc project builds: the runbook's segments first, cached, then the history, the turn last" },
  "volatile-first": { color: "#c62828", dash: "7 4", marker: "square", what: "the turn's message placed before the runbook in the system prompt, as a prompt that starts with the date and the user's message" },
  "rewrite": { color: "#8e24aa", dash: "2 3", marker: "triangle", what: "the runbook, then a fresh summary of the conversation so far in one message, then the turn" },
  "trim-every-turn": { color: "#1565c0", dash: "10 3 2 3", marker: "diamond", what: "promptc's layout with a client that drops the oldest messages every turn" },
};
const otherLayout = { color: "#333", dash: "4 2", marker: "circle", what: "" };

function marker(kind, x, y, color) {
  switch (kind) {
    case "square": return svg("rect", { x: x - 2.6, y: y - 2.6, width: 5.2, height: 5.2, fill: color });
    case "triangle": return svg("polygon", { points: `${x},${y - 3.4} ${x - 3.2},${y + 2.4} ${x + 3.2},${y + 2.4}`, fill: color });
    case "diamond": return svg("polygon", { points: `${x},${y - 3.4} ${x - 3.2},${y} ${x},${y + 3.4} ${x + 3.2},${y}`, fill: color });
  }
  return svg("circle", { cx: x, cy: y, r: 2.8, fill: color });
}

// Series that coincide are drawn this many pixels apart, one below the other, and the legend says so.
const coincideOffset = 3;

async function loadSimulation() {
  const task = $("sim-task").value;
  if (!task) return;
  let sim;
  try {
    sim = await api("simulate", { task, provider: state.provider });
  } catch (e) {
    $("sim-chart").replaceChildren(el("p", { class: "hint" }, String(e.message)));
    $("sim-legend").replaceChildren();
    return;
  }
  const ls = sim.layouts || [];
  const turns = Math.max(0, ...ls.map((l) => l.turns.length));
  if (turns === 0) {
    $("sim-chart").replaceChildren(el("p", { class: "hint", "data-task": task }, `No fixture of ${task} has turns to replay.`));
    $("sim-legend").replaceChildren();
    return;
  }
  const w = 400, h = 156, left = 36, top = 36, width = w - left - 10, height = h - top - 22;
  const g = svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": `cache hit rate per turn of ${task}`, id: "sim-svg", "data-task": task });
  const sessions = [...new Set(ls[0].turns.map((u) => u.session))];
  g.append(svg("text", { x: 4, y: 12 }, `task ${task}: hit rate per turn, ${sim.provider} ${sim.model} (${sim.cache})`));
  g.append(svg("text", { x: 4, y: 24, fill: "#6b6b66" }, `${count(turns, "turn", "turns")} of ${count(sessions.length, "session", "sessions")} (${sessions.join(", ")})`));
  g.append(svg("line", { x1: left, x2: left + width, y1: top + height, y2: top + height, stroke: "#999" }));
  g.append(svg("line", { x1: left, x2: left + width, y1: top, y2: top, stroke: "#eee" }));
  g.append(svg("text", { x: 4, y: top + 4 }, "100%"));
  g.append(svg("text", { x: 4, y: top + height + 4 }, "0%"));
  g.append(svg("text", { x: left, y: h - 4, fill: "#6b6b66" }, "turn 1"));
  g.append(svg("text", { x: left + width, y: h - 4, fill: "#6b6b66", "text-anchor": "end" }, `turn ${turns}`));
  const x = (i) => left + (turns === 1 ? width / 2 : (i / (turns - 1)) * width);
  const y = (r) => top + height - r * height;
  // shift[k][i]: how many layouts before layout k have the same hit rate at turn i.
  const legend = [];
  ls.forEach((l, k) => {
    const info = layouts[l.name] || otherLayout;
    const same = new Set();
    const pts = l.turns.map((u, i) => {
      let n = 0;
      for (let j = 0; j < k; j++) {
        const o = ls[j].turns[i];
        if (o && Math.abs(o.hit_rate - u.hit_rate) < 1e-9) { n++; same.add(ls[j].name); }
      }
      return [x(i), y(u.hit_rate) + n * coincideOffset];
    });
    g.append(svg("polyline", { points: pts.map((p) => p.join(",")).join(" "), fill: "none", stroke: info.color, "stroke-width": 2,
      "stroke-dasharray": info.dash || "none", class: "layout", "data-layout": l.name }));
    for (const [px, py] of pts) g.append(marker(info.marker, px, py, info.color));
    const sample = svg("svg", { viewBox: "0 0 40 12", "aria-hidden": "true" });
    sample.append(svg("line", { x1: 2, x2: 38, y1: 6, y2: 6, stroke: info.color, "stroke-width": 2, "stroke-dasharray": info.dash || "none" }), marker(info.marker, 20, 6, info.color));
    const figures = `${l.name}: relative cost ${l.total.relative_cost.toFixed(2)}, hit rate ${(l.total.hit_rate * 100).toFixed(1)}%`;
    const note = same.size ? ` (where it equals ${[...same].join(" and ")}, drawn ${coincideOffset} px below it)` : "";
    legend.push(el("div", { class: "layout-key", "data-layout": l.name }, sample, el("span", {}, el("b", {}, figures), note, el("br"), el("span", { class: "what" }, info.what))));
  });
  $("sim-chart").replaceChildren(g);
  $("sim-legend").replaceChildren(...legend);
}

function follow() {
  if (exported) return; // a page on disk has no server to follow
  const es = new EventSource("/api/events");
  es.addEventListener("version", (ev) => {
    if (Number(ev.data) !== state.version) reload();
  });
}

$("provider").addEventListener("change", () => { state.provider = $("provider").value; loadArtifact(); loadSimulation(); });
$("sim-task").addEventListener("change", loadSimulation);
$("wrap").addEventListener("change", () => $("artifact").classList.toggle("wrap", $("wrap").checked));
if (location.hash.length > 1) state.path = decodeURIComponent(location.hash.slice(1));
reload().then(follow, (e) => { $("status").textContent = String(e.message); follow(); });

// loadTimeline draws promptc serve --usage's series: one bar per period, as tall as its cache hit rate, and each
// commit of --log that invalidated a prefix as a marker at its period (by commit time), labelled with its short hash
// and subject. A bar's and a marker's title hold their numbers. Without --usage the section stays hidden.
async function loadTimeline() {
  const t = await api("timeline");
  const periods = (t && t.periods) || [];
  $("timeline").hidden = periods.length === 0;
  if (periods.length === 0) {
    $("timeline-chart").replaceChildren();
    return;
  }
  const w = 400, top = 16, h = 120, left = 34, width = w - left - 10;
  const marked = periods.reduce((n, p) => n + (p.commits || []).length, 0);
  const step = width / periods.length;
  const g = svg("svg", { viewBox: `0 0 ${w} ${top + h + 24 + 16 * marked}`, role: "img", "aria-label": `cache hit rate per ${t.by}`, id: "timeline-svg" });
  g.append(svg("text", { x: 0, y: top + 4 }, "100%"), svg("text", { x: 0, y: top + h }, "0%"));
  let row = 0;
  periods.forEach((p, i) => {
    const x = left + i * step, bh = p.hit_rate * h;
    const bar = svg("rect", { x: x + 1, y: top + h - bh, width: Math.max(1, step - 2), height: bh, fill: "#2f7d32", class: "period" });
    bar.append(svg("title", {}, `${p.start} (${t.by}, UTC): ${thousands(p.requests)} requests, hit rate ${(p.hit_rate * 100).toFixed(1)}%`));
    g.append(bar);
    for (const c of p.commits || []) {
      const cx = x + step / 2, y = top + h + 18 + 16 * row++;
      g.append(svg("line", { x1: cx, x2: cx, y1: top, y2: y - 10, stroke: "#c62828", "stroke-dasharray": "3 2" }));
      const m = svg("g", { class: "commit-marker" });
      m.append(svg("title", {}, `commit time ${c.commit_time}: ${c.subject} (${(c.tasks || []).join(", ")}; ${thousands(c.invalidated_tokens)} tokens of cached prefix invalidated)`), svg("text", { x: Math.min(cx, w - 200), y }, `${c.commit.slice(0, 7)} ${c.subject}`));
      g.append(m);
    }
  });
  $("timeline-chart").replaceChildren(g);
}
