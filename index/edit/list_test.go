package edit

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	yaml "go.yaml.in/yaml/v4"

	"github.com/canon-md/canon/index/markdown"
)

// listHostile are items YAML gives a meaning to when written as they are
// (issue 41: an id "X-1, T-9" injected an edge; "X-1]", "X-1 #c" and
// "{X-1" left the frontmatter unparsable).
var listHostile = []string{
	"T-9", "X-1, T-9", "X-1]", "X-1 #c", "{X-1", "X-1}", "[X-1", "X-1#c", "#c", " #", "a:b", "a: b", "a:", ":",
	",", "[", "]", "{", "}", `"X-1"`, "'X-1'", `a"b`, "a'b", `\`, `a\"b`, `a\`,
	"-", "- a", "-a", "--- x", "*a", "&a", "!a", "|", ">", "> a", "%a", "@a", "`a", "?", "? a",
	"true", "null", "~", "0097", "12", " a", "a ", "[[X-1]]", "a #b", "K-1", "İT-1", "\u00a0a",
}

// listDocs are the shapes of a list AddToList adds to, each with the
// items it holds.
var listDocs = []struct {
	name, doc string
	items     []string
}{
	{"flow", "---\nid: B-1\nblocked_by: [C-1, D-1]\ntitle: t\n---\n# B\n", []string{"C-1", "D-1"}},
	{"flow single-quoted", "---\nblocked_by: ['C-1']\n---\n", []string{"C-1"}},
	{"flow double-quoted", "---\nblocked_by: [\"C-1\"]  # c\n---\n", []string{"C-1"}},
	{"flow over lines", "---\nblocked_by: [\n  C-1,\n  \"D-1\"\n]\n---\n", []string{"C-1", "D-1"}},
	{"flow empty", "---\nblocked_by: []\n---\n", nil},
	{"block", "---\nblocked_by:\n  - C-1\ntitle: t\n---\n", []string{"C-1"}},
	{"block single-quoted", "---\nblocked_by:\n- 'C-1'\n---\n", []string{"C-1"}},
	{"block double-quoted", "---\nblocked_by:\n  - \"C-1\"\n---\n", []string{"C-1"}},
	{"scalar", "---\nblocked_by: C-1\n---\n", []string{"C-1"}},
	{"scalar with a comma", "---\nblocked_by: C-1, x]\n---\n", []string{"C-1, x]"}},
	{"null", "---\nblocked_by:\ntitle: t\n---\n", nil},
	{"absent", "---\nid: B-1\n---\n", nil},
	{"nested", "---\nlinks:\n  blocked_by: [C-1]\n  blocks: []\n---\n", []string{"C-1"}},
	{"TOML", "+++\nblocked_by = [\"C-1\"]\n+++\n", []string{"C-1"}},
	{"TOML literal", "+++\nblocked_by = ['C-1']\n+++\n", []string{"C-1"}},
	{"TOML absent", "+++\nid = \"B-1\"\n+++\n", nil},
}

// TestAddToListHostile: whatever the item, AddToList writes it so
// that go.yaml.in/yaml/v4 (or the TOML parser) and canon's own parser read
// the list back as the items it held and that item, nothing injected and
// nothing broken; and a second item appended after it lands as well (what
// canon wrote, canon can edit again). Items with a newline, a tab or
// another control character are refused with the reason.
func TestAddToListHostile(t *testing.T) {
	t.Parallel()
	for _, d := range listDocs {
		field := "blocked_by"
		if d.name == "nested" {
			field = "links.blocked_by"
		}
		for _, item := range listHostile {
			out, changed, err := AddToList([]byte(d.doc), field, item)
			if err != nil || !changed {
				t.Errorf("%s: AddToList(%q): %v, changed %v", d.name, item, err, changed)
				continue
			}
			want := append(slices.Clone(d.items), item)
			readList(t, d.name, out, field, want)
			out2, _, err := AddToList(out, field, "Z-9")
			if err != nil {
				t.Errorf("%s: after %q, Z-9: %v\n%s", d.name, item, err, out)
				continue
			}
			readList(t, d.name+" then Z-9", out2, field, append(want, "Z-9"))
		}
		for _, item := range []string{"a\nb", "X-1]\nstatus: Done", "a\tb", "a\u0085b", "a\x1b[31m"} {
			if out, _, err := AddToList([]byte(d.doc), field, item); !errors.Is(err, ErrNotPlain) || string(out) != d.doc {
				t.Errorf("%s: AddToList(%q) = %v; want it refused, the file unchanged", d.name, item, err)
			}
		}
	}
}

