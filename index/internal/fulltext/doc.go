// Package fulltext is the store's table family of the full-text index
// (chunks_fts, and the scratch table canon_hits a read highlights in;
// ADR-0063, ADR-0080): the typed reads index/search ranks by, on one read
// transaction (FullText: exact and ranked matches, candidates, phrase
// counts and hits, snippets), the score of a section (RankExpr: canon's
// FTS5 ranking functions, which index/sqliteconn registers, with the
// phrase counts a long-lived store remembers), the highlights of the
// sections a read shows (hits.go), the merge of the index into one
// segment (MergeFullText), and the words of a phrase as FTS5's tokenizer
// sees them (FTSWords, FTSPhrases).
//
// index.Store holds one Index over the store's handle
// (index/internal/sqlstore); index.Store.ReadFullText narrows a read to a
// kind or a namespace, which this package does not know, and index names
// its values (index.FullText, index.SectionHit, ...).
package fulltext

import (
	"github.com/canon-md/canon/index/internal/sqlstore"
)

// Index reads the full-text index of one database.
type Index struct {
	h      *sqlstore.Handle
	counts phraseCounts
}

// New is the full-text index of the database h holds.
func New(h *sqlstore.Handle) *Index { return &Index{h: h} }

// ForgetCounts drops the phrase counts RankExpr remembered: the file
// under the handle is another (a full build's swap, index.Store.Refresh).
func (s *Index) ForgetCounts() { s.counts.forget() }
