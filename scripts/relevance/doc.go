// Command relevance is canon's relevance benchmark (issue 27): judged queries
// on real backlogs nobody here wrote, answered by `canon search`, by canon's
// context packs and by a plain BM25 baseline, scored per kind of query.
// Run it from the repository root (`make bench-relevance`, which `make bench`
// calls):
//
//	go run ./scripts/relevance                      # fetch the repositories, run, print Markdown
//	go run ./scripts/relevance --mirror /work/.mirror  # use local mirrors OWNER+NAME/repo
//	go run ./scripts/relevance --part tune --json   # only the tuning part, for programs
//
// The data: scripts/relevance/repos.tsv pins each repository (name, clone
// URL, commit, queries file) and scripts/relevance/queries/*.tsv holds the
// judged queries (id, part, kind, query, relevant paths), written by reading
// the documents before running canon. The kinds are questions, keywords,
// paraphrases and names (an id, a file name or an exact title, alone or in
// a sentence: "what blocks KABSD-TSK-0155"; the named document first). The holdout part is never tuned on;
// the report shows both parts.
//
// For each repository it makes a fresh checkout at the pinned commit under
// scripts/out/relevance/run/NAME, runs `canon init`, then for every query
// `canon search --json --limit 10 QUERY` and `canon context --json QUERY`,
// and ranks the same Markdown files with the baseline: BM25 (k1 1.2, b 0.75)
// over whole documents, the query's words OR-ed, words lower-cased runs of
// letters and digits, no stemming and no stop words. Metrics are at document
// level: a search hit counts as its document (the first hit of a document
// ranks it), a pack entry as its path, in pack order.
//
// With --vectors FILE it runs `canon vectors import FILE` in each checkout
// after `canon init`, so that canon's searches bridge their vocabulary by
// those word vectors (ADR-0050).
//
// It writes only under scripts/out/relevance (source clones it reuses,
// checkouts it replaces) and measures canon from outside, as a user runs it.
// It imports no package of canon's and no package imports it.
package main
