package graph

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/human"
)

// Text renderers of the graph's answers (canon graph, ready, blocked,
// scope suggest). Their JSON is the documented shape.

// Neighbors is canon graph neighbors: what an expansion from one document
// reached, with the options it ran with.
type Neighbors struct {
	Root         index.DocRef `json:"root"`
	Depth        int          `json:"depth"`
	Edges        []string     `json:"edges"`
	Direction    Direction    `json:"direction"`
	Nodes        []Reached    `json:"nodes"`
	NodeCapped   bool         `json:"node_capped"`
	FanoutCapped int          `json:"fanout_capped"`
}

// Neighbors expands from one document (a reference as Find takes it).
func (g *Graph) Neighbors(ctx context.Context, ref string, opt ExpandOptions) (*Neighbors, error) {
	ex, err := g.Expand(ctx, []string{ref}, opt)
	if err != nil {
		return nil, err
	}
	edges := opt.Edges
	if edges == nil {
		edges = []string{}
	}
	if len(ex.Nodes) == 1 && len(edges) > 0 {
		// --edges bogus finds nothing: say so when no link has the type.
		if err := g.st.NoEdgeType(ctx, edges...); err != nil {
			return nil, err
		}
	}
	return &Neighbors{Root: ex.Nodes[0].DocRef, Depth: opt.Depth, Edges: edges, Direction: opt.Direction,
		Nodes: ex.Nodes[1:], NodeCapped: ex.NodeCapped, FanoutCapped: ex.FanoutCapped}, nil
}

// Describe is a document in one line: id, title, kind and state.
func Describe(r index.DocRef) string {
	tag := r.Kind
	if r.State != "" {
		tag += ", " + r.State
	}
	return fmt.Sprintf("%s  %s  [%s]", human.Quote(r.ID), human.Quote(r.Title), human.Quote(tag))
}

// WriteText lists the neighbours by depth, each with the edge that
// reached it, and what the caps cut.
func (n *Neighbors) WriteText(w io.Writer) error {
	fmt.Fprintln(w, Describe(n.Root))
	depth := 0
	for _, r := range n.Nodes {
		if r.Depth != depth {
			depth = r.Depth
			fmt.Fprintf(w, "depth %d\n", depth)
		}
		arrow := "→"
		if r.Via.Direction == In {
			arrow = "←"
		}
		from := ""
		if r.Depth > 1 {
			from = "  (from " + human.Quote(r.Via.FromID) + ")"
		}
		fmt.Fprintf(w, "  %-12s %s %s%s\n", human.Quote(r.Via.Type), arrow, Describe(r.DocRef), from)
	}
	if len(n.Nodes) == 0 {
		depth = n.Depth // none within the depth asked for, not "within 0 hops"
	}
	fmt.Fprintf(w, "%s within %s", human.Plural(len(n.Nodes), "neighbour"), human.Plural(depth, "hop"))
	if n.NodeCapped {
		fmt.Fprint(w, "; stopped at --max-nodes")
	}
	if n.FanoutCapped > 0 {
		fmt.Fprintf(w, "; --max-per-node cut the neighbours of %s", human.Plural(n.FanoutCapped, "node"))
	}
	_, err := fmt.Fprintln(w)
	return err
}

// WriteText shows the path a step a line, or that there is none.
func (r *PathResult) WriteText(w io.Writer) error {
	if !r.Found {
		_, err := fmt.Fprintf(w, "no path from %s to %s within %s\n", human.Quote(r.From.ID), human.Quote(r.To.ID), human.Plural(r.maxDepth, "hop"))
		return err
	}
	for _, st := range r.Steps {
		switch {
		case st.Via == nil:
			fmt.Fprintln(w, Describe(st.DocRef))
		case st.Via.Direction == In:
			fmt.Fprintf(w, "  <--%s-- %s\n", st.Via.Type, Describe(st.DocRef))
		default:
			fmt.Fprintf(w, "  --%s--> %s\n", st.Via.Type, Describe(st.DocRef))
		}
	}
	_, err := fmt.Fprintln(w, human.Plural(len(r.Steps)-1, "hop"))
	return err
}

