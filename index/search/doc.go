// Package search is canon's search engine (ADR-0035, ADR-0047, ADR-0053,
// ADR-0063): it reads what a person typed and ranks the index's sections
// and documents for it, for canon search, canon mcp's search tool, a
// workset's search and the search seeds of context packs.
//
// Reading (ReadQuery, FTSQuery): a text with an operator (a quote, a
// trailing *, AND, OR, NOT in capitals) is an FTS5 query as written,
// ranked by section; any other text is a natural query, its words without
// stop words, ranked by document. A query is a few words (MaxQueryWords,
// MaxQueryBytes).
//
// Ranking a natural reading (natural.go): every word in one section
// first; when that finds too few documents, any of the words, rarest
// first, documents scored by the words their best sections hold between
// them and by a bm25 over their whole text, summed (docBM25, fuse:
// docbm25.go). Generated documents come after those people wrote; a page
// copied per version takes one place (uncopied: copies.go); the first ten
// places do not depend on the limit. A word no section holds is searched
// as the documents spell it (compound.go), and, with a word-vectors
// sidecar, gets its nearest words (bridge.go, ADR-0050). The answer (Found, Hit) says how the text
// was read (Reading) and renders itself (WriteText; its JSON is the
// documented shape). RankDocuments and RankSections are the same
// rankings as a context pack's seeds read them, MatchedTerms their
// highlighted words.
//
// What it must not do: run SQL or open a database. Every statement it
// needs is a typed read of index (Store.ReadFullText hands out a
// FullText: one read transaction, narrowed by a DocFilter), and FTS5's
// auxiliary functions (canon_bm25 and its kin, registered through the C
// API with the driver), their counts, the snippets and highlights are
// index's. It reads no file (the sidecar is the store's,
// index.Store.Vectors) and knows nothing of git.
//
// On the ladder cmd → usecase → hooks → gitsync, workset → graph → index
// it sits above index, which it imports, at the bottom with index's other
// sub-packages: none of them imports it, and graph, workset and the front
// ends call it.
package search
