package gitsync

import (
	"bytes"
	"compress/zlib"
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// everyObject lists the commits and every tree and blob they hold.
func everyObject(t *testing.T, dir string, commits []string) []plumbing.Hash {
	var ids []plumbing.Hash
	for _, c := range commits {
		ids = append(ids, plumbing.NewHash(c))
		for _, line := range strings.Split(git(t, dir, "ls-tree", "-r", "-t", c), "\n") {
			ids = append(ids, plumbing.NewHash(strings.Fields(line)[2]))
		}
	}
	return ids
}

// TestPackReaderAgreesWithGoGit reads every object through packread.go,
// with deltas by offset and by id, from a mapped pack and through the
// file, and compares it with go-git's storage.
func TestPackReaderAgreesWithGoGit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ofs    bool
		mapped bool
	}{{"ofs-delta", true, true}, {"ref-delta", false, true}, {"ofs-delta read", true, false}} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && (!tc.ofs || !tc.mapped) {
				t.Skip("slow (a repository of its own per way): -short reads the ofs-delta pack mapped, as the hooks do; make test reads it every way")
			}
			dir, commits := packedRepo(t)
			if !tc.ofs {
				git(t, dir, "-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq", "--depth=50")
			}
			gg := filesystem.NewStorage(osfs.New(filepath.Join(dir, ".git")), cache.NewObjectLRUDefault())
			po := openPackObjects(filepath.Join(dir, ".git", "objects"), func() storerFallback { return gg })
			if po == nil || len(po.packs) != 1 {
				t.Fatal("openPackObjects refused the pack")
			}
			defer po.Close()
			if !tc.mapped {
				f, err := os.Open(po.packs[0].path)
				if err != nil {
					t.Fatal(err)
				}
				st, _ := f.Stat()
				po.packs[0].data = &packData{file: f, size: st.Size()}
			}
			deltas := 0
			for _, h := range everyObject(t, dir, commits) {
				typ, got, err := po.raw(h)
				if err != nil {
					t.Fatalf("%s: %v", h, err)
				}
				want, err := gg.EncodedObject(plumbing.AnyObject, h)
				if err != nil {
					t.Fatal(err)
				}
				if typ != want.Type() || string(got) != read(t, want) {
					t.Fatalf("%s: %s of %d bytes, go-git %s of %d", h, typ, len(got), want.Type(), want.Size())
				}
				if off, err := po.packs[0].idx.FindOffset(h); err == nil {
					hd, err := po.packs[0].data.header(off)
					if err != nil {
						t.Fatal(err)
					}
					if hd.typ == packOfsDelta || hd.typ == packRefDelta {
						deltas++
						if (hd.typ == packOfsDelta) != tc.ofs {
							t.Fatalf("%s: a delta of type %d", h, hd.typ)
						}
					}
				}
			}
			if deltas < 10 {
				t.Fatalf("only %d deltas read", deltas)
			}
		})
	}
}

// TestPackReaderDamagedPack: a pack with any byte changed is read as it
// was or refused with an error, never a panic or a wrong object that
// passes.
func TestPackReaderDamagedPack(t *testing.T) {
	dir, commits := packedRepo(t)
	ids := everyObject(t, dir, commits[:len(commits)-1]) // the last is loose
	packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*.pack"))
	orig, err := os.ReadFile(packs[0])
	if err != nil {
		t.Fatal(err)
	}
	gg := filesystem.NewStorage(osfs.New(filepath.Join(dir, ".git")), cache.NewObjectLRUDefault())
	want := map[plumbing.Hash]string{}
	for _, h := range ids {
		o, err := gg.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			t.Fatal(err)
		}
		want[h] = read(t, o)
	}
	must.OK(t, os.Chmod(packs[0], 0o644))
	step := max(1, len(orig)/97)
	for at := 12; at < len(orig)-20; at += step {
		damaged := bytes.Clone(orig)
		damaged[at] ^= 0x5a
		if err := os.WriteFile(packs[0], damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		po := openPackObjects(filepath.Join(dir, ".git", "objects"), func() storerFallback { return gg })
		for _, h := range ids {
			_, got, err := po.raw(h)
			if err == nil && string(got) != want[h] {
				// zlib's checksum catches a changed stream; a changed
				// header must not yield another object silently.
				t.Errorf("byte %d changed: %s read as other content without an error", at, h)
			}
		}
		po.Close()
	}
}

