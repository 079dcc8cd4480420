package merge

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/markdown"
	yaml "go.yaml.in/yaml/v4"
)

// frontmatterOf is the text between a document's --- lines, ok false
// when it has none.
func frontmatterOf(doc string) (string, bool) {
	doc = strings.TrimPrefix(doc, "\ufeff")
	lines := strings.SplitAfter(doc, "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], " \t\r\n") != "---" {
		return "", false
	}
	for i := 1; i < len(lines); i++ {
		if strings.TrimRight(lines[i], " \t\r\n") == "---" {
			return strings.Join(lines[1:i], ""), true
		}
	}
	return "", false
}

// decoded is a frontmatter's values as canon reads them (index/markdown:
// values kept as written, ADR-0002; "00" is the text 00, not the number
// 0) and its comments as YAML reads them: the comment lines and the
// comments at the ends of lines.
type decoded struct {
	value    map[string]any
	comments map[string]int
}

func decode(fm string) (*decoded, error) {
	doc := markdown.Parse("", []byte("---\n"+fm+"---\n"), &markdown.Options{})
	for _, p := range doc.Problems {
		if p.Severity == markdown.Error && p.Line < doc.BodyLine {
			return nil, fmt.Errorf("%d: %s", p.Line, p.Message)
		}
	}
	if doc.Frontmatter == nil || doc.Frontmatter.Kind != markdown.Map {
		return nil, fmt.Errorf("no mapping")
	}
	d := &decoded{comments: map[string]int{}}
	d.value, _ = plain(doc.Frontmatter).(map[string]any)
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(fm), &n); err != nil {
		return nil, err
	}
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if n.LineComment != "" {
			d.comments["inline "+strings.TrimSpace(n.LineComment)]++
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&n)
	for _, l := range strings.SplitAfter(fm, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			d.comments["line "+strings.TrimRight(l, "\r\n")]++
		}
	}
	return d, nil
}

// plain turns a value into maps, lists and "kind:text" scalars.
func plain(v *markdown.Value) any {
	switch v.Kind {
	case markdown.Null:
		return nil
	case markdown.List:
		l := make([]any, 0, len(v.Items))
		for _, it := range v.Items {
			l = append(l, plain(it))
		}
		return l
	case markdown.Map:
		m := make(map[string]any, len(v.Fields))
		for _, f := range v.Fields {
			m[f.Key] = plain(f.Value)
		}
		return m
	}
	return fmt.Sprintf("%d:%s", v.Kind, v.Text)
}

// checkKept is the test's own oracle of what a clean merge keeps,
// written apart from the driver's proof: the merged frontmatter parses;
// a field only one side changed has that side's decoded value; a list of
// scalars both changed holds both sides' items less those either
// removed; a nested mapping both changed is held to the same field by
// field; and every comment either side added is there as many times,
// and none more often than the two sides' changes make. It
// returns "" when the merge keeps all that, and makes no claim when a
// side's frontmatter does not parse.
func checkKept(base, ours, theirs, merged string) string {
	var d [3]*decoded
	for i, doc := range []string{base, ours, theirs} {
		fm, ok := frontmatterOf(doc)
		if !ok {
			return ""
		}
		var err error
		if d[i], err = decode(fm); err != nil {
			return ""
		}
	}
	fm, ok := frontmatterOf(merged)
	if !ok {
		return "the merged document has no frontmatter"
	}
	r, err := decode(fm)
	if err != nil {
		return fmt.Sprintf("the merged frontmatter does not parse: %v", err)
	}
	for _, s := range d[1:] {
		for c, n := range s.comments {
			if n-d[0].comments[c] > r.comments[c] {
				return fmt.Sprintf("the comment %q is lost", c)
			}
		}
	}
	for c, n := range r.comments {
		o, a, t := d[0].comments[c], d[1].comments[c], d[2].comments[c]
		if n > max(a+t-o, a, t) {
			return fmt.Sprintf("the comment %q is there %d times, more than either side wrote", c, n)
		}
	}
	return keptMap("", d[0].value, d[1].value, d[2].value, r.value)
}

