# perflab: reports from raw LLM-serving benchmark logs.
GO ?= go

.PHONY: site test check build fuzz bench clean

## site: build the whole site from results/, content/, locales/ and templates/ into site/
site:
	$(GO) run ./cmd/perflab build --out site

## check: validate results/, content/ and locales/ (exit 1 on an unacknowledged error)
check:
	$(GO) run ./cmd/perflab check

## test: vet, unit and end-to-end tests, then check this repository's results/
test:
	$(GO) vet ./...
	$(GO) test ./...
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

clean:
	rm -rf site bin
