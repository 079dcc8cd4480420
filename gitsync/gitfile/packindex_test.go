package gitfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// packedRepo makes a repository whose history git packed with deltas (and
// a .rev file), plus a loose commit on top.
func packedRepo(t *testing.T) (dir string, commits []string) {
	dir = t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	body := strings.Repeat("a line that stays the same in every version\n", 40)
	for i := range 30 {
		write(t, dir, "notes/a.md", fmt.Sprintf("# A\n\n%sversion %d\n", body, i))
		write(t, dir, fmt.Sprintf("notes/n%02d.md", i%7), fmt.Sprintf("note %d\n%s", i, body))
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-qm", fmt.Sprint("c", i))
		commits = append(commits, git(t, dir, "rev-parse", "HEAD"))
	}
	git(t, dir, "-c", "pack.writeReverseIndex=true", "gc", "-q", "--aggressive")
	idx, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*.idx"))
	if len(idx) != 1 || !strings.Contains(git(t, dir, "verify-pack", "-v", idx[0]), "chain length = 2") {
		t.Fatal("git packed no delta chains: the test would not read through one")
	}
	write(t, dir, "notes/a.md", "loose now\n")
	git(t, dir, "commit", "-qam", "loose")
	commits = append(commits, git(t, dir, "rev-parse", "HEAD"))
	return dir, commits
}

// TestPackIndexAgreesWithGoGit reads every entry of a real pack index both
// ways, with and without the reverse index.
func TestPackIndexAgreesWithGoGit(t *testing.T) {
	t.Parallel()
	dir, _ := packedRepo(t)
	idxs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*.idx"))
	if len(idxs) != 1 {
		t.Fatalf("want one pack, have %v", idxs)
	}
	for _, withRev := range []bool{true, false} {
		t.Run(fmt.Sprint("rev=", withRev), func(t *testing.T) {
			if !withRev {
				os.Remove(strings.TrimSuffix(idxs[0], ".idx") + ".rev")
			}
			x, err := readPackIndex(idxs[0])
			if err != nil {
				t.Fatal(err)
			}
			defer x.close()
			if (x.rev != nil) != withRev {
				t.Fatalf("reverse index read: %v, want %v", x.rev != nil, withRev)
			}
			f, err := os.Open(idxs[0])
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			want := idxfile.NewMemoryIndex()
			if err := idxfile.NewDecoder(f).Decode(want); err != nil {
				t.Fatal(err)
			}
			n, _ := want.Count()
			if got, _ := x.Count(); got != n || n < 60 {
				t.Fatalf("count %d, go-git %d", got, n)
			}
			it, _ := want.Entries()
			for {
				e, err := it.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				off, err := x.FindOffset(e.Hash)
				if err != nil || uint64(off) != e.Offset {
					t.Fatalf("FindOffset(%s) = %d, %v; want %d", e.Hash, off, err, e.Offset)
				}
				if crc, _ := x.FindCRC32(e.Hash); crc != e.CRC32 {
					t.Fatalf("FindCRC32(%s) = %x, want %x", e.Hash, crc, e.CRC32)
				}
				if h, err := x.FindHash(int64(e.Offset)); err != nil || h != e.Hash {
					t.Fatalf("FindHash(%d) = %s, %v; want %s", e.Offset, h, err, e.Hash)
				}
			}
			if _, err := x.FindHash(1); !errors.Is(err, plumbing.ErrObjectNotFound) {
				t.Errorf("FindHash of no object's offset: %v", err)
			}
			if ok, _ := x.Contains(plumbing.NewHash(strings.Repeat("ff", 20))); ok {
				t.Error("Contains an id the pack lacks")
			}
			byOff, _ := x.EntriesByOffset()
			last := int64(-1)
			for k := int64(0); ; k++ {
				e, err := byOff.Next()
				if errors.Is(err, io.EOF) {
					if k != n {
						t.Fatalf("EntriesByOffset gave %d entries, want %d", k, n)
					}
					break
				}
				if int64(e.Offset) <= last {
					t.Fatalf("EntriesByOffset out of order at %d", k)
				}
				last = int64(e.Offset)
			}
		})
	}
}

// TestStoreReadsWhatGoGitReads compares every commit and tree read
// through Store (packed with deltas, and loose) with go-git's storage.
func TestStoreReadsWhatGoGitReads(t *testing.T) {
	t.Parallel()
	dir, commits := packedRepo(t)
	objects := filepath.Join(dir, ".git", "objects")
	gg := filesystem.NewStorage(osfs.New(filepath.Join(dir, ".git")), cache.NewObjectLRUDefault())
	s := OpenStore(objects)
	if s == nil {
		t.Fatal("OpenStore refused a version 2 index")
	}
	defer s.Close()
	var ids []plumbing.Hash
	for _, c := range commits {
		ids = append(ids, plumbing.NewHash(c))
		for _, line := range strings.Split(git(t, dir, "ls-tree", "-r", "-t", c), "\n") {
			f := strings.Fields(line)
			ids = append(ids, plumbing.NewHash(f[2]))
		}
	}
	for _, h := range ids {
		typ, got, err := s.Read(h)
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
		if plumbing.ComputeHash(typ, got) != h {
			t.Fatalf("%s hashes to %s", h, plumbing.ComputeHash(typ, got))
		}
	}
	if _, _, err := s.Read(plumbing.NewHash(strings.Repeat("ab", 20))); !errors.Is(err, plumbing.ErrObjectNotFound) {
		t.Errorf("an id nobody has: %v, want not found", err)
	}
}

// TestPackIndexLargeOffsets: offsets past 2 GiB live in a table of their
// own, which no pack a test can make reaches; a hand-made index can.
func TestPackIndexLargeOffsets(t *testing.T) {
	t.Parallel()
	var data []byte
	data = append(data, 0xff, 't', 'O', 'c', 0, 0, 0, 2)
	for i := range 256 {
		n := uint32(0)
		if i >= 0x12 {
			n = 1
		}
		data = binary.BigEndian.AppendUint32(data, n)
	}
	name := make([]byte, 20)
	name[0] = 0x12
	data = append(data, name...)
	data = binary.BigEndian.AppendUint32(data, 0xdeadbeef) // CRC
	data = binary.BigEndian.AppendUint32(data, 0x80000000) // index 0 of the 64-bit table
	data = binary.BigEndian.AppendUint64(data, 5<<30)      // 5 GiB
	data = append(data, make([]byte, 40)...)               // checksums
	path := filepath.Join(t.TempDir(), "pack-x.idx")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	x, err := readPackIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	defer x.close()
	var h plumbing.Hash
	copy(h[:], name)
	if off, err := x.FindOffset(h); err != nil || off != 5<<30 {
		t.Fatalf("FindOffset = %d, %v; want %d", off, err, int64(5<<30))
	}
	if got, err := x.FindHash(5 << 30); err != nil || got != h {
		t.Fatalf("FindHash = %s, %v", got, err)
	}
	if err := os.WriteFile(path, data[:100], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readPackIndex(path); err == nil {
		t.Fatal("a truncated index was read")
	}
}
