package gitfile

import (
	"bytes"
	"cmp"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// TreeEntry is one entry of a tree as git stores it ("MODE NAME\0" and
// the 20 bytes of the id), read in place: a walk compares thousands of
// entries that are the same on both sides, and needs names and ids only
// of the few that differ. Name and Hash point into the tree's bytes.
type TreeEntry struct {
	Name []byte
	Mode filemode.FileMode
	Hash []byte
}

// NextEntry reads the entry at the start of data, as go-git's Tree.Decode
// would (an octal mode of at most 32 bits), and returns the rest.
func NextEntry(data []byte) (TreeEntry, []byte, error) {
	sp := bytes.IndexByte(data, ' ')
	if sp <= 0 {
		return TreeEntry{}, nil, errors.New("a tree entry without a mode")
	}
	var mode uint64
	for _, c := range data[:sp] {
		if c < '0' || c > '7' || mode > 0xffffffff>>3 {
			return TreeEntry{}, nil, fmt.Errorf("a tree entry's mode %q is not a file mode", data[:sp])
		}
		mode = mode<<3 | uint64(c-'0')
	}
	data = data[sp+1:]
	nul := bytes.IndexByte(data, 0)
	if nul < 0 || len(data) < nul+1+20 {
		return TreeEntry{}, nil, errors.New("a tree entry ends early")
	}
	e := TreeEntry{Name: data[:nul], Mode: filemode.FileMode(mode), Hash: data[nul+1 : nul+1+20]}
	return e, data[nul+1+20:], nil
}

// CompareEntries orders tree entries as git does: by name, a folder's name
// compared as if it ended in a slash.
func CompareEntries(a, b *TreeEntry) int {
	n := min(len(a.Name), len(b.Name))
	if c := bytes.Compare(a.Name[:n], b.Name[:n]); c != 0 {
		return c
	}
	return cmp.Compare(nameByte(a, n), nameByte(b, n))
}

func nameByte(e *TreeEntry, i int) byte {
	switch {
	case i < len(e.Name):
		return e.Name[i]
	case e.Mode == filemode.Dir:
		return '/'
	}
	return 0
}

// Tree is a tree's entries, inflated as far as the lookups in it went:
// a folder of 2,000 decision records is a tree of 165 KB, and inflating
// all of it to find one name cost about 1 ms.
type Tree struct {
	data   []byte    // the entries inflated so far
	rest   io.Reader // the rest of its zlib stream (nil once read or broken)
	left   int64     // how many bytes of entries the stream still holds
	broken bool      // the stream ended early or could not be read
}

// streamTreeOver is the size past which a tree is inflated as lookups need
// it: a stream of its own costs a decompressor with a window of 32 KB,
// which it fills at every step, so a smaller tree is read whole through
// the packs' shared one.
const streamTreeOver = 64 << 10

// Tree opens the tree h: a large whole tree in a mapped pack is inflated
// as lookups need it, any other read whole. nil when the store does not
// hold it (or holds another type of object by that id).
func (s *Store) Tree(h plumbing.Hash) *Tree {
	for _, p := range s.packs {
		off, err := p.idx.FindOffset(h)
		if err != nil {
			continue
		}
		d, err := p.packData()
		if err != nil {
			return nil
		}
		hd, err := d.header(off)
		if err != nil {
			return nil
		}
		if d.mapped == nil || hd.typ != packTree || hd.size <= streamTreeOver || hd.size > maxObjectSize {
			break // read whole, below
		}
		r, err := d.at(hd.data)
		if err != nil {
			return nil
		}
		zr, err := zlib.NewReader(r)
		if err != nil {
			return nil
		}
		return &Tree{rest: zr, left: hd.size}
	}
	t, data, err := s.Read(h)
	if err != nil || t != plumbing.TreeObject {
		return nil
	}
	return &Tree{data: data}
}

// more inflates more of the tree; false when it holds no more or cannot be
// read further.
func (t *Tree) more() bool {
	if t.rest == nil || t.left <= 0 {
		return false
	}
	n := int(min(t.left, int64(max(4096, len(t.data)))))
	old := len(t.data)
	t.data = slices.Grow(t.data, n)[:old+n]
	got, err := io.ReadFull(t.rest, t.data[old:])
	t.data, t.left = t.data[:old+got], t.left-int64(got)
	if err != nil {
		t.rest, t.broken = nil, true
	} else if t.left == 0 {
		t.rest = nil
	}
	return got > 0
}

// All inflates the rest of the tree and returns its entries as stored;
// false when the stream could not be read to its end.
func (t *Tree) All() ([]byte, bool) {
	for t.more() {
	}
	if t.broken || t.left > 0 {
		return nil, false
	}
	return t.data, true
}

// Find looks name (the rest of a path) up as git's find_tree_entry does:
// in git's order, stopping at the first entry past it. hit is the entry
// that is name itself or the folder name continues into; ok is false when
// the tree cannot be read far enough to tell.
func (t *Tree) Find(name string) (e TreeEntry, hit, ok bool) {
	for pos := 0; ; {
		if pos == len(t.data) && !t.more() {
			return e, false, t.left == 0 && !t.broken
		}
		var rest []byte
		var err error
		if e, rest, err = NextEntry(t.data[pos:]); err != nil {
			if t.more() {
				continue // the entry goes on in what is not inflated yet
			}
			return e, false, false
		}
		pos = len(t.data) - len(rest)
		n := len(e.Name)
		if n > len(name) {
			continue
		}
		switch c := compareName(name[:n], e.Name); {
		case c > 0:
			continue
		case c < 0:
			return e, false, true // past where it would be
		case n == len(name):
			return e, true, true
		case name[n] == '/':
			return e, true, true
		}
	}
}

// compareName compares as memcmp does, without copying either side.
func compareName(s string, b []byte) int {
	for i := range min(len(s), len(b)) {
		if s[i] != b[i] {
			return int(s[i]) - int(b[i])
		}
	}
	return len(s) - len(b)
}
