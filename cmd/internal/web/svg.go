package web

import (
	"fmt"
	"html/template"
	"net/url"
	"strings"

	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
)

// The picture of an item's neighbourhood is an SVG the server draws from
// the index, never one a document holds, laid out in rows by relation: the
// parent chain above, farthest first; a middle row of what blocks the
// item, the item, and what it blocks; below, the decisions that govern it
// and its children. A box per document links to its page, a line joins
// each to the item (the chain's each ancestor to the next). Every text in
// it is escaped.

// Layer is a group of boxes of one relation.
type Layer struct {
	Name  string
	Nodes []index.DocRef
}

// neighbourhood is the picture's rows: the parent chain (farthest
// first), each ancestor above the next; the middle row, what blocks the
// item, the item, what it blocks; then a row each for the decisions and
// the children.
type neighbourhood struct {
	Self             index.DocRef
	Chain            []index.DocRef
	Blockers, Blocks []index.DocRef
	Below            []Layer
}

// decisionKinds are kinds whose documents record decisions.
var decisionKinds = map[string]bool{"adr": true, "decision": true}

// neighbourhoodOf sorts v's edges into the picture's rows; chain is its
// ancestors, nearest first.
func neighbourhoodOf(v *index.DocView, chain []index.DocRef) neighbourhood {
	var blockers, blocks, decisions, children []index.DocRef
	seen := map[*[]index.DocRef]map[string]bool{}
	add := func(list *[]index.DocRef, d *index.DocRef) {
		if d == nil || d.Key == v.Key {
			return
		}
		if seen[list] == nil {
			seen[list] = map[string]bool{}
		}
		if !seen[list][d.Key] {
			seen[list][d.Key] = true
			*list = append(*list, *d)
		}
	}
	for _, e := range v.Outgoing {
		switch {
		case e.Type == graph.EdgeBlockedBy || e.Type == graph.EdgeDependsOn:
			add(&blockers, e.Other)
		case e.Type == graph.EdgeBlocks:
			add(&blocks, e.Other)
		case e.Type == graph.EdgeDecisionRef || (e.Other != nil && decisionKinds[e.Other.Kind]):
			add(&decisions, e.Other)
		}
	}
	for _, e := range v.Incoming {
		switch {
		case e.Type == graph.EdgeBlocks:
			add(&blockers, e.Other)
		case e.Type == graph.EdgeBlockedBy || e.Type == graph.EdgeDependsOn:
			add(&blocks, e.Other)
		case e.Type == graph.EdgeParent:
			add(&children, e.Other)
		case e.Other != nil && decisionKinds[e.Other.Kind]:
			add(&decisions, e.Other)
		}
	}
	n := neighbourhood{Self: v.DocRef, Blockers: blockers, Blocks: blocks}
	for i := len(chain) - 1; i >= 0; i-- {
		n.Chain = append(n.Chain, chain[i])
	}
	for _, l := range []Layer{{Name: "decisions", Nodes: decisions}, {Name: "children", Nodes: children}} {
		if len(l.Nodes) > 0 {
			n.Below = append(n.Below, l)
		}
	}
	return n
}

// The picture's measures, in pixels.
const (
	nodeW, nodeH = 180, 44
	gapX, rowH   = 24, 76
	labelW       = 80
	perRow       = 5 // boxes a row shows; a last one says how many more
	perSide      = 3 // blockers, or blocked items, the middle row shows
	labelRunes   = 24
)

// cut keeps the first n of nodes and says how many more there are.
func cut(nodes []index.DocRef, n int) ([]index.DocRef, int) {
	if len(nodes) > n {
		return nodes[:n], len(nodes) - n
	}
	return nodes, 0
}

