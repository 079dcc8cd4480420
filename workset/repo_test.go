package workset

import (
	"context"
	"path/filepath"

	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/index/scan"
)

// idRepo is the Repository of a fixture: the sync is the fixture's.
type idRepo struct{ f *fixture }

func (r idRepo) CheckPlanned(context.Context, map[string][]byte) (*check.Result, error) {
	return &check.Result{}, nil
}
func (r idRepo) SyncWritten(context.Context, []string) error { r.f.sync(); return nil }
func (r idRepo) CheckPaths(context.Context, []string) (*check.Result, error) {
	return &check.Result{}, nil
}
func (r idRepo) SyncWorkingTree(context.Context) error { r.f.sync(); return nil }
func (r idRepo) Documents() *scan.Scope                { return scan.NewScope(r.f.root, r.f.cfg, "") }

// JournalDir is beside the working tree, as a git folder would be.
func (r idRepo) JournalDir() string {
	return filepath.Join(filepath.Dir(r.f.root), "git", "canon", "journal")
}
func (r idRepo) StageRename(context.Context, string, string) error {
	return nil
}
