package search

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/canon-md/canon/index/indextest/must"
)

func TestNamesIn(t *testing.T) {
	t.Parallel()
	terms := func(w string) []string {
		return []string{"id:" + w, "uid:" + w, "stem:" + w, "num:" + w, "was:" + w}
	}
	for _, c := range []struct {
		text string
		want []name
	}{
		{"KB-TSK-0007", []name{{0, terms("kb-tsk-0007")}}},
		{"what blocks KABSD-TSK-0155?", []name{{2, terms("kabsd-tsk-0155")}}},
		{"EIP-1559 base fee", []name{{0, terms("eip-1559")}}},
		{"(task-35) and `task-35`, BACK-4.9's notes", []name{{0, terms("task-35")}, {3, terms("back-4.9")}, {-1, []string{"title:(task-35) and `task-35`, back-4.9's notes"}}}},
		{"what does the readme say about index", []name{{-1, []string{"title:what does the readme say about index"}}}}, // a title only when a document has it
		{"readme index", nil},
		{"readme", nil},
		{"vector backend", nil},
		{"vector-backend", []name{{-1, []string{"stem:vector-backend"}}}},
		{"see docs/ids.md", []name{{1, []string{"stem:ids"}}}},
		{"Implement workset init/refresh/promote automation", []name{{-1, []string{"title:implement workset init/refresh/promote automation"}}}}, // a title with a slash is a name too
		{"Make task edit preserve unrelated file details?", []name{{-1, []string{"title:make task edit preserve unrelated file details"}}}},
		{"uid 019ba90a-5c3d-7ad6-96f2-1c4bf2c6b8d4", []name{{1, []string{"uid:019ba90a-5c3d-7ad6-96f2-1c4bf2c6b8d4"}}}},
		{"utf-8 sqlite-vec v2", []name{{0, terms("utf-8")}}},
		{"1287", []name{{0, []string{"num:1287", "was:1287"}}}}, // a KEP's, an RFC's number
	} {
		got := namesIn(c.text)
		if len(got) == 0 && len(c.want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("namesIn(%q) = %+v, want %+v", c.text, got, c.want)
		}
	}
}

func TestIsUID(t *testing.T) {
	t.Parallel()
	for w, want := range map[string]bool{
		"019ba90a-5c3d-7ad6-96f2-1c4bf2c6b8d4": true,
		"019ba90a-5c3d-7ad6-96f2-1c4bf2c6b8dz": false,
		"01arz3ndektsv4rrffq69g5fav":           true,
		"abcdefghjkmnpqrstvwxyzabcd":           false, // no digit: a word
		"01arz3ndektsv4rrffq69g5fa":            false,
	} {
		if got := isUID(w); got != want {
			t.Errorf("isUID(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestRelationNear(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		at   int
		want []string
	}{
		{"what blocks kb-1", 2, []string{"blocked_by", "blocks"}},
		{"children of kb-1", 2, []string{"parent"}},
		{"kb-1 requires what", 0, []string{"depends_on", "blocked_by"}},
		{"kb-1 webhook retry back-off", 0, nil},
		{"parent decisions and much more words then kb-1", 8, nil},
	} {
		if got := relationNear(queryWords(c.text), c.at); !reflect.DeepEqual(got, c.want) {
			t.Errorf("relationNear(%q, %d) = %v, want %v", c.text, c.at, got, c.want)
		}
	}
}

// A name in a query is its first hit, wherever other documents quote it;
// a word that equals a stem does not name.
func TestNamedFirst(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"items/KB-7_retry.md":  "---\nid: KB-7\ntitle: Retry webhooks\n---\n# Context\nBack-off.\n",
		"items/KB-8_queue.md":  "---\nid: KB-8\ntitle: Queue\nblocked_by: [KB-7]\n---\n# Context\nAfter KB-7 is done, KB-7 again.\n",
		"docs/readme.md":       "# Readme\nThe readme says KB-7 KB-7 KB-7 blocks things.\n",
		"docs/dash.md":         "---\ntitle: Dashboard\n---\n# KB-7 KB-7\nKB-7 blocks KB-8.\n",
		"docs/eip-1559.md":     "---\ntitle: Fee market change\n---\n# Motivation\nA base fee.\n",
		"docs/other-fee.md":    "# Base fee\nThe base fee and the base fee again, EIP-1559.\n",
		"notes/make-notes.md":  "---\ntitle: Make task edit preserve unrelated file details\n---\n# Notes\nNothing.\n",
		"notes/task-edit.md":   "# Task edit\nMake task edit preserve unrelated file details, details and details.\n",
		"notes/unrelated.md":   "# Unrelated\nreadme readme readme.\n",
		"notes/README.md":      "# Notes\nWhat the readme says.\n",
		"notes/vectorstore.md": "# Vector store\nNothing.\n",
	}
	for i := range 5 {
		files[fmt.Sprintf("x/%d/index.md", i)] = fmt.Sprintf("# Index\nThe index of part %d.\n", i)
		files[fmt.Sprintf("x/%d/summary.md", i)] = fmt.Sprintf("---\ntitle: The summary of this part\n---\n# Summary\nPart %d.\n", i)
	}
	st := corpusIndex(t, files)
	ctx := context.Background()
	for query, want := range map[string]string{
		"KB-7":              "KB-7",
		"kb-7":              "KB-7",
		"what blocks KB-7?": "KB-7",
		"EIP-1559 base fee": "eip-1559",
		"eip-1559.md":       "eip-1559",
		"Make task edit preserve unrelated file details": "make-notes",
	} {
		f, err := Search(ctx, st, query, Options{Limit: 3})
		must.OK(t, err)
		var got []string
		for _, h := range f.Hits {
			got = append(got, h.ID)
		}
		if len(got) == 0 || got[0] != want {
			t.Errorf("search %q: hits %v, want %s first", query, got, want)
		}
	}
	// "index" names five documents: a word, not a name; searched as one.
	f, err := Search(ctx, st, "index", Options{Limit: 10})
	must.OK(t, err)
	if len(f.Hits) != 5 {
		t.Errorf("search index: %d hits, want the 5 index pages", len(f.Hits))
	}
	// A title five documents share is no name.
	r, err := RankDocuments(ctx, st, "the summary of this part", 3)
	must.OK(t, err)
	if len(r.Named) != 0 {
		t.Errorf("RankDocuments: named %+v, want none: five documents have the title", r.Named)
	}
	r, err = RankDocuments(ctx, st, "what blocks KB-7", 3)
	must.OK(t, err)
	if len(r.Named) != 1 || !reflect.DeepEqual(r.Named[0].Edges, []string{"blocked_by", "blocks"}) || len(r.Matches) == 0 || r.Matches[0].Key != "KB-7" {
		t.Errorf("RankDocuments: named %+v, first %+v: want KB-7 first, its blockers' edges", r.Named, r.Matches)
	}
}
