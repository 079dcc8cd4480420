package gitsync

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Sidecars (kep.yaml beside a KEP's README.md, ADR-0084) where the index
// notices a change: a racy stat, a stat walk, a commit's rename, another
// ref, the staged check.

const sidecarConfig = "sidecars:\n  - file: kep.yaml\n    id: kep-number\n    prefix: KEP-\n"

// kepRepo is a committed repository of n KEPs under keps/sig-x, each a
// README.md without frontmatter and its kep.yaml, the index built.
func kepRepo(t *testing.T, n int) (string, *Session) {
	t.Helper()
	files := map[string]string{".canon/config.yaml": sidecarConfig}
	for i := 1; i <= n; i++ {
		files[fmt.Sprintf("keps/sig-x/%d-k/README.md", i)] = fmt.Sprintf("# KEP-%d: K\n\ntext\n", i)
		files[fmt.Sprintf("keps/sig-x/%d-k/kep.yaml", i)] = fmt.Sprintf("title: K %d\nkep-number: %d\nstatus: provisional\n", i, i)
	}
	dir, s := committed(t, files)
	if _, _, err := s.Current(context.Background()); err != nil {
		t.Fatal(err)
	}
	return dir, s
}

func stateOf(t *testing.T, s *Session, ref string) string {
	t.Helper()
	d, err := s.Store.FindOne(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	return d.State
}

// TestRacyReadmeBesideSidecar: a README whose stat cannot tell an edit
// (modified since the last walk began) is compared by its stamp, its
// blob and its sidecar's: unchanged, it is no edit (the README's blob
// alone never matched the stored stamp, and every command walked); its
// kep.yaml edited in the same tick, with the same size and time, is one.
func TestRacyReadmeBesideSidecar(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, s := kepRepo(t, 1)
	if err := s.Store.SetMeta(ctx, map[string]string{"scan_ns": "1"}); err != nil {
		t.Fatal(err)
	}
	edited := func() int {
		t.Helper()
		n, racy, err := s.Store.Unread(ctx, s.Scope)
		if err != nil || n != 0 || len(racy) != 1 {
			t.Fatalf("unread %d, racy %v, %v", n, racy, err)
		}
		n, err = s.racyEdited(ctx, racy)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := edited(); n != 0 {
		t.Fatalf("nothing edited: %d racy files edited", n)
	}
	p := filepath.Join(dir, "keps/sig-x/1-k/kep.yaml")
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "keps/sig-x/1-k/kep.yaml", "title: K 1\nkep-number: 1\nstatus: implemented\n")
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if n := edited(); n != 1 {
		t.Fatalf("kep.yaml edited in the same tick: %d racy files edited, want 1", n)
	}
	if _, _, err := s.Current(ctx); err != nil {
		t.Fatal(err)
	}
	if st := stateOf(t, s, "KEP-1"); st != "implemented" {
		t.Fatalf("state %q", st)
	}
	if d := diffFromRebuild(t, s); len(d) > 0 {
		t.Fatalf("the index differs from a rebuild: %v", d)
	}
}

// TestSidecarOlderThanReadme: a kep.yaml replaced by one older than its
// README (restored with its old time: git checkout of an old version,
// touch -d, cp -p) leaves the later of the two times as it was; its
// README is read again all the same.
func TestSidecarOlderThanReadme(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, s := kepRepo(t, 1)
	readme := filepath.Join(dir, "keps/sig-x/1-k/README.md")
	side := filepath.Join(dir, "keps/sig-x/1-k/kep.yaml")
	now := time.Now()
	for p, at := range map[string]time.Time{readme: now.Add(-time.Hour), side: now.Add(-2 * time.Hour)} {
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "keps/sig-x/1-k/kep.yaml", "title: K 1\nkep-number: 1\nstatus: implementable\n")
	old := now.Add(-3 * time.Hour)
	if err := os.Chtimes(side, old, old); err != nil {
		t.Fatal(err)
	}
	if _, n, err := s.Current(ctx); err != nil || n != 1 {
		t.Fatalf("took in %d, %v; want the README", n, err)
	}
	if st := stateOf(t, s, "KEP-1"); st != "implementable" {
		t.Fatalf("state %q", st)
	}
	if d := diffFromRebuild(t, s); len(d) > 0 {
		t.Fatalf("the index differs from a rebuild: %v", d)
	}
}

// TestKEPFolderRenamed: a commit that moves a KEP's folder, README.md and
// kep.yaml together, is a rename of the README's document, as git mv of
// a document is.
func TestKEPFolderRenamed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, s := kepRepo(t, 2)
	git(t, dir, "mv", "keps/sig-x/1-k", "keps/sig-x/1-moved")
	git(t, dir, "commit", "-qm", "move")
	res, err := s.CatchUp(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Changes
	if c == nil || len(c.Renamed) != 1 || len(c.Added)+len(c.Deleted)+len(c.Modified) != 0 ||
		c.Renamed[0] != [2]string{"keps/sig-x/1-k/README.md", "keps/sig-x/1-moved/README.md"} {
		t.Fatalf("changes %+v", c)
	}
	if d := diffFromRebuild(t, s); len(d) > 0 {
		t.Fatalf("the index differs from a rebuild: %v", d)
	}
}
