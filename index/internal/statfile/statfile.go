// Package statfile is the stat cache's file (ADR-0081): beside an index,
// every stored file's path, size and time, sorted by path, stamped with
// the sync id of the index it was read from. Every write of the index
// sets a new sync id, so a cache with another stamp is never used, and a
// stat walk reads it in one go instead of a row per file. It holds no SQL
// and imports nothing of canon's.
package statfile

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Row is what the index holds of one file for the stat walk: its size and
// modification time when the index last read it.
type Row struct {
	Path        string
	Size, Mtime int64
	Doc         bool // a document, not a skipped file
}

const (
	// Magic starts every cache file, before its sync id's line.
	Magic = "canon stat cache 1\n"
	// maxBytes bounds the file read: about 60 bytes a file, so it
	// holds millions of paths.
	maxBytes = 1 << 30
)

// Sorted sorts rows by path (SQLite's order is byte order already)
// and keeps one row per path.
func Sorted(rows []Row) []Row {
	cmp := func(a, b Row) int { return strings.Compare(a.Path, b.Path) }
	if !slices.IsSortedFunc(rows, cmp) {
		slices.SortStableFunc(rows, cmp)
	}
	return slices.CompactFunc(rows, func(a, b Row) bool { return a.Path == b.Path })
}

// Read reads the cache at path if it was written at sync id;
// ok is false for any other (or a damaged one).
func Read(path, id string) (rows []Row, ok bool) {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxBytes {
		return nil, false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	text := string(data)
	head := Magic + id + "\n"
	if !strings.HasPrefix(text, head) {
		return nil, false
	}
	text = text[len(head):]
	rows = make([]Row, 0, strings.Count(text, "\x00")/4)
	prev := ""
	for text != "" {
		var f [4]string
		for i := range f {
			k := strings.IndexByte(text, 0)
			if k < 0 {
				return nil, false
			}
			f[i], text = text[:k], text[k+1:]
		}
		size, err1 := strconv.ParseInt(f[1], 10, 64)
		mtime, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil || (f[3] != "0" && f[3] != "1") || f[0] <= prev {
			return nil, false
		}
		rows = append(rows, Row{Path: f[0], Size: size, Mtime: mtime, Doc: f[3] == "1"})
		prev = f[0]
	}
	return rows, true
}

// Write writes rows (sorted) as the cache of sync id: a file
// beside, renamed over the cache, so that a reader sees the old or the
// new one whole.
func Write(path, id string, rows []Row) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone after the rename
	w := bufio.NewWriterSize(tmp, 1<<16)
	w.WriteString(Magic + id + "\n")
	var num []byte
	for _, r := range rows {
		if strings.IndexByte(r.Path, 0) >= 0 {
			tmp.Close()
			return fmt.Errorf("a stored path holds a NUL byte: %q", r.Path)
		}
		w.WriteString(r.Path)
		num = strconv.AppendInt(append(num[:0], 0), r.Size, 10)
		num = strconv.AppendInt(append(num, 0), r.Mtime, 10)
		if r.Doc {
			num = append(num, 0, '1', 0)
		} else {
			num = append(num, 0, '0', 0)
		}
		w.Write(num)
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
