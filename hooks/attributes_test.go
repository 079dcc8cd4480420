package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAttributesRefuseControlCharacters: the .gitattributes writer is the
// second guard behind the configuration's: a pattern with a line break
// (or any control character) would write lines of its own into a file git
// reads for every path. It is refused and the file is left as it was; a
// root with a tab is quoted, one line.
func TestAttributesRefuseControlCharacters(t *testing.T) {
	root := t.TempDir()
	for _, roots := range [][]string{{"docs\n* text diff=y"}, {"docs", "a\rb"}, {"x\x1b[2J"}} {
		_, err := writeAttributes(root, attributePatterns(roots))
		if err == nil || !strings.Contains(err.Error(), "canon writes no line with a control character into .gitattributes") || !strings.Contains(err.Error(), "write the roots in .canon/config.yaml without control characters") {
			t.Errorf("roots %q: %v", roots, err)
		}
		if _, err := os.Stat(filepath.Join(root, attributesFile)); !os.IsNotExist(err) {
			t.Fatalf("roots %q: .gitattributes was written (%v)", roots, err)
		}
	}
	if _, err := writeAttributes(root, attributePatterns([]string{"my\tdocs"})); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, attributesFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "\n\"my\\tdocs/**/*.md\" merge=canon\n") {
		t.Errorf("a root with a tab: %q", b)
	}
}
