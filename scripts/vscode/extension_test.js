// Driven by scripts/test-vscode.sh: unpacks the packaged extension (the .vsix vsce made), checks that it holds what
// its manifest names, then loads it under Node with a stand-in for the `vscode` module, which only VS Code provides,
// and checks what it does when VS Code activates it:
//   - the package holds package.json, the file its "main" names, the language client it requires, and no sources;
//   - activate registers the command promptc.restart and watches the project's files;
//   - it starts the server as the promptc.path setting names it: PROMPTC, with the one argument lsp;
//   - the real language client (vscode-languageclient, as packaged) completes its handshake with `promptc lsp`:
//     initialize answered with the capabilities docs/editors.md lists;
//   - through that client, a file of the reference project opened and a definition asked for gives the place
//     where the constant is defined;
//   - deactivate stops the server: shutdown and exit, and `promptc lsp` exits with status 0.
// It does not show that VS Code itself loads the extension: the stand-in answers what the extension and the client
// ask for, nothing more (docs/editors.md, "VS Code", says what is tested and why not in VS Code).
//
// Environment: VSIX (the package), PROMPTC (the binary), PROJECT (a copy of examples/tracker), TMP (a scratch
// directory to unpack into).
"use strict";
const path = require("path");
const fs = require("fs");
const Module = require("module");
const child_process = require("child_process");

const zlib = require("zlib");

const vsix = process.env.VSIX, bin = process.env.PROMPTC, project = process.env.PROJECT, tmp = process.env.TMP;
if (!vsix || !bin || !project || !tmp) {
  console.log("FAIL: VSIX, PROMPTC, PROJECT and TMP must be set");
  process.exit(1);
}
let failed = false;
const ok = (msg) => console.log("ok   vscode: " + msg);
const fail = (msg) => { console.log("FAIL: vscode: " + msg); failed = true; };

// unzip extracts a zip (a .vsix is one) into dir and returns its entries' names: the central directory lists each
// entry (signature 0x02014b50) with its method, sizes and local header's offset; the data follows the local header
// (0x04034b50), stored (method 0) or deflated (8).
function unzip(file, dir) {
  const buf = fs.readFileSync(file);
  let end = buf.length - 22;
  while (end >= 0 && buf.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error(file + " is not a zip file");
  const count = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error("bad central directory entry " + i);
    const method = buf.readUInt16LE(at + 10), size = buf.readUInt32LE(at + 20);
    const n = buf.readUInt16LE(at + 28), m = buf.readUInt16LE(at + 30), k = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString("utf8", at + 46, at + 46 + n);
    at += 46 + n + m + k;
    names.push(name);
    if (name.endsWith("/")) continue;
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + size);
    const dest = path.join(dir, name);
    if (!dest.startsWith(dir + path.sep)) throw new Error("entry " + name + " leaves the package");
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.writeFileSync(dest, method === 8 ? zlib.inflateRawSync(raw) : raw);
  }
  return names;
}

const names = unzip(vsix, tmp);
const ext = path.join(tmp, "extension");
const manifest = JSON.parse(fs.readFileSync(path.join(ext, "package.json"), "utf8"));
const main = path.posix.join("extension", manifest.main);
const need = [main.endsWith(".js") ? main : main + ".js", "extension/package.json", "extension/node_modules/vscode-languageclient/package.json"];
const lacking = need.filter((n) => !names.includes(n));
const sources = names.filter((n) => n.startsWith("extension/src/"));
lacking.length === 0 && sources.length === 0
  ? ok("the package holds " + need.join(", ") + " (" + names.length + " entries), and no TypeScript sources")
  : fail("the package lacks " + lacking + (sources.length ? "; it holds the sources " + sources : ""));
JSON.stringify(manifest.activationEvents) === '["workspaceContains:**/promptc.toml"]'
  ? ok("its manifest activates it in a workspace holding a promptc.toml")
  : fail("activationEvents " + JSON.stringify(manifest.activationEvents));

// Every process the extension starts, with its command and arguments.
const spawned = [];
const spawn = child_process.spawn;
child_process.spawn = function (command, args, options) {
  const p = spawn.call(this, command, args, options);
  spawned.push({ command, args, process: p, exit: new Promise((res) => p.on("exit", (code, signal) => res({ code, signal }))) });
  return p;
};

