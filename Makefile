# promptc: build, test, check, golden, bench, fuzz, integration, sdk. `make test` and `make integration` are what CI runs.

GO       ?= go
BIN      := bin/promptc
EXAMPLES := $(patsubst %/promptc.toml,%,$(wildcard examples/*/promptc.toml))
FUZZTIME ?= 30s

# The version and revision stamped into the binary, from git, so that promptc --version names them even where go build
# records no VCS information (-buildvcs=false, or a copy without .git). The version is the nearest v* tag as git
# describe words it (v0.1.0, or v0.1.0-3-g0123abc for commits after it; -dirty with uncommitted changes); before the
# first tag, the Go pseudo-version of the commit (v0.0.0-YYYYMMDDHHMMSS-0123456789ab, +dirty with uncommitted changes),
# as go install …@COMMIT names it.
VERSION  ?= $(shell git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null || { \
	TZ=UTC git log -1 --format='v0.0.0-%cd-%h' --abbrev=12 --date=format-local:%Y%m%d%H%M%S 2>/dev/null && \
	{ git diff --quiet HEAD 2>/dev/null || echo +dirty; }; } | tr -d '\n')
REVISION ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS  := -X main.version=$(VERSION) -X main.revision=$(REVISION)
# promptc needs no C: without cgo the binary is linked statically, and every process starts without the dynamic
# loader and libc, 0.5 to 1 ms of the 5 ms promptc --version may take (make bench-table). Tests and -race keep cgo.
CGO_ENABLED ?= 0

.PHONY: all build install test unit golden-check check golden bench bench-table fuzz integration sdk clean

all: build

build:
	CGO_ENABLED=$(CGO_ENABLED) $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/promptc

# go install with the version stamped: promptc lands in $(go env GOPATH)/bin (or GOBIN).
install:
	CGO_ENABLED=$(CGO_ENABLED) $(GO) install -ldflags "$(LDFLAGS)" ./cmd/promptc

# The test suite, then every example guarded by promptc itself: `promptc check` against its golden tree.
test: build
	$(GO) test ./...
	@$(MAKE) --no-print-directory golden-check

# The quick loop: the unit tests with -short, where the exhaustive corpora are sampled (README.md, "What each target runs").
unit:
	$(GO) test -short ./...

golden-check: build
	@set -e; for d in $(EXAMPLES); do ./$(BIN) -C $$d check; echo "ok   $$d: promptc check"; done

# Everything a change must pass before it lands; leaves the tree clean.
check: build
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(GO) test -race ./...
	$(GO) mod tidy -diff
	cd sdktest && $(GO) vet ./... && $(GO) test -race ./... && $(GO) mod tidy -diff
	@$(MAKE) --no-print-directory golden-check
	@test -z "$$(git status --porcelain)" || { git status --porcelain; echo "check left the tree dirty"; exit 1; }

# Rewrite the golden files from the current code: the examples' golden trees, the report goldens of guard and the
# expected output of the CLI scripts. Read the resulting git diff before committing it.
golden: build
	@set -e; for d in $(EXAMPLES); do ./$(BIN) -C $$d check --update; done
	$(GO) test ./guard -run TestReport -update
	$(GO) test ./cmd/promptc -run TestScripts -update

# The hooks of .pre-commit-hooks.yaml driven by the real pre-commit framework (installs it with apt when missing), and
# the JSON Schemas of schema/ under the real taplo CLI (installs it with npm when missing), and promptc serve in
# headless Chromium (installs chromium with apt and playwright-core with npm when missing), promptc lsp driven by
# headless Neovim (apt) and the VS Code extension built and packaged with @vscode/vsce (npm), then run under Node.
# A tool that cannot be installed fails the run when CI is set, and skips its script loudly otherwise
# (scripts/need.sh, checked first by scripts/test-need.sh). Then the round trip through the providers' Go SDKs (sdk).
integration:
	bash scripts/test-need.sh
	bash scripts/test-pre-commit.sh
	bash scripts/test-taplo.sh
	bash scripts/test-preview.sh
	bash scripts/test-neovim.sh
	bash scripts/test-vscode.sh
	@$(MAKE) --no-print-directory sdk

# The projected bodies sent through the providers' official Go SDKs (anthropic-sdk-go, openai-go, aws-sdk-go-v2,
# genai) to a local server. They are a module of their own, sdktest/, so that `make test` never fetches the SDKs;
# its modules are downloaded first, and a failure to fetch them fails the target (it is never skipped).
sdk:
	cd sdktest && $(GO) mod download && $(GO) test ./...

# Every Go benchmark, promptc build and check as whole processes, promptc against Nunjucks, and last the table of
# the speed targets (README.md, Development): each row measured, its target and whether it is met
# (scripts/bench-table.sh; make bench-table prints the table alone, in half a minute to two and a half).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
	bash scripts/bench-process.sh
	bash scripts/bench-nunjucks.sh
	@$(MAKE) --no-print-directory bench-table

bench-table: build
	GO=$(GO) BENCH_PROMPTC=$${BENCH_PROMPTC:-$(BIN)} bash scripts/bench-table.sh

# Every fuzz target of every package, FUZZTIME each, going on after a failure; a summary table at the end, exit 1 when
# any failed. FUZZMINIMIZETIME bounds the minimisation of a failing input. scripts/fuzz.sh lists its other knobs.
FUZZMINIMIZETIME ?= 10s
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) FUZZMINIMIZETIME=$(FUZZMINIMIZETIME) bash scripts/fuzz.sh

clean:
	rm -rf bin build
