package search

import (
	"context"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/canon-md/canon/index"
)

// A natural reading (ReadQuery) ranks documents, not sections: a question's
// words are often spread over a document's sections (the title names the
// subject, the Decision names the choice), and a stub whose title repeats
// the words must not outrank the document that has something to say. It
// asks FTS5 for every word in one section first (the keyword query, as
// cheap as an exact search); when that finds fewer documents than wanted,
// it asks for any of the words and ranks documents by how many of the
// words, and how rare, their best sections hold between them (ADR-0035).

// candidate is a section a natural reading found (index's Candidates):
// Score its canon_bm25_pivot, lower better; Mask and Title the reading's
// words it and its title hold, once wordsMask has read the query's
// phrases as words; Near the query's neighbouring phrases it holds
// together.
type candidate = index.RankedSection

// ranker is one natural search's reads: the read transaction it ranks in
// (narrowed by the search's filter) and the store whose word-vectors
// sidecar bridges its vocabulary.
type ranker struct {
	st   *index.Store
	t    *index.FullText
	text string // the query as typed: the names it holds (namedDocs)
}

// docRank is a document a natural reading found: its sections among the
// candidates, best first, and its score (lower is better).
type docRank struct {
	score    float64
	mask     uint64
	title    uint64 // the words its title holds
	near     uint64 // the query's neighbouring phrases its sections hold together
	sections []candidate
	named    bool // the query names it (namedDocs): it comes first
}

// Candidate sections a natural reading ranks documents from: for all the
// words, 4 per document wanted (as context packs take), and minAll at
// least; for any of them, more, so that a document whose sections each
// hold one word is among them. The least counts keep the first places the
// same whatever the limit: a document ranks by its sections among the
// candidates, and read 4 at a time the page whose every section names
// Invoke-Command lost --limit 1 to another page's one example.
const (
	allPerDoc = 4
	anyPerDoc = 20
	minAll    = 100
	minAny    = 200
)

// firstPlaces are the documents a natural search ranks alike for every
// limit: a smaller limit shows the first of them, a larger one adds to
// them. How many documents are wanted decides how many candidates are
// read and whether a search for any of the words runs, so without it
// --limit 1, 5 and 30 each put another page first. The ranking for them
// gives one more (canon mcp asks for its limit + 1 to tell whether hits
// were left out) without a second ranking.
const firstPlaces = 10

// rankNatural ranks the documents for r as a search shows them: at most
// limit (the read's filter narrows them), generated ones after those people
// wrote, a page's copies folded into the first (also: their keys, per
// document), and the first firstPlaces the same whatever the limit. It
// sets r.Match, and returns the documents, best first, the copies, the
// FTS5 query their sections matched (for highlights) and how many
// sections matched it (0 when not counted).
func (k *ranker) rankNatural(ctx context.Context, r *Reading, limit int) ([]docRank, [][]string, string, int, error) {
	read := r
	if limit > firstPlaces+1 {
		c := r.clone() // the reading as the ranking for limit leaves it
		read = &c
	}
	ranked, q, total, err := k.rankNaturalAt(ctx, read, firstPlaces)
	if err != nil {
		return nil, nil, "", 0, err
	}
	keep := firstPlaces + 1
	ranked = generatedLast(ranked)
	docs, also, copies, err := k.uncopied(ctx, ranked, keep)
	if err != nil {
		return nil, nil, "", 0, err
	}
	for want := firstPlaces * maxCopies; copies && len(docs) < keep && want <= firstPlaces*maxCopies*maxCopies; want *= maxCopies {
		// a page's copies took places: more documents fill them, after
		// the ones ranked
		c := read.clone()
		more, _, _, err := k.rankNaturalAt(ctx, &c, want)
		if err != nil {
			return nil, nil, "", 0, err
		}
		had := len(ranked)
		ranked = generatedLast(placed(ranked, more))
		if docs, also, _, err = k.uncopied(ctx, ranked, keep); err != nil {
			return nil, nil, "", 0, err
		}
		if len(ranked) == had {
			break // every document that matches is ranked
		}
	}
	if limit <= keep {
		n := min(limit, len(docs))
		return inOrder(docs[:n]), also[:n], q, total, nil
	}
	// More places than the first: the documents people wrote among the
	// first keep their places, and the ranking for limit fills the rest
	// (generated documents after every document people wrote).
	var first []docRank
	for _, d := range docs[:min(firstPlaces, len(docs))] {
		if !d.sections[0].Generated {
			first = append(first, d)
		}
	}
	rest, q, total, err := k.rankNaturalAt(ctx, r, limit)
	if err != nil {
		return nil, nil, "", 0, err
	}
	docs, also, _, err = k.uncopied(ctx, generatedLast(placed(first, rest)), limit)
	if err != nil {
		return nil, nil, "", 0, err
	}
	r.Match = matchOf(docs, full(r))
	return inOrder(docs), also, q, total, nil
}

