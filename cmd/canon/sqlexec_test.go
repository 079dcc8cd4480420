package main

import (
	"database/sql"

	"github.com/rogpeppe/go-internal/testscript"

	_ "github.com/mattn/go-sqlite3" // the scripts' hostile databases: a test-only door to SQL
)

// sqlExec is the hostile scripts' forger: sqlexec DB SQL runs one SQL
// statement on a database file as anyone could with the sqlite3 program
// (which a new machine may not have), to make the databases an attacker
// commits.
func sqlExec(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sqlexec DB SQL")
	}
	db, err := sql.Open("sqlite3", "file:"+ts.MkAbs(args[0]))
	ts.Check(err)
	defer db.Close()
	_, err = db.Exec(args[1])
	ts.Check(err)
}
