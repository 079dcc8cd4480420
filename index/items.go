package index

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/canon-md/canon/index/internal/sqlstore"
)

// What the write path (canon set, claim, done, log) reads of the
// repository's practice: the states its documents of a kind are in, and
// which spelling of a field they use.

// StateUse is one state documents are in and how many are.
type StateUse struct {
	State string `json:"state"`
	Docs  int    `json:"docs"`
}

// StatesOf lists the states the documents of kind are in, most used
// first (then by name); every kind's with kind "". With field, only the
// states some document writes in that field (state or status: a
// repository that holds both a Kano backlog and a Backlog.md one spells
// In Progress one way in each). The counts come from the docs_kind_state
// index alone; the field is asked of one document per state.
func (s *Store) StatesOf(ctx context.Context, kind, field string) ([]StateUse, error) {
	// kind = ? only when asked: an OR with it keeps SQLite off the index.
	where, args := `state <> ''`, []any{}
	if kind != "" {
		where, args = `kind = ? AND state <> ''`, []any{kind}
	}
	rows, err := s.h.DB.QueryContext(ctx, `SELECT state, count(*) FROM docs WHERE `+where+`
		GROUP BY state ORDER BY count(*) DESC, state`, args...)
	if err != nil {
		return nil, err
	}
	uses, err := sqlstore.ScanAll(rows, func(r *sql.Rows) (StateUse, error) {
		var u StateUse
		return u, r.Scan(&u.State, &u.Docs)
	})
	if err != nil || field == "" {
		return uses, err
	}
	kept := uses[:0]
	for _, u := range uses {
		var one int
		err := s.h.DB.QueryRowContext(ctx, `SELECT 1 FROM docs WHERE `+where+` AND state = ?
			AND json_valid(fm) AND json_type(fm, '$."' || ? || '"') IS NOT NULL LIMIT 1`, append(args, u.State, field)...).Scan(&one)
		switch {
		case err == nil:
			kept = append(kept, u)
		case !errors.Is(err, sql.ErrNoRows):
			return nil, err
		}
	}
	return kept, nil
}

// fieldUseSample is how many documents FieldUse counts over.
const fieldUseSample = 2000

// FieldUse counts, for each of fields, the documents of kind (every
// kind's with kind "") whose frontmatter has it at the top level: which
// spelling a repository uses of a field tools name differently (state or
// status, assignee or owner). It counts over the kind's last
// fieldUseSample documents indexed, so that a claim costs the same at 1k
// documents and at 100k (a full pass took 180 ms there).
func (s *Store) FieldUse(ctx context.Context, kind string, fields ...string) (map[string]int, error) {
	out := make(map[string]int, len(fields))
	if len(fields) == 0 {
		return out, nil
	}
	cols := make([]string, len(fields))
	args := []any{}
	for i, f := range fields {
		cols[i] = `count(json_type(fm, '$."' || ? || '"'))`
		args = append(args, f)
	}
	// kind = ? only when asked: an OR with it keeps SQLite off docs_kind,
	// whose entries are the kind's rows newest last (docs_kind_state
	// would read every row of the kind to sort them).
	from := `docs WHERE fm <> ''`
	if kind != "" {
		from, args = `docs INDEXED BY docs_kind WHERE kind = ? AND fm <> ''`, append(args, kind)
	}
	counts := make([]int, len(fields))
	dest := make([]any, len(fields))
	for i := range counts {
		dest[i] = &counts[i]
	}
	args = append(args, fieldUseSample)
	err := s.h.DB.QueryRowContext(ctx, `SELECT `+strings.Join(cols, ", ")+` FROM (SELECT fm FROM `+from+`
		ORDER BY rowid DESC LIMIT ?) WHERE json_valid(fm)`, args...).Scan(dest...)
	for i, f := range fields {
		out[f] = counts[i]
	}
	return out, err
}

// SidecarHolds reports whether some document that takes fields from a
// sidecar (a KEP's kep.yaml, ADR-0084) has one of fields at the top level
// (its sidecar's or its own frontmatter's): whether the repository writes
// such a field where its sidecars are read. It stops at the first.
func (s *Store) SidecarHolds(ctx context.Context, fields ...string) (bool, error) {
	if len(fields) == 0 {
		return false, nil
	}
	conds := make([]string, len(fields))
	args := make([]any, len(fields))
	for i, f := range fields {
		conds[i] = `json_type(fm, '$."' || ? || '"') IS NOT NULL`
		args[i] = f
	}
	var one int
	err := s.h.DB.QueryRowContext(ctx, `SELECT 1 FROM docs WHERE sidecar <> '' AND fm <> '' AND json_valid(fm) AND (`+strings.Join(conds, " OR ")+`) LIMIT 1`, args...).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}