// inOrder keeps scores in the order of the documents (lower is better):
// a document moved after another (a generated one, a place kept) never
// shows a better score than the one before it.
func inOrder(docs []docRank) []docRank {
	for i := 1; i < len(docs); i++ {
		docs[i].score = max(docs[i].score, docs[i-1].score)
	}
	return docs
}

// generatedLast puts generated documents (dashboards, index stubs: lists
// of other documents' titles) after the documents they list, each part in
// its order: they hold a query's words wherever an item's title does, and
// took places of the items in the first ten (ADR-0047).
func generatedLast(docs []docRank) []docRank {
	sort.SliceStable(docs, func(i, j int) bool { return !docs[i].sections[0].Generated && docs[j].sections[0].Generated })
	return docs
}

// placed puts the documents of first, in their order, before the rest of
// rest, in its order; scores stay negative, lower better, rest's scaled
// below first's last so that the order is the scores' order.
func placed(first, rest []docRank) []docRank {
	in := map[index.DocID]bool{}
	out := slices.Clone(first)
	for _, d := range first {
		in[d.sections[0].Doc] = true
	}
	last := 0.0
	if len(out) > 0 {
		last = out[len(out)-1].score
	}
	bestRest := 0.0
	for _, d := range rest {
		if !in[d.sections[0].Doc] {
			bestRest = min(bestRest, d.score)
		}
	}
	for _, d := range rest {
		if in[d.sections[0].Doc] {
			continue
		}
		if bestRest < 0 && last < 0 {
			d.score = last * d.score / bestRest * 0.999
		}
		out = append(out, d)
	}
	return out
}

// rankNaturalAt is rankNatural for at least limit documents.
func (k *ranker) rankNaturalAt(ctx context.Context, r *Reading, limit int) ([]docRank, string, int, error) {
	full := full(r)
	r.Match = MatchAll
	var docs, allDocs []docRank
	var total int
	// Every word in one section: more candidates while the ones read hold
	// fewer documents people wrote than wanted and more sections matched.
	// Generated documents (dashboards, index stubs) hold a query's words
	// wherever an item's title does; they are not answers, and when they
	// make up the count, the places they took go to the best documents of
	// any of the words (layered).
	for n := max(allPerDoc*limit, minAll); ; n *= 4 {
		cands, matched, err := k.t.Candidates(ctx, r.all, false, min(n, maxKeep))
		if err != nil {
			return nil, "", 0, err
		}
		for i := range cands {
			cands[i].Mask = full
		}
		docs, total = rankDocs(cands, nil, full, len(r.phrases)-1), matched
		if len(r.phrases) < 2 && len(docs) == 0 {
			// one word no section holds: perhaps the documents spell it otherwise
			if docs, q, total, done, err := k.rerank(ctx, r, []int64{0}, limit); done {
				return docs, q, total, err
			}
		}
		if written(docs) >= limit || len(r.phrases) < 2 {
			return docs, r.all, total, nil
		}
		if len(cands) == min(n, maxKeep) && n < maxKeep {
			continue // more sections matched than were read
		}
		if len(docs) >= limit {
			allDocs = docs // enough, with generated ones among them
			break
		}
		if len(cands) < min(n, maxKeep) { // every match read: too few documents
			break
		}
		return docs, r.all, total, nil // the bound reached
	}
	counts, idf, err := k.idf(ctx, r.phrases)
	if err != nil {
		return nil, "", 0, err
	}
	if docs, q, total, done, err := k.rerank(ctx, r, counts, limit); done {
		return docs, q, total, err
	}
	asked := rarest(counts)
	phrases := make([]string, len(asked))
	for i, p := range asked {
		phrases[i] = r.phrases[p]
	}
	for p := range r.Words {
		if counts[p] > 0 && !slices.Contains(asked, p) {
			r.Common = append(r.Common, r.Words[p])
		}
	}
	matches := int64(0)
	for _, p := range asked {
		matches += counts[p]
	}
	whole, weights := phrases, []float64(nil)
	vecs, err := k.st.Vectors()
	if err != nil {
		return nil, "", 0, err
	}
	if vecs != nil { // a vocabulary bridge (ADR-0050)
		b, err := k.bridge(ctx, vecs, r, counts, matches)
		if err != nil {
			return nil, "", 0, err
		}
		asked, phrases, idf, matches, whole, weights = b.extend(asked, phrases, idf, matches)
	}
	q := strings.Join(phrases, " OR ")
	cands, total, err := k.t.Candidates(ctx, q, true, max(anyPerDoc*limit, minAny))
	if err != nil {
		return nil, "", 0, err
	}
	for i := range cands { // bit i of the OR query is word asked[i]
		cands[i].Mask = wordsMask(cands[i].Mask, asked)
		cands[i].Title = wordsMask(cands[i].Title, asked)
	}
	docs = rankDocs(cands, idf, full, 0) // no nearness: see nearBonus
	if matches <= maxWholeMatches {
		words := slices.Clone(asked)
		for len(words) < len(whole) { // only in the whole-document bm25 (a bridge's)
			words = append(words, min(len(idf)+len(words)-len(asked), 62)) // 62: no bit
		}
		bm, err := k.docBM25(ctx, whole, words, weights)
		if err != nil {
			return nil, "", 0, err
		}
		docs = fuse(docs, bm, full)
	}
	docs = layered(allDocs, docs)
	r.Match = matchOf(docs[:min(limit, len(docs))], full)
	return docs, q, total, nil
}

