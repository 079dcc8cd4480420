package usecase

import (
	"context"
	"fmt"
	"strings"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
)

// The use cases canon's two front ends share beyond one call (ADR-0022):
// the CLI's command and the MCP tool of the same action call the same
// function here, which checks the arguments, fills in the defaults from
// the configuration and answers with the result type both render. The
// references they take are already read in the front end's frame
// (Repo.Ref for a command line, Repo.RootRef for an agent).

// ContextArgs is what canon context and the MCP tool context ask: a
// search and seeds, or the task For and its scope; the options laid over
// the configuration's (context:); Generated, when set, whether generated
// documents may be seeds and neighbours.
type ContextArgs struct {
	Query     string
	Seeds     []string
	For       string
	Overrides graph.Overrides
	Generated *bool
}

// Context builds a context pack: Graph.Pack from a search and seeds, or
// Graph.ScopedPack for one task with the knowledge in its scope.
func Context(ctx context.Context, s *gitsync.Session, a ContextArgs) (*graph.Pack, error) {
	switch {
	case a.For != "" && (a.Query != "" || len(a.Seeds) > 0):
		return nil, &gitsync.ArgsError{Msg: "--for builds the pack of one task; give it without a query and without --seed"}
	case a.For == "" && a.Query == "" && len(a.Seeds) == 0:
		return nil, &gitsync.ArgsError{Msg: "context needs a query or --seed ID; for example canon context \"webhook retries\" --seed KB-TSK-0007"}
	}
	opt, err := graph.PackOptionsOf(s.Cfg).With(a.Overrides)
	if err != nil {
		return nil, err
	}
	if a.Generated != nil {
		opt.IncludeGenerated = *a.Generated
	}
	g := graph.New(s.Store)
	if a.For == "" {
		opt.Query, opt.Seeds = a.Query, a.Seeds
		return g.Pack(ctx, opt)
	}
	return g.ScopedPack(ctx, graph.ScopedArgs{
		For: a.For, Options: opt, Shares: s.Cfg.Context.Scopes,
		CommitPaths: func(ctx context.Context, t index.DocRef) ([]string, error) { return s.Repo.CommitPaths(ctx, t.ID, 200) },
	})
}

// Neighbors lists the documents around ref: depth, edges and direction
// from the configuration's context: unless o sets them; the caps only
// when o sets them (no cap by default).
func Neighbors(ctx context.Context, s *gitsync.Session, ref string, o graph.Overrides) (*graph.Neighbors, error) {
	opt, err := graph.PackOptionsOf(s.Cfg).With(o)
	if err != nil {
		return nil, err
	}
	orZero := func(v *int) int {
		if v == nil {
			return 0
		}
		return *v
	}
	return graph.New(s.Store).Neighbors(ctx, ref, graph.ExpandOptions{
		Depth: opt.Depth, Edges: opt.Edges, Direction: opt.Direction,
		MaxPerNode: orZero(o.MaxPerNode), MaxNodes: orZero(o.MaxNodes),
	})
}

// WorkArgs is what canon ready and canon blocked, and their MCP tools,
// ask: the kinds (default: the work kinds), the first Limit items
// (default work.limit) or All, and Here to leave out what other branches
// and worktrees do.
type WorkArgs struct {
	Kinds []string
	Limit int
	All   bool
	Here  bool
}

// Work is the ready or blocked question for Graph.Ready and Graph.Blocked.
func Work(ctx context.Context, s *gitsync.Session, a WorkArgs) (graph.WorkQuery, error) {
	switch {
	case a.Limit < 0:
		return graph.WorkQuery{}, &gitsync.ArgsError{Msg: fmt.Sprintf("--limit is %d; give a positive number, or --all for every item", a.Limit)}
	case a.Limit > 0 && a.All:
		return graph.WorkQuery{}, &gitsync.ArgsError{Msg: "--limit and --all say different things; give one"}
	}
	q := graph.WorkQuery{WorkOptions: graph.WorkOptionsOf(s.Cfg, a.Kinds), Limit: a.Limit, All: a.All}
	var err error
	q.Elsewhere, err = Elsewhere(ctx, s, a.Here)
	return q, err
}

// VersionsOn adds a document's versions on other branches and worktrees
// (canon show --branches, and the MCP tool show, which always adds them).
func VersionsOn(ctx context.Context, s *gitsync.Session, v *index.DocView) (*graph.Versions, error) {
	over, st, err := s.Overlay(ctx, "", v.Path)
	if err != nil {
		return nil, err
	}
	return graph.VersionsOf(v, over, st), nil
}

// ClipText keeps about budget tokens (4 bytes each) of a document's
// section text, in order: the section that crosses the budget is cut at
// a line's end, those after it keep their headings and lose their text,
// and the view says how many tokens it left out. 0 keeps all.
func ClipText(v *index.DocView, budget int) {
	total := 0
	for _, sec := range v.Sections {
		total += len(sec.Text)
	}
	if budget <= 0 || budget > total/4 { // compared before multiplying: a budget of 2^61 must not wrap
		return
	}
	room, left := budget*4, 0
	for i := range v.Sections {
		t := v.Sections[i].Text
		switch {
		case len(t) <= room:
			room -= len(t)
		default:
			cut := strings.LastIndexByte(t[:room], '\n') + 1
			v.Sections[i].Text = t[:cut]
			left += len(t) - cut
			room = 0
		}
	}
	v.TextLeftOut = (left + 3) / 4
}
