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

// ExportEdge is one edge of an export. Several links of the same type from
// one document to another are one edge, at the first one's line.
type ExportEdge struct {
	Src   string `json:"src"`
	Dst   string `json:"dst"`
	Type  string `json:"type"`
	Field string `json:"field,omitempty"`
	Line  int    `json:"line"`
}

// Sink receives an export: every node in key order, then every edge in
// (source key, target key, type) order.
type Sink interface {
	Node(index.DocRef) error
	Edge(ExportEdge) error
	Close() error
}

// Exported says what an export held.
type Exported struct {
	Nodes  int  `json:"nodes"`
	Edges  int  `json:"edges"`
	Capped bool `json:"capped"` // MaxNodes cut the expansion from the roots
}

// Export feeds a graph to a sink. The whole graph streams from the index
// in order (SQLite sorts; memory stays flat however large the graph is);
// an export from roots is bounded by MaxNodes and sorted here. Either way
// the same tree exports the same bytes, whatever order it was indexed in.
func (g *Graph) Export(ctx context.Context, opt ExportOptions, sink Sink) (*Exported, error) {
	var out *Exported
	var err error
	if len(opt.Roots) == 0 {
		out, err = g.exportAll(ctx, opt, sink)
	} else {
		out, err = g.exportFrom(ctx, opt, sink)
	}
	if err != nil {
		return nil, err
	}
	return out, sink.Close()
}

func (g *Graph) exportAll(ctx context.Context, opt ExportOptions, sink Sink) (*Exported, error) {
	out := &Exported{}
	err := g.st.EachDoc(ctx, func(ref index.DocRef) error {
		out.Nodes++
		return sink.Node(ref)
	})
	if err != nil {
		return nil, err
	}
	// Several links of one type between the same two documents are one
	// edge, at the first one's line.
	var prev index.KeyedLink
	err = g.st.EachLink(ctx, opt.Edges, func(l index.KeyedLink) error {
		if out.Edges > 0 && l.Src == prev.Src && l.Dst == prev.Dst && l.Type == prev.Type {
			return nil
		}
		prev = l
		out.Edges++
		return sink.Edge(ExportEdge{Src: l.Src, Dst: l.Dst, Type: l.Type, Field: l.Field, Line: l.Line})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (g *Graph) exportFrom(ctx context.Context, opt ExportOptions, sink Sink) (*Exported, error) {
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = 10000
	}
	ex, err := g.Expand(ctx, opt.Roots, ExpandOptions{Depth: opt.Depth, Edges: opt.Edges, Direction: opt.Direction, MaxNodes: opt.MaxNodes})
	if err != nil {
		return nil, err
	}
	out := &Exported{Capped: ex.NodeCapped}
	nodes := make([]Reached, len(ex.Nodes))
	copy(nodes, ex.Nodes)
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Key < nodes[j].Key })
	in := make(map[index.DocID]bool, len(nodes))
	ids := make([]index.DocID, len(nodes))
	for i, n := range nodes {
		in[n.id] = true
		ids[i] = n.id
		if err := sink.Node(n.DocRef); err != nil {
			return nil, err
		}
		out.Nodes++
	}
	links, err := g.links(ctx, ids, opt.Edges, Out)
	if err != nil {
		return nil, err
	}
	keys := make(map[index.DocID]string, len(nodes))
	for _, n := range nodes {
		keys[n.id] = n.Key
	}
	var edges []link
	for _, ls := range links {
		for _, l := range ls {
			if in[l.Other] {
				edges = append(edges, l)
			}
		}
	}
	sort.Slice(edges, func(i, j int) bool {
		a, b := edges[i], edges[j]
		if ka, kb := keys[a.At], keys[b.At]; ka != kb {
			return ka < kb
		}
		if a.OtherKey != b.OtherKey {
			return a.OtherKey < b.OtherKey
		}
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		return a.Seq < b.Seq
	})
	for i, l := range edges {
		if i > 0 && l.At == edges[i-1].At && l.Other == edges[i-1].Other && l.Type == edges[i-1].Type {
			continue
		}
		if err := sink.Edge(ExportEdge{Src: keys[l.At], Dst: l.OtherKey, Type: l.Type, Field: l.Field, Line: l.Line}); err != nil {
			return nil, err
		}
		out.Edges++
	}
	return out, nil
}

// DOT writes Graphviz's DOT language; node ids are node keys, labels
// "ID\nTitle".
func DOT(w io.Writer) Sink {
	b := bufio.NewWriter(w)
	b.WriteString("digraph canon {\n  node [shape=box, fontname=\"Helvetica\"];\n")
	return &dotSink{b: b}
}

