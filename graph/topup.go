package graph

import (
	"context"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
)

// Reasons a section of the task is not quoted.
const (
	ReasonSectionBudget = "section_budget" // it did not fit in what the budget had left
	ReasonSectionWeight = "section_weight" // its heading weighs 0
)

// Unused says why a pack left part of its budget unused.
type Unused struct {
	Tokens int `json:"tokens"`
	// all_quoted: every section in reach is quoted; no_edges: so it is,
	// and no edge reaches the task (--depth reaches no further);
	// too_large: what is left does not fit whole.
	Reason string `json:"reason"`
}

// Unused reasons.
const (
	UnusedAllQuoted = "all_quoted"
	UnusedNoEdges   = "no_edges"
	UnusedTooLarge  = "too_large"
)

// unusedShare: a pack that leaves more than this share of its budget
// unused says why.
const unusedShare = 0.1

// topUp spends what a task's pack left of its budget on the sections its
// entries do not quote yet, by priority (the entry's score times the
// section's weight, so an ADR's decision before a task's worklog), each
// whole, as a scoped pack never cuts a quote. It then names the task's
// own sections still not quoted, and says why budget is left when more
// than a tenth is.
func (g *Graph) topUp(ctx context.Context, p *Pack, opt PackOptions) error {
	if len(p.Entries) == 0 {
		return nil
	}
	ids := make([]index.DocID, len(p.Entries))
	for i, e := range p.Entries {
		ids[i] = e.id
	}
	chunks, err := g.st.ChunksOf(ctx, ids)
	if err != nil {
		return err
	}
	cands, want, sections := topUpCandidates(p, chunks, opt)
	text, err := g.st.ChunkTexts(ctx, want)
	if err != nil {
		return err
	}
	chars := make([]int, len(p.Entries))
	for i := range p.Entries {
		chars[i] = entryChars(&p.Entries[i])
	}
	tooLarge := false
	for _, cd := range cands {
		e := &p.Entries[cd.entry]
		if tocText(text[cd.c.ID]) {
			if e.target {
				sections = append(sections, sectionOmitted(*e, cd.c, ReasonSectionTOC, 0))
			}
			continue
		}
		t, cut := clip(strings.Trim(text[cd.c.ID], "\n"), opt.ExcerptChars)
		if t == "" {
			continue
		}
		x := Excerpt{Heading: cd.c.Heading, Slug: cd.c.Slug, Path: e.Path, Line: cd.c.Line, EndLine: cd.c.EndLine, Text: t, Cut: cut}
		n := utf8.RuneCountInString(renderExcerpt(&x, true))
		delta := (chars[cd.entry]+n+3)/4 - (chars[cd.entry]+3)/4
		cost := e.Tokens + delta
		if opt.Budget > 0 && p.Tokens+delta > opt.Budget {
			tooLarge = true
			if e.target {
				sections = append(sections, sectionOmitted(*e, cd.c, ReasonSectionBudget, (n+3)/4))
			}
			continue
		}
		at := sort.Search(len(e.Excerpts), func(k int) bool { return e.Excerpts[k].Line > x.Line })
		e.Excerpts = append(e.Excerpts[:at], append([]Excerpt{x}, e.Excerpts[at:]...)...)
		chars[cd.entry] += n
		e.Tokens = cost
		p.Tokens += delta
		if u, ok := p.Scopes[e.Scope]; ok {
			u.Used += delta
			p.Scopes[e.Scope] = u
		}
	}
	sort.SliceStable(sections, func(a, b int) bool { return sections[a].Line < sections[b].Line })
	p.Omitted = append(p.Omitted, sections...)
	sayUnused(p, opt, tooLarge)
	return nil
}

// topUpCand is a section topUp may quote: its entry's index, the chunk,
// and its priority.
type topUpCand struct {
	entry int
	c     index.Chunk
	prio  float64
}

// topUpCandidates lists the sections of the pack's entries not yet quoted,
// by priority (the entry's score times the section's weight), with the
// chunk ids whose texts to read; the task's sections of weight 0 are
// named as left out.
func topUpCandidates(p *Pack, chunks map[index.DocID][]index.Chunk, opt PackOptions) (cands []topUpCand, want []index.ChunkID, sections []Omitted) {
	for i, e := range p.Entries {
		for _, c := range chunks[e.id] {
			if quotes(e.Excerpts, c.Line) || c.EndLine <= c.Line {
				continue
			}
			w := config.SectionWeight(opt.Weights.Sections, c.Slug)
			if w == 0 {
				if e.target {
					sections = append(sections, sectionOmitted(e, c, ReasonSectionWeight, 0))
				}
				continue
			}
			cands = append(cands, topUpCand{entry: i, c: c, prio: e.Score * w})
			want = append(want, c.ID)
		}
	}
	sort.SliceStable(cands, func(a, b int) bool {
		x, y := cands[a], cands[b]
		if x.prio != y.prio {
			return x.prio > y.prio
		}
		if x.entry != y.entry {
			return x.entry < y.entry
		}
		return x.c.Seq < y.c.Seq
	})
	return cands, want, sections
}

// sayUnused says why budget is left when more than a tenth
// (unusedShare) is: everything was quoted, what was left did not fit
// (tooLarge), or the task has no edges.
func sayUnused(p *Pack, opt PackOptions, tooLarge bool) {
	if left := opt.Budget - p.Tokens; opt.Budget > 0 && float64(left) > unusedShare*float64(opt.Budget) {
		p.Unused = &Unused{Tokens: left, Reason: UnusedAllQuoted}
		switch {
		case tooLarge || len(p.Listed) > 0:
			p.Unused.Reason = UnusedTooLarge
		case p.lone:
			p.Unused.Reason = UnusedNoEdges
		}
	}
}

// quotes reports whether one of the excerpts holds the line.
func quotes(xs []Excerpt, line int) bool {
	for _, x := range xs {
		if x.Line <= line && line <= x.EndLine {
			return true
		}
	}
	return false
}

// entryChars is the length of the Markdown an entry of a scoped pack
// renders to, which its token estimate counts.
func entryChars(e *Entry) int {
	n := utf8.RuneCountInString(renderHead(e, true))
	for j := range e.Excerpts {
		n += utf8.RuneCountInString(renderExcerpt(&e.Excerpts[j], true))
	}
	return n
}

func sectionOmitted(e Entry, c index.Chunk, reason string, tokens int) Omitted {
	return Omitted{Key: e.Key, ID: e.ID, Title: e.Title, Score: e.Score, Reason: reason, Section: c.Heading, Line: c.Line, Tokens: tokens}
}
