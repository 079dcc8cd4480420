package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The committed data parses, each repository has both parts and every
// kind of query but names, and at least 40 name queries over at least two
// repositories have both parts (issue 43).
func TestCommittedData(t *testing.T) {
	repos, err := loadRepos("repos.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if len(repos) < 2 {
		t.Fatalf("%d repositories, want at least 2", len(repos))
	}
	total, names := 0, map[string]int{}
	nameRepos := map[string]bool{}
	for _, r := range repos {
		qs, err := loadQueries(filepath.Join("queries", r.Queries))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for _, q := range qs {
			seen[q.Part]++
			seen[q.Kind]++
			if q.Kind == kindName {
				names[q.Part]++
				nameRepos[r.Name] = true
			}
		}
		for _, want := range append(parts, kinds[:len(kinds)-1]...) {
			if seen[want] == 0 {
				t.Errorf("%s: no %s query", r.Name, want)
			}
		}
		total += len(qs)
	}
	if names["tune"]+names["holdout"] < 40 || names["holdout"] == 0 || names["tune"] == 0 || len(nameRepos) < 2 {
		t.Errorf("name queries: %v in %d repositories, want at least 40 in both parts over 2", names, len(nameRepos))
	}
	if total < 50 {
		t.Errorf("%d queries, want at least 50", total)
	}
}

func TestLoadQueriesRefuses(t *testing.T) {
	const header = "# comment\nid\tpart\tkind\tquery\trelevant\n"
	for name, row := range map[string]string{
		"bad part":     "q1\ttrain\tkeyword\tx\ta.md",
		"bad kind":     "q1\ttune\tphrase\tx\ta.md",
		"no relevant":  "q1\ttune\tkeyword\tx\t ; ",
		"empty query":  "q1\ttune\tkeyword\t \ta.md",
		"short row":    "q1\ttune\tkeyword\tx",
		"duplicate id": "q1\ttune\tkeyword\tx\ta.md\nq1\tholdout\tkeyword\ty\tb.md",
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "q.tsv")
			if err := os.WriteFile(p, []byte(header+row+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := loadQueries(p); err == nil {
				t.Errorf("loadQueries accepted %q", row)
			}
		})
	}
	p := filepath.Join(t.TempDir(), "q.tsv")
	if err := os.WriteFile(p, []byte(header+"q1\ttune\tquestion\thow?\ta.md; b.md;a.md\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	qs, err := loadQueries(p)
	if err != nil || len(qs) != 1 || strings.Join(qs[0].Relevant, ",") != "a.md,b.md" {
		t.Errorf("loadQueries = %+v, %v; want one query relevant to a.md, b.md", qs, err)
	}
}
