package edit

import (
	"errors"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/markdown"
)

func TestSetField(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, field, value, in, want string
	}{
		{name: "plain", field: "status", value: "Done",
			in:   j("---", "id: A-1", "status: Todo", "title: T", "---", "# A"),
			want: j("---", "id: A-1", "status: Done", "title: T", "---", "# A")},
		{name: "quotes and comment kept", field: "status", value: "In Progress",
			in:   j("---", "status: 'Todo'   # moved by hand", "---"),
			want: j("---", "status: 'In Progress'   # moved by hand", "---")},
		{name: "a value YAML needs quoted", field: "title", value: "Retry: later # maybe",
			in:   j("---", "title: Retry", "---"),
			want: j("---", `title: "Retry: later # maybe"`, "---")},
		{name: "null", field: "owner", value: "tom",
			in:   j("---", "owner:", "status: x", "---"),
			want: j("---", "owner: tom", "status: x", "---")},
		{name: "null with a comment", field: "owner", value: "tom",
			in:   j("---", "owner: # nobody yet", "---"),
			want: j("---", "owner: tom # nobody yet", "---")},
		{name: "absent", field: "owner", value: "tom",
			in:   j("---", "id: A-1", "", "---", "body"),
			want: j("---", "id: A-1", "owner: tom", "", "---", "body")},
		{name: "nested", field: "links.owner", value: "tom",
			in:   j("---", "links:", "  owner: ann", "  blocks: [B-1]", "---"),
			want: j("---", "links:", "  owner: tom", "  blocks: [B-1]", "---")},
		{name: "already", field: "status", value: "Done",
			in:   j("---", "status: Done", "---"),
			want: j("---", "status: Done", "---")},
		{name: "a boolean word stays text", field: "status", value: "true",
			in:   j("---", "status: x", "---"),
			want: j("---", `status: "true"`, "---")},
		{name: "TOML", field: "status", value: "Done",
			in:   j("+++", `status = "Todo"`, "+++"),
			want: j("+++", `status = "Done"`, "+++")},
		{name: "TOML absent", field: "status", value: "Done",
			in:   j("+++", `id = "A-1"`, "", "[links]", `blocks = ["B-1"]`, "+++"),
			want: j("+++", `id = "A-1"`, `status = "Done"`, "", "[links]", `blocks = ["B-1"]`, "+++")},
		{name: "CRLF and BOM", field: "status", value: "Done",
			in:   bom + crlf(j("---", "status: Todo", "---", "x")),
			want: bom + crlf(j("---", "status: Done", "---", "x"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := SetField([]byte(tc.in), tc.field, tc.value)
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
}

// SetField refuses what it cannot set with a one-line edit, and leaves
// the content as it was.
func TestSetFieldRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, field, value, in string
		err                    error  // a sentinel, or
		why                    string // words of the reason
	}{
		{name: "no frontmatter", field: "status", value: "x", in: j("# A"), err: ErrNoFrontmatter},
		{name: "broken", field: "status", value: "x", in: j("---", "status: [a", "---"), err: ErrBrokenFrontmatter},
		{name: "a list", field: "tags", value: "x", in: j("---", "tags: [a]", "---"), why: "not a single value"},
		{name: "a block scalar", field: "title", value: "x", in: j("---", "title: |", "  long", "---"), why: "not a value on one line"},
		{name: "a plain scalar over lines", field: "title", value: "x", in: j("---", "title: a long", "  title", "id: A-1", "---"), why: "set it by hand"},
		{name: "a newline", field: "status", value: "Done\nid: X", in: j("---", "status: x", "---"), err: ErrNotPlain},
		{name: "absent nested", field: "links.owner", value: "x", in: j("---", "links:", "  a: b", "---"), why: "no links.owner field"},
		{name: "a key that needs quotes", field: "a b", value: "x", in: j("---", "id: A-1", "---"), why: "quoted"},
		// The refusal names a long value cut, never 64 KB of it.
		{name: "too long", field: "title", value: strings.Repeat("x", MaxValue+1), in: j("---", "title: a", "---"), why: `the value "` + strings.Repeat("x", 60) + `"… is`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := SetField([]byte(tc.in), tc.field, tc.value)
			switch {
			case err == nil:
				t.Fatalf("took it:\n%s", out)
			case tc.err != nil && !errors.Is(err, tc.err):
				t.Fatalf("err = %v, want %v", err, tc.err)
			case tc.why != "" && !strings.Contains(err.Error(), tc.why):
				t.Fatalf("err = %v, want %q", err, tc.why)
			case len(err.Error()) > 400:
				t.Fatalf("err is %d bytes long", len(err.Error()))
			}
			if changed || string(out) != tc.in {
				t.Errorf("changed the content: %q", out)
			}
		})
	}
}

