package graph

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/resolve"
)

// Graph answers graph questions from one index.
type Graph struct {
	st *index.Store
}

// New reads the graph of an open index.
func New(st *index.Store) *Graph { return &Graph{st: st} }

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

// Edge types canon writes (docs/architecture.md, "Documents, identity,
// edges"); configurations may add others.
const (
	EdgeParent      = "parent"
	EdgeBlockedBy   = "blocked_by"
	EdgeBlocks      = "blocks"
	EdgeDependsOn   = "depends_on"
	EdgeDecisionRef = "decision_ref"
	EdgeSupersedes  = "supersedes"
	EdgeRelates     = "relates"
	EdgeReferences  = resolve.EdgeReferences
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
	id  index.DocID
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
	id, ok, err := g.st.DocIDOfKey(ctx, doc.Key)
	if err == nil && !ok {
		return node{}, &index.NotFoundError{Ref: ref}
	}
	return node{id: id, ref: *doc}, err
}

// link is one resolved edge seen from a node (At).
type link = index.Link

// dirOf says which way a link points, seen from its node.
func dirOf(l link) Direction {
	if l.Incoming {
		return In
	}
	return Out
}

// linkLess orders a node's links: by edge type (structure first),
// outgoing before incoming, then outgoing in source order and incoming by
// the source's key. Row ids play no part.
func linkLess(a, b link) bool {
	if ra, rb := typeRank(a.Type), typeRank(b.Type); ra != rb {
		return ra < rb
	}
	if a.Type != b.Type {
		return a.Type < b.Type
	}
	if a.Incoming != b.Incoming {
		return !a.Incoming
	}
	if !a.Incoming && a.Seq != b.Seq {
		return a.Seq < b.Seq
	}
	if a.OtherKey != b.OtherKey {
		return a.OtherKey < b.OtherKey
	}
	return a.Seq < b.Seq
}

// links reads the resolved links of some nodes, in the given direction and
// restricted to the given types (none means all), each node's sorted.
func (g *Graph) links(ctx context.Context, ids []index.DocID, types []string, dir Direction) (map[index.DocID][]link, error) {
	out, err := g.st.LinksOf(ctx, ids, types, dir != In, dir != Out)
	if err != nil {
		return nil, err
	}
	sortLinks(out)
	return out, nil
}

// sortLinks puts each node's links in linkLess order.
func sortLinks(m map[index.DocID][]link) {
	for _, ls := range m {
		sort.Slice(ls, func(i, j int) bool { return linkLess(ls[i], ls[j]) })
	}
}
