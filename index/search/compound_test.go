package search

import (
	"context"
	"reflect"
	"testing"

	"github.com/canon-md/canon/index/indextest/must"
)

func TestSpellings(t *testing.T) {
	t.Parallel()
	for w, want := range map[string][]string{
		"builtin":     {"bui ltin", "bu iltin", "buil tin", "built in"},
		"built in":    {"builtin"},
		"microsoft s": nil, // a possessive is no compound
		"cache":       nil, // too short to split
	} {
		if got := spellings(w); !reflect.DeepEqual(got, want) {
			t.Errorf("spellings(%q) = %q, want %q", w, got, want)
		}
	}
}

// A word no section holds is searched as the documents spell it: builtin
// as "built in", file system as filesystem; the reading says so.
func TestRespelledWords(t *testing.T) {
	t.Parallel()
	st := corpusIndex(t, map[string]string{
		"a.md": "---\ntitle: A try function\n---\n# Try\n\nA built-in check for errors.\n",
		"b.md": "---\ntitle: Layout\n---\n# Layout\n\nThe filesystem holds the cache.\n",
		"c.md": "---\ntitle: Other\n---\n# Other\n\nNothing of note.\n",
	})
	for q, want := range map[string][]Respelled{
		"builtin check":     {{Word: "built in", For: "builtin"}},
		"file system cache": {{Word: "filesystem", For: "file system"}},
		"built-in check":    nil, // held as written
	} {
		f, err := Search(context.Background(), st, q, Options{})
		must.OK(t, err)
		if !reflect.DeepEqual(f.Read.Respelled, want) || len(f.Hits) == 0 {
			t.Errorf("%q: respelled %v, %d hits; want %v", q, f.Read.Respelled, len(f.Hits), want)
		}
	}
}

// One word alone is respelled too, and a split needs the documents to
// write the parts with a hyphen: "notable" is no "no table".
func TestRespellingNeedsEvidence(t *testing.T) {
	t.Parallel()
	st := corpusIndex(t, map[string]string{
		"a.md": "---\ntitle: A try function\n---\n# Try\n\nA built-in check for errors.\n",
		"g.md": "---\ntitle: Users\n---\n# Users\n\nThere is no table of users.\n",
	})
	for q, want := range map[string][]Respelled{
		"builtin":       {{Word: "built in", For: "builtin"}},
		"notable users": nil,
	} {
		f, err := Search(context.Background(), st, q, Options{})
		must.OK(t, err)
		if !reflect.DeepEqual(f.Read.Respelled, want) {
			t.Errorf("%q: respelled %v, want %v", q, f.Read.Respelled, want)
		}
	}
}