// layered puts the documents people wrote among first (each holding every
// word in one section) before the rest of rest (a ranking of any of the
// words), each part in its order. Scores stay negative, lower better: first's
// over its best (the best -1), rest's over its best times the last of
// first's, so that the order is the scores' order. With no such document
// in first it returns rest.
func layered(first, rest []docRank) []docRank {
	var out []docRank
	for _, d := range first {
		if !d.sections[0].Generated {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return rest
	}
	if top := out[0].score; top < 0 {
		for i := range out {
			out[i].score = -out[i].score / top
		}
	}
	return placed(out, rest)
}

// written counts the documents people wrote (not generated) among docs.
func written(docs []docRank) int {
	n := 0
	for _, d := range docs {
		if !d.sections[0].Generated {
			n++
		}
	}
	return n
}

// matchOf is how a natural reading matched the documents shown: all
// when each holds every word, else any.
func matchOf(docs []docRank, full uint64) string {
	for _, d := range docs {
		if d.mask&full != full && !(d.named && d.mask == 0) {
			return MatchAny // a document shown holds only some words
		}
	}
	return MatchAll
}

// maxWholeMatches bounds the sections a whole-document bm25 reads
// (docBM25): it reads each matching section's document, a row apart, so a
// question whose words match more sections (in a large index) is ranked by
// its sections alone. At 100k documents 5,800 sections cost 0.2 s a
// search; a backlog of 700 documents has about 6,000 sections in all
// (ADR-0047).
const maxWholeMatches = 3000

// maxKeep is the most sections a ranking keeps (canon_bm25's bound).
const maxKeep = 100000

// maxAnyMatches bounds the sections a search for any of the words reads:
// the words are asked rarest first while the sections they match add up
// to at most this (the rarest always). A question's common words match
// most sections of a large index (at 100k documents, tens of thousands
// each), cost a read and a score per section, and move the ranking little:
// their idf is near 0 (ADR-0035).
const maxAnyMatches = 10000

// rarest returns the indices of the words to ask for any of, by their
// counts of matching sections: rarest first, while the counts add up to
// at most maxAnyMatches, at least one. Words no section holds are left
// out (they match nothing).
func rarest(counts []int64) []int {
	order := make([]int, len(counts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return counts[order[a]] < counts[order[b]] })
	var out []int
	sum := int64(0)
	for _, i := range order {
		if counts[i] == 0 {
			continue
		}
		if len(out) > 0 && sum+counts[i] > maxAnyMatches {
			break
		}
		sum += counts[i]
		out = append(out, i)
	}
	if len(out) == 0 {
		out = append(out, 0) // nothing matches: ask anyway, for an empty answer
	}
	sort.Ints(out)
	return out
}

// idf counts each phrase's matching sections and works out its bm25
// inverse document frequency among the sections, as canon_bm25 does.
func (k *ranker) idf(ctx context.Context, phrases []string) ([]int64, []float64, error) {
	n, counts, err := k.t.Counts(ctx, phrases)
	if err != nil {
		return nil, nil, err
	}
	rows := float64(n)
	idf := make([]float64, len(phrases))
	for i := range phrases {
		hits := float64(counts[i])
		idf[i] = max(math.Log((rows-hits+0.5)/(hits+0.5)), 1e-6)
	}
	return counts, idf, nil
}

// wordsMask turns a mask of an OR query's phrases (bit b: phrase b) into
// one of the reading's words: phrase b is word asked[b].
func wordsMask(m uint64, asked []int) uint64 {
	var out uint64
	for b, p := range asked {
		if m&(1<<b) != 0 && p < 62 {
			out |= 1 << p
		}
	}
	return out
}

// titleBonus weighs a document by the share of the reading's words its
// title holds (titleShare): 1.3 times when it holds them all (ADR-0047). On
// the relevance benchmark's tuning part it took keyword hit@5 from 0.96 to
// 1.00 and questions from 0.85 to 0.90; at 2 times a stub whose title is the
// query outranked the deciding document again.
const titleBonus = 0.3

// nearBonus weighs a document whose sections hold the query's neighbouring
// words together (canon_near: the second within 3 tokens of the first),
// by the share of such pairs: 1.4 times when every pair is. It applies
// where every word is in one section (the keyword pass), where it orders
// the sections that hold them all; in the fallback to any of the words it
// cost paraphrases recall@10 on the relevance benchmark's tuning part
// (0.54 → 0.42 at 0.2 to 0.7) and moved no hit@5 (ADR-0047).
const nearBonus = 0.4

// nearShare is the share of a query's pairs of neighbouring phrases (bit
// b: phrases b and b+1) that near holds, 0 when none are counted.
func nearShare(near uint64, pairs int) float64 {
	if pairs <= 0 {
		return 0
	}
	return float64(bits.OnesCount64(near&(1<<min(pairs, 62)-1))) / float64(pairs)
}

// titleShare is the share of the reading's words (full) that a title holds
// (title), each weighed by its idf when there is one.
func titleShare(title uint64, idf []float64, full uint64) float64 {
	held, all := 0.0, 0.0
	for p := 0; p < 62 && full&(1<<p) != 0; p++ {
		w := 1.0
		if p < len(idf) {
			w = idf[p]
		}
		all += w
		if title&(1<<p) != 0 {
			held += w
		}
	}
	if all == 0 {
		return 0
	}
	return held / all
}

// sectionsCounted is how many of a document's best sections its score
// adds up.
const sectionsCounted = 4

// rankDocs groups candidate sections (best first) by document and ranks
// the documents. A document's score adds up:
//
//   - coverage: twice the sum of the idf of the words its sections hold
//     between them (with no idf, all the words are held alike), times 1.25
//     when they hold every word and 1.25 again when one section does;
//   - its best section's bm25, half its second's, a third of its third's
//     and a quarter of its fourth's: a document with several matching
//     sections has more to say than a stub whose one section is its
//     matching title;
//   - all of it times 1 + titleBonus × the share of the words its title
//     holds: a document whose title names the query is about it, even
//     when its sections are nearly empty and other documents' links quote
//     its title (which the sum of sections above favours);
//   - and times 1 + nearBonus × the share of the query's pairs of
//     neighbouring words its sections hold together (pairs of them; 0:
//     not counted).
//
// Scores are negated (lower is better, as bm25's); ties break on the node
// key.
func rankDocs(cands []candidate, idf []float64, full uint64, pairs int) []docRank {
	var out []docRank
	at := map[index.DocID]int{}
	for _, c := range cands {
		i, ok := at[c.Doc]
		if !ok {
			i = len(out)
			at[c.Doc] = i
			out = append(out, docRank{})
		}
		out[i].sections = append(out[i].sections, c)
		out[i].mask |= c.Mask
		out[i].title |= c.Title
		out[i].near |= c.Near
	}
	for i := range out {
		d := &out[i]
		rel := 0.0
		whole := false
		for j, c := range d.sections {
			if j < sectionsCounted {
				rel += -c.Score / float64(j+1)
			}
			whole = whole || c.Mask&full == full
		}
		if idf != nil {
			cov := 0.0
			for m := d.mask; m != 0; m &= m - 1 {
				if p := bits.TrailingZeros64(m); p < len(idf) {
					cov += idf[p]
				}
			}
			if d.mask&full == full {
				cov *= 1.25
			}
			if whole && bits.OnesCount64(full) > 1 {
				cov *= 1.25
			}
			rel += 2 * cov
		}
		rel *= 1 + titleBonus*titleShare(d.title, idf, full)
		rel *= 1 + nearBonus*nearShare(d.near, pairs)
		d.score = -rel
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score < out[j].score
		}
		return out[i].sections[0].Key < out[j].sections[0].Key
	})
	return out
}

