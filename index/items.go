package index

import (
	"context"
	"database/sql"
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
// documents that write their state in that field (state or status: a
// repository that holds both a Kano backlog and a Backlog.md one spells
// In Progress one way in each).
func (s *Store) StatesOf(ctx context.Context, kind, field string) ([]StateUse, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT state, count(*) FROM docs
		WHERE state <> '' AND (? = '' OR kind = ?)
		AND (? = '' OR fm <> '' AND json_valid(fm) AND json_type(fm, '$."' || ? || '"') IS NOT NULL)
		GROUP BY state ORDER BY count(*) DESC, state`, kind, kind, field, field)
	if err != nil {
		return nil, err
	}
	return scanAll(rows, func(r *sql.Rows) (StateUse, error) {
		var u StateUse
		return u, r.Scan(&u.State, &u.Docs)
	})
}

// FieldUse counts, for each of fields, the documents of kind (every
// kind's with kind "") whose frontmatter has it at the top level: which
// spelling a repository uses of a field tools name differently (state or
// status, assignee or owner).
func (s *Store) FieldUse(ctx context.Context, kind string, fields ...string) (map[string]int, error) {
	out := make(map[string]int, len(fields))
	for _, f := range fields {
		var n int
		err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM docs
			WHERE (? = '' OR kind = ?) AND fm <> '' AND json_valid(fm) AND json_type(fm, '$."' || ? || '"') IS NOT NULL`,
			kind, kind, f).Scan(&n)
		if err != nil {
			return nil, err
		}
		out[f] = n
	}
	return out, nil
}
