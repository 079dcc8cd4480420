package graph

import (
	"context"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/markdown"
)

// TokenEstimate is how a pack estimates tokens: one token per four
// characters (Unicode code points), rounded up, counted on the Markdown
// each entry renders to. It is close for English prose with GPT- and
// Claude-style tokenizers and errs on the high side for code and ids.
const TokenEstimate = "ceil(characters / 4)"

// Tokens estimates the tokens of a text; see TokenEstimate.
func Tokens(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }

// PackOptions shape a context pack. OptionsFrom fills them from the
// configuration; the CLI's flags override single fields.
type PackOptions struct {
	Query        string    // full-text search for seeds ("" for none)
	Seeds        []string  // references to seed documents
	Depth        int       // hops from the seeds
	Edges        []string  // edge types followed; none means all
	Direction    Direction // which way
	MaxPerNode   int       // new neighbours one node may add (0: no cap)
	MaxNodes     int       // entries, seeds included (0: no cap)
	Budget       int       // estimated tokens (0: no limit)
	SearchSeeds  int       // documents search adds as seeds
	Related      int       // documents a task's pack with no neighbour finds by its title
	Sections     int       // sections a seed quotes; a neighbour quotes one
	ExcerptChars int       // a quoted section is cut near this many characters
	Weights      config.Weights
	// Essential sections (headings) a task's pack quotes from the task first.
	Essential []string
	// Exclude globs name documents treated as generated; IncludeGenerated
	// lets generated documents be seeds and neighbours.
	Exclude          []string
	IncludeGenerated bool
	// Templates are the configuration's templates: (files to copy, not
	// documents) and fixtures: (test fixtures' copies of documents): left
	// out as generated documents are.
	Templates []string
}

// OptionsFrom reads the context section of the configuration.
func OptionsFrom(c config.Context) PackOptions {
	return PackOptions{
		Depth: c.Depth, Edges: c.Edges, Direction: Direction(c.Direction),
		MaxPerNode: c.MaxPerNode, MaxNodes: c.MaxNodes, Budget: c.Budget,
		SearchSeeds: c.SearchSeeds, Related: c.Related, Sections: c.Sections, ExcerptChars: c.ExcerptChars,
		Weights: c.Weights, Essential: c.Essential, Exclude: c.Exclude, IncludeGenerated: c.IncludeGenerated,
	}
}

// PackOptionsOf is OptionsFrom(cfg.Context) with the repository's
// templates and test fixtures (config.Templates, config.Fixtures) left out
// of packs too.
func PackOptionsOf(cfg *config.Config) PackOptions {
	o := OptionsFrom(cfg.Context)
	o.Templates = append(append([]string(nil), cfg.Templates...), cfg.Fixtures...)
	return o
}

// Pack is a context pack: ranked entries, each saying why it is there and
// quoting the sections that matter, within a token budget. Its JSON shape
// is documented in docs/context-pack.md.
type Pack struct {
	Title         string       `json:"title"`
	Query         string       `json:"query,omitempty"`
	Seeds         []string     `json:"seeds"`
	Template      string       `json:"template,omitempty"`
	Settings      PackSettings `json:"settings"`
	TokenEstimate string       `json:"token_estimate"`
	Tokens        int          `json:"tokens"`
	Truncated     bool         `json:"truncated"`
	NodeCapped    bool         `json:"node_capped"`
	FanoutCapped  int          `json:"fanout_capped"`
	Sections      []string     `json:"sections,omitempty"`
	Entries       []Entry      `json:"entries"`
	Omitted       []Omitted    `json:"omitted"`
	// A scoped pack (canon context --for): the task it is for, how each
	// scope used its share, and what did not fit whole (named, not quoted).
	For    string              `json:"for,omitempty"`
	Scopes map[string]ScopeUse `json:"scopes,omitempty"`
	Listed []Listed            `json:"listed,omitempty"`
	// Unused: a task's pack that left more than a tenth of its budget
	// unused says how much and why.
	Unused *Unused `json:"unused,omitempty"`

	lone bool // a task's pack: no edge reaches the task
}

// PackSettings are the bounds a pack was built with.
type PackSettings struct {
	Depth      int       `json:"depth"`
	Edges      []string  `json:"edges"`
	Direction  Direction `json:"direction"`
	MaxPerNode int       `json:"max_per_node"`
	MaxNodes   int       `json:"max_nodes"`
	Budget     int       `json:"budget"`
}

