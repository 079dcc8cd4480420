package search

import (
	"context"
	"path"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/scan"
)

// A page copied into several folders (one per version) takes one place:
// its copies are folded into the first (uncopied).

// maxCopies bounds the documents uncopied reads past each wanted one: a
// page copied into five versions' folders takes five places.
const maxCopies = 8

// uncopied keeps the first limit documents that are no copy of one before:
// a page copied into each version's folder (PowerShell-Docs' 5.1, 7.4,
// 7.5, ... reference) filled the first five places with one answer. A copy
// has the same file name in another folder and the same best section
// (chunks.hash: heading and body, and the title in the first section);
// records that share a "## Status / Accepted" section are not copies, nor
// are two documents with ids, however alike (a ticket filed twice). For
// each document kept it returns the keys of the copies left out, in rank
// order, and whether there were any.
func (k *ranker) uncopied(ctx context.Context, docs []docRank, limit int) ([]docRank, [][]string, bool, error) {
	n := min(len(docs), limit*maxCopies)
	ids := make([]index.ChunkID, n)
	for i := range ids {
		ids[i] = docs[i].sections[0].Chunk
	}
	hashes, err := k.t.Hashes(ctx, ids)
	if err != nil {
		return nil, nil, false, err
	}
	var out []docRank
	var also [][]string
	copies := false
	type copyKey struct {
		name string
		hash int64
	}
	at := map[copyKey]int{}
	for i, d := range docs {
		if i >= n && len(out) == limit {
			break
		}
		copyable := i < n && scan.IsMarkdown(d.sections[0].Key) // keyed by its path: no id or uid
		h := copyKey{strings.ToLower(path.Base(d.sections[0].Key)), hashes[d.sections[0].Chunk]}
		if j, ok := at[h]; ok && copyable {
			also[j] = append(also[j], d.sections[0].Key) // copies after the last place are named too
			copies = true
			continue
		}
		if len(out) == limit {
			continue
		}
		if copyable {
			at[h] = len(out)
		}
		out = append(out, d)
		also = append(also, nil)
	}
	return out, also, copies, nil
}
