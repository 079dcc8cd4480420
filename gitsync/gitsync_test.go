package gitsync

import (
	"context"
	"errors"
	"fmt"
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/scan"
	"github.com/canon-md/canon/index/search"
	"github.com/go-git/go-git/v5/plumbing"
)

// git runs git in dir with a private identity.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(ScrubbedEnv(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// diffFromRebuild rebuilds the session's index from nothing and lists how
// the index as it was differs from the rebuilt one (none when equal).
func diffFromRebuild(t *testing.T, s *Session) []string {
	t.Helper()
	ctx := context.Background()
	live, err := s.Store.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Rebuild(ctx, ""); err != nil {
		t.Fatal(err)
	}
	fresh, err := s.Store.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return index.DiffDumps(live, fresh)
}

func write(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// committed makes a repository holding files, commits them and opens a
// session on it, closed when the test ends. The index is not built yet.
func committed(t *testing.T, files map[string]string) (string, *Session) {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	for p, c := range files {
		write(t, dir, p, c)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "one")
	s, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return dir, s
}

func TestHeadReadsRefsWithoutGit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c, ref, err := r.Head(); err != nil || c != "" || ref != "refs/heads/main" {
		t.Fatalf("unborn: %q %q %v", c, ref, err)
	}
	write(t, dir, "a.md", "# A\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "one")
	want := git(t, dir, "rev-parse", "HEAD")
	for _, step := range []string{"loose", "packed", "detached"} {
		switch step {
		case "packed":
			git(t, dir, "pack-refs", "--all")
			if _, err := os.Stat(filepath.Join(dir, ".git/refs/heads/main")); err == nil {
				t.Fatal("pack-refs left a loose ref")
			}
		case "detached":
			git(t, dir, "checkout", "-q", "--detach")
		}
		c, ref, err := r.Head()
		if err != nil || c != want {
			t.Fatalf("%s: Head() = %q, %q, %v; want %q", step, c, ref, err, want)
		}
		if step == "detached" && ref != "" {
			t.Fatalf("detached HEAD reported ref %q", ref)
		}
	}
}

func TestDiscoverLinkedWorktree(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	main := filepath.Join(dir, "main")
	must.OK(t, os.Mkdir(main, 0o755))
	git(t, main, "init", "-q", "-b", "main")
	write(t, main, "a.md", "# A\n")
	git(t, main, "add", "-A")
	git(t, main, "commit", "-qm", "one")
	git(t, main, "worktree", "add", "-q", "-b", "wt", "../wt")
	must.OK(t, os.Mkdir(filepath.Join(dir, "wt", "sub"), 0o755))
	r, err := Discover(filepath.Join(dir, "wt", "sub"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(r.GitDir, filepath.Join(".git", "worktrees", "wt")) || !strings.HasSuffix(r.CommonDir, filepath.Join("main", ".git")) {
		t.Fatalf("GitDir %s CommonDir %s", r.GitDir, r.CommonDir)
	}
	if !strings.HasSuffix(r.IndexPath(), filepath.Join("worktrees", "wt", "canon", "index.db")) {
		t.Fatalf("IndexPath %s", r.IndexPath())
	}
	if _, err := Discover(t.TempDir()); !errors.Is(err, ErrNotRepo) {
		t.Fatalf("outside a repository: %v", err)
	}
}

func TestDiffTrees(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "docs/a.md", "a")
	write(t, dir, "docs/b.md", "b")
	write(t, dir, "deep/x/y/c.md", "c")
	write(t, dir, "skip/d.md", "d")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "one")
	first := git(t, dir, "rev-parse", "HEAD")
	write(t, dir, "docs/a.md", "a2")
	os.Remove(filepath.Join(dir, "docs/b.md"))
	write(t, dir, "deep/x/y/new.md", "n")
	write(t, dir, "skip/d.md", "d2")
	git(t, dir, "mv", "deep/x/y/c.md", "deep/c.md")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "two")
	r, _ := Discover(dir)
	o := OpenObjects(r)
	defer o.Close()
	a, err := o.CommitTree(first)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := r.Head()
	b, _ := o.CommitTree(head)
	changes, err := o.DiffTrees(a, b, Filter{Dir: func(d string) bool { return d != "skip" }})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		kind := "M"
		switch {
		case c.From == "":
			kind = "A"
		case c.To == "":
			kind = "D"
		}
		got = append(got, kind+" "+c.Path)
	}
	sort.Strings(got)
	want := []string{"A deep/c.md", "A deep/x/y/new.md", "D deep/x/y/c.md", "D docs/b.md", "M docs/a.md"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Fatalf("changes = %v, want %v", got, want)
	}
	if _, err := o.CommitTree(strings.Repeat("1", 40)); err == nil {
		t.Fatal("a missing commit was read")
	}
	if h, _ := o.CommitTree(""); h != plumbing.ZeroHash {
		t.Fatal("no commit should be the empty tree")
	}
}