func keptMap(path string, o, a, t, r map[string]any) string {
	keys := map[string]bool{}
	for _, m := range []map[string]any{o, a, t} {
		for k := range m {
			keys[k] = true
		}
	}
	for k := range keys {
		vo, inO := o[k]
		va, inA := a[k]
		vt, inT := t[k]
		vr, inR := r[k]
		same := func(x any, inX bool, y any, inY bool) bool { return inX == inY && reflect.DeepEqual(x, y) }
		changedA, changedT := !same(vo, inO, va, inA), !same(vo, inO, vt, inT)
		switch {
		case !changedA && !changedT:
			if !same(vr, inR, vo, inO) {
				return fmt.Sprintf("%s%s changed though neither side changed it: %#v", path, k, vr)
			}
		case !changedT || same(va, inA, vt, inT):
			if !same(vr, inR, va, inA) {
				return fmt.Sprintf("%s%s is %#v, ours wrote %#v", path, k, vr, va)
			}
		case !changedA:
			if !same(vr, inR, vt, inT) {
				return fmt.Sprintf("%s%s is %#v, theirs wrote %#v", path, k, vr, vt)
			}
		default:
			ma, okA := va.(map[string]any)
			mt, okT := vt.(map[string]any)
			mr, okR := vr.(map[string]any)
			mo, okO := vo.(map[string]any)
			if okA && okT && (okO || !inO) {
				if !okR {
					return fmt.Sprintf("%s%s is no mapping: %#v", path, k, vr)
				}
				if why := keptMap(path+k+".", mo, ma, mt, mr); why != "" {
					return why
				}
				continue
			}
			la, okA := scalars(va)
			lt, okT := scalars(vt)
			lo, okO := scalars(vo)
			if !okA || !okT || !okO {
				continue // a rule of its own (the later date) or a conflict
			}
			lr, ok := scalars(vr)
			if !ok {
				return fmt.Sprintf("%s%s is no list: %#v", path, k, vr)
			}
			set := func(l []string) map[string]bool {
				s := make(map[string]bool, len(l))
				for _, x := range l {
					s[x] = true
				}
				return s
			}
			so, sa, st := set(lo), set(la), set(lt)
			var want []string
			for _, x := range append(slices.Clone(la), lt...) {
				if !so[x] || sa[x] && st[x] {
					want = append(want, x)
				}
			}
			want = slices.Compact(slices.Sorted(slices.Values(want)))
			slices.Sort(lr)
			if !slices.Equal(want, lr) {
				return fmt.Sprintf("%s%s holds %q, want %q", path, k, lr, want)
			}
		}
	}
	return ""
}

// scalars reads a list of scalars (absent or null: empty) as strings.
func scalars(v any) ([]string, bool) {
	if v == nil {
		return nil, true
	}
	l, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(l))
	for _, x := range l {
		switch x.(type) {
		case []any, map[string]any:
			return nil, false
		}
		out = append(out, fmt.Sprint(x))
	}
	return out, true
}

// Hostile values, as written in each place, and comments.
var (
	blockTokens = []string{"a", "https://example.com/spec#section-4.2", "issue#12", `"see # 3"`, `'d#e'`, `"a: b"`,
		`'it''s'`, `"say \"hi\" # x"`, "a:b", "c # with a comment", `"q, r"`, `'[x]'`, "x#y # and a comment: too", `'1'`, "1"}
	flowTokens = []string{"a", `'d#e'`, `"b, c"`, "issue#12", "https://x.org/a#b", `"see # 3"`, `'it''s'`, `"[y]"`, `"\"q\""`, "1", `'1'`}
	comments   = []string{"# a comment", "  # between items, with: a colon", "# see #12", "# 'quoted' \"both\""}
	scalarVals = []string{`"Title: with a colon"`, `'quoted # hash'`, "plain#hash", "words # and a comment", `"esc \" # x"`}
)

// hostile is a frontmatter as a model: the property test edits it on
// each side and renders it.
type hostile struct {
	title, status, updated, extra string
	refs                          [][2]string // block list: a comment line above (or ""), the item
	tags                          []string    // flow list
	blocks                        []string    // links.blocks, a nested flow list
	after                         map[string]string
}

func (h hostile) clone() hostile {
	h.refs = slices.Clone(h.refs)
	h.tags = slices.Clone(h.tags)
	h.blocks = slices.Clone(h.blocks)
	after := map[string]string{}
	for k, v := range h.after {
		after[k] = v
	}
	h.after = after
	return h
}

