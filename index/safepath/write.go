package safepath

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/canon-md/canon/index/lazyre"
)

// tempMark is in the name of every temporary file canon writes:
// ".NAME.canon-tmp-PID-N" beside NAME. A process killed between writing
// and renaming leaves one; the next command recognises it by its name and
// removes it once its process is gone.
const tempMark = ".canon-tmp-"

var tempName = lazyre.MustCompile(`^\..+\.canon-tmp-([0-9]+)-[0-9]+$`)

var tempSeq atomic.Int64

// WriteFile writes data to path atomically, proven inside the roots: to a
// temporary file beside it, synced, then renamed over it. An existing
// file keeps its mode (perm is for a new one).
func WriteFile(path string, data []byte, perm os.FileMode, roots ...string) error {
	return writeStream(path, perm, roots, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeStream is WriteFile for content written by fill rather than held
// whole (a journal).
func writeStream(path string, perm os.FileMode, roots []string, fill func(io.Writer) error) error {
	if err := Writable(path, roots...); err != nil {
		return err
	}
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	dir, base := filepath.Split(path)
	tmp := filepath.Join(dir, fmt.Sprintf(".%s%s%d-%d", base, tempMark, os.Getpid(), tempSeq.Add(1)))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := fill(f); err != nil {
		return err
	}
	if err := f.Chmod(perm); err != nil { // the umask narrowed it
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	done = true
	return nil
}

// syncDir makes the names in dir durable (a rename into it, a removal);
// where a folder cannot be synced, the rename stands as the system keeps
// it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync() //nolint:errcheck // not every system syncs a folder
		d.Close()
	}
}

// IsTemp reports whether a file name is one of canon's temporary files,
// and the process that wrote it.
func IsTemp(name string) (pid int, ok bool) {
	m := tempName.FindStringSubmatch(name)
	if m == nil {
		return 0, false
	}
	pid, err := strconv.Atoi(m[1])
	return pid, err == nil
}

// staleAge is how old debris must be before its pid alone is trusted: a
// pid can be reused, so a young file of a live pid is left.
const staleAge = time.Minute

// RemoveStale removes the given files if they are canon's temporary files
// whose process is gone (or, pid reused, that are older than a day), proven
// inside the roots. It returns the ones it removed.
func RemoveStale(paths []string, roots ...string) []string {
	var gone []string
	for _, p := range paths {
		pid, ok := IsTemp(filepath.Base(p))
		if !ok {
			continue
		}
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		age := time.Since(fi.ModTime())
		if age < staleAge || (PIDAlive(pid) && age < 24*time.Hour) {
			continue
		}
		if err := Remove(p, roots...); err == nil || errors.Is(err, fs.ErrNotExist) {
			gone = append(gone, p)
		}
	}
	return gone
}

// RemoveTempsOf removes the temporary files the process pid left beside
// path (killed between its write and its rename), whatever their age: the
// caller knows the process is gone (a journal's writer, whose lock it
// holds now). It returns the ones it removed.
func RemoveTempsOf(path string, pid int, roots ...string) []string {
	dir, base := filepath.Split(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	prefix := "." + base + tempMark + strconv.Itoa(pid) + "-"
	var gone []string
	for _, e := range entries {
		if _, ok := IsTemp(e.Name()); !ok || !strings.HasPrefix(e.Name(), prefix) || !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if err := Remove(p, roots...); err == nil {
			gone = append(gone, p)
		}
	}
	return gone
}

// StaleIn lists canon's stale temporary files directly in dir (see
// RemoveStale) and removes them.
func StaleIn(dir string, roots ...string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var cands []string
	for _, e := range entries {
		if _, ok := IsTemp(e.Name()); ok {
			cands = append(cands, filepath.Join(dir, e.Name()))
		}
	}
	return RemoveStale(cands, roots...)
}