// picture draws the neighbourhood.
func picture(n neighbourhood) template.HTML {
	left, moreL := cut(n.Blockers, perSide)
	right, moreR := cut(n.Blocks, perSide)
	slots := func(nodes []index.DocRef, more int) int {
		if more > 0 {
			return len(nodes) + 1
		}
		return len(nodes)
	}
	nl, nr := slots(left, moreL), slots(right, moreR)
	widest := nl + 1 + nr
	for _, l := range n.Below {
		widest = max(widest, min(len(l.Nodes), perRow+1))
	}
	width := labelW + widest*(nodeW+gapX)
	rows := len(n.Chain) + 1 + len(n.Below)
	height := rows*rowH + 8
	x0 := func(count int) int { return labelW + (width-labelW-(count*(nodeW+gapX)-gapX))/2 }
	at := func(row, slot, count int) (x, y int) {
		return x0(count) + slot*(nodeW+gapX) + nodeW/2, 8 + row*rowH + nodeH/2
	}
	var lines, boxes strings.Builder
	label := func(row int, name string) {
		fmt.Fprintf(&boxes, `<text class="layer" x="4" y="%d">%s</text>`, 8+row*rowH+nodeH/2+4, esc(name))
	}
	line := func(x1, y1, x2, y2 int) {
		fmt.Fprintf(&lines, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`, x1, y1, x2, y2)
	}
	mid := len(n.Chain)
	selfX, selfY := at(mid, nl, widest)
	for i, d := range n.Chain {
		_, y := at(i, 0, 1)
		label(i, map[bool]string{true: "parent", false: "ancestor"}[i == len(n.Chain)-1])
		line(selfX, y+nodeH/2, selfX, y+rowH-nodeH/2)
		box(&boxes, d, selfX, y, false)
	}
	label(mid, "this item")
	for i, d := range left {
		x, y := at(mid, i, widest)
		line(x+nodeW/2, y, selfX-nodeW/2, selfY)
		box(&boxes, d, x, y, false)
	}
	if moreL > 0 {
		x, y := at(mid, len(left), widest)
		fmt.Fprintf(&boxes, `<text class="more" x="%d" y="%d">+%d more blockers</text>`, x-nodeW/2+8, y+4, moreL)
	}
	box(&boxes, n.Self, selfX, selfY, true)
	for i, d := range right {
		x, y := at(mid, nl+1+i, widest)
		line(selfX+nodeW/2, selfY, x-nodeW/2, y)
		box(&boxes, d, x, y, false)
	}
	if moreR > 0 {
		x, y := at(mid, nl+1+len(right), widest)
		fmt.Fprintf(&boxes, `<text class="more" x="%d" y="%d">+%d more blocked</text>`, x-nodeW/2+8, y+4, moreR)
	}
	if nl > 0 {
		fmt.Fprintf(&boxes, `<text class="layer" x="%d" y="%d">blocked by →</text>`, x0(widest), selfY-nodeH/2-6)
	}
	if nr > 0 {
		fmt.Fprintf(&boxes, `<text class="layer" x="%d" y="%d">→ blocks</text>`, selfX+nodeW/2+gapX, selfY-nodeH/2-6)
	}
	for j, l := range n.Below {
		row := mid + 1 + j
		label(row, l.Name)
		shown, more := cut(l.Nodes, perRow)
		if len(l.Nodes) == perRow+1 {
			shown, more = l.Nodes, 0
		}
		count := slots(shown, more)
		for i, d := range shown {
			x, y := at(row, i, count)
			line(x, y-nodeH/2, selfX, selfY+nodeH/2)
			box(&boxes, d, x, y, false)
		}
		if more > 0 {
			x, y := at(row, len(shown), count)
			fmt.Fprintf(&boxes, `<text class="more" x="%d" y="%d">+%d more</text>`, x-nodeW/2+8, y+4, more)
		}
	}
	return template.HTML(fmt.Sprintf( //nolint:gosec // every text in it went through esc
		`<svg class="graph" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="the item's neighbourhood"><g class="edges">%s</g>%s</svg>`,
		width, height, width, height, lines.String(), boxes.String()))
}

// box draws one document's box, a link to its page.
func box(b *strings.Builder, d index.DocRef, x, y int, self bool) {
	class := "node"
	if self {
		class += " self"
	}
	href := "/item?ref=" + url.QueryEscape(d.Key)
	fmt.Fprintf(b, `<a href="%s"><g class="%s"><title>%s</title><rect x="%d" y="%d" width="%d" height="%d" rx="6"/>`,
		esc(href), class, esc(d.ID+" "+d.Title), x-nodeW/2, y-nodeH/2, nodeW, nodeH)
	fmt.Fprintf(b, `<text class="id" x="%d" y="%d">%s</text><text x="%d" y="%d">%s</text></g></a>`,
		x-nodeW/2+8, y-4, esc(clip(d.ID+"  "+d.State, labelRunes)), x-nodeW/2+8, y+13, esc(clip(d.Title, labelRunes)))
}

// esc escapes text for SVG's text and attributes.
func esc(s string) string { return template.HTMLEscapeString(s) }

// clip keeps the first n runes of s, with an ellipsis when it cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