// readList reads field of a document's frontmatter with the parser of its
// format and with canon's, and compares it with want.
func readList(t *testing.T, name string, content []byte, field string, want []string) {
	t.Helper()
	s := string(content)
	delim := "---\n"
	if strings.HasPrefix(s, "+++") {
		delim = "+++\n"
	}
	fm, _, _ := strings.Cut(strings.TrimPrefix(s, delim), delim)
	var got []string
	if delim == "+++\n" {
		var m map[string]any
		if _, err := toml.Decode(fm, &m); err != nil {
			t.Fatalf("%s: %q does not parse: %v\n%s", name, want[len(want)-1], err, s)
		}
		for _, it := range m[field].([]any) {
			switch it := it.(type) {
			case string:
				got = append(got, it)
			case int64: // a decimal integer stays one, as in YAML
				got = append(got, strconv.FormatInt(it, 10))
			default:
				t.Fatalf("%s: an item %v\n%s", name, it, s)
			}
		}
	} else {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(fm), &m); err != nil {
			t.Fatalf("%s: %q does not parse: %v\n%s", name, want[len(want)-1], err, s)
		}
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(fm), &n); err != nil {
			t.Fatal(err)
		}
		var top struct {
			BlockedBy []*string            `yaml:"blocked_by"`
			Links     map[string][]*string `yaml:"links"`
		}
		if err := yaml.Unmarshal([]byte(fm), &top); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		list := top.BlockedBy
		if field == "links.blocked_by" {
			list = top.Links["blocked_by"]
		}
		for _, it := range list {
			if it == nil {
				t.Fatalf("%s: a null item in\n%s", name, s)
			}
			got = append(got, *it)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%s: read back %q, want %q\n%s", name, got, want, s)
	}
	d := markdown.Parse("a.md", content, &markdown.Options{})
	f, _, _ := lookup(d, field)
	if f == nil || f.Value.Kind != markdown.List {
		t.Fatalf("%s: canon reads no list\n%s", name, s)
	}
	var texts []string
	for _, it := range f.Value.Items {
		if it.Kind != markdown.String && it.Kind != markdown.Number {
			t.Fatalf("%s: canon reads an item of kind %d\n%s", name, it.Kind, s)
		}
		texts = append(texts, it.Text)
	}
	if !slices.Equal(texts, want) {
		t.Fatalf("%s: canon reads %q, want %q\n%s", name, texts, want, s)
	}
}