// WriteText is the statistics a line each, cycles listed.
func (st *Stats) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "nodes            %s%s\n", human.Thousands(st.Nodes), human.Counts(st.NodesByKind))
	fmt.Fprintf(w, "edges            %s%s\n", human.Thousands(st.Edges), human.Counts(st.EdgesByType))
	fmt.Fprintf(w, "dangling         %d%s\n", st.Dangling, human.Counts(st.DanglingByType))
	fmt.Fprintf(w, "ambiguous        %d%s\n", st.Ambiguous, human.Counts(st.AmbiguousByType))
	fmt.Fprintf(w, "components       %s weakly connected; the largest has %s; %d isolated\n",
		human.Thousands(st.Components), human.Plural(st.LargestComponent, "node"), st.Isolated)
	writeCycles(w, "parent cycles", st.ParentCycles)
	writeCycles(w, "blocking cycles", st.BlockingCycles)
	return nil
}

func writeCycles(w io.Writer, label string, cs []Cycle) {
	if len(cs) == 0 {
		fmt.Fprintf(w, "%-16s none\n", label)
		return
	}
	fmt.Fprintf(w, "%-16s %d\n", label, len(cs))
	for _, cy := range cs {
		ids := make([]string, len(cy.Nodes))
		for i, n := range cy.Nodes {
			ids[i] = human.Quote(n.ID)
		}
		if cy.Simple {
			fmt.Fprintf(w, "  %s → %s\n", strings.Join(ids, " → "), ids[0])
		} else {
			fmt.Fprintf(w, "  %s (tangled: more than one cycle)\n", strings.Join(ids, ", "))
		}
	}
}

// WriteText is a line per item, the counts, and the states that are
// neither open nor done.
func (r *ReadyList) WriteText(w io.Writer) error {
	wd := itemWidths(r.Ready)
	for _, it := range r.Ready {
		writeItem(w, it, wd)
	}
	fmt.Fprintf(w, "%s, %d blocked (canon blocked)\n", listed(len(r.Ready), r.Truncated, "ready"), r.BlockedCount)
	writeNoStates(w, r.NoStates)
	if err := writeUnknown(w, r.Unknown); err != nil || r.Overlay == nil {
		return err
	}
	return writeClaimed(w, r.Claimed, r.Overlay)
}

// WriteText is a line per item and under it what it waits for, the
// counts, and the states that are neither open nor done.
func (b *BlockedList) WriteText(w io.Writer) error {
	items := make([]Item, len(b.Blocked))
	for i, x := range b.Blocked {
		items[i] = x.Item
	}
	wd := itemWidths(items)
	for _, x := range b.Blocked {
		writeItem(w, x.Item, wd)
		for _, bl := range x.Blockers {
			how := bl.Edge
			if bl.Via != "" {
				how += ", through " + human.Quote(bl.ViaID)
			}
			fmt.Fprintf(w, "    waits for %s (%s): %s  [%s]\n", human.Quote(bl.ID), human.Quote(bl.State), human.Quote(bl.Title), how)
		}
		if len(x.Blockers) == 0 {
			fmt.Fprintln(w, "    its state is Blocked; no open blocker is recorded")
		}
		if x.InCycle {
			fmt.Fprintln(w, "    in a blocking cycle: it waits, through others, for itself")
		}
	}
	fmt.Fprintf(w, "%s, %d ready (canon ready)\n", listed(len(b.Blocked), b.Truncated, "blocked"), b.ReadyCount)
	writeNoStates(w, b.NoStates)
	if err := writeUnknown(w, b.Unknown); err != nil || b.Overlay == nil {
		return err
	}
	return writeDoneElsewhere(w, b.DoneElsewhere, b.Overlay)
}

