package index

import (
	"context"
	"strings"

	"github.com/canon-md/canon/index/internal/fulltext"
)

// DocFilter narrows a full-text read to the documents of a kind and of a
// namespace (search --kind, --namespace); the zero value narrows nothing.
type DocFilter struct {
	Kind string
	// Namespace, when set, keeps the documents of that namespace.
	Namespace string
}

// where is the filter as conditions on the documents (d), with their
// arguments: "" for none. A namespace no configured namespace has is a
// NothingNamed.
func (s *Store) where(f DocFilter) (string, []any, error) {
	var args []any
	where := ""
	if f.Kind != "" {
		where = ` AND d.kind = ?`
		args = append(args, f.Kind)
	}
	if f.Namespace != "" {
		folders := s.Namespaces.Folders(f.Namespace)
		if len(folders) == 0 {
			return "", nil, s.noNamespace(f.Namespace)
		}
		var or []string
		for _, dir := range folders {
			or = append(or, `d.path LIKE ? ESCAPE '\'`)
			args = append(args, likePrefix(dir+"/"))
		}
		where += ` AND (` + strings.Join(or, " OR ") + `)`
	}
	return where, args, nil
}

// Unmatched says, after a read narrowed by f found nothing, which of its
// options names nothing: a namespace no document is in, a kind no
// document has (a NothingNamed); nil when each names something.
func (s *Store) Unmatched(ctx context.Context, f DocFilter) error {
	if f.Namespace != "" && !s.hasNamespace(ctx, f.Namespace) {
		return s.noNamespace(f.Namespace)
	}
	if f.Kind != "" {
		return s.NoKind(ctx, f.Kind)
	}
	return nil
}

// hasNamespace reports whether any document is in the namespace called
// name (a glob's wildcards take any name, so its folders are asked).
func (s *Store) hasNamespace(ctx context.Context, name string) bool {
	for _, f := range s.Namespaces.Folders(name) {
		var one int
		err := s.h.DB.QueryRowContext(ctx, `SELECT 1 FROM docs WHERE path LIKE ? ESCAPE '\' LIMIT 1`, likePrefix(f+"/")).Scan(&one)
		if err == nil {
			return true
		}
	}
	return false
}

// FullText is one read transaction on the full-text index (ReadFullText;
// fulltext.FullText).
type FullText = fulltext.FullText

// ErrBadQuery wraps a search text that is not a valid query
// (fulltext.ErrBadQuery).
var ErrBadQuery = fulltext.ErrBadQuery

// SectionHit, RankedSection and PhraseHit are what a FullText reads
// (fulltext.SectionHit, ...).
type (
	SectionHit    = fulltext.SectionHit
	RankedSection = fulltext.RankedSection
	PhraseHit     = fulltext.PhraseHit
)

// Merged is what MergeFullText did (fulltext.Merged).
type Merged = fulltext.Merged

// MergeFullText merges the full-text index into one segment (FTS5's
// optimize), as a full build leaves it (fulltext.Index.MergeFullText).
// The caller holds the writer lock.
func (s *Store) MergeFullText(ctx context.Context) (*Merged, error) { return s.fts.MergeFullText(ctx) }

// MatchedTerms lists, for each of the sections ids, the words of the
// full-text query q it matches (fulltext.Index.MatchedTerms).
func (s *Store) MatchedTerms(ctx context.Context, q string, total int, ids []ChunkID) (map[ChunkID][]string, error) {
	return s.fts.MatchedTerms(ctx, q, total, ids)
}

// ReadFullText runs fn in one read transaction on the full-text
// index, narrowed by f where a read says so; text is what the person typed,
// for errors. A namespace f names that no configured namespace has is a
// NothingNamed, before anything is read.
func (s *Store) ReadFullText(ctx context.Context, text string, f DocFilter, fn func(t *FullText) error) error {
	where, args, err := s.where(f)
	if err != nil {
		return err
	}
	return s.fts.Read(ctx, text, where, args, fn)
}
