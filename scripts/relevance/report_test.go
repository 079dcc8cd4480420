package main

import (
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
