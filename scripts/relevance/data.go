package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Repo is one pinned repository of the benchmark (a row of repos.tsv).
type Repo struct {
	Name    string
	URL     string
	Commit  string
	Queries string // file name under the queries folder
}

// Query is one judged query (a row of a queries file).
type Query struct {
	ID       string   `json:"id"`
	Part     string   `json:"part"`
	Kind     string   `json:"kind"`
	Text     string   `json:"query"`
	Relevant []string `json:"relevant"` // the best answer first
}

// Parts and kinds, in report order.
var (
	parts = []string{"tune", "holdout"}
	kinds = []string{"question", "keyword", "paraphrase", kindName}
)

// kindName is the kind of a query that names a document: its id, file
// name or exact title, alone or in a sentence ("what blocks KABSD-TSK-0155").
// It comes last in kinds; not every repository has such queries.
const kindName = "name"

// tsvRows reads a tab-separated file: '#' lines and blank lines are
// comments, a row whose first field is firstHeader is the header.
func tsvRows(path, firstHeader string, fields int) ([][]string, []int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var rows [][]string
	var lines []int
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if cols[0] == firstHeader {
			continue
		}
		if len(cols) != fields {
			return nil, nil, fmt.Errorf("%s:%d: %d tab-separated fields, want %d", path, i+1, len(cols), fields)
		}
		rows = append(rows, cols)
		lines = append(lines, i+1)
	}
	return rows, lines, nil
}

// loadRepos reads the manifest.
func loadRepos(path string) ([]Repo, error) {
	rows, lines, err := tsvRows(path, "name", 4)
	if err != nil {
		return nil, err
	}
	var repos []Repo
	for i, c := range rows {
		r := Repo{Name: c[0], URL: c[1], Commit: c[2], Queries: c[3]}
		if r.Name == "" || r.URL == "" || len(r.Commit) != 40 || r.Queries == "" {
			return nil, fmt.Errorf("%s:%d: want name, clone URL, a 40-hex commit and a queries file", path, lines[i])
		}
		repos = append(repos, r)
	}
	return repos, nil
}

// loadQueries reads and checks one queries file.
func loadQueries(path string) ([]Query, error) {
	rows, lines, err := tsvRows(path, "id", 5)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var qs []Query
	for i, c := range rows {
		at := fmt.Sprintf("%s:%d", filepath.Base(path), lines[i])
		q := Query{ID: c[0], Part: c[1], Kind: c[2], Text: strings.TrimSpace(c[3])}
		for _, p := range strings.Split(c[4], ";") {
			if p = strings.TrimSpace(p); p != "" && !slices.Contains(q.Relevant, p) {
				q.Relevant = append(q.Relevant, p)
			}
		}
		switch {
		case q.ID == "" || seen[q.ID]:
			return nil, fmt.Errorf("%s: the id %q is empty or not unique", at, q.ID)
		case !slices.Contains(parts, q.Part):
			return nil, fmt.Errorf("%s: part %q, want one of %s", at, q.Part, strings.Join(parts, ", "))
		case !slices.Contains(kinds, q.Kind):
			return nil, fmt.Errorf("%s: kind %q, want one of %s", at, q.Kind, strings.Join(kinds, ", "))
		case q.Text == "":
			return nil, fmt.Errorf("%s: the query is empty", at)
		case len(q.Relevant) == 0:
			return nil, fmt.Errorf("%s: no relevant document", at)
		}
		seen[q.ID] = true
		qs = append(qs, q)
	}
	return qs, nil
}

// checkJudged makes sure every judged path exists in the checkout: a path
// that does not is a mistake in the data, not a miss of the systems.
func checkJudged(dir string, qs []Query) error {
	for _, q := range qs {
		for _, p := range q.Relevant {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
				return fmt.Errorf("query %s names %q, which the checkout does not have: fix the queries file", q.ID, p)
			}
		}
	}
	return nil
}
