package index

import (
	"context"

	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/internal/checkreads"
	"github.com/canon-md/canon/index/internal/fulltext"
	"github.com/canon-md/canon/index/internal/sqlstore"
)

// The values more than one of the store's table families reads, and its
// error sentences, live in index/internal/sqlstore (ADR-0080), which only
// the store imports; these are their names for everyone else.
type (
	// DocID is a document's row id. It joins rows within one read of one
	// database and is never shown: outputs name documents by node key.
	DocID = sqlstore.DocID
	// ChunkID is a section's row id (its chunks_fts rowid), under DocID's
	// rules.
	ChunkID = sqlstore.ChunkID
	// Node is a document with its row id.
	Node = sqlstore.Node
	// DocEdge is a resolved link between two different documents: Src
	// names Dst.
	DocEdge = sqlstore.DocEdge
	// DocRef names a document the way every output does.
	DocRef = sqlstore.DocRef
	// Problem is one stored or derived problem.
	Problem = sqlstore.Problem
	// Fix is a minimal edit of one file that resolves a Problem.
	Fix = sqlstore.Fix
	// Querier is a read of the index: the live database (Store.Read) or
	// a previewed one (Store.Preview). Other packages only hand it back
	// to the store's typed reads (ADR-0049); it hands out no rows and no
	// transaction.
	Querier = sqlstore.Querier
	// DamagedError is ErrDamaged with the database and what SQLite said.
	DamagedError = sqlstore.DamagedError
)

// ErrDamaged is an index database SQLite cannot read as canon's: corrupt,
// not a database, or missing its tables. The index is derived, so the
// fix is always a rebuild.
var ErrDamaged = sqlstore.ErrDamaged

// Explain turns an SQLite error anywhere in err's chain into a sentence
// with the fix (sqlstore.Explain). path names the database when known.
func Explain(err error, path string) error { return sqlstore.Explain(err, path) }

// QuotePath shows a path in text meant for a person or a line-based tool:
// as it is, unless it holds a control character (a newline would split a
// finding in two), a double quote or a backslash, or is not UTF-8: then
// quoted with C escapes, as git quotes such names (human.QuotePath).
func QuotePath(p string) string { return human.QuotePath(p) }

// DocIDsOfPaths, SkippedAmong, PathsOfKeys, AllPaths and WikiLinksWork are reads of
// index/internal/checkreads that gitsync's check makes too; index/check and
// index/learn call checkreads itself.

// DocIDsOfPaths finds the documents at the given paths: path → row id.
func DocIDsOfPaths(ctx context.Context, q Querier, paths []string) (map[string]DocID, error) {
	return checkreads.DocIDsOfPaths(ctx, q, paths)
}

// SkippedAmong lists which of the paths are files the index skipped, in
// path order.
func SkippedAmong(ctx context.Context, q Querier, paths []string) ([]string, error) {
	return checkreads.SkippedAmong(ctx, q, paths)
}

// PathsOfKeys lists the paths of the documents with the given node keys
// (a duplicated key has several).
func PathsOfKeys(ctx context.Context, q Querier, keys []string) ([]string, error) {
	return checkreads.PathsOfKeys(ctx, q, keys)
}

// AllPaths lists the path of every document (checkreads.AllPaths).
func AllPaths(ctx context.Context, q Querier) ([]string, error) { return checkreads.AllPaths(ctx, q) }

// WikiLinksWork reports whether any wiki-link or embed of the repository
// resolves (checkreads.WikiLinksWork).
func WikiLinksWork(ctx context.Context, q Querier) (bool, error) {
	return checkreads.WikiLinksWork(ctx, q)
}

// FTSWords keeps letters, digits and inner spaces: what the unicode61
// tokenizer of the full-text index would see as tokens anyway, the words
// of a phrase index/search's FTSQuery writes (fulltext.FTSWords).
func FTSWords(s string) string { return fulltext.FTSWords(s) }

// FTSPhrases lists the phrases of a query as index/search's FTSQuery
// writes it, in order (fulltext.FTSPhrases).
func FTSPhrases(q string) []string { return fulltext.FTSPhrases(q) }
