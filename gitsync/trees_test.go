package gitsync

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"fmt"
	"github.com/canon-md/canon/index/indextest/must"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// writeLoose stores a tree object the way git does, loose, and returns its id.
func writeLoose(t *testing.T, objects string, content []byte) plumbing.Hash {
	t.Helper()
	raw := append([]byte(fmt.Sprintf("tree %d\x00", len(content))), content...)
	h := plumbing.Hash(sha1.Sum(raw))
	p := filepath.Join(objects, h.String()[:2], h.String()[2:])
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	_, err := w.Write(raw)
	must.OK(t, err, w.Close())
	if err := os.WriteFile(p, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return h
}

type rawEntry struct {
	mode string
	name string
	hash plumbing.Hash
}

// treeBytes writes entries in git's order.
func treeBytes(es []rawEntry) []byte {
	sort.Slice(es, func(i, j int) bool {
		a := treeEntry{name: []byte(es[i].name), mode: modeOf(es[i].mode)}
		b := treeEntry{name: []byte(es[j].name), mode: modeOf(es[j].mode)}
		return compareEntries(&a, &b) < 0
	})
	var b bytes.Buffer
	for _, e := range es {
		b.WriteString(e.mode + " " + e.name + "\x00")
		b.Write(e.hash[:])
	}
	return b.Bytes()
}

func modeOf(m string) filemode.FileMode {
	e, _, _ := nextEntry([]byte(m + " x\x00" + strings.Repeat("0", 20)))
	return e.mode
}

// TestDiffSkipsSharedEntries: the walk that skips the entries two trees
// share at their start and end reports what a merge of the whole trees
// reports, on random pairs of trees whose ids are made of spaces, zero
// bytes and letters (so that shared bytes end inside entries), and refuses
// the same malformed trees.
func TestDiffSkipsSharedEntries(t *testing.T) {
	objects := filepath.Join(t.TempDir(), "objects")
	o := &Objects{packs: &packObjects{dir: objects}}
	sub1 := writeLoose(t, objects, treeBytes([]rawEntry{{"100644", "x.md", plumbing.Hash{1}}}))
	sub2 := writeLoose(t, objects, treeBytes([]rawEntry{{"100644", "x.md", plumbing.Hash{2}}}))
	rng := rand.New(rand.NewSource(1))
	names := []string{"a", "a.md", "a-b", "a b", "ab", "b", "b.md", "b\x01", "c", " ", "0", "a.md.md"}
	hashes := []plumbing.Hash{}
	for _, c := range []byte{' ', 0, 'a', '1', 0x80} {
		var h plumbing.Hash
		for i := range h {
			h[i] = c
		}
		hashes = append(hashes, h)
	}
	modes := []string{"100644", "100755", "120000", "160000", "40000"}
	entry := func(name string) rawEntry {
		m := modes[rng.Intn(len(modes))]
		h := hashes[rng.Intn(len(hashes))]
		if m == "40000" {
			h = []plumbing.Hash{sub1, sub2}[rng.Intn(2)]
		}
		return rawEntry{m, name, h}
	}
	compare := func(round int, ha, hb plumbing.Hash) {
		t.Helper()
		var got, want []TreeChange
		gerr := o.diff("", ha, hb, Filter{}, func(c TreeChange) { got = append(got, c) })
		ta, _ := o.readTree(ha)
		tb, _ := o.readTree(hb)
		werr := o.merge("", ta, tb, Filter{}, func(c TreeChange) { want = append(want, c) })
		if (gerr == nil) != (werr == nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: got %v, %v; want %v, %v\na=%q\nb=%q", round, got, gerr, want, werr, ta, tb)
		}
	}
	// The bytes both trees end with start inside an entry of b: a ends
	// with the entry "1 q\0" and an id, b with "100644 x1 q\0" and the
	// same id.
	hh := hashes[2]
	compare(-1, writeLoose(t, objects, treeBytes([]rawEntry{{"100644", "a", hashes[0]}, {"1", "q", hh}})),
		writeLoose(t, objects, treeBytes([]rawEntry{{"100644", "x1 q", hh}})))
	rounds := 1000
	if testing.Short() {
		rounds = 100 // make test runs all 1,000
	}
	for round := 0; round < rounds; round++ {
		var a []rawEntry
		for _, n := range names {
			if rng.Intn(3) > 0 {
				a = append(a, entry(n+fmt.Sprint(rng.Intn(3))))
			}
		}
		a = dedupe(a)
		b := append([]rawEntry{}, a...)
		for k := rng.Intn(3); k >= 0; k-- {
			switch i := rng.Intn(len(b) + 1); {
			case i == len(b) || rng.Intn(3) == 0:
				b = append(b, entry(names[rng.Intn(len(names))]+fmt.Sprint(rng.Intn(3))))
			case rng.Intn(2) == 0:
				b = append(b[:i], b[i+1:]...)
			default:
				b[i] = entry(b[i].name)
			}
		}
		b = dedupe(b)
		compare(round, writeLoose(t, objects, treeBytes(a)), writeLoose(t, objects, treeBytes(b)))
	}
	// A tree out of git's order is refused, whether the disorder is in the
	// part both trees share or in the part only one holds.
	good := []rawEntry{{"100644", "a", hashes[2]}, {"100644", "b", hashes[2]}, {"100644", "c", hashes[2]}}
	unsorted := func(es []rawEntry) plumbing.Hash {
		var b bytes.Buffer
		for _, e := range es {
			b.WriteString(e.mode + " " + e.name + "\x00")
			b.Write(e.hash[:])
		}
		return writeLoose(t, objects, b.Bytes())
	}
	sortedH := writeLoose(t, objects, treeBytes(append([]rawEntry{}, good...)))
	for _, bad := range [][]rawEntry{
		{good[1], good[0], good[2]},
		{good[0], good[2], good[1]},
		{good[0], {"100644", "b", hashes[3]}, good[1], good[2]},
	} {
		h := unsorted(bad)
		for _, pair := range [][2]plumbing.Hash{{sortedH, h}, {h, sortedH}} {
			err := o.diff("", pair[0], pair[1], Filter{}, func(TreeChange) {})
			if err == nil || !strings.Contains(err.Error(), "not sorted") {
				t.Errorf("%v: %v, want it refused as not sorted", bad, err)
			}
		}
	}
}

func dedupe(es []rawEntry) []rawEntry {
	seen := map[string]bool{}
	var out []rawEntry
	for _, e := range es {
		if !seen[e.name] {
			seen[e.name] = true
			out = append(out, e)
		}
	}
	return out
}
