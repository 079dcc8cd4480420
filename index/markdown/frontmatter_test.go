package markdown

import (
	"encoding/json"
	"strings"
	"testing"
)

func nested(opener, closer string, n int) string {
	return strings.Repeat(opener, n) + "1" + strings.Repeat(closer, n)
}

// TestFrontmatterBounds: what crosses a bound is one yaml-syntax problem
// at its place, the other fields are still read, and what stays within
// the bounds is read as before.
func TestFrontmatterBounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		fm      string // between the --- lines (or +++ when it starts with "+")
		problem string // "LINE:COL message", or "" for none
		id      string // the id still read
		depth   int    // the frontmatter's depth when read
	}{
		{"self alias in a list", "id: S-1\na: &a [*a]", "3:8 field a is not read: alias *a refers to a value that contains it, so it never ends; replace the alias with the values", "S-1", 1},
		{"self alias in a map", "id: S-2\nx: &x\n  y: *x", "4:6 field x is not read: alias *x refers to a value that contains it, so it never ends; replace the alias with the values", "S-2", 1},
		{"mutual aliases", "id: S-3\na: &a [&b [*a]]", "3:12 field a is not read: alias *a refers to a value that contains it, so it never ends; replace the alias with the values", "S-3", 1},
		{"aliases used many times within the budget", "id: A-1\na: &a [1, 2, 3]\nb: [*a, *a, *a, *a]\nc: *a", "", "A-1", 3},
		{"an alias bomb", "id: B-1\na: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d]",
			"6:29 fields d and e are not read: aliases expand to more than 10,000 values; write the values out instead of nesting aliases", "B-1", 4},
		{"64 deep is read", "id: D-1\nx: " + nested("[", "]", 63), "", "D-1", 64},
		{"65 deep is not", "id: D-2\nx: " + nested("[", "]", 64), "3:67 field x is not read: lists and mappings nest more than 64 deep here; flatten the data", "D-2", 1},
		{"65 deep through an alias", "id: D-3\na: &a " + nested("[", "]", 40) + "\nb: " + strings.Repeat("{k: ", 23) + "[*a]" + strings.Repeat("}", 23),
			"4:97 field b is not read: lists and mappings nest more than 64 deep here; flatten the data", "D-3", 41},
		{"a duplicate key inside an anchor is reported once", "id: K-1\na: &a {k: 1, k: 2}\nb: *a\nc: *a", "3:14 key \"k\" appears twice (first on line 3); YAML keeps only one, remove the other", "K-1", 2},
		{"TOML 64 deep is read", "+id = \"T-1\"\nx = " + nested("[", "]", 63), "", "T-1", 64},
		{"TOML 65 deep is not", "+id = \"T-0\"\nx = " + nested("[", "]", 64), "2:1 frontmatter is not read: tables, arrays and dotted keys nest more than 64 deep; flatten the data", "", 1},
		{"TOML inline tables 65 deep", "+id = \"T-2\"\nx = " + nested("{a = ", "}", 65), "3:325 frontmatter is not read: tables, arrays and dotted keys nest more than 64 deep here; flatten the data", "", 1},
		{"TOML dotted key 65 parts", "+id = \"T-3\"\n" + strings.Repeat("a.", 65) + "b = 1", "3:130 frontmatter is not read: tables, arrays and dotted keys nest more than 64 deep here; flatten the data", "", 1},
		{"TOML header and keys together", "+[" + strings.Repeat("a.", 40) + "b]\n" + strings.Repeat("c.", 30) + "d = 1", "2:1 frontmatter is not read: tables, arrays and dotted keys nest more than 64 deep; flatten the data", "", 1},
		{"TOML brackets in strings and comments do not count", "+id = \"T-4\"\ns = \"" + strings.Repeat("[{", 100) + "\"\nl = '" + strings.Repeat("[", 100) + "'\nm = \"\"\"\n" + strings.Repeat("{", 100) + "\n\"\"\"\n# " + strings.Repeat("[", 100) + "\nv = 1.5", "", "T-4", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			delim, fm := "---", tt.fm
			if strings.HasPrefix(fm, "+") {
				delim, fm = "+++", fm[1:]
			}
			d := Parse("a.md", []byte(delim+"\n"+fm+"\n"+delim+"\n# Title\n"), &Options{})
			got := ""
			for _, p := range d.Problems {
				if p.Rule == RuleYAMLSyntax {
					if got != "" {
						t.Fatalf("more than one problem: %+v", d.Problems)
					}
					got = strings.Join([]string{itoa(p.Line) + ":" + itoa(p.Col), p.Message}, " ")
				}
			}
			if got != tt.problem {
				t.Fatalf("problem\n got %q\nwant %q", got, tt.problem)
			}
			if d.ID != tt.id {
				t.Fatalf("id %q, want %q", d.ID, tt.id)
			}
			if depth := depthOf(d.Frontmatter); depth != tt.depth {
				t.Fatalf("depth %d, want %d", depth, tt.depth)
			}
			if d.Title != "Title" {
				t.Fatalf("the body was not read: title %q", d.Title)
			}
		})
	}
}

func itoa(n int) string { return thousands(n) }

