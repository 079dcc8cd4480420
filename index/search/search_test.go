package search

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/indextest/must"
)

func TestFTSQuery(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want, err string }{
		{in: "token refresh", want: `"token" "refresh"`},
		{in: `"token refresh" login`, want: `"token refresh" "login"`},
		{in: "refre*", want: `"refre"*`},
		{in: "a OR b", want: `"a" OR "b"`},
		{in: "OR b", want: `"b"`},
		{in: "unsafe AND NOT trait", want: `"unsafe" NOT "trait"`},
		{in: "a NOT AND b", want: `"a" NOT "b"`},
		{in: "a AND OR b", want: `"a" OR "b"`},
		{in: "a AND b", want: `"a" AND "b"`},
		{in: "NOT trait", want: `"trait"`},
		{in: "a OR", want: `"a"`},
		{in: "a OR *** b", want: `"a" OR "b"`},
		{in: "NOT", want: `"not"`},
		{in: "OR OR", want: `"or" "or"`},
		{in: `"`, err: "no words"},
		{in: "KB-TSK-0042", want: `"KB TSK 0042"`},
		{in: `title:foo (bar) "unclosed`, want: `"title foo" "bar" "unclosed"`},
		{in: "Ärger café", want: `"Ärger" "café"`},
		{in: "*** ---", err: "no words"},
		{in: "", err: "no words"},
		{in: strings.Repeat("w ", 64), want: strings.TrimSuffix(strings.Repeat(`"w" `, 64), " ")},
		{in: strings.Repeat("w ", 65), err: "the query has 65 words; at most 64 are searched"},
		{in: strings.Repeat("KB-1 ", 33), err: "the query has 66 words"},
		{in: `"` + strings.Repeat("w ", 65) + `"`, err: "the query has 65 words"},
		{in: strings.Repeat("OR ", 100), err: "the query has 100 words"},
		{in: strings.Repeat(" ", 4097), err: "the query is 4097 bytes; a query is at most 4096 bytes"},
	}
	for _, tt := range tests {
		got, err := FTSQuery(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("FTSQuery(%q) err = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("FTSQuery(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestLongQuery: a search of more words than MaxQueryWords is refused
// before anything is read (FTS5 would copy its phrases n²/2 times).
func TestLongQuery(t *testing.T) {
	t.Parallel()
	st := corpusIndex(t, map[string]string{"a.md": "# Session tokens\n\nsession tokens expire\n"})
	if _, err := Hits(context.Background(), st, strings.Repeat("session tokens ", 600), Options{Limit: 5}); !errors.Is(err, ErrLongQuery) {
		t.Fatalf("a search of 1,200 words: %v", err)
	}
	hits, err := Hits(context.Background(), st, "session tokens", Options{Limit: 5})
	must.OK(t, err)
	if len(hits) != 1 {
		t.Fatalf("hits %+v, want the one document", hits)
	}
}
