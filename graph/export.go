package graph

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/canon-md/canon/index"
)

// ExportOptions choose what an export holds: the whole graph, or what an
// expansion from some roots reaches.
type ExportOptions struct {
	Roots     []string  // none: the whole graph
	Depth     int       // hops from the roots
	Edges     []string  // edge types; none means all
	Direction Direction // "" is both
	MaxNodes  int       // with roots: cap on nodes; 0 means 10,000
}

// Subgraph is a set of documents and the edges between them, sorted by key
// so that an export is the same whatever order the index was built in.
type Subgraph struct {
	Nodes []index.DocRef `json:"nodes"`
	Edges []ExportEdge   `json:"edges"`
	// Capped says MaxNodes cut the expansion from the roots.
	Capped bool `json:"capped,omitempty"`
}

// ExportEdge is one edge of an export. Several links of the same type from
// one document to another are one edge, at the first one's line.
type ExportEdge struct {
	Src   string `json:"src"`
	Dst   string `json:"dst"`
	Type  string `json:"type"`
	Field string `json:"field,omitempty"`
	Line  int    `json:"line"`
}

// Subgraph reads what an export holds.
func (g *Graph) Subgraph(ctx context.Context, opt ExportOptions) (*Subgraph, error) {
	all, err := g.allNodes(ctx)
	if err != nil {
		return nil, err
	}
	sg := &Subgraph{Nodes: []index.DocRef{}, Edges: []ExportEdge{}}
	var in map[int32]bool // nil: every node
	if len(opt.Roots) > 0 {
		if opt.MaxNodes <= 0 {
			opt.MaxNodes = 10000
		}
		ex, err := g.Expand(ctx, opt.Roots, ExpandOptions{Depth: opt.Depth, Edges: opt.Edges, Direction: opt.Direction, MaxNodes: opt.MaxNodes})
		if err != nil {
			return nil, err
		}
		sg.Capped = ex.NodeCapped
		in = make(map[int32]bool, len(ex.Nodes))
		for _, r := range ex.Nodes {
			in[all.pos[r.id]] = true
		}
	}
	var ids []int64
	for i, id := range all.ids {
		if in == nil || in[int32(i)] {
			ids = append(ids, id)
		}
	}
	refs, err := g.refs(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, id := range ids { // key order
		sg.Nodes = append(sg.Nodes, refs[id])
	}
	var edges []denseEdge
	if in == nil {
		if edges, err = g.allEdges(ctx, all, opt.Edges); err != nil {
			return nil, err
		}
	} else {
		links, err := g.links(ctx, ids, opt.Edges, Out)
		if err != nil {
			return nil, err
		}
		for _, ls := range links {
			for _, l := range ls {
				if d := all.pos[l.other]; in[d] {
					edges = append(edges, denseEdge{src: all.pos[l.at], dst: d, typ: l.typ, field: l.field, seq: l.seq, line: l.line})
				}
			}
		}
	}
	sort.Slice(edges, func(i, j int) bool {
		a, b := edges[i], edges[j]
		if a.src != b.src {
			return a.src < b.src
		}
		if a.dst != b.dst {
			return a.dst < b.dst
		}
		if a.typ != b.typ {
			return a.typ < b.typ
		}
		return a.seq < b.seq
	})
	for i, e := range edges {
		if i > 0 && e.src == edges[i-1].src && e.dst == edges[i-1].dst && e.typ == edges[i-1].typ {
			continue
		}
		sg.Edges = append(sg.Edges, ExportEdge{Src: all.keys[e.src], Dst: all.keys[e.dst], Type: e.typ, Field: e.field, Line: e.line})
	}
	return sg, nil
}

// WriteDOT writes the subgraph in Graphviz's DOT language.
func (sg *Subgraph) WriteDOT(w io.Writer) error {
	b := bufio.NewWriter(w)
	b.WriteString("digraph canon {\n  node [shape=box, fontname=\"Helvetica\"];\n")
	for _, n := range sg.Nodes {
		fmt.Fprintf(b, "  %s [label=%s, kind=%s];\n", dotQuote(n.Key), dotQuote(n.ID+"\n"+n.Title), dotQuote(n.Kind))
	}
	for _, e := range sg.Edges {
		fmt.Fprintf(b, "  %s -> %s [label=%s];\n", dotQuote(e.Src), dotQuote(e.Dst), dotQuote(e.Type))
	}
	b.WriteString("}\n")
	return b.Flush()
}

// dotQuote makes a DOT string; a newline becomes DOT's centred line break.
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", "")
	return `"` + r.Replace(s) + `"`
}

// WriteMermaid writes the subgraph as a Mermaid flowchart. Mermaid ids are
// n1, n2, ... in key order; labels carry the display id and title.
func (sg *Subgraph) WriteMermaid(w io.Writer) error {
	b := bufio.NewWriter(w)
	b.WriteString("flowchart LR\n")
	ids := make(map[string]string, len(sg.Nodes))
	for i, n := range sg.Nodes {
		id := fmt.Sprintf("n%d", i+1)
		ids[n.Key] = id
		fmt.Fprintf(b, "  %s[\"%s\"]\n", id, mermaidText(n.ID+": "+n.Title))
	}
	for _, e := range sg.Edges {
		fmt.Fprintf(b, "  %s -->|%s| %s\n", ids[e.Src], mermaidText(e.Type), ids[e.Dst])
	}
	return b.Flush()
}

// mermaidText escapes what would end or confuse a quoted Mermaid label.
func mermaidText(s string) string {
	r := strings.NewReplacer("#", "#35;", `"`, "#quot;", "|", "#124;", "\n", " ", "\r", "", "<", "#lt;", ">", "#gt;")
	return r.Replace(s)
}

// WriteJSONL writes one JSON object per line: the nodes to nodes, the edges
// to edges (graph_nodes.jsonl and graph_edges.jsonl in the CLI).
func (sg *Subgraph) WriteJSONL(nodes, edges io.Writer) error {
	nb, eb := bufio.NewWriter(nodes), bufio.NewWriter(edges)
	ne, ee := json.NewEncoder(nb), json.NewEncoder(eb)
	ne.SetEscapeHTML(false)
	ee.SetEscapeHTML(false)
	for _, n := range sg.Nodes {
		if err := ne.Encode(n); err != nil {
			return err
		}
	}
	for _, e := range sg.Edges {
		if err := ee.Encode(e); err != nil {
			return err
		}
	}
	if err := nb.Flush(); err != nil {
		return err
	}
	return eb.Flush()
}
