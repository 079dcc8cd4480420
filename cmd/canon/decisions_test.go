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