// The stand-in for the vscode module: the few calls whose answers matter are real; anything else the client
// touches is a permissive dummy (a callable, constructible object whose every property is another dummy), so
// that the client's wiring of features it cannot use here (VS Code's UI) runs without doing anything.
const dummy = () => new Proxy(function () {}, {
  get(target, key) {
    if (key === Symbol.iterator) return function* () {};
    if (key === Symbol.toPrimitive) return () => "";
    if (key === "then") return undefined; // not a promise
    if (!(key in target)) target[key] = dummy();
    return target[key];
  },
  apply: () => dummy(),
  construct: () => dummy(),
});
const disposable = () => ({ dispose() {} });
const commands = new Map();
const watchers = [];
const log = [];
class Uri {
  constructor(fsPath) { this.scheme = "file"; this.fsPath = fsPath; this.path = fsPath; }
  static file(p) { return new Uri(p); }
  static parse(s) { return new Uri(s.replace(/^file:\/\//, "")); }
  toString() { return "file://" + this.fsPath; }
  toJSON() { return this.toString(); }
}
const stub = new Proxy({
  version: "1.82.0", // the oldest VS Code package.json's engines admits
  Uri,
  Disposable: class { constructor(f) { this.dispose = f || (() => {}); } static from(...d) { return { dispose() { d.forEach((x) => x.dispose && x.dispose()); } }; } },
  EventEmitter: class { constructor() { this.event = () => disposable(); } fire() {} dispose() {} },
  workspace: new Proxy({
    getConfiguration: (section) => ({ get: (key) => (section === "promptc" && key === "path" ? bin : undefined) }),
    createFileSystemWatcher: (glob) => { watchers.push(glob); return { onDidCreate: disposable, onDidChange: disposable, onDidDelete: disposable, dispose() {} }; },
    workspaceFolders: [{ uri: Uri.file(project), name: "tracker", index: 0 }],
    textDocuments: [],
  }, { get: (t, k) => (k in t ? t[k] : (t[k] = dummy())) }),
  commands: new Proxy({
    registerCommand: (id, fn) => { commands.set(id, fn); return disposable(); },
  }, { get: (t, k) => (k in t ? t[k] : (t[k] = dummy())) }),
  window: new Proxy({
    createOutputChannel: () => ({ append: (s) => log.push(s), appendLine: (s) => log.push(s + "\n"), replace() {}, clear() {}, show() {}, hide() {}, dispose() {}, name: "promptc" }),
  }, { get: (t, k) => (k in t ? t[k] : (t[k] = dummy())) }),
}, { get: (t, k) => (k in t ? t[k] : (t[k] = dummy())) });
// The language clients the extension makes, recorded by a subclass of the packaged client that changes nothing.
const clients = [];
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === "vscode") return stub;
  const m = load.call(this, request, parent, isMain);
  if (request === "vscode-languageclient/node" && parent && parent.filename === path.join(ext, manifest.main)) {
    class Recorded extends m.LanguageClient {
      constructor(...args) { super(...args); clients.push(this); }
    }
    return { ...m, LanguageClient: Recorded };
  }
  return m;
};

const timeout = (p, ms, what) => Promise.race([p, new Promise((_, rej) => setTimeout(() => rej(new Error(what + ": no answer in " + ms + " ms")), ms))]);

(async () => {
  const extension = require(path.join(ext, manifest.main));
  const context = { subscriptions: [], extensionPath: ext, extensionUri: Uri.file(ext), globalState: dummy(), workspaceState: dummy() };
  try {
    await timeout(extension.activate(context), 20000, "activate");
  } catch (e) {
    fail("activate failed: " + (e && e.stack || e) + "\n" + log.join(""));
    process.exit(1);
  }
  commands.has("promptc.restart") ? ok("activate registers the command promptc.restart") : fail("no promptc.restart command: " + [...commands.keys()]);
  watchers.length === 1 && watchers[0] === "**/{promptc.toml,blocks/**,fixtures/**,templates/**}"
    ? ok("it watches the project's files") : fail("file watchers " + JSON.stringify(watchers));
  if (spawned.length !== 1 || spawned[0].command !== bin || JSON.stringify(spawned[0].args) !== '["lsp"]') {
    fail("started " + JSON.stringify(spawned.map((s) => [s.command, s.args])) + ", want [" + JSON.stringify(bin) + ', ["lsp"]]');
    process.exit(1);
  }
  ok("activate starts the binary promptc.path names, with the one argument lsp");

  if (clients.length !== 1) {
    fail(clients.length + " language clients made, want 1");
    process.exit(1);
  }
  const client = clients[0];
  const caps = client.initializeResult && client.initializeResult.capabilities;
  const want = ["definitionProvider", "referencesProvider", "hoverProvider", "completionProvider", "renameProvider", "documentSymbolProvider", "codeActionProvider"];
  const missing = want.filter((k) => !caps || !caps[k]);
  missing.length === 0 && client.isRunning()
    ? ok("the language client's handshake with promptc lsp succeeded (" + want.length + " capabilities)")
    : fail("initialize: running " + client.isRunning() + ", capabilities " + JSON.stringify(caps) + " lack " + missing);

  // A definition through the client: {{const "command_boundary"}} in blocks/00-core.toml leads to its definition.
  const file = path.join(project, "blocks", "00-core.toml");
  const text = fs.readFileSync(file, "utf8");
  const uri = "file://" + file;
  const at = text.indexOf('const "command_boundary"');
  const off = at + 'const "'.length + 2;
  if (at < 0) {
    fail('no {{const "command_boundary"}} in ' + file);
  } else {
    const before = text.slice(0, off).split("\n");
    const position = { line: before.length - 1, character: before[before.length - 1].length };
    await client.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "toml", version: 1, text } });
    try {
      const res = await timeout(client.sendRequest("textDocument/definition", { textDocument: { uri }, position }), 10000, "definition");
      const locs = [].concat(res || []);
      const where = locs.map((l) => (l.uri || l.targetUri).replace("file://" + project + "/", "") + ":" + ((l.range || l.targetRange).start.line + 1));
      where.length === 1 && where[0] === "blocks/consts.toml:5"
        ? ok("definition through the client: " + where[0])
        : fail("definition of command_boundary: " + JSON.stringify(where) + ", want blocks/consts.toml:5");
    } catch (e) {
      fail("definition: " + e);
    }
  }

  // deactivate stops the client: shutdown, exit, and the server's status 0.
  try {
    await timeout(extension.deactivate(), 10000, "deactivate");
    const { code, signal } = await timeout(spawned[0].exit, 10000, "promptc lsp to exit");
    code === 0 ? ok("deactivate stops promptc lsp, which exits with status 0") : fail("promptc lsp exited with " + code + " " + signal);
  } catch (e) {
    fail("deactivate: " + e);
  }
  if (failed) {
    console.log(log.join(""));
  }
  process.exit(failed ? 1 : 0);
})();