// TestListReads: the check AddToList makes of its own edit refuses one
// that injects an item, breaks the frontmatter or changes another field.
func TestListReads(t *testing.T) {
	t.Parallel()
	before := "---\nid: B-1\nblocked_by: [C-1]\nlinks:\n  blocks: [D-1]\n  relates: []\n---\n"
	for _, c := range []struct{ field, after, item string }{
		{"blocked_by", "---\nid: B-1\nblocked_by: [C-1, X-1, T-9]\nlinks:\n  blocks: [D-1]\n  relates: []\n---\n", "X-1, T-9"},
		{"blocked_by", "---\nid: B-1\nblocked_by: [C-1, X-1]]\nlinks:\n  blocks: [D-1]\n  relates: []\n---\n", "X-1]"},
		{"blocked_by", "---\nid: B-1\nblocked_by: [C-1, X-1 #c]\nlinks:\n  blocks: [D-1]\n  relates: []\n---\n", "X-1 #c"},
		{"blocked_by", "---\nid: B-2\nblocked_by: [C-1, X-1]\nlinks:\n  blocks: [D-1]\n  relates: []\n---\n", "X-1"},
		{"links.relates", "---\nid: B-1\nblocked_by: [C-1]\nlinks:\n  blocks: [D-1, X-1]\n  relates: [X-1]\n---\n", "X-1"},
		{"links.relates", "---\nid: B-1\nblocked_by: [C-1]\nlinks:\n  blocks: [D-1]\n  relates: [X-1]\n  x: 1\n---\n", "X-1"},
	} {
		if err := listReads([]byte(before), []byte(c.after), c.field, append(listed([]byte(before), c.field), c.item)); err == nil {
			t.Errorf("listReads took\n%s", c.after)
		}
	}
	ok := "---\nid: B-1\nblocked_by: [C-1]\nlinks:\n  blocks: [D-1]\n  relates: [\"X-1 #c\"]\n---\n"
	if err := listReads([]byte(before), []byte(ok), "links.relates", []string{"X-1 #c"}); err != nil {
		t.Errorf("listReads refused a good edit: %v", err)
	}
}

// TestEditsRefuseLines: a list item or a replacement holding a newline
// is never written into frontmatter (it would forge a field).
func TestEditsRefuseLines(t *testing.T) {
	t.Parallel()
	doc := []byte("---\nid: A-1\ndecisions: [ADR-0001]\n---\n# A\n")
	if _, _, err := AddToList(doc, "decisions", "ADR-0002]\nstatus: Done\nx: [y"); !errors.Is(err, ErrNotPlain) {
		t.Fatalf("AddToList took a newline: %v", err)
	}
	if got, _ := markdown.Scalar("items/a, b].md", "yaml", 0); got != `"items/a, b].md"` {
		t.Errorf("markdown.Scalar = %s", got)
	}
	if got, _ := markdown.Scalar("KB-1@01943c8b", "yaml", 0); got != "KB-1@01943c8b" {
		t.Errorf("markdown.Scalar = %s", got)
	}
}

