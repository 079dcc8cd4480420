package safepath

import (
	"fmt"
	"io/fs"
	"os"

	"github.com/gofrs/flock"
)

// Lock files. canon's locks are files under the git folder (the index's
// writer lock, the journals', the watcher's) or beside a workset's notes,
// and a clone copied from someone else, or a link in a committed workset,
// may put a named pipe, a device or a symbolic link where one belongs.
// flock opens its file read-only, and an open of a named pipe waits for a
// writer: a git hook then never returned. A lock file is opened without
// waiting and without following a link (NewLock), and checked a regular
// file once taken (Locked); its note (who holds it) is read and written
// the same way (LockNote, WriteLockNote).

// lockNoteMax bounds what is read of a lock file's note: one line.
const lockNoteMax = 4096

// NewLock is the lock at path, opened so that nothing put in its place
// makes canon wait for a writer or follow a link.
func NewLock(path string) *flock.Flock {
	return flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDONLY|openFlags|noFollow), flock.SetPermissions(0o600))
}

// NotLockFileError says a lock's path holds something else than a regular
// file.
type NotLockFileError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotLockFileError) Error() string {
	what := "a symbolic link"
	if e.Mode&fs.ModeSymlink == 0 {
		what = modeText(e.Mode)
	}
	return fmt.Sprintf("%s is %s, where canon keeps a lock file; remove it (canon makes it again)", e.Path, what)
}

// Locked checks the lock fl has just taken is on a regular file; when it
// is not, it releases the lock and says so.
func Locked(fl *flock.Flock) error {
	fi, err := fl.Stat()
	if err == nil && fi.Mode().IsRegular() {
		return nil
	}
	_ = fl.Unlock()
	if err != nil {
		return err
	}
	return &NotLockFileError{Path: fl.Path(), Mode: fi.Mode()}
}

// LockError is err, an error of taking the lock at path, said as
// NotLockFileError when the path holds something else than a regular file
// (a link the open refused to follow).
func LockError(path string, err error) error {
	if fi, lerr := os.Lstat(path); lerr == nil && !fi.Mode().IsRegular() {
		return &NotLockFileError{Path: path, Mode: fi.Mode()}
	}
	return err
}

// LockNote is the line a lock's holder wrote in its file ("" when there
// is none, or the file is not a regular one).
func LockNote(path string) string {
	data, err := ReadListed(path, lockNoteMax)
	if err != nil {
		return ""
	}
	return string(data)
}

// WriteLockNote writes line as the note of the lock at path, which this
// process holds; what is not a regular file is left alone.
func WriteLockNote(path, line string) {
	f, err := os.OpenFile(path, os.O_WRONLY|openFlags|noFollow, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return
	}
	if f.Truncate(0) == nil {
		_, _ = f.WriteString(line) // only shown to a waiter: a lost line costs nothing
	}
}
