package main

import (
	"math"
	"slices"
	"testing"
)

func TestTokens(t *testing.T) {
	got := tokens("How does the Workset get promoted? sqlite-vec, UUIDv7 & 語彙")
	want := []string{"how", "does", "the", "workset", "get", "promoted", "sqlite", "vec", "uuidv7", "語彙"}
	if !slices.Equal(got, want) {
		t.Errorf("tokens = %q, want %q", got, want)
	}
}

func TestBM25(t *testing.T) {
	ix := NewBM25(map[string]string{
		"a.md": "workset promote workset",
		"b.md": "workset cache cache cache cache cache cache cache",
		"c.md": "promote",
		"d.md": "nothing here at all",
		"e.md": "the the the the",
	})
	// OR semantics: any word finds a document; rarer words weigh more
	// (promote: 2 of 5, workset: 2 of 5, cache: 1 of 5); an unknown word
	// changes nothing.
	if got, want := ix.Search("workset promote unknownword", 10), []string{"a.md", "c.md", "b.md"}; !slices.Equal(got, want) {
		t.Errorf("Search = %v, want %v", got, want)
	}
	if got := ix.Search("cache", 10); !slices.Equal(got, []string{"b.md"}) {
		t.Errorf("Search(cache) = %v", got)
	}
	if got := ix.Search("zzz", 10); len(got) != 0 {
		t.Errorf("Search(zzz) = %v, want nothing", got)
	}
	if got := ix.Search("workset promote", 1); !slices.Equal(got, []string{"a.md"}) {
		t.Errorf("Search with limit 1 = %v", got)
	}
	// The score by hand for c.md and "promote": one term, tf 1, length 1.
	avg := float64(3+8+1+4+4) / 5
	idf := math.Log(1 + (5-2+0.5)/(2+0.5))
	want := idf * 1 * (bm25K1 + 1) / (1 + bm25K1*(1-bm25B+bm25B*1/avg))
	if ix.avgLen != avg {
		t.Fatalf("avgLen = %v, want %v", ix.avgLen, avg)
	}
	if got := bm25Score(ix, 2, []string{"promote"}); math.Abs(got-want) > 1e-12 {
		t.Errorf("score(c.md, promote) = %v, want %v", got, want)
	}
	// A query word repeated counts once; ties go to the lower path.
	ix2 := NewBM25(map[string]string{"y.md": "retry", "x.md": "retry"})
	if got := ix2.Search("retry retry", 10); !slices.Equal(got, []string{"x.md", "y.md"}) {
		t.Errorf("tie order = %v, want x.md first", got)
	}
}
