package fulltext

import (
	"context"
	"database/sql"

	"github.com/canon-md/canon/index/internal/sqlstore"
)

// NamedSections returns the first sections (at most perDoc each, in
// document order) of the documents whose alias table holds term (uid:x,
// id:x, stem:x, num:x, was:x, title:x: the terms resolve.AliasTerms
// stores), narrowed by the read's filter: the documents a query names
// (index/search's names, ADR-0073). Documents come in path order, at most
// maxDocs of them; more than maxDocs (a stem every folder has, a title
// dozens of documents share) returns maxDocs+1 documents' sections, so the
// caller can tell a name from a common word.
func (t *FullText) NamedSections(ctx context.Context, term string, maxDocs, perDoc int) ([]RankedSection, error) {
	args := append(append([]any{term}, t.args...), maxDocs+1)
	rows, err := t.c.QueryContext(ctx, `WITH named AS (
		SELECT DISTINCT d.id AS doc, d.key AS key, d.path AS path, d.generated <> '' AS gen
		FROM aliases a JOIN docs d ON d.id = a.doc WHERE a.term = ?`+t.where+`
		ORDER BY d.path LIMIT ?)
	SELECT c.id, n.doc, c.seq, c.slug, n.key, n.gen FROM named n JOIN chunks c ON c.doc = n.doc
	ORDER BY n.path, c.seq`, args...)
	if err != nil {
		return nil, t.s.h.Friendly(err)
	}
	all, err := sqlstore.ScanAll(rows, func(rs *sql.Rows) (RankedSection, error) {
		var c RankedSection
		var id, doc int64
		err := rs.Scan(&id, &doc, &c.Seq, &c.Slug, &c.Key, &c.Generated)
		c.Chunk, c.Doc = sqlstore.ChunkID(id), sqlstore.DocID(doc)
		return c, err
	})
	var out []RankedSection
	for i, c := range all {
		if i < perDoc || all[i-perDoc].Doc != c.Doc {
			out = append(out, c)
		}
	}
	return out, err
}