// writeNoStates says why nothing is listed when no document has a state.
func writeNoStates(w io.Writer, none bool) {
	if none {
		fmt.Fprintln(w, "no document of the kinds listed has a state (state: or status: in its frontmatter): nothing here is open work")
	}
}

// listed counts a list: "97 ready (20 listed, 77 more: --limit N or
// --all)", or "17 ready" when nothing was cut.
func listed(shown, more int, what string) string {
	if more == 0 {
		return fmt.Sprintf("%d %s", shown, what)
	}
	return fmt.Sprintf("%d %s (%d listed, %d more: --limit N or --all)", shown+more, what, shown, more)
}

// maxUnknownShown is how many states writeUnknown names in its one line.
const maxUnknownShown = 8

// clipList joins the first n items and counts the rest ("4 more states
// (--json lists them)"), so that one line stays a line.
func clipList(items []string, n int, what string) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(", %d more %s (--json lists them)", len(items)-n, what)
}

// writeUnknown says once which states are neither open nor done, and how
// to count them.
func writeUnknown(w io.Writer, us []StateCount) error {
	if len(us) == 0 {
		return nil
	}
	n := 0
	var names []string
	for _, u := range us {
		n += u.Count
		// a free-text state can be a paragraph: one line stays one line
		names = append(names, fmt.Sprintf("%s (%d)", human.Quote(human.Clip(u.State, 40)), u.Count))
	}
	what := "items in states that are"
	if n == 1 {
		what = "item in a state that is"
	}
	_, err := fmt.Fprintf(w, "%d %s neither open nor done, not listed: %s; list each in states.open or states.done\n", n, what, clipList(names, maxUnknownShown, "states"))
	return err
}

type widths struct{ id, prio, state int }

func itemWidths(items []Item) widths {
	var w widths
	for _, it := range items {
		w.id = max(w.id, len(it.ID))
		w.prio = max(w.prio, len(it.Priority))
		w.state = max(w.state, len(it.State))
	}
	return w
}

func writeItem(out io.Writer, it Item, w widths) {
	prio := human.Quote(it.Priority)
	if prio == "" {
		prio = "-"
	}
	who := ""
	if it.Assignee != "" {
		who = "  assigned to " + human.Quote(it.Assignee)
	}
	fmt.Fprintf(out, "%-*s  %-*s  %-*s  %s  [%s]%s\n", w.id, human.Quote(it.ID), max(w.prio, 1), prio, w.state, human.Quote(it.State), human.Quote(it.Title), human.Quote(it.Kind), who)
}

// Suggestions is canon scope suggest: knowledge used beyond its scope by
// at least Min tasks or groups.
type Suggestions struct {
	Min         int               `json:"min"`
	Suggestions []ScopeSuggestion `json:"suggestions"`
}

// WriteText is a line per candidate and how to move one.
func (s *Suggestions) WriteText(w io.Writer) error {
	if len(s.Suggestions) == 0 {
		_, err := fmt.Fprintf(w, "no knowledge is used by %d or more tasks or groups beyond its scope\n", s.Min)
		return err
	}
	for _, g := range s.Suggestions {
		up := g.Up
		if g.Up == "group" {
			up = "group " + g.Group
		}
		what := "tasks"
		from := g.Scope + " knowledge"
		if g.Scope == "group" {
			what = "groups inherit it"
			from = "knowledge of group " + g.Group
		}
		fmt.Fprintf(w, "%s  %s (%s) → %s: %d %s: %s\n", human.Quote(g.ID), human.Quote(g.Title), human.Quote(from), human.Quote(up), len(g.Users), what, human.Quote(strings.Join(g.Users, ", ")))
	}
	_, err := fmt.Fprintln(w, "move one with canon promote WORKSET --scope group|global, or set its scope: in the frontmatter")
	return err
}
