package hooks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/safepath"
)

// Front is what a hook entry point needs of the front end that runs it:
// where to write, how it opens a session (notes, listeners, progress as
// for every command), and how it turns an error into a sentence.
type Front struct {
	Stdin          io.Reader // git's input to the hook (pre-push's refs)
	Stdout, Stderr io.Writer
	Open           func(who string) (*gitsync.Session, error)
	Explain        func(error) error
}

// RunPreCommit validates what is staged and returns the hook's exit status.
// Validation errors refuse the commit (1); anything else going wrong is
// one line on stderr and the commit goes on, except an index another
// process holds past the wait or a configuration canon cannot read: then
// nothing was validated, and a gate that opens when it is busy or
// misconfigured is no gate (preCommitFailed).
func RunPreCommit(ctx context.Context, dir string, f Front) int {
	if os.Getenv("CANON_SKIP") == "1" {
		return 0
	}
	// git's diff of the staged set runs while the index opens.
	ahead := gitsync.AskStaged(ctx, dir)
	defer ahead.Close()
	s, err := f.Open("canon hook pre-commit")
	if err != nil {
		return preCommitFailed(f, err)
	}
	defer s.Close()
	s.Store.Waiting = func(holder string) {
		if holder == "" {
			holder = "another canon process"
		}
		fmt.Fprintf(f.Stderr, "canon: pre-commit: waiting for the index, which %s is writing\n", holder)
	}
	if _, err := s.CatchUp(ctx); err != nil {
		return preCommitFailed(f, err)
	}
	res, err := s.CheckStaged(ctx, true, ahead)
	if err != nil {
		return preCommitFailed(f, err)
	}
	refused := res.Summary().Errors > 0
	if len(res.Findings) > 0 {
		check.WriteText(f.Stderr, res.Findings, len(res.Checked))
	}
	if refused || newOldNote(s.Repo.CanonDir(), res) {
		res.WriteOld(f.Stderr)
	}
	if !refused {
		return 0
	}
	fmt.Fprintln(f.Stderr, "canon: commit refused: fix the errors above and stage the fix (git commit --no-verify, or CANON_SKIP=1, skips canon)")
	return 1
}

// oldNoteFile keeps which note about old problems the pre-commit hook said
// last.
const oldNoteFile = "pre-commit-old-note"

// newOldNote says whether the note about the problems the changed files
// already had is news: not the one the last commit said. Committing again
// and again to files with the same old problems then says it once, not on
// every commit (git tells a hook nothing of git commit -q); other files,
// or other problems in them, say it again. A commit that is refused says
// it always: the person is reading canon's output then.
func newOldNote(canonDir string, res *check.Result) bool {
	if !res.NewOnly || res.Old == 0 {
		return false
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf("%d\x00%s", res.Old, strings.Join(res.OldFiles, "\x00"))))
	note := hex.EncodeToString(sum[:]) + "\n"
	p := filepath.Join(canonDir, oldNoteFile)
	if last, err := safepath.ReadFile(p, 1024, canonDir); err == nil && string(last) == note {
		return false
	}
	// Unwritable: said every time, as before, rather than never.
	_ = safepath.WriteFile(p, []byte(note), 0o644, canonDir)
	return true
}

// preCommitFailed reports a check that could not run. Two causes refuse
// the commit, naming the ways out: an index locked past the wait, and a
// configuration canon cannot read (the rules the gate applies are in it:
// a typo in it would open the gate for every commit after it, silently).
// Any other failure is one line and the commit goes on (hooks fail open).
func preCommitFailed(f Front, err error) int {
	var le *index.LockedError
	var ce *config.Error
	switch {
	case errors.As(err, &le):
		fmt.Fprintf(f.Stderr, "canon: commit refused: nothing was validated, because %s and did not finish in time; commit again when it is done (or skip canon: git commit --no-verify, CANON_SKIP=1)\n", le.Error())
		return 1
	case errors.As(err, &ce):
		fmt.Fprintf(f.Stderr, "canon: commit refused: nothing was validated, because the configuration has an error: %v; fix it and commit again (or skip canon: git commit --no-verify, CANON_SKIP=1)\n", ce)
		return 1
	}
	Report(f.Stderr, "pre-commit", f.Explain(err))
	return 0
}

// RunCheckAll is canon check --all for pre-commit run --all-files (CI,
// pre-commit.ci); it returns the exit status. Inside git commit, where git
// sets GIT_INDEX_FILE for its hooks, it leaves the commit to canon-check,
// which validates what is staged rather than every document.
func RunCheckAll(ctx context.Context, f Front) (int, error) {
	if os.Getenv("CANON_SKIP") == "1" || os.Getenv("GIT_INDEX_FILE") != "" {
		return 0, nil
	}
	s, err := f.Open("canon hook check-all")
	if err != nil {
		return 0, err
	}
	defer s.Close()
	res, err := s.Check(ctx, gitsync.CheckArgs{All: true})
	if err != nil {
		return 0, err
	}
	check.WriteText(f.Stdout, res.Findings, len(res.Checked))
	if res.Summary().Errors > 0 {
		return 1, nil
	}
	return 0, nil
}

// Entries are what canon hook takes: git's hooks, sync (what the
// pre-commit framework's canon-sync calls) and check-all
// (canon-check-all).
var Entries = append(append([]string{}, Names...), "sync", "check-all")

// Dispatch runs canon hook NAME ARGS in the repository around dir and
// returns the exit status: pre-commit's, pre-push's and check-all's verdict, 0 for
// every post-* hook, which reports a failure on one line and never fails
// the git command.
func Dispatch(ctx context.Context, dir, name string, args []string, f Front) (int, error) {
	switch name {
	case "pre-commit":
		return RunPreCommit(ctx, dir, f), nil
	case "check-all":
		return RunCheckAll(ctx, f)
	case "pre-push":
		return RunPrePush(ctx, args, f), nil
	case "sync":
		// Under the pre-commit framework, canon-sync runs for every post-*
		// hook; its variables say which one, with git's arguments.
		name, args = PreCommitEvent(os.Getenv)
	}
	note := func(msg string) { fmt.Fprintf(f.Stderr, "canon: %s\n", msg) }
	if _, err := Run(ctx, Event{Name: name, Args: args, Dir: dir}, note); err != nil {
		Report(f.Stderr, name, f.Explain(err))
	}
	return 0, nil
}
