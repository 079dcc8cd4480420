package check

import (
	"fmt"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/internal/checkreads"
)

// groupCycles reports a loop in the depends_on edges between groups (a
// document of kind group, or one a group: field names): scoped context
// walks groups upstream along depends_on, and a loop has no upstream. It
// is reported once at each checked group in the loop, at its depends_on
// field.
//
// It reads what the checked documents reach, never the whole table: a
// loop through a checked document leaves it by one of its own depends_on,
// so a check whose documents have none (most commits) costs one indexed
// lookup, and one that touches a group follows the groups upstream of it.
func (c *checker) groupCycles() error {
	g := groupGraph{c: c, group: map[int64]bool{}, asked: map[int64]bool{}, deps: map[int64][]groupEdge{}, names: map[int64]string{}}
	var start []int64
	for _, d := range c.full() {
		start = append(start, d.id)
		g.names[d.id] = displayName(d.ident, d.path)
		if d.kind == "group" {
			g.group[d.id] = true
		}
	}
	if err := g.load(start); err != nil {
		return err
	}
	for _, d := range c.full() {
		if !g.group[d.id] {
			continue
		}
		// A path from one of d's depends_on back to d, breadth first so
		// the loop named is a shortest one.
		for _, first := range g.deps[d.id] {
			prev := map[int64]int64{first.dst: d.id}
			queue := []int64{first.dst}
			found := false
			for len(queue) > 0 && !found {
				n := queue[0]
				queue = queue[1:]
				if n == d.id {
					found = true
					break
				}
				for _, e := range g.deps[n] {
					if _, seen := prev[e.dst]; !seen {
						prev[e.dst] = n
						queue = append(queue, e.dst)
					}
				}
			}
			if !found {
				continue
			}
			loop := []string{g.names[d.id]}
			for n := prev[d.id]; n != d.id; n = prev[n] {
				loop = append([]string{g.names[n]}, loop...)
			}
			loop = append([]string{g.names[d.id]}, loop...)
			c.add(d.path, first.line, first.col, "group-cycle", "depends_on "+first.raw,
				fmt.Sprintf("the group dependencies loop: %s; a group cannot be upstream of itself, remove one depends_on", strings.Join(loop, " → ")))
			break
		}
	}
	return nil
}

// groupEdge is a depends_on between two groups.
type groupEdge struct {
	dst       int64
	line, col int
	raw       string
}

// groupGraph is the part of the group graph the checked documents reach
// along depends_on, loaded a frontier at a time.
type groupGraph struct {
	c *checker
	// group says of each document met whether it is a group (absent:
	// not known yet); asked holds those whose depends_on were read.
	group, asked map[int64]bool
	deps         map[int64][]groupEdge
	names        map[int64]string
}

// load reads the depends_on of the documents at ids, then of the groups
// they depend on, until no new group is reached.
func (g *groupGraph) load(ids []int64) error {
	for len(ids) > 0 {
		srcs := make([]index.DocID, 0, len(ids))
		for _, id := range ids {
			g.asked[id] = true
			srcs = append(srcs, index.DocID(id))
		}
		edges, err := checkreads.DependsOnFrom(g.c.ctx, g.c.q, srcs)
		if err != nil {
			return err
		}
		if len(edges) == 0 {
			return nil
		}
		// Whether each end is a group: its kind, else a group: field
		// that names it.
		var unknown []index.DocID
		for _, e := range edges {
			if e.DstKind == "group" {
				g.group[int64(e.Dst)] = true
			}
			for _, id := range []int64{int64(e.Src), int64(e.Dst)} {
				if _, known := g.group[id]; !known {
					g.group[id] = false
					unknown = append(unknown, index.DocID(id))
				}
			}
		}
		named, err := checkreads.NamedByGroupField(g.c.ctx, g.c.q, unknown)
		if err != nil {
			return err
		}
		for id := range named {
			g.group[int64(id)] = true
		}
		ids = ids[:0]
		for _, e := range edges {
			src, dst := int64(e.Src), int64(e.Dst)
			if !g.group[src] || !g.group[dst] {
				continue
			}
			g.deps[src] = append(g.deps[src], groupEdge{dst: dst, line: e.Line, col: e.Col, raw: e.Raw})
			g.names[dst] = displayName(e.DstIdent, e.DstPath)
			if !g.asked[dst] {
				g.asked[dst] = true
				ids = append(ids, dst)
			}
		}
	}
	return nil
}

func displayName(ident, path string) string {
	if ident != "" {
		return ident
	}
	return path
}
