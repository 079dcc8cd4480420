package search

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/indextest/must"
)

func TestReadQuery(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, in string
		want     Reading
	}{
		{"question", "How does the workset get promoted back into the backlog?",
			Reading{Words: []string{"workset", "promoted", "back", "backlog"}, Ignored: []string{"how", "does", "the", "get", "into"}, Match: MatchAll}},
		{"question verbs", "What does a workset contain? What happens then?", // "contain" would match "container"
			Reading{Words: []string{"workset"}, Ignored: []string{"what", "does", "a", "contain", "happens", "then"}, Match: MatchAll}},
		{"keywords", "token refresh", Reading{Words: []string{"token", "refresh"}, Ignored: []string{}, Match: MatchAll}},
		{"a word twice counts once", "Token token TOKEN", Reading{Words: []string{"token"}, Ignored: []string{}, Match: MatchAll}},
		{"a hyphenated word is one word", "sqlite-vec vs faiss", Reading{Words: []string{"sqlite vec", "vs", "faiss"}, Ignored: []string{}, Match: MatchAll}},
		{"contractions are stop words", "what's the plan", Reading{Words: []string{"plan"}, Ignored: []string{"what s", "the"}, Match: MatchAll}},
		{"only stop words are the question", "what is it", Reading{Words: []string{"what", "is", "it"}, Ignored: []string{}, Match: MatchAll}},
		{"lower-case operators are words", "retry or fail", Reading{Words: []string{"retry", "fail"}, Ignored: []string{"or"}, Match: MatchAll}},
		{"a phrase", `"token refresh" session`, Reading{Words: []string{"token refresh", "session"}, Ignored: []string{}, Match: MatchExact}},
		{"a prefix", "tok*", Reading{Words: []string{"tok*"}, Ignored: []string{}, Match: MatchExact}},
		{"AND", "the AND token", Reading{Words: []string{"the", "token"}, Ignored: []string{}, Match: MatchExact}},
		{"NOT", "token NOT refresh", Reading{Words: []string{"token", "refresh"}, Ignored: []string{}, Match: MatchExact}},
		{"OR", "token OR session", Reading{Words: []string{"token", "session"}, Ignored: []string{}, Match: MatchExact}},
		{"a lone star is no prefix", "a * b", Reading{Words: []string{"b"}, Ignored: []string{"a"}, Match: MatchAll}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReadQuery(c.in)
			if err != nil {
				t.Fatal(err)
			}
			got.all, got.phrases = "", nil
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("ReadQuery(%q) = %+v, want %+v", c.in, got, c.want)
			}
		})
	}
	if _, err := ReadQuery("  ?! "); err == nil {
		t.Error("a text without words was read")
	}
}

