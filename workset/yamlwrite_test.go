package workset

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	yaml "go.yaml.in/yaml/v4"

	"github.com/canon-md/canon/index"
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

// listDocs are the shapes of a list AppendToList adds to, each with the
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

// TestAppendToListHostile: whatever the item, AppendToList writes it so
// that go.yaml.in/yaml/v4 (or the TOML parser) and canon's own parser read
// the list back as the items it held and that item, nothing injected and
// nothing broken; and a second item appended after it lands as well (what
// canon wrote, canon can edit again). Items with a newline, a tab or
// another control character are refused with the reason.
func TestAppendToListHostile(t *testing.T) {
	t.Parallel()
	for _, d := range listDocs {
		field := "blocked_by"
		if d.name == "nested" {
			field = "links.blocked_by"
		}
		for _, item := range listHostile {
			out, changed, err := AppendToList([]byte(d.doc), field, item)
			if err != nil || !changed {
				t.Errorf("%s: AppendToList(%q): %v, changed %v", d.name, item, err, changed)
				continue
			}
			want := append(slices.Clone(d.items), item)
			readList(t, d.name, out, field, want)
			out2, _, err := AppendToList(out, field, "Z-9")
			if err != nil {
				t.Errorf("%s: after %q, Z-9: %v\n%s", d.name, item, err, out)
				continue
			}
			readList(t, d.name+" then Z-9", out2, field, append(want, "Z-9"))
		}
		for _, item := range []string{"a\nb", "X-1]\nstatus: Done", "a\tb", "a\u0085b", "a\x1b[31m"} {
			if out, _, err := AppendToList([]byte(d.doc), field, item); !errors.Is(err, ErrNotPlain) || string(out) != d.doc {
				t.Errorf("%s: AppendToList(%q) = %v; want it refused, the file unchanged", d.name, item, err)
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
	f, _, _ := listField(d, field)
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

// TestFixRefusesIDsReadAsOthers: check --fix does not write an id that
// canon would read back as other references, quoted or not (issue 41:
// "X-1, T-9" made an edge to T-9); an id YAML alone would misread is
// written quoted.
func TestFixRefusesIDsReadAsOthers(t *testing.T) {
	t.Parallel()
	doc := []byte("---\nid: B-1\nblocked_by: [C-1]\n---\n# B\n")
	for id, why := range map[string]string{
		"X-1, T-9":     "would be read as 2 references (X-1, T-9)",
		"X-1 #c":       `would be read as "X-1 " and an anchor`,
		"X-1@0190":     `would be read as the id "X-1" of a document whose uid starts with "0190"`,
		"[[X-1]]":      `would be read as a wiki-link to "X-1"`,
		"urn:x-1":      "would be read as a web address",
		"docs/x-1.png": "would be read as the path of a file that is not Markdown",
	} {
		f := index.Problem{Path: "items/a.md", Line: 4, Col: 10, Rule: "asymmetric-block", Fix: &index.Fix{Path: "items/b.md", Field: "blocked_by", Item: id}}
		out, fixed, skipped := applyFixes(doc, []index.Problem{f})
		if string(out) != string(doc) || len(fixed) != 0 || len(skipped) != 1 || !strings.Contains(skipped[0].Why, why) || !strings.Contains(skipped[0].Why, "canon id rename") {
			t.Errorf("the id %q: %q, fixed %d, skipped %+v; want it refused: %s", id, out, len(fixed), skipped, why)
		}
	}
	f := index.Problem{Path: "items/a.md", Fix: &index.Fix{Path: "items/b.md", Field: "blocked_by", Item: "X-1]"}}
	if out, fixed, _ := applyFixes(doc, []index.Problem{f}); len(fixed) != 1 || !strings.Contains(string(out), `blocked_by: [C-1, "X-1]"]`) {
		t.Errorf("X-1]: %s", out)
	}
}

// TestListGrew: the check AppendToList makes of its own edit refuses one
// that injects an item, breaks the frontmatter or changes another field.
func TestListGrew(t *testing.T) {
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
		if err := listGrew([]byte(before), []byte(c.after), c.field, c.item); err == nil {
			t.Errorf("listGrew took\n%s", c.after)
		}
	}
	ok := "---\nid: B-1\nblocked_by: [C-1]\nlinks:\n  blocks: [D-1]\n  relates: [\"X-1 #c\"]\n---\n"
	if err := listGrew([]byte(before), []byte(ok), "links.relates", "X-1 #c"); err != nil {
		t.Errorf("listGrew refused a good edit: %v", err)
	}
}
