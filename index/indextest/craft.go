package indextest

import (
	"database/sql"
	"fmt"
)

// Craft runs SQL on the database at path as another program would: through
// the driver's plain registration ("sqlite3"), without canon's connection
// settings. Tests make the databases a hostile repository could hold with
// it (ADR-0032).
func Craft(path string, stmts ...string) error {
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		return err
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}