// TestReadingLine: the line says how the query was read only when that
// is not plain from the text.
func TestReadingLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		r    Reading
		want string
	}{
		{Reading{Words: []string{"token"}, Ignored: []string{}, Match: MatchAll}, ""},
		{Reading{Words: []string{"token"}, Ignored: []string{}, Match: MatchExact}, ""},
		{Reading{Words: []string{"token", "refresh"}, Ignored: []string{"how"}, Match: MatchAll}, "searched for all of: token, refresh (ignored: how)"},
		{Reading{Words: []string{"token", "refresh"}, Ignored: []string{}, Match: MatchAny}, "searched for any of: token, refresh"},
	} {
		if got := c.r.Line(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
}

// decisionCorpus: an ADR that decides the vector backend, naming the two
// candidates in two sections, beside a stub whose title is the question's
// words, and items that mention one word each.
var decisionCorpus = map[string]string{
	"adr/ADR-0007.md": "---\nid: ADR-0007\ntitle: Where embeddings live\n---\n# Where embeddings live\n## Context\nSearch needs nearest neighbours over embeddings: a vector backend. We measured sqlite-vec on the demo backlog.\n" +
		"## Decision\nWe keep the embeddings in FAISS, behind the vector backend interface; the backend is chosen in config.\n## Consequences\nThe vector backend interface stays small.\n",
	"notes/vector-backend.md": "---\ntitle: Vector backend\n---\n# Vector backend\n",
	"items/T-1.md":            "---\nid: T-1\ntitle: Tokenizer\n---\n# Tokenizer\n## Context\nThe tokenizer feeds sqlite-vec and the keyword index.\n",
	"items/T-2.md":            "---\nid: T-2\ntitle: Benchmarks\n---\n# Benchmarks\n## Context\nFAISS builds its index in memory.\n",
	"items/T-3.md":            "---\nid: T-3\ntitle: Release\n---\n# Release\n## Context\nShip the release notes.\n",
}

// TestTitleNamesTheQuery: a feature whose title names every word of the
// query, its sections all but empty, comes before the dozen items whose
// links quote its title, path and all (each word twice in one section).
func TestTitleNamesTheQuery(t *testing.T) {
	t.Parallel()
	quote := "## Links\n- Related: [[F-16_claim-lease-for-multi-agent|F-16 Claim/Lease for Multi-Agent]]\n"
	files := map[string]string{
		"items/F-16.md": "---\nid: F-16\ntitle: \"Coordination layer: claim/lease for multi-agent\"\n---\n# Context\nAgents need coordination.\n# Approach\nTo be written.\n",
	}
	for i := 20; i < 32; i++ { // more than a page of hits: every word in one section
		files[fmt.Sprintf("items/T-%d.md", i)] = fmt.Sprintf("---\nid: T-%d\ntitle: Dispatcher %d\n---\n# Context\nRoutes tasks.\n", i, i) + quote
	}
	firstHit(t, files, "claim lease multi-agent", "F-16")
}

// firstHit indexes files and wants a natural search for query to find the
// document id first.
func firstHit(t *testing.T, files map[string]string, query, id string) {
	t.Helper()
	st := corpusIndex(t, files)
	f, err := Search(context.Background(), st, query, Options{})
	must.OK(t, err)
	if len(f.Hits) == 0 || f.Hits[0].ID != id {
		var got []string
		for _, h := range f.Hits {
			got = append(got, h.ID)
		}
		t.Errorf("hits %v, want %s first", got, id)
	}
}

// TestGeneratedAfterItems: a generated dashboard that lists the item's
// title (and so holds the words more often) comes after the item.
func TestGeneratedAfterItems(t *testing.T) {
	t.Parallel()
	firstHit(t, map[string]string{
		"items/T-1.md":   "---\nid: T-1\ntitle: Webhook retry\n---\n# Context\nRetry a failed webhook.\n",
		"views/board.md": "---\ntitle: Board\ngenerated: true\n---\n# Board\n- T-1 Webhook retry: webhook retry, webhook retry\n- T-2 Invoices\n",
	}, "webhook retry", "T-1")
}

// TestGeneratedPlacesGoToTheRest: two documents hold every word in one
// section, one of them a dashboard; with two wanted, the dashboard's place
// goes to the best document holding some of the words (layered), after
// the one that holds them all, with scores in the order shown.
func TestGeneratedPlacesGoToTheRest(t *testing.T) {
	t.Parallel()
	f := searchIn(t, map[string]string{
		"views/board.md": "---\ntitle: Board\ngenerated: true\n---\n# Board\n- webhook retry, webhook retry\n",
		"items/T-1.md":   "---\nid: T-1\ntitle: Webhook retry\n---\n# Context\nRetry a failed webhook.\n",
		"items/Y-1.md":   "---\nid: Y-1\ntitle: Signing\n---\n# Context\nEach webhook is signed.\n",
	}, "webhook retry", 2)
	if len(f.Hits) != 2 || f.Hits[0].ID != "T-1" || f.Hits[1].ID != "Y-1" {
		t.Fatalf("hits %+v, want T-1 and Y-1", f.Hits)
	}
	if f.Hits[0].Score >= f.Hits[1].Score || f.Read.Match != MatchAny {
		t.Errorf("scores %v, %v and match %q: want the first lower, and any", f.Hits[0].Score, f.Hits[1].Score, f.Read.Match)
	}
}

// TestMatchOfWhatIsShown: the reading's match describes the hits shown,
// after the generated ones moved down: the dashboard and X hold both words,
// Y, shown in the dashboard's place, one: any.
func TestMatchOfWhatIsShown(t *testing.T) {
	t.Parallel()
	f := searchIn(t, map[string]string{
		"views/board.md": "---\ntitle: Board\ngenerated: true\n---\n# Board\n- webhook retry, webhook retry\n",
		"items/X-1.md":   "---\nid: X-1\ntitle: Inbox\n---\n# Context\nEach webhook is stored.\n## Approach\nA failed one is tried again: a retry.\n",
		"items/Y-1.md":   "---\nid: Y-1\ntitle: Signing\n---\n# Context\nEach webhook is signed.\n",
	}, "webhook retry", 2)
	if len(f.Hits) != 2 || f.Hits[0].ID != "X-1" || f.Hits[1].ID != "Y-1" {
		t.Fatalf("hits %+v, want X-1 and Y-1", f.Hits)
	}
	if f.Read.Match != MatchAny || !reflect.DeepEqual(f.Hits[1].Words, []string{"webhook"}) {
		t.Errorf("read %q, Y-1's words %v: want any, and [webhook]", f.Read.Match, f.Hits[1].Words)
	}
}

// TestWholeDocumentMasksAreWords: docBM25's masks name the reading's words,
// not the places of its phrases: a word before them that matched nothing
// is not asked, and a document only the whole-document bm25 finds must
// still say it holds "retry", the third word (a hit's Words).
func TestWholeDocumentMasksAreWords(t *testing.T) {
	t.Parallel()
	st := corpusIndex(t, map[string]string{
		"items/R-1.md": "---\nid: R-1\ntitle: Operations\n---\n# Context\nThe worker may retry.\n## Steps\nA retry waits.\n",
	})
	ctx := context.Background()
	err := st.ReadFullText(ctx, "retry", index.DocFilter{}, func(ft *index.FullText) error {
		k := &ranker{st: st, t: ft}
		bm, err := k.docBM25(ctx, []string{`"retry"`}, []int{2}, nil)
		if err != nil {
			return err
		}
		if len(bm) != 1 {
			t.Fatalf("%d documents, want R-1", len(bm))
		}
		for _, d := range bm {
			if d.mask != 1<<2 || d.best.Mask != 1<<2 {
				t.Errorf("masks %b and %b (best section), want 100: the third word", d.mask, d.best.Mask)
			}
		}
		return nil
	})
	must.OK(t, err)
}

// TestWholeDocumentCountsTheTitleOnce: the whole-document bm25 counts a
// title where no heading repeats it (a title in the front matter, as
// Backlog.md keeps it) and not twice where the first heading does; the
// front-matter task must not count for nothing (ADR-0091).
func TestWholeDocumentCountsTheTitleOnce(t *testing.T) {
	t.Parallel()
	st := corpusIndex(t, map[string]string{
		"items/A-1.md": "---\nid: A-1\ntitle: Webhook retry\n---\n# Webhook retry\n## Context\nNothing else.\n",
		"items/B-1.md": "---\nid: B-1\ntitle: Webhook retry\n---\n## Description\nNothing else.\n",
		"items/C-1.md": "---\nid: C-1\ntitle: Signing\n---\n## Description\nEach webhook is signed.\n",
		"items/D-1.md": "---\nid: D-1\ntitle: Webhook inbox\n---\n## Description\nEach webhook is stored.\n",
	})
	ctx := context.Background()
	err := st.ReadFullText(ctx, "webhook", index.DocFilter{}, func(ft *index.FullText) error {
		hits, err := ft.PhraseHits(ctx, `"webhook"`)
		if err != nil {
			return err
		}
		got := map[string]int64{}
		for _, h := range hits {
			got[h.Key] += h.Hits
		}
		want := map[string]int64{"A-1": 1, "B-1": 1, "C-1": 1, "D-1": 2}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("instances of webhook by document %v, want %v", got, want)
		}
		return nil
	})
	must.OK(t, err)
}

