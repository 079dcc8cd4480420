package graph

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/markdown"
)

// Scoped context: the pack for one task holds the task and its graph
// neighbourhood, plus the knowledge in its scope — documents declaring
// scope: global, scope: group for the task's group and every group
// upstream of it (along depends_on), scope: task linked to the task, and
// scope: path whose conditions match — within a budget split per scope.

// ScopeOrder is the order a scoped pack shows its scopes in, and the order
// in which budget one scope leaves over goes to the others.
var ScopeOrder = []string{index.ScopeTask, index.ScopeGroup, index.ScopeGlobal, index.ScopePath}

// ReasonScope is the reason of an entry a scope brought.
const ReasonScope = "scope"

// ScopedCandidate is a document a task's scope brings, and why.
type ScopedCandidate struct {
	index.ScopedDoc
	// GroupPath, for group knowledge: the groups from the task's own to the
	// one the document belongs to, by display id (depends_on edges).
	GroupPath []string
	Distance  int      // hops along depends_on from the task's group
	Matched   []string // what its conditions matched (paths, keywords)
}

// SelectScoped picks, from what the index holds for a task, the knowledge
// in its scope. Conditions: every condition type a document lists must
// match (paths AND keywords), one value within a type is enough; a document
// listing none always matches. taskPaths gives the task's paths for path
// conditions: its paths: field, else what it returns (the files its commits
// touched); it is called at most once, and only when needed.
func SelectScoped(d *index.ScopeData, taskPaths func() []string) []ScopedCandidate {
	dist, prev := groupDistances(d)
	var paths []string
	pathsRead := false
	getPaths := func() []string {
		if !pathsRead {
			pathsRead = true
			paths = d.Task.Paths
			if len(paths) == 0 && taskPaths != nil {
				paths = taskPaths()
			}
		}
		return paths
	}
	var out []ScopedCandidate
	for _, doc := range d.Docs {
		if doc.Key == d.Task.Key {
			continue
		}
		c := ScopedCandidate{ScopedDoc: doc}
		switch doc.Scope {
		case index.ScopeGlobal, index.ScopePath, index.ScopeTask:
		case index.ScopeGroup:
			k, ok := dist[doc.Group]
			if !ok {
				continue
			}
			c.Distance = k
			for g := doc.Group; g != ""; g = prev[g] {
				c.GroupPath = append([]string{d.Groups[g].ID}, c.GroupPath...)
			}
		default:
			continue // a scope canon does not know: no candidate
		}
		matched, ok := conditionsMatch(doc, d.Task.Text, getPaths)
		if !ok {
			continue
		}
		c.Matched = matched
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if ra, rb := scopeRank(a.Scope), scopeRank(b.Scope); ra != rb {
			return ra < rb
		}
		if a.Distance != b.Distance {
			return a.Distance < b.Distance
		}
		return a.Key < b.Key
	})
	return out
}

func scopeRank(s string) int {
	for i, o := range ScopeOrder {
		if o == s {
			return i
		}
	}
	return len(ScopeOrder)
}

// groupDistances walks depends_on from the task's group, breadth first:
// each reachable group's distance and the group it was reached from.
func groupDistances(d *index.ScopeData) (map[string]int, map[string]string) {
	dist, prev := map[string]int{}, map[string]string{}
	if d.Task.Group == "" {
		return dist, prev
	}
	next := map[string][]string{}
	for _, e := range d.Edges {
		next[e.From] = append(next[e.From], e.To)
	}
	for k := range next {
		sort.Strings(next[k])
	}
	dist[d.Task.Group] = 0
	queue := []string{d.Task.Group}
	for len(queue) > 0 {
		g := queue[0]
		queue = queue[1:]
		for _, to := range next[g] {
			if _, seen := dist[to]; !seen {
				dist[to], prev[to] = dist[g]+1, g
				queue = append(queue, to)
			}
		}
	}
	return dist, prev
}

