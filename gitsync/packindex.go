package gitsync

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/storer"
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

// packObjects reads objects from the repository's packs (through
// packIndex and packread.go) and loose objects; anything else (an alternate
// object store, an index of another version) goes to go-git's storage,
// opened only then.
type packObjects struct {
	dir   string // the objects folder
	packs []*packRef
	z     inflater

	fallback func() storerFallback
}

// storerFallback is the storage that answers what packObjects cannot.
type storerFallback = storer.EncodedObjectStorer

type packRef struct {
	idx   *packIndex
	path  string // the .pack
	data  *packData
	cache baseCache
}

// openPackObjects lists the packs of the objects folder dir and reads
// their indexes. A pack whose index is not version 2 makes it return nil:
// the caller keeps go-git's storage.
func openPackObjects(dir string, fallback func() storerFallback) *packObjects {
	idxs, err := filepath.Glob(filepath.Join(dir, "pack", "pack-*.idx"))
	if err != nil {
		return nil
	}
	po := &packObjects{dir: dir, fallback: fallback}
	for _, p := range idxs {
		x, err := readPackIndex(p)
		if err != nil {
			po.Close()
			return nil
		}
		po.packs = append(po.packs, &packRef{idx: x, path: strings.TrimSuffix(p, ".idx") + ".pack"})
	}
	return po
}

// Close closes the pack files opened.
func (po *packObjects) Close() error {
	var first error
	for _, p := range po.packs {
		defer p.idx.close()
		if p.data != nil {
			if err := p.data.close(); err != nil && first == nil {
				first = err
			}
			p.data = nil
		}
		p.cache = baseCache{}
	}
	return first
}

func (p *packRef) packData() (*packData, error) {
	if p.data == nil {
		d, err := openPackData(p.path)
		if err != nil {
			return nil, err
		}
		p.data = d
	}
	return p.data, nil
}

// EncodedObject implements storer.EncodedObjectStorer.
func (po *packObjects) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	obj, err := po.read(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return po.fallback().EncodedObject(t, h)
	}
	if err != nil {
		return nil, err
	}
	if t != plumbing.AnyObject && obj.Type() != t {
		return nil, plumbing.ErrObjectNotFound
	}
	return obj, nil
}

// read returns h as a go-git object (for the storer interface).
func (po *packObjects) read(h plumbing.Hash) (plumbing.EncodedObject, error) {
	t, data, err := po.raw(h)
	if err != nil {
		return nil, err
	}
	obj := &plumbing.MemoryObject{}
	obj.SetType(t)
	obj.SetSize(int64(len(data)))
	if _, err := obj.Write(data); err != nil {
		return nil, err
	}
	return obj, nil
}

// raw returns h's type and content from the packs or loose objects, or
// plumbing.ErrObjectNotFound. The content may be shared with a cache:
// callers must not change it.
func (po *packObjects) raw(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	t, data, err := po.rawAt(h, 0)
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	return objectType(t), data, nil
}

func (po *packObjects) rawAt(h plumbing.Hash, depth int) (byte, []byte, error) {
	for _, p := range po.packs {
		off, err := p.idx.FindOffset(h)
		if err != nil {
			continue
		}
		t, data, err := p.object(off, &po.z, po.rawAt, depth)
		if err != nil {
			return 0, nil, fmt.Errorf("read %s from %s: %w", h, filepath.Base(p.path), err)
		}
		return t, data, nil
	}
	return po.loose(h)
}

func packTypeOf(t plumbing.ObjectType) byte {
	switch t {
	case plumbing.CommitObject:
		return packCommit
	case plumbing.TreeObject:
		return packTree
	case plumbing.BlobObject:
		return packBlob
	case plumbing.TagObject:
		return packTag
	}
	return 0
}

