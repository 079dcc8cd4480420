package index

import (
	"context"
	"database/sql"
	"math"
	"math/bits"
	"path"
	"slices"
	"sort"
	"strings"
)

// A natural reading (ReadQuery) ranks documents, not sections: a question's
// words are often spread over a document's sections (the title names the
// subject, the Decision names the choice), and a stub whose title repeats
// the words must not outrank the document that has something to say. It
// asks FTS5 for every word in one section first (the keyword query, as
// cheap as an exact search); when that finds fewer documents than wanted,
// it asks for any of the words and ranks documents by how many of the
// words, and how rare, their best sections hold between them (ADR-0035).

// candidate is a section a natural reading found.
type candidate struct {
	chunk ChunkID
	doc   DocID
	key   string
	seq   int
	slug  string
	bm25  float64 // canon_bm25, lower is better
	mask  uint64  // the reading's words it holds (canon_phrases)
	title uint64  // the reading's words its title holds (the first section's)
	near  uint64  // the query's neighbouring phrases it holds together (canon_near)
	gen   bool    // its document is generated (docs.generated)
}

// docRank is a document a natural reading found: its sections among the
// candidates, best first, and its score (lower is better).
type docRank struct {
	score    float64
	mask     uint64
	title    uint64 // the words its title holds
	near     uint64 // the query's neighbouring phrases its sections hold together
	sections []candidate
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
// limit (where and filter narrow them), generated ones after those people
// wrote, a page's copies folded into the first (also: their keys, per
// document), and the first firstPlaces the same whatever the limit. It
// sets r.Match, and returns the documents, best first, the copies, the
// FTS5 query their sections matched (for highlights) and how many
// sections matched it (0 when not counted).
func (s *Store) rankNatural(ctx context.Context, tx *sql.Conn, r *Reading, text string, limit int, where string, filter []any) ([]docRank, [][]string, string, int, error) {
	read := r
	if limit > firstPlaces+1 {
		c := r.clone() // the reading as the ranking for limit leaves it
		read = &c
	}
	ranked, q, total, err := s.rankNaturalAt(ctx, tx, read, text, firstPlaces, where, filter)
	if err != nil {
		return nil, nil, "", 0, err
	}
	keep := firstPlaces + 1
	ranked = generatedLast(ranked)
	docs, also, copies, err := uncopied(ctx, tx, ranked, keep)
	if err != nil {
		return nil, nil, "", 0, err
	}
	for want := firstPlaces * maxCopies; copies && len(docs) < keep && want <= firstPlaces*maxCopies*maxCopies; want *= maxCopies {
		// a page's copies took places: more documents fill them, after
		// the ones ranked
		c := read.clone()
		more, _, _, err := s.rankNaturalAt(ctx, tx, &c, text, want, where, filter)
		if err != nil {
			return nil, nil, "", 0, err
		}
		had := len(ranked)
		ranked = generatedLast(placed(ranked, more))
		if docs, also, _, err = uncopied(ctx, tx, ranked, keep); err != nil {
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
		if !d.sections[0].gen {
			first = append(first, d)
		}
	}
	rest, q, total, err := s.rankNaturalAt(ctx, tx, r, text, limit, where, filter)
	if err != nil {
		return nil, nil, "", 0, err
	}
	docs, also, _, err = uncopied(ctx, tx, generatedLast(placed(first, rest)), limit)
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
	sort.SliceStable(docs, func(i, j int) bool { return !docs[i].sections[0].gen && docs[j].sections[0].gen })
	return docs
}

// placed puts the documents of first, in their order, before the rest of
// rest, in its order; scores stay negative, lower better, rest's scaled
// below first's last so that the order is the scores' order.
func placed(first, rest []docRank) []docRank {
	in := map[DocID]bool{}
	out := slices.Clone(first)
	for _, d := range first {
		in[d.sections[0].doc] = true
	}
	last := 0.0
	if len(out) > 0 {
		last = out[len(out)-1].score
	}
	bestRest := 0.0
	for _, d := range rest {
		if !in[d.sections[0].doc] {
			bestRest = min(bestRest, d.score)
		}
	}
	for _, d := range rest {
		if in[d.sections[0].doc] {
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
func (s *Store) rankNaturalAt(ctx context.Context, tx *sql.Conn, r *Reading, text string, limit int, where string, filter []any) ([]docRank, string, int, error) {
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
	for k := max(allPerDoc*limit, minAll); ; k *= 4 {
		cands, n, err := s.candidates(ctx, tx, r.all, text, false, min(k, maxKeep), where, filter)
		if err != nil {
			return nil, "", 0, err
		}
		for i := range cands {
			cands[i].mask = full
		}
		docs, total = rankDocs(cands, nil, full, len(r.phrases)-1), n
		if len(r.phrases) < 2 && len(docs) == 0 {
			// one word no section holds: perhaps the documents spell it otherwise
			if docs, q, total, done, err := s.rerank(ctx, tx, r, []int64{0}, text, limit, where, filter); done {
				return docs, q, total, err
			}
		}
		if written(docs) >= limit || len(r.phrases) < 2 {
			return docs, r.all, total, nil
		}
		if len(cands) == min(k, maxKeep) && k < maxKeep {
			continue // more sections matched than were read
		}
		if len(docs) >= limit {
			allDocs = docs // enough, with generated ones among them
			break
		}
		if len(cands) < min(k, maxKeep) { // every match read: too few documents
			break
		}
		return docs, r.all, total, nil // the bound reached
	}
	counts, idf, err := s.idf(ctx, tx, r.phrases)
	if err != nil {
		return nil, "", 0, err
	}
	if docs, q, total, done, err := s.rerank(ctx, tx, r, counts, text, limit, where, filter); done {
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
	if s.vectors != nil { // a vocabulary bridge (ADR-0050)
		b, err := s.bridge(ctx, tx, r, counts, matches)
		if err != nil {
			return nil, "", 0, err
		}
		asked, phrases, idf, matches, whole, weights = b.extend(asked, phrases, idf, matches)
	}
	q := strings.Join(phrases, " OR ")
	cands, total, err := s.candidates(ctx, tx, q, text, true, max(anyPerDoc*limit, minAny), where, filter)
	if err != nil {
		return nil, "", 0, err
	}
	for i := range cands { // bit i of the OR query is word asked[i]
		cands[i].mask = wordsMask(cands[i].mask, asked)
		cands[i].title = wordsMask(cands[i].title, asked)
	}
	docs = rankDocs(cands, idf, full, 0) // no nearness: see nearBonus
	if matches <= maxWholeMatches {
		words := slices.Clone(asked)
		for len(words) < len(whole) { // only in the whole-document bm25 (a bridge's)
			words = append(words, min(len(idf)+len(words)-len(asked), 62)) // 62: no bit
		}
		bm, err := s.docBM25(ctx, tx, whole, words, weights, where, filter)
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
		if !d.sections[0].gen {
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
		if !d.sections[0].gen {
			n++
		}
	}
	return n
}

// matchOf is how a natural reading matched the documents shown: all
// when each holds every word, else any.
func matchOf(docs []docRank, full uint64) string {
	for _, d := range docs {
		if d.mask&full != full {
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

// candidates returns the best keep sections (ties at the last included)
// matching the FTS5 query q, best first, with the words each holds when
// masks is set. A filter (where) is applied after the ranking: every match
// is a candidate then, and total is 0.
func (s *Store) candidates(ctx context.Context, tx *sql.Conn, q, text string, masks bool, keep int, where string, filter []any) ([]candidate, int, error) {
	k := keep
	if where != "" {
		k = 0
	}
	rank, err := s.rankBy(ctx, tx, naturalRank, q, k)
	if err != nil {
		return nil, 0, s.matchError(err, text)
	}
	mask := `0`
	if masks {
		mask = `canon_phrases(chunks_fts)`
	}
	inner := `SELECT rowid AS rid, ` + rank + ` AS score, ` + mask + ` AS mask, canon_phrases(chunks_fts, 0) AS title, canon_near(chunks_fts) AS near FROM chunks_fts WHERE chunks_fts MATCH ?1`
	query := `WITH r AS MATERIALIZED (SELECT rid, score, mask, title, near FROM (` + inner + `) WHERE score IS NOT NULL),
	kept AS (SELECT rid, score, mask, title, near FROM r WHERE score <= coalesce((SELECT score FROM r ORDER BY score LIMIT 1 OFFSET ?2), 1e308))
	SELECT c.id, c.doc, c.seq, c.slug, d.key, d.generated <> '', kept.score, kept.mask, kept.title, kept.near, ` + matchedCount + `
	FROM kept JOIN chunks c ON c.id = kept.rid JOIN docs d ON d.id = c.doc
	ORDER BY kept.score, d.key, c.seq LIMIT ?3`
	args := []any{q, keep - 1, keep}
	if where != "" {
		query = `SELECT c.id, c.doc, c.seq, c.slug, d.key, d.generated <> '', r.score, r.mask, r.title, r.near, 0
		FROM (` + inner + `) r JOIN chunks c ON c.id = r.rid JOIN docs d ON d.id = c.doc
		WHERE 1` + where + ` ORDER BY r.score, d.key, c.seq LIMIT ?`
		args = append(append([]any{q}, filter...), keep)
	}
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, 0, s.matchError(err, text)
	}
	total := 0
	out, err := scanAll(rows, func(rs *sql.Rows) (candidate, error) {
		var c candidate
		var id, doc, mask, title, near int64
		err := rs.Scan(&id, &doc, &c.seq, &c.slug, &c.key, &c.gen, &c.bm25, &mask, &title, &near, &total)
		c.chunk, c.doc, c.mask, c.title, c.near = ChunkID(id), DocID(doc), uint64(mask), uint64(title), uint64(near)
		return c, err
	})
	return out, total, err
}

// idf counts each phrase's matching sections and works out its bm25
// inverse document frequency among the sections, as canon_bm25 does.
func (s *Store) idf(ctx context.Context, x Querier, phrases []string) ([]int64, []float64, error) {
	var b []byte
	if err := x.QueryRowContext(ctx, `SELECT block FROM chunks_fts_data WHERE id = 1`).Scan(&b); err != nil {
		return nil, nil, err
	}
	n, _ := sqliteVarint(b) // FTS5's averages record: the number of rows first
	rows := float64(n)
	counts := make([]int64, len(phrases))
	idf := make([]float64, len(phrases))
	for i, p := range phrases {
		if err := x.QueryRowContext(ctx, `SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?`, p).Scan(&counts[i]); err != nil {
			return nil, nil, err
		}
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
	at := map[DocID]int{}
	for _, c := range cands {
		i, ok := at[c.doc]
		if !ok {
			i = len(out)
			at[c.doc] = i
			out = append(out, docRank{})
		}
		out[i].sections = append(out[i].sections, c)
		out[i].mask |= c.mask
		out[i].title |= c.title
		out[i].near |= c.near
	}
	for i := range out {
		d := &out[i]
		rel := 0.0
		whole := false
		for j, c := range d.sections {
			if j < sectionsCounted {
				rel += -c.bm25 / float64(j+1)
			}
			whole = whole || c.mask&full == full
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
		return out[i].sections[0].key < out[j].sections[0].key
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
func (s *Store) searchNatural(ctx context.Context, r *Reading, text string, limit int, where string, filter []any) ([]Hit, error) {
	var out []Hit
	err := s.read(ctx, func(tx *sql.Conn) error {
		docs, also, q, total, err := s.rankNatural(ctx, tx, r, text, limit, where, filter)
		if err != nil || len(docs) == 0 {
			return err
		}
		r.Match = matchOf(docs, full(r)) // of the documents shown, after the move
		ids := make([]any, len(docs))
		for i, d := range docs {
			ids[i] = int64(d.sections[0].chunk)
		}
		byID := map[int64]Hit{}
		err = eachIn(ctx, tx, `SELECT `+docRefCols+`, c.line, c.heading, c.slug, c.id FROM chunks c JOIN docs d ON d.id = c.doc WHERE c.id IN (%s)`, nil, ids, nil, func(rows *sql.Rows) error {
			var h Hit
			var id int64
			ref, err := scanDocRef(rows, &h.Line, &h.Section, &h.Slug, &id)
			h.DocRef, h.Chunk = ref, ref.Key+"#"+h.Slug
			byID[id] = h
			return err
		})
		if err != nil {
			return err
		}
		for i, d := range docs {
			h := byID[ids[i].(int64)]
			h.Score, h.Also = d.score, also[i]
			if d.mask&full(r) != full(r) {
				h.Words, h.Added = r.wordsOf(d.mask), r.addedOf(d.mask)
			}
			out = append(out, h)
		}
		return s.snippets(ctx, tx, q, ids, total, out)
	})
	return out, err
}

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
func uncopied(ctx context.Context, tx *sql.Conn, docs []docRank, limit int) ([]docRank, [][]string, bool, error) {
	n := min(len(docs), limit*maxCopies)
	ids := make([]any, n)
	for i := range ids {
		ids[i] = int64(docs[i].sections[0].chunk)
	}
	hashes := make(map[int64]int64, n)
	err := eachIn(ctx, tx, `SELECT id, hash FROM chunks WHERE id IN (%s)`, nil, ids, nil, func(rows *sql.Rows) error {
		var id, h int64
		err := rows.Scan(&id, &h)
		hashes[id] = h
		return err
	})
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
		copyable := i < n && IsMarkdown(d.sections[0].key) // keyed by its path: no id or uid
		h := copyKey{strings.ToLower(path.Base(d.sections[0].key)), hashes[int64(d.sections[0].chunk)]}
		if j, ok := at[h]; ok && copyable {
			also[j] = append(also[j], d.sections[0].key) // copies after the last place are named too
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

// RankDocuments is RankSections for a natural reading of text: the
// sections of its best n documents (at most 4 each), grouped
// by document in the documents' order, each document's best first, with
// Rank its document's score. It returns nil for a text with operators,
// which RankSections reads as written.
func (s *Store) RankDocuments(ctx context.Context, text string, n int) (*Ranked, error) {
	r, err := ReadQuery(text)
	if err != nil || !r.natural() {
		return nil, err
	}
	out := &Ranked{Read: r}
	if n <= 0 {
		return out, nil
	}
	err = s.read(ctx, func(tx *sql.Conn) error {
		docs, _, q, total, err := s.rankNatural(ctx, tx, &out.Read, text, n, "", nil)
		if err != nil {
			return err
		}
		out.query, out.Total = q, total
		for _, d := range docs {
			// 4 per document: a long document matching in many sections
			// must not crowd the documents after it out (a pack's seeds).
			for _, c := range d.sections[:min(allPerDoc, len(d.sections))] {
				out.Matches = append(out.Matches, ChunkMatch{Chunk: c.chunk, Doc: c.doc, Key: c.key, Seq: c.seq, Slug: c.slug, BM25: c.bm25, Rank: d.score})
			}
		}
		return err
	})
	return out, err
}

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
// better, each phrase's part times its weight (nil: all 1). where and
// filter narrow the documents as candidates' do.
func (s *Store) docBM25(ctx context.Context, tx *sql.Conn, phrases []string, words []int, weights []float64, where string, filter []any) (map[DocID]*docScore, error) {
	var n float64
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM docs`).Scan(&n); err != nil {
		return nil, err
	}
	type sectionHits struct {
		c    candidate
		size float64
		hits float64
	}
	// Each phrase's sections, by document. The average length is the
	// documents found's: reading every document's size costs a read of
	// every document.
	found := make([][]sectionHits, len(phrases))
	sizes := map[DocID]float64{}
	for p, phrase := range phrases {
		rows, err := tx.QueryContext(ctx, `WITH r AS MATERIALIZED (SELECT rowid AS rid, canon_hits(chunks_fts) AS hits FROM chunks_fts WHERE chunks_fts MATCH ?)
			SELECT c.id, c.doc, c.seq, c.slug, d.key, d.generated <> '', d.size, r.hits FROM r JOIN chunks c ON c.id = r.rid JOIN docs d ON d.id = c.doc
			WHERE 1`+where+` ORDER BY c.doc, c.seq`, append([]any{phrase}, filter...)...)
		if err != nil {
			return nil, err
		}
		found[p], err = scanAll(rows, func(rs *sql.Rows) (sectionHits, error) {
			var h sectionHits
			var id, doc int64
			err := rs.Scan(&id, &doc, &h.c.seq, &h.c.slug, &h.c.key, &h.c.gen, &h.size, &h.hits)
			h.c.chunk, h.c.doc = ChunkID(id), DocID(doc)
			sizes[h.c.doc] = h.size
			return h, err
		})
		if err != nil {
			return nil, err
		}
	}
	out := map[DocID]*docScore{}
	total := 0.0 // whole bytes: the sum is exact in any order
	for _, size := range sizes {
		total += size
	}
	avg := total / float64(max(len(sizes), 1))
	if avg <= 0 {
		return out, nil
	}
	held := map[ChunkID]*docScore{} // per section: best, held, its words
	for p, secs := range found {
		df := 0.0
		for i, h := range secs {
			if i == 0 || secs[i-1].c.doc != h.c.doc {
				df++
			}
		}
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		if weights != nil {
			idf *= weights[p]
		}
		for i := 0; i < len(secs); {
			j, tf := i, 0.0
			for ; j < len(secs) && secs[j].c.doc == secs[i].c.doc; j++ {
				tf += secs[j].hits
			}
			h := secs[i]
			d := out[h.c.doc]
			if d == nil {
				d = &docScore{}
				out[h.c.doc] = d
			}
			norm := docK1 * (1 - docB + docB*max(h.size, avg)/avg) // pivoted, as naturalRank
			d.bm25 += idf * tf * (docK1 + 1) / (tf + norm)
			bit := uint64(0)
			if words[p] < 62 {
				bit = 1 << words[p]
			}
			d.mask |= bit
			for _, sh := range secs[i:j] {
				h := held[sh.c.chunk]
				if h == nil {
					h = &docScore{best: sh.c}
					held[sh.c.chunk] = h
				}
				h.held += idf * sh.hits
				h.best.mask |= bit
			}
			i = j
		}
	}
	for _, h := range held { // each document's best section: ties go to the first
		d := out[h.best.doc]
		if d.best.key == "" || h.held > d.held || h.held == d.held && h.best.seq < d.best.seq {
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
func fuse(docs []docRank, bm map[DocID]*docScore, full uint64) []docRank {
	in := map[DocID]bool{}
	bestSections, bestWhole := 0.0, 0.0
	for _, d := range docs {
		in[d.sections[0].doc] = true
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
		if b := bm[docs[i].sections[0].doc]; b != nil {
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
		return docs[i].sections[0].key < docs[j].sections[0].key
	})
	return docs
}
