package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestTemplateIsTheDefault(t *testing.T) {
	t.Parallel()
	got, err := Parse(File, []byte(Template))
	if err != nil {
		t.Fatal(err)
	}
	if got.Check.Configured["wiki-link"] {
		t.Error("the template names wiki-link, whose default adapts to the repository")
	}
	got.Check.Configured = nil // the template names the rules it shows
	if !reflect.DeepEqual(got, Default()) {
		t.Fatalf("template and Default() differ:\n%+v\n%+v", got, Default())
	}
	if got.IndexHash() != Default().IndexHash() {
		t.Fatal("hash differs")
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		yaml    string
		check   func(*Config) bool
		wantErr string
	}{
		{name: "empty", yaml: "", check: func(c *Config) bool { return reflect.DeepEqual(c, Default()) }},
		{name: "roots", yaml: "roots: [docs, ./backlog/]", check: func(c *Config) bool {
			return reflect.DeepEqual(c.Roots, []string{"docs", "backlog"})
		}},
		{name: "size", yaml: "max_file_size: 512KiB", check: func(c *Config) bool { return c.MaxFileSize == 512*1024 }},
		{name: "edge added and dropped", yaml: "edges: {implements: relates, replaces: none}", check: func(c *Config) bool {
			_, dropped := c.Edges["replaces"]
			return c.Edges["implements"] == "relates" && !dropped && c.Edges["parent"] == "parent"
		}},
		{name: "kind case folded", yaml: "kinds: {Spike: task}", check: func(c *Config) bool { return c.Kinds["spike"] == "task" }},
		{name: "unknown key", yaml: "rots: [x]", wantErr: `:1: unknown key "rots"`},
		{name: "one root as a text", yaml: "roots: docs\nexclude: drafts/**", check: func(c *Config) bool {
			return reflect.DeepEqual(c.Roots, []string{"docs"}) && reflect.DeepEqual(c.Exclude, []string{"drafts/**"})
		}},
		{name: "bad size", yaml: "max_file_size: lots", wantErr: `config.yaml:1: size "lots" is not a size; write it like 5MB or 512KiB`},
		{name: "a text for a list", yaml: "check:\n  dates: due", wantErr: `config.yaml:2: dates is a text (due); write a list: [a, b], or one "- item" a line`},
		{name: "a list for a mapping", yaml: "edges: [implements]", wantErr: `config.yaml:1: edges is a list; write key: value lines`},
		{name: "root escapes", yaml: "roots: [../x]", wantErr: "leaves the repository"},
		{name: "absolute root", yaml: "roots: [/etc]", wantErr: "absolute"},
		{name: "syntax", yaml: "roots: [a\nexclude: x", wantErr: "config.yaml:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(File, []byte(tt.yaml))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				var ce *Error
				if !errors.As(err, &ce) {
					t.Fatalf("err %T is not a *config.Error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(c) {
				t.Fatalf("unexpected config %+v", c)
			}
		})
	}
}

func TestParseSize(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Size{"5MB": 5e6, "1 MiB": 1 << 20, "100": 100, "2k": 2048, "1.5kb": 1500} {
		got, err := ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}

// TestParseRefusesNonNumbers: .nan, .inf and sizes past int64 are no
// sizes (a conversion would make them whatever the CPU makes of them).
func TestParseRefusesNonNumbers(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"nan", "inf", "+Inf", "1e30GB"} {
		if got, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", in, got)
		}
	}
	for _, in := range []string{"nand", "infw", "1e300d"} {
		if got, err := ParseTTL(in); err == nil {
			t.Errorf("ParseTTL(%q) = %v, want an error", in, got)
		}
	}
}

// TestMaxFileSizeCeiling: a repository's configuration may raise the size
// cap up to MaxFileSizeCeiling, not past it.
func TestMaxFileSizeCeiling(t *testing.T) {
	t.Parallel()
	c, err := Parse(File, []byte("max_file_size: 32MiB\n"))
	if err != nil || c.MaxFileSize != 32<<20 {
		t.Fatalf("max_file_size at the ceiling: %v, %v", c, err)
	}
	_, err = Parse(File, []byte("max_file_size: 200MB\n"))
	want := ".canon/config.yaml: max_file_size 200MB is above the 32MiB canon allows (a document costs several times its size to index); lower it, or leave such files out with exclude"
	if err == nil || err.Error() != want {
		t.Fatalf("max_file_size: 200MB gives %v\nwant %s", err, want)
	}
}

func TestSectionsRejectUnknownKeys(t *testing.T) {
	t.Parallel()
	for _, y := range []string{"context: {nope: 1}", "check: {nope: 1}", "states: {nope: [x]}"} {
		if _, err := Parse(File, []byte(y)); err == nil {
			t.Errorf("Parse(%q) accepted an unknown key", y)
		}
	}
	if _, err := Parse(File, []byte("states: {open: [Done]}")); err == nil {
		t.Error("a state both open and done was accepted")
	}
}

// TestTemplateShortcut: Load skips parsing a file equal to Template; what
// it uses instead must be what parsing it gives.
func TestTemplateShortcut(t *testing.T) {
	parsed, err := Parse(File, []byte(Template))
	if err != nil {
		t.Fatal(err)
	}
	if got := fromTemplate(); !reflect.DeepEqual(got, parsed) {
		t.Fatalf("fromTemplate() and Parse(Template) differ:\n%+v\n%+v", got, parsed)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(File)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, File), []byte(Template), 0o644); err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(loaded, parsed) {
		t.Fatal("Load of the template differs from parsing it")
	}
}

// A prefix an old one was renamed to takes the old one's kind: BACK-12
// is a task when task was Backlog.md's prefix.
func TestDocKinds(t *testing.T) {
	t.Parallel()
	c := Default()
	if got := c.DocKinds()["back"]; got != "" {
		t.Fatalf("back without prefixes: kind %q, want none", got)
	}
	c.Prefixes = map[string]string{"task": "back", "story": "task"}
	k := c.DocKinds()
	if k["back"] != "task" || k["task"] != "task" {
		t.Errorf("DocKinds: back %q, task %q; want task, task (a kind already named keeps its own)", k["back"], k["task"])
	}
	if _, changed := c.Kinds["back"]; changed {
		t.Error("DocKinds changed the configuration's own kinds")
	}
	// Two old prefixes of other kinds became one: no kind, whatever the
	// order the map gives them in.
	c.Prefixes = map[string]string{"task": "back", "epic": "back", "bug": "fix", "defect": "fix"}
	c.Kinds["defect"] = "bug"
	for range 20 {
		if k := c.DocKinds(); k["back"] != "" || k["fix"] != "bug" {
			t.Fatalf("DocKinds: back %q, fix %q; want none, bug", k["back"], k["fix"])
		}
	}
}
