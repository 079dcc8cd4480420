package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"slices"
	"strings"
)

// The batching of the index: a statement about many values names them in
// an IN (...) list, one statement per batch instead of one per value (what
// makes an update touching a thousand documents, or a check of them,
// cheap). Every such statement goes through Batches, so none can exceed
// SQLite's limit on bound parameters.

// maxVariables is the most parameters one statement may bind in any
// SQLite canon may be linked with: 999 in builds before 3.32 (32766
// since, and in the one go-sqlite3 bundles).
const maxVariables = 999

// batchSize bounds the number of values in one IN (...) list.
const batchSize = 500

// Batches calls fn with successive parts of vals, each small enough that
// a statement with lists IN lists of the part and fixed other parameters
// stays within maxVariables (and no list is longer than batchSize).
func Batches[T any](vals []T, lists, fixed int, fn func(part []T) error) error {
	per := min(batchSize, (maxVariables-fixed)/max(lists, 1))
	for start := 0; start < len(vals); start += per {
		if err := fn(vals[start:min(start+per, len(vals))]); err != nil {
			return err
		}
	}
	return nil
}

// Distinct is vals sorted, each once: an IN list split into Batches
// must not meet a value twice (its rows would come twice).
func Distinct[T cmp.Ordered](vals []T) []T {
	out := slices.Clone(vals)
	slices.Sort(out)
	return slices.Compact(out)
}

// Anys turns a slice into query arguments.
func Anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// Marks is n comma-separated placeholders.
func Marks(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// InList fills every %s of query with placeholders for n values.
func InList(query string, n int) string {
	return strings.ReplaceAll(query, "%s", Marks(n))
}

// InArgs are the arguments of a statement made by InList: pre, the part
// once for each of its lists, then post.
func InArgs(query string, pre, part, post []any) []any {
	lists := strings.Count(query, "%s")
	args := make([]any, 0, len(pre)+lists*len(part)+len(post))
	args = append(args, pre...)
	for range lists {
		args = append(args, part...)
	}
	return append(args, post...)
}

// EachIn runs query, each of whose %s stands for the same IN list, over
// vals in Batches, with pre before and post after the lists' arguments,
// calling fn for every row of every batch.
func EachIn(ctx context.Context, q Q, query string, pre, vals, post []any, fn func(*sql.Rows) error) error {
	return Batches(vals, strings.Count(query, "%s"), len(pre)+len(post), func(part []any) error {
		rows, err := q.QueryContext(ctx, InList(query, len(part)), InArgs(query, pre, part, post)...)
		if err != nil {
			return err
		}
		return EachRow(rows, fn)
	})
}

// IDArgs turns row ids (documents, sections) into query arguments (plain
// int64s, which the driver takes without reflection).
func IDArgs[T ~int64](ids []T) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = int64(id)
	}
	return out
}