// TestWordsTogetherRankFirst: of a dozen sections holding every word, the
// one where they stand together ("webhook retry") comes before those where
// they are apart, the rest alike (canon_near).
func TestWordsTogetherRankFirst(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"items/N-99.md": "---\nid: N-99\ntitle: Notes 99\n---\n# Context\nA failed call gets a webhook retry, later, once the service is back and the order is open.\n",
	}
	for i := 10; i < 22; i++ {
		files[fmt.Sprintf("items/A-%d.md", i)] = fmt.Sprintf("---\nid: A-%d\ntitle: Notes %d\n---\n# Context\nA failed webhook call gets a retry, later, once the service is back and the order is open.\n", i, i)
	}
	for i := range 40 { // the words are rare
		files[fmt.Sprintf("items/B-%d.md", i)] = fmt.Sprintf("---\nid: B-%d\ntitle: Other %d\n---\n# Context\nThe invoice is sent.\n", i, i)
	}
	firstHit(t, files, "webhook retry", "N-99")
}

func TestNaturalSearch(t *testing.T) {
	t.Parallel()
	st := corpusIndex(t, decisionCorpus)
	ctx := context.Background()
	ids := func(f *Found) []string {
		var out []string
		for _, h := range f.Hits {
			out = append(out, h.ID)
		}
		return out
	}
	t.Run("words spread over two sections find the document", func(t *testing.T) {
		f, err := Search(ctx, st, "sqlite-vec faiss", Options{})
		must.OK(t, err)
		if got := ids(f); len(got) == 0 || got[0] != "ADR-0007" {
			t.Errorf("hits %v, want ADR-0007 first", got)
		}
		if f.Read.Match != MatchAny || f.Hits[0].Words != nil {
			t.Errorf("read %+v, first hit's words %v: want any, and the ADR holding both", f.Read, f.Hits[0].Words)
		}
		if len(f.Hits) < 3 || !reflect.DeepEqual(f.Hits[1].Words, []string{"sqlite vec"}) && !reflect.DeepEqual(f.Hits[1].Words, []string{"faiss"}) {
			t.Errorf("hits %+v: want the items holding one word each after the ADR, saying which", f.Hits)
		}
	})
	t.Run("a stub with the title does not outrank the deciding document", func(t *testing.T) {
		f, err := Search(ctx, st, "vector backend", Options{})
		must.OK(t, err)
		if got := ids(f); len(got) != 2 || got[0] != "ADR-0007" {
			t.Errorf("hits %v, want ADR-0007 before the stub", got)
		}
	})
	t.Run("a question gets hits", func(t *testing.T) {
		f, err := Search(ctx, st, "Which vector backend did we choose?", Options{})
		must.OK(t, err)
		if got := ids(f); len(got) == 0 || got[0] != "ADR-0007" {
			t.Errorf("hits %v, want ADR-0007 first", got)
		}
		want := Reading{Words: []string{"vector", "backend", "choose"}, Ignored: []string{"which", "did", "we"}, Match: MatchAll}
		if f.Read.Words == nil || !reflect.DeepEqual(f.Read.Words, want.Words) || !reflect.DeepEqual(f.Read.Ignored, want.Ignored) {
			t.Errorf("read %+v, want %+v", f.Read, want)
		}
	})
	t.Run("an exact query keeps every word in one section", func(t *testing.T) {
		f, err := Search(ctx, st, `"sqlite vec" AND faiss`, Options{})
		must.OK(t, err)
		if len(f.Hits) != 0 || f.Read.Match != MatchExact {
			t.Errorf("hits %v, read %+v: want none, exact", ids(f), f.Read)
		}
	})
	t.Run("a kind narrows a natural search", func(t *testing.T) {
		f, err := Search(ctx, st, "sqlite-vec faiss", Options{Kind: "doc"})
		must.OK(t, err)
		for _, h := range f.Hits {
			if h.Kind != "doc" {
				t.Errorf("hit %s is a %s", h.ID, h.Kind)
			}
		}
		if len(f.Hits) != 2 {
			t.Errorf("hits %v, want T-1 and T-2", ids(f))
		}
	})
}

