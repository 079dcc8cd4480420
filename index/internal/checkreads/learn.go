package checkreads

import (
	"context"
	"database/sql"

	"github.com/canon-md/canon/index/internal/sqlstore"
	"github.com/canon-md/canon/index/resolve"
)

// Reads canon learn needs of the index (index/learn), over the Querier
// index.Store.Read hands out: as check's (check.go, ADR-0049), the only
// SQL run for it.

// LearnDoc is a document as learning reads it: where it is, its kind,
// its frontmatter's type, its id and its frontmatter as JSON.
type LearnDoc struct{ Path, Kind, Type, Ident, FM string }

// EachLearnDoc hands fn every document, by path.
func EachLearnDoc(ctx context.Context, q sqlstore.Querier, fn func(LearnDoc) error) error {
	rows, err := sqlstore.Reads(q).QueryContext(ctx, `SELECT path, kind, type, ident, fm FROM docs ORDER BY path`)
	if err != nil {
		return err
	}
	return sqlstore.EachRow(rows, func(r *sql.Rows) error {
		var d LearnDoc
		if err := r.Scan(&d.Path, &d.Kind, &d.Type, &d.Ident, &d.FM); err != nil {
			return err
		}
		return fn(d)
	})
}

// KindPair counts the documents of a kind whose parent is of another.
type KindPair struct {
	Kind, Parent string
	N            int
}

// ParentKinds counts, for each pair of kinds, the documents of the first
// whose resolved parent is of the second.
func ParentKinds(ctx context.Context, q sqlstore.Querier) ([]KindPair, error) {
	rows, err := sqlstore.Reads(q).QueryContext(ctx, `SELECT d.kind, p.kind, count(DISTINCT d.id) FROM links l
		JOIN docs d ON d.id = l.src JOIN docs p ON p.id = l.dst
		WHERE l.type = 'parent' AND l.status = 'ok' GROUP BY 1, 2`)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (KindPair, error) {
		var k KindPair
		return k, r.Scan(&k.Kind, &k.Parent, &k.N)
	})
}

// PathsWithProblem lists the paths of the documents with a problem of
// rule (markdown.RuleYAMLSyntax: what YAML refused).
func PathsWithProblem(ctx context.Context, q sqlstore.Querier, rule string) ([]string, error) {
	rows, err := sqlstore.Reads(q).QueryContext(ctx, `SELECT DISTINCT path FROM problems WHERE rule = ?`, rule)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (string, error) {
		var p string
		return p, r.Scan(&p)
	})
}

// EachFrontmatterRef hands fn the field and raw text of every frontmatter
// reference that resolved or dangles, in the order they were stored.
func EachFrontmatterRef(ctx context.Context, q sqlstore.Querier, fn func(field, raw string) error) error {
	rows, err := sqlstore.Reads(q).QueryContext(ctx, `SELECT field, raw FROM links WHERE form = ? AND status IN (?, ?) ORDER BY id`, resolve.FormRef, resolve.StatusDangling, resolve.StatusOK)
	if err != nil {
		return err
	}
	return sqlstore.EachRow(rows, func(r *sql.Rows) error {
		var field, raw string
		if err := r.Scan(&field, &raw); err != nil {
			return err
		}
		return fn(field, raw)
	})
}

// EachAddressRaw hands fn the raw text of every link written where a web
// address may be (a Markdown link, an autolink, a frontmatter reference),
// whatever its status, in the order they were stored.
func EachAddressRaw(ctx context.Context, q sqlstore.Querier, fn func(raw string) error) error {
	rows, err := sqlstore.Reads(q).QueryContext(ctx, `SELECT raw FROM links WHERE form IN (?, ?, ?) ORDER BY id`,
		resolve.FormMD, resolve.FormURL, resolve.FormRef)
	if err != nil {
		return err
	}
	return sqlstore.EachRow(rows, func(r *sql.Rows) error {
		var raw string
		if err := r.Scan(&raw); err != nil {
			return err
		}
		return fn(raw)
	})
}
