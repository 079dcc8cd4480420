package gitfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
)

// A hook reads two commits and the few trees between them, so opening the
// object store must cost what those reads cost, not what the repository
// holds. go-git's storage decodes every entry of every pack index on open,
// and on the first delta it resolves builds a map of every object's offset:
// 40 ms of a 68 ms hook on rust-lang/rfcs (62,000 objects), growing with the
// history (ADR-0013). packIndex answers the same questions from the .idx
// file as git wrote it, by binary search in place, and maps offsets back to
// ids through the pack's reverse index (.rev, which git writes by default
// since 2.41), so an open reads two files and decodes nothing.

// packIndex is a version 2 pack index read in place. It implements
// go-git's idxfile.Index (the tests hold it to go-git's decoder);
// packread.go decodes the objects, looking them up by id only.
type packIndex struct {
	data  []byte // the whole .idx
	n     int    // objects
	names int    // offsets of the tables in data
	crcs  int
	off32 int
	off64 int

	rev      []byte // the .rev file's positions (4 bytes each, by pack offset); nil without one
	unmaps   []func()
	once     sync.Once
	byOffset []uint32 // positions sorted by pack offset, built on first need when rev is nil
}

var errPackIndex = errors.New("not a version 2 pack index")

// readPackIndex reads the .idx at path and, when it is there and sound, the
// .rev beside it.
func readPackIndex(path string) (*packIndex, error) {
	data, unmap, err := mapFile(path)
	if err != nil {
		return nil, err
	}
	x := &packIndex{data: data, unmaps: []func(){unmap}}
	if len(data) < 8+256*4 || !bytes.Equal(data[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		x.close()
		return nil, fmt.Errorf("%s: %w", path, errPackIndex)
	}
	x.n = int(binary.BigEndian.Uint32(data[8+255*4:]))
	x.names = 8 + 256*4
	x.crcs = x.names + 20*x.n
	x.off32 = x.crcs + 4*x.n
	x.off64 = x.off32 + 4*x.n
	if x.off64+40 > len(data) { // the trailer holds two checksums
		x.close()
		return nil, fmt.Errorf("%s: truncated pack index", path)
	}
	if rev, unmap, err := mapFile(strings.TrimSuffix(path, ".idx") + ".rev"); err == nil {
		x.unmaps = append(x.unmaps, unmap)
		if len(rev) == 12+4*x.n+40 && bytes.Equal(rev[:8], []byte{'R', 'I', 'D', 'X', 0, 0, 0, 1}) &&
			binary.BigEndian.Uint32(rev[8:]) == 1 { // SHA-1
			x.rev = rev[12 : 12+4*x.n]
		}
	}
	return x, nil
}

// close unmaps the index; nothing may use it afterwards.
func (x *packIndex) close() {
	for _, u := range x.unmaps {
		u()
	}
	x.unmaps, x.data, x.rev = nil, nil, nil
}

func (x *packIndex) name(pos int) []byte { return x.data[x.names+20*pos : x.names+20*pos+20] }

func (x *packIndex) offset(pos int) int64 {
	v := binary.BigEndian.Uint32(x.data[x.off32+4*pos:])
	if v&0x80000000 == 0 {
		return int64(v)
	}
	at := x.off64 + 8*int(v&0x7fffffff)
	if at+8 > len(x.data) {
		return -1
	}
	return int64(binary.BigEndian.Uint64(x.data[at:]))
}

// find returns the position of h, or -1.
func (x *packIndex) find(h plumbing.Hash) int {
	lo := 0
	if h[0] > 0 {
		lo = int(binary.BigEndian.Uint32(x.data[8+4*(int(h[0])-1):]))
	}
	hi := int(binary.BigEndian.Uint32(x.data[8+4*int(h[0]):]))
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(x.name(mid), h[:]); {
		case c == 0:
			return mid
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return -1
}

// Contains implements idxfile.Index.
func (x *packIndex) Contains(h plumbing.Hash) (bool, error) { return x.find(h) >= 0, nil }

// FindOffset implements idxfile.Index.
func (x *packIndex) FindOffset(h plumbing.Hash) (int64, error) {
	pos := x.find(h)
	if pos < 0 {
		return 0, plumbing.ErrObjectNotFound
	}
	return x.offset(pos), nil
}

// FindCRC32 implements idxfile.Index.
func (x *packIndex) FindCRC32(h plumbing.Hash) (uint32, error) {
	pos := x.find(h)
	if pos < 0 {
		return 0, plumbing.ErrObjectNotFound
	}
	return binary.BigEndian.Uint32(x.data[x.crcs+4*pos:]), nil
}

// FindHash implements idxfile.Index: the object at pack offset o.
func (x *packIndex) FindHash(o int64) (plumbing.Hash, error) {
	at := func(k int) int { return int(binary.BigEndian.Uint32(x.rev[4*k:])) }
	if x.rev == nil {
		x.once.Do(x.sortByOffset)
		at = func(k int) int { return int(x.byOffset[k]) }
	}
	k := sort.Search(x.n, func(k int) bool { return x.offset(at(k)) >= o })
	if k == x.n || x.offset(at(k)) != o {
		return plumbing.ZeroHash, plumbing.ErrObjectNotFound
	}
	var h plumbing.Hash
	copy(h[:], x.name(at(k)))
	return h, nil
}

// sortByOffset builds what a .rev file holds: a sort of 4-byte positions,
// cheaper than go-git's map of every offset.
func (x *packIndex) sortByOffset() {
	x.byOffset = make([]uint32, x.n)
	for i := range x.byOffset {
		x.byOffset[i] = uint32(i)
	}
	sort.Slice(x.byOffset, func(a, b int) bool { return x.offset(int(x.byOffset[a])) < x.offset(int(x.byOffset[b])) })
}

// Count implements idxfile.Index.
func (x *packIndex) Count() (int64, error) { return int64(x.n), nil }

// Entries implements idxfile.Index, in id order.
func (x *packIndex) Entries() (idxfile.EntryIter, error) {
	return &packEntries{x: x, at: func(k int) int { return k }}, nil
}

// EntriesByOffset implements idxfile.Index, in pack order.
func (x *packIndex) EntriesByOffset() (idxfile.EntryIter, error) {
	if x.rev != nil {
		return &packEntries{x: x, at: func(k int) int { return int(binary.BigEndian.Uint32(x.rev[4*k:])) }}, nil
	}
	x.once.Do(x.sortByOffset)
	return &packEntries{x: x, at: func(k int) int { return int(x.byOffset[k]) }}, nil
}

type packEntries struct {
	x  *packIndex
	k  int
	at func(int) int
}

func (e *packEntries) Next() (*idxfile.Entry, error) {
	if e.k >= e.x.n {
		return nil, io.EOF
	}
	pos := e.at(e.k)
	e.k++
	en := &idxfile.Entry{CRC32: binary.BigEndian.Uint32(e.x.data[e.x.crcs+4*pos:]), Offset: uint64(e.x.offset(pos))}
	copy(en.Hash[:], e.x.name(pos))
	return en, nil
}

func (e *packEntries) Close() error { return nil }
