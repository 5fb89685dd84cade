// bench-nunjucks.js: the Nunjucks side of scripts/bench-nunjucks.sh, the peer promptc build is measured against.
//
//   node bench-nunjucks.js prepare PROJECT DIR   translate a promptc project made by internal/gen into a Nunjucks
//                                                project in DIR (not timed: it is the peer's source tree)
//   node bench-nunjucks.js render DIR OUT        render every artifact promptc build writes, into OUT (timed)
//
// prepare reads the TOML files (smol-toml) and rewrites each block body, a Go text/template, as a Nunjucks template
// (DIR/blocks/ID.njk); what Nunjucks has no notion of (gates, order, replacements, value limits, escaping by trust,
// marker neutralisation, trimming and joining blocks, the artifact tree) is the driver below, written to do the same
// work promptc does, no less: values are processed once per fixture and turn and escaped where a body prints them,
// blocks that read no variable render once per task, session blocks once per fixture (promptc caches the same way,
// see assemble/render.go). The translation covers the template subset internal/gen writes; anything else is refused,
// so a change to the generator fails here loudly instead of measuring something else. The script checks nothing
// about bytes itself: bench-nunjucks.sh compares the two output trees with diff -r.
'use strict';

const fs = require('fs');
const path = require('path');

const ESCAPE_TRUST = new Set(['untrusted', 'background', 'markdown', 'code']);

function usage() {
	process.stderr.write('usage: node bench-nunjucks.js prepare PROJECT DIR | render DIR OUT\n');
	process.exit(2);
}

// ---- prepare ---------------------------------------------------------------------------------------------------

function walk(dir, ext, out = []) {
	for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) walk(p, ext, out);
		else if (e.name.endsWith(ext)) out.push(p);
	}
	return out;
}

// tokens splits a Go template into text and {{action}} pieces.
function tokens(src) {
	const out = [];
	let i = 0;
	while (i < src.length) {
		const j = src.indexOf('{{', i);
		if (j < 0) {
			out.push({ text: src.slice(i) });
			break;
		}
		if (j > i) out.push({ text: src.slice(i, j) });
		const k = src.indexOf('}}', j + 2);
		if (k < 0) throw new Error('unclosed action');
		out.push({ action: src.slice(j + 2, k).trim() });
		i = k + 2;
	}
	return out;
}

