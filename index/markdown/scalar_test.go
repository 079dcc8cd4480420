package markdown

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	yaml "go.yaml.in/yaml/v4"
)

// hostileValues are values that YAML gives a meaning to when they are
// written as they are: each one, written by Scalar, must come back as
// itself and as one item.
var hostileValues = []string{
	"T-9", "KB-1@01943c8b", "items/a.md", "x-1.2", "задача-7", "0097", "12", "1.5", "2025-01-02",
	"X-1, T-9", "X-1]", "X-1 #c", "{X-1", "X-1}", "[X-1", "X-1#c", "#c", " #", "a:b", "a: b", "a:", ":",
	",", "[", "]", "{", "}", `"X-1"`, "'X-1'", `a"b`, "a'b", `\`, `a\"b`,
	"-", "- a", "-a", "--- x", "...", "*a", "&a", "!a", "!!str a", "|", "|-", ">", "> a", "%a", "@a", "`a", "?", "? a",
	"a\tb", "\t", "a\nb", "a\n- b", "\nstatus: Done", "a\r\nb", "a\u0085b", "a\u2028b", "\u00a0a", "a\u00a0",
	"\ufeffa", "a\x00b", "a\x1bb", "a\x7f", " a", "a ", "a  b", "", " ",
	"true", "True", "FALSE", "null", "Null", "~", "yes", "no", "on", ".inf", "-.inf", ".nan", "0x1F", "0o17", "<<", "=",
	"[[X-1]]", "a,b", "a, b", "a #b", "a# b", "é\u0301", "K-1", "İT-1",
}