// conditionsMatch applies a document's conditions to the task: every type
// it lists must match (AND), one value of a type is enough (OR). It
// returns what matched.
func conditionsMatch(doc index.ScopedDoc, taskText string, taskPaths func() []string) ([]string, bool) {
	var matched []string
	if len(doc.Keywords) > 0 {
		hit := ""
		for _, kw := range doc.Keywords {
			if kw = strings.TrimSpace(kw); kw != "" && containsWord(taskText, kw) {
				hit = kw
				break
			}
		}
		if hit == "" {
			return nil, false
		}
		matched = append(matched, "keyword "+hit)
	}
	if len(doc.Paths) > 0 {
		hit := ""
		for _, glob := range doc.Paths {
			for _, p := range taskPaths() {
				if pathMatches(glob, p) {
					hit = glob + " ~ " + p
					break
				}
			}
			if hit != "" {
				break
			}
		}
		if hit == "" {
			return nil, false
		}
		matched = append(matched, "path "+hit)
	}
	return matched, true
}

// containsWord reports a case-insensitive whole-word (or phrase) match.
func containsWord(text, word string) bool {
	re, err := regexp.Compile(`(?i)(^|[^\pL\pN_])` + regexp.QuoteMeta(word) + `($|[^\pL\pN_])`)
	return err == nil && re.MatchString(text)
}

// pathMatches matches a condition glob (doublestar: ** spans folders)
// against a task path, which may itself be a folder ("src/pay/") or a
// glob: a folder matches a glob that could match a file inside it.
func pathMatches(glob, p string) bool {
	glob = strings.TrimPrefix(glob, "./")
	p = strings.TrimPrefix(p, "./")
	if ok, _ := doublestar.Match(glob, p); ok {
		return true
	}
	if strings.HasSuffix(p, "/") || strings.ContainsAny(p, "*?[") {
		base, _ := doublestar.SplitPattern(p)
		if base == "." {
			return true
		}
		if ok, _ := doublestar.Match(glob, base+"/x"); ok {
			return true
		}
		gbase, _ := doublestar.SplitPattern(glob)
		return strings.HasPrefix(gbase+"/", strings.TrimSuffix(base, "/")+"/") || strings.HasPrefix(base+"/", gbase+"/")
	}
	return false
}

// ScopedArgs ask for a task's scoped pack.
type ScopedArgs struct {
	For     string      // a reference to the task
	Options PackOptions // depth, budget, weights, ... (Query and Seeds are ignored)
	Shares  config.Scopes
	// CommitPaths lists the files the task's commits touched; called only
	// when a path condition needs it and the task declares no paths:.
	CommitPaths func(ctx context.Context, task index.DocRef) ([]string, error)
}

// ScopeUse is how much of the budget a scope had and used.
type ScopeUse struct {
	Share   float64 `json:"share"`
	Budget  int     `json:"budget"`
	Used    int     `json:"used"`
	Entries int     `json:"entries"`
}

// Listed is a document a scoped pack names without quoting it (it did not
// fit whole): an agent can ask for it by id.
type Listed struct {
	Key    string `json:"key"`
	ID     string `json:"id"`
	Title  string `json:"title"`
	Scope  string `json:"scope"`
	Tokens int    `json:"tokens"` // what it would have cost
}

