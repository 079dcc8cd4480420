// Package statfile is the stat cache's file (ADR-0081): beside an index,
// every stored file's path, size and time, sorted by path, stamped with
// the sync id of the index it was read from. Every write of the index
// sets a new sync id, so a cache with another stamp is never used, and a
// stat walk reads it in one go instead of a row per file. It holds no SQL
// and imports nothing of canon's.
package statfile

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unsafe"
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
// ok is false for any other (or a damaged one). The file is read in one
// go into one string that the rows' paths are parts of: no string is
// made per row.
func Read(path, id string) (rows []Row, ok bool) {
	head := Magic + id + "\n"
	text, ok := readText(path, head)
	if !ok {
		return nil, false
	}
	text = text[len(head):]
	rows = make([]Row, 0, strings.Count(text, "\x00")/4)
	prev := ""
	for text != "" {
		k := strings.IndexByte(text, 0)
		if k < 0 {
			return nil, false
		}
		r := Row{Path: text[:k]}
		text = text[k+1:]
		var ok1, ok2 bool
		r.Size, text, ok1 = number(text)
		r.Mtime, text, ok2 = number(text)
		if !ok1 || !ok2 || len(text) < 2 || text[1] != 0 || (text[0] != '0' && text[0] != '1') || r.Path <= prev {
			return nil, false
		}
		r.Doc, text = text[0] == '1', text[2:]
		rows = append(rows, r)
		prev = r.Path
	}
	return rows, true
}

// readText reads the file at path whole if it starts with head (the
// stamp, read first: a cache of another sync id is not read on), as a
// string that shares the bytes read (nothing else holds them): one read
// into memory not zeroed first.
func readText(path, head string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxBytes || info.Size() < int64(len(head)) {
		return "", false
	}
	stamp := make([]byte, len(head))
	if _, err := io.ReadFull(f, stamp); err != nil || string(stamp) != head {
		return "", false
	}
	var buf bytes.Buffer
	buf.Grow(int(info.Size()) + bytes.MinRead)
	buf.Write(stamp)
	if _, err := buf.ReadFrom(io.LimitReader(f, maxBytes)); err != nil {
		return "", false
	}
	data := buf.Bytes()
	return unsafe.String(&data[0], len(data)), true
}

// number parses the decimal integer that text starts with, up to its
// NUL, and returns what follows the NUL: strconv.ParseInt's for the
// numbers Write writes (an optional "-" and at most 19 digits), without
// its generality.
func number(text string) (n int64, rest string, ok bool) {
	neg := len(text) > 0 && text[0] == '-'
	i := 0
	if neg {
		i = 1
	}
	start := i
	var u uint64
	for ; i < len(text) && text[i] != 0; i++ {
		c := text[i] - '0'
		if c > 9 {
			return 0, "", false
		}
		u = u*10 + uint64(c)
	}
	if i == start || i == len(text) || i-start > 19 || u > math.MaxInt64 {
		return 0, "", false
	}
	n = int64(u)
	if neg {
		n = -n
	}
	return n, text[i+1:], true
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