type dotSink struct{ b *bufio.Writer }

func (s *dotSink) Node(n index.DocRef) error {
	_, err := fmt.Fprintf(s.b, "  %s [label=%s, kind=%s];\n", dotQuote(n.Key), dotQuote(n.ID+"\n"+n.Title), dotQuote(n.Kind))
	return err
}

func (s *dotSink) Edge(e ExportEdge) error {
	_, err := fmt.Fprintf(s.b, "  %s -> %s [label=%s];\n", dotQuote(e.Src), dotQuote(e.Dst), dotQuote(e.Type))
	return err
}

func (s *dotSink) Close() error {
	s.b.WriteString("}\n")
	return s.b.Flush()
}

// dotQuote makes a DOT string; a newline becomes DOT's centred line break.
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", "")
	return `"` + r.Replace(s) + `"`
}

// Mermaid writes a Mermaid flowchart; node ids are n1, n2, ... in key
// order, labels "ID: Title".
func Mermaid(w io.Writer) Sink {
	b := bufio.NewWriter(w)
	b.WriteString("flowchart LR\n")
	return &mermaidSink{b: b, ids: map[string]string{}}
}

type mermaidSink struct {
	b   *bufio.Writer
	ids map[string]string
}

func (s *mermaidSink) Node(n index.DocRef) error {
	id := fmt.Sprintf("n%d", len(s.ids)+1)
	s.ids[n.Key] = id
	_, err := fmt.Fprintf(s.b, "  %s[\"%s\"]\n", id, mermaidText(n.ID+": "+n.Title))
	return err
}

func (s *mermaidSink) Edge(e ExportEdge) error {
	_, err := fmt.Fprintf(s.b, "  %s -->|%s| %s\n", s.ids[e.Src], mermaidText(e.Type), s.ids[e.Dst])
	return err
}

func (s *mermaidSink) Close() error { return s.b.Flush() }

// mermaidText escapes what would end or confuse a quoted Mermaid label.
func mermaidText(s string) string {
	r := strings.NewReplacer("#", "#35;", `"`, "#quot;", "|", "#124;", "\n", " ", "\r", "", "<", "#lt;", ">", "#gt;")
	return r.Replace(s)
}

// JSONL writes one JSON object per line: nodes to one writer, edges to the
// other (graph_nodes.jsonl and graph_edges.jsonl in the CLI).
func JSONL(nodes, edges io.Writer) Sink {
	s := &jsonlSink{nb: bufio.NewWriter(nodes), eb: bufio.NewWriter(edges)}
	s.ne, s.ee = json.NewEncoder(s.nb), json.NewEncoder(s.eb)
	s.ne.SetEscapeHTML(false)
	s.ee.SetEscapeHTML(false)
	return s
}

type jsonlSink struct {
	nb, eb *bufio.Writer
	ne, ee *json.Encoder
}

func (s *jsonlSink) Node(n index.DocRef) error { return s.ne.Encode(n) }
func (s *jsonlSink) Edge(e ExportEdge) error   { return s.ee.Encode(e) }
func (s *jsonlSink) Close() error {
	if err := s.nb.Flush(); err != nil {
		return err
	}
	return s.eb.Flush()
}

// JSON writes {"nodes": [...], "edges": [...]}, one element a line.
func JSON(w io.Writer) Sink {
	b := bufio.NewWriter(w)
	b.WriteString("{\n  \"nodes\": [")
	return &jsonSink{b: b}
}

type jsonSink struct {
	b       *bufio.Writer
	n       int  // elements in the open array
	inEdges bool // the nodes array is closed
}

func (s *jsonSink) item(v any) error {
	if s.n == 0 {
		s.b.WriteString("\n    ")
	} else {
		s.b.WriteString(",\n    ")
	}
	s.n++
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = s.b.Write(data)
	return err
}

// closeArray ends the open array ("[]" when it is empty).
func (s *jsonSink) closeArray() {
	if s.n > 0 {
		s.b.WriteString("\n  ")
	}
	s.b.WriteString("]")
	s.n = 0
}

func (s *jsonSink) edges() {
	if !s.inEdges {
		s.closeArray()
		s.b.WriteString(",\n  \"edges\": [")
		s.inEdges = true
	}
}

func (s *jsonSink) Node(n index.DocRef) error { return s.item(n) }

func (s *jsonSink) Edge(e ExportEdge) error {
	s.edges()
	return s.item(e)
}

func (s *jsonSink) Close() error {
	s.edges()
	s.closeArray()
	s.b.WriteString("\n}\n")
	return s.b.Flush()
}