// full is the mask of all the reading's words (a bridge's words come
// after them).
func full(r *Reading) uint64 { return uint64(1)<<min(len(r.phrases), 62) - 1 }

// wordsOf lists the reading's words a mask holds.
func (r *Reading) wordsOf(mask uint64) []string {
	var out []string
	for i, w := range r.Words {
		if i < 62 && mask&(1<<i) != 0 {
			out = append(out, w)
		}
	}
	return out
}

// searchNatural is Search for a natural reading: the best limit
// documents, each shown by its best section.
func (k *ranker) searchNatural(ctx context.Context, r *Reading, limit int) ([]Hit, error) {
	docs, also, q, total, err := k.rankNatural(ctx, r, limit)
	if err != nil {
		return nil, err
	}
	named, _, err := k.namedDocs(ctx, k.text)
	if err != nil {
		return nil, err
	}
	if docs, also = namedFirst(named, docs, also, limit); len(docs) == 0 {
		return nil, nil
	}
	r.Match = matchOf(docs, full(r)) // of the documents shown, after the move
	ids := make([]index.ChunkID, len(docs))
	for i, d := range docs {
		ids[i] = d.sections[0].Chunk
	}
	shown, err := k.t.SectionHits(ctx, ids)
	if err != nil {
		return nil, err
	}
	var out []Hit
	for i, d := range docs {
		var h Hit
		if sh, ok := shown[ids[i]]; ok {
			h = hitOf(sh)
		}
		h.Score, h.Also = d.score, also[i]
		if d.mask&full(r) != full(r) && !(d.named && d.mask == 0) {
			h.Words, h.Added = r.wordsOf(d.mask), r.addedOf(d.mask)
		}
		out = append(out, h)
	}
	return out, snippets(ctx, k.t, q, ids, total, out)
}

