package gitcache

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"path/filepath"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/canon-md/canon/gitsync/gitfile"
	"github.com/canon-md/canon/index/safepath"
)

// The merge-base walk after a branch switch reads the commits between
// HEAD and the oldest fork point of the refs the overlays follow: 6,000
// commits on rust-lang/rfcs with 200 refs, 9 µs each to find and inflate,
// most of a `canon ready` (issue 46). A commit never changes, so its
// parents and time are kept, once read, in a small file beside the index
// (.git/canon/commits): git's own commit-graph does the same, but a fresh
// clone has none, and canon does not write git's files. The file is
// derived (deleting it loses nothing), written whole and atomically,
// bounded, and checked when read: a file that fails its checksum or its
// shape is ignored and written anew.

// The files' names in the canon folder: the commits merge-base walks
// read, and the tips of the refs past branches.max (whose times are read
// at every command, so they are kept apart, in a file of a few
// kilobytes, rather than in the walks' cache of the history).
const (
	CommitsFile = "commits"
	TipsFile    = "tips"
)

// commitsMagic opens the file; version 1.
var commitsMagic = []byte("canon commits 1\n")

// maxParents bounds the parents a kept commit may list: an octopus merge
// of more is read from git each time.
const maxParents = 64

// Commits holds the parents and commit time of the commits walks have
// read, by id; fresh counts those added since it was loaded.
type Commits struct {
	path    string
	root    string
	limit   int
	commits map[plumbing.Hash]gitfile.Commit
	fresh   int
}

// LoadCommits reads the cache name (CommitsFile or TipsFile) of the canon
// folder dir, which keeps at most limit commits (a file of 200,000 loads in
// about a second; one of a million cost 4–5 s and 600 MB a walk); a
// missing, damaged or foreign file gives an empty cache.
func LoadCommits(dir, name string, limit int) *Commits {
	c := &Commits{path: filepath.Join(dir, name), root: dir, limit: limit, commits: map[plumbing.Hash]gitfile.Commit{}}
	data, err := safepath.ReadFile(c.path, int64(limit)*(20+8+1+2*20)+int64(len(commitsMagic))+sha1.Size, dir)
	if err != nil {
		return c
	}
	if m, err := decodeCommits(data, limit); err == nil {
		c.commits = m
	}
	return c
}

var errCommits = errors.New("not a commit cache canon wrote")

// decodeCommits reads the file's records: magic, then per commit its id,
// its time (int64), the number of its parents and their ids; a SHA-1 of
// all of it last. More than limit commits is not a file canon wrote.
func decodeCommits(data []byte, limit int) (map[plumbing.Hash]gitfile.Commit, error) {
	if len(data) < len(commitsMagic)+sha1.Size || !bytes.HasPrefix(data, commitsMagic) {
		return nil, errCommits
	}
	body, sum := data[:len(data)-sha1.Size], data[len(data)-sha1.Size:]
	if got := sha1.Sum(body); !bytes.Equal(got[:], sum) {
		return nil, errCommits
	}
	rest := body[len(commitsMagic):]
	m := map[plumbing.Hash]gitfile.Commit{}
	for len(rest) > 0 {
		if len(rest) < 20+8+1 {
			return nil, errCommits
		}
		var h plumbing.Hash
		copy(h[:], rest[:20])
		ci := gitfile.Commit{When: int64(binary.BigEndian.Uint64(rest[20:28]))}
		n := int(rest[28])
		rest = rest[29:]
		if n > maxParents || len(rest) < 20*n || len(m) >= limit {
			return nil, errCommits
		}
		ci.Parents = make([]plumbing.Hash, n)
		for i := range n {
			copy(ci.Parents[i][:], rest[20*i:])
		}
		rest = rest[20*n:]
		m[h] = ci
	}
	return m, nil
}

// encodeCommits is decodeCommits's inverse, in id order so that the same
// commits give the same bytes.
func encodeCommits(m map[plumbing.Hash]gitfile.Commit) []byte {
	ids := make([]plumbing.Hash, 0, len(m))
	for h := range m {
		ids = append(ids, h)
	}
	sort.Slice(ids, func(i, j int) bool { return bytes.Compare(ids[i][:], ids[j][:]) < 0 })
	out := append([]byte{}, commitsMagic...)
	for _, h := range ids {
		ci := m[h]
		out = append(out, h[:]...)
		out = binary.BigEndian.AppendUint64(out, uint64(ci.When))
		out = append(out, byte(len(ci.Parents)))
		for _, p := range ci.Parents {
			out = append(out, p[:]...)
		}
	}
	sum := sha1.Sum(out)
	return append(out, sum[:]...)
}

// Get returns a kept commit's parents and time (no author: the cache
// keeps none); false when it is not kept.
func (c *Commits) Get(h plumbing.Hash) (gitfile.Commit, bool) {
	ci, ok := c.commits[h]
	return ci, ok
}

// Put keeps a commit's parents and time, read from git's objects; a
// commit of more than maxParents parents, or past the cache's bound, is
// not kept.
func (c *Commits) Put(h plumbing.Hash, ci gitfile.Commit) {
	if len(ci.Parents) <= maxParents && len(c.commits) < c.limit {
		c.commits[h] = gitfile.Commit{Parents: ci.Parents, When: ci.When}
		c.fresh++
	}
}

// KeepOnly forgets every commit but those of ids (the tips that moved on,
// in the cache of the refs' tips).
func (c *Commits) KeepOnly(ids []plumbing.Hash) {
	kept := make(map[plumbing.Hash]gitfile.Commit, len(ids))
	for _, h := range ids {
		if ci, ok := c.commits[h]; ok {
			kept[h] = ci
		}
	}
	if len(kept) != len(c.commits) {
		c.commits, c.fresh = kept, c.fresh+1
	}
}

// Save writes the cache when it learned commits since it was loaded. A
// failure only means the next walk reads them again.
func (c *Commits) Save() {
	if c == nil || c.fresh == 0 {
		return
	}
	if err := safepath.WriteFile(c.path, encodeCommits(c.commits), 0o644, c.root); err == nil {
		c.fresh = 0
	}
}
