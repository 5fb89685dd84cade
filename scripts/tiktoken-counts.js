// tiktoken-counts.js writes tokens/testdata/tiktoken.json: texts made to test the split patterns (white space of
// every kind and in runs, each letter class, marks, digits, contractions, punctuation) with the token counts of
// OpenAI's tiktoken itself (the npm package `tiktoken`, its Rust core built to WebAssembly), for o200k_base and
// cl100k_base. tokens.TestCountsAsTiktoken holds promptc's counts to them.
//
// Usage: npm install tiktoken@1.0.22 (in a scratch directory), then
//   NODE_PATH=SCRATCH/node_modules node scripts/tiktoken-counts.js > tokens/testdata/tiktoken.json
"use strict";
const { get_encoding } = require("tiktoken");

// mulberry32: a small seeded generator, so that the texts are the same at every run.
let seed = 20260428;
function rand() {
	seed |= 0;
	seed = (seed + 0x6d2b79f5) | 0;
	let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
	t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
	return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rand() * a.length)];

const fixed = [
	" \n \n \n",
	" \n \nx",
	"x\n  \n\ty",
	"a   b",
	"a   ",
	"a\tb",
	"a\t-",
	"a\n\n  b",
	"}\n//x",
	"a ->b",
	"1234567",
	"don't",
	"DON'T",
	"it'ſ",
	"it'x",
	"HTMLParser",
	"HelloWorld",
	"ABCdef",
	"\u0301",
	"a\u0301'S",
	"A漢BC.",
	"_Foo",
	"a\u00a0b",
	"a\u0085\u3000\nb",
	"a\r\n\r\nb",
	" \n".repeat(2048),
	" \n".repeat(2048) + "x",
	"@@ -1,9 +1,9 @@\n" + " \n".repeat(300) + "-old\n+new\n" + " \n".repeat(300),
	"func f() {\n\tx := 1\n\t\n\treturn x\n}\n",
];

const space = [" ", " ", " ", "\n", "\n", "\r", "\t", "\u00a0", "\u0085", "\u3000", "\u2028", "\u000b", "\u000c"];
const alphabet = [
	...space,
	..."abstervmldSTERVMLDAZ",
	"ſ", "ǅ", "ʰ", "漢", "ا", "é", "É", "ß", "ω", "Ω",
	"\u0301", "\u0903", "\u20dd",
	..."0123456789", "٣", "Ⅻ", "½",
	..."''''/--_.`#*<>()[]{}:;,!?\"\\|&=+",
	"🙂", "\u200b", "\u00ad", "€",
];

const texts = [...fixed];
for (let i = 0; i < 3000; i++) {
	let s = "";
	const n = Math.floor(rand() * 48);
	while (s.length < n) {
		const c = rand() < 0.35 ? pick(space) : pick(alphabet);
		// Runs, so that the loops of the patterns give back characters over more than one.
		s += rand() < 0.15 ? c.repeat(1 + Math.floor(rand() * 6)) : c;
	}
	texts.push(s);
}

const encodings = ["o200k_base", "cl100k_base"].map((name) => [name, get_encoding(name)]);
const out = texts.map((text) => {
	const row = { text };
	for (const [name, enc] of encodings) row[name] = enc.encode(text).length;
	return row;
});
process.stdout.write("[\n" + out.map((r) => JSON.stringify(r)).join(",\n") + "\n]\n");
