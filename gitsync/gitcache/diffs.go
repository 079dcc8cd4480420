package gitcache

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/canon-md/canon/index/safepath"
)

// A ref's diff from its merge base, or from its anchor on a trunk, is a
// function of two commits, and the same diffs come back at every switch:
// with HEAD on the default line each ref is diffed from where it forked;
// after a checkout of a branch that forked long ago, from the same commit
// as its anchor, and after the way back from it again. So the diffs the
// overlays work out are kept in a small file beside the index
// (.git/canon/diffs), as the commits the walks read are (commits.go):
// derived (deleting it loses nothing), written whole and atomically,
// bounded, checked when read. A diff is kept as the tree walk gives it
// within the configured roots (Markdown files only), so the file holds for
// those roots (their fingerprint opens it), and the ignore rules, which
// live in the working tree, are applied each time it is read. verify's
// rebuild neither reads nor writes it.

// DiffsFile is the file's name in the canon folder.
const DiffsFile = "diffs"

var diffCacheMagic = []byte("canon diffs 1\n")

// Bounds: the pairs kept, the changes of one pair, the file's size.
const (
	diffCachePairs   = 4096
	diffCacheChanges = 2048
	diffCacheBytes   = 16 << 20
)

type diffKey [2]plumbing.Hash

// Change is one file that differs between two commits' trees: its blob
// ids, hex, "" when absent on that side (gitsync's Change).
type Change struct {
	Path     string
	From, To string
}

// Diffs holds diffs by their two commits, read from the file on first
// use; used numbers them by when they were last used, and fresh says
// whether this call added one. A nil *Diffs keeps nothing.
type Diffs struct {
	path, root string
	roots      [sha1.Size]byte
	loaded     bool
	diffs      map[diffKey][]Change
	order      []diffKey // as read, then as added
	used       map[diffKey]int
	clock      int
	fresh      bool
}

// NewDiffs is the cache of the canon folder dir for roots, read when
// first asked.
func NewDiffs(dir string, roots []string) *Diffs {
	return &Diffs{path: filepath.Join(dir, DiffsFile), root: dir, roots: sha1.Sum([]byte(strings.Join(roots, "\x00")))}
}

// load reads the file once; a missing, damaged or foreign file, or one of
// other roots, gives an empty cache.
func (c *Diffs) load() {
	if c.loaded {
		return
	}
	c.loaded = true
	c.diffs, c.used = map[diffKey][]Change{}, map[diffKey]int{}
	data, err := safepath.ReadFile(c.path, diffCacheBytes+1<<20, c.root)
	if err != nil {
		return
	}
	if err := c.decode(data); err != nil {
		c.diffs, c.order = map[diffKey][]Change{}, nil
	}
	for i, k := range c.order {
		c.used[k] = i
	}
	c.clock = len(c.order)
}

var errDiffCache = errors.New("not a diff cache canon wrote for these roots")

// decode reads the file: magic, the roots' fingerprint, then per pair its
// two commits, its count of changes, and each change's path (its length
// first), which sides it has and their blobs; a SHA-1 of all of it last.
func (c *Diffs) decode(data []byte) error {
	head := len(diffCacheMagic) + sha1.Size
	if len(data) < head+sha1.Size || !bytes.HasPrefix(data, diffCacheMagic) || !bytes.Equal(data[len(diffCacheMagic):head], c.roots[:]) {
		return errDiffCache
	}
	body, sum := data[:len(data)-sha1.Size], data[len(data)-sha1.Size:]
	if got := sha1.Sum(body); !bytes.Equal(got[:], sum) {
		return errDiffCache
	}
	rest := body[head:]
	for len(rest) > 0 {
		if len(rest) < 40 || len(c.order) >= diffCachePairs {
			return errDiffCache
		}
		var k diffKey
		copy(k[0][:], rest[:20])
		copy(k[1][:], rest[20:40])
		n, w := binary.Uvarint(rest[40:])
		if w <= 0 || n > diffCacheChanges {
			return errDiffCache
		}
		rest = rest[40+w:]
		changes := make([]Change, 0, n)
		for range n {
			var ch Change
			var err error
			if ch, rest, err = decodeChange(rest); err != nil {
				return err
			}
			changes = append(changes, ch)
		}
		if _, dup := c.diffs[k]; dup {
			return errDiffCache
		}
		c.diffs[k] = changes
		c.order = append(c.order, k)
	}
	return nil
}

