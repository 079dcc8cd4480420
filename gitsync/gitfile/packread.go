package gitfile

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/go-git/go-git/v5/plumbing"
)

// A hook's walk reads two commits and a handful of trees, most of them
// deltas at the end of chains of a few to fifty objects (ADR-0021). go-git's
// packfile reader resolved them at about three times the cost of what it
// decodes: it reads the pack through a byte-at-a-time buffered scanner and
// computes the SHA-1 (with collision detection) of every object and every
// intermediate delta base it caches, 40% of a walk on rust-lang/rfcs. The
// reader below decodes the pack as git does: the object header and the zlib
// stream straight from the mapped file, deltas applied in place, bases kept
// by offset (no hashing), and the tree's entries parsed from the bytes.

// packData is a pack file's bytes: mapped, or read through the file on a
// system that cannot map it.
type packData struct {
	mapped []byte // the whole .pack, when mapped
	unmap  func()
	file   *os.File // else
	size   int64
	br     *bufio.Reader // reused over file
}

func openPackData(path string) (*packData, error) {
	if data, unmap, err := mapPack(path); err == nil {
		return &packData{mapped: data, unmap: unmap, size: int64(len(data))}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &packData{file: f, size: st.Size()}, nil
}

func (d *packData) close() error {
	if d.unmap != nil {
		d.unmap()
		d.unmap, d.mapped = nil, nil
	}
	if d.file != nil {
		err := d.file.Close()
		d.file = nil
		return err
	}
	return nil
}

// packByteReader is what the header parser and zlib read: bytes.Reader over
// a mapping, bufio.Reader over a file. Both are io.ByteReaders, so flate
// reads them without a buffer of its own.
type packByteReader interface {
	io.Reader
	io.ByteReader
}

// at returns a reader positioned at offset off. The reader is only valid
// until the next call.
func (d *packData) at(off int64) (packByteReader, error) {
	if off < 0 || off >= d.size {
		return nil, errBadPack("an offset outside the pack")
	}
	if d.mapped != nil {
		return bytes.NewReader(d.mapped[off:]), nil
	}
	sr := io.NewSectionReader(d.file, off, d.size-off)
	if d.br == nil {
		d.br = bufio.NewReaderSize(sr, 16<<10)
	} else {
		d.br.Reset(sr)
	}
	return d.br, nil
}

func errBadPack(what string) error { return fmt.Errorf("damaged pack: %s", what) }

// Pack object types (git's pack format).
const (
	packCommit   = 1
	packTree     = 2
	packBlob     = 3
	packTag      = 4
	packOfsDelta = 6
	packRefDelta = 7
)

// maxChain bounds a delta chain: git writes at most 50 (4,095 is git's
// own hard limit); a longer one is a damaged or hostile pack.
const maxChain = 10000

// packHeader is an object's header: its pack type, its size (of the
// object, or of the delta data), where its zlib stream starts, and for a
// delta its base.
type packHeader struct {
	off     int64 // where the object is
	typ     byte
	size    int64
	data    int64 // offset of the zlib stream
	baseOff int64 // packOfsDelta
	baseRef plumbing.Hash
}

func (d *packData) header(off int64) (packHeader, error) {
	r, err := d.at(off)
	if err != nil {
		return packHeader{}, err
	}
	n := int64(0)
	next := func() (byte, error) {
		n++
		return r.ReadByte()
	}
	c, err := next()
	if err != nil {
		return packHeader{}, errBadPack("an object header ends early")
	}
	h := packHeader{off: off, typ: (c >> 4) & 7, size: int64(c & 15)}
	for shift := uint(4); c&0x80 != 0; shift += 7 {
		if c, err = next(); err != nil || shift > 56 {
			return packHeader{}, errBadPack("an object size is malformed")
		}
		h.size |= int64(c&0x7f) << shift
	}
	switch h.typ {
	case packCommit, packTree, packBlob, packTag:
	case packOfsDelta:
		if c, err = next(); err != nil {
			return packHeader{}, errBadPack("a delta's base offset ends early")
		}
		back := int64(c & 0x7f)
		for c&0x80 != 0 {
			if c, err = next(); err != nil || back >= 1<<55 {
				return packHeader{}, errBadPack("a delta's base offset is malformed")
			}
			back = (back+1)<<7 | int64(c&0x7f)
		}
		if back <= 0 || back > off {
			return packHeader{}, errBadPack("a delta's base lies outside the pack")
		}
		h.baseOff = off - back
	case packRefDelta:
		if _, err := io.ReadFull(r, h.baseRef[:]); err != nil {
			return packHeader{}, errBadPack("a delta's base id ends early")
		}
		n += 20
	default:
		return packHeader{}, errBadPack(fmt.Sprintf("object type %d", h.typ))
	}
	h.data = off + n
	return h, nil
}

// inflater inflates zlib streams, reusing one decompressor.
type inflater struct {
	zr io.ReadCloser
}

// maxObjectSize bounds an object canon inflates: the trees and commits a
// walk reads and the documents it indexes (5 MB by default) are far
// smaller; a repository that says otherwise gets an error, not an
// allocation of whatever its pack claims.
const maxObjectSize = 256 << 20

// reset points the decompressor at the zlib stream r reads.
func (z *inflater) reset(r io.Reader) error {
	if z.zr == nil {
		zr, err := zlib.NewReader(r)
		if err != nil {
			return errBadPack("an object's zlib stream: " + err.Error())
		}
		z.zr = zr
		return nil
	}
	if err := z.zr.(zlib.Resetter).Reset(r, nil); err != nil {
		return errBadPack("an object's zlib stream: " + err.Error())
	}
	return nil
}

// inflate reads the zlib stream at off, which must hold exactly size
// bytes.
func (z *inflater) inflate(d *packData, off, size int64) ([]byte, error) {
	r, err := d.at(off)
	if err != nil {
		return nil, err
	}
	if err := z.reset(r); err != nil {
		return nil, err
	}
	if size > d.size*1032 { // zlib cannot expand more than about 1032:1
		return nil, errBadPack("an object larger than its pack can hold")
	}
	if size > maxObjectSize {
		return nil, errBadPack(fmt.Sprintf("an object of %d bytes, more than canon reads (%d)", size, maxObjectSize))
	}
	// One byte more than the size, to tell a stream that holds more. The
	// buffer grows with what the stream really holds: a header that lies
	// about a large size costs nothing until the bytes are there. ReadFrom
	// wants MinRead bytes free before each read, the last one (which finds
	// the end) included: without them every object was copied into a
	// buffer twice its size.
	var b bytes.Buffer
	b.Grow(int(min(size+1, 1<<20)) + bytes.MinRead)
	_, err = b.ReadFrom(io.LimitReader(z.zr, size+1))
	buf, n := b.Bytes(), b.Len()
	if err == nil && int64(n) < size+1 {
		err = io.ErrUnexpectedEOF
	}
	switch {
	case int64(n) == size && (errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)):
		return buf[:size], nil
	case int64(n) > size:
		return nil, errBadPack("an object longer than its header says")
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF):
		return nil, errBadPack("an object's zlib stream: " + err.Error())
	}
	return nil, errBadPack("an object shorter than its header says")
}

