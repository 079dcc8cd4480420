package gitsync

import (
	"context"
	"testing"

	"github.com/canon-md/canon/index/indextest"
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
