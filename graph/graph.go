package graph

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/canon-md/canon/index"
)

// Graph answers graph questions from one index.
type Graph struct {
	st *index.Store
	db *sql.DB
}

// New reads the graph of an open index.
func New(st *index.Store) *Graph { return &Graph{st: st, db: st.DB()} }

// Direction says which way edges are followed from a node.
type Direction string

// Directions.
const (
	Out  Direction = "out"  // from the node to what it names
	In   Direction = "in"   // from what names the node to it
	Both Direction = "both" // either way
)

// ParseDirection reads out, in or both ("" is both).
func ParseDirection(s string) (Direction, error) {
	switch Direction(s) {
	case Out, In, Both:
		return Direction(s), nil
	case "":
		return Both, nil
	}
	return "", fmt.Errorf("direction %q is not out, in or both", s)
}

// Edge types canon writes (DESIGN.md §2); configurations may add others.
const (
	EdgeParent      = "parent"
	EdgeBlockedBy   = "blocked_by"
	EdgeBlocks      = "blocks"
	EdgeDependsOn   = "depends_on"
	EdgeDecisionRef = "decision_ref"
	EdgeSupersedes  = "supersedes"
	EdgeRelates     = "relates"
	EdgeReferences  = index.EdgeReferences
)

// typeOrder ranks edge types when one node has more neighbours than its
// fan-out cap allows: structure first, loose references last.
var typeOrder = []string{EdgeParent, EdgeBlockedBy, EdgeBlocks, EdgeDependsOn, EdgeDecisionRef, EdgeSupersedes, EdgeRelates, EdgeReferences}

func typeRank(t string) int {
	for i, o := range typeOrder {
		if o == t {
			return i
		}
	}
	return len(typeOrder)
}

// ParseEdges splits a comma-separated edge list ("" means every type).
func ParseEdges(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// node is a document inside one call: its row id (never shown) and its ref.
type node struct {
	id  int64
	ref index.DocRef
}

// Resolve finds the one document a reference (key, uid, id, path, stem,
// ID@uidprefix) names.
func (g *Graph) Resolve(ctx context.Context, ref string) (index.DocRef, error) {
	n, err := g.resolve(ctx, ref)
	return n.ref, err
}

func (g *Graph) resolve(ctx context.Context, ref string) (node, error) {
	doc, err := g.st.FindOne(ctx, ref)
	if err != nil {
		return node{}, err
	}
	var id int64
	err = g.db.QueryRowContext(ctx, `SELECT id FROM docs WHERE key = ? ORDER BY path LIMIT 1`, doc.Key).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return node{}, &index.NotFoundError{Ref: ref}
	}
	return node{id: id, ref: *doc}, err
}

// batch is how many ids go into one IN list.
const batch = 500

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

// inChunks calls fn with successive slices of at most batch ids.
func inChunks(ids []int64, fn func(part []int64) error) error {
	for len(ids) > 0 {
		n := min(len(ids), batch)
		if err := fn(ids[:n]); err != nil {
			return err
		}
		ids = ids[n:]
	}
	return nil
}

func idArgs(ids []int64, more ...any) []any {
	args := make([]any, 0, len(ids)+len(more))
	for _, id := range ids {
		args = append(args, id)
	}
	return append(args, more...)
}

// refs reads the DocRefs of some documents.
func (g *Graph) refs(ctx context.Context, ids []int64) (map[int64]index.DocRef, error) {
	out := make(map[int64]index.DocRef, len(ids))
	err := inChunks(ids, func(part []int64) error {
		rows, err := g.db.QueryContext(ctx, `SELECT `+index.DocRefColumns+`, d.id FROM docs d WHERE d.id IN (`+placeholders(len(part))+`)`, idArgs(part)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			ref, err := index.ScanDocRef(rows, &id)
			if err != nil {
				return err
			}
			out[id] = ref
		}
		return rows.Err()
	})
	return out, err
}

// link is one resolved edge seen from a node "at".
type link struct {
	at       int64
	other    int64
	otherKey string
	typ      string
	dir      Direction // Out: at → other; In: other → at
	field    string
	seq      int
	line     int
}

// less orders a node's links: by edge type (structure first), outgoing
// before incoming, then outgoing in source order and incoming by the
// source's key. Row ids play no part.
func (a link) less(b link) bool {
	if ra, rb := typeRank(a.typ), typeRank(b.typ); ra != rb {
		return ra < rb
	}
	if a.typ != b.typ {
		return a.typ < b.typ
	}
	if a.dir != b.dir {
		return a.dir == Out
	}
	if a.dir == Out && a.seq != b.seq {
		return a.seq < b.seq
	}
	if a.otherKey != b.otherKey {
		return a.otherKey < b.otherKey
	}
	return a.seq < b.seq
}

// links reads the resolved links of some nodes, in the given direction and
// restricted to the given types (none means all), each node's sorted.
func (g *Graph) links(ctx context.Context, ids []int64, types []string, dir Direction) (map[int64][]link, error) {
	out := make(map[int64][]link, len(ids))
	typeCond := ""
	var typeArgs []any
	if len(types) > 0 {
		typeCond = ` AND l.type IN (` + placeholders(len(types)) + `)`
		for _, t := range types {
			typeArgs = append(typeArgs, t)
		}
	}
	read := func(part []int64, d Direction) error {
		at, other := "l.src", "l.dst"
		if d == In {
			at, other = "l.dst", "l.src"
		}
		q := `SELECT ` + at + `, ` + other + `, o.key, l.type, l.field, l.seq, l.line
			FROM links l JOIN docs o ON o.id = ` + other + `
			WHERE ` + at + ` IN (` + placeholders(len(part)) + `) AND l.dst IS NOT NULL AND l.status = 'ok'` + typeCond
		rows, err := g.db.QueryContext(ctx, q, idArgs(part, typeArgs...)...)
		if err != nil {
			return fmt.Errorf("read links: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			l := link{dir: d}
			if err := rows.Scan(&l.at, &l.other, &l.otherKey, &l.typ, &l.field, &l.seq, &l.line); err != nil {
				return err
			}
			if l.other == l.at {
				continue
			}
			out[l.at] = append(out[l.at], l)
		}
		return rows.Err()
	}
	err := inChunks(ids, func(part []int64) error {
		if dir != In {
			if err := read(part, Out); err != nil {
				return err
			}
		}
		if dir != Out {
			return read(part, In)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, ls := range out {
		sort.Slice(ls, func(i, j int) bool { return ls[i].less(ls[j]) })
	}
	return out, nil
}
