package learn

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/canon-md/canon/index/config"
)

// decide turns the facts into the learned block, against the defaults.
func decide(f *facts) *Result {
	r := &Result{Evidence: map[string]string{}, Kept: []string{}}
	l := &r.Learned
	if f.tool != "" {
		l.Tool = f.tool
		r.Evidence["tool"] = fmt.Sprintf("%s is %s's; canon reads the files as %s does", f.toolWhy, toolName(f.tool), toolName(f.tool))
	}
	if fields := textFieldsOf[f.tool]; len(fields) > 0 {
		l.Frontmatter = &config.Frontmatter{TextFields: fields}
		why := toolName(f.tool) + " reads these fields as text before it parses the frontmatter (assignee: @name)"
		if f.atDocs > 0 {
			why = fmt.Sprintf("%s write an @ value, which YAML refuses and %s reads as text: it quotes these fields before it parses the frontmatter",
				plural(f.atDocs, "document"), toolName(f.tool))
		}
		r.Evidence["frontmatter.text_fields"] = why
	}
	if len(f.prefixes) > 0 {
		l.Prefixes = f.prefixes
		var why []string
		for _, p := range sorted(f.prefixes) {
			why = append(why, f.prefixWhy[p])
		}
		r.Evidence["prefixes"] = strings.Join(why, "; ") + toolSays(f.tool)
	}
	if len(f.bare) > 0 {
		l.BareNumbers = f.bare
		r.Evidence["bare_numbers"] = f.bareWhy
	}
	if len(f.repoURLs) > 0 {
		l.RepoURLs = f.repoURLs
		r.Evidence["repo_urls"] = strings.Join(f.repoURLWhy, "; ")
	}
	decideTemplates(f, r)
	decideFixtures(f, r)
	decideSidecars(f, r)
	decideEdges(f, r)
	decideStates(f, r)
	decideStateField(f, r)
	decideParents(f, config.DefaultCheck().Parents, r)
	decideSchemas(f, r)
	decideDates(f, config.DefaultCheck().Dates, r)
	decidePriorities(f, r)
	decideArchive(f, r)
	return r
}

func toolName(t string) string {
	switch t {
	case "backlog.md":
		return "Backlog.md"
	case "mkdocs":
		return "MkDocs"
	case "docfx":
		return "DocFX"
	}
	return strings.ToUpper(t[:1]) + t[1:]
}

func (r *Result) check() *config.LearnedCheck {
	if r.Learned.Check == nil {
		r.Learned.Check = &config.LearnedCheck{}
	}
	return r.Learned.Check
}

func (r *Result) work() *config.LearnedWork {
	if r.Learned.Work == nil {
		r.Learned.Work = &config.LearnedWork{}
	}
	return r.Learned.Work
}

// toolEdges are the edge fields a tool writes and reads, learned in its
// repositories from the first value on: Backlog.md's parent_task_id and
// dependencies (a new backlog has fewer than MinCount of them).
var toolEdges = map[string][]string{"backlog.md": {"dependencies", "parent_task_id"}}

func decideEdges(f *facts, r *Result) {
	for _, field := range sortedKeys2(f.edgeFields) {
		c := f.edgeFields[field]
		if c[1] < MinCount && slices.Contains(toolEdges[f.tool], field) && c[0] == c[1] {
			if r.Learned.Edges == nil {
				r.Learned.Edges = map[string]string{}
			}
			r.Learned.Edges[field] = edgeCandidates[field]
			r.Evidence["edges."+field] = fmt.Sprintf("%s writes its %s there; %d of %d values name an item that exists", toolName(f.tool), edgeCandidates[field], c[0], c[1])
			continue
		}
		if c[1] < MinCount {
			continue
		}
		if c[0]*2 >= c[1] {
			if r.Learned.Edges == nil {
				r.Learned.Edges = map[string]string{}
			}
			r.Learned.Edges[field] = edgeCandidates[field]
			r.Evidence["edges."+field] = fmt.Sprintf("%d of %d values name an item that exists", c[0], c[1])
		} else {
			r.Kept = append(r.Kept, fmt.Sprintf("edges: %s is not read as an edge: only %d of its %d values name an item canon finds", field, c[0], c[1]))
		}
	}
}

