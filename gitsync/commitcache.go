package gitsync

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
// read, and the tips of the refs past branches.max (newestRefs reads
// their times at every command, so they are kept apart, in a file of a
// few kilobytes, rather than in the walks' cache of the history).
const (
	commitCacheName = "commits"
	tipCacheName    = "tips"
)

// commitCacheMagic opens the file; version 1.
var commitCacheMagic = []byte("canon commits 1\n")

// Bounds of the file: commits kept (a file of 200,000 loads in about a
// second; one of a million cost 4–5 s and 600 MB a walk), and parents a
// commit may list (an octopus merge of more is read from git each time).
const (
	commitCacheMax     = mergeBaseBudget // more than one walk reads would only cost its load
	commitCacheParents = 64
)

// commitCache holds the parents and commit time of the commits a walk has
// read, by id; fresh counts those read since it was loaded.
type commitCache struct {
	path    string
	root    string
	commits map[plumbing.Hash]gitfile.Commit
	fresh   int
}

// loadCommitCache reads the cache name of the canon folder dir; a
// missing, damaged or foreign file gives an empty cache.
func loadCommitCache(dir, name string) *commitCache {
	c := &commitCache{path: filepath.Join(dir, name), root: dir, commits: map[plumbing.Hash]gitfile.Commit{}}
	data, err := safepath.ReadFile(c.path, commitCacheMax*(20+8+1+2*20)+int64(len(commitCacheMagic))+sha1.Size, dir)
	if err != nil {
		return c
	}
	if m, err := decodeCommits(data); err == nil {
		c.commits = m
	}
	return c
}

var errCommitCache = errors.New("not a commit cache canon wrote")

// decodeCommits reads the file's records: magic, then per commit its id,
// its time (int64), the number of its parents and their ids; a SHA-1 of
// all of it last.
func decodeCommits(data []byte) (map[plumbing.Hash]gitfile.Commit, error) {
	if len(data) < len(commitCacheMagic)+sha1.Size || !bytes.HasPrefix(data, commitCacheMagic) {
		return nil, errCommitCache
	}
	body, sum := data[:len(data)-sha1.Size], data[len(data)-sha1.Size:]
	if got := sha1.Sum(body); !bytes.Equal(got[:], sum) {
		return nil, errCommitCache
	}
	rest := body[len(commitCacheMagic):]
	m := map[plumbing.Hash]gitfile.Commit{}
	for len(rest) > 0 {
		if len(rest) < 20+8+1 {
			return nil, errCommitCache
		}
		var h plumbing.Hash
		copy(h[:], rest[:20])
		ci := gitfile.Commit{When: int64(binary.BigEndian.Uint64(rest[20:28]))}
		n := int(rest[28])
		rest = rest[29:]
		if n > commitCacheParents || len(rest) < 20*n || len(m) >= commitCacheMax {
			return nil, errCommitCache
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
	out := append([]byte{}, commitCacheMagic...)
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

// get returns a commit's parents and time, from the cache or else read
// (and kept). ok is false for a commit the repository does not have.
func (c *commitCache) get(o *Objects, h plumbing.Hash) (gitfile.Commit, bool, error) {
	if ci, ok := c.commits[h]; ok {
		return ci, true, nil
	}
	ci, err := o.commit(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return gitfile.Commit{}, false, nil
	}
	if err != nil {
		return gitfile.Commit{}, false, err
	}
	ci.Author = ""
	if len(ci.Parents) <= commitCacheParents && len(c.commits) < commitCacheMax {
		c.commits[h] = ci
		c.fresh++
	}
	return ci, true, nil
}

// save writes the cache when it learned commits since it was loaded. A
// failure only means the next walk reads them again.
func (c *commitCache) save() {
	if c == nil || c.fresh == 0 {
		return
	}
	if err := safepath.WriteFile(c.path, encodeCommits(c.commits), 0o644, c.root); err == nil {
		c.fresh = 0
	}
}