// words splits an action into operands: strings, parenthesised groups and bare words.
function words(s) {
	const out = [];
	let i = 0;
	while (i < s.length) {
		const c = s[i];
		if (c === ' ') {
			i++;
		} else if (c === '"') {
			let j = i + 1;
			while (s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
			out.push({ str: JSON.parse(s.slice(i, j + 1)) });
			i = j + 1;
		} else if (c === '(') {
			let depth = 0;
			let j = i;
			for (; j < s.length; j++) {
				if (s[j] === '(') depth++;
				else if (s[j] === ')' && --depth === 0) break;
			}
			out.push({ group: s.slice(i + 1, j) });
			i = j + 1;
		} else {
			let j = i;
			while (j < s.length && s[j] !== ' ') j++;
			out.push({ word: s.slice(i, j) });
			i = j;
		}
	}
	return out;
}

// Translator turns one body into Nunjucks. An expression is {js, trust, list}: trust is the trust level whose
// escaping the printed value still needs ('trusted' for none).
class Translator {
	constructor(vars) {
		this.vars = vars;
		this.readsTask = false;
		this.readsVars = false;
		this.dots = []; // what `.` means inside with and range: an expression
		this.locals = new Map(); // $name → expression
		this.n = 0;
	}

	variable(name) {
		if (name === 'task') {
			this.readsTask = true;
			return { js: 'task', trust: 'trusted' };
		}
		const v = this.vars[name];
		if (!v) throw new Error(`unknown variable ${name}`);
		this.readsVars = true;
		return { js: `V.${name}`, trust: v.type === 'bool' || v.type === 'int' ? 'trusted' : v.trust || 'untrusted', list: v.type === 'list' };
	}

	operand(w) {
		if (w.str !== undefined) return { js: JSON.stringify(w.str), trust: 'trusted', literal: w.str };
		if (w.group !== undefined) return this.pipeline(w.group);
		const s = w.word;
		if (/^-?[0-9]+$/.test(s)) return { js: s, trust: 'trusted' };
		if (s === '.') {
			if (!this.dots.length) throw new Error('bare . outside with/range');
			return this.dots[this.dots.length - 1];
		}
		if (s.startsWith('$.')) return this.variable(s.slice(2));
		if (s.startsWith('$')) {
			const l = this.locals.get(s);
			if (!l) throw new Error(`unknown local ${s}`);
			return l;
		}
		if (s.startsWith('.')) {
			if (this.dots.length) throw new Error(`field ${s} inside with/range`);
			return this.variable(s.slice(1));
		}
		throw new Error(`unsupported operand ${s}`);
	}

	// escaped: the expression with its escaping applied, as Nunjucks source.
	escaped(e) {
		if (e.trust === 'trusted') return e.js;
		return `(${e.js} | ${e.list ? 'escList' : 'esc'}(${JSON.stringify(e.trust)}))`;
	}

	pipeline(src) {
		const ws = words(src);
		if (ws.length === 1) return this.operand(ws[0]);
		const fn = ws[0].word;
		const args = ws.slice(1).map((w) => this.operand(w));
		const done = (js) => ({ js, trust: 'trusted' });
		switch (fn) {
			case 'const':
				return done(`C[${JSON.stringify(args[0].literal)}]`);
			case 'ref':
				return done(`R[${JSON.stringify(args[0].literal)}]`);
			case 'quote':
				return done(`(${this.escaped(args[0])} | quote)`);
			case 'bullets':
				return done(`(${this.escaped(args[0])} | bullets)`);
			case 'join':
				return done(`(${this.escaped(args[0])} | join(${args[1].js}))`);
			case 'json':
				return done(`(${this.escaped(args[0])} | canonjson)`);
			case 'len':
				return done(`(${args[0].js} | length)`);
			case 'eq':
				return done(`(${args[0].js} == ${args[1].js})`);
			case 'gt':
				return done(`(${args[0].js} > ${args[1].js})`);
			default:
				throw new Error(`unsupported function ${fn}`);
		}
	}

	cond(src) {
		const e = this.pipeline(src);
		return `(${e.js} | truthy)`;
	}

	// body translates a whole body; ends is the stack of open blocks ('if', 'with', 'range').
	body(src) {
		let out = '';
		const open = [];
		for (const t of tokens(src)) {
			if (t.text !== undefined) {
				out += /\{[{%#]/.test(t.text) ? `{% raw %}${t.text}{% endraw %}` : t.text;
				continue;
			}
			const a = t.action;
			let m;
			if ((m = /^if (.*)$/.exec(a))) {
				open.push({ kind: 'if' });
				out += `{% if ${this.cond(m[1])} %}`;
			} else if ((m = /^with (.*)$/.exec(a))) {
				const e = this.pipeline(m[1]);
				open.push({ kind: 'with' });
				out += `{% if ${e.js} | truthy %}`;
				this.dots.push(e);
			} else if ((m = /^range (?:(\$\w+), (\$\w+) := )?(.*)$/.exec(a))) {
				const e = this.pipeline(m[3]);
				const it = `it${this.n++}`;
				const item = { js: it, trust: e.trust, list: false };
				open.push({ kind: 'range', locals: [m[1], m[2]].filter(Boolean) });
				if (m[1]) {
					this.locals.set(m[1], { js: 'loop.index0', trust: 'trusted' });
					this.locals.set(m[2], item);
				}
				this.dots.push(item);
				out += `{% for ${it} in ${e.js} %}`;
			} else if (a === 'else') {
				const top = open[open.length - 1];
				if (top.kind !== 'if') this.dots.pop();
				top.dotPopped = top.kind !== 'if';
				out += '{% else %}';
			} else if (a === 'end') {
				const top = open.pop();
				if (top.kind !== 'if' && !top.dotPopped) this.dots.pop();
				for (const l of top.locals || []) this.locals.delete(l);
				out += top.kind === 'range' ? '{% endfor %}' : '{% endif %}';
			} else {
				const e = this.pipeline(a);
				out += `{{ ${this.escaped(e)} }}`;
			}
		}
		if (open.length) throw new Error('unclosed block');
		return out;
	}
}

function prepare(project, dir) {
	const TOML = require('smol-toml');
	const read = (p) => TOML.parse(fs.readFileSync(p, 'utf8'));
	const manifest = read(path.join(project, 'promptc.toml'));
	const blocks = [];
	const consts = {};
	for (const f of walk(path.join(project, 'blocks'), '.toml')) {
		const t = read(f);
		Object.assign(consts, t.const || {});
		for (const b of t.block || []) blocks.push(b);
	}
	const vars = manifest.vars || {};
	fs.mkdirSync(path.join(dir, 'blocks'), { recursive: true });
	const meta = [];
	const refs = {};
	for (const b of blocks) {
		const level = b.level || 2;
		if (b.title) refs[b.id] = '#'.repeat(level) + ' ' + b.title;
		let body = b.body;
		if (b.template !== undefined) body = fs.readFileSync(path.join(project, 'templates', b.template), 'utf8');
		const m = { id: b.id, title: b.title || '', level, tasks: b.tasks || ['*'], except: b.except || [], when: b.when || '', replaces: b.replaces || '' };
		if (b.raw) {
			m.raw = body;
		} else {
			const tr = new Translator(vars);
			try {
				fs.writeFileSync(path.join(dir, 'blocks', b.id + '.njk'), tr.body(body));
			} catch (e) {
				throw new Error(`block ${b.id}: ${e.message}`);
			}
			m.readsTask = tr.readsTask;
			m.readsVars = tr.readsVars || m.when !== '';
		}
		meta.push(m);
	}
	const fixtures = {};
	for (const f of walk(path.join(project, 'fixtures'), '.toml')) {
		const t = read(f);
		fixtures[path.basename(f, '.toml')] = { tasks: t.tasks || ['*'], session: t.session || {}, turns: t.turn || [] };
	}
	const targets = (manifest.target || []).map((t) => [t.begin, t.end]).flat();
	const out = {
		tasks: manifest.tasks,
		runbook: manifest.runbook.order,
		runbookSep: manifest.runbook.separator ?? '\n\n',
		turn: manifest.turn.order,
		turnSep: manifest.turn.separator ?? '\n\n',
		markers: targets,
		vars,
		consts,
		refs,
		blocks: meta,
		fixtures,
	};
	fs.writeFileSync(path.join(dir, 'project.json'), JSON.stringify(out));
}

// ---- render ----------------------------------------------------------------------------------------------------

// Value processing, as docs/reference.md#values states it: CRLF, limits, then escaping by trust where printed.
function crlf(s) {
	return s.indexOf('\r') < 0 ? s : s.replace(/\r\n?/g, '\n');
}

function cut(s, max) {
	if (!max) return s;
	let n = 0;
	for (let i = 0; i < s.length; ) {
		if (n === max) return s.slice(0, i) + '…';
		const c = s.codePointAt(i);
		i += c > 0xffff ? 2 : 1;
		n++;
	}
	return s;
}

function utf8len(s) {
	return Buffer.byteLength(s, 'utf8');
}

function processValue(decl, raw) {
	switch (decl.type) {
		case 'bool':
			return raw === undefined ? false : raw;
		case 'int':
			return raw === undefined ? 0 : raw;
		case 'list': {
			let items = (raw || []).map((s) => cut(crlf(s), decl.item_max_runes));
			let dropped = 0;
			if (decl.max_items && items.length > decl.max_items) {
				dropped += items.length - decl.max_items;
				items = items.slice(0, decl.max_items);
			}
			if (decl.max_bytes) {
				let total = 0;
				let keep = items.length;
				for (let i = 0; i < items.length; i++) {
					const b = utf8len(items[i]);
					if (total + b > decl.max_bytes && !(i === 0 && decl.pin_first)) {
						keep = i;
						break;
					}
					total += b;
				}
				dropped += items.length - keep;
				items = items.slice(0, keep);
			}
			if (dropped && decl.omitted) items.push(decl.omitted.split('{n}').join(String(dropped)));
			return items;
		}
		default: {
			const s = crlf(raw || '');
			if (decl.max_runes && [...s].length > decl.max_runes) {
				return decl.overflow === 'notice' ? decl.notice : cut(s, decl.max_runes);
			}
			return s;
		}
	}
}

const CONTROL = /[\p{Cc}\p{Cf}]/gu;
const CONTROL_KEEP_LINES = /(?![\n\t])[\p{Cc}\p{Cf}]/gu;

function untrusted(s) {
	s = s.replace(/[\n\t]+/g, ' ').replace(CONTROL, '').replace(/[\\`*_[\]<>]/g, '\\$&');
	s = s.replace(/^ +/, '');
	if (/^[#~=\-+|]/.test(s)) s = '\\' + s;
	else s = s.replace(/^([0-9]+)([.)])/, '$1\\$2');
	return s;
}

function background(s) {
	if (s === '') return s;
	s = s.replace(CONTROL_KEEP_LINES, '').replace(/[\\`<>]/g, '\\$&');
	return s
		.split('\n')
		.map((l) => (l === '' ? '>' : '> ' + l))
		.join('\n');
}

let markers = [];

// neutralise breaks a target's marker inside a value: a backslash after its first character.
function neutralise(s) {
	for (const m of markers) {
		if (s.indexOf(m) >= 0) s = s.split(m).join(m[0] + '\\' + m.slice(1));
	}
	return s;
}

function esc(s, trust) {
	switch (trust) {
		case 'untrusted':
			return neutralise(untrusted(s));
		case 'background':
			return neutralise(background(s));
		default:
			throw new Error(`no escaping for trust ${trust} in this benchmark`);
	}
}

function truthy(v) {
	if (Array.isArray(v)) return v.length > 0;
	return !!v;
}

function render(dir, outDir) {
	const nunjucks = require('nunjucks');
	const p = JSON.parse(fs.readFileSync(path.join(dir, 'project.json'), 'utf8'));
	markers = p.markers;
	const env = new nunjucks.Environment(new nunjucks.FileSystemLoader(path.join(dir, 'blocks')), { autoescape: false, throwOnUndefined: true });
	env.addFilter('esc', esc);
	env.addFilter('escList', (l, trust) => l.map((s) => esc(s, trust)));
	env.addFilter('truthy', truthy);
	env.addFilter('quote', (s) =>
		s
			.split('\n')
			.map((l) => (l === '' ? '>' : '> ' + l))
			.join('\n'),
	);
	env.addFilter('bullets', (l) => l.map((s) => '- ' + s).join('\n'));
	env.addFilter('canonjson', (v) => JSON.stringify(v));

	const byId = new Map(p.blocks.map((b) => [b.id, b]));
	const templates = new Map();
	for (const b of p.blocks) if (b.raw === undefined) templates.set(b.id, env.getTemplate(b.id + '.njk'));
	const replacements = new Map(); // replaced id → its replacements
	for (const b of p.blocks) {
		if (!b.replaces) continue;
		if (!replacements.has(b.replaces)) replacements.set(b.replaces, []);
		replacements.get(b.replaces).push(b);
	}

	const admits = (b, task, values) => {
		if (!(b.tasks.includes('*') || b.tasks.includes(task)) || b.except.includes(task)) return false;
		if (!b.when) return true;
		const neg = b.when[0] === '!';
		const name = neg ? b.when.slice(1) : b.when;
		let v = values[name];
		const d = p.vars[name];
		if (typeof v === 'string' && ESCAPE_TRUST.has(d.trust || 'untrusted')) v = esc(v, d.trust || 'untrusted');
		return truthy(v) !== neg;
	};

	const values = (scope, raw) => {
		const out = {};
		for (const [name, d] of Object.entries(p.vars)) if (d.scope === scope) out[name] = processValue(d, raw[name]);
		return out;
	};

	const taskCache = new Map();
	const assemble = (order, sep, task, V, sessionCache) => {
		const parts = [];
		for (const id of order) {
			let b = byId.get(id);
			const reps = replacements.get(id);
			if (reps) {
				const r = reps.find((r) => admits(r, task, V));
				if (r) b = r;
				else if (!admits(b, task, V)) continue;
			} else if (!admits(b, task, V)) continue;
			let text;
			if (b.raw !== undefined) {
				text = b.raw;
			} else {
				const cache = sessionCache === null ? null : b.readsVars ? sessionCache : taskCache;
				const key = b.readsTask ? b.id + '\0' + task : b.id;
				text = cache ? cache.get(key) : undefined;
				if (text === undefined) {
					text = templates.get(b.id).render({ V, task, C: p.consts, R: p.refs });
					if (cache) cache.set(key, text);
				}
			}
			text = text.replace(/^\n+/, '').replace(/[ \t\n]+$/, '');
			if (text === '') continue;
			parts.push(b.title ? '#'.repeat(b.level) + ' ' + b.title + '\n\n' + text : text);
		}
		return parts.length ? parts.join(sep) + '\n' : '';
	};

	const written = [];
	const write = (rel, data) => {
		const f = path.join(outDir, rel);
		fs.mkdirSync(path.dirname(f), { recursive: true });
		fs.writeFileSync(f, data);
		written.push(rel);
	};
	const names = Object.keys(p.fixtures).sort();
	const sessions = new Map(names.map((n) => [n, values('session', p.fixtures[n].session)]));
	const sessionCaches = new Map(names.map((n) => [n, new Map()]));
	const turns = new Map(names.map((n) => [n, p.fixtures[n].turns.map((t) => values('turn', t))]));
	for (const task of p.tasks) {
		for (const n of names) {
			const fx = p.fixtures[n];
			if (!(fx.tasks.includes('*') || fx.tasks.includes(task))) continue;
			const S = sessions.get(n);
			write(`${task}/${n}.runbook.md`, assemble(p.runbook, p.runbookSep, task, S, sessionCaches.get(n)));
			if (!p.turn.length) continue;
			turns.get(n).forEach((T, k) => {
				write(`${task}/${n}.turn-${k + 1}.md`, assemble(p.turn, p.turnSep, task, { ...S, ...T }, null));
			});
		}
	}
	written.sort();
	fs.writeFileSync(
		path.join(outDir, '.promptc-build'),
		'# Written by promptc build: the files it wrote in this directory, one slash path a line. The next build removes\n' +
			'# a file listed here when the project no longer produces it, and never a file this list does not name.\n' +
			written.join('\n') +
			'\n',
	);
}

const [cmd, a, b] = process.argv.slice(2);
if (cmd === 'prepare' && a && b) prepare(a, b);
else if (cmd === 'render' && a && b) render(a, b);
else usage();
