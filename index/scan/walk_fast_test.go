//go:build linux && (amd64 || arm64)

package scan

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/canon-md/canon/index/config"
)

// TestTreeWalkMatchesWalkDir holds walkTree (getdents, fstatat, folders on
// several goroutines) to walkDir, the portable walk it replaces on Linux:
// the same files with the same stat, in the same order, and the same
// debris, on a tree with ignore rules at several depths, negations and
// "**", nested repositories, symbolic links (to a file, to a folder, out
// of the tree, a link named like a document), canon's temporary files,
// names that sort differently as folders, a folder whose listing takes
// more than one read, and after files are deleted, added and edited with
// a time the walk cannot tell from the old one. Each walk runs as on a
// file system that gives entry types and as on one that gives none.
func TestTreeWalkMatchesWalkDir(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	outside := t.TempDir()
	put := func(rel, content string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, rel string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(rel))); err != nil {
			t.Fatal(err)
		}
	}
	for rel, content := range map[string]string{
		".gitignore": "ignored/\n*.tmp.md\n/anchored.md\n!keep.tmp.md\n",
		"a.md":       "x", "a/x.md": "x", "a-b.md": "x", "a-b/y.md": "x", "a0.md": "x", "a0/z.md": "x",
		"a.md.d/in.md": "x", "a/b/c/deep.md": "x", "a/x.tmp.md": "x", "a/keep.tmp.md": "x",
		"anchored.md": "x", "a/anchored.md": "x", "ignored/no.md": "x", "b/ignored/no.md": "x",
		"nested/.git/HEAD": "x", "nested/n.md": "x", "sub/.git": "gitdir: ../x", "sub/s.md": "x",
		"notes.txt": "x", "UPPER.MD": "x", ".md": "x", ".hidden/h.md": "x",
		"b/.gitignore": "!*.tmp.md\nsecret.md\n", "b/s.tmp.md": "x", "b/secret.md": "x", "b/c/secret.md": "x",
		"c/d/.gitignore": "**/gen/\n*.md\n!keep*.md\n", "c/d/gen/g.md": "x", "c/d/e/gen/g.md": "x", "c/gen/g.md": "x",
		"c/d/keep.md": "x", "c/d/drop.md": "x", "c/d/e/keep2.md": "x",
		".cache/cached.md": "x", "sp ace/é.md": "x", "a/.x.md.canon-tmp-123-4": "x", ".y.md.canon-tmp-9-9": "x",
	} {
		put(rel, content)
	}
	for i := range 40 { // canon's temporary names in another repository: never debris
		put(fmt.Sprintf("nested/.n%02d.md.canon-tmp-1-1", i), "x")
		put(fmt.Sprintf("sub/.s%02d.md.canon-tmp-1-1", i), "x")
	}
	for i := range 1500 { // over one getdents read
		put(fmt.Sprintf("big/%04d_%s.md", i, strings.Repeat("n", 40)), strings.Repeat("y", i%7))
	}
	if err := os.WriteFile(filepath.Join(outside, "out.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link("a.md", "link.md")
	link("a", "linkdir")
	link("a", "linkdir.md")
	link(outside, "out")
	link(filepath.Join(outside, "out.md"), "a/out.md")
	link("b", "a/b/c/up")
	link("nowhere.md", "dangling.md")

	check := func(step string) {
		t.Helper()
		for _, cfg := range []*config.Config{config.Default(), {Roots: []string{"a", "a/b", "big", "c", "link.md", "none"}}} {
			want := NewScope(root, cfg, "")
			want.portable = true
			wantFiles, err := want.Walk()
			if err != nil {
				t.Fatal(err)
			}
			for _, unknown := range []bool{false, true} {
				got := NewScope(root, cfg, "")
				got.direntTypesUnknown = unknown
				files, err := got.Walk()
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(files, wantFiles) {
					t.Errorf("%s, roots %v, no types %v: walkTree listed\n%v\nwant (walkDir)\n%v", step, cfg.Roots, unknown, files, wantFiles)
				}
				slices.Sort(got.debris)
				slices.Sort(want.debris)
				if !slices.Equal(got.debris, want.debris) || len(got.debris) == 0 {
					t.Errorf("%s, roots %v: debris %v, want %v", step, cfg.Roots, got.debris, want.debris)
				}
			}
			if len(wantFiles) < 1500 {
				t.Fatalf("%s: the walk listed only %d files", step, len(wantFiles))
			}
		}
	}
	check("first")
	for _, rel := range []string{"a/x.md", "big/0007_" + strings.Repeat("n", 40) + ".md", "c/d/keep.md"} {
		if err := os.Remove(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
			t.Fatal(err)
		}
	}
	put("a/new.md", "new")
	put("new/folder/n.md", "new")
	// An edit of the same size whose time is set back to what it was.
	p := filepath.Join(root, "a0.md")
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	put("a0.md", "y")
	if err := os.Chtimes(p, time.Time{}, info.ModTime()); err != nil {
		t.Fatal(err)
	}
	check("after deletes, adds and a racy edit")
}

// TestEntriesDamagedListing: a listing whose record lengths run past it
// or hold no name is an error of the folder, not a shorter folder (whose
// files the index would then drop as deleted).
func TestEntriesDamagedListing(t *testing.T) {
	t.Parallel()
	record := func(reclen uint16, name string) []byte {
		r := make([]byte, 24)
		binary.NativeEndian.PutUint16(r[16:], reclen)
		r[18] = unix.DT_REG
		copy(r[19:], name)
		return r
	}
	for name, buf := range map[string][]byte{
		"a length of 0":           record(0, "a.md"),
		"a length past the end":   record(48, "a.md"),
		"no name":                 record(24, ""),
		"a good one, then a zero": append(record(24, "a.md"), record(0, "b.md")...),
	} {
		tw := &treeWalk{s: NewScope(t.TempDir(), config.Default(), "")}
		f := &folder{rel: "x", abs: "/x"}
		if skip, _ := tw.entries(f, -1, &scratch{buf: buf}); !skip || f.err == nil {
			t.Errorf("%s: read as a listing (err %v)", name, f.err)
		}
	}
	tw := &treeWalk{s: NewScope(t.TempDir(), config.Default(), "")}
	f := &folder{rel: "x", abs: "/x"}
	sc := &scratch{buf: record(24, "a.md")}
	if skip, _ := tw.entries(f, -1, sc); skip || f.err != nil || len(sc.ents) != 1 || sc.ents[0].path != "x/a.md" {
		t.Errorf("a good record: skip %v, err %v, entries %v", skip, f.err, sc.ents)
	}
}