func (h hostile) render() string {
	var b strings.Builder
	field := func(key, line string) {
		b.WriteString(line)
		if c := h.after[key]; c != "" {
			b.WriteString(c + "\n")
		}
	}
	b.WriteString("---\n")
	field("id", "id: T-1\n")
	field("title", "title: "+h.title+"\n")
	field("status", "status: "+h.status+"\n")
	field("updated", "updated: "+h.updated+"\n")
	var refs strings.Builder
	refs.WriteString("refs:\n")
	for _, r := range h.refs {
		if r[0] != "" {
			refs.WriteString(r[0] + "\n")
		}
		refs.WriteString("  - " + r[1] + "\n")
	}
	field("refs", refs.String())
	field("tags", "tags: ["+strings.Join(h.tags, ", ")+"]\n")
	field("links", "links:\n  blocks: ["+strings.Join(h.blocks, ", ")+"]\n")
	if h.extra != "" {
		b.WriteString(h.extra)
	}
	b.WriteString("---\n# T\n\nBody.\n")
	return b.String()
}

func pick(r *rand.Rand, from []string) string { return from[r.Intn(len(from))] }

// editHostile makes one side's edits: items with hostile values added to
// the lists (with a comment line above some), a base item removed, a
// comment line under a field, the title or the status, the date, a new
// field of its own.
func editHostile(r *rand.Rand, h hostile, side int) hostile {
	h = h.clone()
	for n := r.Intn(4); n > 0; n-- {
		tok := pick(r, blockTokens)
		if slices.ContainsFunc(h.refs, func(x [2]string) bool { return x[1] == tok }) {
			continue
		}
		c := ""
		if r.Intn(2) == 0 {
			c = pick(r, comments)
		}
		h.refs = append(h.refs, [2]string{c, tok})
	}
	for n := r.Intn(3); n > 0; n-- {
		if tok := pick(r, flowTokens); !slices.Contains(h.tags, tok) {
			h.tags = append(h.tags, tok)
		}
	}
	if r.Intn(2) == 0 {
		if tok := pick(r, flowTokens); !slices.Contains(h.blocks, tok) {
			h.blocks = append(h.blocks, tok)
		}
	}
	if r.Intn(4) == 0 && len(h.refs) > 1 {
		h.refs = slices.Delete(h.refs, 0, 1)
	}
	if r.Intn(4) == 0 && len(h.tags) > 1 {
		h.tags = slices.Delete(h.tags, 0, 1)
	}
	if r.Intn(3) == 0 {
		keys := []string{"id", "title", "status", "updated", "refs", "tags", "links"}
		h.after[keys[r.Intn(len(keys))]] = pick(r, comments)
	}
	if r.Intn(2) == 0 {
		if side == 0 {
			h.title = pick(r, scalarVals)
		} else {
			h.status = pick(r, scalarVals)
		}
	}
	if r.Intn(2) == 0 {
		h.updated = fmt.Sprintf("2026-03-%02d", 1+r.Intn(28))
	}
	if r.Intn(3) == 0 {
		h.extra = fmt.Sprintf("side%d: %s\n", side, pick(r, scalarVals))
	}
	return h
}

// TestMergeKeepsHostileValues: over random edits on both sides with
// values holding #, quotes, colons and commas, in flow and block lists,
// with comments between items and fields, a merge that reports no
// conflict keeps every value and comment either side wrote (the test's
// own oracle, with real git merge-file as the line merge), whichever side
// is ours. Most of them merge field by field, not by the fallback.
func TestMergeKeepsHostileValues(t *testing.T) {
	lm := gitLines(t)
	n := 150
	if testing.Short() {
		n = 40
	}
	structured := 0
	for seed := range n {
		r := rand.New(rand.NewSource(int64(seed)))
		base := hostile{title: "Title", status: "open", updated: "2026-01-01",
			refs: [][2]string{{"", "a"}, {"# about b", "b"}}, tags: []string{"x", "y"}, blocks: []string{"A"}}
		ours, theirs := editHostile(r, base, 0), editHostile(r, base, 1)
		for _, pair := range [][2]hostile{{ours, theirs}, {theirs, ours}} {
			b, a, th := base.render(), pair[0].render(), pair[1].render()
			res, err := Merge([]byte(b), []byte(a), []byte(th), Options{Lines: lm})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if res.Conflict {
				continue
			}
			if res.Fallback == "" {
				structured++
			} else {
				t.Logf("seed %d: fallback: %s", seed, res.Fallback)
			}
			if why := checkKept(b, a, th, string(res.Merged)); why != "" {
				t.Fatalf("seed %d: %s (fallback %q)\nbase:\n%s\nours:\n%s\ntheirs:\n%s\nmerged:\n%s", seed, why, res.Fallback, b, a, th, res.Merged)
			}
		}
	}
	if structured < n {
		t.Errorf("%d of %d merges went field by field; the driver falls back too often", structured, 2*n)
	}
	t.Logf("%d of %d merges field by field", structured, 2*n)
}
