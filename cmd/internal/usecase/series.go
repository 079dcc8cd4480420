package usecase

import (
	"context"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/ids"
	"github.com/canon-md/canon/index/resolve"
)

// canon id next and canon new at 100k documents (ADR-0085): the ids the
// answer depends on, read through the index's series indexes rather
// than every id, and handed to the same functions (ids.Next, series) so
// the answer is the one reading every id gives.

// nextOfSeries is Next's answer in every namespace under the counting
// scheme: the kind's prefix (ids.PrefixOf's count, from the index), then
// ids.Next over the ids that can decide it: the series' highest, its
// longest padded one, the ids file names carry and every other ref's.
// ok is false where it does not apply (a random or time scheme, a
// non-ASCII kind or prefix, a kind named by its prefix): the caller
// reads every id.
func nextOfSeries(ctx context.Context, s *gitsync.Session, kind string) (string, bool, error) {
	if s.Cfg.IDs.Minted() || !isASCII(kind) {
		return "", false, nil
	}
	prefix, err := kindPrefix(ctx, s, strings.ToLower(kind))
	if err != nil {
		return "", false, err
	}
	if prefix == "" || !isASCII(prefix) {
		return "", false, nil
	}
	lp := strings.ToLower(prefix)
	var taken []string
	var highest int64
	err = s.Store.EachOfSeries(ctx, lp, func(ident, _, _ string) (bool, error) {
		p, n, _, ok := ids.Split(ident)
		if !ok || !strings.EqualFold(p, prefix) {
			return true, nil // more than 18 digits: no number of the series
		}
		taken, highest = append(taken, ident), n
		return false, nil
	})
	if err != nil {
		return "", false, err
	}
	// A zero-padded id wider than the next number sets the width: the
	// longest of the series, when it is that long.
	for below := 1 << 30; ; {
		id, err := s.Store.LongestOfSeries(ctx, lp, below)
		if err != nil {
			return "", false, err
		}
		if id == "" || len(id) <= len(prefix)+len(strconv.FormatInt(highest+1, 10)) {
			break
		}
		if p, _, _, ok := ids.Split(id); ok && strings.EqualFold(p, prefix) {
			taken = append(taken, id)
			break
		}
		below = len(id)
	}
	named, err := s.Store.NamedPathsOf(ctx, lp)
	if err != nil {
		return "", false, err
	}
	for _, p := range named {
		// A file name holds an id of the series only where it starts
		// with the prefix (resolve.FileID reads the id from its start).
		if !strings.HasPrefix(strings.ToLower(path.Base(p)), lp) {
			continue
		}
		if n := resolve.FileID(p); n != "" {
			taken = append(taken, n)
		}
	}
	refs, err := s.RefIDs(ctx)
	if err != nil {
		return "", false, err
	}
	for _, r := range refs {
		taken = append(taken, r.Ident)
	}
	return ids.Next(prefix, taken), true, nil
}

// kindPrefix is ids.PrefixOf's answer for a kind of documents: the prefix
// most of its numbered ids carry (ties: the first in text order), "" for
// none. A kind whose ids carry one prefix is told by the two ends of an
// index; another is counted.
func kindPrefix(ctx context.Context, s *gitsync.Session, kind string) (string, error) {
	if p, ok, err := s.Store.OnlyPrefix(ctx, kind); err != nil || ok {
		if q, _, _, split := ids.Split(p + "1"); err != nil || !split || q != p {
			p = "" // no numbered id's prefix: none counts
		}
		return p, err
	}
	counts, err := s.Store.SeriesCounts(ctx, kind)
	if err != nil {
		return "", err
	}
	count := map[string]int{}
	for _, c := range counts {
		if p, _, _, ok := ids.Split(c.Prefix + "1"); ok && p == c.Prefix && c.Digits >= 1 && c.Digits <= 18 {
			count[c.Prefix] += c.N
		}
	}
	prefix := ""
	for p, n := range count {
		if n > count[prefix] || n == count[prefix] && p < prefix {
			prefix = p
		}
	}
	return prefix, nil
}

// samplesBatch is how many of a series' newest items learnOfSeries reads
// of the index at first.
const samplesBatch = 4 * maxSamples

// newestOfSeries are the items of the kind whose ids have the prefix
// want, the highest number first (a child's its parent's), then by path:
// what learn sorts every item of the kind into, read from the index's
// series indexes, as many as may be needed. ok is false where it does not
// apply (a non-ASCII prefix or one no numbered id has, no such item):
// learn reads every item. complete is false when items after the last
// are not read.
func (n *newItem) newestOfSeries(ctx context.Context, want string) (docs []index.IdentPath, complete, ok bool, err error) {
	if !ids.IndexedSeries(want) {
		return nil, false, false, nil
	}
	lp := strings.ToLower(want)
	type cand struct {
		d   index.IdentPath
		num int64
	}
	var top []cand
	odd, truncated := 0, false
	err = n.s.Store.EachOfSeries(ctx, lp, func(ident, p, kind string) (bool, error) {
		if kind != n.a.Kind {
			return true, nil
		}
		pre, num := ids.Series(ident)
		if !strings.EqualFold(pre, want) {
			return true, nil
		}
		if _, _, _, ok := ids.Split(ident); !ok && strings.TrimRight(ident, "0123456789") != ident {
			odd++ // more than 18 digits: first in the index's order, number 0 in series'
		}
		top = append(top, cand{index.IdentPath{Ident: ident, Path: p}, num})
		if len(top)-odd >= samplesBatch {
			truncated = true
			return false, nil
		}
		return true, nil
	})
	if err != nil || odd > 0 && truncated {
		return nil, false, false, err
	}
	under, err := n.s.Store.IdentsUnder(ctx, lp)
	if err != nil {
		return nil, false, false, err
	}
	var last cand
	if len(top) > 0 {
		last = top[len(top)-1]
	}
	for _, d := range under {
		if d.Kind != n.a.Kind {
			continue
		}
		if pre, num := ids.Series(d.Ident); strings.EqualFold(pre, want) {
			top = append(top, cand{index.IdentPath{Ident: d.Ident, Path: d.Path}, num})
		}
	}
	less := func(a, b cand) bool { return a.num > b.num || a.num == b.num && a.d.Path < b.d.Path }
	sort.Slice(top, func(i, j int) bool { return less(top[i], top[j]) })
	out := make([]index.IdentPath, 0, len(top))
	for _, c := range top {
		if truncated && less(last, c) {
			break // the index holds items before this one not read
		}
		out = append(out, c.d)
	}
	return out, !truncated, len(out) > 0, nil
}

// isASCII reports s holds ASCII alone: SQLite's lower() folds it as
// strings.EqualFold does.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
