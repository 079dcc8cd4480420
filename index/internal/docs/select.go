package docs

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/canon-md/canon/index/filter"
	"github.com/canon-md/canon/index/internal/sqlstore"
)

// Reads that choose documents with compiled filters (query templates:
// anchors, expansion filters, output sections).

// DocSelect chooses documents: every condition that is set must hold.
type DocSelect struct {
	Type  string          // kind or frontmatter type, without case
	Doc   *sqlstore.DocID // this document only
	Tag   string          // one of its tags, without case
	State string          // without case
	// Since keeps the documents dated (updated, else date, else created)
	// on or after this YYYY-MM-DD, newest first.
	Since   string
	Filter  *filter.Filter   // the selection's own filter
	Filters []*filter.Filter // filters that apply to everything (a template's)
	// SortBy (a name as filters write them) orders the documents instead,
	// those without a value last; Desc reverses it.
	SortBy string
	Desc   bool
	Limit  int
}

// dateExpr is a document's date: updated, else date, else created.
const dateExpr = `coalesce(json_extract(d.fm, '$.updated'), json_extract(d.fm, '$.date'), json_extract(d.fm, '$.created'))`

// SelectDocs lists the documents sel chooses, in its order, then by node
// key, at most sel.Limit of them.
func (s *Docs) SelectDocs(ctx context.Context, sel DocSelect) ([]sqlstore.DocID, error) {
	var conds []string
	var args []any
	if sel.Type != "" {
		conds = append(conds, `(d.kind = ? COLLATE NOCASE OR d.type = ? COLLATE NOCASE)`)
		args = append(args, sel.Type, sel.Type)
	}
	if sel.Doc != nil {
		conds = append(conds, `d.id = ?`)
		args = append(args, int64(*sel.Doc))
	}
	if sel.Tag != "" {
		conds = append(conds, `EXISTS (SELECT 1 FROM json_each(d.fm, '$.tags') WHERE value = ? COLLATE NOCASE)`)
		args = append(args, sel.Tag)
	}
	if sel.State != "" {
		conds = append(conds, `d.state = ? COLLATE NOCASE`)
		args = append(args, sel.State)
	}
	order := ""
	if sel.Since != "" {
		conds = append(conds, dateExpr+` >= ?`)
		args = append(args, sel.Since)
		order = dateExpr + ` DESC, `
	}
	if sel.Filter != nil {
		conds = append(conds, sel.Filter.SQL)
		args = append(args, sel.Filter.Args...)
	}
	where := "1"
	if len(conds) > 0 {
		where = strings.Join(conds, " AND ")
	}
	fsql, fargs := filterSQL(sel.Filters)
	args = append(args, fargs...)
	if sel.SortBy != "" {
		expr, xa := filter.NameExpr(sel.SortBy)
		dir := "ASC"
		if sel.Desc {
			dir = "DESC"
		}
		// Documents without the field come last either way.
		order = "(" + expr + ") IS NULL, (" + expr + ") " + dir + ", "
		args = append(append(args, xa...), xa...)
	}
	args = append(args, sel.Limit)
	rows, err := s.h.DB.QueryContext(ctx, `SELECT d.id FROM docs d WHERE `+where+fsql+` ORDER BY `+order+`d.key LIMIT ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("select anchors: %w", err)
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (sqlstore.DocID, error) {
		var id int64
		err := r.Scan(&id)
		return sqlstore.DocID(id), err
	})
}

// filterSQL joins compiled filters into " AND (...)" terms.
func filterSQL(filters []*filter.Filter) (string, []any) {
	var b strings.Builder
	var args []any
	for _, f := range filters {
		b.WriteString(" AND " + f.SQL)
		args = append(args, f.Args...)
	}
	return b.String(), args
}

// DocsPassing says which of some documents pass every filter and are of
// none of the excluded kinds (compared without case).
func (s *Docs) DocsPassing(ctx context.Context, ids []sqlstore.DocID, filters []*filter.Filter, excludeKinds []string) (map[sqlstore.DocID]bool, error) {
	cond, args := filterSQL(filters)
	if len(excludeKinds) > 0 {
		cond += ` AND lower(d.kind) NOT IN (` + sqlstore.Marks(len(excludeKinds)) + `)`
		for _, k := range excludeKinds {
			args = append(args, strings.ToLower(k))
		}
	}
	out := make(map[sqlstore.DocID]bool, len(ids))
	var id int64
	err := sqlstore.EachIn(ctx, s.h.DB, `SELECT d.id FROM docs d WHERE d.id IN (%s)`+cond, nil, sqlstore.IDArgs(ids), args, func(r *sql.Rows) error {
		if err := r.Scan(&id); err != nil {
			return err
		}
		out[sqlstore.DocID(id)] = true
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("apply filters: %w", err)
	}
	return out, nil
}

// FieldValues reads a column or frontmatter field (named as filters name
// them) of some documents: text, a number, a boolean, or nil when absent.
func (s *Docs) FieldValues(ctx context.Context, ids []sqlstore.DocID, name string) (map[sqlstore.DocID]any, error) {
	expr, xargs := filter.NameExpr(name)
	out := map[sqlstore.DocID]any{}
	err := sqlstore.EachIn(ctx, s.h.DB, `SELECT d.id, `+expr+` FROM docs d WHERE d.id IN (%s)`, xargs, sqlstore.IDArgs(ids), nil, func(r *sql.Rows) error {
		var id int64
		var v any
		if err := r.Scan(&id, &v); err != nil {
			return err
		}
		if b, ok := v.([]byte); ok {
			v = string(b)
		}
		out[sqlstore.DocID(id)] = v
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return out, nil
}
