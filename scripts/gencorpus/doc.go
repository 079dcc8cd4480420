// Command gencorpus writes a deterministic Markdown backlog in the Kano layout, for canon's
// benchmarks and tests: items with YAML frontmatter (parent chains, relates, blocks and
// blocked_by pairs, decision references), ADRs, and bodies with Markdown links and
// wiki-links between them. The same flags always give byte-identical files and, with -git,
// the same commit hash.
//
//	go run ./scripts/gencorpus -n 10000 -adrs 200 -seed 1 -out /tmp/corpus10k -git
//	go run ./scripts/gencorpus -out /tmp/corpus10k -touch 1            # one-file commit
//	go run ./scripts/gencorpus -out /tmp/corpus10k -touch 1000 -branch wide
//
// The corpus is clean: every reference resolves, blocks/blocked_by pairs are symmetric and
// acyclic, every anchor exists. Defects for validation tests live in testdata/example.
//
// It writes only into its -out folder, which must be new or empty, and
// imports nothing of canon's, so a corpus never depends on the code it
// measures. No package imports it: it is off the ladder (cmd → hooks →
// gitsync, workset → graph → index); index/indextest and scripts/bench run
// it as a program.
package main
