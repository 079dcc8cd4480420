package graph

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/filter"
)

// RunOptions adjust one run of a template.
type RunOptions struct {
	Base     PackOptions // the configuration's defaults, under the template
	Seeds    []string    // when given, they replace the template's anchors
	Depth    *int        // overrides, from the command line
	Budget   *int
	MaxNodes *int
	// Now is the time "recent" anchors count back from; the CLI passes the
	// commit time of HEAD, so a run depends on the repository state only.
	Now func() time.Time
	// Workset names the workset an anchor "workset: $workset" means;
	// WorksetSeeds reads a workset's seeds (node keys). Nil where worksets
	// are not available.
	Workset      string
	WorksetSeeds func(ctx context.Context, name string) ([]string, error)
}

// ErrNoWorkset says a template anchors on a workset and none was given.
var ErrNoWorkset = errors.New("no workset given")

// RunTemplate runs a resolved template (see Library.Resolve).
func (g *Graph) RunTemplate(ctx context.Context, t *Template, ro RunOptions) (*Pack, error) {
	if errs := t.Validate(); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	opt := ro.Base
	if e := t.Query.Expansion; e != nil {
		if e.Depth != nil {
			opt.Depth = *e.Depth
		}
		if len(e.EdgeTypes) > 0 {
			opt.Edges = e.EdgeTypes
		}
		if e.Direction != "" {
			opt.Direction = Direction(e.Direction)
		}
		if e.MaxPerNode != nil {
			opt.MaxPerNode = *e.MaxPerNode
		}
	}
	if b := t.Query.Budget; b != nil {
		if b.MaxNodes != nil {
			opt.MaxNodes = *b.MaxNodes
		}
		if b.MaxTokens != nil {
			opt.Budget = *b.MaxTokens
		}
	}
	if ro.Depth != nil {
		opt.Depth = *ro.Depth
	}
	if ro.Budget != nil {
		opt.Budget = *ro.Budget
	}
	if ro.MaxNodes != nil {
		opt.MaxNodes = *ro.MaxNodes
	}
	var filters []*filter.Filter
	for _, f := range t.Query.Filters {
		cf, err := filter.Compile(f)
		if err != nil {
			return nil, err
		}
		filters = append(filters, cf)
	}
	var exclude []string
	if t.Query.Expansion != nil {
		exclude = t.Query.Expansion.ExcludeTypes
	}
	keep := g.keeper(filters, exclude)
	gen := g.newGenFilter(opt)

	var seeds []seed
	if len(ro.Seeds) > 0 {
		for _, s := range ro.Seeds {
			n, err := g.resolve(ctx, s)
			if err != nil {
				return nil, err
			}
			seeds = append(seeds, seed{node: n, source: SourceGiven})
		}
	} else {
		if len(t.Query.Anchors) == 0 {
			return nil, &TemplateError{Source: t.Source, Msg: fmt.Sprintf("template %s has no anchors; add some, or give --seed ID", t.Name)}
		}
		for i, a := range t.Query.Anchors {
			if a.Workset != "" {
				found, err := g.worksetAnchor(ctx, t, a, ro)
				if err != nil {
					return nil, err
				}
				seeds = append(seeds, found...)
				continue
			}
			found, err := g.anchor(ctx, a, filters, opt, ro.Now, gen)
			if err != nil {
				return nil, fmt.Errorf("%s: query.anchors[%d]: %w", t.Source, i, err)
			}
			seeds = append(seeds, found...)
		}
	}
	p, err := g.pack(ctx, seeds, opt, keep, t.Output.Sections, gen)
	if err != nil {
		return nil, err
	}
	p.Template = t.Name
	p.Title = "Query: " + t.Name
	p.Seeds = append([]string{}, ro.Seeds...)
	return p, nil
}

// worksetAnchor selects the seeds of the workset an anchor names.
func (g *Graph) worksetAnchor(ctx context.Context, t *Template, a Anchor, ro RunOptions) ([]seed, error) {
	name := a.Workset
	if name == WorksetParam {
		if ro.Workset == "" {
			return nil, fmt.Errorf("%w: template %s anchors on the workset given with --workset NAME (canon workset list names them)", ErrNoWorkset, t.Name)
		}
		name = ro.Workset
	}
	if ro.WorksetSeeds == nil {
		return nil, fmt.Errorf("%w: template %s anchors on workset %s, and worksets are not available here", ErrNoWorkset, t.Name, name)
	}
	keys, err := ro.WorksetSeeds(ctx, name)
	if err != nil {
		return nil, err
	}
	var out []seed
	for _, k := range keys {
		n, err := g.resolve(ctx, k)
		if err != nil {
			continue // a seed deleted since: the workset says it is stale
		}
		out = append(out, seed{node: n, source: SourceAnchor})
	}
	return out, nil
}

// keeper makes the check that expansion applies to candidates: every
// filter holds and the kind is not excluded. Nil when there is nothing to
// check.
func (g *Graph) keeper(filters []*filter.Filter, exclude []string) func(context.Context, []index.DocID) (map[index.DocID]bool, error) {
	if len(filters) == 0 && len(exclude) == 0 {
		return nil
	}
	return func(ctx context.Context, ids []index.DocID) (map[index.DocID]bool, error) {
		return g.st.DocsPassing(ctx, ids, filters, exclude)
	}
}