func TestApplyDelta(t *testing.T) {
	base := bytes.Repeat([]byte("0123456789abcdef"), 0x2000) // 128 KiB
	// src size, dst size (0x10000+3), copy 0x10000 bytes from 0 (size
	// bytes absent: 0x10000), insert "xyz".
	delta := []byte{0x80, 0x80, 0x08, 0x83, 0x80, 0x04, 0x80, 3, 'x', 'y', 'z'}
	got, err := applyDelta(base, delta)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, append(bytes.Clone(base[:0x10000]), "xyz"...)) {
		t.Fatalf("got %d bytes", len(got))
	}
	for _, bad := range [][]byte{
		{0x80, 0x80, 0x08, 3, 0},                   // the reserved instruction
		{0x80, 0x80, 0x08, 3, 5, 'x'},              // an insert past the end
		{0x80, 0x80, 0x08, 3, 0x91, 0xff, 0xff},    // a copy past the base
		{0x80, 0x80, 0x07, 3, 3, 'x', 'y', 'z'},    // a base of another size
		{0x80, 0x80, 0x08, 4, 3, 'x', 'y', 'z'},    // shorter than it says
		{0x80, 0x80, 0x08, 2, 3, 'x', 'y', 'z'},    // longer than it says
		{0x80, 0x80, 0x08, 0xff, 0xff, 0xff, 0xff}, // a size that never ends
	} {
		if _, err := applyDelta(base, bad); err == nil {
			t.Errorf("delta % x applied", bad)
		}
	}
}

// TestInflateDistrustsTheHeader: a pack that claims an object far larger
// than its stream holds, or larger than canon reads, is a damaged pack,
// not an allocation of what it claims (a hostile clone).
func TestInflateDistrustsTheHeader(t *testing.T) {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	_, err := w.Write([]byte("tree 0123456789"))
	must.OK(t, err, w.Close())
	pack := append(z.Bytes(), make([]byte, 400<<10)...) // room for the 1032:1 bound
	d := &packData{mapped: pack, size: int64(len(pack))}
	for _, c := range []struct {
		name string
		size int64
		want string
	}{
		{"as it is", 15, ""},
		{"a little larger", 16, "shorter than its header says"},
		{"claims 200 MiB", 200 << 20, "shorter than its header says"},
		{"past canon's bound", 300 << 20, "more than canon reads"},
		{"past the pack's bound", 1 << 40, "larger than its pack can hold"},
	} {
		var inf inflater
		got, err := inf.inflate(d, 0, c.size)
		switch {
		case c.want == "" && (err != nil || string(got) != "tree 0123456789"):
			t.Errorf("%s: %q, %v", c.name, got, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// FuzzApplyDelta: whatever a pack's delta holds, applying it ends in a
// result or a damaged-pack error, never a panic or a runaway allocation.
func FuzzApplyDelta(f *testing.F) {
	base := []byte("0123456789abcdef")
	f.Add(base, []byte{16, 4, 0x91, 2, 4})          // copy 4 bytes from offset 2
	f.Add(base, []byte{16, 3, 3, 'x', 'y', 'z'})    // insert xyz
	f.Add(base, []byte{16, 0xff, 0xff, 0xff, 0x0f}) // a result size that cannot be
	f.Add(base, []byte{16, 1, 0x80})                // a copy of 0x10000 bytes
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		if _, err := applyDelta(base, delta); err != nil && !strings.HasPrefix(err.Error(), "damaged pack: ") {
			t.Fatalf("error %v is not a damaged pack", err)
		}
	})
}