// Entry is one document in a pack.
type Entry struct {
	Rank int `json:"rank"`
	index.DocRef
	Section  string    `json:"section,omitempty"` // a template's output section
	Scope    string    `json:"scope,omitempty"`   // in a scoped pack: task, group, global or path
	Score    float64   `json:"score"`
	Why      Why       `json:"why"`
	Excerpts []Excerpt `json:"excerpts"`
	Tokens   int       `json:"tokens"`

	id      index.DocID
	base    float64
	hits    []chunkHit
	order   int // discovery order, the last tie-break
	isGiven bool
	found   int  // a search seed's place in the search, from 1 (0: not one)
	after   int  // a document a named seed's words ask for: that seed's found, when before its own (0: none)
	target  bool // the task of a task's pack: it quotes its essential sections first
}

// Why says why an entry is in a pack: it is a seed (given, found by the
// search, or a template's anchor), or a neighbour reached by an edge.
type Why struct {
	Reason string `json:"reason"`           // seed, neighbour or scope
	Source string `json:"source,omitempty"` // seed: given, search or anchor
	Scope  string `json:"scope,omitempty"`  // scope: the scope that brought it
	// Scope group: the group it belongs to, and the groups from the task's
	// own to that one along depends_on.
	Group     string   `json:"group,omitempty"`
	GroupPath []string `json:"group_path,omitempty"`
	Matched   []string `json:"matched,omitempty"`
	BM25      *float64 `json:"bm25,omitempty"` // the best matching section's bm25 (lower is better)
	Depth     int      `json:"depth"`
	// A neighbour's edge: Direction out means From → this entry.
	Edge      string    `json:"edge,omitempty"`
	Direction Direction `json:"direction,omitempty"`
	From      string    `json:"from,omitempty"`
	FromID    string    `json:"from_id,omitempty"`
}