// anchor finds the documents one anchor selects, in its order; a search
// anchor leaves generated documents out (gen), a selecting one asks for
// what it selects.
func (g *Graph) anchor(ctx context.Context, a Anchor, filters []*filter.Filter, opt PackOptions, now func() time.Time, gen *genFilter) ([]seed, error) {
	limit := a.Limit
	if limit == 0 {
		limit = opt.MaxNodes
	}
	if limit <= 0 {
		limit = 1000
	}
	if a.Search != "" {
		return g.searchAnchor(ctx, a.Search, filters, limit, gen)
	}
	sel := index.DocSelect{Type: a.Type, Tag: a.Tag, State: a.State, Filters: filters,
		SortBy: a.SortBy, Desc: a.Order == "desc", Limit: limit}
	if a.ID != "" {
		n, err := g.resolve(ctx, a.ID)
		if err != nil {
			return nil, err
		}
		sel.Doc = &n.id
	}
	if a.Recent != "" {
		age, err := ParseAge(a.Recent)
		if err != nil {
			return nil, err
		}
		t := time.Now()
		if now != nil {
			t = now()
		}
		sel.Since = t.UTC().Add(-age).Format("2006-01-02")
	}
	if a.Filter != "" {
		f, err := filter.Compile(a.Filter)
		if err != nil {
			return nil, err
		}
		sel.Filter = f
	}
	ids, err := g.st.SelectDocs(ctx, sel)
	if err != nil {
		return nil, err
	}
	refs, err := g.st.DocRefs(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]seed, 0, len(ids))
	for _, id := range ids {
		out = append(out, seed{node: node{id: id, ref: refs[id]}, source: SourceAnchor})
	}
	return out, nil
}

// searchAnchor finds the documents a search anchor selects: the search's
// seeds that pass the template's filters.
func (g *Graph) searchAnchor(ctx context.Context, text string, filters []*filter.Filter, limit int, gen *genFilter) ([]seed, error) {
	found, err := g.searchSeeds(ctx, text, limit, gen)
	if err != nil {
		return nil, err
	}
	var ids []index.DocID
	for _, f := range found {
		ids = append(ids, f.id)
	}
	ok := map[index.DocID]bool{}
	if keep := g.keeper(filters, nil); keep != nil {
		if ok, err = keep(ctx, ids); err != nil {
			return nil, err
		}
	}
	var out []seed
	for i := range found {
		if len(filters) == 0 || ok[found[i].id] {
			out = append(out, seed{node: found[i].node, source: SourceSearch, search: &found[i]})
		}
	}
	return out, nil
}

// group puts entries into a template's output sections, sorts and limits
// each, and returns them in section order with what was left out.
func (g *Graph) group(ctx context.Context, entries []Entry, sections []OutputSection) ([]Entry, []Omitted, error) {
	omitted := []Omitted{}
	if len(sections) == 0 {
		return entries, omitted, nil
	}
	ids := make([]index.DocID, len(entries))
	for i, e := range entries {
		ids[i] = e.id
	}
	passes := make([]map[index.DocID]bool, len(sections)) // nil: no filter
	for i, s := range sections {
		if s.Filter == "" {
			continue
		}
		f, err := filter.Compile(s.Filter)
		if err != nil {
			return nil, nil, err
		}
		if passes[i], err = g.keeper([]*filter.Filter{f}, nil)(ctx, ids); err != nil {
			return nil, nil, err
		}
	}
	buckets := make([][]Entry, len(sections))
	for _, e := range entries {
		placed := false
		for i, s := range sections {
			if matchesKind(s.NodeTypes, e.Kind) && (passes[i] == nil || passes[i][e.id]) {
				e.Section = s.Name
				buckets[i] = append(buckets[i], e)
				placed = true
				break
			}
		}
		if !placed {
			omitted = append(omitted, Omitted{Key: e.Key, ID: e.ID, Title: e.Title, Score: e.Score, Reason: "no_section"})
		}
	}
	var out []Entry
	for i, s := range sections {
		b := buckets[i]
		if s.SortBy != "" && s.SortBy != "rank" && len(b) > 1 {
			vals, err := g.values(ctx, b, s.SortBy)
			if err != nil {
				return nil, nil, err
			}
			desc := s.Order == "desc"
			sort.SliceStable(b, func(x, y int) bool {
				vx, vy := vals[b[x].id], vals[b[y].id]
				if (vx == nil) != (vy == nil) {
					return vy == nil // missing values last
				}
				c := compareValues(vx, vy)
				if desc {
					return c > 0
				}
				return c < 0
			})
		}
		if s.Limit > 0 && len(b) > s.Limit {
			for _, e := range b[s.Limit:] {
				omitted = append(omitted, Omitted{Key: e.Key, ID: e.ID, Title: e.Title, Score: e.Score, Reason: "section_limit"})
			}
			b = b[:s.Limit]
		}
		out = append(out, b...)
	}
	return out, omitted, nil
}

func matchesKind(types []string, kind string) bool {
	if len(types) == 0 {
		return true
	}
	for _, t := range types {
		if strings.EqualFold(t, kind) {
			return true
		}
	}
	return false
}

// values reads one column or field of some entries.
func (g *Graph) values(ctx context.Context, entries []Entry, name string) (map[index.DocID]any, error) {
	ids := make([]index.DocID, len(entries))
	for i, e := range entries {
		ids[i] = e.id
	}
	return g.st.FieldValues(ctx, ids, name)
}

// compareValues orders two SQL values: numbers by value, anything else as
// text without case.
func compareValues(a, b any) int {
	fa, aNum := number(a)
	fb, bNum := number(b)
	if aNum && bNum {
		switch {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
		return 0
	}
	return strings.Compare(strings.ToLower(fmt.Sprint(a)), strings.ToLower(fmt.Sprint(b)))
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}
