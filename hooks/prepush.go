package hooks

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/ids"
)

// The pre-push hook (issue 25, ADR-0044): before the push, one line for
// each id the pushed commits minted that the remote side minted too, in
// the post-merge report's words. It never refuses the push unless
// ids.block_push says so; anything going wrong is one line and the push
// goes on.

// prePushBudget bounds the hook: a push waits for it.
const prePushBudget = 10 * time.Second

// maxPushReports bounds the lines of one push: past it, a count.
const maxPushReports = 20

// RunPrePush reads git's pre-push input from f.Stdin (args: the remote's
// name and URL) and returns the hook's exit status: 1 only when ids.block_push
// is set and the push mints an id the remote side minted too.
func RunPrePush(ctx context.Context, args []string, f Front) int {
	if os.Getenv("CANON_SKIP") == "1" {
		return 0
	}
	note := func(msg string) { fmt.Fprintf(f.Stderr, "canon: %s\n", msg) }
	in, remote := f.Stdin, ""
	if len(args) > 0 {
		remote = args[0]
	}
	if rb := os.Getenv("PRE_COMMIT_REMOTE_BRANCH"); rb != "" {
		// The pre-commit framework reads git's input itself and hands
		// its hooks the first pushed ref in variables: checked the same.
		in = strings.NewReader(strings.Join([]string{os.Getenv("PRE_COMMIT_LOCAL_BRANCH"), os.Getenv("PRE_COMMIT_TO_REF"), rb, os.Getenv("PRE_COMMIT_FROM_REF")}, " ") + "\n")
		remote = os.Getenv("PRE_COMMIT_REMOTE_NAME")
	}
	lines, ignored, _ := gitsync.ParsePushLines(in)
	for _, l := range ignored {
		note("pre-push: ignored a line git's pre-push input should not hold: " + l)
	}
	if len(lines) == 0 {
		return 0
	}
	ctx, cancel := context.WithTimeout(ctx, prePushBudget)
	defer cancel()
	s, err := f.Open("canon hook pre-push")
	if err != nil {
		Report(f.Stderr, "pre-push", f.Explain(err))
		return 0
	}
	defer s.Close()
	found, told := 0, 0
	for _, l := range lines {
		m, err := s.PushCollisions(ctx, remote, l)
		if err != nil {
			if ctx.Err() != nil {
				note(fmt.Sprintf("pre-push: ids not compared past %s; canon check --new-from REMOTE-BRANCH compares them", prePushBudget))
				break
			}
			Report(f.Stderr, "pre-push", f.Explain(err))
			continue
		}
		if m.Note != "" {
			note("pre-push: " + m.Note)
		}
		for _, c := range m.Collisions {
			found++
			if told++; told <= maxPushReports {
				note(collisionText(c, func(d ids.Doc) string { return m.From[d.Path] }))
			}
		}
	}
	if told > maxPushReports {
		note(fmt.Sprintf("and %d more ids the remote side minted too (canon check --new-from REMOTE-BRANCH lists them)", told-maxPushReports))
	}
	if found == 0 {
		return 0
	}
	if s.Cfg.IDs.BlockPush {
		fmt.Fprintf(f.Stderr, "canon: push refused (ids.block_push): give one document of each id above a new id (canon id rename ID NEW --path PATH), commit, and push again (git push --no-verify, or CANON_SKIP=1, skips canon)\n")
		return 1
	}
	return 0
}
