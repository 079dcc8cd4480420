package index

import (
	"context"
	"database/sql"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/config"
)

// IdentDoc is a document with an id: what canon id rename, id fix and
// id next read of the index.
type IdentDoc struct {
	Key, Path, Ident, UID string
	Kind                  string
	IdentLine             int
}

// IdentDocs lists every document that has an id, by path.
func (s *Store) IdentDocs(ctx context.Context) ([]IdentDoc, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT key, path, ident, uid, kind, ident_line FROM docs WHERE ident <> '' ORDER BY path`)
	if err != nil {
		return nil, err
	}
	return scanAll(rows, func(r *sql.Rows) (IdentDoc, error) {
		var d IdentDoc
		return d, r.Scan(&d.Key, &d.Path, &d.Ident, &d.UID, &d.Kind, &d.IdentLine)
	})
}

// Collision is an id that names more than one document: two different
// items, not one item in two places.
type Collision struct {
	Ident string
	Docs  []IdentDoc // by path; two at least
}

// Collisions finds the ids that name two different documents among docs
// (ADR-0043): ids are compared without case within a namespace; documents
// that share a uid (or a path) are one item in two versions, not a
// collision; a document in an archive folder (work.archive) is left out,
// its id being free again by the convention of Backlog.md and its kind.
func Collisions(docs []IdentDoc, cfg *config.Config) []Collision {
	type group struct {
		ident string
		docs  []IdentDoc
	}
	groups := map[string]*group{}
	var order []string
	for _, d := range docs {
		if d.Ident == "" || cfg.Work.Archived(d.Path) {
			continue
		}
		ns, _ := cfg.Namespaces.Of(d.Path)
		k := ns + "\x00" + strings.ToLower(d.Ident)
		g := groups[k]
		if g == nil {
			g = &group{ident: d.Ident}
			groups[k] = g
			order = append(order, k)
		}
		same := false
		for _, o := range g.docs {
			same = same || o.Path == d.Path || (o.UID != "" && strings.EqualFold(o.UID, d.UID))
		}
		if !same {
			g.docs = append(g.docs, d)
		}
	}
	sort.Strings(order)
	var out []Collision
	for _, k := range order {
		if g := groups[k]; len(g.docs) > 1 {
			ds := append([]IdentDoc(nil), g.docs...)
			sort.Slice(ds, func(i, j int) bool { return ds[i].Path < ds[j].Path })
			out = append(out, Collision{Ident: g.ident, Docs: ds})
		}
	}
	return out
}
