//go:build cgo

package sqliteconn

/*
typedef struct sqlite3 sqlite3;
int sqlite3_db_config(sqlite3*, int op, ...);

// canon_db_flag sets an on/off option of a connection (op is one of
// sqlite3.h's SQLITE_DBCONFIG_*) and reads it back: 1 when the option now
// holds on, 0 when it does not or SQLite refused.
static int canon_db_flag(void *db, int op, int on) {
	int now = -1;
	if (sqlite3_db_config((sqlite3*)db, op, on, &now) != 0) return 0;
	return now == on;
}
*/
import "C"

import (
	"errors"
	"fmt"

	"github.com/canon-md/canon/index/config"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// Databases canon did not write are untrusted (ADR-0032): a workset's
// database can come with a clone or a pull, and what its schema holds
// (triggers, views, expressions) is SQL that SQLite would run as canon.
// Every connection canon opens, to any database, is therefore made to
// distrust the schema before it runs a statement (Distrust), and index vets a
// workset's database object by object before anything else reads or
// writes it.

// distrustOptions are the SQLITE_DBCONFIG_* options (sqlite3.h) every
// connection gets, with the value each must hold.
var distrustOptions = []struct {
	name   string
	op, on C.int
}{
	// Defensive: no writable_schema, no journal_mode=OFF after open, no
	// writes to shadow tables or sqlite_dbpage by SQL: what a corrupt or
	// crafted file could use to turn a bug into a write.
	{"SQLITE_DBCONFIG_DEFENSIVE", 1010, 1},
	// trusted_schema=OFF: functions and virtual tables not marked
	// innocuous may not be used by the schema (views, triggers, CHECK,
	// defaults, generated columns, index expressions).
	{"SQLITE_DBCONFIG_TRUSTED_SCHEMA", 1017, 0},
	// canon creates no trigger and no view; one in a database is not
	// canon's, and with these off it never runs (TEMP ones, which only
	// the connection itself could create, still would).
	{"SQLITE_DBCONFIG_ENABLE_TRIGGER", 1003, 0},
	{"SQLITE_DBCONFIG_ENABLE_VIEW", 1015, 0},
	{"SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION", 1005, 0},
}

// MaxValueBytes is SQLITE_LIMIT_LENGTH on every connection: the largest
// text or blob a value may be. canon's largest is a section's text, at
// most the file size ceiling (config.MaxFileSizeCeiling, 32 MiB); four
// times that leaves room and still stops an expression of a crafted
// schema or a crafted row at 128 MiB instead of SQLite's 1 GB.
const MaxValueBytes = 4 * config.MaxFileSizeCeiling

// errNoHandle says the driver keeps its handle where connHandle does not
// look: canon refuses to run SQL on a connection it could not harden.
var errNoHandle = errors.New("canon cannot reach SQLite's connection handle to set its defensive options (has github.com/mattn/go-sqlite3 moved it?); rebuild canon with the go-sqlite3 version go.mod names")

// Distrust sets distrustOptions and the length limit on a new connection,
// before any statement of canon's runs on it. A connection that does not
// take them all is refused: its database would run what its schema says.
func Distrust(c *sqlite3.SQLiteConn) error {
	db := connHandle(c)
	if db == nil {
		return errNoHandle
	}
	for _, o := range distrustOptions {
		if C.canon_db_flag(db, o.op, o.on) != 1 {
			return fmt.Errorf("SQLite refused %s = %d on a new connection; canon does not open a database without it", o.name, int(o.on))
		}
	}
	c.SetLimit(sqlite3.SQLITE_LIMIT_LENGTH, MaxValueBytes)
	return nil
}