// ScopedPack builds the pack for one task: the task and its neighbourhood
// (as canon context --seed TASK) plus the knowledge in its scope, each
// entry saying which scope brought it and through which group edge, the
// budget split per scope (what a scope leaves goes to the next, in
// ScopeOrder), and an entry that does not fit whole listed by id and size.
func (g *Graph) ScopedPack(ctx context.Context, a ScopedArgs) (*Pack, error) {
	task, err := g.resolve(ctx, a.For)
	if err != nil {
		return nil, err
	}
	data, err := g.st.ScopeData(ctx, task.ref.Key)
	if err != nil {
		return nil, err
	}
	var pathsErr error
	cands := SelectScoped(data, func() []string {
		if a.CommitPaths == nil {
			return nil
		}
		ps, err := a.CommitPaths(ctx, task.ref)
		pathsErr = err
		return ps
	})
	if pathsErr != nil {
		return nil, pathsErr
	}
	opt := a.Options
	if opt.Direction == "" {
		opt.Direction = Both
	}
	// The task scope: the task and its graph neighbourhood, without
	// generated documents.
	gen := g.newGenFilter(opt)
	ex, err := g.expand(ctx, []node{task}, ExpandOptions{Depth: opt.Depth, Edges: opt.Edges, Direction: opt.Direction,
		MaxPerNode: opt.MaxPerNode, MaxNodes: opt.MaxNodes, keep: gen.keep(nil)})
	if err != nil {
		return nil, err
	}
	neighbours := g.score(ex, map[index.DocID]*seed{task.id: {node: task, source: SourceGiven}}, opt.Weights)
	// Knowledge in scope goes under its own scope even when it is also a
	// neighbour (the edge is noted); the rest of the neighbourhood is the
	// task scope.
	inScope := map[string]bool{}
	for _, c := range cands {
		inScope[c.Key] = true
	}
	neighbours, lone, err := g.loneRelated(ctx, task, neighbours, opt, gen, inScope)
	if err != nil {
		return nil, err
	}
	gov, err := g.governing(ctx, task, neighbours, opt, gen)
	if err != nil {
		return nil, err
	}
	neighbours = append(neighbours, gov...)
	entries, err := g.scopeEntries(ctx, task, neighbours, cands, inScope, opt)
	if err != nil {
		return nil, err
	}
	if err := g.excerpts(ctx, entries, opt); err != nil {
		return nil, err
	}
	fitTarget(entries, opt)
	p := &Pack{
		Title: "Context for " + task.ref.ID + ": " + task.ref.Title, Seeds: []string{task.ref.Key}, TokenEstimate: TokenEstimate,
		Entries: []Entry{}, Omitted: []Omitted{}, Listed: []Listed{}, NodeCapped: ex.NodeCapped, FanoutCapped: ex.FanoutCapped,
		Settings: PackSettings{Depth: opt.Depth, Edges: opt.Edges, Direction: opt.Direction, MaxPerNode: opt.MaxPerNode, MaxNodes: opt.MaxNodes, Budget: opt.Budget},
		For:      task.ref.Key, lone: lone,
	}
	if p.Settings.Edges == nil {
		p.Settings.Edges = []string{}
	}
	for _, s := range ScopeOrder {
		p.Sections = append(p.Sections, scopeTitle(s))
	}
	fillScoped(p, entries, opt.Budget, a.Shares)
	if err := g.topUp(ctx, p, opt); err != nil {
		return nil, err
	}
	return p, g.omitGenerated(ctx, p, gen)
}

// loneRelated adds to the neighbours of a task no edge of any type
// reaches (lone) the documents its title finds, standing in for
// neighbours (not when depth 0 asks for the task alone), and reports
// whether it is lone.
func (g *Graph) loneRelated(ctx context.Context, task node, neighbours []Entry, opt PackOptions, gen *genFilter, inScope map[string]bool) ([]Entry, bool, error) {
	lone := false
	if len(neighbours) == 1 {
		linked, err := g.st.Linked(ctx, task.id)
		if err != nil {
			return nil, false, err
		}
		lone = !linked
	}
	if room := opt.MaxNodes - 1; lone && opt.Related > 0 && opt.Depth > 0 && (opt.MaxNodes == 0 || room > 0) {
		if opt.MaxNodes > 0 {
			opt.Related = min(opt.Related, room)
		}
		rel, err := g.related(ctx, task, opt, gen, inScope)
		if err != nil {
			return nil, false, err
		}
		neighbours = append(neighbours, rel...)
	}
	return neighbours, lone, nil
}

// scopeEntries makes the entries of a scoped pack: the task's neighbours
// not in scope under the task scope, then the knowledge each scope brings
// (cands), noting the edge when it is a neighbour too, weighed by its
// distance in the groups, and quoting like a seed.
func (g *Graph) scopeEntries(ctx context.Context, task node, neighbours []Entry, cands []ScopedCandidate, inScope map[string]bool, opt PackOptions) ([]Entry, error) {
	var entries []Entry
	viaEdge := map[string]Why{}
	present := map[string]bool{}
	for _, e := range neighbours {
		e.target = e.id == task.id
		if inScope[e.Key] {
			viaEdge[e.Key] = e.Why
			continue
		}
		e.Section, e.Scope = scopeTitle(index.ScopeTask), index.ScopeTask
		present[e.Key] = true
		entries = append(entries, e)
	}
	// The knowledge its scope brings.
	for _, c := range cands {
		if present[c.Key] {
			continue
		}
		n, err := g.resolve(ctx, c.Key)
		if err != nil {
			return nil, err
		}
		present[c.Key] = true
		e := Entry{DocRef: n.ref, id: n.id, Excerpts: []Excerpt{}, Scope: c.Scope, Section: scopeTitle(c.Scope)}
		e.Why = Why{Reason: ReasonScope, Scope: c.Scope, Matched: c.Matched, GroupPath: c.GroupPath}
		if w, ok := viaEdge[c.Key]; ok {
			e.Why.Edge, e.Why.Direction, e.Why.From, e.Why.FromID = w.Edge, w.Direction, w.From, w.FromID
		}
		if c.Scope == index.ScopeGroup {
			e.Why.Depth = c.Distance
			e.Why.Group = c.GroupPath[len(c.GroupPath)-1]
		}
		e.base = 1
		for k := 0; k < c.Distance; k++ {
			e.base *= opt.Weights.Decay
		}
		e.weigh(opt.Weights)
		entries = append(entries, e)
	}
	// Knowledge entries quote like seeds: their heaviest sections.
	for i := range entries {
		if entries[i].Why.Reason == ReasonScope {
			entries[i].isGiven = true
		}
	}
	return entries, nil
}