// fieldValues are values YAML gives a meaning to when written as they are.
var fieldValues = []string{
	"Done", "a # b", "a #b", "#c", "a: b", "a:b", "key: value: x", `"q"`, "'q'", `a"b`, "a'b", `\`, `a\"b`,
	"[a, b]", "[", "]", "{a: b}", "{", "}", "a, b", "- a", "-", "--- x", "*a", "&a", "!a", "|", ">", "%a", "@a",
	"`a", "? a", "true", "False", "null", "~", "", " a", "a ", "a  b", "12", "0097", "2025-01-02", "İT-1", "\u00a0a",
}

// fieldDocs are the shapes of a field SetField sets, beside others it
// must leave as they are.
var fieldDocs = []struct{ name, field, doc string }{
	{"plain", "status", j("---", "id: A-1", "status: Todo", "tags: [a, b]", "links:", "  blocks: [B-1]", "---", "# A")},
	{"quoted", "status", j("---", "id: A-1", `status: "Todo"  # c`, "tags: [a, b]", "---")},
	{"single-quoted", "status", j("---", "status: 'Todo'", "id: A-1", "---")},
	{"null", "status", j("---", "status:", "id: A-1", "---")},
	{"absent", "status", j("---", "id: A-1", "tags:", "  - a", "---")},
	{"nested", "links.owner", j("---", "id: A-1", "links:", "  owner: ann", "  blocks: [B-1]", "---")},
	{"TOML", "status", j("+++", `id = "A-1"`, `status = "Todo"`, `tags = ["a"]`, "+++")},
	{"TOML absent", "status", j("+++", `id = "A-1"`, "", "[links]", `blocks = ["B-1"]`, "+++")},
}

// TestSetFieldReadsBack: whatever the value, setting it and reading the
// document back gives the value in the field and every other field as it
// was; and setting another value after it works as well (what canon
// wrote, canon can edit again).
func TestSetFieldReadsBack(t *testing.T) {
	t.Parallel()
	for _, d := range fieldDocs {
		before := parse([]byte(d.doc))
		for _, v := range fieldValues {
			out, _, err := SetField([]byte(d.doc), d.field, v)
			if err != nil {
				t.Errorf("%s: SetField(%q): %v", d.name, v, err)
				continue
			}
			after := parse(out)
			if p := broken(after); p != nil {
				t.Errorf("%s: %q: %v\n%s", d.name, v, p, out)
				continue
			}
			f, _, _ := lookup(after, d.field)
			if got, ok := f.Value.Scalar(); f == nil || !ok || got != v {
				t.Errorf("%s: set %q, read %q\n%s", d.name, v, scalarOf(f.Value), out)
			}
			if !sameFields(before.Frontmatter, after.Frontmatter, d.field) {
				t.Errorf("%s: setting %q changed another field\n%s", d.name, v, out)
			}
			if bodyOf([]byte(d.doc), before) != bodyOf(out, after) {
				t.Errorf("%s: setting %q changed the body", d.name, v)
			}
			again, _, err := SetField(out, d.field, "Z-9")
			if err != nil {
				t.Errorf("%s: after %q, Z-9: %v\n%s", d.name, v, err, out)
				continue
			}
			if f, _, _ := lookup(parse(again), d.field); f == nil || f.Value.Text != "Z-9" {
				t.Errorf("%s: after %q, Z-9 reads otherwise\n%s", d.name, v, again)
			}
		}
	}
}

// bodyOf is the lines of content from its body's first.
func bodyOf(content []byte, d *markdown.Document) string {
	l := splitLines(content)
	return strings.Join(l.text[min(max(d.BodyLine-1, 0), len(l.text)):], "\n")
}