func TestScalarKeepsIDsPlain(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"T-9", "KB-1@01943c8b", "items/a.md", "task-12.1", "ADR-0008", "0097", "12", "2025-01-02", "задача-7", "T-5 notes"} {
		if got, err := Scalar(s, "yaml", 0); err != nil || got != s {
			t.Errorf("Scalar(%q) = %q, %v; want it plain", s, got, err)
		}
	}
	for s, want := range map[string]string{
		"X-1, T-9": `"X-1, T-9"`, "X-1 #c": `"X-1 #c"`, "true": `"true"`, "~": `"~"`, "a\tb": `"a\tb"`,
		"a\u0085b": `"a\u0085b"`, `a"b\`: `"a\"b\\"`,
	} {
		if got, err := Scalar(s, "yaml", 0); err != nil || got != want {
			t.Errorf("Scalar(%q) = %s, %v; want %s", s, got, err, want)
		}
	}
	if got, _ := Scalar("it's", "yaml", '\''); got != "'it''s'" {
		t.Errorf("single-quoted: %s", got)
	}
	if got, _ := Scalar("T-9", "yaml", '\''); got != "'T-9'" {
		t.Errorf("a quoted list's style: %s", got)
	}
	if got, _ := Scalar("a\nb", "yaml", '\''); got != `"a\nb"` {
		t.Errorf("a newline in single quotes: %s", got)
	}
	if got, _ := Scalar("T-9", "toml", 0); got != `"T-9"` {
		t.Errorf("TOML: %s", got)
	}
	if _, err := Scalar("a\xffb", "yaml", 0); err == nil {
		t.Error("not UTF-8, written")
	}
}

// TestScalarRoundTrip: every hostile value, written by Scalar in each
// quote style into a field, a block list and a flow list, is read back by
// go.yaml.in/yaml/v4 and by Parse as exactly that value, and the lists
// hold exactly the items around it and it: nothing injected, nothing
// broken. The same for TOML.
func TestScalarRoundTrip(t *testing.T) {
	t.Parallel()
	for _, s := range hostileValues {
		for _, q := range []byte{0, '\'', '"'} {
			checkScalarRoundTrip(t, s, q)
		}
	}
}

func FuzzScalar(f *testing.F) {
	for _, s := range hostileValues {
		f.Add(s, byte(0))
	}
	f.Fuzz(func(t *testing.T, s string, q byte) {
		if !utf8.ValidString(s) || strings.ContainsRune(s, utf8.RuneError) {
			if _, err := Scalar(s, "yaml", 0); err == nil && !utf8.ValidString(s) {
				t.Fatalf("Scalar(%q) wrote text that is not UTF-8", s)
			}
			return
		}
		switch q % 3 {
		case 0:
			q = 0
		case 1:
			q = '\''
		default:
			q = '"'
		}
		checkScalarRoundTrip(t, s, q)
	})
}

func checkScalarRoundTrip(t *testing.T, s string, q byte) {
	t.Helper()
	w, err := Scalar(s, "yaml", q)
	if err != nil {
		t.Fatalf("Scalar(%q, %q): %v", s, q, err)
	}
	if strings.ContainsAny(w, "\r\n\u0085\u2028\u2029") {
		t.Fatalf("Scalar(%q) = %q: not one line", s, w)
	}
	docs := map[string]string{
		"field":      "k: " + w + "\nafter: x\n",
		"block list": "k:\n  - before\n  - " + w + "\n  - after\n",
		"flow list":  "k: [before, " + w + ", after]\n",
		"flow first": "k: [" + w + "]\n",
	}
	for ctx, doc := range docs {
		want := []string{"before", s, "after"}
		switch ctx {
		case "field":
			var got struct {
				K     *string `yaml:"k"`
				After string  `yaml:"after"`
			}
			if err := yaml.Unmarshal([]byte(doc), &got); err != nil || got.K == nil || *got.K != s || got.After != "x" {
				t.Fatalf("%s %q written %s: read back %+v, %v", ctx, s, w, got, err)
			}
			want = []string{s}
		case "flow first":
			want = []string{s}
		}
		if ctx != "field" {
			var got struct {
				K []*string `yaml:"k"`
			}
			if err := yaml.Unmarshal([]byte(doc), &got); err != nil || len(got.K) != len(want) {
				t.Fatalf("%s %q written %s: read back %d items, %v", ctx, s, w, len(got.K), err)
			}
			for i, it := range got.K {
				if it == nil || *it != want[i] {
					t.Fatalf("%s %q written %s: item %d is not %q", ctx, s, w, i, want[i])
				}
			}
		}
		// canon's own reader: the same text, a string or a number, not
		// null or a boolean.
		d := Parse("a.md", []byte("---\n"+doc+"---\n"), &Options{})
		for _, p := range d.Problems {
			if p.Severity == Error {
				t.Fatalf("%s %q written %s: %s", ctx, s, w, p.Message)
			}
		}
		v := d.Frontmatter.Field("k").Value
		items := []*Value{v}
		if v.Kind == List {
			items = v.Items
		}
		if len(items) != len(want) {
			t.Fatalf("%s %q written %s: Parse reads %d items", ctx, s, w, len(items))
		}
		for i, it := range items {
			if it.Kind != String && it.Kind != Number || it.Text != want[i] {
				t.Fatalf("%s %q written %s: Parse reads item %d as %q (kind %d)", ctx, s, w, i, it.Text, it.Kind)
			}
		}
	}
	tw, err := Scalar(s, "toml", q)
	if err != nil {
		t.Fatalf("Scalar(%q, toml): %v", s, err)
	}
	var got struct {
		K any `toml:"k"`
		L []any
	}
	if _, err := toml.Decode("k = "+tw+"\nl = [\"before\", "+tw+", \"after\"]\n", &got); err != nil {
		t.Fatalf("TOML %q written %s: %v", s, tw, err)
	}
	if str, ok := got.K.(string); ok && str != s || !ok && tw != s {
		t.Fatalf("TOML %q written %s: read back %v", s, tw, got.K)
	}
	if len(got.L) != 3 {
		t.Fatalf("TOML %q written %s: %d items", s, tw, len(got.L))
	}
}