func TestStagedAndTree(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	r, _ := Discover(dir)
	write(t, dir, "Docs/A.md", "a")
	git(t, dir, "add", "-A")
	staged, err := r.Staged(context.Background())
	if err != nil || len(staged) != 1 || staged[0].Status != 'A' || staged[0].Path != "Docs/A.md" {
		t.Fatalf("staged before the first commit: %+v %v", staged, err)
	}
	git(t, dir, "commit", "-qm", "one")
	git(t, dir, "rm", "-q", "Docs/A.md")
	staged, _ = r.Staged(context.Background())
	if len(staged) != 1 || staged[0].Status != 'D' || staged[0].OID != "" {
		t.Fatalf("staged deletion: %+v", staged)
	}
	git(t, dir, "reset", "-q", "HEAD", "Docs/A.md")
	tree := &GitTree{Repo: r}
	exists, folded, err := tree.Lookup(context.Background(), []string{"Docs/A.md", "docs/a.md", "Docs", "docs", "nope.md"})
	if err != nil {
		t.Fatal(err)
	}
	if !exists["Docs/A.md"] || !exists["Docs"] || exists["docs/a.md"] || exists["nope.md"] {
		t.Fatalf("exists = %v", exists)
	}
	if folded["docs/a.md"] != "Docs/A.md" || folded["docs"] != "Docs" || folded["nope.md"] != "" {
		t.Fatalf("folded = %v", folded)
	}
}

func TestParseRaw(t *testing.T) {
	t.Parallel()
	out := ":000000 100644 0000000000000000000000000000000000000000 1111111111111111111111111111111111111111 A\x00new file.md\x00" +
		":100644 000000 2222222222222222222222222222222222222222 0000000000000000000000000000000000000000 D\x00old.md\x00" +
		":160000 160000 3333333333333333333333333333333333333333 4444444444444444444444444444444444444444 M\x00sub\x00"
	got, err := parseRaw([]byte(out))
	if err != nil || len(got) != 2 || got[0].Path != "new file.md" || got[0].OID != strings.Repeat("1", 40) || got[1].OID != "" {
		t.Fatalf("parseRaw = %+v, %v", got, err)
	}
	if _, err := parseRaw([]byte("garbage")); err == nil {
		t.Fatal("garbage parsed")
	}
}

func TestScrubbedEnv(t *testing.T) {
	t.Setenv("GIT_INDEX_FILE", "/x/index.lock")
	t.Setenv("GIT_DIR", "/x")
	env := strings.Join(ScrubbedEnv(), "\n")
	if strings.Contains(env, "GIT_INDEX_FILE=") || strings.Contains(env, "GIT_DIR=") {
		t.Fatal("repository-local variables leak into a child git")
	}
	if !strings.Contains(strings.Join(ScrubbedEnv("GIT_INDEX_FILE"), "\n"), "GIT_INDEX_FILE=/x/index.lock") {
		t.Fatal("a kept variable was dropped")
	}
}

