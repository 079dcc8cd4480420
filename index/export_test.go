package index

import (
	"context"
	"database/sql"
	"errors"
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/config"
)

// subsetCorpus is a few linked documents, with a duplicate id and a
// dangling reference, so that every kind of link row is there.
var subsetCorpus = map[string]string{
	"items/a.md":  "---\nid: A-1\ntitle: Alpha\n---\n# Alpha\nSee [[B-1]] and [c](c.md) and [[nowhere]].\n## Notes\nalpha words\n",
	"items/b.md":  "---\nid: B-1\ntitle: Beta\nparent: A-1\nlinks:\n  blocked_by: [C-1]\n---\n# Beta\nbeta words\n",
	"items/c.md":  "---\nid: C-1\ntitle: Gamma\nparent: A-1\n---\n# Gamma\ngamma words, see [[D-1]]\n",
	"items/d.md":  "---\nid: D-1\ntitle: Delta\n---\n# Delta\ndelta words\n",
	"items/d2.md": "---\nid: D-1\ntitle: Delta twin\n---\n# Twin\n",
}

func subsetIndex(t *testing.T) (*Store, string) {
	t.Helper()
	return corpusIndex(t, subsetCorpus)
}

// corpusIndex builds an index of files (path: content) and returns it
// and its path.
func corpusIndex(t *testing.T, files map[string]string) (*Store, string) {
	t.Helper()
	ctx := context.Background()
	root := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(root, rel)
		must.OK(t, os.MkdirAll(filepath.Dir(p), 0o755))
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := config.Default()
	path := filepath.Join(t.TempDir(), "index.db")
	st, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Rebuild(ctx, NewLoader(root, cfg), mustWalk(t, root, cfg), nil, nil); err != nil {
		t.Fatal(err)
	}
	return st, path
}

// wantSubset is the full index's dump restricted to the documents at the
// given paths: a link to a document outside has no target.
func wantSubset(full []string, paths ...string) []string {
	in := map[string]bool{}
	for _, p := range paths {
		in[p] = true
	}
	var out []string
	for _, line := range full {
		f := strings.Split(line, "\t")
		if f[0] == "skipped" || !in[f[1]] {
			continue
		}
		if f[0] == "link" && f[len(f)-1] != "∅" && !in[f[len(f)-1]] {
			f[len(f)-1] = "∅"
		}
		out = append(out, strings.Join(f, "\t"))
	}
	sort.Strings(out)
	return out
}

func keysOf(t *testing.T, st *Store, paths ...string) []string {
	var out []string
	for _, p := range paths {
		var k string
		if err := st.db.QueryRow(`SELECT key FROM docs WHERE path = ?`, p).Scan(&k); err != nil {
			t.Fatal(p, err)
		}
		out = append(out, k)
	}
	return out
}

func TestCopySubset(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src, srcPath := subsetIndex(t)
	full, err := src.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	open := func() *Store {
		st, fresh, err := Open(filepath.Join(t.TempDir(), "ws.db"))
		if err != nil || !fresh {
			t.Fatal(fresh, err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	check := func(st *Store, paths ...string) {
		t.Helper()
		got, err := st.Dump(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := DiffDumps(wantSubset(full, paths...), got); len(diff) > 0 {
			t.Fatalf("subset differs (- want, + got):\n%s", strings.Join(diff, "\n"))
		}
	}

	// At once.
	once := open()
	n, err := once.copyFrom(ctx, srcPath, keysOf(t, src, "items/a.md", "items/b.md", "items/d.md", "items/d2.md"), SubsetOptions{}, nil)
	if err != nil || n != 4 {
		t.Fatalf("copied %d, %v", n, err)
	}
	check(once, "items/a.md", "items/b.md", "items/d.md", "items/d2.md")

	// In two steps: the second brings c, and a's link to c finds it.
	steps := open()
	if _, err := steps.copyFrom(ctx, srcPath, keysOf(t, src, "items/a.md", "items/b.md"), SubsetOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	check(steps, "items/a.md", "items/b.md")
	n, err = steps.copyFrom(ctx, srcPath, append(keysOf(t, src, "items/c.md", "items/a.md"), "no-such-key"), SubsetOptions{}, nil)
	if err != nil || n != 1 {
		t.Fatalf("second step copied %d, %v", n, err)
	}
	check(steps, "items/a.md", "items/b.md", "items/c.md")

	// The full-text reads (a search's) and Show read the copy like an index.
	hits, err := exact(ctx, steps, `"gamma"`, 10)
	if err != nil || len(hits) != 1 || hits[0].Path != "items/c.md" {
		t.Fatalf("search = %+v, %v", hits, err)
	}
	if hits, _ := exact(ctx, steps, `"delta"`, 10); len(hits) != 0 {
		t.Fatalf("search found a document outside the subset: %+v", hits)
	}

	// Replace: the copy becomes the whole content; then runs in the
	// transaction, and its failure undoes the copy.
	n, err = steps.copyFrom(ctx, srcPath, keysOf(t, src, "items/d.md"), SubsetOptions{Replace: true}, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO meta(key, value) VALUES ('subset', 'd')`)
		return err
	})
	if err != nil || n != 1 {
		t.Fatalf("replace copied %d, %v", n, err)
	}
	check(steps, "items/d.md")
	if v, _ := steps.Meta("subset"); v != "d" {
		t.Fatalf("then did not run in the copy: meta subset = %q", v)
	}
	_, err = steps.copyFrom(ctx, srcPath, keysOf(t, src, "items/a.md"), SubsetOptions{Replace: true}, func(*sql.Tx) error {
		return errors.New("no")
	})
	if err == nil {
		t.Fatal("a failing then was not reported")
	}
	check(steps, "items/d.md")

	if _, err := steps.copyFrom(ctx, filepath.Join(t.TempDir(), "missing.db"), nil, SubsetOptions{}, nil); err == nil {
		t.Fatal("a missing source was accepted")
	}
}
