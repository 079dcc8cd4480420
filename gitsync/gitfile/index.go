package gitfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
)

// Index is git's index file (Documentation/gitformat-index.txt) as a
// staged diff reads it: each entry's place in the mapped file and its
// path, and the cache tree. Nothing is copied but the paths of version 4,
// which are stored as the change from the path before.
type Index struct {
	data  []byte   // the file
	names []byte   // where the paths are: data, or for version 4 their copies
	ent   []uint32 // each entry's offset in data
	name  []uint32 // each entry's path: names[name[i]:name[i]+nlen[i]]
	nlen  []uint32
	tree  *CacheTree // nil when the index has none
	unmap func()
}

// CacheTree is one folder of the index's cache tree (the TREE extension):
// when count is not -1, the count entries under the folder make the tree
// oid, and git's own diff skips the folder when HEAD's tree there is oid.
type CacheTree struct {
	name     []byte
	count    int
	oid      []byte
	children []*CacheTree
	byName   map[string]*CacheTree // made on the first lookup in a large folder
}

// errIndexUnread is an index this package leaves to git: another object
// format, a split or sparse index, an extension it must understand and
// does not, an entry with a conflict or added with intent, or a file that
// does not read as an index.
var errIndexUnread = errors.New("the index is left to git")

const (
	indexHashLen   = 20 // sha1; other formats are left to git
	indexEntryBase = 40 + indexHashLen + 2
	indexFlagExt   = 0x4000
	indexFlagStage = 0x3000
	indexNameMask  = 0x0fff
	indexExtITA    = 0x2000
	indexMaxPath   = 1 << 16
)

// ReadIndex maps the index file at path and reads it (ParseIndex); Close
// unmaps it. An index it leaves to git (another object format, a split
// or sparse index, an extension it must understand and does not, a
// conflict, an entry added with intent, a damaged file) is an error.
func ReadIndex(path string) (*Index, error) {
	data, unmap, err := mapFile(path)
	if err != nil {
		return nil, err
	}
	ix, err := ParseIndex(data)
	if err != nil {
		unmap()
		return nil, err
	}
	ix.unmap = unmap
	return ix, nil
}

// Close unmaps the file ReadIndex mapped; nothing read from the index
// may be used afterwards.
func (ix *Index) Close() {
	if ix.unmap != nil {
		ix.unmap()
		ix.unmap = nil
	}
}

// ParseIndex reads the entries and the cache tree of an index file, in
// place: the Index points into data.
func ParseIndex(data []byte) (*Index, error) {
	if len(data) < 12+indexHashLen || string(data[:4]) != "DIRC" {
		return nil, errIndexUnread
	}
	version := binary.BigEndian.Uint32(data[4:])
	n := binary.BigEndian.Uint32(data[8:])
	if version < 2 || version > 4 || uint64(n) > uint64(len(data))/indexEntryBase || uint64(len(data)) > 1<<32-1 {
		return nil, errIndexUnread
	}
	// Version 4's paths, each the one before changed, are bounded: a
	// damaged file could make them grow with the square of its entries.
	maxNames := 64 << 20
	if len(data) < 1<<28 {
		maxNames = max(maxNames, 4*len(data))
	}
	ix := &Index{data: data, names: data, ent: make([]uint32, n), name: make([]uint32, n), nlen: make([]uint32, n)}
	if version == 4 {
		ix.names = make([]byte, 0, len(data))
	}
	end := len(data) - indexHashLen
	off := 12
	prev := 0 // version 4: where the path before starts in names
	for i := range int(n) {
		next, at, strip, p, err := ix.entry(off, end, version)
		if err != nil {
			return nil, err
		}
		ix.ent[i] = uint32(off)
		if version == 4 {
			keep := len(ix.names) - prev - strip
			if keep < 0 || i == 0 && strip != 0 {
				return nil, errIndexUnread
			}
			start := len(ix.names)
			ix.names = append(append(ix.names, ix.names[prev:prev+keep]...), p...)
			ix.name[i], ix.nlen[i], prev = uint32(start), uint32(len(ix.names)-start), start
			if len(ix.names) > maxNames || len(ix.names)-start > indexMaxPath {
				return nil, errIndexUnread
			}
		} else {
			ix.name[i], ix.nlen[i] = uint32(at), uint32(len(p))
		}
		off = next
	}
	return ix, ix.extensions(off, end)
}

// entry reads the entry at off: where the next one starts, and its path
// (at, where it starts in the file); in version 4, p is what follows the
// path before with its last strip bytes taken off.
func (ix *Index) entry(off, end int, version uint32) (next, at, strip int, p []byte, err error) {
	d := ix.data
	if off+indexEntryBase > end {
		return 0, 0, 0, nil, errIndexUnread
	}
	mode := binary.BigEndian.Uint32(d[off+24:])
	flags := binary.BigEndian.Uint16(d[off+40+indexHashLen:])
	if flags&indexFlagStage != 0 || !IndexMode(mode) {
		return 0, 0, 0, nil, errIndexUnread // a conflict, or a sparse index's folder
	}
	at = off + indexEntryBase
	if flags&indexFlagExt != 0 {
		if version < 3 || at+2 > end || binary.BigEndian.Uint16(d[at:])&indexExtITA != 0 {
			return 0, 0, 0, nil, errIndexUnread
		}
		at += 2
	}
	if version == 4 {
		v, n := indexVarint(d[at:end])
		if n == 0 || v > 1<<31 {
			return 0, 0, 0, nil, errIndexUnread
		}
		nul := bytes.IndexByte(d[at+n:end], 0)
		if nul < 0 {
			return 0, 0, 0, nil, errIndexUnread
		}
		return at + n + nul + 1, at, int(v), d[at+n : at+n+nul], nil
	}
	nlen := int(flags & indexNameMask)
	if nlen == indexNameMask {
		nul := bytes.IndexByte(d[at:end], 0)
		if nul < 0 {
			return 0, 0, 0, nil, errIndexUnread
		}
		nlen = nul
	}
	next = off + (at-off+nlen+8)&^7 // NULs pad an entry to 8 bytes, at least one
	if at+nlen >= end || next > end || d[at+nlen] != 0 {
		return 0, 0, 0, nil, errIndexUnread
	}
	return next, at, 0, d[at : at+nlen], nil
}

