package workset

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// A workset is made by canon on this machine and ignored by git (the
// .gitignore canon writes into .cache/worksets). One that git tracks came
// with the repository, from whoever committed it (git add -f): its
// database, its manifest and its files are that person's, and canon does
// not read or run any of it (ADR-0029). The way out is to take it out of
// git, which also removes it from the working tree.

// Tracked lists, repository-relative with slashes, what git tracks under
// the worksets' folder that it must not (index.InWorksetDir): a
// *gitsync.Repo answers it with one git ls-files.
type Tracked func(ctx context.Context) ([]string, error)

// ErrForeign wraps every refusal of a workset git tracks.
var ErrForeign = errors.New("workset tracked by git")

// ForeignError says git tracks a workset.
type ForeignError struct {
	Name string
	File string // one of the files git tracks there
}

func (e *ForeignError) Error() string {
	if !strings.HasPrefix(e.File, Dir+"/") {
		return fmt.Sprintf("workset %s is not canon's: git tracks %s, the folder canon keeps this machine's worksets in, and canon reads and runs only worksets it made here; take it out of git with: git rm -q -- %s && git commit",
			e.Name, e.File, e.File)
	}
	return fmt.Sprintf("workset %s is tracked by git (%s): it came with the repository, and canon reads and runs only worksets it made here; take it out of git with: git rm -r -q -- %s/%s && git commit",
		e.Name, e.File, Dir, e.Name)
}

func (e *ForeignError) Unwrap() error { return ErrForeign }

// everyWorkset stands, in foreignWorksets' answer, for all of them: git
// tracks the folder itself (.cache or .cache/worksets as a link to
// tracked files), so no workset there is canon's.
const everyWorkset = "*"

// foreignWorksets maps the name of each workset git tracks to one of its
// tracked files.
func foreignWorksets(ctx context.Context, tracked Tracked) (map[string]string, error) {
	files, err := tracked(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, f := range files {
		rest, ok := strings.CutPrefix(f, Dir+"/")
		if !ok {
			out[everyWorkset] = f // .cache or .cache/worksets itself
			continue
		}
		name, _, _ := strings.Cut(rest, "/")
		if _, seen := out[name]; !seen {
			out[name] = f // a file in it, or the folder as a link
		}
	}
	return out, nil
}

// foreignGuard answers, for one run of workset operations, whether git
// tracks a workset: git is asked once, the first time a workset is to be
// opened.
type foreignGuard struct {
	tracked Tracked
	asked   bool
	names   map[string]string
	err     error
}

// check refuses a workset git tracks. Without a way to ask git (tests
// that build an Env by hand) it lets everything through.
func (g *foreignGuard) check(ctx context.Context, name string) error {
	if g == nil || g.tracked == nil {
		return nil
	}
	if !g.asked {
		g.names, g.err = foreignWorksets(ctx, g.tracked)
		g.asked = true
	}
	if g.err != nil {
		return fmt.Errorf("canon opens only worksets git does not track, and could not tell for %s: %w", name, g.err)
	}
	if f, ok := g.names[name]; ok {
		return &ForeignError{Name: name, File: f}
	}
	if f, ok := g.names[everyWorkset]; ok {
		return &ForeignError{Name: name, File: f}
	}
	return nil
}
