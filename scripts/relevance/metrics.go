package main

import "slices"

// Answer is what one system returned for one query: document paths, best
// first, each once.
type Answer struct {
	Ranked []string `json:"ranked"`
	// Packs only: the pack's estimated tokens, and those of generated
	// documents (see generated).
	Tokens    int `json:"tokens,omitempty"`
	GenTokens int `json:"generated_tokens,omitempty"`
}

// Scores are one answer's metrics against the judged documents.
type Scores struct {
	Hit1     float64 `json:"hit1"`     // 1 when the first document is relevant
	Hit5     float64 `json:"hit5"`     // 1 when a relevant document is in the first 5
	Recall10 float64 `json:"recall10"` // share of the relevant documents in the first 10
	RR       float64 `json:"rr"`       // 1/rank of the first relevant document, 0 if none
	Empty    float64 `json:"empty"`    // 1 when the answer is empty
}

// score measures one answer. ranked must hold each path once.
func score(ranked, relevant []string) Scores {
	var s Scores
	if len(ranked) == 0 {
		s.Empty = 1
		return s
	}
	found := 0
	for i, p := range ranked {
		if !slices.Contains(relevant, p) {
			continue
		}
		rank := i + 1
		if s.RR == 0 {
			s.RR = 1 / float64(rank)
		}
		if rank == 1 {
			s.Hit1 = 1
		}
		if rank <= 5 {
			s.Hit5 = 1
		}
		if rank <= 10 {
			found++
		}
	}
	if len(relevant) > 0 {
		s.Recall10 = float64(found) / float64(len(relevant))
	}
	return s
}

// Cell is the mean of a group of answers.
type Cell struct {
	N        int     `json:"n"`
	Hit1     float64 `json:"hit1"`
	Hit5     float64 `json:"hit5"`
	Recall10 float64 `json:"recall10"`
	MRR      float64 `json:"mrr"`
	Empty    float64 `json:"empty"`
	// Packs only: generated documents' share of the tokens, over the packs
	// that are not empty (-1 when there are none, or for other systems).
	Generated float64 `json:"generated_share"`
}

// aggregate averages scores; tokens and genTokens (packs) give the
// generated share of all the tokens of the non-empty packs.
func aggregate(all []Scores, tokens, genTokens int, pack bool) Cell {
	c := Cell{N: len(all), Generated: -1}
	if c.N == 0 {
		return c
	}
	for _, s := range all {
		c.Hit1 += s.Hit1
		c.Hit5 += s.Hit5
		c.Recall10 += s.Recall10
		c.MRR += s.RR
		c.Empty += s.Empty
	}
	n := float64(c.N)
	c.Hit1, c.Hit5, c.Recall10, c.MRR, c.Empty = c.Hit1/n, c.Hit5/n, c.Recall10/n, c.MRR/n, c.Empty/n
	if pack && tokens > 0 {
		c.Generated = float64(genTokens) / float64(tokens)
	}
	return c
}

// dedupe keeps the first occurrence of each path: a document ranks where
// its best section does.
func dedupe(paths []string) []string {
	seen := map[string]bool{}
	out := paths[:0:0]
	for _, p := range paths {
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
