package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
)

// Handle is the store's database and the path it was opened at, shared by
// index.Store and every table family it embeds: a reconnect
// (index.Store.KeepPages) changes DB for all of them at once.
type Handle struct {
	DB   *sql.DB
	Path string
	// PageCache is the KiB of page cache a connection keeps
	// (index.Store.KeepPages sets KeptPages); 0: SQLite's 2 MB.
	PageCache int
}

// KeptPages is the page cache index.Store.KeepPages gives each
// connection, in KiB: a process that asks many questions (canon mcp).
const KeptPages = 16384

// Friendly turns SQLite's terse errors into sentences that say what to do
// (Explain, with this database's path).
func (h *Handle) Friendly(err error) error { return Explain(err, h.Path) }

// InTx runs fn in one write transaction (BEGIN IMMEDIATE) and commits it; a
// failed commit is returned, never lost.
func (h *Handle) InTx(ctx context.Context, fn func(*sql.Tx) error) (err error) {
	tx, err := h.DB.BeginTx(ctx, nil)
	if err != nil {
		return h.Friendly(err)
	}
	defer func() {
		if p := recover(); p != nil {
			tx.Rollback()
			panic(p)
		}
	}()
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit index transaction: %w", h.Friendly(err))
	}
	return nil
}

// Querier is a read of the index: the live database (index.Store.Read)
// or a previewed one (index.Store.Preview). Other packages only hand it
// back to the store's typed reads (index/internal/checkreads, ADR-0049); it has no
// method, and only the store, which imports this package, reaches what
// it reads through (Reads).
type Querier struct{ q Q }

// Q is what read-only code needs of the database: *sql.DB, *sql.Tx and
// *sql.Conn all are one.
type Q interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// QuerierOf is the Querier reading through q.
func QuerierOf(q Q) Querier { return Querier{q} }

// Reads is what q reads through.
func Reads(q Querier) Q { return q.q }

// DiscardConn makes the pool close a connection instead of reusing it: one
// whose state (a pragma, an attached database) could not be put back.
func DiscardConn(c *sql.Conn) {
	_ = c.Raw(func(any) error { return driver.ErrBadConn })
}
