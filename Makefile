# perflab: reports from raw LLM-serving benchmark logs.
GO ?= go

.PHONY: site test check build fuzz bench bench-site clean

## site: build the whole site from results/, content/, locales/ and templates/ into site/
site:
	$(GO) run ./cmd/perflab build --out site

## check: validate results/, content/ and locales/ (exit 1 on an unacknowledged error)
check:
	$(GO) run ./cmd/perflab check

# actionlint validates .github/workflows; pinned, fetched through the Go module proxy.
ACTIONLINT ?= $(GO) run github.com/rhysd/actionlint/cmd/actionlint@v1.7.12

## test: vet, unit and end-to-end tests (the browser test needs chromium), actionlint, then check this repository's results/
test:
	$(GO) vet ./...
	$(GO) test ./...
	$(ACTIONLINT) .github/workflows/*.yml
	$(GO) run ./cmd/perflab check

## build: compile the perflab binary into bin/
build:
	$(GO) build -o bin/perflab ./cmd/perflab

## fuzz: run each parser's fuzz test for a while (FUZZTIME=60s)
FUZZTIME ?= 30s
fuzz:
	$(GO) test -run='^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./internal/benchlog/

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
	$(GO) run ./cmd/benchsite -perflab bin/perflab -hugo bin/hugo -n $(STUDIES) -curve $(CURVE)

clean:
	rm -rf site bin .perflab-cache