func TestRarest(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		counts []int64
		want   []int
	}{
		{[]int64{5, 3, 9}, []int{0, 1, 2}},
		{[]int64{9000, 30, 4000}, []int{1, 2}}, // 9,000 more would pass 10,000
		{[]int64{5000, 5000, 1}, []int{0, 2}},  // 1 + 5,000 + 5,000 is 10,001
		{[]int64{40000, 50000}, []int{0}},      // the rarest always
		{[]int64{0, 20, 0}, []int{1}},          // no section holds words 0 and 2
		{[]int64{0, 0}, []int{0}},              // nothing matches: asked anyway
	} {
		if got := rarest(c.counts); !reflect.DeepEqual(got, c.want) {
			t.Errorf("rarest(%v) = %v, want %v", c.counts, got, c.want)
		}
	}
}

// TestFuse: documents rank by their sections' score and their whole
// text's bm25 together, each over its best; a document only the
// whole-text bm25 found joins, shown by its best section (ADR-0047).
func TestFuse(t *testing.T) {
	t.Parallel()
	docs := []docRank{
		{score: -10, sections: []candidate{{Doc: 1, Key: "A"}}},
		{score: -8, sections: []candidate{{Doc: 2, Key: "B"}}},
	}
	bm := map[index.DocID]*docScore{
		1: {bm25: 1, best: candidate{Doc: 1, Key: "A"}},
		2: {bm25: 4, best: candidate{Doc: 2, Key: "B"}},
		3: {bm25: 3, mask: 1, best: candidate{Doc: 3, Key: "C", Slug: "decision"}},
	}
	got := fuse(docs, bm, 1)
	var keys []string
	for _, d := range got {
		keys = append(keys, d.sections[0].Key)
	}
	// B: 0.8 + 1; A: 1 + 0.25; C: 0 + 0.75.
	if want := []string{"B", "A", "C"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("order %v, want %v", keys, want)
	}
	if got[2].sections[0].Slug != "decision" || got[2].mask != 1 || got[0].score != -1.8 {
		t.Errorf("fused %+v", got)
	}
}

