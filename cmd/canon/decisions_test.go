package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDecisionIndex: docs/decisions/README.md lists every decision record
// with its status and title as its frontmatter says, in order, nothing
// else, and every number up to the last is a record or named as never
// written (issue 42: missing numbers explained in the index).
func TestDecisionIndex(t *testing.T) {
	dir := "../../docs/decisions"
	index, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "ADR-*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no decision records: %v", err)
	}
	field := func(fm, key string) string {
		m := regexp.MustCompile(`(?m)^` + key + `: (.*)$`).FindStringSubmatch(fm)
		if m == nil {
			return ""
		}
		return strings.TrimSpace(m[1])
	}
	var want []string
	have := map[int]bool{}
	last := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.SplitN(string(data), "---", 3)
		if len(parts) < 3 {
			t.Fatalf("%s has no frontmatter", f)
		}
		id := field(parts[1], "id")
		n, err := strconv.Atoi(strings.TrimPrefix(id, "ADR-"))
		if err != nil || !strings.HasPrefix(filepath.Base(f), id+"_") {
			t.Fatalf("%s: id %q does not name the file", f, id)
		}
		have[n], last = true, max(last, n)
		want = append(want, fmt.Sprintf("| [%s](%s) | %s | %s |", id, filepath.Base(f), field(parts[1], "status"), field(parts[1], "title")))
	}
	var got []string
	for _, line := range strings.Split(string(index), "\n") {
		if strings.HasPrefix(line, "| [ADR-") {
			got = append(got, line)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("docs/decisions/README.md's table is not the records'; it should read:\n%s", strings.Join(want, "\n"))
	}
	for n := 1; n <= last; n++ {
		if !have[n] && !strings.Contains(string(index), fmt.Sprintf("%04d", n)) {
			t.Errorf("ADR-%04d is neither a record nor named as never written in docs/decisions/README.md", n)
		}
	}
}

// TestArchitectureNamesEveryPackage: docs/architecture.md's package table
// (with the programs off the ladder named below it) names every Go
// package of the repository, and every package it names exists (issue 42:
// the map of the rooms is the house).
func TestArchitectureNamesEveryPackage(t *testing.T) {
	root := "../.."
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := string(doc)
	start := strings.Index(section, "\n## Packages and their ladder\n")
	if start < 0 {
		t.Fatal(`docs/architecture.md has no "## Packages and their ladder" section`)
	}
	section = section[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	named := map[string]bool{}
	quoted := regexp.MustCompile("`([a-z][a-z0-9_/]*)`")
	for _, line := range strings.Split(section, "\n") {
		if cells := strings.Split(line, "|"); strings.HasPrefix(line, "| `") && len(cells) > 2 {
			for _, m := range quoted.FindAllStringSubmatch(cells[1], -1) {
				named[m[1]] = true
			}
		}
	}
	for _, m := range quoted.FindAllStringSubmatch(section, -1) {
		if strings.HasPrefix(m[1], "scripts/") {
			named[m[1]] = true
		}
	}
	exists := map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "out") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			rel, err := filepath.Rel(root, filepath.Dir(p))
			if err != nil {
				return err
			}
			exists[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range exists {
		if !named[p] {
			t.Errorf("package %s is not named in docs/architecture.md's package table", p)
		}
	}
	for p := range named {
		if !exists[p] {
			t.Errorf("docs/architecture.md's package table names %s, which is no package", p)
		}
	}
}
