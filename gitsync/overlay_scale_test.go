package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/canon-md/canon/gitsync/history"
	"github.com/canon-md/canon/graph"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
)

// overlayRepo is a repository with a backlog on main and n branches, each
// forked from its own commit of main's history and changing its own task.
func overlayRepo(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	for i := 0; i < n; i++ {
		write(t, dir, fmt.Sprintf("backlog/t%d.md", i), fmt.Sprintf("---\nid: T-%d\ntitle: Task %d\nstate: To Do\n---\n", i, i))
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-qm", fmt.Sprint("task ", i))
	}
	var refs strings.Builder
	for i := 0; i < n; i++ {
		at := fmt.Sprintf("HEAD~%d", n-1-i) // the commit that added task i
		blob := strings.TrimSpace(gitIn(t, dir, fmt.Sprintf("---\nid: T-%d\ntitle: Task %d\nstate: In Progress\n---\n", i, i), "hash-object", "-w", "--stdin"))
		git(t, dir, "read-tree", at)
		git(t, dir, "update-index", "--cacheinfo", "100644,"+blob+",backlog/t"+fmt.Sprint(i)+".md")
		tr := git(t, dir, "write-tree")
		c := git(t, dir, "commit-tree", tr, "-p", at, "-m", "take")
		fmt.Fprintf(&refs, "create refs/remotes/origin/b%02d %s\n", i, c)
	}
	git(t, dir, "read-tree", "HEAD")
	gitIn(t, dir, refs.String(), "update-ref", "--stdin")
	return dir
}