func TestTreeFromHeadAndStaged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "Docs/A.md", "a")
	write(t, dir, "img/x.png", "x")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "one")
	r, _ := Discover(dir)
	tree := &GitTree{Repo: r, Staged: map[string]bool{"img/x.png": false, "new/b.md": true}}
	exists, folded, err := tree.Lookup(context.Background(), []string{"Docs/A.md", "Docs", "img/x.png", "new/b.md", "new", "docs/a.md", "none.md"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"Docs/A.md": true, "Docs": true, "img/x.png": false, "new/b.md": true, "new": true, "docs/a.md": false, "none.md": false}
	for p, w := range want {
		if exists[p] != w {
			t.Errorf("exists[%s] = %v, want %v", p, exists[p], w)
		}
	}
	if folded["docs/a.md"] != "Docs/A.md" {
		t.Errorf("folded = %v", folded)
	}
}

// TestDiffTreesMatchesGit compares the merkle walk with git diff-tree over
// commits whose names sort differently as files and as folders ("a" as a
// folder sorts as "a/", after "a-b.md" and "a.md"), where a file becomes a
// folder and back, or a submodule and back, with a symbolic link and a
// non-ASCII name.
func TestDiffTreesMatchesGit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	steps := []func(){
		func() {
			for _, p := range []string{"n/a.md", "n/a-b.md", "n/a0.md", "n/a/z.md", "n/b.md", "top.md"} {
				write(t, dir, p, p)
			}
		},
		func() {
			os.RemoveAll(filepath.Join(dir, "n/a"))
			write(t, dir, "n/a", "now a file")
			write(t, dir, "n/a-b.md", "changed")
		},
		func() {
			os.Remove(filepath.Join(dir, "n/a.md"))
			write(t, dir, "n/a.md/inner.md", "a folder now")
			if err := os.Symlink("top.md", filepath.Join(dir, "n/link.md")); err != nil {
				t.Fatal(err)
			}
		},
		func() { // a file becomes a submodule (a gitlink; git never checks it out here)
			must.OK(t, os.Remove(filepath.Join(dir, "n/b.md")))
			must.OK(t, os.Mkdir(filepath.Join(dir, "n/b.md"), 0o755))
			git(t, dir, "add", "-A")
			git(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+git(t, dir, "rev-parse", "HEAD")+",n/b.md")
			write(t, dir, "n/é.md", "non-ASCII names sort by their bytes")
		},
		func() { // and back into a file
			git(t, dir, "rm", "-q", "--cached", "n/b.md")
			os.Remove(filepath.Join(dir, "n/b.md"))
			write(t, dir, "n/b.md", "a file again")
		},
		func() {
			os.RemoveAll(filepath.Join(dir, "n"))
			write(t, dir, "n.md", "n")
		},
	}
	var commits []string
	for i, step := range steps {
		step()
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-qm", fmt.Sprint("step ", i))
		commits = append(commits, git(t, dir, "rev-parse", "HEAD"))
		if i == 3 && !strings.HasPrefix(git(t, dir, "ls-tree", "HEAD", "n/b.md"), "160000 commit ") {
			t.Fatalf("step 3 made no submodule: %s", git(t, dir, "ls-tree", "HEAD", "n/"))
		}
	}
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	o := OpenObjects(r)
	defer o.Close()
	lines := func(cs []TreeChange) string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Path+" "+c.From+" "+c.To)
		}
		sort.Strings(out)
		return strings.Join(out, "\n")
	}
	for _, from := range append([]string{""}, commits...) {
		for _, to := range commits {
			a, err := o.CommitTree(from)
			if err != nil {
				t.Fatal(err)
			}
			b, err := o.CommitTree(to)
			if err != nil {
				t.Fatal(err)
			}
			got, err := o.DiffTrees(a, b, Filter{})
			if err != nil {
				t.Fatal(err)
			}
			var want []TreeChange
			err = DiffTreesGit(context.Background(), r, from, to, Filter{}, func(c TreeChange) { want = append(want, c) })
			if err != nil {
				t.Fatal(err)
			}
			if lines(got) != lines(want) {
				t.Errorf("%.7s..%.7s:\ngot\n%s\nwant (git diff-tree)\n%s", from, to, lines(got), lines(want))
			}
		}
	}
}

