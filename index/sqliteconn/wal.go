//go:build cgo

package sqliteconn

/*
typedef struct sqlite3 sqlite3;
int sqlite3_db_config(sqlite3*, int op, ...);

// SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE (sqlite3.h): 1006.
static int canon_no_ckpt_on_close(void *db) {
	int on = 0;
	if (sqlite3_db_config((sqlite3*)db, 1006, 1, &on) != 0) return -1;
	return on;
}
*/
import "C"

import (
	"reflect"
	"strings"
	"unsafe"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// NoCheckpointOnClose tells SQLite not to checkpoint the WAL into the
// database when this connection closes (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE):
// a hook would otherwise spend more on that checkpoint's three fsyncs than
// on its own transaction (ADR-0021). The WAL then stays beside the database
// for the next process, as it already does whenever a watcher or an MCP
// server keeps the index open, and SQLite checkpoints it when it passes
// wal_autocheckpoint pages, in the transaction that makes it so. It
// reports whether the option took: go-sqlite3 does not expose
// sqlite3_db_config, so the handle is read from its connection, and a
// driver that keeps it elsewhere leaves SQLite's default.
func NoCheckpointOnClose(c *sqlite3.SQLiteConn) bool {
	db := connHandle(c)
	return db != nil && C.canon_no_ckpt_on_close(db) == 1
}

// connHandle is the sqlite3* of a go-sqlite3 connection, which it does
// not export (its field db), or nil when the driver keeps it elsewhere.
func connHandle(c *sqlite3.SQLiteConn) unsafe.Pointer {
	f := reflect.ValueOf(c).Elem().FieldByName("db")
	if !f.IsValid() || f.Kind() != reflect.Pointer || f.IsNil() || !strings.HasSuffix(f.Type().Elem().Name(), "sqlite3") {
		return nil
	}
	return f.UnsafePointer()
}
