package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/canon-md/canon/index/internal/slice"
	"github.com/canon-md/canon/index/internal/sqlstore"
)

// ErrForeignSchema is a database holding schema objects canon did not
// create (ForeignSchemaError).
var ErrForeignSchema = errors.New("the database holds schema objects canon did not create")

// ForeignSchemaError names the objects of a database that are not canon's:
// "trigger t", "view v", "table docs (not as canon creates it)"; or says
// that the database's path is not a file of its own (NotAFile).
type ForeignSchemaError struct {
	Path     string
	Objects  []string
	NotAFile bool // a symbolic link (SQLite would follow it) or not a regular file
}

func (e *ForeignSchemaError) Error() string {
	if e.NotAFile {
		return fmt.Sprintf("%s is a symbolic link or not a regular file; canon opens no database through it", e.Path)
	}
	list := e.Objects
	more := ""
	if len(list) > 5 {
		list, more = list[:5], fmt.Sprintf(" and %d more", len(e.Objects)-5)
	}
	return fmt.Sprintf("%s holds what canon did not create there (%s%s); canon does not run it", e.Path, strings.Join(list, ", "), more)
}

func (e *ForeignSchemaError) Unwrap() error { return ErrForeignSchema }

// schemaObject is one row of sqlite_schema.
type schemaObject struct{ typ, name, table, sql string }

func (o schemaObject) String() string {
	if o.table == o.name {
		return o.typ + " " + strconv.Quote(o.name)
	}
	return o.typ + " " + strconv.Quote(o.name) + " on " + strconv.Quote(o.table)
}

var (
	canonSchemaOnce sync.Once
	canonSchema     map[[2]string]schemaObject
	canonSchemaErr  error
)

// sliceSchema is every schema object a workset's database holds as this
// canon creates it, by type and name: read from an empty database in
// memory given the same DDL, so that it is SQLite's own text of it.
func sliceSchema() (map[[2]string]schemaObject, error) {
	canonSchemaOnce.Do(func() {
		db, err := sql.Open(driverName, "file:canon-schema?mode=memory&cache=private")
		if err != nil {
			canonSchemaErr = err
			return
		}
		defer db.Close()
		db.SetMaxOpenConns(1)
		for _, q := range []string{metaDDL, tableDDL, indexDDL, slice.DDL} {
			if _, err := db.Exec(q); err != nil {
				canonSchemaErr = fmt.Errorf("create canon's schema in memory: %w", err)
				return
			}
		}
		objs, err := schemaObjects(db)
		if err != nil {
			canonSchemaErr = err
			return
		}
		canonSchema = map[[2]string]schemaObject{}
		for _, o := range objs {
			canonSchema[[2]string{o.typ, o.name}] = o
		}
	})
	return canonSchema, canonSchemaErr
}

func schemaObjects(db *sql.DB) ([]schemaObject, error) {
	rows, err := db.Query(`SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema`)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (schemaObject, error) {
		var o schemaObject
		return o, r.Scan(&o.typ, &o.name, &o.table, &o.sql)
	})
}

// isContent says whether a schema object belongs to a content table (its
// indexes, FTS5's shadow tables): a schema migration drops those unread.
func isContent(o schemaObject) bool {
	for _, t := range sqlstore.ContentTables {
		if o.table == t || strings.HasPrefix(o.table, t+"_") {
			return true
		}
	}
	return false
}

// vetSchema refuses the database at path when its schema holds anything
// this canon does not create there: a trigger, a view, a table or index of
// another name, or one of canon's names declared otherwise (a generated
// column, a CHECK, an expression index). It reads sqlite_schema and PRAGMA
// user_version only, which run nothing of the schema, on a read-only
// connection of its own, before anything else opens the database (the
// store's connections would set its journal mode first). A database that
// does not exist yet has nothing to vet. Content tables are exempt from the
// exact text when the database's schema version is not this canon's: the
// migration drops them before anything reads them (migrate), which is what
// lets a workset built by an older canon be opened and refreshed.
func vetSchema(ctx context.Context, path string) error {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	want, err := sliceSchema()
	if err != nil {
		return err
	}
	db, err := sql.Open(driverName, "file:"+path+"?mode=ro&_busy_timeout=10000")
	if err != nil {
		return err
	}
	defer db.Close()
	var version int
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return fmt.Errorf("read the schema of %s: %w", path, friendly(err, path))
	}
	have, err := schemaObjects(db)
	if err != nil {
		return fmt.Errorf("read the schema of %s: %w", path, friendly(err, path))
	}
	var foreign []string
	for _, o := range have {
		w, known := want[[2]string{o.typ, o.name}]
		switch {
		case known && w.table == o.table && w.sql == o.sql:
		case known && version != SchemaVersion && isContent(w) && isContent(o):
		case known:
			foreign = append(foreign, o.String()+" (not as canon creates it)")
		default:
			foreign = append(foreign, o.String())
		}
	}
	if len(foreign) > 0 {
		sort.Strings(foreign)
		return &ForeignSchemaError{Path: path, Objects: foreign}
	}
	return nil
}
