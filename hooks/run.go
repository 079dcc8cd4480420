package hooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/workset"
)

// Event is one hook invocation as git makes it.
type Event struct {
	Name string   // post-commit, post-checkout, ...
	Args []string // git's arguments to the hook
	Dir  string   // where git ran the hook
}

// Outcome is what a hook did, for the caller to pass on (worksets listen to
// the changed keys).
type Outcome struct {
	Result  *gitsync.Result
	Skipped string           // why nothing was done ("" when something was)
	Stale   []workset.Marked // the worksets the sync made stale
}

// Run handles a post-* hook: it brings the index to where git just moved.
// It returns an error for the caller to report on one line; the caller
// still exits 0, because a post-* hook's status would otherwise become the
// git command's (post-checkout's does).
func Run(ctx context.Context, ev Event, note func(string)) (*Outcome, error) {
	if os.Getenv("CANON_SKIP") == "1" {
		return &Outcome{Skipped: "CANON_SKIP=1"}, nil
	}
	repo, _ := gitsync.Discover(ev.Dir) // an error is gitsync.Open's to report
	if pid := watcherSyncs(repo); pid > 0 {
		return &Outcome{Skipped: fmt.Sprintf("canon watch (pid %d) brings the index up to date", pid)}, nil
	}
	pre := startPrewalk(repo, ev)
	s, err := gitsync.OpenContext(ctx, ev.Dir, "canon hook "+ev.Name)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	s.UsePrewalk(pre)
	s.Note = note
	out := &Outcome{}
	s.OnSync(TellWorksets(note, func(m []workset.Marked) { out.Stale = append(out.Stale, m...) }))
	FinishWrites(ctx, s, note) // a hook only tells of a write a killed command left
	if rebasing(s.Repo) && ev.Name != "post-rewrite" {
		// Each replayed commit fires post-commit (and the start fires
		// post-checkout); the index catches up once, at post-rewrite.
		return &Outcome{Skipped: "a rebase is in progress; the index catches up when it ends"}, nil
	}
	var res *gitsync.Result
	switch ev.Name {
	case "post-checkout":
		// Arguments: previous HEAD, new HEAD, 1 for a branch checkout or 0
		// for a file checkout (git checkout -- FILE), which moves no
		// commit: only files changed, so look at the working tree.
		if len(ev.Args) >= 3 && ev.Args[2] == "0" {
			res, err = s.Reconcile(ctx)
		} else {
			res, err = s.CatchUp(ctx)
		}
	case "post-merge":
		// Argument: 1 for a squash merge, which changes files but not HEAD.
		if len(ev.Args) >= 1 && ev.Args[0] == "1" {
			res, err = s.Reconcile(ctx)
		} else {
			res, err = s.CatchUp(ctx)
		}
	case "post-commit", "post-rewrite", "sync":
		// sync: run by hand, or by the pre-commit framework after a commit:
		// from the indexed commit to HEAD.
		res, err = s.CatchUp(ctx)
	default:
		return nil, fmt.Errorf("there is no hook %q", ev.Name)
	}
	if err != nil {
		return nil, err
	}
	if ev.Name != "post-commit" && ev.Name != "sync" {
		ReportCollisions(ctx, s, res, note)
	}
	out.Result = res
	// The overlays of other refs are not brought up to date here: a hook
	// never pays per ref (issue 46, ADR-0056). The commands that read them
	// (ready, blocked, branches, id next, MCP) catch them up at the cost
	// of what moved.
	return out, nil
}

// watcherSyncs returns the pid of the canon watch that keeps repo's
// worktree in step, or 0 when none runs (or CANON_WATCH_HANDOFF=0). The
// watcher watches HEAD and the branch refs, and syncs after every move, so
// a post-* hook that ran beside it would only do the same work twice and
// make one of the two wait for the index's lock (ADR-0024). The hook shim
// makes the same test in sh before canon even starts.
func watcherSyncs(repo *gitsync.Repo) int {
	if repo == nil || os.Getenv("CANON_WATCH_HANDOFF") == "0" {
		return 0
	}
	st, err := gitsync.ObserveWatcher(repo.CanonDir())
	if err != nil || !st.Running || st.Status == nil || st.Status.UpdatedAt.IsZero() {
		return 0 // not yet running: no status file written
	}
	return st.Status.PID
}

// startPrewalk starts, for the hooks that move HEAD by one step, the diff
// from where the index most likely stands (git's previous HEAD, the new
// commit's parent) to HEAD, while the session opens (gitsync.Prewalk). nil
// when there is no good guess, or during a rebase.
func startPrewalk(repo *gitsync.Repo, ev Event) *gitsync.Prewalk {
	if repo == nil || rebasing(repo) {
		return nil
	}
	switch {
	case ev.Name == "post-commit":
		return gitsync.StartPrewalk(repo, "", true, 0)
	case ev.Name == "post-checkout" && len(ev.Args) >= 3 && ev.Args[2] == "1" && plumbingHash(ev.Args[0]):
		return gitsync.StartPrewalk(repo, ev.Args[0], false, 0)
	}
	return nil
}

// plumbingHash reports a full hex commit id other than git's null id
// (post-checkout's previous HEAD after a clone).
func plumbingHash(s string) bool {
	return len(s) == 40 && strings.Trim(s, "0123456789abcdef") == "" && strings.Trim(s, "0") != ""
}

// PreCommitEvent tells which git hook the pre-commit framework is running
// canon hook sync for, with git's arguments, from the variables it sets
// (PRE_COMMIT_CHECKOUT_TYPE and the refs for post-checkout,
// PRE_COMMIT_IS_SQUASH_MERGE for post-merge, PRE_COMMIT_REWRITE_COMMAND for
// post-rewrite); with none of them it is post-commit or a sync by hand.
func PreCommitEvent(getenv func(string) string) (string, []string) {
	if t := getenv("PRE_COMMIT_CHECKOUT_TYPE"); t != "" {
		return "post-checkout", []string{getenv("PRE_COMMIT_FROM_REF"), getenv("PRE_COMMIT_TO_REF"), t}
	}
	if sq := getenv("PRE_COMMIT_IS_SQUASH_MERGE"); sq != "" {
		return "post-merge", []string{sq}
	}
	if cmd := getenv("PRE_COMMIT_REWRITE_COMMAND"); cmd != "" {
		return "post-rewrite", []string{cmd}
	}
	return "sync", nil
}

// rebasing reports a rebase or am in progress in this worktree.
func rebasing(r *gitsync.Repo) bool {
	for _, d := range []string{"rebase-merge", "rebase-apply"} {
		if _, err := os.Stat(filepath.Join(r.GitDir, d)); err == nil {
			return true
		}
	}
	return false
}

// Report writes a hook failure on one line, saying that nothing was lost.
func Report(w io.Writer, name string, err error) {
	if errors.Is(err, index.ErrDamaged) {
		// Nothing catches up by itself from a damaged database.
		fmt.Fprintf(w, "canon: %s hook: %v (git went on)\n", name, err)
		return
	}
	fmt.Fprintf(w, "canon: %s hook: %v (git went on; the index catches up at the next canon command)\n", name, err)
}