// deltaResultSize reads the size of the object a delta makes: the second
// of the two sizes its data starts with, from the first bytes of the zlib
// stream at off.
func (z *inflater) deltaResultSize(d *packData, off int64) (int64, error) {
	r, err := d.at(off)
	if err != nil {
		return 0, err
	}
	if err := z.reset(r); err != nil {
		return 0, err
	}
	var head [20]byte // two sizes of at most 10 bytes each
	n, err := io.ReadFull(z.zr, head[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return 0, errBadPack("a delta's zlib stream: " + err.Error())
	}
	_, rest, ok := deltaSize(head[:n])
	if !ok {
		return 0, errBadPack("a delta's base size is malformed")
	}
	dst, _, ok := deltaSize(rest)
	if !ok || dst > maxObjectSize*1024 {
		return 0, errBadPack("a delta's result size is malformed")
	}
	return int64(dst), nil
}

// applyDelta applies git's delta instructions to base.
func applyDelta(base, delta []byte) ([]byte, error) {
	src, delta, ok := deltaSize(delta)
	if !ok || src != uint64(len(base)) {
		return nil, errBadPack("a delta for a base of another size")
	}
	dst, delta, ok := deltaSize(delta)
	if !ok || dst > uint64(len(delta))*(0x10000+1)+1 {
		return nil, errBadPack("a delta's result size is malformed")
	}
	out := make([]byte, 0, dst)
	for len(delta) > 0 {
		cmd := delta[0]
		delta = delta[1:]
		switch {
		case cmd&0x80 != 0:
			var off, n uint64
			for i := uint(0); i < 4; i++ {
				if cmd&(1<<i) != 0 {
					if len(delta) == 0 {
						return nil, errBadPack("a delta copy ends early")
					}
					off |= uint64(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			for i := uint(0); i < 3; i++ {
				if cmd&(0x10<<i) != 0 {
					if len(delta) == 0 {
						return nil, errBadPack("a delta copy ends early")
					}
					n |= uint64(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			if n == 0 {
				n = 0x10000
			}
			if off+n > uint64(len(base)) || uint64(len(out))+n > dst {
				return nil, errBadPack("a delta copies outside its base")
			}
			out = append(out, base[off:off+n]...)
		case cmd != 0:
			n := int(cmd)
			if n > len(delta) || uint64(len(out)+n) > dst {
				return nil, errBadPack("a delta insert ends early")
			}
			out = append(out, delta[:n]...)
			delta = delta[n:]
		default:
			return nil, errBadPack("a delta holds the reserved instruction 0")
		}
	}
	if uint64(len(out)) != dst {
		return nil, errBadPack("a delta's result is shorter than it says")
	}
	return out, nil
}

func deltaSize(b []byte) (uint64, []byte, bool) {
	var v uint64
	for i, shift := 0, uint(0); i < len(b) && shift < 64; i, shift = i+1, shift+7 {
		v |= uint64(b[i]&0x7f) << shift
		if b[i]&0x80 == 0 {
			return v, b[i+1:], true
		}
	}
	return 0, nil, false
}

// baseCache keeps decoded objects by pack offset for the chains that share
// them (the two sides of a diff usually do). It holds at most maxBytes and
// is dropped whole when full: a walk reads a few dozen objects.
type baseCache struct {
	objs  map[int64]cachedObject
	bytes int
}

type cachedObject struct {
	typ  byte
	data []byte
}

const baseCacheBytes = 32 << 20

func (c *baseCache) get(off int64) (cachedObject, bool) {
	o, ok := c.objs[off]
	return o, ok
}

func (c *baseCache) put(off int64, o cachedObject) {
	if len(o.data) > baseCacheBytes/4 {
		return
	}
	if c.objs == nil || c.bytes+len(o.data) > baseCacheBytes {
		c.objs, c.bytes = map[int64]cachedObject{}, 0
	}
	c.objs[off] = o
	c.bytes += len(o.data)
}

// object decodes the object at off in p: its type (commit, tree, blob or
// tag) and content. The content may be shared with the cache: callers must
// not change it. refBase reads a base named by id (a REF_DELTA), from any
// pack or loose.
func (p *packRef) object(off int64, z *inflater, refBase func(plumbing.Hash, int) (byte, []byte, error), depth int) (byte, []byte, error) {
	d, err := p.packData()
	if err != nil {
		return 0, nil, err
	}
	var chain []packHeader
	var typ byte
	var data []byte
	for {
		if o, ok := p.cache.get(off); ok {
			typ, data = o.typ, o.data
			break
		}
		h, err := d.header(off)
		if err != nil {
			return 0, nil, err
		}
		if h.typ != packOfsDelta && h.typ != packRefDelta {
			if data, err = z.inflate(d, h.data, h.size); err != nil {
				return 0, nil, err
			}
			typ = h.typ
			p.cache.put(off, cachedObject{typ, data})
			break
		}
		if len(chain)+depth >= maxChain {
			return 0, nil, errBadPack("a delta chain too long")
		}
		chain = append(chain, h)
		if h.typ == packOfsDelta {
			off = h.baseOff
			continue
		}
		if bo, err := p.idx.FindOffset(h.baseRef); err == nil {
			off = bo
			continue
		}
		// A base in another pack, or loose.
		if typ, data, err = refBase(h.baseRef, depth+len(chain)); err != nil {
			return 0, nil, fmt.Errorf("the base %s of a delta: %w", h.baseRef, err)
		}
		break
	}
	for i := len(chain) - 1; i >= 0; i-- {
		delta, err := z.inflate(d, chain[i].data, chain[i].size)
		if err != nil {
			return 0, nil, err
		}
		if data, err = applyDelta(data, delta); err != nil {
			return 0, nil, err
		}
		p.cache.put(chain[i].off, cachedObject{typ, data})
	}
	return typ, data, nil
}

// objectType maps a pack type to go-git's.
func objectType(t byte) plumbing.ObjectType {
	switch t {
	case packCommit:
		return plumbing.CommitObject
	case packTree:
		return plumbing.TreeObject
	case packBlob:
		return plumbing.BlobObject
	case packTag:
		return plumbing.TagObject
	}
	return plumbing.InvalidObject
}