// TestCatchUpLargeDiff syncs across a diff larger than the go-git walk may
// read, which goes to git diff-tree, and across a small one, and compares
// each index with a fresh build.
func TestCatchUpLargeDiff(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	for i := 0; i < 12; i++ {
		write(t, dir, fmt.Sprintf("items/f%02d/a%02d.md", i, i), fmt.Sprintf("---\nid: A-%d\nparent: A-%d\n---\n# A%d\n", i, (i+1)%12, i))
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "one")
	s, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	s.maxTrees = 8         // a one-document commit here reads 6
	s.Store.SliceFiles = 5 // step 0 reads 12 files: three transactions
	transactions := 0
	s.sliceApplied = func() { transactions++ }
	var notes []string
	s.Note = func(n string) { notes = append(notes, n) }
	for step, edit := range []func(){
		func() { // every folder: past the walk's budget
			for i := 0; i < 12; i++ {
				write(t, dir, fmt.Sprintf("items/f%02d/a%02d.md", i, i), fmt.Sprintf("---\nid: A-%d\n---\n# A%d again\n", i, i))
			}
			os.Remove(filepath.Join(dir, "items/f03/a03.md"))
			write(t, dir, "items/f03/moved.md", "---\nid: A-3\n---\n# A3 again\n")
		},
		func() { write(t, dir, "items/f05/a05.md", "---\nid: A-5\nrelates: [A-6]\n---\n# A5\n") },
		func() { // every folder again, with no git to ask: go-git walks it all
			for i := 0; i < 12; i++ {
				write(t, dir, fmt.Sprintf("items/f%02d/a%02d.md", i, i), fmt.Sprintf("---\nid: A-%d\n---\n# A%d third\n", i, i))
			}
		},
	} {
		edit()
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-qm", fmt.Sprint("step ", step))
		before := s.gitDiffs
		path := os.Getenv("PATH")
		if step == 2 {
			os.Setenv("PATH", t.TempDir())
		}
		res, err := s.CatchUp(ctx)
		os.Setenv("PATH", path)
		if err != nil {
			t.Fatal(err)
		}
		if asked := s.gitDiffs > before; asked != (step != 1) {
			t.Errorf("step %d: asked git diff-tree = %v", step, asked)
		}
		if step == 0 && transactions != 2 {
			t.Errorf("step 0: %d transactions before the last, want 2", transactions)
		}
		if res.Action != ActionDiff {
			t.Fatalf("step %d: %s, want a diff", step, res.Action)
		}
		if diff := diffFromRebuild(t, s); len(diff) > 0 {
			t.Fatalf("step %d: differs from a rebuild:\n%s", step, strings.Join(diff, "\n"))
		}
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "git diff-tree failed (") ||
		!strings.HasSuffix(notes[0], "); walking the trees with go-git instead") {
		t.Errorf("notes = %q, want one about git diff-tree failing in step 2", notes)
	}
}

// TestCatchUpInterrupted stops a catch-up applied in several transactions
// after the first. The index still says it is behind, and the next catch-up
// puts it right, whether HEAD is still where the stopped one was going or
// went back to the indexed commit (where a diff alone would list nothing).
func TestCatchUpInterrupted(t *testing.T) {
	t.Parallel()
	for _, back := range []bool{false, true} {
		t.Run(fmt.Sprint("back ", back), func(t *testing.T) { catchUpInterrupted(t, back) })
	}
}

