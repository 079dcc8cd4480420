package gitsync

import (
	"context"
	"errors"
	"testing"

	"github.com/canon-md/canon/index/indextest"
	"github.com/canon-md/canon/index/safepath"
)

// TestOpenToRebuildWaitEndsWithContext: canon index --full waiting for
// another process's schema migration stops at Ctrl-C (its context), with
// nothing written, as every other command's open does.
func TestOpenToRebuildWaitEndsWithContext(t *testing.T) {
	t.Parallel()
	dir, s := committed(t, map[string]string{"a.md": "# A\n"})
	path := s.Repo.IndexPath()
	s.Close()                        // and once more when the test ends: a second Close does nothing
	indextest.MigrationHeld(t, path) // another process migrating
	indextest.EndsWithContext(t, func(ctx context.Context) error {
		s, _, err := OpenToRebuild(ctx, dir, "test")
		if err == nil {
			s.Close()
		}
		return err
	})
}

// TestCheckPathsStayInside: a folder named with a slash or ./ is the
// folder; a path that leaves the repository is refused before anything
// outside is looked at, whether it exists or not (the MCP tool passes
// paths as written).
func TestCheckPathsStayInside(t *testing.T) {
	t.Parallel()
	_, s := committed(t, map[string]string{"docs/a.md": "# A\n"})
	ctx := context.Background()
	for _, p := range []string{"docs", "docs/", "./docs"} {
		if _, err := s.CheckPaths(ctx, []string{p}); err != nil {
			t.Errorf("CheckPaths(%q): %v", p, err)
		}
	}
	for _, p := range []string{"../../../../../../etc", "../../../../../../nonexistent", "/etc", "docs/../../x"} {
		_, err := s.CheckPaths(ctx, []string{p})
		var rel *safepath.RelError
		if !errors.As(err, &rel) {
			t.Errorf("CheckPaths(%q): %v, want a path refused as outside the repository", p, err)
		}
	}
}
