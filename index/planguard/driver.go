package planguard

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"strings"
	"sync"

	"github.com/canon-md/canon/index"
)

// suffix names the wrapped driver of each of canon's drivers.
const suffix = "+planguard"

var (
	mu        sync.Mutex
	recorders []*Recorder
	wrapped   = map[string]bool{}
)

func init() {
	index.TestDriver = func(name string) string {
		mu.Lock()
		defer mu.Unlock()
		if !wrapped[name] {
			db, err := sql.Open(name, "")
			if err != nil {
				return name // unknown driver: sql.Open fails as it would have
			}
			sql.Register(name+suffix, &wrapDriver{under: db.Driver()})
			db.Close()
			wrapped[name] = true
		}
		return name + suffix
	}
}

// recorderFor is the recorder watching the database at dsn, or nil.
func recorderFor(dsn string) *Recorder {
	path := strings.TrimPrefix(dsn, "file:")
	path, _, _ = strings.Cut(path, "?")
	mu.Lock()
	defer mu.Unlock()
	for _, r := range recorders {
		for _, dir := range r.dirs {
			if strings.HasPrefix(path, dir) {
				return r
			}
		}
	}
	return nil
}

type wrapDriver struct{ under driver.Driver }

func (d *wrapDriver) Open(dsn string) (driver.Conn, error) {
	c, err := d.under.Open(dsn)
	if err != nil {
		return nil, err
	}
	return &conn{Conn: c, dsn: dsn}, nil
}

// conn is one of canon's connections: each statement is explained on it
// (when a recorder watches its database), then run.
type conn struct {
	driver.Conn
	dsn string
}

func (c *conn) observe(ctx context.Context, query string, args []driver.NamedValue) {
	if r := recorderFor(c.dsn); r != nil {
		r.explain(ctx, c.Conn, query, args)
	}
}

func (c *conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	c.observe(ctx, query, nil)
	return c.Conn.(driver.ConnPrepareContext).PrepareContext(ctx, query)
}

func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	c.observe(ctx, query, args)
	return c.Conn.(driver.QueryerContext).QueryContext(ctx, query, args)
}

func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	c.observe(ctx, query, args)
	return c.Conn.(driver.ExecerContext).ExecContext(ctx, query, args)
}

func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.Conn.(driver.ConnBeginTx).BeginTx(ctx, opts)
}

func (c *conn) Ping(ctx context.Context) error {
	return c.Conn.(driver.Pinger).Ping(ctx)
}
