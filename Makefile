# perflab: reports from raw LLM-serving benchmark logs.
GO ?= go

.PHONY: site test check build fuzz bench bench-site bench-memory clean

## site: build the whole site from results/, content/, locales/ and templates/ into site/
site:
	@echo "make site: compiling perflab (the first time takes a few minutes), then building site/ from results/"
	@$(GO) run ./cmd/perflab build --out site

## check: validate results/, content/ and locales/ (exit 1 on an unacknowledged error)
check:
	$(GO) run ./cmd/perflab check

# actionlint validates .github/workflows and staticcheck the Go code; both are
# pinned as tools in go.mod, so that make test works offline once go mod
# download has run.
ACTIONLINT ?= $(GO) tool actionlint
STATICCHECK ?= $(GO) tool staticcheck

## test: vet, staticcheck, unit and end-to-end tests (the browser test needs chromium), actionlint, then check this repository's results/;
## each step says what it does, and only a failure prints more (the first run compiles everything: a few minutes)
test:
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null || [ -n "$$PERFLAB_CHROMIUM" ] || \
		echo "*** WARNING: no chromium on PATH: the browser test (internal/e2e) will be SKIPPED; install chromium and fonts-noto-cjk (.ci/run does) ***"
	@echo "make test: go vet ./... (the first run compiles every package: a few minutes)"
	@$(GO) vet ./...
	@echo "make test: staticcheck ./... (the first run compiles staticcheck)"
	@$(STATICCHECK) ./...
	@echo "make test: go test ./... (unit, golden and browser tests)"
	@out=$$(mktemp); if $(GO) test ./... >"$$out" 2>&1; then rm -f "$$out"; else cat "$$out"; rm -f "$$out"; exit 1; fi
	@echo "make test: actionlint"
	@$(ACTIONLINT) .github/workflows/*.yml
	@echo "make test: perflab check"
	@$(GO) run ./cmd/perflab check
	@echo "make test: all passed"

## build: compile the perflab binary into bin/
build:
	$(GO) build -o bin/perflab ./cmd/perflab

## fuzz: run every fuzz test of the repository, one at a time, for FUZZTIME each; fails unless
## every target got past its seed corpus into fuzzing and none failed (see .ci/fuzz)
FUZZTIME ?= 30s
FUZZMINIMIZETIME ?= 5s
fuzz:
	@GO="$(GO)" FUZZTIME="$(FUZZTIME)" FUZZMINIMIZETIME="$(FUZZMINIMIZETIME)" .ci/fuzz

## bench: parser and build benchmarks
bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

## bench-site: perflab against Hugo on STUDIES replicated studies (time, peak memory, ratios,
## an incremental rebuild, perflab's curve at CURVE studies); installs Hugo $(HUGO_VERSION) into bin/
STUDIES ?= 1000
CURVE ?= 100,300,1000
HUGO_VERSION ?= v0.152.2
bin/hugo:
	GOBIN=$(CURDIR)/bin $(GO) install github.com/gohugoio/hugo@$(HUGO_VERSION)

bench-site: build bin/hugo
	$(GO) run ./cmd/benchsite -perflab bin/perflab -hugo bin/hugo -n $(STUDIES) -curve "$(CURVE)"

## bench-memory: perflab alone at MEMORY_CURVE studies (wall, peak memory): the 10,000-study bound
MEMORY_CURVE ?= 1000,10000
bench-memory: build
	$(GO) run ./cmd/benchsite -perflab bin/perflab -curve-only -reps 1 -curve $(MEMORY_CURVE)

clean:
	rm -rf site bin .perflab-cache
