package gitfile

import (
	"bufio"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Store reads objects from an objects folder's packs (through packIndex
// and packread.go) and its loose objects. What it does not hold (an object
// of an alternate object store, or of a partial clone's promisor) is
// plumbing.ErrObjectNotFound: the caller asks go-git's storage or git.
type Store struct {
	dir   string // the objects folder
	packs []*packRef
	z     inflater
}

type packRef struct {
	idx   *packIndex
	path  string // the .pack
	data  *packData
	cache baseCache
}

// OpenStore lists the packs of the objects folder dir and reads their
// indexes. A pack whose index is not version 2 makes it return nil: the
// caller reads the objects another way.
func OpenStore(dir string) *Store {
	idxs, err := filepath.Glob(filepath.Join(dir, "pack", "pack-*.idx"))
	if err != nil {
		return nil
	}
	s := &Store{dir: dir}
	for _, p := range idxs {
		x, err := readPackIndex(p)
		if err != nil {
			s.Close()
			return nil
		}
		s.packs = append(s.packs, &packRef{idx: x, path: strings.TrimSuffix(p, ".idx") + ".pack"})
	}
	return s
}

// Close closes the pack files opened.
func (s *Store) Close() error {
	var first error
	for _, p := range s.packs {
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

// Read returns h's type and content from the packs or loose objects, or
// plumbing.ErrObjectNotFound. The content may be shared with a cache:
// callers must not change it.
func (s *Store) Read(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	t, data, err := s.readAt(h, 0)
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	return objectType(t), data, nil
}

func (s *Store) readAt(h plumbing.Hash, depth int) (byte, []byte, error) {
	for _, p := range s.packs {
		off, err := p.idx.FindOffset(h)
		if err != nil {
			continue
		}
		t, data, err := p.object(off, &s.z, s.readAt, depth)
		if err != nil {
			return 0, nil, fmt.Errorf("read %s from %s: %w", h, filepath.Base(p.path), err)
		}
		return t, data, nil
	}
	return s.loose(h)
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
func (s *Store) loose(h plumbing.Hash) (byte, []byte, error) {
	t, n, br, f, err := s.looseOpen(h)
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
func (s *Store) looseOpen(h plumbing.Hash) (byte, int64, io.Reader, *os.File, error) {
	hex := h.String()
	f, err := os.Open(filepath.Join(s.dir, hex[:2], hex[2:]))
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

// Size returns h's size without reading its content: the object header of
// a whole object, the result size at the head of a delta (a few bytes of
// its zlib stream), the header of a loose object; plumbing.ErrObjectNotFound
// when neither the packs nor the loose objects hold it.
func (s *Store) Size(h plumbing.Hash) (int64, error) {
	for _, p := range s.packs {
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
		return s.z.deltaResultSize(d, hd.data)
	}
	_, n, _, f, err := s.looseOpen(h)
	if f != nil {
		f.Close()
	}
	return n, err
}
