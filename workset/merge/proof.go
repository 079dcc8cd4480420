package merge

import (
	"fmt"
	"strings"

	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/index/markdown"
	yaml "go.yaml.in/yaml/v4"
)

// prove checks a merge before it is reported: whatever either side added
// or changed against the base is in the result as that side wrote it. It
// returns why not ("" when the merge holds), and then the caller merges
// the whole file line by line instead.
//
//   - The body: every non-blank line either side added is there as many
//     times as that side added it.
//   - The frontmatter, parsed again: every field's decoded value is the
//     one the rules give (the side that changed it, the value both gave,
//     the later date, the set both sides' changes make, a nested mapping
//     field by field); a field both sides changed that no rule joins is a
//     doubt. A conflict a person resolves counts as ours' here.
//   - Every comment line either side added to the frontmatter is there as
//     many times, and so is every comment either side added at the end of
//     a line (read by the YAML parser, so a # inside quotes or a URL is
//     no comment).
func (m *merger) prove(merged []byte) string {
	o, a, t := m.sides[0], m.sides[1], m.sides[2]
	text := string(merged)
	if a.bom {
		text = strings.TrimPrefix(text, string(bomBytes))
	}
	if !strings.HasPrefix(text, m.head) {
		return "the line merge changed the merged frontmatter"
	}
	if l := lostLine(m.sides, text[len(m.head):]); l != "" {
		return fmt.Sprintf("the merged text lacked the line %q one side added", l)
	}
	if m.head == "" {
		return ""
	}
	co, ca, ct := commentLines(fmLines(o)), commentLines(fmLines(a)), commentLines(fmLines(t))
	cr := commentLines(strings.SplitAfter(m.fm.String(), "\n"))
	if c := lost(co, ca, ct, cr); c != "" {
		return fmt.Sprintf("the merged frontmatter lacked the comment %q one side added", c)
	}
	if !m.conflict {
		// Nor more copies than the two sides' changes make.
		for c, n := range cr {
			if n > max(ca[c]+ct[c]-co[c], ca[c], ct[c]) {
				return fmt.Sprintf("the merged frontmatter has the comment %q more times than either side", c)
			}
		}
	}
	alt := m.alt.String()
	doc := markdown.Parse("", []byte(a.lines[0]+alt+a.lines[a.fmEnd]), &markdown.Options{})
	if doc.Format != "yaml" {
		return "the merged frontmatter does not parse"
	}
	if why := unreadable(doc); why != "" {
		return "the merged frontmatter: " + strings.TrimPrefix(why, "a frontmatter ")
	}
	p := prover{date: edit.UpdatedField(a.doc.Frontmatter), conflicted: m.conflicted, sets: m.sets}
	if why := p.check(nil, o.doc.Frontmatter, a.doc.Frontmatter, t.doc.Frontmatter, doc.Frontmatter); why != "" {
		return why
	}
	return m.lineComments(alt)
}

func fmLines(s *side) []string { return s.lines[1:s.fmEnd] }

// commentLines counts the lines that are only a comment.
func commentLines(ls []string) map[string]int {
	n := map[string]int{}
	for _, l := range ls {
		if isComment(l) {
			n[strings.TrimRight(l, "\r\n")]++
		}
	}
	return n
}

// lineComments checks the comments at the ends of lines. They are read
// by the YAML parser, which is paid only when ours or theirs has a # after
// a blank that does not start its line.
func (m *merger) lineComments(alt string) string {
	o, a, t := m.sides[0], m.sides[1], m.sides[2]
	if !inlineHash(fmLines(a)) && !inlineHash(fmLines(t)) {
		return ""
	}
	var counts [4]map[string]int
	for i, text := range []string{strings.Join(fmLines(o), ""), strings.Join(fmLines(a), ""), strings.Join(fmLines(t), ""), alt} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(text), &n); err != nil {
			return "the merged frontmatter's comments could not be read (" + err.Error() + ")"
		}
		counts[i] = map[string]int{}
		lineCommentsOf(&n, counts[i], 0)
	}
	// A comment in a conflict is in the file, between its markers (alt
	// holds ours' side of it).
	r := counts[3]
	for _, side := range counts[1:3] {
		for c := range side {
			for _, k := range m.conflicts {
				r[c] += strings.Count(k, c)
			}
		}
	}
	if c := lost(counts[0], counts[1], counts[2], r); c != "" {
		return fmt.Sprintf("the merged frontmatter lacked the comment %q one side added", c)
	}
	return ""
}

// inlineHash reports a line with a # after a blank that is not its first
// character: a comment at the end of a line may be there.
func inlineHash(ls []string) bool {
	for _, l := range ls {
		t := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(t, "#") {
			continue
		}
		if strings.Contains(t, " #") || strings.Contains(t, "\t#") {
			return true
		}
	}
	return false
}

func lineCommentsOf(n *yaml.Node, out map[string]int, depth int) {
	if n == nil || depth > markdown.MaxFrontmatterDepth+2 {
		return
	}
	if n.LineComment != "" {
		for _, l := range strings.Split(n.LineComment, "\n") {
			out[strings.TrimSpace(l)]++
		}
	}
	for _, c := range n.Content {
		lineCommentsOf(c, out, depth+1)
	}
}

// prover checks decoded values field by field.
type prover struct {
	date       string
	conflicted map[string]bool
	sets       sets
}