// searchIn indexes files and searches them for text, at most limit hits.
func searchIn(t *testing.T, files map[string]string, text string, limit int) *Found {
	t.Helper()
	st := corpusIndex(t, files)
	f, err := Search(context.Background(), st, text, Options{Limit: limit})
	must.OK(t, err)
	return f
}

// TestLimitOnlyCuts: a smaller limit shows the first documents of a larger
// one, in the same order. How many documents were wanted decided how many
// sections were read (4 each) and whether a search for any of the words
// ran: the page whose every section names the command lost --limit 1 to
// another page's one example that repeats it (PowerShell-Docs'
// Invoke-Command), and a question's first place changed at --limit 30.
func TestLimitOnlyCuts(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	var b strings.Builder
	b.WriteString("---\ntitle: Invoke-Command\n---\n# Invoke-Command\nRuns commands on a remote computer.\n")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, "## Example %d\nInvoke-Command runs the script on the remote computer %d.\n", i, i)
	}
	files["ref/invoke-command.md"] = b.String()
	for i := 0; i < 40; i++ {
		files[fmt.Sprintf("ref/other-%02d.md", i)] = fmt.Sprintf("---\ntitle: Other %d\n---\n# Other %d\nSomething else.\n## Example\nInvoke-Command; Invoke-Command, then Invoke-Command again: step %d.\n", i, i, i)
		files[fmt.Sprintf("guide/deploy-%02d.md", i)] = fmt.Sprintf("---\ntitle: Deploy %d\n---\n# Deploy %d\nDeploy the site to host %d.\n", i, i, i)
	}
	for v := 0; v < 4; v++ { // a page copied per version: one place, whatever the limit
		files[fmt.Sprintf("ref/%d.0/invoke-alias.md", v)] = "---\ntitle: Invoke alias\n---\n# Invoke alias\n## Example\nInvoke-Command through an alias.\n"
	}
	files["guide/pages.md"] = "---\ntitle: Host on GitHub Pages\n---\n# Host on GitHub Pages\nDeploy your site to GitHub Pages with a workflow.\n## Workflow\nThe site is built and deployed to Pages on each push.\n"
	st := corpusIndex(t, files)
	for _, q := range []string{"Invoke-Command", "how can I deploy my site to GitHub Pages?"} {
		var prev []string
		for _, limit := range []int{30, 12, 11, 10, 5, 1} {
			f, err := Search(context.Background(), st, q, Options{Limit: limit})
			must.OK(t, err)
			var got []string
			for _, h := range f.Hits {
				got = append(got, h.Path)
			}
			if n := min(limit, firstPlaces); prev != nil && !slices.Equal(got[:min(n, len(got))], prev[:min(n, len(prev))]) {
				t.Errorf("%q --limit %d: %v, want the first of a larger limit's: %v", q, limit, got, prev)
			}
			for i := 1; i < len(f.Hits); i++ {
				if f.Hits[i].Score < f.Hits[i-1].Score {
					t.Errorf("%q --limit %d: scores out of order at %d: %v after %v", q, limit, i, f.Hits[i].Score, f.Hits[i-1].Score)
				}
			}
			prev = got
		}
		if q == "Invoke-Command" && (len(prev) == 0 || prev[0] != "ref/invoke-command.md") {
			t.Errorf("%q first: %v, want the command's own page", q, prev)
		}
	}
}