// Excerpt quotes one section of a document.
type Excerpt struct {
	Heading string `json:"heading"` // "" for the text before the first heading
	Slug    string `json:"slug"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
	EndLine int    `json:"end_line"`
	Text    string `json:"text"`
	Cut     bool   `json:"cut,omitempty"` // the text stops before the section does
}

// Omitted names what a pack left out and why: an entry the budget or a
// template section's limit left out, a generated document, or a section
// of the task a task's pack did not quote.
type Omitted struct {
	Key   string  `json:"key"`
	ID    string  `json:"id"`
	Title string  `json:"title"`
	Score float64 `json:"score"`
	// budget, section_limit, no_section, generated; for a section:
	// section_budget (it did not fit) or section_weight (it weighs 0).
	Reason string `json:"reason"`
	// Generated: why the document counts as generated (marker, kano_build,
	// path, link_list or exclude).
	Generated string `json:"generated,omitempty"`
	// A section left out: its heading, its first line and what it would
	// have cost.
	Section string `json:"section,omitempty"`
	Line    int    `json:"line,omitempty"`
	Tokens  int    `json:"tokens,omitempty"`
}

// Reasons.
const (
	ReasonSeed      = "seed"
	ReasonNeighbour = "neighbour"
	SourceGiven     = "given"
	SourceSearch    = "search"
	SourceAnchor    = "anchor"
)

// seed is a starting point of a pack.
type seed struct {
	node
	source string
	search *searchSeed
}

// Pack builds a context pack from a search and/or given seeds.
func (g *Graph) Pack(ctx context.Context, opt PackOptions) (*Pack, error) {
	var seeds []seed
	for _, s := range opt.Seeds {
		n, err := g.resolve(ctx, s)
		if err != nil {
			return nil, err
		}
		seeds = append(seeds, seed{node: n, source: SourceGiven})
	}
	gen := g.newGenFilter(opt)
	found, err := g.searchSeeds(ctx, opt.Query, opt.SearchSeeds, gen)
	if err != nil {
		return nil, err
	}
	for i := range found {
		seeds = append(seeds, seed{node: found[i].node, source: SourceSearch, search: &found[i]})
	}
	p, err := g.pack(ctx, seeds, opt, nil, nil, gen)
	if err != nil {
		return nil, err
	}
	p.Query = opt.Query
	p.Seeds = append([]string{}, opt.Seeds...)
	switch {
	case opt.Query != "":
		p.Title = "Context: " + opt.Query
	default:
		p.Title = "Context: " + strings.Join(opt.Seeds, ", ")
	}
	return p, nil
}

// pack expands from the seeds, ranks, groups into a template's sections
// (when there are any) and fills the budget; gen leaves generated
// neighbours out and names what it left out.
func (g *Graph) pack(ctx context.Context, seeds []seed, opt PackOptions, keep func(context.Context, []index.DocID) (map[index.DocID]bool, error), sections []OutputSection, gen *genFilter) (*Pack, error) {
	if opt.Direction == "" {
		opt.Direction = Both
	}
	p := &Pack{
		Seeds: []string{}, TokenEstimate: TokenEstimate, Entries: []Entry{}, Omitted: []Omitted{},
		Settings: PackSettings{Depth: opt.Depth, Edges: opt.Edges, Direction: opt.Direction,
			MaxPerNode: opt.MaxPerNode, MaxNodes: opt.MaxNodes, Budget: opt.Budget},
	}
	if p.Settings.Edges == nil {
		p.Settings.Edges = []string{}
	}
	// A document both given and found keeps the first reason, and the
	// search's matches.
	var nodes []node
	bySeed := map[index.DocID]*seed{}
	for i := range seeds {
		s := &seeds[i]
		if prev, ok := bySeed[s.id]; ok {
			if prev.search == nil {
				prev.search = s.search
			}
			continue
		}
		bySeed[s.id] = s
		nodes = append(nodes, s.node)
	}
	ex, err := g.expand(ctx, nodes, ExpandOptions{Depth: opt.Depth, Edges: opt.Edges, Direction: opt.Direction,
		MaxPerNode: opt.MaxPerNode, MaxNodes: opt.MaxNodes, keep: gen.keep(keep)})
	if err != nil {
		return nil, err
	}
	p.NodeCapped, p.FanoutCapped = ex.NodeCapped, ex.FanoutCapped

	entries := g.score(ex, bySeed, opt.Weights)
	entries, p.Omitted, err = g.group(ctx, entries, sections)
	if err != nil {
		return nil, err
	}
	for _, s := range sections {
		p.Sections = append(p.Sections, s.Name)
	}
	if err := g.excerpts(ctx, entries, opt); err != nil {
		return nil, err
	}
	g.fill(p, entries, opt.Budget, len(sections) > 0)
	return p, g.omitGenerated(ctx, p, gen)
}

// omitGenerated adds to the pack's omitted list the generated documents
// gen left out.
func (g *Graph) omitGenerated(ctx context.Context, p *Pack, gen *genFilter) error {
	in := map[string]bool{}
	for _, e := range p.Entries {
		in[e.Key] = true
	}
	left, err := gen.omitted(ctx, in)
	p.Omitted = append(p.Omitted, left...)
	return err
}

// score computes each reached node's score: a base (a given seed or an
// anchor 1; a search seed its bm25 relative to the best hit, times the
// weight of its best section; a neighbour its parent's base × decay × the
// edge's weight) times the weights of its kind and state. Entries are
// ordered given seeds first, then the search's seeds in the search's
// order (the pack leads with what canon search ranks first: the weights
// never push a better hit below a worse one, ADR-0047), then the rest by
// score, depth and key.
func (g *Graph) score(ex *Expansion, seeds map[index.DocID]*seed, w config.Weights) []Entry {
	best := 0.0
	for _, s := range seeds {
		if s.search != nil && s.search.bm25 < best {
			best = s.search.bm25
		}
	}
	base := map[string]float64{}
	after := map[index.DocID]int{} // a named seed's related documents → its place in the search
	for _, s := range seeds {
		if s.search == nil || s.source != SourceSearch {
			continue
		}
		for _, id := range s.search.related {
			if at, ok := after[id]; !ok || at > s.search.pos+1 {
				after[id] = s.search.pos + 1
			}
		}
	}
	entries := make([]Entry, 0, len(ex.Nodes))
	for i, r := range ex.Nodes {
		e := Entry{DocRef: r.DocRef, id: r.id, order: i, Excerpts: []Excerpt{}}
		e.Why.Depth = r.Depth
		if s, ok := seeds[r.id]; ok {
			e.Why.Reason, e.Why.Source = ReasonSeed, s.source
			e.base = 1
			e.isGiven = s.source != SourceSearch
			if s.source == SourceSearch {
				e.found = s.search.pos + 1
			}
			if h := s.search; h != nil {
				b := round4(h.bm25)
				e.Why.BM25, e.Why.Matched, e.hits = &b, h.matched, h.chunks
				if s.source == SourceSearch {
					rel := 1.0
					if best < 0 {
						rel = h.bm25 / best
					}
					e.base = rel * config.SectionWeight(w.Sections, h.chunks[0].slug)
				}
			}
		} else {
			v := r.Via
			e.Why.Reason = ReasonNeighbour
			e.Why.Edge, e.Why.Direction, e.Why.From, e.Why.FromID = v.Type, v.Direction, v.From, v.FromID
			e.base = base[v.From] * w.Decay * config.Weight(w.Edges, v.Type)
		}
		if at := after[r.id]; at > 0 && (e.found == 0 || at < e.found) {
			e.after = at
		}
		base[e.Key] = e.base
		e.weigh(w)
		entries = append(entries, e)
	}
	sort.SliceStable(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if a.isGiven != b.isGiven {
			return a.isGiven
		}
		if pa, pb := a.place(), b.place(); pa != pb {
			return pa > 0 && (pb == 0 || pa < pb)
		}
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.Why.Depth != b.Why.Depth {
			return a.Why.Depth < b.Why.Depth
		}
		return a.Key < b.Key
	})
	return entries
}

// place orders the search's seeds and the documents a named seed's words
// ask for (its blockers, its parent: after it, ADR-0073): the seed found
// k-th at 2k, those documents at 2k+1 (a seed found after k too); 0 for
// any other entry, which comes after them.
func (e *Entry) place() int {
	switch {
	case e.after > 0:
		return 2*e.after + 1
	case e.found > 0:
		return 2 * e.found
	}
	return 0
}

// excerpts picks and reads the sections each entry quotes: a search seed
// its matching sections (best first, up to opt.Sections); another seed its
// opt.Sections heaviest sections; a neighbour its heaviest one. Sections
// weighing 0 are never quoted; quotes appear in document order.
func (g *Graph) excerpts(ctx context.Context, entries []Entry, opt PackOptions) error {
	if len(entries) == 0 {
		return nil
	}
	ids := make([]index.DocID, len(entries))
	for i, e := range entries {
		ids[i] = e.id
	}
	chunks, err := g.st.ChunksOf(ctx, ids)
	if err != nil {
		return err
	}
	chosen := make([][]index.Chunk, len(entries))
	subs := map[index.ChunkID][]index.Chunk{} // an essential section of the task: the sections under it
	text := map[index.ChunkID]string{}
	toc := map[index.ChunkID]bool{} // tables of contents: never chosen
	// A chosen section that turns out to be a table of contents is
	// replaced by the next choice: one more pass, rarely two.
	for pass := 0; pass < 3; pass++ {
		var want []index.ChunkID
		for i, e := range entries {
			chosen[i] = pickSections(e, chunks[e.id], opt, toc)
			if e.target && pass == 0 {
				for _, part := range essentialOf(chunks[e.id], opt.Essential) {
					subs[part.head.ID] = part.subs
					for _, c := range part.subs {
						want = append(want, c.ID)
					}
				}
			}
			for _, c := range chosen[i] {
				if _, read := text[c.ID]; !read {
					want = append(want, c.ID)
				}
			}
		}
		if len(want) == 0 {
			break
		}
		got, err := g.st.ChunkTexts(ctx, want)
		if err != nil {
			return err
		}
		found := false
		for _, id := range want {
			text[id] = got[id]
		}
		for i := range entries {
			for _, c := range chosen[i] {
				if _, essential := subs[c.ID]; !essential && !toc[c.ID] && tocText(text[c.ID]) {
					toc[c.ID], found = true, true
				}
			}
		}
		if !found {
			break
		}
	}
	for i := range entries {
		for _, c := range chosen[i] {
			limit, body, end := opt.ExcerptChars, strings.Trim(text[c.ID], "\n"), c.EndLine
			if part, ok := subs[c.ID]; ok {
				limit *= essentialChars
				for _, sub := range part {
					body += "\n\n" + strings.Repeat("#", sub.Level) + " " + sub.Heading
					if t := strings.Trim(text[sub.ID], "\n"); t != "" {
						body += "\n\n" + t
					}
					end = sub.EndLine
				}
				body = strings.Trim(body, "\n")
			}
			t, cut := clip(body, limit)
			if t == "" {
				continue
			}
			entries[i].Excerpts = append(entries[i].Excerpts, Excerpt{
				Heading: c.Heading, Slug: c.Slug, Path: entries[i].Path, Line: c.Line, EndLine: end, Text: t, Cut: cut,
			})
		}
	}
	return nil
}

// pickSections chooses the sections an entry quotes among its document's
// (see excerpts), in document order. The task of a task's pack quotes its
// essential sections first, and opt.Sections more besides.
func pickSections(e Entry, cs []index.Chunk, opt PackOptions, skip map[index.ChunkID]bool) []index.Chunk {
	sort.Slice(cs, func(a, b int) bool { return cs[a].Seq < cs[b].Seq })
	n := opt.Sections
	if e.Why.Reason == ReasonNeighbour || e.Why.Reason == ReasonRelated {
		n = 1
	}
	var pick []index.Chunk
	picked := map[index.ChunkID]bool{}
	if e.target {
		for _, part := range essentialOf(cs, opt.Essential) {
			pick = append(pick, part.head)
			picked[part.head.ID] = true
			for _, c := range part.subs {
				picked[c.ID] = true
			}
		}
		n += len(pick)
	}
	if len(e.hits) > 0 {
		for _, h := range e.hits {
			for _, c := range cs {
				if c.ID == h.id && !picked[c.ID] && !skip[c.ID] && len(pick) < n && config.SectionWeight(opt.Weights.Sections, c.Slug) > 0 {
					pick = append(pick, c)
					picked[c.ID] = true
				}
			}
		}
	}
	if len(pick) > 0 && !e.target && e.found > 0 && e.Kind == "adr" {
		// An ADR the search found quotes its decision: the section of most weight above 1
		// (Decision, MADR's Decision Outcome) takes the last place when the
		// matched sections left it out ("why did we choose Lunr": the
		// title and the rejected option matched, the outcome did not).
		var best *index.Chunk
		for i := range cs {
			w := config.SectionWeight(opt.Weights.Sections, cs[i].Slug)
			if w > 1 && !skip[cs[i].ID] && cs[i].EndLine > cs[i].Line && (best == nil || w > config.SectionWeight(opt.Weights.Sections, best.Slug)) {
				best = &cs[i]
			}
		}
		if best != nil && !picked[best.ID] {
			if len(pick) >= n {
				pick = pick[:n-1]
			}
			pick = append(pick, *best)
		}
	}
	if len(pick) == 0 || e.target {
		byWeight := append([]index.Chunk{}, cs...)
		sort.SliceStable(byWeight, func(a, b int) bool {
			return config.SectionWeight(opt.Weights.Sections, byWeight[a].Slug) > config.SectionWeight(opt.Weights.Sections, byWeight[b].Slug)
		})
		for _, c := range byWeight {
			if len(pick) < n && !picked[c.ID] && !skip[c.ID] && config.SectionWeight(opt.Weights.Sections, c.Slug) > 0 && c.EndLine > c.Line {
				pick = append(pick, c)
			}
		}
	}
	sort.Slice(pick, func(a, b int) bool { return pick[a].Seq < pick[b].Seq })
	return pick
}

// essentialPart is an essential section of a task and the sections under
// it (deeper headings up to the next one of its level or higher), which
// its quote takes in.
type essentialPart struct {
	head index.Chunk
	subs []index.Chunk
}

// essentialOf finds the essential sections among a document's, in document
// order, leaving out those with no line of text under their heading.
func essentialOf(cs []index.Chunk, names []string) []essentialPart {
	ess := essentialSlugs(names)
	sorted := append([]index.Chunk{}, cs...)
	sort.Slice(sorted, func(a, b int) bool { return sorted[a].Seq < sorted[b].Seq })
	var out []essentialPart
	in := false
	for _, c := range sorted {
		switch {
		case in && c.Level > out[len(out)-1].head.Level:
			out[len(out)-1].subs = append(out[len(out)-1].subs, c)
		case ess[markdown.Slug(c.Heading)] && c.Level > 0:
			out = append(out, essentialPart{head: c})
			in = true
		default:
			in = false
		}
	}
	kept := out[:0]
	for _, p := range out {
		if p.head.EndLine > p.head.Line || len(p.subs) > 0 {
			kept = append(kept, p)
		}
	}
	return kept
}

// essentialSlugs are the slugs of the essential headings.
func essentialSlugs(names []string) map[string]bool {
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[markdown.Slug(n)] = true
	}
	return out
}

// essentialChars is how much longer than excerpt_chars an essential
// section of a task's own may be: acceptance criteria cut in the middle
// leave out criteria.
const essentialChars = 4

// clip cuts a text near max characters, at a line end or a space when one
// is in the last half, and marks the cut with " …".
func clip(s string, limit int) (string, bool) {
	s = strings.TrimRight(s, " \t\n")
	if limit <= 0 || utf8.RuneCountInString(s) <= limit {
		return s, false
	}
	r := []rune(s)[:limit]
	cut := string(r)
	if i := strings.LastIndexByte(cut, '\n'); i > len(cut)/2 {
		cut = cut[:i]
	} else if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return closeFence(strings.TrimRight(cut, " \t\n") + " …"), true
}

// closeFence closes a code fence a cut left open, so that the Markdown
// after a quote is not swallowed by it.
func closeFence(s string) string {
	fence := ""
	for _, line := range strings.Split(s, "\n") {
		t := strings.TrimLeft(line, " ")
		for _, f := range []string{"```", "~~~"} {
			if strings.HasPrefix(t, f) {
				switch fence {
				case "":
					fence = f
				case f:
					fence = ""
				}
			}
		}
	}
	if fence != "" {
		return s + "\n" + fence
	}
	return s
}