// RankDocuments is RankSections for a natural reading of text: the
// sections of its best n documents (at most 4 each), grouped
// by document in the documents' order, each document's best first, with
// Rank its document's score. It returns nil for a text with operators,
// which RankSections reads as written.
func RankDocuments(ctx context.Context, st *index.Store, text string, n int) (*Ranked, error) {
	r, err := ReadQuery(text)
	if err != nil || !r.natural() {
		return nil, err
	}
	out := &Ranked{Read: r}
	if n <= 0 {
		return out, nil
	}
	err = st.ReadFullText(ctx, text, index.DocFilter{}, func(t *index.FullText) error {
		k := &ranker{st: st, t: t, text: text}
		docs, also, q, total, err := k.rankNatural(ctx, &out.Read, n)
		if err != nil {
			return err
		}
		named, edges, err := k.namedDocs(ctx, text)
		if err != nil {
			return err
		}
		docs, _ = namedFirst(named, docs, also, n)
		out.Named = edges
		out.query, out.Total = q, total
		for _, d := range docs {
			// 4 per document: a long document matching in many sections
			// must not crowd the documents after it out (a pack's seeds).
			for _, c := range d.sections[:min(allPerDoc, len(d.sections))] {
				out.Matches = append(out.Matches, ChunkMatch{Chunk: c.Chunk, Doc: c.Doc, Key: c.Key, Seq: c.Seq, Slug: c.Slug, BM25: c.Score, Rank: d.score})
			}
		}
		return err
	})
	return out, err
}