// IndexMode is a mode an index entry of a file can have: a file, an
// executable, a symbolic link, a submodule's commit.
func IndexMode(m uint32) bool {
	switch m {
	case 0o100644, 0o100755, 0o120000, 0o160000:
		return true
	}
	return false
}

// indexVarint reads git's offset varint (varint.c); n is 0 when it does
// not read.
func indexVarint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	val := uint64(c & 127)
	n := 1
	for c&128 != 0 {
		val++
		if val == 0 || val>>57 != 0 || n >= len(b) {
			return 0, 0
		}
		c = b[n]
		n++
		val = val<<7 + uint64(c&127)
	}
	return val, n
}

// extensions reads the extensions between the entries and the checksum:
// the cache tree is kept; an optional one (its name starts with a capital)
// is skipped; any other (a split index's link, a sparse index's sdir) is
// left to git.
func (ix *Index) extensions(off, end int) error {
	for off < end {
		if off+8 > end {
			return errIndexUnread
		}
		sig := ix.data[off : off+4]
		size := binary.BigEndian.Uint32(ix.data[off+4:])
		if uint64(size) > uint64(end-off-8) {
			return errIndexUnread
		}
		body := ix.data[off+8 : off+8+int(size)]
		switch {
		case string(sig) == "TREE":
			t, rest, err := parseCacheTree(body, 0)
			if err != nil || len(rest) != 0 {
				return errIndexUnread
			}
			ix.tree = t
		case sig[0] < 'A' || sig[0] > 'Z':
			return errIndexUnread
		}
		off += 8 + int(size)
	}
	return nil
}

// parseCacheTree reads one folder of the cache tree and those under it.
func parseCacheTree(b []byte, depth int) (*CacheTree, []byte, error) {
	if depth > 4096 {
		return nil, nil, errIndexUnread
	}
	nul := bytes.IndexByte(b, 0)
	if nul < 0 {
		return nil, nil, errIndexUnread
	}
	t := &CacheTree{name: b[:nul]}
	b = b[nul+1:]
	sp := bytes.IndexByte(b, ' ')
	nl := bytes.IndexByte(b, '\n')
	if sp < 0 || nl < sp {
		return nil, nil, errIndexUnread
	}
	count, err1 := strconv.Atoi(string(b[:sp]))
	subs, err2 := strconv.Atoi(string(b[sp+1 : nl]))
	if err1 != nil || err2 != nil || count < -1 || subs < 0 || subs > len(b) {
		return nil, nil, errIndexUnread
	}
	t.count, b = count, b[nl+1:]
	if count >= 0 {
		if len(b) < indexHashLen {
			return nil, nil, errIndexUnread
		}
		t.oid, b = b[:indexHashLen], b[indexHashLen:]
	}
	t.children = make([]*CacheTree, 0, subs)
	for range subs {
		c, rest, err := parseCacheTree(b, depth+1)
		if err != nil {
			return nil, nil, err
		}
		t.children, b = append(t.children, c), rest
	}
	return t, b, nil
}

// Child is the folder name under t, nil if the cache tree has none (or t
// is nil).
func (t *CacheTree) Child(name []byte) *CacheTree {
	if t == nil {
		return nil
	}
	if len(t.children) <= 8 {
		for _, c := range t.children {
			if bytes.Equal(c.name, name) {
				return c
			}
		}
		return nil
	}
	if t.byName == nil {
		t.byName = make(map[string]*CacheTree, len(t.children))
		for _, c := range t.children {
			t.byName[string(c.name)] = c
		}
	}
	return t.byName[string(name)]
}

// Covers says whether the n entries under t's folder make the tree h, as
// the cache tree records it (false for a nil t, a folder it marks
// invalid, or a zero h): git's own diff then skips the folder.
func (t *CacheTree) Covers(n int, h plumbing.Hash) bool {
	return t != nil && t.count >= 0 && t.count == n && !h.IsZero() && bytes.Equal(t.oid, h[:])
}

// Tree is the index's cache tree, nil when it has none.
func (ix *Index) Tree() *CacheTree { return ix.tree }

// Len is how many entries the index holds, in git's order of their paths.
func (ix *Index) Len() int { return len(ix.ent) }

// Path is entry i's path.
func (ix *Index) Path(i int) []byte {
	return ix.names[ix.name[i] : ix.name[i]+ix.nlen[i]]
}

// Mode is entry i's mode.
func (ix *Index) Mode(i int) uint32 { return binary.BigEndian.Uint32(ix.data[ix.ent[i]+24:]) }

// OID is entry i's object id, as its 20 bytes.
func (ix *Index) OID(i int) []byte {
	return ix.data[ix.ent[i]+40 : ix.ent[i]+40+indexHashLen]
}
