package search

import (
	"context"
	"math"
	"sort"

	"github.com/canon-md/canon/index"
)

// A natural reading's second ranking: bm25 over whole documents
// (docBM25), fused with the ranking by sections (fuse).

// Document-level bm25 (k1 1.2, b 0.75, Lucene's idf): a document's words
// counted over all its sections, its length its size in bytes against the
// average of the documents found, a shorter one counted as long as the
// average (a stub whose
// title is the query must not outrank the document that decides, as in
// naturalRank). A
// section-level ranking misses a document whose words are spread thin over
// many sections, which whole-document bm25 finds (ADR-0047).
const (
	docK1 = 1.2
	docB  = 0.75
)

// docScore is a document's bm25 over whole documents (docBM25) and its
// section that holds the most of the words, weighed by their idf.
type docScore struct {
	bm25 float64
	mask uint64
	best candidate
	held float64 // the idf of the words best holds, times their counts
}

// docBM25 scores every document holding any of phrases (each an FTS5
// phrase, counted once; phrase i is the reading's word words[i], the bit
// its masks set, none from 62 on) by bm25 over whole documents, higher is
// better, each phrase's part times its weight (nil: all 1). The read's
// filter narrows the documents as it narrows the candidates.
func (k *ranker) docBM25(ctx context.Context, phrases []string, words []int, weights []float64) (map[index.DocID]*docScore, error) {
	docs, err := k.t.Documents(ctx)
	if err != nil {
		return nil, err
	}
	n := float64(docs)
	type sectionHits struct {
		c    candidate
		size float64
		hits float64
	}
	// Each phrase's sections, by document. The average length is the
	// documents found's: reading every document's size costs a read of
	// every document.
	found := make([][]sectionHits, len(phrases))
	sizes := map[index.DocID]float64{}
	for p, phrase := range phrases {
		secs, err := k.t.PhraseHits(ctx, phrase) // by document, in order
		if err != nil {
			return nil, err
		}
		found[p] = make([]sectionHits, len(secs))
		for i, sec := range secs {
			found[p][i] = sectionHits{c: sec.RankedSection, size: float64(sec.Size), hits: float64(sec.Hits)}
			sizes[sec.Doc] = float64(sec.Size)
		}
	}
	out := map[index.DocID]*docScore{}
	total := 0.0 // whole bytes: the sum is exact in any order
	for _, size := range sizes {
		total += size
	}
	avg := total / float64(max(len(sizes), 1))
	if avg <= 0 {
		return out, nil
	}
	held := map[index.ChunkID]*docScore{} // per section: best, held, its words
	for p, secs := range found {
		df := 0.0
		for i, h := range secs {
			if i == 0 || secs[i-1].c.Doc != h.c.Doc {
				df++
			}
		}
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		if weights != nil {
			idf *= weights[p]
		}
		for i := 0; i < len(secs); {
			j, tf := i, 0.0
			for ; j < len(secs) && secs[j].c.Doc == secs[i].c.Doc; j++ {
				tf += secs[j].hits
			}
			h := secs[i]
			d := out[h.c.Doc]
			if d == nil {
				d = &docScore{}
				out[h.c.Doc] = d
			}
			norm := docK1 * (1 - docB + docB*max(h.size, avg)/avg) // pivoted, as naturalRank
			d.bm25 += idf * tf * (docK1 + 1) / (tf + norm)
			bit := uint64(0)
			if words[p] < 62 {
				bit = 1 << words[p]
			}
			d.mask |= bit
			for _, sh := range secs[i:j] {
				h := held[sh.c.Chunk]
				if h == nil {
					h = &docScore{best: sh.c}
					held[sh.c.Chunk] = h
				}
				h.held += idf * sh.hits
				h.best.Mask |= bit
			}
			i = j
		}
	}
	for _, h := range held { // each document's best section: ties go to the first
		d := out[h.best.Doc]
		if d.best.Key == "" || h.held > d.held || h.held == d.held && h.best.Seq < d.best.Seq {
			d.best, d.held = h.best, h.held
		}
	}
	return out, nil
}

// fuse ranks the documents by two rankings at once (a score sum, each
// score over its best): docs' own (their sections, rankDocs) and bm's
// (their whole text, docBM25). A document that only bm found joins, shown
// by its section holding the most of the words, its section score 0.
// Scores stay negative, lower better, the best about -2 (ADR-0047).
func fuse(docs []docRank, bm map[index.DocID]*docScore, full uint64) []docRank {
	in := map[index.DocID]bool{}
	bestSections, bestWhole := 0.0, 0.0
	for _, d := range docs {
		in[d.sections[0].Doc] = true
		bestSections = min(bestSections, d.score)
	}
	var extra []*docScore
	for id, b := range bm {
		bestWhole = max(bestWhole, b.bm25)
		if !in[id] {
			extra = append(extra, b)
		}
	}
	for i := range docs {
		f := 0.0
		if bestSections < 0 {
			f = docs[i].score / bestSections
		}
		if b := bm[docs[i].sections[0].Doc]; b != nil {
			if bestWhole > 0 {
				f += b.bm25 / bestWhole
			}
			docs[i].mask |= b.mask &^ full // the words a bridge added that only the whole document holds
		}
		docs[i].score = -f
	}
	for _, b := range extra {
		f := 0.0
		if bestWhole > 0 {
			f = b.bm25 / bestWhole
		}
		docs = append(docs, docRank{score: -f, mask: b.mask, sections: []candidate{b.best}})
	}
	sort.SliceStable(docs, func(i, j int) bool {
		if docs[i].score != docs[j].score {
			return docs[i].score < docs[j].score
		}
		return docs[i].sections[0].Key < docs[j].sections[0].Key
	})
	return docs
}