func (p *prover) check(path []string, o, a, t, r *markdown.Value) string {
	want := func(w *markdown.Value, who string) string {
		if equal(r, w) {
			return ""
		}
		switch {
		case w == nil && o == nil:
			return fmt.Sprintf("the merged frontmatter has %s, which neither side has", show(path))
		case w == nil:
			return fmt.Sprintf("the merged frontmatter has %s, which %s removed", show(path), who)
		}
		return fmt.Sprintf("the merged frontmatter's %s is not the value %s wrote", show(path), who)
	}
	switch {
	case p.conflicted[fieldKey(path)]:
		return want(a, "ours") // a person decides; until then the file holds both
	case isMap(a) && isMap(t) && isMap(r) && (o == nil || isMap(o)):
		return p.fields(path, o, a, t, r) // the same, field by field, says which
	}
	switch changedA, changedT := !equal(o, a), !equal(o, t); {
	case !changedT:
		return want(a, "ours")
	case !changedA:
		return want(t, "theirs")
	case equal(a, t):
		return want(a, "both sides")
	}
	// Both sides changed it, differently: only a rule may join them.
	switch {
	case isMap(a) && isMap(t) && (o == nil || isMap(o)):
		return fmt.Sprintf("the merged frontmatter's %s is no mapping", show(path))
	case len(path) == 1 && path[0] == p.date && isDate(a) && isDate(t):
		if !(equal(r, a) || equal(r, t)) || !isDate(r) {
			return fmt.Sprintf("the merged frontmatter's %s is neither side's date", show(path))
		}
		dr, _ := parseDate(r.Text)
		da, _ := parseDate(a.Text)
		dt, _ := parseDate(t.Text)
		if dr.Before(da) || dr.Before(dt) {
			return fmt.Sprintf("the merged frontmatter's %s is not the later date", show(path))
		}
		return ""
	}
	so, ok1 := p.sets.of(o)
	sa, ok2 := p.sets.of(a)
	st, ok3 := p.sets.of(t)
	if !ok1 || !ok2 || !ok3 {
		return fmt.Sprintf("both sides changed %s and no rule of the driver joins the two", show(path))
	}
	sr, ok := p.sets.of(r)
	if !ok {
		return fmt.Sprintf("the merged frontmatter's %s is not a list of distinct items", show(path))
	}
	// Ours' items and theirs', less those either side removed.
	expect := map[item]bool{}
	for _, side := range []map[item]bool{sa, st} {
		for x := range side {
			if !so[x] || sa[x] && st[x] {
				expect[x] = true
			}
		}
	}
	for x := range expect {
		if !sr[x] {
			return fmt.Sprintf("the merged frontmatter's %s lacks an item one side has", show(path))
		}
	}
	if len(sr) != len(expect) {
		return fmt.Sprintf("the merged frontmatter's %s holds an item one side removed or neither has", show(path))
	}
	return ""
}

// fields checks a mapping field by field: every key any of the four has.
func (p *prover) fields(path []string, o, a, t, r *markdown.Value) string {
	var idx [4]map[string]*markdown.Value
	vals := [4]*markdown.Value{o, a, t, r}
	for i, v := range vals {
		idx[i] = fields(v)
	}
	seen := map[string]bool{}
	for _, v := range vals {
		if v == nil {
			continue
		}
		for _, f := range v.Fields {
			if seen[f.Key] {
				continue
			}
			seen[f.Key] = true
			k := append(path[:len(path):len(path)], f.Key)
			if why := p.check(k, idx[0][f.Key], idx[1][f.Key], idx[2][f.Key], idx[3][f.Key]); why != "" {
				return why
			}
		}
	}
	return ""
}

func isMap(v *markdown.Value) bool { return v != nil && v.Kind == markdown.Map }

func show(path []string) string {
	if len(path) == 0 {
		return "frontmatter"
	}
	return strings.Join(path, ".")
}

// fields indexes a mapping's values by key (nil for no mapping).
func fields(v *markdown.Value) map[string]*markdown.Value {
	if v == nil {
		return nil
	}
	idx := make(map[string]*markdown.Value, len(v.Fields))
	for _, f := range v.Fields {
		idx[f.Key] = f.Value
	}
	return idx
}

func isDate(v *markdown.Value) bool {
	if _, ok := v.Scalar(); !ok {
		return false
	}
	_, ok := parseDate(v.Text)
	return ok
}

// sets are lists read as sets, each once: the merge and the proof ask
// for the same lists of tens of thousands of items.
type sets map[*markdown.Value]map[item]bool

// of reads a list of distinct scalars (absent and null are empty) as a
// set of items by kind and decoded text; ok is false for anything else.
func (ss sets) of(v *markdown.Value) (map[item]bool, bool) {
	if v == nil || v.Kind == markdown.Null {
		return map[item]bool{}, true
	}
	if v.Kind != markdown.List {
		return nil, false
	}
	if s, ok := ss[v]; ok {
		return s, s != nil
	}
	s := make(map[item]bool, len(v.Items))
	for _, it := range v.Items {
		if _, ok := it.Scalar(); !ok || s[itemID(it)] {
			ss[v] = nil
			return nil, false
		}
		s[itemID(it)] = true
	}
	ss[v] = s
	return s, true
}

// equal compares two decoded values; a mapping's order does not count.
func equal(x, y *markdown.Value) bool {
	if x == nil || y == nil {
		return x == y
	}
	if x.Kind != y.Kind || x.Text != y.Text || len(x.Items) != len(y.Items) || len(x.Fields) != len(y.Fields) {
		return false
	}
	for i := range x.Items {
		if !equal(x.Items[i], y.Items[i]) {
			return false
		}
	}
	if len(x.Fields) == 0 {
		return true
	}
	idx := fields(y)
	for _, f := range x.Fields {
		w, ok := idx[f.Key]
		if !ok || !equal(f.Value, w) {
			return false
		}
	}
	return true
}
