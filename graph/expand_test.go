package graph

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
)

// memGraph is a neighbourhood in memory: documents named by key (row id
// the position in keys plus one) and links "SRC type DST", each source's
// in the order given.
type memGraph struct {
	keys  []string
	id    map[string]index.DocID
	all   map[index.DocID][]link
	reads int // links calls: one per depth
}

func newMemGraph(t *testing.T, keys string, links ...string) *memGraph {
	t.Helper()
	g := &memGraph{keys: strings.Fields(keys), id: map[string]index.DocID{}, all: map[index.DocID][]link{}}
	for i, k := range g.keys {
		g.id[k] = index.DocID(i + 1)
	}
	seq := map[index.DocID]int{}
	for _, l := range links {
		f := strings.Fields(l)
		src, ok1 := g.id[f[0]]
		dst, ok2 := g.id[f[2]]
		if len(f) != 3 || !ok1 || !ok2 {
			t.Fatalf("bad link %q", l)
		}
		seq[src]++
		out := link{At: src, Other: dst, OtherKey: f[2], Type: f[1], Seq: seq[src], Line: seq[src] + 1}
		in := out
		in.At, in.Other, in.OtherKey, in.Incoming = dst, src, f[0], true
		g.all[src] = append(g.all[src], out)
		g.all[dst] = append(g.all[dst], in)
	}
	return g
}

func (g *memGraph) links(_ context.Context, ids []index.DocID, types []string, dir Direction) (map[index.DocID][]link, error) {
	g.reads++
	out := map[index.DocID][]link{}
	for _, id := range ids {
		for _, l := range g.all[id] {
			if (len(types) == 0 || slices.Contains(types, l.Type)) && (dir == Both || dir == dirOf(l)) {
				out[id] = append(out[id], l)
			}
		}
	}
	sortLinks(out)
	return out, nil
}

func (g *memGraph) refs(_ context.Context, ids []index.DocID) (map[index.DocID]index.DocRef, error) {
	out := map[index.DocID]index.DocRef{}
	for _, id := range ids {
		k := g.keys[id-1]
		out[id] = index.DocRef{Key: k, ID: strings.ToUpper(k)}
	}
	return out, nil
}

func (g *memGraph) seeds(keys ...string) []node {
	var out []node
	for _, k := range keys {
		out = append(out, node{id: g.id[k], ref: index.DocRef{Key: k, ID: strings.ToUpper(k)}})
	}
	return out
}

// reachedLines writes an expansion as "key@depth<FROM/type/dir" lines.
func reachedLines(ex *Expansion) []string {
	var out []string
	for _, r := range ex.Nodes {
		line := fmt.Sprintf("%s@%d", r.Key, r.Depth)
		if r.Via != nil {
			line += fmt.Sprintf("<%s/%s/%s", r.Via.FromID, r.Via.Type, r.Via.Direction)
		}
		out = append(out, line)
	}
	return out
}

func TestBreadthFirst(t *testing.T) {
	// s is linked to everything; a and b lead one step further.
	links := []string{
		"s references r1", "s relates x", "s parent p", "a blocks s", "s references r2",
		"p parent a", "x relates b", "b references deep",
	}
	keys := "s r1 x p a r2 b deep t"
	tests := []struct {
		name   string
		seeds  []string
		opt    ExpandOptions
		keep   []string // when set, only these may join
		want   []string
		capped bool // NodeCapped
		fanout int  // FanoutCapped
	}{
		{
			name:  "one hop: structure first, out before in, then source order",
			seeds: []string{"s"},
			opt:   ExpandOptions{Depth: 1, Direction: Both},
			want:  []string{"s@0", "p@1<S/parent/out", "a@1<S/blocks/in", "x@1<S/relates/out", "r1@1<S/references/out", "r2@1<S/references/out"},
		},
		{
			name:  "two hops: each node's neighbours after all of the depth before",
			seeds: []string{"s"},
			opt:   ExpandOptions{Depth: 2, Direction: Both, Edges: []string{EdgeParent, EdgeRelates}},
			want:  []string{"s@0", "p@1<S/parent/out", "x@1<S/relates/out", "a@2<P/parent/out", "b@2<X/relates/out"},
		},
		{
			name:  "out only",
			seeds: []string{"s"},
			opt:   ExpandOptions{Depth: 1, Direction: Out, Edges: []string{EdgeBlocks, EdgeParent}},
			want:  []string{"s@0", "p@1<S/parent/out"},
		},
		{
			name:   "max per node keeps the first in link order and counts the capped node",
			seeds:  []string{"s"},
			opt:    ExpandOptions{Depth: 1, Direction: Both, MaxPerNode: 2},
			want:   []string{"s@0", "p@1<S/parent/out", "a@1<S/blocks/in"},
			fanout: 1,
		},
		{
			name:   "max nodes counts the seeds and stops everything",
			seeds:  []string{"s"},
			opt:    ExpandOptions{Depth: 3, Direction: Both, MaxNodes: 3},
			want:   []string{"s@0", "p@1<S/parent/out", "a@1<S/blocks/in"},
			capped: true,
		},
		{
			name:   "max nodes can stop among the seeds",
			seeds:  []string{"t", "deep", "s"},
			opt:    ExpandOptions{Depth: 1, MaxNodes: 2},
			want:   []string{"t@0", "deep@0"},
			capped: true,
		},
		{
			name:  "duplicate seeds count once, in the order first given",
			seeds: []string{"x", "s", "x"},
			opt:   ExpandOptions{Depth: 1, Direction: Both, Edges: []string{EdgeRelates}},
			want:  []string{"x@0", "s@0", "b@1<X/relates/out"},
		},
		{
			name:  "a rejected node is neither listed nor expanded through",
			seeds: []string{"s"},
			opt:   ExpandOptions{Depth: 2, Direction: Both, Edges: []string{EdgeParent, EdgeRelates}},
			keep:  []string{"x", "a", "b"},
			want:  []string{"s@0", "x@1<S/relates/out", "b@2<X/relates/out"},
		},
		{
			name:  "depth 0 is the seeds",
			seeds: []string{"s"},
			opt:   ExpandOptions{Depth: 0},
			want:  []string{"s@0"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newMemGraph(t, keys, links...)
			opt := tt.opt
			if tt.keep != nil {
				opt.keep = func(_ context.Context, ids []index.DocID) (map[index.DocID]bool, error) {
					ok := map[index.DocID]bool{}
					for _, id := range ids {
						ok[id] = slices.Contains(tt.keep, g.keys[id-1])
					}
					return ok, nil
				}
			}
			ex, err := breadthFirst(context.Background(), g, g.seeds(tt.seeds...), opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := reachedLines(ex); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("reached\n  %q\nwant\n  %q", got, tt.want)
			}
			if ex.NodeCapped != tt.capped || ex.FanoutCapped != tt.fanout {
				t.Errorf("node capped %v, fan-out capped %d; want %v, %d", ex.NodeCapped, ex.FanoutCapped, tt.capped, tt.fanout)
			}
		})
	}
}

// TestBreadthFirstCancelled stops between depths when the context ends.
func TestBreadthFirstCancelled(t *testing.T) {
	g := newMemGraph(t, "a b", "a relates b")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := breadthFirst(ctx, g, g.seeds("a"), ExpandOptions{Depth: 1}); err == nil {
		t.Fatal("no error from a cancelled expansion")
	}
	if g.reads != 0 {
		t.Errorf("%d reads after the context ended", g.reads)
	}
}