func sortedKeys2(m map[string][2]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// decideStates writes the states in use when some is in neither of the
// default lists or the tool has a list of its own: the tool's list first,
// in its order, then the defaults and the others by how work moves.
func decideStates(f *facts, r *Result) {
	def := config.DefaultStates()
	all := map[string]int{}
	for s, n := range f.states {
		all[s] += n
	}
	for s, n := range f.archivedStates {
		all[s] += n
	}
	// A state one document has and nothing lists is a slip ("Doen"), not
	// a state of the repository.
	var unknown, slips []string
	for _, s := range sortedKeys(all) {
		switch {
		case inFold(def.Open, s) || def.IsDone(s) || inFold(unknown, s):
		case all[s] < MinCount && !inFold(f.toolStatuses, s) && !doneWords[strings.ToLower(s)] && rankOf(s) == len(stateRank) && ladderRank(s) < 0:
			slips = append(slips, s)
			delete(all, s)
		default:
			unknown = append(unknown, s)
		}
	}
	if len(unknown) == 0 && len(f.toolStatuses) == 0 {
		return
	}
	var order []string
	if len(f.toolStatuses) > 0 {
		order = append(order, f.toolStatuses...)
		extra := sortedKeys(all)
		sort.SliceStable(extra, func(i, j int) bool { return rankOf(extra[i]) < rankOf(extra[j]) })
		order = append(order, extra...)
	} else {
		order = append(append(order, def.Open...), ladderSlots(unknown)...)
		sort.SliceStable(order, func(i, j int) bool { return rankOf(order[i]) < rankOf(order[j]) })
		order = append(order, def.Done...)
	}
	s := &config.States{}
	for _, st := range order {
		if inFold(s.Open, st) || inFold(s.Done, st) {
			continue
		}
		if doneWords[strings.ToLower(st)] || inFold(def.Done, st) || shipped(st) {
			s.Done = append(s.Done, st)
		} else {
			s.Open = append(s.Open, st)
		}
	}
	if len(s.Done) == 0 {
		s.Done = def.Done
	}
	r.Learned.States = s
	var used []string
	for _, st := range sortedKeys(all) {
		used = append(used, fmt.Sprintf("%s %d", st, all[st]))
	}
	why := "work items' states in use: " + strings.Join(used, ", ")
	if len(used) == 0 {
		why = "no work item has a state yet"
	}
	if len(f.toolStatuses) > 0 {
		why += fmt.Sprintf(" (%s lists %s)", f.toolWhy, strings.Join(f.toolStatuses, ", "))
	}
	if len(unknown) > 0 {
		why += "; not in canon's defaults: " + strings.Join(unknown, ", ")
	}
	if len(slips) > 0 {
		why += "; used once, left out: " + strings.Join(slips, ", ")
	}
	r.Evidence["states"] = why
}

func inFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// decideParents: for each kind with a parent rule, the parent kinds in use
// by at least one document in twenty join the rule; rarer ones stay
// errors.
func decideParents(f *facts, def map[string][]string, r *Result) {
	kinds := make([]string, 0, len(def))
	for k := range def {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, kind := range kinds {
		rule, obs := def[kind], f.parents[kind]
		total := 0
		for _, n := range obs {
			total += n
		}
		if total == 0 {
			continue
		}
		kept := 0
		for _, pk := range rule {
			kept += obs[pk]
		}
		var added, because, exceptions []string
		for _, pk := range sortedKeys(obs) {
			if slices.Contains(rule, pk) {
				continue
			}
			if convention(obs[pk], total) {
				added = append(added, pk)
				because = append(because, fmt.Sprintf("%d of %d %s with a parent have %s %s parent", obs[pk], total, plural(2, kind)[2:], article(pk), pk))
			} else {
				exceptions = append(exceptions, fmt.Sprintf("%d under %s %s", obs[pk], article(pk), pk))
			}
		}
		key := "check.parents." + kind
		if len(added) == 0 {
			if len(exceptions) > 0 {
				r.Kept = append(r.Kept, fmt.Sprintf("%s [%s]: %d of %d %s with a parent keep it; the others are reported (%s)",
					key, strings.Join(rule, ", "), kept, total, plural(2, kind)[2:], strings.Join(exceptions, ", ")))
			}
			continue
		}
		if r.check().Parents == nil {
			r.check().Parents = map[string][]string{}
		}
		r.check().Parents[kind] = append(append([]string{}, rule...), added...)
		why := strings.Join(because, "; ") + fmt.Sprintf(": %s may sit under %s here", plural(2, kind)[2:], joinAnd(pluralAll(added)))
		if len(exceptions) > 0 {
			why += fmt.Sprintf(" (exceptions, still reported: %s)", strings.Join(exceptions, ", "))
		}
		r.Evidence[key] = why
	}
}

func pluralAll(kinds []string) []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = plural(2, k)[2:]
	}
	return out
}

func joinAnd(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

func article(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an"
	}
	return "a"
}

// idShape splits an id into its prefix and number: BACK-12.3, KB-TSK-0001.
var idShape = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z][A-Za-z0-9]*)*)-[0-9]+(\.[0-9]+)*$`)

// decideSchemas: where Kano's schemas hold (a Kano-shaped id exists), a
// kind whose documents mostly break its default id pattern, states or
// priorities gets what they use.
func decideSchemas(f *facts, r *Result) {
	if !f.kano {
		if len(f.ids) > 0 {
			r.Kept = append(r.Kept, "check.schemas: Kano's schemas (ids, states, priorities) hold only where an id is shaped like KB-TSK-0001; none is here, so they check nothing")
		}
		return
	}
	defs := config.DefaultCheck().Schemas
	kinds := make([]string, 0, len(f.ids))
	for k := range f.ids {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, kind := range kinds {
		def, ok := defs[kind]
		if !ok {
			continue
		}
		key := "check.schemas." + kind
		if def.IDPattern != "" {
			re := regexp.MustCompile(def.IDPattern)
			ids, match := 0, 0
			prefixes := map[string]int{}
			for _, id := range f.ids[kind] {
				if id == "" {
					continue
				}
				ids++
				if f.scheme.Matches(re, id) {
					match++
				}
				if p, _, ok := f.scheme.Split(id); ok {
					id = p + "1" // a minted id counts for its prefix's series
				}
				if m := idShape.FindStringSubmatch(id); m != nil {
					prefixes[m[1]]++
				}
			}
			switch {
			case ids > 0 && match*2 < ids:
				var conv []string
				for _, p := range sortedKeys(prefixes) {
					if convention(prefixes[p], ids) {
						conv = append(conv, regexp.QuoteMeta(p))
					}
				}
				if len(conv) > 0 {
					sort.Strings(conv)
					setSchema(r, kind, func(s *config.LearnedSchema) {
						s.IDPattern = `^(?:` + strings.Join(conv, "|") + `)-[0-9]+(?:\.[0-9]+)*$`
					})
					r.Evidence[key+".id_pattern"] = fmt.Sprintf("%d of %d %s ids do not match %s", ids-match, ids, kind, def.IDPattern)
				}
			case match < ids:
				r.Kept = append(r.Kept, fmt.Sprintf("%s.id_pattern %s: %d of %d %s ids match it; the others are reported", key, def.IDPattern, match, ids, kind))
			}
		}
		learnEnum(r, kind, key+".states", def.States, f.schemaStates[kind], func(s *config.LearnedSchema, v []string) { s.States = v })
		learnEnum(r, kind, key+".priorities", def.Priorities, f.schemaPriorities[kind], func(s *config.LearnedSchema, v []string) { s.Priorities = v })
	}
}

func setSchema(r *Result, kind string, fn func(*config.LearnedSchema)) {
	ck := r.check()
	if ck.Schemas == nil {
		ck.Schemas = map[string]config.LearnedSchema{}
	}
	s := ck.Schemas[kind]
	fn(&s)
	ck.Schemas[kind] = s
}

// learnEnum adds to a default list of values those one document in
// twenty or more of the kind uses (two at least), as decideParents does;
// rarer ones stay errors.
func learnEnum(r *Result, kind, key string, def []string, used map[string]int, set func(*config.LearnedSchema, []string)) {
	if len(def) == 0 || len(used) == 0 {
		return
	}
	total, keep := 0, 0
	for v, n := range used {
		total += n
		if slices.Contains(def, v) {
			keep += n
		}
	}
	what := key[strings.LastIndex(key, ".")+1:]
	var added, because, exceptions []string
	for _, v := range sortedKeys(used) {
		if slices.Contains(def, v) {
			continue
		}
		if convention(used[v], total) {
			added = append(added, v)
			because = append(because, fmt.Sprintf("%d of %d %s use %s", used[v], total, plural(2, kind)[2:], v))
		} else {
			exceptions = append(exceptions, fmt.Sprintf("%s %d", v, used[v]))
		}
	}
	if len(added) == 0 {
		if len(exceptions) > 0 {
			r.Kept = append(r.Kept, fmt.Sprintf("%s: %d of %d %s keep [%s]; the others are reported (%s)", key, keep, total, plural(2, kind)[2:], strings.Join(def, ", "), strings.Join(exceptions, ", ")))
		}
		return
	}
	all := append(append([]string{}, def...), added...)
	setSchema(r, kind, func(s *config.LearnedSchema) { set(s, all) })
	why := strings.Join(because, "; ") + ": " + what + " of this repository"
	if len(exceptions) > 0 {
		why += fmt.Sprintf(" (exceptions, still reported: %s)", strings.Join(exceptions, ", "))
	}
	r.Evidence[key] = why
}

// decideDates: the default date fields, less those most of whose values
// are not dates, and the fields whose values are dates nearly always.
func decideDates(f *facts, def []string, r *Result) {
	var out, added, dropped []string
	for _, d := range def {
		c := f.dates[d]
		if c[1] >= MinCount && c[0]*2 < c[1] {
			dropped = append(dropped, fmt.Sprintf("%s (%d of %d values are not dates)", d, c[1]-c[0], c[1]))
			continue
		}
		out = append(out, d)
	}
	for _, field := range sortedKeys2(f.dates) {
		c := f.dates[field]
		if slices.Contains(def, field) || c[0] < MinCount || share(c[0], c[1]) < 0.95 {
			continue
		}
		out = append(out, field)
		added = append(added, fmt.Sprintf("%s holds a date in %d of %d documents", field, c[0], c[1]))
	}
	if len(added) == 0 && len(dropped) == 0 {
		return
	}
	r.check().Dates = out
	var why []string
	if len(added) > 0 {
		why = append(why, strings.Join(added, ", "))
	}
	if len(dropped) > 0 {
		why = append(why, "not dates here: "+strings.Join(dropped, ", "))
	}
	r.Evidence["check.dates"] = strings.Join(why, "; ")
}

// decidePriorities: the priorities work items use, most urgent first.
func decidePriorities(f *facts, r *Result) {
	// A scale's ends are rare by nature (P0 is an emergency): every value
	// of a known scale is on it, and every other value two or more items
	// use; one used once is an exception.
	// The family most items use (P0…P4, or words): a value of the other
	// family used once ("High" among P-numbers) is an exception.
	pn, words := 0, 0
	for p, n := range f.priorities {
		if pNumber.MatchString(p) {
			pn += n
		} else {
			words += n
		}
	}
	var scale, rare []string
	for _, p := range sortedKeys(f.priorities) {
		if f.priorities[p] >= MinCount || onScale(p) && pNumber.MatchString(p) == (pn > words) {
			scale = append(scale, p)
		} else {
			rare = append(rare, fmt.Sprintf("%s %d", p, f.priorities[p]))
		}
	}
	if len(scale) < 2 {
		return
	}
	sortScale(scale)
	r.work().Priorities = scale
	var used []string
	for _, p := range scale {
		used = append(used, fmt.Sprintf("%s %d", p, f.priorities[p]))
	}
	why := "priorities in use, most urgent first: " + strings.Join(used, ", ")
	if len(rare) > 0 {
		why += "; left out as exceptions: " + strings.Join(rare, ", ")
	}
	r.Evidence["work.priorities"] = why
}

// onScale reports a value of a known priority scale: P0…P9 or canon's
// default scale (critical … trivial).
func onScale(p string) bool {
	return pNumber.MatchString(p) || inFold(config.DefaultWork().Priorities, p)
}

// pNumber is a P0…P9 priority.
var pNumber = regexp.MustCompile(`^[Pp]([0-9]+)$`)

// sortScale orders priorities most urgent first: P0 before P1, then by
// canon's default scale (critical … trivial), then as text.
func sortScale(ps []string) {
	w := config.DefaultWork()
	rank := func(p string) (int, int) {
		if m := pNumber.FindStringSubmatch(p); m != nil {
			n, _ := strconv.Atoi(m[1])
			return 0, n
		}
		for i, s := range w.Priorities {
			if strings.EqualFold(s, p) {
				return 1, i
			}
		}
		return 2, 0
	}
	sort.SliceStable(ps, func(i, j int) bool {
		a1, a2 := rank(ps[i])
		b1, b2 := rank(ps[j])
		if a1 != b1 {
			return a1 < b1
		}
		if a2 != b2 {
			return a2 < b2
		}
		return ps[i] < ps[j]
	})
}

func decideArchive(f *facts, r *Result) {
	if len(f.archives) == 0 {
		return
	}
	dirs := make([]string, 0, len(f.archives))
	for d := range f.archives {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	var held []string
	for _, d := range sortedKeys(f.archives) {
		held = append(held, fmt.Sprintf("%s %d", d, f.archives[d]))
	}
	r.work().Archive = dirs
	r.Evidence["work.archive"] = "documents in archive folders: " + strings.Join(held, ", ") +
		"; finished or archived work, not listed as work, whose ids a live item may reuse"
}
