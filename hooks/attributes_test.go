package hooks

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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

// TestAttributesNameTheRootsLiterally: git reads a .gitattributes pattern
// as a glob, a leading ! as a negative pattern (ignored, with a warning on
// every git command) and a leading # as a comment. A root named with any
// of them is written so that git applies the driver to that folder's
// Markdown alone: git check-attr says so, without a warning.
func TestAttributesNameTheRootsLiterally(t *testing.T) {
	root := t.TempDir()
	git := func(args ...string) (string, string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, errb.String())
		}
		return out.String(), errb.String()
	}
	git("init", "-q")
	roots := []string{"!docs", "[ab]", "a*b", "q?", `back\slash`, "#notes", "[attr]x", "my [docs]", `"quoted"`}
	if _, err := writeAttributes(root, attributePatterns(roots)); err != nil {
		t.Fatal(err)
	}
	// Each root's own file has the driver; the paths its name matches as
	// a glob do not.
	check := map[string]string{"a/x.md": "unspecified", "b/x.md": "unspecified", "aXb/x.md": "unspecified", "qq/x.md": "unspecified", "docs/x.md": "unspecified", "backslash/x.md": "unspecified", "my d/x.md": "unspecified"}
	for _, r := range roots {
		check[r+"/x.md"] = "canon"
		check[r+"/deep/y.md"] = "canon"
	}
	args := []string{"check-attr", "merge", "--"}
	for p := range check {
		args = append(args, p)
	}
	out, stderr := git(args...)
	if stderr != "" {
		t.Errorf("git warned: %s", stderr)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		i := strings.LastIndex(line, ": merge: ")
		if i < 0 {
			t.Fatalf("git check-attr said %q", line)
		}
		p := line[:i]
		if uq, err := strconv.Unquote(p); err == nil && strings.HasPrefix(p, `"`) {
			p = uq
		}
		got[p] = line[i+len(": merge: "):]
	}
	for p, want := range check {
		if got[p] != want {
			t.Errorf("merge attribute of %q is %q, want %q", p, got[p], want)
		}
	}
}
