package graph

import (
	"context"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/search"
)

// Generated documents (dashboards, index stubs, generated briefs: what the
// index marks in docs.generated, and what context.exclude names) list many
// items' titles, so a search finds them and every item they list links to
// them. Packs take them neither as search seeds nor as neighbours, unless
// asked (context.include_generated); a given seed is taken whatever it is.
// What was left out is named in the pack's omitted list (ADR-0036).

// GeneratedExclude is the reason of a document context.exclude names.
const GeneratedExclude = "exclude"

// GeneratedTemplate is the reason of a document templates: names: a file
// to copy, whose values are placeholders.
const GeneratedTemplate = "template"

// ReasonGenerated is the omitted reason of a generated document.
const ReasonGenerated = "generated"

// genFilter tells generated documents apart and remembers those it left
// out, in the order it met them. A nil filter keeps everything.
type genFilter struct {
	g         *Graph
	globs     []string
	templates []string
	left      []index.DocID
	why       map[index.DocID]string
}

// newGenFilter is the filter of a pack's options; nil when generated
// documents are included.
func (g *Graph) newGenFilter(opt PackOptions) *genFilter {
	if opt.IncludeGenerated {
		return nil
	}
	return &genFilter{g: g, globs: opt.Exclude, templates: opt.Templates, why: map[index.DocID]string{}}
}

// generated says which of ids are generated, and why.
func (f *genFilter) generated(ctx context.Context, ids []index.DocID) (map[index.DocID]string, error) {
	if f == nil || len(ids) == 0 {
		return nil, nil
	}
	out, err := f.g.st.Generated(ctx, ids)
	if err != nil || len(f.globs) == 0 && len(f.templates) == 0 {
		return out, err
	}
	var rest []index.DocID
	for _, id := range ids {
		if _, ok := out[id]; !ok {
			rest = append(rest, id)
		}
	}
	refs, err := f.g.st.DocRefs(ctx, rest)
	if err != nil {
		return nil, err
	}
	for _, id := range rest {
		switch p := refs[id].Path; {
		case excluded(f.globs, p):
			out[id] = GeneratedExclude
		case config.MatchTemplate(f.templates, p):
			out[id] = GeneratedTemplate
		}
	}
	return out, nil
}

// excluded reports a path that one of the context.exclude globs matches.
func excluded(globs []string, p string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(strings.TrimPrefix(g, "./"), p); ok {
			return true
		}
	}
	return false
}

// note remembers documents left out.
func (f *genFilter) note(ids []index.DocID, why map[index.DocID]string) {
	for _, id := range ids {
		if r, ok := why[id]; ok {
			if _, seen := f.why[id]; !seen {
				f.left = append(f.left, id)
			}
			f.why[id] = r
		}
	}
}

// keep wraps an expansion's keep (nil: keep all) so that generated
// candidates are rejected first, and noted.
func (f *genFilter) keep(next func(context.Context, []index.DocID) (map[index.DocID]bool, error)) func(context.Context, []index.DocID) (map[index.DocID]bool, error) {
	if f == nil {
		return next
	}
	return func(ctx context.Context, ids []index.DocID) (map[index.DocID]bool, error) {
		why, err := f.generated(ctx, ids)
		if err != nil {
			return nil, err
		}
		f.note(ids, why)
		var rest []index.DocID
		for _, id := range ids {
			if _, gen := why[id]; !gen {
				rest = append(rest, id)
			}
		}
		if next != nil {
			return next(ctx, rest)
		}
		ok := make(map[index.DocID]bool, len(rest))
		for _, id := range rest {
			ok[id] = true
		}
		return ok, nil
	}
}

// dropMatches leaves the sections of generated documents out of a
// search's matches.
func (f *genFilter) dropMatches(ctx context.Context, ms []search.ChunkMatch) ([]search.ChunkMatch, error) {
	if f == nil || len(ms) == 0 {
		return ms, nil
	}
	var ids []index.DocID
	seen := map[index.DocID]bool{}
	for _, m := range ms {
		if !seen[m.Doc] {
			seen[m.Doc] = true
			ids = append(ids, m.Doc)
		}
	}
	why, err := f.generated(ctx, ids)
	if err != nil || len(why) == 0 {
		return ms, err
	}
	f.note(ids, why)
	kept := make([]search.ChunkMatch, 0, len(ms))
	for _, m := range ms {
		if _, gen := why[m.Doc]; !gen {
			kept = append(kept, m)
		}
	}
	return kept, nil
}

// omitted names what the filter left out, by node key, except documents
// that are in the pack all the same (a given seed).
func (f *genFilter) omitted(ctx context.Context, in map[string]bool) ([]Omitted, error) {
	if f == nil || len(f.left) == 0 {
		return nil, nil
	}
	refs, err := f.g.st.DocRefs(ctx, f.left)
	if err != nil {
		return nil, err
	}
	var out []Omitted
	for _, id := range f.left {
		r := refs[id]
		if in[r.Key] {
			continue
		}
		out = append(out, Omitted{Key: r.Key, ID: r.ID, Title: r.Title, Reason: ReasonGenerated, Generated: f.why[id]})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}
