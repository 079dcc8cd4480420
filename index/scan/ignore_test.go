package scan

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// trickyLines are .gitignore lines whose meaning turns on one of go-git's
// rules: negation, anchoring, folders only, "**" at the start, middle
// and end, character classes, escapes, bad patterns, trailing spaces.
var trickyLines = []string{
	"*.md", "!keep.md", "!*.md", "secret.md", "/top.md", "/a", "a/", "a", "b/", "!b/",
	"a/b", "a/b/", "/a/b/*.md", "a/*.md", "*/x.md", "**/x.md", "**/b", "**/b/", "a/**", "a/**/x.md",
	"a/**/b/", "**", "x**.md", "[ab].md", "[!a]*.md", "?.md", "[", "a[", "\\!bang.md", "trail.md ",
	"trail2.md\\ ", "doc?/", "/b/", "!/a", "c/d/e.md", "c//e.md", "!a/b/", "*", "!x.md", ".cache/",
}

var ruleDirs = []string{"", "a", "b", "c", "a/b", "a/c", "b/a", "c/d", "a/b/c", "x/a/b", "doc1", "docs", "a/b/b"}

var ruleNames = []string{"x.md", "keep.md", "secret.md", "top.md", "a.md", "b.md", "e.md", "a", "b", "ab.md",
	"!bang.md", "bang.md", "trail.md", "trail.md ", "trail2.md ", "z.md", "xy.md", "doc1"}

// TestFolderRulesMatchGoGit holds the rules a folder's files are matched
// by to go-git's matcher of the same patterns, over tricky lines in
// .gitignore files at several depths, in random sets and orders.
func TestFolderRulesMatchGoGit(t *testing.T) {
	t.Parallel()
	domains := [][]string{nil, {"a"}, {"a", "b"}, {"c"}}
	rng := rand.New(rand.NewPCG(47, 81))
	cases := 0
	for round := range 400 {
		var ps []ignorePattern
		for range 1 + rng.IntN(6) {
			line := trickyLines[rng.IntN(len(trickyLines))]
			ps = append(ps, parsePattern(line, domains[rng.IntN(len(domains))]))
		}
		if round < len(trickyLines) { // each line alone, at the root, once
			ps = []ignorePattern{parsePattern(trickyLines[round], nil)}
		}
		gg := gitignore.NewMatcher(goGit(ps))
		for _, dir := range ruleDirs {
			var comps []string
			if dir != "" {
				comps = strings.Split(dir, "/")
			}
			fr := compileFolder(ps, comps)
			for _, name := range ruleNames {
				cases++
				want := gg.Match(splitPath(dir, name), false)
				if got := fr.ignored(dir, name); got != want {
					t.Fatalf("patterns %s: %s/%s: rules say ignored=%v, go-git %v", describe(ps), dir, name, got, want)
				}
			}
		}
	}
	if cases < 10000 {
		t.Fatalf("only %d cases", cases)
	}
}

func describe(ps []ignorePattern) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString("[" + strings.Join(p.domain, "/") + ": ")
		if p.inclusion {
			b.WriteString("!")
		}
		b.WriteString(strings.Join(p.parts, "/"))
		if p.dirOnly {
			b.WriteString("/")
		}
		b.WriteString("] ")
	}
	return b.String()
}
