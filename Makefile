# canon's build. The SQLite driver needs cgo and the FTS5 extension.
GO        ?= go
TAGS      := sqlite_fts5,urfave_cli_no_docs
export CGO_ENABLED := 1

# The version, commit and date canon --version prints, stamped at link
# time as the release builds stamp them. The date is the commit's, so an
# unchanged checkout links the same binary; a checkout with changes says
# so after the commit.
VERSION ?= $(shell git describe --tags --match 'v[0-9]*' 2>/dev/null | sed 's/^v//')
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)$(shell git diff --quiet HEAD -- 2>/dev/null || echo ' (modified)')
DATE    ?= $(shell TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ 2>/dev/null)
LDFLAGS := -X 'main.commit=$(COMMIT)' -X main.date=$(DATE)$(if $(VERSION), -X main.version=$(VERSION))

.PHONY: build test test-short lint demo bench bench-relevance bench-guard vet fmt clean \
	release-snapshot release-check release-test

# make says what it does: the step first, then each package as Go compiles
# it (-v); a warm build cache compiles nothing and prints only the step.
build:
	@echo "make: building bin/canon (a first build compiles SQLite, a minute or more; Go caches it)"
	$(GO) build -v -tags $(TAGS) -ldflags "$(LDFLAGS)" -o bin/canon ./cmd/canon
	@./bin/canon --version

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
# bench_serve.sh: canon serve's board and item page on the 10k corpus
# (issue 44).
bench: build
	./scripts/bench.sh
	./scripts/bench_agents.sh
	./scripts/bench_items.sh $(ITEMS_ARGS)
	./scripts/bench_team.sh $(TEAM_ARGS)
	./scripts/bench_serve.sh
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
	rm -rf bin dist

# Release builds (ADR-0075): GoReleaser with .goreleaser.yaml, which
# .ci/run installs at the version below; Debian's gcc-aarch64-linux-gnu
# compiles arm64's SQLite. release-snapshot builds a release into dist/
# here without publishing it (binaries, archives, checksums.txt, .deb), then
# the npm packages; release-test installs them as users do
# (scripts/release_test.sh).
GORELEASER ?= goreleaser
GORELEASER_VERSION := v2.15.1
release-check:
	@echo "make: checking .goreleaser.yaml"
	$(GORELEASER) check

release-snapshot: release-check
	@echo "make: building a release snapshot into dist/ (linux amd64 and arm64, static; archives, checksums, .deb)"
	@git remote | grep -q . || echo "make: this checkout has no git remote, so GoReleaser reads nothing from git; make gives it the commit and its date" >&2
	CANON_COMMIT="$$(git rev-parse HEAD)" CANON_DATE="$(DATE)" $(GORELEASER) release --snapshot --clean
	@echo "make: making the npm packages from dist/ (packaging/npm/pack.mjs)"
	node packaging/npm/pack.mjs dist

release-test: release-snapshot
	./scripts/release_test.sh dist
