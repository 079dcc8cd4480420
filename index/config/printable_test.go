package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/indextest/must"
)

// TestPathsHoldNoControlCharacters: a path or pattern of the
// configuration with a line break (or any control character but a tab)
// is refused where the file is read, naming the field: canon writes roots
// into .gitattributes, where "docs\n* text diff=y" was a line of its own.
func TestPathsHoldNoControlCharacters(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct{ yaml, says string }{
		"root":            {`roots: ["docs\n* text diff=y"]`, `roots: "docs\n* text diff=y" holds a line break; write it on one line, without control characters`},
		"root CR":         {`roots: ["do\rcs"]`, `roots: "do\rcs" holds a carriage return`},
		"root one text":   {`roots: "a\u001b[31mb"`, `roots: "a\x1b[31mb" holds a control character (U+001B)`},
		"exclude":         {`exclude: ["drafts/\n!x"]`, `exclude: "drafts/\n!x" holds a line break`},
		"namespace":       {`namespaces: ["svc/*\nx"]`, `namespaces: "svc/*\nx" holds a line break`},
		"namespace name":  {`namespaces: [{path: svc, name: "a\u0007"}]`, `namespaces: name: "a\a" holds a control character (U+0007)`},
		"archive":         {`work: {archive: ["old/\nnew/"]}`, `work.archive: "old/\nnew/" holds a line break`},
		"context exclude": {`context: {exclude: ["gen/**\n"]}`, `context.exclude: "gen/**\n" holds a line break`},
		"branches":        {`branches: {include: ["refs/heads/*\u0000"]}`, `branches: "refs/heads/*\x00" holds a NUL byte`},
		"learned archive": {"learned:\n  work: {archive: [\"a/\\u0085b/\"]}", `learned.work.archive: "a/\u0085b/" holds a control character (U+0085)`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(File, []byte(c.yaml))
			var ce *Error
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("%s: %v, want a *config.Error saying %q", c.yaml, err, c.says)
			}
		})
	}
	// A tab is quoted where it goes, and a line break at either end is
	// trimmed as any space is: both are taken.
	cfg, err := Parse(File, []byte(`roots: ["my\tdocs", "notes\n"]`))
	if err != nil {
		t.Fatalf("a tab, a trailing line break: %v", err)
	}
	if cfg.Roots[0] != "my\tdocs" || cfg.Roots[1] != "notes" {
		t.Fatalf("a tab, a trailing line break: %q", cfg.Roots)
	}
}

// TestKanoFolderWithALineBreak: a product folder of Kano's configuration
// that holds a control character is no folder canon uses, as one that
// leaves the repository is not.
func TestKanoFolderWithALineBreak(t *testing.T) {
	root := t.TempDir()
	must.OK(t, os.MkdirAll(filepath.Join(root, ".kano"), 0o755))
	must.OK(t, os.WriteFile(filepath.Join(root, KanoConfig), []byte("[products.p]\nbacklog_root = \"p\\n* text\"\n[products.q]\nbacklog_root = \"q\"\n"), 0o644))
	cfg, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range cfg.Namespaces {
		if strings.ContainsAny(n.Path, "\n") || n.Name == "p" {
			t.Errorf("a product folder with a line break became a namespace: %+v", n)
		}
	}
	if !cfg.Namespaces.has("q") {
		t.Errorf("the other product is lost: %+v", cfg.Namespaces)
	}
}
