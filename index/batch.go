package index

import (
	"cmp"
	"context"
	"database/sql"
	"slices"
	"strings"

	"github.com/canon-md/canon/index/resolve"
)

// The batching of the index: a statement about many values names them in
// an IN (...) list, one statement per batch instead of one per value (what
// makes an update touching a thousand documents, or a check of them,
// cheap). Every such statement goes through batches, so none can exceed
// SQLite's limit on bound parameters.

// maxVariables is the most parameters one statement may bind in any
// SQLite canon may be linked with: 999 in builds before 3.32 (32766
// since, and in the one go-sqlite3 bundles).
const maxVariables = 999

// batchSize bounds the number of values in one IN (...) list.
const batchSize = 500

// batches calls fn with successive parts of vals, each small enough that
// a statement with lists IN lists of the part and fixed other parameters
// stays within maxVariables (and no list is longer than batchSize).
func batches[T any](vals []T, lists, fixed int, fn func(part []T) error) error {
	per := min(batchSize, (maxVariables-fixed)/max(lists, 1))
	for start := 0; start < len(vals); start += per {
		if err := fn(vals[start:min(start+per, len(vals))]); err != nil {
			return err
		}
	}
	return nil
}

// distinct is vals sorted, each once: an IN list split into batches
// must not meet a value twice (its rows would come twice).
func distinct[T cmp.Ordered](vals []T) []T {
	out := slices.Clone(vals)
	slices.Sort(out)
	return slices.Compact(out)
}

// anys turns a slice into query arguments.
func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// marks is n comma-separated placeholders.
func marks(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// inList fills every %s of query with placeholders for n values.
func inList(query string, n int) string {
	return strings.ReplaceAll(query, "%s", marks(n))
}

// inArgs are the arguments of a statement made by inList: pre, the part
// once for each of its lists, then post.
func inArgs(query string, pre, part, post []any) []any {
	lists := strings.Count(query, "%s")
	args := make([]any, 0, len(pre)+lists*len(part)+len(post))
	args = append(args, pre...)
	for range lists {
		args = append(args, part...)
	}
	return append(args, post...)
}

// eachIn runs query, each of whose %s stands for the same IN list, over
// vals in batches, with pre before and post after the lists' arguments,
// calling fn for every row of every batch.
func eachIn(ctx context.Context, q querier, query string, pre, vals, post []any, fn func(*sql.Rows) error) error {
	return batches(vals, strings.Count(query, "%s"), len(pre)+len(post), func(part []any) error {
		rows, err := q.QueryContext(ctx, inList(query, len(part)), inArgs(query, pre, part, post)...)
		if err != nil {
			return err
		}
		return eachRow(rows, fn)
	})
}

// queryIn runs query (with one %s for the IN list) over vals in batches in
// the writer's transaction, calling scan for every row.
func (w *writer) queryIn(query string, vals []any, scan func(*sql.Rows) error) error {
	return eachIn(context.Background(), w.tx, query, nil, vals, nil, scan)
}

// execIn runs a statement (with one %s for the IN list) over vals in batches.
func (w *writer) execIn(query string, vals []any) error {
	return batches(vals, strings.Count(query, "%s"), 0, func(part []any) error {
		_, err := w.tx.Exec(inList(query, len(part)), part...)
		return err
	})
}

// prefetchAliases loads every document named by the given alias terms in a
// few statements, so that resolving a batch of links needs no query per link.
func (w *writer) prefetchAliases(terms map[string]bool) (resolve.MemAliases, error) {
	m := make(resolve.MemAliases, len(terms))
	want := map[string]bool{}
	for t := range terms {
		want[resolve.StoredAlias(t)] = true
	}
	vals := make([]any, 0, len(want))
	for t := range want {
		m[t] = nil // known: absent unless a row says otherwise
		if w.olds == nil && strings.HasPrefix(t, "was:") {
			continue // no prefixes configured: no document has such an alias
		}
		vals = append(vals, t)
	}
	err := w.queryIn(`SELECT a.term, a.doc, d.uid, d.path FROM aliases a JOIN docs d ON d.id = a.doc WHERE a.term IN (%s) ORDER BY a.doc`, vals,
		func(rows *sql.Rows) error {
			var t string
			var d resolve.Doc
			if err := rows.Scan(&t, &d.ID, &d.UID, &d.Path); err != nil {
				return err
			}
			m[t] = append(m[t], d)
			return nil
		})
	return m, err
}