// fill takes entries in order while the budget lasts. An entry costs
// Tokens of the Markdown it renders to (its heading block and quotes). An
// entry whose heading block does not fit ends the pack; a quote that does
// not fit is cut to what is left (when that is at least minQuote tokens)
// or left out.
func (g *Graph) fill(p *Pack, entries []Entry, budget int, sectioned bool) {
	const minQuote = 40
	used := 0
	section := ""
	for i := range entries {
		e := entries[i]
		e.Rank = len(p.Entries) + 1
		head := ""
		if sectioned && e.Section != section {
			head = renderSection(e.Section)
		}
		head += renderHead(&e, sectioned)
		chars := utf8.RuneCountInString(head)
		cost := (chars + 3) / 4
		if budget > 0 && used+cost > budget {
			p.Truncated = true
			for _, rest := range entries[i:] {
				p.Omitted = append(p.Omitted, Omitted{Key: rest.Key, ID: rest.ID, Title: rest.Title, Score: rest.Score, Reason: "budget"})
			}
			break
		}
		section = e.Section
		quotes := e.Excerpts
		e.Excerpts = []Excerpt{}
		for _, x := range quotes {
			n := utf8.RuneCountInString(renderExcerpt(&x, sectioned))
			if budget > 0 && used+(chars+n+3)/4 > budget {
				p.Truncated = true
				left := budget - used - cost
				if left < minQuote {
					break
				}
				over := utf8.RuneCountInString(renderExcerpt(&Excerpt{Heading: x.Heading, Line: x.Line, EndLine: x.EndLine, Text: " …\n```"}, sectioned))
				if left*4-over < minQuote {
					break
				}
				x.Text, _ = clip(x.Text, left*4-over)
				x.Cut = true
				n = utf8.RuneCountInString(renderExcerpt(&x, sectioned))
				if used+(chars+n+3)/4 > budget {
					break
				}
			}
			chars += n
			cost = (chars + 3) / 4
			e.Excerpts = append(e.Excerpts, x)
		}
		used += cost
		e.Tokens = cost
		p.Entries = append(p.Entries, e)
	}
	p.Tokens = used
}

// weigh sets the entry's score from its base: base × the weight of its
// kind × the weight of its state, rounded (see round4).
func (e *Entry) weigh(w config.Weights) {
	e.Score = round4(e.base * config.Weight(w.Kinds, e.Kind) * config.Weight(w.States, e.State))
}