// loose reads h from objects/xx/yyyy: a zlib stream of "TYPE SIZE\0"
// and the content.
func (po *packObjects) loose(h plumbing.Hash) (byte, []byte, error) {
	t, n, br, f, err := po.looseOpen(h)
	if f != nil {
		defer f.Close()
	}
	if err != nil {
		return 0, nil, err
	}
	bad := func(what string) error { return fmt.Errorf("read loose object %s: %s", h, what) }
	data := make([]byte, n+1)
	got, err := io.ReadFull(br, data)
	if int64(got) != n || (!errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF)) {
		return 0, nil, bad("not as long as its header says")
	}
	return t, data[:n], nil
}

// looseOpen opens the loose object h and reads its header: its type and
// size, the reader positioned at its content, and the file, which the
// caller closes (nil when it was not opened).
func (po *packObjects) looseOpen(h plumbing.Hash) (byte, int64, io.Reader, *os.File, error) {
	hex := h.String()
	f, err := os.Open(filepath.Join(po.dir, hex[:2], hex[2:]))
	if errors.Is(err, os.ErrNotExist) {
		return 0, 0, nil, nil, plumbing.ErrObjectNotFound
	}
	if err != nil {
		return 0, 0, nil, nil, err
	}
	bad := func(what string) error { return fmt.Errorf("read loose object %s: %s", hex, what) }
	zr, err := zlib.NewReader(bufio.NewReader(f))
	if err != nil {
		return 0, 0, nil, f, bad(err.Error())
	}
	br := bufio.NewReaderSize(zr, 512)
	head, err := br.ReadSlice(0)
	if err != nil {
		return 0, 0, nil, f, bad("no header")
	}
	name, size, ok := strings.Cut(string(head[:len(head)-1]), " ")
	n, perr := strconv.ParseInt(size, 10, 64)
	t, terr := plumbing.ParseObjectType(name)
	if !ok || perr != nil || n < 0 || terr != nil || packTypeOf(t) == 0 {
		return 0, 0, nil, f, bad("a malformed header")
	}
	if st, err := f.Stat(); err == nil && n > st.Size()*1032 {
		return 0, 0, nil, f, bad("larger than its file can hold")
	}
	return packTypeOf(t), n, br, f, nil
}

// The rest of storer.EncodedObjectStorer is go-git's.

func (po *packObjects) NewEncodedObject() plumbing.EncodedObject {
	return &plumbing.MemoryObject{}
}

func (po *packObjects) SetEncodedObject(o plumbing.EncodedObject) (plumbing.Hash, error) {
	return po.fallback().SetEncodedObject(o)
}

func (po *packObjects) IterEncodedObjects(t plumbing.ObjectType) (storer.EncodedObjectIter, error) {
	return po.fallback().IterEncodedObjects(t)
}

func (po *packObjects) HasEncodedObject(h plumbing.Hash) error {
	if _, err := po.read(h); err == nil {
		return nil
	}
	return po.fallback().HasEncodedObject(h)
}

func (po *packObjects) EncodedObjectSize(h plumbing.Hash) (int64, error) {
	if obj, err := po.read(h); err == nil {
		return obj.Size(), nil
	}
	return po.fallback().EncodedObjectSize(h)
}

func (po *packObjects) AddAlternate(remote string) error { return po.fallback().AddAlternate(remote) }

// size returns h's size without reading its content: the object header of
// a whole object, the result size at the head of a delta (a few bytes of
// its zlib stream), the header of a loose object; plumbing.ErrObjectNotFound
// when neither the packs nor the loose objects hold it.
func (po *packObjects) size(h plumbing.Hash) (int64, error) {
	for _, p := range po.packs {
		off, err := p.idx.FindOffset(h)
		if err != nil {
			continue
		}
		d, err := p.packData()
		if err != nil {
			return 0, err
		}
		hd, err := d.header(off)
		if err != nil {
			return 0, err
		}
		if hd.typ != packOfsDelta && hd.typ != packRefDelta {
			return hd.size, nil
		}
		return po.z.deltaResultSize(d, hd.data)
	}
	_, n, _, f, err := po.looseOpen(h)
	if f != nil {
		f.Close()
	}
	return n, err
}
