# canon's build. The SQLite driver needs cgo and the FTS5 extension.
GO        ?= go
TAGS      := sqlite_fts5,urfave_cli_no_docs
export CGO_ENABLED := 1

.PHONY: build test test-short lint demo bench bench-relevance bench-guard vet fmt clean

build:
	$(GO) build -tags $(TAGS) -o bin/canon ./cmd/canon

# The README's test command; .ci/run calls exactly this.
test: build
	@unformatted="$$(gofmt -l $$(git ls-files '*.go'))"; if [ -n "$$unformatted" ]; then echo "gofmt: these files need gofmt -w: $$unformatted" >&2; exit 1; fi
	$(GO) vet -tags $(TAGS) ./...
	$(GO) test -tags $(TAGS) -count=1 -timeout 30m ./...

# The fast local loop: every package's tests under -short, in under a
# minute on a warm build cache. What it leaves out is marked slow where it
# lives (a script's "[short] skip" line, a test's testing.Short()) and is
# skipped here only, never in make test, which CI runs.
test-short: build
	$(GO) test -tags $(TAGS) -short -count=1 -timeout 30m ./...

# golangci-lint with .golangci.yml (the import ladder among its rules);
# .ci/run installs the version it pins and runs this after make test.
GOLANGCI_LINT ?= golangci-lint
lint:
	$(GOLANGCI_LINT) run --timeout 30m ./...

# The README's demo: builds canon and runs it on the bundled example backlog.
demo: build
	./scripts/demo.sh

# bench_items.sh: canon's writes beside Backlog.md's on its own backlog and
# at 1k (LARGE=1: 100k) documents (issue 47).
# bench_team.sh: 0, 200 and 1,000 remote refs on the 10k corpus and
# rust-lang/rfcs (issue 46); TEAM_ARGS="-large" adds 100k.
bench: build
	./scripts/bench.sh
	./scripts/bench_agents.sh
	./scripts/bench_items.sh $(ITEMS_ARGS)
	./scripts/bench_team.sh $(TEAM_ARGS)
	$(MAKE) --no-print-directory bench-relevance

# The relevance benchmark (docs/benchmarks.md, Relevance): judged queries on
# real backlogs it fetches at pinned commits; not part of test or CI.
# RELEVANCE_ARGS="--part tune", "--json", "--mirror DIR" (or CANON_BENCH_MIRROR).
bench-relevance: build
	$(GO) build -o bin/relevance ./scripts/relevance
	./bin/relevance $(RELEVANCE_ARGS)

# The README's rows against the previous build, taking turns, as ratios
# (ADR-0034); not part of test or CI. ARGS="-n 100000 -rev REV -runs 21".
bench-guard:
	./scripts/bench_guard.sh $(ARGS)

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin
