package learn

import (
	"regexp"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/config"
)

// Block is the learned block as canon init writes it into the
// configuration: between config.LearnedBegin and config.LearnedEnd, each
// value under a comment saying its evidence, then the defaults the
// repository keeps with their exceptions. "" when nothing was learned and
// nothing kept.
func (r *Result) Block() string {
	if r.Learned.Empty() && len(r.Kept) == 0 {
		return ""
	}
	w := &writer{}
	w.line(0, config.LearnedBegin)
	w.comment(0, "What canon init found in this repository. A value here holds where the settings above leave it out or at its default; set it above to decide otherwise (that wins), or edit it here (canon init --observe --write would put it back).")
	l := &r.Learned
	if l.Empty() {
		w.line(0, "learned: {}")
	} else {
		w.line(0, "learned:")
	}
	if l.Tool != "" {
		w.entry(1, r.Evidence["tool"], "tool: "+scalar(l.Tool))
	}
	if l.Frontmatter != nil {
		w.line(1, "frontmatter:")
		w.entry(2, r.Evidence["frontmatter.text_fields"], "text_fields: "+flow(l.Frontmatter.TextFields))
	}
	if len(l.Prefixes) > 0 {
		w.comment(1, r.Evidence["prefixes"])
		w.line(1, "prefixes:")
		for _, p := range sorted(l.Prefixes) {
			w.line(2, p+": "+scalar(l.Prefixes[p]))
		}
	}
	w.lists(r)
	w.sidecars(r)
	if len(l.Edges) > 0 {
		w.line(1, "edges:")
		for _, f := range sorted(l.Edges) {
			w.entry(2, r.Evidence["edges."+f], f+": "+scalar(l.Edges[f]))
		}
	}
	if s := l.States; s != nil {
		w.comment(1, r.Evidence["states"])
		w.line(1, "states:")
		if s.Field != "" {
			w.line(2, "field: "+scalar(s.Field))
		}
		w.line(2, "open: "+flow(s.Open))
		w.line(2, "done: "+flow(s.Done))
	}
	if c := l.Check; c != nil {
		w.line(1, "check:")
		if len(c.Parents) > 0 {
			w.line(2, "parents:")
			for _, k := range sorted(c.Parents) {
				w.entry(3, r.Evidence["check.parents."+k], k+": "+flow(c.Parents[k]))
			}
		}
		if len(c.Schemas) > 0 {
			w.line(2, "schemas:")
			for _, k := range sorted(c.Schemas) {
				s := c.Schemas[k]
				w.line(3, k+":")
				if s.IDPattern != "" {
					w.entry(4, r.Evidence["check.schemas."+k+".id_pattern"], "id_pattern: "+quoted(s.IDPattern))
				}
				if s.States != nil {
					w.entry(4, r.Evidence["check.schemas."+k+".states"], "states: "+flow(s.States))
				}
				if s.Priorities != nil {
					w.entry(4, r.Evidence["check.schemas."+k+".priorities"], "priorities: "+flow(s.Priorities))
				}
			}
		}
		if c.Dates != nil {
			w.entry(2, r.Evidence["check.dates"], "dates: "+flow(c.Dates))
		}
	}
	if wk := l.Work; wk != nil {
		w.line(1, "work:")
		if wk.Priorities != nil {
			w.entry(2, r.Evidence["work.priorities"], "priorities: "+flow(wk.Priorities))
		}
		if wk.Archive != nil {
			w.entry(2, r.Evidence["work.archive"], "archive: "+flow(wk.Archive))
		}
	}
	if len(r.Kept) > 0 {
		w.comment(0, "Defaults this repository keeps, so canon check reports the exceptions:")
		for _, k := range r.Kept {
			w.comment(0, "- "+k)
		}
	}
	w.line(0, config.LearnedEnd)
	return w.String()
}

type writer struct{ strings.Builder }

// sidecars writes the learned sidecars, under their evidence.
func (w *writer) sidecars(r *Result) {
	if len(r.Learned.Sidecars) == 0 {
		return
	}
	w.comment(1, r.Evidence["sidecars"])
	w.line(1, "sidecars:")
	for _, s := range r.Learned.Sidecars {
		w.line(2, "- file: "+scalar(s.File))
		if s.ID != "" {
			w.line(3, "id: "+scalar(s.ID))
			w.line(3, "prefix: "+scalar(s.Prefix))
		}
	}
}

func (w *writer) line(depth int, s string) {
	w.WriteString(strings.Repeat("  ", depth) + s + "\n")
}

// comment writes text as comment lines of at most 78 columns.
func (w *writer) comment(depth int, text string) {
	if text == "" {
		return
	}
	indent := strings.Repeat("  ", depth) + "# "
	cur := indent
	for _, word := range strings.Fields(text) {
		if len(cur) > len(indent) && len(cur)+1+len(word) > 78 {
			w.WriteString(strings.TrimRight(cur, " ") + "\n")
			cur = indent
		}
		if len(cur) > len(indent) {
			cur += " "
		}
		cur += word
	}
	w.WriteString(cur + "\n")
}

func (w *writer) entry(depth int, evidence, line string) {
	w.comment(depth, evidence)
	w.line(depth, line)
}

func sorted[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// plain is a text YAML reads as the same text without quotes, in a flow
// list too.
var plain = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_ ./'-]*[A-Za-z0-9_./-]$|^[A-Za-z0-9_]$`)

// yamlWords are plain texts YAML reads as something else.
var yamlWords = map[string]bool{"true": true, "false": true, "yes": true, "no": true, "on": true, "off": true, "null": true, "y": true, "n": true}

func scalar(s string) string {
	if plain.MatchString(s) && !yamlWords[strings.ToLower(s)] && !strings.Contains(s, " #") && !strings.Contains(s, ": ") {
		return s
	}
	return quoted(s)
}

func quoted(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func flow(xs []string) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = scalar(x)
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// Keys are the dotted keys of the learned values, in the block's order.
func (r *Result) Keys() []string {
	order := []string{"tool", "frontmatter.text_fields", "prefixes", "bare_numbers", "repo_urls", "templates", "fixtures", "sidecars"}
	for _, f := range sorted(r.Learned.Edges) {
		order = append(order, "edges."+f)
	}
	order = append(order, "states")
	if c := r.Learned.Check; c != nil {
		for _, k := range sorted(c.Parents) {
			order = append(order, "check.parents."+k)
		}
		for _, k := range sorted(c.Schemas) {
			for _, f := range []string{"id_pattern", "states", "priorities"} {
				order = append(order, "check.schemas."+k+"."+f)
			}
		}
	}
	order = append(order, "check.dates", "work.priorities", "work.archive")
	var out []string
	for _, k := range order {
		if r.Evidence[k] != "" {
			out = append(out, k)
		}
	}
	return out
}

// lists writes the learned lists of paths and names: bare numbers, the
// repository's addresses, templates and fixtures.
func (w *writer) lists(r *Result) {
	l := &r.Learned
	for _, e := range []struct {
		key string
		xs  []string
	}{{"bare_numbers", l.BareNumbers}, {"repo_urls", l.RepoURLs}, {"templates", l.Templates}, {"fixtures", l.Fixtures}} {
		if len(e.xs) > 0 {
			w.entry(1, r.Evidence[e.key], e.key+": "+flow(e.xs))
		}
	}
}
