package index

import (
	"database/sql"
	"database/sql/driver"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mattn/go-sqlite3"
)

// racedDriver fails its first opens as an open fails that meets another
// process's swapIn between its removal of the WAL and its rename (a short
// read of a WAL created afresh), then opens as the driver under it does.
type racedDriver struct {
	under driver.Driver
	fails atomic.Int32
}

func (d *racedDriver) Open(dsn string) (driver.Conn, error) {
	if d.fails.Add(-1) >= 0 {
		return nil, sqlite3.Error{Code: sqlite3.ErrIoErr, ExtendedCode: sqlite3.ErrIoErrShortRead}
	}
	return d.under.Open(dsn)
}

// An open that met a full build putting its new file in place is tried
// again rather than failed: "open index: disk I/O error: no such file or
// directory" failed a canon mcp starting beside another one building its
// index (mcpserver's tests, about one start in a hundred).
func TestOpenTriesAgainAfterASwap(t *testing.T) {
	db, err := sql.Open(keepWALDriver, "")
	if err != nil {
		t.Fatal(err)
	}
	raced := &racedDriver{under: db.Driver()}
	db.Close()
	sql.Register(t.Name(), raced)
	old := TestDriver
	TestDriver = func(string) string { return t.Name() }
	t.Cleanup(func() { TestDriver = old })
	path := filepath.Join(t.TempDir(), "index.db")

	raced.fails.Store(2)
	s, _, err := OpenIndex(path)
	if err != nil {
		t.Fatalf("an open that met a swap twice: %v", err)
	}
	s.Close()

	raced.fails.Store(swapTries)
	if _, _, err := OpenIndex(path); err == nil || !strings.Contains(err.Error(), "disk I/O error") {
		t.Fatalf("an open that meets a swap every time: %v, want the I/O error", err)
	}
}