func TestFrontmatterTooLarge(t *testing.T) {
	t.Parallel()
	for _, delim := range []string{"---", "+++"} {
		fm := "id: X\nblob: '" + strings.Repeat("x", MaxFrontmatterBytes) + "'\n"
		d := Parse("a.md", []byte(delim+"\n"+fm+delim+"\n# T\n"), &Options{})
		if len(d.Problems) != 1 || d.Problems[0].Message != "frontmatter is not read: it is 1,025 KiB, larger than the 1,024 KiB canon reads; move the data into the body or a file of its own" {
			t.Fatalf("%s: %+v", delim, d.Problems)
		}
		if d.Title != "T" {
			t.Fatalf("%s: body not read", delim)
		}
	}
}

// TestFrontmatterTooManyValues: a frontmatter that writes out more values
// than canon reads is not parsed, whatever its bytes (a 1 MB flow list of
// 500,000 items cost a second of CPU and 90 MB); one under it is.
func TestFrontmatterTooManyValues(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		delim, fm string
		read      bool
	}{
		{"---", "id: X\nl: [" + strings.Repeat("a,", MaxFrontmatterValues-10) + "a]\n", true},
		{"---", "id: X\nl: [" + strings.Repeat("a,", MaxFrontmatterValues) + "a]\n", false},
		{"---", "id: X\nl:\n" + strings.Repeat("- a\n", MaxFrontmatterValues), false},
		{"+++", "id = \"X\"\nl = [" + strings.Repeat("1,", MaxFrontmatterValues) + "1]\n", false},
	} {
		d := Parse("a.md", []byte(c.delim+"\n"+c.fm+c.delim+"\n# T\n"), &Options{})
		if c.read {
			if len(d.Problems) != 0 || d.ID != "X" || len(d.Frontmatter.Get("l").Items) != MaxFrontmatterValues-9 {
				t.Fatalf("%.20q: not read: %+v", c.fm, d.Problems)
			}
			continue
		}
		if len(d.Problems) != 1 || !strings.HasPrefix(d.Problems[0].Message, "frontmatter is not read: it holds up to 100,00") ||
			!strings.HasSuffix(d.Problems[0].Message, " values, more than the 100,000 canon reads; move the data into the body or a file of its own") {
			t.Fatalf("%.20q: %+v", c.fm, d.Problems)
		}
		if d.Title != "T" {
			t.Fatalf("%.20q: body not read", c.fm)
		}
	}
}

// An alias is a copy at its own place: its position is the alias's, and
// the anchored original keeps its own.
func TestAliasPositions(t *testing.T) {
	t.Parallel()
	d := Parse("a.md", []byte("---\na: &x [1]\nb: *x\n---\n"), &Options{})
	a, b := d.Frontmatter.Get("a"), d.Frontmatter.Get("b")
	if a.Line != 2 || b.Line != 3 || b.Col != 4 {
		t.Fatalf("a at %d:%d, b at %d:%d", a.Line, a.Col, b.Line, b.Col)
	}
}

func TestThousands(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 20000: "20,000", 1234567: "1,234,567", -1000: "-1,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// Stored frontmatter is JSON for SQLite and Go alike, whatever bytes a
// value holds (the fuzzer found \x7f written as Go's escape).
func TestAppendJSONString(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain", "q\"b\\", "\x00\x01\x1f\x7f", "\n\r\t", "é 漢 \u2028", "\xff\xfe bad", "</script>&"} {
		got := appendJSONString(nil, s)
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("%q → %s: %v", s, got, err)
		}
		if want := string([]rune(s)); back != want { // each invalid byte becomes U+FFFD
			t.Fatalf("%q → %s → %q", s, got, back)
		}
	}
}

// TestNotAMappingIsMarkdown: text or a list between two --- lines at the
// top is no frontmatter but a thematic break and Markdown: nothing in it
// is lost (its heading, its text), one warning says how it was read; a
// mapping, an empty block and a broken mapping are frontmatter as before.
func TestNotAMappingIsMarkdown(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, src, title, format string
		headings, problems       int
	}{
		{"heading and text", "---\n\n# Title\n\nSome intro text.\n\n---\n\nMore\n", "Title", "", 1, 1},
		{"a list", "---\n- a\n- b\n---\n# After\n", "After", "", 1, 1},
		{"fields", "---\ntitle: T\n---\n# Head\n", "T", "yaml", 1, 0},
		{"empty", "---\n---\n# Head\n", "Head", "yaml", 1, 0},
		{"broken fields", "---\ntitle: [T\n---\n# Head\n", "Head", "yaml", 1, 1},
	} {
		d := Parse("a.md", []byte(c.src), &Options{})
		if d.Title != c.title || d.Format != c.format || len(d.Body.Headings) != c.headings || len(d.Problems) != c.problems {
			t.Errorf("%s: title %q, format %q, %d headings, problems %+v; want %q, %q, %d, %d problems", c.name, d.Title, d.Format, len(d.Body.Headings), d.Problems, c.title, c.format, c.headings, c.problems)
		}
	}
	d := Parse("a.md", []byte("---\n\n# Title\n\nSome intro text.\n\n---\n\nMore\n"), &Options{})
	if d.BodyLine != 1 || d.Problems[0].Severity != Warning || d.Body.Headings[0].Line != 3 {
		t.Errorf("body line %d, problem %+v, heading %+v; want 1, a warning, line 3", d.BodyLine, d.Problems[0], d.Body.Headings[0])
	}
}