func decodeChange(b []byte) (Change, []byte, error) {
	n, w := binary.Uvarint(b)
	if w <= 0 || n == 0 || n > 4096 || uint64(len(b)-w) < n+1 {
		return Change{}, nil, errDiffCache
	}
	ch := Change{Path: string(b[w : w+int(n)])}
	b = b[w+int(n):]
	sides := b[0]
	b = b[1:]
	if sides == 0 || sides > 3 || len(b) < 20*(int(sides&1)+int(sides>>1)) {
		return Change{}, nil, errDiffCache
	}
	if sides&1 != 0 {
		ch.From, b = hex.EncodeToString(b[:20]), b[20:]
	}
	if sides&2 != 0 {
		ch.To, b = hex.EncodeToString(b[:20]), b[20:]
	}
	return ch, b, nil
}

// encode is decode's inverse, the pairs in c.order.
func (c *Diffs) encode() []byte {
	out := append(append([]byte{}, diffCacheMagic...), c.roots[:]...)
	for _, k := range c.order {
		changes := c.diffs[k]
		out = append(append(out, k[0][:]...), k[1][:]...)
		out = binary.AppendUvarint(out, uint64(len(changes)))
		for _, ch := range changes {
			out = binary.AppendUvarint(out, uint64(len(ch.Path)))
			out = append(out, ch.Path...)
			var sides byte
			if ch.From != "" {
				sides |= 1
			}
			if ch.To != "" {
				sides |= 2
			}
			out = append(out, sides)
			for _, h := range []string{ch.From, ch.To} {
				if h != "" {
					raw, _ := hex.DecodeString(h) // blob ids from trees: 40 hex digits
					out = append(out, raw...)
				}
			}
		}
	}
	sum := sha1.Sum(out)
	return append(out, sum[:]...)
}

func diffKeyOf(from, to string) (diffKey, bool) {
	var k diffKey
	if len(from) != 40 || len(to) != 40 || !plumbing.IsHash(from) || !plumbing.IsHash(to) {
		return k, false
	}
	k[0], k[1] = plumbing.NewHash(from), plumbing.NewHash(to)
	return k, true
}

// Get is the kept diff from → to, and marks it used.
func (c *Diffs) Get(from, to string) ([]Change, bool) {
	k, ok := diffKeyOf(from, to)
	if c == nil || !ok {
		return nil, false
	}
	c.load()
	changes, ok := c.diffs[k]
	if ok {
		c.clock++
		c.used[k] = c.clock
	}
	return changes, ok
}

// Has says whether the diff from → to is kept.
func (c *Diffs) Has(from, to string) bool {
	k, ok := diffKeyOf(from, to)
	if c == nil || !ok {
		return false
	}
	c.load()
	_, ok = c.diffs[k]
	return ok
}

// Put keeps a diff (one of more than diffCacheChanges changes is not kept).
func (c *Diffs) Put(from, to string, changes []Change) {
	k, ok := diffKeyOf(from, to)
	if c == nil || !ok || len(changes) > diffCacheChanges {
		return
	}
	for _, ch := range changes {
		if len(ch.Path) == 0 || len(ch.Path) > 4096 || ch.From != "" && len(ch.From) != 40 || ch.To != "" && len(ch.To) != 40 {
			return
		}
	}
	c.load()
	if _, had := c.diffs[k]; !had {
		c.order = append(c.order, k)
	}
	c.diffs[k] = changes
	c.clock++
	c.used[k], c.fresh = c.clock, true
}

// Save writes the cache when this call added a diff, least recently
// used first, and those left out past the bounds. A failure only means
// the next call diffs again.
func (c *Diffs) Save() {
	if c == nil || !c.fresh {
		return
	}
	sort.Slice(c.order, func(i, j int) bool { return c.used[c.order[i]] < c.used[c.order[j]] })
	if n := len(c.order); n > diffCachePairs {
		for _, k := range c.order[:n-diffCachePairs] {
			delete(c.diffs, k)
		}
		c.order = c.order[n-diffCachePairs:]
	}
	data := c.encode()
	for len(data) > diffCacheBytes && len(c.order) > 0 {
		drop := max(1, len(c.order)/4)
		for _, k := range c.order[:drop] {
			delete(c.diffs, k)
		}
		c.order = c.order[drop:]
		data = c.encode()
	}
	if err := safepath.WriteFile(c.path, data, 0o644, c.root); err == nil {
		c.fresh = false
	}
}
