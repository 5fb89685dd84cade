#!/usr/bin/env bash
# End-to-end test of the JSON Schemas in schema/ with the real Taplo CLI (https://taplo.tamasfe.dev, the engine of
# the "Even Better TOML" editor extension), as an editor would use them.
#
# Checks: every source file of every example project (examples/*/ and the project promptc init writes) validates
# against its schema (`taplo check --schema file://…`); a #:schema directive at the top of a file (docs/editors.md)
# is honoured, with a path relative to the file; and each file of a table of bad files, written to a temporary
# directory, fails, with the expected message and the offending key in Taplo's report.
#
# Usage: scripts/test-taplo.sh   (installs taplo with `npm install -g @taplo/cli` when missing, and npm with apt-get;
# when taplo cannot be had, fails under CI=true and skips loudly elsewhere: scripts/need.sh)
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/scripts/need.sh"

if ! command -v taplo >/dev/null 2>&1; then
	need_apt npm npm
	echo "installing taplo with npm install -g @taplo/cli"
	log=$(mktemp)
	npm install -g --silent --no-audit --no-fund @taplo/cli >"$log" 2>&1 ||
		unavailable "taplo is not installed, and npm install -g @taplo/cli failed: $(tail -n 5 "$log" | tr '\n' ' ')"
	rm -f "$log"
	command -v taplo >/dev/null 2>&1 ||
		unavailable "npm installed @taplo/cli, but taplo is not on PATH ($(npm prefix -g)/bin)"
fi
echo "using $(taplo --version)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

fail() {
	echo "FAIL: $*"
	failed=1
}

# check KIND FILE...: taplo check of the files against schema/KIND.schema.json, with no configuration file or
# catalogue in the way. Prints taplo's report; returns its status.
check() {
	local kind=$1
	shift
	taplo check --no-auto-config --colors never --schema "file://$src/schema/$kind.schema.json" "$@" 2>&1
}