// fitTarget drops quotes of the task's entry, the least essential and
// last first, until it fits in what fillScoped gives whole entries: the
// task is in its own pack whatever its size. topUp names what is dropped.
func fitTarget(entries []Entry, opt PackOptions) {
	whole := opt.Budget - opt.Budget/10 - (utf8.RuneCountInString(renderSection(scopeTitle(index.ScopeTask)))+3)/4
	for i := range entries {
		e := &entries[i]
		if !e.target || opt.Budget <= 0 {
			continue
		}
		ess := essentialSlugs(opt.Essential)
		for len(e.Excerpts) > 0 && (entryChars(e)+3)/4 > whole {
			drop := len(e.Excerpts) - 1
			for k := drop; k >= 0; k-- {
				if !ess[markdown.Slug(e.Excerpts[k].Heading)] {
					drop = k
					break
				}
			}
			e.Excerpts = append(e.Excerpts[:drop], e.Excerpts[drop+1:]...)
		}
	}
}

// scopeTitle is the heading of a scope's part of a pack.
func scopeTitle(scope string) string {
	switch scope {
	case index.ScopeTask:
		return "Task"
	case index.ScopeGroup:
		return "Group"
	case index.ScopeGlobal:
		return "Global"
	case index.ScopePath:
		return "Path"
	}
	return scope
}

// fillScoped fills the pack scope by scope: each scope takes its entries
// (whole, in rank order) while they fit in its share of the budget; the
// budget left after that goes to the entries that waited, scope by scope
// in ScopeOrder; an entry that still does not fit is listed by id and size
// when the line fits, else omitted. Entries are never cut: a scoped pack
// discloses progressively instead.
func fillScoped(p *Pack, entries []Entry, budget int, sh config.Scopes) {
	shares := map[string]float64{index.ScopeTask: sh.Task, index.ScopeGroup: sh.Group, index.ScopeGlobal: sh.Global, index.ScopePath: sh.Path}
	byScope := map[string][]int{}
	for i := range entries {
		byScope[entries[i].Scope] = append(byScope[entries[i].Scope], i)
	}
	cost := make([]int, len(entries))
	for i := range entries {
		e := entries[i]
		chars := utf8.RuneCountInString(renderHead(&e, true))
		for j := range e.Excerpts {
			chars += utf8.RuneCountInString(renderExcerpt(&e.Excerpts[j], true))
		}
		cost[i] = (chars + 3) / 4
	}
	sectionCost := func(s string) int { return (utf8.RuneCountInString(renderSection(scopeTitle(s))) + 3) / 4 }
	in := make([]bool, len(entries))
	use := map[string]*ScopeUse{}
	used := 0
	// A tenth of the budget is kept for naming what does not fit whole;
	// the whole entries share the rest.
	reserve := budget / 10
	whole := budget - reserve
	take := func(s string, i int, limit int) {
		c := cost[i]
		if use[s].Entries == 0 {
			c += sectionCost(s)
		}
		if budget > 0 && c > limit {
			return
		}
		in[i] = true
		use[s].Used += c
		use[s].Entries++
		used += c
	}
	for _, s := range ScopeOrder {
		use[s] = &ScopeUse{Share: shares[s], Budget: int(shares[s] * float64(whole))}
		for _, i := range byScope[s] {
			take(s, i, use[s].Budget-use[s].Used)
		}
	}
	for _, s := range ScopeOrder {
		for _, i := range byScope[s] {
			if !in[i] {
				take(s, i, whole-used)
			}
		}
	}
	// What is left out: listed while its line fits, else omitted.
	for _, s := range ScopeOrder {
		for _, i := range byScope[s] {
			if in[i] {
				continue
			}
			e := entries[i]
			l := Listed{Key: e.Key, ID: e.ID, Title: e.Title, Scope: s, Tokens: cost[i]}
			lc := (utf8.RuneCountInString(renderListed(&l)) + 3) / 4
			if len(p.Listed) == 0 {
				lc += (utf8.RuneCountInString(listedHeading) + 3) / 4
			}
			if budget <= 0 || used+lc <= budget {
				p.Listed = append(p.Listed, l)
				used += lc
				continue
			}
			p.Omitted = append(p.Omitted, Omitted{Key: e.Key, ID: e.ID, Title: e.Title, Score: e.Score, Reason: "budget"})
		}
	}
	p.Truncated = len(p.Listed)+len(p.Omitted) > 0
	p.Scopes = map[string]ScopeUse{}
	for _, s := range ScopeOrder {
		for _, i := range byScope[s] {
			if in[i] {
				e := entries[i]
				e.Rank = len(p.Entries) + 1
				e.Tokens = cost[i]
				p.Entries = append(p.Entries, e)
			}
		}
		p.Scopes[s] = *use[s]
	}
	p.Tokens = used
}

