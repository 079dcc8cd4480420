package edit

import (
	"context"
	"path/filepath"
	"sort"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/ids"
	"github.com/canon-md/canon/index/safepath"
)

// maxNoteSamples is how many of the kind's newest items Notes reads to
// learn where an item's notes go, when the item has none; a sample over
// maxNoteSampleBytes is passed over.
const (
	maxNoteSamples     = 20
	maxNoteSampleBytes = 256 << 10
)

// toolNotes are the notes sections tools write, where no item of the
// kind has one yet: Backlog.md's Implementation Notes, between its
// markers, where its task edit --append-notes puts them.
var toolNotes = map[string]*Section{"backlog.md": {
	Title: "Implementation Notes", Level: 2, Begin: "<!-- SECTION:NOTES:BEGIN -->", End: "<!-- SECTION:NOTES:END -->",
	After: []string{"Implementation Plan", "Definition of Done", "Acceptance Criteria"}, Before: []string{"Comments", "Final Summary"},
}}

// Notes is the section every dated line canon writes about an item goes
// in (canon log, promote's worklog entries, canon id rename's line), as
// the repository keeps them: NoteSection with the configuration's
// append-only headings and its tool's own notes section, its samples the
// newest (highest numbered) other items of the item's kind and id series
// in the working tree under root, read bounded (one unread is passed
// over), and read only when the item's own sections do not decide.
func Notes(ctx context.Context, st *index.Store, root string, cfg *config.Config, doc index.DocRef, content []byte) Section {
	if cfg == nil {
		cfg = config.Default()
	}
	samples := func() [][]byte { return noteSamples(ctx, st, root, doc, maxNoteSamples) }
	return NoteSection(content, samples, cfg.Merge.AppendOnly, toolNotes[cfg.Tool])
}

// noteSamples are the contents of the newest n other items of doc's kind
// and id series; none on error.
func noteSamples(ctx context.Context, st *index.Store, root string, doc index.DocRef, n int) [][]byte {
	if st == nil {
		return nil
	}
	read := func(p string) ([]byte, bool) {
		b, err := safepath.ReadFile(filepath.Join(root, filepath.FromSlash(p)), maxNoteSampleBytes, root)
		return b, err == nil
	}
	want, _ := ids.Series(doc.ID)
	if ids.IndexedSeries(want) {
		// The series' newest first through the index's series index, as
		// canon new samples them (ADR-0085): n files read, not the kind.
		var out [][]byte
		err := st.EachOfSeries(ctx, strings.ToLower(want), func(ident, p, kind string) (bool, error) {
			if kind == doc.Kind && p != doc.Path {
				if b, ok := read(p); ok {
					out = append(out, b)
				}
			}
			return len(out) < n, nil
		})
		if err == nil && len(out) > 0 {
			return out
		}
	}
	docs, err := st.IdentsOfKind(ctx, doc.Kind)
	if err != nil {
		return nil
	}
	keep := docs[:0:0]
	nums := map[string]int64{}
	for _, d := range docs {
		if p, k := ids.Series(d.Ident); d.Path != doc.Path && strings.EqualFold(p, want) {
			keep = append(keep, d)
			nums[d.Ident] = k
		}
	}
	sort.SliceStable(keep, func(i, j int) bool { return nums[keep[i].Ident] > nums[keep[j].Ident] })
	var out [][]byte
	for _, d := range keep {
		if len(out) == n {
			break
		}
		if b, ok := read(d.Path); ok {
			out = append(out, b)
		}
	}
	return out
}