func TestRemoveFromList(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want string
	}{
		{name: "flow, first",
			in:   j("---", "blocked_by: [C-1, D-1, E-1]", "title: t", "---"),
			want: j("---", "blocked_by: [D-1, E-1]", "title: t", "---")},
		{name: "flow, middle",
			in:   j("---", "blocked_by: [D-1, C-1, E-1]", "---"),
			want: j("---", "blocked_by: [D-1, E-1]", "---")},
		{name: "flow, last",
			in:   j("---", "blocked_by: [D-1, c-1]  # c", "---"),
			want: j("---", "blocked_by: [D-1]  # c", "---")},
		{name: "flow, the only one",
			in:   j("---", "blocked_by: [ 'C-1' ]", "---"),
			want: j("---", "blocked_by: []", "---")},
		{name: "flow, twice",
			in:   j("---", "blocked_by: [C-1, D-1, C-1]", "---"),
			want: j("---", "blocked_by: [D-1]", "---")},
		{name: "flow over lines, first",
			in:   j("---", "blocked_by: [", "  C-1,", "  D-1", "]", "---"),
			want: j("---", "blocked_by: [", "  D-1", "]", "---")},
		{name: "flow over lines, last",
			in:   j("---", "blocked_by: [", "  D-1,", "  C-1", "]", "---"),
			want: j("---", "blocked_by: [", "  D-1", "]", "---")},
		{name: "flow trailing comma",
			in:   j("---", "blocked_by: [D-1, C-1,]", "---"),
			want: j("---", "blocked_by: [D-1,]", "---")},
		{name: "flow, quoted with a comma",
			in:   j("---", `blocked_by: ["C-1", "X, Y", D-1]`, "---"),
			want: j("---", `blocked_by: ["C-1", D-1]`, "---"), // removes "X, Y" below
		},
		{name: "block, middle",
			in:   j("---", "blocked_by:", "  - D-1", "  - C-1", "  - E-1", "title: t", "---"),
			want: j("---", "blocked_by:", "  - D-1", "  - E-1", "title: t", "---")},
		{name: "block, with a continuation",
			in:   j("---", "blocked_by:", "- C-1", "  # why", "- D-1", "---"),
			want: j("---", "blocked_by:", "- D-1", "---")},
		{name: "block, the only one",
			in:   j("---", "blocked_by: # c", "  - C-1", "title: t", "---"),
			want: j("---", "blocked_by: [] # c", "title: t", "---")},
		{name: "scalar",
			in:   j("---", "blocked_by: C-1", "---"),
			want: j("---", "blocked_by: []", "---")},
		{name: "not there",
			in:   j("---", "blocked_by: [D-1]", "---"),
			want: j("---", "blocked_by: [D-1]", "---")},
		{name: "absent",
			in:   j("---", "id: A-1", "---"),
			want: j("---", "id: A-1", "---")},
		{name: "nested",
			in:   j("---", "links:", "  blocked_by: [C-1, D-1]", "  blocks: [C-1]", "---"),
			want: j("---", "links:", "  blocked_by: [D-1]", "  blocks: [C-1]", "---")},
		{name: "TOML",
			in:   j("+++", `blocked_by = ["D-1", "C-1"]`, "+++"),
			want: j("+++", `blocked_by = ["D-1"]`, "+++")},
		{name: "CRLF block with BOM, no final line ending",
			in:   bom + "---\r\nblocked_by:\r\n  - D-1\r\n  - C-1\r\n---",
			want: bom + "---\r\nblocked_by:\r\n  - D-1\r\n---"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			field, item := "blocked_by", "C-1"
			if tc.name == "nested" {
				field = "links.blocked_by"
			}
			if strings.Contains(tc.name, "with a comma") {
				item = "X, Y"
			}
			out, changed, err := RemoveFromList([]byte(tc.in), field, item)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("got\n%q\nwant\n%q", out, tc.want)
			}
			if changed != (tc.in != tc.want) {
				t.Errorf("changed = %v", changed)
			}
		})
	}
	if out, _, err := RemoveFromList([]byte(j("---", "blocked_by: [C-1, {a: b}]", "---")), "blocked_by", "C-1"); err != nil || !strings.Contains(string(out), "blocked_by: [{a: b}]") {
		t.Errorf("a list holding a mapping: %v\n%s", err, out)
	}
}

// TestAddRemoveHostile: whatever the item, adding it to a list and taking
// it out again gives a list that reads as it did before; the frontmatter
// parses at every step.
func TestAddRemoveHostile(t *testing.T) {
	t.Parallel()
	for _, d := range listDocs {
		field := "blocked_by"
		if d.name == "nested" {
			field = "links.blocked_by"
		}
		for _, item := range listHostile {
			if slices.ContainsFunc(d.items, func(s string) bool { return sameItem(s, item) }) {
				continue
			}
			added, _, err := AddToList([]byte(d.doc), field, item)
			if err != nil {
				t.Errorf("%s: AddToList(%q): %v", d.name, item, err)
				continue
			}
			removed, changed, err := RemoveFromList(added, field, item)
			if err != nil || !changed {
				t.Errorf("%s: RemoveFromList(%q): %v, changed %v\n%s", d.name, item, err, changed, added)
				continue
			}
			if len(d.items) > 0 || d.name == "flow empty" {
				readList(t, d.name+" without "+item, removed, field, d.items)
			} else if got := listed(removed, field); len(got) != 0 {
				t.Errorf("%s: after removing %q it lists %q\n%s", d.name, item, got, removed)
			}
		}
	}
}
