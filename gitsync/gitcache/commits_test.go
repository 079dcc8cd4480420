package gitcache

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/canon-md/canon/gitsync/gitfile"
)

// TestCommitCache: the cache gives back what it was given, in the same
// bytes for the same commits, and a damaged or foreign file is no cache.
func TestCommitCache(t *testing.T) {
	m := map[plumbing.Hash]gitfile.Commit{
		plumbing.NewHash(strings.Repeat("1", 40)): {When: 1700000000, Parents: []plumbing.Hash{plumbing.NewHash(strings.Repeat("2", 40))}},
		plumbing.NewHash(strings.Repeat("2", 40)): {When: -5, Parents: []plumbing.Hash{}},
		plumbing.NewHash(strings.Repeat("3", 40)): {When: 1, Parents: []plumbing.Hash{plumbing.NewHash(strings.Repeat("1", 40)), plumbing.NewHash(strings.Repeat("2", 40))}},
	}
	data := encodeCommits(m)
	got, err := decodeCommits(data, 10)
	if err != nil || fmt.Sprint(got) != fmt.Sprint(m) {
		t.Fatalf("decode: %v, %v", got, err)
	}
	if !bytes.Equal(encodeCommits(got), data) {
		t.Fatal("the same commits gave other bytes")
	}
	for i := range data {
		bad := append([]byte{}, data...)
		bad[i] ^= 0x40
		if _, err := decodeCommits(bad, 10); err == nil {
			t.Fatalf("a flipped byte at %d was taken", i)
		}
	}
	if _, err := decodeCommits(data[:len(data)-1], 10); err == nil {
		t.Fatal("a cut file was taken")
	}
	if _, err := decodeCommits(data, 2); err == nil {
		t.Fatal("a file of more commits than the bound was taken")
	}
}

// TestCommitsLoadWhatWasSaved: a saved cache loads with what was put in
// it, less the authors, the commits of too many parents and those past
// its bound; KeepOnly forgets the rest and is saved.
func TestCommitsLoadWhatWasSaved(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	id := func(c byte) plumbing.Hash { return plumbing.NewHash(strings.Repeat(string(c), 40)) }
	c := LoadCommits(dir, CommitsFile, 3)
	c.Put(id('1'), gitfile.Commit{Parents: []plumbing.Hash{id('2')}, Author: "Ann", When: 7})
	c.Put(id('2'), gitfile.Commit{When: 6})
	c.Put(id('3'), gitfile.Commit{Parents: make([]plumbing.Hash, maxParents+1), When: 5}) // an octopus past the bound
	c.Put(id('4'), gitfile.Commit{When: 4})
	c.Put(id('5'), gitfile.Commit{When: 3}) // past the cache's bound
	c.Save()
	back := LoadCommits(dir, CommitsFile, 3)
	if got, ok := back.Get(id('1')); !ok || got.Author != "" || got.When != 7 || len(got.Parents) != 1 || got.Parents[0] != id('2') {
		t.Fatalf("1: %+v, %v", got, ok)
	}
	for _, h := range []byte("35") {
		if _, ok := back.Get(id(h)); ok {
			t.Errorf("%c was kept", h)
		}
	}
	back.KeepOnly([]plumbing.Hash{id('2'), id('9')})
	back.Save()
	again := LoadCommits(dir, CommitsFile, 3)
	_, has1 := again.Get(id('1'))
	_, has2 := again.Get(id('2'))
	if has1 || !has2 {
		t.Fatalf("after KeepOnly(2): 1 %v, 2 %v", has1, has2)
	}
	if other := LoadCommits(dir, TipsFile, 3); len(other.commits) != 0 {
		t.Fatal("the tips' file read the commits' file")
	}
}

// FuzzDecodeCommits: whatever the file holds, decoding neither panics nor
// takes what canon did not write.
func FuzzDecodeCommits(f *testing.F) {
	f.Add(encodeCommits(map[plumbing.Hash]gitfile.Commit{plumbing.NewHash(strings.Repeat("1", 40)): {When: 3}}))
	f.Add([]byte("canon commits 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := decodeCommits(data, 200_000)
		if err == nil && !bytes.Equal(encodeCommits(m), data) {
			t.Fatalf("decoded %d commits from bytes canon would not write", len(m))
		}
	})
}
