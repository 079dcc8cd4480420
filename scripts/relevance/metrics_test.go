package main

import (
	"math"
	"slices"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestScore(t *testing.T) {
	ten := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	tests := []struct {
		name     string
		ranked   []string
		relevant []string
		want     Scores
	}{
		{"first", ten, []string{"a"}, Scores{Hit1: 1, Hit5: 1, Recall10: 1, RR: 1}},
		{"fifth and a miss", ten, []string{"e", "z"}, Scores{Hit5: 1, Recall10: 0.5, RR: 0.2}},
		{"sixth", ten, []string{"f"}, Scores{Recall10: 1, RR: 1.0 / 6}},
		{"two of three, rank 2 first", ten, []string{"j", "b", "x"}, Scores{Hit5: 1, Recall10: 2.0 / 3, RR: 0.5}},
		{"beyond ten", append(slices.Clone(ten), "k"), []string{"k"}, Scores{RR: 1.0 / 11}},
		{"none", ten, []string{"z"}, Scores{}},
		{"empty", nil, []string{"a"}, Scores{Empty: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := score(tt.ranked, tt.relevant)
			if !near(got.Hit1, tt.want.Hit1) || !near(got.Hit5, tt.want.Hit5) || !near(got.Recall10, tt.want.Recall10) || !near(got.RR, tt.want.RR) || got.Empty != tt.want.Empty {
				t.Errorf("score = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestAggregate(t *testing.T) {
	all := []Scores{{Hit1: 1, Hit5: 1, Recall10: 1, RR: 1}, {Hit5: 1, Recall10: 0.5, RR: 0.25}, {Empty: 1}, {}}
	c := aggregate(all, 400, 100, true)
	want := Cell{N: 4, Hit1: 0.25, Hit5: 0.5, Recall10: 0.375, MRR: 0.3125, Empty: 0.25, Generated: 0.25}
	if c != want {
		t.Errorf("aggregate = %+v, want %+v", c, want)
	}
	if c := aggregate(all, 400, 100, false); c.Generated != -1 {
		t.Errorf("generated share of a system that is not a pack = %v, want -1", c.Generated)
	}
	if c := aggregate(nil, 0, 0, true); c.N != 0 || c.Generated != -1 {
		t.Errorf("aggregate of nothing = %+v", c)
	}
}

func TestDedupe(t *testing.T) {
	got := dedupe([]string{"a", "b", "a", "", "c", "b"})
	if want := []string{"a", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("dedupe = %v, want %v", got, want)
	}
}

func TestGenerated(t *testing.T) {
	for p, want := range map[string]bool{
		"_kano/backlog/products/x/views/Dashboard_Active.md": true,
		"_kano/backlog/products/x/items/epic/E-1_x.index.md": true,
		"_kano/backlog/topics/t/brief.generated.md":          true,
		"views/Board.md": true,
		"_kano/backlog/products/x/items/task/T-1_overviews.md": false,
		"docs/previews.md": false,
	} {
		if generated(p) != want {
			t.Errorf("generated(%q) = %v, want %v", p, !want, want)
		}
	}
}
