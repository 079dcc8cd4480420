package sqlstore

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// ErrDamaged is an index database SQLite cannot read as canon's: corrupt,
// not a database, or missing its tables (another tool's file, a partial
// copy). The index is derived, so the fix is always a rebuild.
var ErrDamaged = errors.New("the index is damaged")

// DamagedError is ErrDamaged with the database and what SQLite said.
type DamagedError struct {
	Path string // "" when not known where the error surfaced
	Err  error
}

func (e *DamagedError) Error() string {
	where := "the index"
	if e.Path != "" {
		where += " " + e.Path
	}
	return fmt.Sprintf("%s is damaged (%v); run canon index --full to rebuild it (nothing is lost: it is derived from your files)", where, e.Err)
}

func (e *DamagedError) Unwrap() []error { return []error{ErrDamaged, e.Err} }

// Explain turns an SQLite error anywhere in err's chain into a sentence
// with the fix: a damaged database (ErrDamaged), one canon may not write
// (fs.ErrPermission), one another process keeps busy. Other errors are
// returned as they are. path names the database when known.
func Explain(err error, path string) error {
	if err == nil || errors.Is(err, ErrDamaged) {
		return err
	}
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return err
	}
	where := "the index"
	if path != "" {
		where += " " + path
	}
	msg := se.Error()
	switch {
	case se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB,
		se.Code == sqlite3.ErrError && (strings.HasPrefix(msg, "no such table") || strings.HasPrefix(msg, "no such column") || strings.Contains(msg, "malformed")):
		return &DamagedError{Path: path, Err: se}
	case se.Code == sqlite3.ErrReadonly || se.Code == sqlite3.ErrPerm || se.Code == sqlite3.ErrAuth:
		return &fs.PathError{Op: "write", Path: nonEmpty(path, "the index"), Err: fmt.Errorf("%w (%v)", fs.ErrPermission, se)} //nolint:errorlint // the sqlite error is told, not wrapped: the error is classified once
	case se.Code == sqlite3.ErrCantOpen:
		return fmt.Errorf("canon cannot open %s (%v): check that its folder exists and that you may write there (ls -ld %s)", where, se, nonEmpty(path, ".git/canon")) //nolint:errorlint // told, not wrapped: the error is classified once
	case se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked:
		return fmt.Errorf("%s stayed busy for 10 s; another canon process is writing to it, retry when it is done: %w", where, err)
	}
	return err
}

func nonEmpty(s, or string) string {
	if s == "" {
		return or
	}
	return s
}