// TestCopiesTakeOnePlace: a page copied into each version's folder takes
// one place, and its hit names the copies; a page that differs keeps its
// own (PowerShell-Docs' reference/5.1, 7.4, 7.5 filled the first places).
func TestCopiesTakeOnePlace(t *testing.T) {
	t.Parallel()
	page := "---\ntitle: Import-Clixml\n---\n# Import-Clixml\nImports a CLIXML file.\n## Notes\nStore a credential securely with Export-Clixml.\n"
	f := searchIn(t, map[string]string{
		"ref/5.1/import-clixml.md": page,
		"ref/7.4/import-clixml.md": page,
		"ref/7.5/import-clixml.md": page,
		"ref/7.5/export-clixml.md": "---\ntitle: Export-Clixml\n---\n# Export-Clixml\n## Notes\nA credential is stored securely.\n",
	}, "store a credential securely", 2)
	if len(f.Hits) != 2 || f.Hits[0].Path == f.Hits[1].Path || !strings.HasSuffix(f.Hits[1].Path, "export-clixml.md") && !strings.HasSuffix(f.Hits[0].Path, "export-clixml.md") {
		t.Fatalf("hits %+v, want one Import-Clixml and Export-Clixml", f.Hits)
	}
	for _, h := range f.Hits {
		if strings.HasSuffix(h.Path, "import-clixml.md") && len(h.Also) != 2 {
			t.Errorf("%s also %v, want the two other copies", h.Path, h.Also)
		}
	}
}

// TestRecordsAreNoCopies: decision records that share a section ("##
// Status / Accepted") are not a page's copies: each keeps its place. A copy
// has the same file name in another folder.
func TestRecordsAreNoCopies(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := 1; i <= 4; i++ {
		files[fmt.Sprintf("doc/adr/%04d-use-thing-%d.md", i, i)] = fmt.Sprintf("# %d. Use thing %d\n\n## Status\n\nAccepted\n\n## Decision\n\nWe use thing %d.\n", i, i, i)
	}
	f := searchIn(t, files, "accepted", 10)
	if len(f.Hits) != 4 {
		t.Fatalf("%d hits, want the 4 records: %+v", len(f.Hits), f.Hits)
	}
	for _, h := range f.Hits {
		if len(h.Also) > 0 {
			t.Errorf("%s also %v: records are no copies", h.Path, h.Also)
		}
	}
}