// checkOverlays brings the overlays up and proves them equal to a rebuild
// from nothing.
func checkOverlays(t *testing.T, s *Session, step string) *OverlayStatus {
	t.Helper()
	ctx := context.Background()
	if _, err := s.Fresh(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := s.Overlays(ctx)
	// A call that ran out of its time (a loaded machine) leaves refs
	// pending, and the next goes on, as a user's next command does.
	for i := 0; err == nil && st != nil && st.Pending > 0 && i < 20; i++ {
		st, err = s.Overlays(ctx)
	}
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	if st != nil && st.Pending > 0 {
		t.Fatalf("%s: %d refs still pending after 20 calls", step, st.Pending)
	}
	walked := s.walked // the rebuild's walk is not the update's
	diff, _, err := s.verifyOverlays(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s.walked = walked
	if len(diff) > 0 {
		t.Fatalf("%s: the overlay differs from a rebuild:\n%s", step, strings.Join(diff, "\n"))
	}
	return st
}

// TestOverlaysFollowHEADAtTheCostOfWhatMoved (issue 46): when HEAD only
// grows, no ref's merge base is looked for but those of the refs that
// held the old HEAD; a merge of a local branch, a fast-forward over
// another line of history, a reset and a switch look again; the overlay
// equals a rebuild after each.
func TestOverlaysFollowHEADAtTheCostOfWhatMoved(t *testing.T) {
	const n = 12
	dir := overlayRepo(t, n)
	git(t, dir, "branch", "topic")  // holds HEAD: its base is HEAD itself
	git(t, dir, "branch", "mirror") // as origin/main would after a push
	s, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkOverlays(t, s, "start")
	if s.walked != n+2 {
		t.Fatalf("the first look walked for %d refs, want all %d", s.walked, n+2)
	}
	walked := func(step string, want int) {
		t.Helper()
		if s.walked != want {
			t.Fatalf("%s: the merge bases of %d refs were looked for, want %d", step, s.walked, want)
		}
		s.walked = 0
	}
	s.walked = 0

	write(t, dir, "notes.md", "# notes\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "a commit")
	checkOverlays(t, s, "a commit")
	walked("a commit", 3) // topic, mirror and b11 (forked there) held the old HEAD

	write(t, dir, "notes.md", "# notes, again\n")
	git(t, dir, "commit", "-qam", "another")
	checkOverlays(t, s, "another commit")
	walked("another commit", 0) // nothing holds the old HEAD now

	git(t, dir, "switch", "-q", "topic")
	write(t, dir, "topic.md", "# topic\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "on topic")
	git(t, dir, "switch", "-q", "main")
	git(t, dir, "merge", "-q", "--no-edit", "topic")
	checkOverlays(t, s, "a merge of a local branch")

	git(t, dir, "merge", "-q", "--no-edit", "origin/b03") // another line of history
	checkOverlays(t, s, "a merge of a remote branch")
	if s.walked < n {
		t.Fatalf("a merge of another line of history walked for %d refs, want every one", s.walked)
	}
	s.walked = 0

	git(t, dir, "reset", "-q", "--hard", "HEAD~3")
	checkOverlays(t, s, "a reset")
	git(t, dir, "switch", "-q", "--detach", "origin/b05")
	checkOverlays(t, s, "a switch to a ref")
	git(t, dir, "switch", "-q", "main")
	checkOverlays(t, s, "back")
	s.walked = 0
	checkOverlays(t, s, "nothing moved")
	walked("nothing moved", 0)
}

// TestHooksDoNotFollowRefs (issue 46): a post-commit hook's sync leaves
// the overlays as they were, however many refs there are; the next
// command that reads them brings them up.
func TestHooksDoNotFollowRefs(t *testing.T) {
	dir := overlayRepo(t, 6)
	s, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if _, err := s.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if refs, _ := s.Store.Refs(ctx); len(refs) != 0 {
		t.Fatalf("a catch-up wrote overlays: %+v", refs)
	}
	checkOverlays(t, s, "read")
	if refs, _ := s.Store.Refs(ctx); len(refs) != 6 {
		t.Fatalf("refs after a read: %+v", refs)
	}
}

// TestRefsThatAreNoCommits (issue 41): a remote-tracking ref a hostile
// server pointed at a blob, a tree or an annotated tag is skipped and
// named, and the others are followed; nothing fails.
func TestRefsThatAreNoCommits(t *testing.T) {
	dir := overlayRepo(t, 3)
	blob := strings.TrimSpace(gitIn(t, dir, "not a commit\n", "hash-object", "-w", "--stdin"))
	tree := git(t, dir, "rev-parse", "HEAD^{tree}")
	git(t, dir, "tag", "-a", "-m", "a tag", "v1")
	tag := git(t, dir, "rev-parse", "v1")
	for name, oid := range map[string]string{"blob": blob, "tree": tree, "tag": tag, "gone": strings.Repeat("ab", 20)} {
		write(t, dir, ".git/refs/remotes/evil/"+name, oid+"\n")
	}
	s, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st := checkOverlays(t, s, "hostile refs")
	text := st.Text()
	for _, want := range []string{"refs/remotes/evil/blob: it points at a blob, not a commit", "refs/remotes/evil/tree: it points at a tree, not a commit",
		"refs/remotes/evil/tag: it points at a tag, not a commit", "refs/remotes/evil/gone: it points at abababababab, which this clone does not have"} {
		if !strings.Contains(text, want) {
			t.Errorf("the status does not say %q:\n%s", want, text)
		}
	}
	if st.Refs != 7 || len(st.Skipped) != 4 {
		t.Fatalf("status: %+v", st)
	}
	again := checkOverlays(t, s, "again")
	if again.Updated != 0 {
		t.Fatalf("the skipped refs were looked at again: %+v", again)
	}
	over, err := s.Store.Overlay(context.Background(), "", "")
	if err != nil || len(over) != 3 {
		t.Fatalf("overlay: %+v, %v", over, err)
	}
}

// TestOverlaysReadABlobOnce (issue 41): a branch whose 300 paths name one
// blob reads it once; a ref whose documents hold more than a ref may read
// is summarised and says why; a call whose budget runs out keeps what it
// finished and the next call goes on.
func TestOverlaysReadABlobOnce(t *testing.T) {
	dir := overlayRepo(t, 4)
	body := "---\nid: X-1\ntitle: Many\nstate: Done\n---\n" + strings.Repeat("lorem ipsum dolor sit amet\n", 4000)
	blob := strings.TrimSpace(gitIn(t, dir, body, "hash-object", "-w", "--stdin"))
	git(t, dir, "read-tree", "HEAD")
	var info bytes.Buffer
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&info, "100644 %s\tmany/m%03d.md\n", blob, i)
	}
	gitIn(t, dir, info.String(), "update-index", "--index-info")
	tr := git(t, dir, "write-tree")
	git(t, dir, "read-tree", "HEAD")
	c := git(t, dir, "commit-tree", tr, "-p", "HEAD", "-m", "many")
	git(t, dir, "update-ref", "refs/remotes/evil/many", c)
	s, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if _, err := s.Fresh(ctx); err != nil {
		t.Fatal(err)
	}
	head, _ := s.Store.Meta(index.MetaHead)
	tips, _, _, err := s.Repo.FollowedRefs(s.Cfg.Branches, nil)
	if err != nil {
		t.Fatal(err)
	}
	budget := newReadBudget(1<<30, overlayCallTime)
	plan, err := s.planOverlays(ctx, head, tips, nil, budget)
	if err != nil {
		t.Fatal(err)
	}
	size := int64(len(body))
	if len(budget.blobs) != 5 || 1<<30-budget.bytes != size+4*int64(len("---\nid: T-0\ntitle: Task 0\nstate: In Progress\n---\n")) {
		t.Fatalf("read %d blobs, %d bytes; want 5 blobs, the big one once (%d bytes)", len(budget.blobs), 1<<30-budget.bytes, size)
	}
	for _, u := range plan.ups {
		if u.State.Name == "refs/remotes/evil/many" && len(u.Upserts) != 300 {
			t.Fatalf("many: %d rows", len(u.Upserts))
		}
	}
	checkOverlays(t, s, "one blob, 300 paths")

	// A ref may read less than the blob: summarised, and told.
	if _, err := s.Rebuild(ctx, ""); err != nil {
		t.Fatal(err)
	}
	s.overlayBytes = [2]int64{size - 1, 0}
	checkOverlays(t, s, "over a ref's bytes")
	refs, _ := s.Store.Refs(ctx)
	var many index.RefState
	for _, r := range refs {
		if r.Name == "refs/remotes/evil/many" {
			many = r
		}
	}
	if !many.Summarised || !strings.Contains(many.Skip, "more than the") || many.Changed != 300 {
		t.Fatalf("many: %+v", many)
	}

	// A call may read less than all refs: it keeps what it finished.
	if _, err := s.Rebuild(ctx, ""); err != nil {
		t.Fatal(err)
	}
	s3 := s
	s3.overlayBytes = [2]int64{0, 1}
	calls := 0
	for {
		calls++
		st, err := s3.Overlays(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Pending == 0 {
			break
		}
		if calls > 10 || !strings.Contains(st.Text(), "not yet") {
			t.Fatalf("call %d: %s", calls, st.Text())
		}
	}
	if calls != 5 {
		t.Fatalf("the refs came up to date in %d calls, want 5 (one ref a call)", calls)
	}
	checkOverlays(t, s3, "in five calls")
}

// TestDecoysDoNotPushOutOwnWork (issue 41): past branches.max, this
// clone's own branches are followed first, then the remote refs with the
// newest commits, whatever their names.
func TestDecoysDoNotPushOutOwnWork(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "a.md", "# a\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "one")
	mk := func(ref, date string) {
		cmd := exec.Command("git", "commit-tree", git(t, dir, "rev-parse", "HEAD^{tree}"), "-p", "HEAD", "-m", ref)
		cmd.Dir = dir
		cmd.Env = append(ScrubbedEnv(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t",
			"GIT_COMMITTER_DATE="+date, "GIT_AUTHOR_DATE="+date)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		git(t, dir, "update-ref", ref, strings.TrimSpace(string(out)))
	}
	for i := 0; i < 5; i++ {
		mk(fmt.Sprintf("refs/remotes/origin/aaa-decoy-%d", i), "2030-01-01T00:00:00Z")
	}
	mk("refs/remotes/origin/real", "2026-11-01T00:00:00Z")
	mk("refs/remotes/origin/old", "2020-01-01T00:00:00Z")
	mk("refs/heads/mine", "2019-01-01T00:00:00Z")
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := config.Default().Branches
	b.Max = 6
	tips, left, _, err := r.FollowedRefs(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, t := range tips {
		names = append(names, t.Name)
	}
	want := "refs/heads/mine refs/remotes/origin/aaa-decoy-0 refs/remotes/origin/aaa-decoy-1 refs/remotes/origin/aaa-decoy-2 refs/remotes/origin/aaa-decoy-3 refs/remotes/origin/aaa-decoy-4"
	if strings.Join(names, " ") != want || left != 2 {
		t.Fatalf("followed %v, %d left out; want %s", names, left, want)
	}
	b.Max = 7
	tips, _, _, _ = r.FollowedRefs(b, nil)
	if len(tips) != 7 || tips[6].Name != "refs/remotes/origin/real" {
		t.Fatalf("followed %v; want the decoys, mine and real", tips)
	}
}

// TestOverlayOfHereIsTheOverlaysClaims: the overlay of HEAD's documents
// holds the full overlay's claims (graph.Claims of both are equal), moves
// included, and not the rows that change only text.
func TestOverlayOfHereIsTheOverlaysClaims(t *testing.T) {
	dir := overlayRepo(t, 4)
	git(t, dir, "switch", "-q", "-c", "mover")
	git(t, dir, "mv", "backlog/t1.md", "backlog/t1-moved.md")
	write(t, dir, "backlog/new.md", "---\nid: T-99\ntitle: New\nstate: To Do\n---\n")
	write(t, dir, "backlog/t2.md", "---\nid: T-2\ntitle: Task 2\nstate: To Do\n---\nonly text\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "move T-1, add T-99, edit T-2's text")
	git(t, dir, "switch", "-q", "main")
	s, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkOverlays(t, s, "start")
	ctx := context.Background()
	all, err := s.Store.Overlay(ctx, "", "")
	if err != nil {
		t.Fatal(err)
	}
	here, _, err := s.OverlayOfHere(ctx)
	if err != nil {
		t.Fatal(err)
	}
	states := config.Default().States
	want, got := fmt.Sprint(graph.Claims(all, states)), fmt.Sprint(graph.Claims(here, states))
	if got != want {
		t.Fatalf("claims of the overlay of here:\n%s\nof the full overlay:\n%s", got, want)
	}
	var rows []string
	for _, o := range here {
		rows = append(rows, o.Ref+" "+o.Path+" "+o.Change+" "+o.MovedFrom)
	}
	text := strings.Join(rows, "\n")
	if !strings.Contains(text, "refs/heads/mover backlog/t1-moved.md moved backlog/t1.md") || strings.Contains(text, "refs/heads/mover backlog/t2.md") || strings.Contains(text, "new.md") {
		t.Fatalf("overlay of here (a move, and no text-only edit or addition):\n%s", text)
	}
}

// TestOverlaysStoppedKeepWhatTheyFinished (issue 41): a call whose context
// ends (an MCP call's deadline) does not fail and loses nothing: the refs
// it did not reach are pending, and the next call brings them up.
func TestOverlaysStoppedKeepWhatTheyFinished(t *testing.T) {
	dir := overlayRepo(t, 5)
	s, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if _, err := s.Fresh(ctx); err != nil {
		t.Fatal(err)
	}
	head, _ := s.Store.Meta(index.MetaHead)
	tips, _, _, err := s.Repo.FollowedRefs(s.Cfg.Branches, nil)
	if err != nil {
		t.Fatal(err)
	}
	stopped, cancel := context.WithCancel(ctx)
	cancel()
	plan, err := s.planOverlays(stopped, head, tips, nil, newReadBudget(1<<30, overlayCallTime))
	if err != nil || plan.pending != 5 || len(plan.ups) != 0 {
		t.Fatalf("a stopped plan: %+v, %v; want 5 pending", plan, err)
	}
	checkOverlays(t, s, "the next call")
}

// TestOverlaysBoundTheirYAML (issue 41): a document of another ref whose
// frontmatter passes 128 KB is not parsed, and a ref whose documents'
// frontmatter passes 2 MB is summarised, each saying why; the overlay
// equals a rebuild.
func TestOverlaysBoundTheirYAML(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 2.4 MB of frontmatter")
	}
	dir := overlayRepo(t, 2)
	git(t, dir, "switch", "-q", "-c", "yaml")
	fm := func(id string, n int) string {
		return "---\nid: " + id + "\nl: [" + strings.TrimSuffix(strings.Repeat("a,", n/2), ",") + "]\n---\n"
	}
	write(t, dir, "big/huge.md", fm("H-1", 140<<10))
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "one huge frontmatter")
	git(t, dir, "switch", "-q", "-c", "many")
	for i := 0; i < 20; i++ {
		write(t, dir, fmt.Sprintf("big/m%02d.md", i), fm(fmt.Sprintf("M-%d", i), 120<<10))
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "many large frontmatters")
	git(t, dir, "switch", "-q", "main")
	s, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkOverlays(t, s, "bounded YAML")
	ctx := context.Background()
	rows, err := s.Store.RefDocs(ctx, "refs/heads/yaml")
	if err != nil || !strings.Contains(rows["big/huge.md"].Skip, "has a frontmatter of") {
		t.Fatalf("yaml's huge.md: %+v (%v)", rows["big/huge.md"], err)
	}
	refs, _ := s.Store.Refs(ctx)
	for _, r := range refs {
		if r.Name == "refs/heads/many" && (!r.Summarised || r.Skip != tooMuchYAML) {
			t.Fatalf("many: %+v, want summarised: %s", r, tooMuchYAML)
		}
	}
	// A step onto the same branch sums the rows it keeps with the new ones.
	git(t, dir, "switch", "-q", "yaml")
	for i := 0; i < 18; i++ {
		write(t, dir, fmt.Sprintf("big/s%02d.md", i), fm(fmt.Sprintf("S-%d", i), 120<<10))
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "step past the bound")
	git(t, dir, "switch", "-q", "main")
	checkOverlays(t, s, "a step past the bound")
	refs, _ = s.Store.Refs(ctx)
	for _, r := range refs {
		if r.Name == "refs/heads/yaml" && (!r.Summarised || r.Skip != tooMuchYAML) {
			t.Fatalf("yaml after the step: %+v", r)
		}
	}
}

// TestMergeBasesPastTheWalksBudget: a history whose commits list more
// parents than a walk reads (octopus merges, built to cost: git
// merge-base on one held 1.5 GB) is skipped and says why; the other refs
// of the same walk get their bases from walks of their own.
func TestMergeBasesPastTheWalksBudget(t *testing.T) {
	dir := overlayRepo(t, 3)
	for i := 0; i < 12; i++ { // twelve commits on HEAD~1, merged at once
		c := git(t, dir, "commit-tree", git(t, dir, "rev-parse", "HEAD~1^{tree}"), "-p", "HEAD~1", "-m", fmt.Sprint("side ", i))
		git(t, dir, "branch", fmt.Sprintf("o%02d", i), c)
	}
	args := []string{"commit-tree", git(t, dir, "rev-parse", "HEAD^{tree}"), "-m", "octopus"}
	for i := 0; i < 12; i++ {
		args = append(args, "-p", fmt.Sprintf("o%02d", i))
	}
	octo := git(t, dir, args...)
	git(t, dir, "update-ref", "refs/remotes/origin/octopus", octo)
	s, err := Open(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	head := git(t, dir, "rev-parse", "HEAD")
	side := git(t, dir, "rev-parse", "o00")
	was := history.MaxEdges
	history.MaxEdges = 8
	defer func() { history.MaxEdges = was }()
	objs := OpenObjects(s.Repo)
	defer objs.Close()
	if _, err := objs.mergeBases(head, []string{octo, side}); !errors.Is(err, errBaseEdges) {
		t.Fatalf("a walk past its parents: %v, want errBaseEdges", err)
	}
	bases, skips, err := s.mergeBases(ctx, objs, head, []string{octo, side})
	if err != nil {
		t.Fatal(err)
	}
	if bases[0] != "" || skips[0] != "has a history whose commits list too many parents to find its merge base with HEAD" {
		t.Errorf("the octopus: base %q, skip %q", bases[0], skips[0])
	}
	if skips[1] != "" || bases[1] != git(t, dir, "merge-base", head, side) {
		t.Errorf("the side branch: base %q, skip %q", bases[1], skips[1])
	}
}