func catchUpInterrupted(t *testing.T, back bool) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	for i := 0; i < 9; i++ {
		write(t, dir, fmt.Sprintf("items/a%d.md", i), fmt.Sprintf("---\nid: A-%d\nrelates: [A-%d]\n---\n# A%d\n", i, (i+1)%9, i))
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "one")
	base := git(t, dir, "rev-parse", "HEAD")
	s, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 9; i++ {
		write(t, dir, fmt.Sprintf("items/a%d.md", i), fmt.Sprintf("---\nid: A-%d\n---\n# A%d edited\n", i, i))
	}
	os.Remove(filepath.Join(dir, "items/a0.md"))
	write(t, dir, "items/new.md", "---\nid: N-1\nparent: A-3\n---\n# N\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "two")

	s.Store.SliceFiles = 3
	ctx, cancel := context.WithCancel(context.Background())
	slices := 0
	s.sliceApplied = func() { slices++; cancel() }
	if _, err := s.CatchUp(ctx); err == nil || slices != 1 {
		t.Fatalf("interrupted catch-up: err %v after %d transactions, want an error after 1", err, slices)
	}
	meta, err := s.Store.AllMeta()
	if err != nil {
		t.Fatal(err)
	}
	if meta[index.MetaHead] != base || meta[index.MetaPending] == "" {
		t.Fatalf("after an interruption the index records %s, pending %q; want %s and the commit it was going to",
			meta[index.MetaHead], meta[index.MetaPending], base)
	}
	s.sliceApplied = nil
	if back {
		git(t, dir, "reset", "-q", "--hard", base)
	}
	if _, behind, err := s.Behind(); err != nil || !behind {
		t.Fatalf("behind = %v, %v after an interruption; want true", behind, err)
	}
	res, err := s.CatchUp(context.Background())
	if err != nil || res.Action != ActionDiff {
		t.Fatalf("catch-up after the interruption: %v, %v", res, err)
	}
	if meta, _ := s.Store.AllMeta(); meta[index.MetaPending] != "" {
		t.Fatalf("pending %q after the catch-up finished", meta[index.MetaPending])
	}
	if diff := diffFromRebuild(t, s); len(diff) > 0 {
		t.Fatalf("differs from a rebuild:\n%s", strings.Join(diff, "\n"))
	}
}

// TestLoadIntoStaleReadAhead hands loadInto a read-ahead result for a file
// that changed after it was read: it must read the file again.
func TestLoadIntoStaleReadAhead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "a.md", "---\nid: A-1\ntitle: First\n---\n# A\n")
	s, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fi, ok := s.Scope.Stat("a.md")
	if !ok {
		t.Fatal("a.md not found")
	}
	early := s.Loader.Load(fi)
	write(t, dir, "a.md", "---\nid: A-1\ntitle: Second, longer\n---\n# A\n")
	now, _ := s.Scope.Stat("a.md")
	b := &index.Batch{}
	err = s.loadInto(context.Background(), b, []scan.FileInfo{now}, map[string]index.StoredFile{},
		map[string]*index.Loaded{"a.md": early})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Upserts) != 1 || b.Upserts[0].Doc.Title != "Second, longer" {
		t.Fatalf("loaded %+v, want the file as it is now", b.Upserts)
	}
}