const listedHeading = "## Not included (too large for the budget; ask for them by id)\n\n"

func renderListed(l *Listed) string {
	return fmt.Sprintf("- %s: %s (%s scope, about %d tokens)\n", l.ID, l.Title, l.Scope, l.Tokens)
}

// WorkItemKinds are the kinds that count as tasks for canon scope suggest.
var WorkItemKinds = map[string]bool{"task": true, "bug": true, "story": true, "feature": true, "epic": true}

// ScopeSuggestion is knowledge that has proved useful beyond its scope: a
// candidate to promote one scope up.
type ScopeSuggestion struct {
	index.DocRef
	Scope string   `json:"scope"`           // task or group: where it is now
	Up    string   `json:"up"`              // group or global: where it could go
	Group string   `json:"group,omitempty"` // for Up group: the group (its id)
	Users []string `json:"users"`           // the tasks that reference it, or the groups that inherit it (ids)
}

// SuggestScopes lists task knowledge referenced by at least min tasks (up
// to their group when they share one, else global) and group knowledge
// inherited by at least min other groups (up to global), most used first.
func SuggestScopes(o *index.ScopeOverview, minHeirs int) []ScopeSuggestion {
	var out []ScopeSuggestion
	// Who inherits a group's knowledge: every group that reaches it
	// along depends_on.
	reverse := map[string][]string{}
	for _, e := range o.Edges {
		reverse[e.To] = append(reverse[e.To], e.From)
	}
	for _, k := range o.Knowledge {
		switch k.Scope {
		case index.ScopeTask:
			var users []string
			groups := map[string]bool{}
			for _, r := range o.Linked[k.Key] {
				if WorkItemKinds[r.Kind] {
					users = append(users, r.ID)
					groups[o.GroupOf[r.Key]] = true
				}
			}
			if len(users) < minHeirs {
				continue
			}
			s := ScopeSuggestion{DocRef: k.DocRef, Scope: k.Scope, Up: index.ScopeGlobal, Users: users}
			if len(groups) == 1 {
				for g := range groups {
					if g != "" {
						s.Up, s.Group = index.ScopeGroup, o.Groups[g].ID
					}
				}
			}
			out = append(out, s)
		case index.ScopeGroup:
			if k.Group == "" {
				continue
			}
			seen := map[string]bool{k.Group: true}
			queue := []string{k.Group}
			var users []string
			for len(queue) > 0 {
				g := queue[0]
				queue = queue[1:]
				for _, from := range reverse[g] {
					if !seen[from] {
						seen[from] = true
						users = append(users, o.Groups[from].ID)
						queue = append(queue, from)
					}
				}
			}
			if len(users) < minHeirs {
				continue
			}
			sort.Strings(users)
			out = append(out, ScopeSuggestion{DocRef: k.DocRef, Scope: k.Scope, Up: index.ScopeGlobal, Group: o.Groups[k.Group].ID, Users: users})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if len(out[i].Users) != len(out[j].Users) {
			return len(out[i].Users) > len(out[j].Users)
		}
		return out[i].Key < out[j].Key
	})
	return out
}
