package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestGoalTable: the table sets search beside the baseline for each kind
// and says which of hit@5 and recall@10 fall below it, as shown (two
// decimals: 1.00 against 0.999 is no shortfall).
func TestGoalTable(t *testing.T) {
	q := func(kind string, search, base Scores) QueryResult {
		return QueryResult{Repo: "r", Query: Query{Part: "tune", Kind: kind}, Scores: map[string]Scores{sysSearch: search, sysBM25: base, sysContext: {}}}
	}
	r := &Report{Part: "tune", Repos: []RepoInfo{{Name: "r"}}, Queries: []QueryResult{
		q("question", Scores{Hit5: 1, Recall10: 0.5, RR: 1}, Scores{Hit5: 1, Recall10: 0.75, RR: 0.5}),
		q("keyword", Scores{Recall10: 0.999}, Scores{Hit5: 1, Recall10: 1, RR: 1}),
	}}
	r.Cells = cells(r.Queries, r.repoNames())
	got := goalTable(r, []string{"tune"})
	for _, want := range []string{
		"| tune | question | 1 | 1.00 / 1.00 | 0.50 / 0.75 | 1.00 / 0.50 | recall@10 |\n",
		"| tune | keyword | 1 | 0.00 / 1.00 | 1.00 / 1.00 | 0.00 / 1.00 | hit@5 |\n",
		"| tune | all | 2 | 0.50 / 1.00 | 0.75 / 0.88 | 0.50 / 0.75 | hit@5, recall@10 |\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
}

// TestMissTable: the tune part's judged documents that the baseline puts
// in its first 10 and search does not are listed, with the baseline's
// rank; one search also finds, or that the baseline ranks past 10, is not,
// and no holdout query is shown.
func TestMissTable(t *testing.T) {
	ten := func(first ...string) []string {
		out := append([]string{}, first...)
		for len(out) < 12 {
			out = append(out, fmt.Sprintf("other-%d.md", len(out)))
		}
		return out
	}
	q := func(id, part string, relevant, search, base []string) QueryResult {
		return QueryResult{Repo: "r", Query: Query{ID: id, Part: part, Kind: "keyword", Text: "a | b", Relevant: relevant},
			Answers: map[string]Answer{sysSearch: {Ranked: search}, sysBM25: {Ranked: base}}}
	}
	r := &Report{Part: "tune", Queries: []QueryResult{
		q("t1", "tune", []string{"docs/found.md", "docs/missed.md", "docs/late.md"},
			ten("docs/found.md"), append(ten("x.md", "docs/found.md", "docs/missed.md")[:10], "docs/late.md")),
		q("h1", "holdout", []string{"docs/secret.md"}, ten(), ten("docs/secret.md")),
	}}
	got := missTable(r)
	if want := "| r | t1 `a \\| b` | keyword | missed.md | 3 |\n"; !strings.Contains(got, want) {
		t.Errorf("table lacks %q:\n%s", want, got)
	}
	for _, no := range []string{"found.md", "late.md", "secret", "h1"} {
		if strings.Contains(got, no) {
			t.Errorf("table lists %s:\n%s", no, got)
		}
	}
}