// TestOnSync: every sync that changed the index reaches the listeners, once,
// whichever path made it (a catch-up, a reconcile, the check's own
// catch-up, written paths, a rebuild); a sync that changed nothing does not.
func TestOnSync(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, s := committed(t, map[string]string{"a.md": "# A\n"})
	var got []string
	s.OnSync(func(_ context.Context, _ *Session, res *Result) {
		keys := ""
		if res.Changes != nil {
			keys = strings.Join(res.Changes.Keys, ",")
		}
		got = append(got, res.Action+":"+keys)
	})
	want := func(step string, w ...string) {
		t.Helper()
		if strings.Join(got, " ") != strings.Join(w, " ") {
			t.Fatalf("%s: listeners heard %q, want %q", step, got, w)
		}
		got = nil
	}
	if _, err := s.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	want("first catch-up", "rebuild:")
	if _, err := s.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	want("nothing to do")
	write(t, dir, "b.md", "# B\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "two")
	if _, err := s.CheckPaths(ctx, []string{"a.md"}); err != nil { // catches up first
		t.Fatal(err)
	}
	write(t, dir, "a.md", "# A, edited\n")
	if _, err := s.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "b.md", "# B, edited\n")
	if _, err := s.SyncPaths(ctx, []string{"b.md"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Rebuild(ctx, "test"); err != nil {
		t.Fatal(err)
	}
	want("one of each", "diff:b.md", "reconcile:a.md", "reconcile:b.md", "rebuild:")
}

// TestLastCheckedMovesWithEverySync: the count check --all records is
// current until the next sync, even one in the same second (synced_at's
// resolution), and a new check makes it current again.
func TestLastCheckedMovesWithEverySync(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, s := committed(t, map[string]string{"a.md": "# A\n\n[gone](gone.md)\n"})
	if _, err := s.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	current := func(step string, want bool) {
		t.Helper()
		c, err := s.LastChecked()
		if err != nil || c == nil || c.Current != want || c.Errors != 1 {
			t.Fatalf("%s: %+v, %v; want current %v with 1 error", step, c, err, want)
		}
	}
	if _, err := s.CheckAll(ctx); err != nil {
		t.Fatal(err)
	}
	current("after check --all", true)
	write(t, dir, "b.md", "# B\n")
	if _, err := s.SyncPaths(ctx, []string{"b.md"}); err != nil { // well within the second
		t.Fatal(err)
	}
	current("after a sync", false)
	if _, err := s.CheckAll(ctx); err != nil {
		t.Fatal(err)
	}
	current("after checking again", true)
	// A record of the space-separated form canon wrote before is not
	// read as counts: status says no check was recorded, not a wrong one.
	if err := s.Store.SetMeta(ctx, map[string]string{index.MetaChecked: "7 0 1 - - -"}); err != nil {
		t.Fatal(err)
	}
	if c, err := s.LastChecked(); err != nil || c != nil {
		t.Fatalf("an old record: %+v, %v; want none", c, err)
	}
}

// TestFreshSeesWhatGitPutsBack: in one long-lived session (canon mcp), a
// file synced from the working tree and then stashed is read again at the
// next Fresh; while git's index file stays the same, Fresh stats nothing
// (an edit no sync read waits for canon sync or canon watch).
func TestFreshSeesWhatGitPutsBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, s := committed(t, map[string]string{"a.md": "---\nid: A-1\n---\n# A\n\nplain\n"})
	if _, err := s.Fresh(ctx); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "a.md", "---\nid: A-1\n---\n# A\n\nquuxwidget\n")
	if _, err := s.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	hits := func(word string) int {
		t.Helper()
		if _, err := s.Fresh(ctx); err != nil {
			t.Fatal(err)
		}
		h, err := search.Hits(ctx, s.Store, word, search.Options{Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		return len(h)
	}
	if n := hits("quuxwidget"); n != 1 {
		t.Fatalf("after the sync: %d hits", n)
	}
	write(t, dir, "a.md", "---\nid: A-1\n---\n# A\n\nquuxwidget and zorblat\n")
	if n := hits("zorblat"); n != 0 {
		t.Fatalf("an edit no sync read, git's index unchanged: %d hits, want 0", n)
	}
	git(t, dir, "stash", "-q")
	if n := hits("quuxwidget"); n != 0 {
		t.Fatalf("after git stash: %d hits, want 0", n)
	}
	if d := diffFromRebuild(t, s); len(d) > 0 {
		t.Fatalf("the index differs from a rebuild: %v", d)
	}
}