# 1. Every example validates.
n=0
for manifest in "$src"/examples/*/promptc.toml "$src"/scaffold/project/promptc.toml; do
	root=$(dirname "$manifest")
	name=${root#"$src"/}
	files=("$manifest")
	kinds=(manifest)
	while IFS= read -r -d '' f; do
		files+=("$f")
		kinds+=(blocks)
	done < <(find "$root/blocks" -name '*.toml' -type f -print0 2>/dev/null | sort -z)
	for f in "$root"/fixtures/*.toml; do
		[ -e "$f" ] || continue
		files+=("$f")
		kinds+=(fixture)
	done
	for i in "${!files[@]}"; do
		n=$((n + 1))
		if out=$(check "${kinds[$i]}" "${files[$i]}"); then
			echo "ok   ${files[$i]#"$src"/}: valid ${kinds[$i]}"
		else
			fail "${files[$i]#"$src"/} does not validate against schema/${kinds[$i]}.schema.json:"
			echo "$out" | grep -v ' INFO ' | sed 's/^/    /'
		fi
	done
	: "$name"
done
[ "$n" -ge 10 ] || fail "checked only $n example files"

# 2. The #:schema directive: a path relative to the file, no --schema flag.
mkdir -p "$tmp/directive/blocks"
cat >"$tmp/directive/promptc.toml" <<EOF
#:schema $src/schema/manifest.schema.json
name  = "demo"
tasks = ["chat"]
EOF
rel=$(realpath --relative-to="$tmp/directive/blocks" "$src/schema/blocks.schema.json")
printf '#:schema %s\n[[block]]\nid = "a"\nbody = "x"\n' "$rel" >"$tmp/directive/blocks/good.toml"
printf '#:schema %s\n[[block]]\nid = "a"\nbody = "x"\ntitel = "A"\n' "$rel" >"$tmp/directive/blocks/bad.toml"
if out=$(cd / && taplo check --no-auto-config --colors never "$tmp/directive/promptc.toml" "$tmp/directive/blocks/good.toml" 2>&1); then
	echo "ok   #:schema directive: valid files pass"
else
	fail "#:schema directive: valid files fail:"
	echo "$out" | grep -v ' INFO ' | sed 's/^/    /'
fi
if out=$(cd / && taplo check --no-auto-config --colors never "$tmp/directive/blocks/bad.toml" 2>&1); then
	fail "#:schema directive: a file with an unknown key passes"
elif grep -q "'titel' was unexpected" <<<"$out"; then
	echo "ok   #:schema directive: an unknown key fails"
else
	fail "#:schema directive: the report does not name titel:"
	echo "$out" | sed 's/^/    /'
fi

# 2b. The .taplo.toml of docs/editors.md: schemas by path pattern, with no directive in the files.
mkdir -p "$tmp/rules/.schemas" "$tmp/rules/blocks/deep/er" "$tmp/rules/fixtures"
cp "$src"/schema/*.schema.json "$tmp/rules/.schemas/"  # where docs/editors.md puts the copies
sed -n '/^```toml taplo$/,/^```$/p' "$src/docs/editors.md" | sed '1d;$d' >"$tmp/rules/.taplo.toml"
grep -q '^\[\[rule\]\]' "$tmp/rules/.taplo.toml" || fail "docs/editors.md has no \`\`\`toml taplo block with [[rule]] tables"
printf 'name = "x"\ntasks = ["chat"]\ntaks = 1\n' >"$tmp/rules/promptc.toml"
printf '[[block]]\nid = "a"\nbody = "x"\ntitel = "A"\n' >"$tmp/rules/blocks/deep/er/a.toml"
printf '[sesion]\nname = "Ada"\n' >"$tmp/rules/fixtures/basic.toml"
out=$(cd "$tmp/rules" && taplo check --colors never 2>&1) && fail ".taplo.toml rules: three bad files pass"
for key in taks titel sesion; do
	if grep -q "'$key' was unexpected" <<<"$out"; then
		echo "ok   .taplo.toml rules: $key is reported"
	else
		fail ".taplo.toml rules: $key is not reported:"
		echo "$out" | grep -v ' INFO ' | sed 's/^/    /'
	fi
done

# 3. Bad files: each must fail, and taplo's report must hold MESSAGE (an extended regular expression) followed,
# within the source excerpt under it, by KEY. Rows: NAME|KIND|MESSAGE|KEY, then the file's lines up to a line "--".
manifest_head='name  = "x"
tasks = ["chat", "review"]'
while IFS='|' read -r name kind message key; do
	[ -n "$name" ] || continue
	body=""
	while IFS= read -r line && [ "$line" != "--" ]; do
		body+="$line"$'\n'
	done
	body=${body//@MANIFEST@/$manifest_head}
	file="$tmp/bad/$kind/${name// /-}.toml"
	mkdir -p "$(dirname "$file")"
	printf '%s' "$body" >"$file"
	if out=$(check "$kind" "$file"); then
		fail "bad $kind ($name) passes"
		continue
	fi
	# The error line and the excerpt that follows it, up to the next error.
	excerpt=$(awk -v re="$message" '/^error: / { on = ($0 ~ re) } on' <<<"$out")
	if [ -z "$excerpt" ]; then
		fail "bad $kind ($name): no error matching /$message/ in taplo's report:"
		echo "$out" | grep '^error' | sort -u | sed 's/^/    /'
	elif ! grep -qF -- "$key" <<<"$excerpt"; then
		fail "bad $kind ($name): the error /$message/ does not name $key:"
		echo "$excerpt" | head -20 | sed 's/^/    /'
	else
		echo "ok   bad $kind ($name): $(grep -m1 -E "^error: .*($message)" <<<"$excerpt" | sed 's/^error: //') at $key"
	fi
done <<'TABLE'
unknown key|manifest|'taks' was unexpected|taks
@MANIFEST@
taks = ["chat"]
--
missing tasks|manifest|"tasks" is a required property|tasks
name = "x"
--
bad task name|manifest|does not match|tasks = ["Chat"]
name  = "x"
tasks = ["Chat"]
--
unknown runbook key|manifest|'ordre' was unexpected|ordre
@MANIFEST@
[runbook]
ordre = ["a"]
--
bad scope|manifest|is not one of \["session","turn"\]|scope
@MANIFEST@
[vars.issue]
scope = "sesion"
type  = "string"
--
bad type|manifest|is not one of \["string","text"|type
@MANIFEST@
[vars.issue]
scope = "turn"
type  = "str"
--
bad trust|manifest|is not one of \["untrusted"|trust
@MANIFEST@
[vars.issue]
scope = "turn"
type  = "text"
trust = "safe"
--
bad overflow|manifest|is not one of \["cut","notice"\]|overflow
@MANIFEST@
[vars.issue]
scope    = "turn"
type     = "text"
overflow = "drop"
--
wrong type|manifest|"10" is not of type "integer"|max_runes
@MANIFEST@
[vars.issue]
scope     = "turn"
type      = "text"
max_runes = "10"
--
negative limit|manifest|-1 is less than the minimum of 0|max_items
@MANIFEST@
[vars.labels]
scope     = "turn"
type      = "list"
max_items = -1
--
list key on a string|manifest|False schema does not allow 3|max_items
@MANIFEST@
[vars.issue]
scope     = "turn"
type      = "string"
max_items = 3
--
unknown variable key|manifest|'max_rune' was unexpected|max_rune
@MANIFEST@
[vars.issue]
scope    = "turn"
type     = "string"
max_rune = 3
--
variable without scope|manifest|"scope" is a required property|[vars.issue]
@MANIFEST@
[vars.issue]
type = "string"
--
reserved variable name|manifest|is not allowed for "task"|task
@MANIFEST@
[vars.task]
scope = "turn"
type  = "string"
--
notice without its text|manifest|"notice" is a required property|overflow
@MANIFEST@
[vars.issue]
scope     = "turn"
type      = "text"
max_runes = 10
overflow  = "notice"
--
unknown field key|manifest|'scope' was unexpected|scope
@MANIFEST@
[vars.repos]
scope = "session"
type  = "records"
[vars.repos.fields.url]
type  = "string"
scope = "session"
--
final_newline not a bool|manifest|"no" is not of type "boolean"|final_newline
@MANIFEST@
final_newline = "no"
--
bad quote_empty|manifest|is not one of \[">","> "\]|quote_empty
@MANIFEST@
[vars.issue]
scope       = "turn"
type        = "text"
trust       = "background"
quote_empty = ">>"
--
verbatim on an untrusted value|manifest|"trusted" was expected|trust
@MANIFEST@
[vars.issue]
scope    = "turn"
type     = "text"
trust    = "untrusted"
verbatim = true
--
key on a list|manifest|"records" was expected|type
@MANIFEST@
[vars.labels]
scope = "turn"
type  = "list"
key   = "name"
--
target without end|manifest|"end" is a required property|[[target]]
@MANIFEST@
[[target]]
name  = "claude"
file  = "CLAUDE.md"
begin = "<!-- BEGIN -->"
--
unknown allow key|manifest|'rule' was unexpected|rule
@MANIFEST@
[[lint.allow]]
rule   = "scope-inversion"
reason = "r"
--
bad provider|manifest|is not one of \["anthropic","openai","dashscope","bedrock","gemini","deepseek"\]|provider
@MANIFEST@
[[model]]
provider = "anthropik"
name     = "m"
--
unknown history key|manifest|'volatil' was unexpected|volatil
@MANIFEST@
[history]
volatil = ["request_id"]
--
unknown block key|blocks|'titel' was unexpected|titel
[[block]]
id    = "a"
body  = "x"
titel = "A"
--
bad block id|blocks|does not match "\^\[a-z0-9\]|id
[[block]]
id   = "Intro Text"
body = "x"
--
level out of range|blocks|7 is greater than the maximum of 6|level
[[block]]
id    = "a"
body  = "x"
level = 7
--
body and template|blocks|False schema does not allow "a.md"|template
[[block]]
id       = "a"
body     = "x"
template = "a.md"
--
reason without replaces|blocks|"replaces" is a required property|reason
[[block]]
id     = "a"
body   = "x"
reason = "because"
--
bad when|blocks|does not match "\^\[a-z0-9_!&|when
[[block]]
id   = "a"
body = "x"
when = "Leader + x"
--
bad tool name|blocks|does not match "\^\[A-Za-z0-9_-\]\{1,64\}\$"|name
[[tool]]
name        = "tracker comment"
description = "Post a comment."
--
unknown tool key|blocks|'params' was unexpected|params
[[tool]]
name        = "tracker_comment"
description = "Post a comment."
params      = {}
--
lookup entry not a string|blocks|1 is not of type "string"|a = 1
[const.names]
a = 1
--
unknown fixture key|fixture|'sesion' was unexpected|sesion
[sesion]
name = "Ada"
--
turn value of the wrong type|fixture|1.5 is not of type|issue
[[turn]]
issue = 1.5
--
assistant not a string|fixture|1 is not of type "string"|assistant
[[turn]]
issue     = "I-1"
assistant = 1
--
TABLE

if [ "$failed" -ne 0 ]; then
	echo "FAIL: scripts/test-taplo.sh"
	exit 1
fi
echo "ok   scripts/test-taplo.sh: the schemas pass every example and reject every bad file under $(taplo --version)"
