package gitsync

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/scan"
)

// A finding about a field a README takes from its sidecar names the
// field's line of the sidecar (check.Input.ReadSidecar): the sidecar is
// read as the checked state has it.

// worktreeSidecar reads the first sidecar beside the README at readme
// that the working tree has, within config.MaxSidecarBytes and through
// safepath, as the index reads it: "" for none or one not read.
func (s *Session) worktreeSidecar(readme string) (string, []byte) {
	for _, p := range scan.SidecarsOf(s.Cfg, readme) {
		data, err := safepath.ReadFile(filepath.Join(s.Repo.Root, filepath.FromSlash(p)), config.MaxSidecarBytes, s.Repo.Root)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", nil
		}
		return p, data
	}
	return "", nil
}

// sidecarIn reads the sidecar beside a README as one state of the staged
// check has it (sides: the staged READMEs' sidecars after the commit or
// before it), from git; a README the commit does not touch as the
// working tree has it.
func (s *Session) sidecarIn(ctx context.Context, cat func() *CatFile, sides map[string]sideBlob) func(string) (string, []byte) {
	return func(readme string) (string, []byte) {
		sb, ok := sides[readme]
		if !ok {
			return s.worktreeSidecar(readme)
		}
		ps := scan.SidecarsOf(s.Cfg, readme)
		if sb.oid == "" || sb.i >= len(ps) {
			return "", nil
		}
		data, err := s.Repo.readBlob(ctx, cat(), sb.oid, config.MaxSidecarBytes)
		if err != nil {
			return "", nil
		}
		return ps[sb.i], data
	}
}