// TestCopiesLeaveNoGap: when copies fold into one place, more documents
// fill the places they took. The first ranking reads 100 sections: 30
// copies of 5 sections each fill them, so it ranks copies only.
func TestCopiesLeaveNoGap(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	sections := func(title, text string, n int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntitle: %s\n---\n# %s\n", title, title)
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "## Part %d\n%s\n", i, text)
		}
		return b.String()
	}
	for v := 0; v < 30; v++ {
		files[fmt.Sprintf("ref/%02d/page.md", v)] = sections("Page", "alpha beta alpha beta alpha beta.", 5)
	}
	for i := 0; i < 30; i++ {
		files[fmt.Sprintf("d/doc-%02d.md", i)] = sections(fmt.Sprintf("Doc %d", i), fmt.Sprintf("alpha and beta, then more words here, %d.", i), 5)
	}
	f := searchIn(t, files, "alpha beta", 10)
	if len(f.Hits) != 10 {
		t.Fatalf("%d hits, want 10: copies must not leave places empty", len(f.Hits))
	}
	if f.Hits[0].Path != "ref/00/page.md" || len(f.Hits[0].Also) != 29 {
		t.Errorf("first %s also %d, want ref/00/page.md and its 29 copies", f.Hits[0].Path, len(f.Hits[0].Also))
	}
	for i := 1; i < len(f.Hits); i++ {
		if f.Hits[i].Score < f.Hits[i-1].Score {
			t.Errorf("scores out of order at %d", i)
		}
	}
}

// TestGeneratedAfterPeoplesAtAnyLimit: past the first places too,
// generated documents come after every document people wrote, and the
// scores stay in the order shown.
func TestGeneratedAfterPeoplesAtAnyLimit(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := 0; i < 3; i++ {
		files[fmt.Sprintf("dash/%d.generated.md", i)] = fmt.Sprintf("# Dash %d\n- alpha beta alpha beta alpha beta\n- alpha beta\n", i)
	}
	for i := 0; i < 40; i++ {
		files[fmt.Sprintf("d/doc-%02d.md", i)] = fmt.Sprintf("---\ntitle: Doc %d\n---\n# Doc %d\nalpha and beta, %d.\n", i, i, i)
	}
	for _, limit := range []int{10, 30, 50} {
		f := searchIn(t, files, "alpha beta", limit)
		gen := false
		for i, h := range f.Hits {
			isGen := strings.HasPrefix(h.Path, "dash/")
			if gen && !isGen {
				t.Errorf("--limit %d: %s at %d after a generated document", limit, h.Path, i+1)
			}
			gen = gen || isGen
			if i > 0 && h.Score < f.Hits[i-1].Score {
				t.Errorf("--limit %d: scores out of order at %d", limit, i+1)
			}
		}
	}
}

// TestRereadOfHitsShown: canon mcp asks for one hit more than it shows;
// the reading's match is then of the hits shown.
func TestRereadOfHitsShown(t *testing.T) {
	f := &Found{Read: &Reading{Match: MatchAny}, Hits: []Hit{{}, {}}}
	f.Reread()
	if f.Read.Match != MatchAll {
		t.Errorf("match %q, want all: every hit shown holds every word", f.Read.Match)
	}
	f.Hits = append(f.Hits, Hit{Words: []string{"retry"}})
	if f.Reread(); f.Read.Match != MatchAny {
		t.Errorf("match %q, want any", f.Read.Match)
	}
	exact := &Found{Read: &Reading{Match: MatchExact}, Hits: []Hit{{}}}
	if exact.Reread(); exact.Read.Match != MatchExact {
		t.Errorf("an exact reading became %q", exact.Read.Match)
	}
}
